"""Parliament called and attended (§7.1, §7.2, 7.7): the call by the sole King's controller or
the Chancellor, the People's Parliament of the event card, the excuses and their revocations in
turn, the ships brought to mainland ports, everyone else's travel with their heirs, the sieges
it breaks, and the tally frozen for the session (R-31..R-36, R-56, R-59, R-71..R-74, R-80, R-87).

The checks of each move are functions that its `moves` call too (`excuse_problem`,
`summonable`, `port_choice_problem`...), so that what `options` lists is what `play` accepts.
"""

from __future__ import annotations

from typing import Any, Iterator

from referee.engine import Args, Event
from referee.errors import IllegalMove, NotationError
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.events.assembly import start_rounds
from referee.games.kingmaker.events.base import (
    DECLARES,
    DECLARES_DOC,
    Base,
    choice,
    known_noble,
    known_place,
    noble,
    nobles,
    parse_place,
    place,
    place_names,
    port_names,
    ship,
    spend_event,
)
from referee.games.kingmaker.events.chance import landing, port_problem
from referee.games.kingmaker.notation import find, items, one, sections
from referee.games.kingmaker.rules import DUTY_PHASES, SESSION_PHASES, refuse, split
from referee.games.kingmaker.events.forms import Case, Either, Flag, Form, Key
from referee.games.kingmaker.state import (
    EXCUSE,
    PARLIAMENT,
    PORTS,
    REVOKE,
    Duty,
    Sitting,
    State,
)

ACTIONS = ("call", "people")


def clockwise_from_left(state: State, player: str) -> tuple[str, ...]:
    """The players in turn from `player`'s left, `player` last (7.2 note 2, 7.5 note 3)."""
    names = [n for n in state.names if n in state.playing]
    at = names.index(player)
    return tuple(names[at + 1:] + names[:at + 1])


def at_place(state: State, noble: str, place: str) -> bool:
    """R-72: a noble is at P when inside it or in its open square."""
    prefix, name = split(state.nobles[noble].at)
    return prefix in ("in", "near") and name == place


def destination(state: State, noble: str, place: str) -> str:
    """R-72: where a noble going to Parliament stands: inside P when P is a fortress of his
    faction, else P's open square (an unfortified P's one square)."""
    if rules.is_fortress(state, place) and \
            rules.controller_player(state, place) == state.owner(noble):
        return f"in:{place}"
    return rules.normal(state, f"near:{place}")


def gather(state: State, nobles: list[str], place: str) -> State:
    """Nobles go to Parliament with the heirs they control (movement rules do not apply)."""
    for noble in nobles:
        if noble in state.nobles and not at_place(state, noble, place):
            state = rules.move_nobles(state, [noble], destination(state, noble, place))
    return state


def stays_away(state: State, noble: str) -> bool:
    """Under siege (ship besiegers too, §8.6): he does not attend, excused or not."""
    return rules.under_siege(state, noble) or rules.ship_besieger(state, noble)


# --------------------------------------------------------------------------------------------
# The call (7.1) and the People's Parliament (7.7)


def summonable(state: State, player: str) -> list[str]:
    """7.1: the nobles of other players who may be summoned (none under siege)."""
    return [n for n, s in state.nobles.items() if s.owner != player and
            not stays_away(state, n)]


def people_place_problem(state: State, player: str, place: str) -> IllegalMove | None:
    """7.7, R-80: a mainland town or city, unfortified or friendly to the drawer."""
    kind = str(rules.place_entry(state, place).get("kind"))
    if kind not in rules.CALL_KINDS or rules.area(state, place) != "mainland":
        return refuse(f"{place} is not a mainland town or city (7.7)", "not-a-town", "§7.7")
    if not rules.friendly(state, player, place):
        return refuse(f"{place} is neither unfortified nor friendly to {player} (7.7)",
                      "unfriendly", "§7.7")
    return None


def people_movers(state: State, player: str) -> list[str]:
    """Who of the drawer's nobles may be moved to P (7.7): one not under siege (R-80); when
    every one of them is (ship besiegers too), any of them, since every siege breaks at a
    People's Parliament (R-87) and a game must never wait for a move nobody may make."""
    mine = state.faction(player)
    return [n for n in mine if not stays_away(state, n)] or list(mine)


def people_host(state: State, player: str, place: str, event: Event) -> tuple[State, str]:
    """7.7, R-56, R-80, R-87: the drawer's noble who hosts P, moved there first when none of his
    is there; none when he has no noble in play (R-87)."""
    here = [n for n in state.faction(player) if at_place(state, n, place)]
    noble = event.get("noble")
    if event.get("moving"):
        noble = known_noble(state, str(noble))
        if here:
            raise refuse(f"{', '.join(here)} is at {place} already: no noble needs to move "
                         "(7.7)", "no-move-needed", "§7.7")
        if state.owner(noble) != player:
            raise refuse(f"{noble} is not {player}'s", "not-your-noble", "§7.7")
        if noble not in people_movers(state, player):
            raise refuse(f"{noble} is under siege: one of {player}'s nobles who is not moves "
                         "(R-80)", "under-siege", "R-80")
        return rules.move_nobles(state, [noble], destination(state, noble, place)), noble
    if noble is None and not state.faction(player):
        return state, ""
    if not here:
        raise refuse(f"none of {player}'s nobles is at {place}: the nearest by land goes "
                     "there first (`moving NOBLE`, 7.7)", "moving-needed", "§7.7")
    if noble is None:
        raise refuse(f"{', '.join(here)} are at {place}: name the host (`host NOBLE`, "
                     "R-56)", "no-host", "R-56")
    if noble not in here:
        raise refuse(f"{noble} is not at {place}: the host is one of {', '.join(here)} "
                     "(R-56)", "not-there", "R-56")
    return state, str(noble)


class ParliamentCall(Base):
    name = "parliament"
    doc = "Parliament is called (7.1), or the event card's People's Parliament is held (7.7)"
    fields = {"action": "str", "place": "str", "summon": "str", "noble": "str",
              "moving": "bool", **DECLARES}
    field_docs = {"action": "call (7.1) or people (7.7)", "place": "where it sits (R-31)",
                  "summon": "the noble of another player summoned with a Writ (7.1, R-34)",
                  "noble": "People's Parliament: the drawer's noble who hosts it (R-56)",
                  "moving": "that noble first moves there, the nearest by land (7.7)",
                  **DECLARES_DOC}
    optional = frozenset({"summon", "noble", "moving", "declares"})
    phases = frozenset({PARLIAMENT})
    # Read by hand: what may follow depends on the action, and the referee fills in the place
    # and the host.
    form = Form(choice("action", ACTIONS, "call or people", "Parliament action"),
                Key("at", place("place")), Key("summon", noble("summon"), optional=True),
                Either(Key("moving", noble("noble")), Key("host", noble("noble")), when="moving"),
                cases=(Case("by the sole King's controller, or with no sole King the Chancellor "
                            "with a Chancellor-may-call card; a Writ in hand, one spent on the "
                            "summons (7.1)", {"action": "call", "noble": False}),
                       Case("the drawer of the People's Parliament card: every noble attends "
                            "(7.7, R-56)", {"action": "people", "summon": False})))

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("at", "summon", "moving", "host"), args.text)
        action = find(one(parts[""], "call or people", args.text), ACTIONS,
                      "Parliament action", args.text)
        out: dict[str, Any] = {"action": action}
        who = rules.calling(state, args.by) if args.by is not None else None
        if parts.get("at"):
            out["place"] = parse_place(state, parts["at"], args.text)
        elif action == "call" and who is not None:
            out["place"] = rules.place_of(rules.noble_position(state, who.noble))
        if not out.get("place"):
            raise NotationError(f"{args.text!r}: name the place (`parliament {action} at "
                                "PLACE`)", code="no-place",
                                rule="§7.1" if action == "call" else "§7.7")
        if action == "call":
            for word in ("moving", "host"):
                if word in parts:
                    raise NotationError(f"`{word}` is for a People's Parliament (7.7)",
                                        code="bad-word", rule="§7.7")
            if parts.get("summon"):
                out["summon"] = find(one(parts["summon"], "noble", args.text),
                                     list(state.nobles), "noble in play", args.text)
            return out
        if "summon" in parts:
            raise NotationError("a People's Parliament has no summons (7.7)", code="bad-word",
                                rule="§7.7")
        if "moving" in parts and "host" in parts:
            raise NotationError("a noble moves there, or hosts it: not both (R-80)",
                                code="bad-word", rule="R-80")
        for word in ("moving", "host"):
            if parts.get(word):
                out["noble"] = find(one(parts[word], "noble", args.text), list(state.nobles),
                                    "noble in play", args.text)
                if word == "moving":
                    out["moving"] = True
        if "noble" not in out and args.by is not None:
            here = [n for n in state.faction(args.by) if at_place(state, n, out["place"])]
            if len(here) == 1:
                out["noble"] = here[0]
        return out

    def effect(self, state: State, event: Event) -> State:
        action, place, player = event["action"], known_place(state, event["place"]), str(event.by)
        if action not in ACTIONS:
            raise refuse(f"{action!r}: parliament call or people", "bad-action", "§7")
        if state.sitting is not None:
            raise refuse("Parliament is in session already", "in-session", "§7")
        if action == "people":
            return self.people(state, player, place, event)
        if state.people_due:
            raise refuse(f"a People's Parliament must be held now: `parliament people at PLACE` "
                         "(7.7)", "people-due", "§7.7")
        problem = rules.call_problem(state, player, place)
        if problem is not None:
            raise problem
        if event.get("noble") or event.get("moving"):
            raise refuse("a host or a moving noble belongs to a People's Parliament (7.7)",
                         "not-people", "§7.7")
        who = rules.calling(state, player)
        assert who is not None
        by, noble, chancellor = who
        summon = event.get("summon")
        candidates = summonable(state, player)
        if summon is None and candidates:
            raise refuse(f"{player} summons one noble of another player with a Writ: "
                         f"{', '.join(candidates[:6])}{'...' if len(candidates) > 6 else ''} "
                         "(`summon NOBLE`, 7.1)", "no-summons", "§7.1")
        if summon is not None:
            known_noble(state, summon)
            if state.owner(summon) == player:
                raise refuse(f"{summon} is {player}'s own: the summons is to another player's "
                             "noble (7.1)", "own-noble", "§7.1")
            if stays_away(state, summon):
                raise refuse(f"{summon} is under siege: he cannot be summoned (7.1)",
                             "under-siege", "§7.1")
            state = spend_event(state, player, rules.WRIT)
        if chancellor:
            state = spend_event(state, player, rules.MAY_CALL)
        sitting = Sitting(caller=player, by=by, place=place, noble=noble,
                          summoned=summon or "", chancellor=chancellor)
        caller = f"the Chancellor, {noble}" if chancellor else f"King {by}, with {noble}"
        state = rules.chronicle(evolve(state, sitting=sitting),
                                f"{player} calls Parliament at {place} ({caller})"
                                + (f"; {summon} is summoned" if summon else
                                   "; nobody may be summoned (R-34)"))
        return open_excuses(state)

    def people(self, state: State, player: str, place: str, event: Event) -> State:
        if not state.people_due:
            raise refuse("no People's Parliament is due: it follows the event card, with no sole "
                         "King, no King's Peace and no Parliament in the three turns before "
                         "(7.7, R-59)", "not-due", "§7.7")
        if event.get("summon"):
            raise refuse("a People's Parliament has no summons (7.7)", "no-summons-here",
                         "§7.7")
        problem = people_place_problem(state, player, place)
        if problem is not None:
            raise problem
        state, host = people_host(state, player, place, event)
        sitting = Sitting(caller=player, by="", place=place, noble=host, people=True)
        state = evolve(state, sitting=sitting, people_due=False)
        state = rules.chronicle(state, f"{player} holds the People's Parliament at {place}, " +
                                (f"{host} its host (7.7)" if host else
                                 "with no noble of his in play to host it (R-87)"))
        for besieged in sorted(state.sieges):  # every siege breaks; nobody dies with a ship
            sieges = {p: s for p, s in state.sieges.items() if p != besieged}
            state = rules.chronicle(evolve(state, sieges=sieges),
                                    f"the siege of {besieged} is broken (People's Parliament)")
        return travel(state)

    def moves(self, state: State) -> Iterator[Event]:
        player = state.active
        if state.people_due:
            yield from self.people_moves(state, player)
            return
        if rules.call_problem(state, player) is not None:
            return
        who = rules.calling(state, player)
        assert who is not None
        place = rules.place_of(rules.noble_position(state, who.noble))
        candidates: list[str | None] = list(summonable(state, player))
        for noble in candidates or [None]:
            yield self.make(player, action="call", place=place, summon=noble)

    def people_moves(self, state: State, player: str) -> Iterator[Event]:
        """Each place P may be (R-80): hosted by each noble of the drawer there, else reached by
        each noble who may move; with no noble in play, P alone (R-87)."""
        movers = people_movers(state, player)
        for place in place_names(state):
            entry = state.box.place(place)
            if entry is None or entry.get("kind") is None or \
                    people_place_problem(state, player, place) is not None:
                continue
            here = [n for n in state.faction(player) if at_place(state, n, place)]
            if here:
                for noble in here:
                    yield self.make(player, action="people", place=place, noble=noble)
            elif movers:
                for noble in movers:
                    yield self.make(player, action="people", place=place, noble=noble,
                                    moving=True)
            else:
                yield self.make(player, action="people", place=place)


# --------------------------------------------------------------------------------------------
# Excuses and revocations (7.2 steps 1 and 2)


def open_excuses(state: State) -> State:
    s = state.sitting
    assert s is not None
    order = clockwise_from_left(state, s.caller)[:-1]
    state = evolve(state, sitting=evolve(s, step=EXCUSE, order=order, asked=-1))
    return next_excuser(state)


def off_mainland(state: State, noble: str) -> bool:
    """R-35: a noble who would need the sea to attend: at sea, or off the mainland."""
    return not rules.on_mainland(state, rules.noble_position(state, noble))


def excuse_problem(state: State, player: str, noble: str, sea: bool) -> IllegalMove | None:
    """7.2 step 1, R-35, R-73: an own noble who would attend, not the summoned one, not yet
    excused; `sea` only for one off the mainland or at sea. (The caller's faction is never
    asked: the order of excuses leaves him out.)"""
    s = state.sitting
    assert s is not None
    if noble not in state.nobles or state.owner(noble) != player:
        return refuse(f"{noble} is not {player}'s noble: a player excuses his own (7.2)",
                      "not-your-noble", "§7.2")
    if noble == s.summoned:
        return refuse(f"{noble} is summoned: he cannot be excused (7.1)", "summoned", "§7.1")
    if noble in s.excused:
        return refuse(f"{noble} is excused already", "excused-already", "§7.2")
    if stays_away(state, noble):
        return refuse(f"{noble} is under siege: he does not attend, and needs no excuse (R-73)",
                      "under-siege", "R-73")
    if sea and not off_mainland(state, noble):
        return refuse(f"{noble} is on the mainland: the free excuse is for a noble off it or at "
                      "sea (R-35)", "not-at-sea", "R-35")
    return None


def excuse_choices(state: State, player: str) -> list[tuple[str, bool]]:
    """(noble, sea): the excuses a player may give now, one noble at a time."""
    writ = rules.holds_event(state, player, rules.WRIT)
    out = []
    for noble in state.faction(player):
        if excuse_problem(state, player, noble, True) is None:
            out.append((noble, True))
        elif writ and excuse_problem(state, player, noble, False) is None:
            out.append((noble, False))
    return out


def next_excuser(state: State) -> State:
    """The next player with something to excuse (R-73: the others are passed over); then the
    caller's revocations; then travel."""
    s = state.sitting
    assert s is not None
    asked = s.asked + 1
    while asked < len(s.order) and not excuse_choices(state, s.order[asked]):
        asked += 1
    if asked < len(s.order):
        return evolve(state, sitting=evolve(s, asked=asked))
    if s.excused and rules.holds_event(state, s.caller, rules.WRIT):
        return evolve(state, sitting=evolve(s, step=REVOKE, asked=0))
    return travel(state)


class Excuse(Base):
    name = "excuse"
    doc = "a player excuses nobles of his from Parliament: a Writ each, free off the mainland " \
          "or at sea (7.2, R-35)"
    fields = {"nobles": "str[]", "sea": "bool"}
    field_docs = {"nobles": "his nobles excused", "sea": "free: off the mainland or at sea (R-35)"}
    optional = frozenset({"sea"})
    phases = frozenset({SESSION_PHASES[EXCUSE]})
    form = Form(nobles("nobles"), Flag("sea"),
                cases=(Case("a Writ each, in turn from the caller's left (7.2)", {"sea": False}),
                       Case("free for a noble off the mainland or at sea (R-35)",
                            {"nobles": "NOBLE", "sea": True})))

    def effect(self, state: State, event: Event) -> State:
        s = state.sitting
        if s is None or s.step != EXCUSE:
            raise refuse("no excuses are asked now: they come after a call, in turn from the "
                         "caller's left (7.2)", "not-now", "§7.2")
        player, nobles, sea = str(event.by), list(event["nobles"]), bool(event.get("sea"))
        if len(set(nobles)) != len(nobles):
            raise refuse("a noble is named twice", "duplicate-name", "§7.2")
        for noble in nobles:
            known_noble(state, noble)
            problem = excuse_problem(state, player, noble, sea)
            if problem is not None:
                raise problem
        if not sea:
            have = rules.held_count(state, player, rules.WRIT)
            if have < len(nobles):
                raise refuse(f"{player} holds {have} Writ(s) for {len(nobles)} excuse(s): a Writ "
                             "each (7.2)", "no-writ", "§7.2")
            for _ in nobles:
                state = spend_event(state, player, rules.WRIT)
        s = evolve(s, excused=s.excused + tuple(nobles),
                    sea=s.sea + (tuple(nobles) if sea else ()))
        state = rules.chronicle(evolve(state, sitting=s), f"{player} excuses "
                                f"{', '.join(nobles)}" + (" (at sea, R-35)" if sea else ""))
        if not excuse_choices(state, player):
            return next_excuser(state)
        return state

    def moves(self, state: State) -> Iterator[Event]:
        s = state.sitting
        assert s is not None
        player = s.order[s.asked]
        for noble, sea in excuse_choices(state, player):
            yield self.make(player, nobles=[noble], sea=True if sea else None)


class Revoke(Base):
    name = "revoke"
    doc = "the caller revokes excuses, a Writ each (7.2)"
    fields = {"nobles": "str[]"}
    field_docs = {"nobles": "the excused nobles who must attend after all"}
    phases = frozenset({SESSION_PHASES[REVOKE]})
    form = Form(nobles("nobles"), note="by the caller, after the excuses (7.2)")

    def effect(self, state: State, event: Event) -> State:
        s = state.sitting
        if s is None or s.step != REVOKE:
            raise refuse(f"no revocations now: {_why_no_revoke(state)}", "not-now", "§7.2")
        nobles = list(event["nobles"])
        if len(set(nobles)) != len(nobles):
            raise refuse("a noble is named twice", "duplicate-name", "§7.2")
        for noble in nobles:
            if noble not in s.excused:
                raise refuse(f"{noble} is not excused: {', '.join(s.excused)} are",
                             "not-excused", "§7.2")
        have = rules.held_count(state, s.caller, rules.WRIT)
        if have < len(nobles):
            raise refuse(f"{s.caller} holds {have} Writ(s) for {len(nobles)} revocation(s): a "
                         "Writ each (7.2)", "no-writ", "§7.2")
        for _ in nobles:
            state = spend_event(state, s.caller, rules.WRIT)
        s = evolve(s, excused=tuple(n for n in s.excused if n not in nobles),
                    sea=tuple(n for n in s.sea if n not in nobles), revoked=s.revoked +
                    tuple(nobles))
        state = rules.chronicle(evolve(state, sitting=s), f"{s.caller} revokes the excuses of "
                                f"{', '.join(nobles)}: they attend")
        if not s.excused or not rules.holds_event(state, s.caller, rules.WRIT):
            return travel(state)
        return state

    def moves(self, state: State) -> Iterator[Event]:
        s = state.sitting
        assert s is not None
        for noble in s.excused:
            yield self.make(s.caller, nobles=[noble])


def _why_no_revoke(state: State) -> str:
    """The real cause a revocation cannot come now (7.2)."""
    s = state.sitting
    if s is None:
        return "no Parliament is being summoned"
    if s.step == EXCUSE:
        return (f"the excuses come first; {s.caller}, the caller, revokes once every excuse "
                "is in, a Writ each")
    if not rules.holds_event(state, s.caller, rules.WRIT):
        return f"{s.caller}, the caller, holds no Writ, and a revocation takes a Writ each"
    return "the time for revocations is past"


def next_step(state: State) -> State:
    """`next` during excuses (the next player) and revocations (travel)."""
    s = state.sitting
    assert s is not None
    if s.step == EXCUSE:
        return next_excuser(state)
    return travel(state)


# --------------------------------------------------------------------------------------------
# Travel (7.2 step 3, R-74) and the tally


def away(state: State) -> set[str]:
    """The nobles who stay away: excused, or under siege."""
    s = state.sitting
    assert s is not None
    return set(s.excused) | {n for n in state.nobles if stays_away(state, n)}


def travel(state: State) -> State:
    """Ships at sea or in an off-mainland port go to a declared mainland port; one may stay when
    its controller and all aboard stay away (R-74). Then everyone else travels."""
    s = state.sitting
    assert s is not None
    state = evolve(state, sitting=evolve(s, step=PORTS))
    staying = away(state)
    for ship, info in sorted(state.ships.items()):
        if rules.on_mainland(state, info.at):
            continue
        crew = rules.aboard(state, ship)
        free = info.by in staying and all(n in staying for n in crew)
        state = rules.add_duty(state, Duty("port", state.owner(info.by), ship,
                                           ("stay",) if free else (), s.place))
    if any(d.kind == "port" for d in state.duties):
        return state
    return arrive(state)


def port_choice_problem(state: State, ship: str, place: str) -> IllegalMove | None:
    """R-74: a mainland port, open or friendly to the ship's force (any port if empty)."""
    if not rules.is_port(state, place):
        return refuse(f"{place} is not a port (declare port=yes if it is, R-2)", "not-a-port",
                      "R-74")
    if not rules.on_mainland(state, f"port:{place}"):
        return refuse(f"{place} is not on the mainland: ships go to a mainland port (7.2)",
                      "off-mainland", "R-74")
    owner = state.owner(state.ships[ship].by)
    return port_problem(state, ship, place, owner, refuge=True)


def port_done(state: State) -> State:
    """After a ship's port duty: travel when the last is done."""
    if any(d.kind == "port" for d in state.duties):
        return state
    return arrive(state)


class Port(Base):
    name = "port"
    doc = "at Parliament's call a ship at sea or off the mainland enters a mainland port (7.2, " \
          "R-74)"
    fields = {"ship": "str", "place": "str", **DECLARES}
    field_docs = {"ship": "the ship", "place": "the declared nearest open or friendly mainland "
                                               "port", **DECLARES_DOC}
    optional = frozenset({"declares"})
    owed_rule = "R-74"
    phases = frozenset({DUTY_PHASES["port"]})
    form = Form(ship("ship", width=1), place("place"),
                note="its force lands there; who attends goes on to Parliament (R-74)")

    def read(self, state: State, args: Args) -> dict[str, Any]:
        # By hand: the two names may come bare, with commas, or with `to` or `at` between them.
        parts = sections(args.words, ("to", "at"), args.text)
        names = items(parts[""] + parts.get("to", []) + parts.get("at", []))
        if len(names) != 2:
            names = [w for w in args.words if w != ","]
        if len(names) != 2:
            raise NotationError(f"{args.text!r}: `port SHIP PLACE`", code="bad-port",
                                rule="R-74")
        return {"ship": find(names[0], list(state.ships), "ship in play", args.text),
                "place": parse_place(state, [names[1]], args.text)}

    def effect(self, state: State, event: Event) -> State:
        current = rules.duty(state)
        assert current is not None and current.kind == "port"
        ship, place = event["ship"], known_place(state, event["place"])
        if ship != current.subject:
            raise refuse(f"{current.subject} comes to port first", "not-this-ship", "R-74")
        problem = port_choice_problem(state, ship, place)
        if problem is not None:
            raise problem
        ships = dict(state.ships)
        ships[ship] = evolve(ships[ship], at=f"port:{place}")
        state = evolve(rules.done(state, current), ships=ships)
        staying = away(state)
        for noble in rules.aboard(state, ship):  # who stays away lands; the rest go on
            if noble in staying:
                state = rules.move_nobles(state, [noble], landing(state, place,
                                                                  state.owner(noble)))
        return port_done(state)

    def moves(self, state: State) -> Iterator[Event]:
        current = state.duties[0]
        found = 0
        for place in port_names(state):
            if found < 6 and port_choice_problem(state, current.subject, place) is None:
                found += 1
                yield self.make(current.player, ship=current.subject, place=place)


def stay_at_call(state: State, ship: str, freemove: bool) -> State:
    """`stay SHIP` at the call: only when its controller and all aboard stay away (R-74)."""
    current = rules.duty(state)
    assert current is not None and current.kind == "port"
    if ship != current.subject:
        raise refuse(f"{current.subject} is decided first", "not-this-ship", "R-74")
    if "stay" not in current.choices:
        raise refuse(f"{ship} carries or is controlled by a noble who attends: it comes to a "
                     "mainland port (`port SHIP PLACE`, R-74)", "must-port", "R-74")
    if freemove:
        raise refuse("a ship whose force stays away stays free: leave out `freemove`",
                     "no-freemove-needed", "R-74")
    return port_done(rules.done(state, current))


def arrive(state: State) -> State:
    """7.2 step 3: everyone who does not stay away goes to Parliament with his heirs; sieges
    left below half are broken, and their besieged nobles attend too (ship besiegers survive,
    §8.6); then the tally is frozen (R-36) and round 1 begins."""
    s = state.sitting
    assert s is not None
    staying = away(state)
    attending = [n for n in state.nobles if n not in staying]
    state = gather(state, attending, s.place)
    state, freed = broken_by_call(state)
    state = gather(state, freed, s.place)
    attending += [n for n in freed if n not in attending]
    votes = rules.tally(state, attending)
    tally = tuple((p, votes[p][0], votes[p][1]) for p in state.playing)
    state = evolve(state, sitting=evolve(s, attending=tuple(attending), tally=tally))
    shown_tally = "; ".join(f"{p} {c}/{lo}" for p, c, lo in tally)
    state = rules.chronicle(state, f"Parliament sits at {s.place}: {len(attending)} noble(s) "
                                   f"attend; the tally (Commons/Lords, R-36): {shown_tally}")
    return start_rounds(state)


def broken_by_call(state: State) -> tuple[State, list[str]]:
    """The sieges whose besiegers fell below half as the nobles left: broken, with nobody
    killed; everyone they held (inside, or aboard the besieging ship) attends."""
    freed: list[str] = []
    for place, siege in sorted(state.sieges.items()):
        here = {f"near:{place}"} | ({f"aboard:{siege.ship}"} if siege.ship else set())
        left = [n for n in siege.nobles if n in state.nobles and state.nobles[n].at in here]
        if left and 2 * rules.force_strength(state, left) >= rules.defence(state, place):
            if tuple(left) != siege.nobles:
                state = evolve(state, sieges={**state.sieges,
                                              place: evolve(siege, nobles=tuple(left))})
            continue
        held = rules.inside(state, place) + (rules.aboard(state, siege.ship) if siege.ship
                                             else [])
        state = evolve(state, sieges={p: v for p, v in state.sieges.items() if p != place})
        state = rules.chronicle(state, f"the siege of {place} is broken by Parliament's call; "
                                       f"{', '.join(held) or 'nobody'} attend(s) (7.2)")
        freed += held
    return state, freed
