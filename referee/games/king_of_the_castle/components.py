"""King of the Castle's components as data: the 26 squires, the ten posts of the kingdom, the three
attributes and the 78 event cards with the kind of effect each one has.

A post is a number 0..9 in the order of the set-up deal (R-4): 0 the King, then for castles 1-3 the
Lord, the Seneschal and the Master at Arms (1 + 3 * castle + rank). A stack is a number 0..8:
3 * castle + attribute. An event card is named by its title ("Barbarians!", "Domain 2") in the log
and by a slug (`barbarians`, `domain-2`) in the notation.
"""

from __future__ import annotations

import string
from typing import Any

from referee.errors import UsageError
from referee.values import value

LETTERS = tuple(string.ascii_uppercase)  # the squires, by letter
CASTLES = 3
RANKS = ("Lord", "Seneschal", "Master at Arms")
RANK_WORDS = ("lord", "seneschal", "master")  # as written in the notation
ATTRIBUTES = ("Domain", "Prestige", "Defence")  # under the Lord, the Seneschal, the Master at Arms
LEVELS = (1, 2, 3)
LEVEL_NAMES = {"Domain": ("Village", "Town", "City"),
               "Prestige": ("Known", "Recognised", "Famed"),
               "Defence": ("Keep", "Walls", "Towers")}
KING = 0
POSTS = 1 + CASTLES * len(RANKS)
STACKS = CASTLES * len(ATTRIBUTES)
START_HAND = 3  # event cards dealt to each player
DRAW_TO = 4  # a turn begins by drawing up to this many cards
SUDDEN_DRAW = 2  # cards drawn by Sudden Changes
REPLY_CARDS = ("Lucky Escape", "Not That Bad")

# Points for each post (Scoring): base, bonus, and what earns the bonus.
POINTS = {"King": 12, "Lord": 6, "Seneschal": 4, "Master at Arms": 2}
BONUS = {"King": 2, "Lord": 3, "Seneschal": 2, "Master at Arms": 1}
GREAT_CASTLE = 6  # the King's bonus counts castles of this level or more


def post(castle: int, rank: int) -> int:
    return 1 + 3 * castle + rank


def castle_of(post_id: int) -> int:
    return (post_id - 1) // 3


def rank_of(post_id: int) -> int:
    return (post_id - 1) % 3


def post_title(post_id: int) -> str:
    """The post as the log and the board write it: `King`, `Master at Arms 2`."""
    if post_id == KING:
        return "King"
    return f"{RANKS[rank_of(post_id)]} {castle_of(post_id) + 1}"


def post_words(post_id: int) -> str:
    """The post as the notation writes it: `king`, `master 2`."""
    if post_id == KING:
        return "king"
    return f"{RANK_WORDS[rank_of(post_id)]} {castle_of(post_id) + 1}"


POST_TITLES = tuple(post_title(p) for p in range(POSTS))


def stack(castle: int, attribute: int) -> int:
    return 3 * castle + attribute


# --------------------------------------------------------------------------------------------
# The event cards


@value
class Card:
    """One kind of event card: its title, how many the deck holds, its kind of effect (a key of
    rules.HARMS or rules.ACTIONS, or "reply"), the kind's parameters, and the card's text."""

    title: str
    count: int
    effect: str
    text: str
    params: tuple[tuple[str, Any], ...] = ()
    aliases: tuple[str, ...] = ()

    @property
    def slug(self) -> str:
        return self.title.lower().replace("!", "").replace(" ", "-")

    def param(self, name: str) -> Any:
        for key, found in self.params:  # a pair or two: no dict built at every card played
            if key == name:
                return found
        return None


def _attribute_cards() -> tuple[Card, ...]:
    counts = {1: 3, 2: 2, 3: 2}
    return tuple(Card(f"{attr} {level}", counts[level], "build", LEVEL_NAMES[attr][level - 1],
                      (("attribute", a), ("level", level)),
                      (LEVEL_NAMES[attr][level - 1].lower(),)
                      + (("defense-" + str(level),) if attr == "Defence" else ()))
                 for a, attr in enumerate(ATTRIBUTES) for level in LEVELS)


DOMAIN, PRESTIGE, DEFENCE = range(3)
LORD, SENESCHAL, MASTER = range(3)

CARDS: tuple[Card, ...] = (
    Card("Peaceful Death", 4, "kill-king", "The King dies in his sleep."),
    Card("Accidental Death", 6, "kill-man", "Kill any man during a hunting accident."),
    Card("Assassination", 3, "assassinate", "Kill the King and promote the Lord of your choice."),
    Card("Barbarians!", 3, "kill-rank", "Kill the Master-at-arms of a Castle and discard its top "
         "Defence card.", (("rank", MASTER), ("attribute", DEFENCE))),
    Card("Plague", 3, "kill-two", "Kill any two men of one Castle and discard the top Domain "
         "card.", (("attribute", DOMAIN),)),
    Card("Lucky Escape", 4, "reply", "Save any man from death."),
    Card("Financial Scandal", 3, "kill-rank", "Kill a Seneschal and discard his Castle's top "
         "Prestige card.", (("rank", SENESCHAL), ("attribute", PRESTIGE))),
    Card("Unlucky Fall", 3, "kill-rank", "Kill any Lord as he falls down the stairs of his "
         "Castle.", (("rank", LORD),)),
    Card("Vanishings", 2, "kill-all", "Kill all men in one Castle, as they vanish without trace "
         "one night."),
    *_attribute_cards(),
    Card("Protracted Siege", 1, "remove-stack", "Remove all Domain levels from a Castle.",
         (("attribute", DOMAIN),)),
    Card("Weak Administration", 1, "remove-stack", "Remove all Prestige levels from a Castle.",
         (("attribute", PRESTIGE),)),
    Card("Time of Peace", 1, "remove-stack", "Remove all Defence levels from a Castle.",
         (("attribute", DEFENCE),)),
    Card("Incompetent Lord", 1, "remove-tops", "Remove the top levels of each attribute from a "
         "Castle."),
    Card("Timely Repairs", 3, "repair", "Recover any discarded level card and play it on a "
         "Castle."),
    Card("Not That Bad", 3, "reply", "Prevent the discard of any level card."),
    Card("State of Disrepair", 2, "remove-top", "Remove the top level of any attribute card from "
         "a Castle."),
    Card("Lazy Defence", 2, "remove-top", "Remove the top level Defence card from a Castle.",
         (("attribute", DEFENCE),), ("lazy-defense",)),
    Card("Shrinking Domain", 2, "remove-top", "Remove the top level Domain card from a Castle.",
         (("attribute", DOMAIN),)),
    Card("Losing Influence", 2, "remove-top", "Remove the top level Prestige card from a Castle.",
         (("attribute", PRESTIGE),)),
    Card("Sudden Changes", 2, "sudden", "Draw two cards, and play them immediately."),
    Card("Unexpected Loss", 2, "loss", "Pick a player, they discard a card at random."),
    Card("Targeted Theft", 2, "theft", "Take a card at random from a player. Then play another "
         "card."),
    Card("Recycle", 2, "recycle", "Swap this card for a card from the discard pile."),
)

CARD = {c.title: c for c in CARDS}
SLUGS = {c.slug: c.title for c in CARDS}
ALIASES = {alias: c.title for c in CARDS for alias in c.aliases}
EVENT_CARDS = sum(c.count for c in CARDS)
CARD_ORDER = {title: index for index, title in enumerate(CARD)}  # the order of the card table
# (attribute, level) of each attribute card: asked of every card counted face up
BUILDS = {c.title: (c.param("attribute"), c.param("level")) for c in CARDS if c.effect == "build"}
assert EVENT_CARDS == 78 and len(CARDS) == 32


def attribute_card(attribute: int, level: int) -> str:
    return f"{ATTRIBUTES[attribute]} {level}"


def build_of(title: str) -> tuple[int, int] | None:
    """(attribute, level) of an attribute card, None for any other card."""
    return BUILDS.get(title)


def full_deck() -> tuple[str, ...]:
    """Every copy of every event card, in the card table's order (made at each deal: a deal
    is once a game, and the 78 names cost microseconds)."""
    return tuple(c.title for c in CARDS for _ in range(c.count))


def card_order(title: str) -> int:
    return CARD_ORDER[title]


def sort_cards(titles: Any) -> list[str]:
    """Cards in the order of the card table (the order `status` and `options` list them)."""
    return sorted(titles, key=card_order)


# --------------------------------------------------------------------------------------------
# Options


def check_names(value: Any) -> list[str]:
    """The `names` option (R-1): none, or 26 names whose first letters are A to Z, once each."""
    names = [str(n).strip() for n in value]
    if not names:
        return []
    initials = sorted(n[:1].upper() for n in names)
    if len(names) != len(LETTERS) or initials != list(LETTERS):
        raise UsageError("option names needs 26 names, one beginning with each letter A-Z (R-1)",
                         code="bad-option")
    if any(not n.replace("-", "").replace("'", "").isalpha() for n in names):
        raise UsageError("option names: each name is one word of letters (R-1)",
                         code="bad-option")
    return sorted((n[:1].upper() + n[1:] for n in names), key=lambda n: n[0])


def check_hand_limit(value: Any) -> int:
    if not 0 <= value <= 6:
        raise UsageError("option hand_limit must be 0 to 6 (R-3)", code="bad-option")
    return int(value)
