"""King of the Castle played at random: physical games (no seed: the referee sees only what a table
sees) and games the tool deals, with every option; every listed move applies, the canonical text
parses back, all 104 cards stay accounted for, seals open at the end. Then fuzzed move text and
hand-edited events in every phase end in clean errors."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.check import check_file
from referee.engine import Event, Player, apply_event
from referee.errors import IllegalMove, RefereeError
from referee.games.king_of_the_castle import GAME
from referee.games.king_of_the_castle.components import CARD, POST_TITLES
from referee.replay import replay_events
from tests.conftest import GOLDEN, assert_handled
from tests.test_playouts import assert_round_trips

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
OPTIONS = ({}, {"squires": "hand", "duplicate_letters": "each"},
           {"squires": "random", "personality_order": "alphabetical", "hand_limit": 0},
           {"hand_limit": 6})


def players(n: int) -> tuple[Player, ...]:
    return tuple(Player(name) for name in NAMES[:n])


def play(seed: int | None, n: int, options: dict, rng: random.Random, check: bool = True):
    """A random game to its end; the states it went through."""
    seats = players(n)
    state = GAME.setup(seats, options, seed)
    states, events = [], []
    while not GAME.finished(state):
        event = GAME.random_event(state, rng)
        assert event is not None, GAME.to_act(state)
        if check:
            assert_round_trips(GAME, state, event)
            assert sum(GAME.inventory(state).values()) == 104
        states.append(state)
        state = apply_event(GAME, state, event, seats)
        events.append(event)
        assert len(events) < 3000
    return states, events, state


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("options", OPTIONS, ids=("secret", "hand", "random-alpha", "limit6"))
def test_physical_random_games_keep_every_rule(seed, options):
    rng = random.Random(seed)
    n = 2 + seed % 5
    states, events, final = play(None, n, options, rng)
    assert GAME.finished(final) and final.ending
    for state in states[::4]:
        for candidate in rng.sample(GAME.legal(state), min(12, len(GAME.legal(state)))):
            apply_event(GAME, state, candidate, players(n))
            assert GAME.parse(state, GAME.format(state, candidate), candidate.by) == candidate
    assert replay_events(GAME, players(n), options, None, events) == final
    sheet = GAME.score(final)
    assert sheet.finished and sheet.winners


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("options", OPTIONS[:1] + OPTIONS[2:], ids=("secret", "random-alpha",
                                                                     "limit6"))
def test_dealt_random_games_end_with_every_seal_open(seed, options):  # not squires=hand: R-29
    rng = random.Random(seed)
    states, events, final = play(seed, 2 + (seed * 3) % 5, options, rng)
    assert all(o is not None for o in final.opened)
    phases = {GAME.phase(s) for s in states}
    assert phases >= {"play", "open"}
    if options.get("hand_limit") == 6:  # nobody ever holds more than 6
        assert "discard" not in phases


def test_a_physical_game_sees_every_phase():
    seen = set()
    for seed in range(6):
        states, _, _ = play(None, 3, {}, random.Random(seed), check=False)
        seen |= {GAME.phase(s) for s in states}
    assert seen == {"seal", "setup", "play", "extra", "sudden", "reply", "deal", "discard",
                    "open"}


# ---- fuzz -------------------------------------------------------------------------------------

def fuzz_states():
    out = []
    for seed, options in ((1, {}), (None, {}), (None, {"squires": "hand"}), (2, {})):
        rng = random.Random(seed or 3)
        states, _, final = play(seed, 3, options, rng, check=False)
        out += states[::5] + [final]
    return out


STATES = fuzz_states()
WORDS = ["squires", "reveal", "play", "pass", "reply", "discard", "open", "letters", "plague",
         "castle", "kill", "lord", "seneschal", "master", "king", "town", "lucky-escape",
         "not-that-bad", "domain-2", "recycle", "timely-repairs", "loses", "Ann", "Ben", "Zed",
         "1", "2", "4", "Q", "A", "ZZ", ",", "and", "sha256:00", "0000-0000-0000", ""]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(STATES) - 1),
       text=st.one_of(st.text(max_size=30), st.lists(st.sampled_from(WORDS), max_size=8)
                      .map(" ".join)),
       who=st.sampled_from((None, "Ann", "Ben", "Cat")))
def test_fuzzed_moves_end_in_clean_errors(index, text, who):
    state = STATES[index]
    try:
        event = GAME.parse(state, text, who or GAME.default_player(state))
        apply_event(GAME, state, event, players(3))
    except RefereeError as exc:
        assert exc.message


VALUES = {
    "str": st.sampled_from(["Plague", "Domain 2", "Lucky Escape", "Not That Bad", "Recycle",
                            "Ann", "Ben", "Zed", "Lord 2", "King", "Bishop", "Domain", "Glory",
                            "", "sha256:" + "0" * 64, *CARD, *POST_TITLES]),
    "int": st.integers(-2, 5),
    "str[]": st.lists(st.sampled_from(["Lord", "Seneschal", "Master at Arms", "A", "Q", "ZZ",
                                       "Plague", "Domain 1"]), max_size=4),
}


@st.composite
def hand_edited(draw):
    etype = draw(st.sampled_from([e for e in GAME.events]))
    fields = {name: draw(VALUES.get(kind, st.just(None)))
              for name, kind in etype.fields.items()
              if name not in etype.optional or draw(st.booleans())}
    return Event.make(etype.name, draw(st.sampled_from((None, "Ann", "Ben", "Cat"))), **fields)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(STATES) - 1), event=hand_edited())
def test_hand_edited_events_end_in_clean_errors(index, event):
    state = STATES[index]
    try:
        apply_event(GAME, state, event, players(3))
    except IllegalMove as exc:
        assert exc.message
    GAME.format(state, event)  # `undo` and `history` show any logged event


GOLDEN_LOG = (GOLDEN / "king-of-the-castle" / "three-player.toml").read_text(encoding="utf-8")
EDITS = ['card = "Plague"\n', 'castle = 4\n', 'post = "Bishop"\n', 'type = "reply"\n',
         'letters = ["A", "A"]\n', 'saves = "King"\n', 'kill = ["Lord"]\n', 'by = "Zed"\n',
         'seal = "sha256:00"\n', 'type = "open"\n', 'receipt = "x"\n']


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cuts=st.integers(1, 4))
def test_mutated_logs_end_in_clean_errors(tmp_path_factory, seed, cuts):
    rng = random.Random(seed)
    text = GOLDEN_LOG
    for _ in range(cuts):
        at = rng.randrange(len(text))
        at = text.rfind("\n", 0, at) + 1  # at a line start, where a field could stand
        text = text[:at] + rng.choice(EDITS) + text[at:] if rng.random() < 0.7 else \
            text[:at] + text[at + rng.randint(1, 40):]
    path = tmp_path_factory.mktemp("kotc") / "g.toml"
    path.write_text(text, encoding="utf-8")
    report = check_file(path)  # never raises: every problem is a finding
    assert_handled(report)


@pytest.mark.parametrize("seed", (None, 7))
def test_what_an_event_recalls_is_what_it_would_compute(seed):
    """The phase each state keeps (carried from the state before while its fields stand), and
    a turn's draw taken at once, are what the state gives when asked afresh, at every event of
    a random game."""
    from referee.games.king_of_the_castle import rules

    rng = random.Random(3)
    states, _, final = play(seed, 4, {}, rng, check=False)
    for before, after in zip(states, states[1:] + [final]):
        assert rules.phase(before) == rules.phase.afresh(before) == rules.phase(before)
        assert rules.phase(after) == rules.phase.afresh(after)
        for hand in before.hands:
            drawn = tuple(rng.choice([None, *CARD]) for _ in range(rng.randrange(4)))
            one_by_one = hand
            for card in drawn:
                one_by_one = one_by_one.with_card(card)
            assert hand.with_cards(drawn) == one_by_one
