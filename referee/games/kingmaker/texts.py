"""Kingmaker in words: the realm for `status`, what a move changed, the folded `options`.

Nothing hidden is shown: hands by their size only, the Chancery by its size (rules page §12).
"""

from __future__ import annotations

from typing import Any

from referee.engine import Event
from referee.games.kingmaker import rules
from referee.games.kingmaker.notation import split_location
from referee.games.kingmaker.state import (
    ASSIGN,
    BISHOPS,
    BUSINESS,
    CHANCERY,
    DEAL,
    DISCARD,
    EXCUSE,
    LAYOUT,
    PORTS,
    PROPOSE,
    RETURN,
    REVOKE,
    SELECT,
    VOTE,
    Ballot,
    Sitting,
    State,
)


def describe(before: State, event: Event, text: str, after: State) -> list[str]:
    who = f"{event.by}: " if event.by else ""
    lines = [who + text]
    combat = after.combat
    if combat is not None and (before.combat is None or event.type == "attack"):
        kind = "battle" if combat.kind == "battle" else f"siege of {combat.at}"
        lines.append(f"{kind}: {combat.attack} against {combat.defence} ({combat.odds})"
                     + (": an assassin's attack" if combat.assassin else ""))
    if event.type == "weather" and before.combat is not None:
        if after.combat is None or after.combat.stage != "weather":
            card = after.box.get("event", event["card"])
            weather = card.get("weather", "fair") if card else "fair"
            lines.append(f"{weather} weather" + (": no combat" if weather == "bad" else ""))
        else:
            lines.append(f"{event['card']} is kept; the attacker draws again (rule 14)")
    lines += [line for _, line in after.chronicle[len(before.chronicle):]]
    if after.ended is not None and before.ended is None:
        lines.append(outcome(after))
    return lines


def remark(before: State, event: Event, after: State) -> str:
    """A vote's subject, count and result, for `history` (R-38)."""
    if event.type != "vote" or before.sitting is None:
        return ""
    done = len(before.sitting.ballots)
    ballots = after.sitting.ballots if after.sitting is not None else \
        (after.parliaments[-1].ballots if after.parliaments else ())
    if len(ballots) <= done:
        return ""
    ballot = ballots[done]
    return f"{ballot.subject}: {ballot.counts}, {'passed' if ballot.passed else 'failed'}"


def outcome(state: State) -> str:
    end = state.ended
    if end is None:
        turn = rules.to_act(state)
        who = " or ".join(turn.players) or "the table"
        return f"In progress: turn {state.turn}, {state.stage} phase; {who} to act"
    if end.winners:
        return f"{end.victory}: {', '.join(end.winners)} ({end.reason})"
    return f"Game over without a winner: {end.reason}"


# A location as a sheet, read by people, says it (moves and `status` keep the notation)
LOCATION_WORDS = {"in": "in {}", "near": "outside {}", "sq": "at {}", "aboard": "aboard {}",
                  "port": "in port at {}", "sea": "at sea ({})"}


def location_said(location: str) -> str:
    """`near:Raglan` -> "outside Raglan", `in:York` -> "in York", `sq:Bosworth Field` ->
    "at Bosworth Field", `port:P` -> "in port at P", `sea:TEXT` -> "at sea (TEXT)"."""
    prefix, name = split_location(location)
    return LOCATION_WORDS[prefix].format(name)


def render(state: State) -> str:
    if state.stage in (DEAL, LAYOUT):
        return _setup(state)
    lines = [_headline(state), ""]
    votes = rules.tally(state)
    for player in state.names:
        lines += _faction(state, player, votes[player])
    lines += ["", "Heirs (line of succession):"]
    for house in ("lancaster", "york"):
        lines.append(f"  {house.title()}: " + ("; ".join(
            _heir(state, h, i + 1) for i, h in enumerate(rules.line(state, house))) or "none"))
    dead = [h for h, s in state.heirs.items() if not s.alive]
    if dead:
        lines.append(f"  dead: {', '.join(dead)}")
    lines += ["", "Fortresses: " + (", ".join(
        f"{p} ({n}, {state.owner(n)})" for p, n in sorted(state.control.items())) or "none")]
    for place, siege in sorted(state.sieges.items()):
        defence = rules.shown_number(rules.defence(state, place))
        lines.append(f"Siege of {place}: {siege.owner} with {', '.join(siege.nobles)}"
                     + (f" aboard {siege.ship}" if siege.ship else "")
                     + f", turn {siege.turn}, defence {defence}")
    if state.ships:
        lines.append("Ships: " + ", ".join(f"{s} ({v.by}) {v.at}" for s, v in
                                           sorted(state.ships.items())))
    lines.append(_piles(state))
    lines += session_lines(state) + peace_lines(state)
    lines += ["", "Game over: " + outcome(state) if state.ended else rules.to_act(state).line()]
    return "\n".join(lines)


def compact(state: State) -> str:
    """The realm for a shared 80x24 screen: the turn and clock, one line per faction (votes,
    hand size, nobles by strength and place), the heirs, the crown's piles, sieges, the
    Parliament's question, the peace, who acts. Titles and offices are in `status --full`."""
    if state.stage in (DEAL, LAYOUT):
        return _setup(state)
    played = state.clock.minutes
    limit = int(state.options.get("time_limit", 240))
    clock = (f"clock {'paused at ' if state.paused else ''}{played:.0f} of {limit} min"
             if played is not None else f"clock not started ({limit} min)")
    lines = [f"Turn {state.turn}: {state.active}, {state.stage} phase; {clock}"]
    votes = rules.tally(state)
    for player in state.names:
        nobles = _nobles_by_place(state, state.faction(player))
        late = " (later)" if player in state.late else ""
        lines.append(_cut(f"{player}{late} C{votes[player][0]} L{votes[player][1]} hand "
                          f"{state.hand_size(player)}: ", nobles or ["no nobles"]))
    for house in ("lancaster", "york"):
        heirs = [h + (" (King)" if rules.is_crowned(state, h) else "")
                 + (f" ({c})" if (c := rules.controller(state, h)) else "")
                 for h in rules.line(state, house)]
        lines.append(_cut(f"{house.title()}: ", heirs or ["none"]))
    sieges = [f"{p} ({v.owner})" for p, v in sorted(state.sieges.items())]
    lines.append(_piles(state) + (f"; {len(sieges)} siege(s)" if sieges else ""))
    if sieges:
        lines.append(_cut("Sieges: ", sieges))
    sitting = state.sitting
    if sitting is not None:
        lines.append(_cut("", [f"Parliament at {sitting.place}: {STEPS[sitting.step]}"]))
        if sitting.question is not None and sitting.motion is not None:
            lines.append(_cut("  the vote: ", [rules.subject(sitting)]))
    lines += [_cut("", [line]) for line in (session_lines(state)[1:2] if sitting is None
                                            else []) + peace_lines(state) if line]
    lines.append("Game over: " + outcome(state) if state.ended else rules.to_act(state).line())
    return "\n".join(lines)


def _nobles_by_place(state: State, nobles: list[str]) -> list[str]:
    """'Percy 60', 'Bourchier 10 (Cardigan)': each noble's strength, its place once after the
    last noble there."""
    places: dict[str, list[str]] = {}
    for noble in nobles:
        places.setdefault(state.nobles[noble].at.split(":")[-1], []).append(noble)
    return [f"{n} {rules.strength(state, n)}" + (f" ({place})" if n == group[-1] else "")
            for place, group in places.items() for n in group]


def _cut(lead: str, items: list[str], width: int = 80) -> str:
    """`lead` and as many of `items` as fit in `width` columns, then how many are left out."""
    shown = lead + items[0]
    for index, item in enumerate(items[1:], 1):
        more = f" +{len(items) - index - 1} more" if index < len(items) - 1 else ""
        if len(shown) + 2 + len(item) + len(more) > width:
            return shown + f" +{len(items) - index} more"
        shown += ", " + item
    if len(shown) > width:  # one long item: its end goes (`status --full` has it all)
        return shown[:width - 3] + "..."
    return shown


STEPS = {EXCUSE: "excuses", REVOKE: "revocations", PORTS: "ships to port", BISHOPS: "round 1, "
         "bishops", SELECT: "selection", PROPOSE: "proposals", VOTE: "a vote", ASSIGN: "round 3",
         BUSINESS: "other business", RETURN: "the return home"}


def caller_words(sitting: Sitting) -> str:
    if sitting.people:
        return f"the People's Parliament, led by {sitting.caller}"
    if sitting.chancellor:
        return f"called by {sitting.caller} (the Chancellor, {sitting.by})"
    return f"called by {sitting.caller} (King {sitting.by}, with {sitting.noble})"


def tally_words(sitting: Sitting) -> str:
    return ", ".join(f"{p} {c}/{lo}" for p, c, lo in sitting.tally)


def session_lines(state: State) -> list[str]:
    """The Parliament in session (§7): who called it, who stays away, the frozen tally (R-36),
    the round and the question before it; the Chancery by its size only (§12)."""
    s = state.sitting
    if s is None:
        if state.people_due:
            return ["", f"Parliament: {state.active} must hold a People's Parliament now (7.7)"]
        return []
    out = ["", f"Parliament at {s.place}, {caller_words(s)}: {STEPS[s.step]}"]
    if s.summoned:
        out.append(f"  summoned: {s.summoned}")
    if s.excused or s.revoked:
        sea = [n for n in s.excused if n in s.sea]
        out.append(f"  excused: {', '.join(s.excused) or 'nobody'}"
                   + (f" ({', '.join(sea)} at sea, R-35)" if sea else "")
                   + (f"; revoked: {', '.join(s.revoked)}" if s.revoked else ""))
    if s.tally:
        out.append(f"  attending: {', '.join(n for n in s.attending if n in state.nobles)}")
        out.append(f"  tally, frozen (Commons/Lords, R-36): {tally_words(s)}")
    if s.round and s.step in (BISHOPS, SELECT, PROPOSE, VOTE, ASSIGN):
        out.append(f"  round {s.round}, led by {s.leader}; {len(s.pool)} Chancery card(s) in "
                   "play (face down)" + (f"; to propose: {', '.join(s.selected)}"
                                         if s.selected else ""))
    if s.question is not None and s.motion is not None:
        bound = ", ".join(f"{p} {c}" for p, c in s.motion.forced)
        out.append(f"  the vote: {rules.subject(s)}" + (f"; bound (R-54): {bound}"
                                                      if bound else ""))
    for ballot in s.ballots:
        out.append(f"  voted: {ballot.subject}: {ballot.counts}, "
                   f"{'passed' if ballot.passed else 'failed'}")
    if s.assigned:
        out.append(f"  assigned: {', '.join(s.assigned)}")
    for note in s.business:
        out.append(f"  business: {note}")
    return out


def peace_lines(state: State) -> list[str]:
    """The King's Peace while it holds (7.6), or the turns left before another call (R-32)."""
    peace = state.peace
    if peace is not None:
        back = [n for n in peace.returned if n in state.nobles]
        return ["", f"King's Peace (7.6) until just before {peace.caller}'s next chance phase: "
                    f"no combat at {peace.place}; returned, keeping still and not attacked: "
                    f"{', '.join(back) or 'nobody'}"
                + (f"; ships sent home: {', '.join(peace.ships)}" if peace.ships else "")
                + f"; no Parliament is called during it nor in the {rules.lockout_turns(state)} "
                  "turns after (R-32)"]
    if state.peace_over is not None:
        free = state.peace_over + rules.lockout_turns(state)
        if state.turn < free:
            return [f"No Parliament may be called before turn {free} (R-32)"]
    return []

def board(state: State) -> dict[str, Any]:
    """The realm as data, as `status` shows it: the turn and the clock, each faction (hand by its
    size only, nobles with their cards and places), the lines of succession, fortresses,
    sieges, ships and the piles' sizes (the Chancery face down)."""
    played = state.clock.minutes
    votes = rules.tally(state) if state.stage not in (DEAL, LAYOUT) else {}
    factions = []
    for player in state.names:
        commons, lords = votes.get(player, (0, 0))
        factions.append({
            "player": player, "joins_later": player in state.late,
            "dealt": player in state.dealt, "commons": commons, "lords": lords,
            "hand": state.hand_size(player), "held_events": list(state.held.get(player, ())),
            "nobles": [{"noble": noble, "strength": rules.strength(state, noble),
                        "at": state.nobles[noble].at, "printed_title": state.entry(noble).get(
                            "title"), "cards": state.cards_of(noble),
                        "heirs": state.heirs_of(noble)} for noble in state.faction(player)]})
    heirs = {house: [{"heir": h, "rank": i + 1, "king": rules.is_crowned(state, h),
                      "at": rules.heir_location(state, h),
                      "controlled_by": rules.controller(state, h),
                      "must_land_by_turn": state.heirs[h].due if h in state.heirs else None}
                     for i, h in enumerate(rules.line(state, house))]
             for house in ("lancaster", "york")} if state.stage not in (DEAL, LAYOUT) else {}
    return {
        "turn": state.turn, "active": state.active if state.turn else None,
        "stage": state.stage,
        "clock": {"minutes_played": None if played is None else round(played, 1),
                  "limit": int(state.options.get("time_limit", 240)), "paused": state.paused},
        "factions": factions, "heirs": heirs,
        "dead_heirs": [h for h, s in state.heirs.items() if not s.alive],
        "fortresses": {place: noble for place, noble in sorted(state.control.items())},
        "sieges": [{"at": place, "owner": siege.owner, "nobles": list(siege.nobles),
                    "ship": siege.ship, "turn": siege.turn}
                   for place, siege in sorted(state.sieges.items())],
        "ships": {ship: {"by": v.by, "at": v.at} for ship, v in sorted(state.ships.items())},
        "crown_deck": rules.deck_size(state),
        "crown_discard": sum(1 for w in state.cards.values() if w == DISCARD),
        "chancery": sum(1 for w in state.cards.values() if w == CHANCERY),
        "parliaments": [{"turn": p.turn, "caller": p.caller, "people": p.people,
                         "place": p.place, "by": p.by, "chancellor": p.chancellor,
                         "assigned": list(p.assigned), "refused": list(p.refused),
                         "votes": [ballot_data(b) for b in p.ballots],
                         "business": list(p.business)} for p in state.parliaments],
        "parliament": session_data(state),
        "peace": peace_data(state),
        "outcome": outcome(state) if state.ended else None}


def ballot_data(ballot: Ballot) -> dict[str, Any]:
    return {"subject": ballot.subject, "yea": list(ballot.yea), "nay": list(ballot.nay),
            "counts": ballot.counts, "passed": ballot.passed, "round": ballot.round}


def session_data(state: State) -> dict[str, Any] | None:
    """The Parliament in session as data (the Chancery by its size only, §12)."""
    s = state.sitting
    if s is None:
        return {"people_due": True} if state.people_due else None
    motion = s.motion
    return {"caller": s.caller, "by": s.by, "place": s.place, "noble": s.noble,
            "people": s.people, "chancellor": s.chancellor, "summoned": s.summoned or None,
            "step": s.step, "excused": list(s.excused), "excused_at_sea": list(s.sea),
            "revoked": list(s.revoked),
            "attending": [n for n in s.attending if n in state.nobles],
            "tally": [{"player": p, "commons": c, "lords": lo} for p, c, lo in s.tally],
            "round": s.round or None, "leader": s.leader or None, "chancery_cards": len(s.pool),
            "to_propose": list(s.selected),
            "vote": None if motion is None else {
                "on": rules.subject(s), "bound": dict(motion.forced)},
            "votes": [ballot_data(b) for b in s.ballots], "assigned": list(s.assigned),
            "refused": list(s.refused), "business": list(s.business)}


def peace_data(state: State) -> dict[str, Any] | None:
    """The King's Peace while it holds (7.6)."""
    peace = state.peace
    if peace is None:
        return None
    return {"until_before_the_chance_phase_of": peace.caller, "place": peace.place,
            "returned": [n for n in peace.returned if n in state.nobles],
            "ships": list(peace.ships)}



def _headline(state: State) -> str:
    head = f"Turn {state.turn}: {state.active}, {state.stage} phase"
    played = state.clock.minutes
    limit = int(state.options.get("time_limit", 240))
    if played is None:
        return head + f". Clock: not started (no event times yet); limit {limit} minutes"
    left = limit - played
    pause = " (paused)" if state.paused else ""
    return head + f". Clock{pause}: {played:.0f} of {limit} minutes played, " + \
        (f"{left:.0f} left" if left > 0 else "the limit is reached (R-49)")


def _faction(state: State, player: str, votes: tuple[int, int]) -> list[str]:
    held = ", ".join(state.held.get(player, ())) or "none"
    late = " (joins later)" if player in state.late else ""
    lines = [f"{player}{late}: Commons {votes[0]}, Lords {votes[1]}; hand "
             f"{state.hand_size(player)} card(s); held events: {held}"]
    for noble in state.faction(player):
        troops, *parts = rules.strength_parts(state, noble)
        shown = [f"troops {troops[1]}"] + [f"{what} +{adds}" if adds else what
                                           for what, adds in parts]
        heirs = state.heirs_of(noble)
        lines.append(f"  {noble:<12} {rules.strength(state, noble):>4}  "
                     f"{state.nobles[noble].at:<22} = " + ", ".join(shown)
                     + (f"; heirs: {', '.join(heirs)}" if heirs else ""))
    return lines


def _heir(state: State, heir: str, rank: int) -> str:
    king = " (King)" if rules.is_crowned(state, heir) else ""
    noble = rules.controller(state, heir)
    where = rules.heir_location(state, heir)
    who = f"{noble} ({state.owner(noble)})" if noble else "uncontrolled"
    due = state.heirs[heir].due if heir in state.heirs else None
    deadline = f", must land by the end of its controller's own turn {due}" if due else ""
    return f"{rank} {heir}{king} {where}, {who}{deadline}"


def _piles(state: State) -> str:
    deck = rules.deck_size(state)
    discard = sum(1 for w in state.cards.values() if w == DISCARD)
    chancery = sum(1 for w in state.cards.values() if w == CHANCERY)
    return f"Crown deck {deck}, crown discard {discard}, Chancery {chancery} (face down)"


def _setup(state: State) -> str:
    lines = [f"Set-up ({state.stage}): {len(state.box.entries)} components declared"]
    for player in state.names:
        dealt = sum(1 for w in state.cards.values() if w == f"dealt:{player}")
        nobles = state.faction(player)
        lines.append(f"  {player}: " + ("dealt" if player in state.dealt else "to be dealt")
                     + (f", {dealt} card(s) to lay out" if dealt else "")
                     + (f"; nobles: {', '.join(nobles)}" if nobles else ""))
    lines += ["", rules.to_act(state).line()]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# `options`: families folded into the form to type


FOLDED = {"move", "sail", "dealt", "draw", "event", "weather", "give", "transfer", "play",
          "execute", "friendly", "storm", "save", "result"}


def option_lines(state: State, events: list[Event], formatted: list[str]) -> list[str]:
    groups: dict[str, list[str]] = {}
    kinds: dict[str, list[Event]] = {}
    for event, text in zip(events, formatted):
        groups.setdefault(event.type, []).append(text)
        kinds.setdefault(event.type, []).append(event)
    lines = []
    for kind, texts in groups.items():
        if kind == "vote":
            lines.append(vote_line(state))
        elif kind == "parliament" and kinds[kind][0]["action"] == "people":
            lines += people_lines(kinds[kind], texts)
        elif kind in SESSION_FOLDED and len(texts) > 4:
            lines.append(session_folded(state, kind, kinds[kind], texts))
        elif kind not in FOLDED or len(texts) <= 4:
            lines += texts
        else:
            lines.append(_folded(state, kind, texts))
    return lines


SESSION_FOLDED = {"parliament", "bishop", "select", "propose", "assign", "return", "stay",
                  "excuse", "revoke", "port"}


def vote_line(state: State) -> str:
    """What the table votes on, everyone's frozen votes, and who is bound (R-38, R-54)."""
    s = state.sitting
    assert s is not None and s.motion is not None
    bound = [f"{p} must vote {c}" for p, c in s.motion.forced]
    return (f"vote yea PLAYERS nay PLAYERS   (on {rules.subject(s)}; Commons/Lords: "
            f"{tally_words(s)}; it passes with more yea than nay in both houses, a tie fails, "
            "R-38" + (f"; {', '.join(bound)} (R-54)" if bound else "") + ")")


def listed(events: list[Event], field: str) -> str:
    """The values of a field across a family of moves, each once, at most ten named."""
    found = list(dict.fromkeys(str(e[field]) for e in events if e.get(field)))
    return ", ".join(found[:10]) + (f" and {len(found) - 10} more" if len(found) > 10 else "")


def people_lines(events: list[Event], texts: list[str]) -> list[str]:
    """The People's Parliament (7.7): each place one of the drawer's nobles hosts as he stands
    there, then every other place with every noble who may move there first, folded when long
    (every such place goes with every such noble, R-80, R-87)."""
    hosted = [t for e, t in zip(events, texts) if not e.get("moving")]
    moving = [e for e in events if e.get("moving")]
    if len(moving) <= 4:
        return hosted + [t for e, t in zip(events, texts) if e.get("moving")]
    return hosted + [f"parliament people at PLACE moving NOBLE   (PLACE: {listed(moving, 'place')};"
                     f" NOBLE, the nearest by land: {listed(moving, 'noble')}; 7.7, R-80)"]


def session_folded(state: State, kind: str, events: list[Event], texts: list[str]) -> str:
    """Parliament's long families in one line each: what may go to whom."""
    def names(field: str) -> str:
        return listed(events, field)
    if kind == "parliament":
        return f"{texts[0].split(' summon ')[0]} summon NOBLE   (one of: {names('summon')})"
    if kind == "propose":
        return f"propose {events[0]['card']} to NOBLE   (eligible, R-37: {names('to')})"
    if kind in ("bishop", "assign"):
        return f"{kind} CARD to NOBLE   (cards: {names('card')}; nobles: {names('to')})"
    if kind == "select":
        cards = [c for c in events[0]["cards"]]
        return f"select CARDS | select none   (titles first, from: {', '.join(cards)})"
    if kind == "return":
        return f"return NOBLE to HOME   (nobles: {names('noble')}; R-30 homes)"
    return f"{kind} ...   ({len(texts)} moves, e.g. {texts[0]})"


def _folded(state: State, kind: str, texts: list[str]) -> str:
    if kind == "move":
        return "move NOBLES to LOCATION [via PLACES]   " + _move_hint(state)
    if kind == "sail":
        ships = [f"{s} at {v.at}" for s, v in sorted(state.ships.items())
                 if state.owner(v.by) == state.active and s not in state.moved]
        return f"sail SHIP to port:P|sea:TEXT [with NOBLES]   (your ships: {', '.join(ships)};" \
               " a force embarks in port, R-52 lands it)"
    if kind == "dealt":
        return f"dealt CARD, CARD, ...   (the cards you were dealt, R-5; e.g. {texts[0]})"
    if kind == "draw":
        return f"draw CARD | draw hidden   (one of {len(texts) - 1} kinds of card in the " \
               "Crown deck)"
    if kind == "friendly":
        return f"friendly PLACE for {state.active}   (--as the controller: any of " \
               f"{len(texts)} fortresses another player holds may be declared friendly, §8.2)"
    if kind in ("event", "weather"):
        return f"{kind} CARD   (the card drawn: one of {len(texts)} kinds left in the event " \
               "deck)"
    return f"{kind} ...   ({len(texts)} moves, e.g. {texts[0]})"


def _move_hint(state: State) -> str:
    """The forces that may still move, and where they may go inside (R-16, §8.2)."""
    groups: dict[str, list[str]] = {}
    for noble in state.faction(state.active):
        if noble not in state.moved and not rules.under_siege(state, noble):
            groups.setdefault(state.nobles[noble].at, []).append(noble)
    forces = "; ".join(f"{','.join(n)} at {at}" for at, n in groups.items())
    inside = sorted(p for p in state.friendly if not rules.is_unfortified(state, p))
    shown = ", ".join(inside[:8]) + (f" and {len(inside) - 8} more" if len(inside) > 8 else "")
    return (f"(forces: {forces}. Inside (in:P) only where friendly: {shown or 'nowhere'}; "
            "near:P and sq:TEXT anywhere; road moves pass friendly fortresses only)")


def legal_note(state: State, player: str | None = None) -> str:
    if state.time_up:
        return ""  # the end only
    current = rules.duty(state)
    if state.ended is None and (current.kind == "deal" if current is not None else
                                state.stage == DEAL):
        return DEAL_NOTE
    if not state.in_play or state.ended is not None:
        return ""
    note = ("At any time outside active combat any player may also `play CARD to NOBLE`, "
            "`give`, `transfer` and `execute HEIR` (--as NAME).")
    s = state.sitting
    if s is None:
        return note
    if rules.phase(state) == rules.SESSION_PHASES[VOTE] and s.motion is not None:
        who = [player] if player is not None else list(state.playing)
        votes = "; ".join(f"{p} has {s.votes_of(p)[0]} Commons and {s.votes_of(p)[1]} Lords"
                          + (f" and must vote {s.motion.must(p)} (R-54)" if s.motion.must(p)
                             else "") for p in who if p in state.playing)
        return f"The table votes on {rules.subject(s)}: {votes}. " + note
    if s.step in (BISHOPS, SELECT, PROPOSE, ASSIGN) and player != s.leader:
        return (f"The Chancery is face down: its {len(s.pool)} card(s) are listed to "
                f"{s.leader}, who leads round {s.round} (`referee options --for {s.leader}`, "
                "R-81). " + note)
    return note


DEAL_NOTE = ("The cards dealt are typed as they come: `dealt CARD, CARD, ...` (options lists a "
             "deal only from cards whose printed values the log has). A card this log does "
             "not list yet is refused at once; a card missing a value is dealt, and the deal "
             "that starts the lay-out is refused until every card dealt has its values. Each "
             "refusal gives the `declare` lines to fill in from the box; `referee declare` "
             "records them all at once (R-2).")


def inventory(state: State) -> dict[str, int]:
    """Where every crown card, event card and heir is (the conservation tests sum it)."""
    out: dict[str, int] = {}
    hidden = sum(state.hidden.values())
    for where in state.cards.values():
        key = where.split(":")[0]
        out[f"crown: {key}"] = out.get(f"crown: {key}", 0) + 1
    if hidden:
        out["crown: deck"] = out.get("crown: deck", 0) - hidden
        out["crown: hidden in hands"] = hidden
    for entry in state.box.of("event"):
        copies = entry.copies
        if copies is None:
            continue
        gone = state.events_out.get(entry.name, 0)
        held = sum(cards.count(entry.name) for cards in state.held.values())
        out["events: deck"] = out.get("events: deck", 0) + copies - gone
        out["events: held"] = out.get("events: held", 0) + held
        out["events: discard"] = out.get("events: discard", 0) + gone - held
    alive = sum(1 for s in state.heirs.values() if s.alive)
    out["heirs: alive"] = alive
    out["heirs: dead"] = len(state.heirs) - alive
    return out
