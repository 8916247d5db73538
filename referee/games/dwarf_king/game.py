"""The Dwarf King (Bruno Faidutti) on the referee core: the declarations and the protocol.

Rules page: ../shared/rules/dwarf-king.md; every rule and ruling is in rulebook.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from referee.engine import Args, Event, Game, Notice, OptionSpec, Phase, Player
from referee.errors import IllegalMove, NotationError
from referee.games.dwarf_king import rules, texts
from referee.games.dwarf_king.components import EDITIONS
from referee.games.dwarf_king.events import EVENTS
from referee.games.dwarf_king.state import Deal, State

if TYPE_CHECKING:  # imported by the commands that use them, never by `play`
    import random

    from referee.scoresheet import Scoresheet


class DwarfKing(Game[State]):
    id = "dwarf-king"
    title = "The Dwarf King"
    min_players = 3
    max_players = 5
    seed_use = "the tool deals the hands and draws the special cards and quest tiles"
    options = (
        OptionSpec("edition", 2011, "int", "quest tiles of the 2011 edition or the 2022 reprint",
                   ruling="R-4", choices=EDITIONS),
    )
    phases = (
        Phase(rules.SPECIAL, "the dealer reveals the hand's special card"),
        Phase(rules.QUEST, "players may enter their hands; the holder of the 5 of Knights "
                           "chooses the quest"),
        Phase(rules.SWAP, "the Goblins' Flag Bearer takes 2 cards and gives 2"),
        Phase(rules.GIVE, "the Flag Bearer gives 2 cards back (a hand the tool dealt)"),
        Phase(rules.LEADER, "the holder of the 5 of Goblins shows it"),
        Phase(rules.PLAY, "the tricks; the Sorcerer between two of them"),
        Phase(rules.TRADE, "the Druid's player swaps hands with another player"),
        Phase(rules.PASS, "the Standard Bearer's player passes every hand left or right"),
        Phase(rules.OVER, "the game is over"),
    )
    events = EVENTS
    rules_module = rules  # what the core asks of it: see Game.rules_module
    texts_module = texts
    turn_rule = "Each hand"
    verb_prefixes = False  # a bare word is a card (`Dragon`), never an abbreviated verb

    # ---- set-up --------------------------------------------------------------------------
    def setup(self, players: tuple[Player, ...], options: Mapping[str, Any],
              seed: int | None = None) -> State:
        return State(tuple(p.name for p in players), options.get("edition", 2011), seed,
                     Deal(1, 0))

    # ---- where the game stands -----------------------------------------------------------
    def finished(self, state: State) -> bool:
        return state.over

    def acting(self, state: State) -> tuple[str, ...]:
        return rules.acting(state)

    def notices(self, state: State) -> tuple[Notice, ...]:
        return state.notices

    def explain(self, state: State, event: Event) -> IllegalMove | None:
        return rules.explain(state, event)

    # ---- moves ---------------------------------------------------------------------------
    def parse_other(self, state: State, parts: tuple[str, ...], text: str,
                    player: str | None) -> Event:
        """Without a keyword, the move the moment calls for (a card in a trick)."""
        now = rules.phase(state)
        etype = self.events.get(now) or self.events["play"]
        args = Args(parts, text, player)
        try:
            return etype.parse(state, args)
        except NotationError:
            if etype.name == "play":
                raise
            try:  # a card typed at the wrong moment: let `apply` say what is awaited
                return self.events["play"].parse(state, args)
            except NotationError:
                pass
            raise

    def legal_note(self, state: State, player: str | None = None,
                   listed: list[Event] | None = None) -> str:
        if rules.phase(state) == rules.QUEST and state.seed is None:
            return ("each player may first enter their hand for full checking: "
                    "`hand CARD CARD ...` (--as NAME)")
        if rules.phase(state) == rules.PLAY:
            listed = listed if listed is not None and player is None else self.legal(state)
            playable = [e["card"] for e in listed if e.type == "play"]
            return texts.not_playable_note(state, playable)
        if rules.phase(state) == rules.SWAP and state.seed is not None:
            return ("the tool takes the 2 random cards and shows them to the Flag Bearer alone; "
                    "then he gives 2 back: `give CARD CARD`")
        if rules.phase(state) == rules.GIVE and not listed:
            giver = rules.to_act(state).players[0]
            return (f"{giver} gives 2 cards back: `give CARD CARD`; {giver} alone reads the "
                    f"cards {giver} holds with `options --for {giver}`")
        return ""

    def completions(self, state: State, player: str | None, typed: Sequence[str]) -> list[str]:
        """The Flag Bearer's `give`, when it is due, and never a card after it: Tab lists on
        the shared screen, and the 2 cards are his hand's (`give` alone asks for them
        unseen, R-22)."""
        if rules.phase(state) == rules.GIVE:
            due = player is None or player in rules.to_act(state).players
            return ["give"] if due and not typed else []
        return super().completions(state, player, typed)

    def view(self, state: State, player: str | None = None) -> State:
        return rules.table_view(state, player)

    def option_text(self, state: State, event: Event) -> str:
        """What the tool draws or deals (the special card, the quest tile, the cards the Flag
        Bearer takes) is left out of the move `options` offers: `play` fills it in."""
        if state.seed is not None:
            if event.type == "special":
                return "special"
            if event.type == "quest":
                return f"quest {event['side']}"
        return self.format(state, event)

    def table_text(self, state: State, event: Event) -> str:
        """In a --seed game the tool takes the Flag Bearer's 2 random cards and he gives 2
        back face down: the table reads neither pair."""
        if state.seed is not None and event.type == "swap":
            return f"swap {event['target']}"
        if event.type == "give":
            return "give 2 cards back"
        return self.format(state, event)

    def table_record(self, state: State, event: Event) -> dict[str, Any]:
        record = event.record()
        if state.seed is not None and event.type == "swap":
            record.pop("taken", None)
            record.pop("given", None)
        if event.type == "give":
            record.pop("cards", None)
        return record

    def option_lines(self, state: State, events: list[Event]) -> list[str]:
        return texts.option_lines(state, events, [self.option_text(state, e) for e in events])

    def random_event(self, state: State, rng: random.Random) -> Event | None:
        moves = self.legal(state)
        if not moves:
            return None
        sorcery = [m for m in moves if m.type == "sorcerer"]
        if sorcery and rng.random() < 0.3:
            return rng.choice(sorcery)
        others = [m for m in moves if m.type != "sorcerer"] or moves
        return rng.choice(others)

    # ---- answers -------------------------------------------------------------------------
    def describe(self, before: State, event: Event, after: State) -> list[str]:
        return texts.describe(before, event, after)

    def score(self, state: State) -> Scoresheet:
        from referee.games.dwarf_king import scoring

        return scoring.score(state)

    def blank_scoresheet(self, options: Mapping[str, Any] | None = None) -> Scoresheet:
        from referee.games.dwarf_king import scoring

        return scoring.blank(self.max_players, self.check_options(options or {})["edition"])

    def inventory(self, state: State) -> dict[str, int]:
        return texts.inventory(state)
