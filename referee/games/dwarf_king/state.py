"""The state of a game of The Dwarf King: small frozen values, replaced (never mutated) by events.

The referee does not see the hands. Each physical hand of cards is a `HiddenHand` (referee.hands):
how many cards it holds, the cards known to be in it (shown for the quest, entered at the deal,
taken back with the Sorcerer, or every card when the tool dealt them), and the voids it has shown.
Hands belong to the cards, not to the players: when hands are swapped or passed they move between
seats, so the voids travel with the cards.
"""

from __future__ import annotations

from typing import Any

from referee.derived import derived
from referee.engine import Notice
from referee.evolve import evolve
from referee.games.dwarf_king.components import deck
from referee.hands import HiddenHand
from referee.values import value

Slot = HiddenHand  # one seat's hand, as the referee knows it


@value
class Trick:
    number: int
    plays: tuple[tuple[int, str], ...]  # (seat, card) in the order played
    winner: int  # a trick is recorded once it is complete
    replaced: str | None = None  # the card the Sorcerer took back; the Sorcerer lies in its place

    @derived("plays", "replaced")  # asked at every card played (`Deal.is_gone`)
    def cards(self) -> tuple[str, ...]:
        return tuple("Sorcerer" if c == self.replaced else c for _, c in self.plays)

    def player_of(self, card: str) -> int | None:
        return next((s for s, c in self.plays if c == card), None)

    @property
    def winning_card(self) -> str:
        return next(c for s, c in self.plays if s == self.winner)


@value
class Deal:
    """One hand: from the special card's reveal to the last trick."""

    number: int
    dealer: int
    special: str | None = None
    quest: tuple[int, str] | None = None
    swapped: bool = False  # the Goblins' Flag Bearer swap is done
    leader: int | None = None
    slots: tuple[Slot, ...] = ()  # by seat: the hand each seat holds now
    tricks: tuple[Trick, ...] = ()  # completed tricks
    plays: tuple[tuple[int, str], ...] = ()  # the trick in progress
    pending: str = ""  # "trade-hands" / "pass-hands": a choice awaited after a trick
    pending_seat: int | None = None
    # The 2 cards the Goblins' Flag Bearer took from a hand the tool dealt, and the seat they
    # came from, while he chooses the 2 he gives back: his to see alone (`status --for NAME`).
    taken: tuple[str, ...] = ()
    taken_from: int | None = None

    @property
    def trick_number(self) -> int:
        return len(self.tricks) + 1

    @property
    def turn_leader(self) -> int:
        seat = self.tricks[-1].winner if self.tricks else self.leader
        assert seat is not None
        return seat

    @derived("tricks", "plays")
    def gone(self) -> frozenset[str]:
        """Cards no longer in any hand: in completed tricks or on the table."""
        out = {c for t in self.tricks for c in t.cards}
        out.update(c for _, c in self.plays)
        return frozenset(out)

    def is_gone(self, card: str) -> bool:
        """`card in self.gone`, without building the set: every card played asks it of a new
        deal, while each trick's cards are cached once for the whole hand."""
        for _, played in self.plays:
            if played == card:
                return True
        for trick in self.tricks:
            if card in trick.cards:
                return True
        return False

    def deck(self, players: int) -> frozenset[str]:
        return deck(players, self.special) if self.special else frozenset()

    def holder(self, card: str) -> int | None:
        """The seat known to hold `card` (it is in one slot's known cards, or only one slot is
        not fully known), else None."""
        for seat, slot in enumerate(self.slots):
            if card in slot.known:
                return seat
        open_slots = [s for s, slot in enumerate(self.slots) if not slot.complete]
        if len(open_slots) == 1 and card in self.deck(len(self.slots)) \
                and not self.is_gone(card):
            return open_slots[0]
        return None

    def with_slot(self, seat: int, slot: Slot, **changes: Any) -> Deal:
        """The deal with `seat`'s hand replaced (and any other `changes`, in one copy)."""
        slots = self.slots[:seat] + (slot,) + self.slots[seat + 1:]
        return evolve(self, slots=slots, **changes)

    # A replay makes a new deal and a new state at every card played: these two are built
    # positionally, as `evolve` costs about three times more (tests/test_dwarf_king_state.py
    # holds their field lists to the classes').
    def after_play(self, seat: int, slot: Slot, plays: tuple[tuple[int, str], ...],
                   tricks: tuple[Trick, ...]) -> Deal:
        """The deal after `seat` played a card: their hand is now `slot`, the trick in progress
        `plays` (empty when the card completed a trick, now the last of `tricks`)."""
        slots = self.slots[:seat] + (slot,) + self.slots[seat + 1:]
        return Deal(self.number, self.dealer, self.special, self.quest, self.swapped, self.leader,
                    slots, tricks, plays, self.pending, self.pending_seat, self.taken,
                    self.taken_from)


@value
class HandResult:
    number: int
    dealer: str
    special: str
    quest: tuple[int, str]
    points: tuple[int, ...]
    next_dealer: int  # the seat that won the 5 of Dwarves
    tricks: tuple[int, ...]  # tricks won per seat
    last_trick: tuple[tuple[int, str], ...] = ()  # (seat, card) of the hand's last trick


@value
class State:
    names: tuple[str, ...]
    edition: int
    seed: int | None
    deal: Deal
    results: tuple[HandResult, ...] = ()
    notices: tuple[Notice, ...] = ()
    over: bool = False
    stopped: str | None = None  # why the table stopped the game (the core `end` event)

    def with_deal(self, deal: Deal, notices: tuple[Notice, ...]) -> State:
        """The state after a card played (built positionally, see `Deal.after_play`)."""
        return State(self.names, self.edition, self.seed, deal, self.results, notices, self.over,
                     self.stopped)

    @property
    def players(self) -> int:
        return len(self.names)

    def seat(self, name: str) -> int:
        return self.names.index(name)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(r.points[s] for r in self.results) for s in range(self.players))

    @property
    def used_specials(self) -> tuple[str, ...]:
        return tuple(r.special for r in self.results)

    @property
    def used_tiles(self) -> tuple[int, ...]:
        return tuple(r.quest[0] for r in self.results)

