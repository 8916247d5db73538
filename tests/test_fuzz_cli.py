"""A sample of the fuzz and mutation campaigns of tests/fuzz_cli.py, through the real entry point:
no exit status 70, no hang, and no rejected move that changed its log.

The full run (100,000 plays, 10,000 logs) is `python -m tests.fuzz_cli`; its figures are in the
README. This sample of a few thousand runs takes about a minute and a half.
"""

from __future__ import annotations

import pytest

from tests.fuzz_cli import fuzz

PLAYS, LOGS = 2500, 700


@pytest.fixture(scope="module")
def results():
    return fuzz(PLAYS, LOGS, seed=20261122, jobs=1)


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
