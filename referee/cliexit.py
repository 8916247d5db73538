"""How `referee` starts and ends: the command line made ready before any command sees it
(`--log` after the command, text that is not UTF-8, completion scripts), and every failure
turned into a plain message and the documented exit status (see man/referee.1), never a
traceback (`guarded`). `referee.cli.main` puts these together around the app.
"""

import io
import os
import sys
from typing import Any, Callable, NoReturn

from referee.clitext import OutputClosed, err, echo, refusal_lines, write
from referee.errors import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, Leave, RefereeError, UsageError
from referee.textsafe import clean_line, json_text


def prepare_streams() -> None:
    """Standard output and error that may be written whatever happens: a closed one goes
    nowhere, and a character a terminal cannot show is written as \\x.. instead."""
    closed_streams_to_null()
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (OSError, ValueError):  # its reader is gone (it flushes), or it is closed
                pass


def guarded(command: Callable[[], int], as_json: bool) -> int:
    """`command`'s exit status; every failure it raises becomes a message and its status."""
    try:
        return command()
    except Exception as exc:  # noqa: BLE001 - the last line of defence against a traceback
        return ended_by(exc, as_json)
    except KeyboardInterrupt:
        err("referee: interrupted")
        return 130


def ended_by(exc: Exception, as_json: bool) -> int:
    """The exit status `exc` ends a command with, its message said. Click's exceptions are
    looked for only when Typer is loaded: a plain `play` never loads it (referee.plainplay)."""
    exits, click_errors, aborts = click_exceptions()
    if isinstance(exc, (Leave,) + exits):
        return exit_code(exc)
    if isinstance(exc, click_errors):
        shown: Any = exc  # a click exception: it knows how to show itself, raw; neutralise it
        status = exit_code(exc) or EXIT_USAGE
        if as_json:
            err_json({"code": "usage", "status": status, "message": shown.format_message()})
        else:
            text = io.StringIO()
            shown.show(file=text)
            err(text.getvalue().rstrip("\n"))
        return status
    if isinstance(exc, aborts):
        err("referee: interrupted")
        return 130
    if isinstance(exc, RefereeError):
        report(exc, as_json)
        return exc.exit_status
    if isinstance(exc, (OutputClosed, BrokenPipeError)):
        # The reader went away (e.g. `| head -1`): not an error worth a message.
        quiet_stdout()
        return EXIT_OK
    err(f"referee: internal error: {type(exc).__name__}: {clean_line(exc)}")
    err("  this is a bug in referee; please report it with the command and the log file")
    if os.environ.get("REFEREE_DEBUG"):
        raise exc
    return EXIT_INTERNAL


def leave(main: Callable[[], None]) -> NoReturn:
    """`main`, then leave at once. Python's own exit would first tear down every module and
    object (about 5 ms after a game's rules were loaded, a fifth of what a command costs above
    Python's start-up); by then the log and the cache are written and closed, and the output
    is flushed here. `main` itself exits the usual way."""
    try:
        main()
        status = EXIT_OK
    except SystemExit as done:
        status = done.code if isinstance(done.code, int) else EXIT_OK if done.code is None else 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader gone or a stream closed: nothing more to say
            pass
    os._exit(status)


def flush_stdout() -> None:
    """What is still buffered, written; a reader gone by now is no error either."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the last buffered lines met a closed pipe
        quiet_stdout()
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no usable stdout
        pass


def report(exc: RefereeError, as_json: bool = False) -> None:
    if as_json:
        err_json(_error_dict(exc))
        return
    lines = refusal_lines(exc)
    from referee import screen

    if screen.is_terminal(sys.stderr):  # cut at words, not where the terminal would; a script
        from referee.clitext import folded  # reading the lines gets them whole

        lines = [folded(line, screen.size()[0]) for line in lines]
    if screen.colour_wanted(sys.stderr):  # the refusal itself in red; the words say it anyway
        write(sys.stderr, screen.paint(lines[0], "refusal", True))
        lines = lines[1:]
    for line in lines:
        err(line)


def _error_dict(exc: RefereeError) -> dict[str, Any]:
    """An error for scripts: its stable code, the exit status, the message and what helps."""
    data: dict[str, Any] = {"code": exc.code, "status": exc.exit_status, "message": exc.message,
                            "rule": getattr(exc, "rule", None), "hint": exc.hint}
    if hasattr(exc, "also"):
        data["also"] = [{"code": o.code, "message": o.message, "rule": o.rule} for o in exc.also]
    if hasattr(exc, "suggestions"):
        data["suggestions"] = list(exc.suggestions)
    if hasattr(exc, "broken"):  # a refused correction: the later events it would break
        data["broken"] = [fault.as_dict() for fault in exc.broken]
    for key in ("line", "seq"):
        if getattr(exc, key, None) is not None:
            data[key] = getattr(exc, key)
    return data


def err_json(error: dict[str, Any]) -> None:
    write(sys.stderr, json_text({"error": error}, None))


Kinds = tuple[type[BaseException], ...]


def click_exceptions() -> tuple[Kinds, Kinds, Kinds]:
    """(exit, usage/click error, abort) exception classes of whichever click is loaded: Typer
    >= 0.16 vendors its own, older releases use click itself. None when neither is: then no
    click exception can have been raised."""
    exits: list[type[BaseException]] = []
    errors: list[type[BaseException]] = []
    aborts: list[type[BaseException]] = []
    for name in ("typer.exceptions", "typer._click.exceptions", "click.exceptions"):
        loaded = sys.modules.get(name)
        for kinds, attribute in ((exits, "Exit"), (errors, "ClickException"), (aborts, "Abort")):
            kind = getattr(loaded, attribute, None)
            if kind is not None:
                kinds.append(kind)
    return tuple(exits), tuple(errors), tuple(aborts)


GLOBAL_VALUES = ("--log", "-l")  # the global options that take a value


# The options whose value is a file name: a name need not be UTF-8 (it is passed on as it is);
# every other argument is text that ends up in a log, an export or a message.
PATH_VALUES = GLOBAL_VALUES + ("--components", "--output", "-O", "--save")


PATH_ARGUMENTS = frozenset({"check"})  # commands whose own arguments are file names


def undecodable_argument(args: list[str]) -> tuple[str, str] | None:
    """The first text argument holding bytes that are not UTF-8 (lone surrogates, as Python
    reads such bytes), as (what it is, the text escaped); None when every one is text."""
    command = None
    for index, word in enumerate(args):
        before = args[index - 1] if index else ""
        if before in PATH_VALUES or word.startswith(tuple(f"{o}=" for o in PATH_VALUES)):
            continue
        if word[:2] in PATH_VALUES and len(word) > 2 and not before.startswith("-"):
            continue  # -lNAME, -ONAME: a short option with its file name attached
        if not word.startswith("-"):
            if command is None:
                command = word
            elif command in PATH_ARGUMENTS:
                continue
        if any("\ud800" <= char <= "\udfff" for char in word):
            option, equals, value = word.partition("=")
            what, word = ((option, value) if equals and word.startswith("--") else
                          (before, word) if before.startswith("-") else ("the argument", word))
            return what, "".join(f"\\x{ord(c) - 0xDC00:02x}" if "\udc80" <= c <= "\udcff"
                                 else c for c in word)
    return None


def refuse_undecodable(args: list[str]) -> None:
    """Text typed in bytes that are not UTF-8 is refused before any command sees it: it would
    go half-written into a log, an export or a link (a file name need not be UTF-8)."""
    found = undecodable_argument(args)
    if found is not None:
        what, word = found
        raise UsageError(f"{what} '{clean_line(word)}' is not valid UTF-8 text; type it again",
                         code="not-utf-8")


def exit_code(exc: BaseException) -> int:
    code = getattr(exc, "exit_code", EXIT_OK)
    return code if isinstance(code, int) else EXIT_OK


def hoist_log(argv: list[str]) -> list[str]:
    """`--log PATH` (or `-l PATH`, `--log=PATH`) is an option of `referee` itself; accept it
    after the command too (`referee history --log old.toml`) by moving it in front."""
    front: list[str] = []
    rest: list[str] = []
    command = False
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == "--":
            rest += argv[index:]
            break
        takes_value = word in GLOBAL_VALUES and index + 1 < len(argv)
        if command and (takes_value or word.startswith("--log=")):
            front += argv[index:index + 1 + takes_value]
            index += 1 + takes_value
            continue
        if not command and takes_value:
            rest += argv[index:index + 2]
            index += 2
            continue
        command = command or not word.startswith("-")
        rest.append(word)
        index += 1
    return front + rest


def hoist_completion_log(environ: Any) -> None:
    """`referee play --log X <TAB>`: completion reads the command line from the environment
    (bash: COMP_WORDS and COMP_CWORD; zsh, fish: _TYPER_COMPLETE_ARGS); move `--log X` in
    front there too, among the words before the one being completed."""
    words = environ.get("COMP_WORDS")
    if words is not None:
        parts = words.split(" ")
        cursor = int(environ.get("COMP_CWORD", len(parts) - 1) or 0)
        if 1 <= cursor <= len(parts):
            environ["COMP_WORDS"] = " ".join(parts[:1] + hoist_log(parts[1:cursor])
                                             + parts[cursor:])
    line = environ.get("_TYPER_COMPLETE_ARGS")
    if line:
        parts = line.split(" ")
        environ["_TYPER_COMPLETE_ARGS"] = " ".join(parts[:1] + hoist_log(parts[1:-1])
                                                   + parts[-1:])


SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


COMPLETE_VAR = "_REFEREE_COMPLETE"


def completion_request(args: list[str]) -> tuple[str, str | None] | None:
    """`--show-completion [SHELL]` or `--install-completion [SHELL]` before any command: Typer
    takes them as flags and reads the shell from the parent process, so `--show-completion
    zsh` printed bash's script; the shell named wins here."""
    for index, word in enumerate(args):
        flag, _, value = word.partition("=")
        if flag in ("--show-completion", "--install-completion"):
            following = args[index + 1] if index + 1 < len(args) else ""
            shell = value or (following if following in SHELLS else None)
            return flag, shell
        if not word.startswith("-"):
            return None
    return None


def completion_script(flag: str, shell: str | None) -> int:
    from typer import _completion_shared as shells

    if shell is None:
        shell = os.path.basename(os.environ.get("SHELL", "")) or None
        try:
            shell = shells._get_shell_name() or shell
        except Exception:  # noqa: BLE001 - detection is a nicety; $SHELL will do
            pass
    if shell not in SHELLS:
        raise UsageError(f"cannot tell which shell to complete for ({shell or 'none found'}): "
                         f"name it, e.g. {flag} zsh (one of {', '.join(SHELLS)})")
    if flag == "--show-completion":
        echo(shells.get_completion_script(prog_name="referee", complete_var=COMPLETE_VAR,
                                          shell=shell))
        return EXIT_OK
    name, path = shells.install(shell=shell, prog_name="referee", complete_var=COMPLETE_VAR)
    err(f"{name} completion installed in {path}; it works in shells started from now on")
    return EXIT_OK


def wants_json(argv: list[str]) -> bool:
    return "--json" in argv[:argv.index("--")] if "--" in argv else "--json" in argv


def quiet_stdout() -> None:
    """Standard output's reader went away: whatever is still buffered goes nowhere, quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no real stdout
        pass


def closed_streams_to_null() -> None:
    """Started with standard output or error closed (`>&-`), Python has None for it: what
    would be printed there goes nowhere, as to a reader that left, instead of a traceback."""
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
