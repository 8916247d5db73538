"""The Dwarf King (Bruno Faidutti): a trick-taking game refereed from the cards as they are played.

One concern per module, as in every game (docs/adding-a-game.md):
  components.py  the 53 cards, the 14 specials, the quest tiles of both editions, as data
  state.py       hands as the referee knows them, tricks, results    rules.py  tricks, revokes
  events.py      every event, declared once     notation.py  cards, quests, players as typed
  rulebook.py    the rules, the specials, the quests, rulings R-1..R-24
  texts.py       options, what a move changed, the board     scoring.py  quests, specials, sheet
  game.py        the Game: options, phases, protocol
"""

from referee.games.dwarf_king.game import DwarfKing

GAME = DwarfKing()

__all__ = ["GAME", "DwarfKing"]
