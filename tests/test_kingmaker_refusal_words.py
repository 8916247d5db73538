"""Every Kingmaker refusal names its rule and speaks the game's words (issue 28): fuzzed moves
on positions from the deal to the end find no refusal without a rule, no `None` and no Python
name; and each refusal code of the rules carries a rule id."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from referee import log as logfile
from referee.engine import apply_event
from referee.errors import MoveError, NotationError
from referee.games.kingmaker import GAME
from referee.replay import replay_log, steps
from tests.conftest import GOLDEN

PYTHONISH = re.compile(r"\bNone\b|\bNoneType\b|<[a-z_.]+ object|\b[A-Z][A-Za-z]+\(|__\w+__|"
                       r"\bdict\b|\btuple\b|\bTraceback\b|\(\'|\[\'")
ROOT = Path(__file__).resolve().parents[1]


def positions():
    """States along two golden games (the test box) and a shipped-box deal."""
    out = []
    for name in ("three-player-two-parliaments", "four-player-complete-victory"):
        log = logfile.read(GOLDEN / "kingmaker" / f"{name}.toml")
        setup = replay_log(log)[0]
        found = [step.before for step in steps(setup, log.entries)]
        out += found[::max(1, len(found) // 25)]
        players = setup.players
    out.append(replay_log(log)[1])  # the game over
    return out, players


WORDS = ["Neville", "Percy", "Ann", "Ben", "York", "London", "in:York", "near:Coventry",
         "to", "with", "at", "on", "by", "from", "for", "yea", "nay", "allies", "Henry",
         "Writ", "hidden", "Le-Lucas", "sea:North", "chancery", "Earl-of-Essex", "3", "00",
         "minor", "major", "lay", "conclude", "call", "revoke", "excuse", "agreed", "x=1",
         "troops=10", "kind=castle", "Neville.home=Mid", ",", "nobles", "freemove",
         "'", '"', "Bishop-of-Ely", "Talbot", "place", "noble", "votes", "___"]


def fuzzed(rng: random.Random) -> str:
    verb = rng.choice(sorted(GAME.events.verbs()))
    return " ".join([verb] + [rng.choice(WORDS) for _ in range(rng.randint(0, 6))])


def test_fuzzed_refusals_name_a_rule_and_no_python():
    states, players = positions()
    rng = random.Random(28)
    seen: dict[str, str] = {}
    for state in states:
        for _ in range(60):
            text = fuzzed(rng)
            who = rng.choice([None, *[p.name for p in players]])
            try:
                event = GAME.parse(state, text, who)
                apply_event(GAME, state, event, players)
            except MoveError as exc:
                for refusal in getattr(exc, "every", lambda: (exc,))():
                    seen.setdefault(refusal.code, text)
                    assert refusal.rule, (text, refusal.code, refusal.message)
                    assert not PYTHONISH.search(refusal.message), (text, refusal.message)
    assert len(seen) > 25  # the fuzz reaches many kinds of refusal


def refusal_codes() -> list[tuple[str, str, str]]:
    """Every refusal a Kingmaker source raises: (file, code, the rule written beside it, or
    "" when the call leaves it to the game's default for its kind of error)."""
    found = []
    pattern = re.compile(r"refuse\((?:[^()]|\([^()]*\))*?,\s*\"([\w-]+)\",\s*([^)]*?)\)"
                         r"|(NotationError|IllegalMove)\((?:[^()]|\([^()]*\))*?code=\"([\w-]+)\""
                         r"((?:[^()]|\([^()]*\))*?)\)", re.S)
    for path in sorted((ROOT / "referee" / "games" / "kingmaker").rglob("*.py")):
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            if match.group(1):
                found.append((path.name, match.group(1), match.group(2).strip()))
            else:
                rule = re.search(r"rule=([^,)]+)", match.group(5) or "")
                found.append((path.name, match.group(4), rule.group(1) if rule else ""))
    return found


CODES = refusal_codes()


def test_the_walk_finds_the_refusals():
    assert len(CODES) > 300 and {"missing-value", "unknown-card", "no-writ"} <= \
        {code for _, code, _ in CODES}


@pytest.mark.parametrize("where", CODES, ids=lambda w: f"{w[0]}:{w[1]}")
def test_every_refusal_code_names_a_rule(where):
    """A refusal written with its rule names a section (§) or ruling (R-n), or passes one on;
    one written without is a notation error the game files under §14 (R-2 for declarations)."""
    _, code, rule = where
    if rule:
        assert re.match(r"^(f?\"(§|R-|rule )|[a-z_.]*rule\b|[a-z_]+$|[A-Z_]+$|\w+\.rule)", rule), rule
        return
    ruled = GAME.ruled(NotationError("x", code=code))
    assert ruled.rule in ("§14", "R-2")
