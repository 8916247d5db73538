"""Reply windows: answers played out of turn, in clockwise order, to a card just announced.

When a card is announced with its targets (a kill, a discard), each other player in turn from the
active player's left, then the active player, may reply with a named card or pass; the first reply
applies and closes the window. A game keeps the open window in its state, says in `to_act` whose
answer is awaited (`ReplyWindow.to_act`), and declares its own `reply` and `pass` events.
"""

from __future__ import annotations

from typing import Sequence

from referee.engine import ToAct
from referee.evolve import evolve
from referee.values import value


@value(slots=True)
class ReplyWindow:
    announced: str  # what may be answered, in words: "Plague on castle 2 (kills Lord, Seneschal)"
    order: tuple[str, ...]  # the players asked, in order
    asked: int = 0  # how many have passed

    @classmethod
    def open(cls, announced: str, players: Sequence[str], active: str,
             active_last: bool = True) -> ReplyWindow:
        """A window asking every other player from `active`'s left, then `active` if wished."""
        at = list(players).index(active)
        order = tuple(players[at + 1:]) + tuple(players[:at])
        return cls(announced, order + ((active,) if active_last else ()))

    @property
    def awaiting(self) -> str:
        """The player whose answer is awaited now."""
        return self.order[self.asked]

    def passed(self) -> ReplyWindow | None:
        """The window after the awaited player passed; None when everyone has passed."""
        after = evolve(self, asked=self.asked + 1)
        return after if after.asked < len(after.order) else None

    def to_act(self, how: str = "`reply CARD` or `pass`") -> ToAct:
        return ToAct((self.awaiting,), f"{self.awaiting} may answer {self.announced} ({how})")
