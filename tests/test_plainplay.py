"""A plain `referee play` runs without Typer (referee.plainplay): it must read every command line
it takes exactly as Typer reads it, leave every other one to Typer, and print, refuse and record
exactly what the full command line does."""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import cli, console, plainplay
from referee import log as logfile
from referee import replay
from referee.cliexit import hoist_log
from referee.engine import load_game
from referee.evolve import evolve
from referee.simulate import default_players, play_out, to_log
from tests.conftest import env_without_log

NOISE = ["play", "--log", "-l", "--as", "--note", "--json", "--as=Ann", "--log=x.toml", "-lx",
         "--", "-", "-3", "--help", "-h", "--no-pager", "--version", "status", "", "--jso"]
VALUES = ["Ann", "x.toml", "late move", "play"]
PARTS = st.one_of(
    st.sampled_from(["D4", "draw", "Pig Army 3", "end", "time", "Ann", "x.toml"]).map(
        lambda word: [word]),
    st.tuples(st.sampled_from(["--as", "--note", "--log", "-l"]), st.sampled_from(VALUES)).map(
        list),
    st.just(["--json"]),
)


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """Mostly `play` lines as a table types them (`--log` before or after), some of them
    spoiled by a word that no plain play has."""
    front = draw(st.sampled_from([[], ["--log", "g.toml"], ["-l", "g.toml"]]))
    words = ["play"] + [word for part in draw(st.lists(PARTS, max_size=6)) for word in part]
    if draw(st.integers(0, 3)) == 0:
        words.insert(draw(st.integers(0, len(words))), draw(st.sampled_from(NOISE)))
    return front + words


def typer_reads(args: list[str]) -> plainplay.PlainPlay | None:
    """What the full command line's `play` is given for `args`, or None when it runs no play."""
    seen: list[plainplay.PlainPlay] = []
    with mock.patch.object(plainplay, "play_move", seen.append):
        try:
            cli._app_for(args)(args=args, prog_name="referee", standalone_mode=False)
        except Exception:  # noqa: BLE001 - a usage error: no play was run
            return None
    return seen[0] if seen else None


@settings(max_examples=400, deadline=None)
@given(command_lines(), st.sampled_from([None, "", "env.toml"]))
def test_every_line_it_takes_typer_reads_the_same(words, log_variable):
    args = hoist_log(words)
    environ = env_without_log() | ({} if log_variable is None else {"REFEREE_LOG": log_variable})
    recognised = plainplay.recognise(args, environ)
    if recognised is None:
        return
    with mock.patch.dict(os.environ, environ, clear=True):
        assert typer_reads(args) == recognised


@pytest.mark.parametrize("line, wanted", [
    ("play D4", ("game.toml", ("D4",), None, None, False)),
    ("--log g.toml play draw Pig Army 3 --as Ann --note late --json",
     ("g.toml", ("draw", "Pig", "Army", "3"), "Ann", "late", True)),
    ("play --as Ann D4 --log g.toml", ("g.toml", ("D4",), "Ann", None, False)),
    ("-l g.toml play end time", ("g.toml", ("end", "time"), None, None, False)),
    ("play D4 REFEREE_LOG=env.toml", ("env.toml", ("D4",), None, None, False)),
    ("play D4 REFEREE_LOG=", ("game.toml", ("D4",), None, None, False)),  # empty: unset
])
def test_the_plain_lines_it_takes(line, wanted):
    log, move, as_name, note, as_json = wanted
    words = line.split()
    environ = dict(word.split("=") for word in words if word.startswith("REFEREE_LOG="))
    args = hoist_log([word for word in words if not word.startswith("REFEREE_LOG=")])
    assert plainplay.recognise(args, environ) == plainplay.PlainPlay(Path(log), move, as_name,
                                                                     note, as_json)
    with mock.patch.dict(os.environ, env_without_log() | environ, clear=True):
        assert typer_reads(args) == plainplay.recognise(args, environ)


@pytest.mark.parametrize("line", [
    "play", "play --json", "play --help", "play -h D4", "play D4 --as=Ann", "play D4 --as",
    "play D4 --as --json", "play D4 --as Ann --as Ben", "play D4 --json --json", "play -- D4",
    "play D4 -3", "play D4 -", "--log=g.toml play D4", "-lg.toml play D4", "--no-pager play D4",
    "status", "--version", "", "options play", "play D4 --note", "play D4 --as ''",
])
def test_every_other_line_goes_to_typer(line):
    args = hoist_log([word.replace("''", "") for word in line.split()])
    assert plainplay.recognise(args, {}) is None


def test_a_shell_asking_for_completions_is_no_play():
    assert plainplay.recognise(["play", "D4"], {"_REFEREE_COMPLETE": "complete_bash"}) is None
    assert plainplay.recognise(["play", "D4"], {"REFEREE_LOG": "g.toml"}).log == Path("g.toml")


# --------------------------------------------------------------------------------------------
# The same bytes as the full command line


FULL = [sys.executable, "-c", "from referee.cli import run; run()"]
ENTRY = [sys.executable, "-m", "referee"]


def before_its_last_move(game_id: str, folder: Path) -> tuple[Path, list[str]]:
    """A simulated game's log without its last move, and that move's words (with `--as`)."""
    game = load_game(game_id)
    playout = play_out(game, 3, default_players(game, None))
    log = to_log(game, playout)
    path = folder / f"{game_id}.toml"
    path.write_text(logfile.dumps(evolve(log, entries=log.entries[:-1])))
    state = replay.replay_log(logfile.read(path))[1]
    last = playout.events[-1]
    return path, game.format(state, last).split() + (["--as", last.by] if last.by else [])


def both(folder: Path, path: Path, args: list[str], original: bytes | None) -> list[tuple]:
    """(status, stdout, stderr, the log's bytes after) by the entry point and by referee.cli;
    each starts from the log's bytes `original`; the time a move was made at is masked."""
    env = {**env_without_log(), "REFEREE_LOCK_TIMEOUT": "5", "REFEREE_CACHE": "0"}
    results = []
    for command in (ENTRY, FULL):
        if original is not None:
            path.write_bytes(original)
        done = subprocess.run(command + args, capture_output=True, cwd=folder, env=env,
                              stdin=subprocess.DEVNULL)
        after = path.read_bytes() if path.exists() else None
        results.append((done.returncode, done.stdout, done.stderr,
                        after and re.sub(rb"(?m)^at = .*$", b"at = (when)", after)))
    return results


@pytest.mark.parametrize("game_id", ["kings-ear", "king-of-the-valley", "dwarf-king",
                                     "king-of-the-castle", "kingmaker"])
def test_a_plain_play_prints_refuses_and_records_as_the_full_command_line(tmp_path, game_id):
    path, move = before_its_last_move(game_id, tmp_path)
    original = path.read_bytes()
    lines = {
        "the move": ["--log", path.name, "play", *move],
        "as json, with a note": ["play", *move, "--json", "--note", "last one", "--log", path.name],
        "a move no rule allows": ["--log", path.name, "play", "fly", "to", "the", "moon"],
        "the wrong player": ["--log", path.name, "play", *move[:-2], "--as", "Nobody"]
        if "--as" in move else ["--log", path.name, "play", *move, "--as", "Nobody"],
        "refused, as json": ["--log", path.name, "play", "fly", "--json"],
        "no such log": ["--log", "none.toml", "play", *move],
    }
    for what, args in lines.items():
        entry, full = both(tmp_path, path, args, original)
        assert entry == full, what
        assert b"Traceback" not in entry[2], what
    entry, _ = both(tmp_path, path, lines["the move"], original)
    assert entry[0] == 0 and len(entry[3]) > len(original)  # recorded
    refused, _ = both(tmp_path, path, lines["a move no rule allows"], original)
    assert refused[0] == 1 and refused[3] == original  # refused: the log untouched
    assert both(tmp_path, path, lines["no such log"], original)[0][0] == 66


def test_a_malformed_log_and_bytes_that_are_not_text_end_alike(tmp_path):
    path = tmp_path / "game.toml"
    entry, full = both(tmp_path, path, ["play", "D4"], b"game = [\n")
    assert entry == full and entry[0] == 65
    hostile = os.fsdecode(b"D\xff4")
    entry, full = both(tmp_path, path, ["play", hostile], b'game = "dwarf-king"\n')
    assert entry == full and entry[0] == 2 and b"not valid UTF-8" in entry[2]


def test_a_plain_play_never_loads_typer(tmp_path):
    path, move = before_its_last_move("kingmaker", tmp_path)
    probe = ("import sys, referee.console as entry, referee.cliexit as ending\n"
             "def report(main):\n"
             "    try:\n"
             "        main()\n"
             "    except SystemExit as done:\n"
             "        print(done.code, sorted(m for m in sys.modules if 'typer' in m"
             " or 'click' in m), file=sys.stderr)\n"
             "ending.leave = report\nentry.run()\n")
    for args, loads in ((["--log", path.name, "play", *move], False),
                        (["--log", path.name, "status"], True)):
        done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True,
                              text=True, cwd=tmp_path, env=env_without_log())
        status, _, modules = done.stderr.strip().splitlines()[-1].partition(" ")
        assert status == "0", done.stderr
        assert (modules != "[]") == loads, (args, modules)


# --------------------------------------------------------------------------------------------
# Whatever a move raises, the same end as Typer's (typer.core._main turns Ctrl-C into a silent
# 130, end of input into a blank line and an abort, a reader gone from a pipe into status 1)


@pytest.mark.parametrize("raised", [
    KeyboardInterrupt, EOFError, lambda: BrokenPipeError(errno.EPIPE, "Broken pipe"),
    lambda: OSError(errno.EPIPE, "Broken pipe"), lambda: OSError(errno.EIO, "I/O error"),
    lambda: ValueError("a bug"),
], ids=["ctrl-c", "eof", "broken-pipe", "epipe", "eio", "bug"])
def test_whatever_a_move_raises_it_ends_as_typer_ends_it(raised, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_DEBUG", raising=False)
    monkeypatch.setattr(sys, "stdout", sys.stdout)  # Typer may wrap both on a broken pipe
    monkeypatch.setattr(sys, "stderr", sys.stderr)

    def ends(main) -> tuple:
        capsys.readouterr()
        with mock.patch("referee.session.play", side_effect=raised()), \
                pytest.raises(SystemExit) as done:
            main(["play", "D4"])
        return done.value.code, *capsys.readouterr()

    assert plainplay.recognise(["play", "D4"], env_without_log()) is not None
    plain, full = ends(console.main), ends(cli.main)
    assert plain == full
    assert full[0] in (1, 70, 130) and "Traceback" not in full[2]


def test_a_stream_python_takes_for_ascii_gets_utf8_as_click_wrote_it(tmp_path):
    """Standard output and error that Python encodes as ASCII (PYTHONIOENCODING=ascii, a C
    locale without UTF-8 mode): click.echo wrote UTF-8 to them all the same (its 'misconfigured
    stream'), and so does clitext.write, on the plain path and the full one alike."""
    env = {**env_without_log(), "PYTHONIOENCODING": "ascii", "REFEREE_CACHE": "0"}

    def run(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(ENTRY + list(args), capture_output=True, cwd=tmp_path, env=env,
                              stdin=subprocess.DEVNULL)

    made = run("new", "kings-ear", "--player", "\u00c5sa:Horse", "--player", "Ben:Pig")
    assert made.returncode == 0 and "\u00c5sa (Horse)".encode() in made.stdout, made
    refused = run("play", "fl\u00e9\u2014")
    assert refused.returncode == 1
    assert "'fl\u00e9\u2014' is not a move".encode() in refused.stderr, refused.stderr
    as_json = run("play", "D\u00e9", "--json", "--note", "\u00e9")
    assert as_json.returncode == 1 and "'D\u00e9'".encode() in as_json.stderr, as_json.stderr
