"""Shell completion (issue 14): game ids, option names, formats, players, the log's legal moves,
and each shell's own script."""

from __future__ import annotations

import pytest

from referee.engine import load_game
from tests.conftest import EXAMPLES


@pytest.fixture
def complete(cli, monkeypatch):
    """What bash is offered for the command line `line` (the cursor at its end)."""

    def run(line: str, shell: str = "bash") -> list[str]:
        words = line.split(" ")
        with monkeypatch.context() as env:
            env.setenv("_REFEREE_COMPLETE", f"complete_{shell}")
            if shell == "bash":
                env.setenv("COMP_WORDS", line)
                env.setenv("COMP_CWORD", str(len(words) - 1))
            else:
                env.setenv("_TYPER_COMPLETE_ARGS", line)
            result = cli()
        assert result.status == 0, result.err
        return result.out.split()

    run.cli = cli  # type: ignore[attr-defined]
    return run


def test_game_ids_formats_and_papers(complete):
    assert complete("referee new ") == ["kings-ear", "king-of-the-valley", "dwarf-king",
                                         "king-of-the-castle", "kingmaker"]
    assert complete("referee rules king-") == ["king-of-the-valley", "king-of-the-castle"]
    assert complete("referee demo d") == ["dwarf-king"]
    assert complete("referee scoresheet --blank k") == ["kings-ear", "king-of-the-valley",
                                                        "king-of-the-castle", "kingmaker"]
    assert complete("referee scoresheet -f ") == ["text", "markdown", "html", "csv", "json"]
    assert complete("referee scoresheet --paper l") == ["letter"]
    assert complete("referee export --format b") == ["bgstats", "bgg"]
    assert complete("referee simulate dw") == ["dwarf-king"]


def test_option_names_and_their_values(complete):
    assert complete("referee new kings-ear -o ") == ["place=", "houses="]
    assert complete("referee new dwarf-king -p Ann --option ed") == ["edition="]
    assert complete("referee new dwarf-king --option edition=") == ["edition=2011",
                                                                    "edition=2022"]
    assert complete("referee new nogame -o ") == []


def test_players_and_the_legal_moves_of_the_log(complete):
    cli = complete.cli
    cli("new", "kings-ear", "-p", "Ann:Horse", "-p", "Ben:Pig", "-p", "Cat:Stag")
    assert complete("referee play --as ") == ["Ann", "Ben", "Cat"]
    assert complete("referee options --for B") == ["Ben"]
    assert complete("referee play ") == ["draw"]
    assert complete("referee play draw ") == ["Horse", "Pig", "Stag", "Boar"]
    assert complete("referee play draw Pig A") == ["Army"]
    assert complete("referee play draw Pig Army ") == ["1", "2", "3", "4"]
    cli("play", "draw", "PA3")
    assert complete("referee play ") == ["place"]  # no card on the boards to trade for
    assert complete("referee play place ") == ["Stag", "Boar"]
    assert complete("referee play pl", shell="zsh") == ["_arguments", "'*:", ':(("place"))\'']


def test_moves_of_the_log_named_by_log_before_or_after_the_command(complete):
    log = EXAMPLES / "dwarf-king.toml"
    assert complete(f"referee --log {log} play ") == []  # a finished game: nothing to play
    cli = complete.cli
    cli("new", "dwarf-king", "-p", "Pierre", "-p", "Bruno", "-p", "Catie", "--log", "dk.toml")
    cli("play", "special", "Dragon", "--log", "dk.toml")
    assert complete("referee play --log dk.toml qu") == ["quest"]
    assert complete("referee --log dk.toml play quest ")[:3] == ["1a", "1b", "2a"]
    assert complete("referee play --log missing.toml ") == []


def test_a_reveal_offers_a_tile_for_each_waiting_place():
    game = load_game("king-of-the-valley")
    state = game.setup(_players(game), {
        "orders": ["A", "B", "C", "D"], "hill_prices": [2, 3, 4, 6, 8, 10]}, None)
    assert "knight-A" in game.completions(state, None, ["reveal"])
    assert game.completions(state, None, ["reveal", *["farmer"] * 36]) != []
    assert game.completions(state, None, ["reveal", *["farmer"] * 37]) == []


def _players(game):
    from referee.simulate import default_players

    return tuple(default_players(game, 3))


def test_show_completion_prints_the_named_shell_s_script(cli):
    zsh = cli("--show-completion", "zsh")
    assert zsh.status == 0 and zsh.out.startswith("#compdef referee")
    assert "complete_zsh" in zsh.out and "COMP_WORDS" not in zsh.out
    bash = cli("--show-completion", "bash")
    assert "complete_bash" in bash.out and "compdef" not in bash.out
    assert "complete_fish" in cli("--show-completion=fish").out


def test_install_completion_writes_the_named_shell_s_script(cli, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    result = cli("--install-completion", "bash")
    assert result.status == 0 and "bash completion installed in" in result.err
    assert "complete_bash" in (tmp_path / ".bash_completions" / "referee.sh").read_text()


def test_an_unknown_shell_is_a_usage_error(cli, monkeypatch):
    from typer import _completion_shared

    monkeypatch.setenv("SHELL", "/bin/tcsh")
    monkeypatch.setattr(_completion_shared, "_get_shell_name", lambda: None)
    result = cli("--show-completion")
    assert result.status == 2 and "name it, e.g. --show-completion zsh" in result.err


def test_moves_of_a_player_named_with_as(complete):
    cli = complete.cli
    cli("new", "kings-ear", "-p", "Ann:Horse", "-p", "Ben:Pig")
    assert complete("referee play --as Ann ") == ["draw"]
    assert complete("referee play --as Ben ") == []  # not Ben's turn
    assert complete("referee play --as Zed ") == []  # nobody of that name



def test_the_typed_game_is_found_in_any_shell_s_words(monkeypatch):
    from referee.clicomplete import typed_game as _typed_game

    monkeypatch.delenv("COMP_WORDS", raising=False)
    monkeypatch.setenv("_TYPER_COMPLETE_ARGS", "referee new -p 'Ann:Horse kings-ear -o")
    assert _typed_game() == "kings-ear"  # an unclosed quote while typing: words as they are
    monkeypatch.setenv("_TYPER_COMPLETE_ARGS", "referee new --seed 3 dwarf-king")
    assert _typed_game() == "dwarf-king"
    monkeypatch.setenv("_TYPER_COMPLETE_ARGS", "referee play draw")
    assert _typed_game() is None


def test_the_flag_bearers_give_is_offered_when_due_and_never_a_card_after_it(complete):
    """A --seed Dwarf King game after `swap Ann`: Tab offers `give` (it offered nothing) to the
    Flag Bearer only, and no card after it, in the shell as at the table (a list on the shared
    screen would show his hand, the 2 cards taken among them)."""
    from referee import session
    from referee import table as sessions
    from tests.test_dwarf_king import SEED_WITH_GOBLIN_SWAP

    cli = complete.cli
    cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--seed",
        str(SEED_WITH_GOBLIN_SWAP))
    for move in (["special"], ["quest", "a"]):
        assert cli("play", *move).status == 0
    holder = session.load(cli.path / "game.toml").turn.players[0]
    target = next(n for n in ("Ann", "Ben", "Cat") if n != holder)
    other = next(n for n in ("Ann", "Ben", "Cat") if n not in (holder, target))
    assert complete("referee play g") == []  # the swap comes first
    assert cli("play", "swap", target).status == 0
    assert complete("referee play ") == ["give"]
    assert complete(f"referee play --as {holder} g") == ["give"]
    assert complete(f"referee play --as {other} ") == []  # not his move
    table = session.load(cli.path / "game.toml")
    assert sessions.completions(table, "", "gi") == ["give"]
    for before in ("give ", "give K3 ", f"--as {holder} give "):
        assert complete(f"referee play {before}") == []
        for start in ("", "K", "D", "G", "F"):
            assert sessions.completions(table, before, start) == [], (before, start)
