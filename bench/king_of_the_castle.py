"""King of the Castle speed figures (printed, never asserted in tests).

    python bench/king_of_the_castle.py

(a) the worst `referee options` in-process: a physical game (the referee does not know the
    hands, so every card that may lie face down is a candidate) with six players holding cards,
    a discard pile full of attribute cards for Timely Repairs and of every card for Recycle, and
    Unexpected Loss naming any card of five hands; `legal` + `option_lines`, median of runs.
(b) `simulate`: games per second, dealt by the tool, 3 and 6 players.
(c) apply per event and the replay of a golden game, against reading and validating its TOML.
(d) `referee play` as a whole process on the longest of 300 six-player games (seeded), its last
    move, against `python -c "import typer"`.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee import log as logfile  # noqa: E402
from referee.engine import Player  # noqa: E402
from referee.evolve import evolve  # noqa: E402
from referee.games.king_of_the_castle import GAME  # noqa: E402
from referee.games.king_of_the_castle.components import CARD, CARDS, LETTERS  # noqa: E402
from referee.replay import replay_events, replay_log  # noqa: E402
from referee.simulate import play_out, to_log  # noqa: E402

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


def timed(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def crowded():
    """Six players, the kingdom full, one copy of every card face up in the discard pile."""
    players = tuple(Player(n) for n in NAMES)
    state = GAME.setup(players, GAME.check_options({}), None)
    discard = tuple(c.title for c in CARDS if c.count > 1)
    state = evolve(state, seals=tuple("sha256:" + "0" * 64 for _ in NAMES),
                    men=tuple(LETTERS[:10]), revealed=10, seen=frozenset(LETTERS[:10]),
                    discard=discard, deck_size=state.deck_size - len(discard))
    return evolve(state, turns=1)


def main() -> None:
    print("King of the Castle")
    state = crowded()
    events = GAME.legal(state)
    lines = GAME.option_lines(state, events)
    worst = timed(lambda: GAME.option_lines(state, GAME.legal(state)), 15)
    print(f"  (a) worst options, physical, 6 players: {len(events)} legal plays in {len(lines)} "
          f"lines, {worst * 1e3:.1f} ms (legal + option_lines)")
    for n in (3, 6):
        seats = [Player(name) for name in NAMES[:n]]
        start = time.perf_counter()
        count, total = 40, 0
        for seed in range(count):
            total += len(play_out(GAME, seed, seats).events)
        took = time.perf_counter() - start
        print(f"  (b) simulate, {n} players: {count / took:.1f} games/s ({total / count:.0f} "
              "events per game)")
    path = ROOT / "tests" / "golden" / "king-of-the-castle" / "three-player.toml"
    log = logfile.read(path)
    events_ = [e.event for e in log.entries]
    read = timed(lambda: logfile.read(path), 10)
    rules = timed(lambda: replay_events(GAME, log.players, log.options, None, events_), 10)
    print(f"  (c) golden 3-player log ({len(events_)} events): read+validate TOML "
          f"{read * 1e3:.1f} ms, replay rules {rules * 1e3:.1f} ms "
          f"({rules / len(events_) * 1e6:.0f} us/event)")
    assert replay_log(log)[1].over and len(CARD) == 32
    play_on_a_long_log()


def process(command: list[str], runs: int, before=None) -> float:
    """Median wall time of a command, bytecode cached as on a user's machine."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times = []
    for index in range(runs + 1):
        if before:
            before()
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env)
        if index:  # the first run fills the bytecode cache
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def play_on_a_long_log(runs: int = 11) -> None:
    seats = [Player(name) for name in NAMES]
    longest = max((play_out(GAME, seed, seats) for seed in range(300)),
                  key=lambda p: len(p.events))
    log = to_log(GAME, longest)
    log = evolve(log, entries=log.entries[:-1])
    before = replay_log(log)[1]
    last = longest.events[-1]
    move = GAME.format(before, last).split() + (["--as", last.by] if last.by else [])
    with tempfile.TemporaryDirectory() as tmp:
        source, target = Path(tmp) / "long.toml", Path(tmp) / "game.toml"
        source.write_text(logfile.dumps(log))
        play = process([sys.executable, "-m", "referee", "--log", str(target), "play", *move],
                       runs, lambda: shutil.copyfile(source, target))
    floor = process([sys.executable, "-c", "import typer"], runs)
    print(f"  (d) referee play on a {len(longest.events)}-event log: {play * 1e3:.0f} ms "
          f"(python -c 'import typer': {floor * 1e3:.0f} ms)")


if __name__ == "__main__":
    main()
