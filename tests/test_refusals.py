"""Clearer refusals (issue 14): the words a refusal uses, the rules it names, what it suggests.
"""

from __future__ import annotations

import json

from referee import log as logfile
from referee.evolve import evolve
from tests.conftest import EXAMPLES


def example_cut(cli, game_id: str, events: int) -> None:
    """./game.toml: the bundled example game of `game_id` after its first `events` events."""
    log = logfile.read(EXAMPLES / f"{game_id}.toml")
    cut = evolve(log, entries=log.entries[:events])
    (cli.path / "game.toml").write_text(logfile.dumps(cut), encoding="utf-8")


def new_dwarf_king(cli) -> None:
    cli("new", "dwarf-king", "-p", "Pierre", "-p", "Bruno", "-p", "Catie")


# --------------------------------------------------------------------------------------------
# Words that say what is wrong


def test_a_mistyped_quest_side_says_sides_are_a_or_b(cli):
    new_dwarf_king(cli)
    cli("play", "special", "Dragon")
    result = cli("play", "quest", "4c", "--as", "Bruno")
    assert result.status == 1
    assert "side 'c': a quest tile has two sides, a and b (4a Knights victory over Dwarves; 4b " \
           "Dwarves victory over Knights)" in result.err
    assert "Grand Army" not in result.err  # not the forty side names


def test_two_special_cards_named_at_once(cli):
    new_dwarf_king(cli)
    result = cli("play", "special", "Excalibur", "Dragon")
    assert result.status == 1 and "name one special card" in result.err
    assert "this names 2: Excalibur, Dragon" in result.err and "suit letter" not in result.err


def test_an_unknown_tile_names_the_tax_collector_forms(cli):
    example_cut(cli, "king-of-the-valley", 5)  # the table is revealing tiles
    result = cli("play", "reveal", "dragon")
    assert result.status == 1 and "not a tile" in result.err
    assert "tax-G" in result.err and "tax-4" in result.err and "tax-3-6" in result.err


def test_a_refusal_never_names_a_move_or_a_player_nobody_typed(cli):
    example_cut(cli, "king-of-the-valley", 5)  # the table must reveal, Ann does not act
    result = cli("play", "move", "c1", "c2")
    assert result.status == 1 and "Ann" not in result.err
    assert "`move` is not possible now: the table must act (reveal" in result.err
    assert "it is not Ann's turn" in cli("play", "move", "c1", "c2", "--as", "Ann").err
    example_cut(cli, "king-of-the-valley", 11)  # Ann summoned: the kingdom bonus, or refill
    result = cli("play", "kingdom")
    assert result.status == 1 and "kingdom farmer" not in result.err
    assert "the kingdom bonus needs a face-up subject of each influence" in result.err
    assert "farmer or wife" in result.err  # neither is face up: `kingdom` chose neither


def test_closest_legal_moves_are_of_the_kind_typed(cli):
    example_cut(cli, "king-of-the-valley", 10)  # round 1: Ann summons
    for move in (("wizard", "for"), ("reveal", "dragon"), ("kingdom",)):
        result = cli("play", *move)
        assert result.status == 1 and "closest legal moves" not in result.err, move
    refused = cli("play", "move", "c2", "c9")
    assert "closest legal moves: move" in refused.err
    assert all(s.startswith("move ") for s in json.loads(
        cli("play", "move", "b2", "b9", "--json").err)["error"]["suggestions"])


# --------------------------------------------------------------------------------------------
# Every rule a move breaks


def test_a_trade_breaking_two_rules_names_both_most_important_first(ke_game):
    cli = ke_game
    for move in ("draw Pig Army 3", "place Stag", "draw BF2", "place Horse", "draw SA2"):
        assert cli("play", *move.split()).status == 0
    before = (cli.path / "game.toml").read_bytes()
    result = cli("play", "trade", "Stag", "give", "Boar", "Farming", "2", "take", "Stag", "Army",
                 "2")
    assert result.status == 1
    assert result.err.splitlines()[:3] == [
        "referee: Stag Army 2 lies under its own House Stag: it is locked and can never move "
        "again",
        "  rule: Locked cards",
        "  and: at least one card taken must be of your own House Horse (rule: Trade)"]
    assert (cli.path / "game.toml").read_bytes() == before
    error = json.loads(cli("play", "trade Stag give BF2 take SA2", "--json").err)["error"]
    assert error["code"] == "locked-card" and error["also"] == [
        {"code": "no-own-card", "rule": "Trade",
         "message": "at least one card taken must be of your own House Horse"}]


def test_a_recruit_breaking_two_rules_names_both(cli):
    example_cut(cli, "king-of-the-valley", 10)  # round 1, Ann has 2 gold
    result = cli("play", "recruit", "right", "6")
    assert result.status == 1
    assert "recruiting is allowed from round 2 on" in result.err.splitlines()[0]
    assert "  and: recruit right 6: row 6 costs 10 gold and you have 2 (rule: Recruit)" \
        in result.err.splitlines()


def test_check_names_every_rule_an_event_breaks(cli):
    example_cut(cli, "king-of-the-valley", 10)
    path = cli.path / "game.toml"
    path.write_text(path.read_text() + '\n[[events]]\nseq = 11\nby = "Ann"\ntype = "recruit"\n'
                    'side = "right"\nrow = 6\n')
    result = cli("check", "game.toml")
    assert result.status == 1 and "allowed from round 2 on; and recruit right 6: row 6 costs " \
                                  "10 gold" in result.out


# --------------------------------------------------------------------------------------------
# When several players may act, the hint says how to name one


def test_the_next_hint_includes_as_name_and_typing_it_works(cli):
    new_dwarf_king(cli)
    result = cli("play", "special", "Dragon")
    assert "Next: Pierre or Bruno or Catie - " in result.out
    assert "(`quest 4a --as NAME`)" in result.out
    assert cli("play", "quest 4a --as Bruno".split()[0], "4a", "--as", "Bruno").status == 0
    result = cli("status")
    assert "(`leader --as NAME`)" in result.out
    assert cli("play", "leader", "--as", "Catie").status == 0
    assert "--as NAME" not in cli("status").out  # one player to act: nothing to name


# --------------------------------------------------------------------------------------------
# The Druid in the last trick


def _druid_last(seed: int):
    """A tool-dealt hand 1 with the Druid as special card, every player keeping it as long as
    they can: (events, described lines) when it ends in the last trick, else None."""
    from referee.engine import apply_event
    from referee.games.dwarf_king import GAME
    from referee.simulate import default_players

    players = tuple(default_players(GAME, 3))
    state = GAME.setup(players, GAME.default_options(), seed)
    events, lines = [], []
    while state.deal.number == 1:
        legal = GAME.legal(state)
        if legal[0].type == "special" and not any(e["card"] == "Druid" for e in legal):
            return None
        event = next((e for e in legal if e.get("card") != "Druid"), legal[0])
        if event.type == "trade":
            return None  # the Druid came before the last trick
        before, state = state, apply_event(GAME, state, event, players)
        events.append(event)
        lines += GAME.describe(before, event, state)
    return events, lines


def test_the_druid_in_the_last_trick_is_explained(cli):
    from referee.engine import load_game
    from referee.simulate import Playout, default_players, to_log

    found = next(r for r in map(_druid_last, range(200)) if r is not None)
    events, lines = found
    assert "The Druid has no effect in the last trick." in lines
    game = load_game("dwarf-king")
    cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat")  # a log to replace
    seed = next(s for s in range(200) if _druid_last(s) is not None)
    from referee import replay

    setup = replay.from_table(game, default_players(game, 3), {}, seed)
    log = to_log(game, Playout(setup, events))
    (cli.path / "game.toml").write_text(logfile.dumps(log), encoding="utf-8")
    for args in (("trade", "Ben"), ("trade", "Ben", "--as", "Ann"), ("trade", "Ben", "--as",
                                                                      "Cat")):
        result = cli("play", *args)
        assert result.status == 1, args
        assert result.err.splitlines()[:2] == [
            "referee: the Druid has no effect in the last trick: hand 1 is over, so there is "
            "nothing to trade", "  rule: Druid"], args
    result = cli("play", "pass", "left", "--as", "Ann")
    assert "`pass` comes only right after the trick in which the Standard Bearer is played" \
        in result.err


# --------------------------------------------------------------------------------------------
# Options and suggestions are what the table knows (issue 24, items 6 and 7)


def test_a_hand_the_table_can_tell_lists_only_its_legal_cards(cli):
    """Ann and Cat enter their hands in front of everyone: the cards left are Ben's, so the
    table knows he holds Goblins. `options` and a refusal offer only the Goblins he must play,
    never "or, if void in Goblins: ..." cards the referee refuses."""
    cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat")
    for move in (["special", "Druid"],
                 ["hand", *"K2 K3 K4 K6 K8 K9 K10 KK KA D3 D4 D5 G3".split(), "--as", "Ann"],
                 ["hand", *"G5 D6 D7 D8 D10 DJ DK DA G4 G7 G9 GA Druid".split(), "--as", "Cat"],
                 ["quest", "4a"], ["leader"], ["G5"], ["G3"]):
        assert cli("play", *move).status == 0, move
    goblins = ["G2", "G6", "G8", "G10", "GJ", "GQ", "GK"]
    options = cli("options")
    assert options.out.split()[-7:] == goblins and "void" not in options.out
    data = json.loads(cli("options", "--json").out)
    assert data["moves"] == goblins and data["count"] == 7
    refused = cli("play", "KJ")
    assert refused.status == 1 and "must follow Goblins" in refused.err
    closest = refused.err.split("closest legal moves: ")[1].split()
    assert set(closest) - {"|"} <= set(goblins) and "void" not in refused.err


def test_options_count_no_move_of_a_hidden_hand(cli):
    """King of the Castle with dealt hands: the table is told how many moves it sees, never how
    many cards the player to act may play (the size of a hidden hand)."""
    cli("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--seed", "4",
        "--option", "squires=random")
    for _ in range(3):
        assert cli("play", "squires").status == 0
    data = json.loads(cli("options", "--json").out)
    assert data["phase"] == "play" and data["count"] == len(data["moves"]) == 1, data
    own = json.loads(cli("options", "--json", "--for", "Ann").out)
    assert own["count"] == len(own["moves"]) > 1
