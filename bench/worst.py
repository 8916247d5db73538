"""The worst position we know for `referee options` in each game, constructed: where a game
offers the most moves to list, fold or count. bench.py times `options` there; a game missing here
is measured at the position with the most moves found in random games.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from referee.engine import Game, Player
from referee.evolve import evolve


def kings_ear(game: Game[Any]) -> Any:
    """Ann (Horse) to trade with the pile empty: 24 cards of other Houses under Horse, and under
    Pig 8 Horse cards and 8 others. Legal (every card lies under a House not its own, as the
    other players placed them), and about 26 billion equal trades."""
    players = (Player("Ann", "Horse"), Player("Ben", "Pig"), Player("Cat", "Stag"))
    state = game.setup(players, game.default_options(), None)
    where = list(state.where)
    foreign = [c for c in range(64) if c // 16 in (2, 3)]  # Stag and Boar cards
    for card in foreign[:24]:
        where[card] = 0
    for card in range(8):  # Horse cards
        where[card] = 1
    for card in foreign[24:32]:
        where[card] = 1
    return evolve(state, where=tuple(where), drawn=64)


COMMON = ("farmer", "farmer", "farmer", "wife", "knight-A", "knight-B", "countess", "tax-3-5",
          "tax-4", "wizard", "duke", "jester")


def king_of_the_valley(game: Game[Any]) -> Any:
    """The crowded valley (four kings, all three priests, a player rich enough to visit every
    priest and feed every wizard and tax collector) with the most summons of 400 drawn."""
    from referee.games.king_of_the_valley.state import Castle

    castle = Castle(gold=9)
    for column, tile in (("queen", "queen"), ("duke", "duke"), ("countess", "countess"),
                         ("knight", "knight-C"), ("farmer", "farmer"), ("wife", "wife")):
        for _ in range(5):
            castle = castle.add(tile, column)
    players = tuple(Player(n) for n in ("Ann", "Ben", "Cat", "Dan"))
    base = game.setup(players, game.default_options(), None)
    rng = random.Random(2026)
    best, most = None, -1
    for _ in range(400):
        valley = [rng.choice(COMMON) for _ in range(25)]
        for square in rng.sample(range(25), 3):
            valley[square] = "priest"
        kings = tuple(rng.sample([s for s in range(25) if valley[s] != "priest"], 4))
        state = evolve(base, valley=tuple(valley), kings=kings, awaiting=(), phase="summon",
                        castles=(castle,) + (Castle(),) * 3,
                        hill=(("duke",) * 6, ("queen",) * 6))
        count = len(game.legal(state))
        if count > most:
            best, most = state, count
    return best


WORST: dict[str, Callable[[Game[Any]], Any]] = {
    "kings-ear": kings_ear,
    "king-of-the-valley": king_of_the_valley,
}
