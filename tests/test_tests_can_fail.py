"""The fuzz and mutation tests can fail: with a crash planted in the replay, each of them fails.

`check_file` never raises: it turns a crash into an "internal" finding, so a test that only asked
for "ok or some finding" passed whatever the replay did (issue 24, item 16). Here a
ZeroDivisionError is planted in `check._check` and every such test is run again: each must fail.
"""

from __future__ import annotations

import pytest

from referee import check
from tests import test_fuzz, test_king_of_the_castle_playouts, test_kingmaker_cli
from tests import test_kingmaker_parliament_cli
from tests.conftest import GOLDEN, assert_handled
from tests.fuzz_cli import fuzz

MUTATION_TESTS = [
    test_fuzz.test_mutated_logs_end_in_clean_errors,
    test_king_of_the_castle_playouts.test_mutated_logs_end_in_clean_errors,
    test_kingmaker_cli.test_hand_edited_events_end_in_clean_errors,
    test_kingmaker_parliament_cli.test_hand_edited_parliament_events_end_in_clean_findings,
]


@pytest.fixture
def planted_crash(monkeypatch):
    def crash(path):
        return 1 / 0

    monkeypatch.setattr(check, "_check", crash)


def test_a_planted_crash_is_an_internal_finding_that_assert_handled_refuses(planted_crash):
    report = check.check_file(GOLDEN / "kings-ear" / "three-player-win.toml")
    assert [f.kind for f in report.findings] == ["internal"] and report.exit_status == 70
    with pytest.raises(AssertionError, match="ZeroDivisionError"):
        assert_handled(report)


@pytest.mark.parametrize("test", MUTATION_TESTS, ids=lambda t: f"{t.__module__}.{t.__name__}")
def test_each_mutation_test_fails_on_a_planted_crash(planted_crash, tmp_path_factory, test):
    with pytest.raises((AssertionError, BaseExceptionGroup)):
        test(tmp_path_factory=tmp_path_factory)


def test_the_fuzz_campaign_counts_a_planted_crash_as_a_bug(planted_crash):
    found = fuzz(plays=0, logs=2, seed=1, jobs=1)["logs"]
    assert found.runs == 6 and len(found.bugs) >= 2  # `check` of each mutated log exits 70
    assert all("check" == bug["command"] for bug in found.bugs)

