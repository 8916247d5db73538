"""A sample of the fuzz and mutation campaigns of tests/fuzz_cli.py, through the real entry point:
no exit status 70, no hang, and no rejected move that changed its log.

The full run is `python -m tests.fuzz_cli`; its figures are in the README. This sample of a few
thousand runs takes about two minutes.
"""

from __future__ import annotations

import pytest

from tests.fuzz_cli import fuzz

PLAYS, LOGS, TYPED, COMPONENTS = 2500, 700, 150, 150


@pytest.fixture(scope="module")
def results():
    return fuzz(PLAYS, LOGS, seed=20261122, jobs=1, typed=TYPED, components=COMPONENTS)


def test_fuzzed_plays_end_in_clean_errors(results):
    found = results["plays"]
    assert found.runs == PLAYS
    assert found.bugs == [] and found.hangs == [] and found.touched == []
    # The campaign reaches every kind of answer: accepted, rejected, usage errors.
    assert {0, 1, 2} <= set(found.statuses)


def test_mutated_logs_end_in_clean_errors(results):
    found = results["logs"]
    assert found.runs == 3 * LOGS  # check, status and score on each
    assert found.bugs == [] and found.hangs == []
    assert {0, 1, 65} <= set(found.statuses)


def test_every_event_type_typed_in_every_situation_ends_in_clean_errors(results):
    """Issue 24 (15): a well-formed move of one phase typed in another (Kingmaker's `heir`,
    `control`, `retreat` when no decision was owed) exited 70. Every event type of every game
    is typed in every situation the playouts reach, in-process and through `play`."""
    from referee.engine import available_game_ids, load_game

    found = results["typed"]
    assert found.runs == TYPED and found.swept > 1000
    assert found.bugs == [] and found.hangs == [] and found.touched == []
    for game_id in available_game_ids():  # every type of every game, in several phases
        types = {etype.name for etype in load_game(game_id).events}
        typed = {etype for game, _, etype in found.covered if game == game_id}
        phases = {phase for game, phase, _ in found.covered if game == game_id}
        assert typed == types and len(phases) >= 2, game_id
    assert {0, 1} <= set(found.statuses)


def test_mutated_components_files_end_in_clean_errors(results):
    found = results["components"]
    assert found.runs >= COMPONENTS and found.bugs == [] and found.hangs == []
    assert {0, 2} <= set(found.statuses)  # some start a game, some are refused
