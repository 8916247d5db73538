"""The King's Ear's scoresheet: one row per House, its four nets, the best net, places by R-8."""

from __future__ import annotations

from typing import Any, Mapping

from referee.games.kings_ear.components import (
    PROFESSIONS,
    card_house,
    card_profession,
    card_value,
)
from referee.games.kings_ear.state import State
from referee.scoresheet import Round, Row, Scoresheet, Section, ordinal, places, tie_notes

TIEBREAKS = ("a House at 10 wins outright", "highest best net (R-8)",
             "highest sum of the four nets (R-8)", "shared place")
NOTES = ("Net = own cards minus other Houses' cards in a section; the ladder shows max(0, net) "
         "(R-4).",)
CARDS_TITLE = "Cards under each House"
CARDS_KEY = ("Cards under each House: its own marked * (locked in place), another House's "
             "with that House's initial; = the net.")


def score(state: State) -> Scoresheet:
    ranked = ranking(state)
    rows = []
    for house in row_order(state):
        nets = state.nets(house)
        name = state.owner(house)
        place = ranked.get(name) if name else None
        rows.append(Row(
            name=name, seat=state.houses[house],
            categories=tuple(zip(PROFESSIONS, nets)),
            total=max(nets), place=place,
            details=(("Ladder", " ".join(f"{p[0]}{max(0, n)}"
                                         for p, n in zip(PROFESSIONS, nets))),),
            result=_result(state, name, place, ranked),
        ))
    # Only a House at 10 wins (Winning); a game that ends otherwise has no winner,
    # and R-8 only ranks the players: the places stay, `winners` is empty.
    winners = (state.names[state.winner],) if state.winner is not None else ()
    return Scoresheet(game="kings-ear", title="The King's Ear", finished=state.finished,
                      outcome=outcome(state), winners=winners, rows=tuple(rows),
                      seat_label="House", total_label="Best net", tiebreaks=TIEBREAKS,
                      notes=(CARDS_KEY, *NOTES), tie_notes=tie_lines(state) if state.finished else (),
                      breakdown=(cards_under(state),), rounds=rounds(state),
                      round_table=False,
                      chart_label="Best net", chart_unit="best net")


def rounds(state: State) -> tuple[Round, ...]:
    """Each player's best net after each round of turns (the last one cut short by the end of
    the game or the table's stop), as points gained per round: they draw the chart of running
    totals, who led when. Nothing scores per round: the game is a race to 10 on one section."""
    standings = list(state.rounds)
    # a round begun since the last full one (the first seat's win, or its pass that ends the
    # game by R-6, begins one too)
    if state.turn or state.finished:
        standings.append(state.best_nets())
    out, before = [], (0,) * len(state.names)
    for number, now in enumerate(standings, start=1):
        out.append(Round(f"Round {number}", tuple(
            (name, after - earlier) for name, after, earlier in zip(state.names, now, before))))
        before = now
    return tuple(out)


def cards_under(state: State) -> Section:
    """Every section of every House: the cards under it and its net, to add up by hand."""
    rows = []
    for house in row_order(state):
        cells = []
        for profession in range(len(PROFESSIONS)):
            cards = sorted((c for c in state.under(house) if card_profession(c) == profession),
                           key=lambda c: (card_house(c) != house, card_house(c), -card_value(c)))
            terms = [f"{card_value(c)}*" if card_house(c) == house
                     else f"-{state.houses[card_house(c)][0]}{card_value(c)}" for c in cards]
            cells.append(" ".join(terms + [f"= {state.net(house, profession)}"]))
        rows.append((state.houses[house], *cells))
    return Section(CARDS_TITLE, ("House", *PROFESSIONS), tuple(rows))


def tie_lines(state: State) -> tuple[str, ...]:
    """R-8 at work: the players level on best net, and what their sums of nets did."""
    keys = {name: (max(state.nets(house)), sum(state.nets(house)))
            for index, (name, house) in enumerate(zip(state.names, state.seats))
            if index != state.winner}
    return tie_notes(keys, ("best net", "the sum of the four nets"))


def blank(houses: list[str]) -> Scoresheet:
    rows = tuple(Row(None, h, tuple((p, None) for p in PROFESSIONS), None,
                     details=(("Ladder", ""),)) for h in houses)
    return Scoresheet(game="kings-ear", title="The King's Ear - scoresheet", finished=False,
                      outcome="", winners=(), rows=rows, seat_label="House",
                      total_label="Best net", tiebreaks=TIEBREAKS, notes=NOTES, blank=True)


def row_order(state: State) -> list[int]:
    seated = list(state.seats)
    return seated + [h for h in range(4) if h not in seated]


def ranking(state: State) -> dict[str, int]:
    """Places of the seated players: the winner first, then R-8 (best net, sum of nets)."""
    keys: Mapping[str, Any] = {
        name: (state.winner is not None and state.names[state.winner] == name,
               max(state.nets(house)), sum(state.nets(house)))
        for name, house in zip(state.names, state.seats)}
    return places(keys)


def _result(state: State, name: str | None, place: int | None, ranked: dict[str, int]) -> str:
    if name is None or place is None:
        return "unclaimed"
    shared = list(ranked.values()).count(place) > 1
    if not state.finished:
        return ("shared " if shared else "") + ordinal(place) + " so far"
    if state.winner is not None and state.names[state.winner] == name:
        return "winner"
    if place == 1 and not shared:
        return "1st"
    return ("shared " if shared else "") + ordinal(place)


def outcome(state: State) -> str:
    if state.winner is not None:
        name = state.names[state.winner]
        house = state.houses[state.seats[state.winner]]
        return f"{name} ({house}) reached 10 and won the King's ear"
    if state.ended:
        return f"Game over, {state.ended}; ranked by R-8"
    return f"In progress: {state.pile_size} card(s) in the pile, {state.player} to act"
