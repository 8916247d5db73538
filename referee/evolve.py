"""`evolve(value, **changes)`: a value (referee.values) or NamedTuple with some fields changed, fast.

A replay makes a new state for every event, so running `__init__` again over every field was the
largest cost of `check` after parsing. A state's fields
are copied straight into the new object's `__dict__` instead, and only its declared fields:
values cached on the old object (`functools.cached_property`) are not carried over.
"""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from referee.values import fields

T = TypeVar("T")
_Known = tuple[tuple[str, ...], frozenset[str], tuple[str, ...], tuple[str, ...],
               tuple[tuple[str, Any], ...]]
_FIELDS: dict[type, _Known] = {}


def evolve(value: T, **changes: Any) -> T:
    replace_tuple = getattr(value, "_replace", None)
    if replace_tuple is not None:  # a NamedTuple: its own, already fast
        try:
            return replace_tuple(**changes)  # type: ignore[no-any-return]
        except ValueError as exc:
            raise TypeError(str(exc)) from None
    cls = type(value)
    known = _FIELDS.get(cls)
    if known is None:
        names = tuple(f.name for f in fields(cls))
        cached = tuple(name for klass in cls.__mro__ for name, attr in vars(klass).items()
                       if isinstance(attr, functools.cached_property))
        init = tuple(f.name for f in fields(cls) if f.init)
        fresh = tuple((f.name, f.default_factory) for f in fields(cls)
                      if not f.init and callable(f.default_factory))  # a per-object memo
        known = _FIELDS[cls] = (names, frozenset(names), cached, init, fresh)
    names, allowed, cached, init, fresh = known
    if not changes.keys() <= allowed:
        raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - allowed)[0]!r}")
    old = getattr(value, "__dict__", None)
    if old is None:  # a class with __slots__: through its __init__
        given = {name: getattr(value, name) for name in init}
        given.update(changes)
        return cls(**given)
    values = old.copy()
    if len(values) != len(names):  # values cached on the old object are computed again
        for name in cached:
            values.pop(name, None)
        if len(values) != len(names):  # anything else set on the old object: fields only
            values = {name: old[name] for name in names}
    values.update(changes)
    for name, factory in fresh:
        values[name] = factory()
    new = object.__new__(cls)
    object.__setattr__(new, "__dict__", values)
    return new
