"""King of the Castle at a real table, through the real CLI entry point: a whole game from the seals
to the scoresheet, with every output searched for the sealed squires; the random and hand
variants; a game the tool deals, whose hands only `options --for` shows."""

from __future__ import annotations

import io
import json
import re
import sys

import pytest

from referee import log as logfile
from referee.games.king_of_the_castle import GAME
from referee.games.king_of_the_castle.components import CARD
from referee.replay import replay_log
from tests.conftest import EXAMPLES, GOLDEN

THREE = GOLDEN / "king-of-the-castle" / "three-player.toml"


@pytest.fixture
def table(cli, monkeypatch):
    """`cli` with `play_secret`: a move whose secret is typed unseen (read from stdin)."""
    def play_secret(*args: str, secret: str = ""):
        monkeypatch.setattr("sys.stdin", io.StringIO(secret + "\n"))
        return cli("play", *args)

    cli.play_secret = play_secret  # type: ignore[attr-defined]
    return cli


def letter_forms(letters: str) -> list[str]:
    """The ways a set of squires could be written out: DKQ, D K Q, D,K,Q, D, K, Q."""
    return [letters, " ".join(letters), ",".join(letters), ", ".join(letters)]


def without_date(text: str) -> str:
    """A sheet without the line of facts from the log (date, duration, start player)."""
    return "\n".join(line for line in text.split("\n") if not line.startswith("Date: "))


def test_a_whole_game_at_the_table_never_shows_a_sealed_squire(table):
    """The golden three-player game typed move by move; every output of every command is kept
    and searched for each player's letters, which appear only once that player opens them."""
    golden = logfile.read(THREE)
    names = [p.name for p in golden.players]
    backs = {e.event.by: "".join(e.event["letters"]) for e in golden.entries
             if e.event.type == "open"}
    assert table("new", "king-of-the-castle", *sum((["-p", n] for n in names), [])).status == 0
    outputs: list[tuple[int, str]] = []  # (events recorded so far, text shown)
    receipts = {}
    sealed_log: list[str] = []  # the log as it stands before the first seal is opened
    state = GAME.setup(golden.players, golden.options, None)
    for seq, entry in enumerate(golden.entries, start=1):
        event = entry.event
        if event.type == "squires":
            result = table.play_secret("squires", secret=" ".join(backs[event.by].lower()))
            receipts[event.by] = re.search(r"receipt: (\S+)", result.err).group(1)
        elif event.type == "open":
            if not sealed_log:
                sealed_log.append((table.path / "game.toml").read_text())
            result = table("play", "open", *backs[event.by], receipts[event.by], "--as",
                           event.by)
        else:
            result = table("play", GAME.format(state, event))
        assert result.status == 0, (seq, result.err)
        outputs.append((seq, result.out + result.err))
        if seq % 10 == 0 or event.type == "open":
            for command in (("status",), ("options",), ("score",), ("history",),
                            ("status", "--json"), ("options", "--json")):
                shown = table(*command)
                outputs.append((seq, shown.out + shown.err))
        state = GAME.apply(state, event)
    opened_at = {e.event.by: e.seq for e in golden.entries if e.event.type == "open"}
    for name, letters in backs.items():
        # The search can find them: the move that opens the seal shows them.
        assert any(f"{name} backs {' '.join(letters)}" in text for seq, text in outputs
                   if seq == opened_at[name])
        for seq, text in outputs:
            if seq < opened_at[name]:
                for form in letter_forms(letters):
                    assert form not in text.replace(f"receipt: {receipts[name]}", ""), \
                        (name, seq, form)
    assert not any(r in sealed_log[0] for r in receipts.values())
    assert not any(form in sealed_log[0] for letters in backs.values()
                   for form in letter_forms(letters)[:2])
    sheet = table("scoresheet")
    # The CLI's sheet also says when this log was played (the golden sheet has no log date).
    assert without_date(sheet.out) == THREE.with_suffix(".scoresheet.txt").read_text(
        encoding="utf-8")
    assert table("check", "game.toml").status == 0
    html = table("scoresheet", "-f", "html").out
    assert "Posts at the end" in html and "<h2>Castles</h2>" in html


def test_the_seal_is_asked_unseen_and_only_its_receipt_is_shown(table):
    table("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben")
    log = table.path / "game.toml"
    before = log.read_bytes()
    bad = table.play_secret("squires", secret="q q z")
    assert bad.status == 1 and "QQZ" not in bad.err.upper() and "three different" in bad.err
    assert log.read_bytes() == before
    shown = table("play", "squires", "D", "K", "Q")
    assert shown.status == 1 and "never on the command line" in shown.err
    good = table.play_secret("squires", secret="qdk")
    assert good.status == 0 and "Ann: seals the squires they back" in good.out
    assert "DKQ" not in good.out + good.err and "Your receipt:" in good.err
    data = json.loads(table.play_secret("squires", "--json", secret="abc").out)
    assert data["receipt"] and data["drawn"] is None and data["event"]["seal"].startswith(
        "sha256:")
    assert "DKQ" not in log.read_text() and "ABC" not in log.read_text()


def test_random_squires_are_drawn_by_the_tool_and_shown_once(table):
    table("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", "-o", "squires=random")
    assert "the tool draws three letters" in table("options").out
    drawn = {}
    for name in ("Ann", "Ben"):
        result = table("play", "squires")
        drawn[name] = re.search(r"Drawn for you: ([A-Z]{3})", result.err).group(1)
        receipt = re.search(r"receipt: (\S+)", result.err).group(1)
        drawn[name] = (drawn[name], receipt)
        assert drawn[name][0] not in result.out
    text = (table.path / "game.toml").read_text()
    assert not any(letters in text or receipt in text for letters, receipt in drawn.values())
    table("play", "reveal", "Q", "A", "B", "C", "D", "E", "F", "G", "H", "I")
    status = table("status").out
    assert "Sealed squires: Ann, Ben" in status


def test_a_wrong_reveal_is_refused_as_such_and_leaves_the_log_untouched(table):
    golden = logfile.read(THREE)
    text = THREE.read_text(encoding="utf-8")
    first_open = next(e for e in golden.entries if e.event.type == "open")
    cut = text.index("[[events]]\nseq = " + str(first_open.seq) + "\n")
    (table.path / "game.toml").write_text(text[:cut], encoding="utf-8")
    before = (table.path / "game.toml").read_bytes()
    result = table("play", "open", "A", "B", "C", "0000-0000-0000", "--as", first_open.event.by)
    assert result.status == 1 and "wrong reveal" in result.err and "rule: Seals" in result.err
    assert (table.path / "game.toml").read_bytes() == before
    options = table("options").out
    assert "open LETTERS RECEIPT --as NAME" in options and "waiting for Ann, Ben, Cat" in options
    sheet = table("score").out
    assert "sealed" in sheet and "Posts at the end" in sheet


def test_a_game_dealt_by_the_tool_shows_a_hand_only_to_its_player(table):
    assert table("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", "--shuffle", "--seed",
                 "5").status == 0
    for secret in ("dkq", "aex"):
        assert table.play_secret("squires", secret=secret).status == 0
    log = logfile.read(table.path / "game.toml")
    state = replay_log(log)[1]
    hand = [CARD[c].slug for c in state.hands[0].known]
    public = table("options").out + table("status").out + table("options", "--json").out
    assert "options --for Ann" in public
    for slug in hand:
        assert slug not in public.replace("CARD [TARGETS]", "")
    private = table("options", "--for", "Ann")
    assert "Ann's hand (for Ann's eyes only): " + ", ".join(hand) in private.out
    ben = table("options", "--for", "Ben").out  # not his turn: he may still look at his hand
    assert "Ben has no move now" in ben and "Ben's hand (for Ben's eyes only): " in ben
    refused = table("play", "vanishings", "castle", "9")
    assert refused.status == 1 and not any(s in refused.err for s in hand if s != "vanishings")


def test_status_and_options_say_whose_reply_is_awaited(table):
    table("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", "-p", "Cat")
    for secret in ("dkq", "aex", "bgz"):
        table.play_secret("squires", secret=secret)
    assert table("play", "reveal", "Q", "A", "B", "C", "D", "E", "F", "G", "H", "I").status == 0
    options = table("options").out
    assert "assassination lord N   (N: 1, 2, 3)" in options
    assert "plague castle N kill MAN MAN   (castle 1: two of lord seneschal master;" in options
    assert "unexpected-loss PLAYER loses CARD   (PLAYER: Ben, Cat; CARD:" in options
    played = table("play", "plague", "castle", "2", "kill", "lord", "seneschal")
    assert "Replies, in turn: Ben, Cat, Ann" in played.out
    assert "Next: Ben - Ben may answer Ann's Plague" in played.out
    assert "Announced: Ann's Plague (kills D (Lord 2), E (Seneschal 2))" in table("status").out
    assert table("options").out.splitlines()[1:] == ["  reply lucky-escape lord 2 | seneschal 2",
                                                     "  pass"]
    assert table("undo").status == 1  # the card has been seen
    assert table("play", "pass").status == 0
    saved = table("play", "reply", "lucky-escape", "D")
    assert "D (Lord 2) escapes death" in saved.out and "E (Seneschal 2) dies" in saved.out
    assert "Next: The table - turn up a personality card for Master at Arms 2" in saved.out
    assert table("play", "reveal", "J").status == 0
    assert "J" in table("status").out.splitlines()[6]


def test_check_reports_a_hand_edited_event_with_its_rule(table):
    text = THREE.read_text(encoding="utf-8").replace('card = "Plague"', 'card = "Dragon"', 1)
    (table.path / "bad.toml").write_text(text, encoding="utf-8")
    result = table("check", "bad.toml")
    assert result.status == 1 and "unknown-card [Components]" in result.out
    text = THREE.read_text(encoding="utf-8").replace("castle = ", "castle = \"x\" #", 1)
    (table.path / "worse.toml").write_text(text, encoding="utf-8")
    assert table("check", "worse.toml").status == 65


def test_the_bundled_demo_and_the_blank_sheet(table):
    demo = table("demo", "king-of-the-castle")
    assert demo.status == 0 and "King of the Castle: a bundled example game" in demo.out
    assert (EXAMPLES / "king-of-the-castle.scoresheet.txt").read_text().rstrip() in \
        without_date(demo.out)
    blank = table("scoresheet", "--blank", "king-of-the-castle", "-f", "markdown").out
    assert "## Positions" in blank and "| Master at Arms 3 |" in blank
    rules = table("rules", "king-of-the-castle").out
    assert "R-26:" in rules and "plague castle N kill MAN MAN" in rules


def test_a_secret_that_cannot_be_read_is_a_usage_error_and_writes_nothing(table, monkeypatch):
    class Closed(io.StringIO):
        def readline(self, *args):
            raise OSError("standard input is closed")

    assert table("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", "-p", "Cat").status == 0
    before = (table.path / "game.toml").read_bytes()
    monkeypatch.setattr("sys.stdin", Closed())
    result = table("play", "squires")
    assert result.status == 2 and "the secret could not be read" in result.err
    assert (table.path / "game.toml").read_bytes() == before


def first_turn_played(table) -> dict[str, str]:
    """Ann and Ben seal D K Q and A B C, the posts are turned up, Ann plays a Domain 2 on
    castle 1; their receipts by letters."""
    table("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben")
    receipts = {}
    for letters in ("D K Q", "A B C"):
        result = table.play_secret("squires", secret=letters)
        receipts[letters] = re.search(r"receipt: (\S+)", result.err).group(1)
    table("play", "reveal", "Q", "D", "E", "F", "G", "H", "I", "J", "K", "L")
    table("play", "domain-2", "castle", "1")
    return receipts


def test_a_table_stopped_at_closing_time_opens_its_seals_and_gets_its_totals(table):
    """F7, R-27: after `end`, `open` is taken (it was refused as "the game is over") and the
    sheet gives totals and places so far; the log of the stop itself is unchanged."""
    receipts = first_turn_played(table)
    stop = table("play", "end", "cafe", "closes")
    assert stop.status == 0 and "The table stopped the game: each player opens their seal " \
        "(`open`, R-27); it scores as it stood, incomplete\n" in stop.out
    assert "Next: Ann or Ben - the table stopped the game (cafe closes): `open LETTERS " \
        "RECEIPT` to score as it stood (--as NAME, R-27)" in stop.out
    log = (table.path / "game.toml").read_text()
    assert log.rstrip().endswith('type = "end"\nreason = "cafe closes"')
    waiting = table("score").out
    assert "waiting for Ann, Ben to open their seal (R-27)" in " ".join(waiting.split())
    assert re.search(r"^Ann +sealed +sealed$", waiting, re.M)
    opened = table("play", "open", "D", "K", "Q", receipts["D K Q"], "--as", "Ann")
    assert opened.status == 0 and "Ann backs D K Q" in opened.out
    last = table("play", "open", "A", "B", "C", receipts["A B C"], "--as", "Ben")
    assert last.status == 0 and "Game over: Ann leads with 25 points after 1 round(s), when " \
        "the table stopped the game (cafe closes): incomplete (R-27)" in last.out
    sheet = table("score").out
    assert "Incomplete: stopped by the table (cafe closes); scored as it stood\n" in sheet
    assert re.search(r"^Ann .* D:9 K:4 Q:12 +25 1st so far$", sheet, re.M)
    assert re.search(r"^Ben .* A:0 B:0 C:0 +0 2nd so far$", sheet, re.M)
    assert table("check", "game.toml").status == 0


def test_a_new_game_says_nobody_has_sealed_yet_and_that_it_has_no_events(table):
    """F14: before anyone seals, the rows said "sealed"; `history` printed nothing."""
    table("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben")
    fresh = table("score").out
    for name in ("Ann", "Ben"):
        assert re.search(rf"^{name} +not sealed yet +not sealed yet$", fresh, re.M), fresh
    assert " sealed " not in fresh.replace("not sealed yet", "")
    empty = table("history")
    assert empty.status == 0 and empty.out == (
        "No events yet: the game is set up and waits for its first move.\n")
    assert json.loads(table("history", "--json").out) == []
    table.play_secret("squires", secret="D K Q")
    rows = [r.result for r in GAME.scoresheet(replay_log(logfile.read(
        table.path / "game.toml"))[1]).rows]
    assert rows == ["sealed", "not sealed yet"]
    assert "No events yet" not in table("history").out


def test_the_html_sheet_of_a_stopped_game_sets_its_commands_as_code(table):
    """F13: the footnote read "(`referee undo` resumes the game)" with raw backticks."""
    table("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben")
    table("play", "end", "rain")
    page = table("scoresheet", "-f", "html").out
    assert "this sheet is incomplete (<code>referee undo</code> resumes the game).</p>" in page
    assert "`" not in page


@pytest.mark.parametrize(("typed", "read"), [
    ("D K", "2 letters read"), ("q q z", "a letter was typed twice"),
    ("D K Q R", "4 letters read"), ("", "no letters read"), ("x", "1 letter read")])
def test_a_refused_seal_says_exactly_what_is_expected_and_never_the_letters(table, typed, read):
    """F8: "D K" was refused as "three letters A-Z" with no word of what was read."""
    table("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben")
    before = (table.path / "game.toml").read_bytes()
    bad = table.play_secret("squires", secret=typed)
    assert bad.status == 1 and bad.err.startswith(
        "referee: you back three different squires: exactly three letters A-Z, e.g. `D K Q` or "
        f"`dkq` ({read})\n")
    shown = bad.err.replace("`D K Q`", "").replace("`dkq`", "")
    if len(typed.replace(" ", "")) > 1:  # one letter alone is in any sentence
        assert typed.replace(" ", "").upper() not in shown.upper().replace(" ", "")
    assert (table.path / "game.toml").read_bytes() == before


def test_the_letters_typed_unseen_are_shown_back_on_the_hand_over_screen_alone(tmp_path):
    """F8: a seal's letters were never shown back, so a typo was found only at `open`. At a
    terminal they are on the player's hand-over screen (wiped after); never in the log, nor
    off a terminal (test_the_seal_is_asked_unseen_and_only_its_receipt_is_shown)."""
    import pexpect

    from tests.test_table_terminal import TIMEOUT, assert_wiped, castle_game, environment, start

    path = castle_game(tmp_path)
    child = pexpect.spawn(sys.executable, ["-m", "referee", "--log", str(path), "play",
                                           "squires"], cwd=str(tmp_path),
                          env=environment(tmp_path), encoding="utf-8", timeout=TIMEOUT,
                          dimensions=(24, 120))
    heard = child.logfile_read = io.StringIO()
    child.expect_exact("Secret (not shown): ")
    child.sendline("q d k")
    child.expect_exact("Ann only")
    child.sendline("")
    child.expect_exact("You sealed: DKQ  (not what you meant? undo takes the move back now)")
    child.expect_exact("Press Enter when done: the screen is wiped.")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert any("You sealed: DKQ" in line for line in assert_wiped(heard.getvalue(), "Ann only",
                                                                   120))
    assert "DKQ" not in path.read_text()
    # the table's session: Ben's letters on his hand-over screen, wiped
    child = start(tmp_path, path, columns=120)
    child.expect_exact("Ben · seals the squires they back")
    child.expect_exact(" > ")
    heard = child.logfile_read = io.StringIO()
    child.sendline("squires")
    child.expect_exact("Secret (not shown): ")
    child.sendline("ZBQ")
    child.expect_exact("Ben only")
    child.sendline("")
    child.expect_exact("You sealed: BQZ")
    child.expect_exact("Press Enter when done: the screen is wiped.")
    child.sendline("")
    child.expect_exact("Cat · seals the squires they back")
    child.expect_exact(" > ")
    assert any("You sealed: BQZ" in line for line in assert_wiped(heard.getvalue(), "Ben only",
                                                                   120))
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("command", ["table", "play squires"])
def test_letters_read_from_a_pipe_are_never_shown_back_on_the_shared_terminal(tmp_path, command):
    """The letters are shown back only behind a hand-over screen: with the moves piped into
    `referee table` (or a seal piped into `play` with no terminal to read Enter from) the
    receipt is printed plainly on the terminal, so the letters must not be printed with it."""
    import pexpect

    from tests.test_table_terminal import TIMEOUT, castle_game, environment

    path = castle_game(tmp_path)
    lines = "squires\nD K Q\nquit\n" if command == "table" else "D K Q\n"
    # setsid: no controlling terminal, so `play` has no keyboard for its hand-over screen
    shell = (f"printf '{lines}' | setsid {sys.executable} -m referee --log {path} {command}"
             + (" 2>&1" if command != "table" else ""))
    child = pexpect.spawn("sh", ["-c", shell], cwd=str(tmp_path), env=environment(tmp_path),
                          encoding="utf-8", timeout=TIMEOUT, dimensions=(24, 120))
    heard = child.logfile_read = io.StringIO()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, heard.getvalue()
    shown = heard.getvalue()
    assert "Your receipt: " in shown and "Ann: seals the squires they back" in shown
    assert "You sealed" not in shown and "DKQ" not in shown


def test_every_hint_a_stopped_game_gives_after_its_seals_are_opened_works_as_typed(table):
    """R-27: once seals are opened after a stop, `referee undo` no longer resumes the game (an
    opening is retracted only with --force); every message says how it does, and doing so as
    said brings the game back to where the table stopped it."""
    receipts = first_turn_played(table)
    table("play", "end", "cafe", "closes")
    hint = ("`referee undo --force` takes back the seals opened since the stop, then "
            "`referee undo` resumes it")
    assert "this sheet is incomplete (`referee undo` resumes the game)" in " ".join(
        table("score").out.split())  # nothing opened since the stop: undo retracts it
    table("play", "open", "D", "K", "Q", receipts["D K Q"], "--as", "Ann")
    last = table("play", "open", "A", "B", "C", receipts["A B C"], "--as", "Ben")
    assert last.out.endswith(f"The table stopped the game: it scores as it stands, incomplete "
                             f"({hint}).\n")
    assert "(`referee undo` resumes" not in last.out
    status = " ".join(table("status").out.split())
    assert f"Game over: the table stopped it (cafe closes), incomplete; {hint}" in status
    refused = table("play", "pass")
    assert refused.status == 1 and hint in " ".join(refused.err.split())
    sheet = " ".join(table("score").out.split())
    assert ("this sheet is incomplete (`referee undo --force` takes back the seals opened since "
            "the stop, then `referee undo` resumes the game)") in sheet
    assert table("undo").status == 1  # as the hints say: an opening needs --force
    assert table("undo", "--force").status == 0 and table("undo", "--force").status == 0
    resumed = table("undo")
    assert resumed.status == 0 and "Next: Ben - Ben plays a card or passes" in resumed.out
