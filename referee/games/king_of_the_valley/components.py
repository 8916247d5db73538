"""King of the Valley's components as data: the 90 character tiles, the box and pile totals, the
valley's geometry, the hill, the castle columns, and the numbers of the scoring.

A tile is named by a short word (`queen`, `knight-A`, `tax-3-6`...). Knights carry their Order's
label (R-1); tax collectors carry what is printed on them (R-3): `tax-G` (no requirement, G gold)
or `tax-N-G` (N identical subjects, G gold).

The valley is a 5x5 grid of squares a1..e5 (a = left column, 1 = the row nearest the starting
player), numbered 0..24 row by row (a1 = 0, e1 = 4, a2 = 5 ... e5 = 24). The hill has two columns
(left = 0, right = 1), each a tuple of tiles from row 1 (bottom, cheapest) upwards.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from referee.errors import UsageError

# The six columns of a castle board, in board order. Each subject goes to the column of its
# portrait; a Jester goes to the column its owner chooses and stands in for that subject.
COLUMNS = ("queen", "duke", "countess", "knight", "farmer", "wife")
INFLUENCE = {"queen": 5, "duke": 4, "countess": 3, "knight": 2, "farmer": 1, "wife": 1,
             "jester": 0}
SUBJECT_KINDS = ("queen", "duke", "countess", "knight", "farmer", "wife", "jester")
SPECIALIST_KINDS = ("priest", "wizard", "tax")
# The character types that can be summoned as 2-3 "identical" passed tiles: every
# kind except the priest, which is only ever summoned by ending a move on it.
TAKE_KINDS = ("queen", "duke", "countess", "knight", "farmer", "wife", "jester", "wizard", "tax")

# Box totals (the rules page, Components).
BOX = {"queen": 3, "duke": 6, "countess": 9, "farmer": 24, "wife": 12, "jester": 3,
       "priest": 3, "wizard": 2, "tax": 8}
KNIGHTS_PER_ORDER = 5
PILE_NAMES = ("I", "II", "III")
PILE_SIZES = (29, 30, 31)
# Specialists bound to a stage: one priest in each of I, II, III; one wizard in each of II, III.
REQUIRED_PER_PILE = ({"priest": 1}, {"priest": 1, "wizard": 1}, {"priest": 1, "wizard": 1})
MAX_PER_PILE = ({"priest": 1, "wizard": 0}, {"priest": 1, "wizard": 1},
                {"priest": 1, "wizard": 1})

DEFAULT_ORDERS = ("A", "B", "C", "D")
DEFAULT_PRICES = (2, 3, 4, 6, 8, 10)

# The valley, the hill, the castle's treasury
SIZE = 5
SQUARES = SIZE * SIZE
FILES = "abcde"
SIDES = ("left", "right")
HILL_ROWS = 6
KINGDOM_TOKENS = 6
START_GOLD = 2
# Places a revealed tile can go to: a valley square 0..24, or the top of a hill column.
HILL_PLACE = (SQUARES, SQUARES + 1)
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
# Set-up: 25 valley tiles a1..e5, then the hill row by row (left, right): rows 1-2 from pile I,
# rows 3-6 from pile II.
SETUP_PLACES = tuple(range(SQUARES)) + HILL_PLACE * HILL_ROWS

# Scoring and the kingdom bonus
KINGDOM_COLUMNS = ("queen", "duke", "countess", "knight")  # plus a farmer or a wife
KINGDOM_GOLD = 5
KINGDOM_POINTS = 5
ORDER_BONUS = {3: 3, 4: 5, 5: 8}
COUPLE_POINTS = 2

_TAX = re.compile(r"^tax-(\d+)(?:-(\d+))?$")

# ---------------------------------------------------------------------------------------------
# ASSUMPTION - for virtual games only (`--shuffle --seed N`, `simulate`). The publisher does not
# print which tiles are in which pile, nor what each of the 8 tax collectors demands. Games played
# with a physical copy never use this table: their tiles are reported as they are revealed.
# The mix respects every published total: 29/30/31 tiles, one priest per pile, the wizards in II
# and III, 5 knights per Order. Knight Orders are given by position in the `orders` option.
ASSUMED_PILE_MIX: tuple[dict[str, int], ...] = (
    {"queen": 1, "duke": 2, "countess": 3, "knight#0": 2, "knight#1": 2, "knight#2": 1,
     "knight#3": 1, "farmer": 9, "wife": 4, "jester": 1, "priest": 1,
     "tax-3": 1, "tax-3-5": 1},                                              # pile I: 29
    {"queen": 1, "duke": 2, "countess": 3, "knight#0": 2, "knight#1": 1, "knight#2": 2,
     "knight#3": 2, "farmer": 7, "wife": 4, "jester": 1, "priest": 1, "wizard": 1,
     "tax-4": 1, "tax-3-6": 1, "tax-4-7": 1},                                # pile II: 30
    {"queen": 1, "duke": 2, "countess": 3, "knight#0": 1, "knight#1": 2, "knight#2": 2,
     "knight#3": 2, "farmer": 8, "wife": 4, "jester": 1, "priest": 1, "wizard": 1,
     "tax-4-8": 1, "tax-5-9": 1, "tax-5-10": 1},                             # pile III: 31
)
# ---------------------------------------------------------------------------------------------


def kind(tile: str) -> str:
    """The character type of a tile: `knight-A` -> knight, `tax-3-6` -> tax."""
    return tile.partition("-")[0] if tile.startswith(("knight-", "tax-")) else tile


def is_subject(tile: str) -> bool:
    return kind(tile) in SUBJECT_KINDS


def tax_terms(tile: str) -> tuple[int, int]:
    """(required identical subjects, gold) printed on a tax collector; 0 subjects = none."""
    found = _TAX.match(tile)
    assert found, tile
    if found.group(2) is None:
        return 0, int(found.group(1))
    return int(found.group(1)), int(found.group(2))


def valid_tax(tile: str) -> bool:
    """R-3: `tax-G` with G in 3, 4; or `tax-N-G` with N in 3, 4, 5 and G in 5..10."""
    found = _TAX.match(tile)
    if not found:
        return False
    first, second = int(found.group(1)), found.group(2)
    if second is None:
        return first in (3, 4) and found.group(1) == str(first)
    return (first in (3, 4, 5) and 5 <= int(second) <= 10
            and tile == f"tax-{first}-{int(second)}")


TAX_NAMES = ("tax-3", "tax-4", *(f"tax-{n}-{g}" for n in (3, 4, 5) for g in range(5, 11)))


def tile_names(orders: tuple[str, ...]) -> tuple[str, ...]:
    """Every tile name of a game with these Order labels, tax collectors last (a game keeps
    them as a set: `State.tile_set`)."""
    return ("queen", "duke", "countess", *(f"knight-{o}" for o in orders), "farmer", "wife",
            "jester", "priest", "wizard", *TAX_NAMES)


def box_limit(tile: str) -> int:
    """How many tiles of this exact name the box may hold (tax: counted together, see BOX)."""
    if kind(tile) == "knight":
        return KNIGHTS_PER_ORDER
    return BOX[kind(tile)]


def count_key(tile: str) -> str:
    """The name under which the box total of a tile is counted."""
    return "tax" if kind(tile) == "tax" else tile


def virtual_piles(orders: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The three piles of the assumed mix, unshuffled, with knights named by Order label
    (made once a game, at its set-up)."""
    piles = []
    for mix in ASSUMED_PILE_MIX:
        tiles: list[str] = []
        for name, count in mix.items():
            if name.startswith("knight#"):
                name = f"knight-{orders[int(name[7:])]}"
            tiles += [name] * count
        piles.append(tuple(tiles))
    return tuple(piles)


def pile_problems(seen: tuple[tuple[str, ...], ...], added: Iterable[str] | None = None,
                  piles: Iterable[int] = range(3)) -> str | None:
    """Why the tiles seen so far (per pile) cannot come from the box, or None if they can.
    With `added` (and the `piles` they went to), the tiles seen before those were possible:
    only what the new ones change is counted again (a replay asks at every tile revealed)."""
    for index in piles:
        problem = _pile_problem(index, seen[index])
        if problem:
            return problem
    if added is None:  # every kind, in the order first seen
        added = (tile for tiles in seen for tile in tiles)
    return _box_problem(dict.fromkeys(count_key(tile) for tile in added), seen)


def first_of_virtual_piles(seen: tuple[tuple[str, ...], ...],
                           virtual: tuple[tuple[str, ...], ...] | None,
                           fits: bool | None = None) -> bool:
    """The tiles seen are the first ones of whole virtual piles that fit the box: then they fit
    it too (`pile_problems` is None), since a pile's first tiles hold no more of a kind than
    the pile does, and leave room for every specialist it must still hold. A replay of a
    --shuffle game asks it at every reveal, in place of counting the box again, and gives
    `fits`, what `fitting_piles(virtual)` answers, which its state keeps (`State.virtual_fits`)."""
    if virtual is None or not (fitting_piles(virtual) if fits is None else fits):
        return False
    for tiles, pile in zip(seen, virtual):
        if tiles != pile[:len(tiles)]:
            return False
    return True


def fitting_piles(virtual: tuple[tuple[str, ...], ...]) -> bool:
    """Whole piles of their full sizes that fit the box."""
    return len(virtual) == len(PILE_SIZES) and pile_problems(virtual) is None \
        and tuple(len(pile) for pile in virtual) == PILE_SIZES


def _pile_problem(index: int, tiles: tuple[str, ...]) -> str | None:
    """Whether one pile can hold these tiles: its size, and the specialists it must or may
    hold (counted by name: a priest's or wizard's name is its kind)."""
    if len(tiles) > PILE_SIZES[index]:
        return f"pile {PILE_NAMES[index]} has only {PILE_SIZES[index]} tiles"
    counts = {what: tiles.count(what) for what in MAX_PER_PILE[index]}
    for what, most in MAX_PER_PILE[index].items():
        if counts[what] > most:
            if most == 0:
                return (f"pile {PILE_NAMES[index]} holds no {what}; the {what}s are in "
                        "piles II and III")
            return f"pile {PILE_NAMES[index]} holds only one {what}"
    required = REQUIRED_PER_PILE[index]
    missing = sum(max(0, need - counts[what]) for what, need in required.items())
    if missing > PILE_SIZES[index] - len(tiles):
        needed = " and ".join(f"one {w}" for w in required if counts[w] < required[w])
        return f"pile {PILE_NAMES[index]} must still hold {needed}, but is too small for it"
    return None


def _box_problem(keys: Iterable[str], seen: tuple[tuple[str, ...], ...]) -> str | None:
    """Whether the box holds as many tiles of these kinds (count keys) as have been seen."""
    for key in keys:
        if key == "tax":
            count = sum(1 for tiles in seen for tile in tiles if tile.startswith("tax-"))
        else:
            count = sum(tiles.count(key) for tiles in seen)
        limit = box_limit(key if key != "tax" else "tax-3")
        if count > limit:
            return f"the box has only {limit} {key} tiles"
    return None


# ---------------------------------------------------------------------------------------------
# The valley's geometry


def square_name(square: int) -> str:
    return f"{FILES[square % SIZE]}{square // SIZE + 1}"


SQUARE_NAMED = {square_name(square): square for square in range(SQUARES)}  # a1 -> 0 ... e5 -> 24


def ray(square: int, direction: tuple[int, int]) -> tuple[int, ...]:
    """The squares from `square` (excluded) to the valley's edge in `direction`."""
    try:
        return _RAYS[square, direction]
    except KeyError:  # no square of the valley, or no step of one: worked out
        return _ray(square, direction)


def _ray(square: int, direction: tuple[int, int]) -> tuple[int, ...]:
    col, row = square % SIZE, square // SIZE
    across, up = direction
    steps = min(_room(col, across), _room(row, up))
    step = up * SIZE + across
    return tuple(range(square + step, square + step * (steps + 1), step))


def _room(at: int, toward: int) -> int:
    """Steps from `at` (a column or a row) to the valley's edge going `toward` (-1, 0, 1)."""
    return SIZE - 1 - at if toward > 0 else at if toward < 0 else SIZE


def between(start: int, end: int) -> tuple[int, ...] | None:
    """The squares strictly between two squares on one straight line, or None if not on one."""
    try:
        return _BETWEEN[start, end]
    except KeyError:  # no square of the valley: worked out
        return _between(start, end)


def _between(start: int, end: int) -> tuple[int, ...] | None:
    across, up = end % SIZE - start % SIZE, end // SIZE - start // SIZE
    if (across or up) and (not across or not up or abs(across) == abs(up)):
        step = ((up > 0) - (up < 0)) * SIZE + (across > 0) - (across < 0)
        return tuple(range(start + step, end, step))
    return None


# The valley's geometry as constant tables (every move is checked against them): each square's
# ray in each direction, and what lies between any two squares.
_RAYS = {(square, direction): _ray(square, direction)
         for square in range(SQUARES) for direction in DIRECTIONS}
_BETWEEN = {(start, end): _between(start, end)
            for start in range(SQUARES) for end in range(SQUARES)}


def place_name(place: int) -> str:
    """A place a revealed tile goes to: a valley square, or the top of a hill column."""
    return square_name(place) if place < SQUARES else f"hill {SIDES[place - SQUARES]}"


# ---------------------------------------------------------------------------------------------
# Options


def check_orders(orders: Any) -> list[str]:
    """The `orders` option (R-1): four distinct labels of letters or digits."""
    if not isinstance(orders, (list, tuple)) or len(orders) != 4:
        raise UsageError("option orders needs exactly four Knight Order labels (R-1)",
                         code="bad-option")
    labels = [str(o).strip() for o in orders]
    for label in labels:
        if not label.isalnum():
            raise UsageError(f"Knight Order label {label!r} must be letters or digits (R-1)",
                             code="bad-option")
    if len({label.casefold() for label in labels}) != 4:
        raise UsageError("the four Knight Order labels must differ (R-1)", code="bad-option")
    return labels


def check_prices(prices: Any) -> list[int]:
    """The `hill_prices` option (R-4): six prices 0..99, bottom row first."""
    if (not isinstance(prices, (list, tuple)) or len(prices) != HILL_ROWS
            or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 99
                       for p in prices)):
        raise UsageError("option hill_prices needs six prices 0..99, bottom row first (R-4)",
                         code="bad-option")
    return list(prices)
