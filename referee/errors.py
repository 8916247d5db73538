"""The one exception family of `referee`.

Every problem a user can cause ends in a `RefereeError` whose message names the input and the
situation, and whose `exit_status` is the documented exit code. Anything else that escapes is a bug.
"""

from __future__ import annotations

from typing import Iterable

# Exit statuses (see man/referee.1). Kept here so that every layer agrees on them.
EXIT_OK = 0
EXIT_RULE = 1  # a rule violation or a rejected move
EXIT_USAGE = 2  # the command line itself is wrong
EXIT_INTERNAL = 70  # a bug in referee
EXIT_BAD_LOG = 65  # malformed log (EX_DATAERR)
EXIT_NO_LOG = 66  # log missing or unreadable (EX_NOINPUT)
EXIT_CANT_WRITE = 73  # the log or an output file cannot be written (EX_CANTCREAT)
EXIT_BUSY = 75  # log locked by another writer (EX_TEMPFAIL)


class RefereeError(Exception):
    """Base of every error meant for the user."""

    exit_status = EXIT_RULE
    code = "error"

    def __init__(self, message: str, *, code: str | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.hint = hint


class UsageError(RefereeError):
    """The command line names something that does not exist (a game, an option, a player)."""

    exit_status = EXIT_USAGE
    code = "usage"


class MoveError(RefereeError):
    """A move was rejected. `suggestions` holds nearby legal moves in canonical notation."""

    exit_status = EXIT_RULE
    suggest = True  # False: a refusal that asks for data, not another move (no closest moves)

    def __init__(self, message: str, *, code: str | None = None, rule: str | None = None,
                 hint: str | None = None, suggestions: tuple[str, ...] = ()):
        super().__init__(message, code=code, hint=hint)
        self.rule = rule
        self.suggestions = tuple(suggestions)


class NeedsForce(RefereeError):
    """The command is right, but the table's own rule refuses it as typed: a reveal (a card
    everyone has seen) is taken back or corrected only with --force, and undo never takes an
    event the corrections' trail stands on. A rejected command: status 1, nothing written."""

    exit_status = EXIT_RULE


class NotationError(MoveError):
    """Move text that does not parse: an unknown word, a card that does not exist."""

    code = "notation"


class AmbiguousMove(NotationError):
    """Move text that could mean more than one thing (an abbreviation with several matches)."""

    code = "ambiguous"


class IllegalMove(MoveError):
    """A well-formed move that the rules forbid in this situation.

    `also` holds the other rules the same move breaks, less important ones last (see
    `refuse`): the player is told all of them at once, not one per try."""

    code = "illegal"
    also: tuple[IllegalMove, ...] = ()

    def every(self) -> tuple[IllegalMove, ...]:
        """This refusal and the others the same move earned, the most important first."""
        return (self, *self.also)


def refuse(problems: Iterable[IllegalMove | None]) -> None:
    """Raise the first problem found, carrying the others in `also`: a move that breaks several
    rules is told all of them, in the order given (the most important first)."""
    found = [problem for problem in problems if problem is not None]
    if found:
        first = found[0]
        first.also = tuple(found[1:])
        raise first


class LogError(RefereeError):
    """A log that cannot be trusted: bad TOML, unknown format, fields of the wrong type."""

    exit_status = EXIT_BAD_LOG
    code = "log"

    def __init__(self, message: str, *, code: str | None = None, line: int | None = None,
                 seq: int | None = None, hint: str | None = None):
        super().__init__(message, code=code, hint=hint)
        self.line = line
        self.seq = seq


class LogMissing(RefereeError):
    """The log file does not exist or cannot be read."""

    exit_status = EXIT_NO_LOG
    code = "log-missing"


class LogBusy(RefereeError):
    """Another `referee` process holds the log's write lock."""

    exit_status = EXIT_BUSY
    code = "log-busy"


class CannotWrite(LogMissing):
    """The log or an output file cannot be written: read-only, a folder, a FIFO or a device, a
    folder without room or permission. A kind of LogMissing (the file cannot be used), with its
    own status."""

    exit_status = EXIT_CANT_WRITE
    code = "cannot-write"


class Leave(Exception):
    """Ends a command with `exit_code`, whatever it had to say already said."""

    def __init__(self, exit_code: int):
        super().__init__(exit_code)
        self.exit_code = exit_code
