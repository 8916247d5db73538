"""King of the Castle's rules that more than one event shares: the phase and who acts, the deal of
the kingdom and of the event cards, what a card may target (R-11), one function per kind of effect,
replies (R-5), death and promotion (R-6, R-15), and the turn from draw to discard.

A card's effect is one of two kinds. A *harm* (kill, discard an attribute card) is announced
first: `HARMS[kind]` says what it is about to do, a reply window may open, and `resolve` carries
it out minus what a reply saved. An *action* (`ACTIONS[kind]`) is carried out at once. Every
refusal cites an entry of rulebook.py.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from referee.derived import derived
from referee.engine import Event, ToAct
from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.games.king_of_the_castle.components import (
    ATTRIBUTES,
    CARD,
    CASTLES,
    DRAW_TO,
    KING,
    LETTERS,
    LORD,
    POST_TITLES,
    POSTS,
    RANKS,
    START_HAND,
    SUDDEN_DRAW,
    Card,
    attribute_card,
    build_of,
    castle_of,
    full_deck,
    post,
    post_title,
    sort_cards,
    stack,
)
from referee.games.king_of_the_castle.state import (
    HAND,
    RANDOM,
    Frame,
    Hand,
    Harm,
    Stacks,
    State,
    level_of,
    with_hand,
)
from referee.replies import ReplyWindow

if TYPE_CHECKING:  # only seeded and random play use it
    import random

T = TypeVar("T")

SEAL, SETUP, PLAY, EXTRA, SUDDEN, REPLY, DEAL, DISCARD, OPEN, OVER = (
    "seal", "setup", "play", "extra", "sudden", "reply", "deal", "discard", "open", "over")
CARDS_RULE = "Cards"


# --------------------------------------------------------------------------------------------
# Where the game stands


@derived(State, "over", "seals", "revealed", "scoring", "vacancies", "window", "frames",
         "played")
def phase(state: State) -> str:
    """The phase of `state` (kept in the state: an event asks it three times, and the next
    state keeps it while none of these fields changed)."""
    if state.over:
        return OVER
    if None in state.seals:
        return SEAL
    if state.revealed < POSTS:
        return SETUP
    if state.scoring:
        return OPEN
    if state.vacancies:
        return DEAL
    if state.window is not None:
        return REPLY
    if state.frames and state.frames[-1].left > 0:
        return SUDDEN if state.frames[-1].card == "Sudden Changes" else EXTRA
    return DISCARD if state.played else PLAY


def _sealing(state: State) -> ToAct:
    name = state.names[state.seals.index(None)]
    how = ("`squires`: the tool draws three letters and shows them to you alone"
           if state.squires == RANDOM else "`squires`, then type your three letters unseen")
    return ToAct((name,), f"{name} seals the squires they back ({how})")


def _turning_up(state: State) -> ToAct:
    posts = range(state.revealed, POSTS) if state.revealed < POSTS else state.vacancies
    titles = ", ".join(post_title(p) for p in posts)
    return ToAct((), f"turn up a personality card for {titles} (`reveal LETTER...`, in that "
                     "order)", table=True)


def _replying(state: State) -> ToAct:
    assert state.window is not None and state.pending is not None
    how = " or ".join(f"`reply {CARD[c].slug} ...`" for c in state.pending.replies)
    return state.window.to_act(f"{how}, or `pass`")


def _opening(state: State) -> ToAct:
    waiting = tuple(n for n, o in zip(state.names, state.opened) if o is None)
    how = "`letters ...`: the letters of the cards in your hand" if state.squires == HAND \
        else "`open LETTERS RECEIPT`"
    if state.stopped is not None:
        return ToAct(waiting, f"the table stopped the game ({state.stopped}): {how} to score "
                              "as it stood (--as NAME, R-27)")
    return ToAct(waiting, f"the round is over: {how} (--as NAME)")


def _sudden(state: State) -> ToAct:
    frame = state.frames[-1]
    drawn = f": {', '.join(CARD[c].slug for c in sort_cards(frame.drawn))}" if frame.drawn else ""
    return ToAct((state.player,), f"{state.player} plays the {frame.left} card(s) drawn by Sudden "
                                  f"Changes{drawn}, in their order; a card that cannot be played "
                                  "is discarded")


def _discarding(state: State) -> ToAct:
    excess = state.hands[state.turn].size - state.hand_limit
    return ToAct((state.player,), f"{state.player} discards {excess} card(s) down to the hand "
                                  f"limit of {state.hand_limit}")


PROMPTS: dict[str, Callable[[State], ToAct]] = {
    OVER: lambda state: ToAct((), "the game is over"),
    SEAL: _sealing,
    SETUP: _turning_up,
    DEAL: _turning_up,
    REPLY: _replying,
    OPEN: _opening,
    SUDDEN: _sudden,
    EXTRA: lambda state: ToAct((state.player,), f"{state.player} may play another card "
                                                "(Targeted Theft) or `pass`"),
    DISCARD: _discarding,
    PLAY: lambda state: ToAct((state.player,), f"{state.player} plays a card or passes"),
}


def to_act(state: State) -> ToAct:
    return PROMPTS[phase(state)](state)


def acting(state: State) -> tuple[str, ...]:
    """`to_act(state).players` without writing the prompt (asked at every event of a replay)."""
    now = phase(state)
    if now in (PLAY, DISCARD, EXTRA, SUDDEN):
        return (state.player,)
    if now == REPLY:
        assert state.window is not None
        return (state.window.awaiting,)
    return PROMPTS[now](state).players


# --------------------------------------------------------------------------------------------
# The tool's own shuffles and random choices (--shuffle --seed N)


def _rng(state: State, purpose: str, count: int) -> random.Random:
    import random  # only seeded play: kept off other commands' start-up

    return random.Random(f"king-of-the-castle:{state.seed}:{purpose}:{count}")


def shuffled(state: State, purpose: str, items: tuple[str, ...], count: int = 0) \
        -> tuple[str, ...]:
    order = list(items)
    _rng(state, purpose, count).shuffle(order)
    return tuple(order)


def picked(state: State, seat: int) -> str:
    """The card the tool takes at random from a dealt hand (Targeted Theft, Unexpected Loss)."""
    return _rng(state, "pick", state.rolls).choice(state.hands[seat].known)


def deal(state: State, alphabetical: bool) -> State:
    """The tool shuffles both decks and deals three event cards to each player."""
    cards = shuffled(state, "events", full_deck())
    size = START_HAND * len(state.names)
    hands = tuple(Hand.of(cards[i:size:len(state.names)]) for i in range(len(state.names)))
    people = shuffled(state, "personalities", LETTERS)
    rest = tuple(sorted(people[POSTS:])) if alphabetical else people[POSTS:]
    return evolve(state, hands=hands, deck=cards[size:], deck_size=len(cards) - size,
                        persona_order=people[:POSTS] + rest)


def deal_kingdom(state: State) -> State:
    """The tool turns up the ten set-up cards; the first turn begins."""
    assert state.persona_order is not None
    men = state.persona_order[:POSTS]
    state = evolve(state, men=men, seen=frozenset(men), revealed=POSTS)
    return start_turn(state, 0)


# --------------------------------------------------------------------------------------------
# Event cards: drawing, the deck running out


def draw_cards(state: State, count: int) -> tuple[dict[str, Any], tuple[str | None, ...]]:
    """`count` cards off the deck (fewer when deck and discard pile are both empty); each is
    known when the tool dealt the deck, None otherwise. Returned with the deck fields they
    change, for the caller to set in the copy of the state it makes anyway."""
    deck, size, discard, reshuffles = state.deck, state.deck_size, state.discard, state.reshuffles
    drawn: list[str | None] = []
    while len(drawn) < count:
        if size == 0:
            if not discard:
                break
            # The deck is empty: the discard pile is shuffled into a new deck (Turn, 1).
            deck = shuffled(state, "reshuffle", discard, reshuffles) if state.dealt else None
            size, discard, reshuffles = len(discard), (), reshuffles + 1
        take = min(count - len(drawn), size)  # the cards off this deck, at once
        if deck is not None:
            drawn += deck[:take]
            deck = deck[take:]
        else:
            drawn += [None] * take
        size -= take
    changes = {"deck": deck, "deck_size": size, "discard": discard, "reshuffles": reshuffles}
    return changes, tuple(drawn)


def start_turn(state: State, seat: int) -> State:
    """A turn begins: its player draws up to four cards (Turn, 1; counted by the referee)."""
    hand = state.hands[seat]
    deck, drawn = draw_cards(state, max(0, DRAW_TO - hand.size))
    hand = hand.with_cards(drawn)
    return evolve(state, turn=seat, turns=state.turns + 1, played=False, drew=len(drawn),
                  hands=state.hands[:seat] + (hand,) + state.hands[seat + 1:], **deck)


def end_turn(state: State) -> State:
    """The turn is over; after the last seat's turn in the ending round, scoring begins (R-15)."""
    if state.ending and state.turn == len(state.names) - 1:
        return start_scoring(evolve(state, played=False))
    return start_turn(state, (state.turn + 1) % len(state.names))


def start_scoring(state: State) -> State:
    opened = state.opened
    if state.squires == HAND:  # an empty hand has no letters to enter
        opened = tuple(() if hand.size == 0 else None for hand in state.hands)
    state = evolve(state, scoring=True, opened=opened)
    return evolve(state, over=None not in opened)


def stop(state: State, reason: str) -> State:
    """The table stops the game (`end REASON`). Once the first turn has begun, the squires are
    still opened and score for the posts as they stand (R-27); before, nothing stands."""
    state = evolve(state, stopped=reason)
    if state.turns == 0:
        return state
    if not state.scoring:
        state = start_scoring(state)  # an empty hand is opened here, with nothing to enter
    return evolve(state, opened_at_stop=len(state.opened) - state.opened.count(None))


def resumes(state: State, it: str = "it") -> str:
    """How the table resumes the game it stopped: a squire opened since the stop is retracted
    only with --force (everyone has seen it), then the stop itself (R-27)."""
    since = len(state.opened) - state.opened.count(None) - state.opened_at_stop
    if state.stopped is None or since == 0:
        return f"`referee undo` resumes {it}"
    what = "letters entered" if state.squires == HAND else "seals opened"
    return f"`referee undo --force` takes back the {what} since the stop, then `referee undo` " \
           f"resumes {it}"


def opening_after_stop(state: State) -> bool:
    """The table stopped the game and the squires are still being opened (R-27): the game
    takes those moves, and is not over until they are made."""
    return state.stopped is not None and state.scoring and not state.over


def proceed(state: State) -> State:
    """A card's effect is over: the next play through a card still in play, else the discard
    (R-3), else the next turn. Sudden Changes and Targeted Theft are discarded here (R-9)."""
    while state.frames and state.frames[-1].left == 0:
        done = state.frames[-1]
        state = evolve(state, frames=state.frames[:-1], discard=state.discard + (done.card,))
    if state.frames:
        return state
    if state.hands[state.turn].size > state.hand_limit:
        return evolve(state, played=True)
    return end_turn(state)


def finish(state: State, card: str) -> State:
    """The played card goes to the discard pile once its effect is over (R-9)."""
    return proceed(evolve(state, discard=state.discard + (card,)))


# --------------------------------------------------------------------------------------------
# Where a played card comes from, and card conservation


def could_hold(state: State, seat: int, card: str) -> bool:
    """Whether the hand at `seat` may hold `card`, as far as the referee knows."""
    hand = state.hands[seat]
    if hand.size == 0:
        return False
    if hand.holds(card):
        return True
    return not hand.full and state.unaccounted(card) > 0


def check_held(state: State, seat: int, card: str, verb: str) -> None:
    hand = state.hands[seat]
    if hand.size > 0 and hand.holds(card):  # known to be in the hand: nothing to refuse
        return
    name = state.names[seat]
    if hand.size == 0:
        raise IllegalMove(f"{name} has no card in hand to {verb}", code="empty-hand",
                          rule="Conservation")
    if hand.full and not hand.holds(card):
        how = "the tool dealt the cards" if hand.complete else "every card in it is known"
        raise IllegalMove(f"{name} does not hold {card} ({how})", code="card-not-in-hand",
                          rule="Conservation")
    if not could_hold(state, seat, card):
        raise IllegalMove(f"all {CARD[card].count} {card} cards are accounted for (face up or "
                          f"known in another hand): {name} cannot hold one",
                          code="no-copy-left", rule="Conservation")


def table_view(state: State) -> State:
    """A game the tool deals, as the table knows it: the same kingdom, piles and cards in
    play, each hand only counted and the deck face down. The tool's random picks from a hand
    are not made in it: the table cannot know them (`loss`, `theft`)."""
    return evolve(state, deck=None, hands=tuple(Hand(h.size) for h in state.hands))


def aloud(state: State, seat: int, doing: str, check: Callable[[State], T]) -> T:
    """`check(state)`, refused in words the whole table may hear (R-28). A refusal the table's
    own knowledge gives too (a target, the copies face up) says why; when only the hand the
    tool dealt to `seat` refuses, every reason sounds the same: whether the hand lacks the
    card stays with its player, who reads their moves alone with `options --for NAME`."""
    try:
        return check(state)
    except IllegalMove:
        if not state.dealt:
            raise
        check(table_view(state))  # raises the refusal the table could give itself
        name = state.names[seat]
        raise IllegalMove(f"{name} cannot {doing} now; why stays with {name}'s hidden hand",
                          code="not-playable-now", rule="R-28",
                          hint=f"{name} alone may read the cards {name} can play: "
                               f"`options --for {name}`") from None


def draw_source(state: State, card: str) -> Frame:
    """The Sudden Changes whose drawn cards `card` must be one of (R-12)."""
    frame = state.frames[-1]
    if frame.drawn and card not in frame.drawn:
        shown = ", ".join(sort_cards(frame.drawn))
        raise IllegalMove(f"{card} was not drawn by Sudden Changes (drawn: {shown})",
                          code="not-drawn", rule="R-12")
    if not frame.drawn and state.unaccounted(card) <= 0:
        raise IllegalMove(f"all {CARD[card].count} {card} cards are accounted for: it cannot "
                          "have been drawn", code="no-copy-left", rule="Conservation")
    return frame


def take_card(state: State, card: str) -> dict[str, Any]:
    """The card leaves where the active player plays it from: their hand, or the cards drawn
    by Sudden Changes; after the extra play of a Targeted Theft, that play is used. Returned as
    the fields it changes, for the copy of the state the play makes."""
    now = phase(state)
    if now == SUDDEN:
        frame = draw_source(state, card).after_play(card)
        return {"frames": state.frames[:-1] + (frame,)}
    check_held(state, state.turn, card, "play")
    seat = state.turn
    hands = state.hands
    taken: dict[str, Any] = {
        "hands": hands[:seat] + (hands[seat].without(card),) + hands[seat + 1:]}
    if now == EXTRA:
        frame = state.frames[-1].after_play(None)
        taken["frames"] = state.frames[:-1] + (frame,)
    return taken


# --------------------------------------------------------------------------------------------
# A play's fields (a hand-edited log may carry anything)


TARGET_FIELDS = ("castle", "post", "kill", "attribute", "take", "player", "lost")
# The target fields of a play by kind of effect, in the order the notation writes them.
TARGETS = {
    "kill-king": (), "kill-man": ("post",), "assassinate": ("castle",), "kill-rank": ("castle",),
    "kill-two": ("castle", "kill"), "kill-all": ("castle",), "build": ("castle",),
    "remove-stack": ("castle",), "remove-tops": ("castle",), "remove-top": ("castle",),
    "repair": ("take", "castle"), "sudden": (), "loss": ("player", "lost"),
    "theft": ("player",), "recycle": ("take",), "reply": (),
}


def fields_of(card: Card) -> tuple[str, ...]:
    """The target fields of a play of `card` (State of Disrepair also names its attribute)."""
    chosen = card.effect == "remove-top" and card.param("attribute") is None
    return TARGETS[card.effect] + (("attribute",) if chosen else ())


# The fields of a play of each card, no more, no less: a declaration of the cards.
PLAY_FIELDS = {title: frozenset({"card", *fields_of(card)}) for title, card in CARD.items()}


def card_named(name: Any) -> str:
    if name not in CARD:
        raise IllegalMove(f"{name!r} is not an event card of King of the Castle",
                          code="unknown-card", rule="Components")
    return str(name)


def check_fields(event: Event, card: Card) -> None:
    given = {key for key, found in event.fields if found is not None}
    if given == PLAY_FIELDS[card.title]:  # the card and its targets, no more, no less
        return
    wanted = fields_of(card)
    for key in TARGET_FIELDS:
        if (key in given) != (key in wanted):
            need = "needs" if key in wanted else "takes no"
            raise IllegalMove(f"{card.title} {need} `{key}`", code="bad-target", rule="R-11")


def castle_field(event: Event) -> int:
    castle = event["castle"]
    if not 1 <= castle <= CASTLES:
        raise IllegalMove(f"there is no castle {castle}: the castles are 1, 2 and 3",
                          code="unknown-castle", rule="Kingdom")
    return int(castle) - 1


def post_field(event: Event) -> int:
    if event["post"] not in POST_TITLES:
        raise IllegalMove(f"{event['post']!r} is not a post of the kingdom",
                          code="unknown-post", rule="Kingdom")
    return POST_TITLES.index(event["post"])


def attribute_field(event: Event) -> int:
    if event["attribute"] not in ATTRIBUTES:
        raise IllegalMove(f"{event['attribute']!r} is not an attribute (Domain, Prestige, "
                          "Defence)", code="unknown-attribute", rule="Kingdom")
    return ATTRIBUTES.index(event["attribute"])


def kill_field(event: Event) -> tuple[int, int]:
    ranks = event["kill"]
    if len(ranks) != 2 or len(set(ranks)) != 2 or not set(ranks) <= set(RANKS):
        raise IllegalMove("Plague kills two different men of the castle: two of Lord, "
                          "Seneschal, Master at Arms", code="bad-target", rule="R-11")
    first, second = sorted(RANKS.index(r) for r in ranks)
    return first, second


def player_field(state: State, event: Event, card: str) -> int:
    name = event["player"]
    if name not in state.names:
        raise IllegalMove(f"{name!r} is not playing this game", code="unknown-player",
                          rule="R-13")
    seat = state.seat(name)
    if seat == state.turn:
        raise IllegalMove(f"{card} names another player", code="self-target", rule="R-21")
    if state.hands[seat].size == 0:
        raise IllegalMove(f"{name} holds no card: {card} needs a player who holds one",
                          code="empty-hand", rule="R-13")
    return seat


def need_man(state: State, post_id: int, card: str) -> str:
    man = state.men[post_id]
    if man is None:
        raise IllegalMove(f"{card}: the post of {post_title(post_id)} is empty",
                          code="no-man", rule="R-11")
    return man


def top_card(state: State, castle: int, attribute: int) -> tuple[tuple[int, int], ...]:
    """The top card of a stack as a discard (stack, level), or nothing when it is empty."""
    index = stack(castle, attribute)
    return ((index, state.top(index)),) if state.stacks[index] else ()


def need_stack(state: State, castle: int, attribute: int, card: str) -> None:
    if not state.stacks[stack(castle, attribute)]:
        raise IllegalMove(f"{card}: castle {castle + 1} has no {ATTRIBUTES[attribute]} card",
                          code="empty-stack", rule="R-11")


def check_rise(state: State, castle: int, attribute: int, level: int, card: str) -> None:
    top = state.top(stack(castle, attribute))
    if level <= top:
        raise IllegalMove(f"{card} cannot go on castle {castle + 1}: its "
                          f"{ATTRIBUTES[attribute]} is already at level {top}; only a higher "
                          "level may be played on it", code="level-too-low", rule="Attributes")


# --------------------------------------------------------------------------------------------
# Harms: what a card announces, one function per kind (R-11 checked here)


def kill_king(state: State, event: Event, card: Card) -> Harm:
    need_man(state, KING, card.title)
    return Harm(card.title, str(event.by), kills=(KING,))


def kill_man(state: State, event: Event, card: Card) -> Harm:
    target = post_field(event)
    need_man(state, target, card.title)
    return Harm(card.title, str(event.by), kills=(target,))


def assassinate(state: State, event: Event, card: Card) -> Harm:
    need_man(state, KING, card.title)
    castle = castle_field(event)
    if state.men[post(castle, LORD)] is None:
        raise IllegalMove(f"Assassination: castle {castle + 1} has no Lord to crown",
                          code="no-man", rule="R-11")
    return Harm(card.title, str(event.by), kills=(KING,), crown=castle)


def kill_rank(state: State, event: Event, card: Card) -> Harm:
    castle = castle_field(event)
    target = post(castle, card.param("rank"))
    need_man(state, target, card.title)
    attribute = card.param("attribute")
    discards = top_card(state, castle, attribute) if attribute is not None else ()
    return Harm(card.title, str(event.by), kills=(target,), discards=discards)


def kill_two(state: State, event: Event, card: Card) -> Harm:
    castle = castle_field(event)
    targets = tuple(post(castle, rank) for rank in kill_field(event))
    for target in targets:
        need_man(state, target, card.title)
    return Harm(card.title, str(event.by), kills=targets,
                discards=top_card(state, castle, card.param("attribute")))


def kill_all(state: State, event: Event, card: Card) -> Harm:
    castle = castle_field(event)
    targets = tuple(post(castle, r) for r in range(3) if state.men[post(castle, r)] is not None)
    if not targets:
        raise IllegalMove(f"Vanishings: castle {castle + 1} has nobody left to vanish",
                          code="no-man", rule="R-11")
    return Harm(card.title, str(event.by), kills=targets)


def remove_stack(state: State, event: Event, card: Card) -> Harm:
    castle, attribute = castle_field(event), card.param("attribute")
    need_stack(state, castle, attribute, card.title)
    index = stack(castle, attribute)
    return Harm(card.title, str(event.by),
                discards=tuple((index, level) for level in reversed(state.stacks[index])))


def remove_tops(state: State, event: Event, card: Card) -> Harm:
    castle = castle_field(event)
    discards = tuple(d for a in range(3) for d in top_card(state, castle, a))
    if not discards:
        raise IllegalMove(f"Incompetent Lord: castle {castle + 1} has no attribute card",
                          code="empty-stack", rule="R-11")
    return Harm(card.title, str(event.by), discards=discards)


def remove_top(state: State, event: Event, card: Card) -> Harm:
    castle = castle_field(event)
    attribute = card.param("attribute")
    if attribute is None:
        attribute = attribute_field(event)
    need_stack(state, castle, attribute, card.title)
    return Harm(card.title, str(event.by), discards=top_card(state, castle, attribute))


HARMS: dict[str, Callable[[State, Event, Card], Harm]] = {
    "kill-king": kill_king,
    "kill-man": kill_man,
    "assassinate": assassinate,
    "kill-rank": kill_rank,
    "kill-two": kill_two,
    "kill-all": kill_all,
    "remove-stack": remove_stack,
    "remove-tops": remove_tops,
    "remove-top": remove_top,
}


# --------------------------------------------------------------------------------------------
# Actions: carried out at once, one function per kind


def build(state: State, event: Event, card: Card) -> State:
    castle = castle_field(event)
    attribute, level = card.param("attribute"), card.param("level")
    check_rise(state, castle, attribute, level, card.title)
    return proceed(placed(state, castle, attribute, level))


def placed(state: State, castle: int, attribute: int, level: int) -> State:
    index = stack(castle, attribute)
    stacks = state.stacks[:index] + (state.stacks[index] + (level,),) + state.stacks[index + 1:]
    return evolve(state, stacks=stacks)


def from_discard(state: State, card: str, player: str) -> State:
    """`card` taken out of the face-up discard pile (R-9, R-14)."""
    if card not in state.discard:
        pile = ", ".join(sort_cards(set(state.discard))) or "empty"
        raise IllegalMove(f"{player}: {card} is not in the discard pile ({pile})",
                          code="not-in-discard", rule="R-14")
    at = len(state.discard) - 1 - state.discard[::-1].index(card)
    return evolve(state, discard=state.discard[:at] + state.discard[at + 1:])


def repair(state: State, event: Event, card: Card) -> State:
    taken = card_named(event["take"])
    found = build_of(taken)
    if found is None:
        raise IllegalMove(f"Timely Repairs recovers an attribute card, not {taken}",
                          code="not-an-attribute", rule=CARDS_RULE)
    castle = castle_field(event)
    state = from_discard(state, taken, "Timely Repairs")
    check_rise(state, castle, found[0], found[1], taken)
    return finish(placed(state, castle, *found), card.title)


def sudden(state: State, event: Event, card: Card) -> State:
    deck, drawn = draw_cards(state, SUDDEN_DRAW)
    state = evolve(state, **deck)
    if not drawn:
        return finish(state, card.title)
    known = tuple(c for c in drawn if c is not None)
    return evolve(state, frames=state.frames + (Frame(card.title, len(drawn), known),))


def while_played(state: State, card: str) -> State:
    """The state while a played card acts: it lies face up, so it is counted against its
    copies (an Unexpected Loss cannot make its target lose the deck's last copy of itself)."""
    return evolve(state, discard=state.discard + (card,))


def tool_picks(name: str) -> IllegalMove:
    """The refusal of a card lost named in a game the tool deals, in the same words whatever
    the card: which card the tool picks from the hidden hand is never told before (R-25)."""
    return IllegalMove(f"the tool deals the cards: it picks the card {name} loses (type "
                       f"`unexpected-loss {name}`)", code="not-the-pick", rule="R-25")


def loss(state: State, event: Event, card: Card) -> State:
    seat = player_field(state, event, card.title)
    lost = card_named(event["lost"])
    name = state.names[seat]
    if state.dealt:
        if state.hands[seat].complete and lost != picked(state, seat):
            raise tool_picks(name)
        state = evolve(state, rolls=state.rolls + 1)
    elif not could_hold(while_played(state, card.title), seat, lost):
        raise IllegalMove(f"{name} cannot have lost {lost}: all {CARD[lost].count} are "
                          "accounted for", code="no-copy-left", rule="Conservation")
    state = with_hand(state, seat, state.hands[seat].without(lost))
    return finish(evolve(state, discard=state.discard + (lost,)), card.title)


def theft(state: State, event: Event, card: Card) -> State:
    seat = player_field(state, event, card.title)
    victim, thief = state.hands[seat], state.hands[state.turn]
    if state.dealt and victim.complete:  # not in the table's view of the hands
        stolen = picked(state, seat)
        victim, thief = victim.without(stolen), thief.with_card(stolen)
        state = evolve(state, rolls=state.rolls + 1)
    else:  # only the two players saw the card
        victim, thief = victim.losing_unseen(), thief.with_card(None)
    state = with_hand(with_hand(state, seat, victim), state.turn, thief)
    return evolve(state, frames=state.frames + (Frame(card.title, 1),))


def recycle(state: State, event: Event, card: Card) -> State:
    taken = card_named(event["take"])
    state = from_discard(state, taken, "Recycle")
    hand = state.hands[state.turn].with_card(taken)
    return finish(with_hand(state, state.turn, hand), card.title)


ACTIONS: dict[str, Callable[[State, Event, Card], State]] = {
    "build": build,
    "repair": repair,
    "sudden": sudden,
    "loss": loss,
    "theft": theft,
    "recycle": recycle,
}


def play(state: State, event: Event) -> State:
    """A card played by the active player, from their hand or drawn by Sudden Changes."""
    title = card_named(event["card"])
    card = CARD[title]
    if card.effect == "reply":
        raise IllegalMove(f"{title} is played only in reply to a card, never as a turn's play"
                          + (": discard it" if phase(state) == SUDDEN else ""),
                          code="reply-only", rule="R-10")
    check_fields(event, card)
    return aloud(state, state.turn, f"play {title}", lambda now: _played(now, event, card))


def _played(state: State, event: Event, card: Card) -> State:
    taken = take_card(state, card.title)
    if card.effect in HARMS:  # a harm reads neither the hands nor the frames the card left
        return announce(state, HARMS[card.effect](state, event, card), taken)
    return ACTIONS[card.effect](evolve(state, **taken), event, card)


# --------------------------------------------------------------------------------------------
# Replies and the resolution of a harm


def reply_order(state: State, harm: Harm,
                hands: tuple[Hand, ...] | None = None) -> tuple[str, ...]:
    """Who is asked, in order: the other players from the active player's left, then the active
    player, each holding a card, while a copy of a reply card that helps may lie face down
    (R-23). Only what the table sees decides: the tool never skips a player whose hand it
    knows."""
    if not any(CARD[c].count > state.face_up(c) for c in harm.replies):
        return ()
    hands = hands or state.hands
    n = len(state.names)
    seats = [(state.turn + k) % n for k in range(1, n)] + [state.turn]
    return tuple(state.names[s] for s in seats if hands[s].size > 0)


def describe_harm(state: State, harm: Harm) -> str:
    parts = []
    if harm.kills:
        parts.append("kills " + ", ".join(f"{state.men[p]} ({post_title(p)})"
                                          for p in harm.kills))
    if harm.discards:
        castle = harm.discards[0][0] // 3 + 1
        parts.append(f"discards castle {castle}'s "
                     + ", ".join(attribute_card(index % 3, level)
                                 for index, level in harm.discards))
    if harm.crown is not None:
        parts.append(f"crowns {state.men[post(harm.crown, LORD)]} (Lord {harm.crown + 1})")
    return f"{harm.by}'s {harm.card} ({'; '.join(parts)})"


def announce(state: State, harm: Harm, taken: dict[str, Any]) -> State:
    """A harm is announced: a reply window opens when someone may answer it, else it happens.
    `taken`: the fields the card's play changed (the hand or frame it left), set in the same
    copy of the state."""
    order = reply_order(state, harm, taken.get("hands"))
    if not order:
        return resolve(state, harm, **taken)
    return evolve(state, **taken, pending=harm,
                  window=ReplyWindow(describe_harm(state, harm), order))


def resolve(state: State, harm: Harm, saved: int | None = None,
            kept: tuple[int, int] | None = None, **taken: Any) -> State:
    """The harm happens, minus the man saved by Lucky Escape or the card kept by Not That Bad:
    the attribute cards go, the men die and the card leaves play, in one copy of the state
    (with the hands or frames `taken` by a harm that nobody could answer)."""
    stacks, discard = state.stacks, state.discard
    for index, level in harm.discards:
        if (index, level) != kept:
            levels = tuple(v for v in stacks[index] if v != level)
            stacks = stacks[:index] + (levels,) + stacks[index + 1:]
            discard += (attribute_card(index % 3, level),)
    # The card leaves play for the discard pile only now, after the attribute cards it took.
    changes = {**taken, "stacks": stacks, "discard": discard + (harm.card,), "pending": None,
               "window": None}
    kills = tuple(p for p in harm.kills if p != saved)
    if kills:
        changes.update(deaths(state, stacks, kills, harm.crown if KING in kills else None))
    state = evolve(state, **changes)
    return state if state.vacancies else proceed(state)


# --------------------------------------------------------------------------------------------
# Death and promotion

CASTLE_POSTS = tuple(tuple(post(c, rank) for rank in range(3)) for c in range(CASTLES))


def successor(stacks: Stacks, men: list[str | None]) -> int | None:
    """The castle whose Lord becomes King: the largest that still has a Lord (R-15)."""
    castles = [c for c in range(CASTLES) if men[post(c, LORD)] is not None]
    return max(castles, key=lambda c: (level_of(stacks, c), -c)) if castles else None


def deaths(state: State, stacks: Stacks, posts: tuple[int, ...],
           crown: int | None) -> dict[str, Any]:
    """The fields that change when all the men at `posts` die at once (the castles' levels are
    those of `stacks`): the King's successor moves up; each castle's survivors move up to its
    highest posts; new men are dealt to the vacancies, highest first (R-6)."""
    men = list(state.men)
    dead = tuple(m for m in (men[p] for p in posts) if m is not None)
    for p in posts:
        men[p] = None
    touched = {castle_of(p) for p in posts if p != KING}
    if KING in posts:
        castle = crown if crown is not None else successor(stacks, men)
        if castle is not None:
            men[KING], men[post(castle, LORD)] = men[post(castle, LORD)], None
            touched.add(castle)
    for castle in touched:
        posts_of = CASTLE_POSTS[castle]
        survivors = [men[p] for p in posts_of if men[p] is not None]
        survivors += [None] * (len(posts_of) - len(survivors))
        for p, man in zip(posts_of, survivors):
            men[p] = man
    vacancies = [post(c, r) for r in range(3) for c in sorted(touched)  # highest first
                 if men[post(c, r)] is None]
    return filled(state, men, state.dead + dead, tuple(vacancies))


def filled(state: State, men: list[str | None], dead: tuple[str, ...],
           vacancies: tuple[int, ...]) -> dict[str, Any]:
    """New men from the personality deck, highest vacancy first: dealt by the referee when the
    deck's order is known (R-19), else turned up by the table. A vacancy that finds the deck
    empty starts the end; then posts stay empty (R-15). `men` and `dead` (the posts and the
    personality discard pile after the deaths) are among the fields returned."""
    waiting: list[int] = []
    seen, left = state.seen, state.persona_left
    upcoming = iter(state.persona_order or ())
    ending = state.ending
    for vacancy in vacancies:
        if ending:
            break
        if left - len(waiting) == 0:
            ending = True
            break
        # The deck's next card when its order is known (`State.next_persona`, as dealt so far).
        letter = next(itertools.filterfalse(seen.__contains__, upcoming), None)
        if letter is None:
            waiting.append(vacancy)
            continue
        men[vacancy] = letter
        seen, left = seen | {letter}, left - 1
    return {"men": tuple(men), "dead": dead, "seen": seen, "ending": ending,
            "vacancies": tuple(waiting)}


def reveal(state: State, letters: tuple[str, ...]) -> State:
    """Personality cards turned up by the table: the set-up posts in order (R-4), or the
    vacancies waiting, highest first."""
    set_up = state.revealed < POSTS
    posts = tuple(range(state.revealed, POSTS)) if set_up else state.vacancies
    if not 1 <= len(letters) <= len(posts):
        raise IllegalMove(f"{len(letters)} card(s) turned up, but {len(posts)} post(s) wait "
                          "for one", code="wrong-count", rule="Set-up" if set_up else "R-6")
    men = list(state.men)
    seen = set(state.seen)
    for letter, place in zip(letters, posts):
        if letter not in LETTERS:
            raise IllegalMove(f"{letter!r} is not a squire (A-Z)", code="unknown-squire",
                              rule="R-1")
        if letter in seen:
            where = "is dead" if letter in state.dead else "is in office"
            raise IllegalMove(f"{letter} {where}: each personality card is turned up once",
                              code="squire-seen", rule="Conservation")
        seen.add(letter)
        men[place] = letter
    state = evolve(state, men=tuple(men), seen=frozenset(seen))
    if set_up:
        state = evolve(state, revealed=state.revealed + len(letters))
        return start_turn(state, 0) if state.revealed == POSTS else state
    state = evolve(state, vacancies=state.vacancies[len(letters):])
    return state if state.vacancies else proceed(state)


# --------------------------------------------------------------------------------------------
# What may be played now: the targets each card has on the public kingdom


def targets(state: State, card: Card) -> Iterator[dict[str, Any]]:
    """The target fields of every legal play of `card` by the active player (R-11), in a state
    where the card has already left the hand."""
    kind, men = card.effect, state.men
    if kind == "kill-king" and men[KING]:
        yield {}
    elif kind == "kill-man":
        yield from ({"post": POST_TITLES[p]} for p in range(POSTS) if men[p])
    elif kind == "assassinate" and men[KING]:
        yield from ({"castle": c + 1} for c in range(CASTLES) if men[post(c, LORD)])
    elif kind == "kill-rank":
        yield from ({"castle": c + 1} for c in range(CASTLES) if men[post(c, card.param("rank"))])
    elif kind == "kill-two":
        for c in range(CASTLES):
            present = [r for r in range(3) if men[post(c, r)]]
            for pair in itertools.combinations(present, 2):
                yield {"castle": c + 1, "kill": [RANKS[r] for r in pair]}
    elif kind == "kill-all":
        yield from ({"castle": c + 1} for c in range(CASTLES)
                    if any(men[post(c, r)] for r in range(3)))
    elif kind in ("build", "remove-stack", "remove-tops", "remove-top"):
        yield from _castle_targets(state, card)
    elif kind == "repair":
        for taken in sort_cards(set(state.discard)):
            found = build_of(taken)
            for c in range(CASTLES) if found else ():
                assert found is not None
                if found[1] > state.top(stack(c, found[0])):
                    yield {"take": taken, "castle": c + 1}
    elif kind == "sudden":
        yield {}
    elif kind in ("loss", "theft"):
        yield from _player_targets(state, card)
    elif kind == "recycle":
        yield from ({"take": taken} for taken in sort_cards(set(state.discard)))


def _castle_targets(state: State, card: Card) -> Iterator[dict[str, Any]]:
    attribute = card.param("attribute")
    for c in range(CASTLES):
        if card.effect == "build":
            if card.param("level") > state.top(stack(c, attribute)):
                yield {"castle": c + 1}
        elif card.effect == "remove-tops":
            if any(state.stacks[stack(c, a)] for a in range(3)):
                yield {"castle": c + 1}
        elif attribute is not None:
            if state.stacks[stack(c, attribute)]:
                yield {"castle": c + 1}
        else:
            yield from ({"castle": c + 1, "attribute": ATTRIBUTES[a]} for a in range(3)
                        if state.stacks[stack(c, a)])


def _player_targets(state: State, card: Card) -> Iterator[dict[str, Any]]:
    for seat, name in enumerate(state.names):
        if seat == state.turn or state.hands[seat].size == 0:
            continue
        if card.effect == "theft":
            yield {"player": name}
        elif state.dealt:
            yield {"player": name, "lost": picked(state, seat)}
        else:
            shown = while_played(state, card.title)
            for lost in CARD:
                if could_hold(shown, seat, lost):
                    yield {"player": name, "lost": lost}


def playable(state: State) -> list[str]:
    """The cards the active player may be playing now: those the hand may hold, or the cards
    Sudden Changes drew (any card that may lie face down, when nobody knows them)."""
    if phase(state) == SUDDEN:
        frame = state.frames[-1]
        if frame.drawn:
            return sort_cards(set(frame.drawn))
        return [c for c in CARD if state.unaccounted(c) > 0]
    return [c for c in CARD if could_hold(state, state.turn, c)]


def plays(state: State, card: str) -> list[Event]:
    """The legal plays of `card` by the active player (none for a reply card, R-10)."""
    if CARD[card].effect == "reply":
        return []
    after = evolve(state, **take_card(state, card))
    return [Event.make("play", state.player, card=card, **fields)
            for fields in targets(after, CARD[card])]
