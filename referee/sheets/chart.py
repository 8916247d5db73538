"""What the text and HTML charts of running totals share: the scale, and how each line is told
apart (a letter in the terminal; a colour, a dash pattern and a marker shape on paper)."""

from __future__ import annotations

from typing import Sequence

from referee.scoresheet import Number, number

# Okabe-Ito colours (told apart with colour-blindness) and dash patterns and markers that survive
# black-and-white printing: each line differs from every other in all three.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#000000", "#56B4E9")
DASHES = ("", "9 4", "2 3", "12 3 2 3", "5 2", "1 2", "7 2 2 2 2 2")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "plus", "bar")
DASH_WORDS = ("solid", "dashed", "dotted", "dash-dot", "short dashes", "fine dots", "dash-dot-dot")


def style(index: int) -> tuple[str, str, str]:
    """(colour, dash pattern, marker) of the index-th line."""
    return (COLOURS[index % len(COLOURS)], DASHES[index % len(DASHES)],
            MARKERS[index % len(MARKERS)])


def tick_text(value: Number) -> str:
    return number(value)


def letters(names: Sequence[str]) -> list[str]:
    """One marker letter per player: the initials when they differ, else A, B, C..."""
    initials = [(n.strip()[:1] or "?").upper() for n in names]
    if len(set(initials)) == len(initials) and all(c.isalpha() and c.isascii()
                                                   for c in initials):
        return initials
    return [chr(ord("A") + i) if i < 26 else str(i) for i in range(len(names))]
