"""Movement (§5.2, §8.4, §8.6): declared, not measured; by land (`move`) and by sea (`sail`).
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from referee.engine import Args, Event
from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.events.base import (
    DECLARES,
    DECLARES_DOC,
    Base,
    check_location,
    heirs_along,
    known_noble,
    known_place,
    location,
    nobles,
    parse_location,
    places,
    ship,
    spend_event,
)
from referee.games.kingmaker.events.forms import Flag, Form, Key, Slot
from referee.games.kingmaker.events.peace import ship_problem, still_problem
from referee.games.kingmaker.events.chance import land_all, landing, port_problem
from referee.games.kingmaker.notation import location_words, shown_location
from referee.games.kingmaker.rules import refuse, split
from referee.games.kingmaker.state import MOVEMENT, State, card_entry


# --------------------------------------------------------------------------------------------
# Movement (§5.2, §8.4, §8.6): declared, not measured


def move_problem(state: State, player: str, nobles: Sequence[str], to: str,
                 via: Sequence[str] = (), freemove: bool = False) -> IllegalMove | None:
    """R-16's checks of a land move (distances, roads and forests are declared, not checked)."""
    for noble in nobles:
        if noble not in state.nobles or state.owner(noble) != player:
            return refuse(f"{noble} is not a noble of yours in play", "not-your-noble", "R-16")
    starts = {state.nobles[n].at for n in nobles}
    if len(starts) != 1:
        return refuse("a force moves from one location: these nobles are apart", "apart",
                      "R-16")
    start = starts.pop()
    for noble in nobles:
        if noble in state.moved:
            return refuse(f"{noble} has moved this phase (by land or by sea, once)",
                          "moved-already", "R-16")
        if rules.under_siege(state, noble) or rules.ship_besieger(state, noble):
            return refuse(f"{noble} is under siege: no one leaves a besieged fortress",
                          "under-siege", "R-16")
    problem = still_problem(state, nobles)  # 7.6 rules 2 and 3
    if problem is not None:
        return problem
    prefix, name = split(to)
    if prefix not in ("in", "near", "sq"):
        return refuse(f"{to}: a land move ends in:, near: or sq: (ships `sail`)",
                      "not-a-land-location", "R-16")
    if to == start:
        return refuse(f"{', '.join(nobles)} are at {to} already", "no-move", "R-16")
    start_prefix, ship = split(start)
    if start_prefix == "aboard":
        ship_at = state.ships[ship].at
        if split(ship_at)[0] != "port":
            return refuse(f"{ship} is at sea: only the ship moves (`sail`)", "at-sea", "R-16")
        problem = ship_problem(state, ship)  # 7.6 rule 4: nobody lands from it
        if problem is not None:
            return problem
        port = split(ship_at)[1]
        if to not in (rules.normal(state, f"in:{port}"), f"near:{port}"):
            return refuse(f"landing from {ship} is at {port} (R-64)", "landing", "R-64")
    problem = land_problem(state, nobles, start, to)
    if problem is not None:
        return problem
    if prefix == "in":
        problem = entry_problem(state, player, name, nobles)
        if problem is not None:
            return problem
    return via_problem(state, player, nobles, via, freemove)


AREA_NAMES = {"mainland": "the mainland", "calais": "Calais", "ireland": "Ireland",
              "scotland": "Scotland", "continent": "the Continent"}


def land_of(state: State, location: str) -> str:
    """The land a location lies on (R-83): the mainland (sq: squares too, as 8.4 reads them,
    R-65), one island by its name, Calais, Ireland, Scotland or the Continent."""
    prefix, name = split(rules.position(state, location))
    if prefix not in ("in", "near", "port"):
        return AREA_NAMES["mainland"]
    area = rules.area(state, name)
    if area == "island":
        entry = state.box.place(name)
        island = entry.get("island") if entry is not None else None
        return f"the island of {island or name}"
    return AREA_NAMES.get(area, area)


def land_problem(state: State, nobles: Sequence[str], start: str, to: str) -> \
        IllegalMove | None:
    """R-83: a land move never leaves the land it starts on: islands and Calais are reached by
    sea, Ireland, Scotland and the Continent only when an event card sends a noble there."""
    here, there = land_of(state, start), land_of(state, to)
    if here == there:
        return None
    return refuse(f"{', '.join(nobles)} on {here} cannot reach {to}, on {there}, by land: "
                  "islands and Calais are reached by sea, and ships never put in at Ireland, "
                  "Scotland or the Continent (R-83)", "by-sea-only", "R-83")


def entry_problem(state: State, player: str, place: str, nobles: Sequence[str]) -> \
        IllegalMove | None:
    """in:P needs P friendly (fixed at the start of the phase, §8.2) and room (capacity)."""
    if not rules.friendly(state, player, place, snapshot=True):
        return refuse(f"{place} is not friendly to {player}: end near:{place}, or its "
                      "controller may declare it friendly (`friendly`)", "unfriendly", "§8.2")
    return room_problem(state, place, nobles)


def room_problem(state: State, place: str, nobles: Sequence[str], hint: str = "") -> \
        IllegalMove | None:
    """R-16: room inside P (its capacity, if known) for those there and those coming in."""
    room = rules.capacity(state, place)
    if room is None:
        return None
    inside = [n for n in rules.inside(state, place) if n not in nobles]
    load = sum(rules.strength(state, n) for n in list(inside) + list(nobles))
    if load > room:
        return refuse(f"{place} holds {room}: {load} would be inside{hint}", "no-room", "R-16")
    return None


def landing_problem(state: State, player: str, place: str, force: Sequence[str]) -> \
        IllegalMove | None:
    """R-85: a force that lands inside a fortress from a ship needs room, as by land (R-16)."""
    if rules.is_unfortified(state, place) or \
            not rules.friendly(state, player, place, snapshot=True):
        return None  # it lands in the open square, or not at all
    entering = [n for n in force if landing(state, place, state.owner(n)) == f"in:{place}"]
    return room_problem(state, place, entering, ": the force may stay aboard (`aboard`, "
                                                "R-85)") if entering else None


def via_problem(state: State, player: str, nobles: Sequence[str], via: Sequence[str],
                freemove: bool) -> IllegalMove | None:
    """Road moves pass only friendly fortresses, save a single noble with a bishop who spends
    his faction's Free Move (rule 20, §8.4)."""
    blocked = [p for p in via if rules.is_fortress(state, p) and
               not rules.friendly(state, player, p, snapshot=True)]
    if freemove:
        if len(nobles) != 1 or not rules.bishops_of(state, nobles[0]):
            return refuse("a Free Move on the road is for a single noble with a bishop "
                          "(rule 20)", "freemove-noble", "§8.4")
        if not rules.holds_event(state, player, "free-move"):
            return refuse(f"{player} holds no Free Move card", "no-freemove", "§8.4")
        if not blocked:
            return refuse("no unfriendly fortress is passed: no Free Move is needed",
                          "freemove-unneeded", "§8.4")
        return None
    if blocked:
        return refuse(f"the road passes {blocked[0]}, which is not friendly: a road move may "
                      f"end near:{blocked[0]} (§8.4)", "unfriendly-road", "§8.4")
    return None


class MoveForce(Base):
    name = "move"
    changes = frozenset({"nobles", "moved", "barred", "held"})
    doc = "a force of the active player moves by land to a declared location (§5.2)"
    fields = {"nobles": "str[]", "to": "str", "via": "str[]", "freemove": "bool", **DECLARES}
    field_docs = {"nobles": "the moving nobles (their heirs go with them, R-63)",
                  "to": "the location (in:P, near:P, sq:TEXT)",
                  "via": "the fortresses a road move passes", "freemove":
                  "a single noble with a bishop spends a Free Move to pass unfriendly "
                  "fortresses (rule 20)", **DECLARES_DOC}
    optional = frozenset({"via", "freemove", "declares"})
    phases = frozenset({MOVEMENT})
    form = Form(nobles("nobles"), Key("with", heirs_along("with"), optional=True, join=True),
                Key("to", location("to")), Key("via", places("via"), optional=True),
                Flag("freemove"),
                note="e.g. move Neville,Percy to York via Coventry; LOCATION is in:P (or P), "
                "near:P, sq:TEXT")

    def effect(self, state: State, event: Event) -> State:
        nobles = [known_noble(state, n) for n in event["nobles"]]
        to = check_location(state, event["to"])
        via = [known_place(state, p) for p in event.get("via", ())]
        player = str(event.by)
        problem = move_problem(state, player, nobles, to, via, bool(event.get("freemove")))
        if problem is not None:
            raise problem
        if event.get("freemove"):
            state = spend_event(state, player, "free-move")
        start = state.nobles[nobles[0]].at
        barred = state.barred
        if rules.split(start)[0] == "in" and rules.garrison_ally(state, nobles[0]):
            barred += tuple((n, split(start)[1], state.turn) for n in nobles)  # §8.5
        moved = dict(state.moved)
        moved.update({n: "land" for n in nobles})
        return evolve(state, nobles=rules.nobles_moved(state, nobles, to), moved=moved,
                      barred=barred)

    def moves(self, state: State) -> Iterator[Event]:
        player = state.active
        for force in forces(state, player):
            for to in destinations(state):
                if move_problem(state, player, force, to) is None:
                    yield self.make(player, nobles=list(force), to=to)


def forces(state: State, player: str) -> list[tuple[str, ...]]:
    """The player's movable groups: each whole force, and each of its nobles alone."""
    groups: dict[str, list[str]] = {}
    for noble in state.faction(player):
        if noble not in state.moved:
            groups.setdefault(state.nobles[noble].at, []).append(noble)
    out: list[tuple[str, ...]] = []
    for members in groups.values():
        out.append(tuple(members))
        if len(members) > 1:
            out.extend((m,) for m in members)
    return out


def destinations(state: State) -> list[str]:
    """Every declared place's squares (a force off the mainland moves on its own land, R-83)."""
    out = []
    for entry in state.box.of("place"):
        kind = entry.get("kind")
        if kind is None:
            continue
        out.append(f"near:{entry.name}")
        if kind != "unfortified":
            out.append(f"in:{entry.name}")
    return out


def sail_problem(state: State, player: str, ship: str, to: str, embark: Sequence[str],
                 agreed: bool = False, aboard: bool = False) -> IllegalMove | None:
    """§5.2, §8.6: who may sail which ship where, with whom; who lands needs room (R-16)."""
    if ship not in state.ships:
        return refuse(f"{ship} is not a ship in play", "unknown-ship", "§5.2")
    info = state.ships[ship]
    if state.owner(info.by) != player and not agreed:
        return refuse(f"{ship} is {state.owner(info.by)}'s: another faction's ship only with "
                      "its player's consent (`agreed`, R-17)", "not-your-ship", "R-17")
    if ship in state.moved:
        return refuse(f"{ship} has moved this phase", "moved-already", "§5.2")
    problem = ship_problem(state, ship) or still_problem(state, embark)  # 7.6
    if problem is not None:
        return problem
    if any(s.ship == ship for s in state.sieges.values()):
        return refuse(f"{ship}'s force is besieging: it stays until the siege ends (§8.6)",
                      "besieging", "§8.6")
    where, at = split(info.at)
    for noble in embark:
        problem = embark_problem(state, player, noble, ship, where, at)
        if problem is not None:
            return problem
    force = rules.aboard(state, ship) + list(embark)
    if force and where == "port" and not rules.is_unfortified(state, at) and \
            not rules.friendly(state, player, at, snapshot=True):
        return refuse(f"a ship with a force leaves only a friendly or unfortified port, not "
                      f"{at} (§8.6)", "unfriendly-port", "§8.6")
    cap = state.box.card(card_entry(ship))
    load = sum(rules.strength(state, n) for n in force)
    room = cap.number("capacity") if cap is not None else 0
    if len(force) > 1 and load > room:
        return refuse(f"{ship} carries {room}: {load} aboard (or one noble, rule 22)",
                      "overloaded", "§5.2")
    prefix, place = split(to)
    if prefix == "sea":
        return None if place.strip() else refuse("name the sea (sea:TEXT)", "bad-location",
                                                 "§5.2")
    if prefix != "port":
        return refuse(f"{to}: a ship goes to port:P or sea:TEXT", "not-a-sea-location",
                      "§5.2")
    if to == info.at:
        return refuse(f"{ship} is at {to} already", "no-move", "§5.2")
    problem = port_problem(state, ship, place, player, refuge=False) if not embark else \
        _port_problem_with(state, ship, place, player, embark)
    if problem is not None:
        return problem
    if force and not rules.is_unfortified(state, place) and \
            not rules.friendly(state, player, place, snapshot=True):
        siege = state.sieges.get(place)
        if not (siege and siege.owner == player) and not rules.is_fortress(state, place):
            return refuse(f"{place} is not friendly (§8.6)", "unfriendly-port", "§8.6")
        if not (siege and siege.owner == player) and \
                2 * rules.force_strength(state, force) < rules.defence(state, place):
            return refuse(f"{place} is unfriendly and the force cannot besiege it (less than "
                          "half its defence, §8.6)", "cannot-besiege", "§8.6")
    return None if aboard else landing_problem(state, player, place, force)


def _port_problem_with(state: State, ship: str, place: str, player: str,
                       embark: Sequence[str]) -> IllegalMove | None:
    """port_problem as if `embark` were aboard already (their heirs count for 8.4)."""
    if any(state.heirs_of(n) for n in embark) and not rules.on_mainland(state, f"port:{place}") \
            and not (rules.controller_player(state, "Carisbrooke") == player and
                     rules._is_wight(state, f"port:{place}")):
        return refuse(f"an heir would be aboard {ship}: it lands only on the mainland (8.4)",
                      "heir-off-mainland", "§8.4")
    return port_problem(state, ship, place, player, refuge=False)


def embark_problem(state: State, player: str, noble: str, ship: str, where: str,
                   port: str) -> IllegalMove | None:
    if noble not in state.nobles or state.owner(noble) != player:
        return refuse(f"{noble} is not a noble of yours in play", "not-your-noble", "§5.2")
    if noble in state.moved:
        return refuse(f"{noble} has moved this phase (land or sea, never both)",
                      "moved-already", "§8.6")
    if rules.under_siege(state, noble):
        return refuse(f"{noble} is under siege", "under-siege", "R-16")
    if where != "port":
        return refuse(f"{ship} is at sea: no one embarks", "at-sea", "§8.6")
    at = state.nobles[noble].at
    if rules.is_unfortified(state, port):
        ok = at == f"near:{port}"
    else:
        ok = at == f"in:{port}" and rules.friendly(state, player, port, snapshot=True)
    if not ok:
        return refuse(f"{noble} cannot embark at {port}: from inside a friendly fortress port, "
                      "or at an unfortified port (§8.6)", "cannot-embark", "§8.6")
    return None


def sea_location(state: State, words: list[str], args: Args, out: dict[str, Any]) -> str:
    """`port:P` (a bare P, or in:P, is its port) or `sea:TEXT`."""
    return parse_location(state, words, args.text, inside="port")


class Sail(Base):
    name = "sail"
    changes = frozenset({"nobles", "ships", "moved"})
    doc = "a ship moves, with the force that embarks; at a port its force lands (§5.2, R-52)"
    fields = {"ship": "str", "to": "str", "with": "str[]", "aboard": "bool", "agreed": "bool",
              **DECLARES}
    field_docs = {"ship": "the ship", "to": "port:P or sea:TEXT",
                  "with": "nobles who embark at its port", "aboard": "the force stays aboard "
                  "in port (R-52)", "agreed": "another faction's ship, with consent (R-17)",
                  **DECLARES_DOC}
    optional = frozenset({"with", "aboard", "agreed", "declares"})
    phases = frozenset({MOVEMENT})
    form = Form(ship("ship"), Key("to", Slot("to", "port:P|sea:TEXT", sea_location,
                                                shown_location)),
                Key("with", nobles("with", heirs=True), optional=True),
                Flag("aboard", anywhere=True), Flag("agreed", anywhere=True),
                note="e.g. sail Le-Lucas to sea:Irish-Sea with Stanley (§5.2, §8.6)")

    def effect(self, state: State, event: Event) -> State:
        ship, to = event["ship"], check_location(state, event["to"])
        embark = [known_noble(state, n) for n in event.get("with", ())]
        player = str(event.by)
        problem = sail_problem(state, player, ship, to, embark, bool(event.get("agreed")),
                               bool(event.get("aboard")))
        if problem is not None:
            raise problem
        state = rules.move_nobles(state, embark, f"aboard:{ship}")
        ships = dict(state.ships)
        ships[ship] = evolve(ships[ship], at=to)
        moved = dict(state.moved)
        moved[ship] = "sea"
        moved.update({n: "sea" for n in rules.aboard(state, ship)})
        state = evolve(state, ships=ships, moved=moved)
        prefix, place = split(to)
        if prefix == "port" and not event.get("aboard") and \
                (rules.is_unfortified(state, place) or
                 rules.friendly(state, player, place, snapshot=True)):
            state = land_all(state, ship, place)
        return state

    def moves(self, state: State) -> Iterator[Event]:
        player = state.active
        ports = [f"port:{e.name}" for e in state.box.of("place")
                 if e.flag("port") and e.get("kind")]
        for ship, info in state.ships.items():
            if state.owner(info.by) != player or ship in state.moved:
                continue
            where, at = split(info.at)
            crews: list[list[str]] = [[]]
            if where == "port":
                ready = [n for n in state.faction(player)
                         if embark_problem(state, player, n, ship, where, at) is None]
                if ready:
                    crews.append(ready)
            for crew in crews:
                for to in ports + ["sea:Channel"]:
                    embark = {"with": crew} if crew else {}
                    problem = sail_problem(state, player, ship, to, crew)
                    if problem is None:
                        yield self.make(player, ship=ship, to=to, **embark)
                    elif problem.code == "no-room":  # the last check: it may stay aboard
                        yield self.make(player, ship=ship, to=to, aboard=True, **embark)
