"""Nobles sent home and entering play (§4, R-7, R-30, R-60): where a noble's home is, moving
nobles, and a noble coming into play with what he brings (rule 26)."""

from __future__ import annotations

from typing import Iterable

from referee.evolve import evolve
from referee.games.kingmaker.rules.control import controller_player
from referee.games.kingmaker.rules.names import LE_LUCAS, PLAY, STANLEY
from referee.games.kingmaker.rules.placement import assign, claim_places
from referee.games.kingmaker.rules.places import normal
from referee.games.kingmaker.state import (
    ASIDE,
    DECK,
    DISCARD,
    NobleState,
    State,
    moved_cards,
)


def home_choices(state: State, noble: str) -> list[str]:
    """R-30: inside a home castle his faction controls that is not under siege, his choice;
    if there is none, near one of his other home castles."""
    owner = state.owner(noble)
    homes = list(state.entry(noble).names("home"))
    inside_ = [f"in:{h}" for h in homes if controller_player(state, h) == owner
               and h not in state.sieges]
    if inside_:
        return inside_
    return [normal(state, f"near:{h}") for h in homes if controller_player(state, h) != owner] \
        or [normal(state, f"near:{h}") for h in homes]


def send_home(state: State, noble: str, to: str | None = None) -> State:
    choices = home_choices(state, noble)
    target = to if to is not None else choices[0]
    return move_nobles(state, [noble], target)


def move_nobles(state: State, nobles: Iterable[str], to: str) -> State:
    """Nobles (with the heirs they control) to a location."""
    return evolve(state, nobles=nobles_moved(state, nobles, to))


def nobles_moved(state: State, nobles: Iterable[str], to: str) -> dict[str, NobleState]:
    """`state.nobles` with `nobles` at `to` (for an event that changes more in one new
    state)."""
    moved = dict(state.nobles)
    for noble in nobles:
        moved[noble] = NobleState(moved[noble].owner, to)  # evolve(..., at=to), made directly
    return moved


def enter_noble(state: State, noble: str, player: str, placed: bool = True) -> State:
    """A noble comes into play for `player`: his home castles if neutral (R-7), Stanley with Le
    Lucas (rule 26), and (when `placed`) his position by R-30's placement (R-60)."""
    state = enter_nobles(state, [(noble, player)])
    if placed:
        state = claim_places(state, noble, state.entry(noble).names("home"))
        state = send_home(state, noble)
    return state


def enter_nobles(state: State, entering: Iterable[tuple[str, str]]) -> State:
    """Nobles come into play, each for his player (noble, player), with no place yet (the
    layout of §4.3 places them all at once, in `finish_setup`): one new state for them all, and
    Stanley's Le Lucas (rule 26)."""
    nobles = dict(state.nobles)
    moves = {}
    for noble, player in entering:
        nobles[noble] = NobleState(player, "")
        moves[noble] = PLAY
    state = evolve(state, nobles=nobles, cards=moved_cards(state.cards, moves))
    if STANLEY in moves and state.box.card(LE_LUCAS) is not None and \
            state.cards.get(LE_LUCAS) in (ASIDE, DECK, DISCARD):
        state = assign(state, LE_LUCAS, STANLEY)
    return state
