"""Text from users and logs made safe to show, and player names compared as people read them.

A player name, a note or a path in a hand-edited log or on the command line could carry terminal
escape sequences (ESC, the C1 CSI U+009B), bidi overrides that reorder a line (U+202E, U+2066..),
invisible format characters, or lone surrogates (bytes that were not UTF-8). Printed raw they
could rewrite the screen or crash the printer. Every output of `referee` goes through this module:
the CLI's printers (`clean` for text, `json_text` for JSON) and the scoresheet renderers, so a
character is judged by its Unicode category in one place, not by a hand-kept list.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Sequence

# Categories never shown raw: controls (Cc), format characters (Cf: bidi overrides, zero-width
# characters, the soft hyphen), surrogates (Cs), private-use (Co) and unassigned (Cn) code
# points, and the line and paragraph separators (Zl, Zp) that start a new line on some terminals.
UNSAFE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
KEPT = "\n\t"  # `clean` keeps the layout of multi-line text; `clean_line` escapes these too


def unsafe(char: str) -> bool:
    return unicodedata.category(char) in UNSAFE


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _neutralise(text: str, kept: str) -> str:
    plain = text.replace("\n", "").replace("\t", "") if kept else text
    if plain.isprintable():  # the common case, in C: nothing to look at one by one
        return text
    return "".join(_escape(c) if c not in kept and unsafe(c) else c for c in text)


def clean(text: object) -> str:
    """The text with every unsafe character shown as a visible escape (newlines and tabs kept)."""
    return _neutralise(str(text), KEPT)


def clean_line(text: object) -> str:
    """Like `clean`, and newlines and tabs escaped too: for values printed inside one line."""
    return _neutralise(str(text), "")


def json_text(data: Any, indent: int | None = 2) -> str:
    """`data` as JSON whose unsafe characters are written as \\u escapes: the data a script reads
    is exactly the same, but nothing raw reaches a terminal that shows it."""
    import json  # only a --json command pays for it

    text = json.dumps(data, indent=indent, ensure_ascii=False, default=_plain)
    if text.replace("\n", "").isprintable():
        return text
    # Outside strings JSON has only ASCII and the layout's newlines; inside, every unsafe
    # character may be written as a \u escape (a surrogate pair above U+FFFF).
    return "".join(_json_escape(c) if c != "\n" and unsafe(c) else c for c in text)


def _plain(value: Any) -> str:
    """A value JSON has no type for, as text: a date or time in ISO 8601 (`2026-11-27T20:01:02`,
    as the sheet's JSON writes it), anything else as `str` has it."""
    iso = getattr(value, "isoformat", None)
    return iso() if callable(iso) else str(value)


def _json_escape(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def name_key(name: str) -> str:
    """What makes two player names the same person: NFKC-folded, format characters (zero-width
    spaces, soft hyphens, bidi marks) removed, case-folded. `Ann`, `ANN`, `Ann` + U+200B and
    the full-width `Ａｎｎ` are one player."""
    folded = unicodedata.normalize("NFKC", name)
    visible = "".join(c for c in folded if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFKC", visible.casefold()).strip()


def short_names(names: Sequence[str], width: int) -> list[str]:
    """Player names cut to `width` characters for a narrow column, or only as much as keeps them
    apart: `Alexander` and `Alexandra` stay whole, never both `Alexande`."""
    shown = [clean_line(name) for name in names]
    for cut in range(width, max(map(len, shown), default=0) + 1):
        if len({name[:cut] for name in shown}) == len(shown):
            return [name[:cut] for name in shown]
    return shown
