"""Parliament dismissed (§7.5): every attending noble sent to a home castle (R-30), one player at
a time clockwise from the caller's left, the caller last, or kept at Parliament by a Free Move
(the calling noble free); every ship home, save those kept by a Free Move and R-55's; then the
King's Peace (7.6) holds until just before the caller's next chance phase (R-42, R-77).
"""

from __future__ import annotations

from typing import Iterator

from referee.engine import Event
from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.events.base import (
    Base,
    first_home,
    known_noble,
    location,
    named,
    noble,
    spend_event,
)
from referee.games.kingmaker.events.forms import Case, Flag, Form, Key
from referee.games.kingmaker.events.parliament import (
    clockwise_from_left,
    stay_at_call,
)
from referee.games.kingmaker.notation import shown
from referee.games.kingmaker.rules import DUTY_PHASES, SESSION_PHASES, refuse
from referee.games.kingmaker.state import (
    BUSINESS,
    RETURN,
    Parliament,
    Peace,
    Sitting,
    State,
    card_entry,
)


def session(state: State, step: str) -> Sitting:
    s = state.sitting
    if s is None or s.step != step:
        raise refuse("not now: " + (rules.to_act(state).prompt if s is None else
                                    rules.sitting_turn(state).prompt), "not-now", "§7.5")
    return s


def to_place(state: State, player: str) -> list[str]:
    """A player's attending nobles still in play, neither sent home nor staying yet."""
    s = state.sitting
    assert s is not None
    return [n for n in s.attending if n in state.nobles and state.owner(n) == player and
            n not in s.placed]


def must_stay(state: State, ship: str) -> bool:
    """R-55: a ship whose controller stayed away and that carries nobles who all stayed away
    stays where it is; an empty one goes home."""
    s = state.sitting
    assert s is not None
    crew = rules.aboard(state, ship)
    return state.ships[ship].by not in s.attending and bool(crew) and \
        all(n not in s.attending for n in crew)


def keepable(state: State, player: str) -> list[str]:
    """The player's ships that would go home and that a Free Move may keep (7.5)."""
    s = state.sitting
    assert s is not None
    if not rules.holds_event(state, player, rules.FREE_MOVE):
        return []
    return [ship for ship, info in sorted(state.ships.items())
            if state.owner(info.by) == player and ship not in s.kept and
            not must_stay(state, ship)]


def next_returner(state: State) -> State:
    """The next player with nobles to place, or ships a Free Move may keep (R-77); after the
    caller, the ships go home and the King's Peace begins."""
    s = state.sitting
    assert s is not None
    asked = s.asked + 1
    while asked < len(s.order) and not to_place(state, s.order[asked]) and \
            not keepable(state, s.order[asked]):
        asked += 1
    if asked < len(s.order):
        return evolve(state, sitting=evolve(s, asked=asked))
    return dismissed(state)


def maybe_next(state: State, player: str) -> State:
    """A player's return ends by itself when nothing is left for him to decide (R-77)."""
    if to_place(state, player) or keepable(state, player):
        return state
    return next_returner(state)


def return_next(state: State) -> State:
    """`next` in the return: the player is done once his nobles are placed."""
    s = session(state, RETURN)
    player = s.order[s.asked]
    left = to_place(state, player)
    if left:
        raise refuse(f"{', '.join(left)} still attend(s): `return {shown(left[0])} to HOME` or "
                     f"`stay {shown(left[0])} freemove` (7.5)", "still-attending", "§7.5")
    return next_returner(state)


def dismissed(state: State) -> State:
    """Every ship home but those kept and R-55's, forces aboard landing near its port; the
    Parliament recorded; the King's Peace begins (7.6)."""
    s = state.sitting
    assert s is not None
    sent = []
    for ship, info in sorted(state.ships.items()):
        if ship in s.kept or must_stay(state, ship):
            continue
        home = state.box.card(card_entry(ship))
        port = str(home.get("home_port")) if home is not None else ""
        if not port:
            continue
        ships = dict(state.ships)
        ships[ship] = evolve(info, at=f"port:{port}")
        state = evolve(state, ships=ships)
        crew = rules.aboard(state, ship)
        if crew:
            state = rules.move_nobles(state, crew, rules.normal(state, f"near:{port}"))
        sent.append(ship)
    record = Parliament(state.turn, s.caller, s.by, s.people, s.assigned, s.place, s.refused,
                        s.ballots, s.business, s.chancellor)
    peace = Peace(s.caller, s.place, tuple(n for n in s.returned if n in state.nobles),
                  tuple(sent))
    state = evolve(state, sitting=None, peace=peace, parliaments=state.parliaments + (record,))
    state = rules.chronicle(state, f"Parliament at {s.place} is dismissed; the King's Peace "
                                   f"holds until just before {s.caller}'s next chance phase "
                                   "(7.6)")
    return rules.advance(state)


class Dismiss(Base):
    name = "dismiss"
    doc = "the caller dismisses Parliament: the nobles go home, one player at a time (7.5)"
    phases = frozenset({SESSION_PHASES[BUSINESS]})
    form = Form(note="after the rounds and any other business (7.5)")

    def effect(self, state: State, event: Event) -> State:
        s = session(state, BUSINESS)
        order = clockwise_from_left(state, s.caller)
        state = evolve(state, sitting=evolve(s, step=RETURN, order=order, asked=-1))
        return next_returner(state)

    def moves(self, state: State) -> Iterator[Event]:
        s = state.sitting
        assert s is not None
        yield self.make(s.caller)


def return_problem(state: State, player: str, noble: str, to: str) -> IllegalMove | None:
    if noble not in to_place(state, player):
        return refuse(f"{noble} is not an attending noble of {player}'s still to go home "
                      "(7.5)", "not-attending", "§7.5")
    homes = rules.home_choices(state, noble)
    if to not in homes:
        return refuse(f"{noble} goes home: {', '.join(homes)} (R-30)", "not-home", "R-30")
    return None


class Return(Base):
    name = "return"
    doc = "an attending noble goes home from Parliament, movement rules ignored (7.5, R-30)"
    fields = {"noble": "str", "to": "str"}
    field_docs = {"noble": "the noble", "to": "his home (R-30)"}
    phases = frozenset({SESSION_PHASES[RETURN]})
    form = Form(noble("noble"), Key("to", location("to", default=first_home), optional=True),
                note="one of his homes (R-30); the referee fills in the first")

    def effect(self, state: State, event: Event) -> State:
        s = session(state, RETURN)
        player, noble = str(event.by), known_noble(state, event["noble"])
        problem = return_problem(state, player, noble, event["to"])
        if problem is not None:
            raise problem
        state = evolve(state, nobles=rules.nobles_moved(state, [noble], event["to"]),
                       sitting=evolve(s, placed=s.placed + (noble,),
                                      returned=s.returned + (noble,)))
        return maybe_next(state, player)

    def moves(self, state: State) -> Iterator[Event]:
        s = state.sitting
        assert s is not None
        player = s.order[s.asked]
        for noble in to_place(state, player):
            for home in rules.home_choices(state, noble):
                yield self.make(player, noble=noble, to=home)


class Stay(Base):
    name = "stay"
    doc = "a noble or ship stays where it is: at Parliament's call a ship whose force stays " \
          "away; at dismissal, by a Free Move or the calling noble's free stay (7.2, 7.5)"
    fields = {"item": "str", "freemove": "bool"}
    field_docs = {"item": "the noble or ship", "freemove": "a Free Move card is spent (7.5)"}
    optional = frozenset({"freemove"})
    phases = frozenset({DUTY_PHASES["port"], SESSION_PHASES[RETURN]})
    form = Form(named("item", "NOBLE|SHIP", lambda state: list(state.nobles) + list(state.ships),
                      "noble or ship", "noble or ship"), Flag("freemove"),
                cases=(Case("at the call: its controller and all aboard stay away (R-74)",
                            {"item": "SHIP", "freemove": False}),
                       Case("at dismissal, a Free Move each (7.5)", {"freemove": True}),
                       Case("at dismissal, the noble who called Parliament, free (7.5, R-56)",
                            {"item": "NOBLE", "freemove": False})))

    def effect(self, state: State, event: Event) -> State:
        item, freemove = event["item"], bool(event.get("freemove"))
        current = rules.duty(state)
        if current is not None and current.kind == "port":
            return stay_at_call(state, item, freemove)
        s = session(state, RETURN)
        player = str(event.by)
        problem = stay_problem(state, player, item, freemove)
        if problem is not None:
            raise problem
        if freemove:
            state = spend_event(state, player, rules.FREE_MOVE)
        if item in state.ships:
            s = evolve(s, kept=s.kept + (item,))
        else:
            s = evolve(s, placed=s.placed + (item,))
        state = rules.chronicle(evolve(state, sitting=s), f"{item} stays at "
                                f"{state.ships[item].at if item in state.ships else s.place}"
                                + (" (a Free Move)" if freemove else " (free: he called it)"))
        return maybe_next(state, player)

    def moves(self, state: State) -> Iterator[Event]:
        current = rules.duty(state)
        if current is not None:  # a ship called to port
            if "stay" in current.choices:
                yield self.make(current.player, item=current.subject)
            return
        s = state.sitting
        assert s is not None
        player = s.order[s.asked]
        for item in to_place(state, player) + keepable(state, player):
            for freemove in (False, True):
                if stay_problem(state, player, item, freemove) is None:
                    yield self.make(player, item=item, freemove=freemove or None)


def stay_problem(state: State, player: str, item: str, freemove: bool) -> IllegalMove | None:
    """7.5: a noble of his still to go home, by a Free Move or (the calling noble) free; a ship
    of his that would go home, by a Free Move."""
    s = state.sitting
    assert s is not None
    if freemove and not rules.holds_event(state, player, rules.FREE_MOVE):
        return refuse(f"{player} holds no Free Move card (7.5)", "no-freemove", "§7.5")
    if item in state.ships:
        if item not in keepable(state, player) and \
                state.owner(state.ships[item].by) == player and must_stay(state, item):
            return refuse(f"{item} stays anyway: its controller and all aboard stayed away "
                          "(R-55)", "stays-anyway", "R-55")
        if state.owner(state.ships[item].by) != player or item in s.kept:
            return refuse(f"{item} is not a ship of {player}'s going home", "not-your-ship",
                          "§7.5")
        if not freemove:
            return refuse(f"a ship stays by a Free Move: `stay {shown(item)} freemove` (7.5)",
                          "freemove-needed", "§7.5")
        return None
    if item not in to_place(state, player):
        return refuse(f"{item} is not an attending noble of {player}'s still to go home (7.5)",
                      "not-attending", "§7.5")
    if not freemove and item != s.noble:
        return refuse(f"only {s.noble}, who called Parliament, stays free; {item} stays by a "
                      f"Free Move (`stay {shown(item)} freemove`, 7.5)", "freemove-needed",
                      "§7.5")
    return None
