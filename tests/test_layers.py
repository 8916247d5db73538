"""The core's layering (docs/design.md, "Layers"): imports go one way between the core's modules,
the CLI never reaches into a game, and no core module runs past 1,000 lines.

Imports are read with `ast`, every one of them: at the top, inside a function (the lazy imports
that keep start-up light) and under TYPE_CHECKING, since each is a dependency all the same."""

import ast
from pathlib import Path

import referee

PACKAGE = Path(referee.__file__).parent
CLI_MODULES = ("referee.cli", "referee.clitext", "referee.clicomplete", "referee.cliexit",
               "referee.table", "referee.tableline")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of `known` that `path` imports (`from X import Y` counts X, and X.Y when
    that is a module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {module for module in found if module in known and module != name}


def core_graph() -> dict[str, set[str]]:
    """Who imports whom among the core's modules (a game package is not the core)."""
    known = modules()
    core = {name: path for name, path in known.items() if not name.startswith("referee.games")}
    return {name: imported(name, path, known) & set(core) for name, path in core.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in order:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], order[other])
        if low[node] == order[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


# The circles left, each for a reason; a new one, or one grown, fails the test.
KNOWN = [
    # `referee table` runs the CLI's own read commands in-process (`status`, `options`...), and
    # the CLI's `table` and `declare` commands start it (`declare` at a terminal reads its lines
    # through the table's Terminal, with its history and its rule for what history keeps).
    ["referee.cli", "referee.declareline", "referee.table", "referee.tableline"],
    # `undo` may not take back an event the corrections' trail stands on (`_keep_trail`).
    ["referee.corrections", "referee.session"],
]


def test_the_core_imports_one_way():
    assert sorted(circles(core_graph())) == sorted(KNOWN)


def test_the_circle_check_sees_a_lazy_import_back():
    """The check itself: an import inside a function, one module back, is a circle."""
    graph = core_graph()
    assert "referee.rulebook" in graph["referee.engine"]
    graph["referee.rulebook"] = graph["referee.rulebook"] | {"referee.engine"}
    assert ["referee.engine", "referee.rulebook"] in circles(graph)
    graph = core_graph()
    graph["referee.scoresheet"] = graph["referee.scoresheet"] | {"referee.sheets.text"}
    assert ["referee.scoresheet", "referee.sheets.chart", "referee.sheets.text"] in circles(graph)


def test_the_layouts_sit_above_the_scoresheet_model():
    graph = core_graph()
    assert "referee.sheets.text" not in graph["referee.scoresheet"]
    assert "referee.scoresheet" in graph["referee.sheets.text"]
    assert "referee.engine" not in graph["referee.rulebook"]


def test_the_cli_never_talks_to_a_game():
    """cli.py and the table's modules ask `session` (or the declarations in `engine`), never a
    game's own modules."""
    known = modules()
    for name in CLI_MODULES:
        if name in known:
            games = {m for m in imported(name, known[name], known) if m.startswith("referee.games")}
            assert games == set(), name


def test_no_core_module_runs_past_a_thousand_lines():
    long = {name: len(path.read_text(encoding="utf-8").splitlines())
            for name, path in modules().items() if not name.startswith("referee.games")}
    assert {name: lines for name, lines in long.items() if lines > 1000} == {}


FORWARDED = {"phase": "rules", "to_act": "rules", "render": "texts", "compact": "texts",
             "board": "texts", "describe": "texts"}
# What the core passes on (Dwarf King's `describe` takes no formatted move: its own, kept).
ARGS = {**{name: ("state",) for name in FORWARDED},
        "describe": ("before", "event", "text", "after")}


def forwarders(path: Path) -> list[str]:
    """The methods of a game class that only hand their state to the function of the same name
    in the game's `rules` or `texts` module: what `Game.rules_module` and `texts_module` do."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and node.name in FORWARDED:
            body = [line for line in node.body if not isinstance(line, ast.Expr)]
            call = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
            if isinstance(call, ast.Call) and ast.unparse(call.func) == \
                    f"{FORWARDED[node.name]}.{node.name}" and len(call.args) == len(ARGS[node.name]):
                found.append(node.name)
        elif isinstance(node, ast.Assign) and ast.unparse(node).split(" = ")[0] in FORWARDED \
                and ast.unparse(node.value).startswith("staticmethod("):
            found.append(ast.unparse(node.targets[0]))
    return found


def test_the_games_forward_nothing_the_core_forwards_once():
    games = sorted(PACKAGE.glob("games/*/game.py"))
    assert len(games) == 5
    assert {path.parent.name: forwarders(path) for path in games} == \
        {path.parent.name: [] for path in games}


def test_the_core_answers_from_a_games_modules_as_the_game_did():
    from referee import replay
    from referee.engine import load_game
    from referee.games.kings_ear import rules, texts
    from referee.simulate import default_players, play_out, to_log

    game = load_game("kings-ear")
    assert game.rules_module is rules and game.texts_module is texts
    log = to_log(game, play_out(game, 3, default_players(game, 3)))
    steps = list(replay.steps(replay.from_log(log), log.entries, ""))
    assert len(steps) > 20
    for step in steps:
        state, before, event = step.after, step.before, step.event
        assert game.describe(before, event, state) == \
            texts.describe(before, event, game.format(before, event), state)
        assert game.phase(state) == rules.phase(state)
        assert game.to_act(state) == rules.to_act(state)
        assert game.render(state) == texts.render(state)
        assert game.compact(state) == texts.compact(state)
        assert game.board(state) == texts.board(state)
