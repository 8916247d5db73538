"""Mid-game logs of every game at its largest player count, made by the simulate machinery: the
boards a shared screen must fit."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from referee import log as logfile
from referee import simulate
from referee.engine import Player, apply_event, available_game_ids, load_game

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
# Long names (18 characters), alike in their first eight: "Margaret-Ann-Tudor".
LONG_NAMES = tuple(f"Margaret-{name}-Tudor" for name in NAMES)
POINTS = (0.25, 0.5, 0.75, 1.0)  # how far into a random game its board is taken


def largest_table(game: Any, names: tuple[str, ...] = NAMES) -> list[Player]:
    return game.seat_players([Player(n) for n in names[:game.max_players]],
                             game.default_options())


def midgame_states(seeds: range = range(3), names: tuple[str, ...] = NAMES
                   ) -> Iterator[tuple[str, int, int, Any, Any]]:
    """(game id, seed, events played, game, state) at several points of random games."""
    for gid in available_game_ids():
        game = load_game(gid)
        players = largest_table(game, names)
        for seed in seeds:
            played = simulate.play_out(game, seed, players)
            state = played.setup.state
            marks = {int(len(played.events) * p) for p in POINTS}
            for count, event in enumerate(played.events, 1):
                state = apply_event(game, state, event, played.setup.players)
                if count in marks:
                    yield gid, seed, count, game, state


def midgame_log(folder: Path, gid: str, seed: int = 0, point: float = 0.5,
                names: tuple[str, ...] = NAMES) -> Path:
    """A log of a random game of `gid` at its largest player count, cut at `point`."""
    game = load_game(gid)
    played = simulate.play_out(game, seed, largest_table(game, names))
    played.events = played.events[:int(len(played.events) * point)]
    path = folder / f"{gid}.toml"
    logfile.write_atomic(path, logfile.dumps(simulate.to_log(game, played)), exclusive=True)
    return path
