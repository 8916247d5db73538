"""Random seeded games played through `random_event` to the end: replay, notation round trip,
card conservation, legal moves that apply, and no false revoke when the hands are unknown."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import log as logfile
from referee.engine import Event, Player, apply_event
from referee.errors import MoveError
from referee.games.dwarf_king import GAME
from referee.replay import replay_events
from referee.simulate import play_out, to_log

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")


def players(n):
    return tuple(Player(name) for name in NAMES[:n])


def check_state(state, events_so_far, seat_players, options, seed, rng):
    """The invariants every state must keep."""
    assert sum(GAME.inventory(state).values()) == 53
    legal = GAME.legal(state)
    for event in rng.sample(legal, min(len(legal), 6)):
        text = GAME.format(state, event)
        assert GAME.parse(state, text, event.by) == event, text
        apply_event(GAME, state, event, seat_players)  # legal() and apply agree
    assert GAME.option_lines(state, legal) or not legal


def test_seeded_playouts_keep_every_invariant():
    rng = random.Random(1)
    for seed, n, edition in ((1, 3, 2011), (2, 4, 2022), (3, 5, 2011)):
        options = GAME.check_options({"edition": edition})
        seats = players(n)
        play = play_out(GAME, seed, list(seats), options)
        assert play.finished
        assert GAME.notices(play.state) == ()
        state = GAME.setup(seats, options, seed)
        for index, event in enumerate(play.events):
            if index % 7 == 0:
                check_state(state, play.events[:index], seats, options, seed, rng)
            before, state = state, apply_event(GAME, state, event, seats)
            assert GAME.describe(before, event, state)
        assert state == play.state
        assert replay_events(GAME, seats, options, seed, play.events) == play.state


def as_typed_without_a_deal(events):
    """A seeded game's events as a table with its own cards types them: the Flag Bearer's swap
    in one move with both pairs (R-22 makes it two, `swap` then `give`, only in a hand the tool
    dealt)."""
    events = list(events)
    for index, event in enumerate(events):
        if event.type == "give":
            continue
        if event.type == "swap" and event.get("given") is None and event.get("taken"):
            given = events[index + 1]
            assert given.type == "give"
            event = Event("swap", event.by, tuple(sorted(
                dict(event.fields, given=given["cards"]).items())))
        yield event


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.sampled_from((3, 4, 5)),
       edition=st.sampled_from((2011, 2022)))
def test_no_false_revoke_when_the_hands_are_unknown(seed, n, edition):
    """Replaying a legal game without the seed: the referee sees only the cards played, records
    voids, and must never report a revoke; the scores are the same."""
    options = GAME.check_options({"edition": edition})
    seats = players(n)
    play = play_out(GAME, seed, list(seats), options)
    blind = replay_events(GAME, seats, options, None, as_typed_without_a_deal(play.events))
    assert GAME.notices(blind) == ()
    assert blind.results == play.state.results and blind.over
    assert GAME.score(blind) == GAME.score(play.state)


def test_blind_states_offer_legal_moves_that_apply_and_round_trip():
    rng = random.Random(5)
    seats = players(4)
    options = GAME.check_options({})
    play = play_out(GAME, 21, list(seats), options)
    state = GAME.setup(seats, options, None)
    for index, event in enumerate(play.events[:250]):
        if index % 5 == 0:
            check_state(state, (), seats, options, None, rng)
            assert event in GAME.legal(state) or event.type in ("swap", "sorcerer")
        state = apply_event(GAME, state, event, seats)


def test_a_simulated_game_is_a_valid_log():
    seats = players(3)
    play = play_out(GAME, 9, list(seats), GAME.check_options({}))
    text = logfile.dumps(to_log(GAME, play))
    back = logfile.parse(text)
    events = tuple(entry.event for entry in back.entries)
    assert events == tuple(play.events)
    assert replay_events(GAME, back.players, back.options, back.seed, events) == play.state


WORDS = ["special", "hand", "quest", "swap", "take", "give", "leader", "play", "trade", "pass",
         "left", "right", "Sorcerer", "Dragon", "Druid", "flag", "K7", "7K", "DQ", "G10", "D2",
         "K11", "D1", "4a", "21b", "a", "b", "Ann", "Ben", "Cat", "Zed", ",", "and", ""]


def fuzz_states():
    seats = players(3)
    options = GAME.check_options({})
    play = play_out(GAME, 4, list(seats), options)
    out = []
    for seed in (4, None):  # the tool's deal, and the same game with unknown hands
        state = GAME.setup(seats, options, seed)
        for index, event in enumerate(play.events[:120]):
            if index % 9 == 0:
                out.append(state)
            state = apply_event(GAME, state, event, seats)
    return seats, out


FUZZ_SEATS, FUZZ_STATES = fuzz_states()


@settings(max_examples=150, deadline=None)
@given(index=st.integers(0, len(FUZZ_STATES) - 1),
       text=st.one_of(st.text(max_size=30), st.lists(st.sampled_from(WORDS), max_size=7)
                      .map(" ".join)),
       who=st.sampled_from((None, "Ann", "Ben", "Cat")))
def test_fuzzed_moves_end_in_clean_errors(index, text, who):
    state = FUZZ_STATES[index]
    try:
        event = GAME.parse(state, text, who)
        apply_event(GAME, state, event, FUZZ_SEATS)
    except MoveError:
        pass
