"""A game at the table: a log plus the state replayed from it, and the operations that change it.

`cli.py` calls these and prints; this module never prints. Every change is made under the log's
lock (read, replay, check, write), so two terminals can never lose each other's moves, and a
rejected move never touches the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee import __version__
from referee import log as logfile
from referee.engine import Event, Game, Notice, Player, apply_event, load_game
from referee.errors import IllegalMove, LogError, MoveError, RefereeError, UsageError
from referee.notation import match


@dataclass(frozen=True)
class Table:
    log: logfile.GameLog
    game: Game
    state: Any


class ReplayError(LogError):
    """An event in the log breaks the rules: the log cannot be continued as it stands."""

    def __init__(self, source: str, entry: logfile.Entry, error: RefereeError):
        where = f"{source}:{entry.line}" if entry.line else source
        super().__init__(f"{where}: event {entry.seq} ({entry.event.type}) is illegal: "
                         f"{error.message}", code=error.code, line=entry.line, seq=entry.seq,
                         hint="`referee check` lists every problem; `referee undo` takes "
                              "back the last event")
        self.error = error


def start_state(game: Game, log: logfile.GameLog) -> Any:
    try:
        return game.setup(log.players, log.options, log.seed)
    except UsageError as exc:
        raise LogError(f"{log.path or '<log>'}: the players do not fit {game.title}: "
                       f"{exc.message}", code="bad-players") from None


def replay(game: Game, log: logfile.GameLog, entries: tuple[logfile.Entry, ...] | None = None) \
        -> Any:
    state = start_state(game, log)
    for entry in log.entries if entries is None else entries:
        try:
            state = apply_event(game, state, entry.event, log.players)
        except MoveError as exc:
            raise ReplayError(str(log.path or "<log>"), entry, exc) from None
    return state


def load(path: Path) -> Table:
    log = logfile.read(path)
    game = load_game(log.game)
    return Table(log, game, replay(game, log))


def new_game(path: Path, game_id: str, players: list[Player], options: dict[str, Any],
             seed: int | None) -> Table:
    game = load_game(game_id)
    options = game.check_options(options)
    seated = tuple(game.seat_players(players, options))
    log = logfile.GameLog(game=game.id, players=seated, options=options,
                          created=logfile.now(), referee=__version__, seed=seed, path=path)
    state = game.setup(seated, options, seed)
    logfile.write_atomic(path, logfile.dumps(log, game.seat_field), exclusive=True)
    return Table(log, game, state)


def find_player(log: logfile.GameLog, name: str) -> str:
    names = [p.name for p in log.players]
    try:
        return match(name, names, "player")
    except MoveError as exc:
        raise UsageError(exc.message) from None


def actor(table: Table, as_name: str | None) -> str | None:
    """Who is making the move: --as NAME, else the one player to act (None for table events)."""
    if as_name is not None:
        return find_player(table.log, as_name)
    turn = table.game.to_act(table.state)
    if len(turn.players) == 1:
        return turn.players[0]
    return None


@dataclass(frozen=True)
class Played:
    before: Table
    after: Table
    event: Event
    notices: tuple[Notice, ...]  # new ones this move brought to light


def play(path: Path, text: str, as_name: str | None = None, note: str | None = None) -> Played:
    """Parse, check and append one move. Raises MoveError (the file is then left untouched)."""
    with logfile.locked(path):
        table = load(path)
        game = table.game
        if game.finished(table.state):
            raise IllegalMove("the game is over; no more moves can be recorded "
                              "(`referee undo` takes back the last one)", code="game-over")
        player = actor(table, as_name)
        try:
            event = game.parse(table.state, text, player)
            spec = game.events[event.type]
            if spec.actor == "player" and event.by is None:
                turn = game.to_act(table.state)
                if turn.table or not turn.players:
                    raise IllegalMove(f"the table must act now ({turn.phase}), not a player",
                                      code="table-must-act", rule="turn order")
                raise UsageError(f"several players may act now ({' or '.join(turn.players)}): "
                                 "say who with --as NAME")
            state = apply_event(game, table.state, event, table.log.players)
        except MoveError as exc:
            raise _with_suggestions(table, text, player, exc) from None
        log = table.log.appended(event, note)
        logfile.write_atomic(path, logfile.dumps(log, game.seat_field))
        after = Table(log, game, state)
        old = len(game.notices(table.state))
        return Played(table, after, event, game.notices(state)[old:])


def _with_suggestions(table: Table, text: str, player: str | None, exc: MoveError) -> MoveError:
    """The same error, with the legal moves closest to what was typed."""
    if exc.suggestions:
        return exc
    import difflib  # only on a rejected move: keep it off start-up

    try:
        legal = table.game.legal(table.state, player)
        # Folded lines ('draw CARD') read better than forty single draws; drop their comments.
        lines = [line.split("  ")[0] for line in table.game.option_lines(table.state, legal)]
    except RefereeError:  # pragma: no cover - a game that cannot list moves still rejects cleanly
        lines = []
    close = difflib.get_close_matches(text, lines, n=3, cutoff=0.0) if lines else []
    exc.suggestions = tuple(close)
    return exc


@dataclass(frozen=True)
class Undone:
    entry: logfile.Entry
    table: Table


def undo(path: Path, force: bool = False) -> Undone:
    """Move the last event to [[retracted]]. Retracting a reveal needs `force`."""
    with logfile.locked(path):
        log = logfile.read(path)
        game = load_game(log.game)
        if not log.entries:
            raise UsageError("there is nothing to undo: the log has no events")
        last = log.entries[-1]
        new_log = log.without_last()
        state = replay(game, new_log)
        if game.events[last.event.type].reveal and not force:
            raise UsageError(f"event {last.seq} ({game.format(state, last.event)}) revealed "
                             "hidden information that everyone has now seen; use "
                             "`referee undo --force` to retract it anyway", code="undo-reveal")
        logfile.write_atomic(path, logfile.dumps(new_log, game.seat_field))
        return Undone(last, Table(new_log, game, state))


def history(table: Table) -> list[tuple[logfile.Entry, str]]:
    """Every event with its canonical text, formatted in the state it was played in."""
    out = []
    state = start_state(table.game, table.log)
    for entry in table.log.entries:
        out.append((entry, table.game.format(state, entry.event)))
        state = apply_event(table.game, state, entry.event, table.log.players)
    return out
