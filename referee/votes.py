"""Table votes: each player votes yea or nay, or abstains, with its weight in one or more houses.

A `Motion` is what is put to the vote, with each player's votes per house (a Parliament's Commons
and Lords; a single house of one vote each for a show of hands) and the rule, named by the game,
under which it passes. Ballots are cast one player at a time or all at once; the result is a tally
per house. A game may bind some players' votes (`forced`: a player who must vote yea, or nay):
any other ballot of theirs, an abstention included, is refused.
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

from referee.evolve import evolve
from referee.values import value

CHOICES = ("yea", "nay", "abstain")


@value(slots=True)
class Count:
    house: str
    yea: int
    nay: int
    abstain: int

    @property
    def cast(self) -> int:
        return self.yea + self.nay


def _majority_of_cast(counts: Sequence[Count]) -> bool:
    """More yea than nay in every house; a tie, or no vote cast, fails."""
    return all(c.yea > c.nay for c in counts)


def _majority_of_all(counts: Sequence[Count]) -> bool:
    """More than half of every house's votes, abstentions counted, are yea."""
    return all(2 * c.yea > c.yea + c.nay + c.abstain for c in counts)


def _unanimous(counts: Sequence[Count]) -> bool:
    """Somebody votes yea and nobody votes nay."""
    return all(c.nay == 0 for c in counts) and any(c.yea for c in counts)


PASS_RULES: dict[str, Callable[[Sequence[Count]], bool]] = {
    "majority-of-cast": _majority_of_cast,
    "majority-of-all": _majority_of_all,
    "unanimous": _unanimous,
}


class VoteError(ValueError):
    """A ballot the motion cannot take (a game turns it into its own refusal)."""


@value(slots=True)
class Motion:
    subject: str
    houses: tuple[str, ...]
    weights: tuple[tuple[str, tuple[int, ...]], ...]  # player -> votes in each house
    rule: str = "majority-of-cast"  # a key of PASS_RULES
    ballots: tuple[tuple[str, str], ...] = ()  # player -> yea / nay / abstain, in order cast
    forced: tuple[tuple[str, str], ...] = ()  # player -> the one ballot allowed (yea or nay)

    @classmethod
    def put(cls, subject: str, weights: Mapping[str, Sequence[int]],
            houses: Sequence[str] = ("votes",), rule: str = "majority-of-cast",
            forced: Mapping[str, str] | None = None) -> Motion:
        if rule not in PASS_RULES:
            raise VoteError(f"no pass rule {rule!r}")
        for player, votes in weights.items():
            if len(votes) != len(houses):
                raise VoteError(f"{player} has {len(votes)} weight(s) for {len(houses)} house(s)")
        bound = dict(forced or {})
        for player, choice in bound.items():
            if player not in weights:
                raise VoteError(f"{player} has no vote on {subject} to be bound")
            if choice not in ("yea", "nay"):
                raise VoteError(f"a bound vote is yea or nay, not {choice!r}")
        return cls(subject, tuple(houses), tuple((p, tuple(v)) for p, v in weights.items()), rule,
                   forced=tuple((p, c) for p, c in bound.items()))

    def must(self, player: str) -> str | None:
        """The ballot a player is bound to cast (None: a free vote)."""
        return dict(self.forced).get(player)

    def weight(self, player: str) -> tuple[int, ...]:
        """A player's votes in each house."""
        return dict(self.weights).get(player, (0,) * len(self.houses))

    @property
    def voters(self) -> tuple[str, ...]:
        return tuple(p for p, _ in self.weights)

    @property
    def waiting(self) -> tuple[str, ...]:
        """The players who have not voted yet, in order."""
        done = {p for p, _ in self.ballots}
        return tuple(p for p in self.voters if p not in done)

    def cast(self, player: str, choice: str) -> Motion:
        if choice not in CHOICES:
            raise VoteError(f"a vote is yea, nay or abstain, not {choice!r}")
        if player not in self.voters:
            raise VoteError(f"{player} has no vote on {self.subject}")
        if player not in self.waiting:
            raise VoteError(f"{player} has voted on {self.subject} already")
        bound = self.must(player)
        if bound is not None and choice != bound:
            raise VoteError(f"{player} must vote {bound} on {self.subject}, not "
                            f"{'abstain' if choice == 'abstain' else choice}")
        return evolve(self, ballots=self.ballots + ((player, choice),))

    def cast_all(self, yea: Sequence[str], nay: Sequence[str]) -> Motion:
        """Every ballot at once: the players named vote so, everyone else abstains."""
        both = set(yea) & set(nay)
        if both:
            raise VoteError(f"{', '.join(sorted(both))} cannot vote both yea and nay")
        unknown = (set(yea) | set(nay)) - set(self.voters)
        if unknown:
            raise VoteError(f"{', '.join(sorted(unknown))} has no vote on {self.subject}")
        motion = self
        for player in self.waiting:
            choice = "yea" if player in yea else "nay" if player in nay else "abstain"
            motion = motion.cast(player, choice)
        return motion

    def tally(self) -> tuple[Count, ...]:
        weights = dict(self.weights)
        totals = {c: [0] * len(self.houses) for c in CHOICES}
        for player, choice in self.ballots:
            for index, votes in enumerate(weights[player]):
                totals[choice][index] += votes
        return tuple(Count(house, totals["yea"][i], totals["nay"][i], totals["abstain"][i])
                     for i, house in enumerate(self.houses))

    @property
    def passed(self) -> bool:
        return PASS_RULES[self.rule](self.tally())

    def summary(self) -> str:
        counts = "; ".join(f"{c.house} {c.yea}-{c.nay}" for c in self.tally())
        return f"{self.subject}: {'passed' if self.passed else 'failed'} ({counts})"
