"""`referee declare` typed at a terminal: each line is checked as it is entered, so that a slip
(`kind=castel`) is refused alone, named, and typed again, while every good line before and after
it is kept; the kept lines are recorded in one write at Ctrl-D (`session.declare`, which checks
them again on the log as it is then). Every line typed goes into the log's history, so Up
recalls the refused one to mend it. A table reads some ninety printed values off the cards: no
typed line may be lost to one wrong word.
"""

from __future__ import annotations

from pathlib import Path

from referee import log as logfile
from referee import session
from referee import table as sessions
from referee.clitext import err, out
from referee.cliexit import report
from referee.errors import EXIT_RULE, Leave, MoveError, RefereeError, UsageError
from referee.tableline import Terminal, TerminalGone

PROMPT = "declare> "


def declare_typed(path: Path) -> tuple[session.Declared, list[str]]:
    """The lines typed at the terminal that the log accepts, recorded at Ctrl-D in one write,
    and what to say last: the lines refused and never typed again (`unmended`). Should that
    write be refused or stopped, whatever by (another terminal declared meanwhile, or holds
    the lock; the log made read-only, moved, broken; Ctrl-C while the lock is waited for), the
    lines are printed to paste again."""
    kept, refused = typed(path)
    if refused and not kept:  # every line refused: that is the news, not "no line was given"
        for line in unmended(refused):
            err(line)
        raise Leave(EXIT_RULE)
    try:
        return session.declare(path, kept), unmended(refused)
    except RefereeError:
        if kept:
            _to_paste_again("nothing was recorded", kept)
        for line in unmended(refused):
            err(line)
        raise
    except KeyboardInterrupt:
        err("")
        _to_paste_again("interrupted: nothing was recorded", kept)
        raise Leave(130) from None


def unmended(refused: dict[str, tuple[int, str]]) -> list[str]:
    """The lines refused and not typed again, said once more after the write: a refusal early
    in a pasted block has scrolled off the screen by Ctrl-D."""
    if not refused:
        return []
    them = "it" if len(refused) == 1 else "them"  # within 80 columns, as all this screen says
    return [f"referee: {_lines(len(refused))} refused, never typed again, not recorded (Up "
            f"recalls {them}):",
            *(f"  line {number}: {text}" for number, text in refused.values())]


def typed(path: Path) -> tuple[list[str], dict[str, tuple[int, str]]]:
    """The lines typed at the terminal that the log accepts, in order, until Ctrl-D; and those
    refused and not typed again (a later line kept for the same entry), by entry."""
    table = session.load(path)
    session.refuse_unless_declaring(table)  # before anything is typed, not after
    terminal = Terminal(path)
    err("Type or paste the `declare` lines, then Ctrl-D on a line of its own.")
    err("A refused line is not kept (Up recalls it); all others are recorded at Ctrl-D.")
    state, number, at = table.state, 0, logfile.now()
    kept: list[str] = []
    refused: dict[str, tuple[int, str]] = {}
    try:
        while (line := _read(terminal)) is not None:
            number += 1
            text = session.declaration_text(line)
            if text is None:
                continue
            if sessions.kept(table, line):  # as the table's history: never a sealed move
                terminal.keep(line)
            try:
                state = session.declaration(table, state, number, text, at)[1]
            except (MoveError, UsageError) as exc:
                report(exc)
                err(f"  Not kept: type line {number} again" + (
                    f"; the {_lines(len(kept))} before it "
                    f"{'is' if len(kept) == 1 else 'are'} kept." if kept else "."))
                refused[_entry(text)] = (number, text)
                continue
            kept.append(text)
            refused.pop(_entry(text), None)
    except KeyboardInterrupt:
        err("")
        _to_paste_again("interrupted: nothing was recorded", kept)
        raise Leave(130) from None
    except TerminalGone:  # as at Ctrl-C; said where a terminal may hear it (a multiplexer's)
        try:
            _to_paste_again("the terminal is gone: nothing was recorded", kept)
        except OSError:
            pass
        raise Leave(130) from None
    finally:
        terminal.close()
    return kept, refused


def _entry(text: str) -> str:
    """What a declaration line is about, as typed (`declare place heleigh`): a later line
    about the same mends a refused one."""
    return " ".join(text.casefold().split()[:3])


def _read(terminal: Terminal) -> str | None:
    """A line typed, None at Ctrl-D; a line that is not UTF-8 is refused alone, as a slip."""
    while True:
        try:
            return input(PROMPT)
        except EOFError:  # Ctrl-D, or a terminal closed with its hang-up ignored (nohup)
            try:
                terminal.write("\n")
            except OSError as exc:  # gone: its end of input is no Ctrl-D to record at
                raise TerminalGone() from exc
            return None
        except UnicodeDecodeError:
            err("referee: the line typed is not valid UTF-8 text: type it again")
        except OSError as exc:
            raise TerminalGone() from exc


def _to_paste_again(what: str, kept: list[str]) -> None:
    """`what` happened; the lines kept are printed so that they can be pasted again."""
    if not kept:
        err(f"referee: {what}")
        return
    err(f"referee: {what}; the {_lines(len(kept))} kept, to paste again:")
    for text in kept:
        out(text)


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"
