"""Kingmaker's rules that more than one event shares (being split by topic: all in settling.py
for now)."""

from referee.games.kingmaker.rules.settling import *  # noqa: F401,F403
from referee.games.kingmaker.rules.settling import _heirs_at_rest, _is_wight, _owners  # noqa
