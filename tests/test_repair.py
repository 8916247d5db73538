"""A log that reads but no longer replays (a hand edit made an event illegal; table finding F1):
every command names the event and its line and exits 1 (a rule finding, as `check`'s, not 65),
writing nothing, and every command its hint prints mends the log when typed."""

from __future__ import annotations

import json

import re
import shutil

from referee import log as logfile
from tests.conftest import GOLDEN

KE_MOVES = ("draw Pig Army 3", "place Stag", "draw BF2", "place Horse", "draw Stag Army 2",
            "draw HR4")
READERS = (("status",), ("history",), ("options",), ("score",), ("play", "draw BF3"))


def _ke_log(cli, edit: tuple[str, str]) -> bytes:
    """The King's Ear game of the table finding, its log then edited by hand (`edit`)."""
    assert cli("new", "kings-ear", "--player", "Ann:Horse", "--player", "Ben:Pig",
               "--player", "Cat:Stag").status == 0
    for move in KE_MOVES:
        assert cli("play", *move.split()).status == 0
    path = cli.path / "game.toml"
    text = path.read_text()
    assert text.count(edit[0]) == 1
    path.write_text(text.replace(*edit))
    return path.read_bytes()


def _hinted(err: str) -> list[str]:
    """The commands the hint of a refusal names, in order."""
    hint = next(line for line in err.splitlines() if line.startswith("  hint: "))
    return re.findall(r"`(referee [^`]*)`", hint)


def _typed(command: str, move: str) -> list[str]:
    """A hinted command as the table would type it: MOVE (or `--delete`), TEXT and NAME
    filled in."""
    words = command.split()[1:]
    out: list[str] = []
    for word in words:
        out += move.split() if word == "MOVE" else ["typo fixed" if word == "TEXT" else
                                                    "Dora" if word == "NAME" else word]
    return out


def _refused_untouched(cli, data: bytes, seq: int, line: int) -> str:
    """Every command that replays the log says which event is illegal, at which line, exits 1
    and writes nothing; their hint is the same. Returns that refusal."""
    path = cli.path / "game.toml"
    said = None
    for args in READERS:
        result = cli(*args)
        assert result.status == 1, (args, result.err)
        assert f"game.toml:{line}: event {seq} (" in result.err and "is illegal" in result.err
        assert "internal error" not in result.err
        assert path.read_bytes() == data, args
        said = said or result.err
        assert _hinted(result.err) == _hinted(said), args
    as_json = cli("status", "--json")
    assert as_json.status == 1 and '"status": 1' in as_json.err and f'"seq": {seq}' in as_json.err
    error = json.loads(as_json.err)["error"]
    found = cli("check", "--json", "game.toml")  # the rule `check` names beside its finding
    [finding] = json.loads(found.out)[0]["findings"]
    assert error["rule"] == finding["rule"] and error["rule"], (error, finding)
    assert said is not None
    return said


def _checks_clean(cli) -> None:
    result = cli("check", "game.toml")
    assert result.status == 0 and "game.toml: ok" in result.out, result.out + result.err


def _first_line(data: bytes, seq: int) -> int:
    return logfile.parse(data.decode(), "game.toml").entries[seq - 1].line or 0


def test_the_last_event_made_illegal_is_named_and_every_hint_mends_it(cli):
    """F1 as the tester met it: event 5's card edited, so event 6 (Ann's draw) comes out of turn."""
    data = _ke_log(cli, ('"Stag Army 2"', '"Horse Army 3"'))
    checked = cli("check", "game.toml")
    assert checked.status == 1 and "event 6: it is not Ann's turn" in checked.out
    err = _refused_untouched(cli, data, 6, _first_line(data, 6))
    assert "it is not Ann's turn: Cat must act (place or trade the drawn Horse Army 3)" in err
    hinted = _hinted(err)
    assert hinted == ["referee undo --force",
                      "referee correct 6 MOVE --why TEXT --by NAME --force"], err
    path = cli.path / "game.toml"
    # Each hinted command, typed, mends the log; so does correcting the event the edit changed.
    for command, move, after in ((hinted[0], "", 5), (hinted[1], "place Pig", 6),
                                 (hinted[1], "--delete", 5),
                                 ("referee correct 5 MOVE --why TEXT --by NAME --force",
                                  "draw Stag Army 2", 6)):
        path.write_bytes(data)
        args = _typed(command, move)
        result = cli(*args)
        assert result.status == 0, (args, result.err)
        assert cli("status").status == 0
        _checks_clean(cli)
        assert len(logfile.parse(path.read_text(), "game.toml").entries) == after
    # The correction keeps the hand-edited event in the trail: nothing is lost.
    trail = cli("history", "--corrections")
    assert "(was" not in trail.out and "Cat: draw Horse Army 3 -> Cat: draw Stag Army 2" \
        in trail.out, trail.out
    assert 'card = "Horse Army 3"' in path.read_text()


def test_an_illegal_event_before_the_last_is_mended_by_correct_and_undo_refuses(cli):
    """Event 3's card edited to Ben's own (locked at once): event 4, Ben's place, comes out of
    turn, and events 5 and 6 follow it."""
    data = _ke_log(cli, ('"Boar Farming 2"', '"Pig Farming 2"'))
    err = _refused_untouched(cli, data, 4, _first_line(data, 4))
    hinted = _hinted(err)
    assert hinted == ["referee correct 4 MOVE --why TEXT --by NAME"], err  # no undo offered
    path = cli.path / "game.toml"
    refused = cli("undo", "--force")
    assert refused.status == 1 and "event 4 (place) is illegal" in refused.err
    assert path.read_bytes() == data
    # The illegal event next to last: undo would retract the last, never reach it, so neither
    # its refusal nor `status` offers undo.
    shorter = data.decode().rsplit("[[events]]", 1)[0].rstrip("\n") + "\n"
    path.write_text(shorter)
    for args in (("undo", "--force"), ("status",)):
        result = cli(*args)
        assert result.status == 1 and _hinted(result.err) == hinted, result.err
        assert path.read_text() == shorter
    path.write_bytes(data)
    # A correction the later events no longer fit is refused, the log byte for byte unchanged.
    broken = cli(*_typed(hinted[0], "draw Pig Religion 1"))
    assert broken.status == 1 and "would break 2 later event(s)" in broken.err, broken.err
    assert "event 5 (Cat: draw Stag Army 2)" in broken.err
    assert path.read_bytes() == data
    # A correction made before the illegal event still meets it: refused, named, unchanged.
    later = cli("correct", "5", "draw", "SA1", "--why", "x", "--by", "Dora", "--force")
    assert later.status == 1 and "event 4 (place) is illegal" in later.err
    assert path.read_bytes() == data
    deleted = cli(*_typed(hinted[0], "--delete"))
    assert deleted.status == 0 and "deleted Ben: place Horse" in deleted.out, deleted.err
    _checks_clean(cli)
    path.write_bytes(data)
    assert cli("correct", "3", "draw", "BF2", "--why", "x", "--by", "Dora", "--force").status == 0
    _checks_clean(cli)
    assert len(logfile.parse(path.read_text(), "game.toml").entries) == 6


def test_king_of_the_valley_a_tile_changed_in_the_shuffled_reveal(cli):
    """The tester's twin: a tile of the opening reveal (a virtual pile) changed by hand."""
    assert cli("new", "king-of-the-valley", "--player", "Ann", "--player", "Ben", "--shuffle",
               "--seed", "3").status == 0
    for move in ("reveal", "king a1", "king c3", "move a1 b1", "refill left", "reveal"):
        assert cli("play", *move.split()).status == 0, move
    path = cli.path / "game.toml"
    text = path.read_text()
    assert '    "jester",\n    "wife",\n' in text
    path.write_text(text.replace('    "jester",\n    "wife",\n', '    "jester",\n    "queen",\n',
                                 1))
    data = path.read_bytes()
    err = _refused_untouched(cli, data, 1, _first_line(data, 1))
    assert "queen is not the next tile of the virtual pile I" in err
    hinted = _hinted(err)
    assert hinted == ["referee correct 1 MOVE --why TEXT --by NAME --force"], err
    assert cli(*_typed(hinted[0], "reveal")).status == 0
    _checks_clean(cli)
    history = cli("history")
    assert history.status == 0 and "move a1 b1" in history.out and "corrected (1)" in history.out
    assert '    "jester",\n    "queen",\n' in path.read_text()  # the edit kept in the trail


def test_a_sealed_event_is_put_back_with_the_seal_the_log_holds(cli):
    """King of the Castle: Ben's seal hand-edited into Ann's name. The hint retypes it with its
    seal (never the secret), and any other seal is refused."""
    path = cli.path / "game.toml"
    shutil.copy(GOLDEN / "king-of-the-castle" / "three-player.toml", path)
    text = path.read_text()
    head = 'seq = 2\nat = 2026-11-21 19:01:00+00:00\nby = "Ben"'
    assert text.count(head) == 1
    path.write_text(text.replace(head, head.replace("Ben", "Ann")))
    data = path.read_bytes()
    err = _refused_untouched(cli, data, 2, _first_line(data, 2))
    seal = re.search(r'seq = 2\n.*?seal = "(sha256:[0-9a-f]{64})"', text, re.S)
    assert seal is not None
    hinted = _hinted(err)
    assert hinted == [f"referee correct 2 squires {seal[1]} --why TEXT --by NAME"], err
    forged = cli("correct", "2", "squires", "sha256:" + "0" * 64, "--why", "x", "--by", "Dora")
    assert forged.status == 2 and "only with the seal event 2 holds" in forged.err
    bare = cli("correct", "2", "squires", "--why", "x", "--by", "Dora")
    assert bare.status == 2 and "(`squires sha256:...`, copied from the log)" in bare.err
    assert path.read_bytes() == data
    done = cli(*_typed(hinted[0], ""))
    assert done.status == 0 and "now Ben: squires" in done.out, done.err
    _checks_clean(cli)


def test_a_correction_cannot_give_a_player_another_players_seal(cli):
    """The seal a correction may retype is the one the corrected event holds: copying another
    event's seal would let a player take over a choice after its opening showed it (Ann, 3rd,
    takes Ben's seal and opening and shares his first place), and no seal is inserted."""
    path = cli.path / "game.toml"
    shutil.copy(GOLDEN / "king-of-the-castle" / "three-player.toml", path)
    data = path.read_bytes()
    seals = re.findall(r'seal = "(sha256:[0-9a-f]{64})"', data.decode())
    assert len(seals) == 3
    taken = cli("correct", "1", "squires", seals[1], "--why", "x", "--by", "Ann", "--force",
                "--also", "167 open B R X DK39-TWFJ-KD17")
    assert taken.status == 2, taken.out + taken.err
    assert "only with the seal event 1 holds" in taken.err, taken.err
    inserted = cli("correct", "3", "squires", seals[0], "--insert", "--why", "x", "--by", "Cat")
    assert inserted.status == 2 and "sealed move cannot be inserted" in inserted.err, \
        inserted.err
    assert path.read_bytes() == data
    same = cli("correct", "1", "squires", seals[0], "--why", "x", "--by", "Dora")
    assert same.status == 2 and "only with the seal" not in same.err, same.err  # its own seal:
    assert "event 1 already is `squires sha256:" in same.err  # taken, but it changes nothing
    _checks_clean(cli)


def test_a_seal_edited_by_hand_is_put_back_only_where_it_is_still_the_same_seal(cli):
    """A seal whose hex digits were written in capitals is the same commitment: the hint
    retypes it as the log writes seals, and that mends the log. A seal that lost digits is no
    commitment: no command can put it back, so the hint offers none."""
    path = cli.path / "game.toml"
    shutil.copy(GOLDEN / "king-of-the-castle" / "three-player.toml", path)
    text = path.read_text()
    seal = re.findall(r'seal = "sha256:([0-9a-f]{64})"', text)[1]
    path.write_text(text.replace(seal, seal.upper()))
    data = path.read_bytes()
    err = _refused_untouched(cli, data, 2, _first_line(data, 2))
    hinted = _hinted(err)
    assert hinted == [f"referee correct 2 squires sha256:{seal} --why TEXT --by NAME"], err
    done = cli(*_typed(hinted[0], ""))
    assert done.status == 0 and f"now Ben: squires sha256:{seal}" in done.out, done.err
    _checks_clean(cli)
    path.write_text(text.replace(seal, seal[:60]))
    data = path.read_bytes()
    err = _refused_untouched(cli, data, 2, _first_line(data, 2))
    assert "hint: put its seal back as it was recorded, from a copy of the log: no command " \
        "retypes a damaged seal" in err and not _hinted(err), err
    # The damaged seal the last event: undo takes it back (and is the only command offered).
    events = text.split("[[events]]")
    path.write_text("[[events]]".join(events[:3]).replace(seal, seal[:60]).rstrip("\n") + "\n")
    data = path.read_bytes()
    err = _refused_untouched(cli, data, 2, _first_line(data, 2))
    assert _hinted(err) == ["referee undo"], err
    assert cli("undo").status == 0 and cli("status").status == 0
    assert len(logfile.parse(path.read_text(), "game.toml").entries) == 1
