"""What the referee settles by itself after every event: sieges below half broken (R-27),
heirs' deadlines to land (8.4), both houses held (R-47), town cards in hand placed (R-53), the
hand limit (§5.3), No Elimination (§9), phases with nothing left to do, and Complete and Utter
Victory (§10)."""

from __future__ import annotations

from typing import Any, Callable, Iterable, NamedTuple

from referee import engine
from referee.derived import Derived, SelfCheckError, derived
from referee.evolve import evolve
from referee.games.kingmaker.rules.control import controller_player, defence, noble_owners
from referee.games.kingmaker.rules.crowning import coronations
from referee.games.kingmaker.rules.deaths import ship_sinks
from referee.games.kingmaker.rules.duties import add_duty, chronicle
from referee.games.kingmaker.rules.heirs import (
    _guards,
    _living,
    heir_location,
    heir_player,
    house_of,
    is_crowned,
    living_heirs,
)
from referee.games.kingmaker.rules.names import BEAUFORT
from referee.games.kingmaker.rules.placement import place_town
from referee.games.kingmaker.rules.places import (
    area,
    inside,
    is_open_town,
    on_mainland,
    position,
    split,
)
from referee.games.kingmaker.rules.setup import deck_size, rebuild_deck
from referee.games.kingmaker.rules.strengths import force_strength
from referee.games.kingmaker.rules.turn import advance
from referee.games.kingmaker.state import (
    CHANCE,
    CORONATION,
    Duty,
    Ending,
    State,
    hands,
)
from referee.values import fields


# ---- the steps, each declared with what it reads ---------------------------------------------

FIELDS = tuple(f.name for f in fields(State))
ALL = frozenset(FIELDS)  # what an event whose effect may change anything declares


def field_names(reads: Iterable[str | Derived[Any, Any]]) -> frozenset[str]:
    """The fields of State that `reads` names: fields, and derived values (their fields)."""
    out: set[str] = set()
    for name in reads:
        if not isinstance(name, str):
            out |= name.reads
        else:
            assert name in ALL, name
            out.add(name)
    return frozenset(out)


class Step(NamedTuple):
    run: Callable[[State, State], State]  # (the state before the event, the state now)
    reads: frozenset[str]  # the fields of State it reads: it does nothing while none changed


def changed_fields(old: State, new: State) -> list[str]:
    """The fields `new` holds in other objects than `old`."""
    was, now = old.__dict__, new.__dict__
    return [name for name in FIELDS if was[name] is not now[name]]


def _check_sieges(before: State, state: State) -> State:
    """R-27: a siege whose besiegers are gone or below half the defence is broken; from a ship,
    they die with it (§8.6)."""
    if not state.sieges or _sieges_stand(state):
        return state  # none, or none to break or thin (most of the game)
    return _broken_sieges(state)


def _broken_sieges(state: State) -> State:
    for place, siege in list(state.sieges.items()):
        here = {f"near:{place}"} | ({f"aboard:{siege.ship}"} if siege.ship else set())
        nobles = tuple(n for n in siege.nobles if n in state.nobles and
                       state.nobles[n].at in here)
        if siege.ship and (siege.ship not in state.ships or
                           state.ships[siege.ship].at != f"port:{place}"):
            nobles = tuple(n for n in nobles if not state.nobles[n].at.startswith("aboard:"))
        own = controller_player(state, place) == siege.owner
        empty = is_open_town(state, place) and not inside(state, place)
        if nobles != siege.nobles:
            state = evolve(state, sieges={**state.sieges, place: evolve(siege, nobles=nobles)})
        if own or empty or not nobles or \
                2 * force_strength(state, nobles) < defence(state, place):
            state = break_siege(state, place, "its besiegers fell below half the defence"
                                if nobles and not own else "its besiegers are gone")
    return state


@derived(State, "sieges", "nobles", "ships", "control", "_guards", "holdings", "options",
              "box")
def _sieges_stand(state: State) -> bool:
    """Whether every siege holds as it is: what _check_sieges reads (the Royal Guards and the
    nobles' cards through strength, of the cards only the nobles'): a card drawn or discarded,
    or a phase begun, leaves it."""
    return _broken_sieges(state) is state


def break_siege(state: State, place: str, why: str) -> State:
    siege = state.sieges[place]
    sieges = {p: s for p, s in state.sieges.items() if p != place}
    state = chronicle(evolve(state, sieges=sieges), f"the siege of {place} is broken ({why})")
    if siege.ship and siege.ship in state.ships:
        state = ship_sinks(state, siege.ship, f"the siege of {place} from the ship broke")
    return state


def _track_heirs(before: State, state: State) -> State:
    """8.4: an heir off the mainland must land by the end of his controller's next own movement
    phase (the second after a capture in Calais); the deadline is set when he leaves or changes
    hands. Carisbrooke's island is mainland for a faction that held Carisbrooke before he came."""
    if _heirs_at_rest(state):
        return state
    heirs = dict(state.heirs)
    for heir, info in state.heirs.items():
        if not info.alive:
            continue
        player = heir_player(state, heir)
        location = position(state, heir_location(state, heir))
        if player is None:
            if info.due is not None or info.wight:
                heirs[heir] = evolve(info, due=None, wight=False)
            continue
        came = heir not in before.heirs or not _is_wight(
            before, position(before, heir_location(before, heir)))
        wight = _is_wight(state, location) and (
            info.wight or (came and controller_player(state, "Carisbrooke") == player))
        if on_mainland(state, location) or wight:
            if info.due is not None or info.wight != wight:
                heirs[heir] = evolve(info, due=None, wight=wight)
            continue
        changed = heir not in before.heirs or heir_player(before, heir) != player
        if info.due is None or changed:
            prefix, name = split(location)
            calais = prefix != "sea" and area(state, name) == "calais"
            heirs[heir] = evolve(info, due=state.own.get(player, 0) + (2 if calais else 1),
                                  wight=False)
    return evolve(state, heirs=heirs) if heirs != state.heirs else state


@derived(State, "heirs", "ships", "box", "nobles")
def _heirs_at_rest(state: State) -> bool:
    """Whether _track_heirs has nothing to do: every living heir uncontrolled, or on the
    mainland off Wight, with no deadline and no Wight mark (then `before` does not matter)."""
    for heir, info in state.heirs.items():
        if not info.alive:
            continue
        if info.due is not None or info.wight or heir == BEAUFORT:
            return False
        if not info.by:  # heir_player(state, heir) is None: uncontrolled
            continue
        location = position(state, state.nobles[info.by].at)  # heir_location
        if not on_mainland(state, location) or _is_wight(state, location):
            return False
    return True


def _is_wight(state: State, location: str) -> bool:
    prefix, _, name = location.partition(":")
    entry = state.box.place(name) if prefix != "sea" else None
    carisbrooke = state.box.place("Carisbrooke")
    return entry is not None and carisbrooke is not None and \
        entry.get("island") is not None and entry.get("island") == carisbrooke.get("island")


@derived(State, "_living", "heirs", "noble_owners", "box")
def _holding_both(state: State) -> frozenset[str]:
    """The players whose nobles control living heirs of both houses (R-47): a move of nobles,
    which changes no controller nor owner, leaves it."""
    held: dict[str, set[str]] = {}
    for heir in living_heirs(state):
        player = heir_player(state, heir)
        if player is not None:
            held.setdefault(player, set()).add(house_of(state, heir))
    return frozenset(player for player, houses in held.items() if len(houses) == 2)


def _track_both_houses(before: State, state: State) -> State:
    """R-47: the turn by which a player holding heirs of both houses must be back to one."""
    holding = _holding_both(state)
    if not holding and not state.both:  # most of a game: nobody holds both, nobody did
        return state
    if all((player in holding) == (player in state.both) for player in state.names):
        return state
    both = dict(state.both)
    for player in state.names:
        if player in holding:
            both.setdefault(player, state.own.get(player, 0) + 2)
        else:
            both.pop(player, None)
    return evolve(state, both=both) if both != state.both else state


def _waiting_towns(before: State, state: State) -> State:
    """R-53: a town card kept in hand is placed as soon as a noble may take it."""
    if not _towns_in_hand(state):
        return state
    for player in state.names:
        for card in state.hand(player):
            if state.kind(card) == "town":
                state = place_town(state, card, player)
    return state


@derived(State, "hands", "box")
def _towns_in_hand(state: State) -> bool:
    """Whether any hand may hold a town card (a card of no entry: the loop will say)."""
    for held in hands(state).values():
        for card in held:
            entry = state.box.crown_card(card)
            if entry is None or entry.kind == "town":
                return True
    return False


def _hand_limits(before: State, state: State) -> State:
    """§5.3: more than two crown cards in hand must at once be played or discarded to two."""
    if _hands_within_limit(state) and \
            not (state.duties and any(d.kind == "discard" for d in state.duties)):
        return state  # no discard to add, none to drop
    kept = tuple(d for d in state.duties if d.kind != "discard" or
                 state.hand_size(str(d.player)) > 2)
    if kept != state.duties:
        state = evolve(state, duties=kept)
    for player in state.names:
        if state.hand_size(player) > 2 and not any(
                d.kind == "discard" and d.player == player for d in state.duties):
            state = add_duty(state, Duty("discard", player))
    return state


@derived(State, "hands", "hidden", "names")
def _hands_within_limit(state: State) -> bool:
    """Whether every player's hand (State.hand_size: the known cards and the `hidden` ones)
    holds two cards or fewer. It reads the hands, not every card: a card laid out or moved
    between nobles leaves them."""
    known, hidden = hands(state), state.hidden
    return all(len(known.get(player, ())) + hidden.get(player, 0) <= 2 for player in state.names)


def _no_elimination(before: State, state: State) -> State:
    """§9: a faction with no noble is dealt crown cards one at a time until a noble comes."""
    owners = _owners(state)
    if owners.issuperset(state.names):  # every seat has a noble
        return state
    for player in state.playing:
        if player not in owners and not any(d.kind in ("deal", "layout") and
                                                 d.player == player for d in state.duties) \
                and deck_size(rebuild_deck(state)) > 0:
            state = add_duty(state, Duty("deal", player))
    return state


@derived(State, "noble_owners")
def _owners(state: State) -> frozenset[str]:
    """The players with a noble in play."""
    return frozenset(noble_owners(state).values())


def _auto_advance(before: State, state: State) -> State:
    if state.duties or state.combat is not None or state.time_up:
        return state
    if state.stage == CHANCE and state.event_drawn:
        return advance(state)
    if state.stage == CORONATION and not coronations(state):
        return advance(state)
    return state


def _complete_victory(before: State, state: State) -> State:
    """§10: a faction controls the sole crowned King and every other heir is dead."""
    living = _living(state)
    if len(living) != 1 or not is_crowned(state, living[0]):
        return state
    player = heir_player(state, living[0])
    if player is None:
        return state
    return evolve(state, ended=Ending(
        "complete", f"{player} controls King {living[0]}, the last heir alive", (player,),
        "Complete and Utter Victory"), duties=())


STEPS = tuple(Step(run, field_names(reads)) for run, reads in (
    (_check_sieges, ("sieges", "nobles", "ships", "control", "heirs", "lines",
                     "beaufort_crowned", "options", "box", "cards")),
    (_track_heirs, ("heirs", "nobles", "ships", "box", "own", "control")),
    (_track_both_houses, ("heirs", "lines", "nobles", "box", "names", "own", "both")),
    (_waiting_towns, ("names", "cards", "box", "control", "nobles", "sieges", "ships", "options",
                      "duties")),
    (_hand_limits, ("duties", "hidden", "cards", "names")),
    (_no_elimination, ("nobles", "names", "late", "duties", "cards", "hidden")),
    (_auto_advance, ALL),  # cheap: it looks at the duties and the phase first
    (_complete_victory, ("heirs", "lines", "nobles", "beaufort_crowned")),
))
# At each step, what it and the steps before it read: a field a step changes that one of them
# reads is left for them to settle at the next event (`State.unsettled`), as running every step
# at every event did. The step itself counts: one pass may leave it work (a siege broken from a
# ship sinks a King's keeper, and his Royal Guard strengthens a siege already looked at).
_EARLIER = tuple(frozenset().union(*(s.reads for s in STEPS[:i + 1]))
                 for i in range(len(STEPS)))


def settle(before: State, state: State, changes: frozenset[str] = ALL, event: str = ""
           ) -> State:
    """Sieges below half broken, mainland deadlines set, both houses watched, the hand limit,
    No Elimination, phases with nothing left to do, and Complete and Utter Victory. Only the
    steps that read a field in `changes` (what the event's effect may change), in what an
    earlier step changed, or in what the last settle left unsettled, are run: any other would
    do nothing."""
    if not state.in_play or state.ended is not None:
        return state
    if not before.in_play or before.ended is not None:
        changes = ALL  # the first settle in play: nothing was settled before
    changed = changes | state.unsettled if state.unsettled else changes
    unsettled = NOTHING
    checking = self_checking()
    for index, step in enumerate(STEPS):
        if step.reads.isdisjoint(changed):
            if checking:
                _check_skipped(step, before, state, event)
            continue
        out = step.run(before, state)
        if out is not state:
            moved = changed_fields(state, out)
            if changed is not ALL:
                changed = changed.union(moved)
            unsettled = unsettled.union(_EARLIER[index].intersection(moved))
            state = out
    if unsettled != state.unsettled:
        state = evolve(state, unsettled=unsettled)
    return state


NOTHING: frozenset[str] = frozenset()


def self_checking() -> bool:
    """REFEREE_SELFCHECK, as the core holds it (`referee.engine.SELFCHECK`: tests patch it)."""
    return bool(vars(engine)["SELFCHECK"])


def _check_skipped(step: Step, before: State, state: State, event: str) -> None:
    """REFEREE_SELFCHECK: a step skipped, none of its reads changed, would do nothing."""
    out = step.run(before, state)
    if out is not state and out != state:
        raise SelfCheckError(f"settle step {step.run.__name__} was skipped after {event or 'an event'}"
                             f" but changes {', '.join(changed_fields(state, out))}")
