"""The Dwarf King (Bruno Faidutti): a trick-taking game refereed from the cards as they are played.

    cards.py   the 53 cards, the 14 special cards as data, card notation
    quests.py  the quest tiles of both editions as data, one scoring function per kind of rule
    state.py   the frozen state: hands as the referee knows them, tricks, hand results
    rules.py   trick winners, legality of a play, revokes, hand effects, scoring a hand
    game.py    the referee protocol: events, notation, legal moves, seeded deals
    texts.py   everything said in words: options, status, scoresheet, rules summary
"""

from referee.games.dwarf_king.game import GAME, DwarfKing

__all__ = ["GAME", "DwarfKing"]
