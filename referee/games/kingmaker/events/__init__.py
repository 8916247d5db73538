"""Kingmaker's events, each declared once: its fields, who records it, when, its notation, its
effect and the moves it offers. The modules of this package hold them by phase and job; this one
assembles the one declaration, `EVENTS`, in the order `referee options` lists their moves.
"""

from __future__ import annotations

from referee.engine import Events
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.events.aftermath import (
    Control,
    Deaths,
    HeirTo,
    Kill,
    Ransom,
    Result,
    Retreat,
    Save,
    Weather,
)
from referee.games.kingmaker.events.assembly import Bishop, Illegitimate, Propose, Select, Vote
from referee.games.kingmaker.events.chance import EventCard, Friendly, Leave, Respond, Storm
from referee.games.kingmaker.events.combat import Attack, SiegeAct
from referee.games.kingmaker.events.crown import (
    Crown,
    Discard,
    Draw,
    Execute,
    Give,
    Play,
    Take,
    Transfer,
)
from referee.games.kingmaker.events.deal import Amend, Assign, Dealt, Declare
from referee.games.kingmaker.events.ending import Clock, End, Join, Next
from referee.games.kingmaker.events.homecoming import Dismiss, Return, Stay
from referee.games.kingmaker.events.movement import MoveForce, Sail
from referee.games.kingmaker.events.parliament import Excuse, ParliamentCall, Port, Revoke
from referee.games.kingmaker.state import HeirState, State


EVENTS: Events[State] = Events(
    Declare(), Amend(), Dealt(), Assign(), EventCard(), Respond(), Leave(), Storm(),
    Friendly(), MoveForce(), Sail(), Attack(), SiegeAct(), Weather(), Result(), Deaths(),
    Save(), HeirTo(), Control(), Ransom(), Kill(), Retreat(), Take(), Execute(), Crown(),
    ParliamentCall(), Excuse(), Revoke(), Port(), Stay(), Bishop(), Select(), Propose(), Vote(),
    Illegitimate(), Dismiss(), Return(),
    Draw(), Play(), Discard(), Give(), Transfer(), Next(), Clock(), Join(), End(),
)


def with_box(state: State) -> State:
    """A state whose box is preloaded (the test box): its heirs known, the Crown deck open."""
    heirs = {e.name: HeirState(at=f"in:{e.get('start')}") for e in state.box.of("heir")}
    return rules.open_deck(evolve(state, heirs=heirs, lines=rules.lines_of(state)))
