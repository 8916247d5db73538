"""King of the Valley (Hans van Tol, 2021): grid movement, a hill market, castles of subjects.

The game's rules live in this package, one concern per module:
  tiles.py   the 90 tiles, the box and pile totals, the assumed mix of virtual piles (R-19)
  board.py   the immutable state: valley geometry, hill, castles
  summon.py  phase 2: every legal king move and why an illegal one is refused
  game.py    the protocol: notation, the four phases, scoring
  text.py    rules summary with every ruling, the board for `status`, what a move changed
"""

from referee.games.king_of_the_valley.game import GAME, KingOfTheValley

__all__ = ["GAME", "KingOfTheValley"]
