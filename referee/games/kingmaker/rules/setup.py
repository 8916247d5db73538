"""The Crown deck and set-up (§4, rule 25, R-8, R-15): where each crown card starts, the deck
rebuilt when exhausted, the first player, control at entry, and the heirs and nobles in place
for the first turn."""

from __future__ import annotations

from referee.derived import derived
from referee.evolve import evolve
from referee.games.kingmaker.components import Box
from referee.games.kingmaker.rules.duties import chronicle
from referee.games.kingmaker.rules.movement import home_choices
from referee.games.kingmaker.rules.names import CHANCELLOR, CONSTABLE, LE_LUCAS
from referee.games.kingmaker.rules.placement import _claim, take_control
from referee.games.kingmaker.rules.places import normal
from referee.games.kingmaker.rules.strengths import holder, strength
from referee.games.kingmaker.rules.turn import begin_turn
from referee.games.kingmaker.state import (
    ASIDE,
    DECK,
    DISCARD,
    OUT,
    HeirState,
    NobleState,
    State,
    card_entry,
    crown_instances,
    moved_cards,
    placed,
)

SENIOR_CLERICS = ("Canterbury", "York", "Durham", "Carlisle", "Lincoln", "Norwich")


def deck_size(state: State) -> int:
    return len(placed(state).at.get(DECK, ())) - sum(state.hidden.values())


def rebuild_deck(state: State) -> State:
    """R-15: an exhausted Crown deck is rebuilt from the crown discard."""
    if deck_size(state) > 0:
        return state
    cards = {c: (DECK if w == DISCARD else w) for c, w in state.cards.items()}
    return evolve(state, cards=cards)


def initial_place(box: Box, card: str) -> str:
    """§4.1, rule 25: where a crown card starts: the deck, set aside, or out of the game."""
    entry = box.crown_card(card)
    assert entry is not None, card
    if entry.get("assoc") in ("calais", "ireland") or card_entry(card) in _ships_brought(box):
        return OUT
    if card in (LE_LUCAS, CONSTABLE):
        return ASIDE
    return DECK


@derived(Box, "entries")
def _ships_brought(box: Box) -> frozenset[str]:
    """The ships a title or office brings into play (rule 25: not in the Crown deck)."""
    return frozenset(s for kind in ("title", "office") for e in box.of(kind)
                     for s in e.names("ships"))


def open_deck(state: State) -> State:
    """At the first deal: the Crown deck as rule 25 makes it."""
    return evolve(state, cards=_opening_places(state.box))


@derived(Box, "entries")
def _opening_places(box: Box) -> dict[str, str]:
    """card -> where it starts, a function of the box alone: the logs of a folder played with
    one box share it (a state's `cards` is never changed, only replaced)."""
    return {c: initial_place(box, c) for c in crown_instances(box)}


def first_player(state: State) -> int:
    """R-8: the Chancellor's faction; else the most senior cleric's; else the most troops."""
    chancellor = holder(state, CHANCELLOR)
    if chancellor:
        return state.names.index(state.owner(chancellor))
    clerics = [(-state.entry(c).number("lords"), _senior_rank(c), c)
               for c, w in state.cards.items() if w.startswith("noble:")
               and state.kind(c) == "bishop"]
    if clerics:
        return state.names.index(state.owner(str(holder(state, min(clerics)[2]))))
    troops = {p: sum(strength(state, n, bonuses=False) for n in state.faction(p))
              for p in state.playing}
    best = max(troops.values())
    return next(state.names.index(p) for p in state.playing if troops[p] == best)


def _senior_rank(card: str) -> int:
    return next((i for i, word in enumerate(SENIOR_CLERICS) if word in card), 99)


def finish_setup(state: State) -> State:
    """§4 steps 5-8: the first player, control at entry in seat order from him (R-7), the
    Constable back, heirs at their starts with Henry crowned, nobles and ships in place."""
    first = first_player(state)
    state = evolve(state, first=first, lines=lines_of(state))
    order = state.names[first:] + state.names[:first]
    for player in order:
        state = _claims_at_setup(state, player)
    back = {CONSTABLE: DECK} if state.cards.get(CONSTABLE) == ASIDE else {}
    state = evolve(state, cards=moved_cards(state.cards, back), heirs=start_heirs(state))
    # Each noble home (send_home): where he goes reads the control and the owners, which no
    # noble's placing changes, so all are placed in one new state.
    nobles = dict(state.nobles)
    for player in order:
        for noble in state.faction(player):
            nobles[noble] = NobleState(nobles[noble].owner, home_choices(state, noble)[0])
    state = evolve(state, nobles=nobles)
    return chronicle(begin_turn(state, first), "the game begins")


def _claims_at_setup(state: State, player: str) -> State:
    for noble in state.faction(player):
        for card in state.cards_of(noble):
            if state.kind(card) == "town":
                state = _town_at_setup(state, card, noble)
    # claim_places for each noble's homes, then for what each of his cards brings, in one new
    # state: the first to claim a neutral fortress has it.
    control, claimed = dict(state.control), False
    for noble in state.faction(player):
        claimed |= _claim(control, state.box, noble, state.entry(noble).names("home"))
        for card in state.cards_of(noble):
            claimed |= _claim(control, state.box, noble, state.entry(card).names("brings"))
    return evolve(state, control=control) if claimed else state


def _town_at_setup(state: State, card: str, noble: str) -> State:
    place = str(state.entry(card).get("place"))
    owner = state.control.get(place)
    if owner is None:
        return take_control(state, place, noble)
    # §8.1: the card goes to the fortress's controller
    return evolve(state, cards=moved_cards(state.cards, {card: f"noble:{owner}"}))


def start_heirs(state: State) -> dict[str, HeirState]:
    heirs = {}
    for entry in state.box.of("heir"):
        start = normal(state, f"in:{entry.get('start')}")
        crowned = entry.get("house") == "lancaster" and entry.get("rank") == 1
        heirs[entry.name] = HeirState(at=start, crowned=crowned)
    return heirs


def lines_of(state: State) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for house in ("lancaster", "york"):
        ranked = sorted((e for e in state.box.of("heir") if e.get("house") == house),
                        key=lambda e: (e.number("rank"), e.name))
        out[house] = tuple(e.name for e in ranked)
    return out
