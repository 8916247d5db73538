"""The TOML game log: the file format. Read and check its structure, write it atomically.

Format `referee-log/1` (documented in man/referee.1 and docs/log-format.md):

    format, game, created, referee, [seed]      top-level keys
    [options]                                   every ruling in force, defaults written out
    [[players]]  name, <seat field>             in seat order
    [[events]]   seq, at, [by], type, <fields>, [note]
    [[retracted]] the same, plus retracted_at   events taken back by `undo`
    [[corrections]] seq, kind, at, [by], why,     the trail of `correct`: the event as it was
                  [old], [new]                  (`old`) and as it became (`new`), as tables

This module knows the file, not the games: it checks what every log must be (the header's types,
one seat field shared by the players, events numbered in order with TOML values), and keeps the
text so that `GameLog.fail` can name the TOML line of any later problem. Whether the options,
players and events fit their game is checked once, by `referee.replay`.

Writers hold a lock on a sidecar file `.NAME.lock` for the whole read-check-write; the new text goes
to a temp file in the same folder, is fsynced, then renamed over the log, so a reader sees either
the old log or the new one, never half of one. How files are read, written and locked safely (a
FIFO, a symlink, a read-only log) is `referee.files`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any


from referee import files
from referee.engine import Event, Player
from referee.errors import LogError, UsageError
from referee.evolve import evolve
from referee.values import field, value

FORMAT = "referee-log/1"
MAX_BYTES = 4 * 1024 * 1024  # far beyond any real game; refuses accidental or hostile huge files

TOP_KEYS = {"format", "game", "created", "referee", "seed", "options", "players", "events",
            "retracted", "corrections"}
META_KEYS = {"seq", "at", "by", "type", "note"}


@value
class Entry:
    """An event as it stands in the log, with its place there (for messages)."""

    seq: int
    event: Event
    at: dt.datetime | None = None
    note: str | None = None
    line: int | None = None


# `[[name]]`, kept when only blanks precede it on its line. Searched without `^` and re.M, the
# pattern starts with a literal, which the regex engine finds quickly instead of trying every
# position in the text.
CORRECTION_KINDS = ("change", "insert", "delete")
CORRECTION_KEYS = {"seq", "kind", "at", "by", "why", "old", "new"}


@value
class Correction:
    """One entry of the trail of `referee correct`: event `seq` of the history as it stood just
    before (change, delete), or the place a forgotten event went in (insert); the event as it
    was (`old`: change, delete) and as it became (`new`: change, insert); when, by whom, why.
    The corrections of one command are recorded one after the other, so that each `seq` holds
    in the history left by the ones before it (see referee.corrections)."""

    seq: int
    kind: str
    at: dt.datetime
    why: str
    old: Entry | None
    new: Entry | None
    by: str
    line: int | None = None


_TABLE_HEADER = re.compile(r"\[\[[ \t]*([A-Za-z0-9_-]+)[ \t]*\]\]")


class _Locator:
    """Finds the TOML line of a table or key, for messages (tomllib keeps no positions)."""

    def __init__(self, text: str):
        self.text = text

    @cached_property
    def _tables(self) -> dict[str, list[int]]:
        """Each table's header lines, found when first asked (`check` asks only of a finding)."""
        text = self.text
        tables: dict[str, list[int]] = {}
        # One pass of the regex engine over the whole text, counting lines as it goes.
        line, at = 1, 0
        for m in _TABLE_HEADER.finditer(text):
            start = m.start()
            begin = text.rfind("\n", 0, start) + 1
            if begin != start and text[begin:start].strip(" \t"):
                continue  # not a table header: something else precedes it on its line
            line += text.count("\n", at, start)
            at = start
            tables.setdefault(m.group(1), []).append(line)
        return tables

    @cached_property
    def lines(self) -> list[str]:  # only an error message needs them
        return self.text.splitlines()

    def table(self, name: str, index: int) -> int | None:
        found = self._tables.get(name, [])
        return found[index] if index < len(found) else None

    def key(self, key: str, start: int | None = None) -> int | None:
        begin = (start or 1) - 1
        pattern = re.compile(rf"\s*(\"?){re.escape(key)}\1\s*=")
        for number in range(begin, len(self.lines)):
            line = self.lines[number]
            if number > begin and start is not None and line.lstrip().startswith("["):
                break
            if pattern.match(line):
                return number + 1
        return None


@value
class GameLog:
    game: str
    players: tuple[Player, ...]
    options: dict[str, Any]
    created: dt.datetime
    referee: str
    seed: int | None = None
    entries: tuple[Entry, ...] = ()
    retracted: tuple[dict[str, Any], ...] = ()
    corrections: tuple[Correction, ...] = ()
    seat_field: str | None = None  # the key of the players' seats, e.g. "house"
    path: Path | None = field(default=None, compare=False)
    source: str = field(default="<log>", compare=False)  # the name messages give the log
    _locator: _Locator | None = field(default=None, compare=False, repr=False)

    def appended(self, event: Event, note: str | None = None,
                 at: dt.datetime | None = None) -> GameLog:
        entry = Entry(len(self.entries) + 1, event, at or now(), note)
        return evolve(self, entries=self.entries + (entry,))

    def without_last(self) -> GameLog:
        last = self.entries[-1]
        record = _entry_record(last)
        record["retracted_at"] = now()
        return evolve(self, entries=self.entries[:-1], retracted=self.retracted + (record,))

    # ---- where things are, for messages --------------------------------------------------
    def line_of(self, key: str, start: int | None = None) -> int | None:
        """The TOML line of `key` (inside the table that starts at line `start`, if given)."""
        return self._locator.key(key, start) if self._locator else None

    def player_line(self, index: int) -> int | None:
        return self._locator.table("players", index) if self._locator else None

    def event_line(self, entry: Entry) -> int | None:
        """The TOML line of an entry's table: its own, or found now in a log read without
        lines (`read(..., lines=False)`)."""
        if entry.line is not None or self._locator is None:
            return entry.line
        return self._locator.table("events", entry.seq - 1)

    def fail(self, message: str, *, code: str, line: int | None = None,
             seq: int | None = None) -> LogError:
        return _fail(self.source, message, code=code, line=line, seq=seq)


def now() -> dt.datetime:
    return dt.datetime.now().astimezone().replace(microsecond=0)


# --------------------------------------------------------------------------------------------
# Reading


def read(path: str | os.PathLike[str], lines: bool = True) -> GameLog:
    """Read a log file and check its structure. Raises LogMissing (66) or LogError (65).
    `lines=False` leaves each entry's line to be found when asked (`GameLog.event_line`): a
    reader that names lines only in its findings (`check`) skips the search."""
    path = Path(path)
    return from_data(read_data(path), path, lines)


def read_data(path: Path) -> bytes:
    """A log file's bytes, refused when missing, not a regular file, unreadable or too large to
    be a log."""
    data = files.read_regular(path, MAX_BYTES + 1, "log",
                              hint="start one with `referee new GAME ...` or choose another "
                                   "with --log PATH")
    if len(data) > MAX_BYTES:
        raise LogError(f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MiB; not a referee log",
                       code="log-too-large")
    return data


def from_data(data: bytes, path: Path, lines: bool = True) -> GameLog:
    """The log in a file's bytes (read_data), its structure checked."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LogError(f"{path}: not UTF-8 text (byte {exc.start})", code="log-encoding") from None
    return evolve(parse(text, str(path), lines), path=path)


def parse(text: str, source: str = "<log>", lines: bool = True) -> GameLog:
    return _structure(_load_toml(text, source), _Locator(text), source, lines)


def _fast_parser() -> ModuleType | None:
    """rtoml, imported on the first parse (a `play` answered from the cache parses nothing);
    Python keeps the module it imported, so a later parse only looks it up."""
    try:
        import rtoml
    except ImportError:  # pragma: no cover - no wheel for this platform: tomllib alone
        return None
    return rtoml


def _load_toml(text: str, source: str) -> dict[str, Any]:
    """The TOML document: parsed by rtoml (a Rust parser, several times faster) where it is
    installed; by tomllib, the reference, when rtoml is missing or refuses the text, so that
    what is accepted and every message with its line are tomllib's."""
    rtoml = _fast_parser()
    if rtoml is not None:
        try:
            doc: dict[str, Any] = rtoml.loads(text)
            return doc
        except Exception:  # noqa: BLE001 - tomllib decides, and names the problem
            pass
    import tomllib  # the reference parser, imported only when it has to decide

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = _toml_error_line(str(exc))
        raise LogError(f"{source}: not valid TOML: {exc}", code="toml-syntax", line=line) from None
    except ValueError:  # tomllib's int() of a number over Python's 4,300-digit limit
        raise LogError(f"{source}: a number in the log is too long to be a referee log's",
                       code="toml-syntax") from None
    except RecursionError:  # arrays or inline tables nested hundreds deep
        raise LogError(f"{source}: values nested too deeply to be a referee log's",
                       code="toml-syntax") from None


def _toml_error_line(message: str) -> int | None:
    m = re.search(r"line (\d+)", message)
    return int(m.group(1)) if m else None


def _fail(source: str, message: str, *, code: str, line: int | None = None,
          seq: int | None = None) -> LogError:
    where = f"{source}:{line}" if line else source
    return LogError(f"{where}: {message}", code=code, line=line, seq=seq)


def _standard_time(value: Any) -> Any:
    """A date-time with the standard library's own time zone (rtoml's cannot be pickled). One
    typed by hand without its UTC offset is read as this machine's local time, as referee
    writes them, so that every time in a log can be compared with every other."""
    if isinstance(value, dt.datetime):
        zone = value.tzinfo
        if zone is None or type(zone) is not dt.timezone:
            offset = None if zone is None else value.utcoffset()
            if offset is None:
                return value.replace(tzinfo=None).astimezone()
            # Built afresh: four times quicker than replace(tzinfo=...) on rtoml's value, one
            # of the costs of every event `check` reads (its zone too: 0.2 us, kept nowhere).
            return dt.datetime(value.year, value.month, value.day, value.hour, value.minute,
                               value.second, value.microsecond, dt.timezone(offset))
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# A seed beyond TOML's 64-bit integers (the 128 random bits `new --shuffle` draws) is written as
# a string of hexadecimal digits, "0x" first; one within them stays an integer, as every log
# written before has it, so each replays as it did. Any seed `new --seed N` takes is read back:
# up to 4300 digits, all Python turns into an integer (and The Dwarf King back into text).
INT64 = range(-2**63, 2**63)
SEED_DIGITS = 4300
HEX_SEED = re.compile(r"-?0x[0-9a-f]{1,3572}")  # 16**3572 > 10**4300


def seed_value(seed: int) -> int | str:
    """The seed as the log writes it: an integer within 64 bits, else a hexadecimal string."""
    return seed if seed in INT64 else hex(seed)


def _seed(seed: Any, loc: _Locator, source: str) -> int | None:
    """The header's seed, in either form the log writes (`seed_value`)."""
    if seed is None:
        return None
    if _is_int(seed):
        return int(seed)
    if isinstance(seed, str) and HEX_SEED.fullmatch(seed):
        value = int(seed, 16)
        if abs(value) < 10**SEED_DIGITS:
            return value
    raise _fail(source, "seed must be an integer, or hexadecimal digits in a string (\"0x...\")",
                code="bad-header", line=loc.key("seed"))


def _structure(doc: dict[str, Any], loc: _Locator, source: str, lines: bool = True) -> GameLog:
    for key in doc:
        if key not in TOP_KEYS:
            raise _fail(source, f"unknown top-level key {show(key)}", code="unknown-key",
                        line=loc.key(key))
    fmt = doc.get("format")
    if not doc:
        raise _fail(source, f"nothing in it: a referee log starts with format = "
                    f"\"{FORMAT}\"", code="unknown-format")
    if fmt != FORMAT:
        raise _fail(source, f"format is {show(fmt)}, expected {FORMAT!r}", code="unknown-format",
                    line=loc.key("format"))
    for key, kind, words in (("game", str, "text"), ("referee", str, "text"),
                             ("created", dt.datetime, "a date-time")):
        if not isinstance(doc.get(key), kind):
            raise _fail(source, f"{key} is {show(doc.get(key))}; it must be {words}",
                        code="bad-header", line=loc.key(key))
    seed = _seed(doc.get("seed"), loc, source)
    options = doc.get("options", {})
    if not isinstance(options, dict):
        raise _fail(source, "options must be a table", code="bad-options", line=loc.key("options"))
    seat_field, players = _read_players(doc.get("players"), loc, source)
    entries = _read_events(doc.get("events", []), loc, source, lines)
    retracted = _read_retracted(doc.get("retracted", []), loc, source)
    corrections = _read_corrections(doc.get("corrections", []), loc, source)
    return GameLog(game=doc["game"], players=players, options=options,
                   created=_standard_time(doc["created"]),
                   referee=doc["referee"], seed=seed, entries=entries,
                   retracted=tuple(retracted), corrections=corrections,
                   seat_field=seat_field, source=source, _locator=loc)


def _read_players(players: Any, loc: _Locator,
                  source: str) -> tuple[str | None, tuple[Player, ...]]:
    """Players in seat order; each has a name and may have one seat, under one shared key."""
    if not isinstance(players, list) or not players:
        raise _fail(source, "no [[players]] tables", code="no-players")
    seat_field: str | None = None
    out = []
    for index, record in enumerate(players):
        if not isinstance(record, dict):
            raise _fail(source, "players must be tables", code="bad-player",
                        line=loc.table("players", index))
        extra = [key for key in record if key != "name"]
        if seat_field is None and extra and index == 0:
            seat_field = extra[0]
        for key in extra:
            if key != seat_field:
                raise _fail(source, f"player field {show(key)} is not a seat (the players' seats "
                            f"are under {seat_field!r})" if seat_field else
                            f"player field {show(key)}: the first player has no seat",
                            code="unknown-field",
                            line=loc.key(key, loc.table("players", index)))
        name = record.get("name")
        seat = record.get(seat_field) if seat_field else None
        if not isinstance(name, str) or (seat is not None and not isinstance(seat, str)):
            raise _fail(source, "a player needs a name (text)"
                        + (f" and a {seat_field} (text)" if seat_field else ""),
                        code="bad-player", line=loc.table("players", index))
        out.append(Player(name, seat))
    return seat_field, tuple(out)


def _read_events(events: Any, loc: _Locator, source: str, lines: bool = True
                 ) -> tuple[Entry, ...]:
    if not isinstance(events, list):
        raise _fail(source, "events must be an array of tables ([[events]])", code="bad-events")
    out = []
    for index, record in enumerate(events):
        line = loc.table("events", index) if lines else None
        out.append(_read_event(record, index + 1, line, loc, source))
    return tuple(out)


def _read_retracted(records: Any, loc: _Locator, source: str) -> list[dict[str, Any]]:
    """Events taken back by `undo`: tables of the same flat values as events (they are written
    back on every change, so nothing nested may hide in them)."""
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise _fail(source, "retracted must be an array of tables", code="bad-retracted")
    for index, record in enumerate(records):
        for key, value in record.items():
            if not (_flat(value) or isinstance(value, dt.datetime)):
                raise _fail(source, f"retracted event {index + 1}: {key} must be text, a whole "
                            "number, true/false, a date-time or a list of them"
                            + _whole(value), code="bad-retracted",
                            line=loc.key(key, loc.table("retracted", index)))
    return [{key: _standard_time(value) for key, value in record.items()} for record in records]


def _read_corrections(records: Any, loc: _Locator, source: str) -> tuple[Correction, ...]:
    """The trail of `correct`: each entry's own fields, and its old and new events read as
    events are. Whether the trail fits the events is checked by referee.corrections."""
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise _fail(source, "corrections must be an array of tables", code="bad-correction")
    return tuple(_read_correction(record, index, loc, source)
                 for index, record in enumerate(records))


def _read_correction(record: dict[str, Any], index: int, loc: _Locator,
                     source: str) -> Correction:
    line = loc.table("corrections", index)

    def fail(message: str, key: str | None = None) -> LogError:
        return _fail(source, f"correction {index + 1}: {message}", code="bad-correction",
                     line=loc.key(key, line) if key and line else line)

    for key in record:
        if key not in CORRECTION_KEYS:
            raise fail(f"unknown field {show(key)}", key)
    kind, at, why, by = (record.get(k) for k in ("kind", "at", "why", "by"))
    seq = record.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise fail("seq must be an event number (1 or more)", "seq")
    if kind not in CORRECTION_KINDS:
        raise fail(f"kind is {show(kind)}: change, insert or delete", "kind")
    if not isinstance(at, dt.datetime):
        raise fail("at must be a date-time", "at")
    if not isinstance(why, str) or not why.strip():
        raise fail("why must be the reason given (text)", "why")
    if not isinstance(by, str) or not by.strip():
        raise fail("by must say who made the correction (text)", "by")
    events = {}
    for key, wanted in (("old", kind != "insert"), ("new", kind != "delete")):
        table = record.get(key)
        if (table is not None) != wanted:
            raise fail(f"a {kind} has {'an' if wanted else 'no'} {key} event", key)
        if table is not None:
            events[key] = _correction_event(table, seq, fail)
    return Correction(seq, kind, _standard_time(at), why, events.get("old"), events.get("new"),
                      by, line)


def _correction_event(table: Any, seq: int, fail: Any) -> Entry:
    """A correction's old or new event: a table like an [[events]] one, numbered `seq`."""
    if not isinstance(table, dict) or not all(_flat(v) or isinstance(v, dt.datetime)
                                              for v in table.values()):
        raise fail("old and new must be tables of an event's fields")
    try:
        return _examine_event(table, seq, None, _Locator(""), "")
    except LogError as exc:
        raise fail(exc.message.lstrip(": ")) from None


def show(value: Any) -> str:
    """A value from a log, for a message: short, whatever its size, and in words a player
    reads (never a Python type's name)."""
    text = repr(value) if isinstance(value, (str, int, bool, float)) else _kind_words(value)
    return text if len(text) <= 40 else text[:30] + "..." + text[-6:]


def _kind_words(value: Any) -> str:
    if value is None:
        return "missing"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dt.datetime):
        return "a date-time"
    if isinstance(value, dt.date):
        return "a date"
    if isinstance(value, dt.time):
        return "a time of day"
    return "a value of another kind"


def _whole(value: Any) -> str:
    """What to say of a number written with a decimal point or an exponent (18.0, 1e0) where a
    log has only whole numbers: how to write it; nothing for any other value."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2**53:  # held exactly
        return f" (a whole number is written without a decimal point or exponent: {int(value)})"
    if isinstance(value, float):
        return " (a log holds whole numbers only)"
    return ""


def _flat(value: Any) -> bool:
    """A TOML value an event field may hold: a scalar, or an array of scalars."""
    scalar = (str, int, bool)
    return isinstance(value, scalar) or (isinstance(value, list)
                                         and all(isinstance(v, scalar) for v in value))


def _read_event(record: Any, expected_seq: int, line: int | None, loc: _Locator,
                source: str) -> Entry:
    """One [[events]] table as an Entry (LogError naming its line when a field is wrong).

    The hot path of `check`: the usual event is tried in one pass, and only an event that fails
    it is examined again, field by field, for the message."""
    if type(record) is dict:
        seq, etype, at, by, note = (record.get("seq"), record.get("type"), record.get("at"),
                                    record.get("by"), record.get("note"))
        if type(seq) is int and seq == expected_seq and type(etype) is str \
                and (at is None or type(at) is dt.datetime) \
                and (by is None or type(by) is str) and (note is None or type(note) is str):
            fields = []
            for key, value in record.items():
                kind = type(value)
                if kind is list:
                    if not _SCALARS.issuperset(map(type, value)):
                        break
                    value = tuple(value)
                elif kind not in _SCALARS:
                    if key in META_KEYS:
                        continue
                    break
                elif key in META_KEYS:
                    continue
                fields.append((key, value))
            else:
                if len(fields) > 1:
                    fields.sort()
                event = Event(etype, by, tuple(fields))
                return Entry(seq, event, None if at is None else _standard_time(at), note, line)
    if line is None:  # read without lines: this one's message needs it
        line = loc.table("events", expected_seq - 1)
    return _examine_event(record, expected_seq, line, loc, source)


_SCALARS = frozenset({str, int, bool})


def _examine_event(record: Any, expected_seq: int, line: int | None, loc: _Locator,
                   source: str) -> Entry:
    """An event, checked one field at a time so that the first wrong one is named."""

    def fail(message: str, code: str, key: str | None = None) -> LogError:
        at = loc.key(key, line) if key and line else line
        return _fail(source, f"event {expected_seq}: {message}", code=code, line=at,
                     seq=expected_seq)

    if not isinstance(record, dict):
        raise fail("not a table", "bad-event")
    seq = record.get("seq")
    if type(seq) is not int or seq != expected_seq:  # 1.0 and true are not the number 1
        raise fail(f"seq is {show(seq)}, expected {expected_seq}{_whole(seq)}", "bad-seq", "seq")
    etype = record.get("type")
    if not isinstance(etype, str):
        raise fail(f"unknown event type {show(etype)}", "unknown-event", "type")
    at = record.get("at")
    if at is not None and not isinstance(at, dt.datetime):
        raise fail("at must be a date-time", "bad-field", "at")
    at = _standard_time(at)
    by = record.get("by")
    if by is not None and not isinstance(by, str):
        raise fail("by must be a player name", "bad-field", "by")
    note = record.get("note")
    if note is not None and not isinstance(note, str):
        raise fail("note must be text", "bad-field", "note")
    fields = {}
    for key, value in record.items():
        if key in META_KEYS:
            continue
        if not _flat(value):
            raise fail(f"{show(etype)}.{show(key)} is {show(value)}; it must be text, a whole "
                       f"number, true/false or a list of them{_whole(value)}", "bad-field", key)
        fields[key] = value
    return Entry(seq, Event.make(etype, by, **fields), at, note, line)


# --------------------------------------------------------------------------------------------
# Writing


def _entry_record(entry: Entry) -> dict[str, Any]:
    record: dict[str, Any] = {"seq": entry.seq}
    if entry.at is not None:
        record["at"] = entry.at
    record.update(entry.event.record())
    if entry.note:
        record["note"] = entry.note
    return record


def document(log: GameLog) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": FORMAT, "game": log.game, "created": log.created,
                           "referee": log.referee}
    if log.seed is not None:
        doc["seed"] = seed_value(log.seed)
    doc["options"] = dict(log.options)
    players = []
    for p in log.players:
        record = {"name": p.name}
        if log.seat_field and p.seat is not None:
            record[log.seat_field] = p.seat
        players.append(record)
    doc["players"] = players
    if log.entries:
        doc["events"] = [_entry_record(e) for e in log.entries]
    if log.retracted:
        doc["retracted"] = list(log.retracted)
    if log.corrections:
        doc["corrections"] = [_correction_record(fix) for fix in log.corrections]
    return doc


def _correction_record(fix: Correction) -> dict[str, Any]:
    record: dict[str, Any] = {"seq": fix.seq, "kind": fix.kind, "at": fix.at, "by": fix.by,
                              "why": fix.why}
    for key, entry in (("old", fix.old), ("new", fix.new)):
        if entry is not None:
            record[key] = _entry_record(evolve(entry, seq=fix.seq))
    return record


def dumps(log: GameLog) -> str:
    """The log as TOML, always in the same order and layout: header, [options], [[players]],
    [[events]], [[retracted]], [[corrections]] - one table per event, so that diffs and line
    numbers stay readable."""
    import tomli_w

    doc = document(log)
    header = {k: v for k, v in doc.items() if not isinstance(v, (dict, list))}
    chunks = [tomli_w.dumps(header), "[options]\n" + tomli_w.dumps(doc["options"])]
    for key in ("players", "events", "retracted"):
        for record in doc.get(key, ()):
            chunks.append(f"[[{key}]]\n" + tomli_w.dumps(record))
    for record in doc.get("corrections", ()):  # its old and new events as sub-tables
        chunks.append(tomli_w.dumps({"corrections": [record]}))
    return "\n".join(chunks)


def appended_text(log: GameLog, previous: str) -> str:
    """The text of `log`, whose last event was just appended to the log that read `previous`:
    that text and one more [[events]] table, as `dumps` writes it, without writing every event
    again. The whole document when the layout would differ (retracted events and corrections
    come last)."""
    if log.retracted or log.corrections or not previous.endswith("\n") or not log.entries:
        return dumps(log)
    import tomli_w

    return f"{previous}\n[[events]]\n{tomli_w.dumps(_entry_record(log.entries[-1]))}"


def located(log: GameLog, text: str) -> GameLog:
    """`log` with the TOML lines of `text`, the document it was just written as."""
    locator = _Locator(text)
    entries = tuple(_at_line(entry, locator.table("events", index))
                    for index, entry in enumerate(log.entries))
    return evolve(log, entries=entries, _locator=locator)


def _at_line(entry: Entry, line: int | None) -> Entry:
    """The entry placed at `line`: itself when already there (after an append, all but the new
    one are)."""
    return entry if entry.line == line else evolve(entry, line=line)


def write_atomic(path: Path, text: str, *, exclusive: bool = False) -> None:
    """Write the log `text` to `path` so that a crash leaves the old file or the new one, never
    half; through symlinks, keeping the file's mode (see `referee.files.replace`)."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: bytes from a command line that were not UTF-8
        raise UsageError("the text to record is not valid UTF-8") from None
    files.replace(path, data, "the log", exclusive=exclusive,
                  exists_hint="choose another file with --log, or remove it first")


def locked(path: Path,
           timeout: float | None = None) -> contextlib.AbstractContextManager[None]:
    """Hold the exclusive writer's lock of the log `path` (see `referee.files.locked`)."""
    return files.locked(path, timeout)
