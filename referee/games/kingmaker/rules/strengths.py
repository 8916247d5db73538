"""Cards and strength: the titles, offices and bishops a noble holds, who holds a card, and a
noble's or a force's strength with its parts (R-4, R-28, R-44)."""

from __future__ import annotations

from itertools import compress, repeat
from operator import is_not
from typing import Any, Iterable

from referee.derived import derived
from referee.games.kingmaker.components import WITHIN
from referee.games.kingmaker.rules.heirs import _guards
from referee.games.kingmaker.rules.places import noble_position, place_of, regions
from referee.games.kingmaker.state import State, holdings


def titled(state: State, noble: str) -> bool:
    """A printed title, or a title card (one title per noble)."""
    printed = state.box.card(noble)  # his entry (state.entry), looked up once
    return bool(printed is not None and printed.get("title")) or \
        any(state.kind(c) == "title" for c in state.cards_of(noble))


def office_of(state: State, noble: str) -> str | None:
    return next((c for c in state.cards_of(noble) if state.kind(c) == "office"), None)


def bishops_of(state: State, noble: str) -> list[str]:
    return [c for c in state.cards_of(noble) if state.kind(c) == "bishop"]


def holder(state: State, card: str) -> str | None:
    where = state.cards.get(card, "")
    return where[6:] if where.startswith("noble:") else None


def strength(state: State, noble: str, extra_regions: Iterable[str] = (),
             french: bool = False, bonuses: bool = True) -> int:
    """Printed troops + title, office, mercenaries and Royal Guard, + the bonus of each card whose
    region holds his position (R-4); French Foot-soldiers only when declared (R-28)."""
    if bonuses and not french and not extra_regions:
        found = _strengths(state).get(noble)
        if found is not None:
            return found
    return _strength(state, noble, extra_regions, french, bonuses)


def _strengths_moved(old: dict[str, int], reads: tuple[Any, ...], state: State
                     ) -> dict[str, int]:
    """`_strengths` from the last state's: only the nobles a change touches are worked out
    again (moved, or aboard a ship that moved; whose cards or Royal Guards changed), while the
    box stands. Which they are is found by comparing objects, most of it in C."""
    nobles, ships, held, guards, box = reads
    if box is not state.box:
        return _all_strengths(state)
    now, guards_now, current = holdings(state), _guards(state), state.nobles
    # a noble who came in is among them: the last state had no NobleState for him
    again = set(compress(current, map(is_not, current.values(), map(nobles.get, current))))
    if now is not held:
        again.update(n for n in now.keys() | held.keys() if now.get(n) is not held.get(n))
    if guards is not guards_now:
        again |= _guards_changed(guards, guards_now)
    if ships is not state.ships:
        again.update(n for n, info in current.items() if _ship_moved(info.at, ships, state.ships))
    # the last strengths of the nobles in play (0 for one who came in: he is among `again`)
    out = dict(zip(current, map(old.get, current, repeat(0))))
    for noble in again:
        if noble in current:
            out[noble] = _strength(state, noble)
    return out


def _guards_changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    """The nobles who gained or lost a Royal Guard (R-44)."""
    return {by for guard in before.keys() | after.keys()
            if before.get(guard) != after.get(guard)
            for by in (before.get(guard), after.get(guard)) if by is not None}


def _ship_moved(at: str, before: Any, after: Any) -> bool:
    """Whether a noble at `at` is aboard a ship that is another now (his position follows it)."""
    if not at.startswith("aboard:"):
        return False
    ship = at[7:]
    return before.get(ship) is not after.get(ship)


@derived(State, "nobles", "ships", "holdings", "_guards", "box", update=_strengths_moved)
def _strengths(state: State) -> dict[str, int]:
    """noble -> his strength where he stands, without extra regions (what `strength` is asked
    most: a siege's besiegers and defenders after every move)."""
    return _all_strengths(state)


def _all_strengths(state: State) -> dict[str, int]:
    holdings(state), _guards(state)  # kept in the state: the next one's update compares them
    return {noble: _strength(state, noble) for noble in state.nobles}


def _strength(state: State, noble: str, extra_regions: Iterable[str] = (),
              french: bool = False, bonuses: bool = True) -> int:
    place = place_of(noble_position(state, noble)) if bonuses else None
    held = state.cards_of(noble)
    total = state.entry(noble).number("troops")
    here: set[str] = set()
    if bonuses:
        here = (regions(state, place) if place else set()) | set(extra_regions)
        here |= {WITHIN[r] for r in here if r in WITHIN}
    for card in held:
        entry = state.entry(card)
        if entry.kind in ("title", "office", "mercenary"):
            if not entry.flag("attack_only") or french:
                total += entry.number("troops")
        if entry.kind in ("title", "office", "bishop") and entry.get("bonus_region") in here:
            total += entry.number("bonus")
    for guard, by in _guards(state).items():
        if by == noble:
            total += state.entry(guard).number("troops")
    return total


def strength_parts(state: State, noble: str) -> list[tuple[str, int]]:
    """What makes up `strength(state, noble)`, as status lists it: his printed troops, each card
    (with what it adds, 0 for none), each Royal Guard he holds (R-44) and each regional bonus
    that counts where he stands (R-4); the numbers sum to his strength."""
    place = place_of(noble_position(state, noble))
    here = regions(state, place) if place else set()
    here |= {WITHIN[r] for r in here if r in WITHIN}
    entry = state.entry(noble)
    parts = [("troops", entry.number("troops"))]
    if entry.get("title"):
        parts.append((f"{entry.get('title')} (printed)", 0))
    bonuses = []
    for card in state.cards_of(noble):
        found = state.entry(card)
        adds = found.number("troops") if found.kind in ("title", "office", "mercenary") and \
            not found.flag("attack_only") else 0
        parts.append((card + (" (attack only, R-28)" if found.flag("attack_only") else ""),
                      adds))
        if found.kind in ("title", "office", "bishop") and found.get("bonus_region") in here:
            bonuses.append((f"{found.get('bonus_region')} bonus of {card} (R-4)",
                            found.number("bonus")))
    parts += [(f"{guard} (Royal Guard, R-44)", state.entry(guard).number("troops"))
              for guard, by in _guards(state).items() if by == noble]
    return parts + bonuses


def french_holders(state: State, nobles: Iterable[str]) -> list[str]:
    """Nobles among `nobles` holding a card usable once in attack only (R-28)."""
    return [n for n in nobles for c in state.cards_of(n) if state.entry(c).flag("attack_only")]


def force_strength(state: State, nobles: Iterable[str], extra_regions: Iterable[str] = (),
                   french: bool = False) -> int:
    nobles = list(nobles)
    total = sum(strength(state, n, extra_regions) for n in nobles)
    if french:
        total += sum(state.entry(c).number("troops") for n in french_holders(state, nobles)
                     for c in state.cards_of(n) if state.entry(c).flag("attack_only"))
    return total
