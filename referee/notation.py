"""Shared helpers for reading move text: tokens, forgiving word matching, lists.

Input is short and forgiving (any case, unique prefixes of MIN_PREFIX or more characters); output
is always the canonical form. Text that names nothing is refused, never guessed: an empty word
begins every name, and one or two letters begin too many to be a choice.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Sequence, TypeVar

from referee.errors import AmbiguousMove, NotationError, UsageError

T = TypeVar("T")

_SPACE = re.compile(r"\s+")

MIN_PREFIX = 3  # the shortest abbreviation read as a word it begins (DESIGN.md "Notation")


def prefixed(typed: str, choices: Iterable[str],
             key: Callable[[str], str] = str.casefold) -> list[str]:
    """The choices whose `key` begins with `typed` (already in the key's form), when `typed` is
    long enough to be an abbreviation at all: an empty, one- or two-character word names none."""
    if len(typed) < MIN_PREFIX:
        return []
    return [choice for choice in choices if key(choice).startswith(typed)]


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


def initials(choices: Iterable[str]) -> dict[str, str]:
    """Each choice by its first letter, where the notation documents that short form (`PA3`,
    `l3`): an alias for `match`, never a prefix."""
    return {choice[0].casefold(): choice for choice in choices}


def match(word: str, choices: Iterable[str], what: str, *, text: str | None = None,
          aliases: dict[str, str] | None = None) -> str:
    """The one choice `word` names: an exact match (any case), a documented alias (keys in
    lower case) or a unique prefix of at least MIN_PREFIX characters.

    Raises NotationError when nothing matches and AmbiguousMove when several do; the message names
    the word, what it should have been, and the whole input when `text` is given.
    """
    options = list(choices)
    low = word.casefold()
    for choice in options:
        if choice.casefold() == low:
            return choice
    if aliases and low in aliases:
        return aliases[low]
    hits = prefixed(low, options)
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


def match_choice(text: str, choices: Iterable[str], what: str) -> str:
    """The one choice `text` names (any case, unique prefix of three or more characters), or
    UsageError."""
    options = list(choices)
    low = text.strip().casefold()
    exact = [c for c in options if c.casefold() == low]
    if exact:
        return exact[0]
    hits = prefixed(low, options)
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise UsageError(f"{what}: {text!r} could be {', '.join(hits)}", code="bad-seat")
    raise UsageError(f"{what}: {text!r} is not one of {', '.join(options)}", code="bad-seat")


def choices_hint(word: str, choices: Iterable[str]) -> str | None:
    import difflib  # only on an error path: keep it off start-up

    close = difflib.get_close_matches(word, list(choices), n=3)
    return f"did you mean {' or '.join(close)}?" if close else None
