"""The scoresheet as a self-contained page to print and keep: one A4 or Letter page with an
explicit page size, rows never split across pages, the facts of the game at the top, and a chart
of running totals with axes, a scale, round labels and every line named at its end and in a
legend (colour, dash pattern and marker shape, so that it survives black-and-white printing).
A story that may outgrow the page (a `Section` with `own_page`) is printed in its place when
the whole sheet fits one page with it (`referee.sheets.fit` estimates it), else it follows on a
page of its own.

Everything is laid out to fit the smaller of the two papers (A4's width, Letter's height).
"""

from __future__ import annotations

import html
import re
from typing import Sequence

from referee.scoresheet import (
    BLANK_FACTS,
    Column,
    Number,
    Scoresheet,
    Section,
    chart_ticks,
    chart_title,
    display_table,
    facts,
    has_chart,
    round_table,
    round_ticks,
    rounds_title,
    running_totals,
    section_table,
    tables_below,
    tie_rule,
)
from referee.sheets.chart import style, tick_text
from referee.textsafe import clean_line

PAPERS = {"a4": "A4", "letter": "letter"}
MANY_COLUMNS = 9  # a wider table is set in a smaller type (Kingmaker: ten columns)
SHORT_TEXT = 12  # a column of texts this short keeps them on one line
LONG_NAME = 24  # a longer name may wrap in its cell rather than push the table off the page
END_LABEL_CHARS = 22  # longer names are cut at a line's end (the legend has them in full)

# The page's own margins, and its margin boxes declared empty: Chromium then prints no header
# or footer of its own (date, title, file:// path, page number), whatever its print settings.
# In print the body is exactly the page's height, so the Notes box takes what is left of it.
_CSS = """
@page { size: %(paper)s portrait; margin: 12mm 13mm;
        @top-left { content: ""; } @top-center { content: ""; } @top-right { content: ""; }
        @bottom-left { content: ""; } @bottom-center { content: ""; }
        @bottom-right { content: ""; } }
* { box-sizing: border-box; }
html { font: 10pt/1.35 'DejaVu Serif', Georgia, 'Times New Roman', serif; color: #111; }
body { margin: 0; }
@media screen { body { max-width: 184mm; margin: 1.5em auto; padding: 0 1em; }
                div.ruled { height: 40mm; } }
@media print { html, body { height: 100%%; }
               body { display: flex; flex-direction: column; }
               section.story { flex: 0 0 0; min-height: 0; } }
header { margin-bottom: 2mm; display: flex; gap: 4mm; align-items: flex-start; }
header div.heading { flex: 1; }
h1 { font-size: 17pt; margin: 0 0 1mm; }
h2 { font-size: 11pt; margin: 2.2mm 0 0.8mm; }
p.outcome { font-size: 11pt; font-weight: bold; margin: 0 0 1.5mm; }
dl.facts { display: flex; flex-wrap: wrap; gap: 1mm 6mm; margin: 0; }
dl.facts div { display: flex; gap: 1.5mm; }
dl.facts dt { font-weight: bold; }
dl.facts dt::after { content: ":"; }
dl.facts dd { margin: 0; }
div.fill { display: grid; grid-template-columns: auto 1fr auto 1fr; gap: 3mm 3mm;
           align-items: end; margin-top: 2mm; }
div.fill span.line { border-bottom: 1px solid #333; height: 7mm; }
table { border-collapse: collapse; width: 100%%; margin: 0 0 2mm;
        break-inside: avoid; page-break-inside: avoid; }
thead { display: table-header-group; }
tr, figure, section.chart, section.ties, ul.legend li { break-inside: avoid;
                                                        page-break-inside: avoid; }
th, td { border: 1px solid #555; padding: 0.5mm 1.5mm; vertical-align: middle; }
th { background: #e6e6e6; text-align: center; font-weight: bold;
     print-color-adjust: exact; -webkit-print-color-adjust: exact; }
th.name, td.name, td.text { text-align: left; }
td.name { font-weight: bold; white-space: nowrap; }
td.long { white-space: normal; overflow-wrap: anywhere; }
td.short { white-space: nowrap; }
th.short { width: 1%%; }  /* as narrow as its cells: the room goes to the long texts */
table.many, table.rounds { font-size: 9pt; }
table.section { font-size: 8pt; line-height: 1.2; }
table.section th, table.section td { padding: 0.3mm 1.2mm; }
table.many th, table.many td { padding: 0.5mm 0.7mm; }
table.rounds td { padding-top: 0.4mm; padding-bottom: 0.4mm; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.many td.place { white-space: nowrap; }  /* "shared 2nd" on one line: a row less */
tr.winner td { background: #f3e7b3; print-color-adjust: exact; -webkit-print-color-adjust: exact; }
tr.winner td.name::after { content: " \\2605"; }
body.blank table.scores td { height: 10mm; }
body.blank th.name { width: 50mm; }
body.blank th.num, body.blank th.place { min-width: 11mm; }
body.blank table.rounds td { height: 8.5mm; }
body.blank table.section td { height: 5.5mm; }
figure { margin: 0; }
svg.chart { width: 100%%; height: auto; display: block; font-family: 'DejaVu Sans', Arial,
            sans-serif; }
ul.legend { list-style: none; margin: 1mm 0 0; padding: 0; display: flex; flex-wrap: wrap;
            gap: 1mm 5mm; font-size: 9.5pt; }
ul.legend li { display: flex; align-items: center; gap: 1.5mm; overflow-wrap: anywhere; }
svg.sample { flex: none; }
section.ties { margin-top: 1.5mm; font-size: 9.5pt; }
section.ties p, section.ties ul, footer p { margin: 0 0 1mm; }
section.ties ul { padding-left: 5mm; }
footer { font-size: 8pt; line-height: 1.25; color: #333; margin-top: 1.5mm; }
footer p { display: inline; }  /* the notes run on, a long game's record in a few lines */
footer p + p::before { content: " \\2022  "; }
section.explanation { font-size: 8pt; line-height: 1.2; columns: 2; column-gap: 5mm;
                      margin-top: 1.5mm; }
section.explanation p { margin: 0 0 0.6mm; break-inside: avoid; }
section.end { flex: 1 1 0; min-height: 16mm; display: flex; flex-direction: column;
              margin-top: 1mm; break-inside: avoid; page-break-inside: avoid; }
div.ruled { flex: 1 1 0; min-height: 8mm; font-weight: bold; line-height: 7mm;
            background: repeating-linear-gradient(to bottom, transparent 0 7.6mm,
                                                   #999 7.6mm 8mm);
            print-color-adjust: exact; -webkit-print-color-adjust: exact; }
figure.qr { flex: none; width: 34mm; margin: 0; text-align: center; font-size: 7pt;
            line-height: 1.15; }
figure.qr svg { width: 34mm; height: 34mm; display: block; }
div.signatures { display: grid; grid-template-columns: repeat(%(signers)d, 1fr); gap: 0 4mm;
                 margin-top: 1mm; font-size: 8pt; break-inside: avoid; }
div.signatures div { overflow-wrap: anywhere; }
div.signatures span { display: block; height: 6mm; border-bottom: 1px solid #333; }
/* A story (Kingmaker's "What happened") starts a page of its own. In print it takes no room in
   the body's flex column, so that page 1 stays the whole scoresheet, and flows on below it (over
   more pages if it must, its rows never split: see tr above). */
section.story { break-before: page; page-break-before: always; }
section.story table { break-inside: auto; page-break-inside: auto; }
"""


# The corrections under the notes, one a line (set on the list: a page without any keeps its
# style sheet as it was).
_LIST = "margin: 0.3mm 0 0; padding-left: 4mm; font-size: 7pt; line-height: 1.2"


def prose(text: str) -> str:
    """A sentence of the sheet, escaped, its `commands` set as code (not raw backticks)."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(clean_line(text)))


def render(sheet: Scoresheet, paper: str = "a4") -> str:
    esc = html.escape
    title = clean_line(sheet.title)
    parts = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title>",
        f"<style>{_CSS % {'paper': PAPERS.get(paper, 'A4'), 'signers': _signers(sheet)}}"
        "</style>",
        "</head>", '<body class="blank">' if sheet.blank else "<body>", "<header>",
        '<div class="heading">', f"<h1>{esc(title)}</h1>",
    ]
    if not sheet.blank:
        parts.append(f'<p class="outcome">{prose(sheet.outcome)}</p>')
    if sheet.blank:
        parts.append('<div class="fill">' + "".join(
            f'<b>{esc(k)}</b><span class="line"></span>' for k in BLANK_FACTS) + "</div>")
    else:
        shown = facts(sheet)
        if shown:
            parts.append('<dl class="facts">' + "".join(
                f"<div><dt>{esc(k)}</dt><dd>{esc(v)}</dd></div>" for k, v in shown) + "</dl>")
    parts += ["</div>", "" if sheet.blank or not sheet.players else _qr_figure(sheet),
              "</header>"]
    columns, body = display_table(sheet)
    parts += _table(columns, body, "scores" + (" many" if len(columns) > MANY_COLUMNS else ""),
                    [row.name in sheet.winners and not sheet.blank for row in sheet.rows])
    if sheet.rounds and sheet.round_table:
        parts.append(f"<h2>{esc(rounds_title(sheet))}</h2>")
        columns, body = round_table(sheet)
        parts += _table(columns, body, "rounds")
    apart = stories_apart(sheet)
    for section in tables_below(sheet):
        if not (section.own_page and apart):
            parts += _section(section, sheet)
    if sheet.explanation:
        parts += ['<section class="explanation">'] + [
            f"<p>{prose(text)}</p>" for text in sheet.explanation] + ["</section>"]
    if has_chart(sheet):
        parts += ['<section class="chart">', f"<h2>{esc(chart_title(sheet))}</h2>",
                  "<figure>", chart_svg(sheet), legend(sheet), "</figure>", "</section>"]
    rule = tie_rule(sheet)
    if rule or sheet.tie_notes:
        parts += ['<section class="ties">']  # the rule starts "Ties:": no heading needed
        if rule:
            parts.append(f"<p>{esc(rule)}</p>")
        if sheet.tie_notes:
            parts.append("<ul>" + "".join(f"<li>{prose(n)}</li>"
                                          for n in sheet.tie_notes) + "</ul>")
        parts.append("</section>")
    if sheet.notes:
        fixes = "".join(f"<li>{prose(fix.sentence())}</li>" for fix in sheet.corrections)
        parts.append("<footer>" + "".join(f"<p>{prose(n)}</p>" for n in sheet.notes)
                     + (f'<ul class="corrections" style="{_LIST}">{fixes}</ul>' if fixes
                        else "")
                     + "</footer>")
    parts += _end(sheet)
    for section in tables_below(sheet):
        if section.own_page and apart:  # after the signatures: the scoresheet stays one page
            parts += ['<section class="story">', *_section(section, sheet), "</section>"]
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def stories_apart(sheet: Scoresheet) -> bool:
    """Whether the sheet's own-page stories start a page of their own (`section.story` in the
    style sheet): only when the sheet with them in place would not fit one page. A story that
    fits is a table like the others, above the Notes' lines and the signatures."""
    from referee.sheets.fit import fits_with_stories

    return any(s.own_page for s in tables_below(sheet)) and not fits_with_stories(sheet)


def _section(section: Section, sheet: Scoresheet) -> list[str]:
    return [f"<h2>{html.escape(clean_line(section.title))}</h2>",
            *_table(*section_table(section), "rounds section", section=not sheet.blank)]


def _table(columns: Sequence[Column], body: list[list[str]], css: str,
           winners: Sequence[bool] = (), section: bool = False) -> list[str]:
    """A table; in a `section` (a breakdown's), columns of short texts stay narrow."""
    esc = html.escape
    short = [section and c.kind == "text" and all(len(row[i]) <= SHORT_TEXT for row in body)
             for i, c in enumerate(columns)]
    head = "".join(f'<th class="{c.kind}{" short" * short[i]}" scope="col">'
                   f"{_header(c, short[i])}</th>" for i, c in enumerate(columns))
    rows = []
    for index, cells in enumerate(body):
        mark = ' class="winner"' if index < len(winners) and winners[index] else ""
        tds = "".join(f'<td class="{_css(c, cell, short[i])}">{esc(cell)}</td>'
                      for i, (c, cell) in enumerate(zip(columns, cells)))
        rows.append(f"<tr{mark}>{tds}</tr>")
    return [f'<table class="{css}">', f"<thead><tr>{head}</tr></thead>", "<tbody>", *rows,
            "</tbody>", "</table>"]


def _header(column: Column, short: bool) -> str:
    """A header, escaped; over a column of short texts (a player's tricks and points) one
    word a line, so that the column is as narrow as its cells and the long texts of other
    columns have the room."""
    words = html.escape(column.header).split(" ")
    return ("<br>" if short else " ").join(words)


def _css(column: Column, cell: str, short: bool = False) -> str:
    """A cell's class: its column's kind; a column of short texts keeps them on one line; a
    name longer than any real one may wrap."""
    if short:
        return "text short"
    return column.kind + (" long" if column.kind == "name" and len(cell) > LONG_NAME else "")


SIGNERS_PER_LINE = 7  # every player's line side by side: Kingmaker's seven too


def _signers(sheet: Scoresheet) -> int:
    return max(1, min(SIGNERS_PER_LINE, len(sheet.rows if sheet.blank else sheet.players)))


def _end(sheet: Scoresheet) -> list[str]:
    """The foot of the page: ruled lines for notes, filling what the page has left, and a line
    for each player to sign, their name under it."""
    esc = html.escape
    names = ["Signature"] * len(sheet.rows) if sheet.blank else [clean_line(n)
                                                                 for n in sheet.players]
    return ['<section class="end">', '<div class="ruled">Notes</div>',
            '<div class="signatures">' + "".join(f"<div><span></span>{esc(name)}</div>"
                                                 for name in names) + "</div>", "</section>"]


def _qr_figure(sheet: Scoresheet) -> str:
    """The play's BG Stats link as a QR code (inline SVG): a phone's camera opens the app's
    import dialog."""
    from referee import export

    link = export.play_link(sheet)
    return (f'<figure class="qr">{export.qr_svg(link)}'
            "<figcaption>Scan: the play in BG Stats</figcaption></figure>")


# --------------------------------------------------------------------------------------------
# The chart

WIDTH, HEIGHT = 680, 128
LEFT, RIGHT, TOP, BOTTOM = 46, 168, 12, 36  # margins of the plot area
LABEL_GAP = 13  # the least vertical distance between two end labels


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    stroke = f'stroke="{colour}" stroke-width="1.6"'
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.4" fill="{colour}" {stroke}/>'
    if shape == "square":
        return (f'<rect x="{x - 3.2:.1f}" y="{y - 3.2:.1f}" width="6.4" height="6.4" '
                f'fill="#fff" {stroke}/>')
    if shape == "triangle":
        return (f'<path d="M{x:.1f},{y - 4.2:.1f} L{x + 4:.1f},{y + 3:.1f} '
                f'L{x - 4:.1f},{y + 3:.1f} Z" fill="{colour}" {stroke}/>')
    if shape == "diamond":
        return (f'<path d="M{x:.1f},{y - 4.4:.1f} L{x + 4:.1f},{y:.1f} L{x:.1f},{y + 4.4:.1f} '
                f'L{x - 4:.1f},{y:.1f} Z" fill="#fff" {stroke}/>')
    if shape == "cross":
        return (f'<path d="M{x - 3.4:.1f},{y - 3.4:.1f} L{x + 3.4:.1f},{y + 3.4:.1f} '
                f'M{x - 3.4:.1f},{y + 3.4:.1f} L{x + 3.4:.1f},{y - 3.4:.1f}" fill="none" '
                f'{stroke}/>')
    if shape == "plus":
        return (f'<path d="M{x - 4:.1f},{y:.1f} L{x + 4:.1f},{y:.1f} M{x:.1f},{y - 4:.1f} '
                f'L{x:.1f},{y + 4:.1f}" fill="none" {stroke}/>')
    return (f'<rect x="{x - 1.5:.1f}" y="{y - 4:.1f}" width="3" height="8" fill="{colour}" '
            f'{stroke}/>')


def _spread(wanted: list[float], low: float, high: float, gap: float) -> list[float]:
    """Label positions near `wanted` (any order) at least `gap` apart, within [low, high]."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [wanted[i] for i in order]
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + gap)
    overflow = placed[-1] - high if placed else 0
    if overflow > 0:
        placed = [p - overflow for p in placed]
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
        shift = low - placed[0]
        if shift > 0:
            placed = [p + shift for p in placed]
    out = [0.0] * len(wanted)
    for k, i in enumerate(order):
        out[i] = placed[k]
    return out


def chart_svg(sheet: Scoresheet) -> str:
    """Running totals per round as lines on a scale: an inline SVG, no scripts."""
    esc = html.escape
    series = running_totals(sheet)
    ticks = chart_ticks(sheet)
    low, high = ticks[0], ticks[-1]
    rounds = len(sheet.rounds)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(k: int) -> float:
        return LEFT + k * plot_w / max(1, rounds)

    def y(value: Number) -> float:
        return TOP + (high - value) / ((high - low) or 1) * plot_h

    out = [f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} '
           f'{HEIGHT}" role="img" aria-label="{esc(chart_title(sheet).lower())}" '
           f'font-size="11">']
    for t in ticks:
        colour, width = ("#777", 1.2) if t == 0 else ("#d4d4d4", 0.8)
        out.append(f'<line x1="{LEFT}" y1="{y(t):.1f}" x2="{LEFT + plot_w}" y2="{y(t):.1f}" '
                   f'stroke="{colour}" stroke-width="{width}"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y(t) + 4:.1f}" text-anchor="end">'
                   f"{esc(tick_text(t))}</text>")
    bottom = TOP + plot_h
    out.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}" stroke="#333"/>')
    out.append(f'<line x1="{LEFT}" y1="{bottom}" x2="{LEFT + plot_w}" y2="{bottom}" '
               'stroke="#333"/>')
    labels = ["start", *round_ticks(sheet)]
    every = max(1, -(-rounds // 24))  # at most about 24 round labels
    for k, label in enumerate(labels):
        out.append(f'<line x1="{x(k):.1f}" y1="{bottom}" x2="{x(k):.1f}" y2="{bottom + 4}" '
                   'stroke="#333"/>')
        if k == rounds or (k % every == 0 and rounds - k >= every):  # the last never crowded
            out.append(f'<text x="{x(k):.1f}" y="{bottom + 15}" text-anchor="middle">'
                       f"{esc(label)}</text>")
    out.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 4}" text-anchor="middle" '
               f'font-weight="bold">{esc(sheet.round_label)}</text>')
    out.append(f'<text x="12" y="{TOP + plot_h / 2:.1f}" text-anchor="middle" '
               f'font-weight="bold" transform="rotate(-90 12 {TOP + plot_h / 2:.1f})">'
               f"{esc(sheet.chart_unit)}</text>")
    ends = _spread([y(values[-1] if values else 0) for _, values in series], TOP + 4,
                   bottom, LABEL_GAP)
    for index, (name, values) in enumerate(series):
        colour, dash, shape = style(index)
        points = [(x(0), y(0))] + [(x(k + 1), y(v)) for k, v in enumerate(values)]
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g class="series" data-player="{esc(clean_line(name))}">')
        out.append('<polyline points="' + " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
                   + f'" fill="none" stroke="{colour}" stroke-width="2.2"{dashes}/>')
        out += [_marker(shape, px, py, colour) for px, py in points[1:]]
        end_x, end_y = points[-1]
        label_y = ends[index]
        if abs(label_y - end_y) > 2:
            out.append(f'<line x1="{end_x + 4:.1f}" y1="{end_y:.1f}" x2="{end_x + 10:.1f}" '
                       f'y2="{label_y - 4:.1f}" stroke="{colour}" stroke-width="0.8"/>')
        shown = clean_line(name)
        if len(shown) > END_LABEL_CHARS:
            shown = shown[:END_LABEL_CHARS - 1] + "\u2026"
        total = tick_text(values[-1]) if values else "0"
        out.append(f'<text x="{end_x + 12:.1f}" y="{label_y:.1f}" fill="{colour}">'
                   f'<tspan font-weight="bold">{esc(shown)}</tspan> {esc(total)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def legend(sheet: Scoresheet) -> str:
    """A sample of each line (colour, dash pattern, marker) with the player's name and total."""
    esc = html.escape
    items = []
    for index, (name, values) in enumerate(running_totals(sheet)):
        colour, dash, shape = style(index)
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        sample = (f'<svg class="sample" width="46" height="14" viewBox="0 0 46 14" '
                  f'aria-hidden="true"><line x1="2" y1="7" x2="44" y2="7" stroke="{colour}" '
                  f'stroke-width="2.2"{dashes}/>{_marker(shape, 23, 7, colour)}</svg>')
        total = tick_text(values[-1]) if values else "0"
        items.append(f"<li>{sample}<span><b>{esc(clean_line(name))}</b> {esc(total)}</span>"
                     "</li>")
    return '<ul class="legend">' + "".join(items) + "</ul>"
