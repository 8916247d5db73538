"""Kingmaker at the command line: the components file, a game started from it, the folded
history, status and options, and fuzzed move text and hand-edited events that must end in clean
errors."""

from __future__ import annotations

import json
import random
import tomllib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import log as logfile
from referee import replay
from referee.check import check_file
from referee.engine import apply_event
from referee.errors import RefereeError
from referee.evolve import evolve
from referee.games.kingmaker import GAME
from referee.games.kingmaker.components import SHIPPED, TEST_BOX, file_text, load
from referee.simulate import default_players, play_out
from tests.conftest import EXAMPLES, GOLDEN, assert_handled


def test_components_command_prints_the_shipped_file_and_a_template(cli):
    shipped = cli("components", "kingmaker")
    assert shipped.status == 0 and shipped.out == file_text(SHIPPED)
    template = cli("components", "kingmaker", "--template")
    assert template.status == 0 and "# home = " in template.out
    assert tomllib.loads(template.out)["format"] == "kingmaker-components/1"


def test_a_game_started_from_a_components_file(cli):
    (cli.path / "box.toml").write_text(file_text(TEST_BOX))
    result = cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "-p", "Cat",
                 "--components", "box.toml")
    assert result.status == 0, result.err
    assert "Ann enters the 12 crown cards dealt" in result.out
    log = logfile.read(cli.path / "game.toml")
    assert log.options["components"].startswith("box.toml sha256:")
    assert len(log.entries) == len(load(file_text(TEST_BOX), "b").entries)
    history = cli("history")
    assert history.out.count("\n") == 1 and "135 x declare (events 1-135)" in history.out
    assert "Set-up (deal)" in cli("status").out
    options = cli("options")
    assert "dealt CARD, CARD, ..." in options.out
    data = json.loads(cli("status", "--json").out)
    assert data["phase"] == "deal" and data["to_act"] == ["Ann"]
    bad = cli("play", "dealt Neville")
    assert bad.status == 1 and "rule: R-5" in bad.err
    assert logfile.read(cli.path / "game.toml").entries == log.entries  # untouched


def test_a_bad_components_file_is_a_usage_error(cli):
    (cli.path / "box.toml").write_text('format = "kingmaker-components/1"\n'
                                       'nobles = [{name = "A", troops = "x"}]\n')
    result = cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "--components", "box.toml")
    assert result.status == 2 and "box.toml: nobles[1]: noble A: troops must be an integer" \
        in result.err
    assert not (cli.path / "game.toml").exists()


def test_a_test_box_game_at_the_table(cli):
    _laid_out_test_box(cli)
    status = cli("status")
    assert "Turn 1:" in status.out and "Clock: not started" in status.out
    played = cli("play", "event Fair-Weather")
    assert played.status == 0 and "Next:" in played.out
    assert "Clock: 0 of 240 minutes played" in cli("status").out
    score = cli("score")
    assert score.status == 0 and "Commons" in score.out
    paused = cli("play", "clock", "pause")  # a table event typed during a player's turn
    assert paused.status == 0 and "(paused)" in cli("status").out
    assert cli("play", "clock", "resume").status == 0
    options = cli("options")
    assert "move NOBLES to LOCATION" in options.out and "At any time" in options.out
    assert cli("play", "next").status == 0
    assert "fights" in cli("options").out
    assert cli("check", "game.toml").status == 0


def test_the_bundled_demo_and_the_goldens_check(cli):
    demo = cli("demo", "kingmaker")
    assert demo.status == 0 and "Complete and Utter Victory" in demo.out
    for path in [EXAMPLES / "kingmaker.toml", *sorted((GOLDEN / "kingmaker").glob("*.toml"))]:
        assert check_file(path).ok, path


def test_simulate_plays_kingmaker(cli):
    result = cli("simulate", "kingmaker", "--games", "2", "--seed", "3", "--json")
    data = json.loads(result.out)
    assert result.status == 0 and data["finished"] == 2 and data["winners"]


# ---- fuzzing ---------------------------------------------------------------------------------

WORDS = ["move", "sail", "attack", "at", "with", "on", "allies", "target", "to", "via", "port",
         "siege", "lay", "join", "conclude", "break", "respond", "leave", "storm", "draw",
         "hidden", "play", "give", "transfer", "from", "execute", "crown", "take", "by",
         "dealt", "assign", "chancery", "declare", "amend", "noble", "place", "event", "weather",
         "result", "deaths", "save", "none", "ransom", "kill", "retreat", "heir", "control",
         "clock", "pause", "end", "time", "next", "french", "regions", "Wales", "Neville",
         "Percy", "Henry", "London", "York", "near:York", "in:London", "sq:Moor", "sea:",
         "aboard:Le-Lucas", "port:Hull", "sea:North-Sea", ",", "=", "troops=5",
         "Neville.home=York", '"', '"Stratford-upon-Avon".kind=town', "kind=castle",
         "Writ", "Fair-Weather", "97", "00", "1", "-3", "99999", "major", "agreed"]


def kingmaker_states():
    states = []
    for seed in (1, 4):
        playout = play_out(GAME, seed, default_players(GAME, None))
        state = GAME.setup(playout.players, GAME.default_options(), playout.seed)
        for index, event in enumerate(playout.events):
            if index % 9 == 0:
                states.append((state, playout.players))
            state = apply_event(GAME, state, event, playout.players)
    return states


STATES = kingmaker_states()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(min_value=0, max_value=len(STATES) - 1),
       text=st.one_of(st.text(max_size=40),
                      st.lists(st.sampled_from(WORDS), max_size=9).map(" ".join)),
       who=st.integers(min_value=0, max_value=3))
def test_fuzzed_move_text_ends_in_clean_errors(index, text, who):
    state, players = STATES[index]
    player = (None,) + tuple(p.name for p in players)
    try:
        event = GAME.parse(state, text, player[who])
        apply_event(GAME, state, event, players)
    except RefereeError as exc:
        assert exc.message


JUNK = ["", "x", "near:", "in:Nowhere", "Neville", "Henry", "port:Dublin", "sea:X", "aboard:No",
        0, -1, 7, 101, 99999, True, [], ["Neville", "Neville"], ["x", 1], "Le Lucas",
        "hidden", "chancery", "none", "major", "lay", "time"]


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_hand_edited_events_end_in_clean_errors(tmp_path_factory, seed):
    rng = random.Random(seed)
    source = rng.choice(sorted((GOLDEN / "kingmaker").glob("*.toml")))
    log = logfile.read(source)
    index = rng.randrange(len(log.entries))
    entry = log.entries[index]
    fields = dict(entry.event.fields)
    if fields and rng.random() < 0.8:
        key = rng.choice(sorted(fields))
        fields[key] = rng.choice(JUNK)
    else:
        fields[rng.choice(["noble", "to", "card", "place", "outcome"])] = rng.choice(JUNK)
    event = entry.event.__class__.make(entry.event.type, entry.event.by, **fields)
    entries = log.entries[:index] + (logfile.Entry(entry.seq, event, entry.at),) + \
        log.entries[index + 1:]
    path = tmp_path_factory.mktemp("km") / "edited.toml"
    path.write_text(logfile.dumps(evolve(log, entries=entries)), encoding="utf-8")
    report = check_file(path)  # never raises
    assert_handled(report, edited_seq=entry.seq)
    # only an edit can make the golden log fail (`True` for a 1 is an edit, though True == 1)
    assert report.ok or repr(event) != repr(entry.event)


def _laid_out_test_box(cli):
    """A test-box game of Ann, Ben and Cat, dealt and laid out: Ann draws her first event."""
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "-p", "Cat",
               "-o", "components=test-box").status == 0
    state = GAME.setup(tuple(default_players(GAME, 3)), GAME.check_options({}))
    deck = sorted(c for c, w in state.cards.items() if w == "deck")
    hands = [deck[0:12], deck[12:24], deck[24:36]]
    for hand in hands:
        if not any(state.kind(c) == "noble" for c in hand):
            hand[0] = next(c for c in deck[36:] if state.kind(c) == "noble")
    for name, hand in zip(("Ann", "Ben", "Cat"), hands):
        result = cli("play", "dealt", ", ".join(c.replace(" ", "-") for c in hand), "--as", name)
        assert result.status == 0, result.err
    for _ in range(60):
        table = json.loads(cli("options", "--json", "--all").out)
        if table["phase"] != "duty.layout":  # each player owes his layout
            break
        result = cli("play", table["moves"][0], "--as", table["to_act"][0])
        assert result.status == 0, result.err


def test_a_decision_typed_when_none_is_owed_is_refused(cli):
    """Issue 24 (15): `heir`, `control`, `retreat`, `ransom`, `kill`, `respond`, `leave`,
    `storm` and `port` answer a question the referee asks; typed when none is open they are
    refused with a rule and a plain reason (they used to fail an assertion: exit 70)."""
    _laid_out_test_box(cli)
    log = logfile.read(cli.path / "game.toml")
    state = replay.final(replay.from_log(log), log.entries)
    before = (cli.path / "game.toml").read_bytes()
    noble = sorted(state.nobles)[0].replace(" ", "-")
    for move in (f"heir Henry to {noble}", f"control London to {noble}",
                 f"retreat {noble} to in:London", f"ransom {noble}", f"kill {noble}",
                 f"respond {noble}", f"leave Henry with {noble}"):
        result = cli("play", *move.split())
        assert result.status == 1, (move, result.err)
        assert f"not the moment for `{move.split()[0]}`" in result.err, result.err
        assert "none is open now" in result.err and "rule: " in result.err
        assert (cli.path / "game.toml").read_bytes() == before


def test_the_sheet_names_who_took_the_first_turn_not_seat_one(cli):
    """R-8: the first player is settled at the end of the lay-out (here Cat: the Chancellor went
    to the chancery, Cat holds the Archbishop of Canterbury), and every sheet names him; before
    the lay-out nobody has begun, and no sheet guesses seat 1."""
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "-p", "Cat").status == 0
    assert "Start player" not in cli("scoresheet").out
    assert json.loads(cli("scoresheet", "-f", "json").out)["start_player"] is None
    assert cli("simulate", "kingmaker", "--games", "1", "--seed", "4", "--save", "s").status == 0
    log = logfile.read(cli.path / "s" / "kingmaker-00001.toml")
    turn_one = next(e for e in log.entries if e.event.type not in ("dealt", "assign"))
    assert turn_one.event.by == "Cat" and log.players[0].name == "Ann"
    sheet = ("--log", "s/kingmaker-00001.toml", "scoresheet")
    assert "Start player: Cat" in cli(*sheet).out
    assert json.loads(cli(*sheet, "-f", "json").out)["start_player"] == "Cat"
    assert "<dt>Start player</dt><dd>Cat</dd>" in cli(*sheet, "-f", "html").out


def test_a_test_box_game_says_its_values_are_invented_and_a_real_one_says_nothing(cli):
    """B2: the test box gives the printed cards' names made-up values: `new` says so, so a
    table that copied the option cannot mistake it for the 1974 box."""
    made = cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "-o", "components=test-box")
    assert made.status == 0
    note = made.out.split("\n", 1)[1].split("\nNext:", 1)[0]
    assert " ".join(note.split()) == (
        "Components: the small invented test box (simulate, the tests, the demo): its values "
        "are made up, not the 1974 box's. For a game with your cards start without "
        "`--option components=test-box` (R-3).")
    assert max(len(line) for line in note.splitlines()) <= 80  # a terminal does not cut it
    real = cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "--log", "real.toml")
    assert real.status == 0 and "Components:" not in real.out and "test box" not in real.out


def test_the_test_box_agrees_with_every_value_the_shipped_box_knows():
    """B2: a card of the shipped box (what the rules page publishes of the 1974 box) never
    takes another value from the test box: the invented box invents only what is unknown.
    Storms at Sea's bad weather predates the shipped box and stays, so that every test-box log
    written since replays as it was (`new` says the test box's values are made up)."""
    from referee.games.kingmaker import components

    shipped = components.load(components.file_text(components.SHIPPED), components.SHIPPED)
    invented = components.load(components.file_text(components.TEST_BOX), components.TEST_BOX)
    known = {(e.kind, e.name): dict(e.values) for e in components.ordered(shipped)}
    both = [e for e in components.ordered(invented) if (e.kind, e.name) in known]
    clashes = [(e.name, field, value) for e in both for field, value in e.values
               if field != "source" and known[e.kind, e.name].get(field, value) != value]
    assert len(both) > 50 and clashes == [("Storms at Sea", "weather", "bad")]
