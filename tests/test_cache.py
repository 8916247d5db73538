"""The replay cache can never change an answer: a log edited behind its back, an entry from
another version, a corrupt or planted entry all give what no cache gives. `check` never uses it.
And appending a move writes the same text as writing the whole log again."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from referee import cache
from referee import log as logfile
from referee.check import check_file
from tests.conftest import GOLDEN

COMMANDS = (("status", "--json"), ("options",), ("history",), ("score",), ("options", "--json"))


def answers(cli) -> list[str]:
    return [cli(*command).out for command in COMMANDS]


def without_cache(cli, monkeypatch) -> list[str]:
    monkeypatch.setenv("REFEREE_CACHE", "0")
    try:
        return answers(cli)
    finally:
        monkeypatch.delenv("REFEREE_CACHE")


def entries() -> list[Path]:
    root = cache.folder()
    assert root is not None
    return list(root.glob("*.pickle"))


@pytest.fixture
def game_in_play(ke_game):
    for move in ("draw PA3", "place Stag", "draw PR2", "draw SF1"):
        assert ke_game("play", *move.split()).status == 0
    assert len(entries()) == 1  # the table as the last play left it
    return ke_game


def test_the_cache_answers_as_the_log_does(game_in_play, monkeypatch):
    log = game_in_play.path / "game.toml"
    assert cache.lookup(log, log.read_bytes()) is not None  # the answers below come from it
    cached = answers(game_in_play)
    assert cached == without_cache(game_in_play, monkeypatch)


def test_a_log_edited_behind_the_cache(game_in_play, monkeypatch):
    log = game_in_play.path / "game.toml"
    text = log.read_text()
    log.write_text(text[:text.rindex("[[events]]")].rstrip("\n") + "\n")  # the last move gone
    edited = answers(game_in_play)
    assert "draw Stag Farming 1" not in edited[2]
    assert edited == without_cache(game_in_play, monkeypatch)


def test_an_entry_from_another_version_or_corrupt_is_ignored(game_in_play, monkeypatch):
    truth = without_cache(game_in_play, monkeypatch)
    with monkeypatch.context() as patch:
        patch.setattr(cache, "TAG", "referee 0.0.1 python (3, 0, 0)")
        assert answers(game_in_play) == truth
    [entry] = entries()
    entry.write_bytes(b"not a pickle at all")
    assert answers(game_in_play) == truth


class Planted:
    """A pickle that would run code when loaded."""

    ran = False

    def __reduce__(self):
        return (Planted.mark, ())

    @staticmethod
    def mark():
        Planted.ran = True
        return None


def test_an_entry_others_could_have_written_is_never_loaded(game_in_play, monkeypatch):
    [entry] = entries()
    data = (game_in_play.path / "game.toml").read_bytes()
    entry.write_bytes(cache._header(data) + pickle.dumps(Planted()))
    os.chmod(entry, 0o666)
    truth = without_cache(game_in_play, monkeypatch)
    assert answers(game_in_play) == truth and not Planted.ran
    os.chmod(entry.parent, 0o777)
    assert cache.folder() is None


def test_check_never_uses_the_cache(monkeypatch):
    monkeypatch.setattr(cache, "lookup", lambda *args: pytest.fail("check used the cache"))
    assert check_file(GOLDEN / "kings-ear" / "three-player-win.toml").ok


def test_the_cache_can_be_turned_off(ke_game, monkeypatch):
    monkeypatch.setenv("REFEREE_CACHE", "0")
    assert ke_game("play", "draw", "PA3").status == 0
    monkeypatch.delenv("REFEREE_CACHE")
    assert entries() == []


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*/*.toml")), ids=lambda p: p.stem)
def test_appending_a_move_writes_what_the_whole_log_would(path):
    log = logfile.read(path)
    shorter = logfile.GameLog(**{**log.__dict__, "entries": log.entries[:-1],
                                 "_locator": None})
    previous = logfile.dumps(shorter)
    assert logfile.appended_text(log, previous) == logfile.dumps(log) == path.read_text()
    again = logfile.located(log, logfile.dumps(log))
    assert [e.line for e in again.entries] == [e.line for e in log.entries]
