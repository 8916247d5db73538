"""Kingmaker's scoresheet (rules page §11): the victory and its winners, one row per faction with
its votes (R-51), nobles, troops, heirs, Kings and fortresses; below it the Parliaments,
coronations and heir deaths by turn."""

from __future__ import annotations

from referee.games.kingmaker import rules
from referee.games.kingmaker.state import Parliament, State
from referee.scoresheet import Row, Scoresheet, Section, ordinal, places

CATEGORIES = ("Commons share %", "Lords", "Nobles", "Troops", "Heirs", "Kings", "Fortresses")
TIEBREAKS = ("the victory of §10 and R-50 decides the winners",
             "others by most Commons, then most Lords (R-51 counts)", "shared place")
NOTES = ("Commons and Lords are counted as at Parliament with every living noble attending "
         "(R-51); troops are strengths without regional bonuses or French Foot-soldiers.",)


def score(state: State) -> Scoresheet:
    votes = rules.tally(state)
    total = sum(c for c, _ in votes.values()) or 1
    winners = state.ended.winners if state.ended is not None else ()
    keys = {p: (p in winners, votes[p][0], votes[p][1]) for p in state.names}
    ranked = places(keys)
    rows = []
    for player in state.names:
        commons, lords = votes[player]
        nobles = state.faction(player)
        heirs = rules.heirs_held(state, player)
        rows.append(Row(
            name=player, seat=None,
            categories=(("Commons share %", round(100 * commons / total)), ("Lords", lords),
                        ("Nobles", len(nobles)),
                        ("Troops", sum(rules.strength(state, n, bonuses=False)
                                       for n in nobles)),
                        ("Heirs", len(heirs)),
                        ("Kings", sum(1 for h in heirs if rules.is_crowned(state, h))),
                        ("Fortresses", sum(1 for n in state.control.values()
                                           if state.owner(n) == player))),
            total=commons, place=ranked[player],
            result=_result(state, player, ranked, winners)))
    return Scoresheet(game="kingmaker", title="Kingmaker", finished=state.ended is not None,
                      outcome=_outcome(state), winners=tuple(winners), rows=tuple(rows),
                      seat_label="", total_label="Commons", tiebreaks=TIEBREAKS,
                      notes=NOTES + record(state), breakdown=(factions(state),))


FACTION_HEADERS = ("Player", "Nobles (titles, offices, bishoprics)", "Commons", "Lords")


def factions(state: State) -> Section:
    """The end-of-game table of factions: each noble with his cards, and where the Commons and
    Lords of the players' table come from (R-51, every living noble attending)."""
    parts = vote_parts(state)
    rows = []
    for player in state.names:
        nobles = []
        for noble in state.faction(player):
            held = [c for c in state.cards_of(noble)
                    if state.entry(c).kind in ("title", "office", "bishop")]
            nobles.append(noble + (f" ({', '.join(held)})" if held else ""))
        commons, lords = parts[player]
        rows.append((player, "; ".join(nobles) or "-", _sum(commons), _sum(lords)))
    return Section("Factions at the end", FACTION_HEADERS, tuple(rows))


def _sum(parts: dict[str, int]) -> str:
    """`nobles 12 + fortresses 3 = 15`: the parts that count, and their sum."""
    shown = [f"{what} {n}" for what, n in parts.items() if n]
    return " + ".join(shown) + f" = {sum(parts.values())}" if shown else "0"


def vote_parts(state: State) -> dict[str, tuple[dict[str, int], dict[str, int]]]:
    """`rules.tally` with every noble attending, item by item: Commons of the nobles, their
    titles and offices, the fortresses held, the King's and the senior heirs'; Lords of the
    nobles, their bishoprics and the senior heirs'."""
    out = {p: ({"nobles": 0, "titles": 0, "fortresses": 0, "King": 0, "heirs": 0},
               {"nobles": 0, "bishoprics": 0, "heirs": 0}) for p in state.names}
    for noble, info in state.nobles.items():
        commons, lords = out[info.owner]
        commons["nobles"] += state.entry(noble).number("commons")
        lords["nobles"] += state.entry(noble).number("lords")
        for card in state.cards_of(noble):
            entry = state.entry(card)
            if entry.kind in ("title", "office"):
                commons["titles"] += entry.number("commons")
            elif entry.kind == "bishop":
                lords["bishoprics"] += entry.number("lords")
    for place, noble in state.control.items():
        out[state.owner(noble)][0]["fortresses"] += rules.place_commons(state, place)
    king = rules.king_holder(state)
    if king is not None:
        out[king][0]["King"] += int(state.box.votes("king_commons"))
    for house in ("lancaster", "york"):
        first = rules.first_in_line(state, house)
        who = rules.heir_player(state, first) if first else None
        if who is not None:
            out[who][0]["heirs"] += int(state.box.votes("senior_heir_commons"))
            out[who][1]["heirs"] += int(state.box.votes("senior_heir_lords"))
    return out


def _result(state: State, player: str, ranked: dict[str, int], winners: tuple[str, ...]) -> str:
    if player in winners:
        return "winner" if len(winners) == 1 else "co-winner"
    place = ranked[player]
    shared = list(ranked.values()).count(place) > 1
    text = ("shared " if shared else "") + ordinal(place)
    return text if state.ended is not None else text + " so far"


def _outcome(state: State) -> str:
    from referee.games.kingmaker.texts import outcome

    played = state.clock.minutes
    clock = f"; {played:.0f} minutes played" if played is not None else ""
    return outcome(state) + clock


def record(state: State) -> tuple[str, ...]:
    """Parliaments, coronations and heir deaths by turn (§11)."""
    heirs = set(state.heirs) | {rules.BEAUFORT}
    out = [(p.turn, parliament_line(state, p)) for p in state.parliaments]
    for turn, text in state.chronicle:
        if " is crowned at " in text or any(text.startswith(h + " dies") for h in heirs):
            out.append((turn, f"Turn {turn}: {text}"))
    return tuple(text for _, text in sorted(out, key=lambda item: item[0]))


def parliament_line(state: State, p: Parliament) -> str:
    """A Parliament held (§11): turn, caller, the cards assigned and refused, other business."""
    if p.people:
        who = f"the People's Parliament, led by {p.caller}"
    elif p.chancellor:
        who = f"{p.caller}'s Parliament (the Chancellor, {p.by})"
    else:
        who = f"{p.caller}'s Parliament (King {p.by})"
    parts = [f"Turn {p.turn}: {who} at {p.place}",
             "assigned " + (", ".join(p.assigned) or "nothing")]
    if p.refused:
        parts.append("refused " + ", ".join(p.refused))
    return "; ".join(parts + list(p.business))


def blank(players: int) -> Scoresheet:
    rows = tuple(Row(None, None, tuple((c, None) for c in CATEGORIES), None)
                 for _ in range(players))
    return Scoresheet(game="kingmaker", title="Kingmaker - scoresheet", finished=False,
                      outcome="", winners=(), rows=rows, seat_label="", total_label="Commons",
                      tiebreaks=TIEBREAKS, notes=NOTES + (
                          "Victory: ______________  Winners: ______________  Minutes: ____",
                          "Coronations, heir deaths and Parliaments by turn:"), blank=True)
