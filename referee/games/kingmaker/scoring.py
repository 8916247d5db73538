"""Kingmaker's scoresheet (rules page §11): the victory and its winners, one row per faction with
its votes (R-51), nobles, troops, heirs, Kings and fortresses; a table of the factions (each
noble with his cards, where the Commons and Lords come from); what happened, turn by turn
(battles and sieges with their dead, deaths, Parliaments, crownings); and why the game ended as
it did (R-50's tests in order)."""

from __future__ import annotations

import re

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
                      notes=NOTES + _part_notes(state), breakdown=(factions(state),),
                      sections=(happened(state),),
                      explanation=tuple(explain_result(state)))


def _part_notes(state: State) -> tuple[str, ...]:
    """The note on the Chancellor's 20, when a faction has them (R-57)."""
    if rules.sole_king(state) is None and rules.king_holder(state) is not None:
        return (CHANCELLOR_NOTE,)
    return ()


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


# Said below the sheet when a part's name alone would not say why it counts
CHANCELLOR_NOTE = ("Chancellor 20: with no sole King the King's 20 Commons go to the faction "
                   "of the Chancellor of England (R-57).")


def _sum(parts: dict[str, int]) -> str:
    """`nobles 12 + fortress values 3 = 15`: the parts that count, and their sum (nothing but
    the figures that add up: a player checks it by hand)."""
    shown = [f"{what} {n}" for what, n in parts.items() if n]
    return " + ".join(shown) + f" = {sum(parts.values())}" if shown else "0"


def vote_parts(state: State) -> dict[str, tuple[dict[str, int], dict[str, int]]]:
    """`rules.tally` with every noble attending, item by item: Commons of the nobles, their
    titles and offices, the fortresses held, the King's (or the Chancellor's) and the senior
    heirs'; Lords of the nobles, their bishoprics and the senior heirs'."""
    out = {p: ({"nobles": 0, "titles": 0, "fortress values": 0, "King": 0, "Chancellor": 0,
                "heirs": 0},
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
        out[state.owner(noble)][0]["fortress values"] += rules.place_commons(state, place)
    king = rules.king_holder(state)
    if king is not None:  # a sole King's 20, or with none the Chancellor's faction's
        part = "King" if rules.sole_king(state) is not None else "Chancellor"
        out[king][0][part] += int(state.box.votes("king_commons"))
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
    clock = (f"; {played:.0f} minutes on the game clock (R-49: from the first chance phase, "
             "pauses left out)" if played is not None else "")
    return outcome(state) + clock


# What the story tells, read off the chronicle (the Parliaments come from state.parliaments)
COMBAT = re.compile(r"^(battle at|siege of) (.+): (\w+), attacked by (.+)$")
WEATHER = re.compile(r"^(bad weather cancels the battle) at (.+)$")
RESULTS = {"major": "a major victory", "minor": "a minor victory", "none": "no victory",
           "taken": "the fortress taken"}
TOLD = (" dies (", " is crowned at ", " lays siege to ", "the siege of ", " is ransomed",
        " is lost (")
TOLD_BY_PARLIAMENT = " dies (his motion against "  # its business says so


def happened(state: State) -> Section:
    """What happened, turn by turn (§11): battles and sieges with their dead, sieges broken,
    noble and heir deaths, ransoms, Parliaments and crownings."""
    rows = [(str(turn), text) for turn, text in story(state)]
    return Section("What happened", ("Turn", "Event"), tuple(rows) or (("-", "nothing yet"),),
                   own_page=True)


def story(state: State) -> list[tuple[int, str]]:
    """The chronicle's lines worth a printed sheet, in order; a combat's deaths and the siege
    it broke are told with the combat (they come before its line in the chronicle). A battle's
    location is told in words ("outside Raglan"), not in the notation the chronicle keeps."""
    from referee.games.kingmaker.texts import location_said

    out: list[tuple[int, str]] = []
    pending: list[str] = []  # what the combat still to be told did
    for turn, text in state.chronicle:
        fought, cancelled = COMBAT.match(text), WEATHER.match(text)
        if fought:
            kind, where, result, who = fought.groups()
            told = f"{who} attacks {location_said(where)}" if kind == "battle at" else \
                f"{who} assaults {where}"
            out.append((turn, f"{told}: {RESULTS.get(result, result)}"
                        + "".join(f"; {line}" for line in pending)))
            pending = []
        elif cancelled:
            out.append((turn, f"{cancelled.group(1)} {location_said(cancelled.group(2))}"))
        elif any(cause in text for cause in (" dies (battle at ", " dies (siege of ",
                                             " (a victory over the besiegers)")):
            pending.append(text.split(" (")[0])
        elif any(word in text for word in TOLD) and TOLD_BY_PARLIAMENT not in text:
            out.append((turn, text))
    out += [(p.turn, parliament_line(state, p)) for p in state.parliaments]
    return sorted(out, key=lambda item: item[0])


def parliament_line(state: State, p: Parliament) -> str:
    """A Parliament held (§11): caller, place, the cards assigned (with the votes lost before,
    if any), the proposals refused, other business."""
    if p.people:
        who = f"the People's Parliament, led by {p.caller}"
    elif p.chancellor:
        who = f"{p.caller}'s Parliament (the Chancellor, {p.by})"
    else:
        who = f"{p.caller}'s Parliament (King {p.by})"
    lost = {item: p.refused.count(item) for item in p.refused}
    assigned = [item + (f" (after {_votes_against(lost[item])})" if item in lost else "")
                for item in p.assigned]
    refused = [item + (f" ({n} times)" if n > 1 else "") for item, n in lost.items()
               if item not in p.assigned]
    parts = [f"{who} at {p.place}", "assigned " + (", ".join(assigned) or "nothing")]
    if refused:
        parts.append("voted down " + ", ".join(refused))
    return "; ".join(parts + list(p.business))


def _votes_against(count: int) -> str:
    return "1 vote against" if count == 1 else f"{count} votes against"


def blank(players: int) -> Scoresheet:
    rows = tuple(Row(None, None, tuple((c, None) for c in CATEGORIES), None)
                 for _ in range(players))
    return Scoresheet(game="kingmaker", title="Kingmaker - scoresheet", finished=False,
                      outcome="", winners=(), rows=rows, seat_label="", total_label="Commons",
                      tiebreaks=TIEBREAKS, notes=NOTES + (
                          "Victory: ______________  Winners: ______________  Minutes: ____",
                          "What happened, by turn (battles, sieges, deaths, Parliaments, "
                          "coronations):"), blank=True)


# --------------------------------------------------------------------------------------------
# The result explained in the game's terms (§10, R-50, R-51)


def explain_result(state: State) -> list[str]:
    """Why the game ended as it did: the King and the dead heirs of a Complete and Utter
    Victory; each faction's votes and each R-50 test of a time victory; who stopped a game and
    how it stood. Empty while the game goes on."""
    end = state.ended
    if end is None:
        return []
    if end.kind == "complete":
        return _complete_lines(state)
    if end.kind == "time":
        return _vote_lines(state) + _r50_lines(state, end.victory, end.winners)
    return [f"The table ended the game in turn {state.turn}, {state.active}'s turn "
            f"(`end {end.kind}`): no winner (§10). The standing then:"] + _vote_lines(state)


def _complete_lines(state: State) -> list[str]:
    living = rules.living_heirs(state)
    king = living[0] if living else "?"
    noble = rules.controller(state, king) or "nobody"
    player = rules.heir_player(state, king) or "nobody"
    dead = sorted(h for h, s in state.heirs.items() if not s.alive)
    return [f"King {king}, crowned, is the only heir alive, held by {noble} of {player}'s "
            "faction: Complete and Utter Victory (§10).",
            "Heirs dead: " + (", ".join(dead) or "none") + "."]


def _votes(state: State) -> tuple[dict[str, int], dict[str, int]]:
    votes = rules.tally(state)
    commons = {p: votes[p][0] for p in state.names if p in state.playing}
    lords = {p: votes[p][1] for p in state.names if p in state.playing}
    return commons, lords


def _share(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "0%"


def _vote_lines(state: State) -> list[str]:
    """Each faction's Commons and Lords, counted with every living noble attending (R-51), in
    one line: seven factions' lines would push a printed sheet onto a second page."""
    commons, lords = _votes(state)
    all_c, all_l = sum(commons.values()), sum(lords.values())
    return [f"Commons of {all_c} and Lords of {all_l} (R-51): " + "; ".join(
        f"{p} {commons[p]} ({_share(commons[p], all_c)}) and {lords[p]} "
        f"({_share(lords[p], all_l)})" for p in commons) + "."]


def _r50_lines(state: State, victory: str, winners: tuple[str, ...]) -> list[str]:
    """The tests of R-50 in their order, each passed or failed, and why the winners won."""
    commons, lords = _votes(state)
    lines = [_royal_test(state)]  # each test in R-50's order, until one is passed
    if victory != "Major Royal Victory":
        lines += _parliamentary_tests(state, commons, lords)
    if victory not in ("Major Royal Victory", "Major Parliamentary Victory"):
        lines.append(_alternate_test(commons, lords))
    if victory == "Minor Split Victory":
        most_c, most_l = max(commons.values()), max(lords.values())
        total = sum(commons.values())
        by_c = [p for p in commons if commons[p] == most_c]
        by_l = [p for p in lords if lords[p] == most_l]
        lines.append(f"Minor Split Victory: the most Commons, {most_c} "
                     f"({_share(most_c, total)}): {', '.join(by_c)}; the most Lords, {most_l}: "
                     f"{', '.join(by_l)}; each shares the win, whatever the other house.")
    lines.append(f"So {victory}: {', '.join(winners) or 'nobody'} (R-50).")
    return lines


def _royal_test(state: State) -> str:
    living = rules.living_heirs(state)
    head = "Major Royal Victory (one faction holds the only living heir, uncrowned): "
    if len(living) != 1:
        return head + f"failed, {len(living)} heirs live."
    heir, player = living[0], rules.heir_player(state, living[0])
    if rules.is_crowned(state, heir):
        return head + f"failed, {heir} is crowned."
    if player is None:
        return head + f"failed, nobody holds {heir}."
    return head + f"passed by {player}, who holds {heir}."


def _parliamentary_tests(state: State, commons: dict[str, int],
                         lords: dict[str, int]) -> list[str]:
    head = "Major Parliamentary Victory (a crowned King, half the Commons, the most Lords): "
    total = sum(commons.values())
    out = []
    for king in rules.kings(state):
        player = rules.heir_player(state, king)
        if player is None or player not in commons:
            out.append(head + f"King {king} is held by no faction.")
            continue
        half = 2 * commons[player] >= total
        most = all(lords[player] > lords[p] for p in lords if p != player)
        verdict = "passed" if half and most else "failed"
        out.append(head + f"{verdict} by {player} with King {king}: Commons "
                   f"{_share(commons[player], total)} ({'at least' if half else 'under'} half), "
                   f"Lords {lords[player]} ({'strictly the most' if most else 'not the most'}).")
    return out or [head + "failed, no faction holds a crowned King."]


def _alternate_test(commons: dict[str, int], lords: dict[str, int]) -> str:
    head = "Alternate Minor Victory (strictly the most votes in both houses): "
    for player in commons:
        others = [p for p in commons if p != player]
        if all(commons[player] > commons[p] and lords[player] > lords[p] for p in others):
            return head + f"passed by {player}."
    best_c = [p for p in commons if commons[p] == max(commons.values())]
    best_l = [p for p in lords if lords[p] == max(lords.values())]
    return head + (f"failed: the most Commons {', '.join(best_c)}, the most Lords "
                   f"{', '.join(best_l)}.")
