"""Resolving a combat (rules 14-17, §6.3): the weather, the result, the deaths, and what follows:
heirs, fortresses, captives and retreats.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Sequence

from referee.engine import Args, Event
from referee.errors import NotationError
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.components import Entry, roll_range
from referee.games.kingmaker.events.base import (
    DECLARES,
    DECLARES_DOC,
    Base,
    available_events,
    check_roll,
    choice,
    draw_event,
    event_card,
    first_home,
    give_heir,
    heir,
    heir_names,
    keep_event,
    location,
    names,
    noble,
    nobles_or_heirs,
    parse_roll,
    place,
    roll_text,
    tool_roll,
)
from referee.games.kingmaker.events.combat import chart_outcome, siege_ship
from referee.games.kingmaker.notation import find, shown
from referee.games.kingmaker.rules import COMBAT_PHASES, DUTY_PHASES, refuse, split
from referee.games.kingmaker.state import DISCARD, Combat, Duty, Siege, State
from referee.games.kingmaker.events.forms import Case, Form, Key, Slot, by_hand


# --------------------------------------------------------------------------------------------
# Resolving a combat: weather, result, deaths, and what follows (rules 14-17, §6.3)


def discard_french(state: State, combat: Combat) -> State:
    """R-28: French Foot-soldiers go to the crown discard after their weather check."""
    if not combat.french:
        return state
    cards = dict(state.cards)
    for noble in rules.french_holders(state, combat.attackers):
        for card in state.cards_of(noble):
            if state.entry(card).flag("attack_only"):
                cards[card] = DISCARD
    return evolve(state, cards=cards)


def participants(state: State, combat: Combat) -> tuple[str, ...]:
    """Who rolls against death: all in the combat; for an assassin, his target and (R-24)
    himself."""
    if combat.assassin:
        saves = state.options.get("assassin_saves", "yes") == "yes"
        return (str(combat.target),) + (combat.attackers if saves else ())
    return combat.attacking + combat.defending + combat.heirs


class Weather(Base):
    name = "weather"
    doc = "the weather check: an event card whose weather alone counts (rule 14)"
    fields = {"card": "str", **DECLARES}
    field_docs = {"card": "the event card drawn", **DECLARES_DOC}
    optional = frozenset({"declares"})
    reveal = True
    phases = frozenset({COMBAT_PHASES["weather"]})
    form = Form(event_card("card"),
                note="a Writ or Free Move is kept and the attacker draws again (rule 14)")

    def effect(self, state: State, event: Event) -> State:
        combat = state.combat
        if combat is None or combat.stage != "weather":
            raise refuse("no combat awaits its weather check", "no-weather", "§6")
        name = event["card"]
        state = draw_event(state, name)
        entry = state.box.get("event", name)
        assert entry is not None
        kind = entry.get("kind")
        if kind in KEPT_IN_WEATHER:  # rule 14: kept, draw again; combat is active
            return evolve(keep_event(state, state.active, name),
                          combat=evolve(combat, drawn=True))
        bad = weather_of(entry) == "bad"
        if kind == "embassy":
            state = rules.rebuild_events(state)
        state = discard_french(state, combat)
        if bad:
            return bad_weather(state, combat)
        if combat.kind == "siege":
            return evolve(state, combat=with_saves(state, evolve(combat, outcome="taken",
                                                                   stage="deaths")))
        if combat.assassin:
            return evolve(state, combat=with_saves(state, evolve(combat, outcome="none",
                                                                   stage="deaths")))
        return evolve(state, combat=evolve(combat, stage="result"))

    def moves(self, state: State) -> Iterator[Event]:
        for name in available_events(state):
            entry = state.box.get("event", name)
            if entry is not None and (entry.get("weather") or
                                      entry.get("kind") in KEPT_IN_WEATHER):
                yield self.make(state.active, card=name)


KEPT_IN_WEATHER = ("writ", "free-move")  # rule 14: their weather is never read


def weather_of(entry: Entry) -> str:
    """A card's printed weather: a value the table enters, asked for when a weather check
    first reads it (R-86, as R-2 asks)."""
    weather = entry.get("weather")
    if weather is None:
        raise refuse(f"the weather of {entry.name} is not known yet: add it to the move "
                     f"(`weather {shown(entry.name)} weather=fair`, or bad) or declare it",
                     "missing-value", "R-86")
    return str(weather)


def bad_weather(state: State, combat: Combat) -> State:
    """Bad weather: a battle is cancelled, forces stay; a siege conclusion fails and the place
    is (siege turn 1) or stays under siege (§6.2)."""
    state = evolve(state, combat=None)
    if combat.kind == "battle":
        return rules.chronicle(state, f"bad weather cancels the battle at {combat.at}")
    place = combat.at
    siege = state.sieges.get(place)
    sieges = dict(state.sieges)
    if siege is None:
        sieges[place] = Siege(state.active, combat.attackers, 1,
                              siege_ship(state, place, combat.attackers))
    else:
        sieges[place] = evolve(siege, nobles=combat.attackers)
    return evolve(state, sieges=sieges)


def with_saves(state: State, combat: Combat) -> Combat:
    """With a death chart, each in the combat rolls in turn; without, the table enters deaths."""
    if not rules.has_chart(state, "death_chart"):
        return combat
    return evolve(combat, saves=participants(state, combat))


def death_range(state: State, combat: Combat, name: str) -> tuple[int, int] | None:
    """The rolls that kill `name`: the outcome's row (a taken siege reads Major Victory) and his
    side's column; an assassin's target reads the loser's, the assassin the winner's (R-61)."""
    chart = state.box.single("death_chart")
    row = {"taken": "major"}.get(combat.outcome, combat.outcome)
    attacking = name in combat.attacking or (name in combat.heirs and
                                             name not in combat.def_heirs)
    won = combat.outcome in ("major", "minor", "taken")
    side = "winner" if attacking == won else "loser"
    if combat.assassin:
        side = "loser" if name == combat.target else "winner"
    text = chart.get(f"{row}_{side}")
    return roll_range(str(text)) if text else None


OUTCOMES = ("major", "minor", "none")


class Result(Base):
    name = "result"
    changes = frozenset({"combat"})
    doc = ("the attacker's result (a major or minor victory, or none), read from the table's "
           "Battle Combat Table (R-23)")
    fields = {"outcome": "str", "roll": "int"}
    field_docs = {"outcome": "major, minor or none", "roll": "the percentile roll (needed when "
                                                             "the log holds a battle_chart)"}
    optional = frozenset({"roll"})
    actor = "table"
    reveal = True
    phases = frozenset({COMBAT_PHASES["result"]})
    form = Form(choice("outcome", OUTCOMES, "result", "result"),
                Slot("roll", "ROLL", by_hand, roll_text,
                     optional=True),
                cases=(Case("the attacker's victory, or none; without a chart in the log"),
                       Case("with a battle_chart: the referee reads it (R-22, R-23)",
                            {"outcome": False, "roll": "ROLL"})))

    def read(self, state: State, args: Args) -> dict[str, Any]:
        # By hand: the outcome and the roll come in any order, and a chart gives the outcome.
        words = [w for w in args.words if w != ","]
        outcome = None
        roll = None
        for word in words:
            if word.isdecimal():
                roll = parse_roll(word, args.text)
            else:
                outcome = find(word, OUTCOMES, "result", args.text)
        combat = state.combat
        if roll is None and state.seed is not None and rules.has_chart(state, "battle_chart"):
            roll = tool_roll(state, "result")
        if outcome is None and roll is not None and combat is not None and \
                rules.has_chart(state, "battle_chart"):
            outcome = chart_outcome(state, combat.attack, combat.defence, roll)
        if outcome is None:
            raise NotationError(f"{args.text!r}: result major, minor or none (or the roll, "
                                "with a chart)", code="no-result")
        return {"outcome": outcome, **({"roll": roll} if roll is not None else {})}

    def effect(self, state: State, event: Event) -> State:
        combat = state.combat
        if combat is None or combat.stage != "result":
            raise refuse("no battle awaits its result", "no-result", "§6.1")
        outcome = event["outcome"]
        if outcome not in ("major", "minor", "none"):
            raise refuse(f"{outcome!r} is not a result (major, minor, none)", "bad-result",
                         "R-23")
        roll = event.get("roll")
        if rules.has_chart(state, "battle_chart"):
            if roll is None:
                raise refuse("the log holds a battle chart: give the roll (R-23)", "no-roll",
                             "R-23")
            read = chart_outcome(state, combat.attack, combat.defence, check_roll(roll))
            if read != outcome:
                raise refuse(f"the chart reads {read} for {roll} at {combat.odds} (R-22)",
                             "chart-says", "R-22")
        elif roll is not None:
            check_roll(roll)
        return evolve(state, combat=with_saves(state, evolve(combat, outcome=outcome,
                                                               stage="deaths")))

    def moves(self, state: State) -> Iterator[Event]:
        combat = state.combat
        assert combat is not None
        if rules.has_chart(state, "battle_chart"):
            for roll in (1, 50, 100):
                yield self.make(None, outcome=chart_outcome(state, combat.attack,
                                                            combat.defence, roll), roll=roll)
            return
        for outcome in ("major", "minor", "none"):
            yield self.make(None, outcome=outcome)


class Deaths(Base):
    name = "deaths"
    doc = "who died in the combat, as the table rolled (without a death chart, R-23)"
    fields = {"names": "str[]"}
    field_docs = {"names": "the nobles and heirs who died (empty: none)"}
    actor = "table"
    reveal = True
    phases = frozenset({COMBAT_PHASES["deaths"]})
    form = Form(names("names", "NAMES", nobles_or_heirs, "noble or heir"), empty=("none",),
                cases=(Case("the nobles and heirs of the combat who died"),
                       Case("nobody died", {"names": False})))

    def effect(self, state: State, event: Event) -> State:
        combat = state.combat
        if combat is None or combat.stage != "deaths" or combat.saves:
            raise refuse("no combat awaits its deaths" if combat is None or
                         combat.stage != "deaths" else "the log holds a death chart: each "
                         "rolls with `save NAME ROLL` (R-23)", "no-deaths", "R-23")
        who = participants(state, combat)
        for name in event["names"]:
            if name not in who:
                raise refuse(f"{name} does not roll against death in this combat: "
                             f"{', '.join(who)}", "not-in-combat", "R-23")
        if len(set(event["names"])) != len(event["names"]):
            raise refuse("a name is given twice", "duplicate-name", "R-23")
        return after_deaths(state, combat, tuple(event["names"]))

    def moves(self, state: State) -> Iterator[Event]:
        combat = state.combat
        assert combat is not None
        if combat.saves:  # with a death chart, each rolls instead
            return
        yield self.make(None, names=[])
        for name in participants(state, combat):
            yield self.make(None, names=[name])


class Save(Base):
    name = "save"
    doc = "one saving roll against death, read from the log's death chart (R-23)"
    fields = {"name": "str", "roll": "int"}
    field_docs = {"name": "the noble or heir rolling", "roll": "the percentile roll"}
    actor = "table"
    reveal = True
    phases = frozenset({COMBAT_PHASES["deaths"]})
    form = Form(Slot("name", "NAME", by_hand),
                Slot("roll", "ROLL", by_hand, roll_text),
                note="each in the combat, in the order the referee asks")

    def read(self, state: State, args: Args) -> dict[str, Any]:
        # By hand: the roll is the last word (or the tool's, in a seeded game), the name the rest.
        words = [w for w in args.words if w != ","]
        roll = parse_roll(words[-1], args.text) if words and words[-1].isdecimal() else None
        names = words[:-1] if roll is not None else words
        if roll is None and state.seed is not None:
            roll = tool_roll(state, "save")
        if roll is None:
            raise NotationError(f"{args.text!r}: save NAME ROLL", code="no-roll")
        return {"name": find(" ".join(names), list(state.nobles) + heir_names(state),
                             "noble or heir", args.text), "roll": roll}

    def effect(self, state: State, event: Event) -> State:
        combat = state.combat
        if combat is None or not combat.saves:
            raise refuse("nobody rolls against death now", "no-save", "R-23")
        name = event["name"]
        if name != combat.saves[0]:
            raise refuse(f"{combat.saves[0]} rolls first", "not-this-one", "R-23")
        roll = check_roll(event["roll"])
        bounds = death_range(state, combat, name)
        dies = bounds is not None and bounds[0] <= roll <= bounds[1]
        combat = evolve(combat, saves=combat.saves[1:],
                         dead=combat.dead + ((name,) if dies else ()))
        if combat.saves:
            return evolve(state, combat=combat)
        return after_deaths(state, combat, combat.dead)

    def moves(self, state: State) -> Iterator[Event]:
        combat = state.combat
        assert combat is not None
        if not combat.saves:  # without a death chart, the table enters the deaths
            return
        for roll in (1, 50, 100):
            yield self.make(None, name=combat.saves[0], roll=roll)


def hand_on(state: State, heirs: Iterable[str], nobles: Sequence[str], chooser: str,
            at: str, allow_none: bool, in_combat: bool) -> State:
    """Heirs pass to one of `nobles` (the chooser's pick: a duty when there is a choice), or
    stay uncontrolled where they are."""
    for heir in heirs:
        if heir not in state.heirs or not state.heirs[heir].alive:
            continue
        loose = dict(state.heirs)
        loose[heir] = evolve(loose[heir], by=None, at=at)
        state = evolve(state, heirs=loose)
        if not nobles:
            continue
        if len(nobles) == 1 and not allow_none:
            state = give_heir(state, heir, nobles[0])
            continue
        choices = tuple(nobles) + (("none",) if allow_none else ())
        state = rules.add_duty(state, Duty("heir", chooser, heir, choices, at, in_combat))
    return state


def retreat_duties(state: State, nobles: Iterable[str], sally: str | None = None) -> State:
    """R-30: each goes home (his choice when he has one); R-26: a sallying noble goes back
    inside or stays in the open."""
    for noble in nobles:
        if noble not in state.nobles:
            continue
        choices = (f"in:{sally}", f"near:{sally}") if sally else \
            tuple(rules.home_choices(state, noble))
        if len(choices) == 1:
            state = rules.move_nobles(state, [noble], choices[0])
        else:
            state = rules.add_duty(state, Duty("retreat", state.owner(noble), noble, choices,
                                               sally or ""))
    return state


Orphans = dict[str, tuple[str, list[str]]]  # a dead noble -> (his player, his heirs)


def after_deaths(state: State, combat: Combat, dead: tuple[str, ...]) -> State:
    """Deaths applied (§9), then victory (capture, heirs to the victor, R-25) or not (retreat
    home, R-26, heirs to the defence), or a fortress taken (§6.2)."""
    place = combat.at if combat.kind == "siege" else split(combat.at)[1]
    cause = f"siege of {place}" if combat.kind == "siege" else f"battle at {combat.at}"
    state = evolve(state, combat=evolve(combat, dead=dead, stage="spoils", saves=()))
    state = rules.kill(state, [d for d in dead if d not in state.nobles], cause)
    dying = [d for d in dead if d in state.nobles]
    orphans: Orphans = {d: (state.owner(d), state.heirs_of(d)) for d in dying}
    state = rules.kill(state, dying, cause, heirs_to=None)
    attackers = [n for n in combat.attacking if n in state.nobles]
    defenders = [n for n in combat.defending if n in state.nobles]
    if combat.kind == "siege":
        state = siege_taken(state, combat, attackers, defenders, orphans)
    elif combat.outcome in ("major", "minor"):
        state = battle_won(state, combat, attackers, defenders, orphans)
    else:
        state = battle_lost(state, combat, attackers, defenders, orphans)
    result = "taken" if combat.kind == "siege" and attackers else combat.outcome
    state = rules.chronicle(state, f"{cause}: {result}, attacked by {state.active}")
    return combat_done(state)


def _to_their_own(state: State, orphans: Orphans, side: Iterable[str], survivors: list[str],
                  at: str) -> State:
    """R-48: a dead noble's heirs to a surviving noble of his faction there, else loose."""
    for noble in side:
        if noble in orphans:
            owner, heirs = orphans[noble]
            mates = [n for n in survivors if state.owner(n) == owner]
            state = hand_on(state, heirs, mates, owner, at, False, False)
    return state


def battle_won(state: State, combat: Combat, attackers: list[str], defenders: list[str],
               orphans: Orphans) -> State:
    """Rules 16-17: surviving defenders captured, their heirs to a surviving attacking noble the
    active player names; R-25: with no attacker alive the heirs stay loose and the defenders go
    home; a victory over besiegers breaks their siege."""
    at = combat.at
    beaten = [h for h in combat.def_heirs if h in state.heirs and state.heirs[h].alive]
    state = _to_their_own(state, orphans, combat.attacking, attackers, at)
    if attackers:
        victors = [n for n in combat.attackers if n in state.nobles] or attackers
        state = hand_on(state, beaten, victors, state.active, at, False, True)
        for noble in defenders:
            state = rules.add_duty(state, Duty("captive", state.active, noble))
        if combat.sally:
            state = retreat_duties(state, attackers, split(at)[1])
    else:
        state = hand_on(state, beaten, [], state.active, at, True, False)
        state = retreat_duties(state, defenders)
    for place, siege in list(state.sieges.items()):
        if set(siege.nobles) & set(combat.defending):
            state = rules.break_siege(state, place, "a victory over the besiegers")
    return state


def battle_lost(state: State, combat: Combat, attackers: list[str], defenders: list[str],
                orphans: Orphans) -> State:
    """Rule 16: surviving attackers retreat home (a sally: back inside or out, R-26); if every
    attacking noble died, their heirs go to a surviving defender of the defence's choice."""
    at = combat.at
    if attackers:
        state = _to_their_own(state, orphans, combat.attacking, attackers, at)
        state = retreat_duties(state, attackers, split(at)[1] if combat.sally else None)
    else:
        lost = [h for n in combat.attacking if n in orphans for h in orphans[n][1]]
        chooser = state.owner(defenders[0]) if defenders else state.active
        state = hand_on(state, lost, defenders, chooser, at, True, True)
    return _to_their_own(state, orphans, combat.defending, defenders, at)


def siege_taken(state: State, combat: Combat, attackers: list[str], defenders: list[str],
                orphans: Orphans) -> State:
    """§6.2: the survivors inside captured, the heirs inside taken, the fortress (with its town
    card) to an attacking noble the attacker names; with no attacker alive it goes neutral and
    all inside are expelled."""
    place = combat.at
    state = evolve(state, sieges={p: s for p, s in state.sieges.items() if p != place})
    heirs = [h for h in combat.def_heirs if h in state.heirs and state.heirs[h].alive]
    if not attackers:
        control = {p: n for p, n in state.control.items() if p != place}
        state = rules.expel(evolve(state, control=control), place)
        lost = [h for n in combat.attacking if n in orphans for h in orphans[n][1]]
        return hand_on(state, heirs + lost, [], state.active, f"near:{place}", True, False)
    state = _to_their_own(state, orphans, combat.attacking, attackers,
                          state.nobles[attackers[0]].at)
    state = hand_on(state, heirs, attackers, state.active, f"in:{place}", False, True)
    if rules.is_open_town(state, place):
        pass  # an open town is never controlled
    elif len(attackers) == 1:
        state = rules.take_control(state, place, attackers[0])
    else:
        state = rules.add_duty(state, Duty("control", state.active, place, tuple(attackers),
                                           place, True))
    for noble in defenders:
        state = rules.add_duty(state, Duty("captive", state.active, noble))
    return state


def combat_done(state: State) -> State:
    if state.combat is not None and state.combat.stage == "spoils" and \
            not any(d.combat for d in state.duties):
        return evolve(state, combat=None)
    return state


class DutyChoice(Base):
    """An answer to a duty the referee set: its subject goes `to` one of the duty's choices
    (who takes an heir, a fortress or where a noble retreats)."""

    subject = ""  # the field that names the duty's subject
    choice_rule = ""

    def chosen(self, state: State, event: Event) -> Duty:
        """The duty answered; refused unless the event names its subject and one of its choices."""
        current = rules.duty(state)
        assert current is not None
        if event[self.subject] != current.subject or event["to"] not in current.choices:
            raise refuse(f"{current.subject} goes to one of {', '.join(current.choices)}",
                         "bad-choice", self.choice_rule)
        return current

    def moves(self, state: State) -> Iterator[Event]:
        current = state.duties[0]
        for choice in current.choices:
            yield self.make(current.player, **{self.subject: current.subject, "to": choice})


class HeirTo(DutyChoice):
    name = "heir"
    doc = "who controls an heir after a battle or a death (rules 16-17, R-25, R-48)"
    fields = {"heir": "str", "to": "str"}
    field_docs = {"heir": "the heir", "to": "the noble who takes him, or `none`"}
    phases = frozenset({DUTY_PHASES["heir"]})
    owed_rule = "R-48"
    form = Form(heir("heir", late=True), Key("to", noble("to", alts=("none",))),
                note="when the referee asks who takes an heir")
    subject, choice_rule = "heir", "R-48"

    def effect(self, state: State, event: Event) -> State:
        state = rules.done(state, self.chosen(state, event))
        if event["to"] != "none":
            state = give_heir(state, event["heir"], event["to"])
        return combat_done(state)


class Control(DutyChoice):
    name = "control"
    doc = "the attacking noble who takes a fortress won by siege, with its town card (§6.2)"
    fields = {"place": "str", "to": "str"}
    field_docs = {"place": "the fortress", "to": "the noble"}
    phases = frozenset({DUTY_PHASES["control"]})
    owed_rule = "§6.2"
    form = Form(place("place"), Key("to", noble("to")), note="after a siege is won (§6.2)")
    subject, choice_rule = "place", "§6.2"

    def effect(self, state: State, event: Event) -> State:
        current = self.chosen(state, event)
        state = rules.take_control(rules.done(state, current), current.subject, event["to"])
        return combat_done(state)


class Ransom(Base):
    name = "ransom"
    doc = "a captive is freed and goes home at once (R-29, R-30); the price is paid by "\
          "separate transfers"
    fields = {"noble": "str", "to": "str"}
    field_docs = {"noble": "the captive", "to": "his home (R-30)"}
    phases = frozenset({DUTY_PHASES["captive"]})
    owed_rule = "R-29"
    form = Form(noble("noble"), Key("to", location("to", default=first_home), optional=True),
                note="the captor frees him (R-29); he goes home")

    def effect(self, state: State, event: Event) -> State:
        current = captive_duty(state, event["noble"])
        if event["to"] not in rules.home_choices(state, current.subject):
            raise refuse(f"{current.subject} goes home: "
                         f"{', '.join(rules.home_choices(state, current.subject))} (R-30)",
                         "not-home", "R-30")
        state = rules.done(state, current)
        return rules.chronicle(rules.move_nobles(state, [current.subject], event["to"]),
                               f"{current.subject} is ransomed")

    def moves(self, state: State) -> Iterator[Event]:
        current = state.duties[0]
        for home in rules.home_choices(state, current.subject):
            yield self.make(current.player, noble=current.subject, to=home)


def captive_duty(state: State, noble: str) -> Duty:
    current = rules.duty(state)
    assert current is not None
    if noble != current.subject:
        raise refuse(f"the captive to decide is {current.subject}", "not-this-captive", "R-29")
    return current


class Kill(Base):
    name = "kill"
    doc = "a captive is killed (R-29, §9)"
    fields = {"noble": "str"}
    field_docs = {"noble": "the captive"}
    phases = frozenset({DUTY_PHASES["captive"]})
    owed_rule = "R-29"
    form = Form(noble("noble"), note="the captor refuses ransom (R-29)")

    def effect(self, state: State, event: Event) -> State:
        current = captive_duty(state, event["noble"])
        return rules.noble_dies(rules.done(state, current), current.subject,
                                f"killed, a captive of {state.active}")

    def moves(self, state: State) -> Iterator[Event]:
        current = state.duties[0]
        yield self.make(current.player, noble=current.subject)


class Retreat(DutyChoice):
    name = "retreat"
    doc = "a noble goes home after a battle (R-30), or a sallying noble back inside or out (R-26)"
    fields = {"noble": "str", "to": "str"}
    field_docs = {"noble": "the noble", "to": "where he goes"}
    phases = frozenset({DUTY_PHASES["retreat"]})
    owed_rule = "R-30"
    form = Form(noble("noble"), Key("to", location("to")),
                note="one of the places the referee names")
    subject, choice_rule = "noble", "R-30"

    def effect(self, state: State, event: Event) -> State:
        current = self.chosen(state, event)
        noble, place = current.subject, current.place
        if place and event["to"] == f"near:{place}" and rules.garrison_ally(state, noble):
            # §8.5: a garrison ally who stays out after a sally may not attack that fortress
            # in his next turn
            turn = rules.next_turn_of(state, state.owner(noble))
            state = evolve(state, barred=state.barred + ((noble, place, turn),))
        return rules.move_nobles(rules.done(state, current), [noble], event["to"])
