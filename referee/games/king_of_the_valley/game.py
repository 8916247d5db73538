"""King of the Valley (Hans van Tol, 2021) on the referee core: the declarations and the protocol.

Rules page: ../shared/rules/king-of-the-valley.md; every rule and ruling is in rulebook.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from referee.engine import Event, Game, OptionSpec, Phase, Player
from referee.games.king_of_the_valley import rules, texts
from referee.games.king_of_the_valley.components import (
    DEFAULT_ORDERS,
    DEFAULT_PRICES,
    PILE_NAMES,
    SETUP_PLACES,
    check_orders,
    check_prices,
    tile_names,
    virtual_piles,
)
from referee.games.king_of_the_valley.events import EVENTS
from referee.games.king_of_the_valley.state import Castle, State

if TYPE_CHECKING:  # imported by the commands that use them, never by `play`
    import random

    from referee.scoresheet import Scoresheet


class KingOfTheValley(Game[State]):
    id = "king-of-the-valley"
    title = "King of the Valley"
    min_players = 2
    max_players = 4
    seed_use = "virtual piles shuffled"
    options = (
        OptionSpec("hill_prices", list(DEFAULT_PRICES), "int[]",
                   "the recruiting price of each hill row, bottom row first", "R-4",
                   check=check_prices),
        OptionSpec("orders", list(DEFAULT_ORDERS), "str[]",
                   "the labels of the four Knight Orders (tiles knight-A ...)", "R-1",
                   check=check_orders),
    )
    phases = (
        Phase(rules.REVEAL, "the table puts out tiles face up (set-up, new hill tiles)"),
        Phase(rules.KING, "set-up: each player places a king on a valley tile"),
        Phase(rules.RECRUIT, "phase 1: recruit from the hill (from round 2), or summon"),
        Phase(rules.SUMMON, "phase 2: the summon"),
        Phase(rules.ACTIVATE, "the summoned Jester and specialists, in the order passed"),
        Phase(rules.KINGDOM, "phase 3, the kingdom bonus, and phase 4, replenish"),
        Phase(rules.OVER, "the game is over"),
    )
    events = EVENTS
    rules_module = rules  # what the core asks of it: see Game.rules_module
    texts_module = texts
    turn_rule = "Turn"

    # ---- set-up --------------------------------------------------------------------------
    def setup(self, players: tuple[Player, ...], options: Mapping[str, Any],
              seed: int | None = None) -> State:
        orders = tuple(options.get("orders", DEFAULT_ORDERS))
        virtual = None
        if seed is not None:
            import random

            rng = random.Random(seed)
            piles = [list(p) for p in virtual_piles(orders)]
            for pile in piles:
                rng.shuffle(pile)
            virtual = tuple(tuple(p) for p in piles)
        return State(names=tuple(p.name for p in players), orders=orders,
                     prices=tuple(options.get("hill_prices", DEFAULT_PRICES)),
                     castles=(Castle(),) * len(players), kings=(None,) * len(players),
                     virtual=virtual, awaiting=SETUP_PLACES)

    # ---- where the game stands -----------------------------------------------------------
    def phase(self, state: State) -> str:
        return state.phase

    def finished(self, state: State) -> bool:
        return state.phase == rules.OVER

    def acting(self, state: State) -> tuple[str, ...]:
        return () if state.phase in (rules.OVER, rules.REVEAL) else (state.player,)

    def default_player(self, state: State) -> str | None:
        """A typed player's move is the active player's, even while the table must reveal
        tiles: the refusal then says who must act instead."""
        return state.player

    # ---- moves ---------------------------------------------------------------------------
    def option_text(self, state: State, event: Event) -> str:
        """A reveal from the virtual piles is offered as `reveal`: the tiles are hidden until
        they are turned up."""
        if event.type == "reveal" and state.virtual is not None:
            return "reveal"
        return self.format(state, event)

    def option_lines(self, state: State, events: list[Event]) -> list[str]:
        return texts.option_lines(state, events, [self.option_text(state, e) for e in events])

    def completions(self, state: State, player: str | None, typed: Sequence[str]) -> list[str]:
        """A reveal names one tile per waiting place: offer every tile the box may still hold
        after each tile typed, while places wait."""
        if typed and typed[0].casefold() == "reveal" and state.phase == rules.REVEAL \
                and state.virtual is None:
            return list(tile_names(state.orders)) if len(typed) <= len(state.awaiting) else []
        return super().completions(state, player, typed)

    def random_event(self, state: State, rng: random.Random) -> Event | None:
        """Random legal play; a physical game's reveals are drawn from what the box has left."""
        if state.phase == rules.OVER:
            return None
        if state.phase == rules.REVEAL and state.virtual is None:
            return Event.make("reveal", None, tiles=[rules.random_unseen(state, rng)])
        return rng.choice(self.legal(state))

    # ---- answers -------------------------------------------------------------------------
    def score(self, state: State) -> Scoresheet:
        from referee.games.king_of_the_valley import scoring

        return scoring.score(state)

    def blank_scoresheet(self, options: Mapping[str, Any] | None = None) -> Scoresheet:
        from referee.games.king_of_the_valley import scoring

        return scoring.blank(self.max_players)

    def inventory(self, state: State) -> dict[str, int]:
        counts = {f"pile {n}": c for n, c in zip(PILE_NAMES, state.unrevealed())}
        counts["valley"] = sum(1 for t in state.valley if t is not None)
        counts["hill"] = len(state.hill[0]) + len(state.hill[1])
        for name, castle in zip(state.names, state.castles):
            counts[f"castle {name}"] = len(castle.tiles())
        counts["jesters being placed"] = state.pending.count("jester")
        counts["discarded"] = len(state.discard)
        return counts
