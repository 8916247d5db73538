"""The scoresheet for a terminal: every line within `width` columns (80 at most), numbers
right-aligned, and a chart of running totals drawn with box-drawing characters (plain ASCII when
the terminal is not UTF-8).

Tables that do not fit are narrowed step by step: one space between columns instead of two,
numeric headers wrap at their spaces, a run of
headers sharing a first word ('Hand 1', 'Hand 2' ...) keeps the word once, text columns wrap,
names are shortened, and at last the columns are split into several tables that each repeat the
first column.
"""

from __future__ import annotations

import textwrap
import unicodedata
from typing import Any, Sequence

from referee.evolve import evolve
from referee.screen import WIDE, cells, widened
from referee.scoresheet import (
    BLANK_FACTS,
    Column,
    Number,
    Scoresheet,
    chart_title,
    display_table,
    facts,
    has_chart,
    nice_ticks,
    round_table,
    round_ticks,
    rounds_title,
    running_totals,
    section_table,
    tables_below,
    tie_rule,
)
from referee.sheets.chart import letters, tick_text
from referee.textsafe import clean_line
from referee.values import fields

GAP = 2  # the spaces between two columns of a "simple" table (1 when that makes it fit)
MIN_NAME = 8  # a name column is never cut shorter than this
BLANK_NAME = 18  # room for a name on a blank sheet


def render(sheet: Scoresheet, width: int = 80, unicode: bool = True) -> str:
    width = max(30, width)
    if not unicode:
        sheet = folded(sheet)
    dot = " \u00b7 " if unicode else " - "
    parts = _fold(clean_line(sheet.title), width) or [""]
    if not sheet.blank:
        parts += _fold(clean_line(sheet.outcome), width)
    if sheet.blank:
        parts += _wrap_items([f"{k}: ______________" for k in BLANK_FACTS], width, "   ")
    else:
        shown = facts(sheet)
        if shown:
            parts += _wrap_items([f"{k}: {v}" for k, v in shown], width, dot)
    parts += ["", fit_table(*display_table(sheet), width, sheet.blank)]
    if sheet.rounds and sheet.round_table:
        parts += ["", rounds_title(sheet), fit_table(*round_table(sheet), width, sheet.blank)]
    for section in tables_below(sheet):
        parts += ["", *_fold(clean_line(section.title), width),
                  fit_table(*section_table(section), width, sheet.blank)]
    if sheet.explanation:
        parts += [""] + [line for text in sheet.explanation
                         for line in _fold(clean_line(text), width)]
    if has_chart(sheet):
        parts += ["", *chart(sheet, width, unicode)]
    footer = []
    rule = tie_rule(sheet)
    if rule:
        footer += _fold(rule, width)
    for note in sheet.tie_notes:
        footer += _fold(clean_line(note), width, initial_indent="- ", subsequent_indent="  ")
    for note in sheet.notes:
        footer += _fold(clean_line(note), width)
    for fix in sheet.corrections:
        footer += _fold(fix.sentence(), width, subsequent_indent="    ",
                        break_on_hyphens=False)
    if footer:
        parts += ["", *footer]
    return "\n".join(line.rstrip() for line in "\n".join(parts).split("\n")) + "\n"


# Letters and signs a terminal that is not UTF-8 may not show, as plain ASCII.
ASCII_SIGNS = {"\u00a7": "s.", "\u00b7": "-", "\u2013": "-", "\u2014": "-", "\u2018": "'",
               "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2026": "...", "\u00d7": "x",
               "\u2212": "-", "\u00df": "ss", "\u00e6": "ae", "\u00c6": "AE", "\u00f8": "o",
               "\u00d8": "O", "\u0153": "oe", "\u0152": "OE", "\u0142": "l", "\u0141": "L"}


def ascii_text(text: str) -> str:
    """`text` in plain ASCII: accents dropped, a few signs spelled out, anything else '?'."""
    if text.isascii():
        return text
    out = []
    for char in unicodedata.normalize("NFKD", text):
        if char.isascii():
            out.append(char)
        elif not unicodedata.combining(char):
            out.append(ASCII_SIGNS.get(char, "?"))
    return "".join(out)


def folded(value: Any) -> Any:
    """Every text in a scoresheet (names, notes, cells) in plain ASCII, before the layout
    measures it."""
    if isinstance(value, str):
        return ascii_text(value)
    if hasattr(type(value), "__value_fields__"):  # a Scoresheet, Row, Section...
        return evolve(value, **{f.name: folded(getattr(value, f.name))
                                for f in fields(type(value))})
    if isinstance(value, (tuple, list)):
        return type(value)(folded(item) for item in value)
    if isinstance(value, dict):
        return {folded(key): folded(item) for key, item in value.items()}
    return value


def _wrap_items(items: list[str], width: int, sep: str) -> list[str]:
    lines: list[str] = []
    for item in items:
        if lines and cells(lines[-1]) + len(sep) + cells(item) <= width:
            lines[-1] += sep + item
        else:
            lines += _fold(item, width) or [""]
    return lines


# --------------------------------------------------------------------------------------------
# Columns, not characters: a name in Chinese takes two columns a character on a terminal
# (screen.widened marks the second column of each, so that len() and textwrap count them)


def _fold(text: str, width: int, **options: Any) -> list[str]:
    """textwrap.wrap by terminal columns."""
    return [line.replace(WIDE, "") for line in _wrap_lines(widened(text), width, **options)]


def _wrap_lines(text: str, width: int, **options: Any) -> list[str]:
    """textwrap.wrap of a widened text, never splitting a wide character from its WIDE: a
    line that would start with one is wrapped one column narrower."""
    lines = textwrap.wrap(text, width, **options)
    while width > 2 and any(line.startswith(WIDE) for line in lines[1:]):
        width -= 1
        lines = textwrap.wrap(text, width, **options)
    return lines


# --------------------------------------------------------------------------------------------
# Tables that fit


def _words_max(text: str) -> int:
    return max((len(w) for w in text.split()), default=0)


def _lines_max(text: str) -> int:
    return max((len(line) for line in text.split("\n")), default=0)


def _wrap(text: str, width: int) -> str:
    if len(text) <= width:
        return text
    return "\n".join(_wrap_lines(text, width, break_long_words=True,
                                 break_on_hyphens=False)) or text


def _shorten(text: str, width: int) -> str:
    if len(text) <= width:
        return text
    kept = text[:max(1, width - 1)]
    if kept[-1:] != WIDE and cells(kept[-1:]) == 2:  # half a wide character: drop it
        kept = kept[:-1] + " "
    return kept + "~"


class _Layout:
    """Column widths and headers of one table, narrowed until it fits."""

    def __init__(self, columns: Sequence[Column], body: list[list[str]]):
        self.gap = GAP
        self.fill = False
        self.shared: dict[int, str] = {}  # column -> the header word it shares with its left
        self.columns = list(columns)
        self.body = body
        self.headers = [c.header for c in columns]
        self.cells = [max((len(row[i]) for row in body), default=0)
                      for i in range(len(columns))]
        self.widths = [max(len(h), w) for h, w in zip(self.headers, self.cells)]

    def total(self, indexes: Sequence[int] | None = None) -> int:
        chosen = range(len(self.widths)) if indexes is None else indexes
        return sum(self.widths[i] for i in chosen) + self.gap * (len(chosen) - 1)

    def wrap_number_headers(self) -> None:
        for i, c in enumerate(self.columns):
            if c.kind == "num":
                self.widths[i] = max(self.cells[i], _words_max(self.headers[i]), 1)
                self.headers[i] = _wrap(self.headers[i], self.widths[i])
                self.widths[i] = max(self.cells[i], _lines_max(self.headers[i]))

    def share_header_words(self) -> None:
        """'Hand 1', 'Hand 2', ... -> 'Hand' over the first, then '1', '2', ... ."""
        i = 0
        while i < len(self.columns):
            word = self.columns[i].header.split(" ", 1)[0]
            j = i
            while (j < len(self.columns) and self.columns[j].kind == "num"
                   and self.columns[j].header.startswith(word + " ")):
                j += 1
            if j - i >= 3:
                for k in range(i, j):
                    rest = self.columns[k].header[len(word) + 1:]
                    self.headers[k] = (word + "\n" if k == i else "\n") + rest
                    self.shared[k] = word
                    self.widths[k] = max(self.cells[k], _lines_max(self.headers[k]))
                i = j
            else:
                i += 1

    def narrow_text(self, width: int) -> None:
        """Wrap the widest text columns, down to their longest word, until the table fits."""
        floors = {i: max(_words_max(c.header), 4,
                         max((_words_max(row[i]) for row in self.body), default=0))
                  for i, c in enumerate(self.columns) if c.kind in ("text", "place")}
        while self.total() > width:
            slack = [(self.widths[i] - floor, i) for i, floor in floors.items()
                     if self.widths[i] > floor]
            if not slack:
                return
            _, i = max(slack)
            self.widths[i] -= 1

    def shorten_names(self, width: int) -> None:
        widest = max(self.total([0, i]) for i in range(1, len(self.columns)))
        for i, c in enumerate(self.columns):
            if c.kind == "name":
                excess = widest - width
                if excess > 0:
                    self.widths[i] = max(MIN_NAME, len(c.header), self.widths[i] - excess)

    def blocks(self, width: int) -> list[list[int]]:
        """Column groups that each fit, every group starting with the first column."""
        groups: list[list[int]] = [[0]]
        for i in range(1, len(self.columns)):
            if len(groups[-1]) > 1 and self.total(groups[-1] + [i]) > width:
                groups.append([0])
            groups[-1].append(i)
        return groups

    def render(self, indexes: Sequence[int]) -> str:
        headers, rows = [], []
        for k, i in enumerate(indexes):
            header = self.headers[i]
            if header.startswith("\n") and i in self.shared and (
                    k == 0 or self.shared.get(indexes[k - 1]) != self.shared[i]):
                header = self.shared[i] + header  # the first of its run in this block
            headers.append(header if self.columns[i].kind == "num"
                           else _wrap(header, self.widths[i]))
        for row in self.body:
            out = []
            for i in indexes:
                cell, kind = row[i], self.columns[i].kind
                out.append(_shorten(cell, self.widths[i]) if kind == "name" else
                           cell if kind == "num" else _wrap(cell, self.widths[i]))
            rows.append(out)
        widths = [self.widths[i] for i in indexes]
        right = [self.columns[i].kind == "num" for i in indexes]
        height = max(h.count("\n") + 1 for h in headers)
        headers = ["\n" * (height - 1 - h.count("\n")) + h for h in headers]  # at the bottom
        if self.fill:
            rows = [[cell or "_" * w for cell, w in zip(row, widths)] for row in rows]
        lines = _lines(headers, widths, right, self.gap)
        lines.append((" " * self.gap).join("-" * w for w in widths))
        for row in rows:
            lines += _lines(row, widths, right, self.gap)
        return "\n".join(lines)


def _lines(cells: Sequence[str], widths: Sequence[int], right: Sequence[bool],
           gap: int) -> list[str]:
    """One table row (its cells may hold several lines) as lines of text."""
    split = [cell.split("\n") for cell in cells]
    out = []
    for k in range(max(len(parts) for parts in split)):
        texts = []
        for parts, w, r in zip(split, widths, right):
            text = parts[k] if k < len(parts) else ""
            texts.append(text.rjust(w) if r else text.ljust(w))
        out.append((" " * gap).join(texts).rstrip())
    return out


def fit_table(columns: Sequence[Column], body: list[list[str]], width: int = 80,
              blank: bool = False) -> str:
    """A "simple" table of at most `width` columns (see the module's docstring); a `blank`
    table has lines to write on in its empty cells, and room for a name."""
    columns = [evolve(c, header=widened(c.header)) for c in columns]
    layout = _Layout(columns, [[widened(cell) for cell in row] for row in body])
    if blank:
        layout.fill = True
        layout.cells = [max(w, BLANK_NAME if c.kind == "name" else 4)
                        for w, c in zip(layout.cells, columns)]
        layout.widths = [max(w, c) for w, c in zip(layout.widths, layout.cells)]
    if layout.total() > width:
        layout.gap = 1
    if layout.total() > width:
        layout.wrap_number_headers()
    if layout.total() > width:
        layout.share_header_words()
    if layout.total() > width:
        layout.narrow_text(width)
    if layout.gap != GAP:  # the later steps may have made room for the wider gap again
        layout.gap = GAP
        if layout.total() > width:
            layout.gap = 1
    if layout.total() <= width:
        return layout.render(range(len(columns))).replace(WIDE, "")
    if any(layout.total([0, i]) > width for i in range(1, len(columns))):
        layout.shorten_names(width)  # even one column beside the names does not fit
    if layout.total() <= width:
        return layout.render(range(len(columns))).replace(WIDE, "")
    return "\n\n".join(layout.render(group) for group in layout.blocks(width)).replace(WIDE, "")


# --------------------------------------------------------------------------------------------
# The chart of running totals


def chart(sheet: Scoresheet, width: int = 80, unicode: bool = True) -> list[str]:
    """The running totals after each round: a letter per player at its total, on a scale."""
    series = running_totals(sheet)
    names = [clean_line(name) for name, _ in series]
    marks = letters(names)
    ticks = nice_ticks([v for _, values in series for v in values], most=6)
    step = (ticks[1] - ticks[0]) if len(ticks) > 1 else 1
    intervals = max(1, len(ticks) - 1)
    per_step = next(n for n in (5, 4, 2, 1) if intervals * n + 1 <= 13 or n == 1)
    unit = step / per_step
    rows = (len(ticks) - 1) * per_step + 1
    top = ticks[-1]
    labels = {round((top - t) / unit): tick_text(t) for t in ticks}
    label_width = max(len(text) for text in labels.values())
    count = len(sheet.rounds)
    slot = max(3, len(series) + 1)
    room = width - label_width - 2
    if count * slot > room:
        slot = max(2, room // max(1, count))
    if count * slot > room:  # too many rounds for this width: show the latest ones
        count = max(1, room // slot)
    first = len(sheet.rounds) - count
    h, v, tee, cross, corner, tick = ("\u2500", "\u2502", "\u2524", "\u253c", "\u2514",
                                      "\u252c") if unicode else ("-", "|", "+", "+", "+", "+")
    zero_row = round(top / unit)
    crowded = False
    grid = [[" "] * (count * slot) for _ in range(rows)]
    if 0 <= zero_row < rows:
        grid[zero_row] = [h if unicode else "."] * (count * slot)
    for column in range(count):
        at: dict[int, list[str]] = {}
        for mark, (_, values) in zip(marks, series):
            at.setdefault(round((top - values[first + column]) / unit), []).append(mark)
        for row, found in at.items():
            shown = found if len(found) <= slot - 1 else ["*"]
            crowded = crowded or shown == ["*"]
            for offset, mark in enumerate(shown):
                grid[row][column * slot + 1 + offset] = mark
    title = chart_title(sheet) + (f" (the last {count})" if first else "")
    lines = textwrap.wrap(title, width)
    for row in range(rows):
        label = labels.get(row, "")
        axis = (cross if row == zero_row else tee) if label else v
        lines.append(f"{label:>{label_width}} {axis}{''.join(grid[row])}".rstrip())
    axis_line = "".join(h + tick + h * (slot - 2) for _ in range(count))
    lines.append(" " * label_width + " " + corner + axis_line)
    ticks_line = ""
    for column, text in enumerate(round_ticks(sheet)[first:]):
        position = column * slot + 1
        if (not ticks_line or len(ticks_line) < position) and position + len(text) <= room:
            ticks_line = ticks_line.ljust(position) + text
    ticks_line = " " * (label_width + 2) + ticks_line
    axis_title = sheet.round_label.lower()
    if len(ticks_line) + 2 + len(axis_title) <= width:
        lines.append(ticks_line + "  " + axis_title)
    else:
        lines += [ticks_line, " " * (label_width + 2) + axis_title]
    legend = [f"{mark} {name} ({_final(values)})"
              for mark, name, (_, values) in zip(marks, names, series)]
    if crowded:
        legend.append("* several players")
    return lines + _wrap_items(legend, width, "   ")


def _final(values: list[Number]) -> str:
    return tick_text(values[-1]) if values else "0"
