"""What people read: options that say what a move does, boards that end with who acts (issue 14).
"""

from __future__ import annotations

import io
import json

import pytest

from referee.engine import Game, Player, ToAct, available_game_ids
from tests.conftest import EXAMPLES
from tests.test_dwarf_king import GAME as DWARF_KING
from tests.test_dwarf_king import Table as DwarfTable
from tests.test_king_of_the_valley import GAME as KOTV
from tests.test_king_of_the_valley import PRIESTS, table

# --------------------------------------------------------------------------------------------
# King of the Valley: what a move summons


def test_valley_options_say_what_each_move_summons():
    state = table(PRIESTS, kings=("c1", "a5"))
    lines = KOTV.option_lines(state, KOTV.legal(state))
    by_move = {line.split("   [")[0].strip(): line.split("   [")[1].rstrip("]")
               for line in lines if "   [" in line}
    assert by_move["move c1 c2"] == "countess"  # the king stands on c1, a farmer
    assert by_move["move c1 c3 e5"] == "priest -> countess"
    assert by_move["move c1 c3 c1"] == "priest -> farmer"  # back to the start after a priest
    assert all(" take " not in move or ", " in tiles for move, tiles in by_move.items())
    # the line as printed is read back as the move it lists
    line = next(ln for ln in lines if ln.startswith("move c1 c3 e5 "))
    assert KOTV.parse(state, line, "Ann") == KOTV.parse(state, "move c1 c3 e5", "Ann")


# --------------------------------------------------------------------------------------------
# The Dwarf King: each magic card's condition on its own line


class Table(DwarfTable):
    def lines(self):
        return DWARF_KING.option_lines(self.state, DWARF_KING.legal(self.state))

    def note(self):
        return DWARF_KING.legal_note(self.state)


def test_a_magic_card_that_cannot_be_played_is_no_option_line_but_a_note():
    t = Table()
    t.start("Mummy")
    lines = t.lines()
    assert lines == [lines[0]] and lines[0].startswith("any unplayed card: ")
    assert "Mummy" not in lines[0]
    assert t.note() == ("Not playable now: Mummy (it copies the card that won the previous "
                        "trick: not in the first trick).")


def test_a_magic_card_that_may_be_played_says_what_it_is_on_its_line():
    t = Table()
    t.start("Mummy")
    t.cards("K7 K8 K5")  # Catie, Pierre, Bruno: Pierre wins with K8 and leads trick 2
    assert t.lines()[-1] == "Mummy   (as 8 of Knights (K8), the card that won the previous trick)"
    assert t.note() == ""
    t("GA")
    assert t.lines()[-1] == ("Mummy   (as 8 of Knights (K8), the card that won the previous "
                             "trick; only if void in Goblins (R-8))")
    t = Table()
    t.start("Excalibur")
    t("K7")
    assert t.lines()[-1] == "Excalibur   (only when void in Knights, and then it wins)"
    t = Table()
    t.start("Puppeteer")
    t("K7")
    assert t.lines()[-1] == ("Puppeteer   (half a step above 7 of Knights (K7), the card played "
                             "just before it)")
    t = Table()
    t.start("Dragon")
    assert t.lines()[-1] == "Dragon   (the Dragon may be played at any time)"
    assert "Dragon" not in t.lines()[0]


# --------------------------------------------------------------------------------------------
# Every board ends with who acts and what they may do; status --json gives it as data


def _states(game_id, seed, players=None):
    from referee.engine import apply_event, load_game
    from referee.simulate import default_players, play_out

    game = load_game(game_id)
    playout = play_out(game, seed, default_players(game, players))
    state = game.setup(playout.players, game.default_options(), playout.seed)
    for event in playout.events:
        yield game, state
        state = apply_event(game, state, event, playout.players)
    yield game, state


@pytest.mark.parametrize("game_id", available_game_ids())
def test_every_board_ends_with_who_acts_and_what_they_may_do(game_id):
    seen = 0
    for index, (game, state) in enumerate(_states(game_id, 4)):
        if index % 7 and not game.finished(state):
            continue
        last = game.render(state).splitlines()[-1]
        if game.finished(state):
            assert last.startswith("Game over"), last
        else:
            turn = game.to_act(state)
            assert last == turn.line() == f"To act: {turn.who} - {turn.prompt}"
            seen += 1
        data = game.board(state)
        assert data and json.loads(json.dumps(data)) == data  # JSON values only
    assert seen > 5


def test_to_act_line_names_the_table_or_the_players():
    assert ToAct((), "reveal", table=True).line() == "To act: the table - reveal"
    assert ToAct(("Ann", "Ben"), "bid").line() == "To act: Ann or Ben - bid"
    assert Game().board(None) == {}  # a new game's default: no data of its own yet


def test_status_json_gives_each_game_s_board_as_data(cli):
    cli("new", "kings-ear", "-p", "Ann:Horse", "-p", "Ben:Pig", "--shuffle", "--seed", "3")
    cli("play", "draw")
    data = json.loads(cli("status", "--json").out)
    assert data["schema"] == "referee-status/1" and data["game"] == "kings-ear"
    assert data["text"].splitlines()[-1] == f"To act: Ann - {data['prompt']}"
    board = data["board"]
    assert [h["house"] for h in board["houses"]] == ["Horse", "Pig", "Stag", "Boar"]
    assert board["pile"] == 63 and board["virtual_pile"] is True and board["drawn"]
    assert [s["profession"] for s in board["houses"][0]["sections"]] == [
        "Religion", "Army", "Trade", "Farming"]
    from referee.games.kings_ear import GAME
    from referee.games.kings_ear.notation import card_name

    state = GAME.setup(GAME.seat_players([Player("Ann"), Player("Ben")], {}),
                       GAME.check_options({}), 3)
    assert card_name(state, state.deck[1]) not in json.dumps(data)  # the pile's next card

    for game_id, keys in (("king-of-the-valley", {"valley", "hill", "castles", "piles"}),
                          ("dwarf-king", {"hand", "special", "quest", "trick", "players"})):
        log = EXAMPLES / f"{game_id}.toml"
        data = json.loads(cli("status", "--json", "--log", log).out)
        assert data["schema"] == "referee-status/1" and keys <= set(data["board"])
    valley = json.loads(cli("status", "--json", "--log",
                            EXAMPLES / "king-of-the-valley.toml").out)["board"]
    assert len(valley["valley"]) == 25 and valley["valley"][0]["square"] == "a1"
    assert [r["price"] for r in valley["hill"]["left"]] == [2, 3, 4, 6, 8, 10]
    assert set(valley["castles"][0]["columns"]) == {"queen", "duke", "countess", "knight",
                                                    "farmer", "wife"}


# --------------------------------------------------------------------------------------------
# King of the Valley marks its last round


def test_the_last_round_of_the_valley_is_marked():
    from referee.games.king_of_the_valley import GAME

    for game, state in _states("king-of-the-valley", 1):
        if state.end_triggered and not game.finished(state) and not state.setting_up \
                and state.phase in ("recruit", "summon"):
            break
    else:
        raise AssertionError("the end was never triggered")
    assert f"round {state.round} (the last): " in GAME.to_act(state).prompt
    assert "(the last)" in GAME.render(state).splitlines()[-1]
    assert GAME.render(state).splitlines()[0] == f"King of the Valley - round {state.round} " \
                                                  "(the last)"
    assert "(the last: the hill could not be refilled in full)" in GAME.score(state).outcome


# --------------------------------------------------------------------------------------------
# The demo: paced on a terminal, with an options listing and a refused move, and a way to start


@pytest.mark.parametrize("game_id", available_game_ids())
def test_the_demo_shows_options_a_refusal_and_how_to_start(cli, game_id, monkeypatch):
    result = cli("demo", game_id)
    assert result.status == 0
    lines = result.out.splitlines()
    listing = lines.index("      $ referee options")
    refusal = next(i for i, line in enumerate(lines) if line.startswith("      $ referee play "))
    assert 0 < listing < refusal < len(lines) - 20
    assert lines[refusal + 1].startswith("      referee: ") and "rule: " in lines[refusal + 2]
    assert "      (refused: the log is left exactly as it was)" in lines[refusal + 2:refusal + 6]
    if game_id == "dwarf-king":  # a card played is a reveal: the refused one was played before
        card = lines[refusal].split()[-1]
        assert any(f"({card})" in line for line in lines[:refusal]), card
    start = next(i for i, line in enumerate(lines) if line.startswith("Now a game of your own"))
    commands = [line.strip() for line in lines[start + 1:start + 4]]
    note = lines[start + 4:]
    assert commands[0].startswith(f"referee new {game_id} --player ")
    assert commands[1:2] == ["referee options"] and commands[2].startswith("referee play ")
    assert "test-box" not in commands[0]  # B2: the invented box is the demo's, not a table's
    # the three commands start a game for real (a sealed secret is typed unseen: on stdin here)
    monkeypatch.setattr("sys.stdin", io.StringIO("A B C\n"))
    for command in commands[:2]:
        assert cli(*command.split()[1:]).status == 0, command
    first = cli(*commands[2].split()[1:])
    if game_id != "kingmaker":
        assert first.status == 0 and note == []
        return
    # the 1974 box from `new`: the demo's deal asks for the printed values, as its note says
    assert first.status == 1 and "  declare office Admiral-of-England " in first.err
    assert note[0].startswith("`new` copies the shipped 1974 box") and \
        "referee components kingmaker --fill our-box.toml" in note[-2]


def test_the_demo_on_a_terminal_stops_at_each_moment_and_screenful(cli, monkeypatch):
    import io

    from referee import cli as cli_module

    monkeypatch.setattr(cli_module, "_interactive", lambda: True)
    monkeypatch.setenv("LINES", "40")
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" * 500))
    paged = cli("demo").out
    stops = paged.count("-- Enter: go on, q: to the end --")
    assert stops >= len(paged.splitlines()) // 40
    first = paged.index("-- Enter")
    assert "Someone is unsure what is allowed" in paged[:first]  # the first stop: options
    assert all(len(chunk.splitlines()) <= 42 for chunk in paged.split("-- Enter"))
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    skipped = cli("demo").out
    assert skipped.count("-- Enter: go on") == 1 and "referee options" in skipped


def test_the_demo_can_pause_between_moves_instead(cli, monkeypatch):
    from referee import cli as cli_module
    from referee import clitext

    pauses = []
    monkeypatch.setattr(cli_module, "_interactive", lambda: True)
    monkeypatch.setattr(clitext.time, "sleep", pauses.append)
    result = cli("demo", "--delay", "0.2")
    assert result.status == 0 and "-- Enter" not in result.out
    assert pauses and set(pauses) == {0.2}
