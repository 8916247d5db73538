"""King of the Castle (Toadflax Games): 2-6 players back secret squires in a kingdom of castles.

One concern per module, as in every game (docs/adding-a-game.md):
  components.py  squires, posts, the 78 cards as data      state.py     the kingdom, hands, seals
  rules.py       phase, turn, one function per kind of effect, replies, death and promotion
  events.py      every event, declared once                 notation.py  cards, posts as typed
  rulebook.py    the rules and rulings R-1..R-29            texts.py     kingdom, changes, options
  scoring.py     points per post, squire and player         game.py      the Game: options, protocol
"""

from referee.games.king_of_the_castle.game import KingOfTheCastle

GAME = KingOfTheCastle()

__all__ = ["GAME", "KingOfTheCastle"]
