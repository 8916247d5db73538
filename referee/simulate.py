"""`referee simulate`: random legal games played by the tool itself (for tests, demos and speed).

Each game is dealt with its own seed (a --shuffle game) and played by choosing random legal events
through the game protocol, so every simulated game is also a valid log.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee import __version__, replay
from referee import log as logfile
from referee.engine import Event, Game, Player, apply_event, load_game
from referee.errors import CannotWrite

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
MAX_EVENTS = 20_000  # a guard against a game that never ends; no real game comes near it


@dataclass
class Playout:
    setup: replay.Setup[Any]
    events: list[Event] = field(default_factory=list)
    state: Any = None
    finished: bool = False

    @property
    def seed(self) -> int | None:
        return self.setup.seed

    @property
    def players(self) -> tuple[Player, ...]:
        return self.setup.players


def default_players(game: Game[Any], count: int | None) -> list[Player]:
    count = count or min(max(3, game.min_players), game.max_players)
    return game.seat_players([Player(n) for n in NAMES[:count]], game.default_options())


def play_out(game: Game[Any], seed: int, players: list[Player],
             options: dict[str, Any] | None = None) -> Playout:
    """One random game to its end: returns the events and the final state."""
    setup = replay.from_table(game, players, options or {}, seed)
    rng = random.Random(seed)
    state = setup.state
    out = Playout(setup)
    while not game.finished(state) and len(out.events) < MAX_EVENTS:
        event = game.random_event(state, rng)
        if event is None:
            break
        state = apply_event(game, state, event, setup.players)
        out.events.append(event)
    out.state, out.finished = state, game.finished(state)
    return out


def to_log(game: Game[Any], playout: Playout) -> logfile.GameLog:
    setup = playout.setup
    entries = tuple(logfile.Entry(seq, event) for seq, event in enumerate(playout.events, 1))
    # No event times: a simulated game was not played at a table (a game with a clock, such as
    # Kingmaker's time limit, then takes the table's word for it, as in any untimed log).
    return logfile.GameLog(game=game.id, players=setup.players, options=setup.options,
                           created=logfile.now(), referee=__version__, seed=setup.seed,
                           seat_field=game.seat_field, entries=entries)


@dataclass
class Summary:
    game: str
    games: int
    finished: int
    events: int
    seconds: float
    winners: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "games": self.games, "finished": self.finished,
                "events": self.events, "seconds": round(self.seconds, 3),
                "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
                "winners": self.winners}


def simulate(game_id: str, games: int, seed: int, players: int | None = None,
             save: Path | None = None) -> Summary:
    game = load_game(game_id)
    seated = default_players(game, players)
    master = random.Random(seed)
    winners: dict[str, int] = {}
    finished = events = 0
    targets = _save_targets(save, game.id, games) if save is not None else []
    start = time.perf_counter()
    for index in range(games):
        playout = play_out(game, master.randrange(2**31), seated)
        finished += playout.finished
        events += len(playout.events)
        for name in game.score(playout.state).winners if playout.finished else ():
            winners[name] = winners.get(name, 0) + 1
        if targets:
            logfile.write_atomic(targets[index], logfile.dumps(to_log(game, playout)),
                                 exclusive=True)
    elapsed = time.perf_counter() - start
    return Summary(game.id, games, finished, events, elapsed, winners)


def _save_targets(folder: Path, game_id: str, games: int) -> list[Path]:
    """The files `--save FOLDER` will write, the folder made if need be. Refused before any game
    is played when FOLDER is not a folder or one of the files exists: logs are never overwritten."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        what = "is not a folder" if folder.exists() else f"cannot be made ({exc.strerror})"
        raise CannotWrite(f"--save {folder}: {what}", hint="name a folder for the logs") from None
    targets = [folder / f"{game_id}-{index:05d}.toml" for index in range(1, games + 1)]
    taken = [path for path in targets if os.path.lexists(path)]
    if taken:
        raise CannotWrite(f"--save {folder}: {taken[0].name} already exists"
                          + (f" (and {len(taken) - 1} more)" if len(taken) > 1 else "")
                          + "; simulate never overwrites a log",
                          hint="choose an empty folder, or remove the old logs")
    return targets
