"""Heirs and Kings (§8): the living heirs with Beaufort (8.2, R-45), their houses, controllers
and lines of succession, the Kings, and the Royal Guards that follow them (R-44)."""

from __future__ import annotations

from referee.games.kingmaker.rules.names import BEAUFORT
from referee.derived import derived
from referee.games.kingmaker.state import State


def beaufort_is_heir(state: State) -> bool:
    """8.2: while in play and every Lancastrian heir of the line is dead (derived each time)."""
    line = state.lines.get("lancaster", ())
    return BEAUFORT in state.nobles and bool(line) and \
        all(not state.heirs[h].alive for h in line if h in state.heirs)


def living_heirs(state: State) -> list[str]:
    return list(_living(state))


@derived(State, "nobles")
def beaufort_in_play(state: State) -> bool:
    """Of the nobles, all that the heirs' standing (living, Kings, controllers) reads (8.2,
    R-45)."""
    return BEAUFORT in state.nobles


@derived(State, "heirs", "lines", "beaufort_in_play")
def _living(state: State) -> tuple[str, ...]:
    found = [h for h, s in state.heirs.items() if s.alive]
    if beaufort_is_heir(state):
        found.append(BEAUFORT)
    return tuple(found)


def house_of(state: State, heir: str) -> str:
    if heir == BEAUFORT:
        return "lancaster"
    entry = state.box.get("heir", heir)
    return str(entry.get("house")) if entry is not None else ""


def controller(state: State, heir: str) -> str | None:
    """The noble who controls an heir (Beaufort controls himself, R-45)."""
    if heir == BEAUFORT:
        return BEAUFORT if BEAUFORT in state.nobles else None
    return state.heirs[heir].by


def heir_player(state: State, heir: str) -> str | None:
    noble = controller(state, heir)
    return state.owner(noble) if noble else None


def heir_location(state: State, heir: str) -> str:
    noble = controller(state, heir)
    return state.nobles[noble].at if noble else state.heirs[heir].at


def is_crowned(state: State, heir: str) -> bool:
    if heir == BEAUFORT:
        return state.beaufort_crowned and beaufort_is_heir(state)
    return state.heirs[heir].alive and state.heirs[heir].crowned


def kings(state: State) -> list[str]:
    return list(_kings(state))


@derived(State, "_living", "heirs", "beaufort_crowned")
def _kings(state: State) -> tuple[str, ...]:
    """The crowned living heirs."""
    return tuple(h for h in _living(state) if is_crowned(state, h))


def sole_king(state: State) -> str | None:
    found = _kings(state)
    return found[0] if len(found) == 1 else None


def line(state: State, house: str) -> list[str]:
    """A house's line of succession, the living first in order (Beaufort last, 8.2)."""
    out = [h for h in state.lines.get(house, ()) if state.heirs[h].alive]
    if house == "lancaster" and beaufort_is_heir(state):
        out.append(BEAUFORT)
    return out


def first_in_line(state: State, house: str) -> str | None:
    found = line(state, house)
    return found[0] if found else None


def heirs_held(state: State, player: str) -> list[str]:
    return [h for h in living_heirs(state) if heir_player(state, h) == player]


def houses_held(state: State, player: str) -> set[str]:
    return {house_of(state, h) for h in heirs_held(state, player)}


def guards(state: State) -> dict[str, str]:
    """R-44: the Royal Guard cards follow the Kings' controllers (derived at every event)."""
    return dict(_guards(state))


@derived(State, "_kings", "heirs", "beaufort_in_play", "options", "box")
def _guards(state: State) -> dict[str, str]:
    out: dict[str, str] = {}
    reigning = [k for k in kings(state) if controller(state, k)]
    sole = sole_king(state)
    for guard in state.box.of("guard"):
        house = guard.get("house")
        if sole is not None and sole in reigning and state.options.get("royal_guard") == "both":
            out[guard.name] = str(controller(state, sole))
            continue
        for king in reigning:
            if house_of(state, king) == house:
                out[guard.name] = str(controller(state, king))
    return out
