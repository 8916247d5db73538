"""Random legal games, for every game: replay, the notation round trip, conservation, legality.

These are properties of the protocol, so they run over every registered game alike.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee import engine
from referee import log as logfile
from referee.derived import table, verify
from referee.engine import apply_event, available_game_ids, load_game
from referee.errors import IllegalMove
from referee.replay import from_table, replay_events, replay_log
from referee.simulate import MAX_EVENTS, default_players, play_out, to_log
from referee.values import fields

SEEDS = range(12)
SAMPLE = 25  # legal events re-checked per visited state (all of them when fewer)


def typed(game, state, event) -> str:
    """An event as typed: as `options` offers it (what the tool fills in from a hidden hand
    left out, King of the Castle's lost card), a seal in full (`play` makes it unseen)."""
    if game.events[event.type].sealed:
        return game.format(state, event)
    return game.option_text(state, event)


def tool_picked(game, state, event) -> str | None:
    """The history forms that are not typed back, with the code of their refusal: King of the
    Castle's Unexpected Loss in a game the tool deals names the card it picked, which a player
    never names (R-25, R-28); in a --shuffle King's Ear game the tool draws, and a named draw
    is refused whatever the card (so that no refusal tells the next card)."""
    if game.id == "king-of-the-castle" and state.dealt and event.type == "play" \
            and event["card"] == "Unexpected Loss":
        return "not-the-pick"
    if game.id == "kings-ear" and state.deck is not None and event.type == "draw":
        return "tool-draws"
    return None


def assert_round_trips(game, state, event) -> None:
    """The event parses back from its history form (`format`) and from the form `options`
    offers; a tool-picked card's history form is refused, whatever the card."""
    history = game.format(state, event)
    picked = tool_picked(game, state, event)
    if picked:
        with pytest.raises(IllegalMove) as refused:
            game.parse(state, history, event.by)
        assert refused.value.code == picked, history
    else:
        assert game.parse(state, history, event.by) == event, history
    assert game.parse(state, typed(game, state, event), event.by) == event, history


def visited_states(game, playout):
    state = game.setup(playout.players, game.default_options(), playout.seed)
    for event in playout.events:
        yield state, event
        state = apply_event(game, state, event, playout.players)


@pytest.mark.parametrize("game_id", available_game_ids())
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_properties(game_id, seed):
    game = load_game(game_id)
    players = default_players(game, None)
    playout = play_out(game, seed, players)
    assert playout.finished, f"{game_id} seed {seed} did not finish"
    rng = random.Random(seed)
    total = None
    for index, (state, event) in enumerate(visited_states(game, playout)):
        # The event actually played parses back from its history form and as typed.
        assert_round_trips(game, state, event)
        # Every piece is somewhere, and nothing appears or vanishes.
        inventory = sum(game.inventory(state).values())
        total = inventory if total is None else total
        assert inventory == total
        if index % 3:
            continue
        legal = game.legal(state)
        assert legal, f"{game_id}: nobody can act in a state that is not finished"
        for candidate in rng.sample(legal, min(SAMPLE, len(legal))):
            apply_event(game, state, candidate, players)  # every listed option applies
            assert_round_trips(game, state, candidate)
    # Replay from the log equals the state reached by playing.
    log = logfile.parse(logfile.dumps(to_log(game, playout)))
    assert replay_log(log)[1] == playout.state
    assert replay_events(game, players, game.default_options(), seed,
                         playout.events) == playout.state
    assert game.legal(playout.state) == []


@pytest.mark.parametrize("game_id", available_game_ids())
def test_scoresheet_of_a_finished_random_game_has_places(game_id):
    game = load_game(game_id)
    playout = play_out(game, 99, default_players(game, None))
    sheet = game.score(playout.state)
    places = [r.place for r in sheet.rows if r.name is not None]
    assert sheet.finished and sheet.winners and 1 in places
    assert all(p is not None and p >= 1 for p in places)


@pytest.mark.parametrize("game_id", available_game_ids())
def test_the_cheap_turn_check_agrees_with_to_act(game_id):
    game = load_game(game_id)
    playout = play_out(game, 5, default_players(game, None))
    state = playout.setup.state
    for event in playout.events + [None]:
        assert game.acting(state) == game.to_act(state).players
        if event is not None:
            state = apply_event(game, state, event, playout.players)


# Derived values (referee.derived): what a state keeps is what it would work out afresh

SELFCHECKED = ("kings-ear", "king-of-the-valley", "dwarf-king", "king-of-the-castle")
SELFCHECK_GAMES = 12  # per game, half of them physical (no seed): a few seconds each


def holders(value, depth=4):
    """`value` and the values inside it (fields, tuples of them) whose class declares derived
    values, or may hold values that do (the core checks the state alone)."""
    if depth and "__value_fields__" in type(value).__dict__:
        if table(type(value)):
            yield value
        for spec in fields(type(value)):
            yield from holders(getattr(value, spec.name), depth - 1)
    elif depth and isinstance(value, tuple):
        for item in value:
            yield from holders(item, depth - 1)


@pytest.mark.parametrize("game_id", SELFCHECKED)
def test_kept_derived_values_are_what_they_work_out_to(game_id, monkeypatch):
    """Random games with REFEREE_SELFCHECK on: before each event every derived value of the
    state (and of the values in it) is worked out, so that the next state carries what its
    declaration lets it carry; after it the core compares what the new state keeps with the
    value worked out afresh, as this test does for the values inside the state."""
    monkeypatch.setattr(engine, "SELFCHECK", True)
    game = load_game(game_id)
    players = default_players(game, None)
    compared: Counter[str] = Counter()
    declared = set()
    for number in range(SELFCHECK_GAMES):
        setup = from_table(game, players, game.default_options(), number if number % 2 else None)
        rng, state = random.Random(number), setup.state
        for _ in range(MAX_EVENTS):
            for holder in holders(state):
                for item in table(type(holder)).values():
                    declared.add(f"{type(holder).__name__}.{item.name}")
                    item(holder)
            event = None if game.finished(state) else game.random_event(state, rng)
            if event is None:
                break
            state = apply_event(game, state, event, setup.players)
            for holder in holders(state):
                verify(holder)
                compared.update(f"{type(holder).__name__}.{item.name}"
                                for item in table(type(holder)).values()
                                if item.key in vars(holder))
        assert game.finished(state), f"{game_id} game {number} did not finish"
    # Every value is carried to a later state and compared there; but the valley's summons
    # read almost everything an event changes (only a `pass`, rare, leaves them standing).
    assert declared and set(compared) | NEVER_CARRIED >= declared, declared - set(compared)


NEVER_CARRIED = {"State.summons"}
