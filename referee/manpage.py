"""The parts of a game's man page that are derived from its declarations: RULINGS and LOG EVENTS.

`python -m referee.manpage` rewrites those two sections of every man/referee-GAME.6 from the game's
rulebook and event declarations; a test fails when a page and its game disagree. The rest of each
page (description, notation, examples) is written by hand.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from referee.engine import EventType, Game, available_game_ids, load_game

KIND_WORDS = {"str": "text", "int": "integer", "bool": "true or false", "str[]": "list of text",
              "int[]": "list of integers"}
ACTORS = {"player": "By the player to act", "any": "By any player, in turn or not",
          "table": "A table event (no \\fBby\\fR)"}
GENERATED = ("RULINGS", "LOG EVENTS")


def escape(text: str) -> str:
    """Plain text as roff: backslashes, hyphens and leading dots or quotes made literal."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    text = re.sub(r"`([^`]+)`", r"\\fB\1\\fR", text)  # `pass` in bold, as a command
    return "\n".join("\\&" + line if line[:1] in (".", "'") else line
                     for line in text.split("\n"))


def _paragraphs(text: str) -> list[str]:
    """A rulebook text as roff lines; lines that start with a space are kept as a table."""
    out: list[str] = []
    table = False
    for line in text.split("\n"):
        if line.startswith(" ") and not table:
            out.append(".nf")
            table = True
        elif not line.startswith(" ") and table:
            out.append(".fi")
            table = False
        out.append(escape(line))
    if table:
        out.append(".fi")
    return out


def rulings(game: Game[Any]) -> str:
    lines = [".SH RULINGS",
             "The table rulings, with their defaults; an option is changed at",
             ".B referee new",
             "with",
             ".BR \\-\\-option .",
             "Refusals cite them by id, as",
             ".BR \"referee rules " + escape(game.id) + "\" does."]
    defaults = game.new_defaults()
    for ruling in game.rulebook.rulings:
        lines += [".TP", f".B {escape(ruling.id)}"]
        if ruling.option:
            value = defaults[ruling.option]
            shown = ",".join(map(str, value)) if isinstance(value, list) else str(value)
            lines += ["Option", f".BR {escape(ruling.option)} ,", "default",
                      f".BR {escape(shown)} :"]
        lines += _paragraphs(ruling.text)
    return "\n".join(lines) + "\n"


def _event(etype: EventType[Any]) -> list[str]:
    lines = [".TP", f".B {escape(etype.name)}"]
    doc = etype.doc[:1].upper() + etype.doc[1:]
    when = ("at any time" if etype.phases is None else
            "in phase " + ", ".join(sorted(etype.phases)))
    lines.append(escape(f"{doc}.") + f" {ACTORS[etype.actor]}, {escape(when)}"
                 + ("; a reveal: undoing it needs \\fBundo \\-\\-force\\fR." if etype.reveal
                    else "."))
    if not etype.fields:
        lines.append("No fields.")
        return lines
    described = [f"{name} ({KIND_WORDS[kind]}{', optional' if name in etype.optional else ''})"
                 for name, kind in etype.fields.items()]
    lines.append(escape("Fields: " + ", ".join(described) + "."))
    if etype.field_docs:
        lines.append(".RS")
        for name, doc in etype.field_docs.items():
            lines += [".TP", f".B {escape(name)}", escape(doc)]
        lines.append(".RE")
    return lines


def log_events(game: Game[Any]) -> str:
    lines = [".SH \"LOG EVENTS\"",
             "Every event is an [[events]] table with",
             ".BR seq ,",
             ".BR at ,",
             ".B by",
             "(the player; absent for table events),",
             ".B type",
             "and an optional",
             ".BR note ,",
             "plus the fields of its type below."]
    for etype in game.events:
        lines += _event(etype)
    return "\n".join(lines) + "\n"


def generated(game: Game[Any]) -> dict[str, str]:
    return {"RULINGS": rulings(game), "LOG EVENTS": log_events(game)}


def section(page: str, title: str) -> str:
    """The text of one section of a man page, from its .SH line to the next one."""
    head = f".SH \"{title}\"" if " " in title else f".SH {title}"
    start = page.index(head + "\n")
    after = re.search(r"^\.SH ", page[start + len(head):], re.M)
    end = start + len(head) + after.start() if after else len(page)
    return page[start:end]


def update(path: Path, game: Game[Any]) -> bool:
    """Rewrite the generated sections of one page; True when it changed."""
    page = path.read_text(encoding="utf-8")
    new = page
    for title, text in generated(game).items():
        new = new.replace(section(new, title), text)
    if new != page:
        path.write_text(new, encoding="utf-8")
    return new != page


def main(root: Path = Path("man")) -> int:
    for game_id in available_game_ids():
        path = root / f"referee-{game_id}.6"
        if update(path, load_game(game_id)):
            print(f"updated {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
