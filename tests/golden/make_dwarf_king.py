"""Regenerate The Dwarf King golden games and the bundled demo game.

    python tests/golden/make_dwarf_king.py

Each game is dealt by the tool (a seeded virtual deal) and played by simple stand-ins for people
at a table (follow with a low card, sometimes try to win), then written as a *table* log: the seed
is dropped, so the referee sees only the cards as they are played, as it would at a real table.
In the first hand two players enter their hands (the third is deduced), so that hand is checked
with full knowledge. The Goblins' Flag Bearer swap is written without its secret cards. The
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
from referee.games.dwarf_king.components import CARDS, sort_cards  # noqa: E402
from referee.replay import replay_events  # noqa: E402

GAME = load_game("dwarf-king")


def choose(state, rng: random.Random) -> Event:
    moves = GAME.legal(state)
    plays = [m for m in moves if m.type == "play"]
    if plays and rng.random() < 0.6:  # a cautious player: the lowest card that is legal
        return min(plays, key=lambda m: (CARDS[m["card"]].value, m["card"]))
    return GAME.random_event(state, rng)


def play(names, seed: int, options=None, entered=()):
    options = GAME.check_options(options or {})
    players = tuple(Player(n) for n in names)
    state = GAME.setup(players, options, seed)
    rng = random.Random(seed)
    table_events = []
    while not GAME.finished(state):
        event = choose(state, rng)
        state = apply_event(GAME, state, event, players)
        if event.type == "swap":  # at the table the two secret cards are not written down
            event = Event.make("swap", event.by, target=event["target"])
        table_events.append(event)
        if event.type == "special" and state.deal.number == 1:
            for name in entered:
                cards = sort_cards(state.deal.slots[names.index(name)].known)
                table_events.append(Event.make("hand", name, cards=cards))
    final = replay_events(GAME, players, options, None, table_events)
    assert GAME.score(final) == GAME.score(state) and not GAME.notices(final)
    return players, options, table_events, final


def write(path: Path, players, options, events, state) -> None:
    write_golden(GAME, path, players, options, events, state, step_seconds=20)


def find(names, want, options=None, start=0, **kw):
    return find_game(play, names, want, options, start, **kw)


def main() -> None:
    out = ROOT / "tests" / "golden" / "dwarf-king"
    three = ("Pierre", "Bruno", "Catie")
    seed, game = find(three, lambda s: len(s.results) == 7, entered=("Pierre", "Bruno"))
    print("three players, seven hands: seed", seed, len(game[2]), "events")
    write(out / "three-player.toml", *game)

    five = ("Ada", "Boris", "Chloe", "Dario", "Elin")
    seed, game = find(five, lambda s: len(s.results) > 7, {"edition": 2022})
    print("five players, tie broken by an extra hand: seed", seed, len(game[2]), "events")
    write(out / "five-player-tie.toml", *game)

    demo = ("Ann", "Ben", "Cat")
    seed, game = find(demo, lambda s: len(s.results) == 7 and s.names[s.totals.index(
        max(s.totals))] != "Ann", start=100, entered=("Ann", "Ben"))
    print("demo: seed", seed, len(game[2]), "events")
    write(ROOT / "referee" / "examples" / "dwarf-king.toml", *game)


if __name__ == "__main__":
    main()
