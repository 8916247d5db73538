"""The Dwarf King's rules that more than one event shares: the moment of a hand and who acts, what a
card is worth in a trick and who wins it, which plays are legal given what the referee knows,
revokes, the effects that move cards between hands, and the tool's own shuffles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, TypeVar

from referee.engine import Event, Notice, ToAct
from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.games.dwarf_king.components import (
    CARDS,
    DEALER_CARD,
    LEADER_CARD,
    OUT_WITH_THREE,
    QUEST_CARD,
    SINGULAR,
    SPECIAL_CARD,
    SPECIALS,
    TILE_NUMBERS,
    deck,
    hand_size,
    sort_cards,
)
from referee.games.dwarf_king.scoring import HANDS, hand_points, outcome
from referee.games.dwarf_king.state import Deal, HandResult, Slot, State, Trick
from referee.hands import Void

if TYPE_CHECKING:  # only seeded and random play use it
    import random

FOLLOW = "Follow suit"
T = TypeVar("T")
SPECIAL, QUEST, SWAP, GIVE, LEADER, PLAY, TRADE, PASS, OVER = (
    "special", "quest", "swap", "give", "leader", "play", "trade", "pass", "over")

# --------------------------------------------------------------------------------------------
# The moment of a hand


def phase(state: State) -> str:
    deal = state.deal
    if state.over:
        return "over"
    if deal.special is None:
        return "special"
    if deal.quest is None:
        return "quest"
    if deal.special == "FlagBearerG" and not deal.swapped:
        return "swap" if deal.taken_from is None else "give"
    if deal.leader is None:
        return "leader"
    if deal.pending:
        return {"trade-hands": "trade", "pass-hands": "pass"}[deal.pending]
    return "play"


# --------------------------------------------------------------------------------------------
# A card inside a trick

# Read at every card played: each card's power in a trick ("" for none), and the suit and value
# of a card without one.
POWER = {code: c.special.power if c.special else "" for code, c in CARDS.items()}
PLAIN = {code: (c.suit, float(c.value)) for code, c in CARDS.items() if not POWER[code]}


def effective(card: str, before: tuple[tuple[int, str], ...], previous: Trick | None) \
        -> tuple[str | None, float]:
    """The suit and value a card has in a trick, given the cards played before it.

    Magic cards take their suit from other cards: the Mummy copies the card that won the previous
    trick, the Puppeteer the card played just before it (the last card of the previous trick when it
    leads, R-19) plus half a step. The Dragon, Excalibur and a Sorcerer played as a last card have
    no
    suit. Only one special card is in each hand, so the copied card is always a basic card.
    """
    power = POWER[card]
    if not power:
        return PLAIN[card]
    if power == "mummy" and previous is not None:
        return effective(previous.winning_card, (), None)
    if power == "puppeteer":
        source = before[-1][1] if before else (previous.plays[-1][1] if previous else None)
        if source is None:
            return None, 0.0
        suit, value = effective(source, (), None)
        return suit, value + 0.5
    return None, 0.0


def led_suit(plays: tuple[tuple[int, str], ...], previous: Trick | None) -> str | None:
    """The suit to follow: that of the first card with a suit (after a leading Dragon, the next
    card sets it)."""
    for index, (_, card) in enumerate(plays):
        suit, _ = effective(card, plays[:index], previous)
        if suit is not None:
            return suit
    return None


def trick_winner(plays: tuple[tuple[int, str], ...], previous: Trick | None) -> int:
    """Excalibur wins; else the Dragon, unless an Ace is in the trick (R-1: the Ace of the led suit,
    else the first Ace played); else the highest card of the led suit."""
    powers = {POWER[c]: s for s, c in plays if POWER[c]}
    if "excalibur" in powers:
        return powers["excalibur"]
    led = led_suit(plays, previous)
    if "dragon" in powers:
        aces = [(s, c) for s, c in plays if CARDS[c].rank == "A"]
        if not aces:
            return powers["dragon"]
        return next((s for s, c in aces if CARDS[c].suit == led), aces[0][0])
    best_seat, best_value = plays[0][0], -1.0
    for index, (seat, card) in enumerate(plays):
        suit, value = effective(card, plays[:index], previous)
        if suit == led and value > best_value:
            best_seat, best_value = seat, value
    return best_seat


# --------------------------------------------------------------------------------------------
# Checks of a card played (only what can be proven from what the referee knows)


def check_card_available(state: State, seat: int, card: str) -> None:
    """The card is in this hand's deal, not played yet, and not known to be in another hand."""
    deal, name = state.deal, state.names[seat]
    if card == OUT_WITH_THREE and state.players == 3:
        raise IllegalMove(f"{name} cannot play {card}: the 2 of Dwarves is out of the game with "
                          "3 players", code="card-out-of-game", rule="Set-up")
    if CARDS[card].special is not None and card != deal.special:
        raise IllegalMove(f"{name} cannot play {card}: this hand's special card is "
                          f"{deal.special}", code="special-not-in-hand", rule="Set-up")
    if deal.is_gone(card):
        raise IllegalMove(f"{card} has already been played in this hand", code="card-played",
                          rule="Cards")
    slot = deal.slots[seat]
    if slot.complete and card not in slot.known:
        raise IllegalMove(f"{name} does not hold {card} (the hand was entered at the deal or "
                          "dealt by the tool)", code="card-not-in-hand", rule="Cards")
    holder = deal.holder(card)
    if holder is not None and holder != seat:
        raise IllegalMove(f"{name} cannot play {card}: it is in {where_is(state, card, holder)}",
                          code="card-held-elsewhere", rule="Cards")


def where_is(state: State, card: str, holder: int) -> str:
    """The hand `card` is in, as a refusal may say it: named only when the table could tell
    (a card shown, or the one hand left unknown); else the referee's knowledge stays its own."""
    if public_deal(state.deal).holder(card) == holder:
        return f"the hand {state.names[holder]} holds"
    return "another player's hand"


AWAITED = {QUEST: QUEST_CARD, SWAP: "FlagBearerG", GIVE: "FlagBearerG", LEADER: LEADER_CARD}


def public_deal(deal: Deal, awaited: str | None = None, own: int | None = None) -> Deal:
    """The deal as the table knows it: of each hand only the cards shown and its voids (and all
    the referee knows of seat `own`'s hand, for its own player). `awaited` is the card the
    moment makes its holder show at once: its holder is named as the one to act anyway."""
    slots = []
    for seat, slot in enumerate(deal.slots):
        if seat != own:
            seen = slot.public()
            slot = seen.showing(awaited) if awaited and awaited in slot.known else seen
        slots.append(slot)
    return _last_hand_seen(evolve(deal, slots=tuple(slots)))


def _last_hand_seen(deal: Deal) -> Deal:
    """The deal with its one hand the table does not know filled in, when every other hand is
    known to the table (entered in front of it): the unplayed cards left are that hand, so the
    table knows it as well as the referee does, and its options are its legal cards only."""
    open_slots = [s for s, slot in enumerate(deal.slots) if not slot.complete]
    if len(open_slots) != 1:
        return deal
    seat = open_slots[0]
    placed = {card for slot in deal.slots for card in slot.known}
    cards = frozenset(c for c in deal.deck(len(deal.slots))
                      if c not in placed and not deal.is_gone(c)) | deal.slots[seat].known
    if len(cards) != deal.slots[seat].size:  # pragma: no cover - a deal always adds up
        return deal
    return deal.with_slot(seat, evolve(deal.slots[seat], known=cards, shown=cards,
                                       complete=True))


def table_view(state: State, player: str | None = None) -> State:
    """The game as the table sees it (or `player`, who also sees their own hand)."""
    if not state.deal.slots:
        return state
    own = state.seat(player) if player in state.names else None
    deal = public_deal(state.deal, AWAITED.get(phase(state)), own)
    if deal.taken and (own is None or own != state.deal.holder("FlagBearerG")):
        deal = evolve(deal, taken=())  # the Flag Bearer's alone to see
    return evolve(state, deal=deal)


def check_play(state: State, seat: int, card: str) -> str | None:
    """Raise IllegalMove if `seat` may not play `card` now; return the suit the play shows a
    void in (the player did not follow and the referee cannot tell whether they could), if any."""
    check_card_available(state, seat, card)
    deal = state.deal
    slot = deal.slots[seat]
    power = POWER[card]
    if power:
        _check_magic_card(state, seat, card, power)
    previous = deal.tricks[-1] if deal.tricks else None
    led = led_suit(deal.plays, previous)
    if led is None or power == "dragon":
        return None  # leading, after a leading Dragon, or the Dragon: anything goes
    suit, _ = effective(card, deal.plays, previous)
    if suit == led:
        return None
    # Not following (R-8: a magic card follows only through the suit it copies; Excalibur never).
    for held in slot.known:
        if CARDS[held].suit == led and held != card:
            raise _not_following(state, seat, card, led)
    return None if slot.complete else led


def _check_magic_card(state: State, seat: int, card: str, power: str) -> None:
    """When the Sorcerer, the Mummy, the Puppeteer and Excalibur may not be played."""
    deal, name = state.deal, state.names[seat]
    slot = deal.slots[seat]
    first_trick = not deal.tricks
    leading = not deal.plays
    if power == "sorcerer" and slot.size > 1:
        raise IllegalMove(f"{name} cannot play the Sorcerer into a trick: it is played between "
                          "two tricks (`Sorcerer CARD`), or as the last card of a hand (R-8)",
                          code="sorcerer-between-tricks", rule="Sorcerer")
    if power == "mummy" and first_trick:
        raise IllegalMove(f"{name} cannot play the Mummy in the first trick: there is no previous "
                          "trick to copy", code="mummy-first-trick", rule="Mummy")
    if power == "puppeteer" and leading and first_trick:
        raise IllegalMove(f"{name} cannot lead the first trick with the Puppeteer",
                          code="puppeteer-first-lead", rule="Puppeteer")
    if power in ("puppeteer", "excalibur") and leading and slot.size > 1:
        raise IllegalMove(f"{name} cannot lead with {card}: the Puppeteer and Excalibur lead only "
                          "as a player's last card", code="lead-last-card-only", rule="R-3")


def _not_following(state: State, seat: int, card: str, led: str) -> IllegalMove:
    """The refusal of a card that does not follow `led` from a hand known to hold one."""
    slot = state.deal.slots[seat]
    must = [c for c in slot.known if CARDS[c].suit == led and c != card]
    seen = public_deal(state.deal).slots[seat].known  # never name a card the table cannot tell
    shown = sort_cards(c for c in must if c in seen)
    excalibur = POWER[card] == "excalibur"
    what = (f"cannot play Excalibur: it is playable only when void in {led}"
            if excalibur else f"must follow {led}")
    holds = ", ".join(shown) if shown else f"a card of {led}"
    return IllegalMove(f"{state.names[seat]} {what}: the hand holds {holds}",
                       code="excalibur-not-void" if excalibur else "must-follow",
                       rule="Excalibur" if excalibur else FOLLOW)


def aloud(state: State, seat: int, card: str, check: Callable[[State, int, str], T]) -> T:
    """`check(state, seat, card)`, refused in words the whole table may hear (R-21). When the
    table's own knowledge refuses the card too (a card shown, a hand typed in front of everyone),
    the refusal says why; when only the referee's knowledge of a hidden hand does (a hand the
    tool dealt), every reason sounds the same: whether the hand lacks the card or holds the led
    suit stays with its player, who reads their legal cards with `options --for NAME`."""
    try:
        return check(state, seat, card)
    except IllegalMove:
        check(table_view(state), seat, card)  # raises the refusal the table could give itself
        raise _not_now(state, seat, card) from None


def _not_now(state: State, seat: int, card: str) -> IllegalMove:
    name, deal = state.names[seat], state.deal
    led = led_suit(deal.plays, deal.tricks[-1] if deal.tricks else None)
    follow = f" (follow {led} if you can)" if led else ""
    return IllegalMove(f"{name} cannot play {card} now{follow}; why stays with {name}'s hidden "
                       "hand", code="not-playable-now", rule="R-21",
                       hint=f"{name} alone may read the cards {name} can play: "
                            f"`options --for {name}`")


# --------------------------------------------------------------------------------------------
# Playing a card


def play_card(state: State, seat: int, card: str) -> State:
    shown_void = aloud(state, seat, card, check_play)
    deal = state.deal
    slot = deal.slots[seat]
    notices = state.notices
    revoke = _revoke(slot, card)
    if revoke is not None:
        notices += (_revoke_notice(state, seat, card, revoke),)
        slot = slot.dropping_void(revoke)
    if shown_void is not None:
        slot = slot.showing_void(Void(shown_void, deal.trick_number, state.names[seat], card))
    plays, tricks = deal.plays + ((seat, card),), deal.tricks
    if len(plays) == state.players:  # the trick is complete
        previous = tricks[-1] if tricks else None
        tricks += (Trick(len(tricks) + 1, plays, trick_winner(plays, previous)),)
        plays = ()
    state = state.with_deal(deal.after_play(seat, slot.without(card), plays, tricks), notices)
    return state if plays else _after_trick(state)


def _revoke(slot: Slot, card: str) -> Void | None:
    """The void this play proves false: a card of that suit from the same hand, unless the card
    joined the hand after the void was shown."""
    suit = CARDS[card].suit
    void = slot.void_in(suit) if suit else None
    if void is None:
        return None
    if slot.joined_after(card, void.since):
        return None
    return void


def _revoke_notice(state: State, seat: int, card: str, void: Void) -> Notice:
    now = state.names[seat]
    held = "" if now == void.player else f" (the hand {void.player} held, now {now}'s)"
    return Notice("revoke",
                  f"Revoke by {void.player}: in trick {void.since} {void.player} played "
                  f"{void.card} instead of a {SINGULAR[void.what]}, but the same hand{held} plays "
                  f"{card} in trick {state.deal.trick_number}",
                  FOLLOW)


def _after_trick(state: State) -> State:
    """After a trick: the end of the hand, or the choice its special card calls for (a trade, a
    pass), if any."""
    deal = state.deal
    if len(deal.tricks) == hand_size(state.players):
        return finish_hand(state)
    special = SPECIAL_CARD.get(deal.special or "")
    action = special.action if special else ""
    player = deal.tricks[-1].player_of(deal.special) if deal.special else None
    if action in ("trade-hands", "pass-hands") and player is not None:
        return evolve(state, deal=evolve(deal, pending=action, pending_seat=player))
    return state


# --------------------------------------------------------------------------------------------
# Effects that move cards between hands


def trade_hands(state: State, seat: int, target: int) -> State:
    """The Druid: two seats exchange their whole hands (and what is known about them)."""
    slots = list(state.deal.slots)
    slots[seat], slots[target] = slots[target], slots[seat]
    return evolve(state, deal=evolve(state.deal, slots=tuple(slots), pending="",
                                       pending_seat=None))


def pass_hands(state: State, step: int) -> State:
    """The Standard Bearer: every hand moves one seat (left = the next seat, R-7)."""
    n = state.players
    old = state.deal.slots
    slots = tuple(old[(seat - step) % n] for seat in range(n))
    return evolve(state, deal=evolve(state.deal, slots=slots, pending="",
                                       pending_seat=None))


def goblin_swap(state: State, seat: int, target: int, taken: tuple[str, ...] | None,
                given: tuple[str, ...] | None) -> State:
    """The Goblins' Flag Bearer: `seat` takes 2 random cards from `target` and gives back 2.
    When the cards are not recorded, what was known about both hands is forgotten."""
    deal = state.deal
    mine, theirs = deal.slots[seat], deal.slots[target]
    if taken is None or given is None:
        mine, theirs = Slot(mine.size), Slot(theirs.size)
    else:  # typed at the table: everyone saw the cards taken and given
        mine = evolve(mine.with_known((mine.known | set(taken)) - set(given)),
                      shown=(mine.shown | set(taken)) - set(given))
        theirs = evolve(theirs.with_known((theirs.known - set(taken)) | set(given)),
                        shown=(theirs.shown - set(taken)) | set(given))
    deal = deal.with_slot(seat, mine).with_slot(target, theirs)
    return evolve(state, deal=evolve(deal, swapped=True))


def goblin_take(state: State, seat: int, target: int, taken: tuple[str, ...]) -> State:
    """The Goblins' Flag Bearer, in a hand the tool dealt: the tool takes 2 random cards from
    `target` into `seat`'s hand, for `seat` alone to see; the 2 given back come next (`give`).
    The table no longer knows where the cards it saw in `target`'s hand went."""
    deal = state.deal
    mine, theirs = deal.slots[seat], deal.slots[target]
    mine = evolve(mine, size=mine.size + 2, known=mine.known | set(taken))
    theirs = evolve(theirs, size=theirs.size - 2, known=theirs.known - set(taken),
                    shown=frozenset())
    deal = deal.with_slot(seat, mine).with_slot(target, theirs)
    return evolve(state, deal=evolve(deal, taken=tuple(taken), taken_from=target))


def goblin_give(state: State, seat: int, given: tuple[str, ...]) -> State:
    """The Flag Bearer gives 2 cards of his hand (the 2 taken included) back, face down: the
    table saw none of them, and no longer knows where the cards it saw in his hand went."""
    deal = state.deal
    assert deal.taken_from is not None
    target = deal.taken_from
    mine, theirs = deal.slots[seat], deal.slots[target]
    mine = evolve(mine, size=mine.size - 2, known=mine.known - set(given), shown=frozenset())
    theirs = evolve(theirs, size=theirs.size + 2, known=theirs.known | set(given))
    deal = deal.with_slot(seat, mine).with_slot(target, theirs)
    return evolve(state, deal=evolve(deal, swapped=True, taken=(), taken_from=None))


def check_given(state: State, seat: int, given: tuple[str, ...]) -> tuple[str, ...]:
    """The 2 cards the Flag Bearer gives back, from his hand the tool dealt: refused in one
    sentence whatever the reason, naming no card (R-21, R-22: they may have been typed
    unseen), as the table may not learn what the hand holds."""
    if len(set(given)) != 2:
        raise IllegalMove("the Flag Bearer gives back exactly 2 different cards "
                          "(`give CARD CARD`)", code="swap-cards", rule="Flag Bearer (Goblins)")
    for card in given:
        known_card(card)
    deal, name = state.deal, state.names[seat]
    mine = deal.slots[seat]
    if not all(card in mine.known or (not mine.complete and card in deal.deck(state.players)
                                      and deal.holder(card) in (None, seat)
                                      and not deal.is_gone(card)) for card in given):
        raise IllegalMove(f"{name} cannot give those 2 cards back; why stays with {name}'s "
                          "hidden hand", code="not-given-now", rule="R-22",
                          hint=f"{name} alone may read the cards {name} holds: "
                               f"`status --for {name}`")
    return tuple(sort_cards(given))


def take_back(state: State, seat: int, card: str) -> State:
    """The Sorcerer, between tricks: take `card` from the previous trick, leave the Sorcerer."""
    deal = state.deal
    last = deal.tricks[-1]
    trick = evolve(last, replaced=card)
    slot = deal.slots[seat]
    known = (slot.known - {"Sorcerer"}) | {card}
    slot = evolve(slot, known=known, complete=slot.complete or len(known) == slot.size,
                  shown=(slot.shown - {"Sorcerer"}) | {card},  # everyone saw it taken
                   joined=slot.joined + ((card, last.number),))
    deal = deal.with_slot(seat, slot, tricks=deal.tricks[:-1] + (trick,))
    return evolve(state, deal=deal)


# --------------------------------------------------------------------------------------------
# The end of a hand


def finish_hand(state: State) -> State:
    """Score the hand, carry the totals, and open the next hand (or end the game)."""
    deal = state.deal
    won = outcome(deal, state.players)
    next_dealer = next(s for s in range(state.players) if DEALER_CARD in won.won[s])
    assert deal.special is not None and deal.quest is not None
    result = HandResult(deal.number, state.names[deal.dealer], deal.special, deal.quest,
                        hand_points(deal, state.players, state.edition), next_dealer,
                        tuple(won.tricks(s) for s in range(state.players)),
                        deal.tricks[-1].plays)
    state = evolve(state, results=state.results + (result,))
    totals = state.totals
    over = len(state.results) >= HANDS and totals.count(max(totals)) == 1
    return evolve(state, deal=Deal(deal.number + 1, next_dealer), over=over)


# --------------------------------------------------------------------------------------------
# Who acts


def acting(state: State) -> tuple[str, ...]:
    """`to_act(state).players` without the words: the turn is checked at every card played."""
    deal = state.deal
    if phase(state) == PLAY:
        return (state.names[(deal.turn_leader + len(deal.plays)) % state.players],)
    return to_act(state).players


def _holders(state: State, card: str) -> tuple[str, ...]:
    seat = state.deal.holder(card)
    return (state.names[seat],) if seat is not None else state.names


def _as(players: tuple[str, ...]) -> str:
    """What a move typed when several players may act needs: who makes it."""
    return " --as NAME" if len(players) > 1 else ""


def explain(state: State, event: Event) -> IllegalMove | None:
    """Why a Druid's `trade` or a Standard Bearer's `pass` cannot come now, in the card's words:
    it was played in the last trick (no effect there), or it was not played at all."""
    card = {"trade": "Druid", "pass": "StandardBearer"}.get(event.type)
    if card is None or phase(state) == event.type:
        return None
    special = SPECIAL_CARD[card]
    deal = state.deal
    last = state.results[-1] if state.results and not deal.tricks else None
    if last is not None and any(c == card for _, c in last.last_trick):
        return IllegalMove(f"the {special.name} has no effect in the last trick: hand "
                           f"{last.number} is over, so there is nothing to {event.type}",
                           code="no-effect-last-trick", rule=special.name)
    shown = SPECIAL_CARD[deal.special].name if deal.special else "not revealed yet"
    return IllegalMove(f"`{event.type}` comes only right after the trick in which the "
                       f"{special.name} is played (this hand's special card: {shown})",
                       code="no-pending-choice", rule=special.name)


def to_act(state: State) -> ToAct:
    deal = state.deal
    step = phase(state)
    head = f"hand {deal.number}"
    if step == "over":
        return ToAct((), "game over")
    if step == "special":
        return ToAct((), f"{head}: {state.names[deal.dealer]} deals and reveals the special card "
                         "(`special CARD`)", table=True)
    if step == "quest":
        who = _holders(state, QUEST_CARD)
        tile = drawn_tile(state)
        if tile is not None:  # short, as it is the table's prompt: the sides are on the
            #                   deal's lines, `options` and `status`
            return ToAct(who, f"{head}: quest tile {tile} drawn: `quest a{_as(who)}` or "
                              "`quest b`")
        return ToAct(who, f"{head}: the holder of the 5 of Knights draws a quest tile and "
                          f"chooses a side (`quest 4a{_as(who)}`)")
    if step == "swap":
        who = _holders(state, "FlagBearerG")
        return ToAct(who, f"{head}: the holder of the Flag Bearer (Goblins) takes 2 random cards "
                          f"from a player (`swap NAME{_as(who)}`)")
    if step == "give":
        who = _holders(state, "FlagBearerG")
        assert deal.taken_from is not None
        giver, target = who[0], state.names[deal.taken_from]
        return ToAct(who, f"{head}: {giver} (Flag Bearer) gives 2 cards back to {target} "
                          f"(`give CARD CARD`; the 2 taken: `status --for {giver}`)")
    if step == "leader":
        who = _holders(state, LEADER_CARD)
        return ToAct(who, f"{head}: the holder of the 5 of Goblins shows it "
                          f"(`leader{_as(who)}`)")
    if step in ("trade", "pass"):
        assert deal.pending_seat is not None
        chooser = state.names[deal.pending_seat]
        what = ("swaps hands with another player (`trade NAME`)" if step == "trade"
                else "passes every hand left or right (`pass left`)")
        return ToAct((chooser,), f"{head}: {chooser} {what}")
    seat = (deal.turn_leader + len(deal.plays)) % state.players
    previous = deal.tricks[-1] if deal.tricks else None
    led = led_suit(deal.plays, previous)
    doing = "leads" if not deal.plays else (f"follows {led}" if led else "plays (sets the suit)")
    return ToAct((state.names[seat],), f"{head}, trick {deal.trick_number}: "
                 f"{state.names[seat]} {doing}")


# --------------------------------------------------------------------------------------------
# Values of logged events, and the checks of shown cards

SPECIAL_RULE = {"trade": "Druid", "swap": "Flag Bearer (Goblins)"}


def seat_of(state: State, event: Event) -> int:
    if event.by not in state.names:
        raise IllegalMove(f"{event.type} needs the player who made it", code="no-player")
    return state.seat(event.by)


def target_of(state: State, event: Event) -> int:
    target = event["target"]
    if target not in state.names:
        raise IllegalMove(f"{target!r} is not playing this game", code="unknown-player")
    if target == event.by:
        raise IllegalMove(f"{event.by} must choose another player", code="self-target",
                          rule=SPECIAL_RULE[event.type])
    return state.seat(target)


def known_card(code: Any) -> str:
    if code not in CARDS:
        raise IllegalMove(f"{code!r} is not a card of The Dwarf King", code="unknown-card")
    return str(code)


def shows(state: State, seat: int, card: str, what: str) -> Deal:
    """`seat` shows `card` (the 5 of Knights, the 5 of Goblins, the Flag Bearer): check it can be
    theirs and remember where it is."""
    deal = state.deal
    holder = deal.holder(card)
    slot = deal.slots[seat]
    if holder not in (None, seat) or (slot.complete and card not in slot.known):
        raise IllegalMove(f"{state.names[seat]} cannot be the one who {what}: they do not hold "
                          f"{card}", code="not-the-holder", rule="Dealing")
    return deal.with_slot(seat, deal.slots[seat].showing(card))


def deduce_last_hand(deal: Deal, players: int) -> Deal:
    """When every hand but one is known, the last one is what remains."""
    open_slots = [s for s, slot in enumerate(deal.slots) if not slot.complete]
    if len(open_slots) != 1:
        return deal
    rest = deal.deck(players) - {c for slot in deal.slots for c in slot.known}
    seat = open_slots[0]
    return deal.with_slot(seat, evolve(deal.slots[seat], known=frozenset(rest), complete=True))


def check_taken(state: State, target: int, taken: tuple[str, ...]) -> tuple[str, ...]:
    """The 2 cards the Flag Bearer takes, as recorded: in a hand the tool dealt, the 2 it
    took (checked before whether the target holds them: any other pair sounds the same)."""
    deal, rule = state.deal, "Flag Bearer (Goblins)"
    _two_cards(taken, "taken")
    if state.seed is not None and tuple(sort_cards(taken)) != seeded_taken(state, target):
        raise IllegalMove(f"the tool took 2 other cards from {state.names[target]}",
                          code="seed-mismatch", rule=rule)
    for card in taken:
        holder = deal.holder(card)
        theirs = deal.slots[target]
        if card not in deal.deck(state.players) or (holder is not None and holder != target) \
                or (theirs.complete and card not in theirs.known):
            raise IllegalMove(f"{card} cannot be taken from {state.names[target]}'s hand",
                              code="swap-cards", rule=rule)
    return tuple(sort_cards(taken))


def _two_cards(group: tuple[str, ...], what: str) -> None:
    if len(set(group)) != 2:
        raise IllegalMove(f"the Flag Bearer swap moves exactly 2 different cards {what}",
                          code="swap-cards", rule="Flag Bearer (Goblins)")
    for card in group:
        known_card(card)


def check_swap_cards(state: State, seat: int, target: int, taken: tuple[str, ...],
                      given: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Both pairs of a swap typed at the table in one move (hands the tool did not deal)."""
    deal, rule = state.deal, "Flag Bearer (Goblins)"
    taken = check_taken(state, target, taken)
    _two_cards(given, "given")
    mine = deal.slots[seat]
    for card in given:
        holder = deal.holder(card)
        ok = card in taken or (card in deal.deck(state.players) and holder in (None, seat)
                               and (not mine.complete or card in mine.known))
        if not ok:
            raise IllegalMove(f"{state.names[seat]} cannot give {card}: it is not in their hand",
                              code="swap-cards", rule=rule)
    return taken, given


# --------------------------------------------------------------------------------------------
# What has not been used yet, and the tool's own shuffles (--shuffle --seed N): every draw is a
# function of the seed and the hand


def available_specials(state: State) -> list[str]:
    """Special cards not used in an earlier hand (R-9: once all 14 are used, all come back)."""
    used = _this_round(state.used_specials, len(SPECIALS))
    return [s.code for s in SPECIALS if s.code not in used]


def available_tiles(state: State) -> list[int]:
    """Quest tiles not used in an earlier hand (R-9: once all 20 are used, all come back)."""
    used = _this_round(state.used_tiles, len(TILE_NUMBERS))
    return [t for t in TILE_NUMBERS if t not in used]


def _this_round(used: tuple[Any, ...], pile: int) -> tuple[Any, ...]:
    """The draws since the pile was last complete."""
    return used[len(used) // pile * pile:]


# --------------------------------------------------------------------------------------------
# The tool's own shuffles (--shuffle --seed N): every draw is a function of the seed and the hand


def _rng(state: State, *parts: object) -> random.Random:
    import random  # only seeded play: kept off other commands' start-up

    return random.Random(":".join(["dwarf-king", str(state.seed), str(state.deal.number),
                                   *map(str, parts)]))


def seeded_special(state: State) -> str:
    return _rng(state, "special").choice(available_specials(state))


def seeded_tile(state: State) -> int:
    return _rng(state, "quest").choice(available_tiles(state))


def drawn_tile(state: State) -> int | None:
    """The quest tile the tool drew for the holder of the 5 of Knights, shown to the whole table
    while its side is chosen (R-20): only between the deal and the choice, and only when the tool
    draws the tiles (--shuffle); the log records it with its side, in the `quest` event."""
    if state.seed is None or phase(state) != QUEST:
        return None
    return seeded_tile(state)


def seeded_deal(state: State, special: str) -> list[list[str]]:
    cards = sort_cards(deck(state.players, special))
    _rng(state, "deal").shuffle(cards)
    n = state.players
    hands: list[list[str]] = [[] for _ in range(n)]
    for index, card in enumerate(cards):  # one at a time, starting left of the dealer
        hands[(state.deal.dealer + 1 + index) % n].append(card)
    return hands


def seeded_taken(state: State, target: int) -> tuple[str, ...]:
    hand = sort_cards(state.deal.slots[target].known)
    return tuple(sort_cards(_rng(state, "swap", target).sample(hand, 2)))
