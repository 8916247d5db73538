"""The King's Ear's rules that more than one event shares: the phase, the turn, trade checks,
winning, and the subset sums that decide whether an equal trade exists.

Each event's own rule is in events.py; every refusal cites an entry of rulebook.py.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Iterable, Mapping

from referee.engine import Event, ToAct
from referee.errors import IllegalMove
from referee.games.kings_ear.components import (
    CARDS,
    PILE,
    WINNING_NET,
    card_house,
    card_ids,
    card_value,
)
from referee.games.kings_ear.notation import card_name
from referee.games.kings_ear.state import State, locked, tradeable_under

TURN, PLACING, OVER = "turn", "placing", "over"


def phase(state: State) -> str:
    if state.finished:
        return OVER
    return PLACING if state.pending is not None else TURN


def to_act(state: State) -> ToAct:
    if state.finished:
        return ToAct((), "the game is over")
    if state.pending is not None:
        return ToAct((state.player,), f"place or trade the drawn {card_name(state, state.pending)}")
    if state.drawn >= CARDS:
        return ToAct((state.player,), "trade, or pass if no trade is possible")
    return ToAct((state.player,), "draw or trade")


# --------------------------------------------------------------------------------------------
# Names in logged events (a hand-edited log may carry anything)


def card_of(state: State, name: str) -> int:
    card = card_ids(state.houses).get(name)
    if card is None:
        raise IllegalMove(f"{name!r} is not a card of this game "
                          f"(Houses: {', '.join(state.houses)})", code="unknown-card")
    return card


def house_of(state: State, name: str) -> int:
    if name not in state.houses:
        raise IllegalMove(f"{name!r} is not a House of this game "
                          f"({', '.join(state.houses)})", code="unknown-house")
    return state.houses.index(name)


def value_of(state: State, names: Iterable[str]) -> int:
    ids = card_ids(state.houses)
    return sum(card_value(ids[n]) for n in names)


# --------------------------------------------------------------------------------------------
# Checks shared by the trades


def check_partner(state: State, house: int) -> None:
    if house == state.own:
        raise IllegalMove(f"you cannot trade with your own House {state.houses[house]}",
                          code="trade-own-house", rule="Trade")


def check_take(state: State, house: int, take: list[int]) -> None:
    houses = state.houses
    for card in take:
        name = card_name(state, card)
        if state.where[card] != house:
            lies = ("in the pile" if state.where[card] == PILE else
                    f"under {houses[state.where[card]]}" if state.where[card] >= 0 else
                    "in play")
            raise IllegalMove(f"{name} is not under {houses[house]} (it is {lies})",
                              code="not-on-board", rule="Trade")
        if locked(state, card):
            raise IllegalMove(f"{name} lies under its own House {houses[house]}: it is locked "
                              "and can never move again", code="locked-card",
                              rule="Locked cards")
    if not any(card_house(c) == state.own for c in take):
        raise IllegalMove(f"at least one card taken must be of your own House "
                          f"{houses[state.own]}", code="no-own-card", rule="Trade")


# --------------------------------------------------------------------------------------------
# After an action


def moved(state: State, moves: Mapping[int, int]) -> State:
    """The cards moved under their new Houses; no card waits any more; the passes start again."""
    where = list(state.where)
    for card, house in moves.items():
        where[card] = house
    return replace(state, where=tuple(where), pending=None, passes=0)


def next_turn(state: State) -> State:
    return replace(state, turn=(state.turn + 1) % len(state.names))


def after_action(state: State) -> State:
    """After each action: the acting House wins first, then any other seated House at 10."""
    order = [state.turn] + [i for i in range(len(state.names)) if i != state.turn]
    for seat in order:
        if WINNING_NET in state.nets(state.seats[seat]):
            return replace(state, winner=seat)
    return next_turn(state)


# --------------------------------------------------------------------------------------------
# Equal trades: subset sums


def subset_sums(cards: list[int], need_house: int | None) -> set[int]:
    """Every total a non-empty subset of `cards` can make (with `need_house`: subsets holding at
    least one card of that House). A subset-sum sweep: cheap however many cards there are."""
    any_sums: set[int] = set()  # totals of non-empty subsets
    own_sums: set[int] = set()  # ... that contain a card of need_house
    for card in cards:
        value = card_value(card)
        new_any = {t + value for t in any_sums} | {value}
        if need_house is not None and card_house(card) == need_house:
            own_sums |= new_any
        else:
            own_sums |= {t + value for t in own_sums}
        any_sums |= new_any
    return any_sums if need_house is None else own_sums


def equal_trade_sums(state: State) -> set[tuple[int, int]]:
    """(partner House, total) pairs for which an equal option-2 trade exists."""
    gives = subset_sums(tradeable_under(state, state.own), None)
    if not gives:
        return set()
    return {(house, total) for house in range(4) if house != state.own
            for total in gives & subset_sums(tradeable_under(state, house), state.own)}


def subsets_by_sum(cards: list[int], need_house: int | None) -> dict[int, list[tuple[int, ...]]]:
    """Non-empty subsets of `cards` by total value; with `need_house`, only those that contain
    at least one card of that House (the 'at least one of your own House' rule)."""
    out: dict[int, list[tuple[int, ...]]] = {}
    for size in range(1, len(cards) + 1):
        for combo in itertools.combinations(sorted(cards), size):
            if need_house is not None and not any(card_house(c) == need_house for c in combo):
                continue
            out.setdefault(sum(card_value(c) for c in combo), []).append(combo)
    return out


def subsets_with_sum(cards: list[int], total: int, need_house: int) -> list[tuple[int, ...]]:
    # Values are 1..4 and the total at most 4, so at most four cards take part.
    small = [c for c in sorted(cards) if card_value(c) <= total]
    out = []
    for size in range(1, min(total, len(small)) + 1):
        for combo in itertools.combinations(small, size):
            if sum(card_value(c) for c in combo) == total and \
                    any(card_house(c) == need_house for c in combo):
                out.append(combo)
    return out


def trade_event(state: State, house: int, give: Iterable[int], take: Iterable[int],
                agreed: bool = False) -> Event:
    return Event.make("trade", state.player, house=state.houses[house],
                      give=[card_name(state, c) for c in sorted(give)] or None,
                      take=[card_name(state, c) for c in sorted(take)],
                      agreed=True if agreed else None)


# --------------------------------------------------------------------------------------------
# Random play for `simulate`: trades are sampled, never enumerated


def random_subset(cards: list[int], total: int, need_house: int | None,
                  rng: random.Random) -> list[int] | None:
    """A random subset of `cards` adding up to `total` (holding a card of `need_house` if set)."""
    cards = list(cards)
    rng.shuffle(cards)
    if need_house is not None:
        anchors = [c for c in cards if card_house(c) == need_house]
        for anchor in anchors:
            rest = [c for c in cards if c != anchor]
            remainder = total - card_value(anchor)
            if remainder == 0:
                return [anchor]
            if remainder > 0 and remainder in subset_sums(rest, None):
                tail = random_subset(rest, remainder, None, rng)
                assert tail is not None
                return [anchor, *tail]
        return None
    chosen: list[int] = []
    for index, card in enumerate(cards):
        value = card_value(card)
        rest = cards[index + 1:]
        if value == total:
            return chosen + [card]
        if value < total and (total - value) in subset_sums(rest, None) and rng.random() < 0.5:
            chosen.append(card)
            total -= value
        elif total not in subset_sums(rest, None):
            chosen.append(card)  # the rest alone cannot make the total: this card must go in
            total -= value
    return chosen if total == 0 else None


def random_equal_trade(state: State, rng: random.Random) -> Event | None:
    options = equal_trade_sums(state)
    if not options:
        return None
    house, total = rng.choice(sorted(options))
    give = random_subset(tradeable_under(state, state.own), total, None, rng)
    take = random_subset(tradeable_under(state, house), total, state.own, rng)
    assert give is not None and take is not None
    return trade_event(state, house, give, take)


def random_unequal_trade(state: State, rng: random.Random) -> Event | None:
    """An option-2 trade that the partner accepts (R-3), as happens at real tables."""
    give_pool = tradeable_under(state, state.own)
    partners = [h for h in state.seats if h != state.own]
    rng.shuffle(partners)
    for house in partners:
        own_there = [c for c in tradeable_under(state, house) if card_house(c) == state.own]
        if give_pool and own_there:
            give = rng.sample(give_pool, rng.randint(1, min(2, len(give_pool))))
            take = [rng.choice(own_there)]
            equal = sum(map(card_value, give)) == sum(map(card_value, take))
            return trade_event(state, house, give, take, agreed=not equal)
    return None
