"""One validation path and one replay driver, for every command and every test.

`from_log` checks that a log's header fits its game (player count, names, seats, options) and that
every event fits its type's declaration, before anything is set up: a problem ends as a LogError
(exit 65) naming its TOML line. `from_table` does the same for a game started at the command line
(a UsageError, exit 2). `steps` then replays events one by one through `engine.apply_event`, the
one place where a move is checked, yielding what each did and raising at the first illegal one
with its event number and TOML line.
"""

from __future__ import annotations

from typing import (
    Any,
    Generic,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
    TypeVar,
)

from referee.engine import (
    Event,
    Game,
    Notice,
    Player,
    apply_event,
    field_problem,
    load_game,
)
from referee.errors import EXIT_RULE, LogError, MoveError, RefereeError, UsageError
from referee.log import Entry, GameLog
from referee.optionspec import kind_ok
from referee.values import value

S = TypeVar("S")


@value
class Setup(Generic[S]):
    """A game as it stands before its first event: the players seated, the options checked."""

    game: Game[S]
    players: tuple[Player, ...]
    options: dict[str, Any]
    seed: int | None
    state: S


@value
class Step(Generic[S]):
    """One event replayed: the state before and after it, and what the referee newly noticed."""

    entry: Entry
    before: S
    after: S
    notices: tuple[Notice, ...]

    @property
    def event(self) -> Event:
        return self.entry.event


class ReplayError(LogError):
    """An event in the log breaks the rules (a hand edit made it illegal): the log reads, but
    cannot be continued as it stands. A rule finding, as `check` reports it (exit 1), not a
    malformed log; the hint is a command that mends it (`repair_hint`)."""

    exit_status = EXIT_RULE

    def __init__(self, source: str, entry: Entry, error: MoveError, hint: str):
        where = f"{source}:{entry.line}" if entry.line else source
        also = "".join(f"; and {o.message}" for o in getattr(error, "also", ()))
        super().__init__(f"{where}: event {entry.seq} ({entry.event.type}) is illegal: "
                         f"{error.message}{also}", code=error.code, line=entry.line, seq=entry.seq,
                         hint=hint)
        self.entry = entry
        self.error = error
        self.rule = error.rule  # as `check` names it beside the finding


def repair_hint(game: Game[Any], entry: Entry, last: bool) -> str:
    """The commands that mend a log whose event `entry` is illegal: `correct` replaces it (or
    takes it out) and replays the later events on the correction, writing nothing unless they
    still fit; `undo`, when it is the `last` event. Each with `--force` where the event is a
    reveal, as their own rules ask; a sealed move is retyped with the seal the event holds."""
    etype = game.events.get(entry.event.type)
    force = " --force" if etype is not None and etype.reveals(entry.event) else ""
    seq = entry.seq
    undo = f"`referee undo{force}` takes event {seq} back, or " if last else ""
    if etype is not None and etype.sealed:  # retyped with its seal, never the secret
        seal = _readable_seal(entry.event.get("seal"))
        if seal is None:
            return (f"{undo}put its seal back as it was recorded, from a copy of the log: no "
                    "command retypes a damaged seal (its secret is never typed)")
        fix = (f"`referee correct {seq} {etype.words[0]} {seal} --why TEXT --by NAME{force}` "
               "puts it back with its seal (--as NAME: whose it is)")
    else:
        fix = (f"`referee correct {seq} MOVE --why TEXT --by NAME{force}` replaces it (--delete "
               "instead of MOVE: it never happened)")
    return (f"{undo}{fix}; or correct the earlier event that led to it: the later events are "
            "replayed on a correction, and nothing is written unless they still fit")


def _readable_seal(seal: Any) -> str | None:
    """A seal as a correction retypes it (hex digits in either case), or None when it is no
    commitment: its secret cannot be put back."""
    from referee import seals

    text = seal.lower() if isinstance(seal, str) else ""
    return text if seals.is_commitment(text) else None


# --------------------------------------------------------------------------------------------
# The header: players and options against the game


def from_table(game: Game[S], players: Sequence[Player], options: Mapping[str, Any],
               seed: int | None) -> Setup[S]:
    """Seat the players and check the options of a game started at the table (UsageError)."""
    checked = game.check_options(options)
    game.check_new(checked, seed)
    seated = tuple(game.seat_players(players, checked))
    return Setup(game, seated, checked, seed, game.setup(seated, checked, seed))


def from_log(log: GameLog) -> Setup[Any]:
    """The game of a log, its header checked and every event checked against its declaration."""
    try:
        game = load_game(log.game)
    except RefereeError:
        raise log.fail(f"unknown game {log.game!r}", code="unknown-game",
                       line=log.line_of("game")) from None
    options = _options(game, log)
    players = _players(game, log, options)
    for entry in log.entries:
        _check_event(game, log, entry)
    try:
        state = game.setup(players, options, log.seed)
    except UsageError as exc:  # a set-up the game cannot make of the log's header
        raise log.fail(exc.message, code="bad-option", line=log.line_of("seed")) from None
    return Setup(game, players, options, log.seed, state)


def _options(game: Game[Any], log: GameLog) -> dict[str, Any]:
    specs = game.option_specs()
    for name, value in log.options.items():
        if name not in specs:
            raise log.fail(f"{game.id} has no option {name!r}", code="unknown-option",
                           line=log.line_of(name))
        if not kind_ok(value, specs[name].kind):
            raise log.fail(f"option {name} must be a {specs[name].kind}", code="bad-option",
                           line=log.line_of(name))
    try:
        return game.check_options(log.options)
    except UsageError as exc:
        raise log.fail(exc.message, code="bad-option") from None


def _players(game: Game[Any], log: GameLog, options: dict[str, Any]) -> tuple[Player, ...]:
    if log.seat_field is not None and log.seat_field != game.seat_field:
        line = log.line_of(log.seat_field, log.player_line(0))
        raise log.fail(f"player field {log.seat_field!r} is not known to {game.id}",
                       code="unknown-field", line=line)
    try:
        seated = tuple(game.seat_players(log.players, options))
    except UsageError as exc:
        index = 0 if exc.code == "player-count" else _named(log, exc.message)
        line = log.player_line(index)
        if exc.code == "bad-seat" and log.seat_field:  # point at the seat itself
            line = log.line_of(log.seat_field, line) or line
        raise log.fail(f"the players do not fit {game.title}: {exc.message}", code="bad-players",
                       line=line) from None
    return seated


def _named(log: GameLog, message: str) -> int:
    """The index of the first player a message names (for its line), else 0."""
    return next((i for i, p in enumerate(log.players) if p.name and p.name in message), 0)


def _check_event(game: Game[Any], log: GameLog, entry: Entry) -> None:
    event = entry.event
    etype = game.events.get(event.type)
    if etype is None:
        raise _event_failure(log, entry, f"unknown event type {event.type!r} for {game.id}",
                             "unknown-event", "type")
    problem = field_problem(etype, event)
    if problem is not None:
        code, key, message = problem
        raise _event_failure(log, entry, message, code, key)


def _event_failure(log: GameLog, entry: Entry, message: str, code: str,
                   key: str | None = None) -> LogError:
    """An entry's refusal, at the line of its `key` (else of its table)."""
    line = log.event_line(entry)
    line = log.line_of(key, line) if key and line else line
    return log.fail(f"event {entry.seq}: {message}", code=code, line=line, seq=entry.seq)


# --------------------------------------------------------------------------------------------
# The driver


def steps(setup: Setup[S], entries: Iterable[Entry], source: str = "<log>",
          checked: bool = False) -> Iterator[Step[S]]:
    """Replay `entries` from the set-up state, one Step each; ReplayError at the first bad one.
    `checked`: `from_log` has held every entry's fields to their declarations."""
    game, state, players = setup.game, setup.state, setup.players
    asks = type(game).notices is not Game.notices  # most games notice nothing: not asked
    seen = len(game.notices(state)) if asks else 0
    for entry in entries:
        try:
            after = apply_event(game, state, entry.event, players, entry.at,
                                fields_checked=checked)
        except MoveError as exc:
            raise ReplayError(source, entry, exc, repair_hint(game, entry, last=False)) from None
        if asks:
            notices = game.notices(after)
            yield Step(entry, state, after, notices[seen:])
            seen = len(notices)
        else:
            yield Step(entry, state, after, ())
        state = after


def final(setup: Setup[S], entries: Iterable[Entry], source: str = "<log>",
          checked: bool = False) -> S:
    """The state after every entry (ReplayError at the first bad one)."""
    state = setup.state
    for step in steps(setup, entries, source, checked):
        state = step.after
    return state


def events_to_entries(events: Iterable[Event]) -> Iterator[Entry]:
    """Bare events (a simulated game, a test) as entries numbered from 1."""
    for seq, event in enumerate(events, start=1):
        yield Entry(seq, event)


def replay_log(log: GameLog) -> tuple[Setup[Any], Any]:
    """A log's set-up and its final state: the whole validation path and the whole replay."""
    setup = from_log(log)
    try:
        return setup, final(setup, log.entries, log.source, checked=True)
    except ReplayError as exc:
        if log.entries and exc.entry.seq == log.entries[-1].seq:  # `undo` takes it back too
            exc.hint = repair_hint(setup.game, exc.entry, last=True)
        raise


def replay_events(game: Game[S], players: Sequence[Player], options: Mapping[str, Any],
                  seed: int | None, events: Iterable[Event]) -> S:
    """The state after bare `events` in a game set up at the table (simulations and tests)."""
    return final(from_table(game, players, options, seed), events_to_entries(events))
