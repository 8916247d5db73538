"""The state of a game of King of the Valley: valley, hill, castles, piles; all immutable."""

from __future__ import annotations

from typing import Any

from referee.derived import derived
from referee.evolve import evolve
from referee.games.king_of_the_valley.components import (
    COLUMNS,
    INFLUENCE,
    KINGDOM_TOKENS,
    PILE_SIZES,
    SQUARES,
    START_GOLD,
    fitting_piles,
    is_subject,
    kind,
    tile_names,
)
from referee.values import value

TILES = sum(PILE_SIZES)  # in the three piles
Held = tuple[str, bool]  # a tile in a castle column and whether it is face up


@value
class Castle:
    """A player's castle board: six columns of tiles, gold, kingdom tokens, tax tokens."""

    columns: tuple[tuple[Held, ...], ...] = ((),) * len(COLUMNS)
    gold: int = START_GOLD
    kingdoms: int = 0
    taxed: frozenset[str] = frozenset()

    def column(self, name: str) -> tuple[Held, ...]:
        return self.columns[COLUMNS.index(name)]

    def face_up(self, name: str) -> int:
        return sum(1 for _, up in self.column(name) if up)

    def any_face_up(self) -> bool:
        return any(up for col in self.columns for _, up in col)

    def tiles(self) -> list[str]:
        return [tile for col in self.columns for tile, _ in col]

    def _with_column(self, name: str, held: tuple[Held, ...]) -> "Castle":
        index = COLUMNS.index(name)
        return evolve(self, columns=self.columns[:index] + (held,) + self.columns[index + 1:])

    def add(self, tile: str, column: str) -> "Castle":
        return self._with_column(column, self.column(column) + ((tile, True),))

    def receiving(self, subjects: list[str], gold: int) -> "Castle":
        """The castle with `subjects` added face up to their portraits' columns, in order, and
        `gold`: a summon's whole gain in one copy."""
        columns = list(self.columns)
        for tile in subjects:
            columns[COLUMNS.index(column_of(tile))] += ((tile, True),)
        return evolve(self, columns=tuple(columns), gold=gold)

    def remove_face_up(self, tile: str, column: str) -> "Castle":
        held = list(self.column(column))
        held.remove((tile, True))
        return self._with_column(column, tuple(held))

    def turn_down(self, column: str, count: int) -> "Castle":
        """R-12: turn `count` face-up tiles of a column face down, real subjects before Jesters,
        the earliest first (the Jester keeps standing in as long as possible)."""
        held = list(self.column(column))
        order = sorted((i for i, (_, up) in enumerate(held) if up),
                       key=lambda i: (held[i][0] == "jester", i))
        for i in order[:count]:
            held[i] = (held[i][0], False)
        return self._with_column(column, tuple(held))


def column_of(tile: str) -> str:
    """The castle column of a subject's portrait (Jesters have none: their owner chooses)."""
    return kind(tile)


@value
class State:
    names: tuple[str, ...]
    orders: tuple[str, ...]  # the four Knight Order labels
    prices: tuple[int, ...]  # hill row prices, bottom to top
    castles: tuple[Castle, ...]
    kings: tuple[int | None, ...]
    virtual: tuple[tuple[str, ...], ...] | None = None  # shuffled piles of a seeded game
    seen: tuple[tuple[str, ...], ...] = ((), (), ())  # tiles revealed so far, per pile
    valley: tuple[str | None, ...] = (None,) * SQUARES
    coins: tuple[int, ...] = (0,) * SQUARES  # priests' coins lying on valley squares
    hill: tuple[tuple[str, ...], ...] = ((), ())
    discard: tuple[str, ...] = ()  # specialists used and discarded
    pending: tuple[str, ...] = ()  # summoned tiles still to activate or place, in order
    turn: int = 0  # turns begun since the first (active player = turn % players)
    phase: str = "reveal"  # reveal, king, recruit, summon, activate, kingdom, over
    awaiting: tuple[int, ...] = ()  # places of the tiles still to reveal, in order
    emptied: tuple[int, ...] = ()  # valley squares emptied this turn, in the order passed
    kingdom_claimed: bool = False  # this turn
    end_triggered: bool = False
    round_castles: tuple[tuple[Castle, ...], ...] = ()  # the castles as each round ended (chart)
    stopped: str | None = None  # why the table stopped the game (the core `end` event)

    @derived("orders")
    def tile_set(self) -> frozenset[str]:
        """Every tile name of this game: a reveal asks of every tile whether it is one."""
        return frozenset(tile_names(self.orders))

    @derived("virtual")
    def virtual_fits(self) -> bool:
        """The virtual piles (of a --shuffle game) are whole piles that fit the box."""
        return self.virtual is not None and fitting_piles(self.virtual)

    @property
    def setting_up(self) -> bool:
        return None in self.kings

    @property
    def active(self) -> int:
        kings = self.kings  # `setting_up`, inlined: asked several times at every event
        if None in kings:
            return kings.index(None)
        return self.turn % len(self.names)

    @property
    def player(self) -> str:
        return self.names[self.active]

    @property
    def castle(self) -> Castle:
        return self.castles[self.active]

    @property
    def round(self) -> int:
        return self.turn // len(self.names) + 1

    @property
    def kingdoms_left(self) -> int:
        return KINGDOM_TOKENS - sum(c.kingdoms for c in self.castles)

    def unrevealed(self) -> tuple[int, ...]:
        return tuple([size - len(seen) for size, seen in zip(PILE_SIZES, self.seen)])

    def pile_supply(self) -> int:
        """Tiles still in piles II and III that are not already promised to a waiting place."""
        return TILES - sum(map(len, self.seen)) - len(self.awaiting)

    def next_pile(self, offset: int = 0) -> int:
        """The pile the `offset`-th next revealed tile comes from (I, then II, then III)."""
        left = offset
        for index, count in enumerate(self.unrevealed()):
            if left < count:
                return index
            left -= count
        raise IndexError("all piles are empty")

    def next_piles(self, count: int) -> list[int]:
        """`next_pile` of each of the next `count` tiles, counting the piles once."""
        out: list[int] = []
        for index, (size, seen) in enumerate(zip(PILE_SIZES, self.seen)):
            if len(out) == count:
                break
            out += [index] * min(size - len(seen), count - len(out))
        if len(out) < count:
            raise IndexError("all piles are empty")
        return out

    def other_king_on(self, square: int, me: int) -> bool:
        return any(k == square for i, k in enumerate(self.kings) if i != me)

    def hill_tile(self, side: int, row: int) -> str | None:
        column = self.hill[side]
        return column[row - 1] if 1 <= row <= len(column) else None

    def hill_subjects(self) -> list[tuple[int, int, str]]:
        return [(side, row, tile) for side in (0, 1)
                for row, tile in enumerate(self.hill[side], start=1) if is_subject(tile)]


def with_item(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1:]


def influence(castle: Castle) -> int:
    return sum(INFLUENCE[kind(t)] for t in castle.tiles())
