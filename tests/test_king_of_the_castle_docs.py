"""King of the Castle's man page and golden games stay true to the code and to the issue: every
card, event and field documented; the golden games cover a game to the end, a shared first place
and scoring by the letters in hand."""

from __future__ import annotations

import re

from referee import log as logfile
from referee.games.king_of_the_castle import GAME
from referee.games.king_of_the_castle.components import CARDS
from referee.replay import replay_log
from tests.conftest import GOLDEN, ROOT

MAN = (ROOT / "man" / "referee-king-of-the-castle.6").read_text(encoding="utf-8")
GAMES = GOLDEN / "king-of-the-castle"


def plain(text: str) -> str:
    return text.replace("\\-", "-").replace("\\e", "\\")


def final(name: str):
    log = logfile.read(GAMES / f"{name}.toml")
    return log, replay_log(log)[1]


def test_the_man_page_names_every_card_event_field_and_ruling():
    page = plain(MAN)
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", '"HIDDEN INFORMATION"', "CARDS",
                    "RULINGS", "NOTATION", '"LOG EVENTS"', "SCORESHEET", "EXAMPLES",
                    '"SEE ALSO"'):
        assert re.search(rf"^\.SH {section}$", MAN, re.M), section
    for card in CARDS:
        assert card.slug.rsplit("-", 1)[0] in page, card.slug
    for name, etype in GAME.events.items():
        assert f".B {name}\n" in page
        for field in etype.fields:
            assert f"{field} (" in page
    for ruling in GAME.rulebook.rulings:
        assert f".B {ruling.id}\n" in page
    assert "referee-king-of-the-castle (6)" in plain((ROOT / "man" / "referee.1").read_text())


def test_three_players_to_the_end_with_one_winner():
    log, state = final("three-player")
    assert [p.name for p in log.players] == ["Ann", "Ben", "Cat"] and log.seed is None
    assert state.over and state.ending and state.reshuffles >= 1
    assert len(GAME.score(state).winners) == 1
    types = {e.event.type for e in log.entries}
    assert types >= {"squires", "reveal", "play", "reply", "pass", "open"}


def test_six_players_share_first_place():
    log, state = final("six-player-shared-first")
    sheet = GAME.score(state)
    assert len(log.players) == 6 and len(sheet.winners) > 1
    assert {r.place for r in sheet.rows if r.name in sheet.winners} == {1}
    assert "share first place" in sheet.outcome


def test_a_game_scored_by_the_letters_in_hand():
    log, state = final("four-player-hand")
    assert log.options["squires"] == "hand" and log.options["personality_order"] == "alphabetical"
    entered = [e.event for e in log.entries if e.event.type == "letters"]
    assert entered and all(len(e["letters"]) == state.hands[state.seat(e.by)].size
                           for e in entered)
    assert not any(e.event.type in ("squires", "open") for e in log.entries)
