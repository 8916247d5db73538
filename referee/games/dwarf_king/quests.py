"""The quest tiles of both editions, as data, and one scoring function per kind of rule.

Each tile side is a `QuestSide`: a `kind` (the name of a scoring function below) and its
parameters. A scoring function receives the `Outcome` of the hand (the cards and tricks each seat
won) and returns the points of every seat, so that rules comparing players ("the highest total",
"the first to win a third trick") are written once. Magic cards have no suit and no value when a
hand is scored (R-2): they match no selector and count 0.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

from referee.games.dwarf_king.cards import CARDS, FACES, RANKS, number_value

EDITIONS = (2011, 2022)


@dataclass(frozen=True)
class Outcome:
    """What a hand left on the table: the cards each seat won, and the winner of each trick."""

    won: tuple[tuple[str, ...], ...]  # per seat, in seat order
    winners: tuple[int, ...]  # seat that won trick 1, 2, ...

    @property
    def seats(self) -> range:
        return range(len(self.won))

    def tricks(self, seat: int) -> int:
        return sum(1 for w in self.winners if w == seat)


@dataclass(frozen=True)
class QuestSide:
    tile: int
    side: str  # "a" or "b"
    name: str
    text: str
    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        return f"{self.tile}{self.side}"

    def score(self, outcome: Outcome) -> tuple[int, ...]:
        return KINDS[self.kind](outcome, **dict(self.params))


# --------------------------------------------------------------------------------------------
# Selecting cards: "suit:Knights", "rank:K", "face", "card:DQ"


def _matches(code: str, selector: str) -> bool:
    card = CARDS[code]
    what, _, value = selector.partition(":")
    if what == "suit":
        return card.suit == value
    if what == "rank":
        return card.rank == value
    if what == "face":
        return card.is_face
    return code == value  # "card:DQ"


def _suited(cards: tuple[str, ...]) -> list[str]:
    return [c for c in cards if CARDS[c].suit is not None]


def _longest(flags: list[bool]) -> int:
    best = run = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


# --------------------------------------------------------------------------------------------
# The kinds of rule; each returns the points of every seat


def per_card(o: Outcome, terms: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    """Points per won card matching each selector (a card matching two selectors scores both)."""
    return tuple(sum(points for code in o.won[s] for selector, points in terms
                     if _matches(code, selector)) for s in o.seats)


def exact_tricks(o: Outcome, count: int, points: int) -> tuple[int, ...]:
    return tuple(points if o.tricks(s) == count else 0 for s in o.seats)


def per_trick(o: Outcome, points: int, last: int = 0) -> tuple[int, ...]:
    """Points per trick won; with `last`, only the last `last` tricks of the hand count."""
    counted = o.winners[-last:] if last else o.winners
    return tuple(points * sum(1 for w in counted if w == s) for s in o.seats)


def trick_parity(o: Outcome, odd: bool, points: int) -> tuple[int, ...]:
    """Zero tricks is neither even nor odd (rules page)."""
    return tuple(points if o.tricks(s) and (o.tricks(s) % 2 == 1) == odd else 0 for s in o.seats)


def shared_count(o: Outcome, shared: bool, points: int) -> tuple[int, ...]:
    """R-10: 'as many tricks as you' means exactly the same number."""
    counts = [o.tricks(s) for s in o.seats]
    return tuple(points if (counts.count(counts[s]) > 1) == shared else 0 for s in o.seats)


def neighbour_tricks(o: Outcome, step: int, points: int) -> tuple[int, ...]:
    """R-7: the right-hand neighbour is the previous seat (step -1), the left-hand the next (+1)."""
    n = len(o.won)
    return tuple(points * o.tricks((s + step) % n) for s in o.seats)


def triplets(o: Outcome, points: int, face_points: int) -> tuple[int, ...]:
    """R-11: a triplet of faces scores `face_points` instead of `points`."""
    out = []
    for s in o.seats:
        counts = Counter(CARDS[c].rank for c in _suited(o.won[s]))
        out.append(sum((face_points if rank in FACES else points) * (n // 3)
                       for rank, n in counts.items()))
    return tuple(out)


def longest_rank_run(o: Outcome, points: int, minimum: int) -> tuple[int, ...]:
    """R-12: the run counts one card per rank (ranks 1..A in order, any suits)."""
    out = []
    for s in o.seats:
        held = {CARDS[c].rank for c in _suited(o.won[s])}
        run = _longest([rank in held for rank in RANKS])
        out.append(points * run if run >= minimum else 0)
    return tuple(out)


def suit_count(o: Outcome, most: bool) -> tuple[int, ...]:
    """R-5: only suits of which the player won a card count; no suited card scores 0."""
    out = []
    for s in o.seats:
        counts = Counter(CARDS[c].suit for c in _suited(o.won[s]))
        out.append((max if most else min)(counts.values()) if counts else 0)
    return tuple(out)


def lowest_number(o: Outcome, sign: int, all_faces_bonus: int, suit: str = "") -> tuple[int, ...]:
    """The value of the lowest non-face card won (of `suit` if given), times `sign`; a player who
    won faces but no other suited card scores `all_faces_bonus` instead (R-14)."""
    out = []
    for s in o.seats:
        cards = [c for c in _suited(o.won[s]) if not suit or CARDS[c].suit == suit]
        numbers = [number_value(CARDS[c].rank) for c in cards if not CARDS[c].is_face]
        if numbers:
            out.append(sign * min(numbers))
        else:
            out.append(all_faces_bonus if cards else 0)
    return tuple(out)


def trick_streak(o: Outcome, points: int) -> tuple[int, ...]:
    """Points per trick in the longest streak of consecutive tricks won."""
    return tuple(points * _longest([w == s for w in o.winners]) for s in o.seats)


def streak_bonus(o: Outcome, won: bool, length: int, points: int) -> tuple[int, ...]:
    """`points` for a streak of at least `length` consecutive tricks won (or not won)."""
    return tuple(points if _longest([(w == s) == won for w in o.winners]) >= length else 0
                 for s in o.seats)


def highest_number_total(o: Outcome, points: int) -> tuple[int, ...]:
    """Add the values 1-11 of the cards won (faces 0); `points` to the highest total (R-6: all
    tied players)."""
    totals = [sum(number_value(CARDS[c].rank) for c in o.won[s]) for s in o.seats]
    best = max(totals)
    return tuple(points if t == best else 0 for t in totals)


def race_to_tricks(o: Outcome, target: int, first: int, step: int) -> tuple[int, ...]:
    """`first` points to the first player to win a `target`-th trick, `first + step` to the
    second, and so on; players who never get there score 0."""
    seen: Counter[int] = Counter()
    order: list[int] = []
    for w in o.winners:
        seen[w] += 1
        if seen[w] == target:
            order.append(w)
    points = [0] * len(o.won)
    for place, seat in enumerate(order):
        points[seat] = first + step * place
    return tuple(points)


def neighbour_compare(o: Outcome, more_than_previous: bool, points: int) -> tuple[int, ...]:
    """R-13: `points` to each player who won fewer (In line) or more (Sandwich) tricks than the
    previous player, and more than the next player."""
    n = len(o.won)
    out = []
    for s in o.seats:
        mine, prev, nxt = o.tricks(s), o.tricks((s - 1) % n), o.tricks((s + 1) % n)
        versus_prev = mine > prev if more_than_previous else mine < prev
        out.append(points if versus_prev and mine > nxt else 0)
    return tuple(out)


KINDS: dict[str, Callable[..., tuple[int, ...]]] = {
    "per-card": per_card,
    "exact-tricks": exact_tricks,
    "per-trick": per_trick,
    "trick-parity": trick_parity,
    "shared-count": shared_count,
    "neighbour-tricks": neighbour_tricks,
    "triplets": triplets,
    "longest-rank-run": longest_rank_run,
    "suit-count": suit_count,
    "lowest-number": lowest_number,
    "trick-streak": trick_streak,
    "streak-bonus": streak_bonus,
    "highest-number-total": highest_number_total,
    "race-to-tricks": race_to_tricks,
    "neighbour-compare": neighbour_compare,
}


def _side(tile: int, side: str, name: str, text: str, kind: str, **params: Any) -> QuestSide:
    return QuestSide(tile, side, name, text, kind, tuple(sorted(params.items())))


def _cards(tile: int, side: str, name: str, text: str, *terms: tuple[str, int]) -> QuestSide:
    return _side(tile, side, name, text, "per-card", terms=tuple(terms))


K, D, G = "suit:Knights", "suit:Dwarves", "suit:Goblins"

TILES_2011: tuple[QuestSide, ...] = (
    _cards(1, "a", "Knights", "+1 per Knight", (K, 1)),
    _cards(1, "b", "Goblins", "+1 per Goblin", (G, 1)),
    _cards(2, "a", "Kings", "+3 per King, -3 per Queen", ("rank:K", 3), ("rank:Q", -3)),
    _cards(2, "b", "Queens", "+3 per Queen, -3 per King", ("rank:Q", 3), ("rank:K", -3)),
    _side(3, "a", "Four tricks", "+5 if exactly 4 tricks", "exact-tricks", count=4, points=5),
    _side(3, "b", "Two tricks", "+5 if exactly 2 tricks", "exact-tricks", count=2, points=5),
    _cards(4, "a", "Knights victory over Dwarves", "+1 per Knight, -1 per Dwarf", (K, 1), (D, -1)),
    _cards(4, "b", "Dwarves victory over Knights", "+1 per Dwarf, -1 per Knight", (D, 1), (K, -1)),
    _side(5, "a", "Tricks", "+1 per trick", "per-trick", points=1),
    _side(5, "b", "No tricks", "-1 per trick", "per-trick", points=-1),
    _side(6, "a", "Triplets", "+1 per three cards of one rank, +2 if that rank is a face (R-11)",
          "triplets", points=1, face_points=2),
    _side(6, "b", "Grand Army", "+1 per card in your longest run of consecutive ranks (any suits, "
          "at least 3; 10, 11, J are consecutive) (R-12)", "longest-rank-run", points=1,
          minimum=3),
    _side(7, "a", "Elite army", "points = number of cards in the suit you won fewest of (R-5)",
          "suit-count", most=False),
    _side(7, "b", "Mass army", "points = number of cards in the suit you won most of",
          "suit-count", most=True),
    _cards(8, "a", "Jacks", "+4 per Jack", ("rank:J", 4)),
    _cards(8, "b", "No Jacks", "-4 per Jack", ("rank:J", -4)),
    _side(9, "a", "Last four tricks", "+2 per trick among the last four tricks", "per-trick",
          points=2, last=4),
    _side(9, "b", "Not the last four", "-2 per trick among the last four tricks", "per-trick",
          points=-2, last=4),
    _cards(10, "a", "Faces and Knights", "+1 per face and +1 per Knight", ("face", 1), (K, 1)),
    _cards(10, "b", "No faces, no Knights", "-1 per face and -1 per Knight", ("face", -1),
           (K, -1)),
    _side(11, "a", "Save the nobles", "+ value of your lowest non-face card; +10 if you won only "
          "faces (R-14)", "lowest-number", sign=1, all_faces_bonus=10),
    _side(11, "b", "Save the brave", "- value of your lowest non-face card", "lowest-number",
          sign=-1, all_faces_bonus=0),
    _side(12, "a", "To the right", "+1 per trick won by your right-hand neighbour (R-7)",
          "neighbour-tricks", step=-1, points=1),
    _side(12, "b", "To the left", "+1 per trick won by your left-hand neighbour (R-7)",
          "neighbour-tricks", step=1, points=1),
    _side(13, "a", "Garden gnomes", "value of your lowest Dwarf (faces ignored)", "lowest-number",
          sign=1, all_faces_bonus=0, suit="Dwarves"),
    _side(13, "b", "Little soldiers", "value of your lowest Knight (faces ignored)",
          "lowest-number", sign=1, all_faces_bonus=0, suit="Knights"),
    _cards(14, "a", "Dwarves, 8s and 9s", "+1 per Dwarf, +1 per 8, +1 per 9", (D, 1),
           ("rank:8", 1), ("rank:9", 1)),
    _cards(14, "b", "No Dwarves, 8s or 9s", "-1 per Dwarf, -1 per 8, -1 per 9", (D, -1),
           ("rank:8", -1), ("rank:9", -1)),
    _side(15, "a", "Even tricks", "+5 if an even number of tricks (0 is neither)", "trick-parity",
          odd=False, points=5),
    _side(15, "b", "Odd tricks", "+5 if an odd number of tricks", "trick-parity", odd=True,
          points=5),
    _side(16, "a", "Three tricks", "+5 if exactly 3 tricks", "exact-tricks", count=3, points=5),
    _side(16, "b", "One trick", "+5 if exactly 1 trick", "exact-tricks", count=1, points=5),
    _cards(17, "a", "No Knights", "-1 per Knight", (K, -1)),
    _cards(17, "b", "No Goblins", "-1 per Goblin", (G, -1)),
    _cards(18, "a", "Threes and fours", "+4 per 3 and per 4", ("rank:3", 4), ("rank:4", 4)),
    _cards(18, "b", "Sixes and sevens", "+4 per 6 and per 7", ("rank:6", 4), ("rank:7", 4)),
    _side(19, "a", "Alone", "+5 if no other player won as many tricks as you (R-10)",
          "shared-count", shared=False, points=5),
    _side(19, "b", "In company", "+5 if another player won as many tricks as you (R-10)",
          "shared-count", shared=True, points=5),
    _cards(20, "a", "Queen of Dwarves", "+8 for the Queen of Dwarves", ("card:DQ", 8)),
    _cards(20, "b", "Not the Queen of Dwarves", "-8 for the Queen of Dwarves", ("card:DQ", -8)),
)

# the 2022 reprint replaces tiles 1, 8, 11, 14, 20 and side 6b (R-15: in the order the
# rules page lists them, "1, 2 and..." being the one single side).
REPLACED_2022: tuple[QuestSide, ...] = (
    _side(1, "a", "Lucky run", "+2 per trick in your longest streak of consecutive tricks won",
          "trick-streak", points=2),
    _side(1, "b", "Bad run", "-2 per trick in your longest streak of consecutive tricks won",
          "trick-streak", points=-2),
    _side(6, "b", "1, 2 and...", "-2 per face triplet, -1 per other triplet", "triplets",
          points=-1, face_points=-2),
    _side(8, "a", "Good numbers", "add the values 1-11 of your cards (faces 0): +5 to the "
          "highest total (R-6)", "highest-number-total", points=5),
    _side(8, "b", "Bad numbers", "add the values 1-11 of your cards (faces 0): -5 to the "
          "highest total (R-6)", "highest-number-total", points=-5),
    _side(11, "a", "Eeny-meeny", "+3 to the first player to win a 3rd trick, +4 to the second, "
          "and so on", "race-to-tricks", target=3, first=3, step=1),
    _side(11, "b", "Miney-mo", "-3 to the first player to win a 3rd trick, -4 to the second, "
          "and so on", "race-to-tricks", target=3, first=-3, step=-1),
    _side(14, "a", "Grand slam", "+5 if you win at least 4 tricks in a row", "streak-bonus",
          won=True, length=4, points=5),
    _side(14, "b", "Utter chaos", "+5 if you lose at least 4 tricks in a row", "streak-bonus",
          won=False, length=4, points=5),
    _side(20, "a", "In line", "+3 for winning fewer tricks than the previous player and more "
          "than the next player (R-13)", "neighbour-compare", more_than_previous=False, points=3),
    _side(20, "b", "Sandwich", "+3 for winning more tricks than the previous player and more "
          "than the next player (R-13)", "neighbour-compare", more_than_previous=True, points=3),
)


def tiles(edition: int) -> dict[tuple[int, str], QuestSide]:
    """Every quest side of an edition, by (tile, side)."""
    sides = {(q.tile, q.side): q for q in TILES_2011}
    if edition == 2022:
        sides.update({(q.tile, q.side): q for q in REPLACED_2022})
    return sides


TILE_NUMBERS = tuple(range(1, 21))
