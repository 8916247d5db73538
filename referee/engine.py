"""The game protocol every game implements, its small immutable values, and the registry.

The log of events is the only truth: a state is what you get by replaying the events from set-up
(`referee.replay` is the one driver). Every game is a package of the same shape
(docs/adding-a-game.md) whose `Game` object declares, once each, its options, its phases, its event
types and its rulebook; from those declarations the core derives the log schema, the turn and phase
checks, the dispatch of move text to events, the list of legal moves and the `rules` reference.
Game modules are imported only when a command needs them.
"""

from __future__ import annotations

import datetime as dt
import importlib
import importlib.util
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    ClassVar,
    Generic,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
    TypeVar,
)

from referee.derived import SELFCHECK, verify
from referee.errors import IllegalMove, MoveError, NotationError, UsageError
from referee.notation import choices_hint, expect_end, match, match_choice, words
from referee.optionspec import FIELD_KINDS, KIND_WORDS, TABLE_OPTIONS, OptionSpec  # the games
# declare their options with OptionSpec from here (__all__)
from referee.textsafe import name_key
from referee.values import value

if TYPE_CHECKING:  # scoring and the rules' texts are imported only by the commands using them
    import random

    from referee.rulebook import Rulebook
    from referee.scoresheet import Scoresheet

S = TypeVar("S")
MAX_MOVE = 1000  # characters of move text; the longest real move is under 200

# --------------------------------------------------------------------------------------------
# Small immutable values shared by all games


@value
class Player:
    """A seat at the table: the player's name and the game-specific seat (a House, a colour...)."""

    name: str
    seat: str | None = None


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


class Event:
    """One thing that happened at the table: a type, who did it (None for table events), fields.

    Field values are TOML-friendly scalars or tuples of them; fields are kept sorted by name so that
    two equal events compare equal however they were built. An immutable value, written out by
    hand: a log makes one per entry, and a dataclass costs more to define than the rest of it.
    """

    __slots__ = ("type", "by", "fields")
    type: str
    by: str | None
    fields: tuple[tuple[str, Any], ...]

    def __init__(self, type: str, by: str | None = None,
                 fields: tuple[tuple[str, Any], ...] = ()) -> None:
        _set_type(self, type)  # its slots' own setters (below): a third of object.__setattr__'s
        _set_by(self, by)
        _set_fields(self, fields)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"an Event is immutable; {name} cannot be set")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (self.type, self.by, self.fields) == (other.type, other.by, other.fields)

    def __hash__(self) -> int:
        return hash((self.type, self.by, self.fields))

    def __repr__(self) -> str:
        return f"Event(type={self.type!r}, by={self.by!r}, fields={self.fields!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return Event, (self.type, self.by, self.fields)

    @classmethod
    def make(cls, type: str, by: str | None = None, **fields: Any) -> Event:
        items = tuple(sorted((k, _freeze(v)) for k, v in fields.items() if v is not None))
        return cls(type, by, items)

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.fields:
            if key == name:
                return value
        return default

    def __getitem__(self, name: str) -> Any:
        for key, value in self.fields:
            if key == name:
                return value
        raise KeyError(name)

    def with_fields(self, **changes: Any) -> Event:
        """The same event with some fields set (None removes one)."""
        merged = {key: value for key, value in self.fields}
        merged.update(changes)
        return Event.make(self.type, self.by, **merged)

    def record(self) -> dict[str, Any]:
        """The event as the fields of a log entry (without seq/at/note)."""
        out: dict[str, Any] = {}
        if self.by is not None:
            out["by"] = self.by
        out["type"] = self.type
        for key, value in self.fields:
            out[key] = _thaw(value)
        return out


_set_type, _set_by, _set_fields = (Event.__dict__[slot].__set__ for slot in Event.__slots__)


@value
class ToAct:
    """Who must act now, and what is awaited of them in plain words (`prompt`).

    `table` means a table event is awaited (a reveal at set-up, a card turned up). The phase's id,
    for scripts and checks, is `Game.phase(state)`.
    """

    players: tuple[str, ...]
    prompt: str
    table: bool = False

    @property
    def who(self) -> str:
        """'Ann', 'Ann or Ben', 'the table'."""
        return "the table" if self.table or not self.players else " or ".join(self.players)

    def line(self) -> str:
        """The line every board ends with: who acts, and what they may do."""
        return f"To act: {self.who} - {self.prompt}"


@value
class Notice:
    """Something the referee noticed that is not a rejected move: a revoke proven by a later play.

    A game lists its notices, oldest first, in `Game.notices(state)`; `play` prints new ones and
    `check` reports each as a finding of the event that revealed it.
    """

    code: str
    message: str
    rule: str = ""


# --------------------------------------------------------------------------------------------
# Declarations: options, phases, event types


@value
class Phase:
    """One phase of a game: its id, what happens in it, and how an event out of place is refused.

    `refusal` is the stable code of that refusal and `rule` the rule it cites (the game's turn rule
    when empty).
    """

    id: str
    doc: str
    refusal: str = "wrong-phase"
    rule: str = ""


@value
class Args:
    """Move text after its verb: the words, the whole text (for messages) and who typed it."""

    words: tuple[str, ...]
    text: str
    by: str | None


FieldChecks = tuple[dict[str, tuple[type, Callable[[Any], bool]]], frozenset[str]]


class EventType(Generic[S]):
    """One kind of event, declared once: everything the core and the docs need to know about it.

    Subclasses set the class attributes and override `parse`, `format`, `apply` and, when the
    event can be listed by `referee options`, `moves`. The log schema, the phase check, the turn
    check, the dispatch of typed moves and the reference in `referee rules` all come from here.
    """

    name: ClassVar[str] = ""
    doc: ClassVar[str] = ""  # one line, for the reference and the man page's event table
    fields: ClassVar[Mapping[str, str]] = {}  # field -> kind (FIELD_KINDS)
    field_docs: ClassVar[Mapping[str, str]] = {}  # field -> what it holds, for the man page
    optional: ClassVar[frozenset[str]] = frozenset()
    field_checks: FieldChecks | None = None  # compiled from `fields` by `Events`
    # "player": the player to act; "any": any player, in turn or not; "table": nobody (no `by`)
    actor: ClassVar[str] = "player"
    reveal: ClassVar[bool] = False  # retracting it needs `undo --force`: it has been seen
    phases: ClassVar[frozenset[str] | None] = None  # the phases that allow it; None: any
    verbs: ClassVar[tuple[str, ...] | None] = None  # words that introduce it; None: (name,)
    forms: ClassVar[tuple[tuple[str, str], ...]] = ()  # (syntax, meaning) for the reference
    sealed: ClassVar[bool] = False  # carries a sealed secret (see referee.seals)
    # What its player types is theirs alone (cards handed over face down): a table session's
    # history (Up-arrow, its file) never keeps the line, as it never keeps a sealed move's.
    private_text: ClassVar[bool] = False

    def make(self, by: str | None, **fields: Any) -> Event:
        return Event.make(self.name, by, **fields)

    def reveals(self, event: Event) -> bool:
        """Whether this recorded event showed the table what it had not seen (`reveal`): taking
        it back or correcting it then needs --force. A type whose event may keep its card
        unseen (Kingmaker's `draw hidden`) says so per event."""
        return self.reveal

    def shown(self, event: Event) -> str:
        """What this recorded event showed, and to whom, as `undo` and `correct` say it when
        they ask for --force (only where `reveals` says it showed something)."""
        return "revealed hidden information that everyone has now seen"

    @property
    def words(self) -> tuple[str, ...]:
        return (self.name,) if self.verbs is None else self.verbs

    def signature(self) -> str:
        """`trade{house, give?, take, agreed?}`: its fields, optional ones marked (`rules`)."""
        fields = ", ".join(name + ("?" if name in self.optional else "") for name in self.fields)
        return f"{self.name}{{{fields}}}" + (" (a table event)" if self.actor == "table" else "")

    def parse(self, state: S, args: Args) -> Event:
        expect_end(args.words, args.text)
        return self.make(args.by)

    def format(self, state: S, event: Event) -> str:
        return event.type

    def apply(self, state: S, event: Event) -> S:
        raise NotImplementedError

    def moves(self, state: S) -> Iterable[Event]:
        """The legal events of this type in `state` (the core keeps those of the phase)."""
        return ()

    def secret(self, state: S, text: str) -> str:
        """A sealed event's secret in canonical form; the message never repeats it."""
        raise NotImplementedError

    def draw_secret(self, state: S) -> str | None:
        """A secret the tool draws itself for a sealed event (e.g. letters at random), or None
        when the player types it. `play` shows a drawn secret once, like the receipt."""
        return None


class End(EventType[Any]):
    """The table stops the game by agreement, in any game and any phase: one declaration for
    every game (a game's state keeps the reason in a `stopped` field). A stopped game takes no
    more moves, scores as it stands and is marked incomplete (`Game.scoresheet`); `undo`
    resumes it."""

    name = "end"
    doc = "the table stops the game: it scores as it stands, incomplete (undo resumes it)"
    fields = {"reason": "str"}
    field_docs = {"reason": "why the table stops the game"}
    actor = "table"
    forms = (("end REASON", "the table stops the game; it scores as it stands"),)

    def parse(self, state: Any, args: Args) -> Event:
        return self.make(None, reason=" ".join(args.words) or STOPPED)

    def format(self, state: Any, event: Event) -> str:
        return f"end {event['reason']}"

    def apply(self, state: Any, event: Event) -> Any:
        from referee.evolve import evolve

        return evolve(state, stopped=event["reason"])


STOPPED = "stopped by the table"  # the reason of an `end` typed without one


class Events(Generic[S]):
    """A game's event types, in the order `referee options` lists their moves."""

    def __init__(self, *types: EventType[S]) -> None:
        self._types = {t.name: t for t in types}
        for etype in types:
            for kind in etype.fields.values():
                assert kind in FIELD_KINDS, f"{etype.name}: unknown field kind {kind}"
            assert etype.actor in ("player", "table", "any"), etype.name
            etype.field_checks = field_checks(etype)  # the declaration, compiled once

    def __getitem__(self, name: str) -> EventType[S]:
        return self._types[name]

    def __contains__(self, name: object) -> bool:
        return name in self._types

    def __iter__(self) -> Iterator[EventType[S]]:
        return iter(self._types.values())

    def __len__(self) -> int:
        return len(self._types)

    def get(self, name: str) -> EventType[S] | None:
        return self._types.get(name)

    def items(self) -> Iterator[tuple[str, EventType[S]]]:
        return iter(self._types.items())

    def verbs(self) -> dict[str, EventType[S]]:
        return {word: t for t in self._types.values() for word in t.words}


# --------------------------------------------------------------------------------------------
# The protocol


class Game(Generic[S]):
    """Base class of every game: the declarations, and the protocol the core drives.

    A game never prints and never touches files; it turns events into states and states into
    answers (who acts, what is legal, the score). Most of the protocol is derived from the
    declarations; a game writes `setup`, `phase`, `to_act`, `finished`, `score`, `render` and
    whatever presentation it wants to improve. A game whose answers are functions of its own
    modules names them (`rules_module`, `texts_module`) instead of forwarding to each.
    """

    id: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 4
    seat_field: str | None = None  # the name of the seat field in [[players]], e.g. "house"
    options: tuple[OptionSpec, ...] = ()
    phases: tuple[Phase, ...] = ()
    events: Events[S] = Events()
    turn_rule: str = ""  # the rule cited when a move comes out of turn or out of its phase
    seed_use: str = "virtual pile shuffled"  # what `new --shuffle/--seed` has the tool do
    verb_prefixes: bool = True  # may move verbs be abbreviated ('pl' for 'place')?
    fold_history: frozenset[str] = frozenset()  # event types whose runs `history` shows as one
    # Options the bundled example sets for its own sake (Kingmaker's invented test box): the
    # commands the demo ends with, to start a real game, leave them to `new`'s default; and
    # what the demo says after those commands (how a real table goes on, if not as they show).
    demo_options: frozenset[str] = frozenset()
    start_note: str = ""
    # The game's module of rules, if it has one: its `phase(state)` and `to_act(state)` answer
    # `phase` and `to_act`; and its module of texts: `render(state)`, `compact(state)`,
    # `board(state)` and `describe(before, event, text, after)` (`text`: the move, formatted).
    # A game overrides any of these methods whose answer is not such a function.
    rules_module: Any = None
    texts_module: Any = None

    @property
    def rulebook(self) -> Rulebook:
        """The rules and rulings: RULEBOOK in the game package's `rulebook` module, imported
        when asked for (by `rules`, the man page and the tests; `play` never needs it)."""
        package = type(self).__module__.rpartition(".")[0]
        try:
            module = importlib.import_module(f"{package}.rulebook")
        except ModuleNotFoundError as exc:  # a game without rulings (the tests' toy game)
            if exc.name != f"{package}.rulebook":
                raise
            from referee.rulebook import Rulebook

            return Rulebook()
        book: Rulebook = module.RULEBOOK
        return book

    # ---- set-up --------------------------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return {spec.name: _thaw(spec.default) for spec in self.options}

    def new_defaults(self) -> dict[str, Any]:
        """The game's options as `referee new` writes them when none is given: what `games`,
        `rules` and the man page call the defaults (by default, the options' own)."""
        return self.default_options()

    def new_notes(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """What `referee new` says about the options it wrote, after naming the log: lines of
        at most 80 columns, printed as they are (none by default)."""
        return ()

    def option_specs(self) -> dict[str, OptionSpec]:
        """The game's options and the table options every game accepts (TABLE_OPTIONS)."""
        return {spec.name: spec for spec in (*TABLE_OPTIONS, *self.options)}

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Fill defaults and validate option values; raise UsageError on a bad value."""
        known = self.option_specs()
        for name in options:
            if name not in known:
                raise UsageError(f"{self.id} has no option {name!r}", code="unknown-option",
                                 hint=choices_hint(name, known))
        merged = self.default_options()
        merged.update(options)
        return {name: known[name].validate(value) for name, value in merged.items()}

    def check_new(self, options: Mapping[str, Any], seed: int | None) -> None:
        """Refuse (UsageError) checked options a game is no longer started with, given whether
        the tool deals (`seed`): asked of a game started at the table only, so that a log
        begun before the refusal still reads, as it was played (none by default)."""

    def seat_choices(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The seats a player may claim (empty when the game has no seats)."""
        return ()

    def seat_players(self, players: Sequence[Player], options: Mapping[str, Any]) -> list[Player]:
        """Validate names and seats; fill in default seats. Raise UsageError when they don't fit."""
        if not self.min_players <= len(players) <= self.max_players:
            raise UsageError(f"{self.title} is for {self.min_players}-{self.max_players} players, "
                             f"not {len(players)}", code="player-count")
        keys = [name_key(p.name) for p in players]
        if not all(keys):
            raise UsageError("a player name may not be empty", code="bad-player")
        if len(set(keys)) != len(keys):
            raise UsageError("player names must differ (ignoring case, width and invisible "
                             "characters)", code="bad-player")
        choices = self.seat_choices(options)
        if not choices:
            for p in players:
                if p.seat:
                    raise UsageError(f"{self.title} has no seats to claim ({p.name}:{p.seat})",
                                     code="bad-seat")
            return list(players)
        taken: list[str] = []
        for p in players:
            if p.seat is None:
                continue
            seat = match_choice(p.seat, choices, f"{self.seat_field} for {p.name}")
            if seat in taken:
                raise UsageError(f"{self.seat_field} {seat} is claimed twice ({p.name})",
                                 code="bad-seat")
            taken.append(seat)
        free = [c for c in choices if c not in taken]
        out = []
        for p in players:
            seat = match_choice(p.seat, choices, self.seat_field or "seat") if p.seat \
                else free.pop(0)
            out.append(Player(p.name, seat))
        return out

    def setup(self, players: tuple[Player, ...], options: Mapping[str, Any],
              seed: int | None = None) -> S:
        """The state before the first event (players seated and options checked already)."""
        raise NotImplementedError

    def opening(self, options: Mapping[str, Any],
                components: tuple[str, str] | None) -> tuple[dict[str, Any], list[Event]]:
        """The options and the table events a new log starts with, given a components file as
        (name, text) when `new --components FILE` names one. Games without such a file refuse
        it; Kingmaker copies its data into the log as `declare` events."""
        if components is not None:
            raise UsageError(f"{self.title} has no components file", code="no-components")
        return dict(options), []

    def components_text(self, template: bool = False) -> str:
        """The game's components file as shipped, or a template to fill in (`referee
        components`)."""
        raise UsageError(f"{self.title} has no components file", code="no-components")

    # ---- where the game stands -----------------------------------------------------------
    def phase(self, state: S) -> str:
        """The id of the phase the game is in (one of `phases`)."""
        if self.rules_module is None:
            raise NotImplementedError
        phase: str = self.rules_module.phase(state)
        return phase

    def to_act(self, state: S) -> ToAct:
        if self.rules_module is None:
            raise NotImplementedError
        turn: ToAct = self.rules_module.to_act(state)
        return turn

    def start_player(self, setup: S, state: S, seats: Sequence[str]) -> str | None:
        """Who began, as the scoresheet names it: the one player to act after set-up, else the
        first seat. A game whose first player is settled in play (Kingmaker's R-8, at the end of
        the lay-out) reads it from `state`, the game as it stands."""
        first = self.to_act(setup)
        if len(first.players) == 1 and not first.table:
            return first.players[0]
        return seats[0] if seats else None

    def finished(self, state: S) -> bool:
        raise NotImplementedError

    def stopped(self, state: S) -> str | None:
        """Why the table stopped the game before its end (the core `End` event), else None."""
        reason: str | None = getattr(state, "stopped", None)
        return reason

    def resumes(self, state: S) -> str:
        """How the table takes a game it stopped back to play, as the messages that say it was
        stopped put it: most games, the stop is the last event and `undo` retracts it."""
        return "`referee undo` resumes it"

    def over(self, state: S) -> bool:
        """No more moves: the game reached its end, or the table stopped it."""
        return self.finished(state) or self.stopped(state) is not None

    def acting(self, state: S) -> tuple[str, ...]:
        """The players who may act now: `to_act(state).players`, which games may answer more
        cheaply (the turn is checked at every event; the prompt is only needed to refuse)."""
        return self.to_act(state).players

    def clock(self, state: S, at: dt.datetime) -> S:
        """The state as of `at`, the time stamp of the event about to be applied (games with a
        time limit keep their clock from the log's times; events without a time leave it)."""
        return state

    def default_player(self, state: S) -> str | None:
        """Who a typed move is by when `--as` is not given: the one player to act, if any."""
        turn = self.to_act(state)
        return turn.players[0] if len(turn.players) == 1 else None

    # ---- moves, derived from the event declarations --------------------------------------
    def parse(self, state: S, text: str, player: str | None) -> Event:
        """Move text to an event: the first word names the event type, its parser does the rest."""
        if len(text) > MAX_MOVE:  # no move is this long; and no parser meets a 4,300-digit number
            raise NotationError(f"a move of {len(text)} characters is far too long "
                                f"(at most {MAX_MOVE})", code="too-long")
        parts = words(text)
        if not parts:
            raise NotationError("no move given", code="empty")
        verbs = self.events.verbs()
        verb = verbs.get(parts[0].casefold())
        if verb is None and self.verb_prefixes:
            verb = verbs[match(parts[0], verbs, "move", text=text)]
        if verb is None:
            return self.parse_other(state, tuple(parts), text, player)
        return verb.parse(state, Args(tuple(parts[1:]), text, player))

    def parse_other(self, state: S, parts: tuple[str, ...], text: str,
                    player: str | None) -> Event:
        """Move text whose first word is no verb (a game may read it as its usual move)."""
        raise NotationError(f"{parts[0]!r} in {text!r} is not a move; expected one of "
                            f"{', '.join(self.events.verbs())}", code="unknown-word")

    def format(self, state: S, event: Event) -> str:
        return self.events[event.type].format(state, event)

    def apply(self, state: S, event: Event) -> S:
        """The event's effect. `apply_event` makes the checks every game shares first."""
        return self.events[event.type].apply(state, event)

    def legal(self, state: S, player: str | None = None) -> list[Event]:
        """The legal events of the phase, from each event type's `moves` (of `player` if given).
        A caller that needs them twice (`options --json` lists and counts them) asks once and
        passes the list on (`count_moves`, `legal_note`)."""
        return self._legal(state, player)

    def _legal(self, state: S, player: str | None) -> list[Event]:
        if self.over(state):
            return []
        now = self.phase(state)
        return [event for etype in self.events if etype.phases is None or now in etype.phases
                for event in etype.moves(state) if player is None or event.by == player]

    def every_move(self, state: S, player: str | None = None,
                   listed: list[Event] | None = None) -> Iterator[Event]:
        """Every legal event, lazily, for `options --all`: `legal` may leave out the members of a
        family too large to list (a game that does so overrides this and `count_moves`).
        `listed`, when given, is `legal(state, player)` as the caller already has it."""
        return iter(self.legal(state, player) if listed is None else listed)

    def count_moves(self, state: S, player: str | None = None,
                    listed: list[Event] | None = None) -> int:
        """How many legal events there are, counted without listing them all; `listed`, when
        given, is `legal(state, player)` as the caller already has it."""
        return len(self.legal(state, player) if listed is None else listed)

    def private(self, state: S, event: Event) -> bool:
        """Whether a legal event shows what only its player may see (a card of a hand the tool
        dealt): `referee options` lists it only to that player, asked for by name (--for)."""
        return False

    def completions(self, state: S, player: str | None, typed: Sequence[str]) -> list[str]:
        """The words that may come next in a legal move after the words `typed` (shell
        completion of `referee play`): read off `legal()` as `options` offers it by default.
        A game whose `legal` folds a family, or whose moves take several values, says more."""
        done = [w.casefold() for w in typed]
        out: dict[str, None] = {}
        for event in self.legal(state, player):
            if self.private(state, event):  # completion shows to whoever sits at the keyboard
                continue
            parts = words(self.option_text(state, event))
            if len(parts) > len(done) and [p.casefold() for p in parts[:len(done)]] == done:
                out.setdefault(parts[len(done)], None)
        return list(out)

    def legal_note(self, state: S, player: str | None = None,
                   listed: list[Event] | None = None) -> str:
        """Moves that are legal but not enumerated (e.g. trades that need consent); may be ''.
        `listed`, when given, is `legal(state, player)` as the caller already has it."""
        return ""

    def option_lines(self, state: S, events: list[Event]) -> list[str]:
        """`events` (from `legal`) as lines for `referee options`. Games override it to fold long
        families of moves into one readable line (e.g. 'draw CARD: any of the 40 unseen cards')."""
        return [self.option_text(state, event) for event in events]

    def view(self, state: S, player: str | None = None) -> S:
        """The game as the table has seen it, or as `player` has (the table's view and their own
        hand): `status`, `options` and the moves a refusal suggests are computed from it, so
        that no hidden card (a hand dealt by the tool, entered or deduced) is ever printed.
        The default: nothing is hidden."""
        return state

    def table_text(self, state: S, event: Event) -> str:
        """A recorded event as the whole table may read it (`history`, `undo`, `play`): like
        `format`, less what the tool filled in for one player only (the cards it took at random
        from a hand it dealt)."""
        return self.format(state, event)

    def table_record(self, state: S, event: Event) -> dict[str, Any]:
        """A recorded event's fields as the whole table may read them (`play --json`)."""
        return event.record()

    def option_text(self, state: S, event: Event) -> str:
        """A legal move as `options` offers it: like `format`, but without what the tool fills in
        from hidden information when it is played (a virtual pile's next card: `draw`). It parses
        back to the same event. A sealed secret's move is its verb alone: `play` asks for the
        secret unseen (or draws it) and makes the seal; a seal shown here would be no move."""
        etype = self.events[event.type]
        if etype.sealed:
            return etype.words[0]
        return self.format(state, event)

    def random_event(self, state: S, rng: random.Random) -> Event | None:
        """A random legal event, for `simulate`. Games with huge move lists override it."""
        moves = self.legal(state)
        return rng.choice(moves) if moves else None

    # ---- answers -------------------------------------------------------------------------
    def describe(self, before: S, event: Event, after: S) -> list[str]:
        """What `event` changed, in a few plain lines, for `play` to print."""
        if self.texts_module is None:
            return [self.format(before, event)]
        lines: list[str] = self.texts_module.describe(before, event, self.format(before, event),
                                                      after)
        return lines

    def revealed(self, before: S, event: Event, after: S) -> list[str]:
        """The cards a move turned up for the whole table that its record does not name (King
        of the Castle's Sudden Changes draws in a dealt game), for `play --json`."""
        return []

    def remark(self, before: S, event: Event, after: S) -> str:
        """What an event decided that its notation does not say (a vote's count and result),
        shown by `history` beside the move; '' for most events."""
        return ""

    def notices(self, state: S) -> tuple[Notice, ...]:
        """Everything the referee has noticed so far that is not a rejected move (oldest first)."""
        return ()

    def ruled(self, refusal: MoveError) -> MoveError:
        """A refusal as the game gives it: a game whose every refusal names a rule fills in the
        rule of those the shared checks raise without one (by default, left as it is)."""
        return refusal

    def explain(self, state: S, event: Event) -> IllegalMove | None:
        """The game's own reason why `event` cannot come now, when the core would refuse it as
        out of turn or out of its phase (e.g. 'the Druid has no effect in the last trick');
        None keeps the core's refusal. Asked only on the way to a refusal."""
        return None

    def score(self, state: S) -> Scoresheet:
        raise NotImplementedError

    def scoresheet(self, state: S) -> Scoresheet:
        """`score`, and for a game the table stopped, the sheet as it stood marked incomplete:
        what every command and format shows."""
        sheet = self.score(state)
        reason = self.stopped(state)
        if reason is None:
            return sheet
        from referee.scoresheet import stopped

        return stopped(sheet, reason)

    def blank_scoresheet(self, options: Mapping[str, Any] | None = None) -> Scoresheet:
        raise NotImplementedError

    def render(self, state: S) -> str:
        """The board as text for `status`; its last line says who acts and what they may do
        (`to_act(state).line()`), or starts with "Game over" once the game is over."""
        if self.texts_module is None:
            raise NotImplementedError
        text: str = self.texts_module.render(state)
        return text

    def compact(self, state: S) -> str:
        """The board for a shared screen: `status` on a terminal and the session. What players
        need to act (who acts, the standing, the public pieces that matter now) in at most
        `screen.BOARD_ROWS` rows of `screen.BOARD_COLUMNS` columns at the game's largest player
        count; ends like `render`. The default: the whole board."""
        if self.texts_module is None:
            return self.render(state)
        text: str = self.texts_module.compact(state)
        return text

    def board(self, state: S) -> dict[str, Any]:
        """The board as data for `status --json`: JSON values only (str, int, bool, None, lists,
        dicts with str keys), and nothing the table has not seen. The core adds who acts, the
        phase and the text of `render` beside it; the default, no data of the game's own, keeps
        a new game's `status --json` valid until it says more."""
        if self.texts_module is None:
            return {}
        data: dict[str, Any] = self.texts_module.board(state)
        return data

    def inventory(self, state: S) -> dict[str, int]:
        """Where every physical piece is (location -> count); used to test conservation."""
        return {}

    # ---- the reference -------------------------------------------------------------------
    @property
    def notation_help(self) -> str:
        """The notation in one line: each event type's first form."""
        return " | ".join(t.forms[0][0] for t in self.events if t.forms)

    def rules(self, width: int = 0) -> str:
        """The rules summary, the rulings in force by default, the notation: for `referee rules`,
        wrapped to `width` columns (0: the reference width of the man pages)."""
        from referee.rulebook import reference

        forms = [form for etype in self.events for form in etype.forms]
        events = ", ".join(etype.signature() for etype in self.events)
        return reference(self.rulebook, self.id, self.new_defaults(), forms, events, width)


# --------------------------------------------------------------------------------------------
# The checks every game shares, then the game's own effect


def apply_event(game: Game[S], state: S, event: Event, players: Iterable[Player],
                at: dt.datetime | None = None, *, fields_checked: bool = False) -> S:
    """Check that `event` may be recorded now (at time `at`, when known), then apply its effect.
    Raises IllegalMove. `fields_checked`: the event's fields were held to its declaration
    already (a log's events are, when it is read); they are not checked twice."""
    refuse_if_over(game, state)
    try:  # check_and_apply, without its call: a replay comes here for every event
        return _check_and_apply(game, state, event, players, at, fields_checked)
    except MoveError as exc:
        raise game.ruled(exc) from None


def refuse_if_over(game: Game[S], state: S) -> None:
    reason = game.stopped(state)
    if reason is not None:
        raise IllegalMove(f"the game is over: the table stopped it ({reason}); no more moves "
                          f"can be recorded ({game.resumes(state)})", code="game-stopped")
    if game.finished(state):
        raise game.ruled(IllegalMove("the game is over; no more moves can be recorded "
                                     "(`referee undo` takes back the last one)",
                                     code="game-over"))


def check_and_apply(game: Game[S], state: S, event: Event, players: Iterable[Player],
                    at: dt.datetime | None = None, *, fields_checked: bool = False) -> S:
    """`apply_event` for a game known not to be over."""
    try:
        return _check_and_apply(game, state, event, players, at, fields_checked)
    except MoveError as exc:
        raise game.ruled(exc) from None


def _check_and_apply(game: Game[S], state: S, event: Event, players: Iterable[Player],
                     at: dt.datetime | None, fields_checked: bool) -> S:
    if at is not None:
        state = game.clock(state, at)
    etype = game.events.get(event.type)
    if etype is None:
        raise IllegalMove(f"{game.title} has no event of type {event.type!r}", code="unknown-event")
    problem = None if fields_checked else field_problem(etype, event)
    if problem is not None:
        code, _, message = problem
        raise IllegalMove(message, code=code)
    try:
        check_actor(game, state, etype, event, players)
        now = game.phase(state)
        if etype.phases is not None and now not in etype.phases:
            raise wrong_phase(game, state, event, now)
    except IllegalMove as generic:
        raise game.explain(state, event) or generic from None
    after = etype.apply(state, event)
    if SELFCHECK:  # REFEREE_SELFCHECK=1: every kept derived value worked out afresh
        verify(after, f"{event.type} {dict(event.fields)}")
    return after


def field_problem(etype: EventType[Any], event: Event) -> tuple[str, str | None, str] | None:
    """What is wrong with an event's fields against its declaration: (code, field, message)."""
    checks, required = etype.field_checks or field_checks(etype)
    present = 0  # of the required fields (an event's keys are distinct)
    for key, value in event.fields:
        check = checks.get(key)
        if check is None:
            return "unknown-field", key, f"{event.type} has no field {key!r}"
        if type(value) is not check[0] and not check[1](value):  # the kind's own type: no call
            words = KIND_WORDS[etype.fields[key]]
            return "bad-field", key, f"{event.type}.{key} must be {words}"
        if key in required:
            present += 1
    if present < len(required):
        missing = next(key for key in etype.fields if key in required and
                       key not in {k for k, _ in event.fields})
        return "missing-field", None, f"{event.type} needs the field {missing!r}"
    return None


def field_checks(etype: EventType[Any]) -> FieldChecks:
    """Each field's kind (its type, which passes at once, and its test), and the fields an event
    must have: made when a game's `Events` are declared, as every event of a log is held to them."""
    checks = {key: _KIND_CHECKS[kind] for key, kind in etype.fields.items()}
    return checks, frozenset(key for key in etype.fields if key not in etype.optional)


def _is_int(value: Any) -> bool:
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


def _all(test: Callable[[Any], bool]) -> Callable[[Any], bool]:
    def every(value: Any) -> bool:
        return isinstance(value, (list, tuple)) and all(map(test, value))
    return every


_List = type("_List", (), {})  # the type of no field's value: a list kind's test is called
_KIND_CHECKS: dict[str, tuple[type, Callable[[Any], bool]]] = {
    "str": (str, _is_str), "int": (int, _is_int), "bool": (bool, _is_bool),
    "str[]": (_List, _all(_is_str)), "int[]": (_List, _all(_is_int))}


def check_actor(game: Game[S], state: S, etype: EventType[S], event: Event,
                players: Iterable[Player]) -> None:
    """Who may record the event: its declared actor, and the turn order for a player's event."""
    if etype.actor == "table":
        if event.by is not None:
            raise IllegalMove(f"{event.type} is a table event; it has no player",
                              code="not-a-player-event")
        return
    if event.by is None:
        raise IllegalMove(f"{event.type} needs the player who made it", code="no-player")
    for player in players:  # a handful of names: looked through, never kept
        if player.name == event.by:
            break
    else:
        raise IllegalMove(f"{event.by!r} is not playing this game", code="unknown-player")
    if etype.actor == "player" and event.by not in game.acting(state):
        turn = game.to_act(state)
        who = " or ".join(turn.players) or "the table"
        raise IllegalMove(f"it is not {event.by}'s turn: {who} must act ({turn.prompt})",
                          code="not-your-turn", rule=game.turn_rule or None)


def wrong_phase(game: Game[S], state: S, event: Event, now: str) -> IllegalMove:
    """The one refusal of an event out of its phase: its type, and what is awaited now.

    It names the type, not the whole event: a move parsed from a virtual pile would otherwise
    show its next card."""
    phase = next((p for p in game.phases if p.id == now), Phase(now, now))
    return IllegalMove(f"`{event.type}` is not possible now, in the {phase.id} phase: "
                       f"{game.to_act(state).prompt}",
                       code=phase.refusal, rule=phase.rule or game.turn_rule or None)


# --------------------------------------------------------------------------------------------
# The registry: game id -> package (imported lazily so that `referee --help` stays fast)

REGISTRY: dict[str, str] = {
    "kings-ear": "referee.games.kings_ear",
    "king-of-the-valley": "referee.games.king_of_the_valley",
    "dwarf-king": "referee.games.dwarf_king",
    "king-of-the-castle": "referee.games.king_of_the_castle",
    "kingmaker": "referee.games.kingmaker",
}


def game_ids() -> list[str]:
    return list(REGISTRY)


def load_game(game_id: str) -> Game[Any]:
    module = REGISTRY.get(game_id)
    if module is None:
        raise UsageError(f"unknown game {game_id!r}; the games are: "
                         f"{', '.join(available_game_ids())}",
                         code="unknown-game", hint=choices_hint(game_id, REGISTRY))
    game = _game_of(module)
    if game is None:  # a game package still under construction
        raise UsageError(f"{game_id} is not available in this version of referee",
                         code="unknown-game")
    return game


def _game_of(module: str) -> Game[Any] | None:
    if importlib.util.find_spec(module) is None:
        return None
    game = getattr(importlib.import_module(module), "GAME", None)
    return game if isinstance(game, Game) else None


def available_game_ids() -> list[str]:
    """The registered games whose package is present (a game under construction may be absent)."""
    return [gid for gid, module in REGISTRY.items() if _game_of(module) is not None]


__all__ = ["Args", "Event", "EventType", "Events", "FIELD_KINDS", "Game", "Notice", "OptionSpec",
           "Phase", "Player", "ToAct", "apply_event"]
