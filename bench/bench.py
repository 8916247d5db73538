"""Speed of the three jobs, measured (never asserted in tests). The README quotes the figures.

    python bench/bench.py [--quick] [--games ID ...] [--jobs-logs N] [--instructions]
                          [--only SECTION ...]

Every figure is printed beside its floor, measured in the same run:
(1) `options` in the game's worst position (constructed where we know it, else the position with
    the most legal moves found in random games): time and peak memory, in-process; and a mistyped
    `play` there (refused, with the closest legal moves).
(2) `referee play` on a long log, as a whole process, against `python -c "import typer"`: with the
    replay cache warm (the log was written by the previous command, as at the table) and cold;
    the floor, the warm and the cold command run in turn (paired).
(2b) `referee table` on the same long logs: a move's time in the session, from the line entered to
    the next prompt ready (answer, append with fsync, what it prints, the prompt), in-process,
    as the session holds the game between moves; and the session's start-up as a whole process
    (open the log, read to the end of input, leave) against the same floor.
(3) `referee check`: events per second per core, in-process, and its time divided by a plain
    `tomllib.load` of the same files (the parser a pure-Python referee could not beat); on
    simulated logs, which carry no event times, and on the same logs timed as `play` writes
    them at a table (a time to every event: more to parse, and Kingmaker's clock to keep).
    Beside them, in the same rounds, python-chess reading random games from PGN (moves per
    second; install it with `pip install -e '.[bench]'`): a mature pure-Python library doing
    what `check` does, reading moves from text and validating them.
(4) `referee check --jobs 2` on many logs, as a whole process: the speed-up over `--jobs 1`.
(5) `referee simulate`: games per second.
A summary at the end puts each game's cold `play` (x the floor) and `check` (events/s, x
python-chess, x tomllib) of this one run side by side; `--only 2 3` runs just those sections.
Run it on an idle machine; the timings are minimums (or medians where said) of repeated runs
(for (3), the sum of each file's best time).

`--instructions` adds, where valgrind is installed, the CPU instructions of (2) beside its floor
(callgrind's count, user space only: fsync and the disk are not in it), and of (3): each game's
check and tomllib.load of the same files, and python-chess reading the same PGN, each one process
less its start-up (the same script with nothing counted, a fixed hash seed). Unlike the timings,
they do not drift with a shared virtual machine's speed, so a ratio near its goal can be told from
noise; they are not the goal itself, which is time. For `check` they flatter: the ratio of
instructions comes out well below that of times (1.36 against 2.02 x tomllib for Kingmaker on
2026-11-27; README, "Speed", says where the gap comes from), so both are printed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import difflib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import tracemalloc
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from worst import WORST  # noqa: E402

from referee import cachecodec  # noqa: E402
from referee import log as logfile  # noqa: E402
from referee import replay  # noqa: E402
from referee.check import check_file  # noqa: E402
from referee.engine import Game, available_game_ids, load_game  # noqa: E402
from referee.errors import MoveError  # noqa: E402
from referee.evolve import evolve  # noqa: E402
from referee.simulate import default_players, play_out, simulate, to_log  # noqa: E402


def environment() -> dict[str, str]:
    """Bytecode caching on, as on a user's machine (this workplace sets PYTHONDONTWRITEBYTECODE,
    which would make every run compile every module again); a private replay cache."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["REFEREE_LOCK_TIMEOUT"] = "5"
    env["PYTHONPATH"] = str(ROOT)
    return env


def paired(commands: list[list[str]], runs: int, prepare: list[Callable[[], None] | None],
           env: dict[str, str] | list[dict[str, str]]) -> list[float]:
    """The minimum wall time of each command, the commands run in turn (paired) `runs` times;
    `env` is every command's environment, or a list of one per command."""
    envs = env if isinstance(env, list) else [env] * len(commands)
    times: list[list[float]] = [[] for _ in commands]
    for command, prep, each in zip(commands, prepare, envs):  # warm-up: the bytecode cache
        if prep:
            prep()
        subprocess.run(command, check=True, capture_output=True, env=each)
    for _ in range(runs):
        for index, (command, prep, each) in enumerate(zip(commands, prepare, envs)):
            if prep:
                prep()
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, env=each)
            times[index].append(time.perf_counter() - start)
    return [min(t) for t in times]


# --------------------------------------------------------------------------------------------
# (1) options in the worst position


def worst_position(game: Game[Any], quick: bool) -> tuple[Any, str]:
    """The game's worst known position for `options`, and how it was found."""
    if game.id in WORST:
        return WORST[game.id](game), "constructed"
    best, most = None, -1
    for seed in range(10 if quick else 60):
        playout = play_out(game, seed, default_players(game, None))
        state = playout.setup.state
        for event in playout.events:
            count = game.count_moves(state)
            if count > most:
                best, most = state, count
            state = replay.final(replay.Setup(game, playout.players, playout.setup.options,
                                              playout.seed, state),
                                 replay.events_to_entries([event]))
    return best, "most moves in random games"


def fresh(game: Game[Any], state: Any) -> Any:
    """A copy of `state` no computation has seen, as a command finds it in the replay cache
    (what a game recalls for a state object, it would recall for the same one again)."""
    return cachecodec.decode(cachecodec.encode(game.id, state))[1]


def options_cost(game: Game[Any], state: Any, runs: int) -> tuple[float, float, int]:
    """Seconds and peak MiB of what `referee options` computes, and how many moves it covers."""
    def options(state: Any) -> list[str]:
        events = game.legal(state)
        game.count_moves(state, listed=events)  # as session.Listing passes it on
        return game.option_lines(state, events)

    times = []
    for _ in range(runs):
        copy = fresh(game, state)
        start = time.perf_counter()
        options(copy)
        times.append(time.perf_counter() - start)
    copy = fresh(game, state)
    tracemalloc.start()
    options(copy)
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return min(times), peak, game.count_moves(state)


def mistyped_cost(game: Game[Any], state: Any, runs: int) -> tuple[float, str]:
    """Seconds for a refused move there: parse, refusal, the closest legal moves (as `play`)."""
    player = game.default_player(state)
    lines = game.option_lines(state, game.legal(state, player))
    text = (lines[0].split("  ")[0] if lines else "x") + " nonsense"
    times = []
    for _ in range(runs):
        copy = fresh(game, state)
        start = time.perf_counter()
        try:
            game.parse(copy, text, player)
        except MoveError:
            close = [line.split("  ")[0]
                     for line in game.option_lines(copy, game.legal(copy, player))]
            difflib.get_close_matches(text, close, n=3, cutoff=0.0)
        times.append(time.perf_counter() - start)
    return min(times), text


# --------------------------------------------------------------------------------------------
# (2) play on a long log


def longest_playout(game: Game[Any], seeds: int, target: int) -> Any:
    """The seeded random game with the most events (up to `target`), to make a long log."""
    players = default_players(game, None)
    best = None
    for seed in range(seeds):
        playout = play_out(game, seed, players)
        if best is None or len(playout.events) > len(best.events):
            best = playout
        if len(best.events) >= target:
            break
    return best


def bench_play(game: Game[Any], runs: int, work: Path, env: dict[str, str],
               seeds: int, counting: bool = False) -> dict[str, Any]:
    playout = longest_playout(game, seeds, 300)
    events = playout.events[:300]
    log = to_log(game, playout)
    shorter = evolve(log, entries=log.entries[:len(events) - 1])
    source = work / f"{game.id}-long.toml"
    source.write_text(logfile.dumps(shorter))
    before = replay.replay_log(logfile.read(source))[1]
    last = events[-1]
    target = work / "game.toml"
    move = ["play", *game.format(before, last).split()] + (["--as", last.by] if last.by else [])
    command = [sys.executable, "-m", "referee", "--log", str(target), *move]
    status = [sys.executable, "-m", "referee", "--log", str(target), "status"]
    cache_env = dict(env, XDG_CACHE_HOME=str(work / "cache"))
    cold_env = dict(cache_env, REFEREE_CACHE="0")

    def warm() -> None:  # as at the table: the previous command left the game in the cache
        shutil.copyfile(source, target)
        subprocess.run(status, check=True, capture_output=True, env=cache_env)

    def cold() -> None:
        shutil.copyfile(source, target)

    floor, warm_s, cold_s = paired([[sys.executable, "-c", "import typer"], command, command],
                                   runs, [None, warm, cold], [cache_env, cache_env, cold_env])
    out = {"events": len(events), "floor": floor, "warm": warm_s, "cold": cold_s}
    if counting:
        out["floor_i"] = instructions([sys.executable, "-c", "import typer"], cache_env)
        out["python_i"] = instructions([sys.executable, "-c", "pass"], cache_env)
        warm()
        out["warm_i"] = instructions(command, cache_env)
        cold()
        out["cold_i"] = instructions(command, cold_env)
    return out


def bench_table(game: Game[Any], runs: int, work: Path, env: dict[str, str],
                seeds: int) -> dict[str, Any]:
    """(2b): a move in a `referee table` session on a long log, and the session's start-up."""
    import contextlib
    import io

    from referee import session
    from referee import table as sessions

    class Quiet:  # the session's console, printing into a buffer (as to a terminal)
        def say(self, text: str) -> None:
            print(text)

        def read_secret(self) -> str:  # pragma: no cover - no sealed move is timed
            raise AssertionError("a sealed move")

        def show_secret(self, player: str, text: str) -> None:
            print(text)

    playout = longest_playout(game, seeds, 300)
    events = playout.events[:300]
    log = to_log(game, playout)
    source = work / f"{game.id}-table.toml"
    source.write_text(logfile.dumps(evolve(log, entries=log.entries[:len(events) - 1])))
    target = work / "table.toml"
    shutil.copyfile(source, target)
    known = session.load_known(target)
    last = events[-1]
    line = game.format(known.table.state, last) + (f" --as {last.by}" if last.by else "")
    cache_env = dict(env, XDG_CACHE_HOME=str(work / "cache"))
    times, cpu = [], []
    for _ in range(runs):
        shutil.copyfile(source, target)
        shown = io.StringIO()
        with contextlib.redirect_stdout(shown):
            start, start_cpu = time.perf_counter(), time.process_time()
            outcome = sessions.answer(target, known, line, Quiet())
            sessions.prompt(outcome.known.table)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        assert outcome.status == 0 and "referee: " not in shown.getvalue(), shown.getvalue()
    fsyncs = []
    for _ in range(runs):  # the floor of a durable append: one fsync of the file, one of its folder
        start = time.perf_counter()
        fd = os.open(target, os.O_RDWR)
        os.fsync(fd)
        os.close(fd)
        fd = os.open(work, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
        fsyncs.append(time.perf_counter() - start)
    session_start = [sys.executable, "-m", "referee", "--log", str(target), "table"]

    def opened() -> None:
        shutil.copyfile(source, target)
        subprocess.run(session_start, check=True, capture_output=True, env=cache_env,
                       stdin=subprocess.DEVNULL)

    floor, started = paired([[sys.executable, "-c", "import typer"], session_start], runs,
                            [None, opened], cache_env)
    return {"events": len(events), "move": min(times), "median": sorted(times)[len(times) // 2],
            "cpu": min(cpu),
            "fsync": min(fsyncs), "floor": floor, "start": started}


def instructions(command: list[str], env: dict[str, str]) -> int:
    """The instructions a command runs (valgrind's callgrind, user space only)."""
    result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                             *command], capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", result.stderr)
    assert found, result.stderr[-500:]
    return int(found.group(1))


def counted_bodies(preamble: str, bodies: dict[str, str]) -> dict[str, int]:
    """The instructions of each body of Python code run after `preamble` in one process, less
    those of the preamble alone (the "base": start-up, imports, whatever it warms). The hash
    seed is fixed, since set order moves a count by up to 10%; a first, uncounted base writes
    the bytecode."""
    env = dict(environment(), PYTHONHASHSEED="0")

    def run(body: str) -> int:
        return instructions([sys.executable, "-c", f"{preamble}\n{body}"], env)

    run("pass")
    base = run("pass")
    return {name: run(body) - base for name, body in bodies.items()}


def check_instructions(game_id: str, files: list[Path]) -> dict[str, int]:
    """(3)'s instructions: checking `files` and tomllib.load of them, one after the other as in
    `bench_check`; the game loaded and one file checked before, so that imports are not counted."""
    preamble = ("import tomllib\nfrom pathlib import Path\nfrom referee.check import check_file\n"
                f"from referee.engine import load_game\nload_game({game_id!r})\n"
                f"FILES = {[str(f) for f in files]!r}\ncheck_file(Path(FILES[0]))")
    return counted_bodies(preamble, {
        "check_i": "for f in FILES:\n    assert check_file(Path(f)).ok",
        "toml_i": "for f in FILES:\n    with open(f, 'rb') as h:\n        tomllib.load(h)"})


# --------------------------------------------------------------------------------------------
# (3), (4) check


def make_logs(game_id: str, count: int, folder: Path) -> list[Path]:
    simulate(game_id, count, 11, save=folder)
    return sorted(folder.glob("*.toml"))


def timed_copies(files: list[Path], folder: Path) -> list[Path]:
    """The logs as `play` writes them at a table, where every event carries its time (a
    simulated log has none): 10 s apart from the log's start, and the last two events a day
    later, so that a game ended by its clock (Kingmaker's `end time`, at a turn's end) ends
    past its time limit, as at the table."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for path in files:
        log = logfile.read(path)
        last = len(log.entries)
        entries = tuple(evolve(entry, at=log.created + dt.timedelta(
            seconds=10 * entry.seq, days=1 if entry.seq >= last - 1 else 0))
            for entry in log.entries)
        out.append(folder / path.name)
        out[-1].write_text(logfile.dumps(evolve(log, entries=entries)))
    return out


def bench_check(logs: dict[str, list[Path]], rounds: int,
                chess: tuple[str, int] | None = None) -> tuple[dict[str, dict[str, float]],
                                                                float | None]:
    """Each game's check and tomllib.load of its files, in `rounds` rounds that take every game
    in turn; each file is checked and then parsed back to back, so that both meet the same
    neighbours. A figure is the sum over the files of each one's best time: on a shared machine
    a neighbour slows some files of a round, seldom the same file in every round, so the sum of
    the bests is steadier than the best of the rounds' sums (and as fair to both sides).
    `chess` (PGN text, its moves) is read by python-chess once a round, between the games: its
    moves per second, the best round's, are the second figure."""
    clock = time.process_time
    best = {game_id: ([float("inf")] * len(files), [float("inf")] * len(files))
            for game_id, files in logs.items()}
    events = dict.fromkeys(logs, 0)
    chess_best = float("inf")
    for _ in range(rounds):
        for turn, (game_id, files) in enumerate(logs.items()):
            if chess and turn == len(logs) // 2:
                chess_best = min(chess_best, read_pgn(chess[0], chess[1]))
            checks, parses = best[game_id]
            total = 0
            for index, path in enumerate(files):
                start = clock()
                report = check_file(path)
                middle = clock()
                with open(path, "rb") as handle:
                    tomllib.load(handle)
                end = clock()
                assert report.ok, (path, report.findings[:1])
                total += report.events
                checks[index] = min(checks[index], middle - start)
                parses[index] = min(parses[index], end - middle)
            events[game_id] = total
    figures = {game_id: {"events": events[game_id], "check": sum(checks), "toml": sum(parses)}
               for game_id, (checks, parses) in best.items()}
    return figures, chess[1] / chess_best if chess else None


def bench_jobs(files: list[Path], runs: int, env: dict[str, str]) -> tuple[float, float]:
    command = [sys.executable, "-m", "referee", "check", *map(str, files)]
    one, two = paired([command + ["--jobs", "1"], command + ["--jobs", "2"]], runs,
                      [None, None], env)
    return one, two


def chess_games(moves_wanted: int = 20000) -> tuple[str, int] | None:
    """Random chess games as PGN text and their number of moves (None if python-chess, the
    `bench` extra, is not installed): the anchor of (3), a mature pure-Python library
    validating moves read from a text file, as `check` does."""
    try:
        import chess
        import chess.pgn
    except ImportError:
        return None
    rng = random.Random(1)
    games = []
    total = 0
    while total < moves_wanted:
        board, game = chess.Board(), chess.pgn.Game()
        node = game
        while not board.is_game_over() and board.ply() < 200:
            move = rng.choice(list(board.legal_moves))
            node = node.add_variation(move)
            board.push(move)
        games.append(str(game))
        total += board.ply()
    return "\n\n".join(games), total


def pgn_instructions(text: str, moves: int, work: Path) -> float:
    """python-chess's instructions per move reading `text` from a file, as `read_pgn` does."""
    path = work / "games.pgn"
    path.write_text(text)
    preamble = f"import chess.pgn\nstream = open({str(path)!r})"
    return counted_bodies(preamble, {"read": (
        "count = 0\nwhile (game := chess.pgn.read_game(stream)) is not None:\n"
        "    count += len(list(game.mainline_moves()))\n"
        f"assert count == {moves}, count")})["read"] / moves


def read_pgn(text: str, moves: int) -> float:
    """CPU seconds for python-chess to read and validate every move of `text`."""
    import io

    import chess.pgn

    start = time.process_time()
    stream, count = io.StringIO(text), 0
    while (game := chess.pgn.read_game(stream)) is not None:
        count += len(list(game.mainline_moves()))
    assert count == moves, (count, moves)
    return time.process_time() - start


# --------------------------------------------------------------------------------------------


SPIN = "total = 0\nfor i in range(6_000_000):\n    total += i * i % 7"


def host_check(rounds: int = 3) -> float:
    """Two CPU-bound loops, each a fresh Python, one after the other, then at once: the ratio of
    the times. An idle 2-core machine gives nearly 2; a shared VM whose neighbour is busy gives
    less, and then single figures move by up to half (README, "Speed")."""
    command = [sys.executable, "-c", SPIN]
    in_turn = at_once = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(2):
            subprocess.run(command, check=True)
        in_turn = min(in_turn, time.perf_counter() - start)
        start = time.perf_counter()
        workers = [subprocess.Popen(command) for _ in range(2)]
        for worker in workers:
            worker.wait()
        at_once = min(at_once, time.perf_counter() - start)
    return in_turn / at_once


SECTIONS = ("1", "2", "2b", "3", "4", "5")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs (a smoke test)")
    parser.add_argument("--games", nargs="*", default=None, help="game ids (default: all)")
    parser.add_argument("--jobs-logs", type=int, default=None, help="logs for (4): 1000")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the instructions of (2) and (3) (needs valgrind)")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=SECTIONS,
                        metavar="SECTION", help="the sections to run (default: all of "
                        f"{', '.join(SECTIONS)}); `--only 2 3` gives the summary's figures")
    args = parser.parse_args()
    counting = args.instructions and shutil.which("valgrind") is not None
    if args.instructions and not counting:
        print("valgrind is not on the PATH: no instruction counts, only times")
    quick, only = args.quick, set(args.only)
    runs = 3 if quick else 15
    games = [load_game(g) for g in (args.games or available_game_ids())]
    env = environment()
    print(f"python {sys.version.split()[0]} on {os.cpu_count()} cores; "
          f"load {os.getloadavg()[0]:.2f}; runs {runs}; two loops at once run "
          f"{host_check():.2f} x as fast as in turn (an idle 2-core machine: nearly 2)")
    plays: dict[str, dict[str, Any]] = {}
    checks: dict[str, dict[str, float]] = {}
    chess_rate = None
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if "1" in only:
            print("\n(1) options in the worst position (goal: <= 20 ms, <= 50 MiB; mistyped "
                  "play <= 50 ms)")
        for game in games if "1" in only else ():
            state, how = worst_position(game, quick)
            seconds, peak, moves = options_cost(game, state, runs)
            typo, text = mistyped_cost(game, state, runs)
            print(f"  {game.id:<20} {seconds * 1e3:7.2f} ms {peak:6.2f} MiB for {moves:,} moves "
                  f"({how}); mistyped `{text[:30]}`: {typo * 1e3:.2f} ms")
        if "2" in only:
            print("\n(2) referee play on a long log, whole process (goal: <= 1.3 x the floor)")
        for game in games if "2" in only else ():
            p = plays[game.id] = bench_play(game, runs, work, env, 20 if quick else 200,
                                            counting)
            print(f"  {game.id:<20} {p['events']:>3} events: floor `python -c 'import typer'` "
                  f"{p['floor'] * 1e3:5.1f} ms; play {p['warm'] * 1e3:5.1f} ms "
                  f"({p['warm'] / p['floor']:.2f} x) with the cache warm, {p['cold'] * 1e3:5.1f}"
                  f" ms ({p['cold'] / p['floor']:.2f} x) cold")
            if counting:
                print(f"  {'':<20} instructions: floor {p['floor_i'] / 1e6:,.0f} M; play "
                      f"{p['warm_i'] / 1e6:,.0f} M ({p['warm_i'] / p['floor_i']:.2f} x) warm, "
                      f"{p['cold_i'] / 1e6:,.0f} M ({p['cold_i'] / p['floor_i']:.2f} x) cold")
                print(f"  {'':<20} above Python alone ({p['python_i'] / 1e6:,.0f} M; a plain "
                      f"`play` loads no Typer): warm {(p['warm_i'] - p['python_i']) / 1e6:,.0f} "
                      f"M, cold {(p['cold_i'] - p['python_i']) / 1e6:,.0f} M")
        if "2b" in only:
            print("\n(2b) referee table on the same long logs: a move, line to next prompt, in "
                  "the session (goal: <= 10 ms); start-up, whole process (goal: <= 1.3 x the "
                  "floor)")
        for game in games if "2b" in only else ():
            t = bench_table(game, runs, work, env, 20 if quick else 200)
            print(f"  {game.id:<20} {t['events']:>3} events: a move {t['move'] * 1e3:5.2f} ms "
                  f"(median {t['median'] * 1e3:5.2f}, CPU {t['cpu'] * 1e3:4.2f}; two fsyncs alone "
                  f"{t['fsync'] * 1e3:4.2f} ms); start {t['start'] * 1e3:5.1f} ms "
                  f"({t['start'] / t['floor']:.2f} x the floor {t['floor'] * 1e3:5.1f} ms)")
        if "3" in only:
            checks, chess_rate = check_section(games, work, quick, counting)
        if "4" in only:
            count = args.jobs_logs or (60 if quick else 1000)
            mixed = [f for game in games for f in make_logs(game.id, count // len(games),
                                                              work / f"jobs-{game.id}")]
            one, two = bench_jobs(mixed, 3 if quick else 5, env)
            print(f"\n(4) check --jobs 2 on {len(mixed)} logs (goal: >= 1.7 x): --jobs 1 "
                  f"{one:.2f} s, --jobs 2 {two:.2f} s: {one / two:.2f} x")
        if "5" in only:
            print("\n(5) simulate")
        for game in games if "5" in only else ():
            summary = simulate(game.id, 20 if quick else 200, 7)
            print(f"  {game.id:<20} {summary.games / summary.seconds:,.1f} games/s "
                  f"({summary.events / summary.games:.0f} events per game)")
    print_summary(games, plays, checks, chess_rate)
    print(f"\nat the end: load {os.getloadavg()[0]:.2f}, two loops at once {host_check():.2f} x "
          "as fast as in turn; a load well above 0, or a ratio well below 2 on 2 cores, means "
          "the figures are not those of an idle machine: run again")


def check_section(games: list[Game[Any]], work: Path, quick: bool,
                  counting: bool) -> tuple[dict[str, dict[str, float]], float | None]:
    """(3): each game's check against tomllib.load, and python-chess, in the same rounds; if
    `counting`, their instructions too."""
    chess = chess_games(5000 if quick else 20000)
    print("\n(3) check in-process (goals: >= 32k events/s per core and >= python-chess's moves "
          "from PGN, in the same rounds; <= 1.5 x tomllib.load)")
    logs = {game.id: make_logs(game.id, 20 if quick else 200, work / game.id) for game in games}
    # and the same games as a table's logs, every event timed
    logs.update({f"{game_id} timed": timed_copies(files, work / f"timed-{game_id}")
                 for game_id, files in list(logs.items())})
    checks, chess_rate = bench_check(logs, 3 if quick else 7, chess)
    versus = chess_rate or float("nan")
    print(f"  {'python-chess from PGN':<26} {chess[1] if chess else 0:,} moves: "
          + (f"{chess_rate:,.0f} moves/s" if chess_rate else "not installed (pip install "
             "-e '.[bench]')"))
    for game_id, c in checks.items():
        rate = c["events"] / c["check"]
        print(f"  {game_id:<26} {len(logs[game_id])} logs, {c['events']:,} events: "
              f"{rate:,.0f} events/s ({rate / versus:.2f} x python-chess); check "
              f"{c['check'] * 1e3:.0f} ms = {c['check'] / c['toml']:.2f} x tomllib.load "
              f"{c['toml'] * 1e3:.0f} ms")
    if counting:
        count_check_section(checks, logs, chess, work)
    return checks, chess_rate


def count_check_section(checks: dict[str, dict[str, float]], logs: dict[str, list[Path]],
                        chess: tuple[str, int] | None, work: Path) -> None:
    """(3) in instructions: print them, and add them to each game's figures in `checks`."""
    per_move = pgn_instructions(*chess, work) if chess else None
    print("  instructions (callgrind, start-up subtracted, PYTHONHASHSEED=0):")
    if per_move:
        print(f"  {'python-chess from PGN':<26} {per_move:,.0f} per move")
    for game_id, c in checks.items():
        c.update(check_instructions(game_id.removesuffix(" timed"), logs[game_id]))
        per_event = c["check_i"] / c["events"]
        if per_move:
            c["chess_x_i"] = per_move / per_event
        print(f"  {game_id:<26} check {c['check_i'] / 1e6:,.1f} M, tomllib.load "
              f"{c['toml_i'] / 1e6:,.1f} M: {c['check_i'] / c['toml_i']:.2f} x; "
              f"{per_event:,.0f} per event"
              + (f" ({c['chess_x_i']:.2f} x python-chess in instructions)" if per_move else ""))


def print_summary(games: list[Game[Any]], plays: dict[str, dict[str, Any]],
                  checks: dict[str, dict[str, float]], chess_rate: float | None) -> None:
    """The goals' figures of this one run side by side (issue 27's "Done when")."""
    if not plays and not checks:
        return
    print("\nsummary (goals: cold play <= 1.3 x the floor; check <= 1.5 x tomllib.load and >= "
          "python-chess's moves/s"
          + (f", {chess_rate:,.0f} in this run)" if chess_rate else ")"))
    for game in games:
        figures = []
        p = plays.get(game.id)
        if p:
            figures.append(f"cold play {p['cold'] / p['floor']:.2f} x the floor"
                           + (f" ({p['cold_i'] / p['floor_i']:.2f} x its instructions)"
                              if "cold_i" in p else ""))
        c = checks.get(game.id)
        if c:
            rate = c["events"] / c["check"]
            figures.append(f"check {rate:,.0f} events/s"
                           + (f" = {rate / chess_rate:.2f} x python-chess" if chess_rate else "")
                           + (f" ({c['chess_x_i']:.2f} x in instructions)"
                              if "chess_x_i" in c else "")
                           + f", {c['check'] / c['toml']:.2f} x tomllib.load"
                           + (f" ({c['check_i'] / c['toml_i']:.2f} x in instructions)"
                              if "check_i" in c else ""))
        print(f"  {game.id:<20} {'; '.join(figures)}")


if __name__ == "__main__":
    main()
