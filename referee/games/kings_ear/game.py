"""The King's Ear (Jon Linney, 2005) on the referee core: the declarations and the protocol.

Rules page: ../shared/rules/kings-ear.md; every rule and ruling is in rulebook.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Mapping

from referee.engine import Event, Game, OptionSpec, Phase, Player
from referee.games.kings_ear import rules, texts
from referee.games.kings_ear.components import CARDS, DEFAULT_HOUSES, PILE, check_houses
from referee.games.kings_ear.events import EVENTS, LISTED, TRADE
from referee.games.kings_ear.notation import card_name
from referee.games.kings_ear.state import State, inventory

if TYPE_CHECKING:  # imported by the commands that use them, never by `play`
    import random

    from referee.scoresheet import Scoresheet


class KingsEar(Game[State]):
    id = "kings-ear"
    title = "The King's Ear"
    min_players = 2
    max_players = 4
    seat_field = "house"
    options = (
        OptionSpec("houses", list(DEFAULT_HOUSES), "str[]",
                   "the four House labels, as on the table's shields", "R-1", check=check_houses),
    )
    phases = (
        Phase(rules.TURN, "draw or trade; with the pile empty, trade or pass",
              refusal="no-pending", rule="Turn (1b)"),
        Phase(rules.PLACING, "place or trade the card just drawn", refusal="pending-card",
              rule="Turn (1b)"),
        Phase(rules.OVER, "the game is over"),
    )
    events = EVENTS
    rules_module = rules  # what the core asks of it: see Game.rules_module
    texts_module = texts
    turn_rule = "Turn"

    # ---- set-up --------------------------------------------------------------------------
    def seat_choices(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(options.get("houses", DEFAULT_HOUSES))

    def setup(self, players: tuple[Player, ...], options: Mapping[str, Any],
              seed: int | None = None) -> State:
        houses = tuple(options.get("houses", DEFAULT_HOUSES))
        deck = None
        if seed is not None:
            import random

            order = list(range(CARDS))
            random.Random(seed).shuffle(order)
            deck = tuple(order)
        return State(houses=houses, names=tuple(p.name for p in players),
                     seats=tuple(houses.index(p.seat) for p in players if p.seat),
                     where=(PILE,) * CARDS, deck=deck)

    # ---- where the game stands -----------------------------------------------------------
    def finished(self, state: State) -> bool:
        return state.finished

    def acting(self, state: State) -> tuple[str, ...]:
        return () if state.finished else (state.player,)

    # ---- moves ---------------------------------------------------------------------------
    def legal_note(self, state: State, player: str | None = None,
                   listed: list[Event] | None = None) -> str:
        if state.finished or state.pending is not None or (player and player != state.player):
            return ""
        return texts.legal_note(state)

    def option_text(self, state: State, event: Event) -> str:
        """A draw from the virtual pile is offered as `draw`: the card is hidden until drawn."""
        if event.type == "draw" and state.deck is not None:
            return "draw"
        return self.format(state, event)

    def option_lines(self, state: State, events: list[Event]) -> list[str]:
        families = [] if state.pending is not None else rules.equal_trade_families(state)
        if sum(f.count for f in families) <= LISTED:
            families = []  # few enough: every trade is listed on its own
        return texts.option_lines(state, events, [self.option_text(state, e) for e in events],
                                  families)

    def every_move(self, state: State, player: str | None = None,
                   listed: list[Event] | None = None) -> Iterator[Event]:
        listed = self.legal(state, player) if listed is None else listed
        if state.pending is not None or not listed:
            yield from listed
            return
        yield from (e for e in listed if e.type == "draw")
        yield from TRADE.equal_trades(state)
        yield from (e for e in listed if e.type == "pass")

    def count_moves(self, state: State, player: str | None = None,
                    listed: list[Event] | None = None) -> int:
        listed = self.legal(state, player) if listed is None else listed
        if state.pending is not None or not listed:
            return len(listed)
        trades = sum(f.count for f in rules.equal_trade_families(state))
        return sum(e.type != "trade" for e in listed) + trades

    def random_event(self, state: State, rng: random.Random) -> Event | None:
        """Random play that stays fast: choose the kind of move first, then one instance.

        The number of equal trades grows exponentially with the cards on the board, so trades are
        sampled directly instead of drawn from the full `legal()` list.
        """
        if state.finished:
            return None
        if state.pending is not None:
            return rng.choice(self.legal(state))
        if state.drawn >= CARDS:
            return rules.random_equal_trade(state, rng) or Event.make("pass", state.player)
        roll = rng.random()
        trade = (rules.random_equal_trade(state, rng) if roll < 0.1 else
                 rules.random_unequal_trade(state, rng) if roll < 0.15 else None)
        if trade is not None:
            return trade
        card = state.deck[state.drawn] if state.deck else \
            rng.choice([c for c in range(CARDS) if state.where[c] == PILE])
        return Event.make("draw", state.player, card=card_name(state, card))

    # ---- answers -------------------------------------------------------------------------
    def score(self, state: State) -> Scoresheet:
        from referee.games.kings_ear import scoring

        return scoring.score(state)

    def blank_scoresheet(self, options: Mapping[str, Any] | None = None) -> Scoresheet:
        from referee.games.kings_ear import scoring

        return scoring.blank(self.check_options(options or {})["houses"])

    def inventory(self, state: State) -> dict[str, int]:
        return inventory(state)
