"""Benchmark Kingmaker: `play` on a long log (a whole evening's game), `check`, `simulate`, and
the worst `options` position found in random play.

    python bench/kingmaker.py [--quick]

Prints figures for the README; nothing here is asserted (timings depend on the machine).
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import shutil
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import timed_runs  # noqa: E402

from referee import log as logfile  # noqa: E402
from referee.check import check_file  # noqa: E402
from referee.engine import Event, apply_event  # noqa: E402
from referee.games.kingmaker import GAME  # noqa: E402
from referee.games.kingmaker.components import TEST_BOX, file_text  # noqa: E402
from referee.replay import from_table, replay_log  # noqa: E402
from referee.simulate import default_players, simulate  # noqa: E402

CALM = ("Fair Weather", "Bad Weather Delays Attack", "Writ", "Free Move", "Embassy")


def long_game(players: int, events: int, seed: int = 5, declared: bool = True):
    """A game of about `events` events by the random player, past its usual three rounds (its
    `end` proposals are replaced by a harmless event card), from a components file when
    `declared` (135 declarations at the head of the log, as `new --components` writes)."""
    seats = default_players(GAME, players)
    options, head = GAME.opening({}, ("box.toml", file_text(TEST_BOX))) if declared else \
        ({}, [])
    setup = from_table(GAME, seats, options, None)
    state, played = setup.state, []
    start = dt.datetime(2026, 11, 21, 19, 0, tzinfo=dt.timezone.utc)
    rng = random.Random(seed)
    for event in head:
        state = apply_event(GAME, state, event, setup.players, start)
        played.append(event)
    while len(played) < events and state.ended is None:
        event = GAME.random_event(state, rng)
        if event is None or event.type == "end":
            name = next(n for n in CALM if n == "Embassy" or
                        state.events_out.get(n, 0) < state.box.get("event", n).copies)
            event = Event.make("event", state.active, card=name)
        at = start + dt.timedelta(seconds=10 * len(played))
        state = apply_event(GAME, state, event, setup.players, at)
        played.append(event)
    return setup, played, state


def write_log(setup, events, path: Path) -> None:
    start = dt.datetime(2026, 11, 21, 19, 0, tzinfo=dt.timezone.utc)
    entries = tuple(logfile.Entry(i, e, start + dt.timedelta(seconds=10 * (i - 1)))
                    for i, e in enumerate(events, 1))
    log = logfile.GameLog(game=GAME.id, players=setup.players, options=setup.options,
                          created=start, referee="0.1.0", entries=entries)
    path.write_text(logfile.dumps(log))


def bench_play(runs: int, work: Path, length: int) -> None:
    setup, events, state = long_game(6, length)
    source = work / "long.toml"
    write_log(setup, events[:-1], source)
    last = events[-1]
    move = GAME.format(replay_log(logfile.read(source))[1], last)  # in its moment's notation
    target = work / "game.toml"
    command = [sys.executable, "-m", "referee", "--log", str(target), "play", *move.split()]
    if last.by:
        command += ["--as", last.by]
    baseline = timed_runs([sys.executable, "-c", "import typer"], runs)
    took = timed_runs(command, runs, lambda: shutil.copyfile(source, target))
    print(f"(a) play on a {len(events)}-event log (6 players, 135 declarations): "
          f"{took * 1000:.0f} ms; python -c 'import typer': {baseline * 1000:.0f} ms")


def bench_check(count: int, work: Path) -> None:
    folder = work / "logs"
    simulate("kingmaker", count, 11, save=folder)
    files = sorted(folder.glob("*.toml"))
    start = time.perf_counter()
    reports = [check_file(f) for f in files]
    total = time.perf_counter() - start
    assert all(r.ok for r in reports)
    start = time.perf_counter()
    for f in files:
        tomllib.loads(f.read_text())
    parse = time.perf_counter() - start
    events = sum(r.events for r in reports)
    print(f"(b) check {len(files)} simulated logs, {events} events: {events / total:,.0f} "
          f"events/s, TOML parsing {parse / total:.0%} of it")


def bench_simulate(games: int) -> None:
    summary = simulate("kingmaker", games, 7)
    print(f"(c) simulate: {summary.games / summary.seconds:.1f} games/s "
          f"({summary.events / summary.games:.0f} events per game, 3 players, three rounds)")


def bench_options(length: int) -> None:
    """The slowest `options` (legal moves and their folded lines) over a long game's states."""
    setup, events, _ = long_game(6, length, seed=8, declared=False)
    state, worst, where = setup.state, 0.0, ""
    for event in events:
        start = time.perf_counter()
        GAME.option_lines(state, GAME.legal(state))
        took = time.perf_counter() - start
        if took > worst:
            worst, where = took, f"{GAME.phase(state)} phase, {len(state.nobles)} nobles"
        state = apply_event(GAME, state, event, setup.players)
    print(f"(d) worst options in-process over {len(events)} positions: {worst * 1000:.1f} ms "
          f"({where})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs (a smoke test)")
    args = parser.parse_args()
    runs, logs, sims, length = (3, 10, 10, 300) if args.quick else (15, 100, 100, 900)
    print(f"Kingmaker; python {sys.version.split()[0]}; runs={runs}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        bench_play(runs, work, length)
        bench_check(logs, work)
    bench_simulate(sims)
    bench_options(length)


if __name__ == "__main__":
    main()
