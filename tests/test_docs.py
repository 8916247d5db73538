"""Documentation that must stay true: man pages, the README's commands, generated sheets."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from referee import scoresheet as sheets
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


def test_readme_opens_with_the_two_commands():
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```(?:sh|bash|console)?\n(.*?)```", text, re.S)
    first = [line for line in blocks[0].splitlines() if line.strip()]
    assert first == ["pip install . && referee demo",
                     "pip install -e '.[test]' && pytest"]
    assert "pytest" in (ROOT / ".ci" / "run").read_text()


@pytest.mark.parametrize("game_id", available_game_ids())
def test_blank_scoresheets_are_up_to_date(game_id):
    sheet = load_game(game_id).blank_scoresheet()
    for fmt, suffix in (("html", "html"), ("markdown", "md")):
        path = ROOT / "scoresheets" / f"{game_id}-blank.{suffix}"
        assert path.is_file(), f"run: referee scoresheet --blank {game_id} -f {fmt} -O {path}"
        assert path.read_text() == sheets.render(sheet, fmt), f"{path} is out of date"
