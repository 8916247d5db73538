"""Kingmaker's rules that more than one event shares, one module per topic; each event's own
checks are in the events package (events/), and every refusal cites an entry of rulebook.py
(`§6.2`, `R-27`...).

  names.py      the names the rules use, `refuse`    deaths.py     death (§9)
  places.py     places, positions, who is where      crowning.py   coronations (8.1, R-43)
  heirs.py      heirs, Kings, Royal Guards (§8)      turn.py       the turn, its phases, who acts
  strengths.py  cards held, strength (R-4, R-28)     setup.py      the Crown deck, set-up (§4)
  control.py    fortresses, friendliness, sieges     settling.py   what the referee settles by
  votes.py      Commons and Lords (R-36, R-51)                     itself after every event
  duties.py     duties owed, the chronicle           clock.py      the time limit, the event deck
  calls.py      calling Parliament (§7.1, R-31)
  placement.py  placing crown cards (§5.3, R-53)
  movement.py   nobles home, entering play (R-30)

Each module imports only those above it in this list. This package re-exports every public name
of them, so that `rules.X` reads as one module to its callers.
"""

from referee.games.kingmaker.rules.names import *  # noqa: F401,F403
from referee.games.kingmaker.rules.places import *  # noqa: F401,F403
from referee.games.kingmaker.rules.heirs import *  # noqa: F401,F403
from referee.games.kingmaker.rules.strengths import *  # noqa: F401,F403
from referee.games.kingmaker.rules.control import *  # noqa: F401,F403
from referee.games.kingmaker.rules.votes import *  # noqa: F401,F403
from referee.games.kingmaker.rules.duties import *  # noqa: F401,F403
from referee.games.kingmaker.rules.calls import *  # noqa: F401,F403
from referee.games.kingmaker.rules.placement import *  # noqa: F401,F403
from referee.games.kingmaker.rules.movement import *  # noqa: F401,F403
from referee.games.kingmaker.rules.deaths import *  # noqa: F401,F403
from referee.games.kingmaker.rules.crowning import *  # noqa: F401,F403
from referee.games.kingmaker.rules.turn import *  # noqa: F401,F403
from referee.games.kingmaker.rules.setup import *  # noqa: F401,F403
from referee.games.kingmaker.rules.settling import *  # noqa: F401,F403
from referee.games.kingmaker.rules.clock import *  # noqa: F401,F403
# The private helpers the events and the tests of the remembered values call.
from referee.games.kingmaker.rules.settling import (  # noqa: F401
    _heirs_at_rest as _heirs_at_rest,
    _is_wight as _is_wight,
    _owners as _owners,
)
