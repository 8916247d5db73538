"""What the rules derive from a state, kept while what it derives from is the very same objects.

A replay makes a new State for every event, yet most events replace few of its fields, and a
State never changes a field in place (state.py). What was derived from some fields is therefore
still right for any later state whose fields are the same objects. Identity (`is`) is the test:
it is cheap, and never wrong, since equal but distinct objects only mean computing again. Each
helper keeps one result, the last, with the objects it came from (so no id is ever reused while
it is kept).
"""

from __future__ import annotations

from functools import wraps
from operator import attrgetter, is_
from typing import Any, Callable, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


def recalled(function: Callable[P, R]) -> Callable[P, R]:
    """`function` of immutable positional arguments, computed again only when they are not the
    objects of its last call. Its result is shared: callers must not change it."""
    last: list[Any] = [(), None]  # the arguments, the result

    @wraps(function)
    def again(*args: P.args, **kwargs: P.kwargs) -> R:
        seen, result = last
        if len(seen) == len(args) and all(map(is_, args, seen)):
            return result  # type: ignore[no-any-return]
        result = function(*args, **kwargs)
        last[:] = args, result
        return result

    return again


def recalled_on(*reads: str) -> Callable[[Callable[[T], R]], Callable[[T], R]]:
    """For a function of one state that reads only the fields named (`reads`): computed again
    only when those fields are not the objects of its last call. Its result is shared."""
    return recalled_by(_getter(reads))


def recalled_by(key: Callable[[T], tuple[Any, ...]]
                ) -> Callable[[Callable[[T], R]], Callable[[T], R]]:
    """For a function of one state that depends on nothing but `key(state)` (a tuple of its
    fields, or of what it reads in them): computed again only when the key's items are not the
    objects of its last call. Its result is shared."""

    def wrap(function: Callable[[T], R]) -> Callable[[T], R]:
        last: list[Any] = [(), None]  # the key, the result

        @wraps(function)
        def again(state: T) -> R:
            inputs = key(state)
            seen, result = last
            if seen and all(map(is_, inputs, seen)):
                return result  # type: ignore[no-any-return]
            result = function(state)
            last[:] = inputs, result
            return result

        return again

    return wrap


def quiet_while_same(*reads: str) -> Callable[[Callable[[T], T]], Callable[[T], T]]:
    """For a step that returns its state unchanged (the same object) when it has nothing to
    do: once it had nothing to do, it is not run again while the fields it reads (`reads`) are
    the same objects. The step must read nothing else: it is then a function of those fields,
    and would again do nothing."""
    get = _getter(reads)

    def wrap(step: Callable[[T], T]) -> Callable[[T], T]:
        quiet: list[Any] = [()]  # the fields read when it last had nothing to do

        @wraps(step)
        def run(state: T) -> T:
            fields = get(state)
            last = quiet[0]
            if last and all(map(is_, fields, last)):
                return state
            out = step(state)
            if out is state:
                quiet[0] = fields
            return out

        return run

    return wrap


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The named attributes of an object, as a tuple (even one)."""
    if len(names) > 1:
        return attrgetter(*names)
    get = attrgetter(names[0])
    return lambda obj: (get(obj),)
