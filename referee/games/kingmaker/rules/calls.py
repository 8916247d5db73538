"""Held event cards (R-11) and calling Parliament (§7.1, R-31..R-33, R-59): who calls, with
what, where, why not now, and the People's Parliament's window (7.7)."""

from __future__ import annotations

from typing import NamedTuple

from referee.errors import IllegalMove
from referee.games.kingmaker.rules.control import controller_player
from referee.games.kingmaker.rules.heirs import controller, sole_king
from referee.games.kingmaker.rules.names import CHANCELLOR, refuse
from referee.games.kingmaker.rules.places import (
    area,
    at_location,
    noble_position,
    place_entry,
    split,
)
from referee.games.kingmaker.rules.strengths import holder
from referee.games.kingmaker.state import State

CALL_KINDS = ("city", "town", "open-town", "unfortified")  # towns and cities
WRIT, FREE_MOVE, MAY_CALL = "writ", "free-move", "chancellor-may-call"


def event_kind(state: State, name: str) -> str | None:
    entry = state.box.get("event", name)
    return None if entry is None else entry.get("kind")


def held_count(state: State, player: str, kind: str) -> int:
    """How many held event cards of a kind (Writ, Free Move...) a player has (R-11)."""
    return sum(1 for c in state.held.get(player, ()) if event_kind(state, c) == kind)


def holds_event(state: State, player: str, kind: str) -> bool:
    return held_count(state, player, kind) > 0


class Caller(NamedTuple):
    """Who calls Parliament (7.1): the sole King (the heir) with his controlling noble, or the
    Chancellor (the noble, twice)."""

    by: str
    noble: str
    chancellor: bool


def calling(state: State, player: str) -> Caller | None:
    """Who `player` would call Parliament as (7.1): the sole King when his faction controls
    him; with no sole King, the Chancellor when his faction holds the office. None when
    neither."""
    sole = sole_king(state)
    if sole is not None:
        noble = controller(state, sole)
        return Caller(sole, noble, False) if noble is not None and \
            state.owner(noble) == player else None
    chancellor = holder(state, CHANCELLOR)
    if chancellor is not None and state.owner(chancellor) == player:
        return Caller(chancellor, chancellor, True)
    return None


def lockout_turns(state: State) -> int:
    """R-32: the turns after a King's Peace in which no call is made: three player turns, or
    three rounds with `lockout = rounds`."""
    return 3 * (len(state.playing) if state.options.get("lockout") == "rounds" else 1)


def calls_made(state: State, who: Caller) -> int:
    """R-33: the calls a King (the heir) or a Chancellor (the noble) has made."""
    return sum(1 for p in state.parliaments if not p.people and p.by == who.by and
               p.chancellor == who.chancellor)


def call_problem(state: State, player: str, place: str | None = None) -> IllegalMove | None:
    """Why `player` may not call Parliament now (7.1, R-32, R-33), at `place` when given (R-31),
    else where his King or Chancellor stands."""
    return peace_problem(state) or caller_problem(state, player, place)


def peace_problem(state: State) -> IllegalMove | None:
    """R-32: nobody calls Parliament during the King's Peace nor in the lockout after it; both
    hold for a whole turn (the Peace ends as its caller's turn begins)."""
    if state.peace is not None:
        return refuse(f"the King's Peace holds until just before {state.peace.caller}'s next "
                      "chance phase: no Parliament is called during it (R-32)", "kings-peace",
                      "R-32")
    if state.peace_over is not None and state.turn < state.peace_over + lockout_turns(state):
        left = state.peace_over + lockout_turns(state) - state.turn
        return refuse(f"no Parliament is called in the {lockout_turns(state)} turns after a "
                      f"King's Peace: {left} more to go (R-32, R-71)", "lockout", "R-32")
    return None


def caller_problem(state: State, player: str, place: str | None = None) -> IllegalMove | None:
    """Why `player` may not call Parliament, the King's Peace aside (7.1, R-31, R-33)."""
    who = calling(state, player)
    sole = sole_king(state)
    if who is None:
        if sole is not None and controller(state, sole) is None:
            return refuse(f"King {sole} is uncontrolled: nobody may call Parliament (7.1)",
                          "no-caller", "§7.1")
        if sole is not None:
            return refuse(f"{player} does not control the sole King, {sole} (7.1)",
                          "not-the-king", "§7.1")
        return refuse(f"with no sole King only the faction of the Chancellor of England calls "
                      f"Parliament, and {player} does not hold him (7.1)", "not-the-chancellor",
                      "§7.1")
    by, noble, chancellor = who
    if chancellor and not holds_event(state, player, MAY_CALL):
        return refuse(f"{player} holds no Chancellor May Call Parliament card (7.1)",
                      "no-chancellor-card", "§7.1")
    if not holds_event(state, player, WRIT):
        return refuse(f"{player} holds no Writ: a call needs one (7.1)", "no-writ", "§7.1")
    if calls_made(state, who) >= 2:
        return refuse(f"{'the Chancellor ' if chancellor else 'King '}{by} has called Parliament "
                      "twice already (R-33)", "two-calls", "R-33")
    here = split(noble_position(state, noble))
    where = here[1] if here[0] in ("in", "near") else None
    calls = f"the Chancellor, {noble}," if chancellor else f"King {by} and {noble}"
    if where is None:
        return refuse(f"{noble} is at {noble_position(state, noble)}: Parliament is called where "
                      f"{calls} stand, a town or city (R-31)", "not-at-place", "R-31")
    if place is not None and place != where:
        return refuse(f"{noble} is at {where}, not {place}: Parliament is called where {calls} "
                      "stand (7.1)", "not-at-place", "§7.1")
    return call_place_problem(state, player, where)


def call_place_problem(state: State, player: str, place: str) -> IllegalMove | None:
    """R-31: a mainland town (fortified, open or unfortified) or city, never a castle, island or
    Calais, not under siege; fortified, the caller's faction controls it; open or unfortified,
    no other faction occupies it."""
    kind = str(place_entry(state, place).get("kind"))
    if kind not in CALL_KINDS:
        return refuse(f"{place} is a {kind}: Parliament sits in a town or city (R-31)",
                      "not-a-town", "R-31")
    if area(state, place) != "mainland":
        return refuse(f"{place} is not on the mainland ({area(state, place)}) (R-31)",
                      "off-mainland", "R-31")
    if place in state.sieges:
        return refuse(f"{place} is under siege (R-31)", "under-siege", "R-31")
    if kind in ("city", "town") and controller_player(state, place) != player:
        return refuse(f"{place} is fortified and {player}'s faction does not control it (R-31)",
                      "not-controlled", "R-31")
    here = f"in:{place}" if kind == "open-town" else f"near:{place}"
    if kind in ("open-town", "unfortified") and \
            any(state.owner(n) != player for n in at_location(state, here)):
        return refuse(f"another faction occupies {place} (R-31)", "occupied", "R-31")
    return None


def may_call(state: State) -> bool:
    """Whether the active player may call Parliament now: the Parliament phase has something to
    do (else it is skipped, §5)."""
    if calling(state, state.active) is None:
        return False  # most turns: he has no King or Chancellor to call, no refusal to word
    return call_problem(state, state.active) is None


def people_window(state: State) -> bool:
    """7.7, R-59: no sole King, no King's Peace, and no Parliament called in the three turns
    before this one (counted in player turns from the call)."""
    if sole_king(state) is not None or state.peace is not None:
        return False
    return not any(state.turn - p.turn <= 3 for p in state.parliaments)
