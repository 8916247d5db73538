"""`referee correct`: fix earlier events of a log, as a tournament director would, losing nothing.

The log's `[[events]]` are always the current history, the one every command replays; each
`[[corrections]]` entry records one change (an event replaced), insert (a forgotten event put in)
or delete (an event that never happened), with the event as it was and as it became, when, by
whom and why. The trail undone from its last entry back gives the events as first recorded:
`original` does it, and `check` fails a log whose trail does not fit its events (exit 65).

A command may carry several corrections, numbered as the log stood before it, and applies them
together: they are checked in the order of the history (each typed move in the state the
corrections before it made), every later event is replayed on the corrected history, and if any
breaks, nothing is written and each broken event is listed with the rule, the reason and the
closest legal moves. The trail records them from the last position back, so that each entry's
`seq` holds in the history left by the entries before it.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, Callable, Iterator

from referee import log as logfile
from referee import replay, session
from referee.engine import Event, Game, Notice, apply_event, field_problem, refuse_if_over
from referee.errors import (LogError, MoveError, NeedsForce, NotationError, RefereeError,
                            UsageError)
from referee.evolve import evolve
from referee.log import Correction, Entry, GameLog
from referee.textsafe import clean_line
from referee.values import value

END = "(end of the log)"  # the place after the last event, where a forgotten last move goes
SHOWN = 8  # broken events a refusal lists in words


@value
class Fix:
    """One correction as typed: event `seq` (numbered as the log stands) becomes `text`
    (change), gets `text` put in before it (insert), or goes (delete); `player` is --as."""

    seq: int
    kind: str
    text: str | None = None
    player: str | None = None


@value
class Broken:
    """A later event the corrections would make illegal, with the refusal replaying it met (its
    rule, and the closest legal moves of its kind in `suggestions`)."""

    seq: int
    text: str
    error: MoveError

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "move": self.text, "code": self.error.code,
                "message": self.error.message, "rule": self.error.rule,
                "suggestions": list(self.error.suggestions)}


class CorrectionRefused(MoveError):
    """The corrections would break later events: nothing is written (exit 1). In a game the
    tool dealt (`dealt`), only the first, which the table could tell itself: whether the events
    after it pass would read the hidden hands (T11)."""

    code = "correction-breaks-events"

    def __init__(self, broken: list[Broken], dealt: bool = False):
        from referee.session import GENERIC_REFUSALS

        first, *rest = broken
        lines = [f"the correction would break {len(broken)} later event(s); nothing was written:"
                 if not dealt else "the correction would break a later event (the tool dealt "
                 "the cards: the events after it are not checked); nothing was written:",
                 *_fault_lines(first)]
        # The later events are replayed without the first broken one: an event out of turn or
        # phase is most often only its consequence, so those are counted, not listed (L5/L6).
        own = [fault for fault in rest if fault.error.code not in GENERIC_REFUSALS]
        if rest:
            lines.append(f"  the later ones are checked without event {first.seq}, so they may "
                         "follow from it:" if own else
                         f"  and {len(rest)} later event(s) out of turn or phase, which follow "
                         f"from event {first.seq} (`--json` lists them)")
        for fault in own[:SHOWN - 1]:
            lines += _fault_lines(fault)
        if len(own) > SHOWN - 1:
            lines.append(f"  ... and {len(own) - SHOWN + 1} more (`--json` lists them all)")
        if own and len(rest) > len(own):
            lines.append(f"  and {len(rest) - len(own)} event(s) out of turn or phase after "
                         f"them (`--json` lists them)")
        hint = ("correct those events too in the same command (--also 'N MOVE'), or give up"
                if not rest and not dealt else f"correct event {first.seq} first, in the same command "
                                 f"(--also '{first.seq} MOVE'), then see what still breaks; "
                                 "or give up")
        super().__init__("\n".join(lines), hint=hint)
        self.broken = broken


def _fault_lines(fault: Broken) -> list[str]:
    rule = f" (rule {fault.error.rule})" if fault.error.rule else ""
    lines = [f"  event {fault.seq} ({fault.text}): {fault.error.message}{rule}"]
    if fault.error.suggestions:
        lines.append("    closest legal: " + " | ".join(fault.error.suggestions))
    return lines


class CorrectionMisfit(MoveError):
    """In a game whose cards the tool dealt (`--seed`, `--shuffle`), the corrections break a
    rule that only its hidden hands or pile decide: which event breaks, and why, would read
    them (a card held, a suit void), so the refusal is one sentence (exit 1)."""

    code = "correction-does-not-fit"

    def __init__(self) -> None:
        super().__init__("the correction does not fit the cards the tool dealt (their hands and "
                         "piles stay hidden, so no event or card is named); nothing was written",
                         hint="each player reads their own legal moves with `options --for "
                              "NAME`; or undo back to the event")


@value
class Effects:
    """What the corrections changed in the result, from what every game's sheet shows the
    whole table (`referee score`): whether the game is over, who wins, each player's total.
    Never a card: the sheet of a game in progress names none."""

    over: tuple[bool, bool]  # before, after
    winners: tuple[tuple[str, ...], tuple[str, ...]]
    scores: tuple[tuple[str, Any, Any], ...]  # (player, before, after) of each total changed
    said: tuple[str, ...]  # the same in sentences, for the confirmation

    def as_dict(self) -> dict[str, Any]:
        return {"finished": {"before": self.over[0], "after": self.over[1]},
                "winners": {"before": list(self.winners[0]), "after": list(self.winners[1])},
                "scores": [{"player": name, "before": old, "after": new}
                           for name, old, new in self.scores],
                "said": list(self.said)}


@value
class Corrected:
    table: session.Table  # the game after the corrections
    made: tuple[Correction, ...]  # the trail entries written, as recorded
    effects: Effects  # the result as it moved
    notices: tuple[Notice, ...] = ()  # new ones the corrected history brought to light


# --------------------------------------------------------------------------------------------
# Reading what was typed


def read_fix(spec: str) -> Fix:
    """A correction given with --also: `N MOVE`, `N insert MOVE` or `N delete` (a move may be
    written `NAME: MOVE`, as `play` takes it, or end with `--as NAME`)."""
    words, player = _as_name(spec)
    number, _, rest = " ".join(words).partition(" ")
    if not number.isdecimal():  # isdigit() also takes '²', which int() refuses
        raise UsageError(f"--also {spec!r}: write 'N MOVE', 'N insert MOVE' or 'N delete'",
                         code="bad-correction")
    word, _, move = rest.strip().partition(" ")
    if word.casefold() == "delete" and not move.strip():
        return Fix(int(number), "delete")
    if word.casefold() == "insert":
        return fix(int(number), move, insert=True, player=player)
    return fix(int(number), rest, player=player)


def _as_name(spec: str) -> tuple[list[str], str | None]:
    """The words of an --also spec before its `--as NAME` (or `--as=NAME`), last in it, and
    that NAME (the rest of the spec: a name may hold spaces)."""
    words = spec.split()
    for index, word in enumerate(words):
        flag, equals, given = word.partition("=")
        if flag == "--as":
            name = " ".join([given] if equals else []) + " ".join(words[index + 1:])
            if not name.strip() or (equals and index + 1 != len(words)):
                raise UsageError(f"--also {spec!r}: --as NAME comes last, after the move",
                                 code="bad-correction")
            return words[:index], name.strip()
    return words, None


def fix(seq: int, text: str | None, insert: bool = False, delete: bool = False,
        player: str | None = None) -> Fix:
    """The correction `correct N [MOVE] [--insert|--delete]` asks for (UsageError when the
    words do not make one)."""
    if insert and delete:
        raise UsageError("--insert and --delete cannot both be given", code="bad-correction")
    move = (text or "").strip()
    if delete:
        if move:
            raise UsageError("--delete takes no move: event N goes", code="bad-correction")
        return Fix(seq, "delete", player=player)
    if not move:
        raise UsageError(f"correct {seq}: give the move it becomes (or --delete, or --insert "
                         "MOVE)", code="bad-correction")
    return Fix(seq, "insert" if insert else "change", move, player)


def _check_fixes(fixes: list[Fix], count: int) -> None:
    replaced: set[int] = set()
    for one in fixes:
        last = count + 1 if one.kind == "insert" else count  # a forgotten last move goes at the end
        if not 1 <= one.seq <= last:
            raise UsageError(f"there is no event {one.seq}: the log has {count} event(s)",
                             code="bad-correction")
        if one.kind != "insert":
            if one.seq in replaced:
                raise UsageError(f"event {one.seq} is corrected twice in one command",
                                 code="bad-correction")
            replaced.add(one.seq)


# --------------------------------------------------------------------------------------------
# Correcting


def correct(path: Path, fixes: list[Fix], why: str, by: str,
            force: bool = False, seen: str | None = None) -> Corrected:
    """Apply `fixes` together under the log's lock, or raise: MoveError for a typed move the
    rules refuse, CorrectionRefused listing the later events they would break (CorrectionMisfit
    in a game the tool dealt), NeedsForce for a reveal corrected without `force`. A refusal writes nothing. `by` is who makes the
    corrections: the trail always says who changed the record (the director is often no
    player, so `--as`, who made the move, cannot stand for it). `seen`, the sha256 of the log's
    bytes as a `table` session last read them: session.LogChanged when the log no longer holds
    them (another terminal renumbered its events, so event N is no longer the one meant)."""
    if not why.strip():
        raise UsageError("--why: say why the log is corrected (it is kept in the trail)",
                         code="bad-correction")
    if not by.strip():
        raise UsageError("--by: say who makes the correction (it is kept in the trail)",
                         code="bad-correction")
    with logfile.locked(path):
        if seen is not None:
            _unchanged_since(path, seen)
        table = _as_far_as_it_replays(path)
        log = table.log
        _check_fixes(fixes, len(log.entries))
        if not force:
            _refuse_reveals(table, fixes, why, by)
        entries, state, placed = _rebuild(table, fixes)
        trail = tuple(_trail(log, fixes, placed, why, by))
        new_log = evolve(log, entries=entries, corrections=log.corrections + trail)
        text = logfile.dumps(new_log)
        logfile.write_atomic(path, text)
        after = session.Table(logfile.located(new_log, text), table.setup, state)
        session.remember(path, text.encode("utf-8"), after)
        return Corrected(after, trail, effects(table, after), _new_notices(table, after))


def _unchanged_since(path: Path, seen: str) -> None:
    from referee.cache import digest  # the sha256 a `table` session names the bytes it read by

    current = session.load_known(path)
    if digest(current.data) != seen:
        raise session.LogChanged(path, current)


def _as_far_as_it_replays(path: Path) -> session.Table:
    """The log's table; of a log with an illegal event (a hand edit), the table as it stands
    before that event: correcting it, or an earlier one, is how the log is mended, and
    `_rebuild` replays every event from the first correction on (or refuses)."""
    try:
        return session.load(path)
    except replay.ReplayError:
        log = logfile.read(path)
        setup = replay.from_log(log)
        return session.Table(log, setup, _state_before(setup, [setup.state], list(log.entries),
                                                       log.source))


def _new_notices(before: session.Table, after: session.Table) -> tuple[Notice, ...]:
    """What the corrected history proves that the history before did not (a revoke), for the
    table to hear as `play` tells it: `check` reports each one."""
    known = before.game.notices(before.state)
    return tuple(n for n in after.game.notices(after.state) if n not in known)


def effects(before: session.Table, after: session.Table) -> Effects:
    """Whether the game is over, who wins and the totals, before and after the corrections,
    said in sentences where they moved ("The game is no longer over: Cat no longer wins",
    "Scores: Ann 2 -> 0, Ben 0 -> 2"), the same way for every game."""
    from referee.scoresheet import and_list

    old, new = before.game.scoresheet(before.state), after.game.scoresheet(after.state)
    over = (before.finished, after.finished)
    won = (old.winners if over[0] else (), new.winners if over[1] else ())
    said: list[str] = []
    lost = [name for name in won[0] if name not in won[1]]
    gained = [name for name in won[1] if name not in won[0]]
    verdict = "; ".join([*([f"{and_list(lost)} no longer " + ("wins" if len(lost) == 1
                                                               else "win")] if lost else []),
                         *([f"{and_list(gained)} now " + ("wins" if len(gained) == 1 else "win")]
                           if gained else [])])
    if over[0] != over[1]:
        head = "The game is no longer over" if over[0] else "The game is now over"
        said.append(f"{head}: {verdict}." if verdict else f"{head}.")
    elif verdict:
        said.append(verdict[:1].upper() + verdict[1:] + ".")
    totals = {row.name: row.total for row in old.rows if row.name is not None}
    scores = tuple((row.name, totals[row.name], row.total) for row in new.rows
                   if row.name in totals and totals[row.name] != row.total)
    if scores and not new.no_points:
        label = "Scores" if new.total_label == "Total" else f"Scores ({new.total_label})"
        shown = [f"{name} {_total(was)} -> {_total(now)}" for name, was, now in scores]
        said.append(f"{label}: " + ", ".join(shown) + ".")
    return Effects(over, won, scores, tuple(said))


def _total(value: Any) -> str:
    from referee.scoresheet import number

    return "-" if value is None else number(value)


def _refuse_reveals(table: session.Table, fixes: list[Fix], why: str, by: str) -> None:
    """A changed or deleted reveal (a card everyone has seen) needs --force, as `undo` does;
    the refusal gives the command that does it, as typed with --force."""
    for one in fixes:
        if one.kind == "insert":
            continue
        entry = table.log.entries[one.seq - 1]
        etype = table.game.events[entry.event.type]
        if etype.reveals(entry.event):
            raise NeedsForce(f"event {one.seq} ({entry.event.type}) {etype.shown(entry.event)}; "
                             f"`{clean_line(command(fixes, why, by))} --force` corrects it "
                             "anyway", code="correct-reveal")


def command(fixes: list[Fix], why: str, by: str) -> str:
    """`referee correct ...` as typed for `fixes` (the first one, then each --also)."""
    import shlex

    first, *others = fixes
    words = ["referee", "correct", str(first.seq), *(first.text or "").split()]
    words += {"insert": ["--insert"], "delete": ["--delete"]}.get(first.kind, [])
    words += ["--as", first.player] if first.player else []
    for one in others:
        kind = {"insert": " insert", "delete": " delete"}.get(one.kind, "")
        words += ["--also", f"{one.seq}{kind}" + (f" {one.text}" if one.text else "")
                  + (f" --as {one.player}" if one.player else "")]
    return shlex.join([*words, "--why", why, "--by", by])


def _rebuild(table: session.Table, fixes: list[Fix]
             ) -> tuple[tuple[Entry, ...], Any, dict[int, list[Entry]]]:
    """The corrected history, numbered afresh, its final state, and the typed events put at
    each corrected place (inserts, then the change); raises as `correct` says."""
    game, setup, log = table.game, table.setup, table.log
    first = min(one.seq for one in fixes)
    state = replay.final(setup, log.entries[:first - 1], log.source, checked=True)
    out = list(log.entries[:first - 1])
    placed: dict[int, list[Entry]] = {}
    broken: list[Broken] = []
    end = Entry(len(log.entries) + 1, Event(END), log.entries[-1].at if log.entries else None)
    moved = False  # an event typed or replayed past the first correction: its rules were met
    for entry in (*log.entries[first - 1:], end):
        here = _in_order([one for one in fixes if one.seq == entry.seq])
        for one in here:
            if one.kind != "delete":
                before = state
                event, state = _typed(table, state, one, entry.at, moved)
                # Once an event passed in a game the tool dealt, whether this one could be
                # typed read a hidden hand: said so here, it would tell that (T11).
                if one.kind == "change" and event == entry.event and (
                        not moved or table.setup.seed is None):
                    raise _nothing_to_correct(table, before, entry)
                moved = True
                note = entry.note if one.kind == "change" else None
                out.append(Entry(len(out) + 1, event, entry.at, note))
                placed.setdefault(entry.seq, []).append(out[-1])
        if entry is end or (here and here[-1].kind != "insert"):
            continue  # the end of the log; or the event replaced or deleted
        try:
            after = apply_event(game, state, entry.event, setup.players, entry.at,
                                fields_checked=True)
        except MoveError as exc:
            if not _seen_by_all(table, state, moved, lambda view: apply_event(
                    game, view, entry.event, setup.players, entry.at, fields_checked=True)):
                raise CorrectionMisfit() from None
            broken.append(_broken(table, state, entry, exc))
            if table.setup.seed is not None:  # whether the later ones pass reads the hands
                raise CorrectionRefused(broken, dealt=True)
            continue  # the later events are checked on the state without it
        state, moved = after, True
        out.append(evolve(entry, seq=len(out) + 1, line=None))
    if broken:
        raise CorrectionRefused(broken)
    return tuple(out), state, placed


def _nothing_to_correct(table: session.Table, state: Any, entry: Entry) -> UsageError:
    """A change into the event as it stands would only mark the sheet "Corrected" and put a
    trail entry in `undo`'s way: refused, the log untouched."""
    text = clean_line(table.game.table_text(state, entry.event))
    return UsageError(f"event {entry.seq} already is `{text}`: there is nothing to correct",
                      code="correct-nothing")


def _in_order(fixes: list[Fix]) -> list[Fix]:
    """The corrections of one place as they apply: the inserts as typed, then the change or
    delete of the event itself."""
    return [f for f in fixes if f.kind == "insert"] + [f for f in fixes if f.kind != "insert"]


def _typed(table: session.Table, state: Any, one: Fix, at: dt.datetime | None,
           moved: bool = False) -> tuple[Event, Any]:
    """The move typed for a correction, parsed and checked where it goes in the history, at
    the time it is recorded with (a game's clock runs on the events' times); `moved`: events
    were typed or replayed before it (see `_seen_by_all`)."""
    assert one.text is not None
    text = one.text

    def unsealed(here: session.Table, event: Event) -> tuple[Event, str | None, str | None]:
        # The seal the corrected event holds, put back (a hand edit changed who made it): no
        # secret is typed, no new seal slipped in, and no seal taken from another event (a
        # player could take over a choice its opening has shown).
        held = table.log.entries[one.seq - 1].event.get("seal") if one.kind == "change" else None
        if isinstance(held, str) and event.get("seal") == held.lower():  # typed as parsed
            return event, None, None
        if one.kind == "insert":
            raise UsageError(f"correct {one.seq}: a sealed move cannot be inserted (its secret "
                             "is never typed at the table): undo back to it",
                             code="correct-sealed")
        verb = here.game.events[event.type].words[0]
        raise UsageError(f"correct {one.seq}: a sealed move is corrected only with the seal "
                         f"event {one.seq} holds (`{verb} sha256:...`, copied from the log): its "
                         "secret is never typed at the table; or undo back to it",
                         code="correct-sealed")

    here = session.Table(table.log, table.setup, state)
    try:
        refuse_if_over(table.game, state)
        move = session.check_typed(here, text, one.player, at, seal=unsealed)
    except MoveError as exc:
        words_only = isinstance(exc, NotationError) and not moved  # not what a hand holds
        if not words_only and not _seen_by_all(table, state, moved, lambda view: (
                session.check_typed(session.Table(table.log, table.setup, view), text,
                                    one.player, at, seal=unsealed))):
            raise CorrectionMisfit() from None
        exc.message = f"correction of event {one.seq}: {exc.message}"
        raise
    return move.event, move.state


def _seen_by_all(table: session.Table, state: Any, moved: bool,
                 check: Callable[[Any], object]) -> bool:
    """Whether a refusal met in `state` may be told as it is: always, unless the tool dealt
    the cards (the log's seed). Then only a refusal met before any event was typed or replayed
    past the first correction (each one that passed told whether a hidden hand allowed it:
    T11, `correct N CARD` read a hand card by card and, event by event, who was void, nothing
    written), and that `check` meets in the game as the table sees it (`Game.view`) too. A
    game whose view hides nothing it holds cannot tell which of its refusals a hidden hand
    decided: none is told."""
    if table.setup.seed is None:
        return True
    if moved:
        return False
    view = table.game.view(state)
    if view is state:
        return False
    try:
        check(view)
    except MoveError:
        return True
    except Exception:  # noqa: BLE001 - a view the move cannot be tried on tells nothing
        return False
    return False


def _broken(table: session.Table, state: Any, entry: Entry, exc: MoveError) -> Broken:
    here = session.Table(table.log, table.setup, state)
    text = _text(table, state, entry.event)
    exc.suggestions = ()
    error = session.with_suggestions(here, text, entry.event.by, exc, entry.event.type)
    return Broken(entry.seq, text, error)


def _text(table: session.Table, state: Any, event: Event) -> str:
    """An event as the table reads it, or its type and fields where the state cannot say it
    (an event the correction made illegal may name what is no longer there)."""
    try:
        text = table.game.table_text(state, event)
    except Exception:  # noqa: BLE001 - any failure to format falls back to the raw fields
        text = " ".join([event.type, *(f"{k}={v}" for k, v in event.fields)])
    return f"{event.by}: {text}" if event.by else text


def _trail(log: GameLog, fixes: list[Fix], placed: dict[int, list[Entry]], why: str,
           by: str) -> Iterator[Correction]:
    """The trail entries of `fixes`, from the last place back: each entry's `seq` then holds in
    the history the entries before it leave (the places before it are not touched yet)."""
    at = logfile.now()
    for seq in sorted({one.seq for one in fixes}, reverse=True):
        here = _in_order([one for one in fixes if one.seq == seq])
        events = [evolve(entry, seq=seq) for entry in placed.get(seq, [])]
        last = here[-1]
        if last.kind != "insert":
            new = events.pop() if last.kind == "change" else None
            yield Correction(seq, last.kind, at, why, log.entries[seq - 1], new, by)
        for event in reversed(events):
            yield Correction(seq, "insert", at, why, None, event, by)


# --------------------------------------------------------------------------------------------
# The trail


def original(log: GameLog) -> tuple[Entry, ...]:
    """The events as first recorded: the trail undone from its last entry back. LogError
    (`bad-corrections`, exit 65) where an entry does not fit the events it should have made."""
    events = list(log.entries)
    last_at: dt.datetime | None = None
    for number in reversed(range(len(log.corrections))):
        fix_ = log.corrections[number]
        events = _undone(log, events, fix_, number + 1)
        if last_at is not None and _before(last_at, fix_.at):
            raise _trail_error(log, fix_, number + 1, "made after the correction that follows "
                                                      "it in the trail")
        last_at = fix_.at
    return tuple(evolve(entry, seq=index + 1, line=None) for index, entry in enumerate(events))


def verify(log: GameLog, game: Game[Any]) -> tuple[Entry, ...]:
    """What `check` holds a trail to before it replays the log: it fits the events (`original`,
    returned), and each of its old and new events is one `game` declares, with the fields it
    declares, as [[events]] are. LogError (`bad-corrections`). `verify_words` reads them after
    the replay."""
    first = original(log)
    for number, fix_ in enumerate(log.corrections, start=1):
        for key, entry in (("old", fix_.old), ("new", fix_.new)):
            if entry is None:
                continue
            etype = game.events.get(entry.event.type)
            problem = field_problem(etype, entry.event) if etype is not None else \
                ("", None, f"unknown event type {entry.event.type!r} for {game.id}")
            if problem is not None:
                raise _trail_fault(log, fix_, number, f"its {key} event: {problem[2]}")
    return first


def verify_words(log: GameLog, setup: replay.Setup[Any], first: tuple[Entry, ...],
                 before: Callable[[int], Any]) -> None:
    """Each old and new event of the (`verify`-ed) trail reads as a move of the game where it
    stood (`_unread`). `before(seq)`: the state before event `seq` of the log's own replay,
    which `check` has made (None past where it went): words that read there, in the game as it
    stands, name what the game has, and cost no replay. Only a trail event they do not read in
    is read in the history the correction was made in (a replay of it). LogError."""
    events = list(first)  # the events as first recorded (`verify`)
    states = [setup.state]  # as `trail` keeps them, for the trail events that do not read
    for number, fix_ in enumerate(log.corrections, start=1):
        made = _redone(events, fix_)
        here = before(fix_.seq)
        if here is None or not all(_reads(setup, here, entry.event)
                                   for entry in (fix_.old, fix_.new) if entry is not None):
            stood = _state_before(setup, states, events[:fix_.seq - 1], log.source)
            for key, entry in (("old", fix_.old), ("new", fix_.new)):
                unread = None if entry is None else _unread(setup, stood, made, entry.event,
                                                            log.source)
                if unread is not None:
                    raise _trail_fault(log, fix_, number, f"its {key} event {unread}")
        events = made
        del states[fix_.seq:]  # the events after the correction's have changed


def _reads(setup: replay.Setup[Any], state: Any, event: Event) -> bool:
    """Whether the event is made by a player of the game and its words read in `state`."""
    return (event.by is None or event.by in {player.name for player in setup.players}) and \
        _words_refused(setup.game, state, event) is None


def _trail_fault(log: GameLog, fix_: Correction, number: int, message: str) -> LogError:
    return log.fail(f"correction {number} (event {fix_.seq}, {fix_.kind}): {message}",
                    code="bad-corrections", line=fix_.line, seq=fix_.seq)


def _unread(setup: replay.Setup[Any], before: Any, made: list[Entry], event: Event,
            source: str) -> str | None:
    """What keeps a trail's event from reading as a move of the game (None: it reads): a player
    who is not playing, or words (a House, a card, a square) the game's notation does not
    know where it stood (`before`: the state the correction was made in). An event a
    correction mended may have been illegal there, so only its words are read, never its
    rules; and a name the game has but not yet there (a noble dealt later) reads in a later
    state: only words that no state of the history the correction `made` reads are a fault."""
    game = setup.game
    if event.by is not None and event.by not in {player.name for player in setup.players}:
        return f"is made by {event.by!r}, who is not playing this game"
    refusal = _words_refused(game, before, event)
    if refusal is None:
        return None
    for state in _states_as_far_as_they_go(setup, made, source):
        if _words_refused(game, state, event) is None:
            return None
    if refusal and _as_the_table_reads_it(game, before, event):
        return f"does not read as a move of {game.title}: {refusal}"
    # What the tool filled in for one player (a card drawn from a dealt pile) is not quoted.
    return f"does not read as a move of {game.title} (it names what the game does not have)"


def _as_the_table_reads_it(game: Game[Any], state: Any, event: Event) -> bool:
    """Whether the event's notation is all the table may read (nothing in it the tool filled in
    for one player only), so that a refusal quoting it may be shown."""
    try:
        return game.table_text(state, event) == game.format(state, event)
    except Exception:  # noqa: BLE001 - formatted once already; not quoted if it fails now
        return False


def _words_refused(game: Game[Any], state: Any, event: Event) -> str | None:
    """Why the event's notation does not parse back in `state` ("" when it cannot even be
    written there); None when it does."""
    try:
        text = game.format(state, event)
    except Exception:  # noqa: BLE001 - a name the state does not know may fail its formatting
        return ""
    try:
        game.parse(state, text, event.by)
    except NotationError as exc:
        return exc.message
    except RefereeError:  # the words read; the move breaks a rule there (mended by the trail)
        return None
    return None


def _states_as_far_as_they_go(setup: replay.Setup[Any], events: list[Entry],
                             source: str) -> Iterator[Any]:
    """The set-up state, then the state after each event, as far as the events replay."""
    yield setup.state
    try:
        for step in replay.steps(setup, events, source, checked=True):
            yield step.after
    except RefereeError:
        return


def _before(later: dt.datetime, earlier: dt.datetime) -> bool:
    try:
        return later < earlier
    except TypeError:  # a hand-written time without its offset: not comparable, not a finding
        return False


def _undone(log: GameLog, events: list[Entry], fix_: Correction, number: int) -> list[Entry]:
    index = fix_.seq - 1
    if fix_.kind != "delete":
        if index >= len(events) or not _same(events[index], fix_.new):
            raise _trail_error(log, fix_, number, f"its new event is not event {fix_.seq} of "
                                                  "the history it leaves")
    limit = len(events) + (1 if fix_.kind == "delete" else 0)
    if index >= limit:
        raise _trail_error(log, fix_, number, f"event {fix_.seq} is past the end of the history")
    out = list(events)
    if fix_.kind == "change":
        assert fix_.old is not None
        out[index] = fix_.old
    elif fix_.kind == "insert":
        del out[index]
    else:
        assert fix_.old is not None
        out.insert(index, fix_.old)
    return out


def _same(entry: Entry, other: Entry | None) -> bool:
    return other is not None and (entry.event, entry.at, entry.note) == \
        (other.event, other.at, other.note)


def _trail_error(log: GameLog, fix_: Correction, number: int, message: str) -> LogError:
    return _trail_fault(log, fix_, number, f"{message}; the trail does not match the events")


def marks(log: GameLog) -> dict[int, list[str]]:
    """What the trail did to each event of the history (its seq -> marks), for `history`; an
    event deleted is marked on the event now in its place (0: after the last event)."""
    labels: list[list[str]] = [[] for _ in original(log)]
    tail: list[str] = []
    for number, fix_ in enumerate(log.corrections, start=1):
        index = fix_.seq - 1
        if fix_.kind == "change":
            labels[index].append(f"corrected ({number})")
        elif fix_.kind == "insert":
            labels.insert(index, [f"inserted ({number})"])
        else:
            labels.pop(index)  # its own marks go with it
            if index < len(labels):
                labels[index].append(f"event deleted before this one ({number})")
            else:  # the last event: said on a line of its own, after the history (L10)
                tail.append(f"event {fix_.seq}, the last, deleted ({number})")
    out = {seq: found for seq, found in enumerate(labels, start=1) if found}
    if tail:
        out[0] = tail
    return out


@value
class TrailLine:
    """A correction as `history --corrections` shows it."""

    number: int
    correction: Correction
    old: str | None
    new: str | None

    def as_dict(self) -> dict[str, Any]:
        fix_ = self.correction
        return {"number": self.number, "seq": fix_.seq, "kind": fix_.kind, "at": fix_.at,
                "by": fix_.by, "why": fix_.why, "old": self.old, "new": self.new}


def trail(table: session.Table) -> list[TrailLine]:
    """The trail, each old and new event in notation as of the history it was made on.

    One replay serves every correction: the states along the history are kept, and a
    correction at event N leaves those before N as they were (the events before it are the
    same), so only what follows it is replayed again, and only as far as a later correction
    needs."""
    log, setup = table.log, table.setup
    events = list(original(log))
    states = [setup.state]  # states[k]: after the first k events of the history as it stands
    out = []
    for number, fix_ in enumerate(log.corrections, start=1):
        index = fix_.seq - 1
        state = _state_before(setup, states, events[:index], log.source)
        old = _text(table, state, fix_.old.event) if fix_.old is not None else None
        new = _text(table, state, fix_.new.event) if fix_.new is not None else None
        out.append(TrailLine(number, fix_, old, new))
        events = _redone(events, fix_)
        del states[index + 1:]  # the events after `index` have changed
    return out


def _state_before(setup: replay.Setup[Any], states: list[Any], entries: list[Entry],
                  source: str) -> Any:
    """The state the entries lead to, as far as they replay (an event a correction removed may
    have been illegal where it stood), from the last of the `states` already known along
    them; each state reached is added to `states`."""
    done = min(len(states) - 1, len(entries))
    try:
        for step in replay.steps(evolve(setup, state=states[done]), entries[done:], source,
                                 checked=True):
            states.append(step.after)
    except RefereeError:
        pass
    return states[min(len(states) - 1, len(entries))]


def _redone(events: list[Entry], fix_: Correction) -> list[Entry]:
    out = list(events)
    index = fix_.seq - 1
    if fix_.kind == "change":
        assert fix_.new is not None
        out[index] = fix_.new
    elif fix_.kind == "insert":
        assert fix_.new is not None
        out.insert(index, fix_.new)
    else:
        del out[index]
    return out
