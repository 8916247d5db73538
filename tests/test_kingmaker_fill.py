"""`referee components kingmaker --fill FILE` through a pseudo-terminal (issue 28): questions in
the box's order and words, a wrong answer asked again, Ctrl-C keeping every answer, a resume
that skips what the file has; and the answers' rules without a terminal."""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path

import pexpect
import pytest

from referee.games.kingmaker import components as km
from tests.test_table_terminal import TIMEOUT


def interruptible() -> None:
    """Ctrl-C reaches the child as at a terminal, even when the tests run in a background job
    (which starts with SIGINT ignored, and a child inherits that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def reading(child: pexpect.spawn) -> None:
    """Wait until the child sleeps in its read of the terminal, for a Ctrl-C: the prompt on
    the screen is written just before that read begins, and a SIGINT landing in between is
    only noted, the read then blocking until the next key (CPython's input() and readline act
    on a signal that interrupts the read). Linux shows the state in /proc; elsewhere the
    prompt is all there is to wait on."""
    stat = Path(f"/proc/{child.pid}/stat")
    if not stat.exists():
        return
    for _ in range(TIMEOUT * 1000):  # the state polled each ms: the wait ends on it, not on time
        if stat.read_text(encoding="utf-8").rpartition(")")[2].split()[0] == "S":
            return
        time.sleep(0.001)
    raise AssertionError("the child never waited for a key")


def spawn(folder):
    """Every wait is for what the command prints, with the generous TIMEOUT of the terminal
    tests (a cold start on a loaded machine took more than the 30 s once); nothing is sent
    before the question it answers is on the screen."""
    child = pexpect.spawn(sys.executable, ["-m", "referee", "components", "kingmaker", "--fill",
                                           "box.toml"], cwd=str(folder), encoding="utf-8",
                          timeout=TIMEOUT, env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"},
                          preexec_fn=interruptible)
    child.delaybeforesend = None  # no pause before a send: each one follows its question
    return child


def test_fill_answers_a_ctrl_c_and_a_resume(tmp_path):
    child = spawn(tmp_path)
    child.expect_exact("started from the shipped file")
    child.expect_exact("[42 left] Neville, noble card: his home castle as the map names it "
                       "(two: A, B): ")
    child.sendline("Middleham")
    child.expect_exact("[42 left] Audley, noble card: the Lords votes printed on his card: ")
    child.sendline("two")
    child.expect_exact("'two' is not a number: type the number the card prints")
    child.expect_exact("[42 left] Audley, noble card: the Lords votes printed on his card: ")
    child.sendline("2")
    child.expect_exact("[41 left] Audley, noble card: the Commons votes printed on his card "
                       "(0 if none): ")
    reading(child)
    child.sendintr()  # Ctrl-C
    child.expect_exact("Stopped: every answer is saved in box.toml")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    box = km.load((tmp_path / "box.toml").read_text(), "box.toml")
    assert box.get("noble", "Neville").get("home") == ("Middleham",)
    assert box.get("noble", "Audley").get("lords") == 2
    assert box.get("noble", "Audley").get("commons") is None
    assert km.fill_remaining(box) == 41

    again = spawn(tmp_path)  # the same command goes on where it stopped
    again.expect_exact("[41 left] Audley, noble card: the Commons votes printed on his card "
                       "(0 if none): ")
    again.sendline("0")
    again.expect_exact("[40 left] Audley, noble card: his home castle")
    again.sendeof()  # Ctrl-D stops too
    again.expect_exact("Stopped: every answer is saved")
    again.expect(pexpect.EOF)
    box = km.load((tmp_path / "box.toml").read_text(), "box.toml")
    assert box.get("noble", "Audley").get("commons") == 0
    assert box.get("noble", "Neville").get("home") == ("Middleham",)  # nothing lost
    assert [e.name for e in box.of("noble")][:2] == ["Neville", "Audley"]  # the box's order


def test_fill_questions_follow_the_box_and_take_new_cards():
    box = km.load(km.file_text(km.SHIPPED), km.SHIPPED)
    questions = km.fill_questions(box)
    sections = [q.section for q in questions]
    assert sections == sorted(sections, key=["noble cards", "crown cards",
                                             "places on the map"].index)
    more = [q for q in questions if not q.key]
    assert [q.section for q in more] == ["noble cards", "crown cards", "places on the map"]
    assert all("seed" not in q.text and "JS-DECK" not in q.text for q in questions)
    place = next(q for q in questions if q.kind == "place")
    assert place.text.startswith("Swansea, place: on the map, is it a city")
    box = km.fill_answer(box, more[0], "Talbot")
    assert box.get("noble", "Talbot") is not None
    assert [q.key for q in km.fill_questions(box) if q.name == "Talbot"] == \
        ["troops", "lords", "commons", "home"]
    box = km.fill_answer(box, more[1], "title Earl of Kent")
    assert box.get("title", "Earl of Kent") is not None
    box = km.fill_answer(box, next(q for q in km.fill_questions(box) if q.name == "Talbot"
                                   and q.key == "home"), "Wingfield, Sheffield")
    named = [q.name for q in km.fill_questions(box) if q.kind == "place"]
    assert "Wingfield" in named and "Sheffield" in named
    wrong = next(q for q in km.fill_questions(box) if q.name == "Swansea")
    with pytest.raises(km.DataError, match="kind must be one of city"):
        km.fill_answer(box, wrong, "village")
    with pytest.raises(km.DataError, match="nothing typed"):
        km.fill_answer(box, wrong, "  ")
    with pytest.raises(km.DataError, match="start with the kind of card"):
        km.fill_answer(box, more[1], "earl Earl of March")
    with pytest.raises(km.DataError, match="listed already"):
        km.fill_answer(box, more[0], "Neville")
    assert km.fill_remaining(km.fill_answer(box, wrong, "town")) == \
        km.fill_remaining(box) - 1


def test_fill_refuses_a_game_without_components_and_a_broken_file(cli):
    assert cli("components", "kings-ear", "--fill", "x.toml").status == 2
    (cli.path / "bad.toml").write_text("format = 3\n")
    bad = cli("components", "kingmaker", "--fill", "bad.toml")
    assert bad.status == 2 and "format" in bad.err
