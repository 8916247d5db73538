"""Parliament in session (§7.3, §7.4): the three rounds of assignment from the Chancery (the
caller's bishops, then selections, proposals and the table's votes, then the senior bishop's
round without a vote) and the other business before dismissal: the illegitimacy motion with its
bound votes, title transfers with a vote, office transfers with the caller's approval (R-36..R-41,
R-54, R-75..R-77).

Every check here is one function that both the event refusing a move and its `moves` listing the
legal ones call: eligibility (R-37), the leaders of the rounds (R-39), the bound votes (R-54).
"""

from __future__ import annotations

from typing import Any, Iterator

from referee.engine import Args, Event
from referee.errors import IllegalMove, NotationError
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.events.base import (
    Base,
    card,
    heir,
    known_heir,
    known_noble,
    noble,
    parse_card,
    players,
)
from referee.games.kingmaker.notation import items, shown_list
from referee.games.kingmaker.rules import SESSION_PHASES, refuse
from referee.games.kingmaker.events.forms import Case, Form, Key, Slot
from referee.games.kingmaker.state import (
    ASSIGN,
    BISHOPS,
    BUSINESS,
    CHANCERY,
    PROPOSE,
    SELECT,
    VOTE,
    Ballot,
    Duty,
    Question,
    Sitting,
    State,
    moved_cards,
)
from referee.votes import Motion, VoteError

HOUSES = ("Commons", "Lords")


# --------------------------------------------------------------------------------------------
# The session's state


def sitting(state: State, *steps: str) -> Sitting:
    """The Parliament in session at one of `steps`, or the refusal that says what comes now."""
    current = state.sitting
    if current is None:
        raise refuse("no Parliament is in session (7.1: the King or the Chancellor calls it in "
                     "his Parliament phase)", "no-parliament", "§7")
    if current.step not in steps:
        raise refuse(f"not now: {rules.sitting_turn(state).prompt}", "not-now", "§7.3")
    return current


def seat(state: State, new: Sitting) -> State:
    return evolve(state, sitting=new)


def present(state: State, new: Sitting | None = None) -> list[str]:
    """The attending nobles still in play."""
    s = new or state.sitting
    return [n for n in (s.attending if s else ()) if n in state.nobles]


def cards_of_kind(state: State, cards: tuple[str, ...], *kinds: str) -> list[str]:
    return [c for c in cards if state.kind(c) in kinds]


def weights(state: State) -> dict[str, tuple[int, int]]:
    """Each player's frozen votes (R-36), the weights of every vote of this Parliament."""
    s = state.sitting
    assert s is not None
    return {p: s.votes_of(p) for p in state.playing}


# --------------------------------------------------------------------------------------------
# Eligibility and the leaders of the rounds


def eligible_problem(state: State, card: str, noble: str) -> IllegalMove | None:
    """R-37: a title goes to an untitled noble, an office to a titled noble without one; any
    noble in play, attending or not; none under siege."""
    if noble not in state.nobles:
        return refuse(f"{noble} is not a noble in play", "unknown-noble", "R-37")
    if rules.under_siege(state, noble) or rules.ship_besieger(state, noble):
        return refuse(f"{noble} is under siege: no card is assigned to him (R-37)",
                      "under-siege", "R-37")
    kind = state.kind(card)
    if kind == "title" and rules.titled(state, noble):
        return refuse(f"{noble} is titled already: a title goes to an untitled noble (R-37)",
                      "titled", "R-37")
    if kind == "office" and not rules.titled(state, noble):
        return refuse(f"{noble} is untitled: an office goes to a titled noble (R-37)",
                      "untitled", "R-37")
    if kind == "office" and rules.office_of(state, noble):
        return refuse(f"{noble} holds {rules.office_of(state, noble)}: one office per titled "
                      "noble (R-37)", "has-office", "R-37")
    return None


def eligible(state: State, card: str) -> list[str]:
    return [n for n in state.nobles if eligible_problem(state, card, n) is None]


def any_eligible(state: State, card: str) -> bool:
    """Whether `eligible(state, card)` names anyone (asked after every vote: it stops at the
    first)."""
    return any(eligible_problem(state, card, n) is None for n in state.nobles)


def commons_leader(state: State) -> str | None:
    """Round 2: the player with the most Commons of the frozen tally; nobody on a tie."""
    votes = weights(state)
    best = max(c for c, _ in votes.values())
    top = [p for p, (c, _) in votes.items() if c == best]
    return top[0] if len(top) == 1 else None


def bishop_leader(state: State) -> str | None:
    """Round 3 (R-39): the single player whose attending noble holds the most senior bishop
    (the most Lords), bishops assigned in this Parliament not counted; nobody if none, or if
    two players' bishops tie (one player holding both tied bishops leads)."""
    s = state.sitting
    assert s is not None
    held = [(state.entry(c).number("lords"), state.owner(n)) for n in present(state)
            for c in rules.bishops_of(state, n) if c not in s.bishops]
    if not held:
        return None
    best = max(lords for lords, _ in held)
    players = {p for lords, p in held if lords == best}
    return players.pop() if len(players) == 1 else None


# --------------------------------------------------------------------------------------------
# The flow of the rounds


def start_rounds(state: State) -> State:
    """Round 1, led by the caller: the Chancery's cards collected, the bishops first."""
    s = state.sitting
    assert s is not None
    pool = tuple(sorted(c for c, w in state.cards.items() if w == CHANCERY))
    state = seat(state, evolve(s, round=1, leader=s.caller, pool=pool, step=BISHOPS))
    return bishops_or_on(state)


def bishop_moves(state: State) -> list[tuple[str, str]]:
    """(bishop, noble): a Chancery bishop to an attending noble holding none (7.3)."""
    s = state.sitting
    assert s is not None
    takers = [n for n in present(state) if not rules.bishops_of(state, n)]
    return [(c, n) for c in cards_of_kind(state, s.pool, "bishop") for n in takers]


def bishops_or_on(state: State) -> State:
    """All the bishops that can be placed are placed; the rest go back to the Chancery."""
    s = state.sitting
    assert s is not None
    if bishop_moves(state):
        return state
    pool = tuple(c for c in s.pool if state.kind(c) != "bishop")
    return begin_select(seat(state, evolve(s, pool=pool)))


def begin_select(state: State) -> State:
    s = state.sitting
    assert s is not None
    if not cards_of_kind(state, s.pool, "title", "office"):
        return to_business(state)
    return seat(state, evolve(s, step=SELECT, selected=()))


def propose_next(state: State) -> State:
    """The next selected card with an eligible noble; one with none moves on (R-37)."""
    s = state.sitting
    assert s is not None
    selected = s.selected
    while selected and not any_eligible(state, selected[0]):
        selected = selected[1:]
    if selected:
        return seat(state, evolve(s, step=PROPOSE, selected=selected))
    return end_round(seat(state, evolve(s, selected=())))


def end_round(state: State) -> State:
    """Rounds 2 and 3 follow with their leaders, or are skipped (7.3)."""
    s = state.sitting
    assert s is not None
    if not cards_of_kind(state, s.pool, "title", "office"):
        return to_business(state)
    if s.round == 1:
        leader = commons_leader(state)
        if leader is not None:
            state = rules.chronicle(state, f"round 2 of Parliament is led by {leader}, who has "
                                           "the most Commons")
            return begin_select(seat(state, evolve(s, round=2, leader=leader)))
        state = rules.chronicle(state, "round 2 of Parliament is skipped: the most Commons are "
                                       "tied")
    if s.round <= 2:
        leader = bishop_leader(state)
        if leader is None:
            state = rules.chronicle(state, "round 3 of Parliament is skipped: no single senior "
                                           "bishop (R-39)")
            return to_business(state)
        state = rules.chronicle(state, f"round 3 of Parliament is led by {leader}, whose noble "
                                       "holds the most senior bishop (R-39)")
        state = seat(state, evolve(s, round=3, leader=leader, step=ASSIGN, selected=()))
        return unvoted_or_on(state)
    return to_business(state)


def unvoted_moves(state: State) -> list[tuple[str, str]]:
    s = state.sitting
    assert s is not None
    return [(c, n) for c in cards_of_kind(state, s.pool, "title", "office")
            for n in eligible(state, c)]


def unvoted_or_on(state: State) -> State:
    """Round 3 lasts while a card has an eligible noble (7.3); when cards are left that none
    may take, the table is told why the round ends (their names stay face down, R-81)."""
    s = state.sitting
    assert s is not None
    if any(any_eligible(state, c) for c in cards_of_kind(state, s.pool, "title", "office")):
        return state  # unvoted_moves(state) lists one at least
    left = len(cards_of_kind(state, s.pool, "title", "office"))
    if left:
        state = rules.chronicle(state, f"round 3 ends: no noble may take the {left} title(s) "
                                       "and office(s) left (R-37); they stay in the Chancery "
                                       "(R-82)")
    return to_business(state)


def to_business(state: State) -> State:
    """The rounds are over (no round runs now): leftovers stay in the Chancery; other business,
    then `dismiss`."""
    s = state.sitting
    assert s is not None
    return seat(state, evolve(s, step=BUSINESS, round=0, pool=(), selected=(),
                               leader=s.caller))


def give(state: State, card: str, noble: str, how: str) -> State:
    """A card of this Parliament's pool to a noble; the places it brings come with it (R-7)."""
    s = state.sitting
    assert s is not None
    state = rules.assign(state, card, noble)
    state = seat(state, evolve(s, pool=tuple(c for c in s.pool if c != card),
                                assigned=s.assigned + (f"{card} to {noble}",)))
    return rules.chronicle(state, f"{card} goes to {noble} ({how})")


# --------------------------------------------------------------------------------------------
# Round 1's bishops, the selection, the proposals


class Bishop(Base):
    name = "bishop"
    doc = "the Parliament's leader assigns a Chancery bishop to an attending noble, no vote (7.3)"
    fields = {"card": "str", "to": "str"}
    field_docs = {"card": "the bishop", "to": "the attending noble (he holds no bishop)"}
    phases = frozenset({SESSION_PHASES[BISHOPS]})
    form = Form(card("card", what="bishop"), Key("to", noble("to")),
                note="round 1, before the titles and offices: every bishop that can be placed is "
                "(7.3)")

    def effect(self, state: State, event: Event) -> State:
        s = sitting(state, BISHOPS)
        card, noble = event["card"], known_noble(state, event["to"])
        if card not in s.pool or state.kind(card) != "bishop":
            raise refuse(f"{card} is not a bishop of the Chancery at this Parliament",
                         "not-in-chancery", "§7.3")
        if noble not in present(state):
            raise refuse(f"{noble} does not attend Parliament: a bishop goes to an attending "
                         "noble (7.3)", "not-attending", "§7.3")
        if rules.bishops_of(state, noble):
            raise refuse(f"{noble} holds {rules.bishops_of(state, noble)[0]}: a bishop never "
                         "goes to a noble who has one (7.3)", "has-bishop", "§7.3")
        state = give(state, card, noble, "no vote, 7.3")
        after = state.sitting
        assert after is not None
        return bishops_or_on(seat(state, evolve(after, bishops=after.bishops + (card,))))

    def moves(self, state: State) -> Iterator[Event]:
        s = state.sitting
        assert s is not None
        for card, noble in bishop_moves(state):
            yield self.make(s.leader, card=card, to=noble)


def titles_first(state: State, cards: list[str]) -> list[str]:
    return [c for c in cards if state.kind(c) == "title"] + \
        [c for c in cards if state.kind(c) != "title"]


def selected(state: State, words: list[str], args: Args, out: dict[str, Any]) -> list[str]:
    names = items(words)
    if not names:
        raise NotationError(f"{args.text!r}: `select CARDS` or `select none`",
                            code="no-card", rule="§7.3")
    return titles_first(state, [parse_card(state, name, args.text) for name in names])


class Select(Base):
    name = "select"
    doc = "the round's leader selects the Chancery titles and offices he will propose (7.3)"
    fields = {"cards": "str[]"}
    field_docs = {"cards": "the selection in the order proposed, titles first (empty: none)"}
    phases = frozenset({SESSION_PHASES[SELECT]})
    form = Form(Slot("cards", "CARDS", selected, shown_list), empty=("none",),
                cases=(Case("any of the Chancery's titles and offices, titles first (7.3)"),
                       Case("nothing is proposed this round", {"cards": False})))

    def effect(self, state: State, event: Event) -> State:
        s = sitting(state, SELECT)
        cards = list(event["cards"])
        for card in cards:
            if card not in s.pool:
                raise refuse(f"{card} is not in the Chancery at this Parliament",
                             "not-in-chancery", "§7.3")
            if state.kind(card) not in ("title", "office"):
                raise refuse(f"{card} is a {state.kind(card)}: only titles and offices are "
                             "selected (the bishops went first, 7.3)", "not-selectable", "§7.3")
        if len(set(cards)) != len(cards):
            raise refuse("a card is selected twice", "duplicate-card", "§7.3")
        if cards != titles_first(state, cards):
            raise refuse("titles are proposed first, then offices: select "
                         f"{', '.join(titles_first(state, cards))} (7.3)", "titles-first",
                         "§7.3")
        state = rules.chronicle(state, f"{s.leader} selects " + (", ".join(cards) or "nothing")
                                + f" (round {s.round})")
        return propose_next(seat(state, evolve(s, selected=tuple(cards))))

    def moves(self, state: State) -> Iterator[Event]:
        s = state.sitting
        assert s is not None
        cards = titles_first(state, cards_of_kind(state, s.pool, "title", "office"))
        yield self.make(s.leader, cards=cards)
        yield self.make(s.leader, cards=[])
        if len(cards) > 1:
            for card in cards:
                yield self.make(s.leader, cards=[card])


class Propose(Base):
    name = "propose"
    changes = frozenset({"sitting"})
    doc = "the round's leader proposes the next selected card to an eligible noble (7.3, R-37)"
    fields = {"card": "str", "to": "str"}
    field_docs = {"card": "the title or office, the next of the selection",
                  "to": "the noble (R-37: any in play, attending or not, none under siege)"}
    phases = frozenset({SESSION_PHASES[PROPOSE]})
    form = Form(card("card"), Key("to", noble("to")),
                note="then the debate, and the table's `vote` (7.3)")

    def effect(self, state: State, event: Event) -> State:
        s = sitting(state, PROPOSE)
        card, noble = event["card"], known_noble(state, event["to"])
        if card != s.selected[0]:
            raise refuse(f"{s.selected[0]} is proposed first: the selection goes in its order "
                         "(7.3)", "out-of-order", "§7.3")
        problem = eligible_problem(state, card, noble)
        if problem is not None:
            raise problem
        question = Question("proposal", card, noble)
        motion = Motion.put(f"{card} to {noble}", weights(state), HOUSES)
        return seat(state, evolve(s, step=VOTE, question=question, motion=motion))

    def moves(self, state: State) -> Iterator[Event]:
        s = state.sitting
        assert s is not None
        for noble in eligible(state, s.selected[0]):
            yield self.make(s.leader, card=s.selected[0], to=noble)


def assign_unvoted(state: State, event: Event) -> State:
    """Round 3's `assign CARD to NOBLE`: no vote (7.3)."""
    s = sitting(state, ASSIGN)
    card, noble = event["card"], event["to"]
    if noble == "chancery":
        raise refuse("the cards nobody may take go back to the Chancery by themselves; assign "
                     "the others (7.3)", "to-chancery", "§7.3")
    known_noble(state, noble)
    if card not in s.pool or state.kind(card) not in ("title", "office"):
        raise refuse(f"{card} is not a title or office of the Chancery at this Parliament",
                     "not-in-chancery", "§7.3")
    problem = eligible_problem(state, card, noble)
    if problem is not None:
        raise problem
    return unvoted_or_on(give(state, card, noble, "round 3, no vote"))


# --------------------------------------------------------------------------------------------
# The votes


def bound_votes(state: State, king: str) -> dict[str, str]:
    """R-54: a player whose nobles hold heirs of one house only (Beaufort as heir counts) votes
    for that house: yea against the other house's King, nay against his own."""
    house = rules.house_of(state, king)
    out = {}
    for player in state.playing:
        held = rules.houses_held(state, player)
        if len(held) == 1:
            out[player] = "nay" if held == {house} else "yea"
    return out


def nobody(etype: Vote, state: State, args: Args, out: dict[str, Any]) -> list[str]:
    return []


class Vote(Base):
    name = "vote"
    doc = "the table's vote on the question before Parliament: every player casts all its " \
          "votes one way in both houses, the others abstain (R-38, R-54)"
    fields = {"yea": "str[]", "nay": "str[]"}
    field_docs = {"yea": "the players voting yea", "nay": "the players voting nay"}
    actor = "table"
    phases = frozenset({SESSION_PHASES[VOTE]})
    form = Form(Key("yea", players("yea", default=nobody), optional=True),
                Key("nay", players("nay", default=nobody), optional=True),
                empty=("none", "abstain"),
                usage=("`vote yea PLAYERS nay PLAYERS` (or `vote none`)", "bad-vote", "R-38"),
                cases=(Case("e.g. vote yea Ann,Cat nay Ben: passes with more yea than nay in both "
                            "houses (R-38)", {"yea": True, "nay": True}),
                       Case("everyone abstains: the question fails",
                            {"yea": False, "nay": False})))

    def effect(self, state: State, event: Event) -> State:
        voted_already(state)
        s = sitting(state, VOTE)
        assert s.motion is not None and s.question is not None
        yea, nay = tuple(event["yea"]), tuple(event["nay"])
        for name in yea + nay:
            if name not in state.playing:
                raise refuse(f"{name} has no vote in this Parliament", "unknown-player",
                             "R-38")
        if len(set(yea + nay)) != len(yea + nay):
            raise refuse("a player is named twice: every player casts all its votes one way "
                         "(R-38)", "split-vote", "R-38")
        try:
            motion = s.motion.cast_all(yea, nay)
        except VoteError as exc:
            bound = "must vote" in str(exc)
            raise refuse(f"{exc} (R-54: a player holding heirs of one house votes for it)"
                         if bound else str(exc), "bound-vote" if bound else "bad-vote",
                         "R-54" if bound else "R-38") from None
        counts = ", ".join(f"{c.house} {c.yea}-{c.nay}" for c in motion.tally())
        question = s.question
        ballot = Ballot(rules.subject(s), yea, nay, counts, motion.passed,
                        s.round if question.kind == "proposal" else 0)
        verdict = "passes" if motion.passed else \
            "fails" + (" (a tie fails, R-38)" if any(c.yea == c.nay for c in motion.tally())
                       else "")
        state = rules.chronicle(state, f"{ballot.subject}: {counts}; it {verdict}")
        state = seat(state, evolve(s, motion=None, question=None, ballots=s.ballots + (ballot,),
                                    step=BUSINESS))
        if question.kind == "proposal":
            return decided_proposal(state, question, motion.passed)
        if question.kind == "transfer":
            return decided_transfer(state, question, motion.passed)
        return decided_illegitimacy(state, question, motion.passed)

    def moves(self, state: State) -> Iterator[Event]:
        s = state.sitting
        assert s is not None and s.motion is not None
        for choice in ("yea", "nay"):
            sides: dict[str, list[str]] = {"yea": [], "nay": []}
            for player in state.playing:
                sides[s.motion.must(player) or choice].append(player)
            yield self.make(None, **sides)
        free = [p for p in state.playing if s.motion.must(p) is None]
        if len(free) == len(state.playing):
            yield self.make(None, yea=[], nay=[])


def voted_already(state: State) -> None:
    """A vote typed when no question is put, after one was decided: say it is recorded (R-75:
    one question at a time), not merely that something else comes now."""
    s = state.sitting
    if s is None or s.step == VOTE or not s.ballots:
        return
    last = s.ballots[-1]
    raise refuse(f"no question is put now: the vote on {last.subject} is recorded already "
                 f"({last.counts}, {'passed' if last.passed else 'failed'}); now "
                 f"{rules.to_act(state).prompt}", "voted-already", "R-75")


def ballots(state: State) -> Iterator[Event]:
    """Every ballot the table may cast on the question (3 choices per free player)."""
    s = state.sitting
    if s is None or s.step != VOTE or s.motion is None:
        return
    players = list(state.playing)

    def walk(index: int, yea: list[str], nay: list[str]) -> Iterator[Event]:
        if index == len(players):
            yield Event.make("vote", None, yea=list(yea), nay=list(nay))
            return
        player = players[index]
        bound = s.motion.must(player) if s.motion is not None else None
        for choice in (bound,) if bound else ("yea", "nay", "abstain"):
            yield from walk(index + 1, yea + [player] if choice == "yea" else yea,
                            nay + [player] if choice == "nay" else nay)

    yield from walk(0, [], [])


def ballot_count(state: State) -> int:
    s = state.sitting
    if s is None or s.step != VOTE or s.motion is None:
        return 0
    free = sum(1 for p in state.playing if s.motion.must(p) is None)
    return int(3 ** free)


def decided_proposal(state: State, question: Question, passed: bool) -> State:
    """Passed: the card goes; failed, it moves on to the next round (R-38)."""
    s = state.sitting
    assert s is not None
    state = seat(state, evolve(s, selected=s.selected[1:]))
    if passed:
        state = give(state, question.card, question.noble, f"round {s.round}, voted")
    else:
        s = state.sitting
        assert s is not None
        state = seat(state, evolve(s, refused=s.refused + (f"{question.card} to "
                                                            f"{question.noble}",)))
    return propose_next(state)


# --------------------------------------------------------------------------------------------
# Other business (7.4): illegitimacy, transfers of titles and offices


def attending_here(state: State, noble: str) -> bool:
    """An attending noble still at Parliament (in or near its place)."""
    s = state.sitting
    assert s is not None
    return noble in present(state) and rules.place_of(state.nobles[noble].at) == s.place


def illegitimacy_problem(state: State, player: str, king: str) -> IllegalMove | None:
    """7.4, R-40: two crowned Kings, neither Beaufort; the motion is moved by the attending
    noble who controls the other King, once per King per Parliament."""
    s = state.sitting
    assert s is not None
    kings = rules.kings(state)
    if len(kings) != 2:
        return refuse("an illegitimacy motion needs two crowned Kings (7.4)", "two-kings",
                      "§7.4")
    if rules.BEAUFORT in kings:
        return refuse("no illegitimacy motion while Beaufort is one of the Kings (7.4)",
                      "beaufort-king", "§7.4")
    if king not in kings:
        return refuse(f"{king} is not a crowned King: the Kings are {' and '.join(kings)}",
                      "not-a-king", "§7.4")
    other = next(k for k in kings if k != king)
    mover = rules.controller(state, other)
    if mover is None:
        return refuse(f"King {other} is uncontrolled: no noble may move the motion (7.4)",
                      "no-mover", "§7.4")
    if rules.controller(state, king) == mover:
        return refuse(f"{mover} controls both Kings: the motion is against an enemy King (7.4)",
                      "both-kings", "§7.4")
    if state.owner(mover) != player:
        return refuse(f"the motion is moved by {mover}, King {other}'s controller (--as "
                      f"{state.owner(mover)})", "not-yours", "§7.4")
    if not attending_here(state, mover):
        return refuse(f"{mover} does not attend Parliament: the motion is moved by an attending "
                      "noble (7.4)", "not-attending", "§7.4")
    if king in s.motions:
        return refuse(f"an illegitimacy motion against {king} was moved at this Parliament "
                      "already (R-40)", "moved-already", "R-40")
    return None


class Illegitimate(Base):
    name = "illegitimate"
    doc = "an attending noble who controls one King moves that the other is illegitimate (7.4)"
    fields = {"king": "str"}
    field_docs = {"king": "the King the motion strikes"}
    actor = "any"
    phases = frozenset({SESSION_PHASES[BUSINESS]})
    form = Form(heir("king", "KING"),
                note="by the player whose attending noble controls the other King; some votes are "
                "bound (R-40, R-54)")

    def effect(self, state: State, event: Event) -> State:
        s = sitting(state, BUSINESS)
        king = known_heir(state, event["king"])
        problem = illegitimacy_problem(state, str(event.by), king)
        if problem is not None:
            raise problem
        other = next(k for k in rules.kings(state) if k != king)
        mover = str(rules.controller(state, other))
        motion = Motion.put(f"King {king} is illegitimate", weights(state), HOUSES,
                            forced=bound_votes(state, king))
        state = rules.chronicle(state, f"{mover} moves that King {king} is illegitimate")
        return seat(state, evolve(s, step=VOTE, question=Question("illegitimate", king, mover),
                                   motion=motion, motions=s.motions + (king,)))

    def moves(self, state: State) -> Iterator[Event]:
        for king in rules.kings(state):
            for player in state.playing:
                if illegitimacy_problem(state, player, king) is None:
                    yield self.make(player, king=king)


def decided_illegitimacy(state: State, question: Question, passed: bool) -> State:
    """Passed: the King is uncrowned and last in his house's line (above Beaufort). Failed: the
    mover hands his King to another attending noble of his choice, his titles and offices go to
    the Chancery, and he dies if the other King is at Parliament (7.4, R-76)."""
    king, mover = question.card, question.noble
    s = state.sitting
    assert s is not None
    if passed:
        note = f"King {king} is declared illegitimate"
        if king in state.heirs and state.heirs[king].alive:
            house = rules.house_of(state, king)
            heirs = dict(state.heirs)
            heirs[king] = evolve(heirs[king], crowned=False)
            lines = dict(state.lines)
            lines[house] = tuple(h for h in lines[house] if h != king) + (king,)
            state = evolve(state, heirs=heirs, lines=lines)
        state = seat(state, evolve(s, business=s.business + (note,)))
        return rules.chronicle(state, f"{note}: he is uncrowned and last in his line")
    note = f"{mover}'s motion against King {king} fails"
    if mover not in state.nobles:
        return seat(state, evolve(s, business=s.business + (note,)))
    at = state.nobles[mover].at
    own_king = next((k for k in rules.kings(state) if k != king and
                     rules.controller(state, k) == mover), None)
    if own_king is not None and own_king in state.heirs:
        heirs = dict(state.heirs)
        heirs[own_king] = evolve(heirs[own_king], by=None, at=at)
        state = evolve(state, heirs=heirs)
        others = tuple(n for n in present(state) if n != mover)
        if others:
            state = rules.add_duty(state, Duty("heir", state.owner(mover), own_king, others,
                                               at))
        else:
            state = rules.chronicle(state, f"King {own_king} stays uncontrolled: no other noble "
                                           "attends (R-76)")
    stripped = [c for c in state.cards_of(mover) if state.kind(c) in ("title", "office")]
    state = evolve(state, cards=moved_cards(state.cards, dict.fromkeys(stripped, CHANCERY)))
    state = rules.chronicle(state, f"{mover} hands over his King and loses "
                                   f"{', '.join(stripped) or 'no title or office'} (7.4)")
    there = rules.place_of(rules.position(state, rules.heir_location(state, king)))
    if king in state.heirs and state.heirs[king].alive and there == s.place:
        state = rules.noble_dies(state, mover, f"his motion against King {king} failed, the "
                                               "King being at Parliament (7.4)")
        note += f"; {mover} dies"
    after = state.sitting
    assert after is not None
    return seat(state, evolve(after, business=after.business + (note,)))


def parliament_transfer(state: State, event: Event, kind: str) -> State:
    """7.4, R-41, R-79: a title between consenting attending nobles, to an untitled one, with a
    passing vote (the giver holds no office); an office to a titled one without an office, with
    the caller's approval. Printed titles never move."""
    s = state.sitting
    if s is None or s.step != BUSINESS:
        raise refuse(f"{event['item']} passes only between attending nobles, as other business "
                     "of a Parliament in session (7.4)", "parliament-only", "§7.4")
    card, giver, taker = event["item"], event["from"], event["to"]
    for noble in (giver, taker):
        if not attending_here(state, noble):
            raise refuse(f"{noble} does not attend Parliament (7.4)", "not-attending", "§7.4")
    if state.owner(giver) != state.owner(taker) and not event.get("agreed"):
        raise refuse(f"a transfer to {state.owner(taker)}'s noble records the deal (`agreed`)",
                     "not-agreed", "§7.4")
    if kind == "title":
        if rules.titled(state, taker):
            raise refuse(f"{taker} is titled already (7.4)", "titled", "§7.4")
        if rules.office_of(state, giver):
            raise refuse(f"{giver} holds {rules.office_of(state, giver)}: a noble with an office "
                         "keeps his title (R-41)", "giver-has-office", "R-41")
        motion = Motion.put(f"{card} from {giver} to {taker}", weights(state), HOUSES)
        return seat(state, evolve(s, step=VOTE, motion=motion,
                                   question=Question("transfer", card, taker, giver)))
    if not rules.titled(state, taker):
        raise refuse(f"{taker} is untitled: an office goes to a titled noble (7.4)", "untitled",
                     "§7.4")
    if rules.office_of(state, taker):
        raise refuse(f"{taker} holds {rules.office_of(state, taker)} (7.4)", "has-office",
                     "§7.4")
    if not event.get("approved") and event.by != s.caller:
        raise refuse(f"an office passes with the approval of {s.caller}, who called Parliament "
                     "(`approved`, R-79)", "not-approved", "R-79")
    state = move_card(state, card, taker)
    note = f"{card} passes from {giver} to {taker}"
    return rules.chronicle(seat(state, evolve(s, business=s.business + (note,))),
                           note + " (7.4)")


def move_card(state: State, card: str, noble: str) -> State:
    return evolve(state, cards=moved_cards(state.cards, {card: f"noble:{noble}"}))


def decided_transfer(state: State, question: Question, passed: bool) -> State:
    s = state.sitting
    assert s is not None
    if not passed:
        return seat(state, evolve(s, business=s.business + (
            f"{question.card} stays with {question.giver}",)))
    if rules.holder(state, question.card) == question.giver and \
            question.noble in state.nobles and not rules.titled(state, question.noble):
        state = move_card(state, question.card, question.noble)
    return seat(state, evolve(s, business=s.business + (
        f"{question.card} passes from {question.giver} to {question.noble}",)))


def transfer_moves(state: State) -> Iterator[Event]:
    """Title and office transfers between attending nobles of one faction (others need a deal)."""
    s = state.sitting
    if s is None or s.step != BUSINESS:
        return
    here = [n for n in present(state) if attending_here(state, n)]
    for giver in here:
        for card in state.cards_of(giver):
            kind = state.kind(card)
            if kind not in ("title", "office"):
                continue
            for taker in here:
                if taker == giver or state.owner(taker) != state.owner(giver):
                    continue
                if kind == "title" and not rules.titled(state, taker) and \
                        not rules.office_of(state, giver):
                    yield Event.make("transfer", state.owner(giver), item=card,
                                     **{"from": giver, "to": taker})
                if kind == "office" and rules.titled(state, taker) and \
                        not rules.office_of(state, taker):
                    yield Event.make("transfer", state.owner(giver), item=card, approved=True,
                                     **{"from": giver, "to": taker})

