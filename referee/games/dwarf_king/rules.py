"""The rules of play: what a card is worth in a trick, who wins it, which plays are legal given
what the referee knows, revokes, and the score of a hand. Each rule is written once, here.
"""

from __future__ import annotations

from dataclasses import replace

from referee.engine import Notice
from referee.errors import IllegalMove
from referee.games.dwarf_king.cards import (CARDS, DEALER_CARD, OUT_WITH_THREE, SPECIAL,
                                            SINGULAR, hand_size, sort_cards)
from referee.games.dwarf_king.quests import Outcome, tiles
from referee.games.dwarf_king.state import Deal, HandResult, Slot, State, Trick, Void

FOLLOW = "Follow suit"

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
        return "swap"
    if deal.leader is None:
        return "leader"
    if deal.pending:
        return {"trade-hands": "trade", "pass-hands": "pass"}[deal.pending]
    return "play"


# --------------------------------------------------------------------------------------------
# A card inside a trick


def effective(card: str, before: tuple[tuple[int, str], ...], previous: Trick | None) \
        -> tuple[str | None, float]:
    """The suit and value a card has in a trick, given the cards played before it.

    Magic cards take their suit from other cards: the Mummy copies the card that won the previous
    trick, the Puppeteer the card played just before it (the last card of the previous trick when it
    leads, R-19) plus half a step. The Dragon, Excalibur and a Sorcerer played as a last card have no
    suit. Only one special card is in each hand, so the copied card is always a basic card.
    """
    c = CARDS[card]
    power = c.special.power if c.special else ""
    if power == "mummy" and previous is not None:
        return effective(previous.winning_card, (), None)
    if power == "puppeteer":
        source = before[-1][1] if before else (previous.plays[-1][1] if previous else None)
        if source is None:
            return None, 0.0
        suit, value = effective(source, (), None)
        return suit, value + 0.5
    if power:
        return None, 0.0
    return c.suit, float(c.value)


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
    powers = {CARDS[c].special.power: s for s, c in plays if CARDS[c].special}
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
    c = CARDS[card]
    if card == OUT_WITH_THREE and state.players == 3:
        raise IllegalMove(f"{name} cannot play {card}: the 2 of Dwarves is out of the game with "
                          "3 players", code="card-out-of-game", rule="Set-up")
    if c.special is not None and card != deal.special:
        raise IllegalMove(f"{name} cannot play {card}: this hand's special card is "
                          f"{deal.special}", code="special-not-in-hand", rule="Set-up")
    if card in deal.gone:
        raise IllegalMove(f"{card} has already been played in this hand", code="card-played",
                          rule="Cards")
    holder = deal.holder(card)
    if holder is not None and holder != seat:
        raise IllegalMove(f"{name} cannot play {card}: it is in the hand {state.names[holder]} "
                          f"holds{_known_how(deal, holder)}", code="card-held-elsewhere",
                          rule="Cards")
    if deal.slots[seat].complete and card not in deal.slots[seat].known:
        raise IllegalMove(f"{name} does not hold {card} (the hand was entered at the deal or "
                          "dealt by the tool)", code="card-not-in-hand", rule="Cards")


def _known_how(deal: Deal, seat: int) -> str:
    return " (fully known)" if deal.slots[seat].complete else ""


def check_play(state: State, seat: int, card: str) -> str | None:
    """Raise IllegalMove if `seat` may not play `card` now; return the suit the play shows a
    void in (the player did not follow and the referee cannot tell whether they could), if any."""
    check_card_available(state, seat, card)
    deal, name = state.deal, state.names[seat]
    slot = deal.slots[seat]
    power = CARDS[card].special.power if CARDS[card].special else ""
    first_trick = deal.trick_number == 1
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
    previous = deal.tricks[-1] if deal.tricks else None
    led = led_suit(deal.plays, previous)
    if led is None or power == "dragon":
        return None  # leading, after a leading Dragon, or the Dragon: anything goes
    suit, _ = effective(card, deal.plays, previous)
    if suit == led:
        return None
    # Not following (R-8: a magic card follows only through the suit it copies; Excalibur never).
    must = [c for c in slot.known if CARDS[c].suit == led and c != card]
    if must:
        must = sort_cards(must)
        what = (f"cannot play Excalibur: it is playable only when void in {led}"
                if power == "excalibur" else f"must follow {led}")
        raise IllegalMove(f"{name} {what}: the hand holds {', '.join(must)}",
                          code="excalibur-not-void" if power == "excalibur" else "must-follow",
                          rule="Excalibur" if power == "excalibur" else FOLLOW)
    return None if slot.complete else led


# --------------------------------------------------------------------------------------------
# Playing a card


def play_card(state: State, seat: int, card: str) -> State:
    shown_void = check_play(state, seat, card)
    deal, name = state.deal, state.names[seat]
    slot = deal.slots[seat]
    notices = state.notices
    revoke = _revoke(slot, card)
    if revoke is not None:
        notices += (_revoke_notice(state, seat, card, revoke),)
        slot = replace(slot, voids=tuple(v for v in slot.voids if v is not revoke))
    if shown_void is not None and slot.void_in(shown_void) is None:
        slot = replace(slot, voids=slot.voids + (Void(shown_void, deal.trick_number, name, card),))
    deal = deal.with_slot(seat, slot.without(card), plays=deal.plays + ((seat, card),))
    state = replace(state, deal=deal, notices=notices)
    if len(deal.plays) == state.players:
        state = _close_trick(state)
    return state


def _revoke(slot: Slot, card: str) -> Void | None:
    """The void this play proves false: a card of that suit from the same hand, unless the card
    joined the hand after the void was shown."""
    suit = CARDS[card].suit
    void = slot.void_in(suit) if suit else None
    if void is None:
        return None
    if any(c == card and after >= void.trick for c, after in slot.joined):
        return None
    return void


def _revoke_notice(state: State, seat: int, card: str, void: Void) -> Notice:
    now = state.names[seat]
    held = "" if now == void.player else f" (the hand {void.player} held, now {now}'s)"
    return Notice("revoke",
                  f"Revoke by {void.player}: in trick {void.trick} {void.player} played "
                  f"{void.card} instead of a {SINGULAR[void.suit]}, but the same hand{held} plays "
                  f"{card} in trick {state.deal.trick_number}",
                  FOLLOW)


def _close_trick(state: State) -> State:
    deal = state.deal
    previous = deal.tricks[-1] if deal.tricks else None
    trick = Trick(deal.trick_number, deal.plays, trick_winner(deal.plays, previous))
    deal = replace(deal, tricks=deal.tricks + (trick,), plays=())
    last = len(deal.tricks) == hand_size(state.players)
    if last:
        return finish_hand(replace(state, deal=deal))
    special = SPECIAL.get(deal.special or "")
    action = special.action if special else ""
    player = trick.player_of(deal.special) if deal.special else None
    if action in ("trade-hands", "pass-hands") and player is not None:
        deal = replace(deal, pending=action, pending_seat=player)
    return replace(state, deal=deal)


# --------------------------------------------------------------------------------------------
# Effects that move cards between hands


def trade_hands(state: State, seat: int, target: int) -> State:
    """The Druid: two seats exchange their whole hands (and what is known about them)."""
    slots = list(state.deal.slots)
    slots[seat], slots[target] = slots[target], slots[seat]
    return replace(state, deal=replace(state.deal, slots=tuple(slots), pending="",
                                       pending_seat=None))


def pass_hands(state: State, step: int) -> State:
    """The Standard Bearer: every hand moves one seat (left = the next seat, R-7)."""
    n = state.players
    slots = [None] * n
    for seat, slot in enumerate(state.deal.slots):
        slots[(seat + step) % n] = slot
    return replace(state, deal=replace(state.deal, slots=tuple(slots), pending="",
                                       pending_seat=None))


def goblin_swap(state: State, seat: int, target: int, taken: tuple[str, ...] | None,
                given: tuple[str, ...] | None) -> State:
    """The Goblins' Flag Bearer: `seat` takes 2 random cards from `target` and gives back 2.
    When the cards are not recorded, what was known about both hands is forgotten."""
    deal = state.deal
    mine, theirs = deal.slots[seat], deal.slots[target]
    if taken is None or given is None:
        mine, theirs = Slot(mine.size), Slot(theirs.size)
    else:
        mine = _known(mine, (mine.known | set(taken)) - set(given))
        theirs = _known(theirs, (theirs.known - set(taken)) | set(given))
    deal = deal.with_slot(seat, mine).with_slot(target, theirs)
    return replace(state, deal=replace(deal, swapped=True))


def _known(slot: Slot, known: set[str]) -> Slot:
    return replace(slot, known=frozenset(known), complete=len(known) == slot.size)


def take_back(state: State, seat: int, card: str) -> State:
    """The Sorcerer, between tricks: take `card` from the previous trick, leave the Sorcerer."""
    deal = state.deal
    last = deal.tricks[-1]
    trick = replace(last, replaced=card)
    slot = deal.slots[seat]
    known = (slot.known - {"Sorcerer"}) | {card}
    slot = replace(slot, known=known, complete=slot.complete or len(known) == slot.size,
                   joined=slot.joined + ((card, last.number),))
    deal = deal.with_slot(seat, slot, tricks=deal.tricks[:-1] + (trick,))
    return replace(state, deal=deal)


# --------------------------------------------------------------------------------------------
# Scoring a hand


def outcome(deal: Deal, players: int) -> Outcome:
    won: list[list[str]] = [[] for _ in range(players)]
    for trick in deal.tricks:
        won[trick.winner].extend(trick.cards)
    return Outcome(tuple(tuple(w) for w in won), tuple(t.winner for t in deal.tricks))


# The special cards' points, one function per kind (`Special.scoring`). Each gets the trick the
# card ended in, who played it, whether that trick was the last, and the points to change.
def _winner_scores(deal, trick, player, last, special, points):
    points[trick.winner] += special.points


def _next_trick_winner_scores(deal, trick, player, last, special, points):
    if trick.number < len(deal.tricks):  # no effect in the last trick (nor before the next)
        points[deal.tricks[trick.number].winner] += special.points


def _player_scores_in_last_trick(deal, trick, player, last, special, points):
    if last:
        points[player] += special.points


def _winner_doubles(deal, trick, player, last, special, points):
    points[trick.winner] *= 2  # gains and losses alike


def _player_scores_per_face(deal, trick, player, last, special, points):
    points[player] += special.points * sum(1 for c in trick.cards if CARDS[c].is_face)


SPECIAL_SCORING = {
    "winner": _winner_scores,
    "next-trick-winner": _next_trick_winner_scores,
    "last-trick-player": _player_scores_in_last_trick,
    "double-winner": _winner_doubles,
    "player-per-face": _player_scores_per_face,
}


def special_points(deal: Deal, points: list[int]) -> list[int]:
    """The special card's effect on the hand's points, applied after the quest."""
    special = SPECIAL[deal.special]
    trick = next((t for t in deal.tricks if deal.special in t.cards), None)
    if special.scoring and trick is not None:
        last = trick.number == hand_size(len(points))
        SPECIAL_SCORING[special.scoring](deal, trick, trick.player_of(deal.special), last,
                                         special, points)
    return points


def hand_points(deal: Deal, players: int, edition: int) -> tuple[int, ...]:
    quest = tiles(edition)[deal.quest]
    points = list(quest.score(outcome(deal, players)))
    return tuple(special_points(deal, points))


def finish_hand(state: State) -> State:
    """Score the hand, carry the totals, and open the next hand (or end the game)."""
    deal = state.deal
    won = outcome(deal, state.players)
    next_dealer = next(s for s in range(state.players) if DEALER_CARD in won.won[s])
    result = HandResult(deal.number, state.names[deal.dealer], deal.special, deal.quest,
                        hand_points(deal, state.players, state.edition), next_dealer,
                        tuple(won.tricks(s) for s in range(state.players)))
    state = replace(state, results=state.results + (result,))
    totals = state.totals
    over = len(state.results) >= 7 and totals.count(max(totals)) == 1
    return replace(state, deal=Deal(deal.number + 1, next_dealer), over=over)
