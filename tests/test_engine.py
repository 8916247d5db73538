"""The game protocol's shared machinery: events, options, seats, the registry, apply_event."""

from __future__ import annotations

import random
import sys
import types

import pytest

from referee import engine
from referee.engine import (
    Event,
    Events,
    EventType,
    Game,
    OptionSpec,
    Phase,
    Player,
    ToAct,
    apply_event,
    game_ids,
    load_game,
)
from referee.errors import IllegalMove, UsageError
from referee.replay import replay_events


class Add(EventType):
    name = "add"
    phases = frozenset({"counting"})

    def apply(self, state, event):
        count, turn, n = state
        return (count + 1, (turn + 1) % n, n)

    def moves(self, state):
        yield self.make(f"P{state[1]}")


class Reset(EventType):
    name = "reset"
    fields = {"to": "int"}
    actor = "table"


class Shout(EventType):
    name = "shout"
    fields = {"word": "str"}
    optional = frozenset({"word"})
    actor = "any"
    apply = Add.apply


class Counter(Game):
    """A tiny game: players take turns adding 1 to a shared count; 3 ends it."""

    id = "counter"
    title = "Counter"
    min_players, max_players = 1, 3
    events = Events(Add(), Reset(), Shout())
    phases = (Phase("counting", "add one"),)

    def setup(self, players, options, seed=None):
        return (0, 0, len(players))

    def phase(self, state):
        return "counting"

    def to_act(self, state):
        return ToAct((f"P{state[1]}",), "add")

    def finished(self, state):
        return state[0] >= 3


PLAYERS = (Player("P0"), Player("P1"))



def test_legal_moves_are_asked_once_and_passed_on_never_remembered():
    """`options --json` lists and counts the legal moves: the count is made from the list the
    caller already has (no second `legal`), and the game object keeps no answer of its own, so
    asking again asks again, and a caller that changes its list changes nothing for the next."""
    asked = []

    class Counted(Counter):
        def _legal(self, state, player):
            asked.append(player)
            return super()._legal(state, player)

    game = Counted()
    state = game.setup(PLAYERS, {})
    listed = game.legal(state)
    assert game.count_moves(state, None, listed) == 1 and asked == [None]
    assert list(game.every_move(state, None, listed)) == listed and asked == [None]
    listed.append(Event.make("reset", None, to=0))
    assert game.legal(state) == [Event.make("add", "P0")] and asked == [None, None]
    assert game.count_moves(state) == 1 and asked == [None, None, None]
    assert vars(game) == {}

def test_event_values_are_frozen_sorted_and_round_trip_to_records():
    event = Event.make("trade", "Ann", take=["b", "a"], house="Pig", give=None)
    assert event.fields == (("house", "Pig"), ("take", ("b", "a")))
    assert event["take"] == ("b", "a") and event.get("give", ()) == ()
    assert event.record() == {"by": "Ann", "type": "trade", "house": "Pig", "take": ["b", "a"]}
    assert hash(event) == hash(Event.make("trade", "Ann", house="Pig", take=["b", "a"]))
    with pytest.raises(KeyError):
        event["give"]


@pytest.mark.parametrize("kind,text,value", [
    ("int", "7", 7), ("bool", "yes", True), ("bool", "off", False), ("str", " x ", "x"),
    ("str[]", "a, b,,c", ["a", "b", "c"]), ("int[]", "2,3,4", [2, 3, 4]),
])
def test_option_values_from_the_command_line(kind, text, value):
    assert OptionSpec("o", None, kind, "help").parse(text) == value


@pytest.mark.parametrize("kind,text", [("int", "x"), ("bool", "maybe"), ("int[]", "1,x")])
def test_bad_option_values(kind, text):
    with pytest.raises(UsageError):
        OptionSpec("o", None, kind, "help").parse(text)


def test_unknown_option_names_a_close_match():
    game = Counter()
    game.options = (OptionSpec("colour", "red", "str", "c"),)
    assert game.check_options({}) == {"colour": "red"}
    with pytest.raises(UsageError) as info:
        game.check_options({"color": "blue"})
    assert "colour" in (info.value.hint or "")


def test_seats_in_a_game_without_seats():
    game = Counter()
    assert game.seat_players([Player("A")], {}) == [Player("A")]
    with pytest.raises(UsageError):
        game.seat_players([Player("A", "North")], {})
    with pytest.raises(UsageError):
        game.seat_players([Player(" ")], {})
    with pytest.raises(UsageError):
        game.seat_players([], {})


def test_seat_prefixes_and_ambiguity():
    game = Counter()
    game.seat_choices = lambda options: ("North", "Norway", "South")  # type: ignore[method-assign]
    assert [p.seat for p in game.seat_players([Player("A", "sou"), Player("B")], {})] == [
        "South", "North"]
    with pytest.raises(UsageError) as info:
        game.seat_players([Player("A", "nor")], {})
    assert "could be North, Norway" in info.value.message
    with pytest.raises(UsageError) as info:  # one or two letters are never a prefix
        game.seat_players([Player("A", "so")], {})
    assert "is not one of" in info.value.message


def test_protocol_defaults():
    game = Counter()
    state = game.setup(PLAYERS, {})
    event = Event.make("add", "P0")
    assert game.option_lines(state, [event]) == ["add"]
    assert game.describe(state, event, state) == ["add"]
    assert game.legal_note(state) == "" and game.notices(state) == ()
    assert "add{}" in game.rules()  # the reference is derived from the declarations
    assert game.legal(state) == [event] and game.legal(state, "P1") == []
    assert game.inventory(state) == {} and game.seat_choices({}) == ()
    assert game.random_event(state, random.Random(1)) == event
    game.legal = lambda state, player=None: []  # type: ignore[method-assign]
    assert game.random_event(state, random.Random(1)) is None
    assert game.parse(state, "add", "P0") == event
    for method, args in (("setup", ((), {})), ("phase", (state,)), ("score", (state,)),
                         ("render", (state,)), ("blank_scoresheet", ())):
        with pytest.raises(NotImplementedError):
            getattr(Game(), method)(*args)


def test_apply_event_shared_checks():
    game = Counter()
    state = game.setup(PLAYERS, {})
    cases = [
        (Event.make("jump", "P0"), "unknown-event"),
        (Event.make("reset", "P0", to=0), "not-a-player-event"),
        (Event.make("add"), "no-player"),
        (Event.make("add", "Zed"), "unknown-player"),
        (Event.make("add", "P1"), "not-your-turn"),
    ]
    for event, code in cases:
        with pytest.raises(IllegalMove) as info:
            apply_event(game, state, event, PLAYERS)
        assert info.value.code == code
    assert apply_event(game, state, Event.make("shout", "P1"), PLAYERS) == (1, 1, 2)
    final = replay_events(game, PLAYERS, {}, None, [Event.make("add", f"P{i % 2}") for i in range(3)])
    with pytest.raises(IllegalMove) as info:
        apply_event(game, final, Event.make("add", "P1"), PLAYERS)
    assert info.value.code == "game-over"


def test_registry_and_lazy_loading(monkeypatch):
    assert game_ids()[0] == "kings-ear"
    with pytest.raises(UsageError) as info:
        load_game("kings")
    assert info.value.exit_status == 2
    monkeypatch.setitem(engine.REGISTRY, "half-built", "referee_test_half_built")
    monkeypatch.setitem(sys.modules, "referee_test_half_built", types.ModuleType("x"))
    monkeypatch.setattr(engine.importlib.util, "find_spec", lambda name: object())
    with pytest.raises(UsageError) as info:
        load_game("half-built")
    assert "not available" in info.value.message
    monkeypatch.setitem(engine.REGISTRY, "absent", "referee_test_absent_module")
    monkeypatch.undo()
    monkeypatch.setitem(engine.REGISTRY, "absent", "referee_test_absent_module")
    with pytest.raises(UsageError):
        load_game("absent")
    assert "absent" not in engine.available_game_ids()


class Tally(EventType):
    name = "tally"
    fields = {"count": "int", "word": "str", "flag": "bool", "names": "str[]", "marks": "int[]"}
    optional = frozenset({"word", "flag", "names", "marks"})


class Text(str):
    """A str of another class: still text."""


@pytest.mark.parametrize(("fields", "problem"), [
    ({"count": 3}, None),
    ({"count": 3, "word": Text("hi"), "flag": False, "names": ("a", Text("b")), "marks": (1,)},
     None),
    ({"count": True}, "tally.count must be a whole number"),  # a bool is no number
    ({"count": "3"}, "tally.count must be a whole number"),
    ({"count": 1, "word": 5}, "tally.word must be text"),
    ({"count": 1, "flag": 1}, "tally.flag must be true or false"),
    ({"count": 1, "names": ("a", 2)}, "tally.names must be a list of text"),
    ({"count": 1, "names": "ab"}, "tally.names must be a list of text"),
    ({"count": 1, "marks": (1, False)}, "tally.marks must be a list of whole numbers"),
    ({"word": "hi"}, "tally needs the field 'count'"),
])
def test_each_field_is_held_to_its_kind(fields: dict, problem: str | None) -> None:
    """A value of its kind's own type passes at once; any other is tested: booleans are no
    numbers, a str of another class is text."""
    etype = Events(Tally())["tally"]
    found = engine.field_problem(etype, Event("tally", None, tuple(sorted(fields.items()))))
    assert (found and found[2]) == problem
