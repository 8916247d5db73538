"""The names Kingmaker's rules themselves use (seed §4, rules 25-26; rules page R-8), and
`refuse`, the refusal every rule gives: a message, a code and the rulebook entry it cites
(rulebook.py: `§6.2`, `R-27`...)."""

from __future__ import annotations

from referee.errors import IllegalMove

BEAUFORT, STANLEY, LE_LUCAS = "Beaufort", "Stanley", "Le Lucas"
CONSTABLE, CHANCELLOR = "Constable of the Tower", "Chancellor of England"
PLAY = "play"  # where a noble card in play is kept in `cards`


def refuse(message: str, code: str, rule: str) -> IllegalMove:
    return IllegalMove(message, code=code, rule=rule)
