"""Regenerate the King of the Castle golden games and the bundled demo game.

    python tests/golden/make_king_of_the_castle.py

Each game is dealt by the tool (a seeded virtual deal) and played by small greedy players (stand-ins
for people at a table: each knows only their own squires, builds up castles where they sit, kills
men they do not back, saves their own with a reply), then written as a *physical* log: the seed is
dropped, so the referee sees only what a table sees: hand sizes, the cards as they are played,
the personality cards as the table turns them up (`reveal` events are added wherever the tool had
dealt a man itself). The seals are the simulated players' own and are opened at the end. The
expected scoresheets are rendered from the final states. Review the diff before committing.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from golden_files import find_game, write_golden  # noqa: E402

from referee.engine import Event, Player, apply_event, load_game  # noqa: E402
from referee.games.king_of_the_castle import rules  # noqa: E402
from referee.games.king_of_the_castle.events import simulated_secret  # noqa: E402
from referee.games.king_of_the_castle.scoring import squire_points  # noqa: E402

GAME = load_game("king-of-the-castle")


def backed(state, name: str) -> tuple[str, ...]:
    return tuple(simulated_secret(state, name)[0])


def worth(state, name: str) -> int:
    return sum(squire_points(state, letter) for letter in backed(state, name))


def choose(state, rng: random.Random) -> Event:
    """The move a stand-in makes: the play or reply that helps their own squires most."""
    now = rules.phase(state)
    moves = GAME.legal(state)
    if now in (rules.OPEN, rules.DISCARD) or not moves:
        return GAME.random_event(state, rng)
    name = GAME.to_act(state).players[0]
    if now == rules.REPLY:
        base = worth(rules.resolve(state, state.pending), name) if state.pending else 0
        best = max(moves, key=lambda m: (_after(state, m, name), rng.random()))
        return best if best.type == "reply" and _after(state, best, name) > base else \
            Event.make("pass", name)
    scored = [(_after(state, m, name) + rng.random() * 2.5, i, m) for i, m in enumerate(moves)]
    return max(scored)[2]


def _after(state, move: Event, name: str) -> float:
    after = GAME.apply(state, move)
    if after.pending is not None:  # a harm announced: judge it as if nobody answers
        after = rules.resolve(after, after.pending)
    return worth(after, name)


def play(names, seed: int, options=None):
    options = GAME.check_options(options or {})
    players = tuple(Player(n) for n in names)
    state = GAME.setup(players, options, seed)
    rng = random.Random(seed)
    table = GAME.setup(players, options, None)  # the same game as the referee sees it
    events = []
    while True:
        while rules.phase(table) in (rules.SETUP, rules.DEAL):  # the table turns them up
            posts = range(table.revealed, 10) if rules.phase(table) == rules.SETUP \
                else table.vacancies
            reveal = Event.make("reveal", None, letters=[state.men[p] for p in posts])
            table = apply_event(GAME, table, reveal, players)
            events.append(reveal)
        if GAME.finished(state):
            break
        event = choose(state, rng)
        state = apply_event(GAME, state, event, players)
        table = apply_event(GAME, table, event, players)
        events.append(event)
    assert GAME.score(table) == GAME.score(state)
    return players, options, events, table


def write(path: Path, players, options, events, state) -> None:
    write_golden(GAME, path, players, options, events, state, step_seconds=30)


def find(names, want, options=None, start=0):
    return find_game(play, names, want, options, start)


def main() -> None:
    out = ROOT / "tests" / "golden" / "king-of-the-castle"
    three = ("Ann", "Ben", "Cat")

    def played_out(state):
        """Over after at least one reshuffle of the event deck, with one winner."""
        return state.over and state.reshuffles >= 1 and len(GAME.score(state).winners) == 1

    seed, game = find(three, played_out)
    print("three players to the end: seed", seed, len(game[2]), "events")
    write(out / "three-player.toml", *game)

    six = ("Ada", "Boris", "Chloe", "Dario", "Elin", "Femi")

    def shared_first(state):
        sheet = GAME.score(state)
        return state.over and len(sheet.winners) > 1 and max(
            r.total for r in sheet.rows if r.total is not None) > 0

    seed, game = find(six, shared_first)
    print("six players, a shared first place: seed", seed, len(game[2]), "events")
    write(out / "six-player-shared-first.toml", *game)

    four = ("Gus", "Hana", "Ivo", "Jola")
    seed, game = find(four, lambda s: s.over and any(len(o or ()) > 1 for o in s.opened),
                      {"squires": "hand", "personality_order": "alphabetical"})
    print("four players, hand scoring: seed", seed, len(game[2]), "events")
    write(out / "four-player-hand.toml", *game)

    seed, game = find(three, played_out, start=3600)  # a later seed than the golden one
    print("demo: seed", seed, len(game[2]), "events")
    write(ROOT / "referee" / "examples" / "king-of-the-castle.toml", *game)


if __name__ == "__main__":
    main()
