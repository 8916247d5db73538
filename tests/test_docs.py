"""Documentation that must stay true: man pages, the README's commands, generated sheets."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from referee import scoresheet, sheets
from referee.cli import app
from referee.engine import available_game_ids, load_game
from tests.conftest import ROOT

MAN = ROOT / "man"


def command_names() -> list[str]:
    return [c.name or c.callback.__name__ for c in app.registered_commands]


def test_every_cli_command_has_an_entry_in_referee_1():
    page = (MAN / "referee.1").read_text()
    for name in command_names():
        assert re.search(rf"^\.(B|BI|BR) {name}\b", page, re.M), name


def test_every_game_has_a_man_page():
    for game_id in available_game_ids():
        assert (MAN / f"referee-{game_id}.6").is_file(), game_id


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
@pytest.mark.parametrize("page", sorted(p.name for p in MAN.iterdir()))
def test_groff_reports_nothing(page):
    result = subprocess.run(["groff", "-man", "-ww", "-z", str(MAN / page)],
                            capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == "", result.stderr


README_COMMANDS = [
    "python3 -m venv .venv && . .venv/bin/activate && pip install . && referee demo",
    "python3 -m venv .venv && . .venv/bin/activate && pip install '.[test]' && pytest",
]


def test_readme_opens_with_the_two_commands():
    """Two commands, each working where the system pip refuses to install (PEP 668): both
    make or use a virtual environment. CI installs and tests the same way."""
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```(?:sh|bash|console)?\n(.*?)```", text, re.S)
    first = [line for line in blocks[0].splitlines() if line.strip()]
    assert first == README_COMMANDS
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 -m venv" in ci and "pip install --quiet '.[test]'" in ci
    assert re.search(r"^pytest\b", ci, re.M)


def test_pip_install_puts_the_man_pages_where_man_finds_them():
    """`pip install .` installs man/*.1 and man/*.6 under the environment's share/man, which
    man-db searches when the environment's bin/ is on PATH."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data = project["tool"]["setuptools"]["data-files"]
    assert data == {"share/man/man1": ["man/*.1"], "share/man/man6": ["man/*.6"]}
    assert sorted(p.name for p in MAN.iterdir()) == sorted(
        ["referee.1", *(f"referee-{g}.6" for g in available_game_ids())])
    assert "share/man" in (ROOT / "README.md").read_text()


def test_the_log_format_page_that_log_py_points_to_exists():
    import referee.log

    assert "docs/log-format.md" in referee.log.__doc__
    page = (ROOT / "docs" / "log-format.md").read_text()
    for key in ("format", "game", "created", "referee", "seed", "[options]", "[[players]]",
                "[[events]]", "[[retracted]]", "seq", "at", "by", "type", "note",
                "retracted_at"):
        assert f"`{key}`" in page, key


def test_man_page_macro_lines_close_their_quotes():
    """An unterminated quote on a macro line renders as 'farmer ,  wife  ,' (groff says
    nothing about it)."""
    for page in MAN.iterdir():
        for number, line in enumerate(page.read_text().splitlines(), start=1):
            if line.startswith(".") and not line.startswith('.\\"'):
                assert len(re.findall(r'(?<!\\)"', line)) % 2 == 0, f"{page.name}:{number}"


@pytest.mark.parametrize("game_id", available_game_ids())
def test_blank_scoresheets_are_up_to_date(game_id):
    sheet = load_game(game_id).blank_scoresheet()
    for fmt, suffix in (("html", "html"), ("markdown", "md")):
        path = ROOT / "scoresheets" / f"{game_id}-blank.{suffix}"
        assert path.is_file(), f"run: referee scoresheet --blank {game_id} -f {fmt} -O {path}"
        assert path.read_text() == sheets.render(sheet, fmt), f"{path} is out of date"


def test_the_tests_and_the_processes_they_start_run_the_source_tree(tmp_path):
    """The README's second command installs referee (not editable, so that the man pages stay);
    the tests must still test the tree, in-process and in a `python -m referee` they start."""
    import sys

    import referee

    assert Path(referee.__file__).resolve().parent == ROOT / "referee"
    where = subprocess.run([sys.executable, "-c", "import referee; print(referee.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, check=True).stdout
    assert Path(where.strip()).resolve().parent == ROOT / "referee"
