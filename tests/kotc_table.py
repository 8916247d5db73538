"""A King of the Castle table for the rules tests: moves typed as at the table, through the game's
parser and `engine.apply_event`, on a kingdom set up by `reveal` like a real one."""

from __future__ import annotations


import pytest

from referee import seals
from referee.engine import Event, Player, apply_event
from referee.errors import MoveError
from referee.evolve import evolve
from referee.games.king_of_the_castle import GAME
from referee.games.king_of_the_castle.components import ATTRIBUTES, stack
from referee.games.king_of_the_castle.state import State

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
KINGDOM = "Q A B C D E F G H I"  # King Q; castle 1: A B C; castle 2: D E F; castle 3: G H I
SQUIRES = {"Ann": "DKQ", "Ben": "AEX", "Cat": "BGZ", "Dan": "CHM", "Eve": "FIN", "Fay": "JOP"}


class Table:
    def __init__(self, players: int = 3, seed: int | None = None, **options):
        self.players = tuple(Player(n) for n in NAMES[:players])
        self.state: State = GAME.setup(self.players, options, seed)
        self.receipts: dict[str, str] = {}

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def event(self, move: str, as_: str | None = None) -> Event:
        return GAME.parse(self.state, move, as_ or GAME.default_player(self.state))

    def __call__(self, move: str, as_: str | None = None) -> Table:
        self.state = apply_event(GAME, self.state, self.event(move, as_), self.players)
        return self

    def apply(self, event: Event) -> Table:
        self.state = apply_event(GAME, self.state, event, self.players)
        return self

    def rejects(self, move: str, code: str, as_: str | None = None) -> MoveError:
        with pytest.raises(MoveError) as caught:
            self(move, as_)
        assert caught.value.code == code, caught.value.message
        return caught.value

    # ---- set-up --------------------------------------------------------------------------
    def seal(self, name: str) -> Table:
        receipt = seals.new_receipt()
        self.receipts[name] = receipt
        return self.apply(Event.make("squires", name,
                                     seal=seals.commitment(SQUIRES[name], receipt)))

    def start(self, kingdom: str = KINGDOM) -> Table:
        """Seal every player's squires (unless squires = hand) and turn up the kingdom."""
        if self.state.seals:
            for name in self.names:
                self.seal(name)
        return self(f"reveal {kingdom}")

    # ---- shortcuts to a position ---------------------------------------------------------
    def build(self, castle: int, attribute: str, *levels: int) -> Table:
        """Attribute cards lying on a castle (taken from the deck, as if played long ago)."""
        index = stack(castle - 1, ATTRIBUTES.index(attribute))
        stacks = list(self.state.stacks)
        stacks[index] = tuple(levels)
        self.state = evolve(self.state, stacks=tuple(stacks),
                             deck_size=self.state.deck_size - len(levels))
        return self

    def passes(self) -> Table:
        """Everyone asked lets the card announced happen."""
        while self.state.window is not None:
            self("pass")
        return self

    @property
    def men(self) -> str:
        return " ".join(m or "-" for m in self.state.men)

    def hand(self, name: str) -> int:
        return self.state.hands[self.names.index(name)].size
