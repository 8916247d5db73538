"""Random play for `simulate` and the playout tests: quick games that reach every phase.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from referee.engine import Event
from referee.games.kingmaker import rules
from referee.games.kingmaker.components import Entry
from referee.games.kingmaker.events import EVENTS
from referee.games.kingmaker.events.assembly import titles_first
from referee.games.kingmaker.events.ending import Next
from referee.games.kingmaker.events.movement import forces, move_problem
from referee.games.kingmaker.rules import split
from referee.games.kingmaker.state import (
    CHANCE,
    COMBAT,
    CORONATION,
    DEAL,
    DECK,
    DRAW,
    MOVEMENT,
    PARLIAMENT,
    RETURN,
    SELECT,
    VOTE,
    State,
)


ROUNDS = 3  # a simulated game ends (`end time`, R-70) after this many rounds
RESOLVING = frozenset({"dealt", "assign", "respond", "leave", "storm", "weather", "result",
                       "deaths", "save", "heir", "control", "ransom", "kill", "retreat",
                       "discard", "play", "port", "stay"})
SESSION = frozenset({"excuse", "revoke", "next", "bishop", "select", "propose", "assign",
                     "illegitimate", "transfer", "dismiss", "return", "stay"})
SELDOM = frozenset({"excuse", "revoke", "illegitimate"})  # moves a session plays when it may


def random_move(game: Any, state: State, rng: random.Random) -> Event | None:
    """A random legal event, steered towards fights, sieges and heirs so that short games
    exercise the rules; never by enumerating every move when a sample will do."""
    if state.ended is not None:
        return None
    if state.time_up:
        return Event.make("end", None, reason="time")
    if state.stage == DEAL and not state.duties:
        return _random_deal(state, rng)
    if state.duties or state.combat is not None or not state.in_play:
        choices = [e for e in game.legal(state) if e.type in RESOLVING]
        return rng.choice(choices) if choices else None
    if state.stage == CHANCE:
        if state.turn > ROUNDS * len(state.playing):
            return Event.make("end", None, reason="time")
        return _random_card(state, rng)
    if state.sitting is not None:
        return _random_session(game, state, rng)
    return _random_turn(state, rng) or _next_or_other(game, state, rng)


def _next_or_other(game: Any, state: State, rng: random.Random) -> Event | None:
    """`next`, when the rules allow it now; else another legal move (R-47: a player holding
    heirs of both houses at his deadline must transfer or execute one before his turn ends)."""
    done = Event.make("next", state.active)
    if Next().valid(state, done):
        return done
    choices = [e for e in game.legal(state) if e.by == state.active]
    return rng.choice(choices) if choices else None


def _random_card(state: State, rng: random.Random) -> Event:
    """The chance phase's card, steered now and then towards Parliament: the People's card
    when it would call one, the plague that ends an uncontrolled sole King, a Writ or the
    Chancellor's card for a player who could call."""
    cards = list(EVENTS["event"].moves(state))
    kinds: dict[str, list[Event]] = {}
    for event in cards:
        kinds.setdefault(str(rules.event_kind(state, event["card"])), []).append(event)
    roll = rng.random()
    who = rules.calling(state, state.active)
    if who is not None and roll < 0.8:
        wanted = [rules.WRIT] if not who.chancellor or rules.holds_event(
            state, state.active, rules.MAY_CALL) else [rules.MAY_CALL, rules.WRIT]
        for kind in wanted:
            if kinds.get(kind) and not (kind == rules.WRIT and rules.held_count(
                    state, state.active, kind) >= 2):
                return rng.choice(kinds[kind])
    if who is None and kinds.get(rules.WRIT) and roll < 0.4 and _may_excuse_later(state):
        return rng.choice(kinds[rules.WRIT])
    chancellor = rules.holder(state, rules.CHANCELLOR) is not None  # he may call instead
    if rules.people_window(state) and kinds.get("parliament-must") and \
            roll < (0.1 if chancellor else 0.3):
        return rng.choice(kinds["parliament-must"])
    sole = rules.sole_king(state)
    if sole is not None and rules.controller(state, sole) is None and roll < 0.12:
        place = rules.place_of(rules.heir_location(state, sole))
        plagues = [e for e in kinds.get("plague", [])
                   if (state.box.get("event", e["card"]) or Entry("event", "")).get("place")
                   == place]
        if plagues:
            return rng.choice(plagues)
    return rng.choice(cards)


def _may_excuse_later(state: State) -> bool:
    """Whether the active player, holding no Writ, would need one to excuse a noble from a
    Parliament another player may call (7.2)."""
    return not rules.holds_event(state, state.active, rules.WRIT) and any(
        rules.calling(state, p) is not None for p in state.playing if p != state.active)


def _random_session(game: Any, state: State, rng: random.Random) -> Event | None:
    """A Parliament in session played through: excuses and revocations now and then, random
    selections, proposals and ballots (bound votes kept), an illegitimacy motion when one may
    be moved, and everyone home (a Free Move spent now and then)."""
    sitting = state.sitting
    assert sitting is not None
    if sitting.step == VOTE and sitting.motion is not None:
        motion = sitting.motion
        sides: dict[str, list[str]] = {"yea": [], "nay": []}
        for player in state.playing:
            choice = motion.must(player) or rng.choice(("yea", "nay", "abstain"))
            if choice != "abstain":
                sides[choice].append(player)
        return Event.make("vote", None, **sides)
    if sitting.step == SELECT:
        pool = [c for c in sitting.pool if state.kind(c) in ("title", "office")]
        chosen = [c for c in pool if rng.random() < 0.6]
        return Event.make("select", sitting.leader, cards=titles_first(state, chosen))
    moves: list[Event] = [e for e in game.legal(state) if e.type in SESSION]
    if not moves:
        return None
    later = [e for e in moves if e.type in ("next", "dismiss")]
    now = [e for e in moves if e.type not in ("next", "dismiss")]
    seldom = [e for e in now if e.type in SELDOM]  # else lost among transfers, or never tried
    if seldom and rng.random() < 0.6:
        return rng.choice(seldom)
    if sitting.step == RETURN:
        returns = [e for e in now if e.type == "return"]
        if returns and rng.random() < 0.8:
            return rng.choice(returns)
    if now and (not later or rng.random() < 0.5):
        return rng.choice(now)
    return rng.choice(later or moves)


def _random_deal(state: State, rng: random.Random) -> Event:
    player = rules.to_act(state).players[0]
    probe = state if state.cards else rules.open_deck(state)
    deck = sorted(c for c, w in probe.cards.items() if w == DECK)
    return Event.make("dealt", player, cards=rng.sample(deck, rules.deal_size(state)))


def _random_turn(state: State, rng: random.Random) -> Event | None:
    pick: Callable[[str], list[Event]] = lambda name: list(EVENTS[name].moves(state))
    roll = rng.random()
    if state.stage == MOVEMENT:
        to_parliament = _to_parliament(state)
        if to_parliament and roll < 0.7:
            return rng.choice(to_parliament)
        takes = pick("take")
        if takes and roll < 0.8:
            return rng.choice(takes)
        if roll < 0.3:
            return None
        aimed = _aimed_moves(state)
        if aimed and roll < 0.75:
            return rng.choice(aimed)
        sails = pick("sail") if roll < 0.85 else []
        moves = sails or pick("move")
        return rng.choice(moves) if moves else None
    if state.stage == COMBAT:
        fights = pick("attack") + [e for e in pick("siege") if e["action"] != "break"]
        return rng.choice(fights) if fights and roll < 0.85 else None
    if state.stage == CORONATION:
        crowns = pick("crown")
        return rng.choice(crowns) if crowns and roll < 0.9 else None
    if state.stage == PARLIAMENT:
        calls = pick("parliament")
        return rng.choice(calls) if calls and (state.people_due or roll < _call_odds(state)) \
            else None
    if state.stage == DRAW:
        if not state.drew:
            draws = pick("draw")
            return rng.choice(draws) if draws else None
        deals = _parliament_deals(state)
        if deals and roll < 0.5:
            return rng.choice(deals)
        extras = pick("play") + (pick("execute") + pick("give") if roll < 0.1 else [])
        return rng.choice(extras) if extras and roll < 0.6 else None
    return None


def _call_odds(state: State) -> float:
    """How readily a caller calls: with a Writ to spare after the summons he may revoke excuses
    (7.2), so with one only he waits more often for a second."""
    return 0.8 if rules.held_count(state, state.active, rules.WRIT) >= 2 else 0.5


def _aimed_moves(state: State) -> list[Event]:
    """Moves towards something to fight for: an enemy force in the open, a fortress to besiege,
    an heir to take."""
    player = state.active
    targets: set[str] = set()
    for info in state.nobles.values():
        if info.owner != player and split(info.at)[0] in ("near", "sq"):
            targets.add(info.at)
    for heir in state.heirs.values():
        if heir.alive and heir.by is None:
            targets.add(heir.at if split(heir.at)[0] != "in" else f"near:{split(heir.at)[1]}")
    for place in state.control:
        if rules.controller_player(state, place) != player:
            targets.add(f"near:{place}")
    out = []
    for force in forces(state, player):
        for to in sorted(targets):
            if move_problem(state, player, force, to) is None:
                out.append(Event.make("move", player, nobles=list(force), to=to))
    return out


def _parliament_deals(state: State) -> list[Event]:
    """Writs and Chancellor-may-call cards given to a player who could call Parliament with them
    (a deal at the table, R-11)."""
    callers = [p for p in state.playing if rules.calling(state, p) is not None]
    out = []
    for taker in callers:
        who = rules.calling(state, taker)
        needs = [rules.WRIT] + ([rules.MAY_CALL] if who and who.chancellor else [])
        for kind in needs:
            if rules.holds_event(state, taker, kind):
                continue
            for giver in state.playing:
                card = next((c for c in state.held.get(giver, ())
                             if rules.event_kind(state, c) == kind), None)
                if giver != taker and card is not None:
                    out.append(Event.make("give", giver, item=card, to=taker))
    return out


def _to_parliament(state: State) -> list[Event]:
    """The King's controller or the Chancellor, if his player could call Parliament but for
    where he stands, goes to a town or city where he could (R-31)."""
    player = state.active
    who = rules.calling(state, player)
    if who is None or rules.call_problem(state, player) is None or \
            not rules.holds_event(state, player, rules.WRIT):
        return []
    noble = who.noble
    out = []
    for entry in state.box.of("place"):
        if entry.get("kind") in rules.CALL_KINDS and \
                rules.call_place_problem(state, player, entry.name) is None:
            to = rules.normal(state, f"near:{entry.name}")
            force = [n for n in state.faction(player) if state.nobles[n].at ==
                     state.nobles[noble].at]
            if move_problem(state, player, force, to) is None:
                out.append(Event.make("move", player, nobles=force, to=to))
    return out[:3]
