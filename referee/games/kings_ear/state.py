"""The King's Ear's state: where every card lies, whose turn it is, how the game ended."""

from __future__ import annotations

from referee.derived import derived
from referee.games.kings_ear import components
from referee.games.kings_ear.components import CARDS, PENDING, PILE, card_house
from referee.values import value


@value
class State:
    houses: tuple[str, ...]  # the four House labels
    names: tuple[str, ...]  # players in seat order
    seats: tuple[int, ...]  # each player's House index
    where: tuple[int, ...]  # card -> PILE, PENDING or the House it lies under
    turn: int = 0  # index into names
    pending: int | None = None  # a drawn card of another House waiting for place/trade
    passes: int = 0  # consecutive passes
    winner: int | None = None  # seat index
    ended: str | None = None  # why the game ended without a winner
    deck: tuple[int, ...] | None = None  # the virtual pile order of a --shuffle game
    drawn: int = 0  # cards taken from the pile so far
    stopped: str | None = None  # why the table stopped the game (the core `end` event)
    # Each seated House's best net after each full round of turns: who led when (the chart)
    rounds: tuple[tuple[int, ...], ...] = ()

    @property
    def finished(self) -> bool:
        return self.winner is not None or self.ended is not None

    @property
    def pile_size(self) -> int:
        return CARDS - self.drawn

    @property
    def player(self) -> str:
        return self.names[self.turn]

    @property
    def own(self) -> int:
        return self.seats[self.turn]

    @derived("houses")  # a name is read at every move of a replay
    def card_names(self) -> tuple[str, ...]:
        return components.card_names(self.houses)

    @derived("card_names")
    def card_ids(self) -> dict[str, int]:
        """Card name -> card."""
        return {name: card for card, name in enumerate(self.card_names)}

    def owner(self, house: int) -> str | None:
        for name, seat in zip(self.names, self.seats):
            if seat == house:
                return name
        return None

    def under(self, house: int) -> list[int]:
        return [c for c, h in enumerate(self.where) if h == house]

    @derived("where")
    def _nets(self) -> tuple[int, ...]:
        """All 16 section nets in one pass: index house * 4 + profession."""
        nets = [0] * 16
        for card, house in enumerate(self.where):
            if house >= 0:
                value = card % 4 + 1
                nets[house * 4 + card // 4 % 4] += value if card // 16 == house else -value
        return tuple(nets)

    def net(self, house: int, profession: int) -> int:
        return self._nets[house * 4 + profession]

    def nets(self, house: int) -> tuple[int, ...]:
        return self._nets[house * 4:house * 4 + 4]

    def best_nets(self) -> tuple[int, ...]:
        """Each seated House's best net (what wins at 10 and ranks by R-8), in seat order."""
        return tuple(max(self.nets(house)) for house in self.seats)


def locked(state: State, card: int) -> bool:
    """A card under its own House is in its correct position and never moves again."""
    return state.where[card] == card_house(card)


def tradeable_under(state: State, house: int) -> list[int]:
    return [c for c in state.under(house) if card_house(c) != house]


def inventory(state: State) -> dict[str, int]:
    """Where the 64 cards are."""
    counts = {"pile": 0, "drawn, waiting": 0, **{f"under {h}": 0 for h in state.houses}}
    for h in state.where:
        key = ("pile" if h == PILE else "drawn, waiting" if h == PENDING
               else f"under {state.houses[h]}")
        counts[key] += 1
    return counts

