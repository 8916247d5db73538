"""The realm as the referee keeps it: small frozen values, replaced (never mutated) by events.

The referee keeps the realm, not the map (rules page §1): who holds which card, where each noble,
heir and ship is (a declared location, §3), who controls each fortress, the sieges, the hands and
held event cards, the Chancery, the duties the table owes before play goes on, the clock and the
record for the scoresheet. Mappings in a State are never changed in place: an event builds new
ones.

Locations are text: `in:P` (inside place P), `near:P` (P's open square), `sq:TEXT` (any other
square), `aboard:SHIP`; ships lie at `port:P` or `sea:TEXT`. An unfortified place has no inside:
`in:P` is stored as `near:P`.
"""

from __future__ import annotations

import datetime as dt
from bisect import insort
from itertools import compress
from operator import is_, ne
from typing import Any, Iterable, Mapping

from referee.games.kingmaker.components import CROWN, Box, Entry
from referee.games.kingmaker.components import card_entry as card_entry  # where it was first
from referee.derived import derived
from referee.values import field, value
from referee.votes import Motion

# Where a crown card can be (`cards` maps each card to one of these, or to `noble:NAME` or
# `hand:PLAYER`).
DECK, CHANCERY, DISCARD, ASIDE, OUT = "deck", "chancery", "discard", "aside", "out"

# The set-up stages and the six phases of a turn (§4, §5).
DEAL, LAYOUT = "deal", "layout"
CHANCE, MOVEMENT, COMBAT, PARLIAMENT, CORONATION, DRAW = (
    "chance", "movement", "combat", "parliament", "coronation", "draw")
TURN_PHASES = (CHANCE, MOVEMENT, COMBAT, PARLIAMENT, CORONATION, DRAW)
TIME_UP, OVER = "time-up", "over"


@value(slots=True)
class NobleState:
    owner: str  # the player whose faction he belongs to
    at: str  # his location


@value(slots=True)
class HeirState:
    at: str  # where he is when nobody controls him (a controlled heir is with his noble)
    by: str | None = None  # the controlling noble
    alive: bool = True
    crowned: bool = False
    due: int | None = None  # 8.4: the controller's own turn by whose movement end he must land
    wight: bool = False  # 8.4: on Wight while his faction held Carisbrooke: mainland for him


@value(slots=True)
class ShipState:
    by: str  # the controlling noble
    at: str  # port:P or sea:TEXT


@value(slots=True)
class Siege:
    owner: str  # the player who laid it
    nobles: tuple[str, ...]  # the besiegers
    turn: int = 1
    ship: str | None = None  # laid from a ship in the port (§8.6)


@value(slots=True)
class Duty:
    """Something the table owes before play goes on: a response to an event card, a storm roll,
    a captive to ransom or kill, an heir to hand over... `player` None is the table."""

    kind: str
    player: str | None
    subject: str = ""
    choices: tuple[str, ...] = ()
    place: str = ""
    combat: bool = False  # part of an active combat (rule 14): heirs and fortress of the victor


@value  # no slots: evolve copies its fields at once, not through __init__ (it changes often)
class Combat:
    """A battle or a siege conclusion from its declaration to its deaths (§6)."""

    kind: str  # "battle" or "siege"
    at: str  # the battle's location, or the besieged place
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    att_allies: tuple[str, ...] = ()
    def_allies: tuple[str, ...] = ()
    heirs: tuple[str, ...] = ()  # the heirs in it (they roll against death too)
    def_heirs: tuple[str, ...] = ()  # those of them on the defending side
    attack: int = 0
    defence: int = 0
    odds: str = ""
    french: bool = False
    assassin: bool = False
    target: str | None = None
    sally: bool = False
    stage: str = "weather"  # weather -> result -> deaths
    outcome: str = ""  # major, minor, none (battle); taken (siege)
    saves: tuple[str, ...] = ()  # with a death chart: who still rolls
    dead: tuple[str, ...] = ()
    drawn: bool = False  # a weather card was drawn and kept (Writ, Free Move): drawing again

    @property
    def active(self) -> bool:
        """Rule 14, §3: from the first weather-check draw (a kept Writ's too) to the
        application of deaths and heir control."""
        return self.drawn or self.stage in ("result", "deaths")

    @property
    def attacking(self) -> tuple[str, ...]:
        return self.attackers + self.att_allies

    @property
    def defending(self) -> tuple[str, ...]:
        return self.defenders + self.def_allies


@value  # no slots: a new one at every event of a timed log, and evolve copies a dict at once
class Clock:
    """R-49: the time played, from the first chance phase, less the pauses (event times)."""

    started: dt.datetime | None = None
    now: dt.datetime | None = None
    paused: float = 0.0  # seconds of finished pauses
    since: dt.datetime | None = None  # a pause in progress

    @property
    def minutes(self) -> float | None:
        if self.started is None or self.now is None:
            return None
        until = self.since or self.now
        return max(0.0, ((until - self.started).total_seconds() - self.paused) / 60)


# The steps of a Parliament in session (§7.2-7.5).
EXCUSE, REVOKE, PORTS, BISHOPS, SELECT, PROPOSE, VOTE, ASSIGN, BUSINESS, RETURN = (
    "excuse", "revoke", "ports", "bishops", "select", "propose", "vote", "assign", "business",
    "return")


@value(slots=True)
class Question:
    """What a vote in Parliament decides: a card proposed to a noble (7.3), a King declared
    illegitimate (7.4, `card` the King, `noble` the mover), a title transferred (7.4)."""

    kind: str  # "proposal", "illegitimate" or "transfer"
    card: str
    noble: str
    giver: str = ""


@value(slots=True)
class Ballot:
    """A vote taken in Parliament, as `history` and the scoresheet tell it."""

    subject: str  # "Earl of Essex to Bourchier"
    yea: tuple[str, ...]
    nay: tuple[str, ...]
    counts: str  # "Commons 35-35, Lords 12-4"
    passed: bool
    round: int  # 1 or 2; 0 for other business


@value  # no slots: evolve copies its thirty fields at once, not through __init__
class Sitting:
    """A Parliament in session, from its call to the last noble sent home (§7.1-7.5, 7.7)."""

    caller: str  # the player who called it (7.7: who drew the card)
    by: str  # the calling King (heir) or Chancellor (noble); "" for a People's Parliament
    place: str  # P
    noble: str  # the calling noble, who may stay free (7.5; R-56: the host of 7.7)
    people: bool = False
    chancellor: bool = False  # called by the Chancellor (not the King's controller)
    summoned: str = ""
    step: str = EXCUSE
    order: tuple[str, ...] = ()  # the players asked in turn (excuses, return)
    asked: int = 0  # the index in `order` of the player asked now
    excused: tuple[str, ...] = ()
    sea: tuple[str, ...] = ()  # excused free, off the mainland or at sea
    revoked: tuple[str, ...] = ()
    attending: tuple[str, ...] = ()
    tally: tuple[tuple[str, int, int], ...] = ()  # player, Commons, Lords: frozen
    round: int = 0
    leader: str = ""
    pool: tuple[str, ...] = ()  # the Chancery's cards of this Parliament still to go
    bishops: tuple[str, ...] = ()  # bishops assigned in this Parliament
    selected: tuple[str, ...] = ()  # the leader's selection still to propose, in order
    question: Question | None = None
    motion: Motion | None = None
    ballots: tuple[Ballot, ...] = ()
    assigned: tuple[str, ...] = ()  # "CARD to NOBLE"
    refused: tuple[str, ...] = ()  # "CARD to NOBLE": proposals voted down
    motions: tuple[str, ...] = ()  # Kings an illegitimacy motion was moved against
    business: tuple[str, ...] = ()  # what other business decided, in words
    placed: tuple[str, ...] = ()  # attending nobles sent home or staying (7.5)
    returned: tuple[str, ...] = ()  # of them, sent home
    kept: tuple[str, ...] = ()  # ships kept from going home by a Free Move (7.5)

    def votes_of(self, player: str) -> tuple[int, int]:
        return next(((c, lo) for p, c, lo in self.tally if p == player), (0, 0))


@value(slots=True)
class Peace:
    """The King's Peace (7.6), from dismissal to just before the caller's next chance phase."""

    caller: str
    place: str  # Parliament's square: no combat there
    returned: tuple[str, ...]  # nobles sent home at dismissal, not since moved by an event
    ships: tuple[str, ...]  # ships sent home


@value(slots=True)
class Parliament:
    """A Parliament held; the windows of R-32, R-33 and R-59 count these, the scoresheet lists
    them."""

    turn: int  # the turn it was called in
    caller: str  # the player
    by: str  # the calling King (heir) or Chancellor (noble); "" for a People's Parliament
    people: bool = False
    assigned: tuple[str, ...] = ()  # "CARD to NOBLE"
    place: str = ""
    refused: tuple[str, ...] = ()  # "CARD to NOBLE": proposals voted down
    ballots: tuple[Ballot, ...] = ()
    business: tuple[str, ...] = ()
    chancellor: bool = False  # called by the Chancellor (R-33 counts King and Chancellor apart)


@value(slots=True)
class Ending:
    kind: str  # complete, time, concede, abandoned
    reason: str
    winners: tuple[str, ...] = ()
    victory: str = ""  # the victory type (§3, R-50)


@value
class State:
    names: tuple[str, ...]  # players in seat order
    options: Mapping[str, Any]
    seed: int | None
    box: Box
    cards: Mapping[str, str] = field(default_factory=dict)  # crown card -> where it is
    hidden: Mapping[str, int] = field(default_factory=dict)  # player -> unseen hand cards
    events_out: Mapping[str, int] = field(default_factory=dict)  # event -> copies out of deck
    held: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # player -> kept events
    nobles: Mapping[str, NobleState] = field(default_factory=dict)
    heirs: Mapping[str, HeirState] = field(default_factory=dict)
    lines: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # house -> succession
    ships: Mapping[str, ShipState] = field(default_factory=dict)
    control: Mapping[str, str] = field(default_factory=dict)  # fortress -> controlling noble
    sieges: Mapping[str, Siege] = field(default_factory=dict)
    duties: tuple[Duty, ...] = ()
    combat: Combat | None = None
    # the turn
    stage: str = DEAL
    dealt: tuple[str, ...] = ()  # players who entered their deal
    first: int = 0  # the first player's seat
    seat: int = 0  # the active player's seat
    turn: int = 0  # turns played, counting the one in progress (0 during set-up)
    own: Mapping[str, int] = field(default_factory=dict)  # player -> own turns begun
    last_turn: Mapping[str, int] = field(default_factory=dict)  # player -> his latest turn
    event_drawn: bool = False  # this turn's chance card
    drew: bool = False  # this turn's crown card
    moved: Mapping[str, str] = field(default_factory=dict)  # noble/ship -> land/sea this phase
    acted: frozenset[str] = frozenset()  # nobles in a combat action this phase
    # noble -> the latest of his own player's turns in which he took part in combat
    fought_in_own_turn: Mapping[str, int] = field(default_factory=dict)
    barred: tuple[tuple[str, str, int], ...] = ()  # (noble, place, turn): may not attack it
    friendly: frozenset[str] = frozenset()  # §8.2: fixed at the start of the movement phase
    grants: frozenset[tuple[str, str]] = frozenset()  # (place, player) declared friendly
    both: Mapping[str, int] = field(default_factory=dict)  # player -> last own turn
    cancelled: bool = False  # 7.7: this turn's movement and combat are cancelled
    beaufort_crowned: bool = False  # 8.2: Beaufort as the Lancastrian heir, crowned
    late: tuple[str, ...] = ()  # players who have not joined yet (§9)
    # the record
    clock: Clock = Clock()
    paused: bool = False
    parliaments: tuple[Parliament, ...] = ()
    sitting: Sitting | None = None  # a Parliament in session (§7)
    people_due: bool = False  # 7.7: the drawer must hold a People's Parliament this turn
    peace: Peace | None = None  # the King's Peace while it holds (7.6)
    peace_over: int | None = None  # the turn in which the last King's Peace ended
    chronicle: tuple[tuple[int, str], ...] = ()  # (turn, what happened): for the scoresheet
    ended: Ending | None = None
    time_up: bool = False
    stopped: str | None = None  # why the table stopped the game (the core `end` event)
    # The fields a step of the referee's settling changed after an earlier step that reads them
    # had run: that step runs at the next event's settling (rules/settling.py).
    unsettled: frozenset[str] = frozenset()
    # What the rules derive from a state is declared with the fields it reads (referee.derived)
    # and kept in the state: most events replace few fields.

    # ---- who is who -------------------------------------------------------------------------
    @property
    def active(self) -> str:
        return self.names[self.seat]

    @property
    def playing(self) -> tuple[str, ...]:
        return tuple(n for n in self.names if n not in self.late)

    def owner(self, noble: str) -> str:
        return self.nobles[noble].owner

    def faction(self, player: str) -> list[str]:
        """A player's nobles in play, in the order they entered."""
        return [n for n, s in self.nobles.items() if s.owner == player]

    def cards_of(self, noble: str) -> list[str]:
        """The crown cards assigned to a noble, in the order they came (callers do not change
        the list: it is shared)."""
        return placed(self).holdings.get(noble, [])

    def hand(self, player: str) -> list[str]:
        """The known cards in a player's hand (the unseen ones are counted in `hidden`)."""
        return list(placed(self).hands.get(player, ()))

    def hand_size(self, player: str) -> int:
        return len(placed(self).hands.get(player, ())) + self.hidden.get(player, 0)

    def entry(self, card: str) -> Entry:
        """The box entry of a card in play (copies share their entry: `Welsh Mercenaries #2`)."""
        found = self.box.instances.get(card)  # box.crown_card(card), one call less: asked most
        if found is None:
            found = self.box.crown_card(card)
        assert found is not None, card
        return found

    def kind(self, card: str) -> str:
        found = self.box.instances.get(card)  # self.entry(card), in one step: asked most
        if found is None:
            found = self.box.crown_card(card)
        assert found is not None, card
        return found.kind

    def heirs_of(self, noble: str) -> list[str]:
        return [h for h, s in self.heirs.items() if s.alive and s.by == noble]

    @property
    def in_play(self) -> bool:
        return self.stage not in (DEAL, LAYOUT)


# ---- what the rules derive, kept while what it derives from stands ---------------------------
# Every value the rules derive from a state is a derived value (referee.derived) declared with
# the fields it reads: kept in the state, carried by evolve while none of them changed. One
# read from finer derived values stands while they are the same objects (referee.derived).

@value
class Placed:
    """Where the crown cards lie, each list in `cards` order (callers do not change what it
    holds: it is shared). The order of the mappings' keys means nothing: they are looked up."""

    at: dict[str, list[str]]  # where -> the cards there
    holdings: dict[str, list[str]]  # noble -> the cards assigned to him, in the order they came
    hands: dict[str, tuple[str, ...]]  # player -> the known cards in his hand
    dealt: dict[str, tuple[str, ...]]  # player -> the cards dealt to him, not laid out yet
    order: dict[str, int]  # card -> its place in `cards`


FEW_MOVED = 3  # beyond this many cards moved, sorting out afresh is as quick


def moved_cards(cards: Mapping[str, str], moves: Mapping[str, str]) -> dict[str, str]:
    """`cards` with each card of `moves` in its new place (its keys in the same order, so that
    `placed` is brought up to date from the last one: most events move one card of a hundred)."""
    out = dict(cards)
    out.update(moves)
    return out


def _placed_update(before: Placed, reads: tuple[Any, ...], state: State) -> Placed:
    """`placed` of `state` from `before`, that of the `cards` in `reads`: the cards that moved
    re-sorted when the keys are the same, in the same order, and few moved."""
    (last,) = reads
    cards = state.cards
    if len(cards) == len(last) and all(map(is_, cards, last)):
        out = _placed_after(last, before, cards)
        if out is not None:
            return out
        return placed_afresh(cards, before.order)  # the same keys in the same order
    return placed_afresh(cards)


@derived(State, "cards", update=_placed_update)
def placed(state: State) -> Placed:
    """Where the cards of `state.cards` lie (brought up to date from the last state's when few
    moved)."""
    return placed_afresh(state.cards)


@derived(State, "placed")
def holdings(state: State) -> dict[str, list[str]]:
    """noble -> the crown cards assigned to him: `placed`'s, the same object while a move of
    cards leaves every noble's (what is derived from it then stands)."""
    return placed(state).holdings


@derived(State, "placed")
def hands(state: State) -> dict[str, tuple[str, ...]]:
    """player -> the known cards in his hand: `placed`'s, the same object while a move of
    cards leaves every hand."""
    return placed(state).hands


def placed_afresh(cards: Mapping[str, str], order: dict[str, int] | None = None) -> Placed:
    """Where the cards of `cards` lie, sorted out in one pass (`order`, when given, is that of
    `cards`' keys, known already)."""
    at: dict[str, list[str]] = {}
    for card, where in cards.items():
        at.setdefault(where, []).append(card)
    if order is None:
        order = dict(zip(cards, range(len(cards))))  # card -> its index
    return Placed(at, *_views({}, {}, {}, at, at), order)


def _placed_after(last: Mapping[str, str], before: Placed, cards: Mapping[str, str]
                  ) -> Placed | None:
    """`cards` from `before`, the Placed of `last` (the same keys in the same order); None when
    too many moved."""
    moved = list(compress(cards, map(ne, cards.values(), last.values())))
    if not moved:
        return before  # equal, another object
    if len(moved) > FEW_MOVED:
        return None
    at = before.at.copy()
    order = before.order.__getitem__
    touched: list[str] = []
    for card in moved:
        source, target = last[card], cards[card]
        rest = at[source].copy()
        rest.remove(card)  # its one place: a card lies in one place
        if rest:
            at[source] = rest
        else:
            del at[source]
        there = list(at.get(target, ()))
        insort(there, card, key=order)
        at[target] = there
        touched += source, target
    views = _views(before.holdings, before.hands, before.dealt, at, touched)
    return Placed(at, *views, before.order)


def _views(holdings: dict[str, list[str]], hands: dict[str, tuple[str, ...]],
           dealt: dict[str, tuple[str, ...]], at: dict[str, list[str]], wheres: Iterable[str]
           ) -> tuple[dict[str, list[str]], dict[str, tuple[str, ...]],
                      dict[str, tuple[str, ...]]]:
    """The holdings, hands and dealt cards brought up to date with `at` for `wheres` (a noble,
    hand or dealt cards left empty leaves its view). A view no `where` touches is returned as
    given, the same object (so that what is derived from it outlives the move); one that is
    touched is copied first."""
    given = holdings, hands, dealt
    for where in wheres:
        kind, _, name = where.partition(":")
        if kind == "noble":
            if holdings is given[0]:
                holdings = holdings.copy()
            _put(holdings, name, at.get(where))
        elif kind == "hand":
            if hands is given[1]:
                hands = hands.copy()
            there = at.get(where)
            _put(hands, name, tuple(there) if there else None)
        elif kind == "dealt":
            if dealt is given[2]:
                dealt = dealt.copy()
            there = at.get(where)
            _put(dealt, name, tuple(there) if there else None)
    return holdings, hands, dealt


def _put(view: dict[str, Any], name: str, value: Any) -> None:
    if value:
        view[name] = value
    else:
        view.pop(name, None)


def instances(entry: Entry) -> list[str]:
    """The physical cards of an entry: one, or `NAME #1`... for several copies."""
    copies = entry.copies or 1
    return [entry.name] if copies == 1 else [f"{entry.name} #{i}" for i in range(1, copies + 1)]


def crown_instances(box: Box) -> list[str]:
    return [card for kind in CROWN for entry in box.of(kind) for card in instances(entry)]
