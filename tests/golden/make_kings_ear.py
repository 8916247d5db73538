"""Regenerate The King's Ear golden games and the bundled demo game.

    python tests/golden/make_kings_ear.py

Each game is played by a small greedy player (a stand-in for people at a table: take your own
cards when you can, dump foreign cards on the leader) from a shuffled pile, then written as a
*physical* log: the seed is dropped, every draw names its card. The expected scoresheets are
rendered from the final states. Review the diff before committing regenerated files.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from golden_files import find_game, write_golden  # noqa: E402

from referee.engine import Event, Player, apply_event, load_game  # noqa: E402

GAME = load_game("kings-ear")


def evaluate(state, seat: int) -> float:
    own = state.seats[seat]
    nets = state.nets(own)
    rivals = [max(state.nets(h)) for i, h in enumerate(state.seats) if i != seat]
    return 3 * max(nets) + sum(nets) - 2 * max(rivals, default=0)


def choose(state, rng: random.Random) -> Event:
    seat = state.turn
    moves = GAME.legal(state)
    if state.pending is None and state.drawn < 64:
        draw = next(m for m in moves if m.type == "draw")
        trades = [m for m in moves if m.type == "trade"][:400]
        baseline = evaluate(state, seat) + 2
        best = max(trades, key=lambda m: evaluate(GAME.apply(state, m), seat), default=None)
        if best is not None and evaluate(GAME.apply(state, best), seat) > baseline \
                and rng.random() < 0.7:
            return best
        return draw
    scored = [(evaluate(GAME.apply(state, m), seat) + rng.random() * 0.5, i, m)
              for i, m in enumerate(moves[:400])]
    return max(scored)[2]


def play(names_seats, seed: int, options=None, stop_after: int | None = None):
    options = GAME.check_options(options or {})
    players = tuple(Player(n, s) for n, s in names_seats)
    state = GAME.setup(players, options, seed)
    rng = random.Random(seed)
    events = []
    while not GAME.finished(state):
        if stop_after is not None and len(events) >= stop_after:
            event = Event.make("end", None, reason="the cafe closed")
        else:
            event = choose(state, rng)
        state = apply_event(GAME, state, event, players)
        events.append(event)
    return players, options, events, state


def write(path: Path, players, options, events, state) -> None:
    write_golden(GAME, path, players, options, events, state, step_seconds=40)


def find(names, want, options=None, start=0, **kw):
    return find_game(play, names, want, options, start, **kw)


def main() -> None:
    out = ROOT / "tests" / "golden" / "kings-ear"
    three = [("Ann", "Horse"), ("Ben", "Pig"), ("Cat", "Stag")]
    four = [("Dora", "Boar"), ("Emil", "Stag"), ("Finn", "Pig"), ("Gwen", "Horse")]
    two = [("Hana", "Horse"), ("Ivo", "Pig")]

    def traded_win(state):
        return state.winner is not None and state.drawn > 30

    seed, game = find(three, traded_win)
    print("three-player win, seed", seed, len(game[2]), "events")
    write(out / "three-player-win.toml", *game)
    write(ROOT / "referee" / "examples" / "kings-ear.toml", *game)
    seed, game = find(four, lambda s: s.winner is not None and s.names[s.winner] != "Dora",
                      options={"houses": ["Horse", "Pig", "Stag", "Boar"]})
    print("four-player win, seed", seed, len(game[2]), "events")
    write(out / "four-player-win.toml", *game)
    seed, game = find(two, lambda s: s.ended is not None and "R-6" in s.ended)
    print("two-player no winner (R-6), seed", seed, len(game[2]), "events")
    write(out / "two-player-no-winner.toml", *game)
    seed, game = find(three, lambda s: s.ended is not None, stop_after=25)
    print("three-player stopped by the table (R-7), seed", seed, len(game[2]), "events")
    write(out / "three-player-stopped.toml", *game)


if __name__ == "__main__":
    main()
