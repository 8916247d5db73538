"""A game at the table: a log, the state replayed from it, and what the commands ask of them.

`cli.py` calls these and prints; this module never prints. Every change is made under the log's
lock (read, replay, check, write), so two terminals can never lose each other's moves, and a
rejected move never touches the file. The CLI asks a `Table`, never a game, so what a command
shows and what `check` checks come from the same replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from referee import __version__, replay
from referee import log as logfile
from referee.engine import (
    Event,
    Game,
    Notice,
    Player,
    ToAct,
    check_and_apply,
    load_game,
    refuse_if_over,
)
from referee.errors import (
    IllegalMove,
    MoveError,
    RefereeError,
    UsageError,
)
from referee.notation import match
from referee.textsafe import name_key

if TYPE_CHECKING:
    from referee.scoresheet import Scoresheet


@dataclass(frozen=True)
class Choices:
    """What `referee options` shows: the legal events, as lines, and a note on unlisted moves;
    computed on `view`, the game as whoever asks has seen it."""

    events: list[Event]
    lines: list[str]
    note: str
    game: Game[Any]
    view: Any

    def texts(self) -> list[str]:
        """Each event as it is typed, in the order of `events` (for `options --json`)."""
        return [self.game.option_text(self.view, event) for event in self.events]


@dataclass(frozen=True)
class Table:
    log: logfile.GameLog
    setup: replay.Setup[Any]
    state: Any

    @property
    def game(self) -> Game[Any]:
        return self.setup.game

    @property
    def players(self) -> tuple[Player, ...]:
        return self.setup.players

    # ---- where the game stands -----------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.game.finished(self.state)

    @property
    def turn(self) -> ToAct:
        return self.game.to_act(self.state)

    @property
    def phase(self) -> str:
        return self.game.phase(self.state)

    def view(self, player: str | None = None) -> Any:
        """The state as the table has seen it, or as `player` has (their own hand too)."""
        return self.game.view(self.state, player)

    def board(self, player: str | None = None) -> str:
        """The board for the table, or for `player`'s eyes only."""
        return self.game.render(self.view(player))

    def inventory(self) -> dict[str, int]:
        return self.game.inventory(self.state)

    def score(self) -> Scoresheet:
        return self.game.score(self.state)

    def player(self, name: str) -> str:
        """The player a (possibly abbreviated) name means, or UsageError."""
        key = name_key(name)
        same = [p.name for p in self.players if name_key(p.name) == key]
        if same:  # `ann`, `Ann` + a zero-width space: the same person
            return same[0]
        try:
            return match(name, [p.name for p in self.players], "player")
        except MoveError as exc:
            raise UsageError(exc.message) from None

    def choices(self, player: str | None = None, own: bool = False) -> Choices:
        """The legal moves (of `player`, if given) as the table may see them; with `own`, as
        `player` sees them, their own hand included."""
        game = self.game
        view = self.view(player if own else None)
        events = game.legal(view, player)
        return Choices(events, game.option_lines(view, events), game.legal_note(view, player),
                       game, view)

    def format(self, event: Event) -> str:
        return self.game.format(self.state, event)

    def history(self) -> list[tuple[logfile.Entry, str]]:
        """Every event as the table may read it, formatted in the state it was played in."""
        game = self.game
        return [(step.entry, game.table_text(step.before, step.event))
                for step in replay.steps(self.setup, self.log.entries, self.log.source)]


def load(path: Path) -> Table:
    """Read, validate and replay a log."""
    log = logfile.read(path)
    setup, state = replay.replay_log(log)
    return Table(log, setup, state)


def new_game(path: Path, game_id: str, players: list[Player], options: Mapping[str, Any],
             seed: int | None) -> Table:
    game = load_game(game_id)
    setup = replay.from_table(game, players, options, seed)
    log = logfile.GameLog(game=game.id, players=setup.players, options=setup.options,
                          created=logfile.now(), referee=__version__, seed=seed,
                          seat_field=game.seat_field, path=path, source=str(path))
    logfile.write_atomic(path, logfile.dumps(log), exclusive=True)
    return Table(log, setup, setup.state)


# --------------------------------------------------------------------------------------------
# Playing a move


@dataclass(frozen=True)
class Played:
    before: Table
    after: Table
    event: Event
    lines: list[str]  # what the move changed, in plain words
    notices: tuple[Notice, ...]  # new ones this move brought to light
    receipt: str | None = None  # a sealed secret's receipt, shown once to its player


class SecretNeeded(Exception):
    """The move seals a secret and none was given: ask for it unseen, then play it again.

    Raised before anything is written, so that nobody types a secret while holding the lock."""


def play(path: Path, text: str, as_name: str | None = None, note: str | None = None,
         secret: str | None = None) -> Played:
    """Parse, check and append one move. Raises MoveError (the file is then left untouched)."""
    with logfile.locked(path):
        table = load(path)
        game = table.game
        refuse_if_over(game, table.state)
        player = _actor(table, as_name)
        receipt = None
        try:
            event = game.parse(table.state, text, player)
            _explain_missing_player(table, event)
            if game.events[event.type].sealed:
                event, receipt = _sealed(table, event, secret)
            state = check_and_apply(game, table.state, event, table.players)
        except MoveError as exc:
            raise _with_suggestions(table, text, player, exc) from None
        log = table.log.appended(event, note)
        logfile.write_atomic(path, logfile.dumps(log))
        after = Table(log, table.setup, state)
        old = len(game.notices(table.state))
        return Played(table, after, event, game.describe(table.state, event, state),
                      game.notices(state)[old:], receipt)


def _actor(table: Table, as_name: str | None) -> str | None:
    """Who is making the move: --as NAME, else whoever the game says a typed move is by."""
    if as_name is not None:
        return table.player(as_name)
    return table.game.default_player(table.state)


def _explain_missing_player(table: Table, event: Event) -> None:
    """A player's move typed when no single player is to act: say why, and how to name one."""
    if event.by is not None or table.game.events[event.type].actor == "table":
        return
    turn = table.turn
    if turn.table or not turn.players:
        raise IllegalMove(f"the table must act now ({turn.prompt}), not a player",
                          code="table-must-act", rule=table.game.turn_rule or None)
    raise UsageError(f"several players may act now ({' or '.join(turn.players)}): "
                     "say who with --as NAME")


def _sealed(table: Table, event: Event, secret: str | None) -> tuple[Event, str]:
    """The event with the seal of `secret` in it, and the receipt its player keeps."""
    from referee import seals

    if secret is None:
        raise SecretNeeded(event.type)
    canonical = table.game.events[event.type].secret(table.state, secret)
    receipt = seals.new_receipt()
    return event.with_fields(seal=seals.commitment(canonical, receipt)), receipt


def _with_suggestions(table: Table, text: str, player: str | None, exc: MoveError) -> MoveError:
    """The same error, with the legal moves closest to what was typed."""
    if exc.suggestions:
        return exc
    import difflib  # only on a rejected move: keep it off start-up

    try:
        # Folded lines ('draw CARD') read better than forty single draws; drop their comments.
        # The table reads the refusal: the moves are those of its view, never a hidden hand's.
        lines = [line.split("  ")[0] for line in table.choices(player).lines]
    except RefereeError:  # pragma: no cover - a game that cannot list moves still rejects cleanly
        lines = []
    candidates = _likeliest(text, lines)
    close = difflib.get_close_matches(text[:200], candidates, n=3, cutoff=0.0) if lines else []
    exc.suggestions = tuple(close)
    return exc


SUGGESTION_POOL = 200  # difflib compares this many moves at most: a late King's Ear position
#                        has tens of thousands of legal trades, and comparing them all took minutes


def _likeliest(text: str, lines: list[str]) -> list[str]:
    """The lines that share the most words with `text` (in their order), at most
    SUGGESTION_POOL of them: a cheap first cut before difflib's costly comparison."""
    if len(lines) <= SUGGESTION_POOL:
        return lines
    typed = set(text.casefold().replace(",", " ").split())
    shared = [len(typed.intersection(line.casefold().replace(",", " ").split()))
              for line in lines]
    best = sorted(range(len(lines)), key=lambda i: -shared[i])[:SUGGESTION_POOL]
    return [lines[i] for i in sorted(best)]


# --------------------------------------------------------------------------------------------
# Undo, demo


@dataclass(frozen=True)
class Undone:
    entry: logfile.Entry
    text: str  # the event retracted, in notation
    table: Table


def undo(path: Path, force: bool = False) -> Undone:
    """Move the last event to [[retracted]]. Retracting a reveal needs `force`."""
    with logfile.locked(path):
        log = logfile.read(path)
        if not log.entries:
            raise UsageError("there is nothing to undo: the log has no events")
        last = log.entries[-1]
        new_log = log.without_last()
        setup, state = replay.replay_log(new_log)
        text = setup.game.table_text(state, last.event)
        if setup.game.events[last.event.type].reveal and not force:
            raise UsageError(f"event {last.seq} ({text}) revealed hidden information that "
                             "everyone has now seen; use `referee undo --force` to retract it "
                             "anyway", code="undo-reveal")
        logfile.write_atomic(path, logfile.dumps(new_log))
        return Undone(last, text, Table(new_log, setup, state))


@dataclass(frozen=True)
class DemoMove:
    seq: int
    lines: list[str]


class Demo:
    """A bundled example game, replayed move by move; `table` is the game at its end."""

    def __init__(self, game_id: str):
        from importlib import resources

        load_game(game_id)  # unknown game: usage error before anything else
        source = resources.files("referee") / "examples" / f"{game_id}.toml"
        if not source.is_file():
            raise UsageError(f"there is no bundled example for {game_id} yet")
        self.log = logfile.parse(source.read_text(encoding="utf-8"), f"example {game_id}.toml")
        self.setup = replay.from_log(self.log)
        self.table = Table(self.log, self.setup, self.setup.state)

    def moves(self) -> Iterator[DemoMove]:
        game = self.setup.game
        for step in replay.steps(self.setup, self.log.entries, self.log.source):
            self.table = Table(self.log, self.setup, step.after)
            yield DemoMove(step.entry.seq, game.describe(step.before, step.event, step.after))
