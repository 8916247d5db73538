"""The Dwarf King's components as data: 39 basic cards, 14 special cards, the quest tiles of both
editions.

A card is identified everywhere (state, log, notation) by its canonical code: `K7`, `DQ`, `GA` for
basic cards (suit letter, then rank), and one word for each special card (`Druid`, `Dragon`...).
The special cards are data: their suit and rank (if any), how they score and what they do when
played; the rules read these fields instead of testing card names. Each quest side is data too: a
`kind` (a scoring function in scoring.py) and its parameters.
"""

from __future__ import annotations

from typing import Any, Iterable

from referee.values import value

SUITS = ("Knights", "Dwarves", "Goblins")
SUIT_LETTER = {"Knights": "K", "Dwarves": "D", "Goblins": "G"}
LETTER_SUIT = {v: k for k, v in SUIT_LETTER.items()}
SINGULAR = {"Knights": "Knight", "Dwarves": "Dwarf", "Goblins": "Goblin"}

# Rank order within a suit: 1 < 2 < ... < 10 < 11 < J < Q < K < A. The 1s and 11s are special cards.
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "J", "Q", "K", "A")
BASIC_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
FACES = frozenset({"J", "Q", "K", "A"})
RANK_VALUE = {rank: index + 1 for index, rank in enumerate(RANKS)}  # 1..15, for comparing
RANK_NAME = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Champion (Ace)"}


def number_value(rank: str | None) -> int:
    """The printed number of a card (1..11); faces and magic cards count 0 (for quests that add
    card values)."""
    if rank is None or rank in FACES:
        return 0
    return int(rank)


@value
class Special:
    """One of the 14 special cards: its rule is data read by the engine.

    `scoring` names the kind of points it gives when the hand is scored (see hand scoring), and
    `action` the choice it asks for during play (a swap, a pass, taking a card back).
    """

    id: str  # the rules page's id, e.g. dwarves-11-plus3
    code: str  # canonical notation, one word
    name: str  # as printed on the card
    suit: str | None  # None for the five magic cards
    rank: str | None  # "1" or "11" for suited specials
    text: str
    scoring: str = ""  # winner-plus, next-trick-winner, last-trick-player, double-winner, ...
    points: int = 0
    action: str = ""  # trade-hands, pass-hands, goblin-swap, take-back
    power: str = ""  # dragon, mummy, puppeteer, excalibur, sorcerer (how it plays in a trick)


SPECIALS: tuple[Special, ...] = (
    Special("dwarves-1", "Druid", "Druid", "Dwarves", "1",
            "after the trick in which it is played, its player swaps whole hands with a player of "
            "their choice (no effect in the last trick)", action="trade-hands"),
    Special("dwarves-11-plus3", "FlagBearerD", "Flag Bearer (Dwarves)", "Dwarves", "11",
            "whoever wins this card scores +3", scoring="winner", points=3),
    Special("dwarves-11-next", "Tinkerer", "Tinkerer", "Dwarves", "11",
            "whoever wins the next trick scores +3 (no effect in the last trick)",
            scoring="next-trick-winner", points=3),
    Special("knights-1", "Joker", "Joker", "Knights", "1",
            "+3 to its player if played in the last trick (won or not)",
            scoring="last-trick-player", points=3),
    Special("knights-11-double", "Enchanter", "Enchanter", "Knights", "11",
            "whoever wins this card has their score for the hand doubled (gains and losses)",
            scoring="double-winner"),
    Special("knights-11-pass", "StandardBearer", "Standard Bearer", "Knights", "11",
            "after this trick its player chooses left or right and every player passes their "
            "whole hand that way (no effect in the last trick)", action="pass-hands"),
    Special("goblins-1", "Scout", "Scout", "Goblins", "1",
            "+1 to its player for each face card in the same trick",
            scoring="player-per-face", points=1),
    Special("goblins-11-minus3", "Shaman", "Shaman", "Goblins", "11",
            "whoever wins this card scores -3", scoring="winner", points=-3),
    Special("goblins-11-swap", "FlagBearerG", "Flag Bearer (Goblins)", "Goblins", "11",
            "right after the quest is chosen, its holder takes 2 random cards from a chosen player "
            "and gives back any 2", action="goblin-swap"),
    Special("dragon", "Dragon", "Dragon", None, None,
            "may be played at any time, even when able to follow; wins the trick unless an Ace is "
            "in the trick, then the Ace wins even off-suit (R-1). If it leads, the next card sets "
            "the suit", power="dragon"),
    Special("mummy", "Mummy", "Mummy", None, None,
            "counts as a copy (suit and value) of the card that won the previous trick; not "
            "playable in the first trick", power="mummy"),
    Special("puppeteer", "Puppeteer", "Puppeteer", None, None,
            "takes the suit of the card played just before it and beats it by a half step; cannot "
            "lead the first trick", power="puppeteer"),
    Special("sorcerer", "Sorcerer", "Sorcerer", None, None,
            "played between two tricks (not before the first): take any card of the previous "
            "trick into hand and put the Sorcerer there in its place", power="sorcerer",
            action="take-back"),
    Special("excalibur", "Excalibur", "Excalibur", None, None,
            "playable only when void in the led suit, and then wins the trick", power="excalibur"),
)
SPECIAL_CARD = {s.code: s for s in SPECIALS}


@value
class Card:
    code: str
    suit: str | None  # None for magic cards
    rank: str | None  # None for magic cards
    special: Special | None = None

    @property
    def value(self) -> int:
        return RANK_VALUE[self.rank] if self.rank else 0

    @property
    def is_face(self) -> bool:
        return self.rank in FACES

    @property
    def name(self) -> str:
        if self.special is not None:
            return self.special.name
        rank = self.rank or ""
        return f"{RANK_NAME.get(rank, rank)} of {self.suit}"


def _build() -> dict[str, Card]:
    cards = {}
    for suit in SUITS:
        for rank in BASIC_RANKS:
            code = SUIT_LETTER[suit] + rank
            cards[code] = Card(code, suit, rank)
    for s in SPECIALS:
        cards[s.code] = Card(s.code, s.suit, s.rank, s)
    return cards


CARDS: dict[str, Card] = _build()
BASIC = tuple(code for code, card in CARDS.items() if card.special is None)
OUT_WITH_THREE = "D2"  # the 2 of Dwarves is out of the game with 3 players
DEALER_CARD, QUEST_CARD, LEADER_CARD = "D5", "K5", "G5"
ORDER = {code: index for index, code in enumerate(CARDS)}  # display order: suit, then rank


def deck(players: int, special: str) -> frozenset[str]:
    """The cards of one hand's deal: the basic cards (without the 2 of Dwarves with 3 players) and
    the hand's special card (made when asked: a replay asks about twice a hand)."""
    basic = [c for c in BASIC if not (players == 3 and c == OUT_WITH_THREE)]
    return frozenset(basic) | {special}


def hand_size(players: int) -> int:
    return {3: 13, 4: 10, 5: 8}[players]


# Display order: Knights, Dwarves, Goblins by rank, then the magic cards.
SORT_KEY = {code: (SUITS.index(card.suit) if card.suit else len(SUITS), card.value, ORDER[code])
            for code, card in CARDS.items()}


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=SORT_KEY.__getitem__)


# --------------------------------------------------------------------------------------------
# Quest tiles: each side a kind of rule (a function of scoring.py) and its parameters

EDITIONS = (2011, 2022)


@value
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
    _side(20, "a", "In line", "+3 for winning fewer tricks than the previous player, and +3 "
          "for winning more than the next player (R-13)", "neighbour-compare",
          more_than_previous=False, points=3),
    _side(20, "b", "Sandwich", "+3 for winning more tricks than the previous player, and +3 "
          "for winning more than the next player (R-13)", "neighbour-compare",
          more_than_previous=True, points=3),
)


def tiles(edition: int) -> dict[tuple[int, str], QuestSide]:
    """Every quest side of an edition, by (tile, side)."""
    sides = {(q.tile, q.side): q for q in TILES_2011}
    if edition == 2022:
        sides.update({(q.tile, q.side): q for q in REPLACED_2022})
    return sides


TILE_NUMBERS = tuple(range(1, 21))
