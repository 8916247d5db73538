"""Kingmaker's derived values and its settling, checked against themselves: 120 seeded random
games, each replayed with the self-check on (REFEREE_SELFCHECK), which works every kept derived
value out afresh after each event, runs every settle step that was skipped (it must do nothing)
and holds each event's changed fields to its `changes` declaration. Runs in the plain pytest
run (CI)."""

from __future__ import annotations

import random
from unittest import mock

import pytest

from referee import engine
from referee.derived import SelfCheckError
from referee.engine import Player, apply_event, load_game
from referee.games.kingmaker.rules import STEPS, settle
from referee.simulate import play_out

GAME = load_game("kingmaker")
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
COUNTS = range(GAME.min_players, GAME.max_players + 1)  # 2..7: what randomplay seats
GAMES = 120


def _games() -> list[tuple[int, int]]:
    """(players, seed) for 120 games, the player counts taken in turn."""
    rng = random.Random(27)
    counts = list(COUNTS)
    return [(counts[i % len(counts)], rng.randrange(2**31)) for i in range(GAMES)]


def _replayed(playout, players):
    state = playout.setup.state
    with mock.patch.object(engine, "SELFCHECK", True):
        for event in playout.events:
            state = apply_event(GAME, state, event, players)
    return state


@pytest.mark.parametrize("count", list(COUNTS))
def test_random_games_replay_identically_with_the_self_check_on(count):
    chosen = [seed for players, seed in _games() if players == count]
    assert len(chosen) >= GAMES // len(COUNTS)
    players = GAME.seat_players([Player(n) for n in NAMES[:count]], GAME.default_options())
    for seed in chosen:
        playout = play_out(GAME, seed, list(players))
        assert playout.events, seed
        state = _replayed(playout, playout.players)
        assert state == playout.state, seed
        assert GAME.score(state) == GAME.score(playout.state), seed


def test_the_self_check_names_a_step_skipped_that_had_work_to_do():
    """A step declared with too few reads is skipped when it would act: the self-check says
    which step, after which event."""
    playout = play_out(GAME, 5, list(GAME.seat_players([Player(n) for n in NAMES[:3]],
                                                       GAME.default_options())))
    blind = tuple(step._replace(reads=frozenset()) for step in STEPS)  # reads nothing
    with mock.patch("referee.games.kingmaker.rules.settling.STEPS", blind), \
            pytest.raises(SelfCheckError, match=r"settle step _\w+ was skipped after \w+"):
        _replayed(playout, playout.players)


def test_the_self_check_names_a_change_an_event_does_not_declare():
    playout = play_out(GAME, 5, list(GAME.seat_players([Player(n) for n in NAMES[:3]],
                                                       GAME.default_options())))
    etype = GAME.events[playout.events[-1].type]
    with mock.patch.object(type(etype), "changes", frozenset()), \
            pytest.raises(SelfCheckError, match=rf"{etype.name} changed \w+"):
        _replayed(playout, playout.players)


def test_settle_without_a_declaration_runs_every_step():
    """An event that declares nothing narrower changes everything: no step is skipped."""
    playout = play_out(GAME, 5, list(GAME.seat_players([Player(n) for n in NAMES[:3]],
                                                       GAME.default_options())))
    state = playout.state
    assert settle(state, state) == settle(state, state, frozenset(STEPS[0].reads))
