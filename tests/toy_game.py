"""Council: a toy game on the referee core, for the core's own tests (sealed secrets, reply
windows, table votes, hidden hands) and as the smallest example of the game template.

Each player seals three letters. Then, in turn, each player shows a card from a hidden hand of
three and proposes that many points for themself; the others may veto in clockwise order; an
unvetoed proposal goes to a vote (each player has as many votes as its seat number, from 1) and
scores if it passes. When everyone has proposed, each player opens their seal.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping

from referee import seals
from referee.engine import Args, Event, Events, EventType, Game, Phase, Player, ToAct
from referee.errors import IllegalMove, NotationError
from referee.hands import HiddenHand
from referee.replies import ReplyWindow
from referee.rulebook import Rule, Rulebook
from referee.votes import Motion

SEAL, PROPOSE, REPLY, VOTE, OPEN, OVER = "seal", "propose", "reply", "vote", "open", "over"
CARDS = ("1", "2", "3")


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    seals: tuple[str | None, ...]
    hands: tuple[HiddenHand, ...]
    turn: int = 0
    proposal: int | None = None
    window: ReplyWindow | None = None
    motion: Motion | None = None
    points: tuple[int, ...] = ()
    opened: tuple[str | None, ...] = ()

    @property
    def active(self) -> str:
        return self.names[self.turn % len(self.names)]


def phase(state: State) -> str:
    if None in state.seals:
        return SEAL
    if state.window is not None:
        return REPLY
    if state.motion is not None:
        return VOTE
    if state.turn < len(state.names):
        return PROPOSE
    return OPEN if None in state.opened else OVER


def _next(state: State) -> State:
    return replace(state, turn=state.turn + 1, proposal=None, window=None, motion=None)


class Seal(EventType[State]):
    name = "seal"
    doc = "a player seals three letters (only the commitment is kept)"
    fields = {"seal": "str"}
    phases = frozenset({SEAL})
    sealed = True
    forms = (("seal", "seal your three letters (typed unseen)"),)

    def secret(self, state: State, text: str) -> str:
        letters = "".join(sorted(text.upper().replace(" ", "")))
        if len(letters) != 3 or not letters.isalpha() or len(set(letters)) != 3:
            raise NotationError("a seal holds three different letters", code="bad-secret")
        return letters

    def apply(self, state: State, event: Event) -> State:
        if not seals.is_commitment(event["seal"]):
            raise IllegalMove("that is not a seal", code="bad-seal", rule="Seals")
        at = state.seals.index(None)
        return replace(state, seals=state.seals[:at] + (event["seal"],) + state.seals[at + 1:])


class Propose(EventType[State]):
    name = "propose"
    doc = "the active player shows a card and proposes that many points"
    fields = {"card": "str"}
    phases = frozenset({PROPOSE})
    reveal = True
    forms = (("propose CARD", "show a card of your hand: 1, 2 or 3"),)

    def parse(self, state: State, args: Args) -> Event:
        if len(args.words) != 1:
            raise NotationError("propose one card", code="no-card")
        return self.make(args.by, card=args.words[0])

    def format(self, state: State, event: Event) -> str:
        return f"propose {event['card']}"

    def apply(self, state: State, event: Event) -> State:
        card = event["card"]
        if card not in CARDS:
            raise IllegalMove(f"{card!r} is not a card", code="unknown-card", rule="Cards")
        seat = state.names.index(state.active)
        hand = state.hands[seat]
        if hand.complete and card not in hand.known:
            raise IllegalMove(f"{state.active} does not hold {card}", code="not-held",
                              rule="Cards")
        hands = state.hands[:seat] + (hand.without(card),) + state.hands[seat + 1:]
        window = ReplyWindow.open(f"{state.active}'s proposal of {card}", state.names,
                                  state.active, active_last=False)
        return replace(state, hands=hands, proposal=int(card), window=window)

    def moves(self, state: State) -> Iterator[Event]:
        for card in CARDS:
            yield self.make(state.active, card=card)


class Veto(EventType[State]):
    name = "veto"
    doc = "the player asked vetoes the proposal"
    actor = "any"
    phases = frozenset({REPLY})
    forms = (("veto", "stop the proposal (in your turn to answer)"),)

    def format(self, state: State, event: Event) -> str:
        return "veto"

    def apply(self, state: State, event: Event) -> State:
        assert state.window is not None
        if event.by != state.window.awaiting:
            raise IllegalMove(f"{state.window.awaiting} answers now", code="not-your-reply",
                              rule="Replies")
        return _next(state)

    def moves(self, state: State) -> Iterator[Event]:
        assert state.window is not None
        yield self.make(state.window.awaiting)


class Pass(EventType[State]):
    name = "pass"
    doc = "the player asked lets the proposal go on"
    actor = "any"
    phases = frozenset({REPLY})
    forms = (("pass", "let the proposal go on"),)

    def format(self, state: State, event: Event) -> str:
        return "pass"

    def apply(self, state: State, event: Event) -> State:
        assert state.window is not None
        if event.by != state.window.awaiting:
            raise IllegalMove(f"{state.window.awaiting} answers now", code="not-your-reply",
                              rule="Replies")
        window = state.window.passed()
        if window is not None:
            return replace(state, window=window)
        weights = {name: (seat + 1,) for seat, name in enumerate(state.names)}
        return replace(state, window=None,
                       motion=Motion.put(f"{state.proposal} for {state.active}", weights))

    def moves(self, state: State) -> Iterator[Event]:
        assert state.window is not None
        yield self.make(state.window.awaiting)


class Vote(EventType[State]):
    name = "vote"
    doc = "a player votes yea, nay or abstain"
    fields = {"choice": "str"}
    actor = "any"
    phases = frozenset({VOTE})
    forms = (("vote yea|nay|abstain", "your vote on the proposal"),)

    def parse(self, state: State, args: Args) -> Event:
        return self.make(args.by, choice=" ".join(args.words))

    def format(self, state: State, event: Event) -> str:
        return f"vote {event['choice']}"

    def apply(self, state: State, event: Event) -> State:
        from referee.votes import VoteError

        assert state.motion is not None and event.by is not None
        try:
            motion = state.motion.cast(event.by, event["choice"])
        except VoteError as exc:
            raise IllegalMove(str(exc), code="bad-vote", rule="Votes") from None
        if motion.waiting:
            return replace(state, motion=motion)
        points = list(state.points)
        if motion.passed:
            points[state.names.index(state.active)] += state.proposal or 0
        return _next(replace(state, points=tuple(points)))

    def moves(self, state: State) -> Iterator[Event]:
        assert state.motion is not None
        for choice in ("yea", "nay", "abstain"):
            yield self.make(state.motion.waiting[0], choice=choice)


class Open(EventType[State]):
    name = "open"
    doc = "a player opens their seal: the three letters and the receipt"
    fields = {"letters": "str", "receipt": "str"}
    actor = "any"
    phases = frozenset({OPEN})
    reveal = True
    forms = (("open LETTERS RECEIPT", "open your seal at the end"),)

    def parse(self, state: State, args: Args) -> Event:
        if len(args.words) != 2:
            raise NotationError("open LETTERS RECEIPT", code="bad-open")
        receipt = seals.normal_receipt(args.words[1])
        if receipt is None:
            raise NotationError("that is not a receipt code (XXXX-XXXX-XXXX)",
                                code="bad-receipt")
        return self.make(args.by, letters=Seal().secret(state, args.words[0]), receipt=receipt)

    def format(self, state: State, event: Event) -> str:
        return f"open {event['letters']} {event['receipt']}"

    def apply(self, state: State, event: Event) -> State:
        assert event.by is not None
        seat = state.names.index(event.by)
        seal = state.seals[seat]
        assert seal is not None
        if state.opened[seat] is not None:
            raise IllegalMove(f"{event.by} has opened their seal", code="opened", rule="Seals")
        if not seals.opens(seal, event["letters"], event["receipt"]):
            raise IllegalMove(f"these letters and receipt do not open {event.by}'s seal",
                              code="wrong-reveal", rule="Seals")
        opened = state.opened[:seat] + (event["letters"],) + state.opened[seat + 1:]
        return replace(state, opened=opened)


class Council(Game[State]):
    id = "council"
    title = "Council"
    min_players, max_players = 2, 4
    phases = (Phase(SEAL, "each player seals three letters"),
              Phase(PROPOSE, "the active player proposes"),
              Phase(REPLY, "the others may veto, in turn"),
              Phase(VOTE, "everyone votes"),
              Phase(OPEN, "everyone opens their seal"),
              Phase(OVER, "the game is over"))
    events = Events(Seal(), Propose(), Veto(), Pass(), Vote(), Open())
    rulebook = Rulebook("Council, a toy game", sections=(
        Rule("Turn", "seal, propose, replies, vote, open"), Rule("Cards", "1, 2 and 3"),
        Rule("Seals", "three letters"), Rule("Replies", "clockwise"), Rule("Votes", "seats")))
    turn_rule = "Turn"

    def setup(self, players: tuple[Player, ...], options: Mapping[str, Any],
              seed: int | None = None) -> State:
        n = len(players)
        return State(tuple(p.name for p in players), (None,) * n, (HiddenHand(3),) * n,
                     points=(0,) * n, opened=(None,) * n)

    def phase(self, state: State) -> str:
        return phase(state)

    def to_act(self, state: State) -> ToAct:
        now = phase(state)
        if now == SEAL:
            name = state.names[state.seals.index(None)]
            return ToAct((name,), f"{name} seals three letters (`seal`)")
        if now == REPLY:
            assert state.window is not None
            return state.window.to_act("`veto` or `pass`")
        if now == VOTE:
            assert state.motion is not None
            return ToAct(state.motion.waiting[:1], f"vote on {state.motion.subject}")
        if now == OPEN:
            waiting = tuple(n for n, o in zip(state.names, state.opened) if o is None)
            return ToAct(waiting, "open your seal")
        if now == OVER:
            return ToAct((), "the game is over")
        return ToAct((state.active,), f"{state.active} proposes")

    def finished(self, state: State) -> bool:
        return phase(state) == OVER

    def default_player(self, state: State) -> str | None:
        turn = self.to_act(state)
        return turn.players[0] if turn.players else None

    def render(self, state: State) -> str:
        return " ".join(f"{n}:{p}" for n, p in zip(state.names, state.points))


GAME = Council()
