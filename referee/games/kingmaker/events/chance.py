"""The chance phase (§5.1, §8.3): the event card and what it calls for: plague, calls and
responses, storms, friendliness granted for a response.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from referee.engine import Args, Event
from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.components import KEPT_EVENTS, NO_PORTS, Entry, norm
from referee.games.kingmaker.events.base import (
    DECLARES,
    DECLARES_DOC,
    Base,
    available_events,
    check_roll,
    draw_event,
    event_card,
    heir,
    keep_event,
    known_heir,
    known_noble,
    known_place,
    known_player,
    location,
    noble,
    nobles,
    parse_roll,
    place,
    place_names,
    player,
    port_names,
    roll_text,
    tool_roll,
)
from referee.games.kingmaker.events.forms import Case, Form, Key, Slot
from referee.games.kingmaker.events.peace import moved_by_event
from referee.games.kingmaker.notation import find
from referee.games.kingmaker.rules import DUTY_PHASES, refuse, split
from referee.games.kingmaker.state import CHANCE, MOVEMENT, Duty, State, instances


class EventCard(Base):
    name = "event"
    doc = "the event card drawn in the chance phase (a reveal)"
    fields = {"card": "str", **DECLARES}
    field_docs = {"card": "the event card", **DECLARES_DOC}
    optional = frozenset({"declares"})
    reveal = True
    phases = frozenset({CHANCE})
    form = Form(event_card("card"),
                note="the chance phase's card, e.g. event Plague-in-Calais (§5.1)")

    def effect(self, state: State, event: Event) -> State:
        if state.event_drawn:
            raise refuse("this turn's event card is drawn already; there is no redraw (R-12)",
                         "drawn-already", "R-12")
        name = event["card"]
        state = evolve(draw_event(state, name), event_drawn=True)
        entry = state.box.get("event", name)
        assert entry is not None
        kind = str(entry.get("kind"))
        if kind == "plague":
            return plague(state, known_place(state, str(entry.get("place"))))
        if kind == "call":
            return calls(state, entry)
        if kind == "storm":
            for ship, info in state.ships.items():
                if split(info.at)[0] == "sea":
                    state = rules.add_duty(state, Duty("storm", None, ship))
            return state
        if kind in KEPT_EVENTS:
            return keep_event(state, state.active, name)
        if kind == "parliament-must":
            return people_must(state)
        if kind == "embassy":
            return rules.rebuild_events(state)  # rule 9
        return state  # bad weather alone does nothing here

    def moves(self, state: State) -> Iterator[Event]:
        if state.event_drawn:
            return
        for name in available_events(state):
            yield self.make(state.active, card=name)


def plague(state: State, place: str) -> State:
    """R-9: every noble and heir inside P and aboard ships in its port dies; near:P is spared,
    save at an unfortified P (its one square)."""
    struck = {f"in:{place}", f"port:{place}"}
    if rules.is_unfortified(state, place):
        struck.add(f"near:{place}")
    nobles = [n for n, s in state.nobles.items() if rules.position(state, s.at) in struck]
    heirs = [h for h, s in state.heirs.items() if s.alive and
             rules.position(state, rules.heir_location(state, h)) in struck]
    return rules.kill(state, heirs + nobles, f"plague in {place}")


def people_must(state: State) -> State:
    """7.7 and R-59: with no sole King, no King's Peace and no Parliament called in the three
    turns before, this turn's movement and combat are cancelled and the drawer holds a People's
    Parliament at once (R-71 counts the turns)."""
    if not rules.people_window(state):
        return state
    state = evolve(state, cancelled=True, people_due=True)
    return rules.chronicle(state, f"a People's Parliament must be held now, led by "
                                  f"{state.active} (7.7): this turn's movement and combat are "
                                  "cancelled")


def calls(state: State, entry: Entry) -> State:
    """§5.1, §8.3: each named noble (or the holder of the named card; `King`: each crowned King)
    not under siege must answer; an uncontrolled King goes alone (R-67)."""
    for call in entry.names("calls"):
        who, _, where = call.partition(">")
        place = known_place(state, where.strip())
        for noble, king in called(state, who.strip()):
            if noble is None:
                state = lone_king(state, king, place)
            elif not (rules.under_siege(state, noble) or rules.ship_besieger(state, noble)) and \
                    not any(d.kind == "respond" and d.subject == noble for d in state.duties):
                state = rules.add_duty(state, Duty("respond", state.owner(noble), noble,
                                                   ("king",) if king else (), place))
    return state


def called(state: State, who: str) -> list[tuple[str | None, str]]:
    """(noble, King) pairs a call names: a noble, a card's holder, or each crowned King."""
    if norm(who) == "king":
        return [(rules.controller(state, k), k) for k in rules.kings(state)]
    if who in state.nobles:
        return [(who, "")]
    entry = state.box.card(who)
    if entry is None:
        return []
    holders = [rules.holder(state, c) for c in instances(entry)]
    return [(h, "") for h in holders if h]


def lone_king(state: State, king: str, place: str) -> State:
    """R-67: an uncontrolled King goes alone: inside an open or unfortified place nobody holds,
    else to its open square."""
    if king == rules.BEAUFORT or king not in state.heirs:
        return state
    prefix, there = split(state.heirs[king].at)
    if prefix == "in" and there in state.sieges:
        return state  # under siege: he does not move (§5.1)
    inside = rules.is_open_town(state, place) and not rules.inside(state, place)
    heirs = dict(state.heirs)
    heirs[king] = evolve(heirs[king], at=rules.normal(state, f"{'in' if inside else 'near'}:"
                                                              f"{place}"))
    return evolve(state, heirs=heirs)


def landing(state: State, place: str, player: str) -> str:
    """Where a force lands in a port (R-52): inside a friendly fortress or an open town no other
    faction occupies, else its open square."""
    if rules.is_unfortified(state, place):
        return f"near:{place}"
    if rules.friendly(state, player, place):
        return f"in:{place}"
    return f"near:{place}"


def put_into_port(state: State, ship: str, port: str) -> State:
    """A ship driven to a port the table names (a storm, an event's call): an open or friendly
    port it may enter (§5.1, §8.3), where all aboard land."""
    known_place(state, port)
    owner = state.owner(state.ships[ship].by)
    problem = port_problem(state, ship, port, owner, refuge=True)
    if problem is not None:
        raise problem
    ships = dict(state.ships)
    ships[ship] = evolve(ships[ship], at=f"port:{port}")
    return land_all(evolve(state, ships=ships), ship, port)


def land_all(state: State, ship: str, place: str) -> State:
    for noble in rules.aboard(state, ship):
        state = rules.move_nobles(state, [noble], landing(state, place, state.owner(noble)))
    return state


def port_problem(state: State, ship: str, place: str, player: str | None,
                 refuge: bool) -> IllegalMove | None:
    """Why a ship may not put in at `place`: no port; Ireland, Scotland, the Continent; an heir
    aboard off the mainland (8.4); and for a refuge (storm, event), not open or friendly."""
    if not rules.is_port(state, place):
        return refuse(f"{place} is not a port (declare port=yes if it is, R-2)", "not-a-port",
                      "§5.2")
    if rules.area(state, place) in NO_PORTS:
        return refuse(f"ships never put in at {place} ({rules.area(state, place)}) (§5.2)",
                      "no-port-there", "§5.2")
    crew = rules.aboard(state, ship)
    if any(state.heirs_of(n) for n in crew) and not rules.on_mainland(state, f"port:{place}") \
            and not (rules.controller_player(state, "Carisbrooke") == player and
                     rules._is_wight(state, f"port:{place}")):
        return refuse(f"an heir is aboard {ship}: it lands only on the mainland (8.4)",
                      "heir-off-mainland", "§8.4")
    if refuge and crew and player is not None and not rules.is_unfortified(state, place) and \
            not rules.friendly(state, player, place):
        return refuse(f"{place} is neither open nor friendly to {ship}'s force (§8.6)",
                      "unfriendly-port", "§8.6")
    return None


def destination(etype: Respond, state: State, args: Args, out: dict[str, Any]) -> str:
    return etype.destination(state, out["noble"])


class Respond(Base):
    name = "respond"
    doc = "a noble called by the event card goes where it says (§5.1, §8.3)"
    fields = {"noble": "str", "to": "str", "with": "str[]", "port": "str", **DECLARES}
    field_docs = {"noble": "the called noble", "to": "where he goes: in:P if friendly, else near:P",
                  "with": "nobles of his force who follow a called King's controller (R-10)",
                  "port": "aboard a ship: the declared nearest friendly or unfortified port",
                  **DECLARES_DOC}
    optional = frozenset({"with", "port", "declares"})
    owed_rule = "§8.3"
    phases = frozenset({DUTY_PHASES["respond"]})
    form = Form(noble("noble"),
                Key("to", location("to", normal=False, default=destination), optional=True,
                    strict=True, listed=False),
                Key("with", nobles("with"), optional=True, strict=True),
                Key("port", place("port"), optional=True, strict=True),
                note="a called noble goes (§8.3); the referee fills in `to`")

    def destination(self, state: State, noble: str) -> str:
        current = next((d for d in state.duties if d.kind == "respond" and d.subject == noble),
                       None)
        if current is None or noble not in state.nobles:
            return ""
        place = current.place
        if rules.friendly(state, state.owner(noble), place):
            return rules.normal(state, f"in:{place}")
        return f"near:{place}"

    def effect(self, state: State, event: Event) -> State:
        current = rules.duty(state)
        assert current is not None and current.kind == "respond"
        noble = known_noble(state, event["noble"])
        if noble != current.subject:
            raise refuse(f"{current.subject} answers first", "not-this-noble", "§8.3")
        want = self.destination(state, noble)
        if event["to"] != want:
            raise refuse(f"{noble} goes to {want}: inside only if {current.place} is friendly "
                         "(§8.3)", "wrong-destination", "§8.3")
        followers = list(event.get("with", ()))
        here = state.nobles[noble].at
        for other in followers:
            known_noble(state, other)
            if "king" not in current.choices:
                raise refuse("only a called King's controller may be followed (R-10)",
                             "no-escort", "R-10")
            if state.nobles[other].at != here or state.owner(other) != state.owner(noble) \
                    or rules.under_siege(state, other):
                raise refuse(f"{other} is not of {noble}'s force (R-10)", "not-in-force",
                             "R-10")
        before = state
        state = self.put_in(state, noble, event.get("port"))
        state = rules.move_nobles(state, [noble] + followers, want)
        moved = [n for n, s in state.nobles.items() if before.nobles[n].at != s.at]
        return rules.done(moved_by_event(state, moved), current)  # 7.6 rule 6

    def put_in(self, state: State, noble: str, port: str | None) -> State:
        """§8.3: a ship carrying him first goes to the declared port and all aboard land."""
        prefix, ship = split(state.nobles[noble].at)
        if prefix != "aboard":
            if port:
                raise refuse(f"{noble} is not aboard a ship: leave out `port`", "not-aboard",
                             "§8.3")
            return state
        if not port:
            raise refuse(f"{noble} is aboard {ship}: name the nearest friendly or unfortified "
                         "port it goes to (`port PLACE`)", "no-port", "§8.3")
        return put_into_port(state, ship, port)

    def moves(self, state: State) -> Iterator[Event]:
        current = state.duties[0]
        noble = current.subject
        ports: Sequence[str | None] = [None]
        if split(state.nobles[noble].at)[0] == "aboard":
            ship = split(state.nobles[noble].at)[1]
            owner = state.owner(state.ships[ship].by)
            ports = [p for p in port_names(state)
                     if port_problem(state, ship, p, owner, refuge=True) is None][:5]
        for port in ports:
            event = self.make(current.player, noble=noble, to=self.destination(state, noble),
                              port=port)
            if self.valid(state, event):
                yield event


class Leave(Base):
    name = "leave"
    doc = "a called noble leaves an heir with a noble of his force (§8.3)"
    fields = {"heir": "str", "with": "str"}
    field_docs = {"heir": "the heir left behind", "with": "the noble who takes him"}
    owed_rule = "§8.3"
    phases = frozenset({DUTY_PHASES["respond"]})
    form = Form(heir("heir"), Key("with", noble("with")),
                note="before a called noble answers (§8.3)")

    def effect(self, state: State, event: Event) -> State:
        current = rules.duty(state)
        assert current is not None
        heir, noble = known_heir(state, event["heir"]), known_noble(state, event["with"])
        if rules.controller(state, heir) != current.subject or heir == rules.BEAUFORT:
            raise refuse(f"{heir} is not with {current.subject}", "not-his-heir", "§8.3")
        called_noble = current.subject
        if noble == called_noble or state.nobles[noble].at != state.nobles[called_noble].at or \
                state.owner(noble) != state.owner(called_noble):
            raise refuse(f"{noble} is not of {called_noble}'s force", "not-in-force", "§8.3")
        heirs = dict(state.heirs)
        heirs[heir] = evolve(heirs[heir], by=noble)
        return evolve(state, heirs=heirs)

    def moves(self, state: State) -> Iterator[Event]:
        current = state.duties[0]
        noble = current.subject
        mates = [n for n in rules.at_location(state, state.nobles[noble].at)
                 if n != noble and state.owner(n) == state.owner(noble)]
        for heir in state.heirs_of(noble):
            for mate in mates:
                yield self.make(current.player, heir=heir, **{"with": mate})


def storm_ship(state: State, words: list[str], args: Args, out: dict[str, Any]) -> str:
    return find(words[0] if words else "", list(state.ships), "ship in play", args.text)


def storm_rolls(state: State, words: list[str], args: Args, out: dict[str, Any]) -> list[int]:
    return [parse_roll(w, args.text) for w in words if w != ","]


def tool_rolls(etype: Storm, state: State, args: Args, out: dict[str, Any]) -> list[int]:
    """None typed: in a seeded game the tool's one (rules page §14)."""
    return [tool_roll(state, out["ship"])] if state.seed is not None else []


class Storm(Base):
    name = "storm"
    doc = "a ship at sea in a storm: its rolls, and the port it reaches (§5.1, rule 10)"
    fields = {"ship": "str", "rolls": "int[]", "port": "str", **DECLARES}
    field_docs = {"ship": "the ship", "rolls": "percentile rolls: the first, then one per "
                                               "unfriendly port passed; 96-00 sinks it",
                  "port": "the declared nearest open or friendly port it enters", **DECLARES_DOC}
    optional = frozenset({"port", "declares"})
    actor = "table"
    reveal = True
    owed_rule = "§5.1"
    phases = frozenset({DUTY_PHASES["storm"]})
    form = Form(Slot("ship", "SHIP", storm_ship, width=1, late=True),
                Slot("rolls", "ROLL [ROLL ...]", storm_rolls,
                     lambda rolls: " ".join(roll_text(r) for r in rolls), optional=True,
                     default=tool_rolls),
                Key("port", place("port", late=True), optional=True, strict=True),
                cases=(Case("each ship at sea in a storm (rule 10; 96-00 sinks it)",
                            {"rolls": True}),))

    def effect(self, state: State, event: Event) -> State:
        current = rules.duty(state)
        assert current is not None
        ship = event["ship"]
        if ship != current.subject:
            raise refuse(f"the table rolls for {current.subject} first", "not-this-ship",
                         "§5.1")
        rolls = [check_roll(r) for r in event["rolls"]]
        if not rolls:
            raise refuse("a storm needs at least one roll", "no-roll", "§5.1")
        state = rules.done(state, current)
        if any(r >= 96 for r in rolls):
            return rules.ship_sinks(state, ship, "storm at sea")
        port = event.get("port")
        if not port:
            raise refuse(f"{ship} survives: name the nearest open or friendly port it enters "
                         "(`port PLACE`)", "no-port", "§5.1")
        return put_into_port(state, ship, port)

    def moves(self, state: State) -> Iterator[Event]:
        ship = state.duties[0].subject
        yield self.make(None, ship=ship, rolls=[100])
        owner = state.owner(state.ships[ship].by)
        for place in place_names(state):
            entry = state.box.place(place)
            if entry is not None and entry.get("kind") and \
                    port_problem(state, ship, place, owner, refuge=True) is None:
                yield self.make(None, ship=ship, rolls=[50], port=place)


class Friendly(Base):
    name = "friendly"
    doc = "a fortress's controller declares it friendly to another player for this phase (§8.2)"
    fields = {"place": "str", "for": "str"}
    field_docs = {"place": "his fortress", "for": "the player it is friendly to"}
    actor = "any"
    phases = frozenset({DUTY_PHASES["respond"], MOVEMENT})
    form = Form(place("place"), Key("for", player("for")),
                note="the controller's grant, irreversible for the phase (§8.2); --as the "
                "controller")

    def effect(self, state: State, event: Event) -> State:
        place, player = known_place(state, event["place"]), known_player(state, event["for"])
        owner = rules.controller_player(state, place)
        if owner != event.by:
            raise refuse(f"{place} is not {event.by}'s: only its controller declares it "
                         "friendly" + (f" (--as {owner})" if owner else ""),
                         "not-your-fortress", "§8.2")
        if player == event.by:
            raise refuse("your own fortress is friendly to you already", "own-fortress", "§8.2")
        if state.stage == MOVEMENT and player != state.active:
            raise refuse(f"friendliness is declared for the mover, {state.active}",
                         "not-the-mover", "§8.2")
        if state.stage == CHANCE and not any(d.kind == "respond" for d in state.duties):
            raise refuse("no noble answers an event card now", "no-response", "§8.2")
        return evolve(state, grants=state.grants | {(place, player)})

    def moves(self, state: State) -> Iterator[Event]:
        if state.stage != MOVEMENT:  # to a called noble it is allowed, not offered
            return
        for place, noble in state.control.items():
            owner = state.owner(noble)
            if owner != state.active and (place, state.active) not in state.grants:
                yield Event.make(self.name, owner, place=place, **{"for": state.active})
