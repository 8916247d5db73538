"""The Dwarf King's man page, golden games and bundled demo stay true to the code."""

import re
from pathlib import Path

from referee import log as logfile
from referee.games.dwarf_king import GAME
from referee.games.dwarf_king.components import REPLACED_2022, SPECIALS, TILES_2011
from referee.games.dwarf_king.rulebook import RULEBOOK
from referee.manpage import escape
from referee.replay import replay_log
from referee.sheets import render_html, render_text

ROOT = Path(__file__).resolve().parents[1]
MAN = (ROOT / "man" / "referee-dwarf-king.6").read_text(encoding="utf-8")
GOLDEN = ROOT / "tests" / "golden" / "dwarf-king"


def plain(text):
    return text.replace("\\-", "-").replace("\\e", "\\")


def final(path):
    log = logfile.read(path)
    return log, replay_log(log)[1]


def test_man_page_names_every_card_quest_ruling_and_event():
    page = plain(MAN)
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", '"SPECIAL CARDS"', "QUESTS", "RULINGS",
                    "NOTATION", '"LOG EVENTS"', "EXAMPLES", '"SEE ALSO"'):
        assert re.search(rf"^\.SH {section}$", MAN, re.M), section
    for s in SPECIALS:
        assert f".B {s.code}\n" in page and s.id in page
    for q in TILES_2011 + REPLACED_2022:  # every side as the referee scores it (R-13: tile 20)
        assert f".B {q.label}\n{escape(q.name)}: {escape(q.text)}.\n" in MAN, q.label
    for code in (r.id for r in RULEBOOK.rulings):
        assert f".B {code}\n" in page
    for event, spec in GAME.events.items():
        assert f".B {event}\n" in page
        for field in spec.fields:
            assert f"{field} (" in page
    assert ".BR referee (1)" in MAN


def test_three_player_golden_game_is_seven_hands_with_a_known_first_hand():
    log, state = final(GOLDEN / "three-player.toml")
    assert [p.name for p in log.players] == ["Pierre", "Bruno", "Catie"] and log.seed is None
    assert len(state.results) == 7 and state.over
    assert sum(e.event.type == "hand" for e in log.entries) == 2
    assert len({r.special for r in state.results}) == 7
    assert len({r.quest[0] for r in state.results}) == 7


def test_five_player_golden_game_breaks_a_tie_with_an_extra_hand():
    log, state = final(GOLDEN / "five-player-tie.toml")
    assert len(log.players) == 5 and log.options["edition"] == 2022
    after_seven = [sum(r.points[s] for r in state.results[:7]) for s in range(5)]
    assert after_seven.count(max(after_seven)) > 1
    assert len(state.results) > 7 and state.over
    sheet = GAME.score(state)
    assert "Hand 8" in sheet.category_names and len(sheet.winners) == 1
    assert "extra hand" in sheet.outcome


def test_bundled_demo_replays_to_its_scoresheet():
    path = ROOT / "referee" / "examples" / "dwarf-king.toml"
    _, state = final(path)
    sheet = GAME.score(state)
    assert render_text(sheet) == path.with_suffix(".scoresheet.txt").read_text(encoding="utf-8")
    html = render_html(sheet)
    assert "<svg" in html and "running totals" in html


def test_an_extra_hand_is_announced_and_shown():
    log = logfile.read(GOLDEN / "five-player-tie.toml")
    state = GAME.setup(log.players, log.options, None)
    for entry in log.entries:
        before, state = state, GAME.apply(state, entry.event)
        if len(state.results) == 7 and len(before.results) == 6:
            assert any("(extra hand: first place is tied)" in line
                       for line in GAME.describe(before, entry.event, state))
            assert "Hand 8 (extra hand); dealer" in GAME.render(state)
            return
    raise AssertionError("the seventh hand never ended")
