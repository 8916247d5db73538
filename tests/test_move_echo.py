"""The echo of an accepted move at a terminal (box finding B11b): folded at the terminal's width
at words, as refusals are, never cut mid-name where the terminal would wrap; piped, and with
--json, byte for byte what it was."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pexpect

from referee import log as logfile
from referee.evolve import evolve
from tests.conftest import ROOT

PYTHON = sys.executable
# The 40th move of a golden game: its echo is 87 characters long
TRADE = "trade Boar give Horse Religion 4, Horse Farming 1 take Horse Trade 4, Stag Trade 1"
ECHO = f"Cat: {TRADE}"


def _before_the_trade(folder: Path) -> Path:
    log = logfile.read(ROOT / "tests" / "golden" / "kings-ear" / "three-player-win.toml")
    folder.mkdir(exist_ok=True)
    path = folder / "game.toml"
    path.write_text(logfile.dumps(evolve(log, entries=log.entries[:39])), encoding="utf-8")
    return path


def _at_a_terminal(folder: Path, *args: str, columns: int = 80) -> str:
    env = {"PYTHONPATH": str(ROOT), "TERM": "xterm", "NO_COLOR": "1", "REFEREE_CACHE": "0",
           "PATH": "/usr/bin:/bin", "HOME": str(folder)}
    child = pexpect.spawn(PYTHON, ["-m", "referee", *args], cwd=str(folder), env=env,
                          dimensions=(24, columns), encoding="utf-8", timeout=60)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return child.before.replace("\r\n", "\n")


def _piped(folder: Path, *args: str) -> str:
    env = {"PYTHONPATH": str(ROOT), "REFEREE_CACHE": "0", "PATH": "/usr/bin:/bin",
           "HOME": str(folder)}
    done = subprocess.run([PYTHON, "-m", "referee", *args], cwd=folder, env=env,
                          capture_output=True, text=True, check=True)
    return done.stdout


def test_an_accepted_moves_echo_is_folded_at_words_on_a_terminal(tmp_path):
    for columns in (80, 60):
        folder = tmp_path / str(columns)
        _before_the_trade(folder)
        shown = _at_a_terminal(folder, "play", TRADE, columns=columns)
        lines = shown.splitlines()
        assert all(len(line) <= columns for line in lines), shown
        assert " ".join(" ".join(lines[:3]).split()).startswith(ECHO)  # the same words
        assert lines[1].startswith("    ")  # the rest under its indent: never mid-word
        assert all(word in ECHO.split() for line in lines[:2] for word in line.split())
        assert "Next: Ann - draw or trade" in lines


def test_piped_and_json_echoes_are_unchanged(tmp_path):
    _before_the_trade(tmp_path / "a")
    piped = _piped(tmp_path / "a", "play", TRADE)
    assert piped.splitlines()[0] == ECHO and piped.endswith("Next: Ann - draw or trade\n")
    _before_the_trade(tmp_path / "b")
    data = _at_a_terminal(tmp_path / "b", "play", TRADE, "--json")
    _before_the_trade(tmp_path / "c")
    assert data == _piped(tmp_path / "c", "play", TRADE, "--json")
    assert ECHO.split(": ", 1)[1] in data
