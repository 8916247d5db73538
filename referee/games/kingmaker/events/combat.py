"""Combat (§6): open battles (§6.1) and sieges (§6.2), up to the weather check.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from referee.engine import Args, Event
from referee.errors import IllegalMove, NotationError
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.components import ratio, roll_range
from referee.games.kingmaker.events.base import (
    DECLARES,
    DECLARES_DOC,
    Base,
    active_combat,
    check_location,
    known_noble,
    known_place,
    location,
    named,
    names,
    nobles,
    nobles_or_heirs,
    place,
    refuse_in_active_combat,
    time_up_refusal,
)
from referee.games.kingmaker.events.forms import MISSING, Case, Flag, Form, Key, Slot
from referee.games.kingmaker.events.peace import battle_problem, siege_problem
from referee.games.kingmaker.notation import find
from referee.games.kingmaker.rules import refuse, split
from referee.games.kingmaker.state import COMBAT, Combat, Siege, State


# --------------------------------------------------------------------------------------------
# Combat (§6): battles


def odds_text(attack: int, defence: int) -> str:
    """R-22: the larger over the smaller, rounded down to 4:1, 3:1, 2:1, 3:2 or 5:4, else
    'majority' (or 'even'), read the other way round when the defence is larger."""
    if attack == defence:
        return "even"
    big, small = max(attack, defence), min(attack, defence)
    found = next((f"{x}:{y}" for x, y in ((4, 1), (3, 1), (2, 1), (3, 2), (5, 4))
                  if big * y >= small * x), "majority")
    if attack > defence:
        return found
    return "minority" if found == "majority" else ":".join(reversed(found.split(":")))


def chart_outcome(state: State, attack: int, defence: int, roll: int) -> str:
    """R-22, R-23: the Battle Combat Table's column for A:D, then the roll's result."""
    chart = state.box.single("battle_chart")
    columns = [ratio(c) for c in chart.names("columns")]
    if attack >= defence:
        fits = [i for i, (a, d) in enumerate(columns) if a * defence <= attack * d]
        index = max(fits, key=lambda i: columns[i][0] / columns[i][1]) if fits else \
            min(range(len(columns)), key=lambda i: columns[i][0] / columns[i][1])
    else:
        fits = [i for i, (a, d) in enumerate(columns) if a * defence >= attack * d]
        index = min(fits, key=lambda i: columns[i][0] / columns[i][1]) if fits else \
            max(range(len(columns)), key=lambda i: columns[i][0] / columns[i][1])
    for outcome in ("major", "minor"):
        ranges = chart.names(outcome)
        text = ranges[index] if index < len(ranges) else ""
        if text:
            low, high = roll_range(text)
            if low <= roll <= high:
                return outcome
    return "none"


def eligible_ally(state: State, noble: str) -> bool:
    """R-21: not in combat during his own player's previous turn (checked per noble)."""
    last = state.last_turn.get(state.owner(noble))
    return last is None or state.fought_in_own_turn.get(noble) != last


def in_combat(state: State, nobles: Sequence[str]) -> State:
    """R-20 and R-21: these nobles take a combat action now. R-21 asks only about combat in a
    noble's own player's turn, so combat in another's turn (attacked, or as an ally) does not
    overwrite it."""
    fought = dict(state.fought_in_own_turn)
    fought.update({n: state.turn for n in nobles if state.owner(n) == state.active})
    return evolve(state, acted=state.acted | set(nobles), fought_in_own_turn=fought)


def plan_attack(state: State, player: str, at: str, attackers: Sequence[str],
                allies: Sequence[str], defenders: Sequence[str], def_allies: Sequence[str],
                target: str | None, french: bool, extra: Sequence[str]) -> Combat:
    """§6.1's checks of an open battle; the Combat it starts (awaiting the weather)."""
    prefix, place = split(at)
    if prefix not in ("near", "sq"):
        raise refuse(f"{at} is not open ground: battles are fought near:P, sq:, or at an "
                     "unfortified place; a fortress is besieged (§6.1)", "not-open", "§6.1")
    everyone = list(attackers) + list(allies) + list(defenders) + list(def_allies)
    if len(set(everyone)) != len(everyone):
        raise refuse("a noble is named on two sides", "two-sides", "§6.1")
    problem = battle_problem(state, at, list(attackers) + list(allies) + list(def_allies),
                             defenders)  # 7.6
    if problem is not None:
        raise problem
    for noble in everyone:
        if noble in state.acted:
            raise refuse(f"{noble} has taken part in a combat action this phase (R-20)",
                         "fought-already", "R-20")
    sally = _attackers_ok(state, player, at, attackers)
    sides = {state.owner(n) for n in defenders}
    if len(sides) != 1 or player in sides:
        raise refuse("the defenders are the nobles of one other faction", "bad-defenders",
                     "§6.1")
    foe = sides.pop()
    force = [n for n in rules.at_location(state, at) if state.owner(n) == foe]
    if sorted(force) != sorted(defenders):
        raise refuse(f"the defending force is all of {foe}'s nobles there: "
                     f"{', '.join(force)} (§6.1)", "whole-force", "§6.1")
    _allies_ok(state, player, foe, at, allies, sally, place)
    _allies_ok(state, player, foe, at, def_allies, False, place)
    a = rules.force_strength(state, list(attackers) + list(allies), extra, french)
    d = rules.force_strength(state, list(defenders) + list(def_allies), extra)
    if french and not rules.french_holders(state, attackers):
        raise refuse("no attacking noble of yours holds French Foot-soldiers (R-28)",
                     "no-french", "R-28")
    assassin = 4 * a < d
    heirs = tuple(h for n in everyone for h in state.heirs_of(n))
    def_heirs = tuple(h for n in list(defenders) + list(def_allies) for h in state.heirs_of(n))
    if assassin:
        if len(attackers) != 1 or rules.titled(state, attackers[0]):
            raise refuse(f"{a} against {d} is below 1:4: only a lone untitled noble (an "
                         "assassin) may attack (§6.1)", "below-1-4", "§6.1")
        if allies:
            raise refuse("no ally joins an assassin's side (R-58)", "assassin-allies", "R-58")
        victims = list(defenders) + list(def_allies) + list(def_heirs)
        if target is None and len(victims) == 1:
            target = victims[0]
        if target not in victims:
            raise refuse(f"the assassin names the one defender who rolls: "
                         f"{', '.join(victims)} (`target NAME`)", "no-target", "§6.1")
    elif target is not None:
        raise refuse("only an assassin names a target (§6.1)", "not-assassin", "§6.1")
    return Combat("battle", at, tuple(attackers), tuple(defenders), tuple(allies),
                  tuple(def_allies), heirs, def_heirs, a, d, odds_text(a, d), french, assassin,
                  target, sally)


def _attackers_ok(state: State, player: str, at: str, attackers: Sequence[str]) -> bool:
    """The attackers: the player's nobles there, or sallying from the besieged fortress."""
    if not attackers:
        raise refuse("name the attacking nobles (`with NOBLES`)", "no-attackers", "§6.1")
    prefix, place = split(at)
    starts = {state.nobles[n].at for n in attackers}
    for noble in attackers:
        if state.owner(noble) != player:
            raise refuse(f"{noble} is not yours", "not-your-noble", "§6.1")
    if starts == {at}:
        for noble in attackers:
            if rules.under_siege(state, noble) or rules.ship_besieger(state, noble):
                raise refuse(f"{noble} is under siege", "under-siege", "§6.1")
        return False
    sally_from = f"in:{place}"
    if starts == {sally_from} and prefix == "near" and place in state.sieges and \
            rules.controller_player(state, place) == player:
        return True  # a sally (§6, §8.5)
    raise refuse(f"the attackers are not all at {at}", "not-there", "§6.1")


def _allies_ok(state: State, player: str, foe: str, at: str, allies: Sequence[str],
               sally: bool, place: str) -> None:
    """Rule 11: other factions' nobles there, none in combat in their own previous turn (R-21);
    besieged nobles join only a sally, as garrison allies."""
    for noble in allies:
        owner = state.owner(noble)
        if owner in (player, foe):
            raise refuse(f"{noble} is not of a third faction", "not-an-ally", "§6.1")
        here = state.nobles[noble].at
        sallying = sally and here == f"in:{place}" and rules.garrison_ally(state, noble)
        if here != at and not sallying:
            raise refuse(f"{noble} is not at {at}", "not-there", "§6.1")
        if not sallying and (rules.under_siege(state, noble) or
                             rules.ship_besieger(state, noble)):
            raise refuse(f"{noble} is under siege: he joins only a sally", "under-siege",
                         "§6.1")
        if not eligible_ally(state, noble):
            raise refuse(f"{noble} took part in combat in {owner}'s previous turn (R-21)",
                         "ally-fought", "R-21")


def start_combat(state: State, combat: Combat) -> State:
    return evolve(in_combat(state, combat.attacking + combat.defending), combat=combat)


def regions() -> Slot:
    """Bonus regions (R-4), by their names in the rules."""
    return names("regions", "R,...", lambda state: rules_regions(), "region", distinct=False)


class Attack(Base):
    name = "attack"
    doc = "an open battle: the active player's force attacks another faction's there (§6.1)"
    fields = {"location": "str", "with": "str[]", "allies": "str[]", "on": "str[]",
              "def_allies": "str[]", "target": "str", "french": "bool", "regions": "str[]",
              **DECLARES}
    field_docs = {"location": "the battle's location (open ground), typed `at LOCATION`",
                  "with": "the attacking nobles, typed `with NOBLES`",
                  "allies": "third factions' nobles joining the attack (rule 11, R-21), typed "
                            "`allies NOBLES` after `with NOBLES`",
                  "on": "the defending force: all the target faction's nobles there, typed "
                        "`on NOBLES`",
                  "def_allies": "third factions' nobles joining the defence, typed "
                                "`allies NOBLES` after `on NOBLES` (only the log names this "
                                "field def_allies)",
                  "target": "an assassin's one victim (§6.1)",
                  "french": "French Foot-soldiers used in this attack (R-28)",
                  "regions": "bonus regions the battle's square lies in (R-4)", **DECLARES_DOC}
    optional = frozenset({"allies", "def_allies", "target", "french", "regions",
                          "declares"})
    phases = frozenset({COMBAT})
    form = Form(Key("at", location("location")), Key("with", nobles("with")),
                Key("allies", nobles("allies"), optional=True),
                Key("on", nobles("on"), split=True, absent="name the defenders (`on NOBLES`)",
                    absent_code="no-defenders"),
                Key("allies", nobles("def_allies"), optional=True),
                Key("target", named("target", "NAME", nobles_or_heirs, "target", "noble or heir"),
                    optional=True),
                Flag("french", anywhere=True), Key("regions", regions(), optional=True),
                usage=("write `attack at LOCATION with NOBLES on NOBLES`", "bad-attack", None),
                note="e.g. attack at near:York with Neville on Clifford (§6.1)")

    def effect(self, state: State, event: Event) -> State:
        for key in ("with", "allies", "on", "def_allies"):
            for noble in event.get(key, ()):
                known_noble(state, noble)
        combat = plan_attack(state, str(event.by), check_location(state, event["location"]),
                             event["with"], event.get("allies", ()), event["on"],
                             event.get("def_allies", ()), event.get("target"),
                             bool(event.get("french")), check_regions(event))
        return start_combat(state, combat)

    def moves(self, state: State) -> Iterator[Event]:
        player = state.active
        mine: dict[str, list[str]] = {}
        for noble in state.faction(player):
            if noble in state.acted:
                continue
            at = state.nobles[noble].at
            prefix, place = split(at)
            if prefix == "in" and place in state.sieges and \
                    rules.controller_player(state, place) == player:
                at = f"near:{place}"  # a sally
            elif prefix not in ("near", "sq") or rules.under_siege(state, noble):
                continue
            mine.setdefault(at, []).append(noble)
        for at, own in mine.items():
            foes: dict[str, list[str]] = {}
            for noble in rules.at_location(state, at):
                if state.owner(noble) != player and noble not in state.acted:
                    foes.setdefault(state.owner(noble), []).append(noble)
            for foe_nobles in foes.values():
                yield from self._variants(state, player, at, own, foe_nobles)

    def _variants(self, state: State, player: str, at: str, own: list[str],
                  foes: list[str]) -> Iterator[Event]:
        groups = [own] + ([[n] for n in own] if len(own) > 1 else [])
        for group in groups:
            for target in [None] + foes + [h for n in foes for h in state.heirs_of(n)]:
                event = self.make(player, location=at, on=foes, target=target, **{"with": group})
                try:
                    plan_attack(state, player, at, group, (), foes, (), target, False, ())
                except IllegalMove:
                    continue
                yield event


def rules_regions() -> list[str]:
    from referee.games.kingmaker.components import REGIONS

    return list(REGIONS)


def check_regions(event: Event) -> tuple[str, ...]:
    regions = tuple(event.get("regions", ()))
    for region in regions:
        if region not in rules_regions():
            raise refuse(f"{region!r} is not a bonus region", "unknown-region", "R-4")
    return regions


# --------------------------------------------------------------------------------------------
# Combat (§6.2): sieges


SIEGE_ACTIONS = ("lay", "join", "conclude", "break")


def siege_spot(state: State, place: str, noble: str) -> str | None:
    """Where a besieger of `place` may stand: its open square, or aboard a ship in its port."""
    at = state.nobles[noble].at
    prefix, ship = split(at)
    if at == f"near:{place}" or (prefix == "aboard" and
                                 state.ships[ship].at == f"port:{place}"):
        return at
    return None


def siege_ship(state: State, place: str, nobles: Sequence[str]) -> str | None:
    spots = [siege_spot(state, place, n) or "" for n in nobles]
    return next((split(s)[1] for s in spots if s.startswith("aboard:")), None)


def siege_target_problem(state: State, player: str, place: str) -> IllegalMove | None:
    """§6.2: a neutral or other faction's fortress, or an occupied open town (R-1)."""
    if rules.is_open_town(state, place):
        if not any(state.owner(n) != player for n in rules.inside(state, place)):
            return refuse(f"{place} is an open town no other faction occupies: it is simply "
                          "entered (R-1)", "not-besiegeable", "R-1")
        return None
    if not rules.is_fortress(state, place):
        return refuse(f"{place} is not a fortress", "not-a-fortress", "§6.2")
    if rules.controller_player(state, place) == player:
        return refuse(f"{place} is your own fortress", "own-fortress", "§6.2")
    return None


def besieger_problem(state: State, player: str, place: str, nobles: Sequence[str],
                     action: str) -> IllegalMove | None:
    if not nobles:
        return refuse("name the besieging nobles (`with NOBLES`)", "no-besiegers", "§6.2")
    for noble in nobles:
        if state.owner(noble) != player:
            return refuse(f"{noble} is not yours", "not-your-noble", "§6.2")
        if noble in state.acted:
            return refuse(f"{noble} has taken part in a combat action this phase (R-20)",
                          "fought-already", "R-20")
        if any(b[0] == noble and b[1] == place and b[2] >= state.turn for b in state.barred):
            return refuse(f"{noble} left {place} as a garrison ally: he may not attack it now "
                          "(§8.5)", "garrison-ally", "§8.5")
    if any(siege_spot(state, place, n) is None for n in nobles):
        return refuse(f"the besiegers are not all near:{place} or aboard a ship in its port",
                      "not-there", "§6.2")
    if len({siege_spot(state, place, n) for n in nobles} - {f"near:{place}"}) > 1:
        return refuse("the besiegers are aboard two ships", "two-ships", "§8.6")
    return siege_problem(state, place, action, nobles)  # 7.6


def siege_action(state: State, words: list[str], args: Args, out: dict[str, Any]) -> str:
    if not words:
        raise NotationError(f"{args.text!r}: siege lay|join|conclude|break PLACE",
                            code="bad-siege")
    return find(words[0], SIEGE_ACTIONS, "siege action", args.text)


def ready(etype: SiegeAct, state: State, args: Args, out: dict[str, Any]) -> Any:
    """Without `with`, who lays, joins or concludes: the nobles ready (`SiegeAct.ready`), but
    a siege under way is concluded by its besiegers alone."""
    action, place = out["action"], out["place"]
    if action == "break" or args.by is None or action == "conclude" and place in state.sieges:
        return MISSING
    return etype.ready(state, args.by, place, action) or None


class SiegeAct(Base):
    name = "siege"
    doc = "a siege is laid, joined, concluded or broken (§6.2)"
    fields = {"action": "str", "place": "str", "with": "str[]", "french": "bool",
              "regions": "str[]", **DECLARES}
    field_docs = {"action": "lay, join, conclude or break", "place": "the besieged place",
                  "with": "the nobles laying, joining or concluding",
                  "french": "French Foot-soldiers used in a conclusion (R-28)",
                  "regions": "bonus regions the place lies in (R-4)", **DECLARES_DOC}
    optional = frozenset({"with", "french", "regions", "declares"})
    actor = "any"
    form = Form(Slot("action", "|".join(SIEGE_ACTIONS), siege_action, lead=True), place("place"),
                Key("with", nobles("with", default=ready), optional=True),
                Flag("french", anywhere=True), Key("regions", regions(), optional=True),
                cases=(Case("lay at half the defence, join a siege of yours (§6.2)",
                            {"action": "lay|join", "with": True, "french": False,
                             "regions": False}),
                       Case("at full strength, then the weather check (§6.2)",
                            {"action": "conclude"}),
                       Case("its owner ends his siege, at any time (§6.2)",
                            {"action": "break", "with": False, "french": False,
                             "regions": False})))

    def ready(self, state: State, player: str, place: str, action: str) -> list[str]:
        """Without `with`: the player's nobles who may act on `place` now (near it or aboard
        in its port, not yet in a combat action) and not besieging it already; a siege under
        way is concluded by its besiegers alone unless `with` names more."""
        siege = state.sieges.get(place)
        return [n for n in state.faction(player) if n not in state.acted and
                siege_spot(state, place, n) is not None and
                not (siege and n in siege.nobles)]

    def gate(self, state: State, event: Event) -> None:
        """A siege is broken at any time outside active combat, laid, joined and concluded in
        the combat phase: its moment depends on its action, so no phase is declared for it."""
        if event.get("action") == "break":
            if state.time_up:
                raise time_up_refusal()
            refuse_in_active_combat(state, "breaking a siege")
            return
        super().gate(state, event)

    def effect(self, state: State, event: Event) -> State:
        action, place = event["action"], known_place(state, event["place"])
        nobles = [known_noble(state, n) for n in event.get("with", ())]
        player = str(event.by)
        if action not in SIEGE_ACTIONS:
            raise refuse(f"{action!r} is not a siege action", "bad-siege", "§6.2")
        if action == "break":
            siege = state.sieges.get(place)
            if siege is None or siege.owner != player:
                raise refuse(f"{place} is not under a siege of yours", "no-siege", "§6.2")
            return rules.break_siege(state, place, f"{player} broke it")
        if state.stage != COMBAT or player != state.active:
            raise refuse("sieges are laid, joined and concluded in your combat phase",
                         "not-combat", "§6.2")
        if action == "lay":
            return self.lay(state, player, place, nobles)
        if action == "join":
            return self.join(state, player, place, nobles)
        return self.conclude(state, player, place, nobles, bool(event.get("french")),
                             check_regions(event))

    def lay(self, state: State, player: str, place: str, nobles: list[str]) -> State:
        problem = siege_target_problem(state, player, place) or \
            besieger_problem(state, player, place, nobles, "lay")
        if problem is not None:
            raise problem
        if place in state.sieges:
            raise refuse(f"{place} is under siege already (`siege join`)", "besieged-already",
                         "§6.2")
        need = rules.defence(state, place)
        have = rules.force_strength(state, nobles)
        if 2 * have < need:
            raise refuse(f"{have} is less than half the defence of {place} "
                         f"({rules.shown_number(need)}): no siege (§6.2)", "too-weak", "§6.2")
        sieges = dict(state.sieges)
        sieges[place] = Siege(player, tuple(nobles), 1, siege_ship(state, place, nobles))
        state = evolve(in_combat(state, nobles), sieges=sieges)
        return rules.chronicle(state, f"{player} lays siege to {place}")

    def join(self, state: State, player: str, place: str, nobles: list[str]) -> State:
        siege = state.sieges.get(place)
        if siege is None or siege.owner != player:
            raise refuse(f"{place} is not under a siege of yours", "no-siege", "R-27")
        problem = besieger_problem(state, player, place, nobles, "join")
        if problem is not None:
            raise problem
        if set(nobles) & set(siege.nobles):
            raise refuse(f"{', '.join(set(nobles) & set(siege.nobles))} besieges {place} "
                         "already", "besieging-already", "R-27")
        ship = siege.ship or siege_ship(state, place, nobles)
        if siege.ship and siege_ship(state, place, nobles) not in (None, siege.ship):
            raise refuse("a siege is laid from one ship", "two-ships", "§8.6")
        sieges = dict(state.sieges)
        sieges[place] = evolve(siege, nobles=siege.nobles + tuple(nobles), ship=ship)
        return evolve(in_combat(state, nobles), sieges=sieges)  # joining a siege is combat

    def conclude(self, state: State, player: str, place: str, nobles: list[str], french: bool,
                 extra: tuple[str, ...]) -> State:
        problem = siege_target_problem(state, player, place)
        if problem is not None:
            raise problem
        siege = state.sieges.get(place)
        if siege is not None and siege.owner != player:
            raise refuse(f"{place} is under {siege.owner}'s siege", "not-your-siege", "§6.2")
        new = [n for n in nobles if siege is None or n not in siege.nobles]
        attackers = list(siege.nobles if siege else ()) + new
        problem = besieger_problem(state, player, place, attackers, "conclude")
        if problem is not None:
            raise problem
        if french and not rules.french_holders(state, attackers):
            raise refuse("no besieging noble of yours holds French Foot-soldiers (R-28)",
                         "no-french", "R-28")
        have = rules.force_strength(state, attackers, extra, french)
        need = rules.defence(state, place)
        if have < need:
            raise refuse(f"{have} is less than the defence of {place} "
                         f"({rules.shown_number(need)}): it cannot be concluded (§6.2)",
                         "too-weak", "§6.2")
        defenders = tuple(rules.inside(state, place))
        loose = tuple(h for h, s in state.heirs.items() if s.alive and s.by is None and
                      s.at == f"in:{place}")
        def_heirs = loose + tuple(h for n in defenders for h in state.heirs_of(n))
        heirs = def_heirs + tuple(h for n in attackers for h in state.heirs_of(n))
        combat = Combat("siege", place, tuple(attackers), defenders, heirs=heirs,
                        def_heirs=def_heirs, attack=have, defence=int(need),
                        odds=odds_text(have, int(need)), french=french)
        return start_combat(state, combat)

    def moves(self, state: State) -> Iterator[Event]:
        player = state.active
        for place, siege in state.sieges.items():
            if siege.owner == player and not active_combat(state):
                yield self.make(player, action="break", place=place)
        if state.stage != COMBAT or state.duties or state.combat is not None:
            return
        spots: dict[str, list[str]] = {}
        for noble in state.faction(player):
            if noble in state.acted or rules.under_siege(state, noble):
                continue
            prefix, name = split(state.nobles[noble].at)
            if prefix == "near":
                spots.setdefault(name, []).append(noble)
            elif prefix == "aboard" and split(state.ships[name].at)[0] == "port":
                spots.setdefault(split(state.ships[name].at)[1], []).append(noble)
        for place, nobles in spots.items():
            for action in ("lay", "join", "conclude"):
                event = self.make(player, action=action, place=place, **{"with": nobles})
                if self.valid(state, event):
                    yield event
        for place, siege in state.sieges.items():
            if siege.owner == player:
                event = self.make(player, action="conclude", place=place)
                if self.valid(state, event):
                    yield event
