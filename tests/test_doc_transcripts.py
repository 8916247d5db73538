"""The docs' examples are run (issue 14): every console transcript and command block of the
README, and every EXAMPLES block of every man page, through the real entry point.

Transcripts: a line `$ COMMAND` is run and the lines under it, up to the next `$ ` line, are
what it prints (standard output, then standard error); a line `...` stands for any lines. A
command whose expected output has a line starting with `referee: ` (a refusal) must fail;
every other command must succeed. In a `sh` block and in a man page's EXAMPLES, a line starting
with `referee ` is a command; a man page's other lines under it are its output, compared when
given.

Each block starts in an empty folder unless the line before it says otherwise:
  <!-- doc-test: continue -->               the folder of the block before it
  <!-- doc-test: example GAME -->           the bundled example game of GAME as ./game.toml
  <!-- doc-test: example GAME N -->         the same, with its first N events only
  <!-- doc-test: golden GAME/NAME N -->     tests/golden/GAME/NAME.toml, its first N events
  <!-- doc-test: skip REASON -->            not run, for the reason given
  <!-- doc-test: stdin A B C / D E F -->    the lines a secret is read from, one a prompt
                                            (a player types them unseen at a terminal)
In a man page the same words follow `.\\" doc-test:`. The prose next to such a block says the
same to the reader.
"""

from __future__ import annotations

import glob
import io
import re
import shlex
import shutil
from pathlib import Path
from typing import NamedTuple

import pytest

from referee import log as logfile
from referee.evolve import evolve
from tests.conftest import EXAMPLES, GOLDEN, ROOT

README = ROOT / "README.md"
MAN = ROOT / "man"


class Command(NamedTuple):
    text: str
    expected: list[str] | None  # None: only the exit status is checked


class Block(NamedTuple):
    where: str  # file:line, for messages
    setup: str  # "", "continue", "example GAME", "skip REASON"
    commands: list[Command]
    stdin: tuple[str, ...] = ()  # the secrets typed unseen, in order


def directives(lines: list[str]) -> tuple[str, tuple[str, ...]]:
    """A block's set-up and its stdin lines, from the doc-test lines before it."""
    setup, stdin = "", ()
    for line in lines:
        if line.startswith("stdin "):
            stdin = tuple(part.strip() for part in line[len("stdin "):].split(" / "))
        else:
            setup = line
    return setup, stdin


# --------------------------------------------------------------------------------------------
# Reading the docs


def readme_blocks() -> list[Block]:
    text = README.read_text(encoding="utf-8")
    out = []
    pattern = re.compile(r"((?:<!-- doc-test: .*? -->\n)*)```(console|sh)\n(.*?)```", re.S)
    for m in pattern.finditer(text):
        line = text.count("\n", 0, m.start(2)) + 1
        body = m.group(3).splitlines()
        commands = _transcript(body) if m.group(2) == "console" else _command_lines(body)
        setup, stdin = directives(re.findall(r"<!-- doc-test: (.*?) -->", m.group(1)))
        out.append(Block(f"README.md:{line}", setup, commands, stdin))
    return out


def _transcript(lines: list[str]) -> list[Command]:
    commands: list[Command] = []
    for line in lines:
        if line.startswith("$ "):
            commands.append(Command(line[2:], []))
        else:
            assert commands, f"output before any command: {line!r}"
            expected = commands[-1].expected
            assert expected is not None
            expected.append(line)
    return commands


def _command_lines(lines: list[str]) -> list[Command]:
    return [Command(line, None) for line in lines if line.strip() and not line.startswith("#")]


def unroff(line: str) -> str:
    return (line.replace("\\-", "-").replace("\\&", "").replace("\\(aq", "'")
            .replace("\\(dq", '"').replace("\\e", "\\"))


def man_blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    start = text.index(".SH EXAMPLES\n")
    end = text.find("\n.SH ", start + 1)
    section = text[start:end if end > 0 else None].splitlines()
    blocks, said, inside = [], [], False
    for number, line in enumerate(section):
        if line.startswith('.\\" doc-test: '):
            said.append(line[len('.\\" doc-test: '):].strip())
        elif line == ".nf":
            inside, commands, first = True, [], number
        elif line == ".fi" and inside:
            where = f"{page.name}:{text[:start].count(chr(10)) + first + 1}"
            setup, stdin = directives(said)
            blocks.append(Block(where, setup, commands, stdin))
            inside, said = False, []
        elif inside and line.strip():
            plain = unroff(line)
            if plain.startswith("referee "):
                commands.append(Command(plain, None))
            else:
                assert commands, f"{page.name}: output before any command: {plain!r}"
                previous = commands[-1]
                commands[-1] = previous._replace(expected=(previous.expected or []) + [plain])
    return blocks


# --------------------------------------------------------------------------------------------
# Running them


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line; an expected `...` line stands for any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def trimmed(lines: list[str]) -> list[str]:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def run_line(cli, line: str) -> tuple[int, list[str]]:
    """A command line as a shell would run it: `;` and `&&` between commands, `>` to a file,
    `*` globs, `#` comments, quotes. Every command must be `referee`."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&>")
    lexer.whitespace_split = True
    tokens = list(lexer)
    status, printed = 0, []
    command: list[str] = []
    skipping = False  # after `a && b` where a failed: up to the next `;`
    for token in [*tokens, ";"]:
        if token not in (";", "&&"):
            command.append(token)
            continue
        if command and not skipping:
            status, lines = run_one(cli, command)
            printed += lines
        command = []
        skipping = token == "&&" and (skipping or status != 0)
    return status, printed


def run_one(cli, words: list[str]) -> tuple[int, list[str]]:
    target = None
    if ">" in words:
        at = words.index(">")
        words, target = words[:at], words[at + 1]
    assert words[0] == "referee", f"not a referee command: {' '.join(words)}"
    args = []
    for word in words[1:]:
        args += sorted(glob.glob(word, root_dir=cli.path)) if "*" in word else [word]
    result = cli(*args)
    if target is not None:
        if target != "/dev/null":
            (cli.path / target).write_text(result.out, encoding="utf-8")
        return result.status, result.err.splitlines()
    return result.status, (result.out + result.err).splitlines()


def run_block(cli, block: Block, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # the width the docs are written for
    if block.stdin:
        monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in block.stdin)))
    if block.setup.startswith(("example ", "golden ")):
        kind, game_id, *events = block.setup.split()
        shutil.copy((EXAMPLES if kind == "example" else GOLDEN) / f"{game_id}.toml",
                    cli.path / "game.toml")
        if events:
            log = logfile.read(cli.path / "game.toml")
            cut = evolve(log, entries=log.entries[:int(events[0])])
            (cli.path / "game.toml").write_text(logfile.dumps(cut), encoding="utf-8")
    for command in block.commands:
        status, printed = run_line(cli, command.text)
        context = f"{block.where}: $ {command.text}\n" + "\n".join(printed)
        expected = trimmed(command.expected) if command.expected is not None else None
        refused = expected is not None and any(line.startswith("referee: ")
                                               for line in expected)
        assert (status != 0) == refused, f"exit status {status}\n{context}"
        if expected:
            assert matches(expected, trimmed(printed)), \
                f"printed:\n{chr(10).join(printed)}\n\nexpected:\n{chr(10).join(expected)}"


def groups(blocks: list[Block]) -> list[list[Block]]:
    """The blocks in runs that share a folder (a block and those that continue it)."""
    out: list[list[Block]] = []
    for block in blocks:
        if block.setup.startswith("skip"):
            continue
        if block.setup == "continue" and out:
            out[-1].append(block)
        else:
            out.append([block])
    return out


README_GROUPS = groups(readme_blocks())
MAN_GROUPS = [(page.name, group) for page in sorted(MAN.iterdir())
              for group in groups(man_blocks(page))]


@pytest.mark.parametrize("group", README_GROUPS, ids=[g[0].where for g in README_GROUPS])
def test_readme_examples_run_as_shown(cli, monkeypatch, group):
    for block in group:
        run_block(cli, block, monkeypatch)


@pytest.mark.parametrize("page, group", MAN_GROUPS, ids=[g[1][0].where for g in MAN_GROUPS])
def test_man_page_examples_run_as_shown(cli, monkeypatch, page, group):
    for block in group:
        run_block(cli, block, monkeypatch)


def test_every_man_page_has_examples_and_every_doc_block_is_run_or_says_why():
    for page in MAN.iterdir():
        blocks = man_blocks(page)
        assert blocks and all(b.commands for b in blocks), page.name
    readme = readme_blocks()
    skipped = [b for b in readme if b.setup.startswith("skip")]
    assert all(len(b.setup.split()) > 1 for b in skipped)  # a reason is given
    assert len(skipped) <= 2  # the install commands, and the browser check
    known = ("", "continue", "skip")
    for block in readme + [b for page in MAN.iterdir() for b in man_blocks(page)]:
        assert block.setup.split(" ")[0] in known + ("example", "golden"), block


# --------------------------------------------------------------------------------------------
# The runner itself


def test_the_runner_compares_and_elides():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "..."], ["a"]) and not matches(["a", "b"], ["a", "c"])
    assert not matches(["a"], ["a", "b"]) and matches(["..."], [])
    assert _transcript(["$ referee x", "out", "$ referee y"]) == [
        Command("referee x", ["out"]), Command("referee y", [])]
    assert unroff(r"referee play D3 \e \- \&x") == "referee play D3 \\ - x"


def test_the_runner_catches_a_wrong_transcript(cli, monkeypatch):
    wrong = Block("test", "", [Command("referee games", ["nothing like it"])])
    with pytest.raises(AssertionError, match="expected"):
        run_block(cli, wrong, monkeypatch)
    refusal_shown_but_ok = Block("test", "", [Command("referee games", ["referee: no"])])
    with pytest.raises(AssertionError, match="exit status 0"):
        run_block(cli, refusal_shown_but_ok, monkeypatch)
    status, printed = run_line(cli, "referee rules nope && referee games ; referee games > x")
    assert status == 0 and printed[0].startswith("referee: unknown game")
    assert "2-4 players" in (cli.path / "x").read_text()
    assert not any("2-4 players" in line for line in printed)  # `games` ran once, into x
