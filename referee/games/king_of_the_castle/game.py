"""King of the Castle (Toadflax Games) on the referee core: the declarations and the protocol.

Rules page: ../shared/rules/king-of-the-castle.md; every rule and ruling is in rulebook.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from referee.engine import Args, Event, Game, OptionSpec, Phase, Player
from referee.errors import NotationError, UsageError
from referee.evolve import evolve
from referee.games.king_of_the_castle import rules, texts
from referee.games.king_of_the_castle.components import (
    CARD,
    EVENT_CARDS,
    LETTERS,
    START_HAND,
    check_hand_limit,
    check_names,
)
from referee.games.king_of_the_castle.events import EVENTS
from referee.games.king_of_the_castle.state import (
    HAND,
    RANDOM,
    SECRET,
    Hand,
    State,
    inventory,
    with_hand,
)
from referee.notation import prefixed

if TYPE_CHECKING:  # imported by the commands that use them, never by `play`
    import random

    from referee.scoresheet import Scoresheet


class KingOfTheCastle(Game[State]):
    id = "king-of-the-castle"
    title = "King of the Castle"
    min_players = 2
    max_players = 6
    seed_use = "the tool shuffles and deals the cards"
    options = (
        OptionSpec("squires", SECRET, "str", "how the squires are chosen: secret, random or "
                   "hand", "R-2", choices=(SECRET, RANDOM, HAND)),
        OptionSpec("personality_order", "shuffled", "str", "the personality deck's order: "
                   "shuffled or alphabetical", "R-19", choices=("shuffled", "alphabetical")),
        OptionSpec("hand_limit", 3, "int", "cards kept at the end of a turn", "R-3",
                   check=check_hand_limit),
        OptionSpec("names", [], "str[]", "26 names for the squires, one per letter", "R-1",
                   check=check_names),
        OptionSpec("duplicate_letters", "once", "str", "with squires = hand, a letter held "
                   "twice scores once or each time", "R-20", choices=("once", "each")),
    )
    phases = (
        Phase(rules.SEAL, "each player in turn seals the squires they back", rule="Seals"),
        Phase(rules.SETUP, "the table turns up the ten personality cards", rule="Set-up"),
        Phase(rules.PLAY, "the active player plays a card or passes"),
        Phase(rules.EXTRA, "after Targeted Theft: another card, or pass", rule="R-13"),
        Phase(rules.SUDDEN, "the cards Sudden Changes drew are played or discarded",
              rule="R-12"),
        Phase(rules.REPLY, "the players asked in turn may reply to the card announced",
              rule="R-5"),
        Phase(rules.DEAL, "the table turns up new men for the vacancies",
              rule="Death and promotion"),
        Phase(rules.DISCARD, "the active player discards down to the hand limit", rule="R-3"),
        Phase(rules.OPEN, "the round is over: the squires are opened", rule="End"),
        Phase(rules.OVER, "the game is over"),
    )
    events = EVENTS
    rules_module = rules  # what the core asks of it: see Game.rules_module
    texts_module = texts
    turn_rule = "Turn"
    verb_prefixes = False  # a bare word is a card (`plague`), never an abbreviated verb

    # ---- set-up --------------------------------------------------------------------------
    def check_new(self, options: Mapping[str, Any], seed: int | None) -> None:
        """R-29 at `new` only: a log started with both before the ruling still replays."""
        if seed is not None and options["squires"] == HAND:
            raise UsageError("squires=hand scores the letters on the cards in each hand, and the "
                             "cards the tool deals (--shuffle) carry none: with --shuffle choose "
                             "squires=secret or squires=random; squires=hand is played with "
                             "your own cards, without --shuffle (R-29)", code="bad-option")

    def setup(self, players: tuple[Player, ...], options: Mapping[str, Any],
              seed: int | None = None) -> State:
        chosen = self.check_options(options)
        n = len(players)
        alphabetical = chosen["personality_order"] == "alphabetical"
        state = State(names=tuple(p.name for p in players), squires=chosen["squires"],
                      hand_limit=chosen["hand_limit"], duplicates=chosen["duplicate_letters"],
                      letter_names=tuple(chosen["names"]), seed=seed,
                      seals=() if chosen["squires"] == HAND else (None,) * n,
                      opened=(None,) * n, hands=(Hand(START_HAND),) * n,
                      deck_size=EVENT_CARDS - START_HAND * n,
                      persona_order=LETTERS if alphabetical else None)
        if seed is None:
            return state
        state = rules.deal(state, alphabetical)
        return rules.deal_kingdom(state) if not state.seals else state

    # ---- where the game stands -----------------------------------------------------------
    def acting(self, state: State) -> tuple[str, ...]:
        return rules.acting(state)

    def finished(self, state: State) -> bool:
        return state.over

    def stopped(self, state: State) -> str | None:
        """Why the table stopped the game, once the squires are opened: until then the game
        still takes `open` (or `letters`) and is not over (R-27)."""
        return None if rules.opening_after_stop(state) else state.stopped

    def resumes(self, state: State) -> str:
        return rules.resumes(state)

    # ---- moves ---------------------------------------------------------------------------
    def parse_other(self, state: State, parts: tuple[str, ...], text: str,
                    player: str | None) -> Event:
        """A card played without the keyword (`plague castle 2 ...`), or an abbreviated verb."""
        try:
            return self.events["play"].parse(state, Args(parts, text, player))
        except NotationError as exc:
            verbs = self.events.verbs()
            hits = prefixed(parts[0].casefold(), verbs)
            if exc.code != "unknown-card" or len(hits) != 1:
                raise
            return verbs[hits[0]].parse(state, Args(parts[1:], text, player))

    def revealed(self, before: State, event: Event, after: State) -> list[str]:
        """The cards Sudden Changes drew from the deck the tool dealt: played at once (R-12)."""
        pushed = after.frames[len(before.frames):] if event.get("card") == "Sudden Changes" \
            else ()
        return [card for frame in pushed for card in frame.drawn]

    def view(self, state: State, player: str | None = None) -> State:
        """Nothing in a hand is shown to the table; `player`'s view (`--for`) shows theirs."""
        return evolve(state, viewer=player) if player in state.names else state

    def private(self, state: State, event: Event) -> bool:
        """In a game the tool deals, a move from a hand shows a card of it (R-25)."""
        if not state.dealt:
            return False
        now = rules.phase(state)
        return event.type == "reply" or (event.type == "play" and now != rules.SUDDEN) or \
            (event.type == "discard" and now == rules.DISCARD)

    def option_text(self, state: State, event: Event) -> str:
        """In a game the tool deals, Unexpected Loss is offered without the card lost: the tool
        picks it from the other player's hidden hand when the card is played (R-25)."""
        if state.dealt and event.type == "play" and event.get("card") == "Unexpected Loss":
            return f"{CARD['Unexpected Loss'].slug} {event['player']}"
        return super().option_text(state, event)

    def option_lines(self, state: State, events: list[Event]) -> list[str]:
        return texts.option_lines(state, events, [self.option_text(state, e) for e in events])

    def legal_note(self, state: State, player: str | None = None,
                   listed: list[Event] | None = None) -> str:
        return texts.legal_note(state, player)

    def random_event(self, state: State, rng: random.Random) -> Event | None:
        """Random play that ends games: cards played more often than not, replies sometimes."""
        now = rules.phase(state)
        if now == rules.OVER:
            return None
        if now == rules.OPEN and state.squires == HAND:
            return self._random_letters(state, rng)
        if now == rules.DISCARD and not state.hands[state.turn].full:
            return self._random_discard(state, rng)
        moves = self.legal(state)
        if not moves:
            return None
        chosen = [m for m in moves if m.type in ("play", "reply")]
        odds = 0.3 if now == rules.REPLY else 0.9
        return rng.choice(chosen) if chosen and rng.random() < odds else rng.choice(moves)

    @staticmethod
    def _random_letters(state: State, rng: random.Random) -> Event:
        seat = state.opened.index(None)
        letters = sorted(rng.choice(LETTERS) for _ in range(state.hands[seat].size))
        return Event.make("letters", state.names[seat], letters=letters)

    @staticmethod
    def _random_discard(state: State, rng: random.Random) -> Event:
        """Cards the hand may hold, chosen one after another (a family too large to list)."""
        excess = state.hands[state.turn].size - state.hand_limit
        cards = []
        for _ in range(excess):
            card = rng.choice([c for c in CARD if rules.could_hold(state, state.turn, c)])
            cards.append(card)
            state = with_hand(state, state.turn, state.hands[state.turn].without(card))
            state = evolve(state, discard=state.discard + (card,))
        return Event.make("discard", state.player, cards=sorted(cards, key=list(CARD).index))

    # ---- answers -------------------------------------------------------------------------
    def score(self, state: State) -> Scoresheet:
        from referee.games.king_of_the_castle import scoring

        return scoring.score(state)

    def scoresheet(self, state: State) -> Scoresheet:
        """`score`, marked incomplete from the table's stop on, while the squires are opened
        too (R-27)."""
        from referee.games.king_of_the_castle import scoring

        return scoring.scoresheet(state)

    def blank_scoresheet(self, options: Mapping[str, Any] | None = None) -> Scoresheet:
        from referee.games.king_of_the_castle import scoring

        return scoring.blank(self.max_players)

    def inventory(self, state: State) -> dict[str, int]:
        return inventory(state)
