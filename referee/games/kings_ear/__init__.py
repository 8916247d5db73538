"""The King's Ear (Jon Linney, 2005): 2-4 players trade cards under four Houses' boards.

One concern per module, as in every game (docs/adding-a-game.md):
  components.py  the 64 cards and the House labels      state.py     where every card lies
  rules.py       phase, turn, trade checks, winning     events.py    every event, declared once
  notation.py    cards and Houses as typed              rulebook.py  the rules and rulings R-1..R-8
  texts.py       the board, what a move changed         scoring.py   the scoresheet
  game.py        the Game: options, phases, protocol
"""

from referee.games.kings_ear.game import KingsEar

GAME = KingsEar()

__all__ = ["GAME", "KingsEar"]
