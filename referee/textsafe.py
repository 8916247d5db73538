"""Neutralise control characters in any text that came from a user or a log before printing it.

A player name or note in a hand-edited log could carry terminal escape sequences; printed raw they
could rewrite the screen. Every printer in `referee` passes such text through `clean`.
"""

from __future__ import annotations

import re

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean(text: object) -> str:
    """The text with control characters (and bidi overrides) shown as visible escapes."""
    return _CONTROL.sub(_escape, str(text))


def clean_line(text: object) -> str:
    """Like `clean`, and newlines and tabs escaped too: for values printed inside one line."""
    return clean(text).replace("\n", "\\n").replace("\t", "\\t")
