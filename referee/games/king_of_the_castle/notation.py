"""King of the Castle's words: cards, castles, posts, attributes, players and squires as typed.

Everything is case-insensitive and forgiving: a card is its slug (`accidental-death`), its title
in words (`accidental death`), a unique prefix (`acc`, `acc death`) or, for an attribute card, its
level name (`town` = `domain-2`); a castle is `castle 2`, `c2` or `2`; a post is `king`, `lord 2`,
`l2`, `master 2`, `maa 2` or the letter of the man holding it. Each parser takes the words it
needs from the front and returns the rest.
"""

from __future__ import annotations

import re
from typing import Sequence

from referee.errors import AmbiguousMove, NotationError
from referee.games.king_of_the_castle.components import (
    ALIASES,
    ATTRIBUTES,
    CARD,
    CASTLES,
    KING,
    LETTERS,
    RANK_WORDS,
    RANKS,
    SLUGS,
    post,
)
from referee.games.king_of_the_castle.state import State
from referee.notation import MIN_PREFIX, match, prefixed

Words = tuple[str, ...]
NAMES = {**SLUGS, **ALIASES}  # every word form of a card -> its title
RANK_FORMS = {"lord": 0, "seneschal": 1, "master": 2, "maa": 2, "master-at-arms": 2}
RANK_LETTERS = {"l": 0, "s": 1, "m": 2}  # `l2`, `s1`, `m3`: documented short posts
SEPARATORS = {",", "and"}


def _token(word: str) -> str:
    """A word as the card table spells it: lower case, no `!`, `domain2` -> `domain-2`."""
    low = word.casefold().replace("!", "").replace("_", "-")
    return re.sub(r"([a-z])(\d)$", r"\1-\2", low)


def _begins(part: str, typed: str) -> bool:
    """`typed` is the word `part` or an abbreviation of it (never one or two letters)."""
    return part == typed or (len(typed) >= MIN_PREFIX and part.startswith(typed))


def _prefix_hits(typed: Sequence[str]) -> set[str]:
    """Titles whose word form each typed word begins, word for word (`acc death`), or which the
    one typed word begins (`plag`, `accidental-d`)."""
    hits = set()
    for form, title in NAMES.items():
        parts = form.split("-")
        if len(typed) == 1 and _begins(form, typed[0]):
            hits.add(title)
        elif len(parts) == len(typed) and all(_begins(p, t) for p, t in zip(parts, typed)):
            hits.add(title)
    return hits


def take_card(words: Words, text: str) -> tuple[str, Words]:
    """The card at the front of `words` (up to three words long) and the words after it."""
    if not words:
        raise NotationError(f"{text!r}: which card?", code="no-card")
    tokens = [_token(w) for w in words[:3]]
    for size in range(len(tokens), 0, -1):
        title = NAMES.get("-".join(tokens[:size]))
        if title is not None:
            return title, words[size:]
    for size in range(len(tokens), 0, -1):
        hits = _prefix_hits(tokens[:size])
        if len(hits) == 1:
            return hits.pop(), words[size:]
        if hits and size == 1:
            shown = " or ".join(CARD[t].slug for t in sorted(hits, key=list(CARD).index))
            raise AmbiguousMove(f"{words[0]!r} in {text!r} could be the card {shown}",
                                code="ambiguous-word")
    raise NotationError(f"{words[0]!r} in {text!r} is not a card (see `referee rules "
                        "king-of-the-castle`)", code="unknown-card")


def take_cards(words: Words, text: str) -> tuple[str, ...]:
    """Cards one after another, optionally separated by commas or `and`."""
    cards = []
    rest = tuple(w for w in words if w.casefold() not in SEPARATORS)
    while rest:
        card, rest = take_card(rest, text)
        cards.append(card)
    return tuple(cards)


def take_castle(words: Words, text: str) -> tuple[int, Words]:
    """A castle, 1-3: `castle 2`, `c 2`, `c2`, `2`."""
    if words and _token(words[0]) in ("castle", "c"):
        words = words[1:]
    elif words and re.fullmatch(r"(?i)c(astle)?-?\d", words[0]):
        words = (words[0][-1],) + words[1:]
    if not words or not words[0].isdecimal() or not 1 <= int(words[0]) <= CASTLES:
        shown = words[0] if words else "nothing"
        raise NotationError(f"{text!r}: expected a castle (1, 2 or 3), not {shown!r}",
                            code="no-castle")
    return int(words[0]), words[1:]


def _rank(word: str) -> int | None:
    low = _token(word)
    if low in RANK_LETTERS:
        return RANK_LETTERS[low]
    hits = {rank for form, rank in RANK_FORMS.items() if _begins(form, low)}
    return hits.pop() if len(hits) == 1 else None


def _joined(words: Words) -> Words:
    """`master at arms` as one word."""
    low = [w.casefold() for w in words[:3]]
    return ("master-at-arms",) + words[3:] if low == ["master", "at", "arms"] else words


def take_post(state: State, words: Words, text: str) -> tuple[int, Words]:
    """A post: `king`, `lord 2`, `l2`, `seneschal 1`, `master 3`, or the letter of its man."""
    words = _joined(words)
    if not words:
        raise NotationError(f"{text!r}: which man? e.g. `lord 2` or `king`", code="no-post")
    first = words[0]
    compact = re.fullmatch(r"(?i)([a-z]+)-?(\d)", first)
    if compact and _rank(compact.group(1)) is not None:
        return _post_at(_rank(compact.group(1)), compact.group(2), text), words[1:]
    if _begins("king", first.casefold()):
        return KING, words[1:]
    rank = _rank(first)
    if rank is not None and len(words) > 1 and words[1].isdecimal():
        return _post_at(rank, words[1], text), words[2:]
    letter = squire_of(state, first)
    if letter is not None and letter in state.men:
        return state.men.index(letter), words[1:]
    raise NotationError(f"{first!r} in {text!r} is not a post (king, lord 2, seneschal 1, "
                        "master 3) nor a man in office", code="no-post")


def _post_at(rank: int | None, castle: str, text: str) -> int:
    assert rank is not None
    if not 1 <= int(castle) <= CASTLES:
        raise NotationError(f"{text!r}: there is no castle {castle}", code="no-castle")
    return post(int(castle) - 1, rank)


def take_rank(state: State, castle: int, words: Words, text: str) -> tuple[int, Words]:
    """A rank within a castle: `lord`, `sen`, `maa`, or the letter of a man of that castle."""
    words = _joined(words)
    if not words:
        raise NotationError(f"{text!r}: which men? e.g. `kill lord seneschal`", code="no-post")
    rank = _rank(words[0])
    if rank is None:
        letter = squire_of(state, words[0])
        places = [r for r in range(3) if letter and state.men[post(castle - 1, r)] == letter]
        if not places:
            raise NotationError(f"{words[0]!r} in {text!r} is not a man of castle {castle} "
                                "(lord, seneschal, master, or his letter)", code="no-post")
        rank = places[0]
    return rank, words[1:]


def take_attribute(words: Words, text: str) -> tuple[str, Words]:
    if not words:
        raise NotationError(f"{text!r}: which attribute? domain, prestige or defence",
                            code="no-attribute")
    word = "defence" if _token(words[0]) in ("defense", "def") else words[0]
    return match(word, ATTRIBUTES, "attribute", text=text), words[1:]


def take_player(state: State, words: Words, text: str) -> tuple[str, Words]:
    if not words:
        raise NotationError(f"{text!r}: which player?", code="no-player")
    return match(words[0], state.names, "player", text=text), words[1:]


def squire_of(state: State, word: str) -> str | None:
    """The squire a word names: his letter, or (option names, R-1) his name or its prefix."""
    if len(word) == 1 and word.upper() in LETTERS:
        return word.upper()
    if state.letter_names and len(word) > 1:
        hits = [n[0] for n in state.letter_names if _begins(n.casefold(), word.casefold())]
        return hits[0] if len(hits) == 1 else None
    return None


def parse_letters(state: State, words: Sequence[str], text: str) -> tuple[str, ...]:
    """Squires as letters: `q a b`, `qab`, `q, a, b`, or their names (R-1)."""
    letters: list[str] = []
    for word in (w for w in words if w.casefold() not in SEPARATORS):
        letter = squire_of(state, word)
        if letter is not None:
            letters.append(letter)
        elif word.isalpha() and word.isascii():
            letters.extend(word.upper())
        else:
            raise NotationError(f"{text!r}: squires are letters A-Z", code="bad-letters")
    return tuple(letters)


def squire(state: State, letter: str | None) -> str:
    """A squire as the board shows him: `Q`, or `Q (Quentin)` with names (R-1)."""
    if letter is None:
        return "-"
    if state.letter_names:
        return f"{letter} ({state.letter_names[LETTERS.index(letter)]})"
    return letter


def rank_words(ranks: Sequence[str]) -> str:
    """Ranks as the notation writes them: `lord seneschal`."""
    return " ".join(RANK_WORDS[RANKS.index(r)] for r in ranks)
