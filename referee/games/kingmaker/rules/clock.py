"""The time limit (R-49, R-50) and the event deck: the minutes left, the victory at time, and
the event cards available, rebuilt when exhausted (R-15, rule 9)."""

from __future__ import annotations

from referee.evolve import evolve
from referee.games.kingmaker.components import Box
from referee.games.kingmaker.rules.heirs import heir_player, is_crowned, kings, living_heirs
from referee.games.kingmaker.rules.votes import tally
from referee.derived import derived
from referee.games.kingmaker.state import State


def time_left(state: State) -> float | None:
    played = state.clock.minutes
    return None if played is None else int(state.options.get("time_limit", 240)) - played


def over_time(state: State) -> bool:
    left = time_left(state)
    return left is not None and left <= 0


def time_victory(state: State) -> tuple[str, tuple[str, ...]]:
    """R-50 in order, with R-51's counts (every living noble attends)."""
    living = living_heirs(state)
    if len(living) == 1 and not is_crowned(state, living[0]) and heir_player(state, living[0]):
        return "Major Royal Victory", (str(heir_player(state, living[0])),)
    votes = tally(state)
    commons = {p: c for p, (c, _) in votes.items() if p in state.playing}
    lords = {p: lo for p, (_, lo) in votes.items() if p in state.playing}
    total = sum(commons.values())
    for king in kings(state):
        player = heir_player(state, king)
        if player and 2 * commons[player] >= total and \
                all(lords[player] > lords[p] for p in lords if p != player):
            return "Major Parliamentary Victory", (player,)
    for player in commons:
        others = [p for p in commons if p != player]
        if all(commons[player] > commons[p] and lords[player] > lords[p] for p in others):
            return "Alternate Minor Victory", (player,)
    most_c, most_l = max(commons.values()), max(lords.values())
    winners = [p for p in state.playing if commons[p] == most_c or lords[p] == most_l]
    return "Minor Split Victory", tuple(winners)


def event_counts(state: State, name: str) -> tuple[int, int | None]:
    """(copies out of the event deck, copies in the box or None when unknown)."""
    entry = state.box.get("event", name)
    copies = entry.copies if entry else None
    return state.events_out.get(name, 0), copies


def event_available(state: State, name: str) -> bool:
    out, copies = event_counts(state, name)
    return copies is None or out < copies


def event_deck_empty(state: State) -> bool:
    """Whether no event card is available (event_available of each is false)."""
    copies = _event_copies(state.box)
    out = state.events_out.get
    return bool(copies) and not any(n is None or out(name, 0) < n for name, n in copies)


@derived(Box, "entries")
def _event_copies(box: Box) -> tuple[tuple[str, int | None], ...]:
    """(event, its copies or None when unknown), in the box's order (event_counts of each)."""
    return tuple((e.name, e.copies) for e in box.of("event"))


def rebuild_events(state: State) -> State:
    """R-15 and rule 9: the event deck and its discard shuffled together (held cards stay out)."""
    held: dict[str, int] = {}
    for cards in state.held.values():
        for card in cards:
            held[card] = held.get(card, 0) + 1
    return evolve(state, events_out=held)
