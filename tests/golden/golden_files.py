"""Writing golden games: shared by the tests/golden/make_GAME.py scripts.

A golden game is a log written as a physical game (no seed: every reveal names its card or tile)
with fixed timestamps, so regenerating it changes nothing unless the play changed, and beside it
NAME.scoresheet.txt, the text scoresheet of its final state.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from referee import log as logfile
from referee.evolve import evolve
from referee.sheets import render_text

CREATED = dt.datetime(2026, 11, 21, 19, 0, tzinfo=dt.timezone.utc)


def write_golden(game, path: Path, players, options, events, state, step_seconds: int) -> None:
    log = logfile.GameLog(game=game.id, players=tuple(players), options=options, created=CREATED,
                          referee="0.1.0", seat_field=game.seat_field)
    entries = tuple(logfile.Entry(seq, event, CREATED + dt.timedelta(seconds=step_seconds * seq))
                    for seq, event in enumerate(events, start=1))
    log = evolve(log, entries=entries)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(logfile.dumps(log), encoding="utf-8")
    path.with_suffix(".scoresheet.txt").write_text(render_text(game.scoresheet(state)),
                                                   encoding="utf-8")


def find_game(play, names, want, options=None, start=0, **kw):
    """The first seed from `start` whose game, played by `play`, ends in a state `want` accepts."""
    for seed in range(start, start + 5000):
        result = play(names, seed, options, **kw)
        if want(result[3]):
            return seed, result
    raise SystemExit(f"no game found for {names}")
