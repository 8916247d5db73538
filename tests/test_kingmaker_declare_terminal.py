"""`referee declare` typed at a terminal (F11): a table reads some ninety printed values off the
cards, and one slip (`kind=castel`) discarded every line typed before it. Now each line is
checked as it is entered: the bad one alone is refused and named, Up recalls it to be mended,
and every good line is recorded at Ctrl-D. Proven through a pseudo-terminal."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from referee import log as logfile
from tests.test_kingmaker_fill import interruptible, reading
from tests.test_table_terminal import TIMEOUT, environment

GOOD = ["declare noble Percy troops=40 lords=3 home=Alnwick",
        "declare place Alnwick kind=castle",
        "noble Audley lords=1 home=Heleigh"]  # the word `declare` may be left out
SLIP = "declare place Heleigh kind=castel"
LAST = "declare noble Stanley troops=20 lords=2 home=Lathom"
PROMPT = "declare> "
UP = "\x1b[A"  # the Up arrow, as an xterm sends it
BACKSPACE = "\x7f"


def new_log(tmp_path: Path) -> Path:
    subprocess.run([sys.executable, "-m", "referee", "new", "kingmaker", "-p", "Ann", "-p", "Ben"],
                   cwd=tmp_path, env=environment(tmp_path), check=True, capture_output=True,
                   timeout=TIMEOUT)
    return tmp_path / "game.toml"


def declare(tmp_path: Path) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "referee", "declare"], cwd=str(tmp_path),
                          env=environment(tmp_path), encoding="utf-8", timeout=TIMEOUT,
                          dimensions=(24, 80), preexec_fn=interruptible)
    child.delaybeforesend = None  # every send waits for the prompt instead
    child.expect_exact("Ctrl-D on a line of its own")
    return child


def typed(child: pexpect.spawn, lines: list[str]) -> None:
    """Each line typed at its prompt; the next prompt is awaited by the caller."""
    for line in lines:
        child.expect_exact(PROMPT)
        child.sendline(line)


def ended(child: pexpect.spawn) -> str:
    """Everything the command printed until it ended."""
    child.expect(pexpect.EOF)
    child.close()
    return str(child.before)


def unfolded(text: str) -> str:
    """What a terminal showed, its colours taken out and each folded line joined again (a
    refusal at a terminal is folded at words, its continuation lines indented)."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    return re.sub(r"\r?\n {4,}", " ", plain)


def declared(log: Path) -> dict[str, dict[str, object]]:
    """The declarations after the shipped box's: each entry's name and its values."""
    fields = [dict(e.event.fields) for e in logfile.read(log).entries
              if e.event.type == "declare"]
    return {str(values["name"]): values for values in fields}


def test_one_slip_at_the_terminal_loses_no_good_line(tmp_path):
    log = new_log(tmp_path)
    before = declared(log)
    child = declare(tmp_path)
    typed(child, GOOD + [SLIP])
    child.expect_exact("Not kept: type line 4 again; the 3 lines before it are kept.")
    refusal = unfolded(str(child.before))  # folded to the terminal's 80 columns, in red
    assert "referee: line 4 (declare place Heleigh kind=castel): place Heleigh: kind must be " \
           "one of city, town, royal-castle, castle, open-town, unfortified, not 'castel'" \
           in refusal
    assert "rule: R-2" in refusal and "internal error" not in refusal
    assert log.read_text(encoding="utf-8").count("Heleigh") == 0  # nothing written yet
    # Up recalls the refused line: two characters mended, not the whole line typed again
    child.expect_exact(PROMPT)
    child.send(UP)
    child.expect_exact("kind=castel")
    child.send(BACKSPACE * 2 + "le\r")
    child.expect_exact(PROMPT)
    child.sendline(LAST)
    child.expect_exact(PROMPT)
    child.sendeof()
    shown = ended(child)
    assert child.exitstatus == 0, shown
    assert "declare place Heleigh kind=castle" in shown and LAST in shown
    after = declared(log)
    assert after["Percy"]["troops"] == 40 and after["Percy"]["home"] == ("Alnwick",)
    assert after["Alnwick"]["kind"] == "castle"
    assert after["Audley"]["home"] == ("Heleigh",) and after["Heleigh"]["kind"] == "castle"
    assert after["Stanley"]["lords"] == 2 and after["Stanley"]["home"] == ("Lathom",)
    assert "Heleigh" not in before and "castel" not in log.read_text(encoding="utf-8")


def test_ctrl_c_records_nothing_and_prints_the_kept_lines_to_paste_again(tmp_path):
    log = new_log(tmp_path)
    before = log.read_bytes()
    child = declare(tmp_path)
    typed(child, GOOD[:2] + [SLIP])
    child.expect_exact(PROMPT)
    reading(child)
    child.sendintr()
    shown = ended(child)
    assert child.exitstatus == 130
    assert "referee: interrupted: nothing was recorded; the 2 lines kept, to paste again:\r\n" \
           f"{GOOD[0]}\r\n{GOOD[1]}\r\n" in shown
    assert "castel'" not in shown.split("to paste again:")[1]
    assert log.read_bytes() == before


def test_lines_refused_at_ctrl_d_after_another_terminal_wrote_are_printed_to_paste(tmp_path):
    """The lines are checked again when written: another terminal declared Percy otherwise
    meanwhile, so the write is refused, and the lines typed are printed, never lost."""
    log = new_log(tmp_path)
    child = declare(tmp_path)
    typed(child, GOOD)
    child.expect_exact(PROMPT)
    (tmp_path / "other.txt").write_text("declare noble Percy troops=50 lords=3 home=Alnwick\n")
    other = subprocess.run([sys.executable, "-m", "referee", "declare", "other.txt"],
                           cwd=tmp_path, env=environment(tmp_path), capture_output=True,
                           text=True, timeout=TIMEOUT)
    assert other.returncode == 0, other.stderr
    written = log.read_bytes()
    child.sendeof()
    shown = ended(child)
    assert child.exitstatus == 1
    assert "referee: nothing was recorded; the 3 lines kept, to paste again:\r\n" \
           f"{GOOD[0]}\r\n{GOOD[1]}\r\ndeclare {GOOD[2]}\r\n" in shown
    assert "referee: line 1 (declare noble Percy troops=40 lords=3 home=Alnwick)" in shown
    assert "internal error" not in shown and log.read_bytes() == written


class Keyboard(io.StringIO):
    """Standard input as a terminal: `referee declare` reads it a line at a time."""

    def isatty(self) -> bool:
        return True


def keys_typed(monkeypatch: pytest.MonkeyPatch, keys: list[str | BaseException]) -> None:
    """`input` at the terminal answers each in turn: a line, or what the keys raise."""
    pending = iter(keys)

    def typing(prompt: str = "") -> str:
        key = next(pending)
        if isinstance(key, BaseException):
            raise key
        return key

    monkeypatch.setattr("sys.stdin", Keyboard(""))
    monkeypatch.setattr("builtins.input", typing)


def test_typed_in_process_blank_lines_comments_and_every_slip_refused_alone(cli, monkeypatch,
                                                                             tmp_path):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    lines = [GOOD[0], "", "# from the box", SLIP, "next", GOOD[1]]
    monkeypatch.setattr("sys.stdin", Keyboard("\n".join(lines) + "\n"))
    result = cli("declare")
    assert result.status == 0, result.err
    assert "line 4 (declare place Heleigh kind=castel)" in result.err
    assert "Not kept: type line 4 again; the 1 line before it is kept." in result.err
    assert "line 5 (declare next): 'next' in 'declare next' is not a kind of component" \
        in result.err
    assert "Not kept: type line 5 again; the 1 line before it is kept." in result.err
    assert result.out.splitlines()[1:3] == GOOD[:2]  # after the prompts
    assert "internal error" not in result.err


def test_typed_in_process_a_line_not_utf8_is_refused_alone_and_ctrl_c_keeps_nothing(
        cli, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    before = (cli.path / "game.toml").read_bytes()
    keys_typed(monkeypatch, [UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
                             SLIP, KeyboardInterrupt()])
    result = cli("declare")
    assert result.status == 130
    assert "referee: the line typed is not valid UTF-8 text: type it again" in result.err
    assert "Not kept: type line 1 again." in result.err  # the slip, with nothing kept before
    assert result.err.endswith("referee: interrupted: nothing was recorded\n")
    assert (cli.path / "game.toml").read_bytes() == before


def test_typed_lines_are_printed_to_paste_again_whatever_refuses_the_write(cli, monkeypatch,
                                                                           tmp_path):
    """Not only a rule: a log busy (another command writing), read-only or gone at Ctrl-D
    refuses the write too, and the lines typed are still printed, never lost."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("REFEREE_LOCK_TIMEOUT", "0")
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    log = cli.path / "game.toml"
    before = log.read_bytes()
    said = "referee: nothing was recorded; the 2 lines kept, to paste again:\n"
    pasted = f"{GOOD[0]}\n{GOOD[1]}\n"  # on standard output, from the prompts' line on
    monkeypatch.setattr("sys.stdin", Keyboard("\n".join(GOOD[:2]) + "\n"))
    with logfile.locked(log):
        busy = cli("declare")
    assert busy.status == 75 and said in busy.err and busy.out.endswith(pasted), busy.err
    log.chmod(0o444)
    monkeypatch.setattr("sys.stdin", Keyboard("\n".join([GOOD[0], SLIP, GOOD[1]]) + "\n"))
    read_only = cli("declare")
    assert read_only.status == 73 and said in read_only.err, read_only.err
    assert read_only.out.endswith(pasted)
    assert "is read-only; the log was not changed" in read_only.err
    assert f"Up recalls it):\n  line 2: {SLIP}\nreferee: game.toml: is read-only" in read_only.err
    assert log.read_bytes() == before
    assert "internal error" not in busy.err + read_only.err


def test_ctrl_c_while_the_write_waits_for_the_lock_prints_the_lines(cli, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    before = (cli.path / "game.toml").read_bytes()

    def waiting(path: Path, lines: list[str]) -> None:  # Ctrl-C while another command writes
        assert lines == [GOOD[0]]
        raise KeyboardInterrupt

    monkeypatch.setattr("referee.session.declare", waiting)
    monkeypatch.setattr("sys.stdin", Keyboard(GOOD[0] + "\n"))
    result = cli("declare")
    assert result.status == 130
    assert result.err.endswith("referee: interrupted: nothing was recorded; the 1 line kept, to "
                               "paste again:\n")
    assert result.out.endswith(f"\n{GOOD[0]}\n")
    assert (cli.path / "game.toml").read_bytes() == before


@pytest.mark.parametrize("read", ["end of input, then the newline cannot be written",
                                  "an I/O error"])
def test_a_terminal_gone_records_nothing_and_is_no_internal_error(cli, monkeypatch, tmp_path,
                                                                  read):
    """Closed while its hang-up is ignored (nohup), the terminal reads as the end of input (a
    Ctrl-D, but the newline after it cannot be written) or an I/O error: as at Ctrl-C nothing
    is recorded (the lines typed are in the history, Up recalls them), and it is no bug (70)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    before = (cli.path / "game.toml").read_bytes()
    gone = OSError(5, "Input/output error")

    def writing(self: object, text: str) -> None:
        raise gone

    monkeypatch.setattr("referee.tableline.Terminal.write", writing)
    keys_typed(monkeypatch, [GOOD[0], EOFError() if read.startswith("end") else gone])
    result = cli("declare")
    assert result.status == 130, result.err
    assert result.err.endswith("referee: the terminal is gone: nothing was recorded; the 1 line "
                               "kept, to paste again:\n")
    assert "internal error" not in result.err
    assert (cli.path / "game.toml").read_bytes() == before
    history = list((tmp_path / "state" / "referee" / "history").iterdir())
    assert [path.read_text(encoding="utf-8") for path in history] == [GOOD[0] + "\n"]


def test_the_history_keeps_what_the_table_session_keeps(cli, monkeypatch, tmp_path):
    """The history file is the log's, shared with `referee table`: a line goes in only where the
    table's own rule lets it (never a sealed move's; Kingmaker has none, so every line)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    monkeypatch.setattr("referee.table.kept", lambda table, line: line != GOOD[1])
    monkeypatch.setattr("sys.stdin", Keyboard(f"{GOOD[0]}\n{GOOD[1]}\n{SLIP}\n"))
    assert cli("declare").status == 0
    history = list((tmp_path / "state" / "referee" / "history").iterdir())
    assert [path.read_text(encoding="utf-8") for path in history] == [f"{GOOD[0]}\n{SLIP}\n"]


def test_a_refused_line_not_typed_again_is_named_last_after_the_write(cli, monkeypatch,
                                                                      tmp_path):
    """A block pasted: a refusal early in it scrolls off a 24-line screen before Ctrl-D. What
    was refused and never typed again (the same entry declared since) is named once more at
    the very end, so that no line is left behind unseen; a line mended since is not."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    other = "declare noble Stanley troops=20 lords=two home=Lathom"
    lines = [GOOD[0], SLIP, other, GOOD[1], SLIP.replace("castel", "castle")]
    monkeypatch.setattr("sys.stdin", Keyboard("\n".join(lines) + "\n"))
    result = cli("declare")
    assert result.status == 0, result.err
    assert result.err.endswith(
        "referee: 1 line refused, never typed again, not recorded (Up recalls it):\n"
        f"  line 3: {other}\n"), result.err
    assert "Heleigh" in (cli.path / "game.toml").read_text(encoding="utf-8")
    assert "Stanley" not in result.out and "internal error" not in result.err
    ours = [line for line in result.err.splitlines() if not line.startswith("referee: line ")]
    assert ours[0] == "Type or paste the `declare` lines, then Ctrl-D on a line of its own."
    assert max(len(line) for line in ours) <= 80, ours  # what this screen says (a refusal wraps)


def test_every_line_refused_then_ctrl_d_names_them_and_exits_1(cli, monkeypatch, tmp_path):
    """Nothing to record: the refused line is the news (status 1, a refused move), not a
    `no declaration was given` usage error beside it."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    before = (cli.path / "game.toml").read_bytes()
    monkeypatch.setattr("sys.stdin", Keyboard(SLIP + "\n"))
    result = cli("declare")
    assert result.status == 1
    assert result.err.endswith("Not kept: type line 1 again.\nreferee: 1 line refused, never typed "
                               f"again, not recorded (Up recalls it):\n  line 1: {SLIP}\n")
    assert "no declaration" not in result.err and "internal error" not in result.err
    assert (cli.path / "game.toml").read_bytes() == before


B5_DEAL = ("dealt Courtenay, Holland, Duke-of-Exeter, Bishop-of-Carlisle, Admiral-of-England, "
           "Bristol, Stanley, Howard, Lord-Chamberlain")


def test_a_deal_with_a_near_miss_is_one_refusal_ending_with_what_to_do_at_80x24(tmp_path):
    """B5, B6: a near-miss card (`Admiral-of-England`, near Marshal of England) no longer splits
    the deal's refusal: one refusal has every value the deal needs; at a terminal of 24 rows
    its instructions come last, where the eye is, with no closest moves of other cards' deals;
    and a `declare` line typed at the session's prompt is recorded, as the refusal says."""
    import pyte

    from tests.test_table_terminal import start

    log = tmp_path / "game.toml"
    subprocess.run([sys.executable, "-m", "referee", "new", "kingmaker", "-p", "Ann", "-p", "Ben",
                    "-p", "Cat", "-p", "Dan"], cwd=tmp_path, env=environment(tmp_path),
                   check=True, capture_output=True, timeout=TIMEOUT)
    before = log.read_bytes()
    child = start(tmp_path, log)
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    child.expect_exact(" > ")
    stream.feed(child.before + child.after)
    child.sendline(B5_DEAL)
    child.expect_exact(" > ")
    printed = unfolded(str(child.before))
    stream.feed(child.before + child.after)
    rows = [row.strip() for row in screen.display if row.strip()]
    prompt = max(i for i, row in enumerate(rows) if row.endswith(">"))
    tail = " ".join(rows[prompt - 5:prompt])  # the rows just above the prompt and its line
    assert tail.endswith("then the move goes through. rule: R-2"), tail
    assert "type each line at the `referee table` prompt" in tail
    assert "closest legal moves" not in printed
    assert printed.count("referee: ") == 1  # one refusal, every value of the deal in it
    assert "referee: Ann's deal needs 23 printed value(s)" in printed
    assert "declare office Admiral-of-England troops=___ commons=___" in printed
    assert "'Admiral-of-England' is no card this log lists: Marshal-of-England? If so, type " \
        "the deal again" in printed
    assert log.read_bytes() == before
    child.sendline("declare office Admiral-of-England troops=20 commons=1")
    child.expect_exact(" > ")
    assert "referee: " not in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert any(e.event.type == "declare" and e.event.get("name") == "Admiral of England"
               for e in logfile.read(log).entries)
