"""Speed of the three jobs, measured (never asserted in tests). Figures go in the README.

    python bench/bench.py [--quick]

(a) `referee play` on a long log, as a whole process, against a bare `python -c "import typer"`:
    what a player waits for at the table.
(b) `referee check` throughput in events per second, and the share of it spent parsing TOML.
(c) `referee simulate` games per second.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee import log as logfile  # noqa: E402
from referee.check import check_file  # noqa: E402
from referee.engine import available_game_ids, load_game  # noqa: E402
from referee.simulate import default_players, play_out, simulate, to_log  # noqa: E402


def timed_runs(command: list[str], runs: int, prepare=None) -> float:
    """Median wall time of `command` over `runs` runs (seconds)."""
    times = []
    # Bytecode caching on, as on a user's machine (this workplace sets PYTHONDONTWRITEBYTECODE,
    # which would make every run compile every module again); one warm-up run fills the cache.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["REFEREE_LOCK_TIMEOUT"] = "5"
    if prepare:
        prepare()
    subprocess.run(command, check=True, capture_output=True, env=env)
    for _ in range(runs):
        if prepare:
            prepare()
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def longest_playout(game_id: str, seeds: int, target: int):
    """The seeded random game with the most events (up to `target`), to make a long log."""
    game = load_game(game_id)
    players = default_players(game, None)
    best = None
    for seed in range(seeds):
        playout = play_out(game, seed, players)
        if best is None or len(playout.events) > len(best.events):
            best = playout
        if len(best.events) >= target:
            break
    return game, best


def bench_play(game_id: str, runs: int, workdir: Path) -> dict:
    game, playout = longest_playout(game_id, 200, 301)
    events = playout.events[:300]
    log = to_log(game, playout)
    log = logfile.replace(log, entries=log.entries[:len(events) - 1])
    source = workdir / f"{game_id}-long.toml"
    source.write_text(logfile.dumps(log))
    state = playout.state
    # The move to play is the last event of the long log, in its canonical notation.
    from referee.replay import replay_log

    before = replay_log(log)[1]
    move = game.format(before, events[-1])
    target = workdir / "game.toml"

    def fresh() -> None:
        shutil.copyfile(source, target)

    play = timed_runs([sys.executable, "-m", "referee", "--log", str(target), "play", *move.split(),
                       "--as", events[-1].by or ""] if events[-1].by else
                      [sys.executable, "-m", "referee", "--log", str(target), "play",
                       *move.split()], runs, fresh)
    del state
    return {"game": game_id, "events": len(events), "play_s": play}


def bench_check(game_id: str, count: int, workdir: Path) -> dict:
    folder = workdir / f"logs-{game_id}"
    simulate(game_id, count, 11, save=folder)
    files = sorted(folder.glob("*.toml"))
    start = time.perf_counter()
    reports = [check_file(f) for f in files]
    total = time.perf_counter() - start
    assert all(r.ok for r in reports), [r.findings for r in reports if not r.ok][:1]
    start = time.perf_counter()
    for f in files:
        tomllib.loads(f.read_text())
    parse = time.perf_counter() - start
    events = sum(r.events for r in reports)
    return {"game": game_id, "logs": len(files), "events": events,
            "events_per_s": events / total, "toml_share": parse / total}


def bench_simulate(game_id: str, games: int) -> dict:
    summary = simulate(game_id, games, 7)
    return {"game": game_id, "games_per_s": summary.games / summary.seconds,
            "events_per_game": summary.events / summary.games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs (a smoke test)")
    parser.add_argument("--games", nargs="*", default=None, help="game ids (default: all)")
    args = parser.parse_args()
    runs, logs, sims = (3, 20, 20) if args.quick else (15, 200, 300)
    games = args.games or available_game_ids()
    print(f"python {sys.version.split()[0]} on {os.cpu_count()} cores; runs={runs}")
    baseline = timed_runs([sys.executable, "-c", "import typer"], runs)
    print(f"baseline: python -c 'import typer'          {baseline * 1000:7.1f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for game_id in games:
            p = bench_play(game_id, runs, work)
            print(f"(a) {game_id:<20} play on a {p['events']}-event log  {p['play_s'] * 1000:7.1f} ms"
                  f"  (+{(p['play_s'] - baseline) * 1000:.1f} ms over the baseline)")
        for game_id in games:
            c = bench_check(game_id, logs, work)
            print(f"(b) {game_id:<20} check {c['logs']} logs, {c['events']} events: "
                  f"{c['events_per_s']:,.0f} events/s, TOML parsing {c['toml_share']:.0%} of it")
        for game_id in games:
            s = bench_simulate(game_id, sims)
            print(f"(c) {game_id:<20} simulate {s['games_per_s']:,.1f} games/s "
                  f"({s['events_per_game']:.0f} events per game)")


if __name__ == "__main__":
    main()
