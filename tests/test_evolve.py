"""`evolve` is `dataclasses.replace`, faster, and never carries a cached value over."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, replace
from functools import cached_property

import pytest

from referee.evolve import evolve


@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0

    @cached_property
    def norm(self) -> int:
        return abs(self.x) + abs(self.y)


@dataclass(frozen=True, slots=True)
class Slotted:
    a: int
    b: str = ""


def test_evolve_is_replace():
    p = Point(1, 2)
    assert p.norm == 3
    q = evolve(p, x=5)
    assert q == replace(p, x=5) == Point(5, 2) and q.norm == 7 and p.norm == 3
    assert evolve(Slotted(1), b="z") == Slotted(1, "z")
    assert evolve(p) == p and evolve(p) is not p
    with pytest.raises(FrozenInstanceError):
        q.x = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        evolve(p, z=1)
    object.__setattr__(p, "scratch", 1)  # anything else kept on the old value stays there
    assert vars(evolve(p, y=1)) == {"x": 1, "y": 1}


def test_evolve_a_named_tuple():
    from referee.hands import HiddenHand

    hand = HiddenHand(3)
    assert evolve(hand, size=2) == HiddenHand(2)
    with pytest.raises(TypeError):
        evolve(hand, colour="red")
