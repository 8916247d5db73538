"""King of the Castle never uses a card more often than the deck holds it (issue 24, item 13):
the card played and the card it makes a player lose are counted against the same copies."""

from __future__ import annotations

import json
import random

import pytest

from referee import log as logfile
from referee.engine import apply_event
from referee.errors import MoveError
from referee.games.king_of_the_castle import GAME
from referee.games.king_of_the_castle.components import CARD
from tests.kotc_table import Table


def test_a_third_unexpected_loss_is_refused():
    t = Table().start()
    t("unexpected-loss Ben loses keep")  # Ann: the first copy
    # Ben plays the second copy: Cat cannot lose a third.
    t.rejects("unexpected-loss Cat loses unexpected-loss", "no-copy-left")
    moves = [GAME.format(t.state, e) for e in GAME.legal(t.state)]
    assert "unexpected-loss Cat loses unexpected-loss" not in moves
    assert "unexpected-loss Cat loses plague" in moves  # what may lie face down still may


def test_a_third_unexpected_loss_through_sudden_changes_is_refused():
    t = Table().start()
    t("unexpected-loss Ben loses keep")
    t("sudden-changes")  # Ben draws three cards nobody at the table sees
    t.rejects("unexpected-loss Cat loses unexpected-loss", "no-copy-left")
    moves = [GAME.format(t.state, e) for e in GAME.legal(t.state)]
    assert "unexpected-loss Cat loses unexpected-loss" not in moves


def test_the_cli_and_check_refuse_a_third_unexpected_loss(cli):
    assert cli("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", "-p", "Cat",
               "--option", "squires=hand").status == 0
    assert cli("play", "reveal", *"QABCDEFGHI").status == 0
    assert cli("play", "unexpected-loss", "Ben", "loses", "keep").status == 0
    offered = json.loads(cli("options", "--json").out)["moves"]
    assert "unexpected-loss Cat loses unexpected-loss" not in offered
    before = (cli.path / "game.toml").read_bytes()
    result = cli("play", "unexpected-loss", "Cat", "loses", "unexpected-loss")
    assert result.status == 1 and "accounted for" in result.err
    assert (cli.path / "game.toml").read_bytes() == before
    # A log that records it anyway (edited by hand) fails `check`.
    log = logfile.read(cli.path / "game.toml")
    event = GAME.parse(_state(log), "unexpected-loss Cat loses unexpected-loss", "Ben")
    text = logfile.dumps(log.appended(event, None, log.entries[-1].at))
    (cli.path / "edited.toml").write_text(text, encoding="utf-8")
    checked = cli("check", "edited.toml", "--json")
    assert checked.status == 1 and "no-copy-left" in checked.out


def _state(log):
    from referee.replay import replay_log

    return replay_log(log)[1]


@pytest.mark.parametrize("seed", range(12))
def test_no_card_is_ever_used_more_often_than_the_deck_holds_it(seed):
    """Random physical games (hands unknown to the referee, so every loss is typed): at every
    step the cards face up and known in hands never exceed the deck's copies of a card."""
    rng = random.Random(seed)
    t = Table(players=rng.choice((3, 4))).start()
    played = 0
    for played in range(400):
        if GAME.finished(t.state):
            break
        moves = GAME.legal(t.state)
        # Losses are the plays that name a card nobody saw: play them often, and lose the card
        # played itself once a copy of it is face up (the last copy, if any is left).
        losses = [m for m in moves if m.get("lost") is not None]
        itself = [m for m in losses if m["lost"] == m["card"] and t.state.on_table[m["card"]]]
        event = rng.choice(itself or losses) if losses and rng.random() < 0.7 else \
            GAME.random_event(t.state, rng)
        if event is None:
            break
        t.state = apply_event(GAME, t.state, event, t.players)
        for title, card in CARD.items():
            used = t.state.on_table[title] + t.state.in_hands[title]
            assert used <= card.count, (title, used, GAME.format(t.state, event))
    assert played > 20


def test_a_refused_copy_is_a_move_error():
    t = Table().start()
    t("unexpected-loss Ben loses keep")
    with pytest.raises(MoveError):
        t("unexpected-loss Cat loses unexpected-loss")
