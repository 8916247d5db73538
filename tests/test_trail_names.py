"""`check` reads each event of a corrections trail as a move of the game where it stood: a
hand-edited trail naming a player, House, card or square the game does not have is a malformed
log (exit 65, the correction's event and TOML line), in every game; an old event the rules
forbade there is what a correction mends, and no fault."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee import log as logfile
from referee import replay, session
from referee.check import check_file
from referee.engine import Event
from referee.evolve import evolve
from referee.log import Correction, Entry
from tests.conftest import GOLDEN

# Per game: a golden log, an event of it, and its fields as a hand edit of the trail left them.
NONSENSE = {
    "kings-ear": ("kings-ear/three-player-win.toml", 2, {"house": "Zebra"}, "'Zebra'"),
    "king-of-the-valley": ("king-of-the-valley/two-player.toml", 8, {"square": "z9"}, "'z9'"),
    "dwarf-king": ("dwarf-king/three-player.toml", 6, {"card": "X5"}, "'X5'"),
    "king-of-the-castle": ("king-of-the-castle/four-player-hand.toml", 2, {"card": "Bogus"},
                           "'Bogus'"),
    "kingmaker": ("kingmaker/four-player-complete-victory.toml", 31, {"nobles": ["Nobody"]},
                  "'Nobody'"),
}


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch):
    monkeypatch.setenv("REFEREE_CACHE", "0")


def with_trail(tmp_path: Path, name: str, seq: int, old: Entry, events: int | None = None
               ) -> Path:
    """The golden log `name` (its first `events`), with a trail of one hand-written change:
    event `seq` was `old`, and became the event the log holds."""
    log = logfile.read(GOLDEN / name)
    if events is not None:
        log = evolve(log, entries=log.entries[:events])
    now = log.entries[seq - 1]
    fix = Correction(seq, "change", logfile.now(), "a hand edit", evolve(old, line=None),
                     evolve(now, line=None), "Dan")
    path = tmp_path / "game.toml"
    path.write_text(logfile.dumps(evolve(log, corrections=(fix,))), encoding="utf-8")
    return path


def correction_line(path: Path) -> int:
    return path.read_text(encoding="utf-8").splitlines().index("[[corrections]]") + 1


def the_finding(path: Path):
    report = check_file(path)
    assert report.exit_status == 65, report
    (finding,) = report.findings
    assert (finding.code, finding.kind) == ("bad-corrections", "log")
    return finding


@pytest.mark.parametrize("game_id", sorted(NONSENSE))
def test_a_trail_event_naming_what_the_game_does_not_have_is_a_malformed_log(
        tmp_path, cli, game_id):
    name, seq, fields, said = NONSENSE[game_id]
    entry = logfile.read(GOLDEN / name).entries[seq - 1]
    path = with_trail(tmp_path, name, seq, evolve(entry, event=entry.event.with_fields(**fields)))
    finding = the_finding(path)
    assert (finding.event, finding.line) == (seq, correction_line(path))
    assert finding.message.startswith(f"correction 1 (event {seq}, change): its old event "
                                      f"does not read as a move of ")
    assert said in finding.message
    result = cli("check", str(path))
    assert result.status == 65 and said in result.err + result.out


def test_a_trail_event_made_by_someone_not_playing_is_a_malformed_log(tmp_path):
    name, seq = NONSENSE["kings-ear"][:2]
    entry = logfile.read(GOLDEN / name).entries[seq - 1]
    path = with_trail(tmp_path, name, seq, evolve(entry, event=Event.make(entry.event.type, "Zed",
                                                                  **dict(entry.event.fields))))
    finding = the_finding(path)
    assert finding.message == ("correction 1 (event 2, change): its old event is made by 'Zed', "
                               "who is not playing this game")


@pytest.mark.parametrize("game_id", sorted(NONSENSE))
def test_a_trail_whose_old_event_was_illegal_where_it_stood_still_checks(tmp_path, game_id):
    """What a correction mends: an event the rules forbade (here, the next event played one
    turn early, by its own player), whose words all name what the game has."""
    name, seq = NONSENSE[game_id][:2]
    entries = logfile.read(GOLDEN / name).entries
    later = next(e for e in entries[seq:] if e.event.by not in (None, entries[seq - 1].event.by))
    path = with_trail(tmp_path, name, seq, evolve(later, seq=seq, at=entries[seq - 1].at))
    setup = replay.from_log(logfile.read(path))
    with pytest.raises(replay.ReplayError):  # illegal where it stood (else the test shows nothing)
        replay.final(setup, [*entries[:seq - 1], evolve(later, seq=seq)], checked=True)
    report = check_file(path)
    assert report.ok and not report.findings, report.findings


def test_an_old_event_naming_a_noble_not_yet_in_play_there_still_checks(tmp_path):
    """A name the game has, though not yet where the old event stood (a noble dealt later),
    reads: only words that no state of that history reads are a fault."""
    name = NONSENSE["kingmaker"][0]
    entries = logfile.read(GOLDEN / name).entries
    moved = entries[30]  # `move Neville to near:London`, before any noble is dealt
    assert moved.event["nobles"] == ("Neville",)
    old = evolve(moved, seq=2, at=entries[1].at)
    report = check_file(with_trail(tmp_path, name, 2, old))
    assert report.ok and not report.findings, report.findings
    nonsense = evolve(old, event=moved.event.with_fields(nobles=["Nobody"]))
    assert "'Nobody'" in the_finding(with_trail(tmp_path, name, 2, nonsense)).message


def test_a_trail_event_holding_a_hidden_card_names_no_card(tmp_path, cli):
    """The Dwarf King's Flag Bearer gives 2 cards back face down: a hand-edited old `give`
    with one of them and a card the game does not have is a finding that names neither, nor
    any card of the hands the tool dealt, in every channel."""
    assert cli("new", "dwarf-king", "-p", "Pierre", "-p", "Bruno", "-p", "Catie",
               "--seed", "8").status == 0
    path = cli.path / "game.toml"
    session.play(path, "special")
    session.play(path, "quest a")
    table = session.load(path)
    (holder,) = table.game.to_act(table.state).players
    target = next(n for n in table.state.names if n != holder)
    session.play(path, f"swap {target}", holder)
    deal = session.load(path).state.deal
    mine = sorted(deal.slots[session.load(path).state.seat(holder)].known)
    given = sorted(deal.taken)
    session.play(path, f"give {given[0]} {given[1]}", holder)
    log = logfile.read(path)
    give = log.entries[-1]
    old = evolve(give, event=give.event.with_fields(cards=[given[0], "ZZ"]))
    fix = Correction(give.seq, "change", logfile.now(), "a hand edit", evolve(old, line=None),
                     evolve(give, line=None), "Dan")
    path.write_text(logfile.dumps(evolve(log, corrections=(fix,))), encoding="utf-8")
    finding = the_finding(path)
    said = [finding.message]
    for args in (("check", "game.toml"), ("check", "--json", "game.toml")):
        result = cli(*args)
        assert result.status == 65
        said.append(result.out + result.err)
    assert "does not read as a move of The Dwarf King" in said[0]
    hidden = set(mine) | set(given) | set().union(*(slot.known for slot in deal.slots))
    for text in said:
        assert [card for card in hidden if card in text] == [], text
    assert json.loads(said[2])[0]["findings"][0]["event"] == give.seq


def test_a_trail_that_reads_costs_check_no_replay_beyond_the_logs_own(tmp_path, monkeypatch):
    """check is the organisers' bulk tool (issue 27): a trail whose events read where they
    stand in the log's own replay is read there, each event applied once, as without a trail
    (a replay of the history to each correction doubled a Kingmaker check)."""
    name = NONSENSE["kingmaker"][0]
    entries = logfile.read(GOLDEN / name).entries
    log = logfile.read(GOLDEN / name)
    fixes = tuple(Correction(seq, "change", logfile.now(), "a hand edit",
                             evolve(entries[seq - 1], line=None),
                             evolve(entries[seq - 1], line=None), "Dan")
                  for seq in (90, 60, 31, 2, len(entries)))
    path = tmp_path / "game.toml"
    path.write_text(logfile.dumps(evolve(log, corrections=fixes)), encoding="utf-8")
    applied = []
    real = replay.apply_event
    monkeypatch.setattr(replay, "apply_event",
                        lambda *args, **kw: applied.append(1) or real(*args, **kw))
    report = check_file(path)
    assert report.ok and not report.findings, report.findings
    assert report.corrections == 5
    assert len(applied) == len(entries)
