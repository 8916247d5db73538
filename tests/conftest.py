"""Shared fixtures: run the real CLI entry point in-process, and locate the repo's files."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.console import main

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
EXAMPLES = ROOT / "referee" / "examples"


@dataclass
class Result:
    status: int
    out: str
    err: str


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory, monkeypatch):
    """The replay cache of every test in a folder of its own, never the user's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.delenv("REFEREE_CACHE", raising=False)


@pytest.fixture
def cli(capsys, tmp_path, monkeypatch):
    """Run `referee ARGS...` through the entry point, `referee.console.main` (a plain `play`
    without Typer, anything else by `referee.cli.main`), in a temporary folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_LOG", raising=False)
    monkeypatch.setenv("REFEREE_LOCK_TIMEOUT", "0.3")

    def run(*args: str) -> Result:
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_info:
            main([str(a) for a in args])
        captured = capsys.readouterr()
        code = exit_info.value.code
        return Result(code if isinstance(code, int) else 0, captured.out, captured.err)

    run.path = tmp_path  # type: ignore[attr-defined]
    return run


@pytest.fixture
def ke_game(cli):
    """A fresh three-player King's Ear log in ./game.toml."""
    result = cli("new", "kings-ear", "--player", "Ann:Horse", "--player", "Ben:Pig",
                 "--player", "Cat:Stag")
    assert result.status == 0, result.err
    return cli


def env_without_log() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("REFEREE_LOG", None)
    return env


def assert_handled(report, edited_seq: int | None = None) -> None:
    """A `check` report of a log referee handled as designed: no finding is an internal error
    (a crash that `check_file` turned into a finding), `ok` means no finding, and the status is
    0, 1 or 65. `edited_seq`: the first event that was changed; an edit cannot make an earlier
    event fail, so every finding about an event is about that one or a later one."""
    internal = [f.message for f in report.findings if f.kind == "internal"]
    assert not internal, internal
    assert report.ok == (not report.findings), report
    assert report.exit_status in (0, 1, 65), report
    for finding in report.findings:
        assert finding.code and finding.message and finding.kind in ("rule", "log"), finding
        if edited_seq is not None and finding.event is not None:
            assert finding.event >= edited_seq, finding


# Every `referee` process a test starts (`python -m referee`) runs the source tree, as pytest
# itself does, whatever copy `pip install .` put in the environment: the tests test one code.
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
