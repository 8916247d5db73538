"""Kingmaker from the box to the first turn (issue 28): a group with the 1974 box and the shipped
components file deals four hands; the referee asks for every printed value the deal lacks in one
refusal, one `referee declare` records them all, and then only the moves the rules require are
typed until the first turn's first move."""

from __future__ import annotations

import io
import re

import pytest

from referee import log as logfile

HANDS = {
    "Ann": "Neville, Chancellor-of-England, Bishop-of-Durham, Bristol, Carisbrooke, Coventry, "
           "Earl-of-Essex, Ipswich, Lancaster",
    "Ben": "Percy, Audley, Marshal-of-England, Archbishop-of-York, Leicester, Newcastle, "
           "Northampton, Nottingham, Shrewsbury",
    "Cat": "Stanley, Bourchier, Hastings, Archbishop-of-Canterbury, Bishop-of-Lincoln, "
           "Bishop-of-Norwich, Swansea, French-Foot-Soldiers, Bishop-of-Carlisle",
    # six cards the shipped file does not list at all, as a real box has
    "Dan": "Clifford, Herbert, Beaufort, Stafford, Talbot, Mowbray, Howard, Earl-of-Pembroke, "
           "Bishop-of-Ely",
}
# The values from the box, in the refusal's order; `place ___` lines name the castle.
DECLARED = """\
declare noble Neville home=Middleham
declare place Middleham kind=castle
declare office Chancellor-of-England troops=20
declare noble Audley lords=1 home=Heleigh
declare place Heleigh kind=castle
declare noble Percy troops=40 lords=3 home=Alnwick
declare place Alnwick kind=castle
declare office Marshal-of-England commons=2
declare noble Bourchier lords=1 home=Halstead
declare place Halstead kind=castle
declare noble Hastings troops=10 home=Ashby
declare place Ashby kind=castle
declare noble Stanley troops=20 lords=2 home=Lathom
declare place Lathom kind=castle
declare ship Le-Lucas capacity=300
declare bishop Archbishop-of-Canterbury lords=6
declare bishop Bishop-of-Carlisle lords=3
declare place Swansea kind=town
declare noble Clifford troops=20 lords=2 home=Skipton
declare place Skipton kind=castle
declare noble Herbert troops=10 lords=1 home=Raglan
declare place Raglan kind=castle
declare noble Beaufort troops=10 lords=2 home=Corfe
declare place Corfe kind=castle
declare noble Stafford troops=20 lords=2 home=Stafford
declare place Stafford kind=castle
declare noble Talbot troops=30 lords=2 home=Wingfield
declare place Wingfield kind=castle
declare noble Mowbray troops=30 lords=3 home=Framlingham
declare place Framlingham kind=castle
declare noble Howard troops=10 lords=1 home=Tendring
declare place Tendring kind=castle
declare title Earl-of-Pembroke troops=20 commons=2
declare bishop Bishop-of-Ely lords=2
"""
LAYOUT = [
    "Earl-of-Essex to chancery", "Chancellor-of-England to Neville", "Bishop-of-Durham to Neville",
    "Bristol to Neville", "Carisbrooke to Neville", "Coventry to Neville", "Ipswich to Neville",
    "Lancaster to Neville",
    "Marshal-of-England to chancery", "Archbishop-of-York to Percy", "Leicester to Percy",
    "Newcastle to Percy", "Northampton to Audley", "Nottingham to Audley", "Shrewsbury to Audley",
    "Archbishop-of-Canterbury to Stanley", "Bishop-of-Lincoln to Stanley",
    "Bishop-of-Norwich to Bourchier", "Swansea to Hastings", "French-Foot-Soldiers to Stanley",
    "Bishop-of-Carlisle to Hastings",
    "Earl-of-Pembroke to Clifford", "Bishop-of-Ely to Talbot",
]


def _blank_shape(line: str) -> str:
    """A filled-in line as the refusal printed it: every value, and a place's name, a blank."""
    line = re.sub(r"=\S+", "=___", line)
    return re.sub(r"^declare place \S+ kind=___$", "declare place ___ kind=___", line)


def test_from_new_to_the_first_move_with_one_declaration(cli, monkeypatch):
    typed: list[tuple[str, ...]] = []

    def run(*args: str):
        typed.append(args)
        return cli(*args)

    assert run("new", "kingmaker", "-p", "Ann", "-p", "Ben", "-p", "Cat", "-p", "Dan").status == 0
    for player in ("Ann", "Ben", "Cat"):
        assert run("play", f"dealt {HANDS[player]}").status == 0
    before = (cli.path / "game.toml").read_bytes()
    refused = run("play", f"dealt {HANDS['Dan']}")
    assert refused.status == 1 and "rule: R-2" in refused.err
    assert (cli.path / "game.toml").read_bytes() == before  # untouched
    asked = [line.strip() for line in refused.err.splitlines() if line.startswith("  declare ")]
    # every value the deal needs, the whole table's, in one message, each a line to fill in
    assert [_blank_shape(line) for line in asked] == \
        [_blank_shape(line) for line in DECLARED.splitlines()]
    assert "declare place ___ kind=castle" in asked and "declare noble Percy troops=___ " \
        "lords=___ home=___" in asked and "declare bishop Bishop-of-Ely lords=___" in asked
    assert "None" not in refused.err and "Entry(" not in refused.err
    monkeypatch.setattr("sys.stdin", io.StringIO(DECLARED))
    declared = run("declare")
    assert declared.status == 0, declared.err
    assert run("play", f"dealt {HANDS['Dan']}").status == 0
    for move in LAYOUT:
        result = run("play", f"assign {move}")
        assert result.status == 0, (move, result.err)
    assert "Ann draws an event card" in cli("options").out  # looked at, not typed
    assert run("play", "event Writ").status == 0
    log = logfile.read(cli.path / "game.toml")
    assert log.entries[-1].event.type == "event"
    # new, four deals and the one refused, one declaration, 23 cards laid out, the first move
    assert len(typed) == 31
    assert sum(1 for args in typed if args[0] == "declare") == 1


def test_a_refused_batch_of_declarations_leaves_the_log_untouched(cli):
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    before = (cli.path / "game.toml").read_bytes()
    (cli.path / "d.txt").write_text("# from the box\nnoble Percy troops=40\n\n"
                                    "declare place ___ kind=castle\n")
    result = cli("declare", "d.txt")
    assert result.status == 1 and "line 4" in result.err and "blank ___" in result.err
    assert "rule: R-2" in result.err
    assert (cli.path / "game.toml").read_bytes() == before
    (cli.path / "d.txt").write_text("noble Neville troops=60\n")  # printed 50: a slip
    clash = cli("declare", "d.txt")
    assert clash.status == 1 and "amend" in clash.err
    assert cli("declare", "missing.txt").status == 2
    (cli.path / "d.txt").write_text("# nothing\n")
    assert cli("declare", "d.txt").status == 2
    (cli.path / "d.txt").write_text("noble Percy troops=40 lords=3\nnext\n")
    assert cli("declare", "d.txt").status == 1
    (cli.path / "d.txt").write_text("noble Percy troops=40 lords=3\n")
    done = cli("declare", "d.txt")
    assert done.status == 0 and "declare noble Percy troops=40 lords=3" in done.out


def test_options_during_a_deal_say_what_to_type_when_no_deal_can_be_listed(cli):
    """Three players with the shipped file: once its complete cards run out, `options` still
    says how the deal is typed and what is declared (never a heading alone)."""
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "-p", "Cat").status == 0
    first = cli("options")
    assert "  dealt " in first.out  # Ann's deal can be listed from the complete cards
    assert cli("play", "dealt Archbishop-of-York, Bishop-of-Durham, Bishop-of-Lincoln, "
                       "Bishop-of-Norwich, Bristol, Carisbrooke, Coventry, Earl-of-Essex, "
                       "French-Foot-Soldiers, Ipswich, Lancaster, Leicester").status == 0
    shown = cli("options")
    assert shown.status == 0 and "  dealt " not in shown.out
    lines = [line for line in shown.out.splitlines() if line.strip()]
    assert len(lines) >= 2 and "`dealt CARD, CARD, ...`" in lines[1]
    assert "`referee declare`" in shown.out and "(R-2)" in shown.out


def test_games_and_new_agree_on_the_default_box(cli):
    shown = cli("games").out
    kingmaker = shown[shown.index("\nkingmaker "):]  # its line, then its options below it
    assert "components=kingmaker-ah1.toml" in kingmaker
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    written = logfile.read(cli.path / "game.toml").options["components"]
    assert written.startswith("kingmaker-ah1.toml sha256:")


def test_no_deal_is_listed_that_the_layout_would_refuse():
    """legal() and apply agree: with a dealt card still lacking a value, the deal that would
    start the layout is not listed (it would be refused, R-2)."""
    from referee.engine import Event, Player, apply_event
    from referee.errors import IllegalMove
    from referee.games.kingmaker import GAME
    from tests.kingmaker_realm import fresh, play

    two = (Player("Ann"), Player("Ben"))
    state = play(fresh(two), "declare noble Zouche troops=30 lords=2", players=two)
    listed = next(e for e in GAME.legal(state) if e.type == "dealt")
    cards = ["Zouche", *listed["cards"][1:]]
    state = apply_event(GAME, state, Event.make("dealt", "Ann", cards=cards), two)
    assert state.dealt == ("Ann",)  # dealt with a value missing: the layout will ask
    assert not [e for e in GAME.legal(state) if e.type == "dealt"]
    deck = [c for c, w in sorted(state.cards.items()) if w == "deck"][:18]
    with pytest.raises(IllegalMove) as refused:
        play(state, "dealt " + ", ".join(c.replace(" ", "-") for c in deck), by="Ben",
             players=two)
    assert "declare noble Zouche home=___" in refused.value.message
    assert "legal" in GAME.legal_note(state) or "`referee declare`" in GAME.legal_note(state)


def _four_deals(cli, monkeypatch) -> None:
    """The four hands dealt with the shipped file, every value they lack declared: the lay-out."""
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "-p", "Cat", "-p", "Dan").status == 0
    for player in ("Ann", "Ben", "Cat"):
        assert cli("play", f"dealt {HANDS[player]}").status == 0
    monkeypatch.setattr("sys.stdin", io.StringIO(DECLARED))
    assert cli("declare").status == 0
    assert cli("play", f"dealt {HANDS['Dan']}").status == 0


def _refused(cli, move: str) -> str:
    """A move refused (status 1, the log byte-identical, no internal error): its message."""
    return " ".join(_refused_lines(cli, move).split())  # the message unwrapped


def _refused_lines(cli, move: str) -> str:
    """A move refused: its message as printed, line by line (a block of `declare` lines)."""
    before = (cli.path / "game.toml").read_bytes()
    result = cli("play", move, "--as", "Ann")
    assert result.status == 1 and (cli.path / "game.toml").read_bytes() == before, result
    assert "internal error" not in result.err
    return "\n".join(line.rstrip() for line in result.err.splitlines())


def test_a_slip_in_the_layout_is_offered_the_near_name_never_a_new_card(cli, monkeypatch):
    """F10: a typo of a dealt card or of a noble in play is offered the near name (as the deal
    is), is never taken, and is never advised to be declared as a new card."""
    _four_deals(cli, monkeypatch)
    card = _refused(cli, "assign Earl of Esex to chancery")
    assert "'Earl of Esex' is not a crown card this log knows: Earl-of-Essex?" in card
    assert "declare" not in card
    noble = _refused(cli, "assign Bristol to Nevile")
    assert "'Nevile' in 'assign Bristol to Nevile' is not a noble in play: Neville?" in noble
    # Near nothing, and no new card: the lay-out's cards were all dealt, so all declared (a
    # `declare` line, typed, would meet "not among the cards you were dealt")
    far = _refused(cli, "assign Zebra-Card to Neville")
    assert "'Zebra-Card' is not a crown card this log knows (a card new to the log is " \
        "declared when it is dealt or drawn) rule: R-2" in far and "`declare" not in far
    for move in LAYOUT:
        assert cli("play", f"assign {move}").status == 0
    assert cli("play", "event Writ").status == 0
    place = _refused(cli, "move Neville to Londn")
    assert "'Londn' in 'move Neville to Londn' is not a place: London?" in place


def test_an_event_card_the_file_does_not_list_is_declared_first(cli, monkeypatch):
    """F9: the shipped file lists eight event cards; a 1974 deck's other cards are met in the
    first chance phase, and the refusal gives the `declare event` line to fill in."""
    _four_deals(cli, monkeypatch)
    for move in LAYOUT:
        assert cli("play", f"assign {move}").status == 0
    unknown = _refused(cli, "event Fair Weather")
    assert "'Fair Weather' is not an event card this log knows; if it is a card of your box, " \
        "declare it first as its card prints it:\n  declare event Fair-Weather kind=___ " \
        "weather=___\nkind: plague, call, storm, writ, free-move, chancellor-may-call, " \
        "parliament-must, embassy or none; weather: fair or bad; a plague card also " \
        "place=___, a call card calls=___.\nFill in each ___ above from the box, then record " \
        "the lines at once with `referee declare` (the lines on standard input) or `referee " \
        "declare FILE`, or type each line at the `referee table` prompt; then the move goes " \
        "through.\n  rule: R-2" in _refused_lines(cli, "event Fair Weather")
    assert "a event" not in unknown
    slip = _refused(cli, "event Writt")  # near a listed card: both, since it may be new
    assert "'Writt' is not an event card this log knows: Writ? If Writt is another card of " \
        "your box, declare it first" in slip and " declare event Writt kind=___" in slip
    line = "declare event Fair-Weather kind=none weather=fair"  # the line, filled in
    assert cli("play", line).status == 0
    assert cli("play", "event Fair Weather").status == 0
    assert logfile.read(cli.path / "game.toml").entries[-1].event["card"] == "Fair Weather"


def test_a_deal_repeating_another_hands_card_is_refused_before_its_values_are_asked(cli):
    """F11: what no declared value mends (a card in another hand, a card named twice, a deal
    of the wrong size) is refused first, never after the table filled the declare lines."""
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "-p", "Cat", "-p", "Dan").status == 0
    for player in ("Ann", "Ben", "Cat"):
        assert cli("play", f"dealt {HANDS[player]}").status == 0
    hand = HANDS["Dan"].split(", ")  # six of its cards not in the shipped file
    for cards, said in (([*hand[:-1], "Neville"], "Neville is not in the Crown deck (in Ann's "
                                                  "hand) rule: §4"),
                        ([*hand[:-1], "Talbot"], "Talbot is named twice rule: §4"),
                        (hand[:-1], "Dan is dealt 9 card(s), not 8 (R-5) rule: R-5")):
        before = (cli.path / "game.toml").read_bytes()
        result = cli("play", "dealt " + ", ".join(cards))
        assert result.status == 1 and (cli.path / "game.toml").read_bytes() == before
        assert " ".join(result.err.split()) == f"referee: {said}"
    asked = cli("play", f"dealt {HANDS['Dan']}")  # the deal itself: its values, all at once
    assert asked.status == 1 and "declare noble Talbot troops=___" in asked.err
