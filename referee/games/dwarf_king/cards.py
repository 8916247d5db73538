"""The cards of The Dwarf King: 39 basic cards, 14 special cards, and how they are written.

A card is identified everywhere (state, log, notation) by its canonical code: `K7`, `DQ`, `GA` for
basic cards (suit letter, then rank), and one word for each special card (`Druid`, `Dragon`...).
The special cards are data: their suit and rank (if any), how they score and what they do when
played; the rules engine reads these fields instead of testing card names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from referee.errors import AmbiguousMove, NotationError

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


@dataclass(frozen=True)
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
SPECIAL = {s.code: s for s in SPECIALS}


@dataclass(frozen=True)
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
        return f"{RANK_NAME.get(self.rank, self.rank)} of {self.suit}"


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


@lru_cache(maxsize=64)
def deck(players: int, special: str) -> frozenset[str]:
    """The cards of one hand's deal: the basic cards (without the 2 of Dwarves with 3 players) and
    the hand's special card."""
    basic = [c for c in BASIC if not (players == 3 and c == OUT_WITH_THREE)]
    return frozenset(basic) | {special}


def hand_size(players: int) -> int:
    return {3: 13, 4: 10, 5: 8}[players]


# Display order: Knights, Dwarves, Goblins by rank, then the magic cards.
SORT_KEY = {code: (SUITS.index(card.suit) if card.suit else len(SUITS), card.value, ORDER[code])
            for code, card in CARDS.items()}


def sort_cards(cards) -> list[str]:
    return sorted(cards, key=SORT_KEY.__getitem__)


# --------------------------------------------------------------------------------------------
# Reading card names: K7, k7, 7K, DQ, QD, Druid, dru, D1, D11 (the hand's special), rules-page ids

_SUIT_FIRST = re.compile(r"^([KDG])[-_ ]?(10|11|[1-9]|[JQKA])$", re.IGNORECASE)
_RANK_FIRST = re.compile(r"^(10|11|[1-9]|[JQKA])[-_ ]?([KDG])$", re.IGNORECASE)
_ALIASES = {s.id: s.code for s in SPECIALS}


def parse_card(word: str, in_play: frozenset[str] | None = None, text: str | None = None) -> str:
    """The code of the card `word` names. `in_play` (the cards of this hand) resolves the forms
    that depend on the hand: K1/K11 name the hand's special card of that suit and rank, and word
    prefixes (`dra`, `flag`) are matched against this hand's cards first."""
    where = f" in {text!r}" if text is not None else ""
    raw = word.strip()
    if not raw:
        raise NotationError(f"a card is missing{where}", code="no-card")
    for code in CARDS:
        if code.casefold() == raw.casefold():
            return code
    if raw.casefold() in _ALIASES:
        return _ALIASES[raw.casefold()]
    for pattern, suit_group in ((_SUIT_FIRST, 1), (_RANK_FIRST, 2)):
        m = pattern.match(raw)
        if m:
            letter = m.group(suit_group).upper()
            rank = m.group(3 - suit_group).upper()
            return _suited(LETTER_SUIT[letter], rank, in_play, raw, where)
    return _by_prefix(raw, in_play, where)


def _suited(suit: str, rank: str, in_play: frozenset[str] | None, raw: str, where: str) -> str:
    matches = [c.code for c in CARDS.values() if c.suit == suit and c.rank == rank]
    if len(matches) > 1 and in_play is not None:
        matches = [c for c in matches if c in in_play] or matches
    if len(matches) == 1:  # every suit has every rank 1..A: something always matches
        return matches[0]
    raise AmbiguousMove(f"{raw!r}{where} could be {' or '.join(matches)}", code="ambiguous-card")


def _by_prefix(raw: str, in_play: frozenset[str] | None, where: str) -> str:
    low = raw.casefold().replace(" ", "")  # `flag bearer`, `Standard Bearer`
    specials = [s.code for s in SPECIALS if s.code.casefold().startswith(low)
                or s.name.casefold().replace(" ", "").startswith(low)]
    if len(specials) > 1 and in_play is not None:
        specials = [c for c in specials if c in in_play] or specials
    if len(specials) == 1:
        return specials[0]
    if specials:
        raise AmbiguousMove(f"{raw!r}{where} could be {' or '.join(specials)}",
                            code="ambiguous-card")
    raise NotationError(f"{raw!r}{where} is not a card; write a suit letter (K Knights, D Dwarves, "
                        "G Goblins) and a rank (2-10, J, Q, K, A), e.g. K7 or GQ, or a special "
                        "card's name (Dragon, Druid...)", code="unknown-card")
