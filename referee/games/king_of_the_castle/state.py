"""The state of a game of King of the Castle: small frozen values, replaced (never mutated).

The kingdom is public: the man in each of the ten posts and the nine attribute stacks. The event
cards are where the referee can count them: the deck (its order known only when the tool dealt
it), each player's hand (a `Hand`: its size and the cards known to be in it), the face-up discard
pile (R-9), the stacks, and the cards in play. The squires each player backs are sealed: only
their commitments are kept until they are opened at the end.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, cast

from referee.derived import derived
from referee.evolve import evolve
from referee.games.king_of_the_castle.components import (
    ATTRIBUTES,
    CARD,
    CASTLES,
    EVENT_CARDS,
    LETTERS,
    POSTS,
    attribute_card,
    build_of,
    post,
    stack,
)
from referee.replies import ReplyWindow
from referee.values import value

SECRET, RANDOM, HAND = "secret", "random", "hand"  # how the squires are chosen
Stacks = tuple[tuple[int, ...], ...]  # the levels on each of the nine attribute stacks


@value(slots=True)
class Hand:
    """What the referee knows of one hand of event cards: its size and the cards known to be in
    it (a multiset, sorted; every card when the tool dealt the hand: `complete`).

    `referee.hands.HiddenHand` keeps a set; these cards come in copies (four Peaceful Deaths)."""

    size: int
    known: tuple[str, ...] = ()
    complete: bool = False

    @classmethod
    def of(cls, cards: Iterable[str]) -> Hand:
        known = tuple(sorted(cards))
        return cls(len(known), known, True)

    @property
    def full(self) -> bool:
        """Every card of the hand is known (dealt by the tool, or all taken face up)."""
        return self.complete or len(self.known) == self.size

    def holds(self, card: str) -> bool:
        return card in self.known

    def without(self, card: str) -> Hand:
        """The hand after `card` left it face up (played, discarded, lost)."""
        known = list(self.known)
        if card in known:
            known.remove(card)
        return Hand(self.size - 1, tuple(known), self.complete)

    def with_card(self, card: str | None) -> Hand:
        """The hand after a card joined it (None: a card the referee did not see)."""
        if card is None:
            return Hand(self.size + 1, self.known, False)
        return Hand(self.size + 1, tuple(sorted(self.known + (card,))), self.complete)

    def with_cards(self, cards: tuple[str | None, ...]) -> Hand:
        """`with_card` for each of `cards` in turn, made at once (a turn's draw)."""
        if not cards:
            return self
        if None not in cards:  # a deck the tool dealt: every card drawn is known
            drawn = cast("tuple[str, ...]", cards)
            return Hand(self.size + len(cards), tuple(sorted(self.known + drawn)), self.complete)
        seen = tuple(card for card in cards if card is not None)
        known = tuple(sorted(self.known + seen)) if seen else self.known
        return Hand(self.size + len(cards), known, self.complete and len(seen) == len(cards))

    def losing_unseen(self) -> Hand:
        """The hand after a card the referee did not see left it: any known card may be gone."""
        return Hand(self.size - 1)


@value(slots=True)
class Harm:
    """A card announced with its targets, before any reply: the men about to die, the attribute
    cards about to be discarded (stack, level), and the castle whose Lord is crowned."""

    card: str
    by: str
    kills: tuple[int, ...] = ()
    discards: tuple[tuple[int, int], ...] = ()
    crown: int | None = None

    @property
    def replies(self) -> tuple[str, ...]:
        """The reply cards that could answer it: Lucky Escape saves a man, Not That Bad a card."""
        return (("Lucky Escape",) if self.kills else ()) + \
            (("Not That Bad",) if self.discards else ())


@value(slots=True)
class Frame:
    """A card in play until the plays made through it are over: Sudden Changes (the cards it
    drew, `drawn` when the tool dealt them) or Targeted Theft (the one extra play)."""

    card: str
    left: int
    drawn: tuple[str, ...] = ()

    def after_play(self, card: str | None) -> Frame:
        drawn = list(self.drawn)
        if card in drawn:
            drawn.remove(card)
        return Frame(self.card, self.left - 1, tuple(drawn))


@value
class State:
    names: tuple[str, ...]
    squires: str  # secret, random or hand
    hand_limit: int
    duplicates: str  # with `hand`, a letter held twice scores once or each time
    letter_names: tuple[str, ...]  # a name for each letter, or ()
    seed: int | None
    # the sealed squires, and what each player opened at the end
    seals: tuple[str | None, ...]
    opened: tuple[tuple[str, ...] | None, ...]
    # the personality cards
    men: tuple[str | None, ...] = (None,) * POSTS
    revealed: int = 0  # set-up posts dealt so far
    seen: frozenset[str] = frozenset()  # letters turned up: in office or dead
    dead: tuple[str, ...] = ()  # the personality discard pile
    persona_order: tuple[str, ...] | None = None  # the deck's order when it is known
    vacancies: tuple[int, ...] = ()  # posts waiting for the table to turn up a card
    ending: bool = False  # a vacancy found the personality deck empty
    # the event cards
    hands: tuple[Hand, ...] = ()
    deck: tuple[str, ...] | None = None  # the order of a deck the tool dealt, top first
    deck_size: int = EVENT_CARDS
    discard: tuple[str, ...] = ()  # the face-up discard pile, oldest first
    stacks: tuple[tuple[int, ...], ...] = ((),) * 9  # the levels on each stack, bottom first
    # the turn
    turn: int = 0
    turns: int = 0  # turns begun
    drew: int = 0  # cards the player to act drew at the start of the turn
    played: bool = False  # the turn's play is over: only the discard is left
    frames: tuple[Frame, ...] = ()
    pending: Harm | None = None
    window: ReplyWindow | None = None
    rolls: int = 0  # random choices the tool made (stolen and lost cards, reshuffles)
    reshuffles: int = 0
    scoring: bool = False  # the last round is over: the seals are being opened
    over: bool = False
    viewer: str | None = None  # `status --for NAME`: the view is for NAME's eyes, their hand too
    stopped: str | None = None  # why the table stopped the game (the core `end` event)
    opened_at_stop: int = 0  # squires opened when it stopped: those opened since need --force

    # ---- who -----------------------------------------------------------------------------
    @property
    def player(self) -> str:
        return self.names[self.turn]

    def seat(self, name: str) -> int:
        return self.names.index(name)

    @property
    def dealt(self) -> bool:
        """The tool dealt the cards (--shuffle --seed): it knows every hand and both decks."""
        return self.seed is not None

    # ---- the kingdom ---------------------------------------------------------------------
    def top(self, index: int) -> int:
        levels = self.stacks[index]
        return levels[-1] if levels else 0

    def level(self, castle: int) -> int:
        return level_of(self.stacks, castle)

    def man_in(self, castle: int, rank: int) -> str | None:
        return self.men[post(castle, rank)]

    @derived("stacks")
    def largest(self) -> int:
        """The castle of the highest level; a tie goes to the leftmost (R-16: even at 0)."""
        return max(range(CASTLES), key=lambda c: (self.level(c), -c))

    def best(self, attribute: int) -> int | None:
        """The castle with the highest level of `attribute`, leftmost on a tie; None when every
        castle is at 0 (R-7)."""
        castle = max(range(CASTLES), key=lambda c: (self.top(stack(c, attribute)), -c))
        return castle if self.top(stack(castle, attribute)) >= 1 else None

    def post_of(self, letter: str) -> int | None:
        return self.men.index(letter) if letter in self.men else None

    @property
    def persona_left(self) -> int:
        """Cards still in the personality deck."""
        return len(LETTERS) - len(self.seen)

    def next_persona(self) -> str | None:
        """The personality deck's next card when its order is known (R-19, --shuffle)."""
        if self.persona_order is None:
            return None
        return next((letter for letter in self.persona_order if letter not in self.seen), None)

    # ---- the event cards -----------------------------------------------------------------
    @property  # a tuple of a card or two: cheaper made again than cached on every new state
    def in_play(self) -> tuple[str, ...]:
        """Cards played whose effect is not over (waiting for replies or for plays through them)."""
        cards = tuple(f.card for f in self.frames)
        return cards + ((self.pending.card,) if self.pending else ())

    @property
    def drawn_waiting(self) -> int:
        """Cards drawn by Sudden Changes and not played yet."""
        return sum(f.left for f in self.frames if f.card == "Sudden Changes")

    @derived("discard", "stacks", "frames", "pending")  # and `in_play`, made of the last two
    def on_table(self) -> Counter[str]:
        """Copies of each card face up where the referee always sees them: the discard pile,
        the stacks and the cards in play."""
        cards = list(self.discard)  # counted once, all together: cheaper than by parts
        cards += [attribute_card(index % 3, level)
                  for index, levels in enumerate(self.stacks) for level in levels]
        cards += self.in_play
        return Counter(cards)

    def face_up(self, card: str) -> int:
        """`on_table[card]`, counted for this card alone: who may reply is asked at every card
        announced, of a new state each time."""
        count = self.discard.count(card)
        for frame in self.frames:  # `in_play`, without making it
            count += frame.card == card
        if self.pending is not None:
            count += self.pending.card == card
        built = build_of(card)  # only attribute cards lie on the stacks
        if built is not None:
            attribute, level = built
            count += sum(levels.count(level) for index, levels in enumerate(self.stacks)
                         if index % 3 == attribute)
        return count

    @derived("hands", "frames")
    def in_hands(self) -> Counter[str]:
        """Copies of each card known to be in some hand, or among the cards a Sudden Changes
        drew in a game the tool deals."""
        known: Counter[str] = Counter()
        for hand in self.hands:
            known.update(hand.known)
        for frame in self.frames:
            known.update(frame.drawn)
        return known

    def unaccounted(self, card: str) -> int:
        """Copies of `card` that may lie face down: in the deck or an unknown part of a hand."""
        return CARD[card].count - self.on_table[card] - self.in_hands[card]




def level_of(stacks: Stacks, castle: int) -> int:
    """A castle's level: the sum of its three attributes' top levels."""
    return sum(levels[-1] for levels in (stacks[stack(castle, a)] for a in range(len(ATTRIBUTES)))
               if levels)


def with_hand(state: State, seat: int, hand: Hand) -> State:
    return evolve(state, hands=state.hands[:seat] + (hand,) + state.hands[seat + 1:])


def inventory(state: State) -> dict[str, int]:
    """Where all 104 cards are: the event cards and the personality cards."""
    out = {"event deck": state.deck_size,
           **{f"hand of {name}": hand.size for name, hand in zip(state.names, state.hands)},
           "event discard pile": len(state.discard),
           "on the castles": sum(len(levels) for levels in state.stacks),
           "in play": len(state.in_play),
           "drawn by Sudden Changes": state.drawn_waiting,
           "personality deck": state.persona_left,
           "in office": sum(m is not None for m in state.men),
           "personality discard pile": len(state.dead)}
    return out

