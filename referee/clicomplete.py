"""Shell completion of `referee`: game ids, option names, formats, players and the legal moves
of the log. Each runs only when the shell asks; none may fail loudly (a broken log completes
nothing). The moves come from `session.Table.completions`, as the table's Tab offers them.
"""

import os
from pathlib import Path
from typing import Any

import typer

from referee.errors import RefereeError

FORMATS = ("text", "markdown", "html", "csv", "json")  # of `referee scoresheet`
PAPERS = ("a4", "letter")


def complete_game(incomplete: str) -> list[str]:
    from referee.engine import game_ids

    return [g for g in game_ids() if g.startswith(incomplete)]


def complete_format(incomplete: str) -> list[str]:
    return [f for f in FORMATS if f.startswith(incomplete)]


def complete_paper(incomplete: str) -> list[str]:
    return [p for p in PAPERS if p.startswith(incomplete)]


def complete_export_format(incomplete: str) -> list[str]:
    from referee.export import FORMATS as PLAY_FORMATS

    return [f for f in PLAY_FORMATS if f.startswith(incomplete)]


def complete_option(ctx: typer.Context, incomplete: str) -> list[str]:
    """`new GAME --option K=V`: the game's option names, then a value for those with choices."""
    from referee.engine import load_game

    game = ctx.params.get("game") or typed_game()
    try:
        specs = load_game(str(game)).option_specs()
    except RefereeError:
        return []
    name, sep, _ = incomplete.partition("=")
    if not sep:
        return [f"{n}=" for n in specs if n.startswith(name)]
    spec = specs.get(name)
    values = spec.choices if spec and spec.choices else \
        ("true", "false") if spec and spec.kind == "bool" else ()
    return [f"{name}={v}" for v in values if f"{name}={v}".startswith(incomplete)]


def _typed_words() -> list[str]:
    """The command line being completed, as the shell passed it (bash: COMP_WORDS; zsh, fish,
    PowerShell: _TYPER_COMPLETE_ARGS)."""
    import shlex

    text = os.environ.get("COMP_WORDS") or os.environ.get("_TYPER_COMPLETE_ARGS") or ""
    try:
        return shlex.split(text)
    except ValueError:  # an unclosed quote while typing
        return text.split()


def typed_game() -> str | None:
    """The game named after `new` on the command line being completed: Click leaves the
    argument unparsed while an option after it still waits for its value."""
    typed = _typed_words()
    if "new" not in typed:
        return None
    rest = iter(typed[typed.index("new") + 1:])
    for word in rest:
        if word in ("-p", "--player", "-o", "--option", "--seed", "-l", "--log"):
            next(rest, None)
        elif not word.startswith("-"):
            return word
    return None


def _completion_table(ctx: typer.Context) -> Any:
    """The game of the log the command line names, or None (missing, broken: no completion)."""
    from referee import session

    root = ctx.find_root()
    path = root.params.get("log") or os.environ.get("REFEREE_LOG") or "game.toml"
    try:
        return session.load(Path(path))
    except RefereeError:
        return None


def complete_player(ctx: typer.Context, incomplete: str) -> list[str]:
    table = _completion_table(ctx)
    names = [p.name for p in table.players] if table is not None else []
    return [n for n in names if n.casefold().startswith(incomplete.casefold())]


def complete_move(ctx: typer.Context, incomplete: str) -> list[str]:
    """`play ...`: the words that may come next in a legal move of the log."""
    table = _completion_table(ctx)
    if table is None or table.finished:
        return []
    player = None
    if ctx.params.get("as_name"):
        try:
            player = table.player(str(ctx.params["as_name"]))
        except RefereeError:
            return []
    return list(table.completions(player, [str(w) for w in ctx.params.get("move") or []],
                                  incomplete))
