"""Fuzz the command line the way a hostile or clumsy table would, and report bugs and hangs.

Two campaigns, both through the real entry point (`referee.console.main`, in-process):

- **plays**: fuzzed `referee play ...` attempts on logs of every game, in every phase, with and
  without a virtual pile or deal (`--shuffle --seed`): legal moves mangled word by word, words of
  the game's notation, huge numbers, control and format characters, bytes that are not UTF-8,
  `--as` and `--note` values. A rejected move must leave the log byte for byte as it was.
- **logs**: mutated logs (byte flips, cuts, TOML snippets of the wrong type, 5,000-digit numbers,
  arrays nested 600 deep, events reordered or repeated, text that is not UTF-8) through `check`,
  `status` and `score`.

- **typed**: every event type of every game typed well-formed in every situation that random
  playouts reach (a situation: the phase and the set of event types legal in it). The texts are
  real moves of each type, as `options` writes them, taken from any position of any playout.
  Every (situation, event type, text) is parsed and applied by the rules in-process (`sweep`),
  and a sample of them goes through `referee play` on the position's log.
- **components**: mutated Kingmaker components files (wrong types and kinds, unknown keys,
  duplicate names and aliases, rolls and ratios that are not, 5,000-digit numbers, values nested
  100,000 deep, cuts, bytes that are not UTF-8) through `referee new kingmaker --components`,
  then `check` and `status` of any log it starts.

Each run has a time limit (SIGALRM): one that passes it is a hang. The goal is no exit status 70
(a bug), no hang and no rejected move that changed its log.

    python -m tests.fuzz_cli                       # the full run (see --help for the sizes)
    python -m tests.fuzz_cli --plays 3000 --logs 1000 --typed 2000 --components 500 --jobs 1

`tests/test_fuzz_cli.py` runs a sample of this in CI.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee import log as logfile
from referee import replay
from referee.console import main
from referee.engine import Game, apply_event, available_game_ids, check_and_apply, load_game
from referee.errors import EXIT_INTERNAL, LogError, RefereeError
from referee.evolve import evolve
from referee.simulate import default_players, play_out, to_log

TIME_LIMIT = 20  # seconds one command may take before it counts as a hang
HUGE = "4" * 5000
JUNK = ["", " ", ",", "and", "as", "take", "give", "for", "from", "left", "right", "agreed",
        "0", "-1", "7", "99", "10", "11", "3.5", "1e9", "99999999999999999999", HUGE,
        HUGE + "a", "\x1b[2J", "\x07", "\u009b31m", "\u202e", "\u2066", "\u200b", "\u00ad",
        "\udcff", "\udc80abc", "é", "Ａｎｎ", "🎲", "'", '"', "\\", "--", "-", "--json", "%s",
        "{}", "[[events]]", "\n", "\t", "x" * 300]


@dataclass
class Findings:
    runs: int = 0
    covered: set[tuple[str, str, str]] = field(default_factory=set)  # typed: game, phase, type
    swept: int = 0  # typed: (situation, event type, text) triples parsed and applied in-process
    situations: int = 0  # typed: distinct (game, phase, legal event types) met
    statuses: Counter[int] = field(default_factory=Counter)
    bugs: list[dict[str, Any]] = field(default_factory=list)  # exit 70: input and message
    hangs: list[dict[str, Any]] = field(default_factory=list)
    touched: list[dict[str, Any]] = field(default_factory=list)  # rejected yet the log changed
    seconds: float = 0.0
    slowest: tuple[float, list[str]] = (0.0, [])  # the longest single run and its arguments

    def add(self, other: Findings) -> None:
        self.runs += other.runs
        self.statuses.update(other.statuses)
        self.bugs += other.bugs
        self.hangs += other.hangs
        self.touched += other.touched
        self.seconds = max(self.seconds, other.seconds)
        self.slowest = max(self.slowest, other.slowest, key=lambda s: s[0])
        self.covered |= other.covered
        self.swept += other.swept
        self.situations += other.situations

    def summary(self) -> dict[str, Any]:
        kinds = Counter(b["error"].splitlines()[0][:90] for b in self.bugs)
        return {"runs": self.runs, "exit_statuses": dict(sorted(self.statuses.items())),
                **({"phase_x_type": len(self.covered), "swept": self.swept,
                    "situations": self.situations} if self.covered else {}),
                "exit_70": len(self.bugs), "exit_70_kinds": dict(kinds.most_common(10)),
                "hangs": len(self.hangs),
                "rejected_but_log_changed": len(self.touched),
                "seconds": round(self.seconds, 1),
                "slowest_run": {"seconds": round(self.slowest[0], 2),
                                "args": self.slowest[1][:12]},
                "examples": {"exit_70": self.bugs[:5], "hangs": self.hangs[:5],
                             "touched": self.touched[:5]}}


class Hang(BaseException):
    """Raised by the alarm; a BaseException, so that `main` cannot report it as a bug."""


def _alarm(signum: int, frame: Any) -> None:
    raise Hang()


def run(args: list[str]) -> tuple[int, str, float]:
    """`referee ARGS` in-process: (exit status, stderr, seconds); the status is -1 for a hang."""
    err = io.StringIO()
    start = time.perf_counter()
    status = 0  # main always exits; 0 if it ever returns
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            try:
                main(args)
            except SystemExit as done:
                code = done.code
                status = code if isinstance(code, int) else 0
        return status, err.getvalue(), time.perf_counter() - start
    except Hang:
        return -1, err.getvalue(), time.perf_counter() - start
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --------------------------------------------------------------------------------------------
# Positions: logs of every game, in every phase, with and without the tool's shuffle


@dataclass(frozen=True)
class Position:
    game: Game[Any]
    log: logfile.GameLog
    moves: tuple[str, ...]  # legal moves as `options` would offer them, and as played
    names: tuple[str, ...]


def positions(rng: random.Random, games: int = 3) -> list[Position]:
    """Snapshots of random legal games: every game, player count, with and without a seed."""
    out = []
    for game_id in available_game_ids():
        game = load_game(game_id)
        for index in range(games):
            count = game.min_players + index % (game.max_players - game.min_players + 1)
            players = default_players(game, count)
            playout = play_out(game, rng.randrange(2**31), players)
            full = to_log(game, playout)
            state = playout.setup.state
            states = [state]
            for event in playout.events:
                state = apply_event(game, state, event, playout.setup.players)
                states.append(state)
            cuts = sorted({0, len(playout.events)} | {rng.randrange(len(playout.events) + 1)
                                                     for _ in range(40)})
            for cut in cuts:
                for seed in (full.seed, None):
                    log = evolve(full, entries=full.entries[:cut], seed=seed)
                    if seed is None and full.seed is not None and not _replays(log):
                        continue  # the tool dealt what this log does not record (King of the
                        #           Castle's deal): without the seed it is no log at all
                    moves = _moves(game, states[cut], rng) if seed is not None else ()
                    out.append(Position(game, log, moves, tuple(p.name for p in players)))
    return out


def _replays(log: logfile.GameLog) -> bool:
    try:
        replay.replay_log(log)
    except (LogError, replay.ReplayError):
        return False
    return True


def _moves(game: Game[Any], state: Any, rng: random.Random) -> tuple[str, ...]:
    legal = game.legal(state)
    picked = rng.sample(legal, min(20, len(legal)))
    texts = [game.format(state, e) for e in picked] + [game.option_text(state, e) for e in picked]
    return tuple(dict.fromkeys(texts))


def vocabulary(game: Game[Any]) -> list[str]:
    words = [w for etype in game.events for w in etype.words]
    for etype in game.events:
        for form, example in etype.forms:
            words += form.split() + example.replace(",", " ").split()
    return sorted(set(words))


# --------------------------------------------------------------------------------------------
# Fuzzed move text


def fuzzed_move(position: Position, vocab: list[str], rng: random.Random) -> list[str]:
    """The words of one `play` attempt, with `--as` and `--note` now and then."""
    roll = rng.random()
    if position.moves and roll < 0.55:
        words = _mangle(rng.choice(position.moves).split(), vocab, rng)
    elif roll < 0.85:
        words = [rng.choice(vocab + JUNK) for _ in range(rng.randint(1, 7))]
    else:
        words = ["".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 0x2100),
                                         rng.randrange(0xD800, 0xE000), rng.randrange(0x110000)]))
                         for _ in range(rng.randint(1, 12)))]
    args = ["play", *(w for w in words if w)] or ["play", "x"]
    if len(args) == 1:
        args.append(rng.choice(vocab))
    if rng.random() < 0.15:
        args += ["--as", rng.choice([*position.names, *JUNK, position.names[0].upper()])]
    if rng.random() < 0.08:
        args += ["--note", rng.choice(JUNK)]
    if rng.random() < 0.1:
        args.append("--json")
    return args


def _mangle(words: list[str], vocab: list[str], rng: random.Random) -> list[str]:
    words = list(words)
    for _ in range(rng.randint(0, 3)):
        action = rng.randrange(8)
        at = rng.randrange(len(words) + 1)
        if action == 0 and words:
            del words[min(at, len(words) - 1)]
        elif action == 1:
            words.insert(at, rng.choice(vocab + JUNK))
        elif action == 2 and words:
            i = min(at, len(words) - 1)
            words[i] = words[i][:rng.randrange(len(words[i]) + 1)]  # a prefix
        elif action == 3 and words:
            i = min(at, len(words) - 1)
            words[i] = words[i].swapcase()
        elif action == 4:
            words.insert(at, rng.choice(["0", "-3", "7", HUGE, "11", "21", "6", "1"]))
        elif action == 5 and words:
            words = words + words
        elif action == 6 and words:
            i = min(at, len(words) - 1)
            w = words[i]
            j = rng.randrange(len(w) + 1)
            words[i] = w[:j] + rng.choice(JUNK) + w[j:]
        elif action == 7:  # every number in the move made huge: `PA3` -> `PA444...`
            words = [re.sub(r"\d+", rng.choice((HUGE, "0", "99", "-1")), w) for w in words]
    return words


def play_campaign(count: int, seed: int, folder: Path) -> Findings:
    rng = random.Random(seed)
    found = Findings()
    start = time.perf_counter()
    pool = positions(rng)
    vocabs = {p.game.id: vocabulary(p.game) for p in pool}
    path = folder / "game.toml"
    for attempt in range(count):
        position = pool[attempt % len(pool)] if attempt < len(pool) else rng.choice(pool)
        text = logfile.dumps(position.log).encode("utf-8")
        path.write_bytes(text)
        args = fuzzed_move(position, vocabs[position.game.id], rng)
        status, err, seconds = run(["--log", str(path), *args])
        _record(found, status, err, seconds,
                {"game": position.game.id, "events": len(position.log.entries),
                 "seed": position.log.seed, "args": args})
        if status not in (0, -1) and path.read_bytes() != text:
            found.touched.append({"args": args, "status": status})
    found.seconds = time.perf_counter() - start
    return found


def _record(found: Findings, status: int, err: str, seconds: float,
            what: dict[str, Any]) -> None:
    found.runs += 1
    found.statuses[status] += 1
    if seconds > found.slowest[0]:
        found.slowest = (seconds, what.get("args", [what.get("command", "")]))
    if status == EXIT_INTERNAL:
        found.bugs.append({**what, "error": err.strip()[-400:]})
    elif status == -1:
        found.hangs.append(what)


# --------------------------------------------------------------------------------------------
# Mutated logs


SNIPPETS = ['seq = 3\n', 'type = "pass"\n', 'by = "Zed"\n', 'card = "Pig Army 9"\n',
            'house = 4\n', 'tiles = ["farmer", 3]\n', 'cards = "K2"\n', 'tile = 99\n',
            f'tile = {HUGE[:4000]}\n', f'row = {"9" * 4301}\n', 'side = ""\n',
            'card = ' + "[" * 600 + "]" * 600 + "\n", 'x = {a = {b = {c = 1}}}\n',
            '[[retracted]]\nseq = 1\ntype = "draw"\ncard = ' + "[" * 300 + "]" * 300 + "\n",
            '[[events]]\n', '[[players]]\nname = "Zed"\n', '[options]\nedition = 2099\n',
            'seed = -1\n', 'seed = "7"\n', 'at = 2026-13-01T00:00:00Z\n',
            'at = 1979-05-27T07:32:00Z\n', 'note = "\\u001b[2J"\n', 'name = "\\u202eAnn"\n',
            'game = "kings-eer"\n', 'format = "referee-log/2"\n', 'dealer = "Nobody"\n',
            'path = ["a1", "z9"]\n', 'take = []\n', 'give = ["Pig Army 3", "Pig Army 3"]\n',
            'cards = ["K2", "K2", "K3"]\n', 'direction = "up"\n', 'target = "Ann"\n']


def mutated_log(text: str, rng: random.Random) -> bytes:
    data = text
    # Mostly one change that keeps the TOML valid, so that the replay meets the wrong value.
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        action = rng.choices(range(8), weights=(1, 3, 1, 4, 3, 8, 1, 1))[0]
        at = rng.randrange(len(data) + 1)
        if action == 0:
            data = data[:at] + data[at + rng.randint(1, 40):]
        elif action == 1:
            data = data[:at] + rng.choice(SNIPPETS) + data[at:]
        elif action == 2 and data:
            i = min(at, len(data) - 1)
            data = data[:i] + chr(rng.randrange(32, 127)) + data[i + 1:]
        elif action == 3:
            data = _reorder_events(data, rng)
        elif action == 4:
            lines = data.splitlines(keepends=True)
            if lines:
                i = rng.randrange(len(lines))
                data = "".join(lines[:i] + [rng.choice(SNIPPETS)] + lines[i + 1:])
        elif action == 5:
            data = _swap_values(data, rng)
        elif action == 6:
            data = data[:at]  # cut short
        else:
            data = data[:at] + rng.choice(JUNK[:-2]).replace("\udcff", "") + data[at:]
    return _as_bytes(data, rng, 0.05)


def _as_bytes(data: str, rng: random.Random, chance: float) -> bytes:
    """The text as UTF-8, with one byte that is not UTF-8 put in at random, now and then."""
    raw = data.encode("utf-8", "surrogateescape")
    if rng.random() < chance:
        i = rng.randrange(len(raw) + 1)
        raw = raw[:i] + bytes([rng.randrange(128, 256)]) + raw[i:]
    return raw


def _reorder_events(text: str, rng: random.Random) -> str:
    head, *events = text.split("[[events]]\n")
    if len(events) < 2:
        return text
    i, j = rng.randrange(len(events)), rng.randrange(len(events))
    if rng.random() < 0.5:
        events[i], events[j] = events[j], events[i]
    else:
        events.insert(j, events[i])
    return "[[events]]\n".join([head, *events])


def _swap_values(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    values = [line.split("=", 1)[1] for line in lines if " = " in line]
    if not values:
        return text
    i = rng.randrange(len(lines))
    if " = " in lines[i]:
        key = lines[i].split("=", 1)[0]
        lines[i] = f"{key}={rng.choice(values)}"
    return "".join(lines)


def log_sources(rng: random.Random) -> list[str]:
    from tests.conftest import GOLDEN  # only the log campaign needs them

    texts = [p.read_text() for p in sorted(GOLDEN.glob("*/*.toml"))]
    for game_id in available_game_ids():
        game = load_game(game_id)
        playout = play_out(game, rng.randrange(2**31), default_players(game, None))
        full = to_log(game, playout)
        texts.append(logfile.dumps(full))
        texts.append(logfile.dumps(evolve(full, seed=None)))
        texts.append(logfile.dumps(full.without_last()))
    return texts


def log_campaign(count: int, seed: int, folder: Path) -> Findings:
    rng = random.Random(seed)
    found = Findings()
    start = time.perf_counter()
    sources = log_sources(rng)
    path = folder / "mutated.toml"
    for index in range(count):
        raw = mutated_log(sources[index % len(sources)], rng)
        path.write_bytes(raw)
        for command in (["check", str(path)], ["--log", str(path), "status"],
                        ["--log", str(path), "score"]):
            status, err, seconds = run(command)
            _record(found, status, err, seconds,
                    {"command": command[-1] if command[0] != "check" else "check",
                     "log": raw.decode("utf-8", "replace")})
    found.seconds = time.perf_counter() - start
    return found


# --------------------------------------------------------------------------------------------
# Every event type, typed well-formed, in every situation


@dataclass(frozen=True)
class Situation:
    game: Game[Any]
    log: logfile.GameLog
    state: Any
    phase: str
    names: tuple[str, ...]


def situations(rng: random.Random, games: int = 3, cuts: int = 150
               ) -> tuple[list[Situation], dict[str, dict[str, list[str]]]]:
    """Positions of random playouts, one or two per situation (phase and legal event types),
    and per game, per event type, real moves of that type as `options` writes them."""
    found: list[Situation] = []
    banks: dict[str, dict[str, list[str]]] = {}
    for game_id in available_game_ids():
        game = load_game(game_id)
        bank: dict[str, set[str]] = {}
        seen: Counter[tuple[str, frozenset[str]]] = Counter()
        for index in range(games):
            count = game.min_players + index % (game.max_players - game.min_players + 1)
            players = default_players(game, count)
            playout = play_out(game, rng.randrange(2**31), players)
            full = to_log(game, playout)
            chosen = sorted({0, len(playout.events)} | {rng.randrange(len(playout.events) + 1)
                                                        for _ in range(cuts)})
            state, done = playout.setup.state, 0
            for cut in chosen:
                for event in playout.events[done:cut]:
                    state = apply_event(game, state, event, playout.setup.players)
                done = cut
                legal = game.legal(state)
                for event in rng.sample(legal, min(12, len(legal))):
                    bank.setdefault(event.type, set()).add(game.format(state, event))
                key = (game.phase(state), frozenset(e.type for e in legal))
                seen[key] += 1
                if seen[key] <= 2:
                    found.append(Situation(game, evolve(full, entries=full.entries[:cut]), state,
                                           key[0], tuple(p.name for p in players)))
        banks[game_id] = {etype.name: sorted(bank.get(etype.name, ())) or
                          _from_forms(etype, sorted(set().union(*bank.values())), rng)
                          for etype in game.events}
    return found, banks


def _from_forms(etype: Any, known: list[str], rng: random.Random) -> list[str]:
    """Moves of a type no playout made, from its forms: each placeholder (`NOBLE`, `CARD`)
    filled with a word of the game's real moves, each optional part kept or left out."""
    words = [w for text in known for w in text.split()] or ["x"]
    out = []
    for form, _ in etype.forms or ((etype.name, ""),):
        for _ in range(3):
            text = re.sub(r"\[([^\]]*)\]", lambda m: m.group(1) if rng.random() < 0.5 else "",
                          form)
            text = re.sub(r"\b[A-Z][A-Z_]{1,}\b(\|\S+)?", lambda m: rng.choice(words), text)
            out.append(" ".join(text.replace("...", "").split()))
    return sorted(set(out))


def sweep(spot: Situation, text: str, by: str | None) -> str | None:
    """`play TEXT` as the rules take it, in-process: None, or the crash it met (a bug)."""
    game, state = spot.game, spot.state
    try:
        event = game.parse(state, text, by)
        if not game.events[event.type].sealed:  # a seal needs its secret: `play` asks for it
            after = check_and_apply(game, state, event, spot.log.players)
            game.format(state, event)
            game.describe(state, event, after)
    except RefereeError:
        return None
    except Exception as exc:  # noqa: BLE001 - exactly what the campaign looks for
        return f"{type(exc).__name__}: {exc}"
    return None


def typed_campaign(count: int, seed: int, folder: Path) -> Findings:
    """Every event type in every situation, in-process; `count` of them through `play`."""
    rng = random.Random(seed)
    found = Findings()
    start = time.perf_counter()
    spots, banks = situations(rng)
    found.situations = len({(s.game.id, s.phase, frozenset(e.type for e in s.game.legal(s.state)))
                            for s in spots})
    tries = []
    for spot in spots:
        for etype in spot.game.events:
            texts = banks[spot.game.id][etype.name]
            for text in rng.sample(texts, min(2, len(texts))):
                found.covered.add((spot.game.id, spot.phase, etype.name))
                for by in (spot.game.default_player(spot.state), rng.choice(spot.names)):
                    found.swept += 1
                    crash = _timed(sweep, spot, text, by)
                    if crash is not None:
                        what = {"game": spot.game.id, "phase": spot.phase, "args": [text],
                                "by": by, "events": len(spot.log.entries), "error": crash}
                        (found.hangs if crash == "hang" else found.bugs).append(what)
                tries.append((spot, text))
    path = folder / "game.toml"
    for spot, text in rng.sample(tries, min(count, len(tries))):
        data = logfile.dumps(spot.log).encode("utf-8")
        path.write_bytes(data)
        args = ["play", *text.split()]
        if rng.random() < 0.3:
            args += ["--as", rng.choice(spot.names)]
        status, err, seconds = run(["--log", str(path), *args])
        _record(found, status, err, seconds, {"game": spot.game.id, "phase": spot.phase,
                                              "events": len(spot.log.entries), "args": args})
        if status not in (0, -1) and path.read_bytes() != data:
            found.touched.append({"args": args, "status": status})
    found.seconds = time.perf_counter() - start
    return found


def _timed(check: Any, *args: Any) -> Any:
    """`check(*args)` under the campaign's time limit: its result, or "hang"."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT)
    try:
        return check(*args)
    except Hang:
        return "hang"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --------------------------------------------------------------------------------------------
# Mutated Kingmaker components files


COMPONENT_SNIPPETS = [
    '[[nobles]]\nname = "Neville"\ntroops = 10\nlords = 1\nhome = ["York"]\n',
    '[[nobles]]\nname = "Zed"\ntroops = "ten"\n', '[[nobles]]\ntroops = 3\n',
    '[[nobles]]\nname = "Zed"\nwings = 2\n', '[[nobles]]\nname = "Zed"\ntroops = -5\n',
    '[[nobles]]\nname = "Zed"\naliases = ["Neville"]\n', '[[nobles]]\nname = ""\n',
    '[[nobles]]\nname = "a\\"b"\n', '[[heirs]]\nname = "Zed"\nhouse = "tudor"\n',
    '[[places]]\nname = "Zed"\nkind = "moat"\n', '[[places]]\nname = "Zed"\nregions = ["Mars"]\n',
    '[[events]]\nname = "Zed"\nkind = "call"\ncalls = ["nobody"]\n',
    '[[mercenaries]]\nname = "Zed"\ntroops = 10\ncopies = 0\n',
    '[battle_chart]\ncolumns = ["0:1"]\n', '[battle_chart]\nmajor = ["99-01"]\n',
    '[death_chart]\nmajor = "01-05"\n', '[death_chart]\nmajor = {winner = "x"}\n',
    '[votes]\nking_commons = 99999\n', '[votes]\nno_sole_king = "nobody"\n',
    'votes = 3\n', 'nobles = {name = "x"}\n', 'nobles = [1, 2]\n', 'wizards = []\n',
    'format = "kingmaker-components/2"\n', f'x = {HUGE}\n',
    "x = " + "[" * 100_000 + "]" * 100_000 + "\n",
    "x = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n",
    'troops = 3\n', 'home = "York"\n', 'home = []\n', 'lords = true\n', 'name = 7\n',
    'kind = "city"\n', 'capacity = 10001\n', 'source = "\\u202e"\n', 'advanced = "yes"\n',
]


def component_sources() -> list[str]:
    from referee.games.kingmaker import components

    shipped = components.file_text(components.SHIPPED)
    return [shipped, components.file_text(components.TEST_BOX),
            components.template(components.load(shipped, components.SHIPPED))]


def mutated_components(text: str, rng: random.Random) -> bytes:
    data = text
    for _ in range(rng.choice((1, 1, 2, 3))):
        action = rng.choices(range(6), weights=(2, 5, 4, 3, 1, 1))[0]
        lines = data.splitlines(keepends=True)
        at = rng.randrange(len(lines) + 1)
        if action == 0:
            data = data[:rng.randrange(len(data) + 1)]  # cut short
        elif action == 1:  # a snippet between two lines (inside an entry or a table of its own)
            data = "".join(lines[:at] + [rng.choice(COMPONENT_SNIPPETS)] + lines[at:])
        elif action == 2:  # one value swapped for another of the file
            data = _swap_values(data, rng)
        elif action == 3 and lines:  # an entry repeated or a line dropped
            i = min(at, len(lines) - 1)
            data = "".join(lines[:i] + lines[i + 1:]) if rng.random() < 0.5 else \
                "".join(lines + lines[i:i + rng.randint(1, 8)])
        elif action == 4:
            i = rng.randrange(len(data) + 1)
            data = data[:i] + chr(rng.randrange(32, 127)) + data[i + 1:]
        else:
            data = data[:at] + rng.choice(JUNK[:-2]).replace("\udcff", "") + data[at:]
    return _as_bytes(data, rng, 0.03)


def components_campaign(count: int, seed: int, folder: Path) -> Findings:
    rng = random.Random(seed)
    found = Findings()
    start = time.perf_counter()
    sources = component_sources()
    box, log = folder / "box.toml", folder / "game.toml"
    for index in range(count):
        raw = mutated_components(sources[index % len(sources)], rng)
        box.write_bytes(raw)
        with contextlib.suppress(FileNotFoundError):
            log.unlink()
        commands = [("new", ["--log", str(log), "new", "kingmaker", "-p", "Ann", "-p", "Ben",
                             "--components", str(box)])]
        for name, command in commands:
            status, err, seconds = run(command)
            _record(found, status, err, seconds,
                    {"command": name, "components": raw.decode("utf-8", "replace")[:3000]})
            if name == "new" and status == 0:  # the log it started must stand
                commands += [("check", ["check", str(log)]),
                             ("status", ["--log", str(log), "status"])]
    found.seconds = time.perf_counter() - start
    return found


# --------------------------------------------------------------------------------------------
# Running it


def _worker(job: tuple[str, int, int]) -> Findings:
    kind, count, seed = job
    sys.stdin = io.StringIO("")
    with tempfile.TemporaryDirectory() as folder:
        return CAMPAIGNS[kind](count, seed, Path(folder))


CAMPAIGNS = {"plays": play_campaign, "logs": log_campaign, "typed": typed_campaign,
             "components": components_campaign}


def fuzz(plays: int, logs: int, seed: int = 0, jobs: int = 1, typed: int = 0,
         components: int = 0) -> dict[str, Findings]:
    """The campaigns, split over `jobs` processes: {'plays': ..., 'logs': ..., 'typed': ...,
    'components': ...}. `typed` is the number of typed moves run through `play`; with any,
    every job also sweeps every event type in every situation of its own playouts."""
    sizes = {"plays": plays, "logs": logs, "typed": typed, "components": components}
    work = [(kind, total // jobs + (1 if part < total % jobs else 0), seed * 1000 + part)
            for kind, total in sizes.items() for part in range(jobs)]
    work = [job for job in work if job[1] > 0]
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(_worker, work))
    else:
        results = [_worker(job) for job in work]
    out = {kind: Findings() for kind in sizes}
    for (kind, _, _), found in zip(work, results):
        out[kind].add(found)
    return out


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plays", type=int, default=10_000, help="fuzzed `play` attempts")
    parser.add_argument("--logs", type=int, default=2_500,
                        help="mutated logs (each through check, status and score)")
    parser.add_argument("--typed", type=int, default=2_000,
                        help="well-formed moves of every type through `play` (besides the "
                             "in-process sweep of every type in every situation)")
    parser.add_argument("--components", type=int, default=1_000,
                        help="mutated Kingmaker components files")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true", help="the whole report as JSON")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    results = fuzz(args.plays, args.logs, args.seed, args.jobs, args.typed, args.components)
    elapsed = time.perf_counter() - start
    report = {kind: found.summary() for kind, found in results.items()}
    report["wall_seconds"] = round(elapsed, 1)
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=True))
    else:
        for kind, summary in report.items():
            if isinstance(summary, dict):
                if "phase_x_type" in summary:
                    print(f"{kind}: {summary['phase_x_type']} (game, phase, event type) typed in "
                          f"{summary['situations']} situations; {summary['swept']} swept "
                          "in-process")
                print(f"{kind}: {summary['runs']} runs, exit 70: {summary['exit_70']}, hangs: "
                      f"{summary['hangs']}, rejected but changed: "
                      f"{summary['rejected_but_log_changed']}, statuses "
                      f"{summary['exit_statuses']}")
                for kind, number in summary["exit_70_kinds"].items():
                    print(f"  {number} x {kind}")
                for example in summary["examples"]["exit_70"][:3]:
                    print("  exit 70:", json.dumps(example, ensure_ascii=True)[:600])
                for example in summary["examples"]["hangs"][:3]:
                    print("  hang:", json.dumps(example, ensure_ascii=True)[:600])
        print(f"wall time: {elapsed:.0f} s with {args.jobs} process(es)")
    bad = sum(len(f.bugs) + len(f.hangs) + len(f.touched) for f in results.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(_main())

