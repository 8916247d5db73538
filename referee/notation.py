"""Shared helpers for reading move text: tokens, forgiving word matching, lists.

Input is short and forgiving (any case, unique prefixes); output is always the canonical form.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence, TypeVar

from referee.errors import AmbiguousMove, NotationError

T = TypeVar("T")

_SPACE = re.compile(r"\s+")


def words(text: str) -> list[str]:
    """The text split into words, commas kept as their own tokens."""
    return _SPACE.split(text.replace(",", " , ").strip()) if text.strip() else []


def split_list(parts: Sequence[str]) -> list[list[str]]:
    """Split a run of words at commas and at the word `and`: 'PA3, PF1 and SR2' -> 3 items."""
    items: list[list[str]] = [[]]
    for word in parts:
        if word == "," or word.lower() == "and":
            items.append([])
        else:
            items[-1].append(word)
    return [item for item in items if item]


def match(word: str, choices: Iterable[str], what: str, *, text: str | None = None) -> str:
    """The one choice `word` names: an exact match (any case) or a unique prefix.

    Raises NotationError when nothing matches and AmbiguousMove when several do; the message names
    the word, what it should have been, and the whole input when `text` is given.
    """
    options = list(choices)
    low = word.casefold()
    for choice in options:
        if choice.casefold() == low:
            return choice
    hits = [c for c in options if c.casefold().startswith(low)] if low else []
    where = f" in {text!r}" if text is not None else ""
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise AmbiguousMove(f"{word!r}{where} could be the {what} {' or '.join(hits)}",
                            code="ambiguous-word")
    raise NotationError(f"{word!r}{where} is not a {what}; expected one of {', '.join(options)}",
                        code="unknown-word")


def expect_end(parts: Sequence[str], text: str) -> None:
    if parts:
        raise NotationError(f"unexpected {' '.join(parts)!r} at the end of {text!r}",
                            code="trailing-words")
