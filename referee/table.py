"""`referee table`: the whole game as one session at the table (issue 25).

Each line is a move, typed exactly as `referee play` takes it (`--as NAME` and `--note TEXT`
too), or a session command. The session holds the replayed game (`session.Known`: the table and
the log's bytes it came from), so a move applies one event and appends it, under the log's lock,
written as `play` writes it, before the next prompt; it replays nothing. When another command
changed the log meanwhile, the move is refused, the log read again, and the session says so.

This module is the terminal-free part: what a line does, the prompt, and the words Tab may
offer. `referee.tableline` is the terminal (line editing, history, the hand-over screen) and
gives it a `Console`.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import sys
from pathlib import Path
from typing import NoReturn, Protocol

from referee import session
from referee.errors import EXIT_OK, RefereeError, UsageError
from referee.textsafe import clean_line
from referee.values import value

# answered by the CLI's own commands, on the log as it stands
READS = ("options", "status", "score", "history", "rules", "scoresheet")
WRITES = ("correct",)  # the CLI's own command too, under the log's lock as a move is
COMMANDS = (*READS, *WRITES, "undo", "help", "quit")
# the CLI's other commands: a line of the shell, not of a session on one log
ELSEWHERE = ("games", "new", "components", "table", "declare", "export", "check", "simulate",
             "demo")
ALIASES = {"?": "options", "exit": "quit", "sheet": "scoresheet"}
FLAGS = {"options": ("--for", "--all"), "status": ("--for",), "undo": ("--force",),
         "scoresheet": ("--format", "--place", "--paper", "--output"),
         "correct": ("--why", "--by", "--as", "--insert", "--delete", "--also", "--force")}
PLAYER_FLAGS = ("--for", "--as")

HELP = """\
Type a move as `referee play` takes it (Tab completes it; `--as NAME` says who
makes it, `--note TEXT` keeps a note), or one of:
  options, ?   the legal moves now (`--for NAME`: NAME's own, for NAME's eyes)
  status       the board (`--for NAME`: as NAME sees it, for NAME's eyes)
  score        the scores as they stand
  history      every move so far
  undo         take the last move back (`--force`: a card everyone has seen)
  correct      fix an earlier move: `correct N MOVE --why TEXT --by NAME`
  scoresheet   the sheet, as `referee scoresheet` prints it (`sheet` too)
  rules        the rules of this game
  help         this text
  quit         leave (Ctrl-D too); every move is already in the log
Any other command of referee: `quit`, then type it at the shell."""


class Console(Protocol):
    """The terminal a session talks through (`referee.tableline`), or a test's stand-in."""

    def say(self, text: str) -> None:
        """Print a line (or lines) of the conversation."""

    def read_secret(self) -> str:
        """A secret typed unseen (a sealed move's letters), never kept or shown."""

    def show_secret(self, player: str, text: str, nowhere_else: bool = False) -> None:
        """Show `text` to `player` alone (a hand-over screen), then wipe it; screen.NotShown
        when the hand-over was cancelled before it was shown. Where no hand-over can be held
        it is printed plainly, or, `nowhere_else`, not at all (another command shows it)."""


@value
class Outcome:
    """What a line did: the game as it now stands, the exit status of the line (0 accepted),
    and whether the session ends."""

    known: session.Known
    status: int = EXIT_OK
    done: bool = False


def prompt(table: session.Table, dot: str = "·") -> str:
    """Who acts and what is awaited: `Ann · draw or trade > `."""
    if table.finished:
        return "game over > "
    who = _who(table)
    awaited = clean_line(table.turn.prompt)
    if awaited.startswith(who + " "):  # `Ann seals ...`: the player is named once
        awaited = awaited[len(who) + 1:]
    return f"{who} {dot} {awaited} > "


def short_prompt(table: session.Table) -> str:
    """The prompt when the whole one would leave too little room for the move: `Ann > `
    (the turn line is then said above it, see referee.tableline.Terminal.read)."""
    if table.finished:
        return "game over > "
    return f"{_who(table)} > "


def _who(table: session.Table) -> str:
    turn = table.turn
    return "The table" if turn.table or not turn.players else \
        " or ".join(clean_line(p) for p in turn.players)


def opening(path: Path, table: session.Table) -> str:
    """The session's first lines, each within 80 columns for a shared screen."""
    return (f"{table.game.title} - {len(table.log.entries)} event(s) in {clean_line(path)}.\n"
            "Type a move (Tab completes it), or options, status, undo, help, quit.")


def answer(path: Path, known: session.Known, line: str, console: Console) -> Outcome:
    """Do what one line says. A refusal is raised (RefereeError): the log is left as it was."""
    words = split(line)
    if not words:
        return Outcome(known)
    head = ALIASES.get(words[0].casefold(), words[0].casefold())
    if head == "quit":
        return Outcome(known, done=True)
    if head == "help":
        console.say(HELP)
        return Outcome(known)
    if head == "undo":
        return _undo(path, known, words[1:], console)
    if head in READS:
        return _read(path, known, [head, *words[1:]], console)
    if head in WRITES:
        return _write(path, known, [head, *words[1:]], console)
    if head == "referee" and session._verb(known.table.game, words[0]) is None:
        _shells(known.table, words[1:])
    if head == "play" or head in ELSEWHERE:
        _elsewhere(known.table, words)
    return _move(path, known, words, console)


def _shells(table: session.Table, words: list[str]) -> NoReturn:
    """Refuse a line typed as at the shell (`referee undo`, as a message of `status` or the
    README words it) with the line to type here."""
    if words:
        _elsewhere(table, words)  # `referee play MOVE`, `referee new ...`: said as such
    line = f"`{clean_line(shlex.join(words))}`" if words else \
        "the command itself (`help` lists them)"
    raise UsageError(f"'referee' is not needed in the session: type {line}")


def _elsewhere(table: session.Table, words: list[str]) -> None:
    """Refuse a line that is a command of the shell (`new`, `export`...) or a move typed after
    `play`, unless the game has a move of that name (Kingmaker's `declare`, Dwarf King's
    `play`): it would otherwise be refused as a move that breaks a rule."""
    first = clean_line(words[0])
    if session._verb(table.game, words[0]) is not None or \
            words[0].casefold() not in ("play", *ELSEWHERE):
        return
    if words[0].casefold() == "play":
        raise UsageError(f"'{first}' is not needed in the session: type the move itself "
                         f"(`{clean_line(' '.join(words[1:]) or 'MOVE')}`)")
    raise UsageError(f"'{first}' is not a session line: type `quit`, then "
                     f"`referee {first} ...` at the shell")


def split(line: str) -> list[str]:
    """A line's words, quoted as a shell would (`--note "a long note"`)."""
    try:
        return shlex.split(line)
    except ValueError:
        raise UsageError(f"'{clean_line(line)}': a quote is not closed") from None


def kept(table: session.Table, line: str) -> bool:
    """Whether a line may go into the history: never a sealed move's (whatever it holds), nor
    one whose words are its player's alone (the cards a Flag Bearer gives back)."""
    game = table.game
    now = game.phase(table.state)
    if any(etype.private_text and (etype.phases is None or now in etype.phases)
           for etype in game.events):
        return False  # typed now, a line may be that move without its verb (`K3 G7`)
    for word in line.replace(":", " ").split():
        verb = session._verb(game, word)
        if verb is not None and (game.events[verb].sealed or game.events[verb].private_text):
            return False
    return True


# --------------------------------------------------------------------------------------------
# Moves


def _move(path: Path, known: session.Known, words: list[str], console: Console) -> Outcome:
    from referee import clitext, screen
    from referee.cliexit import refuse_undecodable

    as_name, note, move = _move_options(words)
    refuse_undecodable(["play", *words])  # a line read in bytes that are not UTF-8
    text = " ".join(move)
    try:
        played = session.play(path, text, as_name, note, known=known, cache=False)
    except session.SecretNeeded:
        played = session.play(path, text, as_name, note, console.read_secret(), known=known,
                              cache=False)
    player = played.event.by or "the table"

    def hand_over(said: str) -> None:
        try:
            console.show_secret(player, said)
        except screen.NotShown as cancelled:  # the move is in the log: say what became of it
            console.say(_sentence(clitext.secret_lost(played, cancelled.key, "`undo`")))

    def own_view(whose: str, view: str) -> None:
        if not screen.is_terminal(sys.stdout):  # piped: `status --for NAME` shows it, as said
            return
        try:
            console.show_secret(whose, view, nowhere_else=True)
        except screen.NotShown as cancelled:
            console.say(_sentence(f"{clitext.not_shown(whose, cancelled.key)}; "
                                  f"`status --for {clean_line(whose)}` shows it"))

    clitext.show_played(played, hand_over, own_view,
                        lambda line: console.say(here(line, played.after)))
    if played.after.finished:
        _next(console, played.after)
    return Outcome(played.known)


def _move_options(words: list[str]) -> tuple[str | None, str | None, list[str]]:
    """`--as NAME` and `--note TEXT` (anywhere in the line, as `play` takes them), and the
    move's own words."""
    found: dict[str, str] = {}
    move: list[str] = []
    rest = iter(words)
    for word in rest:
        flag, equals, given = word.partition("=")
        if flag in ("--as", "--note"):
            value = given if equals else next(rest, None)
            if value is None:
                raise UsageError(f"{flag} needs a value: {flag} NAME" if flag == "--as" else
                                 f"{flag} needs a value: {flag} TEXT")
            found[flag] = value
        elif word.startswith("--"):
            raise UsageError(f"a move takes --as NAME and --note TEXT, not {clean_line(word)}")
        else:
            move.append(word)
    if not move:
        raise UsageError("which move? type it after --as NAME (e.g. `draw --as Ann`)")
    return found.get("--as"), found.get("--note"), move


def _undo(path: Path, known: session.Known, flags: list[str], console: Console) -> Outcome:
    if any(flag != "--force" for flag in flags):
        raise UsageError("undo takes only --force")
    undone = session.undo(path, force=bool(flags), known=known)
    console.say(f"Retracted event {undone.entry.seq}: {clean_line(undone.text)}")
    if undone.table.finished:
        _next(console, undone.table)
    return Outcome(undone.known)


# --------------------------------------------------------------------------------------------
# What the table reads: the CLI's own commands, on the log as it now stands


def _read(path: Path, known: session.Known, args: list[str], console: Console) -> Outcome:
    """`status`, `options`, `score`, `history`, `rules`: the command `referee` runs, so the
    answers and their options are the same; `--for NAME` goes to NAME's eyes only."""
    from referee.clitext import not_shown
    from referee.screen import NotShown

    current = _current(path, known, console)
    if args[0] == "rules" and len(args) == 1:
        args.append(current.table.game.id)
    session.remember(path, current.data, current.table)  # the command finds the game replayed in the cache
    player = _for_whom(current.table, args)
    if player is None:
        status = _run_cli(path, args)
    else:
        captured = io.StringIO()
        with contextlib.redirect_stdout(captured):
            status = _run_cli(path, args)
        try:
            console.show_secret(player, captured.getvalue().rstrip("\n"))
        except NotShown as cancelled:  # back to the prompt, as Ctrl-C there drops a line
            console.say(_sentence(f"{not_shown(player, cancelled.key)}; "
                                  f"`{clean_line(shlex.join(args))}` shows it again"))
    return Outcome(current, status)


def _write(path: Path, known: session.Known, args: list[str], console: Console) -> Outcome:
    """`correct`: the command `referee` runs (it holds the log's lock while it reads, replays
    and writes, as a move does); the session then follows the log it wrote. As a move, it is
    refused when another command changed the log since the session read it (event N may no
    longer be the event the line meant): the command itself checks, under the lock, that the
    log still holds the bytes the session read."""
    from referee.cache import digest

    current = session.load_known(path, known)
    if current is not known:
        raise session.LogChanged(path, current)
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        status = _run_cli(path, [args[0], "--seen", digest(current.data), *args[1:]])
    console.say(here(said.getvalue().rstrip("\n"), current.table))
    return Outcome(session.load_known(path, current), status)


def _for_whom(table: session.Table, args: list[str]) -> str | None:
    """The player `--for NAME` names (the output is theirs alone), or None. Named twice, the
    command shows the last one's (as click reads an option), so that one is taken here too."""
    name = ""
    for index, word in enumerate(args):
        flag, equals, given = word.partition("=")
        if flag == "--for":
            name = given if equals else (args[index + 1] if index + 1 < len(args) else "")
    return table.player(name) if name else None


def _current(path: Path, known: session.Known, console: Console) -> session.Known:
    """The log as it now stands; the session says so when another command changed it."""
    current = session.load_known(path, known)
    if current is not known:
        console.say(f"{clean_line(path)} was changed by another command: read again "
                    f"({len(current.table.log.entries)} event(s) now).")
    return current


def _run_cli(path: Path, args: list[str]) -> int:
    """`referee --log PATH ARGS...` in this process, its messages among the conversation."""
    from referee import cli

    if any(word in ("--log", "-l") or word.startswith("--log=") for word in args):
        raise UsageError(f"the session's log is {clean_line(path)}: a line takes no --log")
    with contextlib.redirect_stderr(sys.stdout):
        try:
            cli.main(["--log", str(path), *args], prog_name="")  # `Try 'correct -h'`
        except SystemExit as done:
            return done.code if isinstance(done.code, int) else EXIT_OK
    return EXIT_OK  # pragma: no cover - main always exits


# --------------------------------------------------------------------------------------------
# Completion


def completions(table: session.Table, before: str, incomplete: str) -> list[str]:
    """What Tab may offer for the word `incomplete`, after the text `before` on the line: a
    command or a move's next word (from the same legal moves as `options`, as the table sees
    them: never a hidden card), a player after --as or --for, a command's flags."""
    words = before.split()
    folded = incomplete.casefold()
    names = [p.name for p in table.players]
    if words and words[-1] in PLAYER_FLAGS:
        return [n for n in names if n.casefold().startswith(folded)]
    if not words:
        offered = [*table.completions(None, [], incomplete),
                   *(c for c in COMMANDS if c.startswith(folded))]
        return list(dict.fromkeys(offered))
    head = ALIASES.get(words[0].casefold(), words[0].casefold())
    if head in COMMANDS:
        return [f for f in FLAGS.get(head, ()) if f.startswith(folded)]
    player, typed = None, []
    rest = iter(words)
    for word in rest:
        if word in ("--as", "--note"):
            given = next(rest, "")
            if word == "--as":
                try:
                    player = table.player(given)
                except RefereeError:
                    return []
        elif not word.startswith("--"):
            typed.append(word)
    if incomplete.startswith("--"):
        return [f for f in ("--as", "--note") if f.startswith(incomplete)]
    return table.completions(player, typed, incomplete)


# --------------------------------------------------------------------------------------------
# The session


class Reader(Console, Protocol):
    interactive: bool

    def read(self, prompt: str, short: str) -> str | None:
        """The next line (None: end of input, Ctrl-D), after `prompt` (or, where it would leave
        too little room for the move, `short`)."""

    def follow(self, known: session.Known) -> None:
        """The game as it now stands, for what Tab offers."""

    def keep(self, line: str) -> None:
        """Add a line to the history."""


def run(path: Path, console: Reader) -> int:
    """The session, until `quit` or the end of input. Its exit status: 0; when standard input
    is not a terminal (a script), the status of the last line refused, if any."""
    known = session.load_known(path)
    status = EXIT_OK
    console.say(opening(path, known.table))
    if known.table.finished:
        _next(console, known.table)
    dot = "·" if _utf8() else "-"
    try:
        while True:
            console.follow(known)
            line = console.read(prompt(known.table, dot), short_prompt(known.table))
            if line is None:
                break
            if kept(known.table, line):
                console.keep(line)
            try:
                outcome = answer(path, known, line, console)
            except session.LogChanged as changed:
                outcome = Outcome(changed.known, changed.exit_status)
                _refused(console, changed, changed.known.table)
            except RefereeError as exc:
                outcome = Outcome(known, exc.exit_status)
                _refused(console, exc, known.table)
            known = outcome.known
            status = outcome.status or status
            if outcome.done:
                break
    finally:
        session.remember(path, known.data, known.table)  # the next command finds the game replayed
    return status if not console.interactive else EXIT_OK


def _refused(console: Console, exc: RefereeError, table: session.Table) -> None:
    from referee.clitext import refusal_lines

    for line in refusal_lines(exc):
        console.say(here(line, table))


def _next(console: Console, table: session.Table) -> None:
    """What comes next once the game is over or stopped, as `play` says it, said here."""
    from referee.clitext import print_next

    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        print_next(table)
    console.say(here(said.getvalue().rstrip("\n"), table))


def here(text: str, table: session.Table) -> str:
    """A message as the session says it: a command it takes named as the line to type here
    (`undo --force`, not `referee undo --force`; a move without `referee play`). A player's
    name is left as it is written, even one that reads like such a hint."""
    shown = {clean_line(player.name) for player in table.players}
    names = sorted((name for name in shown if "`referee" in name), key=len, reverse=True)
    parts = re.split("(%s)" % "|".join(map(re.escape, names)), text) if names else [text]
    return "".join(part if index % 2 else _session_words(part)  # odd: a name, as split kept it
                   for index, part in enumerate(parts))


def _session_words(text: str) -> str:
    text = text.replace("`referee play ", "`")
    return re.sub(r"`referee (%s)\b" % "|".join(COMMANDS), r"`\1", text)


def _sentence(text: str) -> str:
    """`text` said as a line of the session: a capital first, a full stop last."""
    return text[:1].upper() + text[1:] + "."


def _utf8() -> bool:
    encoding = (getattr(sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return encoding in ("utf8", "utf8sig")
