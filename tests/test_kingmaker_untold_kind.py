"""A card the log does not list, its name one word, typed with printed values on a move (`draw
Blount troops=3`): a title, an office and a mercenary card print troops too, so its kind is
asked in one refusal with a line that works, never guessed a noble; values only a noble's card
prints (home, lords with troops) tell it. Only typing asks: a log's events replay as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee import log as logfile
from referee import session
from referee.evolve import evolve
from tests.conftest import GOLDEN

GAME = "kingmaker/four-player-complete-victory.toml"
DRAWS = 37  # events before Ann's draw (event 38)


@pytest.fixture
def at_a_draw(cli) -> Path:
    log = logfile.read(GOLDEN / GAME)
    path = cli.path / "game.toml"
    path.write_text(logfile.dumps(evolve(log, entries=log.entries[:DRAWS])), encoding="utf-8")
    return path


@pytest.mark.parametrize("move, kinds, example", [
    ("draw Blount troops=3", "noble, title, office or mercenary: each prints troops",
     "declare noble Blount troops=3"),
    ("draw Blount Blount.troops=3", "noble, title, office or mercenary: each prints troops",
     "declare noble Blount troops=3"),
    ("draw Blount lords=2", "noble or bishop: each prints lords", "declare noble Blount lords=2"),
])
def test_a_one_word_new_card_is_asked_its_kind_not_guessed_a_noble(cli, at_a_draw, move, kinds,
                                                                  example):
    before = at_a_draw.read_bytes()
    refused = cli("play", move, "--as", "Ann")
    assert refused.status == 1 and at_a_draw.read_bytes() == before
    assert refused.err.startswith(
        f"referee: Blount is not in this box yet, and a one-word name does not tell its kind "
        f"({kinds}): declare it first with the kind its card says, e.g. `{example}`, then the "
        "move again\n  rule: R-2\n")
    assert "declare noble Blount lords=___" not in refused.err  # no noble's line guessed
    assert cli("play", *example.split()).status == 0  # the example works as typed
    box = session.load(at_a_draw).state.box
    assert box.get("noble", "Blount") is not None and box.get("title", "Blount") is None


def test_values_only_a_nobles_card_prints_tell_the_kind(cli, at_a_draw):
    """troops with lords, or home: no other crown card prints them, so the move is read (and
    asks only what the noble lacks, as before)."""
    asked = cli("play", "draw Blount troops=3 lords=1", "--as", "Ann")
    assert asked.status == 1 and "  declare noble Blount home=___\n" in asked.err
    assert "does not tell its kind" not in asked.err
    played = cli("play", "draw Blount troops=3 lords=1 home=Lancaster", "--as", "Ann")
    assert played.status == 0 and "Blount enters play for Ann" in played.out



def test_the_example_line_holds_only_what_its_kind_prints(cli, at_a_draw):
    """A place's value typed for the card (Blount.kind=title, read as a place's kind) is no
    value of the example's kind: the line leaves it out, so that it works as typed (a noble
    has no field 'kind')."""
    refused = cli("play", "draw Blount Blount.troops=3 Blount.kind=title", "--as", "Ann")
    assert refused.status == 1
    assert "e.g. `declare noble Blount troops=3`, then the move again" in refused.err
    assert cli("play", "declare", "noble", "Blount", "troops=3").status == 0
