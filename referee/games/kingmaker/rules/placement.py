"""Placing crown cards (§5.3, rule 12, R-19): who may take a card, what it brings (places and
ships, R-7), control of a fortress with its town card (§8.1), and town cards in hand (R-53)."""

from __future__ import annotations

from typing import Iterable

from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.games.kingmaker.components import PLACE_KINDS, Box, Entry
from referee.games.kingmaker.rules.control import ship_besieger, under_siege
from referee.games.kingmaker.rules.duties import add_duty
from referee.games.kingmaker.rules.names import refuse
from referee.games.kingmaker.rules.places import noble_position, split
from referee.games.kingmaker.rules.strengths import office_of, titled
from referee.derived import derived
from referee.games.kingmaker.state import Duty, ShipState, State, moved_cards


def placement_problem(state: State, card: str, noble: str, player: str) -> IllegalMove | None:
    """Why `card` may not be assigned to `noble` now (None when it may)."""
    entry = state.entry(card)
    if noble not in state.nobles or state.owner(noble) != player:
        return refuse(f"{noble} is not a noble of {player}'s faction in play", "not-your-noble",
                      "§5.3")
    if under_siege(state, noble) or ship_besieger(state, noble):
        return refuse(f"{noble} is under siege or besieging a port from a ship: no card may be "
                      "assigned to him (rule 12)", "noble-under-siege", "§5.3")
    if state.options.get("assign_at_sea") == "no" and \
            split(noble_position(state, noble))[0] == "sea":
        return refuse(f"{noble} is aboard a ship at sea: no card may be assigned to him (R-19)",
                      "noble-at-sea", "R-19")
    if entry.kind == "title" and titled(state, noble):
        return refuse(f"{noble} is titled already: one title per noble", "titled", "§5.3")
    if entry.kind == "office" and not titled(state, noble):
        return refuse(f"{noble} is untitled: an office goes to a titled noble", "untitled",
                      "§5.3")
    if entry.kind == "office" and office_of(state, noble):
        return refuse(f"{noble} holds {office_of(state, noble)}: one office per titled noble",
                      "has-office", "§5.3")
    return None


def eligible_nobles(state: State, card: str, player: str) -> list[str]:
    return [n for n in state.faction(player) if placement_problem(state, card, n, player) is None]


def assign(state: State, card: str, noble: str, claims: bool = True) -> State:
    """The card goes to the noble; the places and ships it brings come with it (R-7)."""
    state = evolve(state, cards=moved_cards(state.cards, {card: f"noble:{noble}"}))
    entry = state.entry(card)
    if entry.kind == "town":  # at set-up control is settled after the layout
        return take_control(state, str(entry.get("place")), noble) if claims else state
    if claims:
        state = claim_places(state, noble, entry.names("brings"))
    return bring_ships(state, noble, entry)


def claim_places(state: State, noble: str, places: Iterable[str]) -> State:
    """R-7: places become the noble's if they are neutral fortresses."""
    control = dict(state.control)
    return evolve(state, control=control) if _claim(control, state.box, noble, places) \
        else state


def _claim(control: dict[str, str], box: Box, noble: str, places: Iterable[str]) -> bool:
    """R-7 in `control`: each of `places` that is a neutral fortress becomes the noble's (the
    first to claim one has it). Whether any did."""
    claimed = False
    kinds = box.place_kinds  # of the places whose kind is known: another is claimed by none
    for place in places:
        kind = kinds.get(place)
        if place not in control and kind is not None and PLACE_KINDS[str(kind)].fortress:
            control[place] = noble
            claimed = True
    return claimed


def take_control(state: State, place: str, noble: str) -> State:
    control = dict(state.control)
    control[place] = noble
    moved = {}  # the town card goes with the fortress (§8.1)
    for town in _towns_by_place(state.box).get(place, ()):
        where = state.cards.get(town, "")
        if where.startswith("noble:") and where != f"noble:{noble}":
            moved[town] = f"noble:{noble}"
    cards = moved_cards(state.cards, moved) if moved else state.cards  # kept if none moves
    return evolve(state, control=control, cards=cards)


@derived(Box, "entries")
def _towns_by_place(box: Box) -> dict[object, list[str]]:
    """place -> the town cards of its fortress, in the box's order."""
    out: dict[object, list[str]] = {}
    for town in box.of("town"):
        out.setdefault(town.get("place"), []).append(town.name)
    return out


def bring_ships(state: State, noble: str, entry: Entry) -> State:
    brought: dict[str, ShipState] = {}
    names = list(entry.names("ships")) + ([entry.name] if entry.kind == "ship" else [])
    for name in names:
        ship = state.box.card(name)
        if ship is not None and name not in state.ships and name not in brought:
            brought[name] = ShipState(noble, f"port:{ship.get('home_port')}")
    return evolve(state, ships={**state.ships, **brought}) if brought else state


def place_town(state: State, card: str, player: str) -> State:
    """A town card in hand goes to its fortress's controller, or to an own noble who may take
    it (the player's choice when several may); else it stays in hand until one may (R-53)."""
    owner = town_destination(state, card, player)
    if owner is not None:
        return assign(state, card, owner)
    eligible = eligible_nobles(state, card, player)
    if len(eligible) == 1:
        return assign(state, card, eligible[0])
    if eligible and not any(d.kind == "place" and d.subject == card for d in state.duties):
        return add_duty(state, Duty("place", player, card, tuple(eligible)))
    return state


def town_destination(state: State, card: str, player: str) -> str | None:
    """§8.1, R-53, R-57: the noble a town card goes to without a choice (the fortress's
    controller), else None (the player chooses among his own)."""
    place = str(state.entry(card).get("place"))
    return state.control.get(place)
