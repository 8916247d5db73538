"""Kingmaker keeps what it derives from a state while the fields it reads are the same objects
(state.py): the helpers themselves, and a replay that agrees with one made of fresh objects."""

from __future__ import annotations

import copy

from referee.engine import apply_event, load_game
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.state import (
    NobleState,
    State,
    moved_cards,
    placed,
    placed_afresh,
    quiet_while_same,
    recalled,
    recalled_by,
    recalled_on,
)
from referee.simulate import default_players, play_out
from referee.values import fields


class Thing:
    def __init__(self, a: object, b: object) -> None:
        self.a, self.b = a, b


def test_recalled_computes_again_only_for_other_objects():
    calls = []

    @recalled
    def size(items):
        calls.append(items)
        return len(items)

    first, equal = [1, 2], [1, 2]
    assert size(first) == 2 and size(first) == 2 and calls == [first]
    assert size(equal) == 2 and len(calls) == 2  # equal but distinct: computed again
    assert size(first) == 2 and len(calls) == 3  # one result is kept, the last


def test_recalled_of_several_arguments_tests_each_by_identity():
    calls = []

    @recalled
    def pair(a, b):
        calls.append((a, b))
        return len(a) + len(b)

    @recalled
    def three(a, b, c):
        calls.append((a, b, c))
        return len(a) + len(b) + len(c)

    a, b, c, same_as_b = [1], [2, 3], [4], [2, 3]
    assert pair(a, b) == 3 and pair(a, b) == 3 and len(calls) == 1
    assert pair(a, same_as_b) == 3 and len(calls) == 2  # equal but distinct: computed again
    assert pair(b, a) == 3 and len(calls) == 3
    assert three(a, b, c) == 4 and three(a, b, c) == 4 and len(calls) == 4
    assert three(a, b, same_as_b) == 5 and len(calls) == 5
    assert three(a, b, same_as_b) == 5 and len(calls) == 5


def test_recalled_on_and_by_read_only_their_key():
    calls = []

    @recalled_on("a")
    def of_a(thing):
        calls.append(thing)
        return thing.a

    @recalled_by(lambda thing: (thing.b,))
    def of_b(thing):
        calls.append(thing)
        return thing.b

    a, b = object(), object()
    assert of_a(Thing(a, 1)) is a and of_a(Thing(a, 2)) is a and len(calls) == 1
    assert of_b(Thing(3, b)) is b and of_b(Thing(4, b)) is b and len(calls) == 2
    assert of_a(Thing(object(), 1)) is not a and len(calls) == 3


def test_quiet_while_same_skips_a_step_only_after_it_had_nothing_to_do():
    runs = []

    @quiet_while_same("a")
    def step(thing):
        runs.append(thing)
        return thing if thing.b == "quiet" else Thing(thing.a, "quiet")

    a = object()
    busy = Thing(a, "busy")
    assert step(busy) is not busy and len(runs) == 1  # it did something: nothing recorded
    assert step(Thing(a, "busy")).b == "quiet" and len(runs) == 2
    quiet = Thing(a, "quiet")
    assert step(quiet) is quiet and len(runs) == 3
    later = Thing(a, "busy")  # reads only `a`, by its declaration: skipped
    assert step(later) is later and len(runs) == 3
    other = Thing(object(), "quiet")
    assert step(other) is other and len(runs) == 4


def same_realm(one: State, other: State) -> bool:
    """Every field equal (the box by its entries: two boxes compare by their entries)."""
    return one.box.entries == other.box.entries and all(
        getattr(one, f.name) == getattr(other, f.name) for f in fields(State)
        if f.name != "box")


def derived(state: State) -> tuple[object, ...]:
    return ([(rules.strength(state, n), state.cards_of(n)) for n in state.nobles],
            rules.guards(state), rules.living_heirs(state), rules.kings(state),
            rules.sole_king(state), dict(rules.noble_owners(state.nobles)),
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
        kept, fresh = placed(state.cards), placed_afresh(dict(state.cards))
        assert kept.at == fresh.at and kept.order == fresh.order
        assert (kept.holdings, kept.hands, kept.dealt) == (fresh.holdings, fresh.hands,
                                                           fresh.dealt)


def test_cards_moved_by_name_are_sorted_out_as_a_fresh_pass_would():
    """`moved_cards` names the cards a move touches, and `placed` derives the new lists from
    those alone: after one move, after moves chained before anything is sorted out, after a
    card moved and moved back, from cards that were not the last sorted out, and with a card
    new to the mapping (no shortcut)."""
    cards = {f"C{i}": ("deck" if i % 3 else f"noble:N{i % 4}") for i in range(30)}

    def agrees(mapping: dict[str, str]) -> None:
        kept, fresh = placed(mapping), placed_afresh(dict(mapping))
        assert (kept.at, kept.holdings, kept.hands, kept.dealt, kept.order) == \
            (fresh.at, fresh.holdings, fresh.hands, fresh.dealt, fresh.order)

    agrees(cards)
    one = moved_cards(cards, {"C1": "hand:Ann"})
    assert cards["C1"] == "deck" and one["C1"] == "hand:Ann"  # the given mapping is not changed
    agrees(one)
    two = moved_cards(one, {"C2": "noble:N1", "C4": "dealt:Ben"})
    three = moved_cards(two, {"C2": "deck", "C5": "hand:Ann"})  # chained, C2 back where it was
    agrees(three)
    agrees(moved_cards(one, {"C7": "hand:Cat"}))  # made from cards sorted out before the last
    agrees(moved_cards(three, {"C99": "deck"}))  # a card new to the mapping
    many = moved_cards(three, {f"C{i}": "discard" for i in range(10, 20)})
    agrees(many)


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
    """A noble moved keeps `noble_owners` the same object (what is recalled by it stands); a
    card drawn into a hand (no noble takes one) keeps the nobles' holdings the same object."""
    game = load_game("kingmaker")
    playout = play_out(game, 3, default_players(game, 4))
    state = game.setup(playout.players, game.default_options(), playout.seed)
    moved = drawn = 0
    for event in playout.events:
        after = apply_event(game, state, event, playout.players)
        owners = rules.noble_owners(state.nobles)
        if after.nobles is not state.nobles and {n: s.owner for n, s in after.nobles.items()} \
                == {n: s.owner for n, s in state.nobles.items()}:
            assert rules.noble_owners(after.nobles) is owners
            moved += 1
        before_placed = placed(state.cards)
        shifted = [c for c in after.cards if after.cards[c] != state.cards.get(c)]
        if event.type == "draw" and list(after.cards) == list(state.cards) and not any(
                where.startswith("noble:") for c in shifted
                for where in (after.cards[c], state.cards[c])):
            assert placed(after.cards).holdings is before_placed.holdings
            drawn += 1
        state = after
    assert moved and drawn


def test_the_owners_after_moves_agree_with_a_fresh_look():
    """`nobles_moved` tells `noble_owners` that no owner changed: after one move, after moves
    chained before anyone asks, after nobles whose owners did change, and after a move from
    nobles that were not the last asked about, the owners are those a fresh look finds."""
    game = load_game("kingmaker")
    playout = play_out(game, 3, default_players(game, 4))
    state = game.setup(playout.players, game.default_options(), playout.seed)
    for event in playout.events:
        state = apply_event(game, state, event, playout.players)
        if len({s.owner for s in state.nobles.values()}) > 1:
            break

    def agrees(nobles: dict[str, NobleState]) -> dict[str, str]:
        owners = rules.noble_owners(nobles)
        assert owners == {n: s.owner for n, s in nobles.items()}
        assert rules._owners(nobles) == frozenset(owners.values())
        return owners

    def moved(state: State, noble: str, to: str) -> State:
        return evolve(state, nobles=rules.nobles_moved(state, [noble], to))

    first, second = list(state.nobles)[:2]
    owners = agrees(state.nobles)
    one = moved(state, first, "sq:X")
    assert agrees(one.nobles) is owners  # the same owners, not gathered again
    three = moved(moved(one, second, "sq:Y"), first, "sq:Z")  # chained, nobody asked between
    assert agrees(three.nobles) is owners
    other = next(p for p in state.names if p != state.nobles[first].owner)
    changed = evolve(three, nobles={**three.nobles,
                                    first: NobleState(other, three.nobles[first].at)})
    agrees(changed.nobles)  # not a move: its owners are looked at
    agrees(moved(changed, second, "sq:W").nobles)
    agrees(moved(one, second, "sq:V").nobles)  # from nobles asked about before the change


def test_the_friendly_snapshot_is_friendly_for_every_place_of_known_kind():
    """§8.2: the snapshot taken at the start of a movement phase holds the places `friendly`
    finds friendly now, among those of known kind, with grants or without."""
    game = load_game("kingmaker")
    playout = play_out(game, 3, default_players(game, 4))
    state = game.setup(playout.players, game.default_options(), playout.seed)
    for event in playout.events:
        state = apply_event(game, state, event, playout.players)
        known = [p.name for p in state.box.of("place") if p.get("kind") is not None]
        if not known or not state.in_play:
            continue
        grants = frozenset({(known[0], state.names[0]), (known[-1], state.names[1])})
        for player in state.names:
            for given in (None, frozenset(), grants):
                granted = state if given is None else evolve(state, grants=given)
                assert rules.friendly_snapshot(state, player, given) == frozenset(
                    p for p in known if rules.friendly(granted, player, p))
