"""Random play for `simulate` and the playout tests: quick games that reach every phase.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from referee.engine import Event
from referee.games.kingmaker import rules
from referee.games.kingmaker.events import EVENTS
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
    State,
)


ROUNDS = 3  # a simulated game ends (`end time`, R-70) after this many rounds
RESOLVING = frozenset({"dealt", "assign", "respond", "leave", "storm", "weather", "result",
                       "deaths", "save", "heir", "control", "ransom", "kill", "retreat",
                       "discard", "play"})


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
        return rng.choice(list(EVENTS["event"].moves(state)))
    return _random_turn(state, rng) or Event.make("next", state.active)


def _random_deal(state: State, rng: random.Random) -> Event:
    player = rules.to_act(state).players[0]
    probe = state if state.cards else rules.open_deck(state)
    deck = sorted(c for c, w in probe.cards.items() if w == DECK)
    return Event.make("dealt", player, cards=rng.sample(deck, rules.deal_size(state)))


def _random_turn(state: State, rng: random.Random) -> Event | None:
    pick: Callable[[str], list[Event]] = lambda name: list(EVENTS[name].moves(state))
    roll = rng.random()
    if state.stage == MOVEMENT:
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
    if state.stage == DRAW:
        if not state.drew:
            draws = pick("draw")
            return rng.choice(draws) if draws else None
        extras = pick("play") + (pick("execute") + pick("give") if roll < 0.1 else [])
        return rng.choice(extras) if extras and roll < 0.6 else None
    return None


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
