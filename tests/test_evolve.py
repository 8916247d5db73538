"""`@value` (referee.values) behaves as a frozen dataclass, and `evolve` is `dataclasses.replace`,
faster, that never carries a cached value over."""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass
from dataclasses import field as data_field
from functools import cached_property
from typing import Any

import pytest

from referee.evolve import evolve
from referee.values import FrozenInstanceError, field, fields, value


@value
class Point:
    x: int
    y: int = 0

    @cached_property
    def norm(self) -> int:
        return abs(self.x) + abs(self.y)


@value(slots=True)
class Slotted:
    a: int
    b: str = ""
    tags: tuple[str, ...] = ()


@value
class Memo:
    name: str
    items: dict[str, int] = field(default_factory=dict)
    note: str = field(default="", compare=False, repr=False)
    memo: dict[Any, Any] = field(default_factory=dict, init=False, compare=False, repr=False)


@dataclass(frozen=True)
class DataMemo:  # the same class as a dataclass: `@value` must agree with it
    name: str
    items: dict[str, int] = data_field(default_factory=dict)
    note: str = data_field(default="", compare=False, repr=False)
    memo: dict[Any, Any] = data_field(default_factory=dict, init=False, compare=False, repr=False)


def test_a_value_is_a_frozen_dataclass():
    for made in (Memo("a", {"x": 1}, note="n"), DataMemo("a", {"x": 1}, note="n")):
        assert repr(made).endswith("Memo(name='a', items={'x': 1})")
        assert made == type(made)("a", {"x": 1}, note="other")  # `note` is not compared
        assert made != type(made)("b") and type(made)("b").items == {}
        assert type(made)("b").items is not type(made)("c").items  # a fresh default each
        with pytest.raises(AttributeError):
            made.name = "b"  # type: ignore[misc]
        with pytest.raises(AttributeError):
            del made.name  # type: ignore[misc]
        with pytest.raises(TypeError):
            type(made)()  # type: ignore[call-arg]
        with pytest.raises(TypeError):
            hash(made)  # a dict field: unhashable, as a dataclass's
    assert Memo("a") != DataMemo("a") and Point(1) != (1, 0)
    assert hash(Slotted(1, "x")) == hash(Slotted(1, "x")) and Slotted(1) in {Slotted(1)}
    assert repr(Slotted(1, "x")) == "Slotted(a=1, b='x', tags=())"
    assert [f.name for f in fields(Memo)] == ["name", "items", "note", "memo"]
    assert Memo.note == DataMemo.note == "" and not hasattr(Memo, "items")
    assert not hasattr(Slotted(1), "__dict__")
    with pytest.raises(FrozenInstanceError):
        Slotted(1).a = 2  # type: ignore[misc]


@value(slots=True)
class One:
    only: str


@value
class Empty:
    pass


def test_values_of_one_field_or_none():
    assert One("a") == One("a") != One("b") and hash(One("a")) == hash(One("a"))
    assert repr(One("a")) == "One(only='a')" and repr(Empty()) == "Empty()"
    assert Empty() == Empty() and hash(Empty()) == hash(Empty())
    assert pickle.loads(pickle.dumps(One("a"))) == One("a")
    assert evolve(One("a"), only="b") == One("b")


def test_a_value_pickles_and_copies():
    for made in (Point(3, 4), Slotted(1, "x", ("t",)), Memo("a", {"x": 1}, note="n")):
        again = pickle.loads(pickle.dumps(made, protocol=5))
        assert again == made and type(again) is type(made)
        assert copy.copy(made) == made and copy.deepcopy(made) == made
    assert pickle.loads(pickle.dumps(Memo("a", note="n"))).note == "n"


def test_a_default_after_no_default_is_refused():
    class Wrong:
        a: int = 1
        b: int

    with pytest.raises(TypeError, match="Wrong.b"):
        value(Wrong)

    class Unset:
        a: int = field(init=False)

    with pytest.raises(TypeError, match="Unset.a: init=False needs a default"):
        value(Unset)


def test_init_is_compiled_by_the_first_object():
    @value(slots=True)
    class Late:
        a: int
        b: int = 2

    first = Late.__init__
    assert Late(1) == Late(1, 2) and Late.__init__ is not first
    assert Late(a=3).b == 2 and Late.__init__.__qualname__.endswith("Late.__init__")


def test_evolve_is_replace():
    p = Point(1, 2)
    assert p.norm == 3
    q = evolve(p, x=5)
    assert q == Point(5, 2) and q.norm == 7 and p.norm == 3
    assert evolve(Slotted(1), b="z") == Slotted(1, "z")
    assert evolve(p) == p and evolve(p) is not p
    with pytest.raises(FrozenInstanceError):
        q.x = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        evolve(p, z=1)
    with pytest.raises(TypeError):
        evolve(Slotted(1), z=1)
    object.__setattr__(p, "scratch", 1)  # anything else kept on the old value stays there
    assert vars(evolve(p, y=1)) == {"x": 1, "y": 1}


def test_evolve_starts_a_fresh_memo():
    old = Memo("a")
    old.memo["seen"] = 1
    new = evolve(old, name="b")
    assert new.memo == {} and old.memo == {"seen": 1} and new.items is old.items


def test_evolve_a_named_tuple():
    from referee.hands import HiddenHand

    hand = HiddenHand(3)
    assert evolve(hand, size=2) == HiddenHand(2)
    with pytest.raises(TypeError):
        evolve(hand, colour="red")


def test_a_subclass_evolves_through_its_own_plan_never_its_parents():
    from typing import NamedTuple

    from referee.derived import derived

    @value
    class Parent:
        x: int

    @value
    class Child(Parent):
        x: int
        y: int = 0

        @derived("x", "y")
        def total(self) -> int:
            return self.x + self.y

    assert evolve(Parent(1), x=2) == Parent(2)  # the parent's plan is made first
    child = evolve(Child(1, 2), x=3)
    assert type(child) is Child and child == Child(3, 2) and Child.total(child) == 5
    assert Child.total(evolve(child, y=10)) == 13

    class Undeclared(Parent):  # no value class: no fields of its own, never the parent's plan
        pass
    assert vars(Undeclared)["__evolve_plan__"] is not vars(Parent)["__evolve_plan__"]
    with pytest.raises(KeyError):
        evolve(Undeclared(1), x=2)

    class Pair(NamedTuple):
        a: int
        b: int = 0

    class Named(Pair):  # a NamedTuple's subclass: its parent's _replace makes its own type
        pass
    assert type(evolve(Pair(3), b=2)) is Pair
    assert evolve(Named(3), b=2) == (3, 2) and type(evolve(Named(3), b=2)) is Named


def test_a_value_class_keeps_its_own_init_subclass():
    made = []

    @value
    class Hooked:
        x: int

        def __init_subclass__(cls, **kwargs: Any) -> None:
            super().__init_subclass__(**kwargs)
            made.append(cls.__name__)

    @value
    class Sub(Hooked):
        x: int
        y: int = 0

    assert made == ["Sub"] and type(evolve(Sub(1), y=2)) is Sub


def test_a_value_declared_after_the_first_evolve_is_dropped_by_the_next():
    """A module may declare a derived value after its class has evolved once: the plan made
    then knew nothing of it and must not stand (the class has no plan again, its own)."""
    from referee.derived import NoPlanYet, derived

    @value
    class Purse:
        gold: int

    assert evolve(Purse(1), gold=2) == Purse(2)
    assert not isinstance(vars(Purse)["__evolve_plan__"], NoPlanYet)  # made

    @derived(Purse, "gold")
    def doubled(purse: Purse) -> int:
        return 2 * purse.gold

    assert isinstance(vars(Purse)["__evolve_plan__"], NoPlanYet)
    purse = Purse(3)
    assert doubled(purse) == 6 and doubled(evolve(purse, gold=5)) == 10
