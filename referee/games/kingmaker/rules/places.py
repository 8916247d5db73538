"""Places and positions: what the box says of a place (its kind, garrison, capacity, Commons,
area, bonus regions), where a location lies on the board, and which nobles are where."""

from __future__ import annotations

from typing import Any, Mapping

from referee.games.kingmaker.components import PLACE_KINDS, WITHIN, Entry, PlaceKind
from referee.games.kingmaker.rules.names import refuse
from referee.derived import derived
from referee.games.kingmaker.state import State


def split(location: str) -> tuple[str, str]:
    prefix, _, rest = location.partition(":")
    return prefix, rest


def place_entry(state: State, name: str) -> Entry:
    """A place the log knows with its kind (R-2 asks for what is missing)."""
    entry = state.box.place(name)
    if entry is None or entry.get("kind") is None:
        typed = name.replace(" ", "-")
        known = "is not a place this log knows" if entry is None else \
            "is a place whose kind this log does not know yet"
        raise refuse(f"{name} {known}: fill in the blank from the map and record it, "
                     f"`referee declare` with the line `declare place {typed} kind=___` (city, "
                     f"town, royal-castle, castle, open-town or unfortified), or add "
                     f"`{typed}.kind=___` to the move", "unknown-place" if entry is None
                     else "missing-value", "R-2")
    return entry


def kind_of(state: State, name: str) -> PlaceKind:
    return PLACE_KINDS[str(place_kind(state, name))]


def place_kind(state: State, name: str) -> Any:
    """`place_entry(state, name).get("kind")`: looked up in one step for a place of known kind,
    through place_entry (which refuses) otherwise."""
    kind = state.box.place_kinds.get(name)
    return place_entry(state, name).get("kind") if kind is None else kind


def is_fortress(state: State, name: str) -> bool:
    return kind_of(state, name).fortress


def is_open_town(state: State, name: str) -> bool:
    return bool(place_kind(state, name) == "open-town")


def is_unfortified(state: State, name: str) -> bool:
    return bool(place_kind(state, name) == "unfortified")


def garrison(state: State, name: str) -> int:
    return place_entry(state, name).number("garrison", kind_of(state, name).garrison)


def capacity(state: State, name: str) -> int | None:
    value = place_entry(state, name).get("capacity")
    return value if isinstance(value, int) else kind_of(state, name).capacity


def place_commons(state: State, name: str) -> int:
    return place_entry(state, name).number("commons", kind_of(state, name).commons)


def area(state: State, name: str) -> str:
    entry = state.box.place(name)
    return str(entry.get("area", "mainland")) if entry is not None else "mainland"


def is_port(state: State, name: str) -> bool:
    entry = state.box.place(name)
    return entry is not None and entry.flag("port")


def regions(state: State, name: str) -> set[str]:
    """The bonus regions a place lies in, with the regions that contain them (R-4)."""
    entry = state.box.place(name)
    found = set(entry.names("regions")) if entry is not None else set()
    return found | {WITHIN[r] for r in found if r in WITHIN}


def normal(state: State, location: str) -> str:
    """A location as stored: an unfortified place has no inside (§3)."""
    prefix, _, name = location.partition(":")  # split(), inlined: asked at every event
    if prefix == "in" and is_unfortified(state, name):
        return f"near:{name}"
    return location


def position(state: State, location: str) -> str:
    """Where a location is on the board: aboard a ship means where the ship is."""
    prefix, _, name = location.partition(":")
    if prefix == "aboard":
        ship = state.ships.get(name)
        return ship.at if ship else location
    return location


def place_of(location: str) -> str | None:
    prefix, _, name = location.partition(":")
    return name if prefix in ("in", "near", "port") else None


def on_mainland(state: State, location: str) -> bool:
    """8.4: land squares and mainland places; the sea and every other area are not."""
    prefix, _, name = location.partition(":")
    if prefix == "sea":
        return False
    if prefix == "sq":
        return True
    return area(state, name) == "mainland"


def noble_position(state: State, noble: str) -> str:
    return position(state, state.nobles[noble].at)


def at_location(state: State, location: str) -> list[str]:
    """The nobles stored at a location (in:P, near:P, sq:X or aboard:S)."""
    return list(_nobles_by_location(state).get(location, ()))


@derived(State, "nobles")
def _nobles_by_location(state: State) -> dict[str, list[str]]:
    """location -> the nobles there, in `nobles` order: sorted out once for every location a
    state's nobles are asked about (a combat phase asks about every ship)."""
    out: dict[str, list[str]] = {}
    for noble, info in state.nobles.items():
        out.setdefault(info.at, []).append(noble)
    return out


def inside(state: State, place: str) -> list[str]:
    return at_location(state, f"in:{place}")


def aboard(state: State, ship: str) -> list[str]:
    return at_location(state, f"aboard:{ship}")
