"""Output a hostile name or log can abuse: every printed byte is neutralised in one place
(referee.textsafe), CSV cells never run as formulas, Markdown cells stay cells, and look-alike
names are one player."""

from __future__ import annotations

import csv
import io
import json

import pytest

from referee import scoresheet, sheets
from referee.textsafe import clean, clean_line, json_text, name_key, unsafe
from tests.conftest import GOLDEN

# ESC + CSI, BEL, BS, the C1 CSI, a right-to-left override, an isolate, a zero-width space, DEL
HOSTILE = "Pi\x1b[31mer\x07\x08\u009b2J\u202ere\u2066\u200b\x7f"
HOSTILE_TOML = HOSTILE.encode("unicode_escape").decode("ascii").replace("\\x", "\\u00")


def assert_safe(text: str) -> None:
    bad = sorted({f"U+{ord(c):04X}" for c in text if unsafe(c) and c not in "\n\t"})
    assert not bad, f"raw unsafe characters in the output: {bad}"


def test_clean_escapes_by_category_and_keeps_ordinary_text():
    assert clean("Ann Ærø – 小明 🎲") == "Ann Ærø – 小明 🎲"
    assert clean("a\x1bb\u009bc\u202ed\u2066e\u00adf\udcffg") == \
        "a\\x1bb\\x9bc\\u202ed\\u2066e\\xadf\\udcffg"
    assert clean("two\nlines\tand a tab") == "two\nlines\tand a tab"
    assert clean_line("two\nlines\t") == "two\\nlines\\t"
    assert clean_line("\u2028\U000e0001") == "\\u2028\\U000e0001"  # a separator, a tag (Cf)
    assert clean(clean(HOSTILE)) == clean(HOSTILE)  # escaping twice changes nothing more


def test_json_text_keeps_the_data_and_shows_no_raw_character():
    data = {"name": HOSTILE, "astral": "\U000e0001", "bad": "\udcff", "plain": "Ærø"}
    text = json_text(data)
    assert_safe(text)
    assert json.loads(text) == data and "Ærø" in text


def test_look_alike_names_are_one_player(cli):
    for other in ("ann", "Ann\u200b", "An\u00adn", "\uff21\uff4e\uff4e", "Ann\u202e"):
        result = cli("new", "kings-ear", "-p", "Ann", "-p", other)
        assert result.status == 2 and "must differ" in result.err, other
    assert name_key("\u200b") == ""
    assert cli("new", "kings-ear", "-p", "A", "-p", "\u200b").status == 2
    assert cli("new", "kings-ear", "-p", "Ann", "-p", "Anne").status == 0
    result = cli("play", "draw", "PA3", "--as", "ANN\u200b")
    assert result.status == 0 and result.out.startswith("Ann: draw Pig Army 3")


@pytest.fixture
def hostile_dwarf_king(cli):
    """The golden Dwarf King game (seven hands, so a per-round table and a chart) with a first
    player whose name carries escapes, bidi controls and invisible characters."""
    text = (GOLDEN / "dwarf-king" / "three-player.toml").read_text()
    (cli.path / "game.toml").write_text(text.replace('"Pierre"', f'"{HOSTILE_TOML}"'))
    return cli


def test_a_hostile_name_reaches_no_output_raw(hostile_dwarf_king):
    cli = hostile_dwarf_king
    outputs = [cli(*args) for args in (
        ("status",), ("status", "--json"), ("score",), ("score", "--json"), ("history",),
        ("history", "--json"), ("options",), ("options", "--json"), ("check", "game.toml"),
        ("check", "game.toml", "--json"), ("undo",),
        *(("scoresheet", "-f", fmt) for fmt in sheets.RENDERERS))]
    for result in outputs:
        assert result.status in (0, 1), result.err  # undo: a reveal, refused
        assert_safe(result.out + result.err)
    score = json.loads(cli("score", "--json").out)
    assert score["players"][0]["name"] == HOSTILE  # JSON keeps the data exact
    text = cli("scoresheet").out
    assert "Pi\\x1b[31mer\\x07\\x08\\x9b2J\\u202ere\\u2066\\u200b\\x7f" in text
    assert "Hands: each player's tricks" in text and "Running totals" in text  # hands, chart


def test_the_written_scoresheet_is_neutralised_too(hostile_dwarf_king):
    cli = hostile_dwarf_king
    for fmt in sheets.RENDERERS:
        assert cli("scoresheet", "-f", fmt, "-O", f"sheet.{fmt}").status == 0
        assert_safe((cli.path / f"sheet.{fmt}").read_text(encoding="utf-8"))


def test_the_log_path_is_printed_neutralised(cli):
    path = "odd\x1b]0;title\x07\u202e.toml"
    result = cli("--log", path, "new", "kings-ear", "-p", "Ann", "-p", "Ben")
    assert result.status == 0
    assert_safe(result.out)
    assert "odd\\x1b]0;title\\x07\\u202e.toml" in result.out
    assert_safe(cli("--log", path, "status").out)
    assert_safe(cli("--log", path + "x", "status").err)  # a missing log's message too
    result = cli("check", path, path + "x", "--json")
    assert_safe(result.out + result.err)
    assert [r["file"] for r in json.loads(result.out)] == [path, path + "x"]


def test_csv_cells_never_start_a_formula(cli):
    evil = '=HYPERLINK("x","y")'
    assert cli("new", "kings-ear", "-p", evil, "-p", "+1+1", "-p", "@SUM(A1)",
               "-p", "-2+3").status == 0
    rows = list(csv.reader(io.StringIO(cli("scoresheet", "-f", "csv").out)))
    names = [row[0] for row in rows[1:5]]
    assert names == ["'" + evil, "'+1+1", "'@SUM(A1)", "'-2+3"]
    assert all(not cell.startswith(("=", "+", "@")) for row in rows for cell in row)
    assert [row[2] for row in rows[1:5]] == ["0"] * 4  # numbers stay numbers
    assert scoresheet._csv_cell("-3") == "-3" and scoresheet._csv_cell("-") == "-"


def test_markdown_cells_stay_cells(cli):
    assert cli("new", "kings-ear", "-p", "a|b_c", "-p", "*Ben*", "-p", "[x](y)").status == 0
    text = cli("scoresheet", "-f", "markdown").out
    tables = [t.splitlines() for t in text.split("\n\n") if t.startswith("|")]
    assert len(tables) == 2  # the players' and the cards under each House
    for table in tables:  # every row has as many cells as the header
        unescaped = [line.replace("\\|", "").count("|") for line in table]
        assert len(set(unescaped)) == 1, table
    assert "a\\|b\\_c" in text and "\\*Ben\\*" in text and "\\[x\\](y)" in text



@pytest.mark.parametrize("closed", ["stdout", "stderr"])
def test_a_closed_standard_stream_is_no_traceback(closed):
    """`referee games >&-`: Python starts with None for the closed stream; the command runs
    as if its reader had left (exit 0), and prints no traceback on the other stream."""
    import os
    import subprocess
    import sys

    from tests.conftest import env_without_log

    redirect = ">&-" if closed == "stdout" else "2>&-"
    done = subprocess.run(
        ["sh", "-c", f'exec "$0" -m referee games {redirect}', sys.executable],
        capture_output=True, text=True, env={**env_without_log(), "PYTHONPATH": os.getcwd()})
    assert "Traceback" not in done.stdout + done.stderr
    assert done.returncode == 0, (done.returncode, done.stderr)
