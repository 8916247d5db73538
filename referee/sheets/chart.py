"""What the text and HTML charts of running totals share: the scale, and how each line is told
apart (a letter in the terminal; a colour, a dash pattern and a marker shape on paper)."""

from __future__ import annotations

import math
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


def nice_ticks(values: Sequence[Number], most: int = 7) -> list[Number]:
    """Round tick values (steps of 1, 2 or 5 times a power of ten) covering `values` and 0."""
    low, high = min([0, *values]), max([0, *values])
    if low == high:
        high = low + 1
    span = high - low
    exponent = math.floor(math.log10(span / max(1, most - 1)))
    if all(isinstance(v, int) for v in values):
        exponent = max(0, exponent)  # whole points: whole steps
    while True:
        for mantissa in (1, 2, 5):
            step = mantissa * 10.0 ** exponent
            first, last = math.floor(low / step), math.ceil(high / step)
            if last - first <= most - 1:
                return [_tidy(k * step) for k in range(first, last + 1)]
        exponent += 1


def _tidy(value: float) -> Number:
    rounded = round(value, 6)
    return int(rounded) if float(rounded).is_integer() else rounded


def tick_text(value: Number) -> str:
    return number(value)


def letters(names: Sequence[str]) -> list[str]:
    """One marker letter per player: the initials when they differ, else A, B, C..."""
    initials = [(n.strip()[:1] or "?").upper() for n in names]
    if len(set(initials)) == len(initials) and all(c.isalpha() and c.isascii()
                                                   for c in initials):
        return initials
    return [chr(ord("A") + i) if i < 26 else str(i) for i in range(len(names))]
