"""Kingmaker's components file (rules page §2.4, R-2, R-3): the schema and its one validator,
the shipped file and the template, declarations in the log and on first use."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

from referee.engine import Event, Player
from referee.errors import IllegalMove, NotationError, UsageError
from referee.games.kingmaker.events.deal import start_layout
from referee.games.kingmaker import GAME, components
from referee.games.kingmaker.components import testbox
from referee.games.kingmaker.components import SHIPPED, TEST_BOX, Box, DataError, load
from referee.games.kingmaker.game import test_box as preloaded_box
from referee.replay import from_table, replay_log
from referee.simulate import default_players, play_out, to_log
from tests.kingmaker_realm import THREE, event, illegal, play

SHIPPED_TEXT = components.file_text(SHIPPED)
TOOLS = Path(__file__).resolve().parents[1] / "tools"


def declared_game(players=THREE, text: str = SHIPPED_TEXT, name: str = SHIPPED):
    """A game started as `referee new kingmaker --components FILE` starts it."""
    options, head = GAME.opening({}, (name, text))
    state = from_table(GAME, list(players), options, None).state
    for item in head:
        state = event(state, "declare", None, players, **dict(item.fields))
    return options, state


def test_the_shipped_file_holds_what_the_rules_page_gives():
    box = load(SHIPPED_TEXT, SHIPPED)
    heirs = {e.name: (e.get("house"), e.get("rank"), e.get("start")) for e in box.of("heir")}
    assert heirs["Henry"] == ("lancaster", 1, "London")
    assert heirs["Richard of Gloucester"] == ("york", 4, "Calais")
    assert len(box.of("towns" and "town")) == 11 and len(box.of("bishop")) == 6
    assert len(box.of("guard")) == 2 and box.get("guard", "Duke of York").get("troops") == 50
    assert box.get("noble", "Neville").missing() == ("home",)  # entered by the table
    assert box.get("place", "Calais").get("garrison") == 200
    assert box.get("place", "Swansea").missing() == ("kind",)
    assert box.votes("king_commons") == 20 and box.get("battle_chart", "battle_chart") is None
    for entry in box.of("place") + box.of("noble"):
        assert entry.get("source"), entry.name  # every value says where it comes from
    # seed rule 14 makes Bad Weather Delays Attack the one bad card it names.
    weather = {e.name: e.get("weather") for e in box.of("event")}
    assert weather.pop("Bad Weather Delays Attack") == "bad"
    assert set(weather.values()) == {"fair"}


def test_the_test_box_is_complete_and_says_it_is_invented():
    box = load(components.file_text(TEST_BOX), TEST_BOX)
    assert all(not e.missing() for _, e in box.entries)
    assert "invented" in components.file_text(TEST_BOX).splitlines()[0]


def _testbox_tool():
    spec = importlib.util.spec_from_file_location("make_testbox", TOOLS / "make_testbox.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_test_box_literals_are_its_toml_regenerated():
    """A replay preloads the test box from testbox.py, not from the TOML file: the module is
    what tools/make_testbox.py makes of the file today, its box the file's, and it holds
    literals only (nothing that runs when imported)."""
    tool = _testbox_tool()
    assert tool.TARGET.read_text(encoding="utf-8") == tool.module_text()
    assert preloaded_box() == load(components.file_text(TEST_BOX), TEST_BOX)
    assert len(preloaded_box().entries) > 100
    tree = ast.parse(tool.TARGET.read_text(encoding="utf-8"))
    (assign,) = [node for node in tree.body if isinstance(node, ast.AnnAssign)]
    assert ast.literal_eval(assign.value) == testbox.ENTRIES


def test_a_test_box_replay_reads_no_components_file(monkeypatch):
    """R-3: a simulated log (components = "test-box") replays with the box preloaded from its
    literals; neither the TOML file nor the components parser is touched."""
    def refused(*args):
        raise AssertionError("the test box was read from TOML")

    module = "referee.games.kingmaker.components.testbox"
    monkeypatch.delitem(sys.modules, module, raising=False)  # its box is built afresh
    monkeypatch.setattr(components, "file_text", refused)
    monkeypatch.setattr(components, "load", refused)
    playout = play_out(GAME, 3, default_players(GAME, None))
    final = replay_log(to_log(GAME, playout))[1]
    assert module in sys.modules and final.box is preloaded_box() and len(playout.events) > 50


@pytest.mark.parametrize("text,message", [
    ('format = "x"', "expected 'kingmaker-components/1'"),
    ('format = "kingmaker-components/1"\nsoldiers = []', "unknown key 'soldiers'"),
    ('format = "kingmaker-components/1"\nnobles = [{troops = 5}]', "a table with a name"),
    ('format = "kingmaker-components/1"\nnobles = [{name = "A", troops = "x"}]',
     "troops must be an integer"),
    ('format = "kingmaker-components/1"\nnobles = [{name = "A", wings = 2}]', "no field 'wings'"),
    ('format = "kingmaker-components/1"\nplaces = [{name = "A", kind = "moat"}]',
     "kind must be one of"),
    ('format = "kingmaker-components/1"\nplaces = [{name = "A", regions = ["Kent"]}]',
     "not a bonus region"),
    ('format = "kingmaker-components/1"\nevents = [{name = "E", kind = "call", calls = ["x"]}]',
     "a call is WHO>PLACE"),
    ('format = "kingmaker-components/1"\nnobles = [{name = "A"}, {name = "a"}]',
     "listed twice"),
    ('format = "kingmaker-components/1"\ntitles = [{name = "Earl #2"}]',
     "numbers the copies of a card"),
    ('format = "kingmaker-components/1"\n[battle_chart]\ncolumns = ["2-1"]',
     "not an odds column"),
    ('format = "kingmaker-components/1"\n[death_chart]\nmajor = {winner = "99-10"}',
     "runs backwards"),
    ('format = "kingmaker-components/1"\n[death_chart]\nmajor = "01-05"', "winner and loser"),
    ('format = "kingmaker-components/1"\nnobles = {name = "A"}', "array of tables"),
    ('format = "kingmaker-components/1"\nvotes = 3', "must be a table"),
    ('format = "kingmaker-components/1"\nnobles = [{name = "A", troops = 99999}]',
     "between 0 and 10000"),
    ("not toml [", "not valid TOML"),
])
def test_the_validator_names_the_file_the_entry_and_the_problem(text, message):
    with pytest.raises(DataError) as info:
        load(text, "box.toml")
    assert message in str(info.value) and str(info.value).startswith("box.toml")


def test_the_template_round_trips_to_the_same_data_through_a_log():
    template = GAME.components_text(template=True)
    assert "# home = " in template and "[[nobles]]" in template
    shipped = load(SHIPPED_TEXT, SHIPPED)
    def unsourced(box):  # where a value came from is the project's note, not the group's
        return sorted((key, tuple(v for v in e.values if v[0] != "source"))
                      for key, e in box.entries)

    assert unsourced(load(template, "t")) == unsourced(shipped)
    for jargon in ("seed", "JS-DECK", "AID-2014", "R-2", "rules page"):
        assert jargon not in template, jargon
    # A group completes it from its box: Neville's home, a charts table, a new noble.
    filled = template.replace('title = "Earl of Warwick"\n',
                              'title = "Earl of Warwick"\nhome = ["Middleham"]\n', 1)
    filled = filled.replace('# major = { winner = "01-05", loser = "01-30" }',
                            'major = { winner = "01-05", loser = "01-30" }')
    filled += '\n[[nobles]]\nname = "Talbot"\ntroops = 30\nlords = 2\nhome = ["Wingfield"]\n'
    box = load(filled, "filled.toml")
    options, state = declared_game(text=filled, name="filled.toml")
    assert options["components"].startswith("filled.toml sha256:")
    assert sorted(state.box.entries) == sorted(box.entries)
    assert sorted(load(components.dumps(state.box), "again").entries) == sorted(box.entries)
    assert state.box.get("death_chart", "death_chart").get("major_loser") == "01-30"


def test_the_components_command_and_the_opening():
    assert GAME.components_text() == SHIPPED_TEXT
    options, head = GAME.opening({}, None)  # `new` without --components: the shipped file
    assert options["components"] == f"{SHIPPED} {components.digest(SHIPPED_TEXT)}"
    assert len(head) == len(load(SHIPPED_TEXT, SHIPPED).entries)
    assert head[0].get("entry") == "votes" and {e.get("entry") for e in head[-8:]} == {"event"}
    assert GAME.opening({"components": "test-box"}, None) == ({"components": "test-box"}, [])
    with pytest.raises(UsageError) as info:
        GAME.opening({}, ("bad.toml", "format = 1"))
    assert info.value.code == "bad-components"


def test_declare_and_amend_in_the_log():
    _, state = declared_game()
    state = play(state, "declare place Raglan kind=castle regions=Wales port=no")
    raglan = state.box.place("Raglan")
    assert raglan.get("kind") == "castle" and raglan.get("regions") == ("Wales",)
    illegal(state, "declare place raglan kind=town", "declared-already")
    state = play(state, "amend place Raglan kind=royal-castle")
    assert state.box.place("Raglan").get("kind") == "royal-castle"
    state = play(state, 'declare noble "Fitz-Walter" troops=10 lords=1 home=Raglan,'
                        'St-Davids source="my box"')
    fitz = state.box.get("noble", "Fitz-Walter")
    assert fitz.get("home") == ("Raglan", "St Davids") and fitz.get("source") == "my box"
    text = GAME.format(state, Event.make("declare", None, entry="noble", name="Fitz-Walter",
                                         troops=10, lords=1, home=("Raglan", "St Davids"),
                                         source="my box"))
    assert text == 'declare noble "Fitz-Walter" troops=10 lords=1 home=Raglan,St-Davids ' \
                   'source=my-box'
    assert GAME.parse(state, text, None) == Event.make(
        "declare", None, entry="noble", name="Fitz-Walter", troops=10, lords=1,
        home=("Raglan", "St Davids"), source="my box")
    state = play(state, "declare death_chart major_winner=01-05 major_loser=01-30")
    assert state.box.get("death_chart", "death_chart").get("major_winner") == "01-05"
    for move, code in (("declare noble", "no-name"), ("declare moat X", "unknown-word"),
                       ("declare noble X wings=3", "unknown-field"),
                       ("declare noble X troops=many", "bad-value"),
                       ("declare noble X troops=1 troops=2", "repeated-word"),
                       ("declare votes extra king_commons=3", "bad-name"),
                       ("amend noble Zed troops=1", "unknown-word")):
        with pytest.raises(NotationError) as info:
            play(state, move)
        assert info.value.code == code, (move, info.value.message)
    for fields, code in (({"entry": "moat", "name": "X"}, "unknown-kind"),
                         ({"entry": "votes", "name": "X"}, "bad-name"),
                         ({"entry": "place", "name": "Y", "kind": "moat"}, "bad-declaration")):
        with pytest.raises(IllegalMove) as err:
            event(state, "declare", None, **fields)
        assert err.value.code == code and err.value.rule == "R-2"
    with pytest.raises(IllegalMove) as err:
        event(state, "amend", None, entry="noble", name="Nobody", troops=1)
    assert err.value.code == "unknown-entry"


def test_r2_a_value_first_needed_is_declared_in_the_move_and_then_fixed():
    _, state = declared_game()
    deck = [c for c, w in sorted(GAME.setup(THREE, GAME.check_options({})).cards.items())]
    assert deck  # the test box's deck opens at set-up; a declared box's at the first deal
    move = ("dealt Neville, Audley, Bourchier, Hastings, Stanley, Beaufort, Percy, Clifford, "
            "Herbert, Earl-of-Essex, Marshal-of-England, Coventry home=Middleham "
            "Middleham.kind=castle")
    event_ = GAME.parse(state, move, "Ann")
    assert event_["declares"] == ("Neville.home=Middleham", "Middleham.kind=castle")
    assert GAME.format(state, event_).endswith("Neville.home=Middleham Middleham.kind=castle")
    # a known card is dealt with values missing: the layout needs them, and asks for all
    dealt = play(state, move, by="Ann")
    assert dealt.box.get("noble", "Neville").get("home") == ("Middleham",)
    with pytest.raises(IllegalMove) as layout:
        start_layout(dealt)
    assert layout.value.code == "missing-value" and layout.value.rule == "R-2"
    assert "declare noble Audley lords=___ home=___" in layout.value.message
    assert "declare office Marshal-of-England commons=___" in layout.value.message
    assert "Neville" not in layout.value.message  # known now
    with pytest.raises(NotationError) as info:
        play(state, "dealt Neville wings=3", by="Ann")
    assert info.value.code == "unknown-field"
    with pytest.raises(NotationError) as info:
        play(state, "dealt Neville garrison=3", by="Ann")
    assert info.value.code == "whose-value"
    state = play(state, "declare place Middleham kind=castle")
    with pytest.raises(IllegalMove) as err2:
        play(state, "dealt Neville Middleham.kind=town", by="Ann")
    assert err2.value.code == "declared-already"
    with pytest.raises(NotationError) as info:
        play(state, "next troops=3", by="Ann")
    assert info.value.code == "no-declarations"


def test_an_inline_declaration_makes_a_new_place():
    _, state = declared_game()
    state = play(state, "declare place Hull kind=unfortified")
    parsed = GAME.parse(state, 'draw hidden "Stratford-upon-Avon".kind=town', "Ann")
    assert parsed["declares"] == ("Stratford-upon-Avon.kind=town",)
    assert GAME.format(state, parsed) == 'draw hidden "Stratford-upon-Avon".kind=town'


def test_entries_share_name_spaces_and_aliases():
    box = load('format = "kingmaker-components/1"\n'
               'nobles = [{name = "Neville", aliases = ["Warwick"]}]\n'
               'towns = [{name = "Coventry", place = "Coventry"}]\n'
               'places = [{name = "Coventry", kind = "town"}]\n', "b")
    assert box.clash("noble", "warwick").name == "Neville"
    assert box.clash("title", "coventry").name == "Coventry"  # a card named so already
    assert box.clash("heir", "Coventry") is None
    with pytest.raises(DataError):
        load('format = "kingmaker-components/1"\nnobles = [{name = "Coventry"}]\n'
             'towns = [{name = "Coventry", place = "Coventry"}]\n', "b")
    assert Box().single("votes").kind == "votes"
    assert components.roll_range("00") == (100, 100) and components.ratio("3:2") == (3, 2)


def test_players_named_late_must_be_players():
    players = [Player("Ann"), Player("Ben"), Player("Cat")]
    with pytest.raises(UsageError):
        GAME.seat_players(players, {"late": ["Zed"]})
    with pytest.raises(UsageError):
        GAME.seat_players(players[:2], {"late": ["Ann"]})
    assert len(GAME.seat_players(players, {"late": ["Cat"]})) == 3
    with pytest.raises(UsageError):
        GAME.check_options({"time_limit": 0})
    with pytest.raises(UsageError):
        GAME.check_options({"components": ""})


def test_any_move_may_declare_a_place_first_needed():
    from tests.kingmaker_realm import at_phase, dealt_game

    state = dealt_game({"Ann": ["Percy"], "Ben": ["Clifford"], "Cat": ["Talbot"]})
    state = at_phase(state, "movement", seat=state.names.index("Ann"))
    with pytest.raises(NotationError):
        play(state, "move Percy to near:Warkworth")
    after = play(state, "move Percy to near:Warkworth Warkworth.kind=castle")
    assert after.nobles["Percy"].at == "near:Warkworth"
    assert after.box.place("Warkworth").get("kind") == "castle"
    assert GAME.format(state, GAME.parse(state, "move Percy to near:Warkworth "
                                                "Warkworth.kind=castle", "Ann")) == \
        "move Percy to near:Warkworth Warkworth.kind=castle"
    with pytest.raises(IllegalMove) as info:
        event(state, "move", "Ann", nobles=["Percy"], to="near:Warkworth",
              declares=["Warkworth.kind=moat"])
    assert info.value.code == "bad-declaration"


def test_unknown_cards_and_second_entries_point_to_a_declaration():
    _, state = declared_game()
    complete = "Archbishop-of-York, Bishop-of-Durham, Bishop-of-Lincoln, Bishop-of-Norwich, " \
        "Bristol, Carisbrooke, Coventry, Earl-of-Essex, Ipswich"  # a whole deal, 12 cards
    with pytest.raises(IllegalMove) as slip:  # a slip is never taken, nor does it split (B5)
        play(state, f"dealt Talbot, Nevile, Bishop-of-Ely, {complete}", by="Ann")
    said = slip.value.message
    assert slip.value.code == "missing-value" and "'Nevile' is no card this log lists: " \
        "Neville? If so, type the deal again with that name" in said
    assert "declare noble Talbot troops=___ lords=___ home=___\n" in said  # the whole deal's
    assert "declare bishop Bishop-of-Ely lords=___\n" in said and "declare noble Nevile " in said
    assert said.endswith("; then the move goes through.") and not slip.value.suggest
    with pytest.raises(IllegalMove) as refused:
        play(state, f"dealt Talbot, Bishop-of-Ely, Neville, {complete}", by="Ann")
    assert refused.value.code == "missing-value" and refused.value.rule == "R-2"
    assert "declare noble Talbot troops=___ lords=___ home=___\n" in refused.value.message
    assert "declare bishop Bishop-of-Ely lords=___\n" in refused.value.message
    assert "declare noble Neville home=___\n" in refused.value.message
    with pytest.raises(NotationError) as info:
        play(state, "declare noble Talbot troops=30 Wingfield.kind=castle")
    assert info.value.code == "one-entry"


def test_stanley_needs_le_lucas_known_to_come_into_play():
    _, state = declared_game()
    state = play(state, "amend noble Stanley troops=30 lords=2 home=Lathom",
                 "declare place Lathom kind=castle")
    from referee.games.kingmaker.events.deal import missing_data

    assert missing_data(state, "Stanley") == ["Le Lucas.capacity"]
    state = play(state, "amend ship Le-Lucas capacity=100")
    assert missing_data(state, "Stanley") == []


# ---- hostile or huge components files (issue 24, item 9) -------------------------------------


def _with_extra_nobles(count: int) -> str:
    return SHIPPED_TEXT + "".join(f'\n[[nobles]]\nname = "Extra {i}"\ntroops = 10\nlords = 1\n'
                                  f'home = ["London"]\n' for i in range(count))


def test_declaring_many_entries_is_linear_not_quadratic(monkeypatch):
    """8,000 extra nobles took 30 s in `new` and 17 s in `check`: every declaration compared its
    name with every entry before it. Counted, not timed: the names compared grow with the
    entries (four times the entries, about four times the work; it was sixteen)."""
    calls = []
    real = components.norm
    monkeypatch.setattr(components, "norm", lambda name: calls.append(1) or real(name))

    def work(count):
        calls.clear()
        box = load(_with_extra_nobles(count), "many.toml")
        assert box.clash("noble", f"extra {count - 1}").name == f"Extra {count - 1}"
        return len(calls)

    small, large = work(300), work(1200)
    assert large < 5 * small


def test_a_file_of_thousands_of_names_is_checked_for_twins_in_one_pass(monkeypatch):
    """Linear by construction, not by timing: `load` builds its box once (never entry by entry)
    and puts each name through `norm` a fixed number of times: 5,000 more names, exactly
    10,000 more calls. A twin at the very end is still found, under the message of old."""
    calls = []
    real = components.norm
    monkeypatch.setattr(components, "norm", lambda name: calls.append(1) or real(name))
    monkeypatch.setattr(Box, "with_entry", lambda *args: pytest.fail("a box grown one by one"))

    def counted(count):
        calls.clear()
        box = load(_with_extra_nobles(count), "many.toml")
        assert len(box.entries) == len(base.entries) + count
        return len(calls)

    base = load(SHIPPED_TEXT, SHIPPED)
    assert counted(5000) - counted(0) == 2 * 5000
    twin = _with_extra_nobles(5000) + '\n[[nobles]]\nname = "extra_4999"\n'
    with pytest.raises(DataError, match=r"many.toml: nobles\[\d+\]: 'extra_4999' is listed "
                       "twice"):
        load(twin, "many.toml")
    aliased = ('format = "kingmaker-components/1"\nnobles = [{name = "Neville", aliases = '
               '["Warwick"]}]\ntitles = [{name = "warwick"}]\nheirs = [{name = "Neville"}]\n')
    with pytest.raises(DataError, match=r"titles\[1\]: 'warwick' is listed twice"):
        load(aliased, "b.toml")  # a card's alias, in the cards' name space
    assert len(load(aliased.replace("titles", "places"), "b.toml").entries) == 3  # other spaces


def test_the_index_follows_amendments_and_keeps_the_order():
    box = load('format = "kingmaker-components/1"\n'
               'nobles = [{name = "Neville", aliases = ["Warwick"]}, {name = "Percy"}]\n', "b")
    for index in range(200):  # enough to fold the top layer into the base several times
        box = box.with_entry(components.Entry("place", f"Place {index}", (("kind", "town"),)))
    neville = box.get("noble", "Neville")
    box = box.with_entry(neville.merged({"aliases": ("Kingmaker",)}))  # Warwick taken away
    assert box.clash("noble", "warwick") is None and box.clash("title", "kingmaker").name \
        == "Neville"
    assert [e.name for e in box.of("noble")] == ["Percy", "Neville"]  # amended: last
    assert box.clash("place", "place 7").name == "Place 7" and box.clash("heir", "place 7") \
        is None
    assert box == Box(box.entries)  # a box is its entries, however it was built
    fresh = Box(box.entries)
    assert fresh.clash("noble", "kingmaker").name == "Neville" and \
        fresh.clash("noble", "warwick") is None


@pytest.mark.parametrize("body, said", [
    ("x = " + "[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ("x = " + "{a = " * 5000 + "1" + "}" * 5000, "nested too deeply"),
    ("x = " + "9" * 5000, "a number too long"),
])
def test_a_components_file_nested_deep_or_with_huge_numbers_is_refused(cli, body, said):
    (cli.path / "box.toml").write_text('format = "kingmaker-components/1"\n' + body + "\n")
    result = cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "--components", "box.toml")
    assert result.status == 2 and said in result.err and "internal error" not in result.err
    assert not (cli.path / "game.toml").exists()


def test_a_components_file_that_is_not_a_regular_file_is_refused_at_once(cli):
    """/dev/zero was read 4.5 GiB in 32 s and a FIFO without a writer blocked forever."""
    import os

    os.mkfifo(cli.path / "fifo")
    (cli.path / "folder").mkdir()
    for path, said in (("/dev/zero", "is a character device"), ("fifo", "is a FIFO"),
                       ("folder", "is a folder"), ("gone.toml", "gone.toml: no such file")):
        result = cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "--components", path)
        assert result.status == 2 and said in result.err, (path, result.err)
    (cli.path / "huge.toml").write_bytes(b"#" * (4 * 1024 * 1024 + 1))
    result = cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "--components", "huge.toml")
    assert result.status == 2 and "larger than 4 MiB" in result.err
    assert not (cli.path / "game.toml").exists()


def test_a_declarations_refusals_say_an_event_and_an_office():
    """F9's grammar, wherever a kind of component is named: 'an event', 'an office'."""
    _, state = declared_game()
    for move, said in (("declare event Fair-Weather wings=3", "an event has no field 'wings'"),
                       ("declare office Treasurer wings=3", "an office has no field 'wings'"),
                       ("declare noble Chancellor-of-England troops=1 lords=1 home=Raglan",
                        "Chancellor of England is declared already (as an office)")):
        with pytest.raises((NotationError, IllegalMove)) as info:
            play(state, move)
        assert info.value.message.startswith(said), (move, info.value.message)
    with pytest.raises(DataError) as data:
        load('format = "kingmaker-components/1"\nevents = [{name = "Fog", wings = 3}]\n', "x")
    assert "(an event has " in str(data.value)


def test_b7_values_ride_on_a_move_for_a_card_the_log_does_not_list():
    """README: `draw Herbert troops=10 lords=1 home=Raglan`. For a card the log lacks, the bare
    values belong to it, of the kind its printed name tells (R-2); the refusal's advice
    (`NAME.troops=20`) works when typed; a name that tells no kind is asked as a declare line."""
    from referee.games.kingmaker.events.base import inline_declarations, with_inline

    _, state = declared_game()
    assert not state.box.get("title", "Earl of Richmond")
    text = "draw Earl of Richmond troops=20 commons=1"
    items = inline_declarations(state, ["Earl of Richmond"], ["troops=20", "commons=1"], text)
    assert items == ("Earl of Richmond.troops=20", "Earl of Richmond.commons=1")
    made = with_inline(state, items).box.get("title", "Earl of Richmond")
    assert (made.get("troops"), made.get("commons")) == (20, 1)
    named = with_inline(state, ["Earl of Richmond.troops=20"]).box.get("title",
                                                                        "Earl of Richmond")
    assert named.get("troops") == 20 and named.get("commons") is None
    noble = with_inline(state, ["Herbertson.troops=10", "Herbertson.lords=1"])
    assert noble.box.get("noble", "Herbertson").get("lords") == 1
    with pytest.raises(IllegalMove) as err:  # a ship's name tells no kind: asked, not guessed
        with_inline(state, ["Grace Dieu.home_port=Bristol"])
    assert err.value.code == "unknown-entry" and "  declare ___ Grace-Dieu" in err.value.message
