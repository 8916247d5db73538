"""What the referee knows about a hand of cards it cannot see.

A `HiddenHand` is one physical hand: how many cards it holds, the cards known to be in it (shown,
entered, dealt by the tool, or deduced), and the classes of cards it has been shown not to hold
(voids: a player did not follow suit). Hands belong to the cards, not to the seats: when hands are
swapped or passed the `HiddenHand` values move between seats, so what is known travels with the
cards.

What the referee knows is not what the table has seen: `shown` is the part of `known` that was
shown to everyone, and `public()` is the hand as the table knows it. Cards entered by the player,
dealt by the tool or deduced are for checking plays, never for printing (docs/design.md).
"""

from __future__ import annotations

from typing import Iterable

from referee.evolve import evolve
from referee.values import value


@value
class Void:
    """The hand was shown not to hold a card of class `what` (a suit) at moment `since` (a trick
    number), when `player` played `card` instead."""

    what: str
    since: int
    player: str
    card: str


@value
class HiddenHand:
    size: int
    known: frozenset[str] = frozenset()
    complete: bool = False  # `known` is the whole hand
    voids: tuple[Void, ...] = ()
    # Cards that joined the hand after moment N (e.g. taken back from a trick): they cannot prove
    # a void shown at moment N or earlier false.
    joined: tuple[tuple[str, int], ...] = ()
    shown: frozenset[str] = frozenset()  # the cards of `known` that the whole table has seen

    @classmethod
    def of(cls, cards: Iterable[str], seen: bool = False) -> HiddenHand:
        """A hand whose every card is known: dealt by the tool (for the referee only), or entered
        by its player at the table (`seen`: the table has seen it too)."""
        known = frozenset(cards)
        return cls(len(known), known, True, shown=known if seen else frozenset())

    # The methods build the new value positionally: a replay makes one at every card played,
    # and `evolve` is slower.
    def without(self, card: str) -> HiddenHand:
        """The hand after `card` left it (played, discarded, given)."""
        known = self.known - {card}
        size = self.size - 1
        return HiddenHand(size, known, self.complete or len(known) == size, self.voids,
                          self.joined, self.shown - {card})

    def knowing(self, card: str) -> HiddenHand:
        """The hand with `card` now known to the referee to be in it (not shown to the table)."""
        known = self.known | {card}
        return HiddenHand(self.size, known, self.complete or len(known) == self.size,
                          self.voids, self.joined, self.shown)

    def showing(self, card: str) -> HiddenHand:
        """The hand with `card` shown to the whole table."""
        return evolve(self.knowing(card), shown=self.shown | {card})

    def with_known(self, cards: Iterable[str]) -> HiddenHand:
        """The hand with exactly these cards known to be in it (its size unchanged); nobody can
        tell any more where the cards shown before went."""
        known = frozenset(cards)
        return evolve(self, known=known, complete=len(known) == self.size, shown=frozenset())

    def public(self) -> HiddenHand:
        """The hand as the table knows it: the cards shown, the voids, nothing else."""
        return evolve(self, known=self.shown, complete=len(self.shown) == self.size)

    def taking(self, card: str | None, after: int) -> HiddenHand:
        """The hand after a card joined it at moment `after` (None: a card nobody saw)."""
        grown = evolve(self, size=self.size + 1, complete=self.complete and card is not None)
        if card is None:
            return grown
        return evolve(grown, known=self.known | {card}, shown=self.shown | {card},
                       joined=self.joined + ((card, after),))

    def forgetting(self) -> HiddenHand:
        """The hand after cards nobody saw were exchanged: only its size is still known."""
        return HiddenHand(self.size)

    def void_in(self, what: str) -> Void | None:
        return next((v for v in self.voids if v.what == what), None)

    def showing_void(self, void: Void) -> HiddenHand:
        return self if self.void_in(void.what) else evolve(self, voids=self.voids + (void,))

    def dropping_void(self, void: Void) -> HiddenHand:
        return evolve(self, voids=tuple(v for v in self.voids if v is not void))

    def joined_after(self, card: str, moment: int) -> bool:
        """Did `card` join the hand at or after `moment`?"""
        return any(c == card and after >= moment for c, after in self.joined)
