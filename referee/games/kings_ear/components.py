"""The King's Ear's components as data: four Houses, four professions, 64 cards.

A card is a number 0..63: house * 16 + profession * 4 + (value - 1). Its name depends on the House
labels the table chose (R-1): `Pig Army 3`, short form `PA3`.
"""

from __future__ import annotations

from typing import Any

from referee.errors import UsageError

PROFESSIONS = ("Religion", "Army", "Trade", "Farming")
VALUES = (1, 2, 3, 4)
DEFAULT_HOUSES = ("Horse", "Pig", "Stag", "Boar")
CARDS = 64
WINNING_NET = 10
PILE, PENDING = -1, -2  # card locations besides "under House h" (0..3)


def card_id(house: int, profession: int, value: int) -> int:
    return house * 16 + profession * 4 + value - 1


def card_house(card: int) -> int:
    return card // 16


def card_profession(card: int) -> int:
    return card // 4 % 4


def card_value(card: int) -> int:
    return card % 4 + 1


def card_names(houses: tuple[str, ...]) -> tuple[str, ...]:
    """Each card's full name, in card order (a game keeps them: `State.card_names`)."""
    return tuple(f"{house} {profession} {value}"
                 for house in houses for profession in PROFESSIONS for value in VALUES)


def card_ids(houses: tuple[str, ...]) -> dict[str, int]:
    return {name: index for index, name in enumerate(card_names(houses))}


def short_name(houses: tuple[str, ...], card: int) -> str:
    return f"{houses[card_house(card)][0]}{PROFESSIONS[card_profession(card)][0]}{card_value(card)}"


def check_houses(houses: Any) -> list[str]:
    """The `houses` option (R-1): four one-word names with distinct first letters, capitalised."""
    if not isinstance(houses, (list, tuple)) or len(houses) != 4:
        raise UsageError("option houses needs exactly four names (R-1)", code="bad-option")
    names = tuple(str(h).strip() for h in houses)
    for name in names:
        if not name.isalpha():
            raise UsageError(f"House name {name!r} must be one word of letters (R-1)",
                             code="bad-option")
    if len({n.casefold() for n in names}) != 4:
        raise UsageError("the four House names must differ (R-1)", code="bad-option")
    if len({n[0].casefold() for n in names}) != 4:
        raise UsageError("the four House names need distinct first letters: the short card "
                         "form (PA3) relies on it (R-1)", code="bad-option")
    return [n.capitalize() for n in names]
