"""The `referee` command line: argument parsing and printing only.

Every rule lives in `referee.games`, every file format in `referee.log`, every table in
`referee.scoresheet`; this module turns their answers into text. Data goes to stdout, messages to
stderr; errors end with the documented exit status (see man/referee.1), never a traceback.
"""

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, List, Optional

import typer

from referee import __version__, cliexit
from referee.clicomplete import (
    FORMATS,
    PAPERS,
    complete_export_format,
    complete_format,
    complete_game,
    complete_move,
    complete_option,
    complete_paper,
    complete_player,
)
from referee.clitext import (
    Pacer,
    echo,
    err,
    fold,
    folded,
    for_eyes_of,
    lit,
    next_json,
    on_terminal,
    out,
    out_folded,
    out_json,
    paged,
    print_next,
    print_notices,
    refusal_lines,
    terminal,
    turn_json,
)
from referee.errors import EXIT_OK, LogMissing, UsageError
from referee.textsafe import clean, clean_line, json_text

if TYPE_CHECKING:
    from referee.engine import Player

CONTEXT = {"help_option_names": ["-h", "--help"]}
app = typer.Typer(
    name="referee",
    help="Referee and score keeper for tabletop games played with physical copies.\n\n"
         "Record each move with `referee play`; the log (TOML) is the only truth.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings=CONTEXT,
)

OPTIONS_FOLD = 40  # more legal moves than this are folded into groups (see `options --all`)
STATUS_SCHEMA = "referee-status/1"  # the version of `status --json`


# Every byte `referee` prints goes through `out`, `err` and `out_json`: text from a log or a
# command line is neutralised here once (referee.textsafe), whatever the command forgot.


def log_path(ctx: typer.Context) -> Path:
    path: Path = ctx.obj["log"]
    return path


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
    no_pager: bool = typer.Option(False, "--no-pager",
                                  help="Never page output taller than the terminal."),
) -> None:
    ctx.obj = {"log": log or Path("game.toml"), "pager": not no_pager}


# --------------------------------------------------------------------------------------------
# Shell completion: game ids, option names, formats, players and the legal moves of the log.
# Each runs only when the shell asks; none may fail loudly (a broken log completes nothing).


# --------------------------------------------------------------------------------------------
# Games and rules


@app.command()
def games(as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """List the games, their player counts and options."""
    from referee.engine import available_game_ids, load_game

    found = [load_game(gid) for gid in available_game_ids()]
    if as_json:
        out_json([{"id": g.id, "title": g.title, "players": [g.min_players, g.max_players],
                   "options": g.new_defaults()} for g in found])
        return
    import textwrap

    for g in found:  # one line per game, its options below it, all within 80 columns
        out(f"{g.id:<20} {g.title:<24} {g.min_players}-{g.max_players} players")
        opts = ", ".join(f"{k}={_show_value(v)}" for k, v in g.new_defaults().items()) or "none"
        out(textwrap.fill(opts, 80, initial_indent="  options: ", subsequent_indent=" " * 11,
                          break_long_words=False, break_on_hyphens=False))


def _show_value(value: Any) -> str:
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


@app.command()
def rules(ctx: typer.Context,
          game: str = typer.Argument(..., help="The game id (see `referee games`).",
                                     autocompletion=complete_game),
          as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """The rules summary, the table rulings in force by default, and the notation."""
    from referee.engine import load_game

    g = load_game(game)
    if as_json:
        defaults = g.new_defaults()
        out_json({"id": g.id, "title": g.title, "players": [g.min_players, g.max_players],
                  "options": [{"name": o.name, "default": defaults[o.name], "kind": o.kind,
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
    with paged(ctx):
        width = min(96, on_terminal())
        text = g.rules(width).rstrip()
        out(folded(text, width) if width else text)


# --------------------------------------------------------------------------------------------
# Starting and playing


def _parse_player(text: str) -> "Player":
    from referee.engine import Player

    name, _, seat = text.partition(":")
    return Player(name.strip(), seat.strip() or None)


def _parse_options(game_id: str, pairs: list[str]) -> dict[str, Any]:
    from referee.engine import load_game

    game = load_game(game_id)
    specs = game.option_specs()
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(f"--option {pair!r}: write it as KEY=VALUE")
        spec = specs.get(key.strip())
        if spec is None:
            raise UsageError(f"{game.id} has no option {key.strip()!r}; its options are: "
                             f"{', '.join(specs) or 'none'}")
        options[spec.name] = spec.parse(value)
    return options


SEED_BITS = 128  # a drawn seed is the key to every hidden card: too many to try them all


@app.command()
def new(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="The game id (see `referee games`).",
                               autocompletion=complete_game),
    player: List[str] = typer.Option(..., "--player", "-p", metavar="NAME[:SEAT]",
                                     help="A player in seat order, with an optional seat "
                                          "(e.g. Ann:Horse). Repeat for each player."),
    option: List[str] = typer.Option([], "--option", "-o", metavar="K=V",
                                     help="A ruling or variant (see `referee rules GAME`).",
                                     autocompletion=complete_option),
    shuffle: bool = typer.Option(False, "--shuffle",
                                 help="The tool shuffles a virtual pile: draws need no card."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for --shuffle (implies it)."),
    components: Optional[Path] = typer.Option(
        None, "--components", metavar="FILE",
        help="The game's components file (see `referee components GAME`); its data is copied "
             "into the log."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Start a new game log."""
    from referee import session

    chosen = seed is not None  # a seed typed at the table is no secret; a drawn one is
    if shuffle and seed is None:
        import secrets

        seed = secrets.randbits(SEED_BITS)
    path = log_path(ctx)
    table = session.new_game(path, game, [_parse_player(p) for p in player],
                             _parse_options(game, option), seed,
                             _read_components(components) if components else None)
    if as_json:
        out_json({"log": str(path), "game": table.game.id, "title": table.game.title,
                  "players": [{"name": p.name, "seat": p.seat} for p in table.players],
                  "options": table.setup.options, "seed": seed if chosen else None,
                  "next": next_json(table)})
        return
    who = ", ".join(clean_line(p.name) + (f" ({p.seat})" if p.seat else "")
                    for p in table.log.players)
    out(f"New {table.game.title} in {path}: {who}.")
    for note in table.game.new_notes(table.setup.options):
        out(note)
    uses = table.game.seed_use[:1].upper() + table.game.seed_use[1:]
    if chosen:
        out(f"{uses}, with seed {seed}.")
    elif seed is not None:  # whoever knows the seed knows every hidden card: it stays in the log
        out(f"{uses}; the seed is kept in the log only.")
    print_next(table)


def _read_components(path: Path, what: str = "components file") -> tuple[str, str]:
    """A components file (or another `what`) as (name, text), or a usage error naming it: read
    as a log is (a regular file only, opened without waiting on a FIFO, at most 4 MiB read)."""
    from referee.files import read_regular
    from referee.log import MAX_BYTES

    if not path.exists():
        raise UsageError(f"{path}: no such file")
    try:
        data = read_regular(path, MAX_BYTES + 1, what.rpartition(" ")[0])
    except LogMissing as exc:
        raise UsageError(exc.message) from None
    if len(data) > MAX_BYTES:
        raise UsageError(f"{path}: larger than {MAX_BYTES // (1024 * 1024)} MiB; too large "
                         f"for a {what}")
    try:
        return path.name, data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None


@app.command()
def components(game: str = typer.Argument(..., help="The game id (see `referee games`)."),
               template: bool = typer.Option(False, "--template",
                                             help="An empty file for a group to complete "
                                                  "from its own box."),
               fill: Optional[Path] = typer.Option(None, "--fill", metavar="FILE",
                                                   help="Ask for the box's values one at a "
                                                        "time, saving FILE after each answer."),
               ) -> None:
    """Print the game's components file as shipped (or a template to fill in)."""
    from referee.engine import load_game

    found = load_game(game)
    if fill is not None:
        if found.id != "kingmaker":
            raise UsageError(f"{found.title} has no components file to fill (Kingmaker has)")
        _fill_components(fill)
        return
    out(found.components_text(template), nl=False)


def _fill_components(path: Path) -> None:
    """`components kingmaker --fill FILE`: one question at a time in the box's order, FILE
    saved (atomically) after each answer; Ctrl-C or the end of input stops with all kept."""
    from referee import session

    if sys.stdin is None:  # `<&-`: input() would fail on its first question
        raise UsageError("--fill asks its questions on standard input, and it is closed")
    if path.exists() and not path.is_file():  # a FIFO would hang the read, then be replaced
        raise UsageError(f"{path}: not a regular file; --fill reads and saves a file")
    box = session.fill_start(path, _read_components(path) if path.exists() else None)
    if not path.exists():
        session.fill_save(path, box)
        err(f"{path}: started from the shipped file (what is known of the 1974 box)")
    closed: set[str] = set()
    try:
        while True:
            pending = session.fill_questions(box, frozenset(closed))
            if not pending:
                break
            question = pending[0]
            left = session.fill_remaining(box)
            answer = input(f"[{left} left] {clean_line(question.text)}: ")  # names from FILE
            if not question.key and not answer.strip():
                closed.add(question.section)
                continue
            try:
                box = session.fill_answer(box, question, answer)
            except session.BadAnswer as exc:
                err(f"  {clean_line(exc.message)}")
                continue
            session.fill_save(path, box)
    except (KeyboardInterrupt, EOFError):
        err("")
        err(f"Stopped: every answer is saved in {path}; the same command goes on from here "
            f"({session.fill_remaining(box)} values left).")
        return
    err(f"Done: {path} has every value asked. Start a game with it: "
        f"referee new kingmaker --components {path} -p NAME ...")


@app.command()
def play(
    ctx: typer.Context,
    move: List[str] = typer.Argument(..., help="The move, e.g. `draw Pig Army 3`.",
                                     autocompletion=complete_move),
    as_name: Optional[str] = typer.Option(None, "--as", metavar="NAME",
                                          help="Who makes the move (default: whoever is to act).",
                                          autocompletion=complete_player),
    note: Optional[str] = typer.Option(None, "--note", help="A free-text note kept in the log."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Check a move against the rules and record it in the log."""
    from referee import plainplay  # the same move a plain `play` makes without Typer

    plainplay.play_move(plainplay.PlainPlay(log_path(ctx), tuple(move), as_name, note, as_json))


@app.command()
def table(ctx: typer.Context) -> None:
    """The whole game as one session: each line a move (Tab completes it) or a command."""
    from referee.tableline import run

    raise typer.Exit(run(log_path(ctx)))


@app.command()
def declare(
    ctx: typer.Context,
    file: Optional[str] = typer.Argument(None, metavar="[FILE]",
                                         help="The declarations, one a line (default, or `-`: "
                                              "standard input)."),
) -> None:
    """Record several `declare` lines at once (Kingmaker's printed values, R-2), as one write."""
    from referee import session

    path = log_path(ctx)
    last: list[str] = []  # typed: the lines refused and not typed again, said at the end
    if file in (None, "-") and sys.stdin is not None and sys.stdin.isatty():
        from referee import declareline  # typed: each line checked as it is entered

        declared, last = declareline.declare_typed(path)
    else:
        declared = session.declare(path, _declaration_text(file).splitlines())
    for line in declared.lines:
        out(clean(line))
    print_next(declared.after)
    for line in last:
        err(line)


def _declaration_text(file: Optional[str]) -> str:
    if file is not None and file != "-":
        return _read_components(Path(file), "declarations file")[1]
    if sys.stdin is None:
        raise UsageError("no declarations: give a FILE, or the lines on standard input")
    from referee.log import MAX_BYTES

    try:
        text = sys.stdin.read(MAX_BYTES + 1)  # bounded: `< /dev/zero` has no end
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"the declarations could not be read from standard input ({exc})",
                         code="no-lines") from None
    if len(text) > MAX_BYTES:
        raise UsageError("standard input: too large for a declarations file", code="no-lines")
    if any("\ud800" <= char <= "\udfff" for char in text):  # bytes that are not UTF-8
        raise UsageError("standard input: the declarations are not valid UTF-8 text",
                         code="not-utf-8")
    return text


@app.command()
def options(
    ctx: typer.Context,
    prefix: Optional[List[str]] = typer.Argument(None, help="Only moves starting with this text "
                                                            "(e.g. `trade Stag`)."),
    for_name: Optional[str] = typer.Option(None, "--for", metavar="NAME",
                                           help="The moves of this player, as they see them: "
                                                "with their own hand (show it to them only).",
                                           autocompletion=complete_player),
    show_all: bool = typer.Option(False, "--all", help="List every move, one per line, never "
                                                       "folded (streamed: there may be many)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """The legal moves now, in exactly the notation `play` accepts."""
    from referee import session

    table = session.load(log_path(ctx))
    player = table.player(for_name) if for_name else None
    wanted = " ".join(prefix or []).casefold()
    if show_all:
        _every_move(table, player, wanted, as_json)
        return
    listing = table.listing(player, own=player is not None)
    choices = table.choices(player, player is not None, listing)
    lines, note = choices.lines, choices.note
    if wanted:
        lines = [line for line in lines if line.casefold().startswith(wanted)]
    turn = table.turn
    if as_json:
        _data_for(player, {**turn_json(table),
                           "count": table.count_moves(player, player is not None, listing),
                           "moves": choices.texts() if not wanted else lines, "lines": lines,
                           "note": note})
        return
    if table.finished:
        out("The game is over: no moves.")
        return
    if player is not None and player not in turn.players and not turn.table:
        shown = [f"{clean_line(player)} has no move now: {' or '.join(turn.players)} must act "
                 f"({turn.prompt})."]
    else:
        who = "The table" if turn.table else " or ".join(clean_line(p) for p in turn.players)
        shown = [f"{who} - {clean_line(turn.prompt)}:"]
        shown += [f"  {line}" for line in (lines if len(lines) <= OPTIONS_FOLD else fold(lines))]
    if note:  # e.g. the hand the tool dealt them, which they may look at any time
        shown.append(note)
    if player is not None:  # with their own hand: for their eyes only
        for_eyes_of(player, "\n".join(shown))
        return
    with paged(ctx):
        for line in shown:
            out(line)


def _data_for(player: str | None, data: Any) -> None:
    """A --json document; with `--for NAME` (their own hand is in it) for NAME's eyes only:
    on a terminal behind the hand-over screen, as the text is."""
    if player is None:
        out_json(data)
    else:
        for_eyes_of(player, json_text(data), plain=echo)


def _every_move(table: Any, player: str | None, wanted: str, as_json: bool) -> None:
    """`options --all`: every legal move, one per line, streamed as it is found; with `--for
    NAME` on a terminal, gathered and handed over to NAME (their own hand is in the moves)."""
    own = player is not None  # `--for NAME`: as NAME sees the game, their own hand too
    chunks = _every_move_text(table, player, wanted, as_json)
    if own and on_terminal():
        for_eyes_of(str(player), "".join(chunks).rstrip("\n"), plain=echo)
        return
    for chunk in chunks:
        echo(chunk, nl=False)


def _every_move_text(table: Any, player: str | None, wanted: str,
                     as_json: bool) -> Iterator[str]:
    own = player is not None
    listing = table.listing(player, own)
    moves = (text for text in table.every_move_text(player, own, listing)
             if text.casefold().startswith(wanted))
    if as_json:
        count = table.count_moves(player, own, listing)
        head = json_text({**turn_json(table), "count": count}, None)
        yield head[:-1] + ', "moves": ['
        for index, text in enumerate(moves):
            yield ("" if index == 0 else ", ") + json_text(text, None)
        yield "]}\n"
        return
    for text in moves:
        yield clean(text) + "\n"


@app.command()
def status(ctx: typer.Context,
           for_name: Optional[str] = typer.Option(None, "--for", metavar="NAME",
                                                  help="The board as this player sees it: with "
                                                       "their own hand (show it to them only)."),
           full: bool = typer.Option(False, "--full", help="The whole board (on a terminal, "
                                                             "status shows a compact one)."),
           as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """The board as it stands and who acts next (on a terminal, a board that fits 80x24)."""
    from referee import session

    table = session.load(log_path(ctx))
    who = table.player(for_name) if for_name else None
    width = on_terminal()
    compact = bool(width) and not full and not as_json
    board = table.compact_board(who) if compact else table.board(who)
    if as_json:
        _data_for(who, {"schema": STATUS_SCHEMA, "game": table.game.id, "title": table.game.title,
                        "log": str(log_path(ctx)), "events": len(table.log.entries),
                        "finished": table.finished, **turn_json(table),
                        "board": table.board_data(who), "text": board,
                        "inventory": table.inventory()})
        return
    head = f"{table.game.title} - {len(table.log.entries)} event(s) in {log_path(ctx)}"
    text = folded(clean(board), terminal()[0])
    if who is not None:  # their own hand is in it: for their eyes only
        for_eyes_of(who, f"{head} - as {clean_line(who)} sees it\n{text}")
        return
    text = lit(text, table.finished)  # asked of the terminal, before a pager holds the text
    with paged(ctx):
        out(head)
        echo(text)


@app.command()
def score(ctx: typer.Context,
          as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """The scores as they stand."""
    from referee import scoresheet, session, sheets

    sheet = session.load(log_path(ctx)).score()
    if as_json:
        data = scoresheet.as_dict(sheet)
        out_json({k: data[k] for k in ("game", "finished", "winners", "players", "outcome")})
        return
    out(sheets.render_text(sheet, *terminal()).rstrip())


@app.command()
def history(ctx: typer.Context,
            trail: bool = typer.Option(False, "--corrections",
                                       help="List the corrections made to the log instead."),
            as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """Every event so far, in notation (corrected events marked)."""
    from referee import corrections, session

    table = session.load(log_path(ctx))
    if trail:
        _trail(corrections.trail(table), as_json)
        return
    rows = table.history()
    marks = corrections.marks(table.log) if table.log.corrections else {}
    if as_json:
        out_json([{"seq": row.entry.seq, "by": row.entry.event.by, "move": row.text,
                   "at": row.entry.at, "note": row.entry.note,
                   **({"remark": row.remark} if row.remark else {}),
                   **({"corrections": marks[row.entry.seq]} if row.entry.seq in marks else {})}
                  for row in rows])
        return
    width = terminal()[0]
    with paged(ctx):
        _history_lines(rows, marks, width)


def _history_lines(rows: Any, marks: dict[int, list[str]], width: int) -> None:
    from referee.screen import ljust

    if not rows:  # a new game: say so rather than print nothing
        out("No events yet: the game is set up and waits for its first move.")
    for row in rows:
        entry, text, remark = row.entry, row.text, row.remark
        who = clean_line(entry.event.by) if entry.event.by else "(table)"
        who = ljust(who, 10)  # in columns: a name in Chinese takes two a character
        said = f"   = {clean_line(remark)}" if remark else ""
        note = f"   # {clean_line(entry.note)}" if entry.note else ""
        fixed = f"   [{', '.join(marks[entry.seq])}]" if entry.seq in marks else ""
        out(folded(f"{entry.seq:>4}  {who} {clean_line(text)}{said}{note}{fixed}", width))
    if 0 in marks:
        out(f"      [{', '.join(marks[0])}]")


def _trail(lines: list[Any], as_json: bool) -> None:
    """`history --corrections`: each correction, what it changed, when, by whom and why."""
    if as_json:
        out_json([line.as_dict() for line in lines])
        return
    if not lines:
        out("No corrections: the log is as it was played.")
    width = terminal()[0]  # folded as `history` is, never cut in a word (L11)
    for line in lines:
        fix = line.correction
        what = {"change": f"{clean_line(line.old)} -> {clean_line(line.new)}",
                "insert": f"inserted {clean_line(line.new)}",
                "delete": f"deleted {clean_line(line.old)}"}[fix.kind]
        out(folded(f"({line.number}) event {fix.seq}: {what}", width))
        out(folded(f"    {fix.at:%Y-%m-%d %H:%M} by {clean_line(fix.by)}: {clean_line(fix.why)}",
                   width))


@app.command()
def correct(
    ctx: typer.Context,
    seq: int = typer.Argument(..., metavar="N", help="The event to correct (see `history`)."),
    move: Optional[List[str]] = typer.Argument(None, help="What event N becomes (or the move "
                                                          "--insert puts before it)."),
    why: str = typer.Option(..., "--why", metavar="TEXT", help="Why: kept in the log's trail."),
    as_name: Optional[str] = typer.Option(None, "--as", metavar="NAME",
                                          help="Who made the move (default: whoever was to act).",
                                          autocompletion=complete_player),
    insert: bool = typer.Option(False, "--insert", help="Put MOVE in before event N."),
    delete: bool = typer.Option(False, "--delete", help="Event N never happened: take it out."),
    also: Optional[List[str]] = typer.Option(None, "--also", metavar="'N MOVE'",
                                             help="Another correction applied together: "
                                                  "'N MOVE', 'N insert MOVE' or 'N delete'."),
    by: str = typer.Option(..., "--by", metavar="NAME",
                           help="Who makes the correction, kept in the trail (the director, a "
                                "player: not always whoever made the move)."),
    force: bool = typer.Option(False, "--force",
                               help="Also correct a reveal (a card everyone has seen)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    seen: Optional[str] = typer.Option(None, "--seen", hidden=True),  # `table`: the bytes it read
) -> None:
    """Fix an earlier event, replaying every later one; the original is kept in the trail."""
    from referee import corrections

    text = " ".join(move or [])  # every text argument is UTF-8: refuse_undecodable saw it
    fixes = [corrections.fix(seq, text, insert, delete, as_name)]
    fixes += [corrections.read_fix(spec) for spec in also or []]
    done = corrections.correct(log_path(ctx), fixes, why, by, force, seen)
    lines = sorted(corrections.trail(done.table)[-len(done.made):],
                   key=lambda line: line.correction.seq)
    if as_json:
        out_json({"corrections": [line.as_dict() for line in lines],
                  "notices": [n.message for n in done.notices],
                  "effects": done.effects.as_dict(),
                  "events": len(done.table.log.entries), "finished": done.table.finished,
                  "next": next_json(done.table)})
        return
    for line in lines:
        fix = line.correction
        what = {"change": f"now {clean_line(line.new)} (was {clean_line(line.old)})",
                "insert": f"inserted {clean_line(line.new)}",
                "delete": f"deleted {clean_line(line.old)}"}[fix.kind]
        out_folded(f"Corrected event {fix.seq}: {what}")
    out_folded("Every later event replays; the original stays in the log "
               f"({len(done.table.log.entries)} event(s) now).")
    for sentence in done.effects.said:  # folded at a terminal as a move's lines are
        out_folded(clean_line(sentence))
    print_notices(done.notices)
    print_next(done.table)


@app.command()
def undo(ctx: typer.Context,
         force: bool = typer.Option(False, "--force",
                                    help="Also retract a reveal (a card everyone has seen)."),
         as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
         ) -> None:
    """Retract the last event (it is kept in the log under [[retracted]])."""
    from referee import session

    undone = session.undo(log_path(ctx), force)
    if as_json:
        out_json({"retracted": {"seq": undone.entry.seq, "move": undone.text,
                                "event": undone.record},
                  "events": len(undone.table.log.entries), "finished": undone.table.finished,
                  "next": next_json(undone.table)})
        return
    out(f"Retracted event {undone.entry.seq}: {clean_line(undone.text)}")
    print_next(undone.table)


# --------------------------------------------------------------------------------------------
# Scoresheets, validation, simulation, demo


@app.command()
def scoresheet(
    ctx: typer.Context,
    fmt: str = typer.Option("text", "--format", "-f", metavar="FORMAT",
                            help="text, markdown, html, csv or json.",
                            autocompletion=complete_format),
    blank: Optional[str] = typer.Option(None, "--blank", metavar="GAME",
                                        help="A blank printable sheet for GAME (no log needed).",
                                        autocompletion=complete_game),
    place: Optional[str] = typer.Option(None, "--place", metavar="TEXT",
                                        help="Where the game was played (default: the log's "
                                             "place option)."),
    paper: str = typer.Option("a4", "--paper", metavar="SIZE",
                              help="The page size of the HTML sheet: a4 or letter.",
                              autocompletion=complete_paper),
    output: Optional[Path] = typer.Option(None, "--output", "-O", metavar="FILE", readable=False,
                                          help="Write to FILE instead of stdout."),
) -> None:
    """The end-of-game scoresheet (or a blank one to print)."""
    from referee import sheets

    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt!r}: choose one of {', '.join(FORMATS)}")
    if paper.lower() not in PAPERS:
        raise UsageError(f"--paper {paper!r}: choose one of {', '.join(PAPERS)}")
    if blank:
        from referee.engine import load_game

        sheet = load_game(blank).blank_scoresheet()
    else:
        from referee import session

        sheet = session.load(log_path(ctx)).score(place)
    if fmt == "html":
        text = sheets.render_html(sheet, paper.lower())
    elif fmt == "text":
        text = sheets.render_text(sheet, *(terminal() if output is None else (80, True)))
    else:
        text = sheets.render(sheet, fmt)
    _write(text, output)


def _write(text: str, output: Path | None) -> None:
    if output is None:
        out(text, nl=False)
        return
    from referee import files

    files.replace(output, text.encode("utf-8"), "the scoresheet", streams=True)
    err(f"Wrote {output}")


@app.command()
def export(
    ctx: typer.Context,
    fmt: str = typer.Option("bgstats", "--format", "-f", metavar="FORMAT",
                            help="bgstats (BG Stats' push-a-play JSON) or bgg (a BoardGameGeek "
                                 "play record).", autocompletion=complete_export_format),
    link: bool = typer.Option(False, "--link",
                              help="Print the BG Stats createPlay link instead of the JSON."),
    qr: bool = typer.Option(False, "--qr",
                            help="Print the BG Stats link as a QR code to scan with a phone."),
    bgg_id: Optional[int] = typer.Option(None, "--bgg-id", metavar="N", min=1,
                                         help="The game's BoardGameGeek id, if known."),
    place: Optional[str] = typer.Option(None, "--place", metavar="TEXT",
                                        help="Where the game was played (default: the log's "
                                             "place option)."),
    output: Optional[Path] = typer.Option(None, "--output", "-O", metavar="FILE", readable=False,
                                          help="Write to FILE instead of stdout."),
) -> None:
    """The play for BG Stats or BoardGameGeek, from a finished or stopped log."""
    from referee import export as plays
    from referee import session

    if fmt not in plays.FORMATS:
        raise UsageError(f"--format {fmt!r}: choose one of {', '.join(plays.FORMATS)}")
    if (link or qr) and fmt != "bgstats":
        option = "--qr" if qr else "--link"
        raise UsageError(f"{option} makes a BG Stats link: use it with --format bgstats")
    table = session.load(log_path(ctx))
    if not table.log.entries:
        raise UsageError("nothing to export: no move has been recorded in this log yet")
    sheet = table.score(place)
    if not sheet.finished:
        err("referee: the game is not finished: exported as it stands, marked as not finished")
    if fmt == "bgg":
        data = plays.bgg(sheet, bgg_id)
    else:
        data = plays.bgstats(sheet, bgg_id)
    if qr:
        _write_qr(plays.play_link(sheet, bgg_id), output)
        return
    text = plays.play_link(sheet, bgg_id) + "\n" if link else json_text(data) + "\n"
    _write(text, output)


def _write_qr(link: str, output: Path | None) -> None:
    """The link's QR code: a picture for `-O FILE.svg`/`.png`, else text blocks, but only
    where they fit: a code cut at the terminal's edge does not scan, so then a message says
    where to find one that does."""
    import shutil

    from referee import export as plays
    from referee import files

    if output is not None and output.suffix.lower() in plays.PICTURES:
        picture = plays.qr_picture(link, output.suffix.lower())
        files.replace(output, picture, "the QR code", streams=True)
        err(f"Wrote {output}")
        return
    width = plays.qr_width(link)
    columns = shutil.get_terminal_size((80, 24)).columns
    if output is None and width > columns:
        err(f"referee: this play's QR code is {width} columns wide and the terminal has "
            f"{columns}: it would not scan. Write it as a picture (referee export --qr -O "
            "play.svg, or play.png), scan the code on the HTML scoresheet (referee scoresheet "
            "-f html -O sheet.html), or widen the terminal.")
        return
    _write(plays.qr_text(link), output)


@app.command()
def check(
    logs: List[Path] = typer.Argument(..., metavar="LOG...", readable=False,
                                      help="The logs to validate; a folder stands for every "
                                           "*.toml file below it."),
    strict: bool = typer.Option(False, "--strict", help="Stop at the first finding."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per log."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Check files in N processes."),
) -> None:
    """Replay logs and report every finding: file, event, TOML line, code, message."""
    from referee.check import check_files, exit_status, log_paths

    paths = log_paths(logs)
    if not paths:
        raise UsageError(f"no logs to check: {', '.join(map(str, logs))} holds no *.toml file")
    reports = check_files(paths, strict=strict, jobs=jobs)
    if as_json:
        out_json([r.as_dict() for r in reports])
    else:
        for report in reports:
            if report.ok:
                state = "finished" if report.finished else "in progress"
                if report.stopped is not None:
                    state = f"stopped by the table: {clean_line(report.stopped)}"
                fixed = f", {report.corrections} correction(s)" if report.corrections else ""
                out(f"{clean_line(report.file)}: ok ({report.game}, {report.events} events, "
                    f"{state}{fixed})")
            for f in report.findings + report.notices:
                where = ":".join(str(x) for x in (report.file, f.event or "-", f.line or "-"))
                rule = f" [{f.rule}]" if f.rule else ""
                kind = "notice: " if f.kind == "notice" else ""
                out(f"{clean_line(where)}: {kind}{f.code}{rule}: {clean_line(f.message)}")
        bad = sum(not r.ok for r in reports)
        noticed = sum(len(r.notices) for r in reports)
        err(f"{len(reports)} log(s) checked, {bad} with findings"
            + (f", {noticed} notice(s)" if noticed else ""))
    raise typer.Exit(exit_status(reports))


@app.command()
def simulate(
    game: str = typer.Argument(..., help="The game id.", autocompletion=complete_game),
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
    game: str = typer.Argument("kings-ear", help="The game whose bundled example to replay.",
                               autocompletion=complete_game),
    delay: Optional[float] = typer.Option(None, "--delay", min=0.0,
                                          help="Seconds to pause between moves (instead of "
                                               "waiting for Enter on a terminal)."),
) -> None:
    """Replay a bundled example game move by move, then print its scoresheet.

    On a terminal it waits for Enter after each screenful and at the moments worth a look:
    an `options` listing, and a move the rules refuse."""
    from referee import sheets
    from referee import session

    replayed = session.Demo(game)
    table = replayed.table
    pace = Pacer(delay, _interactive())
    names = ", ".join(f"{p.name} ({p.seat})" if p.seat else p.name for p in table.players)
    pace.say(f"{table.game.title}: a bundled example game with {names}.",
             "Each numbered line is one `referee play ...` typed at the table.", "")
    for beat in replayed.beats():
        if isinstance(beat, session.DemoMove):
            pace.say(*(f"{beat.seq:>4}  {clean(line)}" if index == 0 else f"        {clean(line)}"
                       for index, line in enumerate(beat.lines)))
            pace.after_move()
        elif isinstance(beat, session.DemoOptions):
            pace.say("", "Someone is unsure what is allowed, and asks the referee:",
                     "      $ referee options",
                     f"      {beat.turn.who[:1].upper()}{beat.turn.who[1:]} - "
                     f"{clean_line(beat.turn.prompt)}:",
                     *(f"        {clean(line)}" for line in beat.lines),
                     *([f"      {clean(beat.note)}"] if beat.note else []), "")
            pace.stop()
        else:
            pace.say("", "Someone tries a move the rules do not allow:",
                     f"      $ referee play {clean_line(beat.text)}",
                     *(f"      {line}" for line in refusal_lines(beat.error)),
                     "      (refused: the log is left exactly as it was)", "")
            pace.stop()
    pace.say("", clean(replayed.table.board()), "")
    pace.say(*sheets.render_text(replayed.table.score(), *terminal()).rstrip().splitlines())
    pace.say("", f"Now a game of your own at your table (`referee rules {table.game.id}` has "
                 "the rules):", *(f"  {command}" for command in replayed.start_commands()),
             *([clean(table.game.start_note)] if table.game.start_note else []))


def _interactive() -> bool:
    """Paced on a terminal: both ends are a person."""
    return all(getattr(stream, "isatty", lambda: False)() for stream in (sys.stdin, sys.stdout))


# --------------------------------------------------------------------------------------------
# Entry point


def _app_for(argv: list[str]) -> typer.Typer:
    """The app with only the command `argv` names: Typer turns every registered command into a
    click command on each run, and `play` should pay for its own parameters only. `--help`
    without a command, completion and anything unexpected get the whole app."""
    words = iter(argv)
    name = None
    for word in words:
        if word in cliexit.GLOBAL_VALUES:
            next(words, None)
        elif not word.startswith("-"):
            name = word
            break
    chosen = [c for c in app.registered_commands
              if name and (c.name or getattr(c.callback, "__name__", "")) == name]
    if not chosen or any(key.endswith("_COMPLETE") for key in os.environ):
        return app
    single = typer.Typer(name="referee", add_completion=False, pretty_exceptions_enable=False,
                         rich_markup_mode=None, context_settings=CONTEXT)
    single.registered_callback = app.registered_callback
    single.registered_commands = chosen
    return single


def main(argv: list[str] | None = None, prog_name: str = "referee") -> None:
    """Console entry point: run the app and turn every failure into a message and exit status
    (referee.cliexit). `prog_name` is how usage messages name the program: `referee table`
    runs a line's command with none, so they say `correct -h`, the line to type there."""
    cliexit.prepare_streams()
    args = cliexit.hoist_log(sys.argv[1:] if argv is None else argv)
    if os.environ.get(cliexit.COMPLETE_VAR):
        cliexit.hoist_completion_log(os.environ)
    status = cliexit.guarded(lambda: _start(args, prog_name), cliexit.wants_json(args))
    cliexit.flush_stdout()
    sys.exit(status)


def _start(args: list[str], prog_name: str = "referee") -> int:
    """The command `args` names, or the completion script they ask for."""
    cliexit.refuse_undecodable(args)
    request = cliexit.completion_request(args)
    if request is not None:
        return cliexit.completion_script(*request)
    status = _app_for(args)(args=args, prog_name=prog_name, standalone_mode=False)
    return status if isinstance(status, int) else EXIT_OK


def run() -> None:
    """`python -m referee.cli`: `main`, then leave at once (see cliexit.leave)."""
    cliexit.leave(main)


if __name__ == "__main__":  # pragma: no cover
    run()
