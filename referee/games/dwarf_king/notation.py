"""The Dwarf King's words: cards as typed (K7, 7K, k7, k 7, Druid, dru, D11) and as the referee
prints them (7 of Knights (K7), Champion (Ace) of Goblins, the Standard Bearer [StandardBearer]),
quests (4a, a side's name), players named in a move, and card lists."""

from __future__ import annotations

import re
from typing import Sequence

from referee.errors import AmbiguousMove, NotationError
from referee.games.dwarf_king.components import CARDS, LETTER_SUIT, SPECIALS, tiles
from referee.games.dwarf_king.state import State
from referee.notation import match, prefixed, split_list

# Cards: K7, k7, 7K, DQ, QD, Druid, dru, D1, D11 (the hand's special), rules-page ids
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
    specials = [s.code for s in SPECIALS if prefixed(low, (s.code, s.name.replace(" ", "")))]
    if len(specials) > 1 and in_play is not None:
        specials = [c for c in specials if c in in_play] or specials
    if len(specials) == 1:
        return specials[0]
    if specials:
        raise AmbiguousMove(f"{raw!r}{where} could be {' or '.join(specials)}",
                            code="ambiguous-card")
    raise NotationError(f"{raw!r}{where} is not a card; write a suit letter (K Knights, D Dwarves, "
                        "G Goblins) and a rank (2-10, J, Q, K, A), e.g. K7 or GQ, the card's name "
                        "(7 of Knights, Queen of Dwarves), or a special card's name (Dragon, "
                        "Druid...)", code="unknown-card")


# Cards as several words: `7 of Knights (K7)`, `Champion (Ace) of Goblins`, `k 7`, `the Druid`,
# `Flag Bearer (Dwarves)`, `the Standard Bearer [StandardBearer]`: every way the referee prints a
# card is read back.

_SUIT_WORDS = {"knights": "Knights", "knight": "Knights", "k": "Knights",
               "dwarves": "Dwarves", "dwarfs": "Dwarves", "dwarf": "Dwarves", "d": "Dwarves",
               "goblins": "Goblins", "goblin": "Goblins", "g": "Goblins"}
_RANK_WORDS = {"jack": "J", "queen": "Q", "king": "K", "ace": "A", "champion": "A",
               **{r.casefold(): r for r in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                            "11", "J", "Q", "K", "A")}}


def _bare(word: str) -> str:
    """A word without the brackets around it, in any case: `(Ace)` -> `ace`."""
    return word.strip("()[]").casefold()


def _squeezed(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


_SPECIAL_NAMES = {key: s.code for s in SPECIALS for key in (_squeezed(s.name), _squeezed(s.code))}


def read_cards(words: Sequence[str], in_play: frozenset[str] | None = None,
               text: str | None = None) -> list[str]:
    """Every card named by a run of words, each in any form `parse_card` or the referee's own
    output uses (`hand 7 of Knights, GQ the Druid`)."""
    cards: list[str] = []
    index = 0
    while index < len(words):
        card, index = read_card(words, index, in_play, text)
        cards.append(card)
    return cards


def read_card(words: Sequence[str], index: int, in_play: frozenset[str] | None = None,
              text: str | None = None) -> tuple[str, int]:
    """The card named from `words[index]` on, and the index of the word after it."""
    where = f" in {text!r}" if text is not None else ""
    if _bare(words[index]) == "the" and index + 1 < len(words):
        index += 1
    rank = _RANK_WORDS.get(_bare(words[index]))
    after = index + 1
    if rank == "A" and after < len(words) and _bare(words[after]) == "ace":
        after += 1  # Champion (Ace)
    if rank is not None and after + 1 < len(words) and _bare(words[after]) == "of" \
            and _bare(words[after + 1]) in _SUIT_WORDS:
        card = _suited(_SUIT_WORDS[_bare(words[after + 1])], rank, in_play, words[index], where)
        return card, _code_after(words, after + 2, card, where)
    if index + 1 < len(words):
        first, second = _bare(words[index]), _bare(words[index + 1])
        pairs = ((first, second), (second, first))
        for letter, rank_word in pairs:  # `k 7`, `7 k`: a suit letter and a rank
            if letter in ("k", "d", "g") and len(rank_word) <= 2 and rank_word in _RANK_WORDS:
                card = _suited(_SUIT_WORDS[letter], _RANK_WORDS[rank_word], in_play,
                               f"{words[index]} {words[index + 1]}", where)
                return card, _code_after(words, index + 2, card, where)
    for size in (4, 3, 2):
        if index + size <= len(words):
            special = _special_words(words[index:index + size], in_play, where)
            if special is not None:
                return special, _code_after(words, index + size, special, where)
    card = parse_card(words[index], in_play, text)
    return card, _code_after(words, index + 1, card, where)


def _special_words(words: Sequence[str], in_play: frozenset[str] | None,
                   where: str) -> str | None:
    """A special card named in several words (`Flag Bearer (Dwarves)`, `Standard Bearer`).
    Every word must have a letter or a digit: `!!` names nothing and is never skipped."""
    if not all(_squeezed(word) for word in words):
        return None
    key = _squeezed("".join(words))
    if key in _SPECIAL_NAMES:
        return _SPECIAL_NAMES[key]
    hits = sorted({_SPECIAL_NAMES[name] for name in prefixed(key, _SPECIAL_NAMES)})
    if len(hits) > 1 and in_play is not None:
        hits = [c for c in hits if c in in_play] or hits
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise AmbiguousMove(f"{' '.join(words)!r}{where} could be {' or '.join(hits)}",
                            code="ambiguous-card")
    return None


def _code_after(words: Sequence[str], index: int, card: str, where: str) -> int:
    """Past the code the referee prints after a card's name, `(K7)` or `[StandardBearer]`."""
    if index < len(words) and words[index][:1] in "([" and words[index][-1:] in ")]":
        if _bare(words[index]) != card.casefold():
            raise NotationError(f"{words[index]!r}{where} does not match the card before it "
                                f"({card})", code="unknown-card")
        return index + 1
    return index


# Quests: `4a`, `4 a`, `a` (the seeded pile's tile), or a side's name

_QUEST = re.compile(r"^(\d+)\s*([a-z])?$", re.IGNORECASE)


def parse_quest(state: State, rest: Sequence[str], text: str) -> tuple[int | None, str]:
    """`4a`, `4 a`, `a` (tile from the seeded pile), a side's name, or the referee's own form
    `4a Knights victory over Dwarves (+1 per Knight, -1 per Dwarf)`."""
    joined = " ".join(rest).strip()
    if joined.casefold() in ("a", "b"):
        return None, joined.casefold()
    if not joined:
        raise NotationError(f"{text!r}: which quest? e.g. `quest 4a`", code="no-tile")
    by_name = {q.name: q for q in tiles(state.edition).values()}
    exact = [q for q in by_name.values() if _squeezed(q.name) == _squeezed(joined)]
    if exact:  # a side's name, `1, 2 and...` included
        return exact[0].tile, exact[0].side
    words = list(rest)
    m = _QUEST.match(words[0])
    if m and not m.group(2) and len(words) > 1 and len(words[1]) == 1 and words[1].isalpha():
        m = _QUEST.match(words[0] + words[1])
        words = [words[0] + words[1], *words[2:]]
    if not m:
        quest = by_name[match(joined, by_name, "quest side", text=text)]
        return quest.tile, quest.side
    tile, side = int(m.group(1)), (m.group(2) or "").lower()
    sides = tiles(state.edition)
    hint = "; ".join(f"{tile}{s} {sides[(tile, s)].name}" for s in "ab" if (tile, s) in sides)
    if side not in ("a", "b"):
        what = f"side {side!r}: " if side else ""
        raise NotationError(f"{text!r}: {what}a quest tile has two sides, a and b"
                            + (f" ({hint})" if hint else ""),
                            code="bad-side" if side else "no-side")
    if len(words) > 1 and (tile, side) in sides:  # the name the referee printed after it
        quest, named = sides[(tile, side)], _squeezed(" ".join(words[1:]))
        if named not in (_squeezed(quest.name), _squeezed(f"{quest.name} {quest.text}")):
            raise NotationError(f"{text!r}: {tile}{side} is {quest.name}, not "
                                f"{' '.join(words[1:])!r}", code="bad-side")
    return tile, side


# Players and lists of cards


def card_list(state: State, parts: Sequence[str], text: str) -> list[str]:
    in_play = state.deal.deck(state.players) or None
    return [card for item in split_list(parts) for card in read_cards(item, in_play, text)]


def split_keywords(parts: Sequence[str], keys: tuple[str, ...]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {"": []}
    current = ""
    for word in parts:
        if word.casefold() in keys:
            current = word.casefold()
            groups[current] = []
        else:
            groups[current].append(word)
    return groups


def named(state: State, parts: Sequence[str], player: str | None, text: str) -> str:
    """The player a declaration names (`leader Catie`); it must agree with --as."""
    named = player_named(state, parts, text)
    if player is not None and named != player:
        raise NotationError(f"{text!r} names {named}, but the move is made as {player}",
                            code="player-mismatch")
    return named


def player_named(state: State, parts: Sequence[str], text: str) -> str:
    if not parts:
        raise NotationError(f"{text!r}: name a player ({', '.join(state.names)})",
                            code="no-player")
    return match(" ".join(parts), state.names, "player", text=text)
