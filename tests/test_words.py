"""What people type: every form the tool prints is read back, in every game (issue 14).

A card, a tile or a move copied from `play`, `status`, `options` or `history` output must mean
what the referee meant when it printed it.
"""

from __future__ import annotations

import random
import re

import pytest

from referee.engine import apply_event, available_game_ids, load_game
from referee.errors import AmbiguousMove, NotationError
from referee.games.dwarf_king.components import CARDS, RANK_NAME, SPECIALS, deck, tiles
from referee.games.dwarf_king.notation import read_cards
from referee.games.dwarf_king.texts import card_words
from referee.games.king_of_the_valley.components import DEFAULT_ORDERS, tile_names
from referee.games.king_of_the_valley.notation import parse_tile
from referee.games.kings_ear.components import CARDS as KE_CARDS
from referee.games.kings_ear.components import DEFAULT_HOUSES, card_names, short_name
from referee.simulate import default_players, play_out

# --------------------------------------------------------------------------------------------
# The Dwarf King's cards


def _in_play(code: str) -> frozenset[str]:
    """A hand's cards with `code` in it (K11 then names that hand's special card)."""
    special = code if CARDS[code].special else "Dragon"
    return deck(4, special)


@pytest.mark.parametrize("code", list(CARDS))
def test_every_dwarf_king_card_is_read_back_as_printed(code):
    card = CARDS[code]
    forms = {code, card.name, card_words(code), f"the {card.name}", code.lower()}
    if card.special is None:
        rank = RANK_NAME.get(card.rank or "", card.rank or "")
        forms |= {f"{rank} of {card.suit}".lower(), f"{code[0].lower()} {code[1:]}",
                  f"{code[1:]} {code[0]}", f"{card.rank} of {card.suit}"}
        if card.rank == "A":
            forms.add(f"Ace of {card.suit}")
    for text in forms:
        assert read_cards(text.split(), _in_play(code)) == [code], text


def test_the_issue_s_card_forms_at_the_table(cli):
    cli("new", "dwarf-king", "-p", "Pierre", "-p", "Bruno", "-p", "Catie")
    cli("play", "special", "Dragon")
    cli("play", "quest", "4a", "--as", "Bruno")
    cli("play", "leader", "--as", "Catie")
    for text, shown in (("7 of knights", "Catie plays 7 of Knights (K7)"),
                        ("k 8", "Pierre plays 8 of Knights (K8)"),
                        ("Bruno:K5", "Bruno plays 5 of Knights (K5)"),  # as `status` shows
                        ("Champion (Ace) of Goblins (GA)", "Champion (Ace) of Goblins (GA)"),
                        ("Ace of Knights", "Bruno plays Champion (Ace) of Knights (KA)")):
        result = cli("play", text)
        assert result.status == 0, (text, result.err)
        assert shown in result.out
    assert [line.split(None, 2)[2] for line in cli("history").out.splitlines()[3:]] == [
        "K7", "K8", "K5", "GA", "KA"]


def test_card_lists_take_every_form_and_refuse_a_wrong_code():
    hand = frozenset(deck(3, "StandardBearer"))
    assert read_cards(["7", "of", "Knights", "(K7)", "the", "Standard", "Bearer",
                       "[StandardBearer]", "Queen", "of", "Dwarves", "g", "2"], hand) == [
        "K7", "StandardBearer", "DQ", "G2"]
    with pytest.raises(NotationError, match="does not match"):
        read_cards(["7", "of", "Knights", "(K8)"])
    with pytest.raises(AmbiguousMove):
        read_cards(["Flag", "Bearer"])
    assert read_cards(["Flag", "Bearer"], frozenset({"FlagBearerG"})) == ["FlagBearerG"]


def test_quests_are_read_back_as_printed():
    from referee.games.dwarf_king import GAME

    state = GAME.setup(default_players(GAME, 3), {"edition": 2022}, None)
    state = apply_event(GAME, state, GAME.parse(state, "special Dragon", None), state_players())
    for (tile, side), quest in tiles(2022).items():
        for text in (f"quest {tile}{side}", f"quest {tile} {side}", f"quest {quest.name}",
                     f"quest {tile}{side} {quest.name}",
                     f"quest {tile}{side} {quest.name} ({quest.text})"):
            event = GAME.parse(state, text, "Ann")
            assert (event["tile"], event["side"]) == (tile, side), text


def state_players():
    from referee.games.dwarf_king import GAME

    return tuple(default_players(GAME, 3))


# --------------------------------------------------------------------------------------------
# The King's Ear's cards and King of the Valley's tiles


@pytest.mark.parametrize("card", range(KE_CARDS))
def test_every_kings_ear_card_is_read_back_as_printed(card):
    from referee.games.kings_ear import GAME

    state = GAME.setup(default_players(GAME, 3), GAME.default_options(), None)
    name = card_names(DEFAULT_HOUSES)[card]
    short = short_name(DEFAULT_HOUSES, card)
    for text in (name, name.lower(), short, short + "*", short.lower()):  # * = locked (status)
        assert GAME.parse(state, f"draw {text}", "Ann")["card"] == name, text


def test_every_king_of_the_valley_tile_is_read_back_as_printed():
    for tile in tile_names(DEFAULT_ORDERS):
        assert parse_tile(tile, DEFAULT_ORDERS, tile) == tile
        assert parse_tile(tile.upper(), DEFAULT_ORDERS, tile) == tile


# --------------------------------------------------------------------------------------------
# Every game: an option line that names one move is that move; a printed move keeps its player

# Placeholders: CARD, TILE, "castle N", "follow Knights: ...", "a | b", a fold's "give ..."
PLACEHOLDER = re.compile(r"\b[A-Z]{3,}\b|\bN\b|:| \| |\.\.\.")


@pytest.mark.parametrize("game_id", available_game_ids())
@pytest.mark.parametrize("seed", range(3))
def test_every_option_line_that_is_a_move_plays_that_move(game_id, seed):
    game = load_game(game_id)
    players = default_players(game, None)
    playout = play_out(game, seed, players)
    state = game.setup(playout.players, game.default_options(), playout.seed)
    rng = random.Random(seed)
    checked = 0
    for event in playout.events:
        if rng.random() < 0.5:
            legal = game.legal(state)
            turn = game.to_act(state)
            who = None if turn.table else (turn.players[0] if len(turn.players) == 1 else None)
            for line in game.option_lines(state, legal):
                if PLACEHOLDER.search(line.split("   (")[0]):
                    continue
                move = line.split("   (")[0].strip()
                parsed = game.parse(state, move, who)
                if game.events[parsed.type].sealed:  # typed without its secret, asked unseen
                    assert any((e.type, e.by) == (parsed.type, parsed.by) for e in legal), line
                else:
                    assert parsed in legal, (line, parsed)
                checked += 1
        state = apply_event(game, state, event, playout.players)
    assert checked > 0


def test_a_move_as_play_prints_it_is_that_player_s_move(ke_game):
    cli = ke_game
    result = cli("play", "Ann:", "draw", "Pig", "Army", "3")
    assert result.status == 0 and result.out.startswith("Ann: draw Pig Army 3")
    refused = cli("play", "Ann: place Stag", "--as", "Ben")
    assert refused.status == 2 and "is Ann's move, but --as says Ben" in refused.err
    assert cli("play", "ann: place Stag").status == 0
    assert cli("play", "draw: BF2").status == 1  # no player called `draw`: not a name
