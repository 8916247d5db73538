"""Fuzzed move text and mutated logs must end in clean errors, never an exception of another kind."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import log as logfile
from referee.check import check_file
from referee.engine import apply_event, available_game_ids, load_game
from referee.errors import LogError, MoveError, RefereeError
from referee.simulate import default_players, play_out
from tests.conftest import GOLDEN, assert_handled

WORDS = ["draw", "place", "trade", "give", "take", "agreed", "pass", "end", "Pig", "Horse",
         "Stag", "Boar", "Army", "Religion", "Trade", "Farming", "PA3", "HF1", ",", "and", "1",
         "4", "9", "x", ""]


def sample_states():
    """A few real mid-game states of every game, from seeded random playouts."""
    states = []
    for game_id in available_game_ids():
        game = load_game(game_id)
        playout = play_out(game, 3, default_players(game, None))
        state = game.setup(playout.players, game.default_options(), playout.seed)
        for index, event in enumerate(playout.events):
            if index % max(1, len(playout.events) // 6) == 0:
                states.append((game, state, playout.players))
            state = apply_event(game, state, event, playout.players)
    return states


STATES = sample_states()
text_strategy = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(min_value=0, max_value=len(STATES) - 1), text=text_strategy)
def test_any_move_text_parses_or_fails_cleanly(index, text):
    game, state, players = STATES[index]
    turn = game.to_act(state)
    player = turn.players[0] if turn.players else None
    try:
        event = game.parse(state, text, player)
        apply_event(game, state, event, players)
    except MoveError as exc:
        assert exc.message
    except RefereeError as exc:  # e.g. a usage problem: still a clean, named error
        assert exc.message


GOOD = (GOLDEN / "kings-ear" / "three-player-win.toml").read_text()


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), cuts=st.integers(1, 6))
def test_mutated_logs_end_in_clean_errors(tmp_path_factory, seed, cuts):
    rng = random.Random(seed)
    text = list(GOOD)
    for _ in range(cuts):
        at = rng.randrange(len(text))
        action = rng.randrange(4)
        if action == 0:
            del text[at:at + rng.randint(1, 30)]
        elif action == 1:
            text.insert(at, rng.choice(['"', "=", "[", "]", "\n", "x", "7", "\x1b", "é", "[[events]]\n"]))
        elif action == 2:
            text[at] = chr(rng.randrange(32, 127))
        else:
            text[at:at] = list(rng.choice(['seq = 3\n', 'type = "pass"\n', 'by = "Zed"\n',
                                           'card = "Pig Army 9"\n', 'house = 4\n']))
    path = tmp_path_factory.mktemp("fuzz") / "g.toml"
    path.write_text("".join(text), encoding="utf-8")
    try:
        logfile.read(path)
        malformed = None
    except LogError as exc:
        assert exc.message.startswith(str(path))
        malformed = exc
    report = check_file(path)  # never raises
    assert_handled(report)
    if malformed is not None:  # what cannot be read is the one finding, as the reader said
        [finding] = report.findings
        assert (finding.kind, finding.code) == ("log", malformed.code)
