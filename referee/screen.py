"""The one screen a table shares: what the terminal is, when output goes through a pager, where
colour helps, and the hand-over screen for what only one player may read.

The plain commands and the `referee table` session use these alike. Nothing here is remembered
between calls: each asks the terminal and the environment afresh. Off a terminal everything is
plain text, printed once, so scripts and tests read exactly what they read before.
"""

from __future__ import annotations

import io
import os
import sys
import unicodedata
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import IO, Callable, Sequence

from referee.textsafe import clean, clean_line

# A board must fit the smallest usual terminal with the command above it and a prompt below it.
BOARD_COLUMNS = 80
BOARD_ROWS = 20

HOME_CLEAR = "\x1b[H\x1b[2J"  # cursor home, clear the screen
WIPE = HOME_CLEAR + "\x1b[3J"  # ... and the scrollback (xterm, VTE, tmux, iTerm2, kitty)

STYLES = {"act": "1", "refusal": "31", "winner": "1;32"}  # bold; red; bold green


# --------------------------------------------------------------------------------------------
# Terminal facts


def is_terminal(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except (OSError, ValueError):  # a closed stream
        return False


def size() -> tuple[int, int]:
    """(columns, rows) of the terminal ($COLUMNS and $LINES win, as everywhere), 80x24 if none."""
    import shutil  # here, not at the top: shutil, shlex and subprocess cost a `play` ~8 ms

    found = shutil.get_terminal_size((BOARD_COLUMNS, 24))
    return max(20, found.columns), max(5, found.lines)


def cells(text: str) -> int:
    """The columns `text` takes on a terminal: East Asian wide characters take two, combining
    marks none."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


WIDE = "\x00"  # after a wide character: its second column, counted by len(), then dropped


def widened(text: str) -> str:
    """`text` with WIDE after each character that takes two columns, so that len(), textwrap
    and ljust count the columns it takes (a name in Chinese folds and pads within the width);
    `.replace(WIDE, "")` gives the text back."""
    if text.isascii():
        return text
    return "".join(char + WIDE if cells(char) == 2 else char for char in text.replace(WIDE, ""))


def ljust(text: str, width: int) -> str:
    """`text` padded with spaces to `width` terminal columns (str.ljust counts characters)."""
    return text + " " * (width - cells(text))


def clip(text: str, width: int) -> str:
    """`text` cut to at most `width` terminal columns, an ellipsis for what is left off (a wide
    character is never halved)."""
    if cells(text) <= width:
        return text
    kept, used = [], 1  # the ellipsis takes one column
    for char in text:
        used += cells(char)
        if used > width:
            break
        kept.append(char)
    return "".join(kept) + "\u2026"


def clip_apart(text: str, width: int, others: Sequence[str]) -> str:
    """`clip(text, width)`, unless one of `others` (names alike at first) could read the same:
    then as much of its start as leaves room for an ellipsis and the shortest end of it that
    no other one shares (`Alexandr\u2026a`, `Alexandr\u2026z`); `clip` if none does."""
    cut = clip(text, width)
    rivals = [other for other in others if other != text]

    def alike(start: str, end: str) -> bool:
        return any(o.startswith(start) and o.endswith(end) and len(o) >= len(start) + len(end)
                   for o in rivals)

    if cut == text or not alike(cut[:-1], ""):
        return cut
    for split in range(len(text) - 1, 0, -1):  # the end from text[split:], shortest first
        end = text[split:]
        start = clip(text[:split], width - cells(end))
        start = start[:-1] if start.endswith("\u2026") else start
        if start and cells(start) + 1 + cells(end) <= width and not alike(start, end):
            return start + "\u2026" + end
    return cut


def rows(text: str, columns: int) -> int:
    """The screen rows `text` fills on a terminal `columns` wide that wraps long lines."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()  # the newline that ends the text starts no row of its own
    return sum(max(1, -(-cells(line) // columns)) for line in lines)


# --------------------------------------------------------------------------------------------
# Colour


def colour_wanted(stream: object, environ: Mapping[str, str] = os.environ) -> bool:
    """Colour only on a terminal, never with NO_COLOR set (https://no-color.org) or TERM=dumb."""
    return (is_terminal(stream) and not environ.get("NO_COLOR")
            and environ.get("TERM", "") != "dumb")


def paint(text: str, style: str, enabled: bool) -> str:
    """`text` in the colour of `style` ('act', 'refusal', 'winner') when `enabled`: the words
    stay the same, so nothing needs the colour to be understood."""
    if not enabled or not text:
        return text
    return f"\x1b[{STYLES[style]}m{text}\x1b[0m"


# --------------------------------------------------------------------------------------------
# The pager


def pager_argv(environ: Mapping[str, str] = os.environ) -> list[str] | None:
    """The pager to run, as git chooses it: $PAGER, else `less`; None when $PAGER is empty or
    `cat` (pages nothing) or names a program that is not installed."""
    import shlex
    import shutil

    wanted = environ.get("PAGER")
    text = "less" if wanted is None else wanted.strip()
    try:
        argv = shlex.split(text)
    except ValueError:
        return None
    if not argv or argv[0] == "cat" or shutil.which(argv[0]) is None:
        return None
    return argv


def pager_environ(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """less as git runs it: quit if one screen, keep colours, leave the text on the screen
    (LESS=FRX, unless the user set LESS); lv likewise keeps colours."""
    env = dict(environ)
    env.setdefault("LESS", "FRX")
    env.setdefault("LV", "-c")
    return env


def should_page(text: str, *, terminal: bool, allowed: bool, columns: int,
                screen_rows: int) -> bool:
    """Page only on a terminal, when allowed (no --no-pager), and only what is taller than the
    window (with a row kept for the shell's prompt)."""
    return terminal and allowed and rows(text, columns) > screen_rows - 1


def page(text: str, argv: list[str], environ: Mapping[str, str] = os.environ) -> bool:
    """Show `text` through the pager `argv`; False when it could not be started (then the caller
    prints the text itself). Quitting the pager early is not an error."""
    import subprocess

    try:
        pager = subprocess.Popen(argv, stdin=subprocess.PIPE, env=pager_environ(environ))
    except OSError:
        return False
    assert pager.stdin is not None
    try:
        pager.stdin.write(text.encode(sys.stdout.encoding or "utf-8", "backslashreplace"))
        pager.stdin.close()
    except (BrokenPipeError, OSError):  # q pressed before the end
        pass
    while True:
        try:
            pager.wait()
            return True
        except KeyboardInterrupt:  # Ctrl-C belongs to the pager (less ignores it): wait on
            continue


@contextmanager
def paged(allowed: bool = True, stream: IO[str] | None = None) -> Iterator[None]:
    """Everything written to standard output inside the block is shown through the pager when,
    at the end, it is taller than the window; else (and off a terminal, or with --no-pager)
    it is printed as it comes."""
    out = stream or sys.stdout
    argv = pager_argv() if allowed and is_terminal(out) else None
    if argv is None:
        yield
        return
    held = _Held()
    sys.stdout = held
    try:
        yield
    finally:
        sys.stdout = out
        text = held.getvalue()
        columns, screen_rows = size()
        if not (should_page(text, terminal=True, allowed=True, columns=columns,
                            screen_rows=screen_rows) and page(text, argv)):
            out.write(text)
            out.flush()


class _Held(io.StringIO):
    """Output held for the pager, bound for a terminal: writers keep their colours."""

    def isatty(self) -> bool:
        return True


# --------------------------------------------------------------------------------------------
# The hand-over screen


def keyboard(stdin: IO[str] | None = None) -> IO[str] | None:
    """Where Enter is read from: standard input when it is a terminal, else the controlling
    terminal (the secret came on a pipe, the screen is still shared); None if there is none."""
    stdin = sys.stdin if stdin is None else stdin
    if is_terminal(stdin):
        return stdin
    try:
        return open("/dev/tty", encoding="utf-8", errors="replace")
    except OSError:
        return None


class NotShown(Exception):
    """The hand-over was cancelled at its first screen (Ctrl-C, or Ctrl-D: the end of input),
    so the secret was not shown; the screen is wiped. `key` names what was pressed, and the
    caller says what was not shown and whether it can be shown again."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def handover(player: str, secret: str, plain: Callable[[str], None] | None = None, *,
             stdout: IO[str] | None = None, stdin: IO[str] | None = None,
             colour: bool | None = None) -> None:
    """Show `secret` to `player` alone. On a terminal: clear the screen, name the player and
    wait for Enter (the others look away), show the secret, wait for Enter, then wipe the screen
    and the scrollback before anything else is printed. Ctrl-C or Ctrl-D instead of the first
    Enter shows nothing (NotShown): whoever pressed it may not be the player. Off a terminal the
    secret is printed once, plainly, by `plain` (standard output by default)."""
    out = sys.stdout if stdout is None else stdout
    keys = keyboard(stdin) if is_terminal(out) else None
    if keys is None:
        (plain or (lambda text: print(text, file=out)))(clean(secret))
        return
    bright = colour_wanted(out) if colour is None else colour
    try:
        try:  # the flush inside: a Ctrl-C as soon as the words are out is pressed here
            out.write(WIPE + paint(f"{clean_line(player)} only", "act", bright)
                      + " \u2014 press Enter (everyone else, look away)")
            out.flush()
            pressed = keys.readline()
        except KeyboardInterrupt:
            raise NotShown("Ctrl-C") from None
        if not pressed:  # the end of input (Ctrl-D) is no Enter: it cancels, as Ctrl-C does
            raise NotShown("Ctrl-D")
        out.write(HOME_CLEAR + clean(secret).rstrip("\n")
                  + "\n\nPress Enter when done: the screen is wiped.")
        try:  # the flush inside: a Ctrl-C as soon as the words are out is still an Enter
            out.flush()
            keys.readline()
        except KeyboardInterrupt:  # the secret was seen: Ctrl-C ends the hand-over as Enter
            pass
    finally:
        out.write(WIPE)  # whatever happened (Ctrl-C too), the secret does not stay
        out.flush()
        if keys is not stdin and keys is not sys.stdin:
            keys.close()
