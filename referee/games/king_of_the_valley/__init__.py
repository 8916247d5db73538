"""King of the Valley (Hans van Tol, 2021): grid movement, a hill market, castles of subjects.

One concern per module, as in every game (docs/adding-a-game.md):
  components.py  the 90 tiles, box and pile totals, the valley's geometry, the assumed mix (R-19)
  state.py       valley, hill, castles, piles             rules.py     phases, the summon checker
  events.py      every event, declared once               notation.py  squares, slots, tiles
  rulebook.py    the rules and rulings R-1..R-19          texts.py     the board, what a move did
  scoring.py     the scoresheet                           game.py      the Game: options, phases
"""

from referee.games.king_of_the_valley.game import KingOfTheValley

GAME = KingOfTheValley()

__all__ = ["GAME", "KingOfTheValley"]
