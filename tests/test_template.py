"""Every game has the one shape of docs/adding-a-game.md: the same modules, no import cycles, every
cited rule in its rulebook, every declaration in its man page, every header checked before set-up.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from referee import manpage
from referee.check import check_file
from referee.engine import available_game_ids, load_game
from tests.conftest import GOLDEN, ROOT

GAMES = ROOT / "referee" / "games"
PACKAGES = sorted(p for p in GAMES.iterdir() if (p / "__init__.py").is_file())
TEMPLATE = {"__init__", "components", "state", "rules", "events", "notation", "rulebook", "texts",
            "scoring", "game"}


def template_modules(package: Path) -> set[str]:
    """The modules of a game package: each `NAME.py`, or a package `NAME/` of its own (a module
    grown too long, split by job, like Kingmaker's events)."""
    found = {p.stem for p in package.glob("*.py")}
    found |= {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}
    return found


def test_every_game_is_a_package_of_the_same_modules():
    assert len(PACKAGES) == len(available_game_ids()) >= 3
    assert not [p for p in GAMES.glob("*.py") if p.name != "__init__.py"]
    for package in PACKAGES:
        assert template_modules(package) == TEMPLATE, package.name
        for name in TEMPLATE - {"__init__"}:  # a module, or a package: never both
            assert (package / f"{name}.py").is_file() != (package / name).is_dir(), name


# ---- imports ----------------------------------------------------------------------------------

def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted((ROOT / "referee").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports_at_load(path: Path, name: str, known: set[str]) -> set[str]:
    """The referee modules `path` imports when it is loaded (not inside functions, not only
    for type checking)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for inner in ast.walk(node) if not isinstance(node, (ast.FunctionDef, ast.ClassDef)) \
                else _class_level(node):
            if isinstance(inner, ast.Import):
                out |= {a.name for a in inner.names}
            elif isinstance(inner, ast.ImportFrom):
                base = inner.module or ""
                if inner.level:
                    base = ".".join(package.split(".")[:len(package.split(".")) - inner.level + 1]
                                    + ([base] if base else []))
                out.add(base)
                out |= {f"{base}.{a.name}" for a in inner.names}
    return {m for m in out if m in known and m != name}


def _class_level(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.FunctionDef):
        return []
    return [n for stmt in node.body if not isinstance(stmt, ast.FunctionDef)  # type: ignore
            for n in ast.walk(stmt)]


def test_no_module_imports_itself_back():
    modules = _modules()
    graph = {name: _imports_at_load(path, name, set(modules)) for name, path in modules.items()}
    # A package imports its own __init__ implicitly; only real cycles between modules count.
    done: set[str] = set()

    def visit(name: str, trail: tuple[str, ...]) -> None:
        if name in trail:
            cycle = trail[trail.index(name):] + (name,)
            if not all(m == cycle[0] or m.startswith(cycle[0] + ".") or cycle[0].startswith(m)
                       for m in cycle):
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            return
        if name in done:
            return
        for target in graph[name]:
            visit(target, trail + (name,))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_each_module_imports_on_its_own():
    names = [n for n in _modules() if not n.endswith("__main__")]
    script = ("import importlib, sys\n"
              f"for name in {names!r}:\n"
              "    for loaded in [m for m in sys.modules if m.startswith('referee')]:\n"
              "        del sys.modules[loaded]\n"
              "    importlib.import_module(name)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=ROOT)
    assert result.returncode == 0, result.stderr


# ---- rules cited, rules documented ------------------------------------------------------------

def _values(node: ast.AST, module: dict[str, object]) -> list[str] | None:
    """The rule ids an expression can take, or None when it is a parameter passed along."""
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) else []
    if isinstance(node, ast.IfExp):
        return (_values(node.body, module) or []) + (_values(node.orelse, module) or [])
    if isinstance(node, ast.BoolOp):
        return [v for part in node.values for v in (_values(part, module) or [])]
    if isinstance(node, ast.Name):
        value = module.get(node.id)
        return [value] if isinstance(value, str) else None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        table = module.get(node.value.id)
        assert isinstance(table, dict), ast.unparse(node)
        return [v for v in table.values() if isinstance(v, str)]
    if isinstance(node, ast.Attribute):
        return None  # e.g. `phase.rule`, checked through the declarations below
    raise AssertionError(f"cannot read the rule cited by {ast.unparse(node)}")


def cited_rules(package: Path) -> set[str]:
    import importlib

    cited: set[str] = set()
    parameters: dict[str, int] = {}  # functions that pass a `rule` parameter along
    trees = {}
    for path in package.glob("*.py"):
        name = f"referee.games.{package.name}.{path.stem}".removesuffix(".__init__")
        trees[path] = (ast.parse(path.read_text(encoding="utf-8")),
                       vars(importlib.import_module(name)))
        for node in ast.walk(trees[path][0]):
            if isinstance(node, ast.FunctionDef):
                names = [a.arg for a in node.args.args]
                if "rule" in names:
                    parameters[node.name] = names.index("rule")
    for tree, module in trees.values():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            callee = ast.unparse(node.func).rpartition(".")[2]
            found = [k.value for k in node.keywords if k.arg == "rule"]
            if callee == "Notice" and len(node.args) > 2:
                found.append(node.args[2])
            if callee in parameters and len(node.args) > parameters[callee]:
                found.append(node.args[parameters[callee]])
            for expr in found:
                cited |= set(_values(expr, module) or [])
    return cited


@pytest.mark.parametrize("game_id", available_game_ids())
def test_every_cited_rule_is_in_the_rulebook(game_id):
    game = load_game(game_id)
    package = GAMES / game_id.replace("-", "_")
    book = game.rulebook.ids
    cited = cited_rules(package) | {game.turn_rule} | {p.rule for p in game.phases if p.rule}
    assert len(cited) >= 5
    assert cited - book == set(), f"cited but not in {game_id}'s rulebook"


@pytest.mark.parametrize("game_id", available_game_ids())
def test_every_ruling_is_in_the_rules_text_and_the_man_page(game_id):
    game = load_game(game_id)
    text = game.rules()
    page = (ROOT / "man" / f"referee-{game_id}.6").read_text(encoding="utf-8")
    for ruling in game.rulebook.rulings:
        assert f"{ruling.id}:" in text
        assert f".B {manpage.escape(ruling.id)}\n" in page
    for spec in game.options:
        assert spec.ruling in game.rulebook.ids
        assert any(r.option == spec.name for r in game.rulebook.rulings), spec.name


@pytest.mark.parametrize("game_id", available_game_ids())
def test_the_man_page_event_table_and_rulings_come_from_the_declarations(game_id):
    game = load_game(game_id)
    page = (ROOT / "man" / f"referee-{game_id}.6").read_text(encoding="utf-8")
    for title, text in manpage.generated(game).items():
        assert manpage.section(page, title) == text, \
            f"{title} of referee-{game_id}.6 is out of date: run python -m referee.manpage"


@pytest.mark.parametrize("game_id", available_game_ids())
def test_declarations_agree(game_id):
    game = load_game(game_id)
    phases = {p.id for p in game.phases}
    assert len(phases) == len(game.phases)
    for etype in game.events:
        assert etype.doc and etype.forms, etype.name
        assert etype.phases is None or etype.phases <= phases, etype.name
        assert set(etype.optional) <= set(etype.fields), etype.name
        assert set(etype.field_docs) <= set(etype.fields), etype.name
    assert game.turn_rule in game.rulebook.ids


# ---- a header that does not fit its game is a malformed log (65) with its line -------------

def _mutated(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / source.name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize("source,old,new,line", [
    # The Dwarf King edited down to two players (it crashed with KeyError: 2).
    ("dwarf-king/three-player.toml", '[[players]]\nname = "Catie"\n\n', "", 9),
    ("dwarf-king/three-player.toml", '[[players]]\nname = "Pierre"\n',
     '[[players]]\nname = "Pierre"\n\n' + "".join(
         f'[[players]]\nname = "P{i}"\n\n' for i in range(4)), 9),
    ("kings-ear/three-player-win.toml", 'house = "Pig"', 'house = "Cow"', 20),
    ("kings-ear/three-player-win.toml", 'house = "Pig"', 'house = "Horse"', 20),
    ("dwarf-king/three-player.toml", "edition = 2011", "edition = 2023", None),
    ("king-of-the-valley/two-player.toml", "hill_prices = [", "hill_prices = [1, ", None),
])
def test_a_header_that_does_not_fit_its_game_is_refused_with_its_line(tmp_path, source, old, new,
                                                                      line):
    path = _mutated(tmp_path, GOLDEN / source, old, new)
    report = check_file(path)
    [finding] = report.findings
    assert finding.kind == "log" and report.exit_status == 65, finding
    assert finding.line == line, finding


def test_manpage_update_rewrites_only_the_generated_sections(tmp_path, capsys):
    for game_id in available_game_ids():
        page = (ROOT / "man" / f"referee-{game_id}.6").read_text(encoding="utf-8")
        stale = page.replace(manpage.section(page, "LOG EVENTS"), '.SH "LOG EVENTS"\nold\n')
        (tmp_path / f"referee-{game_id}.6").write_text(stale, encoding="utf-8")
    assert manpage.main(tmp_path) == 0
    assert capsys.readouterr().out.count("updated") == len(available_game_ids())
    for game_id in available_game_ids():
        assert (tmp_path / f"referee-{game_id}.6").read_text(encoding="utf-8") == \
            (ROOT / "man" / f"referee-{game_id}.6").read_text(encoding="utf-8")
    assert not manpage.update(tmp_path / "referee-kings-ear.6", load_game("kings-ear"))
