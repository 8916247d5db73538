"""A game's rules as tables: the sections of the rules the referee enforces, and the table rulings.

Every refusal cites one entry by its id (`rule: R-7`, `rule: Turn (1b)`), so a citation can be
checked: the tests hold every cited id against its game's rulebook, and every ruling against the
game's `referee rules` text and man page. `Rulebook.reference` prints the whole thing for
`referee rules GAME`, with the notation and the log events the game's declarations give it
(`Game.rules`: this module is below `engine` and never imports it).
"""

from __future__ import annotations

import textwrap
from typing import Any, Mapping, Sequence

from referee.values import value

WIDTH = 96


@value
class Rule:
    """One citable entry: a section of the rules (`Trade`) or a table ruling (`R-3`).

    A ruling may be an option chosen at `referee new`; its default is that option's default.
    Text lines that start with a space are printed as they are (tables); others are wrapped.
    """

    id: str
    text: str
    option: str = ""


@value
class Rulebook:
    title: str = ""
    sections: tuple[Rule, ...] = ()  # the rules as the referee enforces them, in reading order
    rulings: tuple[Rule, ...] = ()  # R-n: where the rules are silent or unclear
    notation: str = ""  # notes after the notation forms (card names, abbreviations)

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(r.id for r in self.sections + self.rulings)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self.ids

    def ruling(self, rule_id: str) -> Rule:
        return next(r for r in self.rulings if r.id == rule_id)


def _wrap(label: str, text: str, indent: int, width: int = 0) -> list[str]:
    """`label` then `text`, wrapped; lines of `text` that start with a space stay as they are."""
    out: list[str] = []
    pad = " " * indent
    for number, line in enumerate(text.split("\n")):
        head = label if number == 0 else ""
        if line.startswith(" "):
            out.append(line)
            continue
        first = (head + " ").ljust(indent) if head else pad
        out.extend(textwrap.wrap(line, width or WIDTH, initial_indent=first, subsequent_indent=pad,
                                 break_on_hyphens=False) or [first.rstrip()])
    return out


def _value(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def reference(book: Rulebook, game_id: str, defaults: Mapping[str, Any],
              forms: Sequence[tuple[str, str]], events: str, width: int = 0) -> str:
    """The text of `referee rules GAME`: rules, rulings (with the options' `defaults`),
    notation (`forms`: syntax, meaning) and log events (`events`, their signatures), wrapped to
    `width` columns (a terminal's; by default WIDTH)."""
    lines = [book.title, ""]
    for section in book.sections:
        lines += _wrap(f"{section.id}:", section.text, 0, width)
    lines += ["", "Table rulings (defaults; an option is changed with `referee new --option K=V`):"]
    for ruling in book.rulings:
        text = ruling.text
        if ruling.option:
            text = f"option {ruling.option} = {_value(defaults[ruling.option])}: {text}"
        lines += _wrap(f" {ruling.id}:", text, 7, width)
    lines += ["", "Notation (case-insensitive; `referee options` prints the canonical forms):"]
    column = min(40, max((len(syntax) for syntax, _ in forms), default=0) + 2)
    if width and width < 2 * column:  # a narrow terminal: each meaning under its form
        column = 4
    for syntax, meaning in forms:
        if len(syntax) + 2 > column:
            lines.append(f"  {syntax}")
            lines += _wrap("", meaning, column + 2, width)
        else:
            lines += _wrap(f"  {syntax}", meaning, column + 2, width)
    if book.notation:
        lines += _wrap("", book.notation, 0, width)
    lines += [""] + _wrap("", f"Log events (see referee-{game_id}(6)): {events}.", 0, width)
    return "\n".join(lines).rstrip() + "\n"
