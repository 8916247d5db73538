"""What the referee settles by itself after every event: sieges below half broken (R-27),
heirs' deadlines to land (8.4), both houses held (R-47), town cards in hand placed (R-53), the
hand limit (§5.3), No Elimination (§9), phases with nothing left to do, and Complete and Utter
Victory (§10)."""

from __future__ import annotations

from typing import Mapping

from referee.evolve import evolve
from referee.games.kingmaker.components import Box
from referee.games.kingmaker.rules.control import controller_player, defence, noble_owners
from referee.games.kingmaker.rules.crowning import coronations
from referee.games.kingmaker.rules.deaths import ship_sinks
from referee.games.kingmaker.rules.duties import add_duty, chronicle
from referee.games.kingmaker.rules.heirs import (
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
    HeirState,
    NobleState,
    State,
    hands,
    placed,
    quiet_by,
    quiet_while_same,
    recalled,
    recalled_by,
)
from referee.values import attributes


def settle(before: State, state: State) -> State:
    """Sieges below half broken, mainland deadlines set, both houses watched, the hand limit,
    No Elimination, phases with nothing left to do, and Complete and Utter Victory."""
    if not state.in_play or state.ended is not None:
        return state
    state = _check_sieges(state)
    state = _track_heirs(before, state)
    state = _track_both_houses(state)
    state = _waiting_towns(state)
    state = _hand_limits(state)
    state = _no_elimination(state)
    state = _auto_advance(state)
    return _complete_victory(state)


# What _check_sieges reads, through strength, defence and the Royal Guards too; of the
# cards, only the nobles' holdings (strength): a card drawn or discarded leaves them.
SIEGE_READS = ("sieges", "nobles", "ships", "control", "heirs", "lines", "beaufort_crowned",
               "options", "box")
_siege_fields = attributes(SIEGE_READS)


def _siege_key(state: State) -> tuple[object, ...]:
    return _siege_fields(state) + (placed(state.cards).holdings,)


def _check_sieges(state: State) -> State:
    return _check_laid_sieges(state) if state.sieges else state  # none: nothing to check


@quiet_by(_siege_key)
def _check_laid_sieges(state: State) -> State:
    """R-27: a siege whose besiegers are gone or below half the defence is broken; from a ship,
    they die with it (§8.6)."""
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


def _heirs_at_rest_key(state: State) -> tuple[object, ...]:
    """What _heirs_at_rest reads: of the nobles, only those who control a living heir (a move
    of any other leaves it). The heirs come first: the same heirs, the same number of items."""
    nobles = state.nobles
    return (state.heirs, state.ships, state.box) + tuple(
        map(nobles.get, _heir_controllers(state.heirs)))


@recalled
def _heir_controllers(heirs: Mapping[str, HeirState]) -> tuple[str, ...]:
    return tuple(info.by for info in heirs.values() if info.alive and info.by)


@recalled_by(_heirs_at_rest_key)
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


def _both_houses_key(state: State) -> tuple[object, ...]:
    """What _track_both_houses reads: of the nobles, only who owns each (a move leaves it)."""
    return (state.heirs, state.lines, noble_owners(state.nobles), state.box, state.names,
            state.own, state.both)


@quiet_by(_both_houses_key)
def _track_both_houses(state: State) -> State:
    held: dict[str, set[str]] = {}
    for heir in living_heirs(state):
        player = heir_player(state, heir)
        if player is not None:
            held.setdefault(player, set()).add(house_of(state, heir))
    both = dict(state.both)
    for player in state.names:
        if len(held.get(player, ())) == 2:
            both.setdefault(player, state.own.get(player, 0) + 2)
        else:
            both.pop(player, None)
    return evolve(state, both=both) if both != state.both else state


# What _waiting_towns reads, placing a town card through eligible_nobles.
TOWN_READS = ("names", "cards", "box", "control", "nobles", "sieges", "ships", "options",
              "duties")


def _waiting_towns(state: State) -> State:
    """R-53: a town card kept in hand is placed as soon as a noble may take it."""
    return _place_waiting_towns(state) if _towns_in_hand(hands(state.cards), state.box) \
        else state


@quiet_while_same(*TOWN_READS)
def _place_waiting_towns(state: State) -> State:
    for player in state.names:
        for card in state.hand(player):
            if state.kind(card) == "town":
                state = place_town(state, card, player)
    return state


@recalled
def _towns_in_hand(known: Mapping[str, tuple[str, ...]], box: Box) -> bool:
    """Whether any hand (`known`, the hands of `placed`) may hold a town card (a card of no
    entry: the loop will say)."""
    for held in known.values():
        for card in held:
            entry = box.crown_card(card)
            if entry is None or entry.kind == "town":
                return True
    return False


def _hand_limits(state: State) -> State:
    """§5.3: more than two crown cards in hand must at once be played or discarded to two."""
    if _hands_within_limit(hands(state.cards), state.hidden, state.names) and \
            not (state.duties and any(d.kind == "discard" for d in state.duties)):
        return state  # no discard to add, none to drop
    return _enforce_hand_limits(state)


@recalled
def _hands_within_limit(known: Mapping[str, tuple[str, ...]], hidden: Mapping[str, int],
                        names: tuple[str, ...]) -> bool:
    """Whether every player's hand (State.hand_size: `known`, the hands of `placed`, and the
    `hidden` cards) holds two cards or fewer. Keyed by the hands, not every card: a card laid
    out or moved between nobles leaves them."""
    return all(len(known.get(player, ())) + hidden.get(player, 0) <= 2 for player in names)


@quiet_while_same("duties", "hidden", "cards", "names")
def _enforce_hand_limits(state: State) -> State:
    kept = tuple(d for d in state.duties if d.kind != "discard" or
                 state.hand_size(str(d.player)) > 2)
    if kept != state.duties:
        state = evolve(state, duties=kept)
    for player in state.names:
        if state.hand_size(player) > 2 and not any(
                d.kind == "discard" and d.player == player for d in state.duties):
            state = add_duty(state, Duty("discard", player))
    return state


def _no_elimination(state: State) -> State:
    """§9: a faction with no noble is dealt crown cards one at a time until a noble comes."""
    if _owners(state.nobles).issuperset(state.names):  # every seat has a noble
        return state
    owners = _owners(state.nobles)
    for player in state.playing:
        if player not in owners and not any(d.kind in ("deal", "layout") and
                                                 d.player == player for d in state.duties) \
                and deck_size(rebuild_deck(state)) > 0:
            state = add_duty(state, Duty("deal", player))
    return state


def _owners(nobles: Mapping[str, NobleState]) -> frozenset[str]:
    """The players with a noble in play."""
    return _players_of(noble_owners(nobles))


@recalled
def _players_of(owners: Mapping[str, str]) -> frozenset[str]:
    return frozenset(owners.values())


def _auto_advance(state: State) -> State:
    if state.duties or state.combat is not None or state.time_up:
        return state
    if state.stage == CHANCE and state.event_drawn:
        return advance(state)
    if state.stage == CORONATION and not coronations(state):
        return advance(state)
    return state


def _complete_victory(state: State) -> State:
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
