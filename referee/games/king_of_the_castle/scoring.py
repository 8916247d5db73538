"""King of the Castle's scores: what every post is worth now (public throughout), what each player's
squires make once they are opened, and the scoresheet with a table of every post to check."""

from __future__ import annotations

from collections import Counter

from referee.evolve import evolve
from referee.games.king_of_the_castle.components import (
    BONUS,
    CASTLES,
    GREAT_CASTLE,
    KING,
    POINTS,
    POST_TITLES,
    POSTS,
    RANKS,
    castle_of,
    rank_of,
)
from referee.games.king_of_the_castle.notation import squire
from referee.games.king_of_the_castle.rules import resumes
from referee.games.king_of_the_castle.state import HAND, State
from referee.scoresheet import Row, Scoresheet, Section, ordinal, places, stopped

CATEGORIES = ("King", "Lords", "Seneschals", "Masters at Arms")
TIEBREAKS = ("equal totals share the place (R-8)",)
POSITION_HEADERS = ("Post", "Squire", "Points", "Bonus", "Total")
VALUES = ("King 12 +2 per castle of level 6 or more; Lord 6 +3 for the largest castle; Seneschal "
          "4 +2 for the most prestigious; Master at Arms 2 +1 for the best defended (R-7, R-16).")


def kind(post_id: int) -> str:
    return "King" if post_id == KING else RANKS[rank_of(post_id)]


def bonus(state: State, post_id: int) -> tuple[int, str]:
    """The bonus of a post as things stand, and why."""
    if post_id == KING:
        great = sum(state.level(c) >= GREAT_CASTLE for c in range(CASTLES))
        return BONUS["King"] * great, f"{great} castle(s) of level {GREAT_CASTLE}+" if great \
            else ""
    castle, rank = castle_of(post_id), rank_of(post_id)
    best = (state.largest, state.best(1), state.best(2))[rank]
    why = ("largest castle", "most prestigious", "best defended")[rank]
    return (BONUS[RANKS[rank]], why) if best == castle else (0, "")


def post_points(state: State, post_id: int) -> int:
    """What the man in a post scores now; an empty post scores nothing (R-15)."""
    if state.men[post_id] is None:
        return 0
    return POINTS[kind(post_id)] + bonus(state, post_id)[0]


def squire_points(state: State, letter: str) -> int:
    found = state.post_of(letter)
    return 0 if found is None else post_points(state, found)


def counted(state: State, letters: tuple[str, ...]) -> tuple[str, ...]:
    """The letters that score: with `hand`, a letter held twice scores once unless the table
    chose `duplicate_letters = each` (R-20); a squire backed is scored once per player."""
    if state.squires == HAND and state.duplicates == "each":
        return letters
    return tuple(sorted(set(letters)))


def by_category(state: State, letters: tuple[str, ...]) -> tuple[int, ...]:
    points = Counter[str]()
    for letter in counted(state, letters):
        found = state.post_of(letter)
        if found is not None:
            points[kind(found)] += post_points(state, found)
    return tuple(points[k] for k in ("King", "Lord", "Seneschal", "Master at Arms"))


def totals(state: State) -> dict[str, int]:
    """Every player's total, once they have opened their squires."""
    return {name: sum(by_category(state, letters))
            for name, letters in zip(state.names, state.opened) if letters is not None}


def round_number(state: State) -> int:
    return max(1, (state.turns - 1) // len(state.names) + 1)


def outcome(state: State) -> str:
    if state.over:
        scores = totals(state)
        best = max(scores.values())
        winners = [n for n, t in scores.items() if t == best]
        who = ", ".join(winners[:-1]) + " and " + winners[-1] if len(winners) > 1 \
            else winners[0]
        if state.stopped is not None:  # no winner: the game did not reach its end
            verb = "share the lead" if len(winners) > 1 else "leads"
            return (f"{who} {verb} with {best} points after {round_number(state)} round(s), "
                    f"when the table stopped the game ({state.stopped}): incomplete (R-27)")
        verb = "share first place" if len(winners) > 1 else "wins"
        return (f"{who} {verb} with {best} points after {round_number(state)} "
                "round(s): the personality deck ran out (R-15)")
    if state.scoring and state.stopped is not None:
        return f"The table stopped the game ({state.stopped}): the squires are being opened"
    if state.scoring:
        return "The last round is over: the squires are being opened"
    if state.revealed < POSTS:
        return "Setting up"
    ending = "; the personality deck is empty: this is the last round" if state.ending else ""
    return f"Round {round_number(state)}, {state.player} to play{ending}"


def unopened(state: State, name: str) -> str:
    """What a player's row says of squires not opened yet."""
    if state.squires == HAND:
        return "letters at the end"
    return "sealed" if state.seals[state.seat(name)] else "not sealed yet"


def _row(state: State, name: str, letters: tuple[str, ...] | None,
         ranked: dict[str, int]) -> Row:
    if letters is None:
        hidden = unopened(state, name)
        return Row(name, None, tuple((c, None) for c in CATEGORIES), None,
                   details=(("Squires", hidden),), result=hidden)
    points = by_category(state, letters)
    place = ranked[name]
    shared = list(ranked.values()).count(place) > 1
    result = ("shared " if shared else "") + ordinal(place)
    if state.over and state.stopped is None and place == 1 and not shared:
        result = "winner"
    return Row(name, None, tuple(zip(CATEGORIES, points)), sum(points), place,
               details=(("Squires", backed(state, letters)),), result=result)


def positions(state: State) -> Section:
    """Every post at the end with its man and points (who backs him: `backed`)."""
    backers = {letter for letters in state.opened for letter in counted(state, letters or ())}
    rows = []
    for post_id in range(POSTS):
        man = state.men[post_id]
        extra, why = bonus(state, post_id) if man else (0, "")
        rows.append((POST_TITLES[post_id], squire(state, man),
                     str(POINTS[kind(post_id)]) if man else "0",
                     f"+{extra} ({why})" if extra else "",
                     str(post_points(state, post_id))))
    unposted = sorted(backers - {m for m in state.men if m})
    if unposted:  # who backs them is in the players' table: one line keeps the page to one
        rows.append(("no post", " ".join(squire(state, letter) for letter in unposted), "0",
                     "", "0"))
    return Section("Posts at the end", POSITION_HEADERS, tuple(rows))


def backed(state: State, letters: tuple[str, ...]) -> str:
    """A player's squires once opened, each with his points (his post's total in the table of
    posts): `A:2 K:4 S:0`."""
    return " ".join(f"{squire(state, letter)}:{squire_points(state, letter)}"
                      for letter in counted(state, letters)) or "-"


CASTLE_HEADERS = ("Castle", "Domain", "Prestige", "Defence", "Level", "Bonus")


def castle_marks(state: State) -> dict[int, list[str]]:
    """Which castle is largest, most prestigious, best defended (R-7, R-16)."""
    marks: dict[int, list[str]] = {state.largest: ["largest"]}
    for attribute, label in ((1, "most prestigious"), (2, "best defended")):
        best = state.best(attribute)
        if best is not None:
            marks.setdefault(best, []).append(label)
    return marks


def castles(state: State) -> Section:
    marks = castle_marks(state)
    rows = tuple((f"Castle {c + 1}", *(str(state.top(3 * c + a)) for a in range(3)),
                  str(state.level(c)), ", ".join(marks.get(c, [])))
                 for c in range(CASTLES))
    return Section("Castles", CASTLE_HEADERS, rows)


def score(state: State) -> Scoresheet:
    scores = totals(state)
    ranked = places(scores)
    rows = tuple(_row(state, name, letters, ranked)
                 for name, letters in zip(state.names, state.opened))
    winners = tuple(n for n, p in ranked.items() if p == 1) if state.over else ()
    return Scoresheet(game="king-of-the-castle", title="King of the Castle",
                      finished=state.over, outcome=outcome(state), winners=winners, rows=rows,
                      tiebreaks=TIEBREAKS, notes=(VALUES,),
                      breakdown=(positions(state), castles(state)))


def scoresheet(state: State) -> Scoresheet:
    """`score`, and from the table's stop on the sheet as it stood, incomplete (the core's
    `stopped`), while the squires are still opened too (R-27): a row not opened keeps saying
    so (a seal has no standing "so far"), and the outcome says what is still awaited."""
    sheet = score(state)
    if state.stopped is None:
        return sheet
    sheet = stopped(sheet, state.stopped, resumes(state, "the game"))
    rows = tuple(row if row.name is None or row.total is not None
                 else evolve(row, result=unopened(state, row.name)) for row in sheet.rows)
    waiting = [n for n, letters in zip(state.names, state.opened) if letters is None]
    if state.turns == 0:
        awaited = "; nobody scores: it stopped before the first turn (R-27)"
    elif waiting:
        how = "enter their letters" if state.squires == HAND else "open their seal"
        awaited = f"; waiting for {', '.join(waiting)} to {how} (R-27)"
    else:
        awaited = ""
    return evolve(sheet, rows=rows, outcome=sheet.outcome + awaited)


def blank(players: int) -> Scoresheet:
    rows = tuple(Row(None, None, tuple((c, None) for c in CATEGORIES), None,
                     details=(("Squires", ""),)) for _ in range(players))
    table = tuple((title, "", "", "", "") for title in POST_TITLES)
    levels = tuple((f"Castle {c + 1}", "", "", "", "", "") for c in range(CASTLES))
    return Scoresheet(game="king-of-the-castle", title="King of the Castle - scoresheet",
                      finished=False, outcome="", winners=(), rows=rows, tiebreaks=TIEBREAKS,
                      notes=(VALUES,), blank=True,
                      sections=(Section("Positions", POSITION_HEADERS, table),
                                Section("Castles", CASTLE_HEADERS, levels)))

