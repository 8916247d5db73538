#!/usr/bin/env python3
"""Print every scoresheet in a real headless browser and check that each fits one page.

For every game: the blank sheet, a finished random game at every player count from the least to
the most, and each golden game, all with 18-character names, a date, a duration and a place.
Each sheet is printed to PDF by Debian's `chromium` on A4 and on Letter with the browser's own
print settings (headers and footers on, as a user's Ctrl+P has them); the check fails when the
scoresheet takes more than one page (a story, Kingmaker's "What happened", is printed in its
place when the page estimates that the sheet fits one page with it: then the whole sheet must
take one page; else the sheet without it must, and the story start page 2), when the browser
printed a header or footer of its own (its date, the file:// address or a page number: read
back with `pdftotext`), or when anything is wider than the printable area (a table, a name, a chart's end label). Each line
reports the whole sheet's pages. `--png` also keeps the first page of each PDF as a picture
(needs `pdftoppm`, from poppler-utils), to look at.

    python tools/print_check.py [--out DIR] [--paper a4 letter] [--only TEXT ...] [--png]

Exit status 0 when every scoresheet fits its page, 1 when one does not, 2 when no browser is installed. CI does
not run this (it needs a browser); the unit tests check the HTML's structure instead.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.evolve import evolve  # noqa: E402
from referee.scoresheet import Scoresheet, tables_below  # noqa: E402
from referee.sheets import fit, render_html  # noqa: E402
from referee.sheets.html import stories_apart  # noqa: E402
from referee.textsafe import clean_line  # noqa: E402
from tests.sheet_samples import samples  # noqa: E402

# The printable width in CSS pixels: A4 (210 mm) less the page's 13 mm side margins.
PRINT_WIDTH_PX = round((210 - 26) / 25.4 * 96)
PRINTABLE_HEIGHT_MM = round(279.4 - 24)  # Letter, the shorter page, less its 12 mm margins

# Run in the page after layout: everything wider than the body, and SVG text outside its chart.
PROBE = """
<style>body { max-width: none !important; margin: 0 !important; padding: 0 !important; }
div.ruled { height: 8mm !important; }</style>
<script>
window.addEventListener('load', () => {
  const limit = document.body.getBoundingClientRect().right + 0.5;
  const found = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg') && el.tagName !== 'svg') continue;
    const r = el.getBoundingClientRect();
    if (r.right > limit || el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0
        && getComputedStyle(el).overflow !== 'visible') {
      found.push(el.tagName.toLowerCase() + '.' + el.className + ' ' + Math.round(r.right));
    }
  }
  for (const svg of document.querySelectorAll('svg.chart')) {
    const box = svg.getBoundingClientRect();
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBoundingClientRect();
      if (b.left < box.left - 0.5 || b.right > box.right + 0.5
          || b.top < box.top - 0.5 || b.bottom > box.bottom + 0.5) {
        found.push('svg text "' + t.textContent + '" ' + Math.round(b.right - box.left));
      }
    }
  }
  const out = document.createElement('pre');
  out.id = 'overflow-report';
  const end = document.querySelector('section.end') || document.body;  // the stories follow
  const top = document.body.getBoundingClientRect().top;
  const height = (end.getBoundingClientRect().bottom - top) * 25.4 / 96;
  out.textContent = JSON.stringify({found: found, height: Math.round(height)});
  document.body.appendChild(out);
});
</script>
"""


def browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return name
    return None


def chrome(binary: str, *args: str) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             f"--user-data-dir={profile}", *args], capture_output=True, text=True, timeout=120)


def pages(pdf: Path) -> int:
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
        found = re.search(r"^Pages:\s+(\d+)", info, re.M)
        if found:
            return int(found.group(1))
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))


# What Chromium prints in a page's margins when the page lets it: the date and time, the page's
# address, "1/1".
BROWSER_HEADER = re.compile(r"\d{1,2}/\d{1,2}/\d{2,4},? +\d{1,2}:\d{2}|file:/|^\s*\d+/\d+\s*$",
                            re.M)


def scoresheet_part(sheet: Scoresheet) -> Scoresheet:
    """The sheet without its own-page stories: what must fit one page."""
    return evolve(sheet, breakdown=tuple(s for s in sheet.breakdown if not s.own_page),
                  sections=tuple(s for s in sheet.sections if not s.own_page))


def story_title(sheet: Scoresheet) -> str:
    """The title the first own-page story starts page 2 with ('' when the sheet has none)."""
    return next((clean_line(s.title) for s in tables_below(sheet) if s.own_page), "")


def page_text(pdf: Path, page: int) -> str:
    """One page's text ('' when `pdftotext` is missing)."""
    if not shutil.which("pdftotext"):
        return ""
    return subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), str(pdf), "-"],
                          capture_output=True, text=True).stdout


def starts_page(pdf: Path, page: int, title: str) -> bool:
    """Whether the page's first line of text is `title`."""
    lines = [line.strip() for line in page_text(pdf, page).splitlines() if line.strip()]
    return bool(lines) and lines[0] == title


def print_pdf(binary: str, sheet: Scoresheet, paper: str, page: Path) -> Path:
    """The sheet printed to PDF next to its HTML `page`."""
    page.write_text(render_html(sheet, paper), encoding="utf-8")
    pdf = page.with_suffix(".pdf")
    chrome(binary, f"--print-to-pdf={pdf}", page.as_uri())
    return pdf


def browser_header(pdf: Path) -> str:
    """What in the PDF's text looks like the browser's own header or footer ('' when none, or
    when `pdftotext` is missing)."""
    if not shutil.which("pdftotext"):
        return ""
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    found = BROWSER_HEADER.search(text)
    return found.group(0).strip() if found else ""


def overflow(binary: str, page: Path) -> tuple[list[str], int]:
    """What sticks out of the printable width, and the height of the content in mm."""
    probe = page.with_name(page.stem + ".probe.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"),
                     encoding="utf-8")
    result = chrome(binary, f"--window-size={PRINT_WIDTH_PX},1200",
                    "--virtual-time-budget=3000", "--dump-dom", probe.as_uri())
    probe.unlink()
    found = re.search(r'<pre id="overflow-report">(.*?)</pre>', result.stdout, re.S)
    if not found:
        return ["the probe did not run: " + result.stderr.strip()[-200:]], 0
    report = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    return list(report["found"]), int(report["height"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "print")
    parser.add_argument("--paper", nargs="+", default=["a4", "letter"])
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--png", action="store_true", help="keep page 1 of each PDF as a PNG")
    args = parser.parse_args()
    binary = browser()
    if binary is None:
        print("print_check: no chromium found (apt-get install chromium)", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    failures = 0
    for sample in samples():
        if args.only and not any(text in sample.label for text in args.only):
            continue
        for paper in args.paper:
            name = f"{sample.label}-{paper}"
            page = args.out / f"{name}.html"
            pdf = print_pdf(binary, sample.sheet, paper, page)
            count = pages(pdf) if pdf.exists() else 0
            header = browser_header(pdf) if pdf.exists() else ""
            wide, height = overflow(binary, page) if paper == args.paper[0] else ([], 0)
            title = story_title(sample.sheet) if stories_apart(sample.sheet) else ""
            story = ""
            if title:  # the scoresheet alone is one page, the story starts page 2
                part = print_pdf(binary, scoresheet_part(sample.sheet), paper,
                                 args.out / f"{name}.scoresheet.html")
                sheet_pages = pages(part) if part.exists() else 0
                story = f"  scoresheet {sheet_pages} page(s), {title!r} " + (
                    "from page 2" if starts_page(pdf, 2, title) else "NOT from page 2")
                ok = sheet_pages == 1 and starts_page(pdf, 2, title)
            else:
                ok = count == 1
            ok = ok and not wide and not header
            failures += not ok
            players = len(sample.sheet.rows)
            tall = (f"  {height} of {PRINTABLE_HEIGHT_MM} mm (with the story, estimated "
                    f"{fit.page_mm(sample.sheet):.0f})" if height else "")
            print(f"{'ok  ' if ok else 'FAIL'} {name:<48} {players} rows  {count} page(s)"
                  + story + tall + (f"  overflow: {'; '.join(wide)}" if wide else "")
                  + (f"  browser header: {header!r}" if header else ""))
            if args.png and shutil.which("pdftoppm") and pdf.exists():
                subprocess.run(["pdftoppm", "-r", "70", "-png", "-f", "1", "-l", "1",
                                "-singlefile", str(pdf), str(args.out / name)], check=False)
    print(f"{failures} sheet(s) failed" if failures else
          "every scoresheet fits one page (a story follows on its own)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
