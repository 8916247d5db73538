"""Regenerate the Kingmaker golden games and the bundled demo game.

    python tests/golden/make_kingmaker.py

Each game is played move by move through the referee's own parser, as a table would type it:
the scenario names the interesting moves of some turns and every other turn is a quiet one (a
harmless event card, no move, a crown card drawn). Every event carries the time stamp the log
will carry, so the clock (R-49) runs as it will when the log is replayed. Review the diff before
committing regenerated files.
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from pathlib import Path
from typing import Iterable

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from golden_files import CREATED, write_golden  # noqa: E402

from referee.engine import Event, Player, apply_event, load_game  # noqa: E402
from referee.games.kingmaker import rules  # noqa: E402
from referee.games.kingmaker.components import TEST_BOX, file_text  # noqa: E402
from referee.games.kingmaker.state import DECK  # noqa: E402

GAME = load_game("kingmaker")
CALM = ("Fair Weather", "Bad Weather Delays Attack", "Writ", "Free Move",
        "Chancellor May Call Parliament")


class Table:
    """A game at the table, one typed move at a time, with the log's time stamps."""

    def __init__(self, names: Iterable[str], step: int, options: dict | None = None,
                 components: tuple[str, str] | None = None):
        self.players = tuple(Player(n) for n in names)
        self.step = step
        opening_options, head = GAME.opening(options or {}, components) if components else \
            (dict(options or {}), [])
        self.options = GAME.check_options(opening_options)
        self.state = GAME.setup(self.players, self.options, None)
        self.events: list[Event] = []
        for event in head:
            self.apply(event)

    def apply(self, event: Event) -> None:
        at = CREATED + dt.timedelta(seconds=self.step * (len(self.events) + 1))
        self.state = apply_event(GAME, self.state, event, self.players, at)
        self.events.append(event)

    def play(self, *moves: str, by: str | None = None) -> None:
        for move in moves:
            player = by if by is not None else GAME.default_player(self.state)
            self.apply(GAME.parse(self.state, move, player))

    @property
    def active(self) -> str:
        return self.state.active

    # ---- the set-up ---------------------------------------------------------------------
    def deal(self, hands: dict[str, list[str]]) -> None:
        """Each player's deal (named cards first, the rest from the deck in order), then each
        layout: named placements first (`CARD>NOBLE`), the rest where the referee first lists."""
        size = rules.deal_size(self.state)
        named = {card.split(">")[0] for cards in hands.values() for card in cards}
        deck = self.state if self.state.cards else rules.open_deck(self.state)
        spare = [c for c, w in sorted(deck.cards.items()) if w == DECK and c not in named
                 and deck.kind(c) != "noble"]
        for player in self.players:
            cards = [c.split(">")[0] for c in hands.get(player.name, [])]
            while len(cards) < size:
                cards.append(spare.pop(0))
            self.play("dealt " + ", ".join(c.replace(" ", "-") for c in cards), by=player.name)
        wanted = {c.split(">")[0]: c.split(">")[1] for cards in hands.values() for c in cards
                  if ">" in c}
        while self.state.stage == "layout":
            duty = rules.duty(self.state)
            assert duty is not None
            cards = [c for c, w in self.state.cards.items() if w == f"dealt:{duty.player}"]
            card = next((c for c in cards if c in wanted), None)
            if card is not None:
                self.play(f"assign {card.replace(' ', '-')} to {wanted[card]}", by=duty.player)
            else:
                move = next(iter(GAME.events["assign"].moves(self.state)))
                self.apply(move)

    # ---- turns --------------------------------------------------------------------------
    def calm(self) -> str:
        name = next((n for n in CALM if rules.event_available(self.state, n)), "Embassy")
        return "event " + name.replace(" ", "-")

    def fair(self) -> str:
        """A weather check that lets a combat go on: an event card with fair weather (not a Writ
        or Free Move, which would be kept, rule 14)."""
        events = sorted(self.state.box.of("event"), key=lambda e: e.get("kind") != "none")
        for entry in events:
            if entry.get("weather", "fair") == "fair" and \
                    entry.get("kind") not in ("writ", "free-move") and \
                    rules.event_available(self.state, entry.name):
                return "weather " + entry.name.replace(" ", "-")
        raise AssertionError("no fair weather left")

    def draw_quietly(self) -> None:
        """A crown card drawn (no noble, no town card, so that nothing moves) and kept; over the
        limit, the first in hand is discarded."""
        card = next((c for c, w in sorted(self.state.cards.items()) if w == DECK and
                     self.state.kind(c) in ("mercenary", "bishop", "title", "office", "ship")),
                    None)
        self.play(f"draw {card.replace(' ', '-')}" if card else "draw hidden")
        self.settle_duties()

    def settle_duties(self) -> None:
        while self.state.duties and rules.duty(self.state).kind == "discard":
            duty = rules.duty(self.state)
            hand = self.state.hand(duty.player) or [
                c for c, w in sorted(self.state.cards.items())
                if w == DECK and self.state.kind(c) != "noble"]  # an unseen card, named now
            self.play(f"discard {hand[0].replace(' ', '-')}", by=duty.player)

    def quiet_turn(self) -> None:
        self.play(self.calm())
        self.settle_duties()
        while self.state.stage != "draw" and not self.state.time_up:
            self.play("next")
        if not self.state.time_up:
            self.draw_quietly()
            self.play("next")

    def until(self, player: str) -> None:
        """Quiet turns until `player`'s turn begins."""
        while self.active != player and not self.state.time_up and self.state.ended is None:
            self.quiet_turn()

    def finish_turn(self) -> None:
        """From wherever the active player is: to the end of his turn, quietly."""
        while self.state.stage != "draw":
            self.play("next")
        self.draw_quietly()
        self.play("next")


# --------------------------------------------------------------------------------------------
# (a) Four players: Ann takes London and the sole King, and the other heirs die


def complete_victory() -> Table:
    t = Table(["Ann", "Ben", "Cat", "Dan"], step=40)
    t.deal({"Ann": ["Neville", "Marshal of England>Neville", "Burgundian Mercenaries>Neville",
                    "Welsh Mercenaries #1>Neville", "Chancellor of England>Percy", "Percy",
                    "Herbert"],
            "Ben": ["Stafford", "Beaufort", "Coventry>Stafford"],
            "Cat": ["Talbot", "Courtenay", "Clifford"],
            "Dan": ["Mowbray", "Grey", "Scrope"]})
    assert t.active == "Ann"  # the Chancellor's faction
    # Turn 1: Neville (300) to London, and concludes its siege at once (garrison 300).
    t.play(t.calm(), "move Neville to near:London", "next",
           "siege conclude London with Neville")
    t.play(t.fair(),
           "save Neville 50", "save Henry 50")
    assert rules.controller(t.state, "Henry") == "Neville"
    t.finish_turn()
    t.until("Ann")
    # Turn 5: the plague at York takes Richard of York; Herbert takes George at Cardigan.
    t.play("event Plague-(York)", "move Herbert to in:Cardigan",
           "take George-of-Clarence by Herbert")
    t.play("execute George-of-Clarence", by="Ann")
    t.finish_turn()
    t.until("Ann")
    # Turn 9: the plague at Coventry; Neville (with King Henry) takes Fotheringhay.
    t.play("event Plague-(Coventry)", "move Neville to near:Fotheringhay", "next",
           "siege conclude Fotheringhay with Neville")
    t.play(t.fair(),
           "save Neville 50", "save Margaret-of-Anjou 99", "save Henry 50")
    t.play("execute Margaret-of-Anjou", by="Ann")
    t.finish_turn()
    t.until("Ann")
    # Turn 13: the plague in Calais; Harlech falls, and Edward of March is the last.
    t.play("event Plague-in-Calais", "move Neville to near:Harlech", "next",
           "siege conclude Harlech with Neville")
    t.play(t.fair(),
           "save Neville 50", "save Edward-of-March 50", "save Henry 50")
    t.play("execute Edward-of-March", by="Ann")
    assert t.state.ended is not None, t.state.ended
    return t


# --------------------------------------------------------------------------------------------
# (b) Six players, random (a little aimed) play until the time limit, decided by votes


def time_limit(seed: int) -> Table:
    t = Table(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], step=75)
    rng = random.Random(seed)
    while t.state.ended is None and len(t.events) < 2000:
        event = GAME.random_event(t.state, rng)
        assert event is not None
        if event.type == "end" and not t.state.time_up:
            event = GAME.parse(t.state, t.calm(), t.active)  # the clock decides, not the bot
        t.apply(event)
    return t


# --------------------------------------------------------------------------------------------
# (c) A box entered from a components file: a siege from a ship, and Beaufort's succession


def ship_and_beaufort() -> Table:
    from referee.games.kingmaker.components import Box, dumps, load

    box = load(file_text(TEST_BOX), TEST_BOX)
    box = Box(tuple(e for e in box.entries if e[0][0] not in ("battle_chart", "death_chart")))
    t = Table(["Ann", "Ben", "Cat"], step=30, options={"time_limit": 45},
              components=("our-box.toml", dumps(box, "our box")))
    t.deal({"Ann": ["Neville", "Marshal of England>Neville", "Burgundian Mercenaries>Neville",
                    "Welsh Mercenaries #1>Neville", "Percy", "Chancellor of England>Percy"],
            "Ben": ["Mowbray", "Chamberlain of England>Mowbray", "Welsh Mercenaries #2>Mowbray",
                    "Christopher>Mowbray", "Stanley"],
            "Cat": ["Beaufort", "Archbishop of Canterbury>Beaufort", "Talbot", "Courtenay"]})
    assert t.active == "Ann"
    # Ann takes Fotheringhay at once and executes Margaret of Anjou.
    t.play(t.calm(), "move Neville to near:Fotheringhay", "next",
           "siege conclude Fotheringhay with Neville")
    t.play(t.fair(), "deaths none")
    t.play("execute Margaret-of-Anjou", by="Ann")
    t.finish_turn()
    # Ben's Mowbray goes to Hull, where his ship Christopher lies.
    t.play(t.calm(), "move Mowbray to near:Hull")
    t.finish_turn()
    t.play("event Plague-(London)")  # Cat: King Henry dies in London
    t.finish_turn()
    t.play("event Plague-(Coventry)")  # Ann: Edward of Lancaster dies; Beaufort is the heir
    assert rules.beaufort_is_heir(t.state)
    t.finish_turn()
    # Ben sails into Newcastle's port and lays siege from the ship.
    t.play(t.calm(), "sail Christopher to port:Newcastle with Mowbray", "next",
           "siege lay Newcastle with Mowbray")
    t.finish_turn()
    # Cat crowns Beaufort at Salisbury, his own Archbishop present.
    t.play(t.calm(), "move Beaufort to near:Salisbury", "next", "next",
           "crown Beaufort at Salisbury")
    t.finish_turn()
    t.until("Ben")
    t.quiet_turn()  # Ben's turn: the siege's second
    t.until("Ben")
    # The siege's third turn: a quarter of the garrison; Mowbray concludes it from the ship.
    t.play(t.calm(), "next", "siege conclude Newcastle")
    t.play(t.fair(), "deaths none")
    assert rules.controller_player(t.state, "Newcastle") == "Ben"
    t.finish_turn()
    while not t.state.time_up:
        t.quiet_turn()
    t.play("end time")
    return t


# --------------------------------------------------------------------------------------------
# (d) Three players, two Parliaments: the King's, with excuses revoked, and the People's, with a
#     failed illegitimacy motion


def two_parliaments() -> Table:
    t = Table(["Ann", "Ben", "Cat"], step=30, options={"time_limit": 75})
    t.deal({"Ann": ["Neville", "Marshal of England>Neville", "Burgundian Mercenaries>Neville",
                    "Welsh Mercenaries #1>Neville", "Percy", "Chancellor of England>Percy",
                    "Grey", "Earl of Kent"],
            "Ben": ["Stafford", "Warden of the Northern Marches>Stafford",
                    "Archbishop of York>Stafford", "Mowbray", "Admiral of England>Mowbray",
                    "Welsh Mercenaries #2>Mowbray", "Herbert"],
            "Cat": ["Talbot", "Courtenay", "Bourchier", "Earl of Essex"]})
    assert t.active == "Ann"  # the Chancellor's faction
    # Turn 1: Neville (300) takes London, and King Henry with it; Ann keeps a Writ.
    t.play("event Writ", "move Neville to near:London", "next",
           "siege conclude London with Neville")
    t.play(t.fair(), "save Neville 50", "save Henry 50")
    assert rules.controller(t.state, "Henry") == "Neville"
    t.finish_turn()
    t.play("event Writ")  # Ben
    t.finish_turn()
    t.play("event Writ")  # Cat
    t.finish_turn()
    # Turn 4: Ann calls Parliament at London; Ben and Cat excuse, Ann revokes Talbot's excuse.
    t.play("event Writ", "next", "next")
    assert t.state.stage == "parliament"
    t.play("parliament call at London summon Stafford")
    t.play("excuse Mowbray", by="Ben")
    t.play("excuse Talbot", by="Cat")
    t.play("revoke Talbot")
    assert t.state.sitting.step == "select", t.state.sitting.step
    t.play("select Earl-of-Pembroke,Earl-of-Wiltshire")
    t.play("propose Earl-of-Pembroke to Herbert", "vote yea Ben nay Ann,Cat")
    t.play("propose Earl-of-Wiltshire to Herbert", "vote yea Ann,Ben nay Cat")
    t.play("select none")  # round 2: Ann again, the most Commons
    t.play("assign Chamberlain-of-England to Talbot")  # round 3: Neville's Archbishop leads
    assert t.state.sitting.step == "business"
    t.play("dismiss")
    while t.state.sitting is not None:
        turn = rules.to_act(t.state)
        player = turn.players[0]
        attending = [n for n in t.state.sitting.attending if n in t.state.nobles and
                     t.state.owner(n) == player and n not in t.state.sitting.placed]
        noble = attending[0]
        t.play("stay Neville" if noble == "Neville" else f"return {noble}", by=player)
    assert t.state.peace is not None and t.state.nobles["Neville"].at == "near:London"
    t.finish_turn()
    # The King's Peace: Ben draws the plague at York; Richard of York dies.
    t.play("event Plague-(York)")
    t.finish_turn()
    t.quiet_turn()  # Cat
    t.quiet_turn()  # Ann: the Peace is over
    assert t.state.peace is None
    # Turn 8: Ben takes Harlech and Edward of March.
    t.play(t.calm(), "move Stafford to near:Harlech", "move Mowbray to near:Harlech", "next",
           "siege conclude Harlech with Stafford,Mowbray")
    t.play(t.fair(), "save Stafford 50", "save Mowbray 50", "save Edward-of-March 50")
    t.play("heir Edward-of-March to Stafford", "control Harlech to Stafford")
    t.finish_turn()
    t.quiet_turn()  # Cat
    t.quiet_turn()  # Ann
    # Turn 11: Ben crowns Edward of March at Salisbury: two Kings.
    t.play(t.calm(), "move Stafford to near:Salisbury", "next", "next",
           "crown Edward-of-March at Salisbury")
    assert rules.kings(t.state) == ["Henry", "Edward of March"]
    t.finish_turn()
    # Turn 12: Cat draws the People's Parliament; it sits at Exeter.
    t.play("event Parliament-Must-Be-Summoned", "parliament people at Exeter moving Courtenay")
    while t.state.sitting.step != "business":
        t.play("select none")
    t.play("illegitimate Henry", by="Ben")  # Stafford, King Edward's controller, moves it
    t.play("vote yea Ben nay Ann,Cat")  # Ben and Ann hold one house each: bound
    assert not t.state.sitting.ballots[-1].passed
    t.play("heir Edward-of-March to Mowbray", by="Ben")
    assert "Stafford" not in t.state.nobles  # King Henry was at Parliament
    t.play("dismiss")
    while t.state.sitting is not None:
        player = rules.to_act(t.state).players[0]
        attending = [n for n in t.state.sitting.attending if n in t.state.nobles and
                     t.state.owner(n) == player and n not in t.state.sitting.placed]
        noble = attending[0]
        t.play("stay Courtenay" if noble == "Courtenay" else f"return {noble}", by=player)
    t.finish_turn()
    while not t.state.time_up:
        t.quiet_turn()
    t.play("end time")
    return t


def main() -> None:
    out = ROOT / "tests" / "golden" / "kingmaker"
    t = complete_victory()
    print("complete victory:", len(t.events), "events;", t.state.ended)
    write_golden(GAME, out / "four-player-complete-victory.toml", t.players, t.options,
                 t.events, t.state, t.step)
    write_golden(GAME, ROOT / "referee" / "examples" / "kingmaker.toml", t.players, t.options,
                 t.events, t.state, t.step)
    t = ship_and_beaufort()
    print("ship siege and Beaufort:", len(t.events), "events;", t.state.ended)
    write_golden(GAME, out / "ship-siege-and-beaufort.toml", t.players, t.options,
                 t.events, t.state, t.step)
    t = two_parliaments()
    print("two Parliaments:", len(t.events), "events;", t.state.ended)
    write_golden(GAME, out / "three-player-two-parliaments.toml", t.players, t.options,
                 t.events, t.state, t.step)
    for seed in range(50):
        t = time_limit(seed)
        if t.state.ended is not None and t.state.ended.kind == "time":
            break
    print("six players to the time limit, seed", seed, ":", len(t.events), "events;",
          t.state.ended)
    write_golden(GAME, out / "six-player-time-limit.toml", t.players, t.options, t.events,
                 t.state, t.step)


if __name__ == "__main__":
    main()
