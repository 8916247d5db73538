"""The Dwarf King's scoring: each quest kind as one function, each special card's points by its
kind, the points of a hand, and the scoresheet with a chart of the running totals.

A quest function receives the `Outcome` of the hand (the cards and tricks each seat won) and
returns the points of every seat, so that rules comparing players ("the highest total", "the first
to win a third trick") are written once. Magic cards have no suit and no value when a hand is
scored (R-2): they match no selector and count 0.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable

from referee.games.dwarf_king.components import (
    CARDS,
    FACES,
    RANKS,
    SPECIAL_CARD,
    QuestSide,
    Special,
    hand_size,
    number_value,
    tiles,
)
from referee.games.dwarf_king.state import Deal, HandResult, State, Trick
from referee.scoresheet import Round, Row, Scoresheet, Section, and_list, places, tie_notes
from referee.values import value

HANDS = 7
TIEBREAK = "a tie for first place after seven hands is broken by extra hands"


@value
class Outcome:
    """What a hand left on the table: the cards each seat won, and the winner of each trick."""

    won: tuple[tuple[str, ...], ...]  # per seat, in seat order
    winners: tuple[int, ...]  # seat that won trick 1, 2, ...

    @property
    def seats(self) -> range:
        return range(len(self.won))

    def tricks(self, seat: int) -> int:
        return sum(1 for w in self.winners if w == seat)


# --------------------------------------------------------------------------------------------
# Selecting cards: "suit:Knights", "rank:K", "face", "card:DQ"


def _matches(code: str, selector: str) -> bool:
    card = CARDS[code]
    what, _, value = selector.partition(":")
    if what == "suit":
        return card.suit == value
    if what == "rank":
        return card.rank == value
    if what == "face":
        return card.is_face
    return code == value  # "card:DQ"


def _suited(cards: tuple[str, ...]) -> list[str]:
    return [c for c in cards if CARDS[c].suit is not None]


def _longest(flags: list[bool]) -> int:
    best = run = 0
    for flag in flags:
        run = run + 1 if flag else 0
        best = max(best, run)
    return best


# --------------------------------------------------------------------------------------------
# The kinds of rule; each returns the points of every seat


def per_card(o: Outcome, terms: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    """Points per won card matching each selector (a card matching two selectors scores both)."""
    return tuple(sum(points for code in o.won[s] for selector, points in terms
                     if _matches(code, selector)) for s in o.seats)


def exact_tricks(o: Outcome, count: int, points: int) -> tuple[int, ...]:
    return tuple(points if o.tricks(s) == count else 0 for s in o.seats)


def per_trick(o: Outcome, points: int, last: int = 0) -> tuple[int, ...]:
    """Points per trick won; with `last`, only the last `last` tricks of the hand count."""
    counted = o.winners[-last:] if last else o.winners
    return tuple(points * sum(1 for w in counted if w == s) for s in o.seats)


def trick_parity(o: Outcome, odd: bool, points: int) -> tuple[int, ...]:
    """Zero tricks is neither even nor odd (rules page)."""
    return tuple(points if o.tricks(s) and (o.tricks(s) % 2 == 1) == odd else 0 for s in o.seats)


def shared_count(o: Outcome, shared: bool, points: int) -> tuple[int, ...]:
    """R-10: 'as many tricks as you' means exactly the same number."""
    counts = [o.tricks(s) for s in o.seats]
    return tuple(points if (counts.count(counts[s]) > 1) == shared else 0 for s in o.seats)


def neighbour_tricks(o: Outcome, step: int, points: int) -> tuple[int, ...]:
    """R-7: the right-hand neighbour is the previous seat (step -1), the left-hand the next (+1)."""
    n = len(o.won)
    return tuple(points * o.tricks((s + step) % n) for s in o.seats)


def triplets(o: Outcome, points: int, face_points: int) -> tuple[int, ...]:
    """R-11: a triplet of faces scores `face_points` instead of `points`."""
    out = []
    for s in o.seats:
        counts = Counter(CARDS[c].rank for c in _suited(o.won[s]))
        out.append(sum((face_points if rank in FACES else points) * (n // 3)
                       for rank, n in counts.items()))
    return tuple(out)


def longest_rank_run(o: Outcome, points: int, minimum: int) -> tuple[int, ...]:
    """R-12: the run counts one card per rank (ranks 1..A in order, any suits)."""
    out = []
    for s in o.seats:
        held = {CARDS[c].rank for c in _suited(o.won[s])}
        run = _longest([rank in held for rank in RANKS])
        out.append(points * run if run >= minimum else 0)
    return tuple(out)


def suit_count(o: Outcome, most: bool) -> tuple[int, ...]:
    """R-5: only suits of which the player won a card count; no suited card scores 0."""
    out = []
    for s in o.seats:
        counts = Counter(CARDS[c].suit for c in _suited(o.won[s]))
        out.append((max if most else min)(counts.values()) if counts else 0)
    return tuple(out)


def lowest_number(o: Outcome, sign: int, all_faces_bonus: int, suit: str = "") -> tuple[int, ...]:
    """The value of the lowest non-face card won (of `suit` if given), times `sign`; a player who
    won faces but no other suited card scores `all_faces_bonus` instead (R-14)."""
    out = []
    for s in o.seats:
        cards = [c for c in _suited(o.won[s]) if not suit or CARDS[c].suit == suit]
        numbers = [number_value(CARDS[c].rank) for c in cards if not CARDS[c].is_face]
        if numbers:
            out.append(sign * min(numbers))
        else:
            out.append(all_faces_bonus if cards else 0)
    return tuple(out)


def trick_streak(o: Outcome, points: int) -> tuple[int, ...]:
    """Points per trick in the longest streak of consecutive tricks won."""
    return tuple(points * _longest([w == s for w in o.winners]) for s in o.seats)


def streak_bonus(o: Outcome, won: bool, length: int, points: int) -> tuple[int, ...]:
    """`points` for a streak of at least `length` consecutive tricks won (or not won)."""
    return tuple(points if _longest([(w == s) == won for w in o.winners]) >= length else 0
                 for s in o.seats)


def highest_number_total(o: Outcome, points: int) -> tuple[int, ...]:
    """Add the values 1-11 of the cards won (faces 0); `points` to the highest total (R-6: all
    tied players)."""
    totals = [sum(number_value(CARDS[c].rank) for c in o.won[s]) for s in o.seats]
    best = max(totals)
    return tuple(points if t == best else 0 for t in totals)


def race_to_tricks(o: Outcome, target: int, first: int, step: int) -> tuple[int, ...]:
    """`first` points to the first player to win a `target`-th trick, `first + step` to the
    second, and so on; players who never get there score 0."""
    seen: Counter[int] = Counter()
    order: list[int] = []
    for w in o.winners:
        seen[w] += 1
        if seen[w] == target:
            order.append(w)
    points = [0] * len(o.won)
    for place, seat in enumerate(order):
        points[seat] = first + step * place
    return tuple(points)


def neighbour_compare(o: Outcome, more_than_previous: bool, points: int) -> tuple[int, ...]:
    """R-13: two conditions, each worth `points` on its own (so 0, 1 or 2 times `points`):
    fewer (In line) or more (Sandwich) tricks than the previous player; more than the next."""
    n = len(o.won)
    out = []
    for s in o.seats:
        mine, prev, nxt = o.tricks(s), o.tricks((s - 1) % n), o.tricks((s + 1) % n)
        versus_prev = mine > prev if more_than_previous else mine < prev
        out.append(points * versus_prev + points * (mine > nxt))
    return tuple(out)


KINDS: dict[str, Callable[..., tuple[int, ...]]] = {
    "per-card": per_card,
    "exact-tricks": exact_tricks,
    "per-trick": per_trick,
    "trick-parity": trick_parity,
    "shared-count": shared_count,
    "neighbour-tricks": neighbour_tricks,
    "triplets": triplets,
    "longest-rank-run": longest_rank_run,
    "suit-count": suit_count,
    "lowest-number": lowest_number,
    "trick-streak": trick_streak,
    "streak-bonus": streak_bonus,
    "highest-number-total": highest_number_total,
    "race-to-tricks": race_to_tricks,
    "neighbour-compare": neighbour_compare,
}


def quest_score(side: QuestSide, outcome: Outcome) -> tuple[int, ...]:
    """The points every seat scores for a quest side."""
    return KINDS[side.kind](outcome, **dict(side.params))


# --------------------------------------------------------------------------------------------
# A hand's points


def outcome(deal: Deal, players: int) -> Outcome:
    won: list[list[str]] = [[] for _ in range(players)]
    for trick in deal.tricks:
        won[trick.winner].extend(trick.cards)
    return Outcome(tuple(tuple(w) for w in won), tuple(t.winner for t in deal.tricks))


# The special cards' points, one function per kind (`Special.scoring`). Each gets the trick the
# card ended in, who played it, whether that trick was the last, and the points to change.
def _winner_scores(deal: Deal, trick: Trick, player: int, last: bool, special: Special,
                   points: list[int]) -> None:
    points[trick.winner] += special.points


def _next_trick_winner_scores(deal: Deal, trick: Trick, player: int, last: bool,
                              special: Special, points: list[int]) -> None:
    if trick.number < len(deal.tricks):  # no effect in the last trick (nor before the next)
        points[deal.tricks[trick.number].winner] += special.points


def _player_scores_in_last_trick(deal: Deal, trick: Trick, player: int, last: bool,
                                 special: Special, points: list[int]) -> None:
    if last:
        points[player] += special.points


def _winner_doubles(deal: Deal, trick: Trick, player: int, last: bool, special: Special,
                    points: list[int]) -> None:
    points[trick.winner] *= 2  # gains and losses alike


def _player_scores_per_face(deal: Deal, trick: Trick, player: int, last: bool,
                            special: Special, points: list[int]) -> None:
    points[player] += special.points * sum(1 for c in trick.cards if CARDS[c].is_face)


SpecialScoring = Callable[[Deal, Trick, int, bool, Special, list[int]], None]
SPECIAL_SCORING: dict[str, SpecialScoring] = {
    "winner": _winner_scores,
    "next-trick-winner": _next_trick_winner_scores,
    "last-trick-player": _player_scores_in_last_trick,
    "double-winner": _winner_doubles,
    "player-per-face": _player_scores_per_face,
}


def special_points(deal: Deal, points: list[int]) -> list[int]:
    """The special card's effect on the hand's points, applied after the quest."""
    assert deal.special is not None
    special = SPECIAL_CARD[deal.special]
    trick = next((t for t in deal.tricks if deal.special in t.cards), None)
    if special.scoring and trick is not None:
        last = trick.number == hand_size(len(points))
        player = trick.player_of(deal.special)
        assert player is not None
        SPECIAL_SCORING[special.scoring](deal, trick, player, last, special, points)
    return points


def hand_points(deal: Deal, players: int, edition: int) -> tuple[int, ...]:
    assert deal.quest is not None
    quest = tiles(edition)[deal.quest]
    points = list(quest_score(quest, outcome(deal, players)))
    return tuple(special_points(deal, points))


# --------------------------------------------------------------------------------------------
# Scoresheet


def outcome_line(state: State) -> str:
    totals = state.totals
    hands = len(state.results)
    if state.over:
        best = max(totals)
        winner = state.names[totals.index(best)]
        extra = f" ({hands - HANDS} extra hand(s) broke a tie)" if hands > HANDS else ""
        return f"{winner} wins with {best} points after {hands} hands{extra}"
    if not hands:
        return "hand 1 in progress"
    best = max(totals)
    leaders = [n for n, t in zip(state.names, totals) if t == best]
    return (f"after {hands} hand(s): {' and '.join(leaders)} lead(s) with {best}; hand "
            f"{state.deal.number} in progress")


def _columns(count: int) -> list[str]:
    return [f"Hand {n}" for n in range(1, max(HANDS, count) + 1)]


def score(state: State) -> Scoresheet:
    totals = state.totals
    ranked = places(dict(zip(state.names, totals)))
    columns = _columns(len(state.results))
    rows = []
    for seat, name in enumerate(state.names):
        points = [r.points[seat] for r in state.results]
        cells = tuple((col, points[i] if i < len(points) else None)
                      for i, col in enumerate(columns))
        won = state.over and ranked[name] == 1
        rows.append(Row(name, None, cells, totals[seat], ranked[name],
                        result="winner" if won else ""))
    rounds = tuple(_round(state, r) for r in state.results)
    winners = tuple(n for n in state.names if ranked[n] == 1) if state.over else ()
    return Scoresheet(game="dwarf-king", title="The Dwarf King", finished=state.over,
                      outcome=outcome_line(state), winners=winners, rows=tuple(rows),
                      tiebreaks=(TIEBREAK,), rounds=rounds, round_label="Hand",
                      tie_notes=tie_lines(state) if state.over else (),
                      round_table=not state.results,
                      breakdown=hands(state) + stopped_hand(state),
                      )


def hands(state: State) -> tuple[Section, ...]:
    """Per hand: its quest and special card, and each player's tricks and points (the rounds'
    table, with the tricks)."""
    if not state.results:
        return ()
    rows = []
    for r in state.results:
        quest = tiles(state.edition)[r.quest]
        rows.append((str(r.number), f"{quest.label} {quest.name}", SPECIAL_CARD[r.special].name,
                     *(f"{t}t: {p}" for t, p in zip(r.tricks, r.points))))
    return (Section("Hands: each player's tricks (t) and points",
                    ("Hand", "Quest", "Special card", *state.names),
                    tuple(rows)),)


def stopped_hand(state: State) -> tuple[Section, ...]:
    """A game the table stopped in the middle of a hand: that hand as it stood, its special
    card, quest and tricks, and what each player would score if it ended there ("so far"): only
    what the table has seen (the cards played), never a hand."""
    deal = state.deal
    if state.stopped is None or state.over or deal.special is None:
        return ()
    quest = tiles(state.edition)[deal.quest] if deal.quest is not None else None
    won = [sum(1 for t in deal.tricks if t.winner == s) for s in range(state.players)]
    points = hand_points(deal, state.players, state.edition) if quest and deal.tricks \
        else (0,) * state.players
    so_far = (f"{deal.number} (so far)", f"{quest.label} {quest.name}" if quest
              else "not chosen yet", SPECIAL_CARD[deal.special].name,
              *(f"{t}t: {p}" for t, p in zip(won, points)))
    sections = [Section(f"Hand {deal.number}, stopped before its end: tricks (t) and points "
                        "so far (not in the totals)",
                        ("Hand", "Quest", "Special card", *state.names), (so_far,))]
    played = [(str(t.number), " ".join(f"{state.names[s]}:{c}" for (s, _), c
                                        in zip(t.plays, t.cards)),
               state.names[t.winner]) for t in deal.tricks]  # the Sorcerer where it lies
    if deal.plays:
        played.append((str(deal.trick_number), " ".join(f"{state.names[s]}:{c}"
                                                         for s, c in deal.plays), "(unfinished)"))
    if played:
        sections.append(Section(f"Hand {deal.number} so far: the tricks",
                                ("Trick", "Cards played", "Won by"), tuple(played)))
    return tuple(sections)


def _round(state: State, r: HandResult) -> Round:
    quest = tiles(state.edition)[r.quest]
    special = SPECIAL_CARD[r.special].name
    return Round(f"Hand {r.number}", tuple(zip(state.names, r.points)),
                 f"quest {quest.label} {quest.name}; special {special}; dealer {r.dealer}",
                 details=(("Quest", f"{quest.label} {quest.name}"), ("Special card", special),
                          ("Dealer", r.dealer)))


def tie_lines(state: State) -> tuple[str, ...]:
    """How first place was decided by extra hands, with the points, and the places shared."""
    out = []
    if len(state.results) > HANDS:
        after = [sum(r.points[s] for r in state.results[:HANDS]) for s in range(state.players)]
        best = max(after)
        tied = [s for s in range(state.players) if after[s] == best]
        out.append(f"{and_list([state.names[s] for s in tied])} were tied for first with {best} "
                   f"after seven hands; extra hands decided: "
                   + "; ".join(f"hand {r.number}: " + ", ".join(
                       f"{state.names[s]} {r.points[s]:+d}" for s in tied)
                       for r in state.results[HANDS:]) + ".")
    if state.results:
        out += tie_notes({n: (t,) for n, t in zip(state.names, state.totals)}, ("total",))
    return tuple(out)


def chart(state: State) -> list[str]:
    """The running totals as a small text chart, for the board (`referee status`)."""
    if not state.results:
        return []
    from referee.sheets.text import chart as draw

    return ["", *draw(score(state), 78)]


def blank(players: int, edition: int) -> Scoresheet:
    columns = _columns(HANDS) + ["Extra"]
    rows = tuple(Row(None, None, tuple((c, None) for c in columns), None)
                 for _ in range(players))
    rounds = tuple(Round(label, (), details=(("Quest", ""), ("Special card", ""),
                                             ("Dealer", "")))
                   for label in columns)
    return Scoresheet(game="dwarf-king", title=f"The Dwarf King - scoresheet (edition "
                                          f"{edition})",
                      finished=False, outcome="", winners=(), rows=rows, tiebreaks=(TIEBREAK,),
                      rounds=rounds, round_label="Hand", blank=True)
