"""The King's Ear's rules that more than one event shares: the phase, the turn, trade checks,
winning, and the subset sums that decide whether an equal trade exists.

Each event's own rule is in events.py; every refusal cites an entry of rulebook.py.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping

from referee.engine import Event, ToAct
from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.games.kings_ear.components import (
    CARDS,
    PILE,
    WINNING_NET,
    card_house,
    card_value,
)
from referee.games.kings_ear.notation import card_name
from referee.games.kings_ear.state import State, locked, tradeable_under
from referee.values import value

if TYPE_CHECKING:  # only random play (simulate) uses it
    import random

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
    card = state.card_ids.get(name)
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
    ids = state.card_ids
    return sum(card_value(ids[n]) for n in names)


# --------------------------------------------------------------------------------------------
# Checks shared by the trades


def partner_problem(state: State, house: int) -> IllegalMove | None:
    if house == state.own:
        return IllegalMove(f"you cannot trade with your own House {state.houses[house]}",
                           code="trade-own-house", rule="Trade")
    return None


def take_problems(state: State, house: int, take: list[int]) -> list[IllegalMove]:
    """Everything wrong with the cards a trade takes from `house`, card by card, then the rule
    that one of them be of your own House."""
    houses = state.houses
    problems = []
    for card in take:
        name = card_name(state, card)
        if state.where[card] != house:
            lies = ("in the pile" if state.where[card] == PILE else
                    f"under {houses[state.where[card]]}" if state.where[card] >= 0 else
                    "in play")
            problems.append(IllegalMove(f"{name} is not under {houses[house]} (it is {lies})",
                                        code="not-on-board", rule="Trade"))
        elif locked(state, card):
            problems.append(IllegalMove(f"{name} lies under its own House {houses[house]}: it "
                                        "is locked and can never move again",
                                        code="locked-card", rule="Locked cards"))
    if not any(card_house(c) == state.own for c in take):
        problems.append(IllegalMove(f"at least one card taken must be of your own House "
                                    f"{houses[state.own]}", code="no-own-card", rule="Trade"))
    return problems


# --------------------------------------------------------------------------------------------
# After an action


def moved(state: State, moves: Mapping[int, int]) -> State:
    """The cards moved under their new Houses; no card waits any more; the passes start again."""
    where = list(state.where)
    for card, house in moves.items():
        where[card] = house
    return evolve(state, where=tuple(where), pending=None, passes=0)


def next_turn(state: State) -> State:
    turn = (state.turn + 1) % len(state.names)
    if turn:
        return evolve(state, turn=turn)
    # a round of turns is over: its best nets show on the sheet who led when
    return evolve(state, turn=turn, rounds=(*state.rounds, state.best_nets()))


def after_action(state: State) -> State:
    """After each action: the acting House wins first, then any other seated House at 10."""
    order = [state.turn] + [i for i in range(len(state.names)) if i != state.turn]
    for seat in order:
        if WINNING_NET in state.nets(state.seats[seat]):
            return evolve(state, winner=seat)
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


def subset_counts(cards: list[int], need_house: int | None) -> dict[int, int]:
    """How many non-empty subsets of `cards` make each total (with `need_house`: subsets holding
    at least one card of that House). Counted, never listed: the counts reach billions."""
    every = {0: 1}  # totals of all subsets, the empty one included
    avoiding = {0: 1}  # ... of the subsets without a card of need_house
    for card in cards:
        value = card_value(card)
        every = _with_card(every, value)
        if need_house is not None and card_house(card) != need_house:
            avoiding = _with_card(avoiding, value)
    if need_house is None:
        avoiding = {0: 1}  # only the empty subset is left out
    counts = {total: n - avoiding.get(total, 0) for total, n in every.items()}
    return {total: n for total, n in counts.items() if n}


def _with_card(counts: dict[int, int], value: int) -> dict[int, int]:
    out = dict(counts)
    for total, n in counts.items():
        out[total + value] = out.get(total + value, 0) + n
    return out


@value
class Family:
    """The equal option-2 trades with one House at one total: `gives` x `takes` of them."""

    house: int
    total: int
    gives: int
    takes: int

    @property
    def count(self) -> int:
        return self.gives * self.takes


def equal_trade_families(state: State) -> list[Family]:
    """Every (partner House, total) with equal trades, and how many: counted, not listed."""
    gives = subset_counts(tradeable_under(state, state.own), None)
    if not gives:
        return []
    out = []
    for house in range(4):
        if house == state.own:
            continue
        takes = subset_counts(tradeable_under(state, house), state.own)
        out += [Family(house, total, gives[total], takes[total])
                for total in sorted(set(gives) & set(takes))]
    return out


def subsets_with_total(cards: list[int], total: int,
                       need_house: int | None) -> Iterator[tuple[int, ...]]:
    """Lazily, the subsets of `cards` adding up to `total` (holding a card of `need_house` if
    set), smallest first and in card order within a size, as itertools.combinations would."""
    cards = sorted(cards)
    values = [card_value(c) for c in cards]
    needed = [need_house is None or card_house(c) == need_house for c in cards]
    for size in range(1, len(cards) + 1):
        if size > total:  # values are at least 1
            return
        yield from _subsets_of_size(cards, values, needed, 0, size, total, need_house is None, [])


def _subsets_of_size(cards: list[int], values: list[int], needed: list[bool], start: int,
                     size: int, left: int, has_needed: bool,
                     chosen: list[int]) -> Iterator[tuple[int, ...]]:
    if size == 0:
        if left == 0 and has_needed:
            yield tuple(chosen)
        return
    if left < size or left > 4 * size:  # each card is worth 1 to 4
        return
    for index in range(start, len(cards) - size + 1):
        if values[index] > left:
            continue
        chosen.append(cards[index])
        yield from _subsets_of_size(cards, values, needed, index + 1, size - 1,
                                    left - values[index], has_needed or needed[index], chosen)
        chosen.pop()


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
