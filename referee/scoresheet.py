"""The Scoresheet model and its renderers (text, Markdown, CSV, JSON, printable HTML).

A game builds one `Scoresheet` from its state; `score`, `scoresheet` and `check` only render it.
"""

from __future__ import annotations

import csv
import html
import io
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from referee.textsafe import clean, clean_line, json_text

Number = int | float


@dataclass(frozen=True)
class Row:
    """One line of the sheet: a player (or a passive seat, `name=None`) and their results."""

    name: str | None
    seat: str | None
    categories: tuple[tuple[str, Number | None], ...]
    total: Number | None
    place: int | None = None
    details: tuple[tuple[str, str], ...] = ()  # shown on the sheet, not part of the score
    result: str = ""


@dataclass(frozen=True)
class Round:
    """One round (hand) of a game with rounds: points scored by each player and a caption."""

    label: str
    points: tuple[tuple[str, Number], ...]
    caption: str = ""


@dataclass(frozen=True)
class Scoresheet:
    game: str
    title: str
    finished: bool
    outcome: str  # how the game ended, or how it stands
    winners: tuple[str, ...]
    rows: tuple[Row, ...]
    seat_label: str = "Seat"
    total_label: str = "Total"
    tiebreaks: tuple[str, ...] = ()
    rounds: tuple[Round, ...] = ()
    notes: tuple[str, ...] = ()
    blank: bool = False

    @property
    def category_names(self) -> list[str]:
        return [name for name, _ in self.rows[0].categories] if self.rows else []

    @property
    def detail_names(self) -> list[str]:
        return [name for name, _ in self.rows[0].details] if self.rows else []


def places(keys: Mapping[str, Any]) -> dict[str, int]:
    """Competition ranking (1, 1, 3): a higher key is better; equal keys share the place."""
    order = sorted(keys, key=lambda name: keys[name], reverse=True)
    out: dict[str, int] = {}
    for index, name in enumerate(order):
        if index and keys[name] == keys[order[index - 1]]:
            out[name] = out[order[index - 1]]
        else:
            out[name] = index + 1
    return out


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# --------------------------------------------------------------------------------------------
# Renderers


def _cell(value: Any, blank: bool) -> str:
    if blank or value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return clean_line(value)


def _table(sheet: Scoresheet) -> tuple[list[str], list[list[str]]]:
    headers = ["Player", sheet.seat_label, *sheet.category_names, *sheet.detail_names,
               sheet.total_label, "Place", "Result"]
    body = []
    for row in sheet.rows:
        body.append([
            clean_line(row.name) if row.name is not None else ("" if sheet.blank else "-"),
            clean_line(row.seat or ""),
            *(_cell(v, sheet.blank) for _, v in row.categories),
            *(_cell(v, sheet.blank) for _, v in row.details),
            _cell(row.total, sheet.blank),
            _cell(row.place, sheet.blank),
            _cell(row.result, sheet.blank),
        ])
    if not any(row.seat for row in sheet.rows):
        headers.pop(1)
        for line in body:
            line.pop(1)
    return headers, body


def _round_table(sheet: Scoresheet) -> tuple[list[str], list[list[str]]]:
    names = [row.name for row in sheet.rows if row.name is not None]
    headers = ["Round", *(clean_line(n) for n in names), "Note"]
    body = []
    for rnd in sheet.rounds:
        points = dict(rnd.points)
        body.append([clean_line(rnd.label), *(_cell(points.get(n), False) for n in names),
                     clean_line(rnd.caption)])
    return headers, body


def _headline(sheet: Scoresheet) -> list[str]:
    lines = [clean_line(sheet.title)]
    if not sheet.blank:
        lines.append(clean_line(sheet.outcome))
    return lines


def _footer(sheet: Scoresheet) -> list[str]:
    lines = []
    if sheet.tiebreaks:
        lines.append("Ties: " + "; then ".join(sheet.tiebreaks) + ".")
    lines.extend(clean_line(n) for n in sheet.notes)
    return lines


def render_text(sheet: Scoresheet, tablefmt: str = "simple") -> str:
    from tabulate import tabulate

    headers, body = _table(sheet)
    parts = ["\n".join(_headline(sheet)), "",
             tabulate(body, headers, tablefmt=tablefmt, disable_numparse=True)]
    if sheet.rounds and not sheet.blank:
        rh, rb = _round_table(sheet)
        parts += ["", tabulate(rb, rh, tablefmt=tablefmt, disable_numparse=True)]
    footer = _footer(sheet)
    if footer:
        parts += ["", *footer]
    return "\n".join(parts) + "\n"


def render_markdown(sheet: Scoresheet) -> str:
    from tabulate import tabulate

    headers, body = _markdown_cells(*_table(sheet))
    title, *rest = _headline(sheet)
    parts = [f"# {_markdown_text(title)}", ""]
    if rest:
        parts += [f"*{_markdown_text(rest[0])}*", ""]
    parts.append(tabulate(body, headers, tablefmt="github", disable_numparse=True))
    if sheet.rounds and not sheet.blank:
        rh, rb = _markdown_cells(*_round_table(sheet))
        parts += ["", "## Rounds", "", tabulate(rb, rh, tablefmt="github", disable_numparse=True)]
    footer = _footer(sheet)
    if footer:
        parts += ["", *(_markdown_text(line) for line in footer)]
    return "\n".join(parts) + "\n"


# Characters that Markdown reads as markup, and `|`, which ends a table cell.
_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|#"})


def _markdown_text(text: str) -> str:
    """Text shown as itself in Markdown: a name like `_Ann_` or `a|b` stays a name."""
    return text.translate(_MARKDOWN)


def _markdown_cells(headers: list[str], body: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    return [_markdown_text(h) for h in headers], [[_markdown_text(c) for c in row] for row in body]


def render_csv(sheet: Scoresheet) -> str:
    headers, body = _table(sheet)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([_csv_cell(h) for h in headers])
    writer.writerows([_csv_cell(c) for c in row] for row in body)
    return out.getvalue()


_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def _csv_cell(text: str) -> str:
    """A cell a spreadsheet shows as text, never runs as a formula: one that starts with = + - @
    (or a tab or carriage return) and goes on gets a leading apostrophe, unless it is a number
    (a lone `-` is the sheet's own placeholder)."""
    if len(text) > 1 and text[0] in "=+-@\t\r" and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def as_dict(sheet: Scoresheet) -> dict[str, Any]:
    def player(row: Row) -> dict[str, Any]:
        return {"name": row.name, "seat": row.seat, "place": row.place, "total": row.total,
                "categories": dict(row.categories), "details": dict(row.details),
                "result": row.result}

    return {
        "game": sheet.game,
        "title": sheet.title,
        "finished": sheet.finished,
        "outcome": sheet.outcome,
        "winners": list(sheet.winners),
        "players": [player(r) for r in sheet.rows if r.name is not None],
        "others": [player(r) for r in sheet.rows if r.name is None],
        "tiebreaks": list(sheet.tiebreaks),
        "rounds": [{"label": r.label, "points": dict(r.points), "caption": r.caption}
                   for r in sheet.rounds],
        "notes": list(sheet.notes),
    }


def render_json(sheet: Scoresheet) -> str:
    return json_text(as_dict(sheet)) + "\n"


_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; margin: 2em auto; max-width: 60em;
       color: #111; }
h1 { font-size: 1.6em; margin-bottom: .2em; }
p.outcome { font-style: italic; margin-top: 0; }
table { border-collapse: collapse; width: 100%; margin: 1em 0; }
th, td { border: 1px solid #444; padding: .45em .6em; text-align: center; }
th { background: #eee; }
td.name { text-align: left; font-weight: bold; }
table.blank td { height: 2.2em; }
tr.winner td { background: #f6efd0; }
footer { font-size: .85em; color: #444; }
@media print { body { margin: 0; max-width: none; } th { background: #ddd !important; }
  tr.winner td { background: none; } }
"""


def render_html(sheet: Scoresheet) -> str:
    esc = html.escape
    headers, body = _table(sheet)
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    rows = []
    for row, cells in zip(sheet.rows, body):
        css = ' class="winner"' if row.name in sheet.winners and not sheet.blank else ""
        tds = "".join(f'<td{" class=name" if i == 0 else ""}>{esc(c)}</td>'
                      for i, c in enumerate(cells))
        rows.append(f"<tr{css}>{tds}</tr>")
    title, *rest = _headline(sheet)
    parts = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        f"<title>{esc(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
        f"<h1>{esc(title)}</h1>",
    ]
    if rest:
        parts.append(f'<p class="outcome">{esc(rest[0])}</p>')
    table_class = ' class="blank"' if sheet.blank else ""
    parts += [f"<table{table_class}>", f"<thead><tr>{head}</tr></thead>", "<tbody>", *rows,
              "</tbody>", "</table>"]
    if sheet.rounds and not sheet.blank:
        rh, rb = _round_table(sheet)
        parts += ["<h2>Rounds</h2>", "<table>",
                  "<thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in rh) + "</tr></thead>",
                  "<tbody>"]
        parts += ["<tr>" + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>" for cells in rb]
        parts += ["</tbody>", "</table>"]
        parts.append(_chart_svg(sheet))
    footer = _footer(sheet)
    if footer:
        parts.append("<footer>" + "<br>".join(esc(line) for line in footer) + "</footer>")
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _chart_svg(sheet: Scoresheet) -> str:
    """A small line chart of running totals per round, drawn inline (no scripts, prints well)."""
    names = [row.name for row in sheet.rows if row.name is not None]
    running: dict[str, list[Number]] = {n: [0] for n in names}
    for rnd in sheet.rounds:
        points = dict(rnd.points)
        for n in names:
            running[n].append(running[n][-1] + points.get(n, 0))
    values = [v for series in running.values() for v in series]
    low, high = min(values), max(values)
    span = (high - low) or 1
    width, height, pad = 600, 220, 30
    steps = max(1, len(sheet.rounds))
    dashes = ["", "6,3", "2,3", "10,4", "4,2,1,2"]
    lines = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 40}" '
             f'role="img" aria-label="running totals">']
    zero_y = pad + (high - 0) / span * (height - 2 * pad)
    lines.append(f'<line x1="{pad}" y1="{zero_y:.1f}" x2="{width - pad}" y2="{zero_y:.1f}" '
                 'stroke="#aaa"/>')
    for i, n in enumerate(names):
        pts = " ".join(
            f"{pad + k * (width - 2 * pad) / steps:.1f},"
            f"{pad + (high - v) / span * (height - 2 * pad):.1f}"
            for k, v in enumerate(running[n]))
        lines.append(f'<polyline points="{pts}" fill="none" stroke="#222" stroke-width="2" '
                     f'stroke-dasharray="{dashes[i % len(dashes)]}"/>')
        lines.append(f'<text x="{pad + i * 110}" y="{height + 30}" font-size="12">'
                     f'<tspan text-decoration="underline">{html.escape(clean_line(n))}</tspan> '
                     f'{running[n][-1]}</text>')
    lines.append("</svg>")
    return "\n".join(lines)


RENDERERS: dict[str, Callable[[Scoresheet], str]] = {
    "text": render_text,
    "markdown": render_markdown,
    "csv": render_csv,
    "json": render_json,
    "html": render_html,
}


def render(sheet: Scoresheet, fmt: str) -> str:
    """The sheet in `fmt`; whatever a renderer let through, no unsafe character leaves here
    (JSON escapes its own)."""
    text = RENDERERS[fmt](sheet)
    return text if fmt == "json" else clean(text)

