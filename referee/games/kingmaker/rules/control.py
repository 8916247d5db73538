"""Fortresses, friendliness and sieges: who controls a place, which places are friendly to a
player (§8.2), who a siege holds and a place's defence (R-27), and the owner of each noble."""

from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

from referee.games.kingmaker.components import Box
from referee.games.kingmaker.rules.places import (
    _nobles_by_location,
    garrison,
    inside,
    is_open_town,
    is_unfortified,
    split,
)
from referee.games.kingmaker.rules.strengths import strength
from referee.derived import derived
from referee.games.kingmaker.state import State


def controller_player(state: State, place: str) -> str | None:
    noble = state.control.get(place)
    return state.owner(noble) if noble else None


def occupied_by_others(state: State, place: str, player: str) -> bool:
    return any(state.owner(n) != player for n in inside(state, place))


def friendly(state: State, player: str, place: str, snapshot: bool = False) -> bool:
    """§8.2 for `player`: his fortress; an open town no other faction occupies; a place its
    controller declared friendly; never a neutral fortress. Unfortified places never impede."""
    if (place, player) in state.grants:
        return True
    if snapshot:
        return place in state.friendly or is_unfortified(state, place)
    if is_unfortified(state, place):
        return True
    if is_open_town(state, place):
        return not occupied_by_others(state, place, player)
    return controller_player(state, place) == player


def friendly_snapshot(state: State, player: str,
                      grants: frozenset[tuple[str, str]] | None = None) -> frozenset[str]:
    """The places friendly to the mover at the start of his movement phase (§8.2): `friendly`
    for every place of known kind, with who is inside each gathered once. `grants` stands for
    the state's own when given (the new phase's, before its state is made)."""
    if grants is None:
        grants = state.grants
    places = _places_by_kind(state.box)
    granted = {name for name, to in grants if to == player} if grants else set()
    found = set(places.unfortified)
    found |= granted
    nobles, by_control = state.nobles, places.by_control
    by_location = _nobles_by_location(state)
    for name, within in places.open_towns:  # no other faction inside
        men = by_location.get(within)
        if not men or all(nobles[noble].owner == player for noble in men):
            found.add(name)
    held, astray = _places_held(state)
    for name, noble in astray:  # a controller not in play: a realm out of joint
        if name not in granted and name in by_control:
            raise KeyError(noble)  # as looking his owner up did
    # controller_player, for the other kinds (a place granted is in already)
    found.update(filter(by_control.__contains__, held.get(player, ())))
    # In the box's order, known kinds only, as a walk through every place would make it.
    return frozenset(filter(found.__contains__, places.names))


_NOT_BY_CONTROL = (None, "unfortified", "open-town")  # unknown, or friendly by other rules


def _owners_update(old: dict[str, str], reads: tuple[object, ...], state: State
                   ) -> dict[str, str]:
    """The last owners, the same object, while they are those of the new nobles (most events
    move nobles, few change hands), so that what is derived from them outlives the move."""
    owners = _owners_of(state)
    return old if owners == old else owners


def _owners_of(state: State) -> dict[str, str]:
    return dict(zip(state.nobles, map(_OWNER, state.nobles.values())))


_OWNER = attrgetter("owner")


@derived(State, "nobles", update=_owners_update)
def noble_owners(state: State) -> dict[str, str]:
    """noble -> the player who owns him. Callers do not change it."""
    return _owners_of(state)


@derived(State, "control", "noble_owners")
def _places_held(state: State) -> tuple[dict[str, list[str]], list[tuple[str, str]]]:
    """player -> the places his nobles control, in `control` order; and (place, noble) for each
    controller not in play (none in a sound realm). Sorted out once while the control and the
    owners stand (most turns change neither)."""
    held: dict[str, list[str]] = {}
    astray: list[tuple[str, str]] = []
    owners = noble_owners(state)
    for place, noble in state.control.items():
        if not noble:
            continue
        owner = owners.get(noble)
        if owner is None:
            astray.append((place, noble))
        else:
            held.setdefault(owner, []).append(place)
    return held, astray


class PlacesByKind(NamedTuple):
    names: tuple[str, ...]  # every place of known kind, in the box's order
    unfortified: tuple[str, ...]
    open_towns: tuple[tuple[str, str], ...]  # (P, in:P)
    by_control: frozenset[str]  # those friendly to their controller's faction (the others)


@derived(Box, "entries")
def _places_by_kind(box: Box) -> PlacesByKind:
    known = box.place_kinds
    return PlacesByKind(
        tuple(known), tuple(name for name, kind in known.items() if kind == "unfortified"),
        tuple((name, f"in:{name}") for name, kind in known.items() if kind == "open-town"),
        frozenset(name for name, kind in known.items() if kind not in _NOT_BY_CONTROL))


def besieged_place(state: State, noble: str) -> str | None:
    """The place whose siege holds a noble: inside it, or aboard a besieging ship (§3)."""
    at = state.nobles[noble].at
    if not state.sieges:  # most of the game: no siege holds anyone
        return None
    prefix, _, name = at.partition(":")
    if prefix == "in" and name in state.sieges:
        return name
    if prefix == "aboard":
        return next((p for p, s in state.sieges.items() if s.ship == name), None)
    return None


def under_siege(state: State, noble: str) -> bool:
    return besieged_place(state, noble) is not None


def ship_besieger(state: State, noble: str) -> bool:
    at = state.nobles[noble].at
    if not state.sieges:
        return False
    prefix, _, name = at.partition(":")
    return prefix == "aboard" and any(s.ship == name for s in state.sieges.values())


def garrison_ally(state: State, noble: str) -> bool:
    """§8.5: a noble inside another faction's fortress."""
    prefix, name = split(state.nobles[noble].at)
    if prefix != "in":
        return False
    owner = controller_player(state, name)
    return owner is not None and owner != state.owner(noble)


def defence(state: State, place: str) -> float:
    """D = the garrison (a quarter from siege turn 3, R-27; an open town's only while occupied,
    R-1) + the strength of every noble inside, garrison allies included. A quarter of a whole
    number is exact in binary floating point, so D is exact."""
    men = inside(state, place)
    base: float = garrison(state, place)
    if is_open_town(state, place) and not men:
        base = 0
    siege = state.sieges.get(place)
    if siege is not None and siege.turn >= 3:
        base /= 4
    return base + sum(strength(state, n) for n in men)


def shown_number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"
