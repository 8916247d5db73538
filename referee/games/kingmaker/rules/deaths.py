"""Death (§9): a noble's death and where his cards, fortresses, ships and heirs go (R-48, R-69),
an heir's death, and a ship lost with all aboard."""

from __future__ import annotations

from typing import Iterable

from referee.evolve import evolve
from referee.games.kingmaker.rules.duties import add_duty, chronicle
from referee.games.kingmaker.rules.movement import move_nobles
from referee.games.kingmaker.rules.names import BEAUFORT, LE_LUCAS
from referee.games.kingmaker.rules.places import aboard, at_location, inside
from referee.games.kingmaker.state import ASIDE, CHANCERY, DISCARD, Duty, ShipState, State


def noble_dies(state: State, noble: str, why: str, heirs_to: str | None = "choice") -> State:
    """§9: titles, offices, bishops to the Chancery, other cards to the crown discard, Le Lucas
    and Royal Guards aside; his fortresses neutral with all inside expelled; his heirs to a noble
    of his faction with him (R-48, a duty when there is a choice), else uncontrolled there.
    `heirs_to=None`: the caller decides about his heirs (§6.1)."""
    info = state.nobles[noble]
    places = [p for p, n in state.control.items() if n == noble]
    mates = [n for n in at_location(state, info.at) if n != noble and
             state.owner(n) == info.owner]
    his_heirs = state.heirs_of(noble)
    state = chronicle(state, f"{noble} dies ({why})")
    cards = dict(state.cards)
    for card in state.cards_of(noble):
        kind = state.kind(card)
        cards[card] = CHANCERY if kind in ("title", "office", "bishop") else \
            ASIDE if card == LE_LUCAS else DISCARD
    cards[noble] = DISCARD
    ships = {s: v for s, v in state.ships.items() if v.by != noble}
    for ship, v in state.ships.items():
        if v.by == noble:
            ships.update(_ship_after_death(state, ship, noble, cards))
    sieges = {p: evolve(s, nobles=tuple(n for n in s.nobles if n != noble))
              for p, s in state.sieges.items()}
    state = evolve(state, cards=cards, ships=ships, sieges=sieges,
                    nobles={n: s for n, s in state.nobles.items() if n != noble},
                    control={p: n for p, n in state.control.items() if n != noble},
                    beaufort_crowned=state.beaufort_crowned and noble != BEAUFORT)
    for place in places:
        state = expel(state, place)
    heirs = dict(state.heirs)
    for heir in his_heirs:
        loose = evolve(heirs[heir], by=None, at=info.at)
        if heirs_to == "choice" and len(mates) > 1:
            state = add_duty(state, Duty("heir", info.owner, heir, tuple(mates) + ("none",),
                                         info.at))
            heirs[heir] = loose
        elif heirs_to == "choice" and mates:
            heirs[heir] = evolve(heirs[heir], by=mates[0])
        else:
            heirs[heir] = loose
    return evolve(state, heirs=heirs)


def _ship_after_death(state: State, ship: str, noble: str,
                      cards: dict[str, str]) -> dict[str, ShipState]:
    """R-69: a ship whose controller dies passes, with its card, to the first noble aboard; with
    nobody aboard it leaves play."""
    crew = [n for n in aboard(state, ship) if n != noble]
    if not crew:
        return {}
    if ship in cards:
        cards[ship] = f"noble:{crew[0]}"
    return {ship: evolve(state.ships[ship], by=crew[0])}


def expel(state: State, place: str) -> State:
    """A fortress gone neutral: everyone inside to its open square (§9)."""
    state = move_nobles(state, inside(state, place), f"near:{place}")
    heirs = {h: (evolve(s, at=f"near:{place}") if s.by is None and s.at == f"in:{place}"
                 else s) for h, s in state.heirs.items()}
    return evolve(state, heirs=heirs)


def heir_dies(state: State, heir: str, why: str) -> State:
    if heir == BEAUFORT:
        return state  # he dies only as a noble
    heirs = dict(state.heirs)
    heirs[heir] = evolve(heirs[heir], alive=False, by=None, crowned=False, due=None)
    return chronicle(evolve(state, heirs=heirs), f"{heir} dies ({why})")


def kill(state: State, names: Iterable[str], why: str, heirs_to: str | None = "choice") -> State:
    """Nobles and heirs die (heirs first, so that a dead noble's heirs are not handed on)."""
    names = list(names)
    for name in names:
        if name in state.heirs and name != BEAUFORT:
            state = heir_dies(state, name, why)
    for name in names:
        if name in state.nobles:
            state = noble_dies(state, name, why, heirs_to)
    return state


def ship_sinks(state: State, ship: str, why: str) -> State:
    """A ship lost with all aboard (storms, a broken siege from a ship): they die."""
    crew = aboard(state, ship)
    heirs = [h for n in crew for h in state.heirs_of(n)]
    state = kill(state, heirs + crew, why, heirs_to=None)
    ships = {s: v for s, v in state.ships.items() if s != ship}
    cards = dict(state.cards)
    if ship in cards and cards[ship].startswith("noble:"):
        cards[ship] = ASIDE if ship == LE_LUCAS else DISCARD
    return chronicle(evolve(state, ships=ships, cards=cards), f"{ship} is lost ({why})")
