"""Kingmaker's derived values (referee.derived, declared in state.py and rules/): a replay that
keeps them from event to event agrees with one made of fresh objects, `placed` brought up to
date from the last state's agrees with a fresh sorting, and the finer values (the owners, the
holdings) stay the same objects through events that leave them."""

from __future__ import annotations

import copy
from operator import ne
from pathlib import Path

import pytest

from referee import engine, replay
from referee import log as logfile
from referee.engine import apply_event, load_game
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.events.deal import dealt_cards, still_dealt
from referee.games.kingmaker.rules.heirs import _guards
from referee.games.kingmaker.rules.strengths import _strength, _strengths
from referee.games.kingmaker.state import (
    FEW_MOVED, State, holdings, moved_cards, placed, placed_afresh)
from referee.simulate import default_players, play_out
from referee.values import fields

GOLDEN = Path(__file__).parent / "golden" / "kingmaker"


def same_realm(one: State, other: State) -> bool:
    """Every field equal (the box by its entries: two boxes compare by their entries)."""
    return one.box.entries == other.box.entries and all(
        getattr(one, f.name) == getattr(other, f.name) for f in fields(State)
        if f.name != "box")


def derived(state: State) -> tuple[object, ...]:
    return ([(rules.strength(state, n), state.cards_of(n)) for n in state.nobles],
            rules.guards(state), rules.living_heirs(state), rules.kings(state),
            rules.sole_king(state), dict(rules.noble_owners(state)),
            [rules.at_location(state, s.at) for s in state.nobles.values()],
            rules._heirs_at_rest(state), [rules.friendly_snapshot(state, p) for p in state.names])


def test_a_replay_agrees_with_fresh_objects_at_every_event():
    """A replay, with what it kept from event to event, makes the states (and derives the
    values) that each event makes from fresh objects (deep copies), which nothing was kept for."""
    game = load_game("kingmaker")
    playout = play_out(game, 3, default_players(game, 4))  # sieges in most of its states
    states = [game.setup(playout.players, game.default_options(), playout.seed)]
    seen = []
    for event in playout.events:
        states.append(apply_event(game, states[-1], event, playout.players))
        seen.append(derived(states[-1]))
    for before, event, after, values in zip(states, playout.events, states[1:], seen):
        fresh = apply_event(game, copy.deepcopy(before), event, playout.players)
        assert same_realm(after, fresh)
        assert values == derived(fresh)


def test_where_the_cards_lie_derived_from_the_last_agrees_with_a_fresh_sorting():
    """Most events move one card: `placed` derives the new lists from the last ones; they are
    the lists a fresh pass makes, in `cards` order."""
    game = load_game("kingmaker")
    playout = play_out(game, 3, default_players(game, 4))
    state = game.setup(playout.players, game.default_options(), playout.seed)
    for event in playout.events:
        state = apply_event(game, state, event, playout.players)
        kept, fresh = placed(state), placed_afresh(dict(state.cards))
        assert kept.at == fresh.at and kept.order == fresh.order
        assert (kept.holdings, kept.hands, kept.dealt) == (fresh.holdings, fresh.hands,
                                                           fresh.dealt)


def test_the_heirs_standing_follows_beaufort_into_play():
    """8.2: with the Lancastrian line dead, Beaufort is an heir while in play; the heirs and
    lines are the same objects before and after he comes, his coming alone decides."""
    game = load_game("kingmaker")
    playout = play_out(game, 3, default_players(game, 4))
    state = game.setup(playout.players, game.default_options(), playout.seed)
    for event in playout.events[:60]:
        state = apply_event(game, state, event, playout.players)
    for heir in state.lines["lancaster"]:
        state = rules.heir_dies(state, heir, "a test")
    if rules.BEAUFORT in state.nobles:
        state = rules.noble_dies(state, rules.BEAUFORT, "a test", heirs_to=None)
    assert rules.BEAUFORT not in rules.living_heirs(state)
    came = rules.enter_noble(state, rules.BEAUFORT, state.active, placed=False)
    assert came.heirs is state.heirs and came.lines is state.lines
    assert rules.BEAUFORT in rules.living_heirs(came)
    assert rules.BEAUFORT not in rules.living_heirs(state)


def test_the_owners_and_the_holdings_outlive_moves_that_leave_them():
    """A noble moved keeps `noble_owners` the same object (what is derived from it stands); a
    card drawn into a hand (no noble takes one) keeps the nobles' holdings the same object."""
    game = load_game("kingmaker")
    playout = play_out(game, 3, default_players(game, 4))
    state = game.setup(playout.players, game.default_options(), playout.seed)
    moved = drawn = 0
    for event in playout.events:
        owners = rules.noble_owners(state)  # asked before the event, as the rules ask
        before_placed = placed(state)
        after = apply_event(game, state, event, playout.players)
        if after.nobles is not state.nobles and {n: s.owner for n, s in after.nobles.items()} \
                == {n: s.owner for n, s in state.nobles.items()}:
            assert rules.noble_owners(after) is owners
            moved += 1
        shifted = [c for c in after.cards if after.cards[c] != state.cards.get(c)]
        if event.type == "draw" and list(after.cards) == list(state.cards) and not any(
                where.startswith("noble:") for c in shifted
                for where in (after.cards[c], state.cards[c])):
            assert holdings(after) is before_placed.holdings
            drawn += 1
        state = after
    assert moved and drawn


def test_cards_moved_are_sorted_out_as_a_fresh_pass_would():
    """`placed` of a state whose cards moved is brought up to date from the last state's: after
    one move, after moves chained before anyone asks, after a card moved and moved back, with
    a card new to the mapping, and with many moved (sorted afresh)."""
    game = load_game("kingmaker")
    playout = play_out(game, 3, default_players(game, 4))
    state = playout.state
    deck = [c for c, where in state.cards.items() if where == "deck"]

    def agrees(realm: State) -> State:
        kept, fresh = placed(realm), placed_afresh(dict(realm.cards))
        assert (kept.at, kept.holdings, kept.hands, kept.dealt, kept.order) == \
            (fresh.at, fresh.holdings, fresh.hands, fresh.dealt, fresh.order)
        return realm

    def moved(realm: State, moves: dict[str, str]) -> State:
        return evolve(realm, cards=moved_cards(realm.cards, moves))

    agrees(state)
    one = agrees(moved(state, {deck[0]: "hand:Ann"}))
    assert state.cards[deck[0]] == "deck"  # the last state's mapping is not changed
    two = moved(one, {deck[1]: "noble:N1", deck[2]: "dealt:Ben"})
    agrees(moved(two, {deck[1]: "deck", deck[3]: "hand:Ann"}))  # chained, one moved back
    agrees(moved(one, {"Nobody's card": "deck"}))  # a card new to the mapping
    agrees(moved(one, dict.fromkeys(deck[4:14], "discard")))


def test_strengths_brought_up_to_date_follow_royal_guards():
    """`_strengths` from the last state's works out again only the nobles a change touches,
    a noble who gained or lost a Royal Guard (R-44) among them: asked at every event of a game
    whose Royal Guards change hands, it agrees with every strength worked out afresh."""
    game = load_game("kingmaker")
    playout = play_out(game, 24, default_players(game, 4))  # the Guards change hands 4 times
    state = game.setup(playout.players, game.default_options(), playout.seed)
    handed = 0
    for event in playout.events:
        before, state = state, apply_event(game, state, event, playout.players)
        if state.nobles:
            assert _strengths(state) == {n: _strength(state, n) for n in state.nobles}, event
            handed += bool(before.nobles) and _guards(state) != _guards(before)
    assert handed


def test_strengths_brought_up_to_date_follow_a_ship_that_sails():
    """A noble aboard a ship stands where the ship lies: when it sails to a port of other
    bonus regions, his strength kept from the last state is worked out again (R-4)."""
    game = load_game("kingmaker")
    playout = play_out(game, 3, default_players(game, 4))
    state = game.setup(playout.players, game.default_options(), playout.seed)
    for event in playout.events[:80]:
        state = apply_event(game, state, event, playout.players)
    ports = [e.name for e in state.box.of("place") if e.flag("port")]
    changed = 0
    for ship in state.ships:
        for noble in state.nobles:
            aboard = evolve(state, nobles={**state.nobles, noble: evolve(
                state.nobles[noble], at=f"aboard:{ship}")})
            kept = _strengths(aboard)[noble]
            for port in ports:
                sailed = evolve(aboard, ships={**aboard.ships, ship: evolve(
                    aboard.ships[ship], at=f"port:{port}")})
                assert _strengths(sailed)[noble] == _strength(sailed, noble)
                changed += _strength(sailed, noble) != kept
    assert changed  # some port changed a strength: the test can tell


def test_the_cards_still_dealt_are_told_without_sorting_out_where_every_card_lies():
    """An assign asks whether its player has dealt cards left to lay out (`still_dealt`, from
    `cards` alone): at every state of the deal and the layout, what `dealt_cards` says."""
    game = load_game("kingmaker")
    playout = play_out(game, 3, default_players(game, 4))
    state = game.setup(playout.players, game.default_options(), playout.seed)
    told = []
    for event in playout.events:
        state = apply_event(game, state, event, playout.players)
        for player in state.names:
            told.append(still_dealt(state, player))
            assert told[-1] == bool(dealt_cards(state, player)), (event, player)
        if state.in_play:
            break
    assert True in told and False in told and state.in_play


def test_where_the_cards_lie_waiting_through_a_layout_agrees_with_a_fresh_sorting(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A layout's assigns move cards without asking where every card lies (`still_dealt`):
    `placed` waits with the last state's, several cards behind, and is brought up to date on
    first use. Asked on a copy at every state of a golden game's replay (the replay's own wait
    untouched, which neither REFEREE_SELFCHECK, off here, nor a test asking at every state
    leaves), it is a fresh sorting."""
    monkeypatch.setattr(engine, "SELFCHECK", False)  # it would ask `placed` after each event
    log = logfile.read(GOLDEN / "four-player-complete-victory.toml")
    setup = replay.from_log(log)
    behind = [0]
    for step in replay.steps(setup, log.entries, log.source):
        state = step.after
        waiting = state.__dict__.get(placed.derived.pending)
        if waiting is not None:
            last = waiting[1][0]
            behind.append(sum(map(ne, last.values(), state.cards.values())))
        kept, fresh = placed(copy.copy(state)), placed_afresh(dict(state.cards))
        assert (kept.at, kept.order, kept.holdings, kept.hands, kept.dealt) == (
            fresh.at, fresh.order, fresh.holdings, fresh.hands, fresh.dealt), step.entry
    assert max(behind) > FEW_MOVED  # it waited past a one-card update
