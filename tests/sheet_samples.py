"""Scoresheets to look at: every game at every player count with 18-character names, finished
by random legal play (and the golden games, renamed), with a date, a duration and a place.

Used by the scoresheet tests and by tools/print_check.py (the headless-browser check).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from referee import log as logfile
from referee import session
from referee.engine import Player, available_game_ids, load_game
from referee.evolve import evolve
from referee.scoresheet import Scoresheet
from referee.simulate import play_out
from tests.conftest import GOLDEN

LONG_NAMES = ("Alexandrina Louisa", "Bartholomew Jensen", "Clementine Osborne",
              "Dashiell Hammerson", "Evangeline Forsyth", "Fitzgerald Kovacs",
              "Gwendolyn Ashworth")  # as many as the most players of any game (Kingmaker's 7)
PLACE = "The Old Granary, Upper Slaughter"
START = dt.datetime(2026, 11, 21, 19, 0, tzinfo=dt.timezone(dt.timedelta(hours=1)))


@dataclass(frozen=True)
class Sample:
    label: str  # e.g. "dwarf-king-5p"
    sheet: Scoresheet


def _table(game_id: str, count: int, seed: int) -> session.Table:
    game = load_game(game_id)
    players = game.seat_players([Player(n) for n in LONG_NAMES[:count]],
                                game.default_options())
    playout = play_out(game, seed, players, {"place": PLACE})
    log = logfile.GameLog(game=game.id, players=playout.setup.players,
                          options=playout.setup.options, created=START, referee="0.1.0",
                          seed=seed, seat_field=game.seat_field)
    step = dt.timedelta(seconds=20)
    entries = tuple(logfile.Entry(i, e, START + step * i)
                    for i, e in enumerate(playout.events, start=1))
    return session.Table(evolve(log, entries=entries), playout.setup, playout.state)


def finished(game_id: str, count: int) -> Scoresheet:
    """A finished random game of `count` players with long names."""
    for seed in range(50):
        table = _table(game_id, count, seed)
        if table.finished:
            return table.score()
    raise AssertionError(f"no finished {game_id} game in 50 seeds")


def renamed_golden(path: Path) -> Scoresheet:
    """A golden game with its players' names replaced by long ones."""
    text = path.read_text(encoding="utf-8")
    names = [p.name for p in logfile.parse(text).players]
    for old, new in zip(names, LONG_NAMES):
        text = re.sub(rf'"{re.escape(old)}"', f'"{new}"', text)
    log = logfile.parse(text, path.name)
    setup, state = session.replay.replay_log(log)
    return session.Table(log, setup, state).score(PLACE)


def samples() -> Iterator[Sample]:
    """Every game's blank sheet, a finished game at each player count, and the golden games."""
    for game_id in available_game_ids():
        game = load_game(game_id)
        yield Sample(f"{game_id}-blank", game.blank_scoresheet())
        for count in range(game.min_players, game.max_players + 1):
            yield Sample(f"{game_id}-{count}p", finished(game_id, count))
        for path in sorted((GOLDEN / game_id).glob("*.toml")):
            yield Sample(f"{game_id}-{path.stem}", renamed_golden(path))
