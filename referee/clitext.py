"""What `referee` prints, and the few things it asks at the keyboard: every byte goes through
`out`, `err` and `out_json` (text from a log or a command line is neutralised there once, by
referee.textsafe); text folded to the terminal; who acts next; a move's lines and notices; a
refusal's lines; the demo's pace. Data goes to stdout, messages to stderr.
"""

import codecs
import contextlib
import io
import os
import sys
import time
from typing import IO, TYPE_CHECKING, Any

from referee.errors import Leave, RefereeError, UsageError
from referee.textsafe import clean, clean_line, json_text

if TYPE_CHECKING:
    import typer

    from referee.engine import Notice


class OutputClosed(Exception):
    """Standard output was closed by its reader (`referee history | head -1`): not an error.

    Not an OSError, so that Typer does not turn it into exit status 1 on its way to `main`."""


def write(stream: "IO[str] | None", text: str, nl: bool = True) -> None:
    """`text` written and flushed at once, as click.echo writes it (so that a plain `play`,
    which never loads Typer, prints the same bytes): no stream, nothing; escape sequences
    stripped where the stream is no terminal (our own colour is only ever asked for one)."""
    if stream is None:  # pragma: no cover - prepare_streams gives every command both streams
        return
    if nl:
        text += "\n"
    if "\x1b" in text:
        import re

        from referee import screen

        if not screen.is_terminal(stream):
            text = re.sub(r"\033\[[;?0-9]*[a-zA-Z]", "", text)
    beneath = _utf8_beneath(stream)
    if beneath is None:
        stream.write(text)
        stream.flush()
    else:
        stream.flush()
        beneath.write(text.encode("utf-8", "replace"))
        beneath.flush()


def _utf8_beneath(stream: "IO[str]") -> "IO[bytes] | None":
    """The bytes beneath a stream Python encodes as ASCII (PYTHONIOENCODING=ascii, a C locale
    without UTF-8 mode): click.echo takes such a stream for a misconfigured one and writes UTF-8
    to its buffer instead, so `write` does too; None for any other stream."""
    try:
        ascii_only = codecs.lookup(getattr(stream, "encoding", None) or "ascii").name == "ascii"
    except LookupError:
        return None
    beneath: "IO[bytes] | None" = getattr(stream, "buffer", None) if ascii_only else None
    return beneath


def echo(text: str = "", nl: bool = True) -> None:
    """Print to standard output; a closed pipe ends the command quietly (see `main`)."""
    try:
        write(sys.stdout, text, nl)
    except BrokenPipeError:
        raise OutputClosed() from None


def out(text: str = "", nl: bool = True) -> None:
    echo(clean(text), nl=nl)


def err(text: str) -> None:
    write(sys.stderr, clean(text))


def err_folded(text: str) -> None:
    """A message on standard error folded at words to the terminal's width where it is one, as
    a refusal is (referee.cliexit.report); whole for a script reading it."""
    width = on_terminal(sys.stderr)
    err(folded(clean(text), width) if width else text)


def out_json(data: Any) -> None:
    echo(json_text(data))


def paged(ctx: "typer.Context") -> Any:
    """The block's output through the pager when it is taller than the terminal (see
    referee.screen.paged)."""
    from referee import screen

    return screen.paged(bool(ctx.obj.get("pager", True)) if ctx.obj else True)


def for_eyes_of(player: str, text: str, plain: Any = out) -> None:
    """Text for one player only: on a terminal, behind the hand-over screen (see
    referee.screen.handover); else printed once by `plain` (standard output by default).
    Cancelled there (Ctrl-C, Ctrl-D), it shows nothing, says so, and ends the command
    (`status --for`, `options --for`) with 130."""
    from referee import screen

    sys.stdout.flush()
    try:
        screen.handover(player, text, plain)
    except screen.NotShown as cancelled:
        err_folded(f"referee: {not_shown(player, cancelled.key)}; the same command shows it "
                   "again")
        raise Leave(130) from None


def not_shown(player: str, key: str) -> str:
    """What a hand-over cancelled by `key` (Ctrl-C, Ctrl-D) showed: nothing."""
    return f"hand-over cancelled ({key}): nothing was shown to {clean_line(player)}"


def secret_lost(played: Any, key: str, undo: str) -> str:
    """A move's secret (a drawn card, a seal's receipt) whose hand-over was cancelled: the move
    is recorded (it was played before its secret could be shown), the secret is gone, and
    `undo` (the command to type where the player is) takes the move back."""
    secret = "receipt" if played.receipt else "drawn card"
    return (f"hand-over cancelled ({key}): the move is in the log, but its {secret} was not "
            f"shown and cannot be shown again; {undo} takes the move back, then play it again")


def print_next(table: Any) -> None:
    if table.stopped is not None:
        out("The table stopped the game: it scores as it stands, incomplete "
            f"({table.game.resumes(table.state)}).")
        return
    if table.finished:
        out("The game is over: `referee scoresheet` prints the sheet.")
        return
    turn = table.turn
    who = "The table" if turn.table else " or ".join(clean_line(p) for p in turn.players)
    out_folded(f"Next: {who} - {clean_line(turn.prompt)}")


def next_json(table: Any) -> dict[str, Any]:
    """Who acts next, as `play --json` gives it."""
    turn = table.turn
    return {"players": list(turn.players), "phase": table.phase, "prompt": turn.prompt,
            "table": turn.table}


def turn_json(table: Any) -> dict[str, Any]:
    turn = table.turn
    return {"to_act": list(turn.players), "phase": table.phase, "prompt": turn.prompt,
            "table": turn.table}


def show_played(played: Any, secret: Any, own: Any = None, say: Any = None) -> None:
    """What a move changed and the notices it brought; a secret it drew or sealed goes first,
    once, to `secret(text)` for its player's eyes, so that it is wiped before the table's
    lines are printed. So does, to `own(player, text)`, the board as the move's player sees it
    when their next move is private (`own_move_due`). The move's lines go to `say` when given
    (`referee table` says them as its own, hints as typed there), else folded to stdout."""
    typed = played.typed  # shown back on the hand-over screen (a typo is seen before the end)
    if typed:
        from referee.screen import is_terminal

        # Only where it was typed unseen and is shown behind a hand-over screen, then wiped:
        # with a pipe for input (no screen, or none to read Enter) secrets are printed plainly.
        typed = typed if is_terminal(sys.stdin) and is_terminal(sys.stdout) else None
    said = ([f"Drawn for you: {played.drawn}  (shown only now: write it on your slip)"]
            if played.drawn else []) + \
        ([f"You sealed: {typed}  (not what you meant? undo takes the move back now)"]
         if typed else []) + \
        ([f"Your receipt: {played.receipt}  (write it on your slip: it opens your seal at the "
          "end, and is shown only now)"] if played.receipt else [])
    if said:
        secret("\n".join(said))
    player = own_move_due(played) if own is not None else None
    if player is not None:
        own(player, own_view(played.after, player))
    for line in played.lines:
        if say is not None:
            say(clean(line))
        else:
            out_folded(clean(line))
    print_notices(played.notices)


def own_move_due(played: Any) -> str | None:
    """The player who just moved, when their next move is theirs alone to choose from what only
    they have seen (a private move: the Flag Bearer's `give`, once the tool took 2 cards for
    his eyes): they read their own board at once, rather than when they think of `status
    --for`; None otherwise."""
    after, player = played.after, played.event.by
    if player is None or after.finished or after.turn.table or after.turn.players != (player,):
        return None
    phase = after.phase
    due = any(etype.private_text and etype.phases is not None and phase in etype.phases
              for etype in after.game.events)
    return str(player) if due else None


def own_view(table: Any, player: str) -> str:
    """The board as `player` sees it, as `status --for` shows it on a terminal, its head
    folded too (a wide name would run it past the last column)."""
    head = (f"{table.game.title} - {len(table.log.entries)} event(s) - as {clean_line(player)} "
            "sees it")
    return folded(f"{head}\n{clean(table.compact_board(player))}", terminal()[0])


def print_notices(notices: "tuple[Notice, ...]") -> None:
    for notice in notices:
        out_folded(f"NOTICE ({notice.rule or notice.code}): {clean(notice.message)}")


def out_folded(text: str) -> None:
    """A line of what a move did: at a terminal folded at its width, as a refusal is (cut at
    words, not mid-name where the terminal would); piped or in a file, whole, as scripts read
    it."""
    width = on_terminal()
    out(folded(text, width) if width else text)


def fold(lines: list[str]) -> list[str]:
    """Group a long list by its first two words: one line per group with a count."""
    groups: dict[str, list[str]] = {}
    for line in lines:
        groups.setdefault(" ".join(line.split()[:2]), []).append(line)
    folded = []
    for head, members in groups.items():
        if len(members) <= 3:
            folded += members
        else:
            folded.append(f"{head} ...   ({len(members)} moves: `referee options {head}` "
                          "lists them)")
    return folded


def folded(text: str, width: int) -> str:
    """Text for a terminal `width` wide: a longer line goes on below its last column (the start
    of its last run of two or more spaces), else under its own indent, never cut in a word."""
    import re
    import textwrap

    from referee.screen import WIDE, widened

    out = []
    for line in widened(text).split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        columns = [m.end() for m in re.finditer(r"\S\s{2,}(?=\S)", line[:width])]
        lead = len(line) - len(line.lstrip(" "))
        indent = columns[-1] if columns and width - columns[-1] >= 30 else lead + 4
        wrapped = textwrap.wrap(line, width, subsequent_indent=" " * indent,
                                break_long_words=False, break_on_hyphens=False,
                                drop_whitespace=True) or [line]
        out += [_within(part, width) for part in wrapped]
    return "\n".join(out).replace(WIDE, "")


def _within(line: str, width: int) -> str:
    """A folded line that its indent pushed past `width` (one long word such as a seal) moved
    left until it ends at the last column; a word longer than the width is left whole."""
    if len(line) <= width:
        return line
    word = line.lstrip(" ")
    return " " * max(width - len(word), 0) + word if line[0] == " " else line


def on_terminal(stream: IO[str] | None = None) -> int:
    """The width of the terminal `stream` (standard output by default) is on; 0 when it is not
    a terminal."""
    from referee import screen

    return screen.size()[0] if screen.is_terminal(stream or sys.stdout) else 0


def terminal() -> tuple[int, bool]:
    """The width a text sheet may use (80 at most, less on a narrower terminal or $COLUMNS)
    and whether standard output takes UTF-8 (else the chart is drawn in plain ASCII)."""
    import shutil

    width = min(80, shutil.get_terminal_size((80, 24)).columns)
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return max(30, width), encoding in ("utf8", "utf8sig")


def lit(text: str, finished: bool) -> str:
    """Clean text with its last line (who acts, or the outcome) in colour on a colour terminal;
    the words are the same without it."""
    from referee import screen

    if not screen.colour_wanted(sys.stdout):
        return text
    lines = text.split("\n")
    start = next((i for i in range(len(lines) - 1, -1, -1)
                  if lines[i].startswith(("To act", "Game over"))), len(lines) - 1)
    painted = screen.paint("\n".join(lines[start:]), "winner" if finished else "act", True)
    return "\n".join(lines[:start] + [painted])


def refusal_lines(exc: RefereeError) -> list[str]:
    """A refusal as `play` prints it on standard error (see report)."""
    lines = [f"referee: {clean(exc.message)}"]
    rule = getattr(exc, "rule", None)
    if rule:
        lines.append(f"  rule: {clean_line(rule)}")
    for other in getattr(exc, "also", ()):
        lines.append(f"  and: {clean(other.message)}" + (f" (rule: {clean_line(other.rule)})"
                                                          if other.rule else ""))
    if exc.hint:
        lines.append(f"  hint: {clean(exc.hint)}")
    suggestions = getattr(exc, "suggestions", ())
    if suggestions:
        lines.append("  closest legal moves: " + " | ".join(clean_line(s) for s in suggestions))
    return lines


def ask_secret() -> str:
    """A secret typed at the table without echo (or read from a pipe), never shown or stored.
    Ctrl-D at the terminal's prompt is EOFError: the caller drops the move and says so."""
    try:
        if sys.stdin is not None and sys.stdin.isatty():
            import getpass

            return getpass.getpass("Secret (not shown): ")
        return sys.stdin.readline().rstrip("\n") if sys.stdin is not None else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"the secret could not be read from standard input ({exc}): type it "
                         "at a terminal, or give it on one line of standard input",
                         code="no-secret") from None


class Pacer:
    """The demo's pace: a pause between moves (--delay), or on a terminal a stop after each
    screenful and at each moment worth a look, until Enter (q: to the end without stops)."""

    def __init__(self, delay: float | None, interactive: bool):
        import shutil

        self.delay = delay
        self.stops = interactive and delay is None
        self.rows = max(10, shutil.get_terminal_size((80, 24)).lines)
        self.columns = max(20, shutil.get_terminal_size((80, 24)).columns)
        self.shown = 0
        self.blank = False

    def say(self, *texts: str) -> None:
        for line in (line for text in texts for line in text.split("\n")):
            if not line and self.blank:
                continue  # one blank line between parts is enough
            from referee.screen import rows

            needed = rows(clean(line), self.columns)  # a long line wraps onto more rows
            if self.stops and self.shown and self.shown + needed > self.rows - 2:
                self.stop()
            out(line)
            self.shown += needed
            self.blank = not line

    def after_move(self) -> None:
        if self.delay:
            time.sleep(self.delay)

    def stop(self) -> None:
        """On a terminal, wait for Enter; the prompt is wiped once answered."""
        if not self.stops:
            return
        echo(STOP_PROMPT, nl=False)
        key = one_key()
        if key is None:  # no terminal to read a key from: a line, its Enter echoed
            answer = sys.stdin.readline()
            echo("\x1b[1A\x1b[2K", nl=False)  # up over the Enter the terminal echoed, clear it
        else:
            answer = key
            echo("\r\x1b[2K", nl=False)  # nothing was echoed: clear the prompt's own row
        self.shown = 0
        if not answer or answer.strip().casefold().startswith("q"):
            self.stops = False


def one_key() -> str | None:
    """One key pressed at the terminal on standard input, unechoed, without waiting for Enter
    ("" at end of input: Ctrl-D, as for a line); None where standard input is no terminal or
    the system has no termios (then the caller reads a line). Ctrl-C still interrupts: cbreak
    mode keeps the signals."""
    try:
        import termios
        import tty
    except ImportError:  # pragma: no cover - Windows
        return None
    try:
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
        tty.setcbreak(fd, termios.TCSANOW)  # not TCSAFLUSH: a key pressed early still counts
    except (OSError, ValueError, termios.error, io.UnsupportedOperation):
        return None  # not a terminal (a pipe, a test's StringIO)
    try:  # a key's every byte at once (é's two, an arrow's escape sequence): none of them may
        pressed = os.read(fd, KEY_BYTES)  # answer the next stop, or reach the shell after
    finally:
        with contextlib.suppress(termios.error):  # a terminal gone: nothing to give back
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    eof = saved[6][termios.VEOF]  # the terminal's end-of-input key, which cbreak passes on
    return "" if not pressed or pressed[:1] == eof else pressed.decode("utf-8", "replace")


KEY_BYTES = 64  # more than any key sends


STOP_PROMPT = "      -- Enter: go on, q: to the end --"
