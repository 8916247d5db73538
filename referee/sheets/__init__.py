"""Page layouts of the Scoresheet model: `text` (a terminal, 80 columns at most) and `html` (a
printable page); `chart` holds what both charts share; here, every format of `referee
scoresheet` by name (`render`). The model is `referee.scoresheet`, below this package: it never
imports a layout.
"""

from __future__ import annotations

from typing import Callable

from referee.scoresheet import (
    BLANK_FACTS,
    Column,
    Scoresheet,
    chart_title,
    display_table,
    facts,
    has_chart,
    render_csv,
    render_json,
    round_table,
    rounds_title,
    section_table,
    tables_below,
    tie_rule,
)
from referee.textsafe import clean, clean_line


def render_text(sheet: Scoresheet, width: int = 80, unicode: bool = True) -> str:
    from referee.sheets import text

    return text.render(sheet, width, unicode)


def render_markdown(sheet: Scoresheet) -> str:
    from tabulate import tabulate

    from referee.sheets import text

    def table(columns: list[Column], body: list[list[str]]) -> str:
        align = ["right" if c.kind == "num" else "left" for c in columns]
        return tabulate([[_markdown_text(c) for c in row] for row in body],
                        [_markdown_text(c.header) for c in columns], tablefmt="pipe",
                        colalign=align, disable_numparse=True)

    parts = [f"# {_markdown_text(clean_line(sheet.title))}", ""]
    if not sheet.blank:
        parts += [f"*{_markdown_text(clean_line(sheet.outcome))}*", ""]
    shown = [(k, "________") for k in BLANK_FACTS] if sheet.blank else facts(sheet)
    if shown:
        parts += [f"- **{k}:** {v if sheet.blank else _markdown_text(v)}" for k, v in shown]
        parts += [""]
    parts.append(table(*display_table(sheet)))
    if sheet.rounds and sheet.round_table:
        parts += ["", f"## {rounds_title(sheet)}", "", table(*round_table(sheet))]
    for section in tables_below(sheet):
        parts += ["", f"## {_markdown_text(clean_line(section.title))}", "",
                  table(*section_table(section))]
    parts += [line for text in sheet.explanation
              for line in ("", _markdown_text(clean_line(text)))]
    if has_chart(sheet):
        chart = "\n".join(text.chart(sheet, 80, True)[1:])  # its title is the heading
        fence = "`" * max(3, _longest_run(chart, "`") + 1)
        parts += ["", f"## {chart_title(sheet)}", "", fence + "text", chart, fence]
    rule = tie_rule(sheet)
    if rule:
        parts += ["", _markdown_text(rule)]
    if sheet.tie_notes:
        parts += [""] + [f"- {_markdown_text(clean_line(n))}" for n in sheet.tie_notes]
    for note in sheet.notes:
        parts += ["", _markdown_text(clean_line(note))]
    if sheet.corrections:
        parts += [""] + [f"- {_markdown_text(fix.sentence())}" for fix in sheet.corrections]
    return "\n".join(parts) + "\n"


def _longest_run(text: str, char: str) -> int:
    best = run = 0
    for c in text:
        run = run + 1 if c == char else 0
        best = max(best, run)
    return best


# Characters that Markdown reads as markup, and `|`, which ends a table cell.
_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|#"})


def _markdown_text(text: str) -> str:
    """Text shown as itself in Markdown: a name like `_Ann_` or `a|b` stays a name."""
    return text.translate(_MARKDOWN)


def render_html(sheet: Scoresheet, paper: str = "a4") -> str:
    from referee.sheets import html

    return html.render(sheet, paper)


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
