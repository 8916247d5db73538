"""Benchmark The Dwarf King's rules: option listing, apply, replay and simulated games per second.

    python bench/dwarf_king.py

Prints figures for the README; nothing here is asserted (timings depend on the machine).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee import log as logfile  # noqa: E402
from referee.engine import Player, apply_event  # noqa: E402
from referee.games.dwarf_king import GAME  # noqa: E402
from referee.replay import replay_events  # noqa: E402
from referee.simulate import play_out  # noqa: E402

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")


def timed(fn, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    print("The Dwarf King")
    for n in (3, 5):
        seats = [Player(name) for name in NAMES[:n]]
        options = GAME.check_options({})
        start = time.perf_counter()
        games = 20
        events = 0
        for seed in range(games):
            events += len(play_out(GAME, seed, seats, options).events)
        took = time.perf_counter() - start
        print(f"  simulate, {n} players: {games / took:6.1f} games/s "
              f"({events / games:.0f} events per game, seeded deals)")

        play = play_out(GAME, 1, seats, options)
        blind = GAME.setup(tuple(seats), options, None)
        states = []
        for event in play.events:  # states as the referee sees them at the table (no seed)
            states.append(blind)
            blind = apply_event(GAME, blind, event, seats)
        sample = random.Random(0).sample(range(len(states)), 60)
        legal = timed(lambda: [GAME.legal(states[i]) for i in sample], 3) / len(sample)
        lines = timed(lambda: [GAME.option_lines(states[i], GAME.legal(states[i]))
                               for i in sample], 3) / len(sample)
        apply = timed(lambda: replay_events(GAME, tuple(seats), options, None, play.events), 5)
        print(f"  {n} players, hands unknown: legal() {legal * 1e3:.2f} ms, options lines "
              f"{lines * 1e3:.2f} ms, apply {apply / len(play.events) * 1e6:.0f} us/event, "
              f"replay of a whole game ({len(play.events)} events) {apply * 1e3:.1f} ms")

    path = ROOT / "tests" / "golden" / "dwarf-king" / "three-player.toml"
    parse = timed(lambda: logfile.read(path), 10)
    log = logfile.read(path)
    events = [e.event for e in log.entries]
    rules = timed(lambda: replay_events(GAME, log.players, log.options, None, events), 10)
    print(f"  golden 3-player log ({len(events)} events): read+validate TOML {parse * 1e3:.1f} ms, "
          f"replay rules {rules * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
