"""The `referee` command line: argument parsing and printing only.

Every rule lives in `referee.games`, every file format in `referee.log`, every table in
`referee.scoresheet`; this module turns their answers into text. Data goes to stdout, messages to
stderr; errors end with the documented exit status (see man/referee.1), never a traceback.
"""

from __future__ import annotations

import io
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from referee import __version__
from referee.errors import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, RefereeError, UsageError
from referee.textsafe import clean, clean_line, json_text

if TYPE_CHECKING:
    from referee.engine import Player

app = typer.Typer(
    name="referee",
    help="Referee and score keeper for tabletop games played with physical copies.\n\n"
         "Record each move with `referee play`; the log (TOML) is the only truth.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

FORMATS = ("text", "markdown", "html", "csv", "json")
OPTIONS_FOLD = 40  # more legal moves than this are folded into groups (see `options --all`)


# --------------------------------------------------------------------------------------------
# Output helpers


# Every byte `referee` prints goes through these three: text from a log or a command line is
# neutralised here once (referee.textsafe), whatever the command forgot.


def out(text: str = "", nl: bool = True) -> None:
    typer.echo(clean(text), nl=nl)


def err(text: str) -> None:
    typer.echo(clean(text), err=True)


def out_json(data: Any) -> None:
    typer.echo(json_text(data))


def log_path(ctx: typer.Context) -> Path:
    path: Path = ctx.obj["log"]
    return path


def text_arg(value: str, what: str) -> str:
    """Command-line text that goes into a log must be UTF-8 (a path need not be): bytes that are
    not arrive as lone surrogates, and are refused here rather than half-written."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError(f"{what} '{clean_line(value)}' is not valid UTF-8 text") from None
    return value


def version_callback(value: bool) -> None:
    if value:
        out(f"referee {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    log: Optional[Path] = typer.Option(
        None, "--log", "-l", envvar="REFEREE_LOG", metavar="PATH", readable=False,
        help="The game log (default: $REFEREE_LOG, else ./game.toml)."),
    version: bool = typer.Option(False, "--version", callback=version_callback, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    ctx.obj = {"log": log or Path("game.toml")}


# --------------------------------------------------------------------------------------------
# Games and rules


@app.command()
def games(as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """List the games, their player counts and options."""
    from referee.engine import available_game_ids, load_game

    found = [load_game(gid) for gid in available_game_ids()]
    if as_json:
        out_json([{"id": g.id, "title": g.title, "players": [g.min_players, g.max_players],
                   "options": {o.name: o.default for o in g.options}} for g in found])
        return
    for g in found:
        opts = ", ".join(f"{o.name}={_show_value(o.default)}" for o in g.options) or "-"
        out(f"{g.id:<20} {g.title:<24} {g.min_players}-{g.max_players} players   options: {opts}")


def _show_value(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


@app.command()
def rules(game: str = typer.Argument(..., help="The game id (see `referee games`)."),
          as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """The rules summary, the table rulings in force by default, and the notation."""
    from referee.engine import load_game

    g = load_game(game)
    if as_json:
        out_json({"id": g.id, "title": g.title, "players": [g.min_players, g.max_players],
                  "options": [{"name": o.name, "default": o.default, "kind": o.kind,
                               "ruling": o.ruling, "help": o.help} for o in g.options],
                  "phases": [{"id": p.id, "doc": p.doc} for p in g.phases],
                  "events": {name: {"fields": dict(e.fields), "optional": sorted(e.optional),
                                    "actor": e.actor, "reveal": e.reveal, "doc": e.doc,
                                    "phases": sorted(e.phases) if e.phases is not None else None,
                                    "forms": [list(f) for f in e.forms]}
                             for name, e in g.events.items()},
                  "rulings": [{"id": r.id, "text": r.text, "option": r.option or None}
                              for r in g.rulebook.rulings],
                  "notation": g.notation_help, "text": g.rules()})
        return
    out(g.rules().rstrip())


# --------------------------------------------------------------------------------------------
# Starting and playing


def _parse_player(text: str) -> Player:
    from referee.engine import Player

    name, _, seat = text_arg(text, "--player").partition(":")
    return Player(name.strip(), seat.strip() or None)


def _parse_options(game_id: str, pairs: list[str]) -> dict[str, Any]:
    from referee.engine import load_game

    game = load_game(game_id)
    specs = {o.name: o for o in game.options}
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = text_arg(pair, "--option").partition("=")
        if not sep:
            raise UsageError(f"--option {pair!r}: write it as KEY=VALUE")
        spec = specs.get(key.strip())
        if spec is None:
            raise UsageError(f"{game.id} has no option {key.strip()!r}; its options are: "
                             f"{', '.join(specs) or 'none'}")
        options[spec.name] = spec.parse(value)
    return options


@app.command()
def new(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="The game id (see `referee games`)."),
    player: List[str] = typer.Option(..., "--player", "-p", metavar="NAME[:SEAT]",
                                     help="A player in seat order, with an optional seat "
                                          "(e.g. Ann:Horse). Repeat for each player."),
    option: List[str] = typer.Option([], "--option", "-o", metavar="K=V",
                                     help="A ruling or variant (see `referee rules GAME`)."),
    shuffle: bool = typer.Option(False, "--shuffle",
                                 help="The tool shuffles a virtual pile: draws need no card."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for --shuffle (implies it)."),
) -> None:
    """Start a new game log."""
    from referee import session

    chosen = seed is not None  # a seed typed at the table is no secret; a drawn one is
    if shuffle and seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    path = log_path(ctx)
    table = session.new_game(path, game, [_parse_player(p) for p in player],
                             _parse_options(game, option), seed)
    who = ", ".join(clean_line(p.name) + (f" ({p.seat})" if p.seat else "")
                    for p in table.log.players)
    out(f"New {table.game.title} in {path}: {who}.")
    if chosen:
        out(f"Virtual pile shuffled with seed {seed}.")
    elif seed is not None:  # whoever knows the seed knows every hidden card: it stays in the log
        out("Virtual pile shuffled; its seed is kept in the log only.")
    _print_next(table)


def _print_next(table: Any) -> None:
    if table.finished:
        out("The game is over: `referee scoresheet` prints the sheet.")
        return
    turn = table.turn
    who = "The table" if turn.table else " or ".join(clean_line(p) for p in turn.players)
    out(f"Next: {who} - {clean_line(turn.prompt)}")


def _turn_json(table: Any) -> dict[str, Any]:
    turn = table.turn
    return {"to_act": list(turn.players), "phase": table.phase, "prompt": turn.prompt,
            "table": turn.table}


@app.command()
def play(
    ctx: typer.Context,
    move: List[str] = typer.Argument(..., help="The move, e.g. `draw Pig Army 3`."),
    as_name: Optional[str] = typer.Option(None, "--as", metavar="NAME",
                                          help="Who makes the move (default: whoever is to act)."),
    note: Optional[str] = typer.Option(None, "--note", help="A free-text note kept in the log."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Check a move against the rules and record it in the log."""
    from referee import session

    path, text = log_path(ctx), text_arg(" ".join(move), "the move")
    as_name = text_arg(as_name, "--as") if as_name is not None else None
    note = text_arg(note, "--note") if note is not None else None
    try:
        played = session.play(path, text, as_name, note)
    except session.SecretNeeded:
        played = session.play(path, text, as_name, note, _ask_secret())
    if as_json:
        turn = played.after.turn
        out_json({"seq": len(played.after.log.entries),
                  "event": played.before.game.table_record(played.before.state, played.event),
                  "move": played.before.game.table_text(played.before.state, played.event),
                  "notices": [n.message for n in played.notices],
                  "finished": played.after.finished,
                  "receipt": played.receipt,
                  "next": {"players": list(turn.players), "phase": played.after.phase,
                           "prompt": turn.prompt, "table": turn.table}})
        return
    for line in played.lines:
        out(clean(line))
    if played.receipt:
        err(f"Your receipt: {played.receipt}  (write it on your slip: it opens your seal at the "
            "end, and is shown only now)")
    for notice in played.notices:
        out(f"NOTICE ({notice.rule or notice.code}): {clean(notice.message)}")
    _print_next(played.after)


@app.command()
def options(
    ctx: typer.Context,
    prefix: Optional[List[str]] = typer.Argument(None, help="Only moves starting with this text "
                                                            "(e.g. `trade Stag`)."),
    for_name: Optional[str] = typer.Option(None, "--for", metavar="NAME",
                                           help="The moves of this player, as they see them: "
                                                "with their own hand (show it to them only)."),
    show_all: bool = typer.Option(False, "--all", help="List every move, never fold."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """The legal moves now, in exactly the notation `play` accepts."""
    from referee import session

    table = session.load(log_path(ctx))
    player = table.player(for_name) if for_name else None
    choices = table.choices(player, own=player is not None)
    lines, note = choices.lines, choices.note
    if prefix:
        wanted = " ".join(prefix).casefold()
        lines = [line for line in lines if line.casefold().startswith(wanted)]
    turn = table.turn
    if as_json:
        out_json({**_turn_json(table),
                  "moves": choices.texts() if show_all or not prefix else lines, "lines": lines,
                  "note": note})
        return
    if table.finished:
        out("The game is over: no moves.")
        return
    if player is not None and player not in turn.players and not turn.table:
        out(f"{clean_line(player)} has no move now: {' or '.join(turn.players)} must act "
            f"({turn.prompt}).")
        return
    who = "The table" if turn.table else " or ".join(clean_line(p) for p in turn.players)
    out(f"{who} - {clean_line(turn.prompt)}:")
    for line in lines if show_all or len(lines) <= OPTIONS_FOLD else _fold(lines):
        out(f"  {clean(line)}")
    if note:
        out(note)


def _fold(lines: list[str]) -> list[str]:
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


@app.command()
def status(ctx: typer.Context,
           for_name: Optional[str] = typer.Option(None, "--for", metavar="NAME",
                                                  help="The board as this player sees it: with "
                                                       "their own hand (show it to them only)."),
           as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """The board as it stands and who acts next."""
    from referee import session

    table = session.load(log_path(ctx))
    board = table.board(table.player(for_name) if for_name else None)
    if as_json:
        out_json({"game": table.game.id, "events": len(table.log.entries),
                  "finished": table.finished, **_turn_json(table), "board": board,
                  "inventory": table.inventory()})
        return
    out(f"{table.game.title} - {len(table.log.entries)} event(s) in {log_path(ctx)}")
    out(board)


@app.command()
def score(ctx: typer.Context,
          as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """The scores as they stand."""
    from referee import scoresheet as sheets
    from referee import session

    sheet = session.load(log_path(ctx)).score()
    if as_json:
        data = sheets.as_dict(sheet)
        out_json({k: data[k] for k in ("game", "finished", "winners", "players", "outcome")})
        return
    out(sheets.render_text(sheet).rstrip())


@app.command()
def history(ctx: typer.Context,
            as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """Every event so far, in notation."""
    from referee import session

    rows = session.load(log_path(ctx)).history()
    if as_json:
        out_json([{"seq": e.seq, "by": e.event.by, "move": text, "at": e.at, "note": e.note}
                  for e, text in rows])
        return
    for entry, text in rows:
        who = clean_line(entry.event.by) if entry.event.by else "(table)"
        note = f"   # {clean_line(entry.note)}" if entry.note else ""
        out(f"{entry.seq:>4}  {who:<10} {clean_line(text)}{note}")


@app.command()
def undo(ctx: typer.Context,
         force: bool = typer.Option(False, "--force",
                                    help="Also retract a reveal (a card everyone has seen)."),
         ) -> None:
    """Retract the last event (it is kept in the log under [[retracted]])."""
    from referee import session

    undone = session.undo(log_path(ctx), force)
    out(f"Retracted event {undone.entry.seq}: {clean_line(undone.text)}")
    _print_next(undone.table)


# --------------------------------------------------------------------------------------------
# Scoresheets, validation, simulation, demo


@app.command()
def scoresheet(
    ctx: typer.Context,
    fmt: str = typer.Option("text", "--format", "-f", metavar="FORMAT",
                            help="text, markdown, html, csv or json."),
    blank: Optional[str] = typer.Option(None, "--blank", metavar="GAME",
                                        help="A blank printable sheet for GAME (no log needed)."),
    output: Optional[Path] = typer.Option(None, "--output", "-O", metavar="FILE", readable=False,
                                          help="Write to FILE instead of stdout."),
) -> None:
    """The end-of-game scoresheet (or a blank one to print)."""
    from referee import scoresheet as sheets

    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt!r}: choose one of {', '.join(FORMATS)}")
    if blank:
        from referee.engine import load_game

        sheet = load_game(blank).blank_scoresheet()
    else:
        from referee import session

        sheet = session.load(log_path(ctx)).score()
    text = sheets.render(sheet, fmt)
    if output is None:
        out(text, nl=False)
        return
    from referee import files

    files.replace(output, text.encode("utf-8"), "the scoresheet", streams=True)
    err(f"Wrote {output}")


@app.command()
def check(
    logs: List[Path] = typer.Argument(..., metavar="LOG...", readable=False,
                                      help="The logs to validate."),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first finding."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per log."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Check files in N processes."),
) -> None:
    """Replay logs and report every finding: file, event, TOML line, code, message."""
    from referee.check import check_files, exit_status

    reports = check_files(logs, strict=strict, jobs=jobs)
    if as_json:
        out_json([r.as_dict() for r in reports])
    else:
        for report in reports:
            if report.ok:
                state = "finished" if report.finished else "in progress"
                out(f"{clean_line(report.file)}: ok ({report.game}, {report.events} events, "
                    f"{state})")
            for f in report.findings:
                where = ":".join(str(x) for x in (report.file, f.event or "-", f.line or "-"))
                rule = f" [{f.rule}]" if f.rule else ""
                out(f"{clean_line(where)}: {f.code}{rule}: {clean_line(f.message)}")
        bad = sum(not r.ok for r in reports)
        err(f"{len(reports)} log(s) checked, {bad} with findings")
    raise typer.Exit(exit_status(reports))


@app.command()
def simulate(
    game: str = typer.Argument(..., help="The game id."),
    count: int = typer.Option(100, "--games", "-n", min=1, help="How many games."),
    seed: int = typer.Option(0, "--seed", help="Seed for the whole run (reproducible)."),
    players: Optional[int] = typer.Option(None, "--players", help="Players per game."),
    save: Optional[Path] = typer.Option(None, "--save", metavar="DIR", readable=False,
                                        help="Write each game's log into DIR."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Play random legal games (for tests, demos and speed)."""
    from referee.simulate import simulate as run

    summary = run(game, count, seed, players, save)
    if as_json:
        out_json(summary.as_dict())
        return
    data = summary.as_dict()
    out(f"{data['games']} {game} game(s), seed {seed}: {data['finished']} finished, "
        f"{data['events']} events in {data['seconds']} s ({data['games_per_second']} games/s)")
    for name, wins in sorted(summary.winners.items()):
        out(f"  {name}: {wins} win(s)")


@app.command()
def demo(
    game: str = typer.Argument("kings-ear", help="The game whose bundled example to replay."),
    delay: float = typer.Option(0.0, "--delay", min=0.0, help="Seconds to pause between moves."),
) -> None:
    """Replay a bundled example game move by move, then print its scoresheet."""
    from referee import scoresheet as sheets
    from referee import session

    replayed = session.Demo(game)
    table = replayed.table
    names = ", ".join(f"{p.name} ({p.seat})" if p.seat else p.name for p in table.players)
    out(f"{table.game.title}: a bundled example game with {names}.")
    out("Each line is one `referee play ...` at the table.\n")
    for move in replayed.moves():
        for index, line in enumerate(move.lines):
            out(f"{move.seq:>4}  {clean(line)}" if index == 0 else f"        {clean(line)}")
        if delay:
            time.sleep(delay)
    out("")
    out(clean(replayed.table.board()))
    out("")
    out(sheets.render_text(replayed.table.score()).rstrip())


def _ask_secret() -> str:
    """A secret typed at the table without echo (or read from a pipe), never shown or stored."""
    if sys.stdin is not None and sys.stdin.isatty():
        import getpass

        return getpass.getpass("Secret (not shown): ")
    return sys.stdin.readline().rstrip("\n") if sys.stdin is not None else ""


# --------------------------------------------------------------------------------------------
# Entry point


def _report(exc: RefereeError) -> None:
    err(f"referee: {clean(exc.message)}")
    rule = getattr(exc, "rule", None)
    if rule:
        err(f"  rule: {clean_line(rule)}")
    if exc.hint:
        err(f"  hint: {clean(exc.hint)}")
    suggestions = getattr(exc, "suggestions", ())
    if suggestions:
        err("  closest legal moves: " + " | ".join(clean_line(s) for s in suggestions))


Kinds = tuple[type[BaseException], ...]


def _click_exceptions() -> tuple[Kinds, Kinds, Kinds]:
    """(exit, usage/click error, abort) exception classes: Typer >= 0.16 vendors its own click,
    older releases use click itself; catch whichever are present."""
    exits: list[type[BaseException]] = [typer.Exit]
    errors: list[type[BaseException]] = []
    aborts: list[type[BaseException]] = [typer.Abort]
    try:
        from typer._click import (  # type: ignore[import-not-found,unused-ignore]
            exceptions as vendored,
        )

        errors.append(vendored.ClickException)
    except ImportError:  # pragma: no cover - older Typer
        pass
    try:
        import click  # type: ignore[import-not-found]

        exits.append(click.exceptions.Exit)
        errors.append(click.ClickException)
        aborts.append(click.exceptions.Abort)
    except ImportError:  # pragma: no cover - Typer without click
        pass
    return tuple(exits), tuple(errors), tuple(aborts)


def _exit_code(exc: BaseException) -> int:
    code = getattr(exc, "exit_code", EXIT_OK)
    return code if isinstance(code, int) else EXIT_OK


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the app and turn every failure into a message and exit status."""
    exits, click_errors, aborts = _click_exceptions()
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show a character gets \x..
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        status = app(args=argv, prog_name="referee", standalone_mode=False)
        status = status if isinstance(status, int) else EXIT_OK
    except exits as exc:
        status = _exit_code(exc)
    except click_errors as exc:
        shown: Any = exc  # a click exception: it knows how to show itself, raw; neutralise it
        text = io.StringIO()
        shown.show(file=text)
        err(text.getvalue().rstrip("\n"))
        status = _exit_code(exc) or EXIT_USAGE
    except aborts + (KeyboardInterrupt,):
        err("referee: interrupted")
        status = 130
    except RefereeError as exc:
        _report(exc)
        status = exc.exit_status
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): not an error worth a message.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        status = EXIT_OK
    except Exception as exc:  # noqa: BLE001 - the last line of defence against a traceback
        err(f"referee: internal error: {type(exc).__name__}: {clean_line(exc)}")
        err("  this is a bug in referee; please report it with the command and the log file")
        if os.environ.get("REFEREE_DEBUG"):
            raise
        status = EXIT_INTERNAL
    sys.exit(status)


if __name__ == "__main__":  # pragma: no cover
    main()
