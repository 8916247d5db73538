"""Coronations (8.1, R-43): the heirs the active player may crown now and where, and why an
heir may not be crowned at a place."""

from __future__ import annotations

from referee.errors import IllegalMove
from referee.games.kingmaker.rules.control import garrison_ally
from referee.games.kingmaker.rules.heirs import (
    _kings,
    controller,
    first_in_line,
    heir_location,
    heir_player,
    house_of,
)
from referee.games.kingmaker.rules.names import refuse
from referee.games.kingmaker.rules.places import at_location, normal, place_of
from referee.games.kingmaker.rules.strengths import bishops_of
from referee.games.kingmaker.state import State


def coronations(state: State) -> list[tuple[str, str]]:
    """(heir, place) pairs the active player may crown now (8.1)."""
    out = []
    for house in ("lancaster", "york"):
        heir = first_in_line(state, house)
        if heir is None or any(house_of(state, k) == house for k in _kings(state)):
            continue
        if heir_player(state, heir) != state.active:
            continue
        place = place_of(heir_location(state, heir))
        if place and coronation_problem(state, heir, place) is None:
            out.append((heir, place))
    return out


def coronation_problem(state: State, heir: str, place: str) -> IllegalMove | None:
    house = house_of(state, heir)
    if first_in_line(state, house) != heir:
        return refuse(f"{heir} is not the first living heir of {house.title()}", "not-first",
                      "§8.1")
    if any(house_of(state, k) == house for k in _kings(state)):
        return refuse(f"a King of {house.title()} lives", "king-lives", "§8.1")
    noble = controller(state, heir)
    if noble is None or state.owner(noble) != state.active:
        return refuse(f"{heir} is not controlled by a noble of {state.active}'s faction",
                      "not-controlled", "§8.1")
    entry = state.box.place(place)
    if entry is None or not entry.flag("cathedral"):
        return refuse(f"{place} has no cathedral", "no-cathedral", "§8.1")
    here = normal(state, f"in:{place}")
    if state.nobles[noble].at != here:
        return refuse(f"{heir} and {noble} are not at {place} ({here})", "not-there", "§8.1")
    if garrison_ally(state, noble):
        return refuse(f"{noble} is a garrison ally in {place}: he crowns no heir (§8.5)",
                      "garrison-ally", "§8.5")
    clerics = [c for n in at_location(state, here)
               if state.options.get("coronation_bishops") == "present"
               or state.owner(n) == state.active for c in bishops_of(state, n)]
    if not any(state.entry(c).flag("archbishop") for c in clerics) and len(clerics) < 2:
        return refuse(f"no archbishop and fewer than two bishops are held at {place} "
                      "(R-43)", "no-bishops", "R-43")
    return None
