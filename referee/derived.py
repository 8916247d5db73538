"""Derived values: what the rules work out from a state, declared once with the fields it reads.

A replay makes a new state for every event, yet most events replace few of a state's fields. A
value derived from some fields (who stands where, which sieges hold, the cards in each hand) is
therefore still right for the next state when none of those fields changed. This module is the
one place the project remembers an answer, and it remembers it only that way:

    @derived(State, "nobles")
    def nobles_by_location(state: State) -> dict[str, list[str]]:
        ...

    nobles_by_location(state)  # computed once per state, kept in the state

The value is kept in the state's own `__dict__` (never in a module, never keyed on identity), and
`referee.evolve.evolve` carries it to the new state when none of `reads` changed and drops it
when one did. Inside a class body, `@derived("cards")` on a method makes the same thing a
read-only attribute (`state.placed`).

A derived value may also declare `update(old_value, old_reads, state)`: when one of its reads
changed, the new state keeps the old value and the fields it came from, and the value is worked
out from them on first use (a move of one card of a hundred re-sorts one card, not all).

`reads` may name other derived values of the class: they stand for the fields those read. A
value that reads derived values and declares no update follows the mechanism's own rule for them:
when a field it reads only through them changes, it waits with the derived values it came from
(worked out with it, so that they are kept), and on first use it is kept if each of them, worked
out again, is the same object (a noble moved leaves the owners, so what is derived from the owners
stands); otherwise, or when a field it reads itself changed, it is worked out afresh.

`@derived(Class, *reads)` makes a plain function of one state (a kept value is one dict look-up
away), which carries its declaration as `.derived` and `.afresh`.
With `REFEREE_SELFCHECK=1` in the environment, `verify` (called by the core after every event)
works every kept value out afresh and compares: a difference is an internal error that names the
value, so a read left out of a declaration is found by the seeded playouts, not by a user.
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import Any, Callable, Generic, Iterator, Protocol, TypeVar, cast, overload

S = TypeVar("S")
R = TypeVar("R")
Update = Callable[[Any, tuple[Any, ...], Any], Any]

SELFCHECK = os.environ.get("REFEREE_SELFCHECK", "") not in ("", "0")
_TABLE = "__derived__"  # a value class's own {key: Derived}, in declaration order
_PENDING = "~"  # prefix of the key under which an updatable value waits for its first use


class SelfCheckError(AssertionError):
    """A kept derived value differs from the same value worked out afresh: a bug in referee (a
    read missing from a declaration, or an update that is wrong)."""


class Derived(Generic[S, R]):
    """A value derived from `reads` of a state class; see the module's docstring."""

    def __init__(self, function: Callable[[S], R], reads: tuple[str, ...],
                 update: Callable[[R, tuple[Any, ...], S], R] | None = None,
                 owner: type | None = None) -> None:
        self.function, self.declared, self.update = function, reads, update
        self.key = self.name = function.__name__
        self.pending = _PENDING + self.key  # where it waits for its first use
        self.reads: frozenset[str] = frozenset()  # the fields, other derived values expanded
        self.declared_keys: tuple[str, ...] = reads  # where each read is kept in a state
        # The rule for derived reads (no update of its own, some reads derived): the derived
        # values it reads, and the fields it reads itself (a change of one drops it at once).
        self.derived_reads: tuple[Derived[Any, Any], ...] = ()
        self.direct: frozenset[str] = frozenset()
        self.waits = update is not None  # it may wait for its first use (or derived_reads)
        self.__doc__ = function.__doc__
        self.__wrapped__ = function
        if owner is not None:  # declared at module level: kept under a name no field has
            self.key = f"{function.__module__}.{function.__qualname__}"
            self.pending = _PENDING + self.key
            _register(owner, self)

    def __set_name__(self, owner: type, name: str) -> None:
        self.key = self.name = name
        self.pending = _PENDING + name
        _register(owner, self)

    @overload
    def __get__(self, state: None, owner: type) -> Derived[S, R]: ...
    @overload
    def __get__(self, state: S, owner: type) -> R: ...

    def __get__(self, state: Any, owner: type) -> Any:
        # Reached only while the state does not hold the value yet: once set, the instance's
        # `__dict__` answers first (this is a non-data descriptor).
        if state is None:
            return self
        return self.compute(state)

    def __call__(self, state: S) -> R:
        kept = state.__dict__  # asked twice rather than a KeyError caught: a third are misses
        if self.key in kept:
            found: R = kept[self.key]
            return found
        return self.compute(state)

    def compute(self, state: Any) -> R:
        """Work the value out (from a waiting old one when it can) and keep it in `state`."""
        kept = state.__dict__
        if self.waits:  # only a value that updates or reads derived values ever waits
            waiting = kept.pop(self.pending, None)
            if waiting is not None and self.update is not None:
                result = self.update(waiting[0], waiting[1], state)
            else:
                result = self._from_derived_reads(state, waiting)
        else:
            result = self.function(state)
        kept[self.key] = result
        return result

    def _from_derived_reads(self, state: Any, waiting: tuple[Any, tuple[Any, ...]] | None
                            ) -> R:
        """The old value while each derived value it read, worked out again, is the same
        object; else worked out afresh. Either way its derived reads are kept in `state`, for
        the next state to compare."""
        kept = state.__dict__
        if waiting is None:
            for item in self.derived_reads:
                if item.key not in kept:
                    item.compute(state)
            return self.function(state)
        same = True
        for item, before in zip(self.derived_reads, waiting[1]):
            key = item.key
            now = kept[key] if key in kept else item.compute(state)
            if now is not before:
                same = False
        if same:
            old: R = waiting[0]
            return old
        return self.function(state)

    def afresh(self, state: S) -> R:
        """The value worked out from nothing, kept nowhere (for `verify` and the tests)."""
        return self.function(state)

    def __repr__(self) -> str:
        return f"<derived {self.key} reads {', '.join(sorted(self.reads))}>"


class Accessor(Protocol[S, R]):
    """A derived value declared at module level: called with a state, its value."""

    derived: Derived[S, R]
    afresh: Callable[[S], R]

    def __call__(self, state: S, /) -> R: ...


def _accessor(item: Derived[S, R]) -> Accessor[S, R]:
    key, compute = item.key, item.compute

    def get(state: S) -> R:
        kept = state.__dict__  # asked twice rather than a KeyError caught: a third are misses
        if key in kept:
            found: R = kept[key]
            return found
        return compute(state)

    get.__name__, get.__qualname__ = item.function.__name__, item.function.__qualname__
    get.__doc__, get.__module__ = item.__doc__, item.function.__module__
    get.__wrapped__ = item.function  # type: ignore[attr-defined]
    made = cast(Accessor[S, R], get)
    made.derived, made.afresh = item, item.afresh
    return made


@overload
def derived(owner: type[S], /, *reads: str,
            update: Callable[[R, tuple[Any, ...], S], R] | None = None
            ) -> Callable[[Callable[[S], R]], Accessor[S, R]]: ...
@overload
def derived(*reads: str, update: Update | None = None
            ) -> Callable[[Callable[[Any], R]], Derived[Any, R]]: ...


def derived(*args: Any, update: Any = None) -> Any:
    """Declare a derived value: `@derived(Class, *reads)` on a function of one state, or
    `@derived(*reads)` on a method in the class body (a read-only attribute)."""
    owner = args[0] if args and isinstance(args[0], type) else None
    reads = tuple(args[1:] if owner is not None else args)
    if not reads or not all(isinstance(name, str) for name in reads):
        raise TypeError("a derived value names the fields it reads")

    def declare(function: Callable[[Any], Any]) -> Any:
        item: Derived[Any, Any] = Derived(function, reads, update, owner)
        return _accessor(item) if owner is not None else item

    return declare


def _register(owner: type, item: Derived[Any, Any]) -> None:
    if "__slots__" in owner.__dict__:
        raise TypeError(f"{owner.__name__}: a class with __slots__ cannot keep derived values")
    if _TABLE not in owner.__dict__:
        setattr(owner, _TABLE, {})
    found: dict[str, Derived[Any, Any]] = owner.__dict__[_TABLE]
    if item.key in found:
        raise TypeError(f"{owner.__name__}: derived value {item.key!r} declared twice")
    if "__value_fields__" in owner.__dict__:  # declared after the class: its fields are known
        if not found:  # the class's first: the class itself is checked too
            _refuse_cached(owner)
        by_name: dict[str, Derived[Any, Any]] = {}
        for before in found.values():  # expanded already: only the new one is
            by_name[before.name] = by_name[before.key] = before
        _expand_one(owner, item, _field_names(owner), by_name)
    found[item.key] = item
    if PLAN in owner.__dict__:  # made before this declaration: it must not stand
        setattr(owner, PLAN, NoPlanYet())


PLAN = "__evolve_plan__"  # where evolve keeps a class's plan, in the class's own __dict__


class NoPlanYet:
    """A value class's `__evolve_plan__` until its first evolve (referee.values gives every
    value class, and every class made from one, its own): read, it is no attribute, and evolve
    works out the class's own plan in its place. A subclass never finds its parent's plan, and
    a plan once made is a plain attribute, read at no cost beyond a look-up."""

    __slots__ = ()

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        raise AttributeError(PLAN)


def table(cls: type) -> dict[str, Derived[Any, Any]]:
    """The derived values declared on `cls` ({} for none)."""
    found: dict[str, Derived[Any, Any]] = cls.__dict__.get(_TABLE, {})
    return found


def expand(cls: type) -> None:
    """Check each declared read of `cls`'s derived values and expand the derived ones into the
    fields they stand for (`@value` calls this once the class has its fields; a value declared
    after that is expanded alone, as it is declared)."""
    _refuse_cached(cls)
    names = _field_names(cls)
    by_name: dict[str, Derived[Any, Any]] = {}
    for item in table(cls).values():
        _expand_one(cls, item, names, by_name)


def _refuse_cached(cls: type) -> None:
    if "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__}: a class with __slots__ cannot keep derived values")
    cached = [name for name, item in cls.__dict__.items() if isinstance(item, cached_property)]
    if cached:  # evolve would carry it over whatever changed: it reads nothing declared
        raise TypeError(f"{cls.__name__}.{cached[0]}: a cached_property beside derived values "
                        f"(declare it with @derived and the fields it reads)")


def _field_names(cls: type) -> set[str]:
    return {f.name for f in cls.__dict__.get("__value_fields__", ())}


def _expand_one(cls: type, item: Derived[Any, Any], names: set[str],
                by_name: dict[str, Derived[Any, Any]]) -> None:
    """Check `item`'s reads against the fields `names` and the derived values `by_name`
    declared before it (by name and key), expand them, and add `item` to `by_name`."""
    if item.key in names:
        raise TypeError(f"{cls.__name__}.{item.key}: a derived value named as a field")
    reads: set[str] = set()
    for name in item.declared:
        if name in names:
            reads.add(name)
        elif name in by_name:
            reads |= by_name[name].reads
        else:
            raise TypeError(f"{cls.__name__}.{item.name} reads {name!r}, which is no field "
                            f"(nor a derived value declared before it)")
    item.reads = frozenset(reads)
    by_name[item.name] = by_name[item.key] = item
    item.declared_keys = tuple(by_name[n].key if n in by_name else n for n in item.declared)
    if item.update is None:
        item.derived_reads = tuple(by_name[n] for n in item.declared if n in by_name)
    item.waits = item.update is not None or bool(item.derived_reads)
    item.direct = frozenset(n for n in item.declared if n in names)


Carried = tuple[tuple["Derived[Any, Any]", "tuple[str, ...] | None"], ...]


def readers(cls: type) -> dict[str, Carried]:
    """field -> the derived values of `cls` that read it (what `evolve` drops when it changes),
    each with the keys of what it waits with (None: dropped at once, see `carry`)."""
    out: dict[str, list[tuple[Derived[Any, Any], tuple[str, ...] | None]]] = {}
    for item in table(cls).values():
        for name in item.reads:
            if item.update is not None:
                keys: tuple[str, ...] | None = item.declared_keys
            elif item.derived_reads and name not in item.direct:
                keys = tuple(read.key for read in item.derived_reads)
            else:
                keys = None
            out.setdefault(name, []).append((item, keys))
    return {name: tuple(items) for name, items in out.items()}


Waiting = tuple[tuple[str, str, tuple[str, ...]], ...]


def dropped_and_waiting(carried: Carried) -> tuple[tuple[str, ...], Waiting]:
    """What a change of one field does to the derived values that read it (`readers`): the
    keys dropped at once (a value, and the old value a value of derived reads waited with when
    the field is one it reads itself), and those that wait with what they came from (`carry`):
    (key, key it waits under, keys of what it waits with)."""
    dropped: list[str] = []
    waiting = []
    for item, keys in carried:
        if keys is None:
            dropped += (item.key, item.pending) if item.derived_reads else (item.key,)
        else:
            waiting.append((item.key, item.pending, keys))
    return tuple(dropped), tuple(waiting)


def carry(old: dict[str, Any], new: dict[str, Any], waiting: Waiting) -> None:
    """In `new` (a copy of `old` with a field replaced), each value of `waiting` (of
    `dropped_and_waiting`) that `old` held waits under its pending key with what it came from:
    worked out from them at its first use. One `old` did not hold stays as it was (a value
    waiting since an earlier state still waits with what it came from then)."""
    for key, pending, keys in waiting:
        if key not in new:
            continue
        value = new.pop(key)
        if len(keys) == 1:
            one = old.get(keys[0], _GONE)
            if one is not _GONE:
                new[pending] = (value, (one,))
            continue
        base = tuple([old.get(name, _GONE) for name in keys])
        if _GONE not in base:  # a derived read not worked out: nothing to start from
            new[pending] = (value, base)


_GONE = object()


def verify(state: Any, after: str = "") -> None:
    """With REFEREE_SELFCHECK: every derived value `state` keeps, or would update, worked out
    afresh and compared, and so for the values its fields hold (a deal's tricks, one level of
    tuples and mappings). Raises SelfCheckError naming the value (and `after`, the event)."""
    for item in _held_values(state):
        _verify_one(item, after)


def _held_values(state: Any, depth: int = 2) -> list[Any]:
    """`state` and the values its fields hold (alone, in a tuple, in a tuple's pairs or as a
    dict's values), to `depth` levels down: those of them with derived values."""
    found = [state] if table(type(state)) else []
    if depth:
        for spec in type(state).__dict__.get("__value_fields__", ()):
            for item in _inside(getattr(state, spec.name)):
                if "__value_fields__" in type(item).__dict__:
                    found += _held_values(item, depth - 1)
    return found


def _inside(held: Any) -> Iterator[Any]:
    """What a field holds: a value, a dict's values, a tuple's items and those of its pairs
    (a box's `(key, entry)` entries)."""
    items = held.values() if isinstance(held, dict) else \
        held if isinstance(held, tuple) else (held,)
    for item in items:
        if isinstance(item, tuple) and not hasattr(item, "_fields"):  # a pair, not a record
            yield from item
        else:
            yield item


def _verify_one(state: Any, after: str) -> None:
    kept = state.__dict__
    for item in table(type(state)).values():
        if item.key not in kept and item.pending not in kept:
            continue
        value = item(state)
        fresh = item.afresh(state)
        if value != fresh:
            raise SelfCheckError(f"derived value {type(state).__name__}.{item.name} kept "
                                 f"{_short(value)} but works out to {_short(fresh)}"
                                 + (f" after {after}" if after else ""))


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:197] + "..."


__all__ = ["Accessor", "Derived", "NoPlanYet", "PLAN", "SELFCHECK", "SelfCheckError", "carry", "derived",
           "dropped_and_waiting", "expand", "readers", "table", "verify"]
