"""King of the Valley speed figures (printed, never asserted in tests).

    python bench/king_of_the_valley.py [--quick]

(a) worst case of `referee options` in the summon phase: a crowded valley (four kings) with all
    three priests, a player rich enough to visit every priest, a castle that can feed every
    wizard and tax collector, and many identical tiles in lines. The worst of a few hundred such
    valleys is timed in-process (legal + option_lines), and `referee options` on it as a whole
    process (Python start-up and the log's replay included).
(b) `simulate`: seeded random games played to the end, games per second.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee import log as logfile  # noqa: E402
from referee.engine import Player  # noqa: E402
from referee.games.king_of_the_valley import GAME  # noqa: E402
from referee.games.king_of_the_valley.state import Castle  # noqa: E402
from referee.simulate import default_players, play_out  # noqa: E402

COMMON = ("farmer", "farmer", "farmer", "wife", "knight-A", "knight-B", "countess", "tax-3-5",
          "tax-4", "wizard", "duke", "jester")


def rich_castle() -> Castle:
    castle = Castle(gold=9)
    for column, tile in (("queen", "queen"), ("duke", "duke"), ("countess", "countess"),
                         ("knight", "knight-C"), ("farmer", "farmer"), ("wife", "wife")):
        for _ in range(5):
            castle = castle.add(tile, column)
    return castle


def crowded_state(rng: random.Random):
    players = tuple(Player(n) for n in ("Ann", "Ben", "Cat", "Dan"))
    state = GAME.setup(players, GAME.check_options({}), None)
    valley = [rng.choice(COMMON) for _ in range(25)]
    for square in rng.sample(range(25), 3):
        valley[square] = "priest"
    kings = tuple(rng.sample([s for s in range(25) if valley[s] != "priest"], 4))
    return replace(state, valley=tuple(valley), kings=kings, awaiting=(), phase="summon",
                   castles=(rich_castle(),) + (Castle(),) * 3,
                   hill=(("duke",) * 6, ("queen",) * 6))


def options_time(state, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        GAME.option_lines(state, GAME.legal(state))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def worst_case(candidates: int, runs: int):
    rng = random.Random(2026)
    best = None
    for _ in range(candidates):
        state = crowded_state(rng)
        count = len(GAME.legal(state))
        if best is None or count > best[0]:
            best = (count, state)
    count, state = best
    return count, state, options_time(state, runs)


def process_options_time(runs: int) -> float:
    """`referee options` as a process, on the bundled game stopped at its busiest summon."""
    source = ROOT / "referee" / "examples" / "king-of-the-valley.toml"
    log = logfile.read(source)
    from referee.engine import apply_event

    state = GAME.setup(log.players, log.options, None)
    best = (0, len(log.entries))
    for index, entry in enumerate(log.entries):
        if state.phase in ("recruit", "summon"):
            best = max(best, (len(GAME.legal(state)), index))
        state = apply_event(GAME, state, entry.event, log.players)
    cut = logfile.replace(log, entries=log.entries[:best[1]], path=None)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.toml"
        path.write_text(logfile.dumps(cut))
        command = [sys.executable, "-m", "referee", "--log", str(path), "options"]
        subprocess.run(command, check=True, capture_output=True, env=env)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, env=env)
            times.append(time.perf_counter() - start)
    return best[0], best[1], statistics.median(times)


def simulate_rate(games: int, count: int) -> tuple[float, float]:
    players = default_players(GAME, count)
    start = time.perf_counter()
    events = 0
    for seed in range(games):
        events += len(play_out(GAME, seed, players).events)
    elapsed = time.perf_counter() - start
    return games / elapsed, events / games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="fewer runs (for a smoke test)")
    quick = parser.parse_args().quick
    count, state, seconds = worst_case(40 if quick else 400, 5 if quick else 30)
    print(f"options, worst crowded valley with 3 priests: {count} legal steps, "
          f"{seconds * 1000:.1f} ms in-process (median)")
    moves, at, seconds = process_options_time(2 if quick else 10)
    print(f"referee options as a process, bundled game at event {at} ({moves} steps): "
          f"{seconds * 1000:.0f} ms (median, Python start-up and replay included)")
    for players in (2, 3, 4):
        rate, length = simulate_rate(10 if quick else 100, players)
        print(f"simulate, {players} players: {rate:.1f} games/s ({length:.0f} events per game)")


if __name__ == "__main__":
    main()
