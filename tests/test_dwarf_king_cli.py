"""The Dwarf King at a real table, through the real CLI entry point: a whole game from the first
deal to the scoresheet, a revoke noticed by `play` and `check`, options and status."""

from pathlib import Path

from referee import log as logfile
from referee.engine import load_game
from referee.replay import replay_log

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "dwarf-king" / "three-player.toml"


def test_a_whole_game_at_the_table(cli):
    """Every move of the three-player golden game typed as players would type it."""
    log = logfile.read(GOLDEN)
    game = load_game("dwarf-king")
    names = [p.name for p in log.players]
    assert cli("new", "dwarf-king", *sum((["--player", n] for n in names), [])).status == 0
    state = game.setup(log.players, log.options, None)
    for entry in log.entries:
        event = entry.event
        args = ["play", game.format(state, event)]
        if event.by is not None and game.to_act(state).players != (event.by,):
            args += ["--as", event.by]
        result = cli(*args)
        assert result.status == 0, (args, result.err)
        state = game.apply(state, event)
    sheet = cli("scoresheet")
    assert sheet.status == 0
    # The CLI's sheet also says when this log was played (the golden sheet has no log date).
    lines = sheet.out.split("\n")
    assert lines[2].startswith("Date: ") and "Start player: Pierre" in lines[2]
    rest = "\n".join(lines[:2] + lines[3:])
    assert rest == GOLDEN.with_suffix(".scoresheet.txt").read_text(encoding="utf-8")
    assert cli("check", "game.toml").status == 0


def test_a_revoke_is_noticed_by_play_and_by_check(cli):
    cli("new", "dwarf-king", "--player", "Pierre", "--player", "Bruno", "--player", "Catie")
    for move in ("special Dragon", "quest 4a --as Bruno", "leader --as Catie", "D3", "D4", "GK"):
        assert cli("play", *move.split()).status == 0
    status = cli("status")
    assert "Bruno: 12 card(s); holds K5; no Dwarves since trick 1 (Bruno)" in status.out
    options = cli("options")
    assert "follow" not in options.out and "any unplayed card" in options.out
    for move in ("K2", "K3", "K4", "D5", "D6"):
        cli("play", move)
    options = cli("options")
    assert "follow Dwarves if you can: D7" in options.out
    revoke = cli("play", "D7")
    assert revoke.status == 0
    assert "Revoke by Bruno: in trick 1 Bruno played GK" in revoke.out + revoke.err
    found = cli("check", "game.toml")
    assert found.status == 0 and ": notice: revoke" in found.out  # a valid log of a breach
    refused = cli("play", "D2")
    assert refused.status == 1 and "out of the game with 3 players" in refused.err
    log = logfile.read(Path(cli.path) / "game.toml")
    assert len(log.entries) == 12 and replay_log(log)[1].deal.trick_number == 4
