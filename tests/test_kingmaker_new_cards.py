"""A crown card the log does not list (F11): the kind its `declare` line gives is the kind its
printed name tells (an Admiral is an office, Welsh Mercenaries a mercenary card), never another;
a name that tells none leaves the kind blank and says so, with every kind's values."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from referee.games.kingmaker.components import ARRAYS, CROWN
from referee.games.kingmaker.events.declaring import kind_from_name
from referee.games.kingmaker.notation import BLANK
from tests.test_kingmaker_first_evening import DECLARED, HANDS

BOXES = sorted((Path(__file__).parents[1] / "referee" / "games" / "kingmaker").glob("*.toml"))


@pytest.mark.parametrize("box", BOXES, ids=lambda path: path.name)
def test_a_name_never_tells_a_wrong_kind(box):
    """Every crown card of the shipped box files, read as if the log lacked it: a bishop, title,
    office or mercenary by its name; a noble as one word; a ship never as anything but a ship
    or, a one-word name, a noble (the refusal then names the ship's line beside it)."""
    data = tomllib.loads(box.read_text(encoding="utf-8"))
    read = {(ARRAYS[key], entry["name"]): kind_from_name(entry["name"])
            for key, entries in data.items() if ARRAYS.get(key) in CROWN and key != "towns"
            for entry in entries}
    assert ("office", "Captain of Calais") in read or box.name == "kingmaker-ah1.toml"
    for (kind, name), told in read.items():
        if kind == "ship":
            assert told == BLANK or (told == "noble" and " " not in name), name
        else:
            assert told == kind, name
    assert kind_from_name("Admiral") == "office"  # the tester's card, guessed a noble before


def test_a_deal_asks_each_new_card_by_the_kind_its_name_tells(cli):
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "-p", "Cat", "-p", "Dan").status == 0
    for player in ("Ann", "Ben", "Cat"):
        assert cli("play", f"dealt {HANDS[player]}").status == 0
    hand = ("Clifford, Admiral, Captain-of-Calais, Warden-of-the-Cinque-Ports, Grace-Dieu, "
            "Welsh-Mercenaries, Trinity, Bishop-of-Ely, Earl-of-Pembroke")
    before = (cli.path / "game.toml").read_bytes()
    refused = cli("play", f"dealt {hand}")
    assert refused.status == 1 and (cli.path / "game.toml").read_bytes() == before
    assert "internal error" not in refused.err
    asked = [line for line in refused.err.splitlines() if line.startswith("  declare ")]
    assert asked[-11:] == [  # after the lines for the cards the other hands were dealt
        "  declare noble Clifford troops=___ lords=___ home=___",
        "  declare place ___ kind=castle",
        "  declare office Admiral troops=___ commons=___",
        "  declare office Captain-of-Calais troops=___ commons=___ assoc=calais",  # B8
        "  declare office Warden-of-the-Cinque-Ports troops=___ commons=___",
        "  declare ___ Grace-Dieu",  # a ship, which its name does not tell
        "  declare mercenary Welsh-Mercenaries troops=___",
        "  declare noble Trinity troops=___ lords=___ home=___",
        "  declare place ___ kind=castle",
        "  declare bishop Bishop-of-Ely lords=___",
        "  declare title Earl-of-Pembroke troops=___ commons=___"]
    notes = refused.err.splitlines()
    assert "Admiral, Captain of Calais, Warden of the Cinque Ports, Welsh Mercenaries, Bishop of " \
        "Ely, Earl of Pembroke: not in this box yet; the kind is read from the card's name." \
        in notes
    assert "Trinity: not in this box yet; a one-word name is read as a noble's (a ship's card " \
        "is `declare ship NAME capacity=___ home_port=___`, a town card's `declare town NAME " \
        "place=___`)." in notes
    assert "Grace Dieu: not in this box yet, and the name does not tell the card's kind: write " \
        "it for the ___ after `declare` (noble, title, office, bishop, mercenary, ship or " \
        "town), then that kind's values." in notes
    assert "Each kind's values: noble troops, lords, home; title troops, commons; office " \
        "troops, commons; bishop lords; mercenary troops; ship capacity, home_port; town " \
        "place." in notes
    # the lines filled in (Grace Dieu and Trinity are ships) and pasted: the deal goes through
    filled = DECLARED + "\n".join([
        "declare office Admiral troops=20 commons=1",
        "declare office Captain-of-Calais troops=30 commons=0",
        "declare office Warden-of-the-Cinque-Ports troops=10 commons=1",
        "declare ship Grace-Dieu capacity=300 home_port=Bristol",
        "declare mercenary Welsh-Mercenaries troops=50",
        "declare ship Trinity capacity=200 home_port=Bristol"]) + "\n"
    (cli.path / "d.txt").write_text(filled)
    assert cli("declare", "d.txt").status == 0
    dealt = cli("play", f"dealt {hand}")
    assert dealt.status == 0, dealt.err
    assert "Dan: dealt Clifford, Admiral, Captain-of-Calais" in dealt.out


def test_a_guard_an_heir_or_an_event_card_is_never_asked_as_a_new_crown_card(cli):
    """The shipped box lists them, though not as crown cards: typed in a deal or a draw, each is
    said to be what it is; never a `declare` line with a kind its name seems to tell (Chancellor
    May Call Parliament an office, Duke of York a title, Writ and Henry nobles)."""
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    before = (cli.path / "game.toml").read_bytes()
    told = {"Chancellor-May-Call-Parliament": "is an event card, drawn in the chance phase, not "
                                              "a crown card",
            "Writ": "is an event card, drawn in the chance phase, not a crown card",
            "Duke-of-York": "is a Royal Guard, never dealt or drawn, not a crown card",
            "Henry": "is an heir, not a crown card"}
    for word, said in told.items():
        refused = cli("play", f"dealt Percy, {word}, Neville")
        assert refused.status == 1, refused.err
        assert refused.err == f"referee: {word!r} {said}\n  rule: §2.1\n", refused.err
        assert "declare" not in refused.err and "internal error" not in refused.err
    assert (cli.path / "game.toml").read_bytes() == before
    assert kind_from_name("Chancellor May Call Parliament") == "office"  # by the name alone


def test_a_name_tied_to_calais_or_ireland_fills_in_its_assoc_b8():
    """B8: the Captain of Calais's line says assoc=calais (so it is refused as out of the
    house rules' game, rule 25, once declared) and a note says why; other names add none."""
    from referee.games.kingmaker.events.declaring import declare_lines, unknown_card_gaps, \
        unknown_notes

    assert declare_lines(unknown_card_gaps("Captain of Calais")) == [
        "declare office Captain-of-Calais troops=___ commons=___ assoc=calais"]
    assert declare_lines(unknown_card_gaps("Lieutenant of Ireland")) == [
        "declare office Lieutenant-of-Ireland troops=___ commons=___ assoc=ireland"]
    assert declare_lines(unknown_card_gaps("Earl of Kent")) == [
        "declare title Earl-of-Kent troops=___ commons=___"]
    assert any("out of the game (rule 25)" in note
               for note in unknown_notes(["Captain of Calais"]))
    assert not any("rule 25" in note for note in unknown_notes(["Earl of Kent"]))


def test_a_plague_cards_name_gives_its_kind_and_place_b11e():
    """B11e: `Plague in London` is read as a plague card at London, as the shipped file's
    `Plague in Calais` is one."""
    from referee.games.kingmaker.events.base import unknown_event
    from tests.test_kingmaker_components import declared_game

    _, state = declared_game()
    for typed, line in (("Plague-in-London", "declare event Plague-in-London kind=plague "
                                             "place=London weather=___"),
                        ("Fair-Weather", "declare event Fair-Weather kind=___ weather=___")):
        assert f"\n  {line}\n" in unknown_event(state, typed).message


def test_the_layout_asks_a_home_castles_kind_pre_filled_as_the_deal_did_b11d():
    """B11d: the deal's block pre-fills a noble's unnamed home as a castle; once named (home=X
    with no place line), the lay-out asks `declare place X kind=castle`, not kind=___."""
    from referee.games.kingmaker.events.deal import missing_refusal, _gaps
    from tests.test_kingmaker_components import declared_game
    from tests.kingmaker_realm import play

    _, state = declared_game()
    state = play(state, "declare noble Zouche troops=20 lords=1 home=Harringworth")
    gaps = list(_gaps(state, "Zouche"))
    assert gaps == [("place", "Harringworth", "kind", "castle")]
    assert "  declare place Harringworth kind=castle" in missing_refusal("x", gaps).message
