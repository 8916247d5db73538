"""`referee check`: replay logs and report every finding (file, event, TOML line, stable code).

A finding is a malformed log (the file cannot be read as a referee log at all) or an event that
breaks the rules (the replay stops there: every later event depends on it). A notice is what the
game noticed in a valid log: a revoke proven by a later card is a player's breach that the log
records correctly, so it is reported beside the findings and leaves the log ok (exit 0).
`--strict` stops at the first finding, and after the first log with one.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

from referee import log as logfile
from referee import replay
from referee.errors import (
    EXIT_BAD_LOG,
    EXIT_INTERNAL,
    EXIT_NO_LOG,
    EXIT_OK,
    EXIT_RULE,
    LogError,
    LogMissing,
)


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    event: int | None = None  # the event's seq
    line: int | None = None  # its TOML line
    rule: str | None = None
    kind: str = "rule"  # "rule", "notice", "log" (malformed), "missing", "internal" (a bug)


@dataclass
class Report:
    file: str
    ok: bool = True
    game: str | None = None
    events: int = 0
    finished: bool = False
    stopped: str | None = None  # why the table stopped the game (`end REASON`)
    corrections: int = 0  # entries of the log's trail of corrections
    findings: list[Finding] = field(default_factory=list)
    notices: list[Finding] = field(default_factory=list)  # kind "notice": not findings

    @property
    def exit_status(self) -> int:
        kinds = {f.kind for f in self.findings}
        if "internal" in kinds:
            return EXIT_INTERNAL
        if "missing" in kinds:
            return EXIT_NO_LOG
        if "log" in kinds:
            return EXIT_BAD_LOG
        return EXIT_RULE if self.findings else EXIT_OK

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["findings"] = [asdict(f) for f in self.findings]
        out["notices"] = [asdict(f) for f in self.notices]
        return out


def check_file(path: str | Path) -> Report:
    """The report of one log. Never raises: a bug met on one log is reported as that log's
    finding (exit 70), and the other logs are still checked."""
    try:
        return _check(path)
    except Exception as exc:  # noqa: BLE001 - one log's bug must not hide the other reports
        return _fail(Report(str(path)), Finding(
            "internal-error", f"internal error: {type(exc).__name__}: {exc}; this is a bug in "
            "referee, please report it with the log file", kind="internal"))


def _check(path: str | Path) -> Report:
    report = Report(str(path))
    try:
        log = logfile.read(Path(path), lines=False)  # a finding's line is found when made
        setup = replay.from_log(log)
        if log.corrections:  # the trail must fit the events it made
            from referee.corrections import verify

            first = verify(log, setup.game)
    except LogMissing as exc:
        return _fail(report, Finding(exc.code, _unplaced(exc.message, path), kind="missing"))
    except LogError as exc:
        return _fail(report, Finding(exc.code, _unplaced(exc.message, path), exc.seq, exc.line,
                                     kind="log"))
    report.game = setup.game.id
    report.events = len(log.entries)
    state = setup.state
    stood: dict[int, Any] = {}  # the state before each event a correction made
    try:
        steps = replay.steps(setup, log.entries, log.source, checked=True)
        for step in _noting(steps, log, stood) if log.corrections else steps:
            state = step.after
            for notice in step.notices:
                report.notices.append(Finding(notice.code, f"event {step.entry.seq}: "
                                               f"{notice.message}", step.entry.seq,
                                               log.event_line(step.entry), notice.rule,
                                               kind="notice"))
    except replay.ReplayError as exc:
        # Later events were played on the state this one should have made: checking them
        # against another state would only report consequences, so the replay stops here.
        entry, error = exc.entry, exc.error
        stood[entry.seq] = state
        later = len(log.entries) - entry.seq
        tail = f" ({later} later event(s) not checked: they depend on this one)" if later else ""
        also = "".join(f"; and {o.message}" for o in getattr(error, "also", ()))
        report.findings.append(Finding(error.code,
                                       f"event {entry.seq}: {error.message}{also}{tail}",
                                       entry.seq, log.event_line(entry), error.rule))
    else:
        stood[len(log.entries) + 1] = state  # where a last event deleted stood
    if log.corrections:
        from referee.corrections import verify_words

        try:
            verify_words(log, setup, first, stood.get)
        except LogError as exc:
            return _fail(Report(str(path)), Finding(exc.code, _unplaced(exc.message, path),
                                                    exc.seq, exc.line, kind="log"))
    report.finished = setup.game.finished(state)
    report.stopped = setup.game.stopped(state)
    report.corrections = len(log.corrections)
    report.ok = not report.findings
    return report


def _noting(steps: Iterator[replay.Step[Any]], log: logfile.GameLog,
            stood: dict[int, Any]) -> Iterator[replay.Step[Any]]:
    """The steps, noting in `stood` the state before each event the trail corrected, where
    its words are read (only a log with a trail pays for it)."""
    wanted = {fix_.seq for fix_ in log.corrections}
    for step in steps:
        if step.entry.seq in wanted:
            stood[step.entry.seq] = step.before
        yield step


def _unplaced(message: str, path: str | Path) -> str:
    """A log error's message without the `FILE:LINE:` it starts with: the report gives both."""
    head = f"{path}:"
    if not message.startswith(head):
        return message
    rest = message[len(head):]
    number, colon, after = rest.partition(":")
    return (after if colon and number.isdigit() else rest).strip()


def log_paths(paths: Iterable[str | Path]) -> list[str]:
    """The logs named: a folder stands for every `*.toml` file below it, in name order."""
    out: list[str] = []
    for path in map(Path, paths):
        if path.is_dir():
            out += sorted(str(p) for p in path.rglob("*.toml") if p.is_file())
        else:
            out.append(str(path))
    return out


def _fail(report: Report, finding: Finding) -> Report:
    report.ok = False
    report.findings.append(finding)
    return report


def check_files(paths: Iterable[str | Path], strict: bool = False, jobs: int = 1) -> list[Report]:
    paths = [str(p) for p in paths]
    if strict or jobs <= 1 or len(paths) < 2:
        reports = []
        for path in paths:
            reports.append(check_file(path))
            if strict and not reports[-1].ok:
                break
        return reports
    from concurrent.futures import ProcessPoolExecutor

    # Chunks large enough to pay for passing them, small enough that a slow game's logs left
    # for last do not keep one process working while the others wait.
    chunk = max(1, len(paths) // (jobs * 16))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(check_file, paths, chunksize=chunk))


def exit_status(reports: list[Report]) -> int:
    """The worst status of all: a bug, then a missing log, a malformed one, a broken rule."""
    return max((r.exit_status for r in reports), default=EXIT_OK, key=_SEVERITY.__getitem__)


_SEVERITY = {EXIT_OK: 0, EXIT_RULE: 1, EXIT_BAD_LOG: 2, EXIT_NO_LOG: 3, EXIT_INTERNAL: 4}
