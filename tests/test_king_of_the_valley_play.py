"""King of the Valley: whole games through the protocol, the notation, the log and the CLI.

Random playouts (seeded virtual piles and physical reveals) check what must hold at every step:
replay gives the same state, every listed legal event applies and its canonical text parses back to
it, the 90 tiles are always somewhere, and the summon checker agrees with the summon enumerator.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import log as logfile
from referee.engine import Event, Player, apply_event
from referee.errors import IllegalMove, RefereeError
from referee.evolve import evolve
from referee.games.king_of_the_valley import GAME
from referee.games.king_of_the_valley.components import ASSUMED_PILE_MIX, SQUARES, between
from referee.games.king_of_the_valley.rules import Summon, check, summons
from referee.games.king_of_the_valley.state import Castle
from referee.replay import replay_events
from referee.sheets import render_text

NAMES = ("Ann", "Bob", "Cy", "Dee")
ROOT = Path(__file__).resolve().parents[1]


def players(count: int) -> tuple[Player, ...]:
    return tuple(Player(n) for n in NAMES[:count])


def playout(count: int, seed: int | None, rng_seed: int, every_step=None):
    seated = players(count)
    state = GAME.setup(seated, GAME.check_options({}), seed)
    rng = random.Random(rng_seed)
    events = []
    while not GAME.finished(state):
        assert len(events) < 2000
        if every_step:
            every_step(state)
        event = GAME.random_event(state, rng)
        state = apply_event(GAME, state, event, seated)
        events.append(event)
        assert sum(GAME.inventory(state).values()) == 90, GAME.inventory(state)
    assert GAME.random_event(state, rng) is None
    return seated, state, events


def check_step(state) -> None:
    """Every legal event applies, and its canonical text parses back to the same event."""
    turn = GAME.to_act(state)
    events = GAME.legal(state)
    assert events, turn
    for event in events:
        who = None if turn.table else turn.players[0]
        assert GAME.parse(state, GAME.format(state, event), who) == event
        GAME.apply(state, event)
    for name in NAMES[:len(state.names)]:
        if name not in turn.players:
            assert GAME.legal(state, name) == []


@pytest.mark.parametrize("count,seed", [(2, 11), (3, 12), (4, 13)])
def test_seeded_playouts_replay_and_round_trip(count, seed):
    seated, state, events = playout(count, seed, seed, every_step=check_step)
    assert replay_events(GAME, seated, GAME.check_options({}), seed, events) == state
    sheet = GAME.score(state)
    assert sheet.finished and sheet.winners
    turns = state.turn
    assert turns % count == 0  # every player had the same number of turns
    assert state.end_triggered


@pytest.mark.parametrize("rng_seed", [1, 2])
def test_physical_playouts_take_whatever_the_box_allows(rng_seed):
    seated, state, events = playout(3, None, rng_seed,
                                    every_step=check_step if rng_seed == 1 else None)
    assert replay_events(GAME, seated, GAME.check_options({}), None, events) == state
    assert GAME.finished(state)


def test_many_quick_seeded_games_finish_with_equal_turns():
    for seed in range(20, 32):
        count = 2 + seed % 3
        _, state, events = playout(count, seed, seed)
        assert state.turn % count == 0 and state.kingdoms_left >= 0
        kinds = {e.type for e in events}
        assert {"reveal", "king", "move", "refill"} <= kinds


def _random_summon(state, rng) -> Summon:
    start = state.kings[state.active]
    path = [start]
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        path.append(rng.randrange(SQUARES))
    take = ()
    if rng.random() < 0.5:
        passed = between(path[-2], path[-1]) or tuple(range(3))
        take = tuple(s for s in passed if rng.random() < 0.7)
    return Summon(tuple(path), take)


def test_summon_checker_agrees_with_the_enumerator():
    """A random king move is accepted exactly when `legal` lists it."""
    rng = random.Random(7)
    tried = accepted = 0
    for seed in (3, 4, 5):
        state = GAME.setup(players(3), GAME.check_options({}), seed)
        game_rng = random.Random(seed)
        while not GAME.finished(state):
            if state.phase in ("recruit", "summon"):
                listed = set(summons(state))
                for _ in range(60):
                    summon = _random_summon(state, rng)
                    try:
                        check(state, summon)
                        ok = True
                    except IllegalMove:
                        ok = False
                    assert ok == (summon in listed), summon
                    tried += 1
                    accepted += ok
                for summon in listed:
                    check(state, summon)
            state = apply_event(GAME, state, GAME.random_event(state, game_rng), players(3))
    assert tried > 1000 and accepted > 10


def test_a_game_through_the_log_format():
    seated, state, events = playout(2, 99, 99)
    log = logfile.GameLog(game=GAME.id, players=seated, options=GAME.check_options({}),
                          created=logfile.now(), referee="test", seed=99)
    for event in events:
        log = log.appended(event)
    text = logfile.dumps(log)
    back = logfile.parse(text)
    assert [e.event for e in back.entries] == events
    assert replay_events(GAME, back.players, back.options, back.seed,
                         [e.event for e in back.entries]) \
        == state


# --------------------------------------------------------------------------------------------
# Notation


def _fresh(seed=3):
    state = GAME.setup(players(2), GAME.check_options({}), seed)
    state = apply_event(GAME, state, GAME.parse(state, "reveal", None), players(2))
    for square in ("c3", "d4"):
        state = apply_event(GAME, state, GAME.parse(state, f"king {square}", state.player),
                            players(2))
    return state


def test_forgiving_input_and_canonical_output():
    state = _fresh()
    assert GAME.parse(state, "MOVE C3 C2", "Ann") == GAME.parse(state, "mov c3 c2", "Ann")
    recruit = GAME.parse(evolve(state, turn=2, phase="recruit"), "rec l2", "Ann")
    assert GAME.format(state, recruit) == "recruit left 2"
    assert GAME.parse(state, "recruit left2 as Dukes", "Ann")["column"] == "duke"
    assert GAME.format(state, GAME.parse(state, "wiz farmer for r 3", "Ann")) == \
        "wizard farmer for right 3"
    wizard = GAME.parse(state, "wizard jester from queen for left 1 as wife", "Ann")
    assert GAME.format(state, wizard) == "wizard jester from queen for left 1 as wife"
    assert GAME.parse(state, "jester queen", "Ann") == GAME.parse(state, "jester as queen", "Ann")
    assert GAME.format(state, GAME.parse(state, "ref r", "Ann")) == "refill right"
    assert GAME.format(state, GAME.parse(state, "tax knights", "Ann")) == "tax knight"
    assert GAME.format(state, GAME.parse(state, "kingdom wif", "Ann")) == "kingdom wife"


@pytest.mark.parametrize("text", [
    "", "fly", "move", "move c3", "move c3 z9", "move c3 c5 take", "king", "king f1",
    "recruit left", "recruit left 7", "recruit middle 2", "recruit left 2 as", "recruit l 2 x y",
    "wizard duke", "wizard duke left 2", "wizard for left 2", "tax", "jester", "refill",
    "refill up", "pass now", "kingdom farmer wife", "reveal dragon", "reveal tax-9-9",
    "move c3 c4 take xyz",
])
def test_bad_notation_is_a_clean_error(text):
    state = _fresh()
    with pytest.raises(RefereeError) as info:
        event = GAME.parse(state, text, "Ann")
        apply_event(GAME, state, event, players(2))
    assert info.value.message


def _one_state_per_phase():
    found = {}
    playout(2, 8, 8, every_step=lambda s: found.setdefault(s.phase, s))
    playout(2, None, 8, every_step=lambda s: found.setdefault(f"physical {s.phase}", s))
    return list(found.values())


PHASE_STATES = _one_state_per_phase()


def test_the_fuzz_sees_every_phase():
    assert {s.phase for s in PHASE_STATES} == {"reveal", "king", "recruit", "summon", "activate",
                                               "kingdom"}


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(PHASE_STATES) - 1),
       st.text(alphabet="abcdefgiklmnoprstuvwxyz123456- ", max_size=30))
def test_fuzzed_move_text_never_crashes(index, text):
    state = PHASE_STATES[index]
    turn = GAME.to_act(state)
    try:
        event = GAME.parse(state, text, turn.players[0] if turn.players else None)
        apply_event(GAME, state, event, players(2))
    except RefereeError as exc:
        assert exc.message


def test_refused_fields_from_a_hand_edited_log():
    state = _fresh()
    for event, code in [
        (Event.make("move", "Ann", path=["c3", "z9"]), "bad-square"),
        (Event.make("move", "Ann", path=["c3", "c4"], take=[]), "take-two-or-three"),
        (Event.make("move", "Ann", path=["c3"]), "incomplete-move"),
        (Event.make("jester", "Ann", column="duke"), "wrong-phase"),
        (Event.make("reveal", None, tiles=["dragon"]), "wrong-phase"),
        (Event.make("king", "Ann", square="c4"), "wrong-phase"),
    ]:
        with pytest.raises(IllegalMove) as info:
            apply_event(GAME, state, event, players(2))
        assert info.value.code == code
    kingdom = evolve(state, phase="kingdom")
    with pytest.raises(IllegalMove) as info:
        GAME.apply(kingdom, Event.make("kingdom", "Ann", column="queen"))
    assert info.value.code == "bad-column"
    with pytest.raises(IllegalMove) as info:
        GAME.apply(kingdom, Event.make("refill", "Ann", side="middle"))
    assert info.value.code == "bad-side"


# --------------------------------------------------------------------------------------------
# Text: status, describe, options, rules


def test_render_shows_valley_hill_castles():
    state = _fresh()
    text = GAME.render(state)
    assert "<1>" in text and "<2>" in text and "row 6   10" in text
    assert "Piles: I 0, II 22, III 31" in text and "Castles" in text
    after = apply_event(GAME, state, GAME.legal(state)[0], players(2))
    assert GAME.describe(state, GAME.legal(state)[0], after)[0].startswith("Ann: move c3")


def test_describe_tells_gold_tiles_refill_and_the_end():
    seated, state, events = playout(2, 5, 5)
    before = GAME.setup(seated, GAME.check_options({}), 5)
    lines = []
    for event in events:
        after = apply_event(GAME, before, event, seated)
        lines += GAME.describe(before, event, after)
        before = after
    text = "\n".join(lines)
    assert "castle gains" in text and "Valley refilled:" in text
    assert "the end is triggered" in text and "Game over after" in text


def test_options_fold_the_physical_reveals():
    state = GAME.setup(players(2), GAME.check_options({}), None)
    lines = GAME.option_lines(state, GAME.legal(state))
    assert len(lines) == 1 and lines[0].startswith("reveal TILE")
    assert "wizard" not in lines[0] and "priest" in lines[0]
    placing = evolve(_fresh(), kings=(None, None), phase="king")
    assert GAME.option_lines(placing, GAME.legal(placing)) == [
        "king SQUARE   (any tile without a king: " + " ".join(
            f"{f}{r}" for r in range(1, 6) for f in "abcde") + ")"]


def test_rules_text_lists_every_ruling_and_the_assumed_mix():
    text = GAME.rules()
    for n in range(1, 20):
        assert f" R-{n}:" in text
    assert "ASSUMED" in text and "tax-5-10" in text


def test_man_page_documents_every_event_and_ruling():
    page = (ROOT / "man" / "referee-king-of-the-valley.6").read_text()
    for event_type, spec in GAME.events.items():
        assert f".B {event_type}\n" in page, event_type
        for field in spec.fields:
            assert f".B {field}" in page or f".BR {field}" in page, (event_type, field)
    for n in range(1, 20):
        assert f".B R\\-{n}\n" in page, n
    for mix in ASSUMED_PILE_MIX:  # the assumed virtual mix is stated in full
        for name in mix:
            if name.startswith("tax-"):
                assert name.replace("-", "\\-") in page, name


def test_to_act_names_each_phase():
    state = GAME.setup(players(2), GAME.check_options({}), 1)
    assert GAME.to_act(state).table
    seen = set()
    seated, final, events = playout(2, 1, 1, every_step=lambda s: seen.add(
        GAME.to_act(s).prompt))
    joined = " ".join(seen)
    for word in ("reveal", "set-up", "summon", "recruit", "replenish"):
        assert word in joined
    assert GAME.to_act(final).prompt == "the game is over"


# --------------------------------------------------------------------------------------------
# The CLI, the bundled example and the golden games


def test_cli_game_at_the_table(cli):
    assert cli("new", "king-of-the-valley", "--player", "Ann", "--player", "Bob",
               "--shuffle", "--seed", "3").status == 0
    assert cli("play", "reveal").status == 0
    assert cli("play", "king", "c3").status == 0
    before = Path(cli.path, "game.toml").read_bytes()
    bad = cli("play", "king", "c3")
    assert bad.status == 1 and "one king" in bad.err
    assert Path(cli.path, "game.toml").read_bytes() == before
    assert cli("play", "king", "d4").status == 0
    options = cli("options")
    assert options.status == 0 and "move c3 " in options.out
    first = next(line.strip() for line in options.out.splitlines() if "move c3" in line)
    assert cli("play", *first.split()).status == 0
    assert cli("play", "refill", "left").status == 0
    early = cli("play", "kingdom")  # the table must reveal the new hill tiles first
    assert early.status == 1 and "the table must act (reveal" in early.err
    assert cli("play", "reveal").status == 0
    status = cli("status")
    assert status.status == 0 and "Hill" in status.out
    assert cli("score").status == 0


def _replay_file(path: Path):
    log = logfile.read(path)
    return log, replay_events(GAME, log.players, log.options, log.seed,
                              [e.event for e in log.entries])


def test_bundled_example_is_a_complete_game():
    path = ROOT / "referee" / "examples" / "king-of-the-valley.toml"
    log, state = _replay_file(path)
    assert GAME.finished(state) and log.seed is None  # a physical game: every tile reported
    types = {e.event.type for e in log.entries}
    assert {"reveal", "king", "recruit", "move", "tax", "kingdom", "refill"} <= types


def test_golden_games_match_their_scoresheets():
    folder = ROOT / "tests" / "golden" / "king-of-the-valley"
    games = sorted(folder.glob("*.toml"))
    assert games
    for path in games:
        _, state = _replay_file(path)
        expected = path.with_suffix(".scoresheet.txt").read_text()
        assert render_text(GAME.score(state)) == expected, path.name


_, _, LOGGED = playout(2, 9, 9)
WORDS = st.one_of(st.text(alphabet="abcdefklrtuwz0123456-", max_size=9),
                  st.sampled_from(["left", "right", "farmer", "jester", "duke", "tax-3-5",
                                   "priest", "c3", "a1", "e5", "knight-A"]))
# log.py checks every field's kind before the game sees it, so only the values are fuzzed.
FIELD_VALUES = {"str": WORDS, "int": st.integers(-3, 12), "str[]": st.lists(WORDS, max_size=5)}


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(LOGGED) - 1), st.data())
def test_mutated_log_events_are_refused_cleanly(index, data):
    """A hand-edited log: one field of one event changed to any value of its kind."""

    seated = players(2)
    state = GAME.setup(seated, GAME.check_options({}), 9)
    for event in LOGGED[:index]:
        state = apply_event(GAME, state, event, seated)
    original = LOGGED[index]
    spec = GAME.events[original.type]
    if not spec.fields:
        return
    name = data.draw(st.sampled_from(sorted(spec.fields)))
    fields = dict(original.fields)
    fields[name] = data.draw(FIELD_VALUES[spec.fields[name]])
    mutated = Event.make(original.type, original.by, **fields)
    try:
        apply_event(GAME, state, mutated, seated)
    except RefereeError as exc:
        assert exc.message


MIXED = ("farmer", "farmer", "wife", "knight-A", "knight-B", "duke", "tax-3-5", "tax-4",
         "wizard", "jester", "queen", "countess", None)


def _crowded_valley(rng: random.Random):
    """Four kings, three priests (some with coins), a castle that may or may not pay them."""
    state = GAME.setup(players(4), GAME.check_options({}), None)
    valley = [rng.choice(MIXED) for _ in range(SQUARES)]
    for square in rng.sample(range(SQUARES), 3):
        valley[square] = "priest"
    kings = tuple(rng.sample(range(SQUARES), 4))
    castle = Castle(gold=rng.randrange(4))
    for column, tile in (("farmer", "farmer"), ("knight", "knight-C"), ("wife", "wife")):
        for _ in range(rng.randrange(5)):
            castle = castle.add(tile, column)
    coins = tuple(rng.choice((0, 0, 1)) for _ in range(SQUARES))
    return evolve(state, valley=tuple(valley), kings=kings, awaiting=(), phase="summon",
                   coins=coins, castles=(castle,) + state.castles[1:],
                   hill=(("duke", "priest"), ("queen",)))


def _near_misses(summon: Summon, rng: random.Random):
    """Small changes of a legal summon: one square moved, a taken tile added or dropped."""
    path, take = list(summon.path), list(summon.take)
    moved = path.copy()
    moved[rng.randrange(1, len(moved))] = rng.randrange(SQUARES)
    yield Summon(tuple(moved), summon.take)
    if take:
        yield Summon(summon.path, tuple(take[1:]))
        yield Summon(summon.path, ())
    passed = between(path[-2], path[-1]) or ()
    if passed:
        extra = rng.choice(passed)
        yield Summon(summon.path, tuple(sorted(set(take) | {extra}, key=passed.index)))
    yield Summon(tuple(path[:-1] + [rng.randrange(SQUARES)] + path[-1:]), summon.take)


def test_summon_checker_agrees_on_crowded_valleys_with_priests():
    rng = random.Random(11)
    priest_paths = checked = 0
    for _ in range(40):
        state = _crowded_valley(rng)
        listed = set(summons(state))
        priest_paths += sum(1 for s in listed if len(s.path) > 2)
        for summon in list(listed)[:40]:
            for candidate in _near_misses(summon, rng):
                try:
                    check(state, candidate)
                    ok = True
                except IllegalMove:
                    ok = False
                assert ok == (candidate in listed), candidate
                checked += 1
    assert priest_paths > 100 and checked > 2000
