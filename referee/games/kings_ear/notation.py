"""The King's Ear's words: cards and lists of cards as typed ('Pig Army 3', 'pig a 3', 'PA3')."""

from __future__ import annotations

from typing import Sequence

from referee.errors import NotationError
from referee.games.kings_ear.components import PROFESSIONS, VALUES, card_id
from referee.games.kings_ear.state import State
from referee.notation import initials, match, split_list


def card_name(state: State, card: int) -> str:
    return state.card_names[card]


def parse_card(state: State, parts: Sequence[str], text: str) -> int:
    """One card: 'Pig Army 3', 'pig a 3', 'PA3' (case-insensitive, initials or unique prefixes),
    and 'PA3*' as `status` prints a locked card."""
    if parts and parts[-1].endswith("*"):
        parts = [*parts[:-1], parts[-1].rstrip("*")]
    if len(parts) == 1 and len(parts[0]) == 3 and parts[0][2].isdecimal():
        parts = [parts[0][0], parts[0][1], parts[0][2]]
    if len(parts) != 3:
        raise NotationError(f"{' '.join(parts)!r} in {text!r} is not a card; write it as "
                            "'Pig Army 3' or 'PA3'", code="bad-card")
    house = match(parts[0], state.houses, "House", text=text, aliases=initials(state.houses))
    profession = match(parts[1], PROFESSIONS, "profession", text=text,
                       aliases=initials(PROFESSIONS))
    if not parts[2].isdecimal() or int(parts[2]) not in VALUES:
        raise NotationError(f"{parts[2]!r} in {text!r} is not a card value (1-4)",
                            code="bad-card")
    return card_id(state.houses.index(house), PROFESSIONS.index(profession), int(parts[2]))


def parse_cards(state: State, parts: Sequence[str], text: str) -> tuple[str, ...]:
    """Cards separated by commas or 'and', as canonical names in card order."""
    items = split_list(parts)
    if not items:
        raise NotationError(f"no cards given in {text!r}", code="no-cards")
    cards = [parse_card(state, item, text) for item in items]
    if len(set(cards)) != len(cards):
        raise NotationError(f"a card is named twice in {text!r}", code="duplicate-card")
    return tuple(card_name(state, c) for c in sorted(cards))


def parse_house(state: State, parts: Sequence[str], verb: str, text: str) -> str:
    if not parts:
        raise NotationError(f"{verb} needs a House, e.g. '{verb} {state.houses[2]}'",
                            code="no-house")
    return match(parts[0], state.houses, "House", text=text)
