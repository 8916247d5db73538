"""The Dwarf King's words: cards as typed (K7, 7K, k7, Druid, dru, D11), quests (4a, a side's
name), players named in a move, and card lists."""

from __future__ import annotations

import re
from typing import Sequence

from referee.errors import AmbiguousMove, NotationError
from referee.games.dwarf_king.components import CARDS, LETTER_SUIT, SPECIALS, tiles
from referee.games.dwarf_king.state import State
from referee.notation import match, split_list

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


# Quests: `4a`, `4 a`, `a` (the seeded pile's tile), or a side's name

_QUEST = re.compile(r"^(\d+)\s*([ab])?$", re.IGNORECASE)


def parse_quest(state: State, rest: Sequence[str], text: str) -> tuple[int | None, str]:
    """`4a`, `4 a`, `a` (tile from the seeded pile) or a side's name."""
    joined = " ".join(rest).strip()
    if joined.casefold() in ("a", "b"):
        return None, joined.casefold()
    m = _QUEST.match(joined)
    if m:
        tile = int(m.group(1))
        if not m.group(2):
            sides = tiles(state.edition)
            hint = "; ".join(f"{tile}{s} {sides[(tile, s)].name}" for s in "ab"
                             if (tile, s) in sides)
            raise NotationError(f"{text!r}: choose a side, a or b ({hint})", code="no-side")
        return tile, m.group(2).lower()
    if not joined:
        raise NotationError(f"{text!r}: which quest? e.g. `quest 4a`", code="no-tile")
    by_name = {q.name: q for q in tiles(state.edition).values()}
    quest = by_name[match(joined, by_name, "quest side", text=text)]
    return quest.tile, quest.side


# Players and lists of cards


def card_list(state: State, parts: Sequence[str], text: str) -> list[str]:
    in_play = state.deal.deck(state.players) or None
    return [parse_card(word, in_play, text) for item in split_list(parts) for word in item]


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
