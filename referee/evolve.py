"""`evolve(value, **changes)`: a value (referee.values) or NamedTuple with some fields changed, fast.

A replay makes a new state for every event, so running `__init__` again over every field was the
largest cost of `check` after parsing. A state's fields are copied straight into the new object's
`__dict__` instead, and with them the derived values (referee.derived) that read none of the
changed fields: the others are dropped (or wait to be updated, when they declare how). A memo
field (`init=False` with a default factory) starts empty. Each class's way of evolving is worked
out at its first evolve and kept on the class (`__evolve_plan__`), as its `__init__` is.
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from referee.derived import PLAN, carry, dropped_and_waiting, readers
from referee.values import fields

T = TypeVar("T")
Plan = Callable[[Any, dict[str, Any]], Any]
_new = object.__new__


def evolve(value: T, **changes: Any) -> T:
    cls = type(value)
    try:  # an attribute look-up, a third of the cost of cls.__dict__.get: every value class
        # (and every subclass of one) has its own in its own __dict__ (values._own_plan)
        plan = cls.__evolve_plan__  # type: ignore[attr-defined]
    except AttributeError:  # none yet (derived.NoPlanYet), or a NamedTuple's first (a
        # subclass of one may share it: its _replace makes its own type)
        plan = plan_for(cls)
    new: T = plan(value, changes)
    return new


def plan_for(cls: type) -> Plan:
    """Work out how `cls` evolves and keep it in the class's own `__dict__`."""
    if hasattr(cls, "_replace"):  # a NamedTuple: its own, already fast
        plan: Plan = _named_tuple
    elif "__slots__" in vars(cls):  # no __dict__ to copy
        plan = _through_init(cls)
    else:
        plan = _dict_copy(cls)
    setattr(cls, PLAN, plan)
    return plan


def _named_tuple(value: Any, changes: dict[str, Any]) -> Any:
    try:
        return value._replace(**changes)
    except ValueError as exc:
        raise TypeError(str(exc)) from None


def _refuse(cls: type, allowed: frozenset[str], changes: dict[str, Any]) -> None:
    raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - allowed)[0]!r}")


def _through_init(cls: type) -> Plan:
    """A class with __slots__: the ordinary way, through its __init__."""
    init = tuple(f.name for f in fields(cls) if f.init)
    allowed = frozenset(f.name for f in fields(cls))

    def plan(value: Any, changes: dict[str, Any]) -> Any:
        if not changes.keys() <= allowed:
            _refuse(cls, allowed, changes)
        given = {name: getattr(value, name) for name in init}
        given.update(changes)
        return cls(**given)
    return plan


def _dict_copy(cls: type) -> Plan:
    names = tuple(f.name for f in fields(cls))
    allowed = frozenset(names)
    fresh = tuple((f.name, f.default_factory) for f in fields(cls)
                  if not f.init and callable(f.default_factory))
    by_field = readers(cls)
    if by_field:
        return _with_derived(cls, allowed, fresh, by_field)
    count = len(names)

    def plan(value: Any, changes: dict[str, Any]) -> Any:
        old = value.__dict__
        new: Any = _new(cls)
        values = new.__dict__  # filled in place: a third quicker than assigning a copy
        if len(old) == count:
            values.update(old)
        else:  # something cached on the old object: the fields only
            values.update({name: old[name] for name in names})
        values.update(changes)
        if len(values) != count:  # a change that is no field added a key
            _refuse(cls, allowed, changes)
        for name, factory in fresh:
            values[name] = factory()
        return new
    return plan


def _with_derived(cls: type, allowed: frozenset[str], fresh: tuple[tuple[str, Any], ...],
                  by_field: dict[str, Any]) -> Plan:
    """A class with derived values: the old object's whole `__dict__` is copied, then the
    values that read a changed field are dropped. Copied by `dict.copy`, which copies a
    dict's table as one block whatever its layout: `update` into the new object's empty
    `__dict__` does so only for a compact table of its own, and a state made by `__init__`
    shares its class's table (as each of its copies then did) or has a key dropped, so
    `update` went key by key (6-10% of the four games' `check`)."""
    # Per field: the keys dropped at once, no call (most values), and the values that wait
    # to be updated or compared (through `carry`, when there are any).
    actions = {name: dropped_and_waiting(items) for name, items in by_field.items()}

    def plan(value: Any, changes: dict[str, Any]) -> Any:
        old = value.__dict__
        values = old.copy()
        values.update(changes)
        if not allowed.issuperset(changes):
            _refuse(cls, allowed, changes)
        for name in changes:
            if name in actions and changes[name] is not old[name]:
                dropped, waiting = actions[name]
                for key in dropped:
                    if key in values:
                        del values[key]
                if waiting:
                    carry(old, values, waiting)
        for name, factory in fresh:
            values[name] = factory()
        new: Any = _new(cls)
        _set_dict(new, "__dict__", values)
        return new
    return plan


_set_dict = object.__setattr__
