"""Kingmaker with Covault's House Rules on the referee core: the declarations and the protocol.

Rules page: ../shared/rules/kingmaker.md; every rule and ruling is in rulebook.py, every event in
the events package (Parliament and the King's Peace: events/parliament.py, assembly.py,
homecoming.py and peace.py).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

from referee.engine import (
    Event,
    Game,
    OptionSpec,
    Phase,
    Player,
    ToAct,
    check_actor,
    wrong_phase,
)
from referee.errors import IllegalMove, MoveError, NotationError, UsageError
from referee.evolve import evolve
from referee.games.kingmaker import components, rules, texts
from referee.games.kingmaker.components import (
    SHIPPED,
    TEST_BOX_OPTION,
    Box,
    DataError,
)
from referee.games.kingmaker.events import EVENTS, assembly, with_box
from referee.games.kingmaker.events.base import AFTER_TIME, Base
from referee.games.kingmaker.rules import COMBAT_PHASES, DUTY_PHASES, SESSION_PHASES
from referee.games.kingmaker.state import (
    ASSIGN,
    BISHOPS,
    BUSINESS,
    CHANCE,
    COMBAT,
    CORONATION,
    DEAL,
    DRAW,
    EXCUSE,
    LAYOUT,
    MOVEMENT,
    OVER,
    PARLIAMENT,
    PORTS,
    PROPOSE,
    RETURN,
    REVOKE,
    SELECT,
    TIME_UP,
    VOTE,
    State,
)

if TYPE_CHECKING:  # imported by the commands that use them, never by `play`
    import random

    from referee.scoresheet import Scoresheet


def check_components(value: Any) -> str:
    text = str(value).strip()
    if not text or len(text) > 300:
        raise UsageError("option components names the components file (R-3)",
                         code="bad-option")
    return text


def check_minutes(value: Any) -> int:
    if not isinstance(value, int) or not 1 <= value <= 24 * 60:
        raise UsageError("option time_limit is a number of minutes from 1 to 1440 (R-49)",
                         code="bad-option")
    return value


def test_box() -> Box:
    """The invented box a `test-box` log preloads at every replay: read from its literals
    (tools/make_testbox.py makes them from TEST_BOX, checked by the schema), not parsed from
    TOML, which cost a cold `play` half of Python's start-up. Imported when first used: a
    constant of that module, kept by the import system."""
    from referee.games.kingmaker.components.testbox import BOX

    return BOX


class Kingmaker(Game[State]):
    id = "kingmaker"
    title = "Kingmaker"
    min_players = 2
    max_players = 7
    seed_use = "the tool rolls the percentile dice a move leaves out"
    options = (
        OptionSpec("components", TEST_BOX_OPTION, "str",
                   "the components file `new` copies into the log (name and SHA-256): the "
                   "shipped kingmaker-ah1.toml, the 1974 box, unless --components names "
                   "another; test-box is the small invented box of simulate and the tests",
                   "R-3", check=check_components),
        OptionSpec("deal", "auto", "str", "the deal: auto (36 or 35, even), 35 or 36", "R-5",
                   choices=("auto", "35", "36")),
        OptionSpec("assign_at_sea", "no", "str", "may a card be assigned to a noble at sea?",
                   "R-19", choices=("no", "yes")),
        OptionSpec("assassin_saves", "yes", "str", "does the assassin roll against death too?",
                   "R-24", choices=("yes", "no")),
        OptionSpec("lockout", "turns", "str", "after a King's Peace no Parliament is called for "
                   "three player turns, or three rounds", "R-32", choices=("turns", "rounds")),
        OptionSpec("coronation_bishops", "own", "str", "the bishops at a coronation: own or "
                   "present", "R-43", choices=("own", "present")),
        OptionSpec("royal_guard", "both", "str", "a sole King's controller holds both Royal "
                   "Guards, or his house's only", "R-44", choices=("both", "by-house")),
        OptionSpec("time_limit", 240, "int", "minutes from the first chance phase", "R-49",
                   check=check_minutes),
        OptionSpec("time_end", "turn", "str", "at the limit the game ends at the end of the "
                   "turn, at once, or at the end of the round", "R-49",
                   choices=("turn", "immediate", "round")),
        OptionSpec("late", [], "str[]", "players who join later (named with --player too)",
                   "R-66"),
    )
    # The demo plays the invented test box; a real table starts with the shipped 1974 box
    demo_options = frozenset({"components"})
    start_note = ("`new` copies the shipped 1974 box (kingmaker-ah1.toml): a card whose printed\n"
                  "values the log lacks is refused once, with `declare` lines to fill in from\n"
                  "your cards and map (R-2). Or enter your box first:\n"
                  "  referee components kingmaker --fill our-box.toml\n"
                  "  referee new kingmaker --components our-box.toml --player Ann ...")
    phases = (
        Phase(DEAL, "each player enters the crown cards dealt (R-5, R-6)", rule="§4"),
        Phase(LAYOUT, "each player lays out his cards (§4)", rule="§4"),
        Phase(CHANCE, "the active player draws an event card; all obey it", rule="§5.1"),
        Phase(MOVEMENT, "declared moves by land and sea", rule="§5.2"),
        Phase(COMBAT, "battles and sieges", rule="§6"),
        Phase(PARLIAMENT, "Parliament may be called, or is held (a People's Parliament); "
                          "skipped when neither", rule="§7"),
        Phase(CORONATION, "an heir may be crowned", rule="§8.1"),
        Phase(DRAW, "the crown card draw; then `next` ends the turn", rule="§5.3"),
        Phase(TIME_UP, "the time limit is reached: the table records `end time`", rule="R-49"),
        Phase(OVER, "the game is over", rule="§10"),
        # What is owed before play goes on (rules.phase: the duty first, then the combat, then
        # the session): the stage above waits while one of these is pending.
        Phase(DUTY_PHASES["deal"],
              "a player dealt no noble is dealt on, a card at a time (R-6, §9)", rule="R-6"),
        Phase(DUTY_PHASES["layout"], "a player lays out the cards dealt (§4, §9)", rule="§4"),
        Phase(DUTY_PHASES["respond"], "a noble called by the event card answers it", rule="§8.3"),
        Phase(DUTY_PHASES["storm"], "the table rolls for a ship at sea in a storm", rule="§5.1"),
        Phase(DUTY_PHASES["heir"], "a player names who controls an heir (R-25)", rule="R-48"),
        Phase(DUTY_PHASES["control"], "a player names the noble who takes a fortress",
              rule="§6.2"),
        Phase(DUTY_PHASES["captive"], "a player ransoms or kills a captive", rule="R-29"),
        Phase(DUTY_PHASES["retreat"], "a noble goes home after a battle, or back from a sally",
              rule="R-30"),
        Phase(DUTY_PHASES["place"], "a player places a town card on a noble", rule="R-53"),
        Phase(DUTY_PHASES["discard"],
              "a player over the hand limit discards or plays a crown card", rule="§5.3"),
        Phase(DUTY_PHASES["port"], "a ship Parliament calls comes to a mainland port, or stays",
              rule="R-74"),
        Phase(COMBAT_PHASES["weather"], "the attacker checks the weather", rule="§6"),
        Phase(COMBAT_PHASES["result"], "the table enters the attacker's result", rule="R-23"),
        Phase(COMBAT_PHASES["deaths"], "the table enters who died, or each rolls against death",
              rule="R-23"),
        Phase(SESSION_PHASES[EXCUSE], "Parliament called: excuses, in turn from the caller's left",
              rule="§7.2"),
        Phase(SESSION_PHASES[REVOKE], "the caller may revoke excuses", rule="§7.2"),
        Phase(SESSION_PHASES[PORTS], "ships at sea or off the mainland come to port", rule="R-74"),
        Phase(SESSION_PHASES[BISHOPS], "the leader assigns the Chancery's bishops", rule="§7.3"),
        Phase(SESSION_PHASES[SELECT], "the round's leader selects the cards he will propose",
              rule="§7.3"),
        Phase(SESSION_PHASES[PROPOSE], "the leader proposes a selected card to a noble",
              rule="R-37"),
        Phase(SESSION_PHASES[VOTE], "the table votes on the question", rule="R-38"),
        Phase(SESSION_PHASES[ASSIGN], "round 3: the leader assigns the rest without a vote",
              rule="§7.3"),
        Phase(SESSION_PHASES[BUSINESS], "other business, then the caller dismisses Parliament",
              rule="§7.4"),
        Phase(SESSION_PHASES[RETURN], "the nobles go home, one player at a time", rule="§7.5"),
    )
    events = EVENTS
    rules_module = rules  # what the core asks of it: see Game.rules_module
    texts_module = texts
    turn_rule = "§5"
    fold_history = frozenset({"declare"})

    # ---- set-up --------------------------------------------------------------------------
    def seat_players(self, players: Sequence[Player],
                     options: Mapping[str, Any]) -> list[Player]:
        seated = super().seat_players(players, options)
        names = [p.name for p in seated]
        late = list(options.get("late", ()))
        for name in late:
            if name not in names:
                raise UsageError(f"option late names {name!r}, who is not a player (R-66)",
                                 code="bad-players")
        if len(names) - len(set(late)) < 2:
            raise UsageError("at least two players start the game (R-66)", code="bad-players")
        return seated

    def setup(self, players: tuple[Player, ...], options: Mapping[str, Any],
              seed: int | None = None) -> State:
        box = test_box() if options.get("components") == TEST_BOX_OPTION else Box()
        state = State(tuple(p.name for p in players), dict(options), seed, box,
                      late=tuple(options.get("late", ())))
        return with_box(state) if box.entries else state

    def opening(self, options: Mapping[str, Any],
                given: tuple[str, str] | None) -> tuple[dict[str, Any], list[Event]]:
        """R-3: the components file (else the shipped one) as table `declare` events."""
        options = dict(options)
        named = str(options.get("components", SHIPPED)).strip()
        if given is None and named == TEST_BOX_OPTION:
            return options, []  # the invented box is preloaded: nothing to copy
        if given is None and named != SHIPPED:  # a name alone would start with an empty box
            raise UsageError(f"option components={named}: a components file of your own is "
                             "given as `--components FILE` (its data is copied into the "
                             f"log); the option takes {SHIPPED} (the default) or "
                             f"{TEST_BOX_OPTION} (R-3)", code="bad-option")
        name, text = given or (SHIPPED, components.file_text(SHIPPED))
        try:
            box = components.load(text, name)
        except DataError as exc:
            raise UsageError(str(exc), code="bad-components") from None
        options["components"] = f"{name} {components.digest(text)}"
        return options, [Event.make("declare", None, entry=e.kind, name=e.name,
                                    **dict(e.values)) for e in components.ordered(box)]

    def new_defaults(self) -> dict[str, Any]:
        """`new` copies the shipped box (R-3): the test box is the replay's default only for
        logs that name none (simulate, the tests)."""
        return {**self.default_options(), "components": SHIPPED}

    def new_notes(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """A log of the invented test box says so: its cards bear the printed names, with
        made-up values that would silently stand in for the printed ones (R-3)."""
        if options.get("components") != TEST_BOX_OPTION:
            return ()
        return ("Components: the small invented test box (simulate, the tests, the demo):",
                "its values are made up, not the 1974 box's. For a game with your cards start",
                "without `--option components=test-box` (R-3).")

    def components_text(self, template: bool = False) -> str:
        text = components.file_text(SHIPPED)
        if not template:
            return text
        return components.template(components.load(text, SHIPPED))

    # ---- where the game stands -----------------------------------------------------------
    # The rules' own functions, with no method around them: the core asks at every event.
    acting = staticmethod(rules.acting)

    def start_player(self, setup: State, state: State, seats: Sequence[str]) -> str | None:
        """R-8: the first player is known once the lay-out is done (the first turn began);
        before that, nobody."""
        return state.names[state.first] if state.turn else None

    def finished(self, state: State) -> bool:
        return state.ended is not None

    def clock(self, state: State, at: dt.datetime) -> State:
        """R-49: the clock runs from the first event of the first chance phase; a log whose
        first chance phase carries no time has no clock (R-70)."""
        clock = state.clock
        started = clock.started
        if started is None and state.in_play and state.turn == 1 and not state.event_drawn \
                and state.ended is None:
            started = at
        if started is not clock.started or not _same_time(at, clock.now):
            state = evolve(state, clock=evolve(clock, started=started, now=at))
        if state.options.get("time_end") == "immediate" and state.in_play and \
                state.ended is None and not state.time_up and rules.over_time(state):
            state = evolve(state, time_up=True)
        return state

    # ---- moves ---------------------------------------------------------------------------
    def parse(self, state: State, text: str, player: str | None) -> Event:
        try:
            return super().parse(state, text, player)
        except MoveError as exc:
            raise with_rule(exc) from None

    def ruled(self, refusal: MoveError) -> MoveError:
        return with_rule(refusal)

    def legal(self, state: State, player: str | None = None) -> list[Event]:
        """The phase's moves; once the time limit has ended the game, its end only (R-84)."""
        moves = super().legal(state, player)
        return [e for e in moves if e.type in AFTER_TIME] if state.time_up else moves

    def legal_note(self, state: State, player: str | None = None,
                   listed: list[Event] | None = None) -> str:
        return texts.legal_note(state, player)

    def option_lines(self, state: State, events: list[Event]) -> list[str]:
        # A move another player may make now (a gift, a card played, a transfer) carries their
        # name, as `play` reads it back: `Ben: give Writ to Ann`.
        acting = self.default_player(state)
        return texts.option_lines(state, events, [
            (f"{e.by}: " if e.by is not None and e.by != acting else "") + self.format(state, e)
            for e in events])

    def random_event(self, state: State, rng: random.Random) -> Event | None:
        from referee.games.kingmaker.events.randomplay import random_move

        return random_move(self, state, rng)

    def private(self, state: State, event: Event) -> bool:
        """The Chancery is face down (§12, R-81): the moves that name its cards are listed to
        the Parliament's leader only, asked for by name."""
        sitting = state.sitting
        if sitting is None or event.type not in ("bishop", "select", "propose", "assign"):
            return False
        # an `assign` is the Chancery's in round 3 (7.3); a card dealt to a player is his own
        return event.type != "assign" or event.get("card") in sitting.pool

    def every_move(self, state: State, player: str | None = None,
                   listed: list[Event] | None = None) -> Iterator[Event]:
        """Every legal move: in a vote, every ballot the table may cast (`legal` lists a few);
        none while a duty comes first."""
        listed = self.legal(state, player) if listed is None else listed
        if self.phase(state) != SESSION_PHASES[VOTE] or player is not None:
            yield from listed
            return
        yield from (e for e in listed if e.type != "vote")
        yield from assembly.ballots(state)

    def count_moves(self, state: State, player: str | None = None,
                    listed: list[Event] | None = None) -> int:
        listed = self.legal(state, player) if listed is None else listed
        if self.phase(state) != SESSION_PHASES[VOTE] or player is not None:
            return len(listed)
        return sum(1 for e in listed if e.type != "vote") + \
            assembly.ballot_count(state)

    # ---- answers -------------------------------------------------------------------------
    def explain(self, state: State, event: Event) -> IllegalMove | None:
        """The words for a move the core refuses by its turn or its phase. Out of turn, or out
        of the turn's stage: Parliament's own (§7; a call while the King's Peace or its lockout
        holds hears R-32, which keeps it out of the whole turn), else the core's, naming the
        stage. In its stage but not its phase (a duty pending, a combat's or a session's step):
        the event's own, from `out_of_place` or else its effect."""
        if state.time_up:
            return None  # the core's words name the time limit, which ends the game
        etype = self.events[event.type]
        assert isinstance(etype, Base)
        in_turn = self._in_turn(state, etype, event)
        stage, allowed = rules.stage(state), rules.stages(etype.phases)
        if not in_turn or (allowed is not None and stage not in allowed):
            calling = event.type == "parliament" and event.get("action") == "call"
            held = rules.peace_problem(state) if calling and state.sitting is None else None
            own = held or rules.explain(state, event.type, event.by, etype.phases)
            return own if own is not None or not in_turn else \
                wrong_phase(self, state, event, stage)
        problem = etype.out_of_place(state)
        if problem is None:
            try:
                etype.apply(state, event)
            except IllegalMove as refusal:
                problem = refusal
        return problem

    def _in_turn(self, state: State, etype: Base, event: Event) -> bool:
        """Whether the core's turn check lets `event` by (its actor, and the player to act)."""
        try:
            check_actor(self, state, etype, event, [Player(name) for name in state.names])
        except IllegalMove:
            return False
        return True

    def remark(self, before: State, event: Event, after: State) -> str:
        """`history` beside each vote of Parliament: what was decided, by what count (R-38)."""
        return texts.remark(before, event, after)

    def score(self, state: State) -> Scoresheet:
        from referee.games.kingmaker import scoring

        return scoring.score(state)

    def blank_scoresheet(self, options: Mapping[str, Any] | None = None) -> Scoresheet:
        from referee.games.kingmaker import scoring

        return scoring.blank(self.max_players)

    def inventory(self, state: State) -> dict[str, int]:
        return texts.inventory(state)


# The rule a refusal the shared notation or engine raised falls under: the declarations of R-2,
# else the notation of §14 (move text) or the turn of §5 (a well-formed move out of place).
DECLARATION_CODES = frozenset({"bad-value", "whose-value", "one-entry", "unknown-field",
                               "no-declarations", "blank"})


def with_rule(exc: MoveError) -> MoveError:
    """The refusal with a rule named (every Kingmaker refusal names one)."""
    if not exc.rule:
        exc.rule = "R-2" if exc.code in DECLARATION_CODES else \
            "§14" if isinstance(exc, NotationError) else "§5"
    return exc


def _same_time(at: dt.datetime, now: dt.datetime | None) -> bool:
    """Whether the clock already reads `at`, offset and all (equal instants in other offsets
    print apart): then the state is kept, not copied."""
    return now is not None and at == now and at.tzinfo is now.tzinfo and at.fold == now.fold
