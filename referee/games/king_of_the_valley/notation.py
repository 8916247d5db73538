"""King of the Valley's words: squares (c3), hill slots (left 2), tiles (knight-A, tax-3-6),
castle columns, and the passed tiles a move takes (`take farmer`, `take b2 d4`)."""

from __future__ import annotations

from typing import Sequence

from referee.errors import AmbiguousMove, IllegalMove, NotationError
from referee.games.king_of_the_valley.components import (
    _TAX,
    COLUMNS,
    FILES,
    HILL_ROWS,
    SIDES,
    SIZE,
    between,
    kind,
    tile_names,
    valid_tax,
)
from referee.games.king_of_the_valley.state import State
from referee.notation import initials, match, prefixed


def plain(words: Sequence[str]) -> list[str]:
    """Words without the commas the core keeps as tokens (commas only separate here)."""
    return [w for w in words if w != ","]


def need(parts: Sequence[str], count: int, text: str, example: str) -> None:
    if len(parts) < count:
        raise NotationError(f"{text!r} is incomplete; write {example}", code="incomplete-move")


def parse_square(word: str, text: str) -> int:
    low = word.lower()
    if len(low) != 2 or low[0] not in FILES or low[1] not in "12345":
        raise NotationError(f"{word!r} in {text!r} is not a valley square (a1..e5)",
                            code="bad-square")
    return (int(low[1]) - 1) * SIZE + FILES.index(low[0])


def looks_like_square(word: str) -> bool:
    return len(word) == 2 and word[0].lower() in "abcde" and word[1] in "12345"


def parse_tile(word: str, orders: tuple[str, ...], text: str) -> str:
    """A tile name from forgiving input: any case, unique prefixes, `knight a` joined earlier."""
    low = word.lower()
    if low.startswith("tax-") and _TAX.match(low):
        if not valid_tax(low):
            raise NotationError(f"{word!r} in {text!r} is not a tax collector tile: write tax-G "
                                "(G = 3 or 4) or tax-N-G (N = 3, 4, 5; G = 5..10) (R-3)",
                                code="unknown-tile")
        return low
    names = [n for n in tile_names(orders) if not n.startswith("tax-")]
    if low == "tax":
        raise NotationError(f"'tax' in {text!r}: name the tile as printed, e.g. tax-3 or "
                            "tax-4-7 (R-3)", code="unknown-tile")
    try:
        return match(word, names, "tile", text=text)
    except AmbiguousMove:
        raise
    except NotationError:
        raise NotationError(f"{word!r} in {text!r} is not a tile; the tiles are "
                            f"{', '.join(names)}, and the tax collectors as printed: tax-G (G "
                            "gold: tax-3, tax-4) or tax-N-G (N identical subjects, G gold: "
                            "tax-3-6) (R-3)", code="unknown-word") from None


def join_knight_words(parts: Sequence[str], orders: tuple[str, ...]) -> list[str]:
    """Allow `knight A` for `knight-A` by joining a knight word with an Order label after it."""
    out: list[str] = []
    labels = {o.casefold() for o in orders}
    for word in parts:
        if out and prefixed(out[-1].casefold(), ["knight"]) and word.casefold() in labels:
            out[-1] = f"knight-{word}"
        else:
            out.append(word)
    return out


def column(word: str, text: str) -> str:
    return match(word.rstrip("s") if word.lower() not in COLUMNS else word, COLUMNS,
                 "castle column", text=text)


def parse_slot(parts: Sequence[str], text: str, example: str) -> tuple[str, int, list[str]]:
    """`left 3` -> ('left', 3, rest); also `l3`, `left3`."""
    parts = list(parts)
    if parts and len(parts[0]) > 1 and parts[0][-1].isdigit() and not parts[0].isdigit():
        parts = [parts[0].rstrip("0123456789"), parts[0][len(parts[0].rstrip("0123456789")):],
                 *parts[1:]]
    need(parts, 2, text, example)
    side = match(parts[0], SIDES, "hill column", text=text, aliases=initials(SIDES))
    if not parts[1].isdecimal() or not 1 <= int(parts[1]) <= HILL_ROWS:
        raise NotationError(f"{parts[1]!r} in {text!r} is not a hill row (1-6, 1 = bottom)",
                            code="bad-row")
    return side, int(parts[1]), parts[2:]


def parse_as(parts: Sequence[str], text: str) -> str | None:
    """A Jester's column, `as COLUMN`, or None when nothing follows."""
    if not parts:
        return None
    if parts[0].lower() != "as" or len(parts) != 2:
        raise NotationError(f"{text!r}: a Jester's column is given as 'as COLUMN', e.g. as duke",
                            code="bad-column")
    return column(parts[1], text)


def as_column(name: str | None) -> str:
    return f" as {name}" if name else ""


def take_of_kind(state: State, path: Sequence[int], what: str, text: str) -> list[int]:
    """`take farmer`: every takeable farmer passed on the last leg (priests visited are gone)."""
    passed = None
    if len(path) >= 2 and path[-2] != path[-1]:
        passed = between(path[-2], path[-1])
    if passed is None:
        raise IllegalMove(f"{text!r}: the last move is not a straight line", code="not-a-line",
                          rule="Summon")
    gone = set(path[1:-1])
    me = state.active
    squares = [s for s in passed if s not in gone and (tile := state.valley[s]) is not None
               and kind(tile) == what and not state.other_king_on(s, me)]
    if not squares:
        raise IllegalMove(f"{text!r}: no {what} is passed on the last move", code="not-passed",
                          rule="Summon")
    return squares


def in_passing_order(path: Sequence[int], squares: list[int]) -> list[int]:
    """Squares typed in any order, sorted as the king passes them (the canonical order)."""
    passed = between(path[-2], path[-1]) if path[-2] != path[-1] else None
    if passed is None:
        return squares
    return sorted(squares, key=lambda s: passed.index(s) if s in passed else len(passed))
