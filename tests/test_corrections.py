"""`referee correct` and `end` (issue 26): corrections of golden games of every game, the trail
`check` validates, refusals that list the later events they break and write nothing, and a
property test on random playouts of every game."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import corrections, replay, session
from referee import log as logfile
from referee.check import check_file
from referee.corrections import CorrectionMisfit, CorrectionRefused, Fix
from referee.engine import available_game_ids, load_game
from referee.errors import LogError, NeedsForce, UsageError
from referee.evolve import evolve
from referee.engine import apply_event
from referee.simulate import default_players
from tests.conftest import GOLDEN

# Per game: a golden game, and corrections found in it (event, move, player) that
# - `ok`: leave every later event legal and change the final score;
# - `breaks`: make later events illegal (the first one named);
# - `reveal`: change a reveal and leave the rest legal (so only --force is wanted);
# - `chain`: break one later event, fixed in the same command;
# - `insert` / `delete`: an event put in or taken out in the middle, the rest still legal.
CASES = {
    "kings-ear": {
        "log": "kings-ear/three-player-win.toml",
        "ok": (36, "place Horse", "Cat"),
        "breaks": (34, "place Boar", "Ben", 40),
        "reveal": (35, "draw Horse Religion 3", "Cat"),
        "chain": ((17, "place Pig", "Ann"), (40, "trade Pig give HF1 take ST1", "Cat")),
        "chain_events": 40,  # the game's first 40 events: the README's example
    },
    "king-of-the-valley": {
        "log": "king-of-the-valley/two-player.toml",
        "ok": (128, "refill right", "Hana"),
        "breaks": (48, "move a3 b3", "Hana", 54),
        "reveal": None,
        "reveal_break": (50, "reveal queen", None),
        "chain": ((80, "move b2 d2", "Hana"), (86, "move d2 e1", "Hana")),
        "insert": (139, "recruit left 1", "Hana"),
        "delete": 61,
    },
    "dwarf-king": {
        "log": "dwarf-king/three-player.toml",
        "ok": None,
        "breaks": (99, "K7", "Bruno", 102),
        "reveal": (130, "quest 2a", "Pierre"),
    },
    "king-of-the-castle": {
        "log": "king-of-the-castle/four-player-hand.toml",
        "ok": None,
        "breaks": (43, "peaceful-death", "Hana", 44),
        "reveal": (42, "discard peaceful-death", "Gus"),
        "delete": 110,
    },
    "kingmaker": {
        "log": "kingmaker/four-player-complete-victory.toml",
        "ok": None,
        "breaks": (56, "move Neville to in:London", "Ann", 57),
        "reveal": (43, "draw hidden", "Ben"),
        "chain": ((86, "execute Henry", "Ann"), (116, "save Margaret-of-Anjou 01", None)),
        "insert": (41, "friendly Middleham for Ben", "Ann"),
        "delete": 58,
    },
}
GAMES = sorted(CASES)


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch):
    monkeypatch.setenv("REFEREE_CACHE", "0")


def copy(tmp_path: Path, name: str, events: int | None = None) -> Path:
    """A golden log in tmp_path (its first `events` only, when given)."""
    log = logfile.read(GOLDEN / name)
    if events is not None:
        log = evolve(log, entries=log.entries[:events])
    path = tmp_path / "game.toml"
    path.write_text(logfile.dumps(log), encoding="utf-8")
    return path


def final(path: Path):
    setup, state = replay.replay_log(logfile.read(path))
    return setup.game, state


def fresh(path: Path):
    """The game replayed from the log's events alone, as if played so from the start."""
    log = logfile.read(path)
    setup = replay.from_log(log)
    return replay.final(setup, [evolve(e, line=None) for e in log.entries])


def fix(case: tuple) -> Fix:
    return Fix(case[0], "change", case[1], case[2])


# --------------------------------------------------------------------------------------------
# Every game


@pytest.mark.parametrize("game_id", GAMES)
def test_a_correction_that_breaks_later_events_is_refused_listed_and_writes_nothing(
        tmp_path, game_id):
    case = CASES[game_id]
    path = copy(tmp_path, case["log"])
    before = path.read_bytes()
    seq, move, player, first_broken = case["breaks"]
    with pytest.raises(CorrectionRefused) as refused:
        corrections.correct(path, [Fix(seq, "change", move, player)], "a test", by="Dan",
                            force=True)
    broken = refused.value.broken
    assert broken and broken[0].seq == first_broken and all(b.seq > seq for b in broken)
    assert f"event {first_broken} (" in refused.value.message and broken[0].error.message
    assert path.read_bytes() == before


@pytest.mark.parametrize("game_id", GAMES)
def test_a_reveal_is_corrected_only_with_force(tmp_path, game_id):
    case = CASES[game_id]
    path = copy(tmp_path, case["log"])
    before = path.read_bytes()
    seq, move, player = case["reveal"] or case["reveal_break"]
    with pytest.raises(NeedsForce) as refused:
        corrections.correct(path, [Fix(seq, "change", move, player)], "a test", by="Dan")
    assert refused.value.code == "correct-reveal" and path.read_bytes() == before
    assert refused.value.exit_status == 1
    if case["reveal"] is None:
        return
    done = corrections.correct(path, [Fix(seq, "change", move, player)], "a test", by="Dan",
                               force=True)
    game = done.table.game
    assert done.made[0].old.event.type == done.made[0].new.event.type
    assert game.events[done.made[0].old.event.type].reveal
    assert done.table.state == fresh(path)
    assert check_file(path).ok


@pytest.mark.parametrize("game_id", [g for g in GAMES if CASES[g]["ok"]])
def test_a_correction_in_the_middle_replays_the_rest_and_changes_the_score(tmp_path, game_id):
    case = CASES[game_id]
    path = copy(tmp_path, case["log"])
    game, before = final(path)
    done = corrections.correct(path, [fix(case["ok"])], "found later", by="Dan")
    after = done.table.state
    assert after == fresh(path)  # as if the game had been played so
    assert game.scoresheet(after).rows != game.scoresheet(before).rows
    assert len(done.table.log.entries) == len(logfile.read(GOLDEN / case["log"]).entries)
    trail = logfile.read(path).corrections
    assert [(c.seq, c.kind, c.by, c.why) for c in trail] == [
        (case["ok"][0], "change", "Dan", "found later")]
    assert corrections.original(logfile.read(path)) == tuple(
        evolve(e, line=None) for e in logfile.read(GOLDEN / case["log"]).entries)
    assert corrections.marks(logfile.read(path)) == {case["ok"][0]: ["corrected (1)"]}
    assert any("Corrected: 1 correction" in note for note in done.table.score().notes)


def test_king_of_the_valley_refill_corrected_scores_as_the_rules_say(tmp_path):
    """The last refill of the two-player golden game taken from the right, not the left: the
    final castles, and so the scores, are those of the game replayed that way."""
    case = CASES["king-of-the-valley"]
    path = copy(tmp_path, case["log"])
    game, before = final(path)
    done = corrections.correct(path, [fix(case["ok"])], "the right row", by="Dan")
    totals = {r.name: r.total for r in game.scoresheet(done.table.state).rows}
    assert totals != {r.name: r.total for r in game.scoresheet(before).rows}
    assert totals == {r.name: r.total for r in game.scoresheet(fresh(path)).rows}


def test_kings_ear_corrected_placement_moves_the_trade_net_as_the_rules_say(tmp_path):
    """Event 36: Cat's Pig Trade... goes under Horse, not Pig: Ann's Horse Trade net drops by the
    card's value and Ben's Pig Trade net rises by it (R-4: own cards minus the others')."""
    path = copy(tmp_path, CASES["kings-ear"]["log"])
    game, before = final(path)
    done = corrections.correct(path, [fix(CASES["kings-ear"]["ok"])], "under Horse", by="Dan")

    def trade(state):
        return {r.name: dict(r.categories)["Trade"] for r in game.scoresheet(state).rows}

    assert trade(before)["Ann"] - trade(done.table.state)["Ann"] == 4
    assert trade(done.table.state)["Ben"] - trade(before)["Ben"] == 4


@pytest.mark.parametrize("game_id", [g for g in GAMES if "chain" in CASES[g]])
def test_a_chain_is_fixed_in_one_command(tmp_path, game_id):
    case = CASES[game_id]
    path = copy(tmp_path, case["log"])
    first, second = case["chain"]
    events = case.get("chain_events")
    path = copy(tmp_path, case["log"], events)
    before = path.read_bytes()
    with pytest.raises(CorrectionRefused) as refused:
        corrections.correct(path, [fix(first)], "alone", force=True, by="Dan")
    assert refused.value.broken[0].seq == second[0] and path.read_bytes() == before
    done = corrections.correct(path, [fix(first), fix(second)], "together", force=True, by="Dan")
    assert sorted(c.seq for c in done.made) == sorted([first[0], second[0]])
    assert done.table.state == fresh(path) and check_file(path).ok
    assert corrections.original(logfile.read(path)) == tuple(
        evolve(e, line=None) for e in logfile.read(GOLDEN / case["log"]).entries[:events])


@pytest.mark.parametrize("game_id", GAMES)
def test_an_insert_and_a_delete(tmp_path, game_id):
    """In the middle where the golden game allows it; everywhere, a forgotten last move: the
    log cut after event N, event N deleted, then put back in."""
    case = CASES[game_id]
    golden = logfile.read(GOLDEN / case["log"])
    if "insert" in case:
        path = copy(tmp_path, case["log"])
        seq, move, player = case["insert"]
        done = corrections.correct(path, [Fix(seq, "insert", move, player)], "forgotten", by="Dan")
        assert len(done.table.log.entries) == len(golden.entries) + 1
        assert done.table.state == fresh(path) and check_file(path).ok
        assert corrections.marks(done.table.log)[seq] == ["inserted (1)"]
    if "delete" in case:
        path = copy(tmp_path, case["log"])
        done = corrections.correct(path, [Fix(case["delete"], "delete")], "never happened",
                                   force=True, by="Dan")
        assert len(done.table.log.entries) == len(golden.entries) - 1
        assert done.table.state == fresh(path) and check_file(path).ok
        assert "event deleted before this one (1)" in corrections.marks(done.table.log)[
            case["delete"]]
    middle = len(golden.entries) // 2
    path = copy(tmp_path, case["log"], middle)
    last = golden.entries[middle - 1]
    setup = replay.from_log(golden)
    before = replay.final(setup, golden.entries[:middle - 1], checked=True)
    text = setup.game.format(before, last.event)
    corrections.correct(path, [Fix(middle, "delete")], "not yet", force=True, by="Dan")
    done = corrections.correct(path, [Fix(middle, "insert", text, last.event.by)], "it was",
                               by="Dan")
    assert [e.event for e in done.table.log.entries] == [e.event for e in golden.entries[:middle]]
    assert [c.kind for c in logfile.read(path).corrections] == ["delete", "insert"]
    assert check_file(path).ok


@pytest.mark.parametrize("game_id", GAMES)
def test_a_hand_edited_trail_is_a_finding_of_check(tmp_path, game_id):
    case = CASES[game_id]
    path = copy(tmp_path, case["log"])
    seq, move, player = case["reveal"] or case["ok"] or case["chain"][0]
    corrections.correct(path, [Fix(seq, "change", move, player)], "a test", force=True, by="Dan")
    assert check_file(path).ok
    text = path.read_text(encoding="utf-8")
    head, new = text.split("[corrections.new]\n")
    edited = head + "[corrections.new]\n" + re.sub(r"at = \d{4}", "at = 1999", new, count=1)
    assert edited != text
    path.write_text(edited, encoding="utf-8")
    report = check_file(path)
    assert [f.code for f in report.findings] == ["bad-corrections"]
    assert report.exit_status == 65 and all(f.kind != "internal" for f in report.findings)
    with pytest.raises(LogError):
        corrections.original(logfile.read(path))


# --------------------------------------------------------------------------------------------
# The trail, the refusals, undo, end


def test_the_trail_keeps_old_and_new_and_a_missing_or_changed_one_is_caught(tmp_path):
    path = copy(tmp_path, CASES["kings-ear"]["log"])
    corrections.correct(path, [fix(CASES["kings-ear"]["ok"])], "under Horse", by="Dan")
    text = path.read_text(encoding="utf-8")
    assert 'why = "under Horse"' in text and '[corrections.old]\nseq = 36' in text
    assert 'house = "Pig"' in text.split("[corrections.old]")[1]
    for old, new in (('house = "Horse"\n', 'house = "Boar"\n'),  # the new event edited
                     ('kind = "change"', 'kind = "insert"')):  # an insert with an old event
        path.write_text(text[::-1].replace(old[::-1], new[::-1], 1)[::-1], encoding="utf-8")
        assert not check_file(path).ok and check_file(path).exit_status == 65


def test_a_refused_typed_move_names_the_rule_and_writes_nothing(tmp_path):
    path = copy(tmp_path, CASES["kings-ear"]["log"])
    before = path.read_bytes()
    with pytest.raises(Exception) as refused:
        corrections.correct(path, [Fix(34, "change", "place Pig", None)], "wrong", by="Dan")
    assert "correction of event 34" in str(refused.value.message)
    assert refused.value.exit_status == 1 and refused.value.suggestions
    assert path.read_bytes() == before


@pytest.mark.parametrize("fixes, why, said", [
    ([Fix(99, "change", "place Pig")], "x", "there is no event 99: the log has 92 event(s)"),
    ([Fix(94, "insert", "note late")], "x", "there is no event 94"),  # 93: after the last
    ([Fix(0, "insert", "note early")], "x", "there is no event 0"),
    ([Fix(3, "delete"), Fix(3, "change", "place Stag")], "x", "corrected twice"),
    ([Fix(36, "change", "place Horse")], "  ", "--why: say why"),
])
def test_bad_corrections_are_usage_errors(tmp_path, fixes, why, said):
    path = copy(tmp_path, CASES["kings-ear"]["log"])
    before = path.read_bytes()
    with pytest.raises(UsageError) as refused:
        corrections.correct(path, fixes, why, by="Dan")
    assert said in refused.value.message
    assert path.read_bytes() == before


def test_also_specs_are_read_strictly():
    assert corrections.read_fix("40 trade Pig take ST1") == Fix(40, "change", "trade Pig take ST1")
    assert corrections.read_fix("7 insert draw PA3") == Fix(7, "insert", "draw PA3")
    assert corrections.read_fix("7 delete") == Fix(7, "delete")
    assert corrections.read_fix("13 trade Horse take PT1 --as Ben") == \
        Fix(13, "change", "trade Horse take PT1", "Ben")  # L5: --as in --also
    assert corrections.read_fix("7 insert draw PA3 --as=Ann") == Fix(7, "insert", "draw PA3", "Ann")
    assert corrections.read_fix("7 place Pig --as Anne Marie").player == "Anne Marie"
    for bad in ("x delete", "7", "seven place Pig", "\u00b2 delete", "\u00b9\u2070 place Pig",
                "7 place Pig --as", "7 place Pig --as=Ann Pig"):
        with pytest.raises(UsageError):
            corrections.read_fix(bad)


def test_undo_keeps_the_trail_it_stands_on(tmp_path):
    path = copy(tmp_path, CASES["kings-ear"]["log"], 40)
    corrections.correct(path, [Fix(40, "change", "draw BA2", "Cat")], "drew, not traded",
                        by="Dan")
    before = path.read_bytes()
    with pytest.raises(NeedsForce) as refused:
        session.undo(path, force=True)
    assert refused.value.code == "undo-corrected" and path.read_bytes() == before
    assert refused.value.exit_status == 1  # a command refused, not a wrong command line


@pytest.mark.parametrize("game_id", available_game_ids())
def test_every_game_can_be_stopped_scored_as_it_stands_and_resumed(tmp_path, game_id):
    golden = sorted((GOLDEN / game_id).glob("*.toml"))[0]
    log = logfile.read(golden)
    path = copy(tmp_path, f"{game_id}/{golden.name}", len(log.entries) // 2)
    before = session.load(path)
    played = session.play(path, "end the pub closes")
    laid = 0  # what a game still asks after a stop: King of the Castle's squires
    while not played.after.finished:
        event = played.after.game.random_event(played.after.state, random.Random(laid))
        played = session.play(path, played.after.format(event), as_name=event.by)
        laid += 1
    table = played.after
    assert (laid > 0) == (game_id == "king-of-the-castle")  # its four players lay down letters
    assert table.finished and table.stopped == "the pub closes" and table.phase == "stopped"
    sheet = table.score()
    assert not sheet.finished and sheet.winners == ()
    assert sheet.outcome.startswith("Incomplete: stopped by the table (the pub closes)")
    assert all(r.result.endswith("so far") for r in sheet.rows if r.name and r.result)
    if not laid:
        assert not table.game.finished(table.state)  # not over by the rules: stopped
        assert [r.total for r in sheet.rows] == [r.total for r in before.score().rows]
    from referee import export
    from referee.sheets import render

    assert export.bgg(sheet)["incomplete"] is True
    assert '"finished": false' in render(sheet, "json")
    assert "Incomplete" in render(sheet, "markdown") and "Incomplete" in render(sheet, "html")
    assert "<code>referee undo</code> resumes the game)" in render(sheet, "html")
    # an opening is retracted only with --force, before the stop is
    assert ("(<code>referee undo --force</code> takes back the " in render(sheet, "html")) == \
        (laid > 0)
    assert "`" not in render(sheet, "html")  # F13: no raw backticks on the printed page
    assert "so far" in render(sheet, "csv")
    assert table.choices().events == [] and "the table stopped it (the pub closes)" in table.board()
    with pytest.raises(Exception) as refused:
        session.play(path, "end again")
    assert refused.value.code == "game-stopped"
    for _ in range(laid):
        session.undo(path, force=True)
    session.undo(path)
    assert session.load(path).state == before.state


# --------------------------------------------------------------------------------------------
# The property: a correction replays as a fresh game, or is refused naming a later event


def random_events(setup, seed: int, count: int) -> list:
    """The first `count` events of a random game (fewer if it ends)."""
    game, state, rng, out = setup.game, setup.state, random.Random(seed), []
    while len(out) < count and not game.over(state):
        event = game.random_event(state, rng)
        if event is None:
            break
        state = apply_event(game, state, event, setup.players)
        out.append(event)
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game_id=st.sampled_from(available_game_ids()), seed=st.integers(0, 10_000),
       where=st.floats(0, 1), pick=st.integers(0, 1000))
def test_a_random_correction_replays_as_a_fresh_game_or_names_a_later_event(
        tmp_path, game_id, seed, where, pick):
    game = load_game(game_id)
    setup = replay.from_table(game, default_players(game, None), {}, seed)
    events = random_events(setup, seed, 40)
    if len(events) < 2:
        return
    path = tmp_path / f"{game_id}-{seed}.toml"
    log = logfile.GameLog(game=game.id, players=setup.players, options=setup.options,
                          created=logfile.now(), referee="test", seed=seed,
                          entries=tuple(replay.events_to_entries(events)),
                          seat_field=game.seat_field)
    path.write_text(logfile.dumps(log), encoding="utf-8")
    index = min(int(where * len(events)), len(events) - 1)
    before = replay.final(setup, replay.events_to_entries(events[:index]))
    others = [e for e in game.legal(before) if e != events[index]
              and not game.events[e.type].sealed]
    if not others:
        return
    other = others[pick % len(others)]
    text = game.format(before, other)
    original = path.read_bytes()
    try:
        done = corrections.correct(path, [Fix(index + 1, "change", text, other.by)], "random",
                                   force=True, by="Dan")
    except CorrectionRefused as refused:
        assert refused.broken and all(b.seq > index + 1 for b in refused.broken)
        assert path.read_bytes() == original
        return
    except CorrectionMisfit as misfit:  # the tool dealt (a seed): no event, no card named
        assert not re.search(r"\d", misfit.message) and path.read_bytes() == original
        return
    corrected = [e.event for e in logfile.read(path).entries]
    assert corrected == [*events[:index], other, *events[index + 1:]]
    fresh_state = replay.replay_events(game, setup.players, setup.options, seed, corrected)
    assert done.table.state == fresh_state
    assert check_file(path).ok


# --------------------------------------------------------------------------------------------
# Through the command line


@pytest.fixture
def ke40(cli):
    """The King's Ear golden game's first 40 events in ./game.toml."""
    copy(cli.path, CASES["kings-ear"]["log"], 40)
    return cli


def test_cli_correct_refusal_lists_broken_events_as_json_and_exits_1(ke40):
    before = (ke40.path / "game.toml").read_bytes()
    result = ke40("correct", "17", "place", "Pig", "--why", "under Pig", "--json", "--by",
                  "Dan")
    assert result.status == 1 and result.out == ""
    error = __import__("json").loads(result.err)["error"]
    assert error["code"] == "correction-breaks-events"
    assert [b["seq"] for b in error["broken"]] == [40] and error["broken"][0]["suggestions"]
    assert (ke40.path / "game.toml").read_bytes() == before


def test_cli_correct_history_marks_and_the_trail(ke40):
    result = ke40("correct", "36", "--insert", "note", "Ben", "left", "--why", "forgotten",
                  "--also", "39 place Stag", "--also", "12 delete", "--by", "Dan")
    assert result.status == 1 and "event 13" in result.err  # deleting 12 breaks the next turn
    result = ke40("correct", "36", "--insert", "note", "Ben", "left", "--why", "forgotten",
                  "--also", "39 place Stag", "--by", "Dan")
    assert result.status == 0, result.err
    assert "Corrected event 36: inserted note Ben left" in result.out
    history = ke40("history").out.splitlines()
    assert history[35].split() == ["36", "(table)", "note", "Ben", "left", "[inserted", "(2)]"]
    assert history[39].endswith("[corrected (1)]")
    trail = __import__("json").loads(ke40("history", "--corrections", "--json").out)
    assert [(t["number"], t["seq"], t["kind"], t["by"]) for t in trail] == [
        (1, 39, "change", "Dan"), (2, 36, "insert", "Dan")]
    assert trail[0]["old"] == "Ben: place Horse" and trail[0]["new"] == "Ben: place Stag"
    assert ke40("check", "game.toml").out.endswith("2 correction(s))\n")
    assert "Corrected: 2 correction(s)" in ke40("scoresheet", "-f", "markdown").out


def test_cli_correct_usage_errors_exit_2(ke40):
    before = (ke40.path / "game.toml").read_bytes()
    by = ("--by", "Dan")
    assert ke40("correct", "36", "--delete", "place", "Pig", "--why", "x", *by).status == 2
    assert ke40("correct", "36", "--why", "x", *by).status == 2
    assert ke40("correct", "36", "place", "Horse", "--why", "x", "--also", "nonsense",
                *by).status == 2
    assert ke40("correct", "36", "--insert", "--delete", "--why", "x", *by).status == 2
    # The trail always says who changed the record: --by is required, and not blank.
    unsigned = ke40("correct", "36", "place", "Horse", "--why", "x")
    assert unsigned.status == 2 and "--by" in unsigned.err
    assert ke40("correct", "36", "place", "Horse", "--why", "x", "--by", " ").status == 2
    assert (ke40.path / "game.toml").read_bytes() == before
    assert ke40("history", "--corrections").out == "No corrections: the log is as it was played.\n"


def test_a_malformed_trail_is_refused_on_reading_with_its_line(ke40):
    path = ke40.path / "game.toml"
    text = path.read_text(encoding="utf-8")
    head = '[[corrections]]\nseq = 3\nat = 2026-11-21T20:00:00Z\nwhy = "x"\n'
    for trail, said in ((head + 'kind = "swap"\nby = "Dan"\n', "kind is 'swap'"),
                        (head + 'kind = "delete"\nby = "Dan"\nwho = "me"\n', "unknown field"),
                        (head + 'kind = "delete"\nby = "Dan"\n', "a delete has an old event"),
                        (head + 'kind = "delete"\n[corrections.old]\nseq = 3\ntype = "pass"\n',
                         "by must say who made the correction"),
                        (head + 'kind = "delete"\nby = " "\n[corrections.old]\nseq = 3\n'
                         'type = "pass"\n', "by must say who made the correction"),
                        (head + 'kind = "delete"\nby = "Dan"\n[corrections.old]\nseq = 4\n'
                         'type = "pass"\n', "seq"),
                        ('corrections = 3\n', "corrections must be an array of tables")):
        path.write_text(trail + text if not trail.startswith("[[") else text + "\n" + trail,
                        encoding="utf-8")
        report = check_file(path)
        assert [f.code for f in report.findings] == ["bad-correction"], trail
        assert said in report.findings[0].message, (said, report.findings[0].message)
        assert report.exit_status == 65 and report.findings[0].kind == "log"


def test_a_correction_says_what_it_brings_to_light_as_play_does(tmp_path, cli):
    """Elin's Ace of Dwarves, typed as a forgotten last move, proves she revoked in trick 4:
    `play` would print the notice, and so must `correct` (check reports it as a finding)."""
    path = copy(tmp_path, "dwarf-king/five-player-tie.toml", 198)
    done = corrections.correct(path, [Fix(199, "insert", "DA", "Elin")], "forgotten", by="Dan")
    assert [(n.code, n.message) for n in done.notices] == [
        ("revoke", "Revoke by Elin: in trick 4 Elin played Scout instead of a Dwarf, but the same "
                   "hand plays DA in trick 5")]
    copy(cli.path, "dwarf-king/five-player-tie.toml", 198)
    result = cli("correct", "199", "--insert", "DA", "--as", "Elin", "--why", "forgotten",
                 "--by", "Dan")
    assert result.status == 0, result.err
    assert "NOTICE (Follow suit): Revoke by Elin: in trick 4" in result.out
    again = cli("correct", "200", "--insert", "K2", "--as", "Ada", "--why", "forgotten too",
                "--json", "--by", "Dan")
    assert __import__("json").loads(again.out)["notices"] == []  # brought to light before


def test_a_typed_correction_that_names_no_player_asks_for_one_as_play_does(tmp_path):
    """Any player may enter a hand in The Dwarf King: typed without --as, play asks who; so
    does correct, with the same words (it checks typed moves through play's own seam)."""
    path = copy(tmp_path, "dwarf-king/three-player.toml", 1)
    hand = "hand K3 K4 K5 K9 KK D4 D7 D9 G2 G8 G9 GQ GA"
    with pytest.raises(UsageError) as played:
        session.play(path, hand)
    before = path.read_bytes()
    with pytest.raises(UsageError) as corrected:
        corrections.correct(path, [Fix(2, "insert", hand)], "forgotten", by="Dan")
    assert corrected.value.message == played.value.message and "--as" in played.value.message
    assert path.read_bytes() == before


@pytest.mark.parametrize("edit", [('type = "place"', 'type = "bogus"'),
                                  ('house = "Pig"', 'house = 7'),
                                  ('house = "Pig"', 'house = "Pig"\ncolour = "red"')])
def test_a_trail_event_the_game_does_not_declare_is_a_finding_of_check(tmp_path, edit):
    """The trail's old and new events are held to the game's declarations as [[events]] are:
    a hand-written `old` of no known type, or with a field of the wrong type, is malformed."""
    path = copy(tmp_path, CASES["kings-ear"]["log"], 40)
    corrections.correct(path, [fix(CASES["kings-ear"]["ok"])], "under Horse", by="Dan")
    assert check_file(path).ok
    text = path.read_text(encoding="utf-8")
    old = text.index("[corrections.old]")
    path.write_text(text[:old] + text[old:].replace(*edit, 1), encoding="utf-8")
    report = check_file(path)
    assert [(f.code, f.kind) for f in report.findings] == [("bad-corrections", "log")]
    assert "correction 1 (event 36, change): its old event" in report.findings[0].message


def test_a_typed_correction_is_checked_at_the_time_it_is_recorded_with(tmp_path):
    """Kingmaker's clock runs on the events' times (R-49): event 31 corrected keeps its time in
    the log, so the state `correct` returns (and caches) is the one its replay gives."""
    path = copy(tmp_path, CASES["kingmaker"]["log"], 31)
    last = logfile.read(path).entries[-1]
    done = corrections.correct(path, [Fix(31, "change", "next", last.event.by)], "retyped",
                               by="Dan")
    assert done.made[0].new.at == last.at
    assert done.table.state == replay.replay_log(logfile.read(path))[1]


# --------------------------------------------------------------------------------------------
# What a correction changes in the result


WINS = {"kings-ear": ("kings-ear/four-player-win.toml", "Emil"),
        "king-of-the-valley": ("king-of-the-valley/two-player.toml", "Hana"),
        "dwarf-king": ("dwarf-king/three-player.toml", "Bruno"),
        "king-of-the-castle": ("king-of-the-castle/three-player.toml", "Ben"),
        "kingmaker": ("kingmaker/three-player-two-parliaments.toml", "Ann")}


@pytest.mark.parametrize("game_id", sorted(WINS))
def test_a_correction_that_reopens_a_finished_game_says_so_and_who_no_longer_wins(cli, game_id):
    """Deleting a finished game's last event reopens it: the confirmation says that the game
    is no longer over and who no longer wins (it used to say nothing), in text and --json, the
    same way for every game."""
    name, winner = WINS[game_id]
    path = copy(cli.path, name)
    last = len(logfile.read(path).entries)
    result = cli("correct", last, "--delete", "--why", "x", "--by", "Dan", "--force")
    assert result.status == 0, result.err
    said = result.out.splitlines()
    assert said[2] == f"The game is no longer over: {winner} no longer wins."
    assert said[-1].startswith("Next: ")
    path.write_text(logfile.dumps(logfile.read(GOLDEN / name)), encoding="utf-8")
    result = cli("correct", last, "--delete", "--why", "x", "--by", "Dan", "--force", "--json")
    effects = __import__("json").loads(result.out)["effects"]
    assert effects["finished"] == {"before": True, "after": False}
    assert effects["winners"] == {"before": [winner], "after": []}
    assert effects["said"][0] == f"The game is no longer over: {winner} no longer wins."


def test_a_correction_that_moves_the_scores_says_each_total_that_moved(cli):
    """Scores as `referee score` shows them (Ann 2 -> 0), and a winner taken over at once."""
    copy(cli.path, CASES["kings-ear"]["log"])
    result = cli("correct", 92, "draw", "Boar", "Army", "2", "--why", "x", "--by", "Dan",
                 "--force")
    assert result.status == 0, result.err
    assert result.out.splitlines()[2:4] == ["The game is no longer over: Cat no longer wins.",
                                            "Scores (Best net): Cat 10 -> 9."]
    copy(cli.path, CASES["kings-ear"]["log"])
    result = cli("correct", 64, "place", "Horse", "--why", "x", "--by", "Dan", "--json")
    effects = __import__("json").loads(result.out)["effects"]
    assert effects["finished"] == {"before": True, "after": True}
    assert effects["winners"] == {"before": ["Cat"], "after": ["Cat"]}
    assert effects["scores"] == [{"player": "Ben", "before": 4, "after": 7}]
    assert effects["said"] == ["Scores (Best net): Ben 4 -> 7."]
    assert cli("score", "--json").out.count('"total": 7') >= 1


def test_a_correction_that_changes_nothing_is_refused_and_leaves_undo_free(ke40):
    """A correction of event 40 into the very trade it records: it used to be recorded, mark
    the sheet "Corrected" and block `undo` of the event; now refused, the log untouched."""
    path = ke40.path / "game.toml"
    before = path.read_bytes()
    result = ke40("correct", "40", "trade", "Boar", "give", "HR4,", "HF1", "take", "HT4,",
                  "ST1", "--why", "x", "--by", "Dan")
    assert result.status == 2
    assert result.err == "referee: event 40 already is `trade Boar give Horse Religion 4, Horse " \
        "Farming 1 take Horse Trade 4, Stag Trade 1`: there is nothing to correct\n"
    result = ke40("correct", "35", "draw", "Boar", "Trade", "4", "--force", "--why", "x",
                  "--by", "Dan", "--json")
    assert __import__("json").loads(result.err)["error"]["code"] == "correct-nothing"
    assert path.read_bytes() == before
    assert ke40("undo").status == 0


# --------------------------------------------------------------------------------------------
# A game whose hands the tool dealt


def _own_moves(cli, name: str) -> list[str]:
    return __import__("json").loads(cli("options", "--for", name, "--json").out)["moves"]


def test_a_refused_correction_of_a_dealt_game_names_no_event_and_no_card(cli):
    """T11: `correct 4 CARD --force` in a Dwarf King game the tool dealt read Ann's hand card by
    card ("Ann cannot play GA now" against a knock-on list) and, from which later event broke,
    the others' voids, nothing written. Now every card Ann might have led is refused in one
    sentence whether she holds it or not, or accepted; a refusal the table could give itself
    (not Ben's turn) stays as it is, and an ordinary game keeps its knock-on list."""
    cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--seed", "5")
    for move in ("special", "quest a", "leader"):
        assert cli("play", *move.split()).status == 0
    held = _own_moves(cli, "Ann")  # she leads: any card of her hand
    for name in ("Ann", "Ben", "Cat"):
        assert cli("play", _own_moves(cli, name)[0]).status == 0  # events 4, 5, 6
    path = cli.path / "game.toml"
    before = path.read_bytes()
    said: dict[bool, set[str]] = {True: set(), False: set()}
    for card in [f"{suit}{rank}" for suit in "KDG" for rank in
                 ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]:
        if card == held[0]:  # event 4 itself: nothing to correct
            continue
        result = cli("correct", "4", card, "--why", "typo", "--by", "Ann", "--force")
        if result.status == 0:  # a real correction, written for all to see: put back
            path.write_bytes(before)
            continue
        assert result.status == 1 and path.read_bytes() == before
        said[card in held].add(result.err)
    misfit = ("referee: the correction does not fit the cards the tool dealt (their hands and "
              "piles stay hidden, so no event or card is named); nothing was written\n"
              "  hint: each player reads their own legal moves with `options --for NAME`; or "
              "undo back to the event\n")
    assert said[True] == {misfit}
    public = said[False] - {misfit}  # a card out of the game: the table knows it as well
    assert misfit in said[False] and all("out of the game with 3 players" in e for e in public)
    turn = cli("correct", "4", held[1], "--as", "Ben", "--why", "x", "--by", "Ann", "--force")
    assert "it is not Ben's turn" in turn.err and path.read_bytes() == before
    refused = cli("correct", "4", held[1], "--why", "x", "--by", "Ann", "--force", "--json")
    error = __import__("json").loads(refused.err or '{"error": {}}')["error"]
    if refused.status:  # Ben's K3 may or may not still follow: either way no list
        assert error["code"] == "correction-does-not-fit" and "broken" not in error


def _dealt_dwarf_king(cli, plays: int) -> Path:
    """A Dwarf King game the tool dealt (seed 5), `plays` cards played by whoever acts."""
    cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--seed", "5")
    for move in ("special", "quest a", "leader"):
        assert cli("play", *move.split()).status == 0
    for _ in range(plays):
        who = __import__("json").loads(cli("status", "--json").out)["to_act"][0]
        assert cli("play", "--as", who, _own_moves(cli, who)[0]).status == 0
    return cli.path / "game.toml"


def test_a_dealt_game_refusal_stops_at_a_break_the_table_sees_before_any_hand_decides(cli):
    """T11 (review): a break the table could see itself (event 12 out of turn once event 11
    is deleted) was listed, and the replay went on: a card inserted at the end then decided
    between that list (Ann held it, and could follow) and the one sentence (she did not), card
    by card, nothing written. The refusal now stops at that break: one answer for every card."""
    path = _dealt_dwarf_king(cli, 9)
    ann = session.load(path).state.deal.slots[0].known  # the test reads the hand, not the table
    knights = [f"K{rank}" for rank in ("7", "J", "Q", "K", "A")]
    assert {card in ann for card in knights} == {True, False}  # the deal the oracle read
    before = path.read_bytes()
    said = set()
    for card in knights:
        result = cli("correct", "11", "--delete", "--also", f"13 insert {card} --as Ann",
                     "--why", "x", "--by", "Ann", "--force")
        assert result.status == 1 and path.read_bytes() == before
        said.add(result.err)
    assert len(said) == 1, said
    assert "event 12 (Ben: D5): it is not Ben's turn" in said.pop()


def test_a_dealt_game_says_nothing_is_corrected_only_before_a_hand_decided(cli):
    """T11 (review): `correct 4 CARD --also '5 MOVE'`, event 5 as it stands, said "event 5
    already is" only when Ann held CARD (event 4 then passed), else the one sentence: her hand
    read card by card, nothing written. A change into the event as it stands is refused as
    such only for the first one, met before any hand decided anything."""
    path = _dealt_dwarf_king(cli, 3)
    fifth = session.load(path).history()[4].text
    before = path.read_bytes()
    for card in ("K7", "KJ", "KQ", "KK", "KA", "D3", "G2"):
        result = cli("correct", "4", card, "--also", f"5 {fifth}", "--why", "x", "--by", "Ann",
                     "--force")
        assert "nothing to correct" not in result.err, card
        path.write_bytes(before)  # a correction that passed is written for all: put back
    same = cli("correct", "4", session.load(path).history()[3].text, "--why", "x", "--by",
               "Ann", "--force")
    assert same.status == 2 and "event 4 already is" in same.err


def test_a_reveal_refused_without_force_gives_the_command_that_corrects_it(ke40):
    """L7: the refusal is a rejected command (status 1, as man referee says), not a usage
    error, and its `referee correct ... --force` is the command typed, --force added: typed
    as it is, it corrects (it used to say `referee correct --force`, which is no command)."""
    import shlex

    path = ke40.path / "game.toml"
    before = path.read_bytes()
    refused = ke40("correct", "35", "draw", "Boar", "Army", "1", "--also", "36 place Horse",
                   "--why", "Dan's misread", "--by", "Dan")
    assert refused.status == 1 and path.read_bytes() == before
    hint = re.search(r"`(referee correct [^`]*)` corrects it anyway", refused.err)
    assert hint, refused.err
    words = shlex.split(hint.group(1))
    assert words == ["referee", "correct", "35", "draw", "Boar", "Army", "1", "--also",
                     "36 place Horse", "--why", "Dan's misread", "--by", "Dan", "--force"]
    done = ke40(*words[1:])
    assert done.status == 0, done.err
    assert done.out.startswith("Corrected event 35: now Cat: draw Boar Army 1")
    deleted = ke40("correct", "35", "--delete", "--as", "Cat", "--why", "x", "--by", "Dan")
    assert "`referee correct 35 --delete --as Cat --why x --by Dan --force`" in deleted.err


def test_a_crown_card_drawn_hidden_is_taken_back_without_force_as_nobody_saw_it(cli):
    """L8: Kingmaker's `draw hidden` (R-18) shows nobody the card: correcting or undoing it
    needed --force ("revealed hidden information that everyone has now seen"); a card drawn
    face up still does."""
    log = logfile.read(GOLDEN / CASES["kingmaker"]["log"])
    hidden = next(e.seq for e in log.entries
                  if e.event.type == "draw" and e.event.get("card") == "hidden")
    path = copy(cli.path, CASES["kingmaker"]["log"], hidden)
    fixed = cli("correct", hidden, "--delete", "--why", "not drawn yet", "--by", "Eve")
    assert fixed.status == 0, fixed.err
    assert f"Corrected event {hidden}: deleted" in fixed.out
    copy(cli.path, CASES["kingmaker"]["log"], hidden)
    assert cli("undo").status == 0
    shown = next(e.seq for e in log.entries
                 if e.event.type == "draw" and e.event.get("card") != "hidden")
    copy(cli.path, CASES["kingmaker"]["log"], shown)
    before = path.read_bytes()
    refused = cli("undo")
    assert refused.status == 1 and "--force" in refused.err and path.read_bytes() == before


def test_a_refusal_puts_the_first_real_break_first_and_counts_the_turns_that_follow(cli):
    """L5/L6: `correct 11` broke event 13, and the list buried it among "it is not Cat's
    turn" knock-ons of it (10 of the 11 shown); those are now counted, not listed, and the
    hint says to fix event 13 first."""
    copy(cli.path, CASES["kings-ear"]["log"])
    result = cli("correct", "11", "draw", "Boar", "Army", "2", "--why", "x", "--by", "Dan",
                 "--force")
    said = result.err.splitlines()
    assert result.status == 1
    assert said[1].startswith("  event 13 (Ben: trade Horse give Boar Farming 1 take Pig "
                              "Trade 1): Boar Farming 1 is not under your House Pig")
    assert said[2] == "  the later ones are checked without event 13, so they may follow from it:"
    assert "is not Cat's turn" not in result.err and "is not Ann's turn" not in result.err
    counted = re.search(r"and (\d+) event\(s\) out of turn or phase after them", result.err)
    error = __import__("json").loads(cli("correct", "11", "draw", "Boar", "Army", "2", "--why",
                                         "x", "--by", "Dan", "--force", "--json").err)["error"]
    turns = [b for b in error["broken"] if b["code"] == "not-your-turn"]
    assert counted and int(counted.group(1)) >= len(turns) > 10
    assert said[-1] == "  hint: correct event 13 first, in the same command (--also '13 MOVE'), " \
        "then see what still breaks; or give up"


def test_the_last_event_deleted_is_said_after_the_history_not_on_the_event_before(ke40):
    """L10: it read `[event deleted before this one (1)]` under event 39, which was not after
    the deleted event but before it."""
    assert ke40("correct", "40", "--delete", "--why", "x", "--by", "Dan").status == 0
    history = ke40("history").out.splitlines()
    assert history[-2].split()[0] == "39" and "deleted" not in history[-2]
    assert history[-1] == "      [event 40, the last, deleted (1)]"


def test_the_trail_is_folded_at_the_terminal_width_never_in_a_word(ke40):
    """L11: `history --corrections` wrapped long trades (and seals) mid-word at 80 columns."""
    assert ke40("correct", "17", "place", "Pig", "--also", "40 trade Pig give HF1 take ST1",
                "--why", "Stag Trade 1 went under Pig", "--by", "Dan").status == 0
    said = ke40("history", "--corrections").out.splitlines()
    assert all(len(line) <= 80 for line in said) and len(said) == 6
    assert " ".join(" ".join(said[:3]).split()) == (
        "(1) event 40: Cat: trade Boar give Horse Religion 4, Horse Farming 1 take Horse Trade 4, "
        "Stag Trade 1 -> Cat: trade Pig give Horse Farming 1 take Stag Trade 1")
