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
from referee.engine import Event, apply_event  # noqa: E402
from referee.games.kingmaker import GAME  # noqa: E402
from referee.games.kingmaker.components import TEST_BOX, file_text  # noqa: E402
from referee.replay import from_table, replay_log  # noqa: E402
from referee.simulate import default_players, simulate  # noqa: E402

def timed_runs(command: list[str], runs: int, before=None) -> float:
    """The best wall time of a command over `runs` runs (after one warm-up), `before` run
    before each."""
    times = []
    for index in range(runs + 1):
        if before is not None:
            before()
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        if index:
            times.append(time.perf_counter() - start)
    return min(times)


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


def full_chancery_parliament(players: int = 6, length: int = 400):
    """A People's Parliament in session in a 6-player game, every noble attending, with every
    title, office and bishop of the box in the Chancery (taken from the nobles): the largest
    Parliament the test box can make."""
    from referee.evolve import evolve
    from referee.games.kingmaker import rules
    from referee.games.kingmaker.events import assembly
    from referee.games.kingmaker.state import CHANCERY, Sitting

    setup, _, state = long_game(players, length, seed=8, declared=False)
    state = evolve(state, sitting=None, people_due=False, duties=(), combat=None,
                    stage="parliament")
    cards = {c: (CHANCERY if state.kind(c) in ("title", "office", "bishop") and
                 w not in ("aside", "out") else w) for c, w in state.cards.items()}
    state = evolve(state, cards=cards)
    attending = tuple(state.nobles)
    votes = rules.tally(state, attending)
    sitting = Sitting(caller=state.active, by="", place="Hull", noble=attending[0],
                      people=True, attending=attending,
                      tally=tuple((p, *votes[p]) for p in state.playing))
    return setup, assembly.start_rounds(evolve(state, sitting=sitting))


def bench_parliament() -> None:
    """The slowest `options` of a Parliament with a full Chancery, step by step: the bishops,
    the selection, each proposal and vote (all voted down, so that every card goes round), and
    round 3's unvoted assignments."""
    setup, state = full_chancery_parliament()
    pool = len(state.sitting.pool)
    worst, where, positions = 0.0, "", 0
    while state.sitting is not None and state.sitting.step != "business":
        start = time.perf_counter()
        legal = GAME.legal(state)
        GAME.option_lines(state, legal)
        took = time.perf_counter() - start
        positions += 1
        step = state.sitting.step
        if took > worst:
            worst, where = took, f"{step}, {len(legal)} moves"
        if step == "select":
            cards = [c for c in state.sitting.pool if state.kind(c) in ("title", "office")]
            from referee.games.kingmaker.events.assembly import titles_first
            event = Event.make("select", state.sitting.leader, cards=titles_first(state, cards))
        elif step == "vote":
            event = Event.make("vote", None, yea=[], nay=list(state.playing))
        else:
            event = next(e for e in legal if e.type in ("bishop", "propose", "assign"))
        state = apply_event(GAME, state, event, setup.players)
    print(f"(e) worst options in a Parliament with a full Chancery ({pool} cards, "
          f"{len(state.nobles)} nobles, {len(state.playing)} players) over {positions} positions: "
          f"{worst * 1000:.1f} ms ({where})")


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
    bench_parliament()


if __name__ == "__main__":
    main()
