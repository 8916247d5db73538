"""Kingmaker's notation, declared once per event type (kingmaker/events/forms.py): reading an
event's canonical text gives the event back, and the lines `options` and the man page list are the
form's own rendering."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from referee import log as logfile
from referee import replay
from referee.engine import Args, apply_event
from referee.errors import NotationError
from referee.games.kingmaker import GAME
from referee.games.kingmaker.events.forms import MISSING, Case, Flag, Form, Key, Slot
from referee.games.kingmaker.notation import items, shown_list, tokens
from referee.simulate import default_players, play_out
from tests.conftest import GOLDEN

# What the forms listed before they were derived from the event types' forms (issue 27).
LISTED = {
    "declare": ["declare KIND NAME key=value ...",
                "declare votes|battle_chart|death_chart key=value ..."],
    "amend": ["amend KIND NAME key=value ..."],
    "dealt": ["dealt CARD, CARD, ..."],
    "assign": ["assign CARD to NOBLE", "assign CARD to chancery"],
    "event": ["event CARD"],
    "respond": ["respond NOBLE [with NOBLES] [port PLACE]"],
    "leave": ["leave HEIR with NOBLE"],
    "storm": ["storm SHIP ROLL [ROLL ...] [port PLACE]"],
    "friendly": ["friendly PLACE for PLAYER"],
    "move": ["move NOBLES [with HEIRS] to LOCATION [via PLACES] [freemove]"],
    "sail": ["sail SHIP to port:P|sea:TEXT [with NOBLES] [aboard] [agreed]"],
    "attack": ["attack at LOCATION with NOBLES [allies NOBLES] on NOBLES [allies NOBLES] "
               "[target NAME] [french] [regions R,...]"],
    "siege": ["siege lay|join PLACE with NOBLES",
              "siege conclude PLACE [with NOBLES] [french] [regions R,...]", "siege break PLACE"],
    "weather": ["weather CARD"],
    "result": ["result major|minor|none [ROLL]", "result ROLL"],
    "deaths": ["deaths NAMES", "deaths none"],
    "save": ["save NAME ROLL"],
    "heir": ["heir HEIR to NOBLE|none"],
    "control": ["control PLACE to NOBLE"],
    "ransom": ["ransom NOBLE [to LOCATION]"],
    "kill": ["kill NOBLE"],
    "retreat": ["retreat NOBLE to LOCATION"],
    "take": ["take HEIR by NOBLE"],
    "execute": ["execute HEIR"],
    "crown": ["crown HEIR at PLACE"],
    "parliament": ["parliament call at PLACE [summon NOBLE]",
                   "parliament people at PLACE [moving NOBLE | host NOBLE]"],
    "excuse": ["excuse NOBLES", "excuse NOBLE sea"],
    "revoke": ["revoke NOBLES"],
    "port": ["port SHIP PLACE"],
    "stay": ["stay SHIP", "stay NOBLE|SHIP freemove", "stay NOBLE"],
    "bishop": ["bishop CARD to NOBLE"],
    "select": ["select CARDS", "select none"],
    "propose": ["propose CARD to NOBLE"],
    "vote": ["vote yea PLAYERS nay PLAYERS", "vote none"],
    "illegitimate": ["illegitimate KING"],
    "dismiss": ["dismiss"],
    "return": ["return NOBLE [to LOCATION]"],
    "draw": ["draw CARD", "draw hidden"],
    "play": ["play CARD to NOBLE"],
    "discard": ["discard CARD"],
    "give": ["give CARD|hidden to PLAYER"],
    "transfer": ["transfer ITEM from NOBLE to NOBLE [agreed]",
                 "transfer OFFICE from NOBLE to NOBLE [agreed] approved"],
    "next": ["next"],
    "clock": ["clock pause|resume"],
    "join": ["join PLAYER"],
    "end": ["end time", "end REASON"],
}
# Event types no seeded playout nor golden log records: typed, then printed and read again.
TYPED = {"amend": "amend noble Herbert troops=20", "join": "join Ann",
         "leave": "leave Henry with Neville", "bishop": "bishop Bishop-of-Durham to Neville"}


def test_every_event_type_lists_its_own_forms_rendering():
    assert sorted(LISTED) == sorted(etype.name for etype in GAME.events)
    for etype in GAME.events:
        assert "form" in vars(type(etype)), etype.name  # its own, not the base's empty one
        assert etype.forms == etype.form.lines(etype.name)
        assert [syntax for syntax, _ in etype.forms] == LISTED[etype.name]
        assert all(note for _, note in etype.forms)


def playout_events() -> list[tuple[Any, Any]]:
    """(the state before, an event) from seeded playouts: each event recorded and, every ninth
    one, every legal move there."""
    out = []
    for seed in range(3):
        for count in (3, 5, 7):
            playout = play_out(GAME, seed, default_players(GAME, count))
            state = GAME.setup(playout.players, GAME.default_options(), playout.seed)
            for index, event in enumerate(playout.events):
                out.append((state, event))
                if index % 9 == 0:
                    out.extend((state, move) for move in GAME.legal(state))
                state = apply_event(GAME, state, event, playout.players)
    return out


def golden_events() -> list[tuple[Any, Any]]:
    out = []
    for path in sorted((GOLDEN / "kingmaker").glob("*.toml")):
        log = logfile.read(path)
        out.extend((step.before, step.entry.event)
                   for step in replay.steps(replay.from_log(log), log.entries))
    return out


def test_reading_an_events_canonical_text_gives_the_event_back():
    pairs = playout_events() + golden_events()
    seen: Counter[str] = Counter()
    for state, event in pairs:
        text = GAME.format(state, event)
        assert GAME.parse(state, text, event.by) == event, text
        seen[event.type] += 1
    assert set(seen) | set(TYPED) == set(LISTED)  # every event type, once at least
    assert sum(seen.values()) > 5000


@pytest.mark.parametrize("kind", sorted(TYPED))
def test_typed_events_print_and_read_back(kind):
    playout = play_out(GAME, 1, default_players(GAME, 3))
    state = GAME.setup(playout.players, GAME.default_options(), playout.seed)
    for event in playout.events[:60]:
        state = apply_event(GAME, state, event, playout.players)
    event = GAME.parse(state, TYPED[kind], "Ann")
    assert event.type == kind
    assert GAME.format(state, event) == TYPED[kind]
    assert GAME.parse(state, GAME.format(state, event), "Ann") == event


# ---- the machinery, on words alone ---------------------------------------------------------


def words(state: Any, typed: list[str], args: Args, out: dict[str, Any]) -> list[str]:
    found = items(typed)
    if not found:
        raise NotationError(f"nothing in {args.text!r}", code="no-name")
    return found


def word(state: Any, typed: list[str], args: Args, out: dict[str, Any]) -> str:
    return " ".join(words(state, typed, args, out))


def read(form: Form, text: str) -> dict[str, Any]:
    return form.read(None, None, Args(tuple(tokens(text)[1:]), text, "Ann"))


MOVE = Form(Slot("who", "NOBLES", words, shown_list),
            Key("to", Slot("to", "LOCATION", word)),
            Key("via", Slot("via", "PLACES", words, shown_list), optional=True),
            Key("port", Slot("port", "PLACE", word), optional=True, strict=True),
            Flag("fast"), Flag("agreed", anywhere=True), note="a move")


def test_a_form_reads_its_parts_and_prints_them_back():
    fields = read(MOVE, "go Ann,Ben to York via Leeds fast")
    assert fields == {"who": ["Ann", "Ben"], "to": "York", "via": ["Leeds"], "fast": True}
    assert MOVE.text("go", fields) == "go Ann,Ben to York via Leeds fast"
    assert read(MOVE, "go agreed Ann to York")["agreed"] is True  # anywhere
    assert MOVE.lines("go") == (("go NOBLES to LOCATION [via PLACES] [port PLACE] [fast] "
                                 "[agreed]", "a move"),)


def test_an_optional_keyword_typed_bare_is_ignored_unless_strict():
    assert "via" not in read(MOVE, "go Ann to York via")
    with pytest.raises(NotationError) as err:
        read(MOVE, "go Ann to York port")
    assert err.value.code == "no-name"
    # a flag that is not `anywhere` is the last word only: elsewhere it is part of a name
    assert read(MOVE, "go Ann fast to York") == {"who": ["Ann fast"], "to": "York"}


def test_a_flag_is_a_keyword_in_any_case_but_never_a_near_spelling():
    assert read(MOVE, "go Ann to York FAST")["fast"] is True
    # before forms, `move ... freemove'` named a place "York freemove'": still not the flag
    assert read(MOVE, "go Ann to York fast'") == {"who": ["Ann"], "to": "York fast'"}
    assert read(MOVE, "go Ann to York agreed'") == {"who": ["Ann"], "to": "York agreed'"}


def test_commas_in_the_head_name_nothing():
    storm = Form(Slot("ship", "SHIP", word, width=1), Slot("rolls", "ROLL", words, optional=True))
    # before forms, `storm ,Trinity 50` read the ship Trinity (the comma named nothing)
    assert read(storm, "storm ,Trinity 50") == {"ship": "Trinity", "rolls": ["50"]}
    assert read(storm, "storm , , Trinity , 50") == {"ship": "Trinity", "rolls": ["50"]}
    # commas alone type no roll: the default (in a seeded game, the tool's roll) is filled in
    rolled = Form(Slot("ship", "SHIP", word, width=1),
                  Slot("rolls", "ROLL", words, optional=True, default=lambda *_: ["13"]))
    assert read(rolled, "storm Trinity ,") == {"ship": "Trinity", "rolls": ["13"]}
    assert read(rolled, "storm Trinity , 50") == {"ship": "Trinity", "rolls": ["50"]}


def test_a_required_keyword_left_out_is_read_from_nothing():
    with pytest.raises(NotationError) as err:
        read(MOVE, "go Ann")
    assert err.value.code == "no-name"


def test_words_no_part_takes_are_refused_with_the_usage_when_given():
    bare = Form(Key("yea", Slot("yea", "PLAYERS", words, shown_list), optional=True))
    with pytest.raises(NotationError) as err:
        read(bare, "vote Ann")
    assert err.value.code == "trailing-words"
    vote = Form(Key("yea", Slot("yea", "PLAYERS", words, shown_list), optional=True),
                Key("nay", Slot("nay", "PLAYERS", words, shown_list), optional=True),
                empty=("none",), usage=("vote yea PLAYERS", "bad-vote", "R-38"),
                cases=(Case("vote", {"yea": True, "nay": True}),
                       Case("nobody", {"yea": False, "nay": False})))
    for text in ("vote Ann", "vote"):
        with pytest.raises(NotationError) as err:
            read(vote, text)
        assert (err.value.code, err.value.rule) == ("bad-vote", "R-38")
    assert read(vote, "vote none") == {"yea": [], "nay": []}
    assert vote.text("vote", {"yea": [], "nay": []}) == "vote none"
    assert vote.text("vote", {"yea": [], "nay": ["Ben"]}) == "vote nay Ben"
    assert [line for line, _ in vote.lines("vote")] == ["vote yea PLAYERS nay PLAYERS",
                                                      "vote none"]


def test_a_split_keyword_starts_sections_of_its_own():
    attack = Form(Key("with", Slot("with", "NOBLES", words, shown_list)),
                  Key("allies", Slot("allies", "NOBLES", words, shown_list), optional=True),
                  Key("on", Slot("on", "NOBLES", words, shown_list), split=True,
                      absent="name the defenders", absent_code="no-defenders"),
                  Key("allies", Slot("def_allies", "NOBLES", words, shown_list), optional=True))
    fields = read(attack, "attack with A allies B on C allies D")
    assert fields == {"with": ["A"], "allies": ["B"], "on": ["C"], "def_allies": ["D"]}
    assert attack.text("attack", fields) == "attack with A allies B on C allies D"
    with pytest.raises(NotationError) as err:
        read(attack, "attack with A allies B")
    assert err.value.code == "no-defenders"


def test_alternative_words_late_slots_and_defaults():
    order: list[str] = []

    def noted(state: Any, typed: list[str], args: Args, out: dict[str, Any]) -> str:
        order.append(typed[0])
        return typed[0]

    form = Form(Slot("item", "ITEM", noted, late=True, alts=("hidden",)),
                Key("from", Slot("from", "NOBLE", noted)),
                Key("to", Slot("to", "NOBLE", noted, default=lambda *_: "home"), optional=True),
                Key("at", Slot("at", "PLACE", noted, default=lambda *_: MISSING),
                    optional=True))
    assert read(form, "give ring from Ann") == {"item": "ring", "from": "Ann", "to": "home"}
    assert order == ["Ann", "ring"]  # the late slot after the others
    assert read(form, "give Hidden from Ann")["item"] == "hidden"
    assert form.text("give", {"item": "hidden", "from": "Ann"}) == "give hidden from Ann"


def test_a_joining_keyword_adds_its_words_to_the_head():
    def along(state: Any, typed: list[str], args: Args, out: dict[str, Any]) -> list[str]:
        return [w for w in typed if w != "Heir"]  # heirs go with their nobles: dropped

    form = Form(Slot("who", "NOBLES", words, shown_list),
                Key("with", Slot("with", "HEIRS", along), optional=True, join=True),
                Key("to", Slot("to", "LOCATION", word)))
    fields = read(form, "go Ann with Heir,Ben to York")
    assert fields == {"who": ["Ann", "Ben"], "to": "York"}
    assert form.text("go", fields) == "go Ann,Ben to York"
    assert form.lines("go")[0][0] == "go NOBLES [with HEIRS] to LOCATION"
