"""Kingmaker (Avalon Hill, 1974) with Corbin Covault's House Rules v2.12: 2-7 factions make a
King in the Wars of the Roses. The referee keeps the realm, not the map.

One concern per module, as in every game (docs/adding-a-game.md):
  components.py  the components file: schema, validator   state.py     the realm, frozen
  rules/         the rules events share, one module per    events/      every event, declared once,
                 topic: places, strength, heirs, sieges...              one module per phase or job
  notation.py    names, locations, declarations as typed   rulebook.py  the rules, R-1..R-87
  texts.py       the realm for status, the folded options  scoring.py   the scoresheet
  game.py        the Game: options, phases, protocol
"""

from referee.games.kingmaker.game import Kingmaker

GAME = Kingmaker()

__all__ = ["GAME", "Kingmaker"]
