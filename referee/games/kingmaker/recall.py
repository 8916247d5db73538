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
    get = _getter(reads)

    def wrap(function: Callable[[T], R]) -> Callable[[T], R]:
        last: list[Any] = [(), None]  # the fields, the result

        @wraps(function)
        def again(state: T) -> R:
            fields = get(state)
            seen, result = last
            if seen and all(map(is_, fields, seen)):
                return result  # type: ignore[no-any-return]
            result = function(state)
            last[:] = fields, result
            return result

        return again

    return wrap


def quiet_while_same(*reads: tuple[str, ...]) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """For a step that returns its last argument, a state, unchanged when it has nothing to do:
    once it had nothing to do, it is not run again while the fields it reads (`reads`, a tuple
    of field names for each positional argument) are the same objects. The step must read
    nothing else: it is then a function of those fields, and would again do nothing."""
    getters = [_getter(names) for names in reads]

    def wrap(step: Callable[P, R]) -> Callable[P, R]:
        quiet: list[Any] = [None]  # the fields read when it last had nothing to do

        @wraps(step)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            fields = [get(arg) for get, arg in zip(getters, args)]
            last = quiet[0]
            if last is not None and all(map(_same, fields, last)):
                return args[-1]  # type: ignore[return-value]
            out = step(*args, **kwargs)
            if out is args[-1]:
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


def _same(these: tuple[Any, ...], those: tuple[Any, ...]) -> bool:
    return all(map(is_, these, those))
