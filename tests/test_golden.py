"""Golden games: each tests/golden/GAME/NAME.toml replays to the scoresheet in NAME.scoresheet.txt.

The bundled demo games (referee/examples/GAME.toml) must replay cleanly to a finished game too.
"""

from __future__ import annotations

import pytest

from referee import log as logfile
from referee.engine import available_game_ids, load_game
from referee.replay import replay_log
from referee.sheets import render_text
from tests.conftest import EXAMPLES, GOLDEN

GAMES = [p for p in sorted(GOLDEN.glob("*/*.toml")) if p.parent.name in available_game_ids()]
# The bundled demo games are golden games too, with their sheets beside them.
GAMES += [p for p in sorted(EXAMPLES.glob("*.toml")) if p.stem in available_game_ids()]


def final_state(path):
    log = logfile.read(path)
    game = load_game(log.game)
    return game, replay_log(log)[1]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_game_replays_to_its_expected_scoresheet(path):
    game, state = final_state(path)
    assert game.over(state)  # finished, or stopped by the table
    expected = path.with_suffix(".scoresheet.txt").read_text(encoding="utf-8")
    assert render_text(game.scoresheet(state)) == expected


@pytest.mark.parametrize("game_id", available_game_ids())
def test_every_game_has_golden_games_and_a_bundled_demo(game_id):
    assert len(list((GOLDEN / game_id).glob("*.toml"))) >= 1
    game, state = final_state(EXAMPLES / f"{game_id}.toml")
    assert game.id == game_id and game.finished(state)


def test_kings_ear_goldens_cover_wins_and_endings_without_a_winner():
    outcomes = {}
    for path in (GOLDEN / "kings-ear").glob("*.toml"):
        game, state = final_state(path)
        outcomes[path.stem] = (state.winner is not None, state.ended or "", state.stopped)
    assert sum(won for won, _, _ in outcomes.values()) >= 2
    assert any("R-6" in ended for _, ended, _ in outcomes.values())
    assert any(stopped for _, _, stopped in outcomes.values())  # the table stops it
