"""Regenerate the King of the Valley golden games and the bundled demo game.

    python tests/golden/make_king_of_the_valley.py

Each game is played by a small greedy player (a stand-in for people at a table: summon what scores
most now, keep an eye on the kingdom set, refill at random) from virtual piles dealt with a seed,
then written as a *physical* log: the seed is dropped and every reveal names its tiles, the
valley row by row as a table would call them out. Replaying such a log checks the tiles against
the box and pile totals only (R-2), which the virtual piles satisfy. The expected scoresheets are
rendered from the final states. Review the diff before committing regenerated files.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from golden_files import write_golden  # noqa: E402

from referee.engine import Event, Player, apply_event, load_game  # noqa: E402
from referee.games.king_of_the_valley.components import KINGDOM_COLUMNS  # noqa: E402
from referee.games.king_of_the_valley.scoring import points as _points  # noqa: E402
from referee.replay import replay_events  # noqa: E402

GAME = load_game("king-of-the-valley")
SET_UP_CHUNKS = (5, 5, 5, 5, 5, 4, 8)  # the valley by rows, hill rows 1-2 (pile I), rows 3-6


def evaluate(state, seat: int) -> float:
    castle = state.castles[seat]
    progress = sum(1 for c in KINGDOM_COLUMNS if castle.face_up(c))
    progress += 1 if castle.face_up("farmer") or castle.face_up("wife") else 0
    return sum(_points(state, castle)) + 1.2 * progress


def choose(state, rng: random.Random) -> Event:
    moves = GAME.legal(state)
    if state.phase == "reveal":
        tiles = moves[0]["tiles"]
        if state.setting_up:
            done = 37 - len(state.awaiting)
            chunk, total = 0, 0
            for chunk in SET_UP_CHUNKS:
                if total >= done:
                    break
                total += chunk
            tiles = tiles[:chunk]
        return Event.make("reveal", None, tiles=list(tiles))
    if state.phase == "king":
        return rng.choice(moves)
    seat = state.active
    scored = [(outlook(GAME.apply(state, m), seat) + rng.random() * 0.6, i, m)
              for i, m in enumerate(moves)]
    return max(scored)[2]


def outlook(state, seat: int) -> float:
    """The evaluation once the summoned specialists and Jesters are used as well as they can be
    (a wizard's swap or a tax collector's gold only shows after its own step)."""
    if state.phase != "activate":
        return evaluate(state, seat)
    return max(outlook(GAME.apply(state, m), seat) for m in GAME.legal(state))


def play(names, seed: int, options=None):
    options = GAME.check_options(options or {})
    players = tuple(Player(n) for n in names)
    state = GAME.setup(players, options, seed)
    rng = random.Random(seed)
    events = []
    while not GAME.finished(state):
        event = choose(state, rng)
        state = apply_event(GAME, state, event, players)
        events.append(event)
    # The log is written as a physical game: it must replay without the seed.
    physical = replay_events(GAME, players, options, None, events)
    assert physical.castles == state.castles and GAME.finished(physical)
    return players, options, events, physical


def write(path: Path, players, options, events, state) -> None:
    write_golden(GAME, path, players, options, events, state, step_seconds=30)

def rich(result) -> bool:
    """A game that shows every kind of step: recruits, priests, wizards, taxes, kingdoms."""
    _, _, events, _ = result
    types = {e.type for e in events}
    priests = any(e.type == "move" and len(e["path"]) > 2 for e in events)
    return priests and {"recruit", "wizard", "tax", "kingdom", "jester"} <= types


def find(names, want, options=None, start=0):
    for seed in range(start, start + 400):
        result = play(names, seed, options)
        if want(result):
            return seed, result
    raise SystemExit(f"no game found for {names}")


def main() -> None:
    out = ROOT / "tests" / "golden" / "king-of-the-valley"
    seed, game = find(("Ann", "Ben", "Cat"), rich)
    print("three players, seed", seed, len(game[2]), "events")
    write(out / "three-player.toml", *game)
    write(ROOT / "referee" / "examples" / "king-of-the-valley.toml", *game)
    seed, game = find(("Dora", "Emil", "Finn", "Gwen"), lambda r: True,
                      options={"orders": ["Lion", "Eagle", "Rose", "Tower"],
                               "hill_prices": [1, 2, 4, 6, 8, 10]})
    print("four players, own Order labels and prices, seed", seed, len(game[2]), "events")
    write(out / "four-player-orders.toml", *game)
    seed, game = find(("Hana", "Ivo"), lambda r: "kingdom" in {e.type for e in r[2]})
    print("two players, seed", seed, len(game[2]), "events")
    write(out / "two-player.toml", *game)


if __name__ == "__main__":
    main()
