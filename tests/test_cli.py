"""The command line through its real entry point: every command, every exit status."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee import log as logfile
from referee.cli import main
from referee.cliexit import hoist_log
from tests.conftest import EXAMPLES, GOLDEN, env_without_log


def test_help_lists_every_command(cli):
    result = cli("--help")
    assert result.status == 0
    for command in ("games", "rules", "new", "play", "options", "status", "score", "history",
                    "undo", "scoresheet", "check", "simulate", "demo"):
        assert command in result.out
    assert cli().status in (0, 2)  # no arguments: the help


def test_version(cli):
    assert cli("--version").out.strip().startswith("referee ")


def test_games_and_rules(cli):
    result = cli("games")
    assert result.status == 0 and "kings-ear" in result.out and "2-4 players" in result.out
    data = json.loads(cli("games", "--json").out)
    assert data[0]["id"] == "kings-ear" and data[0]["players"] == [2, 4]
    rules = cli("rules", "kings-ear")
    assert "R-8" in rules.out and "trade HOUSE give CARDS take CARDS" in rules.out
    data = json.loads(cli("rules", "kings-ear", "--json").out)
    assert data["options"][0]["name"] == "houses" and data["events"]["draw"]["reveal"] is True


def test_unknown_game_is_a_usage_error(cli):
    result = cli("rules", "kings-eer")
    assert result.status == 2 and "unknown game 'kings-eer'" in result.err
    assert "did you mean kings-ear" in result.err
    assert "Traceback" not in result.err


def test_a_session_at_the_table(ke_game):
    cli = ke_game
    result = cli("play", "draw", "Pig", "Army", "3")
    assert result.status == 0
    assert "Ann: draw Pig Army 3" in result.out
    assert "Next: Ann - place or trade the drawn Pig Army 3" in result.out
    options = cli("options")
    assert options.out.splitlines()[1:] == ["  place Stag", "  place Boar"]
    assert cli("play", "place", "Stag").status == 0
    result = cli("play", "draw", "BF2")
    assert "Ben: draw Boar Farming 2" in result.out
    assert cli("play", "place", "horse").status == 0
    status = cli("status")
    assert "BF2" in status.out and "To act: Cat - draw or trade" in status.out
    history = cli("history")
    assert [line.split(None, 2)[2] for line in history.out.splitlines()] == [
        "draw Pig Army 3", "place Stag", "draw Boar Farming 2", "place Horse"]
    score = json.loads(cli("score", "--json").out)
    assert set(score) == {"game", "finished", "winners", "players", "outcome"}
    ann = score["players"][0]
    assert ann["name"] == "Ann" and ann["seat"] == "Horse" and ann["total"] == 0
    assert ann["categories"] == {"Religion": 0, "Army": 0, "Trade": 0, "Farming": -2}
    assert cli("score").status == 0


def test_a_rejected_move_names_the_rule_and_leaves_the_log_untouched(ke_game):
    cli = ke_game
    cli("play", "draw", "PA3")
    before = (cli.path / "game.toml").read_bytes()
    result = cli("play", "place", "Horse")
    assert result.status == 1
    assert "cannot be placed under your own House Horse" in result.err
    assert "rule: Turn (1b)" in result.err and "closest legal moves: place" in result.err
    assert (cli.path / "game.toml").read_bytes() == before
    result = cli("play", "fly", "away")
    assert result.status == 1 and "'fly'" in result.err
    assert (cli.path / "game.toml").read_bytes() == before


def test_play_json_and_notes_and_as(ke_game):
    cli = ke_game
    data = json.loads(cli("play", "draw", "HA4", "--json", "--note", "lucky").out)
    assert data["move"] == "draw Horse Army 4" and data["next"]["players"] == ["Ben"]
    assert 'note = "lucky"' in (cli.path / "game.toml").read_text()
    result = cli("play", "draw", "PA1", "--as", "cat")
    assert result.status == 1 and "not Cat's turn" in result.err
    assert cli("play", "draw", "PA1", "--as", "Zed").status == 2
    assert cli("play", "draw", "PA1", "--as", "be").status == 2  # two letters name nobody
    assert cli("play", "draw", "PA1", "--as", "BEN").status == 0


def test_options_for_another_player_prefix_and_json(ke_game):
    cli = ke_game
    assert "Ben has no move now" in cli("options", "--for", "Ben").out
    data = json.loads(cli("options", "--json").out)
    assert data["to_act"] == ["Ann"] and len(data["moves"]) == 64
    assert data["lines"][0].startswith("draw CARD")
    assert cli("options", "place").out.splitlines()[1:] == []


def test_options_fold_long_lists(cli, tmp_path):
    from referee.clitext import fold as _fold

    lines = [f"trade Pig give X{i} take Y" for i in range(50)] + ["trade Stag give A take B"]
    folded = _fold(lines)
    assert folded[0].startswith("trade Pig ...   (50 moves") and folded[1] == lines[-1]


def test_undo_and_force(ke_game):
    cli = ke_game
    cli("play", "draw", "PA3")
    cli("play", "place", "Stag")
    result = cli("undo")
    assert result.status == 0 and "Retracted event 2: place Stag" in result.out
    result = cli("undo")
    assert result.status == 1 and "--force" in result.err
    assert cli("undo", "--force").status == 0
    assert cli("undo").status == 2  # nothing left
    text = (cli.path / "game.toml").read_text()
    assert text.count("[[retracted]]") == 2 and "[[events]]" not in text


def test_game_over_refuses_more_moves(cli):
    cli("new", "kings-ear", "-p", "Ann", "-p", "Ben")
    cli("play", "end", "time", "is", "up")
    result = cli("play", "draw", "PA3")
    assert result.status == 1 and "the game is over" in result.err
    assert "The game is over" in cli("options").out
    assert "Game over" in cli("status").out


def test_new_refuses_to_overwrite_and_checks_players(cli):
    assert cli("new", "kings-ear", "-p", "Ann").status == 2  # too few players
    assert cli("new", "kings-ear", "-p", "Ann:Horse", "-p", "Ben:Horse").status == 2
    assert cli("new", "kings-ear", "-p", "Ann", "-p", "ann").status == 2
    assert cli("new", "kings-ear", "-p", "Ann", "-p", "Ben", "-o", "colour=red").status == 2
    assert cli("new", "kings-ear", "-p", "Ann", "-p", "Ben", "-o", "houses").status == 2
    assert cli("new", "kings-ear", "-p", "Ann", "-p", "Ben").status == 0
    result = cli("new", "kings-ear", "-p", "Ann", "-p", "Ben")
    assert result.status == 65 and "already exists" in result.err


def test_new_with_options_and_shuffle(cli):
    result = cli("new", "kings-ear", "-p", "Ann:Wolf", "-p", "Ben", "-o",
                 "houses=Wolf,Eagle,Lion,Bear", "--shuffle", "--seed", "7")
    assert result.status == 0 and "seed 7" in result.out and "Ben (Eagle)" in result.out
    result = cli("play", "draw")
    assert result.status == 0 and result.out.startswith("Ann: draw ")
    assert cli("--log", "other.toml", "new", "kings-ear", "-p", "A", "-p", "B",
               "--shuffle").status == 0
    assert "seed = " in (cli.path / "other.toml").read_text()


def test_log_option_and_environment(cli, monkeypatch):
    assert cli("--log", "x.toml", "new", "kings-ear", "-p", "Ann", "-p", "Ben").status == 0
    monkeypatch.setenv("REFEREE_LOG", str(cli.path / "x.toml"))
    assert "Ann" in cli("status").out


def test_missing_and_malformed_logs(cli):
    result = cli("status")
    assert result.status == 66 and "no such log" in result.err
    (cli.path / "game.toml").write_text("this is not toml = = =")
    result = cli("status")
    assert result.status == 65 and "not valid TOML" in result.err
    assert cli("play", "pass").status == 65


def test_a_hand_edited_illegal_event_is_reported_and_can_be_undone(ke_game):
    cli = ke_game
    cli("play", "draw", "PA3")
    path = cli.path / "game.toml"
    path.write_text(path.read_text().replace('card = "Pig Army 3"', 'card = "Horse Army 9"'))
    result = cli("status")  # a rule finding, as `check` reports it: the file reads as a log
    assert result.status == 1 and "event 1 (draw) is illegal" in result.err
    assert "hint: `referee undo --force` takes event 1 back" in result.err
    assert cli("undo", "--force").status == 0
    assert cli("status").status == 0


def test_busy_log_exits_75(ke_game):
    path = ke_game.path / "game.toml"
    with logfile.locked(path):
        result = ke_game("play", "draw", "PA3")
    assert result.status == 75 and "busy" in result.err


def test_internal_errors_are_reported_as_bugs(ke_game, monkeypatch):
    from referee import session

    def broken(*args, **kwargs):
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(session, "load", broken)
    result = ke_game("status")
    assert result.status == 70 and "this is a bug in referee" in result.err
    assert "Traceback" not in result.err


def test_scoresheet_formats_blank_and_output(cli):
    cli("new", "kings-ear", "-p", "Ann", "-p", "Ben")
    for fmt in ("text", "markdown", "html", "csv", "json"):
        result = cli("scoresheet", "--format", fmt)
        assert result.status == 0 and "Ann" in result.out
    assert cli("scoresheet", "--format", "pdf").status == 2
    blank = cli("scoresheet", "--blank", "kings-ear", "--format", "markdown")
    assert "| Player" in blank.out and "Ann" not in blank.out
    assert cli("scoresheet", "-f", "html", "-O", "sheet.html").status == 0
    assert (cli.path / "sheet.html").read_text().startswith("<!DOCTYPE html>")


def test_simulate(cli):
    result = cli("simulate", "kings-ear", "--games", "3", "--seed", "7")
    assert result.status == 0 and "3 kings-ear game(s), seed 7: 3 finished" in result.out
    data = json.loads(cli("simulate", "kings-ear", "-n", "2", "--json", "--save", "logs").out)
    assert data["games"] == 2 and data["finished"] == 2
    assert sorted(p.name for p in (cli.path / "logs").iterdir()) == [
        "kings-ear-00001.toml", "kings-ear-00002.toml"]
    assert cli("check", *(cli.path / "logs").iterdir()).status == 0


def test_demo_replays_the_bundled_game(cli):
    result = cli("demo")
    assert result.status == 0
    assert "a bundled example game" in result.out and "won the King's ear" in result.out
    assert cli("demo", "nope").status == 2


def test_control_characters_from_a_log_are_neutralised(cli):
    cli("new", "kings-ear", "-p", "Ann", "-p", "Ben")
    path = cli.path / "game.toml"
    path.write_text(path.read_text().replace('name = "Ann"', 'name = "A\\u001b[31mnn"'))
    cli("play", "draw", "PA3", "--as", "A")  # prefix still finds the player
    for command in ("status", "history", "score"):
        assert "\x1b" not in cli(command).out


def test_shell_completion_is_available():
    result = subprocess.run(
        [sys.executable, "-m", "referee", "--show-completion", "bash"],
        capture_output=True, text=True, env={**env_without_log(), "SHELL": "/bin/bash"})
    assert result.returncode == 0 and "_REFEREE_COMPLETE" in result.stdout


def test_console_script_and_python_m(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["rules", "kingmaker"])
    whole = capsys.readouterr().out
    assert len(whole) > 20_000
    env = env_without_log()
    script = Path(sys.executable).with_name("referee")
    commands = [[sys.executable, "-m", "referee", "games"]]
    if script.exists():
        commands.append([str(script), "games"])
    for command in commands:
        result = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=env)
        assert result.returncode == 0 and "kings-ear" in result.stdout
        # the command leaves without Python's teardown: its status and its words still arrive
        missing = subprocess.run(command[:-1] + ["--log", "none.toml", "play", "draw"],
                                 capture_output=True, text=True, cwd=tmp_path, env=env)
        assert missing.returncode == 66 and "none.toml: no such log" in missing.stderr
        rules = subprocess.run(command[:-1] + ["rules", "kingmaker"], capture_output=True,
                               text=True, cwd=tmp_path, env=env)
        assert rules.returncode == 0 and rules.stdout == whole  # flushed to its last line



def test_the_command_defers_garbage_collection_and_the_library_does_not():
    """`referee` (referee.console.run) raises the collector's first threshold before it goes
    on; importing referee.cli or referee.console, as the tests and other programs do, changes
    nothing."""
    def run(code: str) -> str:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True).stdout.strip()

    default = int(run("import gc; print(gc.get_threshold()[0])"))
    imported = run("import gc, referee.cli, referee.console; print(gc.get_threshold()[0])")
    running = run("import gc, referee.console as entry, referee.cliexit as ending\n"
                  "ending.leave = lambda main: print(gc.get_threshold()[0])\nentry.run()")
    assert int(imported) == default < 100_000 == int(running)


def test_two_writers_never_lose_a_move(tmp_path):
    """Two terminals record moves at the same time: every accepted move is in the log."""
    env = {**env_without_log(), "REFEREE_LOCK_TIMEOUT": "10"}
    run = [sys.executable, "-m", "referee", "--log", str(tmp_path / "g.toml")]
    subprocess.run(run + ["new", "kings-ear", "-p", "Ann", "-p", "Ben"], check=True, env=env,
                   capture_output=True)
    moves = [["play", "draw", "HA4"], ["play", "draw", "PA4", "--as", "Ben"],
             ["play", "draw", "HA3", "--as", "Ann"], ["play", "draw", "PA3", "--as", "Ben"]]
    procs = [subprocess.Popen(run + m, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for m in moves]
    codes = [p.wait() for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    assert set(codes) <= {0, 1}
    log = logfile.read(tmp_path / "g.toml")
    assert len(log.entries) == codes.count(0) >= 1


def test_check_bundled_examples_and_goldens(cli):
    logs = sorted(GOLDEN.glob("kings-ear/*.toml")) + [EXAMPLES / "kings-ear.toml"]
    assert cli("check", *logs).status == 0


def test_a_player_move_while_the_table_must_act(ke_game, monkeypatch):
    from referee.engine import ToAct
    from referee.games.kings_ear import KingsEar

    monkeypatch.setattr(KingsEar, "to_act", lambda self, state: ToAct((), "reveal", table=True))
    result = ke_game("play", "draw", "PA3")
    assert result.status == 1 and "the table must act now (reveal)" in result.err
    monkeypatch.setattr(KingsEar, "to_act", lambda self, state: ToAct(("Ann", "Ben"), "bid"))
    result = ke_game("play", "draw", "PA3")
    assert result.status == 2 and "say who with --as NAME" in result.err


def test_games_without_a_components_file_refuse_one(cli):
    result = cli("components", "kings-ear")
    assert result.status == 2 and "no components file" in result.err
    (cli.path / "box.toml").write_text("format = 'x'\n")
    result = cli("new", "kings-ear", "-p", "Ann", "-p", "Ben", "--components", "box.toml")
    assert result.status == 2 and "no components file" in result.err
    assert not (cli.path / "game.toml").exists()
    result = cli("new", "kings-ear", "-p", "Ann", "-p", "Ben", "--components", "nowhere.toml")
    assert result.status == 2 and "nowhere.toml: no such file" in result.err


def test_no_winner_without_a_house_at_10_in_json_and_simulate(cli):
    """The King's Ear game stopped or ended by passes has no winner in score --json, in
    scoresheet --format json and in export, and simulate does not count it as a win."""
    golden = GOLDEN / "kings-ear" / "two-player-no-winner.toml"
    score = json.loads(cli("--log", golden, "score", "--json").out)
    assert score["finished"] and score["winners"] == []
    assert [p["place"] for p in score["players"] if p["name"]] == [1, 2]
    sheet = json.loads(cli("--log", golden, "scoresheet", "--format", "json").out)
    assert sheet["winners"] == [] and sheet["players"][0]["place"] == 1
    play = json.loads(cli("--log", golden, "export").out)
    assert not any(p["winner"] for p in play["players"])
    from referee.simulate import simulate

    summary = simulate("kings-ear", 60, 1, players=2)  # game 56 ends in a round of passes
    ended = [p for p in _kings_ear_playouts(60, 1, 2) if p.state.winner is None]
    assert ended and sum(summary.winners.values()) == 60 - len(ended)


def _kings_ear_playouts(count, seed, players):
    """The games `simulate kings-ear --games COUNT --seed SEED --players N` plays."""
    import random

    from referee.engine import load_game
    from referee.simulate import default_players, play_out

    game = load_game("kings-ear")
    master = random.Random(seed)
    seated = default_players(game, players)
    return [play_out(game, master.randrange(2**31), seated) for _ in range(count)]


class _ClosedPipe(io.RawIOBase):
    """Standard output whose reader has gone away, like `referee history | head -1`."""

    def writable(self):
        return True

    def write(self, data):
        raise BrokenPipeError(32, "Broken pipe")


def test_a_closed_pipe_ends_the_command_quietly(cli, monkeypatch, capsys):
    log = GOLDEN / "dwarf-king" / "three-player.toml"
    with capsys.disabled():
        monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BufferedWriter(_ClosedPipe()),
                                                            encoding="utf-8"))
        monkeypatch.setattr(os, "dup2", lambda fd, fd2: None)  # stdout is no real file here
        for args in (("history",), ("history", "--json"), ("options", "--all"), ("status",)):
            with pytest.raises(SystemExit) as stop:
                main(["--log", str(log), *args])
            assert stop.value.code == 0, args


def test_log_may_follow_the_command(ke_game):
    cli = ke_game
    (cli.path / "game.toml").rename(cli.path / "other.toml")
    for args in (("history", "--log", "other.toml"), ("status", "-l", "other.toml"),
                 ("play", "draw", "PA3", "--log", "other.toml"),
                 ("options", "--log=other.toml")):
        result = cli(*args)
        assert result.status == 0, (args, result.err)
    assert not (cli.path / "game.toml").exists()
    assert "draw Pig Army 3" in cli("history", "--log", "other.toml").out
    assert hoist_log(["play", "--note", "x", "--", "--log", "y"]) == [
        "play", "--note", "x", "--", "--log", "y"]
    assert hoist_log(["-l", "a", "history", "-l"]) == ["-l", "a", "history", "-l"]


def test_errors_are_json_on_stderr_with_json(ke_game):
    cli = ke_game
    missing = cli("status", "--json", "--log", "nothing.toml")
    assert missing.status == 66 and missing.out == ""
    error = json.loads(missing.err)["error"]
    assert error["code"] == "log-missing" and error["status"] == 66
    rejected = cli("play", "place", "Stag", "--json")
    error = json.loads(rejected.err)["error"]
    assert rejected.status == 1 and error["code"] == "no-pending" and error["rule"] == "Turn (1b)"
    assert "draw or trade" in error["message"] and isinstance(error["suggestions"], list)
    usage = cli("score", "--json", "--bogus")
    assert usage.status == 2 and json.loads(usage.err)["error"]["code"] == "usage"
    bad_log = cli.path / "bad.toml"
    bad_log.write_text("format = 1\n")
    error = json.loads(cli("history", "--json", "--log", bad_log).err)["error"]
    assert error["status"] == 65 and "line" in error
    assert cli("play", "place", "Stag").err.startswith("referee: ")  # words without --json


def test_new_and_undo_speak_json(cli):
    made = cli("new", "kings-ear", "-p", "Ann:Horse", "-p", "Ben", "--json")
    data = json.loads(made.out)
    assert made.status == 0 and data["game"] == "kings-ear" and data["log"] == "game.toml"
    assert data["players"] == [{"name": "Ann", "seat": "Horse"}, {"name": "Ben", "seat": "Pig"}]
    assert data["next"] == {"players": ["Ann"], "phase": "turn", "prompt": "draw or trade",
                            "table": False}
    cli("play", "draw", "PA3")
    undone = json.loads(cli("undo", "--force", "--json").out)
    assert undone["retracted"]["seq"] == 1 and undone["retracted"]["move"] == "draw Pig Army 3"
    assert undone["retracted"]["event"] == {"by": "Ann", "type": "draw", "card": "Pig Army 3"}
    assert undone["events"] == 0 and undone["next"]["players"] == ["Ann"]


def test_status_and_history_fold_long_lines_at_80_columns(cli, monkeypatch):
    """A long list goes on below its own column, whole words only (tmux at 80 columns)."""
    from referee.clitext import folded

    row = "  Neville       380  near:Harlech           " + ", ".join(["Earl of Warwick"] * 6)
    lines = folded(row, 80).splitlines()
    assert len(lines) > 1 and all(len(line) <= 80 for line in lines)
    assert all(line.startswith(" " * 44) and line[44] != " " for line in lines[1:])
    assert " ".join(folded(row, 80).split()) == " ".join(row.split())
    assert folded("short\n\n  kept as it is", 80) == "short\n\n  kept as it is"
    assert folded("x" * 90, 80) == "x" * 90  # a word longer than the line is never cut
    monkeypatch.setenv("COLUMNS", "80")
    for game in ("kingmaker", "king-of-the-castle", "king-of-the-valley"):
        log = sorted((GOLDEN / game).glob("*.toml"))[0]
        (Path.cwd() / "game.toml").write_text(log.read_text())
        for command in ("status", "history"):
            shown = cli(command).out.splitlines()
            assert shown and max(map(len, shown)) <= 80, (game, command)


def test_history_fits_a_seal_in_80_columns(cli, monkeypatch):
    """Issue 24 (11): a seal (`sha256:` and 64 hex digits) under its move's column made
    88-column lines; it moves left to end at column 80, whole."""
    from referee.clitext import folded

    seal = "sha256:" + "ab" * 32
    assert folded(f"   1  Ann        squires {seal}", 80).splitlines() == [
        "   1  Ann        squires", " " * (80 - len(seal)) + seal]
    monkeypatch.setenv("COLUMNS", "80")
    log = GOLDEN / "king-of-the-castle" / "three-player.toml"
    (Path.cwd() / "game.toml").write_text(log.read_text())
    shown = cli("history").out.splitlines()
    assert sum("sha256:" in line for line in shown) >= 3
    assert max(map(len, shown)) <= 80
