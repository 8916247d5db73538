"""The King's Peace (7.6): from Parliament's dismissal to just before its caller's next chance
phase, the nobles and ships sent home keep still and are not attacked, and no combat is fought in
Parliament's square. Every check here is shared by the move it limits (`move`, `sail`, `attack`,
`siege`) and by the lists of legal moves, which call the same functions (R-42, R-78).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.rules import refuse, split
from referee.games.kingmaker.state import Siege, State

RULE = "§7.6"


def returned(state: State) -> set[str]:
    """R-42: the nobles sent home at dismissal, still in play and not since moved by an event."""
    peace = state.peace
    return {n for n in peace.returned if n in state.nobles} if peace is not None else set()


def enemy_home(state: State, noble: str) -> str | None:
    """Rule 3: the home castle a noble stands near when his faction does not hold it (a neutral
    one counts as enemy-held)."""
    prefix, place = split(state.nobles[noble].at)
    if prefix != "near" or place not in state.entry(noble).names("home"):
        return None
    return place if rules.controller_player(state, place) != state.owner(noble) else None


def still_problem(state: State, nobles: Iterable[str]) -> IllegalMove | None:
    """Rules 2 and 3: a returned noble neither moves, nor embarks, nor lands."""
    back = returned(state)
    for noble in nobles:
        if noble in back:
            near = enemy_home(state, noble)
            why = f"he may only lay siege to {near} (rule 3)" if near else "he keeps still " \
                "(rule 2)"
            return refuse(f"{noble} returned home from Parliament: during the King's Peace {why}",
                          "kings-peace", RULE)
    return None


def ship_problem(state: State, ship: str) -> IllegalMove | None:
    """Rule 4: a ship sent home neither moves, nor embarks, nor lands anyone."""
    if state.peace is not None and ship in state.peace.ships:
        return refuse(f"{ship} was sent home from Parliament: during the King's Peace it does not "
                      "move, embark or land (rule 4)", "kings-peace", RULE)
    return None


def battle_problem(state: State, at: str, fighters: Sequence[str],
                   defenders: Sequence[str]) -> IllegalMove | None:
    """Rules 1, 2, 3, 5 and 7 for an open battle: not in Parliament's square; no returned noble
    attacks or joins either side, and none is attacked."""
    peace = state.peace
    if peace is None:
        return None
    if rules.place_of(at) == peace.place:
        return refuse(f"no combat in Parliament's square, {peace.place}, during the King's Peace "
                      "(rule 1)", "kings-peace", RULE)
    back = returned(state)
    for noble in defenders:
        if noble in back:
            return refuse(f"{noble} returned home from Parliament: nobody attacks him during the "
                          "King's Peace (rule 5)", "kings-peace", RULE)
    for noble in fighters:
        if noble in back:
            return refuse(f"{noble} returned home from Parliament: he takes part in no battle "
                          "during the King's Peace (rules 2, 3, 7)", "kings-peace", RULE)
    return None


def siege_problem(state: State, place: str, action: str,
                  nobles: Sequence[str]) -> IllegalMove | None:
    """Rules 1, 3, 5 and 7 for a siege action by `nobles`: never of Parliament's place, never of a
    place a returned noble is inside; a returned noble lays siege only to the home castle he
    stands near, and concludes only his own siege, never joining one in progress (R-78)."""
    peace = state.peace
    if peace is None:
        return None
    if place == peace.place:
        return refuse(f"no combat in Parliament's square, {place}, during the King's Peace "
                      "(rule 1)", "kings-peace", RULE)
    back = returned(state)
    inside = [n for n in rules.inside(state, place) if n in back]
    if inside:
        return refuse(f"{inside[0]} returned home from Parliament into {place}: nobody attacks "
                      "him during the King's Peace (rule 5)", "kings-peace", RULE)
    siege: Siege | None = state.sieges.get(place)
    for noble in nobles:
        if noble not in back:
            continue
        if enemy_home(state, noble) != place:
            return still_problem(state, [noble])
        joining = action == "join" or (action == "conclude" and siege is not None and
                                       noble not in siege.nobles)
        if joining:
            return refuse(f"{noble} returned home from Parliament: he lays or concludes a siege "
                          f"of {place} of his own, never joins one in progress (rule 3)",
                          "kings-peace", RULE)
    return None


def moved_by_event(state: State, nobles: Iterable[str]) -> State:
    """Rule 6: a returned noble moved by an event card becomes excused."""
    peace = state.peace
    if peace is None:
        return state
    moved = set(nobles)
    kept = tuple(n for n in peace.returned if n not in moved)
    if kept == peace.returned:
        return state
    return evolve(state, peace=evolve(peace, returned=kept))
