"""King of the Castle with dealt hands: what the JSON says and whose eyes it is for (issue 24,
items 7 and 14): the cards Sudden Changes draws are data where the table sees them, `status
--for NAME` shows NAME's hand, and no count tells the size of a hidden hand."""

from __future__ import annotations

import json

SEED_WITH_SUDDEN_CHANGES = 2  # Ann's first hand holds Sudden Changes


def dealt_game(cli, seed: int) -> None:
    assert cli("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--seed",
               str(seed), "--option", "squires=random").status == 0
    for _ in range(3):
        assert cli("play", "squires").status == 0


def test_the_cards_sudden_changes_draws_are_in_the_json(cli):
    dealt_game(cli, SEED_WITH_SUDDEN_CHANGES)
    played = json.loads(cli("play", "sudden-changes", "--json").out)
    drawn = played["revealed"]
    assert len(drawn) == 2 and played["drawn"] is None  # `drawn`: a sealed secret, none here
    board = json.loads(cli("status", "--json").out)["board"]
    assert board["in_play"] == ["Sudden Changes"] and board["drawn"] == drawn
    assert "own_hand" not in board
    assert "Drawn by Sudden Changes, to be played now: " in cli("status").out


def test_status_for_a_player_shows_their_dealt_hand_only_to_them(cli):
    dealt_game(cli, SEED_WITH_SUDDEN_CHANGES)
    mine = cli("status", "--for", "Ann").out
    assert "Ann's hand (for Ann's eyes only): " in mine and "sudden-changes" in mine
    data = json.loads(cli("status", "--json", "--for", "Ann").out)["board"]["own_hand"]
    assert data["player"] == "Ann" and data["size"] == 4 and "Sudden Changes" in data["cards"]
    public = cli("status").out + cli("status", "--json").out
    assert "eyes only" not in public and "sudden-changes" not in public.lower()
    others = [c for c in data["cards"] if c != "Sudden Changes"]  # also an inventory label
    assert others and not any(card in public for card in others), public


def test_a_reply_window_count_does_not_tell_who_holds_a_reply_card(cli):
    """Whoever is asked in a reply window may pass; the reply cards they may hold are theirs
    to see: the table's count is 1 (pass), whatever their hand."""
    for seed in range(1, 40):
        cli.path.joinpath("game.toml").unlink(missing_ok=True)
        dealt_game(cli, seed)
        moves = json.loads(cli("options", "--json", "--for", "Ann").out)["moves"]
        harm = next((m for m in moves if m.startswith(("plague", "barbarians", "vanishings",
                                                       "accidental-death", "unlucky-fall"))),
                    None)
        if harm is None:
            continue
        assert cli("play", harm).status == 0
        data = json.loads(cli("options", "--json").out)
        if data["phase"] != "reply":
            continue
        assert data["moves"] == ["pass"] and data["count"] == 1, data
        asked = data["to_act"][0]
        own = json.loads(cli("options", "--json", "--for", asked).out)
        assert own["count"] == len(own["moves"])
        if own["count"] > 1:  # a reply card the table is not told of
            return
    raise AssertionError("no seed put a reply card in the hand of the player asked")
