"""The terminal of `referee table`: line editing, Tab completion and history through the standard
library's `readline` (GNU readline on Linux, libedit on macOS), or a plain line reader when
standard input is not a terminal, so that a session can be scripted
(`printf 'draw\\nquit\\n' | referee table`).

`readline` rather than prompt_toolkit: it is already in Python, loads in about a millisecond
(prompt_toolkit takes tens, which the session's start-up goal cannot pay), and its completion
list is what a shell user expects. What the session does is in `referee.table`.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from referee import session
from referee import table as sessions
from referee.errors import UsageError
from referee.screen import HOME_CLEAR as CLEAR, WIPE  # noqa: F401 - the tests read them

HISTORY_LINES = 1000
MOVE_ROOM = 16  # the columns a prompt leaves at least for the move typed after it


def run(path: Path) -> int:
    """`referee table`: a session on the log `path`, through the terminal or a plain reader."""
    interactive = _isatty(sys.stdin)
    console = Terminal(path) if interactive else Plain(handover=_isatty(sys.stdout))
    try:
        return sessions.run(path, console)
    except TerminalGone:  # every move was recorded as it was typed: nothing is lost
        try:
            from referee.clitext import err

            err("referee: the terminal is gone: the session ends (every move typed is in the "
                "log)")
        except OSError:
            pass  # said where a terminal may still hear it (a multiplexer's log)
        return 130
    finally:
        console.close()


class TerminalGone(Exception):
    """The terminal closed while its hang-up was ignored (nohup): reading it fails (EIO), or
    reads as the end of input after which nothing can be written."""


def _isatty(stream: Any) -> bool:
    return bool(getattr(stream, "isatty", lambda: False)())


def show_secret(console: Plain, player: str, text: str, nowhere_else: bool = False) -> None:
    """The shared hand-over screen (`referee.screen.handover`): the screen cleared, the player
    named, the secret shown once they press Enter, then the screen and its scrollback wiped.
    With no keyboard to read Enter from, printed plainly, or not at all if `nowhere_else`."""
    from referee import screen

    screen.handover(player, text, (lambda text: None) if nowhere_else else console.say)


class Plain:
    """Lines read from standard input; each is printed after its prompt, so that the output
    reads as the session would on a terminal. Secrets are printed plainly, once."""

    interactive = False

    def __init__(self, handover: bool):
        self.handover = handover

    def say(self, text: str) -> None:
        from referee.clitext import out

        out(text)

    def write(self, text: str) -> None:
        from referee.clitext import echo

        echo(text, nl=False)

    def read(self, prompt: str, short: str = "") -> str | None:
        """The next line, printed after the whole `prompt` as a terminal would show it (the
        `short` one is for a narrow terminal only)."""
        if sys.stdin is None:  # started with standard input closed (`<&-`): nothing to read
            return None
        try:
            line = sys.stdin.readline()
        except UnicodeDecodeError:
            raise UsageError("a line typed is not valid UTF-8 text") from None
        if not line:
            return None
        line = line.rstrip("\n")
        self.say(prompt + line)
        return line

    def read_secret(self) -> str:
        from referee.clitext import ask_secret

        return ask_secret()

    def show_secret(self, player: str, text: str, nowhere_else: bool = False) -> None:
        if self.handover:
            show_secret(self, player, text, nowhere_else)
        elif not nowhere_else:
            self.say(text)

    def follow(self, known: session.Known) -> None:
        pass

    def keep(self, line: str) -> None:
        pass

    def close(self) -> None:
        pass


class Terminal(Plain):
    """A person at a terminal: `readline` edits the line, Tab completes, Up recalls the lines
    typed on this log before (its own history file)."""

    interactive = True

    def __init__(self, path: Path):
        super().__init__(handover=_isatty(sys.stdout))
        self.known: session.Known | None = None
        self.offered: list[str] = []
        self.history = history_file(path)
        self.readline = _readline()
        if self.readline is not None:
            self._start(self.readline)

    def _start(self, readline: ModuleType) -> None:
        readline.set_auto_history(False)  # a line goes in only once known to hold no secret
        readline.clear_history()
        readline.set_history_length(HISTORY_LINES)
        if self.history is not None:
            try:
                readline.read_history_file(self.history)
            except OSError:
                pass  # no history yet, or unreadable: start without
        readline.set_completer_delims(" \t\n")
        readline.set_completer(self.complete)
        if "libedit" in (readline.__doc__ or ""):  # macOS: another syntax for the same binding
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")

    def say(self, text: str) -> None:
        """Said folded at word boundaries to the terminal's width, as the terminal would cut
        a longer line anywhere, even in a word."""
        from referee import screen
        from referee.clitext import folded

        super().say(folded(text, screen.size()[0]) if screen.is_terminal(sys.stdout) else text)

    def read(self, prompt: str, short: str = "") -> str | None:
        """The next line typed after `prompt`; where it would leave fewer than MOVE_ROOM
        columns for the move, the turn line is said on its own line(s) and `short` (`Ann > `)
        is the prompt."""
        while True:
            try:
                return input(self._fitted(prompt, short))
            except EOFError:
                try:
                    self.write("\n")
                except OSError as exc:  # no Ctrl-D: the terminal is gone (nohup)
                    raise TerminalGone() from exc
                return None
            except KeyboardInterrupt:
                self.say("\n(the line is dropped: `quit` or Ctrl-D ends the session)")
            except UnicodeDecodeError:
                raise UsageError("a line typed is not valid UTF-8 text") from None
            except OSError as exc:
                raise TerminalGone() from exc

    def _fitted(self, prompt: str, short: str) -> str:
        from referee import screen

        if not short or not screen.is_terminal(sys.stdout) \
                or screen.cells(prompt) <= screen.size()[0] - MOVE_ROOM:
            return prompt  # fits, or goes to a file (`> out`): kept whole, as `say` is
        self.say(prompt.rstrip().removesuffix(">").rstrip())
        return short

    def read_secret(self) -> str:
        try:
            return super().read_secret()
        except KeyboardInterrupt:  # as at the prompt: the move is dropped, the session goes on
            key = "Ctrl-C"
        except EOFError:  # Ctrl-D cancels this line alike: the session ends only at its prompt
            key = "Ctrl-D"
        self.write("\n")
        raise UsageError(f"no secret was typed ({key}): nothing was recorded", code="no-secret")

    def follow(self, known: session.Known) -> None:
        self.known = known

    def keep(self, line: str) -> None:
        if self.readline is None or not line.strip():
            return
        self.readline.add_history(line)
        if self.history is not None:
            try:
                _private_file(self.history)
                self.readline.append_history_file(1, self.history)
            except (OSError, AttributeError):  # no room, or a readline without appending
                pass

    def complete(self, text: str, state: int) -> str | None:
        """readline asks for the completions of `text` one by one (state 0, 1, ...)."""
        if state == 0:
            self.offered = []
            if self.known is not None and self.readline is not None:
                before = self.readline.get_line_buffer()[:self.readline.get_begidx()]
                try:
                    # Python's readline adds no space after a word completed: add it here
                    self.offered = [word + " " for word in
                                    sessions.completions(self.known.table, before, text)]
                except Exception:  # noqa: BLE001 - Tab must never break the line being typed
                    self.offered = []
        return self.offered[state] if state < len(self.offered) else None

    def close(self) -> None:
        if self.readline is not None:
            self.readline.set_completer(None)


def _readline() -> ModuleType | None:
    try:
        import readline
    except ImportError:  # pragma: no cover - a Python built without it: plain lines
        return None
    return readline


def history_file(path: Path) -> str | None:
    """The history of the log `path` (one file per log, by its real path), under
    $XDG_STATE_HOME/referee/history (~/.local/state by default); None if it cannot be made."""
    from referee.cache import digest

    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                             "state")
    folder = Path(base) / "referee" / "history"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    where = os.path.realpath(path).encode("utf-8", "surrogateescape")
    return str(folder / digest(where)[:40])


def _private_file(name: str) -> None:
    """The history file readable by its owner only (the moves of a game are the table's)."""
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.close(fd)
