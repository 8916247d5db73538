"""What the table reads fits an 80-column terminal: a prompt that would leave too little room
for the move is said as a turn line of its own (folded at words) above a short prompt, and a
refusal, its hint and its closest moves are folded at words on a terminal, never off one."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pyte
import pytest

from referee import log as logfile
from referee import session
from referee import table as sessions
from referee.cliexit import report
from referee.clitext import folded
from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.tableline import MOVE_ROOM, Plain, Terminal
from tests.conftest import GOLDEN, ROOT

TIMEOUT = 120

LONG_PROMPTS = [  # (game, golden game, events before the prompt, a move to type there)
    ("king-of-the-valley", "two-player", 10, "refill left"),  # 73 columns
    ("dwarf-king", "three-player", 1, "quest 4a --as Pierre"),  # 129
    ("dwarf-king", "five-player-tie", 2, "swap Ada --as Boris"),  # the Flag Bearer's, 150
    ("king-of-the-castle", "four-player-hand", 0, "reveal A B C"),  # 203
]


def environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("REFEREE_LOG", "COLUMNS", "LINES", "NO_COLOR")}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_STATE_HOME=str(tmp_path / "state"),
               TERM="xterm", LC_ALL="C.UTF-8", PYTHONPATH=str(ROOT), NO_COLOR="1")
    return env


def golden_start(tmp_path: Path, gid: str, name: str, events: int) -> tuple[Path, session.Table]:
    """The golden game's first `events` events as a log of its own, and the table there."""
    golden = logfile.read(GOLDEN / gid / f"{name}.toml")
    path = tmp_path / "game.toml"
    path.write_text(logfile.dumps(evolve(golden, entries=tuple(
        evolve(e, at=None) for e in golden.entries[:events]))), encoding="utf-8")
    known = session.load_known(path)
    return path, known.table


def screen_of(transcript: str) -> list[str]:
    terminal = pyte.Screen(80, 24)
    pyte.Stream(terminal).feed(transcript)
    return [row.rstrip() for row in terminal.display if row.strip()]


def broken_words(rows: list[str]) -> list[tuple[str, str]]:
    """Pairs of rows where the terminal cut a word: a row filled to its last column with a
    letter, the next going on with one at its first."""
    return [(row, after) for row, after in zip(rows, rows[1:])
            if len(row) == 80 and not row[-1].isspace() and after[:1].strip()]


@pytest.mark.parametrize("gid, name, events, move", LONG_PROMPTS)
def test_a_long_prompt_is_said_as_a_turn_line_above_a_short_prompt_at_80_columns(
        tmp_path, gid, name, events, move):
    path, table = golden_start(tmp_path, gid, name, events)
    whole = sessions.prompt(table)
    assert len(whole) > 80 - MOVE_ROOM  # the case: today's prompt leaves too little room
    short = sessions.short_prompt(table)
    child = pexpect.spawn(sys.executable, ["-m", "referee", "--log", str(path), "table"],
                          cwd=str(tmp_path), env=environment(tmp_path), encoding="utf-8",
                          timeout=TIMEOUT, dimensions=(24, 80))
    heard = child.logfile_read = io.StringIO()
    child.expect_exact("\r\n" + short)
    child.send(move)  # typed, not sent: the move must fit after the prompt
    child.expect_exact(move)
    rows = screen_of(heard.getvalue())
    child.sendcontrol("u")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    turn = folded(whole.removesuffix(" > "), 80).split("\n")
    assert rows[-1 - len(turn):] == [*turn, short + move]
    assert len(short + move) <= 80 and all(len(row) <= 80 for row in turn)
    assert broken_words(rows) == []


def test_a_prompt_that_fits_is_kept_whole_and_a_pipe_reads_as_today(tmp_path):
    """At 240 columns the 73-column prompt is kept as it is; piped, the transcript still shows
    every prompt whole, the line after it, and the refusal on one line."""
    path, table = golden_start(tmp_path, "king-of-the-valley", "two-player", 10)
    whole = sessions.prompt(table)
    child = pexpect.spawn(sys.executable, ["-m", "referee", "--log", str(path), "table"],
                          cwd=str(tmp_path), env=environment(tmp_path), encoding="utf-8",
                          timeout=TIMEOUT, dimensions=(24, 240))
    child.expect_exact("\r\n" + whole)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    env = {**environment(tmp_path), "COLUMNS": "80"}
    piped = subprocess.run([sys.executable, "-m", "referee", "--log", str(path), "table"],
                           input="left zzz\nquit\n", capture_output=True, text=True, env=env,
                           cwd=tmp_path)
    assert piped.stdout.splitlines()[2:] == [
        whole + "left zzz",
        "referee: 'left' in 'left zzz' is not a move; expected one of reveal, king, recruit, "
        "move, pass, jester, wizard, tax, kingdom, refill, end",
        whole + "quit"]


def test_a_refusal_is_folded_at_words_on_an_80_column_terminal(tmp_path):
    env = environment(tmp_path)
    subprocess.run([sys.executable, "-m", "referee", "new", "king-of-the-valley", "-p", "Ann",
                    "-p", "Ben"], cwd=tmp_path, env=env, capture_output=True, check=True)
    child = pexpect.spawn(sys.executable, ["-m", "referee", "play", "reveal", "zz"],
                          cwd=str(tmp_path), env=env, encoding="utf-8", timeout=TIMEOUT,
                          dimensions=(24, 80))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    rows = screen_of(child.before)
    assert rows == [
        "referee: 'zz' in 'reveal zz' is not a tile; the tiles are queen, duke, countess,",
        "    knight-A, knight-B, knight-C, knight-D, farmer, wife, jester, priest,",
        "    wizard, and the tax collectors as printed: tax-G (G gold: tax-3, tax-4) or",
        "    tax-N-G (N identical subjects, G gold: tax-3-6) (R-3)"]
    assert broken_words(rows) == []


def test_a_piped_refusal_is_byte_identical_one_line_each(tmp_path):
    env = {**environment(tmp_path), "COLUMNS": "40"}
    subprocess.run([sys.executable, "-m", "referee", "new", "kings-ear", "-p", "Ann:Horse",
                    "-p", "Ben:Pig", "-p", "Cat:Stag"], cwd=tmp_path, env=env,
                   capture_output=True, check=True)
    subprocess.run([sys.executable, "-m", "referee", "play", "draw", "Boar", "Farming", "2"],
                   cwd=tmp_path, env=env, capture_output=True, check=True)
    refused = subprocess.run([sys.executable, "-m", "referee", "play", "place", "Farming"],
                             cwd=tmp_path, env=env, capture_output=True)
    assert refused.returncode == 1
    assert refused.stderr == (
        b"referee: 'Farming' in 'place Farming' is not a House; expected one of Horse, Pig, "
        b"Stag, Boar\n  closest legal moves: place Pig | place Stag\n")


class Screen(io.StringIO):
    def isatty(self) -> bool:
        return True


def refusal() -> IllegalMove:
    return IllegalMove("the valley square a1 is taken by the queen, so the king may not be "
                       "placed there this turn", hint="type `options` to see every square the "
                       "king may go to now, then place him on one of them",
                       suggestions=("king b1", "king b2", "king c3", "king d4", "king e5",
                                    "king a2", "king a3", "king a4"))


def test_report_folds_each_line_under_its_label_on_a_terminal_only(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(sys, "stderr", Screen())
    report(refusal())
    assert sys.stderr.getvalue().splitlines() == [
        "referee: the valley square a1 is taken by the queen, so the",
        "    king may not be placed there this turn",
        "  hint: type `options` to see every square the king may go",
        "      to now, then place him on one of them",
        "  closest legal moves: king b1 | king b2 | king c3 | king d4",
        "      | king e5 | king a2 | king a3 | king a4"]
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # a pipe, a file: one line each
    report(refusal())
    assert [len(line) > 60 for line in sys.stderr.getvalue().splitlines()] == [True] * 3
    monkeypatch.setattr(sys, "stderr", Screen())  # --json: never folded
    report(refusal(), as_json=True)
    assert sys.stderr.getvalue().count("\n") == 1


def test_the_terminal_says_a_long_turn_line_above_the_short_prompt(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys, "stdout", Screen())
    console = Terminal.__new__(Terminal)  # its readline is not needed for what it says
    fits = "Ann · draw or trade > "
    assert console._fitted(fits, "Ann > ") == fits
    long = "Ann · replenish: refill the valley from the left or right hill column > "
    assert console._fitted(long, "Ann > ") == "Ann > "
    assert sys.stdout.getvalue() == long.removesuffix(" > ") + "\n"
    console.say("word " * 20)
    assert sys.stdout.getvalue().splitlines()[1:] == ["word " * 15 + "word", "    " + "word " * 3
                                                      + "word"]
    monkeypatch.setattr(sys, "stdout", io.StringIO())  # not a terminal: said as it is
    console.say("word " * 20)
    assert sys.stdout.getvalue() == "word " * 20 + "\n"
    assert isinstance(console, Plain)


def test_a_turn_line_is_kept_in_the_prompt_when_standard_output_is_not_the_terminal(
        monkeypatch):
    """`referee table > file` at a terminal: the prompts go to the file whole, as before."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    console = Terminal.__new__(Terminal)
    long = "Ann · replenish: refill the valley from the left or right hill column > "
    assert console._fitted(long, "Ann > ") == long
    assert sys.stdout.getvalue() == ""


def test_wide_characters_are_folded_by_the_columns_they_take():
    """A name in wide characters (two columns each) still folds within the width."""
    from referee.screen import cells

    text = "referee: " + "山田 " * 30 + "cannot play"
    rows = folded(text, 40).split("\n")
    assert [cells(row) <= 40 for row in rows] == [True] * len(rows)
    assert " ".join(row.strip() for row in rows) == " ".join(text.split())
    assert folded("é · " * 30, 40) == folded("e . " * 30, 40).replace("e", "é").replace(".", "·")
