"""The printed page in a real browser (skipped where Debian's `chromium` is not installed):
one page, and no header or footer of the browser's own. `tools/print_check.py` runs the same
check over every game, player count and paper; here a few sheets, and the check itself."""

from __future__ import annotations

import importlib.util
import shutil
import sys

import pytest

from referee.sheets import render_html
from tests.conftest import ROOT
from tests.sheet_samples import finished


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
