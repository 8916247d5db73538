"""King of the Valley's scoresheet: influence, kingdom tokens, Knight Orders, couples and gold."""

from __future__ import annotations

from referee.games.king_of_the_valley.components import (
    COLUMNS,
    COUPLE_POINTS,
    INFLUENCE,
    KINGDOM_POINTS,
    ORDER_BONUS,
)
from referee.games.king_of_the_valley.state import Castle, State, influence
from referee.scoresheet import Round, Row, Scoresheet, Section, ordinal, places, tie_notes

# Every column is points: the kingdom tokens' 5 each, the Knight Orders' bonuses, the
# couples' 2 each, one per gold.
CATEGORIES = ("Influence", "Kingdom points", "Order points", "Couple points", "Gold")
TIEBREAKS = ("highest influence", "shared place")
NOTES = (
    "Influence: queen 5, duke 4, countess 3, knight 2, farmer 1, wife 1, jester 0 (R-10); "
    "kingdom tokens 5 each; Knight Orders 3/5/8 for 3/4/5 knights of one Order; couples 2 per "
    "farmer + wife; gold 1 each.",
)


def points(state: State, castle: Castle) -> tuple[int, ...]:
    tiles = castle.tiles()
    orders = sum(ORDER_BONUS.get(tiles.count(f"knight-{o}"), 0) for o in state.orders)
    couples = min(tiles.count("farmer"), tiles.count("wife"))
    return (influence(castle), KINGDOM_POINTS * castle.kingdoms, orders,
            COUPLE_POINTS * couples, castle.gold)


def score(state: State) -> Scoresheet:
    keys, rows = {}, []
    for name, castle in zip(state.names, state.castles):
        scored = points(state, castle)
        keys[name] = (sum(scored), scored[0])
    ranked = places(keys)
    for name, castle in zip(state.names, state.castles):
        scored = points(state, castle)
        rows.append(Row(name=name, seat=None, categories=tuple(zip(CATEGORIES, scored)),
                        total=sum(scored), place=ranked[name],
                        result=_result(state, ranked, name)))
    finished = state.phase == "over"
    winners = tuple(n for n in state.names if ranked[n] == 1) if finished else ()
    return Scoresheet(game="king-of-the-valley", title="King of the Valley", finished=finished,
                      outcome=outcome(state, winners), winners=winners, rows=tuple(rows),
                      tiebreaks=TIEBREAKS,
                      notes=(CASTLE_KEY, *NOTES) if state.castles else NOTES,
                      tie_notes=tie_notes(keys, ("total", "influence")) if finished else (),
                      rounds=rounds(state), round_table=False,
                      breakdown=(castle_table(state),) if state.castles else ())


CASTLE_HEADERS = (*(f"{c.capitalize()} {INFLUENCE[c]}" for c in COLUMNS), "Influence",
                  "Orders")
CASTLE_KEY = ("Castles at the end: the subjects in each column, each worth the influence its "
              "header shows (knights by Order; +J: a Jester standing in, worth 0); the Orders "
              "of 3 or more knights, = their points. Couples: the fewer of farmers and wives.")


def castle_table(state: State) -> Section:
    """Each castle's columns at the end and what each category made of them."""
    rows = []
    for name, castle in zip(state.names, state.castles):
        scored = points(state, castle)
        tiles = castle.tiles()
        orders = [f"{o}{tiles.count(f'knight-{o}')}" for o in state.orders
                  if tiles.count(f"knight-{o}") in ORDER_BONUS]
        rows.append((name, *(_column(castle, c) for c in COLUMNS), str(scored[0]),
                     " ".join(orders + [f"= {scored[2]}"]) if orders else "0"))
    return Section("Castles at the end", ("Player", *CASTLE_HEADERS), tuple(rows))


def _column(castle: Castle, column: str) -> str:
    """How many subjects: `3`, `A2 B1` (knights by Order), `2+J` (a Jester standing in)."""
    tiles = [tile for tile, _ in castle.column(column)]
    jesters = tiles.count("jester")
    subjects = [t for t in tiles if t != "jester"]
    if column == "knight":
        orders = sorted({t.split("-", 1)[1] for t in subjects})
        shown = " ".join(f"{o}{subjects.count(f'knight-{o}')}" for o in orders) or "0"
    else:
        shown = str(len(subjects))
    return shown + (f"+{jesters}J" if jesters > 1 else "+J" if jesters else "")


def rounds(state: State) -> tuple[Round, ...]:
    """What each castle would have scored as each round ended, as points gained per round:
    they draw the chart of running totals (the game itself scores only at its end)."""
    out, before = [], [0] * len(state.names)
    for number, castles in enumerate(state.round_castles, start=1):
        now = [sum(points(state, castle)) for castle in castles]
        out.append(Round(f"Round {number}", tuple(
            (name, after - earlier) for name, after, earlier in zip(state.names, now, before))))
        before = now
    return tuple(out)


def blank(players: int) -> Scoresheet:
    rows = tuple(Row(None, None, tuple((c, None) for c in CATEGORIES), None)
                 for _ in range(players))
    return Scoresheet(game="king-of-the-valley", title="King of the Valley - scoresheet",
                      finished=False, outcome="", winners=(), rows=rows, tiebreaks=TIEBREAKS,
                      notes=NOTES, blank=True)


def _result(state: State, ranked: dict[str, int], name: str) -> str:
    place = ranked[name]
    shared = list(ranked.values()).count(place) > 1
    text = ("shared " if shared else "") + ordinal(place)
    if state.phase != "over":
        return text + " so far"
    return "winner" if place == 1 and not shared else text


def outcome(state: State, winners: tuple[str, ...] | None = None) -> str:
    if state.phase == "over":
        if winners is None:
            winners = tuple(n for n, p in places(
                {n: (sum(points(state, c)), points(state, c)[0])
                 for n, c in zip(state.names, state.castles)}).items() if p == 1)
        who = " and ".join(winners)
        crown = "share the crown" if len(winners) > 1 else "is the King of the Valley"
        return (f"Game over after {state.round - 1} rounds (the hill could not be refilled in "
                f"full): {who} {crown}")
    if state.setting_up:
        return "Setting up"
    last = " (the last: the hill could not be refilled in full)" if state.end_triggered else ""
    return f"In progress: round {state.round}{last}, {state.player} to act"
