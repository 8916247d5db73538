"""`referee play MOVE...` as a table types it, run without loading Typer.

Importing Typer (and the click it carries) is 164 M of the 245 M instructions of
`python -c "import typer"`: more than a whole replay of a long Kingmaker log, spent on every
move although a move needs no parser. So the entry point (referee.console) first asks
`recognise` whether the command line is a plain `play`: the word `play`, the move's words, and at
most `--log PATH` in front (where `cliexit.hoist_log` puts it) and `--as NAME`, `--note TEXT`,
`--json`, each once and each a word of its own. Such a line runs `play_move` here; every other
line (help, completion, another command, any other spelling of an option, a value that starts
with `-`) goes to the full command line (referee.cli), whose `play` runs the same `play_move`.
`recognise` reads only what Typer would read the same way: the test suite holds it to that, on
generated command lines (tests/test_plainplay.py).
"""

import errno
import sys
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple, Optional

from referee import cliexit
from referee.clitext import (
    ask_secret,
    echo,
    err,
    err_folded,
    next_json,
    not_shown,
    print_next,
    secret_lost,
    show_played,
)
from referee.errors import EXIT_OK, Leave
from referee.textsafe import clean_line, json_text

DEFAULT_LOG = "game.toml"
LOG_VARIABLE = "REFEREE_LOG"  # the log when no --log is given (referee.cli's --log reads it)
VALUED = ("--as", "--note")  # play's options that take a value


class PlainPlay(NamedTuple):
    """A `play` command line, read."""

    log: Path
    move: tuple[str, ...]
    as_name: Optional[str] = None
    note: Optional[str] = None
    as_json: bool = False


def recognise(args: list[str], environ: Mapping[str, str]) -> PlainPlay | None:
    """The plain `play` that `args` (with `--log` hoisted in front) asks for; None when they
    ask for anything else, or for a play written any other way: the full command line reads
    those. A shell asking for completions (`*_COMPLETE` set) is never a play."""
    if any(key.endswith("_COMPLETE") for key in environ):
        return None
    log = environ.get(LOG_VARIABLE) or DEFAULT_LOG  # as Typer reads it: an empty one is unset
    rest = args
    if rest[:1] in (["--log"], ["-l"]) and len(rest) > 1 and _is_value(rest[1]):
        log, rest = rest[1], rest[2:]
    if rest[:1] != ["play"]:
        return None
    words: list[str] = []
    given: dict[str, str] = {}
    tokens = iter(rest[1:])
    for word in tokens:
        if word in VALUED + ("--json",) and word in given:
            return None  # a repeated option: the full command line says what it makes of it
        if word in VALUED:
            value = next(tokens, None)
            if value is None or not _is_value(value):
                return None
            given[word] = value
        elif word == "--json":
            given[word] = word
        elif word.startswith("-"):
            return None
        else:
            words.append(word)
    if not words:
        return None
    return PlainPlay(Path(log), tuple(words), given.get("--as"), given.get("--note"),
                     "--json" in given)


def _is_value(word: str) -> bool:
    return bool(word) and not word.startswith("-")


def play_move(request: PlainPlay) -> None:
    """`referee play`: check the move against the rules, record it, say what it did and who acts
    next."""
    from referee import session

    text = " ".join(request.move)
    try:
        played = session.play(request.log, text, request.as_name, request.note)
    except session.SecretNeeded:
        played = session.play(request.log, text, request.as_name, request.note, _secret())
    if request.as_json:
        document = json_text({**played.as_dict(), "next": next_json(played.after)})
        if played.receipt or played.drawn:  # the document carries its player's secret
            _hand_over_secret(played, document, as_json=True)
        else:
            echo(document)
        return
    cancelled: list[str] = []  # a hand-over of the mover's board cancelled: 130 at the end
    show_played(played, lambda said: _hand_over_secret(played, said),
                lambda player, view: cancelled.extend(_hand_over_view(player, view)))
    print_next(played.after)
    if cancelled:  # the move stands and its lines are out; `status --for` shows the board
        raise Leave(130)


def _secret() -> str:
    """The move's secret, typed unseen; Ctrl-C or Ctrl-D at its prompt ends the line the prompt
    left open and says that nothing was recorded (the move is played only once its secret is
    known)."""
    try:
        return ask_secret()
    except KeyboardInterrupt:
        err("")
        err("referee: interrupted: nothing was recorded")
        raise Leave(130) from None
    except EOFError:  # Ctrl-D at a terminal: no secret, no move, as with Ctrl-C
        err("")
        err("referee: no secret was typed (Ctrl-D): nothing was recorded")
        raise Leave(130) from None


def _hand_over_secret(played: Any, said: str, as_json: bool = False) -> None:
    """`play`'s secret (a drawn card, a seal's receipt) for its player alone: behind the
    hand-over screen wherever it would reach a terminal, printed plainly only where it would
    not. The text form says it on standard error (standard output keeps the table's lines),
    on whichever of the two is a terminal (`play squires > out.txt` at a terminal); the --json
    document, secret and all, goes to standard output."""
    from referee import screen

    sys.stdout.flush()
    plain: Callable[[str], None] = echo if as_json else err
    shown_on = sys.stdout if as_json or screen.is_terminal(sys.stdout) else sys.stderr
    try:
        screen.handover(played.event.by or "the player", said, plain, stdout=shown_on)
    except screen.NotShown as cancelled:  # the move is written: its secret must not vanish unsaid
        err_folded("referee: " + secret_lost(played, cancelled.key, "`referee undo`"))
        raise Leave(130) from None


def _hand_over_view(player: str, view: str) -> list[str]:
    """The board as the move's player sees it, before a move of theirs alone (the Flag
    Bearer's `give`: the 2 cards the tool took are in it): behind the hand-over screen on
    whichever of standard output and standard error is a terminal, else nowhere (piped, the
    move's own line says that `status --for NAME` shows it). Cancelled, the move stands, the
    same command shows it, and the key pressed is returned (the command ends with 130, as a
    cancelled hand-over does: `man referee`)."""
    from referee import screen

    shown_on = next((s for s in (sys.stdout, sys.stderr) if screen.is_terminal(s)), None)
    if shown_on is None:
        return []
    sys.stdout.flush()
    try:
        screen.handover(player, view, lambda text: None, stdout=shown_on)
    except screen.NotShown as cancelled:
        err_folded(f"referee: {not_shown(player, cancelled.key)}; `referee status --for "
                   f"{clean_line(player)}` shows it")
        return [cancelled.key]
    return []


def main(args: list[str], request: PlainPlay) -> None:
    """`referee play` as `recognise` read it from `args` (referee.console): the move made, every
    failure a message and its exit status, as referee.cli.main does for the full command line."""
    status = cliexit.guarded(lambda: _run(args, request), request.as_json)
    cliexit.flush_stdout()
    sys.exit(status)


def _run(args: list[str], request: PlainPlay) -> int:
    cliexit.refuse_undecodable(args)
    try:
        play_move(request)
    except KeyboardInterrupt:  # ended as Typer ends a command (typer.core._main): 130, silent
        raise Leave(130) from None
    except EOFError:  # Typer: a blank line, then its abort (`guarded`: "interrupted", 130)
        err("")
        raise KeyboardInterrupt from None
    except OSError as exc:  # Typer: a reader gone from a pipe is status 1, nothing said
        if exc.errno != errno.EPIPE:
            raise
        raise Leave(1) from None
    return EXIT_OK
