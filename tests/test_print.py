"""The printed page in a real browser (skipped where Debian's `chromium` is not installed):
one page (a story of its own page follows it), and no header or footer of the browser's own. `tools/print_check.py` runs the same
check over every game, player count and paper; here a few sheets, and the check itself."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.sheets import render_html
from tests.conftest import GOLDEN, ROOT
from tests.sheet_samples import finished, renamed_golden


def _tool():
    spec = importlib.util.spec_from_file_location("print_check", ROOT / "tools" / "print_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("print_check", module)
    spec.loader.exec_module(module)
    return module


def test_browser_header_pattern_finds_chromiums_lines_and_nothing_on_our_sheets():
    tool = _tool()
    assert tool.BROWSER_HEADER.search("11/27/26, 4:15 AM\n\nThe King's Ear")
    assert tool.BROWSER_HEADER.search("file:///tmp/sheet.html\n\n1/1\n")
    assert tool.BROWSER_HEADER.search("\n1/1\n")
    from referee.sheets import render_text

    for game_id, players in (("kings-ear", 4), ("dwarf-king", 5), ("kingmaker", 6)):
        assert not tool.BROWSER_HEADER.search(render_text(finished(game_id, players)))


needs_chromium = pytest.mark.skipif(
    shutil.which("chromium") is None or shutil.which("pdftotext") is None,
    reason="needs chromium and pdftotext (apt-get install chromium poppler-utils)")


@needs_chromium
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_crowded_sheet_prints_on_one_page_without_a_browser_header(tmp_path, paper):
    tool = _tool()
    binary = tool.browser()
    sheet = finished("dwarf-king", 5)
    page = tmp_path / "sheet.html"
    page.write_text(render_html(sheet, paper), encoding="utf-8")
    pdf = tmp_path / "sheet.pdf"
    tool.chrome(binary, f"--print-to-pdf={pdf}", page.as_uri())
    assert tool.pages(pdf) == 1
    assert tool.browser_header(pdf) == ""


@needs_chromium
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_six_player_kingmaker_scoresheet_is_one_page_and_its_story_starts_page_2(tmp_path,
                                                                                   paper):
    """The scoresheet without its 'What happened' story prints on one page; with it, the
    story starts page 2 (headed by its title), page 1 has none of it and still ends with the
    Notes' lines filling it and the signatures at its foot."""
    tool = _tool()
    binary = tool.browser()
    sheet = renamed_golden(GOLDEN / "kingmaker" / "six-player-time-limit.toml")
    assert len(sheet.players) == 6 and tool.story_title(sheet) == "What happened"
    part = tool.print_pdf(binary, tool.scoresheet_part(sheet), paper, tmp_path / "part.html")
    assert tool.pages(part) == 1
    whole = tool.print_pdf(binary, sheet, paper, tmp_path / "sheet.html")
    assert tool.pages(whole) >= 2
    assert tool.starts_page(whole, 2, "What happened")
    assert "What happened" not in tool.page_text(whole, 1)
    signed = tool.page_text(whole, 1).split("\nNotes\n", 1)[1]  # page 1 ends with them
    assert all(name.split()[0] in signed for name in sheet.players)
    assert _lowest_word(whole, 1) > 0.92  # the Notes' lines still fill page 1 to its foot
    assert tool.browser_header(whole) == ""


@needs_chromium
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_short_kingmaker_game_prints_on_one_page_with_its_story(tmp_path, paper):
    """A game whose sheet and story fit one page prints them on one: the story in its place,
    above the Notes' lines and the signatures (it used to take a page 2 of its own)."""
    tool = _tool()
    sheet = renamed_golden(GOLDEN / "kingmaker" / "three-player-two-parliaments.toml")
    whole = tool.print_pdf(tool.browser(), sheet, paper, tmp_path / "sheet.html")
    assert tool.pages(whole) == 1
    text = tool.page_text(whole, 1)
    assert "What happened" in text and "assaults London" in text
    assert text.index("What happened") < text.index("\nNotes\n")
    signed = text.split("\nNotes\n", 1)[1]
    assert all(name.split()[0] in signed for name in sheet.players)
    assert tool.browser_header(whole) == ""


def _lowest_word(pdf: Path, page: int) -> float:
    """How far down the page its lowest word ends, as a fraction of the page's height."""
    out = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf),
                          "-"], capture_output=True, text=True, check=True).stdout
    height = float(re.search(r'<page width="[\d.]+" height="([\d.]+)"', out).group(1))
    return max(float(y) for y in re.findall(r'yMax="([\d.]+)"', out)) / height


@needs_chromium
def test_the_check_sees_a_browser_header_on_a_page_that_allows_one(tmp_path):
    """The same browser prints its date and the file's address when the page does not
    declare its margin boxes: the check is not blind."""
    tool = _tool()
    page = tmp_path / "plain.html"
    page.write_text("<!DOCTYPE html><title>Plain</title><p>A page with no print rules.</p>",
                    encoding="utf-8")
    pdf = tmp_path / "plain.pdf"
    tool.chrome(tool.browser(), f"--print-to-pdf={pdf}", page.as_uri())
    assert "file:" in tool.browser_header(pdf) or "/" in tool.browser_header(pdf)
