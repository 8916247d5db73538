"""Random legal games, for every game: replay, the notation round trip, conservation, legality.

These are properties of the protocol, so they run over every registered game alike.
"""

from __future__ import annotations

import random

import pytest

from referee import log as logfile
from referee.engine import apply_event, available_game_ids, load_game
from referee.replay import replay_events, replay_log
from referee.simulate import default_players, play_out, to_log

SEEDS = range(12)
SAMPLE = 25  # legal events re-checked per visited state (all of them when fewer)


def visited_states(game, playout):
    state = game.setup(playout.players, game.default_options(), playout.seed)
    for event in playout.events:
        yield state, event
        state = apply_event(game, state, event, playout.players)


@pytest.mark.parametrize("game_id", available_game_ids())
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_properties(game_id, seed):
    game = load_game(game_id)
    players = default_players(game, None)
    playout = play_out(game, seed, players)
    assert playout.finished, f"{game_id} seed {seed} did not finish"
    rng = random.Random(seed)
    total = None
    for index, (state, event) in enumerate(visited_states(game, playout)):
        # The event actually played parses back from its canonical text.
        assert game.parse(state, game.format(state, event), event.by) == event
        # Every piece is somewhere, and nothing appears or vanishes.
        inventory = sum(game.inventory(state).values())
        total = inventory if total is None else total
        assert inventory == total
        if index % 3:
            continue
        legal = game.legal(state)
        assert legal, f"{game_id}: nobody can act in a state that is not finished"
        for candidate in rng.sample(legal, min(SAMPLE, len(legal))):
            apply_event(game, state, candidate, players)  # every listed option applies
            text = game.format(state, candidate)
            assert game.parse(state, text, candidate.by) == candidate, text
    # Replay from the log equals the state reached by playing.
    log = logfile.parse(logfile.dumps(to_log(game, playout)))
    assert replay_log(log)[1] == playout.state
    assert replay_events(game, players, game.default_options(), seed,
                         playout.events) == playout.state
    assert game.legal(playout.state) == []


@pytest.mark.parametrize("game_id", available_game_ids())
def test_scoresheet_of_a_finished_random_game_has_places(game_id):
    game = load_game(game_id)
    playout = play_out(game, 99, default_players(game, None))
    sheet = game.score(playout.state)
    places = [r.place for r in sheet.rows if r.name is not None]
    assert sheet.finished and sheet.winners and 1 in places
    assert all(p is not None and p >= 1 for p in places)


@pytest.mark.parametrize("game_id", available_game_ids())
def test_the_cheap_turn_check_agrees_with_to_act(game_id):
    game = load_game(game_id)
    playout = play_out(game, 5, default_players(game, None))
    state = playout.setup.state
    for event in playout.events + [None]:
        assert game.acting(state) == game.to_act(state).players
        if event is not None:
            state = apply_event(game, state, event, playout.players)
