"""`referee table` through a pseudo-terminal, as a person plays (issue 25): a whole short game of
each of the five games, typed line by line with Tab completion at three points, a refused move
(the log byte-identical), `undo`, a hand-over screen (wiped afterwards), `quit` and a resumed
session that finishes the game; the log at the end holds the golden game's moves. Another test
writes a move from a second process in the middle of a session.

Every wait is for something the session prints (its prompt, a hand-over line), never a sleep,
with timeouts generous enough for a slow, busy machine.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pexpect  # the test extras: CI runs these tests, never skips them
import pyte
import pytest

from referee import log as logfile
from referee import replay, session
from referee import table as sessions
from referee.clitext import folded
from referee.evolve import evolve
from referee.tableline import CLEAR, WIPE
from tests.conftest import GOLDEN, ROOT

TIMEOUT = 120  # seconds: a busy CI machine, a cold start
COLUMNS = 240  # wide enough that every whole prompt (the longest: 203) leaves room for its move

SHORT_GAMES = {  # the shortest golden game of each, played from its set-up
    "kings-ear": "four-player-win",
    "king-of-the-valley": "four-player-orders",
    "dwarf-king": "three-player",
    "king-of-the-castle": "four-player-hand",
    "kingmaker": "four-player-complete-victory",
}


def environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REFEREE_LOG", "COLUMNS", "LINES")}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_STATE_HOME=str(tmp_path / "state"),
               TERM="xterm", LC_ALL="C.UTF-8", PYTHONPATH=str(ROOT), REFEREE_LOCK_TIMEOUT="30")
    return env


def start(tmp_path: Path, log: Path, rows: int = 24, columns: int = COLUMNS):
    child = pexpect.spawn(sys.executable, ["-m", "referee", "--log", str(log), "table"],
                          cwd=str(tmp_path), env=environment(tmp_path), encoding="utf-8",
                          timeout=TIMEOUT, dimensions=(rows, columns))
    child.delaybeforesend = None  # every send waits for what the session printed instead
    return child


class Game:
    """A golden game: its set-up as a log of its own, and each later move as a line to type,
    with the prompt the session should show before it."""

    def __init__(self, game_id: str, tmp_path: Path):
        golden = logfile.read(GOLDEN / game_id / f"{SHORT_GAMES[game_id]}.toml")
        head = 0  # the opening events nobody types (Kingmaker's declarations)
        while head < len(golden.entries) and golden.entries[head].event.by is None and \
                game_id == "kingmaker":
            head += 1
        self.golden = golden
        self.path = tmp_path / "game.toml"
        start_log = evolve(golden, entries=tuple(evolve(e, at=None)  # no clock runs out
                                                 for e in golden.entries[:head]))
        self.path.write_text(logfile.dumps(start_log), encoding="utf-8")
        setup = replay.from_log(golden)
        self.moves: list[str] = []
        self.prompts: list[str] = []  # before each move, and after the last
        self.tables: list[session.Table] = []
        self.types: list[str] = []
        self.golden_game = setup.game
        for index, step in enumerate(replay.steps(setup, golden.entries, checked=True)):
            if index < head:
                continue
            table = session.Table(golden, setup, step.before)
            by = f" --as {step.event.by}" if step.event.by else ""
            self.moves.append(setup.game.format(step.before, step.event) + by)
            self.prompts.append(sessions.prompt(table))
            self.tables.append(table)
            self.types.append(step.event.type)
        self.prompts.append(sessions.prompt(session.Table(golden, setup, step.after)))
        self.head = head

    def reveals(self, index: int) -> bool:
        return self.golden_game.events[self.types[index]].reveal


def accepted(child, prompt: str) -> str:
    """Wait for `prompt`; what came before it must hold no refusal."""
    child.expect_exact(prompt)
    assert "referee: " not in child.before, child.before
    return str(child.before)


def tab_point(game: Game, index: int) -> tuple[str, str] | None:
    """For move `index`, the text to type before Tab (a unique prefix of one of its words) and
    the rest of that word Tab must add; None when no word of it has a unique prefix."""
    words = game.moves[index].split()
    table = game.tables[index]
    for at in range(len(words)):
        word = words[at]
        if word.startswith("--"):
            break
        before = " ".join(words[:at]) + (" " if at else "")
        for size in range(1, len(word)):
            prefix = word[:size]
            offered = sessions.completions(table, before, prefix)
            if offered == [word]:
                return before + prefix, word[size:] + " "
    return None


def play_line(child, game: Game, index: int, tabbed: bool = False) -> bool:
    """Type move `index` (with Tab where a word completes uniquely, if `tabbed`); wait for the
    next prompt. Whether Tab was used."""
    point = tab_point(game, index) if tabbed else None
    if point is None:
        child.sendline(game.moves[index])
    else:
        typed, added = point
        child.send(typed + "\t")
        child.expect_exact(added)  # readline wrote the rest of the word, and a space
        child.sendline(game.moves[index][len(typed) + len(added):])
    accepted(child, game.prompts[index + 1])
    return point is not None


def played_moves(path: Path) -> list[dict]:
    """The events of a log as recorded (a seal differs from game to game: its salt is new)."""
    return [{k: v for k, v in e.event.record().items() if k != "seal"}
            for e in logfile.read(path).entries]


@pytest.mark.parametrize("game_id", list(SHORT_GAMES))
def test_a_whole_game_typed_at_the_table(tmp_path, game_id):
    game = Game(game_id, tmp_path)
    child = start(tmp_path, game.path)
    accepted(child, game.prompts[0])
    count = len(game.moves)
    halfway = count // 2
    tabs = 0
    refused = undone = handed = False
    for index in range(halfway):
        # Tab completes at three points of the game, from the first move on (a move none of
        # whose words has a unique prefix is typed whole)
        tabs += play_line(child, game, index, tabbed=tabs < 3)
        if index == 3 and not refused:  # a move the rules refuse: the log byte for byte as it was
            before = game.path.read_bytes()
            child.sendline("pass pass pass")
            child.expect_exact("referee: ")
            child.expect_exact(game.prompts[index + 1])
            assert game.path.read_bytes() == before
            refused = True
        if index == 5 and not undone:  # undo the move just made, then make it again
            child.sendline("undo")
            if game.reveals(index):
                child.expect_exact("undo --force")  # the refusal says how
                child.expect_exact(game.prompts[index + 1])
                child.sendline("undo --force")
            child.expect_exact(f"Retracted event {game.head + index + 1}: ")
            accepted(child, game.prompts[index])
            play_line(child, game, index)
            undone = True
        if index == 7 and not handed:
            secret_screen(child, game, game.tables[index + 1])
            handed = True
    assert (tabs, refused, undone, handed) == (3, True, True, True)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    # a new session goes on with the same game
    child = start(tmp_path, game.path)
    child.expect_exact(f"{len(logfile.read(game.path).entries)} event(s) in")
    accepted(child, game.prompts[halfway])
    for index in range(halfway, count):
        play_line(child, game, index)
    child.sendline("score")
    child.expect_exact("game over > ")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert played_moves(game.path) == played_moves(GOLDEN / game_id /
                                                   f"{SHORT_GAMES[game_id]}.toml")


def secret_screen(child, game: Game, table: session.Table) -> None:
    """`options --for NAME`: NAME's own moves on a hand-over screen, wiped (screen and
    scrollback) before the prompt comes back, nowhere on the screen after, never printed again."""
    name = table.players[0].name
    heard = child.logfile_read = io.StringIO()
    child.sendline(f"options --for {name}")
    child.expect_exact(f"{name} only")
    child.sendline("")
    child.expect_exact("Press Enter when done: the screen is wiped.")
    child.sendline("")
    child.expect_exact(sessions.prompt(table))
    child.logfile_read = None
    assert_wiped(heard.getvalue(), f"{name} only", COLUMNS)


def assert_wiped(transcript: str, named: str, columns: int) -> list[str]:
    """The secret shown after `named` and before the wipe: some lines, wiped (screen and
    scrollback) before anything else, printed nowhere after, on the screen no more."""
    start = transcript.index(named) + len(named)
    end = transcript.index("Press Enter when done: the screen is wiped.", start)
    secret = [line.strip() for line in transcript[start:end].replace(CLEAR, "\n").splitlines()
              if len(line.strip()) > 3]
    assert secret, transcript[start:end]
    rest = transcript[end:]
    assert WIPE in rest, rest
    after = rest[rest.index(WIPE):]
    assert not any(line in after for line in secret), after
    screen = pyte.Screen(columns, 24)
    pyte.Stream(screen).feed(transcript)
    visible = "\n".join(screen.display)
    assert not any(line in visible for line in secret), visible
    return secret


def second_terminal(tmp_path: Path, log: Path, *args: str) -> None:
    """`referee --log LOG ARGS...` run from another terminal, accepted."""
    other = subprocess.run([sys.executable, "-m", "referee", "--log", str(log), *args],
                           env=environment(tmp_path), capture_output=True, text=True,
                           timeout=TIMEOUT)
    assert other.returncode == 0, other.stderr


def test_a_move_from_a_second_terminal_is_noticed_and_never_overwritten(tmp_path):
    game = Game("kings-ear", tmp_path)
    child = start(tmp_path, game.path)
    accepted(child, game.prompts[0])
    for index in range(2):
        play_line(child, game, index)
    # a second terminal records the next move with `referee play`
    second_terminal(tmp_path, game.path, "play", *game.moves[2].split())
    written = game.path.read_bytes()
    # the session, still showing the old prompt, is told, and records nothing
    child.sendline(game.moves[2])
    child.expect_exact("was changed by another command")
    child.expect_exact(game.prompts[3])  # the game as the other terminal left it
    assert game.path.read_bytes() == written
    play_line(child, game, 3)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert played_moves(game.path) == played_moves(GOLDEN / "kings-ear" /
                                                   f"{SHORT_GAMES['kings-ear']}.toml")[:4]


def castle_game(tmp_path: Path) -> Path:
    """A new King of the Castle log whose squires are typed unseen (`squires = secret`)."""
    path = tmp_path / "game.toml"
    made = subprocess.run([sys.executable, "-m", "referee", "--log", str(path), "new",
                           "king-of-the-castle", "-p", "Ann", "-p", "Ben", "-p", "Cat",
                           "--option", "squires=secret"], env=environment(tmp_path),
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert made.returncode == 0, made.stderr
    return path


def test_a_sealed_secret_is_handed_over_wiped_and_never_kept(tmp_path):
    """King of the Castle: Ann types her squires unseen; her receipt is shown on a hand-over
    screen and wiped; neither the letters nor the `squires` line reach the history, which a
    resumed session recalls with the Up arrow."""
    path = castle_game(tmp_path)
    child = start(tmp_path, path, columns=120)
    child.expect_exact("Ann · seals the squires they back")
    child.expect_exact(" > ")
    child.sendline("history")  # a line worth recalling
    child.expect_exact("Ann · seals")
    child.expect_exact(" > ")
    heard = child.logfile_read = io.StringIO()
    child.sendline("squires")
    child.expect_exact("Secret (not shown): ")
    child.sendline("QBZ")
    child.expect_exact("Ann only")
    child.sendline("")
    child.expect(r"Your receipt: (\S+)  ")  # the two spaces after it: the whole receipt
    receipt = child.match.group(1)
    child.expect_exact("Press Enter when done: the screen is wiped.")
    child.sendline("")
    child.expect_exact("Ben · seals the squires they back")
    child.expect_exact(" > ")
    child.logfile_read = None
    secret = assert_wiped(heard.getvalue(), "Ann only", 120)
    assert any(receipt in line for line in secret)
    assert "QBZ" not in heard.getvalue()  # typed unseen, never echoed
    child.sendline("quit")
    child.expect(pexpect.EOF)
    history = list((tmp_path / "state" / "referee" / "history").iterdir())
    assert len(history) == 1 and oct(history[0].stat().st_mode & 0o777) == "0o600"
    kept = history[0].read_text(encoding="utf-8")
    assert "history" in kept and "quit" in kept
    assert "squires" not in kept and "QBZ" not in kept and receipt not in kept
    # a new session on the same log: Up recalls `quit`, then `history`
    child = start(tmp_path, path, columns=120)
    child.expect_exact("Ben · seals")
    child.expect_exact(" > ")
    child.send("\x1b[A\x1b[A\r")
    child.expect_exact("   1  Ann        squires")
    child.expect_exact(" > ")
    child.sendeof()
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("key", ["Ctrl-C", "Ctrl-D"])
def test_ctrl_c_at_the_secret_prompt_drops_the_move_and_the_session_goes_on(tmp_path, key):
    """Ctrl-C (or Ctrl-D) while a seal's letters are asked for (unseen) drops that move, as
    Ctrl-C drops a line at the prompt: nothing is recorded, and the same player is asked again
    (Ctrl-D used to say that standard input could not be read: "type it at a terminal")."""
    path = castle_game(tmp_path)
    before = path.read_bytes()
    child = start(tmp_path, path, columns=120)
    child.expect_exact("Ann · seals the squires they back")
    child.expect_exact(" > ")
    child.sendline("squires")
    child.expect_exact("Secret (not shown): ")
    child.sendintr() if key == "Ctrl-C" else child.sendeof()
    child.expect_exact(f"\r\nreferee: no secret was typed ({key}): nothing was recorded\r\n")
    child.expect_exact("Ann · seals the squires they back")
    child.expect_exact(" > ")
    assert path.read_bytes() == before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


SEALS = "{} · seals the squires they back (`squires`, then type your three letters unseen) > "


def castle_session(tmp_path: Path) -> tuple[Path, pexpect.spawn, io.StringIO]:
    """A session on a new King of the Castle game, at Ann's prompt, and all it says from now."""
    path = castle_game(tmp_path)
    child = start(tmp_path, path, columns=120)
    child.expect_exact(SEALS.format("Ann"))
    heard = child.logfile_read = io.StringIO()
    return path, child, heard


@pytest.mark.parametrize("key", ["Ctrl-C", "Ctrl-D"])
def test_a_hand_over_cancelled_in_the_session_shows_nothing_and_goes_back_to_the_prompt(
        tmp_path, key):
    """`status --for Ann`, then Ctrl-D (or Ctrl-C) instead of Enter: Ann's board is not shown
    (Ctrl-D used to show it to everyone; Ctrl-C ended the session, 130, without a word), the
    session says so and what shows it again, and goes on at its prompt."""
    _, child, heard = castle_session(tmp_path)
    child.sendline("status --for Ann")
    child.expect_exact("Ann only")
    child.sendeof() if key == "Ctrl-D" else child.sendintr()
    child.expect_exact(f"Hand-over cancelled ({key}): nothing was shown to Ann; "
                       "`status --for Ann` shows it again.\r\n")
    child.expect_exact(SEALS.format("Ann"))
    child.sendline("status --for Ann")  # the same line shows it, the session still reads Enter
    child.expect_exact("Ann only")
    child.sendline("")
    child.expect_exact("as Ann sees it")
    child.expect_exact("Press Enter when done: the screen is wiped.")
    child.sendline("")
    child.expect_exact(SEALS.format("Ann"))
    child.logfile_read = None
    said = heard.getvalue()
    assert "as Ann sees it" not in said[:said.index("Hand-over cancelled")]
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("key", ["Ctrl-C", "Ctrl-D"])
def test_a_receipts_hand_over_cancelled_in_the_session_says_the_seal_is_recorded(tmp_path, key):
    """A seal's receipt is handed over after the seal is written: cancelled there, the receipt
    is never shown, the session says that the seal is in the log and that `undo` (the line to
    type here) takes it back, and follows the log (the next line is no "changed" refusal)."""
    path, child, heard = castle_session(tmp_path)
    child.sendline("squires")
    child.expect_exact("Secret (not shown): ")
    child.sendline("QBZ")
    child.expect_exact("Ann only")
    child.sendeof() if key == "Ctrl-D" else child.sendintr()
    said = (f"Hand-over cancelled ({key}): the move is in the log, but its receipt was not "
            "shown and cannot be shown again; `undo` takes the move back, then play it again.")
    child.expect_exact(folded(said, 120).replace("\n", "\r\n") + "\r\n")  # at words, as said
    child.expect_exact(SEALS.format("Ben"))
    child.sendline("undo")
    child.expect_exact("Retracted event 1: ")
    child.expect_exact(SEALS.format("Ann"))
    child.logfile_read = None
    assert "Your receipt" not in heard.getvalue() and "QBZ" not in heard.getvalue()
    assert "changed by another command" not in heard.getvalue()
    assert path.read_bytes().count(b"[[events]]") == 0
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_a_terminal_closed_under_nohup_ends_the_session_and_is_no_internal_error(tmp_path):
    """Closed while its hang-up is ignored (nohup), the terminal reads as an end of input after
    which nothing can be written: the session ends with 130 and a plain line (where stderr still
    goes somewhere), never an internal error (70); the move typed before is in the log."""
    import shlex
    import time

    log = tmp_path / "game.toml"
    subprocess.run([sys.executable, "-m", "referee", "--log", str(log), "new", "kings-ear",
                    "-p", "Ann", "-p", "Ben", "-p", "Cat"], cwd=tmp_path,
                   env=environment(tmp_path), check=True, capture_output=True)
    errors = tmp_path / "stderr"
    command = (f"exec {shlex.quote(sys.executable)} -m referee --log {shlex.quote(str(log))} "
               f"table 2> {shlex.quote(str(errors))}")
    child = pexpect.spawn("/bin/sh", ["-c", command], cwd=str(tmp_path),
                          env=environment(tmp_path), encoding="utf-8", timeout=TIMEOUT,
                          dimensions=(24, 80), ignore_sighup=True)
    child.expect_exact("Ann · draw or trade > ")
    child.sendline("draw PA3")
    child.expect_exact("Ann · place or trade")
    os.close(child.child_fd)  # the terminal goes away; the session ignores its hang-up
    for _ in range(TIMEOUT * 10):
        done, status = os.waitpid(child.pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    assert done, "the session did not end"
    assert os.waitstatus_to_exitcode(status) == 130
    assert errors.read_text() == ("referee: the terminal is gone: the session ends (every move "
                                  "typed is in the log)\n")
    assert [e["type"] for e in played_moves(log)] == ["draw"]


def test_a_correction_typed_after_a_second_terminal_renumbered_the_log_is_refused(tmp_path):
    """L1: `correct N` typed in the session after another terminal took an event out ran on
    the new event N; now refused as a move line is, nothing written."""
    game = Game("kings-ear", tmp_path)
    child = start(tmp_path, game.path)
    accepted(child, game.prompts[0])
    for index in range(3):
        play_line(child, game, index)
    second_terminal(tmp_path, game.path, "correct", "3", "--delete", "--why", "x", "--by",
                    "Dan", "--force")
    written = game.path.read_bytes()
    child.sendline("correct 2 --delete --why oops --by Dan")
    child.expect_exact("was changed by another command")
    child.expect_exact("type the line again")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert game.path.read_bytes() == written
