"""How tall the printed page (`referee.sheets.html`) will be, estimated from its rows and texts,
to decide whether a story (a `Section` with `own_page`: Kingmaker's "What happened") fits on
page 1 with the scoresheet, or must start a page of its own.

The figures are those of the page's style sheet (type sizes, line heights, paddings, margins in
a print layout, where a flex column adds margins up), and a text's width is its length times an
average character's: measured with Chromium on the sample sheets (tools/print_check.py prints
each estimate beside the measured height). The estimate errs on the tall side; a story is kept
on page 1 only with a margin to spare.
"""

from __future__ import annotations

import math
from typing import Sequence

from referee.scoresheet import (
    Scoresheet,
    Section,
    display_table,
    facts,
    has_chart,
    round_table,
    section_table,
    tie_rule,
)
from referee.textsafe import clean_line

PAGE_MM = 255.4  # Letter's height less the page's 12 mm margins: the smaller page's
WIDTH_MM = 184.0  # A4's width less its 13 mm side margins: the narrower page's
SPARE_MM = 6.0  # what the estimate keeps in hand before it puts a story on page 1
CHAR_EM = 0.585  # an average character of the page's serif type, in ems
PT_MM = 25.4 / 72
PADDING_MM = 2.4 + 0.3  # a section cell's side paddings and border
QR_MM = 36.8  # the QR code with its caption, beside the heading


def chars_mm(text: str, pt: float) -> float:
    return len(text) * CHAR_EM * pt * PT_MM


def lines(text: str, width_mm: float, pt: float) -> int:
    """The lines a text wraps to in a box `width_mm` wide, in type of `pt` points."""
    return max(1, math.ceil(chars_mm(text, pt) / max(1.0, width_mm)))


def line_mm(pt: float, height: float) -> float:
    return pt * height * PT_MM


def fits_with_stories(sheet: Scoresheet) -> bool:
    """Whether the sheet, its own-page stories shown in their place, fits page 1."""
    return page_mm(sheet) <= PAGE_MM - SPARE_MM


def page_mm(sheet: Scoresheet) -> float:
    """The estimated height of the whole sheet printed on one page, its stories in place, the
    Notes' lines at their least."""
    total = _header_mm(sheet) + _scores_mm(sheet)
    if sheet.rounds and sheet.round_table:
        total += _h2_mm() + _table_rows_mm(round_table(sheet)[1], 9, 1.35, 1.0)
    for section in (*sheet.breakdown, *sheet.sections):
        total += _h2_mm() + _section_mm(section)
    total += _explanation_mm(sheet.explanation)
    if has_chart(sheet):
        total += 60.0
    total += _ties_mm(sheet) + _footer_mm(sheet) + _end_mm(sheet)
    return total


def _h2_mm() -> float:
    return 2.2 + line_mm(11, 1.35) + 0.8


def _header_mm(sheet: Scoresheet) -> float:
    width = WIDTH_MM - QR_MM - 4
    text = line_mm(17, 1.35) + 1 + lines(clean_line(sheet.outcome), width, 11) * \
        line_mm(11, 1.35) + 1.5
    shown = "      ".join(f"{k}: {v}" for k, v in facts(sheet))
    text += lines(shown, width, 10) * line_mm(10, 1.35) if shown else 0
    return max(QR_MM, text) + 2


def _scores_mm(sheet: Scoresheet) -> float:
    columns, body = display_table(sheet)
    head = 2 if any(" " in c.header for c in columns) else 1
    return head * line_mm(9, 1.35) + 1.3 + _table_rows_mm(body, 9, 1.35, 1.3)


def _table_rows_mm(body: Sequence[Sequence[str]], pt: float, height: float,
                   padding: float) -> float:
    """Rows of one line each (names and numbers do not wrap), and the table's margin."""
    return len(body) * (line_mm(pt, height) + padding) + 2


def _section_mm(section: Section) -> float:
    """A section's table in 8 pt type: each row as tall as its cell of most lines, in columns
    as wide as the browser's automatic layout makes them."""
    columns, body = section_table(section)
    count = len(columns)
    rows = [[c.header for c in columns], *([*row, *[""] * count][:count] for row in body)]
    widths = _column_widths(rows)
    height = 0.0
    for row in rows:
        most = max((lines(cell, width - PADDING_MM, 8) for cell, width in zip(row, widths)),
                   default=1)
        height += most * line_mm(8, 1.2) + 1.05
    return height + 2


def _column_widths(rows: Sequence[Sequence[str]]) -> list[float]:
    """A table's columns across the page: each as wide as its longest cell when all fit, else
    its longest word and a share of the rest in proportion to what more its longest cell
    wants (as a browser's automatic table layout does); a column of short texts (12
    characters or fewer, kept on one line) never narrower than its longest cell."""
    count = len(rows[0])
    most = [max(chars_mm(r[i], 8) for r in rows) + PADDING_MM for i in range(count)]
    least = [most[i] if all(len(r[i]) <= 12 for r in rows[1:]) else
             max(chars_mm(word, 8) for r in rows for word in r[i].split() or [""]) + PADDING_MM
             for i in range(count)]
    if sum(most) <= WIDTH_MM:
        return most
    room = max(0.0, WIDTH_MM - sum(least))
    wants = sum(m - n for m, n in zip(most, least)) or 1.0
    return [n + room * (m - n) / wants for m, n in zip(most, least)]


def _explanation_mm(paragraphs: Sequence[str]) -> float:
    """Two columns of 8 pt paragraphs, never split: half their height and half the tallest."""
    if not paragraphs:
        return 0.0
    column = (WIDTH_MM - 5) / 2
    heights = [lines(clean_line(p), column, 8) * line_mm(8, 1.2) + 0.6 for p in paragraphs]
    return 1.5 + sum(heights) / 2 + max(heights) / 2


def _ties_mm(sheet: Scoresheet) -> float:
    texts = ([tie_rule(sheet)] if tie_rule(sheet) else []) + list(sheet.tie_notes)
    if not texts:
        return 0.0
    return 1.5 + sum(lines(t, WIDTH_MM - 5, 9.5) * line_mm(9.5, 1.35) + 1 for t in texts)


def _footer_mm(sheet: Scoresheet) -> float:
    if not sheet.notes:
        return 0.0
    notes = lines(" * ".join(clean_line(n) for n in sheet.notes), WIDTH_MM, 8)
    fixes = sum(lines(f.sentence(), WIDTH_MM - 4, 7) for f in sheet.corrections)
    return 1.5 + notes * line_mm(8, 1.25) + fixes * line_mm(7, 1.2) + (1 if fixes else 0)


def _end_mm(sheet: Scoresheet) -> float:
    """The Notes' lines at their least, and a line for each player to sign, with their name
    under it in a column of its own (a long name wraps)."""
    names = [clean_line(n) for n in sheet.players] or ["Signature"]
    signers = min(7, len(names))
    column = (WIDTH_MM - 4 * (signers - 1)) / signers
    most = max(lines(n, column, 8) for n in names)
    rows = math.ceil(len(names) / signers)
    return 1 + 8 + 1 + rows * (6 + most * line_mm(8, 1.35))
