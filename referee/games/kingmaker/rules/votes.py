"""Votes (R-36, R-51): the Commons and Lords of each player that Parliament and the time limit
count, and who has the King's Commons (R-57)."""

from __future__ import annotations

from typing import Iterable

from referee.games.kingmaker.rules.heirs import controller, first_in_line, heir_player, sole_king
from referee.games.kingmaker.rules.names import CHANCELLOR
from referee.games.kingmaker.rules.places import place_commons
from referee.games.kingmaker.rules.strengths import holder
from referee.games.kingmaker.state import State


def tally(state: State, attending: Iterable[str] | None = None) -> dict[str, tuple[int, int]]:
    """Commons and Lords per player. Commons wherever the nobles are: nobles, titles, offices,
    fortresses, the King's votes, the senior heirs'; Lords for attending nobles only."""
    present = set(state.nobles if attending is None else attending)
    box = state.box
    commons = {p: 0 for p in state.names}
    lords = {p: 0 for p in state.names}
    for noble, info in state.nobles.items():
        commons[info.owner] += state.entry(noble).number("commons")
        for card in state.cards_of(noble):
            entry = state.entry(card)
            if entry.kind in ("title", "office"):
                commons[info.owner] += entry.number("commons")
            if entry.kind == "bishop" and noble in present:
                lords[info.owner] += entry.number("lords")
        if noble in present:
            lords[info.owner] += state.entry(noble).number("lords")
    for place, noble in state.control.items():
        commons[state.owner(noble)] += place_commons(state, place)
    king_votes = king_holder(state)
    if king_votes is not None:
        commons[king_votes] += int(box.votes("king_commons"))
    for house in ("lancaster", "york"):
        first = first_in_line(state, house)
        who = heir_player(state, first) if first else None
        if who is not None:
            commons[who] += int(box.votes("senior_heir_commons"))
            if controller(state, str(first)) in present:
                lords[who] += int(box.votes("senior_heir_lords"))
    return {p: (commons[p], lords[p]) for p in state.names}


def king_holder(state: State) -> str | None:
    """Who has the King's 20 Commons: the sole King's controller; with no sole King, the
    Chancellor's faction (R-57: an uncontrolled sole King gives them to nobody)."""
    sole = sole_king(state)
    if sole is not None:
        return heir_player(state, sole)
    if state.box.votes("no_sole_king") != "chancellor":
        return None
    noble = holder(state, CHANCELLOR)
    return state.owner(noble) if noble else None
