"""The TOML log: schema validation with locations, atomic writes, the writer's lock."""

from __future__ import annotations

import datetime as dt
import os
import pickle
from pathlib import Path

import pytest

from referee import log as logfile
from referee import replay
from referee.engine import Event, Player
from referee.errors import LogBusy, LogError, LogMissing, UsageError
from referee.evolve import evolve

GOOD = """\
format = "referee-log/1"
game = "kings-ear"
created = 2026-11-21T19:00:00+01:00
referee = "0.1.0"

[options]
houses = ["Horse", "Pig", "Stag", "Boar"]

[[players]]
name = "Ann"
house = "Horse"

[[players]]
name = "Ben"
house = "Pig"

[[events]]
seq = 1
at = 2026-11-21T19:01:12+01:00
by = "Ann"
type = "draw"
card = "Pig Army 3"

[[events]]
seq = 2
by = "Ann"
type = "place"
house = "Stag"
note = "Stag looked strong"
"""


def test_a_good_log_reads_with_every_part():
    log = logfile.parse(GOOD)
    assert log.game == "kings-ear" and log.players == (Player("Ann", "Horse"), Player("Ben", "Pig"))
    assert [e.event for e in log.entries] == [Event.make("draw", "Ann", card="Pig Army 3"),
                                              Event.make("place", "Ann", house="Stag")]
    assert [e.line for e in log.entries] == [17, 24]
    assert log.entries[1].note == "Stag looked strong" and log.entries[1].at is None


def test_dumps_round_trips_and_writes_one_table_per_event():
    log = logfile.parse(GOOD)
    text = logfile.dumps(log)
    assert text.count("[[events]]") == 2 and text.index("[options]") < text.index("[[players]]")
    again = logfile.parse(text)
    assert [(e.seq, e.event, e.at, e.note) for e in again.entries] == \
        [(e.seq, e.event, e.at, e.note) for e in log.entries]
    assert again.options == log.options and again.players == log.players


@pytest.mark.parametrize("change,code,line", [
    (("format = \"referee-log/1\"", "format = \"referee-log/9\""), "unknown-format", 1),
    (("game = \"kings-ear\"", "game = \"chess\""), "unknown-game", 2),
    (("referee = \"0.1.0\"", "referee = 1"), "bad-header", 4),
    (("referee = \"0.1.0\"", "referee = \"0.1.0\"\nseed = \"x\""), "bad-header", 5),
    (("referee = \"0.1.0\"", "referee = \"0.1.0\"\nwinner = \"Ann\""), "unknown-key", 5),
    (("houses = [", "colours = 1\nhouses = ["), "unknown-option", 7),
    (("houses = [\"Horse\", \"Pig\", \"Stag\", \"Boar\"]", "houses = 4"), "bad-option", 7),
    (("houses = [\"Horse\", \"Pig\", \"Stag\", \"Boar\"]", "houses = [\"A\"]"), "bad-option", None),
    (("name = \"Ben\"", "name = \"Ben\"\ncolour = \"red\""), "unknown-field", 15),
    (("name = \"Ben\"", "name = 7"), "bad-player", 13),
    (("seq = 2", "seq = 3"), "bad-seq", 25),
    (("type = \"place\"", "type = \"teleport\""), "unknown-event", 27),
    (("house = \"Stag\"", "house = 3"), "bad-field", 28),
    (("house = \"Stag\"", "house = \"Stag\"\nwho = \"x\""), "unknown-field", 29),
    (("card = \"Pig Army 3\"", ""), "missing-field", 17),
    (("by = \"Ann\"\ntype = \"place\"", "by = 5\ntype = \"place\""), "bad-field", 26),
    (("note = \"Stag looked strong\"", "note = 1"), "bad-field", 29),
    (("at = 2026-11-21T19:01:12+01:00", "at = \"yesterday\""), "bad-field", 19),
    (("[[events]]\nseq = 1", "[[events]]\nseq = true"), "bad-seq", 18),
])
def test_every_schema_problem_is_refused_with_its_line(change, code, line):
    old, new = change
    assert old in GOOD
    with pytest.raises(LogError) as info:
        replay.from_log(logfile.parse(GOOD.replace(old, new, 1), "g.toml"))
    assert info.value.code == code, info.value.message
    assert info.value.line == line, info.value.message
    if line:
        assert f"g.toml:{line}:" in info.value.message


def test_bad_toml_syntax_names_the_line():
    with pytest.raises(LogError) as info:
        logfile.parse(GOOD.replace("seq = 2", "seq = = 2"), "g.toml")
    assert info.value.code == "toml-syntax" and info.value.line == 25


@pytest.mark.parametrize("text,code", [
    ("format = \"referee-log/1\"\ngame = \"kings-ear\"\ncreated = 2026-11-21T19:00:00Z\n"
     "referee = \"x\"\n", "no-players"),
    (GOOD.replace("[options]", "options = 3\n[opts]"), "unknown-key"),
    (GOOD + "\nevents = 3\n", "unknown-field"),  # lands inside the last [[events]] table
    (GOOD + "\n[[events]]\nseq = [\n", "toml-syntax"),
    (GOOD.replace("format =", "retracted = 3\nformat ="), "bad-retracted"),
    (GOOD.replace("[[players]]\nname = \"Ann\"", "players = [1]\n[[playerz]]\nname = \"Ann\""),
     "unknown-key"),
])
def test_structural_problems(text, code):
    with pytest.raises(LogError) as info:
        replay.from_log(logfile.parse(text))
    assert info.value.code == code


def test_missing_unreadable_huge_and_binary_files(tmp_path):
    with pytest.raises(LogMissing):
        logfile.read(tmp_path / "nope.toml")
    with pytest.raises(LogMissing):
        logfile.read(tmp_path)
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"#" * (logfile.MAX_BYTES + 1))
    with pytest.raises(LogError) as info:
        logfile.read(huge)
    assert info.value.code == "log-too-large"
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(LogError) as info:
        logfile.read(binary)
    assert info.value.code == "log-encoding"


def test_write_atomic_replaces_and_leaves_no_temp_files(tmp_path):
    target = tmp_path / "g.toml"
    logfile.write_atomic(target, "a = 1\n")
    logfile.write_atomic(target, "a = 2\n")
    assert target.read_text() == "a = 2\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.toml"]
    with pytest.raises(LogError) as info:
        logfile.write_atomic(target, "a = 3\n", exclusive=True)
    assert info.value.code == "log-exists" and target.read_text() == "a = 2\n"


def test_write_into_a_missing_folder_is_a_clean_error(tmp_path):
    with pytest.raises(LogMissing):
        logfile.write_atomic(tmp_path / "no" / "such" / "g.toml", "x")


def test_lock_waits_then_reports_busy(tmp_path):
    target = tmp_path / "g.toml"
    with logfile.locked(target):
        with pytest.raises(LogBusy) as info:
            with logfile.locked(target, timeout=0.1):
                pass  # pragma: no cover - never reached
    assert "busy" in info.value.message and info.value.exit_status == 75
    with logfile.locked(target, timeout=0.1):  # released: free again
        pass


def test_lock_timeout_from_the_environment(tmp_path, monkeypatch):
    """The writer waits REFEREE_LOCK_TIMEOUT seconds for the lock, then gives up (75); a value
    that is not a plain number of seconds is a usage error (2), before any waiting."""
    target = tmp_path / "g.toml"
    monkeypatch.setenv("REFEREE_LOCK_TIMEOUT", "0")
    with logfile.locked(target):
        with pytest.raises(LogBusy):
            with logfile.locked(target):
                pass  # pragma: no cover - never reached
    monkeypatch.setenv("REFEREE_LOCK_TIMEOUT", "not a number")
    with pytest.raises(UsageError):
        with logfile.locked(target):
            pass  # pragma: no cover - never reached


def test_lock_file_in_unwritable_place_is_a_clean_error(tmp_path):
    with pytest.raises(LogMissing):
        with logfile.locked(tmp_path / "missing" / "g.toml", timeout=0.1):
            pass  # pragma: no cover


def test_without_last_moves_the_event_to_retracted():
    log = logfile.parse(GOOD)
    shorter = log.without_last()
    assert len(shorter.entries) == 1 and shorter.retracted[0]["type"] == "place"
    assert "retracted_at" in shorter.retracted[0]
    text = logfile.dumps(shorter)
    assert "[[retracted]]" in text and logfile.parse(text).retracted[0]["house"] == "Stag"



def test_table_lines_count_only_headers_at_the_start_of_their_line():
    """A header may be indented; `[[events]]` inside a value or after a key is no header."""
    text = ('[[players]]\nname = "Ann"\nnote = "[[events]]"\n'
            '  \t[[events]]\nseq = 1\nx = 1 # [[events]]\n[[ events ]]\n[[[events]]\n'
            'y = "a" [[events]]\n[[events]]')
    locator = logfile._Locator(text)
    assert [locator.table("events", i) for i in range(4)] == [4, 7, 10, None]
    assert locator.table("players", 0) == 1 and locator.table("players", 1) is None

@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file(tmp_path):  # pragma: no cover - CI runs as root
    target = tmp_path / "g.toml"
    target.write_text(GOOD)
    target.chmod(0)
    with pytest.raises(LogMissing):
        logfile.read(Path(target))


def test_rtoml_and_tomllib_read_every_log_alike(monkeypatch):
    from tests.conftest import EXAMPLES, GOLDEN

    paths = sorted(GOLDEN.glob("*/*.toml")) + sorted(EXAMPLES.glob("*.toml"))
    assert logfile._fast_parser() is not None  # the fast parser is installed where CI runs
    fast = [logfile.read(p) for p in paths]
    monkeypatch.setattr(logfile, "_fast_parser", lambda: None)
    slow = [logfile.read(p) for p in paths]
    assert fast == slow
    assert [[e.line for e in log.entries] for log in fast] == \
        [[e.line for e in log.entries] for log in slow]
    assert [logfile.dumps(log) for log in fast] == [logfile.dumps(log) for log in slow]


def test_what_rtoml_refuses_tomllib_decides():
    nested = "[" * 120 + "]" * 120
    deep = GOOD + f'\n[[events]]\nseq = 3\nby = "Ann"\ntype = "pass"\nx = {nested}\n'
    with pytest.raises(LogError) as info:  # rtoml stops at about 85 levels; tomllib reads it
        logfile.parse(deep)
    assert info.value.code == "bad-field"  # ... and the log's structure refuses the array


def test_the_quick_reading_of_an_event_agrees_with_the_careful_one(monkeypatch):
    """`_read_event` tries the usual event in one pass; `_examine_event` checks field by field
    (for the messages). Every real event must come out of both the same."""
    from tests.conftest import EXAMPLES, GOLDEN

    # a table written by hand, its keys in any order, is the same event
    edited = GOOD + ('\n[[events]]\nx = [1, 2]\nwhere = "Stag"\nseq = 3\ntype = "place"\n'
                     'by = "Ben"\n')
    expected = Event.make("place", "Ben", where="Stag", x=[1, 2])
    assert logfile.parse(edited).entries[-1].event == expected
    monkeypatch.setattr(logfile, "_fast_parser", lambda: None)  # tomllib keeps the keys' order
    assert logfile.parse(edited).entries[-1].event == expected
    monkeypatch.undo()

    paths = sorted(GOLDEN.glob("*/*.toml")) + sorted(EXAMPLES.glob("*.toml"))
    quick = [logfile.read(p) for p in paths]
    monkeypatch.setattr(logfile, "_read_event", logfile._examine_event)
    careful = [logfile.read(p) for p in paths]
    assert quick == careful
    assert sum(len(log.entries) for log in quick) > 1000


def test_a_time_typed_without_its_offset_is_local_time_and_compares_with_the_others():
    """A hand-edited `at` without its UTC offset once made Kingmaker's clock subtract a naive
    time from an aware one (exit 70, found by the fuzz campaign)."""
    from tests.conftest import GOLDEN

    text = (GOLDEN / "kingmaker" / "three-player-two-parliaments.toml").read_text()
    lines = text.split("\n")
    times = [i for i, line in enumerate(lines) if line.startswith("at = ")]
    lines[times[120]] = "at = 2026-11-21 10:00"
    log = logfile.parse("\n".join(lines).replace("created = 2026-11-21 19:00:00+00:00",
                                                 "created = 2026-11-21 19:00:00"))
    assert all(e.at is None or e.at.utcoffset() is not None for e in log.entries)
    assert log.created.utcoffset() is not None
    replay.replay_log(log)  # the clock compares every time with every other


@pytest.mark.parametrize("text", ["2026-11-22T14:27:08+01:00", "2026-11-22T14:27:08.123456-05:30",
                                  "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00",
                                  "2026-11-22T14:27:08Z", "1979-05-27T00:32:00.999999+23:59"])
def test_a_time_from_rtoml_is_the_standard_librarys_at_any_offset_and_year(text):
    """Times are rebuilt with datetime.timezone (rtoml's zone cannot be pickled): the same
    instant and wall time as tomllib's, even where shifting by the offset would overflow."""
    import rtoml
    import tomllib

    mine = logfile._standard_time(rtoml.loads(f"x = {text}")["x"])
    reference = tomllib.loads(f"x = {text}")["x"]
    assert type(mine.tzinfo) is dt.timezone
    assert (mine, str(mine), mine.utcoffset()) == (reference, str(reference),
                                                   reference.utcoffset())
    assert pickle.loads(pickle.dumps(mine)) == mine


# ---- T2: a drawn seed has 128 bits; TOML's integers have 64 --------------------------------


@pytest.mark.parametrize("seed, written", [(7, "seed = 7"), (2**63 - 1, f"seed = {2**63 - 1}"),
                                           (-2**63, f"seed = {-2**63}"),
                                           (2**63, 'seed = "0x8000000000000000"'),
                                           (2**128 - 1, f'seed = "0x{"f" * 32}"'),
                                           (-2**70, f'seed = "-0x{2**70:x}"')])
def test_a_seed_beyond_64_bits_is_written_in_hexadecimal_and_reads_back(seed, written):
    """A seed within TOML's 64-bit integers stays an integer (every older log reads and replays
    as before); a larger one is a string of hexadecimal digits, read back as the same number."""
    log = evolve(logfile.parse(GOOD), seed=seed)
    text = logfile.dumps(log)
    assert written in text.splitlines()
    again = logfile.parse(text)
    assert again.seed == seed and logfile.dumps(again) == text


@pytest.mark.parametrize("seed", ['"x"', '"0x"', '"0xG1"', '"0X1F"', '"12"', f'"0x{"1" * 3573}"',
                                  "1.0", "true"])
def test_a_seed_neither_an_integer_nor_hexadecimal_digits_is_refused(seed):
    with pytest.raises(LogError) as refused:
        logfile.parse(GOOD.replace('referee = "0.1.0"', f'referee = "0.1.0"\nseed = {seed}'))
    assert refused.value.code == "bad-header" and refused.value.line == 5
    assert "seed must be an integer, or hexadecimal digits" in refused.value.message


def test_new_shuffle_draws_a_seed_of_128_bits(cli):
    """T2: the seed `--shuffle` drew was 31 bits: a player could try them all against their own
    hand or the cards drawn. It is drawn from 128 bits now (a seed below 2**100 has odds of
    2**-28), kept in the log only, and replays the game it dealt."""
    seeds = []
    for index in range(3):
        path = cli.path / f"g{index}.toml"
        made = cli("--log", str(path), "new", "kings-ear", "-p", "Ann", "-p", "Ben", "--shuffle")
        assert made.status == 0, made.err
        seeds.append(logfile.read(path).seed)
        assert f'seed = "{hex(seeds[-1])}"' in path.read_text(encoding="utf-8")
        assert cli("--log", str(path), "play", "draw").status == 0
        assert cli("check", str(path)).status == 0
    assert all(2**100 <= abs(seed) < 2**128 for seed in seeds) and len(set(seeds)) == 3


# ---- T8: a number with a decimal point where a whole one is due -------------------------------


@pytest.mark.parametrize("written", ["1.0", "1e0", "1.5", "true"])
def test_a_seq_that_is_not_the_whole_number_is_refused(written):
    """`seq = 1.0` (or 1e0) was taken for 1: check passed it and play wrote it back as 1.0."""
    with pytest.raises(LogError) as refused:
        logfile.parse(GOOD.replace("seq = 1\n", f"seq = {written}\n"))
    assert refused.value.code == "bad-seq" and refused.value.line == 18
    assert refused.value.message.startswith("<log>:18: event 1: seq is ")
    assert ("without a decimal point or exponent: 1)" in refused.value.message) == \
        (written in ("1.0", "1e0"))


def test_a_field_written_with_a_decimal_point_says_how_to_write_it():
    """`card = 18.0` was refused as not "a number": it says it must be a whole number now,
    and how to write it."""
    with pytest.raises(LogError) as refused:
        logfile.parse(GOOD.replace('card = "Pig Army 3"', "card = 18.0"))
    assert refused.value.code == "bad-field"
    assert refused.value.message.endswith(
        "event 1: 'draw'.'card' is 18.0; it must be text, a whole number, true/false or "
        "a list of them (a whole number is written without a decimal point or exponent: 18)")


@pytest.mark.parametrize("digits", [91, 4300])
def test_any_seed_new_takes_is_written_so_that_the_log_reads_it_back(cli, digits):
    """`new --seed N` takes a seed of up to 4300 digits, as every log before kept as an integer
    and read back; written in hexadecimal beyond 64 bits, one of 2**300 had 76 digits where the
    log read 64 at most: `new` said it was made, and every command on it then failed (65). The
    log reads back any seed it writes, and deals the same cards from both forms of it."""
    seed = int("9" * digits) if digits == 4300 else 2**300
    made = cli("--log", "hex.toml", "new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat",
               "--seed", str(seed))
    assert made.status == 0, made.err
    hexed = logfile.read(cli.path / "hex.toml")
    assert hexed.seed == seed and f'seed = "{hex(seed)}"' in logfile.dumps(hexed)
    shown = cli("--log", "hex.toml", "status", "--for", "Ann")
    assert shown.status == 0, shown.err
    older = (cli.path / "hex.toml").read_text(encoding="utf-8").replace(f'"{hex(seed)}"',
                                                                       str(seed))
    (cli.path / "int.toml").write_text(older, encoding="utf-8")  # as `new` wrote it before
    assert cli("--log", "int.toml", "status", "--for", "Ann").out.replace("int.toml", "") == \
        shown.out.replace("hex.toml", "")
    assert replay.replay_log(logfile.read(cli.path / "int.toml"))[1] == \
        replay.replay_log(hexed)[1]


def test_a_hexadecimal_seed_beyond_4300_digits_is_refused_not_a_crash():
    """Python turns at most 4300 digits into an integer, and The Dwarf King deals from the
    seed's digits: a longer seed, typed by hand, is refused as the log's fault (65)."""
    seed = 10**4300
    with pytest.raises(LogError) as refused:
        logfile.parse(GOOD.replace('referee = "0.1.0"', f'referee = "0.1.0"\nseed = "{hex(seed)}"'))
    assert refused.value.code == "bad-header" and refused.value.line == 5


@pytest.mark.parametrize("written", ["1e30", "1e400", "nan"])
def test_a_number_too_large_to_be_exact_is_not_rewritten_for_the_reader(written):
    """1e30 read as a float is 1000000000000000019884624838656: telling the reader to write that
    would put a number they never wrote into their log. Only a number the float holds exactly
    is shown back."""
    with pytest.raises(LogError) as refused:
        logfile.parse(GOOD.replace('card = "Pig Army 3"', f"card = {written}"))
    assert refused.value.message.endswith("(a log holds whole numbers only)")
