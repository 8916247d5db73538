"""`referee table` scripted (standard input not a terminal) and its terminal-free parts: what a
line does, the prompt, what Tab offers, what the history may keep (issue 25). The session as a
person meets it, through a pseudo-terminal, is in test_table_terminal.py."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from referee import session
from referee import table as sessions
from referee.errors import UsageError

KE_PLAYERS = ("-p", "Ann:Horse", "-p", "Ben:Pig", "-p", "Cat:Stag")


@pytest.fixture
def typed(cli, monkeypatch):
    """`referee table` with `lines` on standard input (a pipe, not a terminal)."""

    def run(*lines: str, log: str = "game.toml"):
        monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
        return cli("--log", log, "table")

    run.cli = cli  # type: ignore[attr-defined]
    return run


class Said:
    """A console that keeps what the session says (for `answer` called directly)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.secrets: list[tuple[str, str]] = []

    def say(self, text: str) -> None:
        self.lines.append(text)

    def read_secret(self) -> str:
        return "ABC"

    def show_secret(self, player: str, text: str, nowhere_else: bool = False) -> None:
        self.secrets.append((player, text))


def test_a_scripted_session_plays_as_play_does_and_every_move_is_in_the_log(typed):
    typed.cli("new", "kings-ear", *KE_PLAYERS)
    result = typed("draw PA3", "?", "place Stag", "quit", "draw")
    assert result.status == 0, result.out
    assert result.out.splitlines() == [
        "The King's Ear - 0 event(s) in game.toml.",
        "Type a move (Tab completes it), or options, status, undo, help, quit.",
        "Ann · draw or trade > draw PA3",
        "Ann: draw Pig Army 3",
        "Ann · place or trade the drawn Pig Army 3 > ?",
        "Ann - place or trade the drawn Pig Army 3:",
        "  place Stag",
        "  place Boar",
        "Ann · place or trade the drawn Pig Army 3 > place Stag",
        "Ann: place Stag",
        "Stag Army: 0 -> -3",
        "Ben · draw or trade > quit"]  # the line after quit is never read
    history = typed.cli("history")
    assert history.out.split() == ["1", "Ann", "draw", "Pig", "Army", "3",
                                   "2", "Ann", "place", "Stag"]


def test_a_refused_line_leaves_the_log_as_it_was_and_the_script_s_status_says_so(typed):
    typed.cli("new", "kings-ear", *KE_PLAYERS)
    before = (typed.cli.path / "game.toml").read_bytes()
    result = typed("place Stag", "draw --as Zed", "draw --as", "draw --colour red", "status")
    assert (typed.cli.path / "game.toml").read_bytes() == before
    assert result.out.splitlines()[2:10] == [
        "Ann · draw or trade > place Stag",
        "referee: `place` is not possible now, in the turn phase: draw or trade",
        "  rule: Turn (1b)",
        "Ann · draw or trade > draw --as Zed",
        "referee: 'Zed' is not a player; expected one of Ann, Ben, Cat",
        "Ann · draw or trade > draw --as",
        "referee: --as needs a value: --as NAME",
        "Ann · draw or trade > draw --colour red"]
    out = result.out
    assert "referee: a move takes --as NAME and --note TEXT, not --colour" in out
    assert "To act: Ann - draw or trade" in out  # the session went on after each refusal
    assert result.status == 2  # the last refused line: a usage error
    assert typed("status").status == 0


def test_undo_keeps_the_force_rule_and_notes_and_as_reach_the_log(typed):
    typed.cli("new", "kings-ear", *KE_PLAYERS)
    result = typed("draw PA3 --note 'first card'", "place Stag --as Ann", "undo", "undo")
    assert "Retracted event 2: place Stag" in result.out
    # the line to type here, not the shell's command (it used to say `referee undo --force`)
    assert "use `undo --force` to retract it" in result.out and result.status == 1
    assert "`referee undo" not in result.out
    result = typed("undo --force", "history")
    assert "Retracted event 1: draw Pig Army 3" in result.out
    log = (typed.cli.path / "game.toml").read_text()
    assert 'note = "first card"' in log and log.count("[[retracted]]") == 2
    assert "undo takes only --force" in typed("undo --hard").out


def test_help_rules_score_and_the_end_of_input(typed):
    typed.cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat")
    result = typed("help", "rules", "score", "   ", "exit")
    assert "undo         take the last move back" in result.out
    assert "R-1" in result.out  # the rules of this game, not another's
    assert result.status == 0
    assert typed().status == 0  # no line at all: the session opens and ends


def test_a_finished_game_says_so_and_prompts_game_over(typed):
    from tests.conftest import EXAMPLES

    (typed.cli.path / "game.toml").write_bytes((EXAMPLES / "dwarf-king.toml").read_bytes())
    before = (typed.cli.path / "game.toml").read_bytes()
    result = typed("score", "scoresheet", "sheet --format csv")
    assert "The game is over: `scoresheet` prints the sheet." in result.out
    assert "game over > score" in result.out
    # the sheet itself, where it used to be refused as a move after the end of the game
    sheet = result.out.split("game over > scoresheet\n")[1]
    assert sheet.startswith("The Dwarf King\nCat wins with 15 points after 7 hands\n")
    assert "game over > sheet --format csv\nPlayer,Hand 1," in result.out
    assert "no more moves" not in result.out and result.status == 0
    assert (typed.cli.path / "game.toml").read_bytes() == before


def test_a_missing_log_says_how_to_start_one(typed):
    result = typed("quit", log="nothing.toml")
    assert result.status == 66 and "start one with `referee new GAME ...`" in result.err


def test_a_secret_for_one_player_goes_to_the_hand_over_and_the_squires_line_is_not_kept(cli):
    cli("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", "-p", "Cat",
        "--option", "squires=secret")
    path = cli.path / "game.toml"
    known = session.load_known(path)
    said = Said()
    assert not sessions.kept(known.table, "squires")
    assert not sessions.kept(known.table, "Ann: squires")
    assert sessions.kept(known.table, "status")
    outcome = sessions.answer(path, known, "squires", said)
    (player, text), = said.secrets
    assert player == "Ann" and "Your receipt: " in text
    assert not any("receipt" in line for line in said.lines)
    assert outcome.known.data == path.read_bytes()  # what the session holds is the log


def test_options_for_a_player_is_theirs_alone(cli, capsys):
    cli("new", "kings-ear", *KE_PLAYERS)
    path = cli.path / "game.toml"
    said = Said()
    sessions.answer(path, session.load_known(path), "options --for ann", said)
    (player, text), = said.secrets
    assert player == "Ann" and text.startswith("Ann - draw or trade:")
    assert capsys.readouterr().out == ""  # nothing of it on the shared screen
    with pytest.raises(UsageError):
        sessions.answer(path, session.load_known(path), "status --for Zed", said)


def test_a_log_changed_by_another_command_is_read_again_never_overwritten(cli, capsys):
    cli("new", "kings-ear", *KE_PLAYERS)
    path = cli.path / "game.toml"
    known = session.load_known(path)
    assert cli("play", "draw", "PA3").status == 0  # a second terminal
    written = path.read_bytes()
    with pytest.raises(session.LogChanged) as changed:
        sessions.answer(path, known, "draw BF2", Said())
    assert path.read_bytes() == written
    assert len(changed.value.known.table.log.entries) == 1
    with pytest.raises(session.LogChanged):
        sessions.answer(path, known, "undo --force", Said())
    assert path.read_bytes() == written
    said = Said()
    outcome = sessions.answer(path, known, "status", said)
    assert "was changed by another command: read again (1 event(s) now)" in said.lines[0]
    assert outcome.known.data == written
    capsys.readouterr()


def test_a_correction_typed_after_another_command_changed_the_log_is_refused_as_a_move_is(cli):
    """`correct N` numbers the events as the session last read them: after another terminal
    renumbered the log, event N may be another event, so the line is refused (it used to be
    run on the new event N), as a move line is, and nothing is written; the command itself
    checks the bytes the session read under the log's lock (`--seen`)."""
    from referee import cache, corrections

    cli("new", "kings-ear", *KE_PLAYERS)
    path = cli.path / "game.toml"
    assert cli("play", "draw", "PA3").status == 0
    assert cli("play", "place", "Stag").status == 0
    known = session.load_known(path)
    assert cli("correct", "2", "place", "Boar", "--why", "x",  # a second terminal
               "--by", "Dan").status == 0
    written = path.read_bytes()
    with pytest.raises(session.LogChanged) as changed:
        sessions.answer(path, known, "correct 2 place Stag --why x --by Dan", Said())
    assert path.read_bytes() == written
    assert changed.value.known.data == written
    assert changed.value.hint == "type the line again if it still stands"
    fix = corrections.fix(2, "place Stag")
    with pytest.raises(session.LogChanged):  # what the line runs, should the log change now
        corrections.correct(path, [fix], "x", "Dan", seen=cache.digest(known.data))
    assert path.read_bytes() == written
    said = Said()
    latest = session.load_known(path)
    sessions.answer(path, latest, "correct 2 place Stag --why x --by Dan", said)
    assert said.lines[0].startswith("Corrected event 2: now Ann: place Stag (was Ann: place Boar)")


def test_the_prompt_names_who_acts_and_what_is_awaited(cli):
    cli("new", "kings-ear", *KE_PLAYERS)
    table = session.load(cli.path / "game.toml")
    assert sessions.prompt(table) == "Ann · draw or trade > "
    assert sessions.prompt(table, "-") == "Ann - draw or trade > "


def test_tab_offers_commands_moves_players_and_flags(cli):
    cli("new", "kings-ear", *KE_PLAYERS)
    path = cli.path / "game.toml"
    table = session.load(path)
    assert sessions.completions(table, "", "") == ["draw", "options", "status", "score",
                                                   "history", "rules", "scoresheet", "correct",
                                                   "undo", "help", "quit"]
    assert sessions.completions(table, "correct 1 ", "--w") == ["--why"]
    assert sessions.completions(table, "", "dr") == ["draw"]
    assert sessions.completions(table, "draw ", "p") == ["Pig"]
    assert sessions.completions(table, "draw Pig ", "a") == ["Army"]
    assert sessions.completions(table, "draw Pig Army ", "") == ["1", "2", "3", "4"]
    assert sessions.completions(table, "draw --as ", "b") == ["Ben"]
    assert sessions.completions(table, "draw --as Ben ", "") == []  # not Ben's turn
    assert sessions.completions(table, "draw --as Zed ", "") == []
    assert sessions.completions(table, "draw ", "--") == ["--as", "--note"]
    assert sessions.completions(table, "options ", "--") == ["--for", "--all"]
    assert sessions.completions(table, "options --for ", "") == ["Ann", "Ben", "Cat"]
    assert sessions.completions(table, "undo ", "") == ["--force"]
    assert sessions.completions(table, "? ", "--f") == ["--for"]


def test_tab_never_offers_a_hidden_card(cli):
    cli("new", "kings-ear", *KE_PLAYERS, "--shuffle", "--seed", "7")
    table = session.load(cli.path / "game.toml")
    assert sessions.completions(table, "", "d") == ["draw"]
    assert sessions.completions(table, "draw ", "") == []  # the pile's order is the tool's
    played = session.play(cli.path / "game.toml", "draw")
    # the card drawn is face up (placed at once); the next one is still the tool's secret
    assert sessions.completions(played.after, "", "") == ["draw", *sessions.COMMANDS]
    assert sessions.completions(played.after, "draw ", "") == []


def test_tab_offers_the_cards_a_dealt_hand_may_hold_never_the_hand_itself(typed):
    """The Dwarf King dealt by the tool: Cat leads; Tab offers every unplayed card, as `options`
    lists them for the table, not the thirteen Cat holds (which only the tool knows)."""
    typed.cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--shuffle",
              "--seed", "3")
    assert typed("special", "quest a", "leader").status == 0
    table = session.load(typed.cli.path / "game.toml")
    (line,) = table.choices().lines
    assert line.startswith("any unplayed card: ")
    offered = [w for w in sessions.completions(table, "", "") if w not in sessions.COMMANDS]
    assert offered == line.split(": ")[1].split()


def test_a_line_with_an_open_quote_is_a_usage_error():
    with pytest.raises(UsageError, match="a quote is not closed"):
        sessions.split("draw --note 'oops")
    with pytest.raises(UsageError, match="which move"):
        sessions._move_options(["--as", "Ann"])
    assert sessions._move_options(["draw", "--as=Ann", "--note=hi"]) == ("Ann", "hi", ["draw"])


def test_the_history_file_is_per_log_under_the_state_folder(monkeypatch, tmp_path):
    from referee.tableline import history_file

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    one, two = history_file(Path("a.toml")), history_file(Path("b.toml"))
    assert one is not None and two is not None and one != two
    assert Path(one).parent == tmp_path / "state" / "referee" / "history"
    assert history_file(Path("./a.toml")) == one


def test_status_for_a_player_named_twice_goes_to_the_one_the_command_shows(typed, capsys):
    """`--for` given twice: the command shows the last one's board (as click reads options), so
    the hand-over is for that player, and nothing of their hand reaches the shared screen."""
    typed.cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--shuffle",
              "--seed", "3")
    assert typed("special", "quest a", "leader").status == 0
    path = typed.cli.path / "game.toml"
    capsys.readouterr()
    for line in ("status --for= --for Ben", "status --for Ann --for Ben"):
        said = Said()
        sessions.answer(path, session.load_known(path), line, said)
        (player, text), = said.secrets
        assert player == "Ben" and "Ben: 13 card(s); known: " in text, line
        assert "known: " not in capsys.readouterr().out + "\n".join(said.lines)


def test_no_standard_input_at_all_is_the_end_of_input(cli, monkeypatch):
    """`referee table <&-`: Python has no sys.stdin; the session opens and ends, exit 0."""
    cli("new", "kings-ear", *KE_PLAYERS)
    monkeypatch.setattr("sys.stdin", None)
    result = cli("table")
    assert result.status == 0, result.err
    assert "0 event(s) in game.toml" in result.out and result.err == ""


def test_correct_runs_in_the_session_and_the_session_follows_the_log_it_wrote(typed):
    """`correct` is the command `referee correct` (it used to be refused as a bad move: "a move
    takes --as NAME and --note TEXT, not --why"); the next move is recorded after it, with no
    "changed by another command", and a reveal's refusal names the line to type here."""
    typed.cli("new", "kings-ear", *KE_PLAYERS)
    result = typed("draw PA3", "place Stag", "correct 2 place Boar --why misplaced --by Dan",
                   "draw HR4", "correct 1 draw Pig Army 2 --why typo --by Dan", "correct 1")
    said = result.out.splitlines()
    at = said.index("Ben · draw or trade > correct 2 place Boar --why misplaced --by Dan")
    assert said[at + 1:at + 5] == [
        "Corrected event 2: now Ann: place Boar (was Ann: place Stag)",
        "Every later event replays; the original stays in the log (2 event(s) now).",
        "Next: Ben - draw or trade",
        "Ben · draw or trade > draw HR4"]
    assert said[at + 5] == "Ben: draw Horse Religion 4"
    assert "changed by another command" not in result.out
    assert "referee: event 1 (draw) revealed hidden information that everyone has now seen; " \
        "`correct 1 draw Pig Army 2 --why typo --by Dan --force` corrects it anyway" in said
    assert "Error: Missing option '--why'." in said  # the command's own word on its options
    assert "not a move" not in result.out and "--note TEXT" not in result.out
    history = typed.cli("history").out
    assert "place Boar   [corrected (1)]" in history and "draw Horse Religion 4" in history


def test_a_command_of_the_shell_is_not_a_session_line_and_says_how_to_run_it(typed):
    """`new`, `export`... and a move typed after `play` are refused as what they are, not as
    moves that break a rule; a game whose move is named `play` (Dwarf King) keeps it."""
    typed.cli("new", "kings-ear", *KE_PLAYERS)
    before = (typed.cli.path / "game.toml").read_bytes()
    result = typed("new kings-ear -p Ann", "export", "play draw PA3", "status --log other.toml",
                   "play")
    assert result.out.splitlines()[3:12] == [
        "referee: 'new' is not a session line: type `quit`, then `referee new ...` at the shell",
        "Ann · draw or trade > export",
        "referee: 'export' is not a session line: type `quit`, then `referee export ...` at the "
        "shell",
        "Ann · draw or trade > play draw PA3",
        "referee: 'play' is not needed in the session: type the move itself (`draw PA3`)",
        "Ann · draw or trade > status --log other.toml",
        "referee: the session's log is game.toml: a line takes no --log",
        "Ann · draw or trade > play",
        "referee: 'play' is not needed in the session: type the move itself (`MOVE`)"]
    assert (typed.cli.path / "game.toml").read_bytes() == before and result.status == 2
    typed.cli("--log", "dk.toml", "new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat")
    dwarf = typed("play K5", log="dk.toml")
    assert "not needed in the session" not in dwarf.out and "referee: " in dwarf.out


def test_every_command_of_referee_is_a_session_line_or_said_to_be_the_shell_s():
    from referee.cli import app

    names = {c.name or c.callback.__name__ for c in app.registered_commands}  # type: ignore
    session_lines = {*sessions.READS, *sessions.WRITES, "undo"}
    assert names == session_lines | set(sessions.ELSEWHERE) | {"play"}
    assert not session_lines & set(sessions.ELSEWHERE)


def test_help_fits_80_columns():
    assert max(map(len, sessions.HELP.splitlines())) <= 80, sessions.HELP


def test_a_player_whose_name_reads_like_a_hint_is_named_as_written(typed):
    """The session names its own lines in messages (`undo --force`, not `referee undo --force`),
    but a player named like a hint keeps their name: it used to become "it is not `score's
    turn" and "Next: `score - ..." for a player named "`referee score"."""
    typed.cli("new", "kings-ear", "-p", "Ann", "-p", "`referee score", "-p", "Cat")
    result = typed("draw PA3", "place Stag --as '`referee score'", "place Stag", "draw HR4",
                   "correct 2 place Boar --why misplaced --by Ann", "undo")
    assert "referee: it is not `referee score's turn: Ann must act" in result.out
    assert "Next: `referee score - place or trade the drawn Horse Religion 4" in result.out
    assert "use `undo --force` to retract it anyway" in result.out
    assert "`score" not in result.out.replace("`referee score", "")


def test_a_line_typed_as_at_the_shell_is_answered_with_the_line_to_type_here(typed):
    """`referee undo`, as `status` of a stopped game or the README words it, typed in the
    session: refused with what to type here (it was refused as "'referee' ... is not a card"),
    the log untouched."""
    typed.cli("new", "kings-ear", *KE_PLAYERS)
    before = (typed.cli.path / "game.toml").read_bytes()
    result = typed("referee undo --force", "referee play draw PA3", "referee new kings-ear",
                   "referee correct 1 place Boar --why 'a typo' --by Ann", "referee")
    assert result.out.splitlines()[3:12:2] == [
        "referee: 'referee' is not needed in the session: type `undo --force`",
        "referee: 'play' is not needed in the session: type the move itself (`draw PA3`)",
        "referee: 'new' is not a session line: type `quit`, then `referee new ...` at the shell",
        "referee: 'referee' is not needed in the session: type `correct 1 place Boar --why "
        "'a typo' --by Ann`",
        "referee: 'referee' is not needed in the session: type the command itself (`help` lists "
        "them)"]
    assert (typed.cli.path / "game.toml").read_bytes() == before and result.status == 2


def test_a_usage_error_of_a_session_command_names_the_line_to_type_here(typed):
    """L11: `correct 1` without --why said "Usage: referee correct ... Try 'referee correct
    -h'": in the session the line is `correct -h`."""
    typed.cli("new", "kings-ear", *KE_PLAYERS)
    result = typed("correct 1", "status --bogus", "correct -h")
    assert "Usage: correct [OPTIONS] {N} [move]..." in result.out
    assert "Try 'correct -h' for help." in result.out and "Try 'status -h' for help." in result.out
    assert "referee correct" not in result.out and "referee status" not in result.out
    assert "Fix an earlier event" in result.out  # `correct -h` works as it says
