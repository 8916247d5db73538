"""Kingmaker's rules that more than one event shares: places and positions, strength and votes,
heirs and Kings, friendliness and sieges, death, entering play, the turn and its phases, and
what the referee settles by itself after every event.

Each event's own checks are in the events package (events/); every refusal cites an entry of
rulebook.py (`§6.2`, `R-27`...).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Iterable, Mapping, NamedTuple

from referee.engine import ToAct
from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.values import attributes
from referee.games.kingmaker.notation import shown
from referee.games.kingmaker.components import (
    PLACE_KINDS,
    WITHIN,
    Box,
    Entry,
    PlaceKind,
)
from referee.games.kingmaker.state import (
    ASIDE,
    ASSIGN,
    BISHOPS,
    EXCUSE,
    PROPOSE,
    RETURN,
    REVOKE,
    SELECT,
    VOTE,
    CHANCE,
    CHANCERY,
    COMBAT,
    CORONATION,
    DEAL,
    DECK,
    DISCARD,
    DRAW,
    MOVEMENT,
    OUT,
    OVER,
    PARLIAMENT,
    TIME_UP,
    TURN_PHASES,
    Duty,
    Ending,
    HeirState,
    NobleState,
    ShipState,
    Sitting,
    State,
    card_entry,
    crown_instances,
    hands,
    moved_cards,
    placed,
    quiet_by,
    quiet_while_same,
    recalled,
    recalled_by,
)

# Names the rules themselves use (seed §4, rules 25-26; rules page R-8).
BEAUFORT, STANLEY, LE_LUCAS = "Beaufort", "Stanley", "Le Lucas"
CONSTABLE, CHANCELLOR = "Constable of the Tower", "Chancellor of England"
SENIOR_CLERICS = ("Canterbury", "York", "Durham", "Carlisle", "Lincoln", "Norwich")
PLAY = "play"  # where a noble card in play is kept in `cards`


def refuse(message: str, code: str, rule: str) -> IllegalMove:
    return IllegalMove(message, code=code, rule=rule)


# --------------------------------------------------------------------------------------------
# Places and positions


def split(location: str) -> tuple[str, str]:
    prefix, _, rest = location.partition(":")
    return prefix, rest


def place_entry(state: State, name: str) -> Entry:
    """A place the log knows with its kind (R-2 asks for what is missing)."""
    entry = state.box.place(name)
    if entry is None or entry.get("kind") is None:
        typed = name.replace(" ", "-")
        known = "is not a place this log knows" if entry is None else \
            "is a place whose kind this log does not know yet"
        raise refuse(f"{name} {known}: fill in the blank from the map and record it, "
                     f"`referee declare` with the line `declare place {typed} kind=___` (city, "
                     f"town, royal-castle, castle, open-town or unfortified), or add "
                     f"`{typed}.kind=___` to the move", "unknown-place" if entry is None
                     else "missing-value", "R-2")
    return entry


def kind_of(state: State, name: str) -> PlaceKind:
    return PLACE_KINDS[str(place_kind(state, name))]


def place_kind(state: State, name: str) -> Any:
    """`place_entry(state, name).get("kind")`: looked up in one step for a place of known kind,
    through place_entry (which refuses) otherwise."""
    kind = state.box.place_kinds.get(name)
    return place_entry(state, name).get("kind") if kind is None else kind


def is_fortress(state: State, name: str) -> bool:
    return kind_of(state, name).fortress


def is_open_town(state: State, name: str) -> bool:
    return bool(place_kind(state, name) == "open-town")


def is_unfortified(state: State, name: str) -> bool:
    return bool(place_kind(state, name) == "unfortified")


def garrison(state: State, name: str) -> int:
    return place_entry(state, name).number("garrison", kind_of(state, name).garrison)


def capacity(state: State, name: str) -> int | None:
    value = place_entry(state, name).get("capacity")
    return value if isinstance(value, int) else kind_of(state, name).capacity


def place_commons(state: State, name: str) -> int:
    return place_entry(state, name).number("commons", kind_of(state, name).commons)


def area(state: State, name: str) -> str:
    entry = state.box.place(name)
    return str(entry.get("area", "mainland")) if entry is not None else "mainland"


def is_port(state: State, name: str) -> bool:
    entry = state.box.place(name)
    return entry is not None and entry.flag("port")


def regions(state: State, name: str) -> set[str]:
    """The bonus regions a place lies in, with the regions that contain them (R-4)."""
    entry = state.box.place(name)
    found = set(entry.names("regions")) if entry is not None else set()
    return found | {WITHIN[r] for r in found if r in WITHIN}


def normal(state: State, location: str) -> str:
    """A location as stored: an unfortified place has no inside (§3)."""
    prefix, _, name = location.partition(":")  # split(), inlined: asked at every event
    if prefix == "in" and is_unfortified(state, name):
        return f"near:{name}"
    return location


def position(state: State, location: str) -> str:
    """Where a location is on the board: aboard a ship means where the ship is."""
    prefix, _, name = location.partition(":")
    if prefix == "aboard":
        ship = state.ships.get(name)
        return ship.at if ship else location
    return location


def place_of(location: str) -> str | None:
    prefix, _, name = location.partition(":")
    return name if prefix in ("in", "near", "port") else None


def on_mainland(state: State, location: str) -> bool:
    """8.4: land squares and mainland places; the sea and every other area are not."""
    prefix, _, name = location.partition(":")
    if prefix == "sea":
        return False
    if prefix == "sq":
        return True
    return area(state, name) == "mainland"


def noble_position(state: State, noble: str) -> str:
    return position(state, state.nobles[noble].at)


def at_location(state: State, location: str) -> list[str]:
    """The nobles stored at a location (in:P, near:P, sq:X or aboard:S)."""
    return list(_nobles_by_location(state.nobles).get(location, ()))


@recalled
def _nobles_by_location(nobles: Mapping[str, NobleState]) -> dict[str, list[str]]:
    """location -> the nobles there, in `nobles` order: sorted out once for every location a
    state's nobles are asked about (a combat phase asks about every ship)."""
    out: dict[str, list[str]] = {}
    for noble, info in nobles.items():
        out.setdefault(info.at, []).append(noble)
    return out


def inside(state: State, place: str) -> list[str]:
    return at_location(state, f"in:{place}")


def aboard(state: State, ship: str) -> list[str]:
    return at_location(state, f"aboard:{ship}")


# --------------------------------------------------------------------------------------------
# Cards and strength


def titled(state: State, noble: str) -> bool:
    """A printed title, or a title card (one title per noble)."""
    return bool(state.box.card(noble) and state.entry(noble).get("title")) or \
        any(state.kind(c) == "title" for c in state.cards_of(noble))


def office_of(state: State, noble: str) -> str | None:
    return next((c for c in state.cards_of(noble) if state.kind(c) == "office"), None)


def bishops_of(state: State, noble: str) -> list[str]:
    return [c for c in state.cards_of(noble) if state.kind(c) == "bishop"]


def holder(state: State, card: str) -> str | None:
    where = state.cards.get(card, "")
    return where[6:] if where.startswith("noble:") else None


def strength(state: State, noble: str, extra_regions: Iterable[str] = (),
             french: bool = False, bonuses: bool = True) -> int:
    """Printed troops + title, office, mercenaries and Royal Guard, + the bonus of each card whose
    region holds his position (R-4); French Foot-soldiers only when declared (R-28)."""
    plain = bonuses and not french and not extra_regions
    place = place_of(noble_position(state, noble)) if bonuses else None
    held = state.cards_of(noble)
    if plain:
        known = _strengths(state)  # the table is looked up once: its key takes some work
        key = (noble, place, tuple(held))
        if key in known:
            return known[key]
    total = state.entry(noble).number("troops")
    here: set[str] = set()
    if bonuses:
        here = (regions(state, place) if place else set()) | set(extra_regions)
        here |= {WITHIN[r] for r in here if r in WITHIN}
    for card in held:
        entry = state.entry(card)
        if entry.kind in ("title", "office", "mercenary"):
            if not entry.flag("attack_only") or french:
                total += entry.number("troops")
        if entry.kind in ("title", "office", "bishop") and entry.get("bonus_region") in here:
            total += entry.number("bonus")
    for guard, by in _guards(state).items():
        if by == noble:
            total += state.entry(guard).number("troops")
    if plain:
        known[key] = total
    return total


def strength_parts(state: State, noble: str) -> list[tuple[str, int]]:
    """What makes up `strength(state, noble)`, as status lists it: his printed troops, each card
    (with what it adds, 0 for none), each Royal Guard he holds (R-44) and each regional bonus
    that counts where he stands (R-4); the numbers sum to his strength."""
    place = place_of(noble_position(state, noble))
    here = regions(state, place) if place else set()
    here |= {WITHIN[r] for r in here if r in WITHIN}
    entry = state.entry(noble)
    parts = [("troops", entry.number("troops"))]
    if entry.get("title"):
        parts.append((f"{entry.get('title')} (printed)", 0))
    bonuses = []
    for card in state.cards_of(noble):
        found = state.entry(card)
        adds = found.number("troops") if found.kind in ("title", "office", "mercenary") and \
            not found.flag("attack_only") else 0
        parts.append((card + (" (attack only, R-28)" if found.flag("attack_only") else ""),
                      adds))
        if found.kind in ("title", "office", "bishop") and found.get("bonus_region") in here:
            bonuses.append((f"{found.get('bonus_region')} bonus of {card} (R-4)",
                            found.number("bonus")))
    parts += [(f"{guard} (Royal Guard, R-44)", state.entry(guard).number("troops"))
              for guard, by in _guards(state).items() if by == noble]
    return parts + bonuses


def _strengths_key(state: State) -> tuple[object, ...]:
    return _guards(state), state.box


@recalled_by(_strengths_key)
def _strengths(state: State) -> dict[tuple[str, str | None, tuple[str, ...]], int]:
    """(noble, his place, his cards) -> his strength without extra regions: what else it reads
    (the Royal Guards, the box) is the table's key, so that it outlives changes of `cards`
    elsewhere. A table `strength` fills as it is asked."""
    return {}


def french_holders(state: State, nobles: Iterable[str]) -> list[str]:
    """Nobles among `nobles` holding a card usable once in attack only (R-28)."""
    return [n for n in nobles for c in state.cards_of(n) if state.entry(c).flag("attack_only")]


def force_strength(state: State, nobles: Iterable[str], extra_regions: Iterable[str] = (),
                   french: bool = False) -> int:
    nobles = list(nobles)
    total = sum(strength(state, n, extra_regions) for n in nobles)
    if french:
        total += sum(state.entry(c).number("troops") for n in french_holders(state, nobles)
                     for c in state.cards_of(n) if state.entry(c).flag("attack_only"))
    return total


# --------------------------------------------------------------------------------------------
# Heirs and Kings (§8)


def beaufort_is_heir(state: State) -> bool:
    """8.2: while in play and every Lancastrian heir of the line is dead (derived each time)."""
    line = state.lines.get("lancaster", ())
    return BEAUFORT in state.nobles and bool(line) and \
        all(not state.heirs[h].alive for h in line if h in state.heirs)


def living_heirs(state: State) -> list[str]:
    return list(_living(state))


def _heirs_key(state: State) -> tuple[object, ...]:
    """All that the heirs' standing (living, Kings, controllers) reads: of the nobles, only
    whether Beaufort is in play (8.2, R-45)."""
    return state.heirs, state.lines, BEAUFORT in state.nobles, state.beaufort_crowned


@recalled_by(_heirs_key)
def _living(state: State) -> tuple[str, ...]:
    found = [h for h, s in state.heirs.items() if s.alive]
    if beaufort_is_heir(state):
        found.append(BEAUFORT)
    return tuple(found)


def house_of(state: State, heir: str) -> str:
    if heir == BEAUFORT:
        return "lancaster"
    entry = state.box.get("heir", heir)
    return str(entry.get("house")) if entry is not None else ""


def controller(state: State, heir: str) -> str | None:
    """The noble who controls an heir (Beaufort controls himself, R-45)."""
    if heir == BEAUFORT:
        return BEAUFORT if BEAUFORT in state.nobles else None
    return state.heirs[heir].by


def heir_player(state: State, heir: str) -> str | None:
    noble = controller(state, heir)
    return state.owner(noble) if noble else None


def heir_location(state: State, heir: str) -> str:
    noble = controller(state, heir)
    return state.nobles[noble].at if noble else state.heirs[heir].at


def is_crowned(state: State, heir: str) -> bool:
    if heir == BEAUFORT:
        return state.beaufort_crowned and beaufort_is_heir(state)
    return state.heirs[heir].alive and state.heirs[heir].crowned


def kings(state: State) -> list[str]:
    return list(_kings(state))


@recalled_by(_heirs_key)
def _kings(state: State) -> tuple[str, ...]:
    """The crowned living heirs: is_crowned reads only what _heirs_key holds."""
    return tuple(h for h in _living(state) if is_crowned(state, h))


def sole_king(state: State) -> str | None:
    found = _kings(state)
    return found[0] if len(found) == 1 else None


def line(state: State, house: str) -> list[str]:
    """A house's line of succession, the living first in order (Beaufort last, 8.2)."""
    out = [h for h in state.lines.get(house, ()) if state.heirs[h].alive]
    if house == "lancaster" and beaufort_is_heir(state):
        out.append(BEAUFORT)
    return out


def first_in_line(state: State, house: str) -> str | None:
    found = line(state, house)
    return found[0] if found else None


def heirs_held(state: State, player: str) -> list[str]:
    return [h for h in living_heirs(state) if heir_player(state, h) == player]


def houses_held(state: State, player: str) -> set[str]:
    return {house_of(state, h) for h in heirs_held(state, player)}


def guards(state: State) -> dict[str, str]:
    """R-44: the Royal Guard cards follow the Kings' controllers (derived at every event)."""
    return dict(_guards(state))


def _guards_key(state: State) -> tuple[object, ...]:
    return _heirs_key(state) + (state.options, state.box)


@recalled_by(_guards_key)
def _guards(state: State) -> dict[str, str]:
    out: dict[str, str] = {}
    reigning = [k for k in kings(state) if controller(state, k)]
    sole = sole_king(state)
    for guard in state.box.of("guard"):
        house = guard.get("house")
        if sole is not None and sole in reigning and state.options.get("royal_guard") == "both":
            out[guard.name] = str(controller(state, sole))
            continue
        for king in reigning:
            if house_of(state, king) == house:
                out[guard.name] = str(controller(state, king))
    return out


# --------------------------------------------------------------------------------------------
# Fortresses, friendliness, sieges


def controller_player(state: State, place: str) -> str | None:
    noble = state.control.get(place)
    return state.owner(noble) if noble else None


def occupied_by_others(state: State, place: str, player: str) -> bool:
    return any(state.owner(n) != player for n in inside(state, place))


def friendly(state: State, player: str, place: str, snapshot: bool = False) -> bool:
    """§8.2 for `player`: his fortress; an open town no other faction occupies; a place its
    controller declared friendly; never a neutral fortress. Unfortified places never impede."""
    if (place, player) in state.grants:
        return True
    if snapshot:
        return place in state.friendly or is_unfortified(state, place)
    if is_unfortified(state, place):
        return True
    if is_open_town(state, place):
        return not occupied_by_others(state, place, player)
    return controller_player(state, place) == player


def friendly_snapshot(state: State, player: str,
                      grants: frozenset[tuple[str, str]] | None = None) -> frozenset[str]:
    """The places friendly to the mover at the start of his movement phase (§8.2): `friendly`
    for every place of known kind, with who is inside each gathered once. `grants` stands for
    the state's own when given (the new phase's, before its state is made)."""
    if grants is None:
        grants = state.grants
    places = _places_by_kind(state.box)
    granted = {name for name, to in grants if to == player} if grants else set()
    found = set(places.unfortified)
    found |= granted
    nobles, kinds = state.nobles, places.kinds
    by_location = _nobles_by_location(nobles)
    for name in places.open_towns:  # no other faction inside
        if all(nobles[noble].owner == player for noble in by_location.get(f"in:{name}", ())):
            found.add(name)
    held, astray = _places_held(state.control, noble_owners(nobles))
    for name, noble in astray:  # a controller not in play: a realm out of joint
        if name not in granted and kinds.get(name) not in _NOT_BY_CONTROL:
            raise KeyError(noble)  # as looking his owner up did
    for name in held.get(player, ()):  # controller_player, for the other kinds
        if name not in granted and kinds.get(name) not in _NOT_BY_CONTROL:
            found.add(name)
    # In the box's order, known kinds only, as a walk through every place would make it.
    return frozenset(filter(found.__contains__, places.names))


_NOT_BY_CONTROL = (None, "unfortified", "open-town")  # unknown, or friendly by other rules


@recalled
def _places_held(control: Mapping[str, str], owners: Mapping[str, str]
                 ) -> tuple[dict[str, list[str]], list[tuple[str, str]]]:
    """player -> the places his nobles control, in `control` order; and (place, noble) for each
    controller not in play (none in a sound realm). Sorted out once while the control and the
    owners stand (most turns change neither)."""
    held: dict[str, list[str]] = {}
    astray: list[tuple[str, str]] = []
    for place, noble in control.items():
        if not noble:
            continue
        owner = owners.get(noble)
        if owner is None:
            astray.append((place, noble))
        else:
            held.setdefault(owner, []).append(place)
    return held, astray


class PlacesByKind(NamedTuple):
    names: tuple[str, ...]  # every place of known kind, in the box's order
    kinds: dict[str, str]  # place -> its kind
    unfortified: tuple[str, ...]
    open_towns: tuple[str, ...]


@recalled
def _places_by_kind(box: Box) -> PlacesByKind:
    known = box.place_kinds
    return PlacesByKind(tuple(known), known,
                        tuple(name for name, kind in known.items() if kind == "unfortified"),
                        tuple(name for name, kind in known.items() if kind == "open-town"))


def besieged_place(state: State, noble: str) -> str | None:
    """The place whose siege holds a noble: inside it, or aboard a besieging ship (§3)."""
    at = state.nobles[noble].at
    if not state.sieges:  # most of the game: no siege holds anyone
        return None
    prefix, _, name = at.partition(":")
    if prefix == "in" and name in state.sieges:
        return name
    if prefix == "aboard":
        return next((p for p, s in state.sieges.items() if s.ship == name), None)
    return None


def under_siege(state: State, noble: str) -> bool:
    return besieged_place(state, noble) is not None


def ship_besieger(state: State, noble: str) -> bool:
    at = state.nobles[noble].at
    if not state.sieges:
        return False
    prefix, _, name = at.partition(":")
    return prefix == "aboard" and any(s.ship == name for s in state.sieges.values())


def garrison_ally(state: State, noble: str) -> bool:
    """§8.5: a noble inside another faction's fortress."""
    prefix, name = split(state.nobles[noble].at)
    if prefix != "in":
        return False
    owner = controller_player(state, name)
    return owner is not None and owner != state.owner(noble)


def defence(state: State, place: str) -> float:
    """D = the garrison (a quarter from siege turn 3, R-27; an open town's only while occupied,
    R-1) + the strength of every noble inside, garrison allies included. A quarter of a whole
    number is exact in binary floating point, so D is exact."""
    men = inside(state, place)
    base: float = garrison(state, place)
    if is_open_town(state, place) and not men:
        base = 0
    siege = state.sieges.get(place)
    if siege is not None and siege.turn >= 3:
        base /= 4
    return base + sum(strength(state, n) for n in men)


def besiegers(state: State, place: str) -> list[str]:
    siege = state.sieges.get(place)
    return list(siege.nobles) if siege else []


def shown_number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


# --------------------------------------------------------------------------------------------
# Votes: the tally Parliament and the time limit use


def tally(state: State, attending: Iterable[str] | None = None) -> dict[str, tuple[int, int]]:
    """Commons and Lords per player. Commons wherever the nobles are: nobles, titles, offices,
    fortresses, the King's votes, the senior heirs'; Lords for attending nobles only."""
    present = set(state.nobles if attending is None else attending)
    box = state.box
    commons = {p: 0 for p in state.names}
    lords = {p: 0 for p in state.names}
    for noble, info in state.nobles.items():
        commons[info.owner] += state.entry(noble).number("commons")
        for card in state.cards_of(noble):
            entry = state.entry(card)
            if entry.kind in ("title", "office"):
                commons[info.owner] += entry.number("commons")
            if entry.kind == "bishop" and noble in present:
                lords[info.owner] += entry.number("lords")
        if noble in present:
            lords[info.owner] += state.entry(noble).number("lords")
    for place, noble in state.control.items():
        commons[state.owner(noble)] += place_commons(state, place)
    king_votes = king_holder(state)
    if king_votes is not None:
        commons[king_votes] += int(box.votes("king_commons"))
    for house in ("lancaster", "york"):
        first = first_in_line(state, house)
        who = heir_player(state, first) if first else None
        if who is not None:
            commons[who] += int(box.votes("senior_heir_commons"))
            if controller(state, str(first)) in present:
                lords[who] += int(box.votes("senior_heir_lords"))
    return {p: (commons[p], lords[p]) for p in state.names}


def king_holder(state: State) -> str | None:
    """Who has the King's 20 Commons: the sole King's controller; with no sole King, the
    Chancellor's faction (R-57: an uncontrolled sole King gives them to nobody)."""
    sole = sole_king(state)
    if sole is not None:
        return heir_player(state, sole)
    if state.box.votes("no_sole_king") != "chancellor":
        return None
    noble = holder(state, CHANCELLOR)
    return state.owner(noble) if noble else None


# --------------------------------------------------------------------------------------------
# Held event cards and Parliament's call (§7.1, R-31..R-33, R-59)

CALL_KINDS = ("city", "town", "open-town", "unfortified")  # towns and cities
WRIT, FREE_MOVE, MAY_CALL = "writ", "free-move", "chancellor-may-call"


def event_kind(state: State, name: str) -> str | None:
    entry = state.box.get("event", name)
    return None if entry is None else entry.get("kind")


def held_count(state: State, player: str, kind: str) -> int:
    """How many held event cards of a kind (Writ, Free Move...) a player has (R-11)."""
    return sum(1 for c in state.held.get(player, ()) if event_kind(state, c) == kind)


def holds_event(state: State, player: str, kind: str) -> bool:
    return held_count(state, player, kind) > 0


class Caller(NamedTuple):
    """Who calls Parliament (7.1): the sole King (the heir) with his controlling noble, or the
    Chancellor (the noble, twice)."""

    by: str
    noble: str
    chancellor: bool


def calling(state: State, player: str) -> Caller | None:
    """Who `player` would call Parliament as (7.1): the sole King when his faction controls
    him; with no sole King, the Chancellor when his faction holds the office. None when
    neither."""
    sole = sole_king(state)
    if sole is not None:
        noble = controller(state, sole)
        return Caller(sole, noble, False) if noble is not None and \
            state.owner(noble) == player else None
    chancellor = holder(state, CHANCELLOR)
    if chancellor is not None and state.owner(chancellor) == player:
        return Caller(chancellor, chancellor, True)
    return None


def lockout_turns(state: State) -> int:
    """R-32: the turns after a King's Peace in which no call is made: three player turns, or
    three rounds with `lockout = rounds`."""
    return 3 * (len(state.playing) if state.options.get("lockout") == "rounds" else 1)


def calls_made(state: State, who: Caller) -> int:
    """R-33: the calls a King (the heir) or a Chancellor (the noble) has made."""
    return sum(1 for p in state.parliaments if not p.people and p.by == who.by and
               p.chancellor == who.chancellor)


def call_problem(state: State, player: str, place: str | None = None) -> IllegalMove | None:
    """Why `player` may not call Parliament now (7.1, R-32, R-33), at `place` when given (R-31),
    else where his King or Chancellor stands."""
    return peace_problem(state) or caller_problem(state, player, place)


def peace_problem(state: State) -> IllegalMove | None:
    """R-32: nobody calls Parliament during the King's Peace nor in the lockout after it; both
    hold for a whole turn (the Peace ends as its caller's turn begins)."""
    if state.peace is not None:
        return refuse(f"the King's Peace holds until just before {state.peace.caller}'s next "
                      "chance phase: no Parliament is called during it (R-32)", "kings-peace",
                      "R-32")
    if state.peace_over is not None and state.turn < state.peace_over + lockout_turns(state):
        left = state.peace_over + lockout_turns(state) - state.turn
        return refuse(f"no Parliament is called in the {lockout_turns(state)} turns after a "
                      f"King's Peace: {left} more to go (R-32, R-71)", "lockout", "R-32")
    return None


def caller_problem(state: State, player: str, place: str | None = None) -> IllegalMove | None:
    """Why `player` may not call Parliament, the King's Peace aside (7.1, R-31, R-33)."""
    who = calling(state, player)
    sole = sole_king(state)
    if who is None:
        if sole is not None and controller(state, sole) is None:
            return refuse(f"King {sole} is uncontrolled: nobody may call Parliament (7.1)",
                          "no-caller", "§7.1")
        if sole is not None:
            return refuse(f"{player} does not control the sole King, {sole} (7.1)",
                          "not-the-king", "§7.1")
        return refuse(f"with no sole King only the faction of the Chancellor of England calls "
                      f"Parliament, and {player} does not hold him (7.1)", "not-the-chancellor",
                      "§7.1")
    by, noble, chancellor = who
    if chancellor and not holds_event(state, player, MAY_CALL):
        return refuse(f"{player} holds no Chancellor May Call Parliament card (7.1)",
                      "no-chancellor-card", "§7.1")
    if not holds_event(state, player, WRIT):
        return refuse(f"{player} holds no Writ: a call needs one (7.1)", "no-writ", "§7.1")
    if calls_made(state, who) >= 2:
        return refuse(f"{'the Chancellor ' if chancellor else 'King '}{by} has called Parliament "
                      "twice already (R-33)", "two-calls", "R-33")
    here = split(noble_position(state, noble))
    where = here[1] if here[0] in ("in", "near") else None
    calls = f"the Chancellor, {noble}," if chancellor else f"King {by} and {noble}"
    if where is None:
        return refuse(f"{noble} is at {noble_position(state, noble)}: Parliament is called where "
                      f"{calls} stand, a town or city (R-31)", "not-at-place", "R-31")
    if place is not None and place != where:
        return refuse(f"{noble} is at {where}, not {place}: Parliament is called where {calls} "
                      "stand (7.1)", "not-at-place", "§7.1")
    return call_place_problem(state, player, where)


def call_place_problem(state: State, player: str, place: str) -> IllegalMove | None:
    """R-31: a mainland town (fortified, open or unfortified) or city, never a castle, island or
    Calais, not under siege; fortified, the caller's faction controls it; open or unfortified,
    no other faction occupies it."""
    kind = str(place_entry(state, place).get("kind"))
    if kind not in CALL_KINDS:
        return refuse(f"{place} is a {kind}: Parliament sits in a town or city (R-31)",
                      "not-a-town", "R-31")
    if area(state, place) != "mainland":
        return refuse(f"{place} is not on the mainland ({area(state, place)}) (R-31)",
                      "off-mainland", "R-31")
    if place in state.sieges:
        return refuse(f"{place} is under siege (R-31)", "under-siege", "R-31")
    if kind in ("city", "town") and controller_player(state, place) != player:
        return refuse(f"{place} is fortified and {player}'s faction does not control it (R-31)",
                      "not-controlled", "R-31")
    here = f"in:{place}" if kind == "open-town" else f"near:{place}"
    if kind in ("open-town", "unfortified") and \
            any(state.owner(n) != player for n in at_location(state, here)):
        return refuse(f"another faction occupies {place} (R-31)", "occupied", "R-31")
    return None


def may_call(state: State) -> bool:
    """Whether the active player may call Parliament now: the Parliament phase has something to
    do (else it is skipped, §5)."""
    if calling(state, state.active) is None:
        return False  # most turns: he has no King or Chancellor to call, no refusal to word
    return call_problem(state, state.active) is None


def people_window(state: State) -> bool:
    """7.7, R-59: no sole King, no King's Peace, and no Parliament called in the three turns
    before this one (counted in player turns from the call)."""
    if sole_king(state) is not None or state.peace is not None:
        return False
    return not any(state.turn - p.turn <= 3 for p in state.parliaments)


# --------------------------------------------------------------------------------------------
# Placing cards (§5.3, rule 12, R-19)


def placement_problem(state: State, card: str, noble: str, player: str) -> IllegalMove | None:
    """Why `card` may not be assigned to `noble` now (None when it may)."""
    entry = state.entry(card)
    if noble not in state.nobles or state.owner(noble) != player:
        return refuse(f"{noble} is not a noble of {player}'s faction in play", "not-your-noble",
                      "§5.3")
    if under_siege(state, noble) or ship_besieger(state, noble):
        return refuse(f"{noble} is under siege or besieging a port from a ship: no card may be "
                      "assigned to him (rule 12)", "noble-under-siege", "§5.3")
    if state.options.get("assign_at_sea") == "no" and \
            split(noble_position(state, noble))[0] == "sea":
        return refuse(f"{noble} is aboard a ship at sea: no card may be assigned to him (R-19)",
                      "noble-at-sea", "R-19")
    if entry.kind == "title" and titled(state, noble):
        return refuse(f"{noble} is titled already: one title per noble", "titled", "§5.3")
    if entry.kind == "office" and not titled(state, noble):
        return refuse(f"{noble} is untitled: an office goes to a titled noble", "untitled",
                      "§5.3")
    if entry.kind == "office" and office_of(state, noble):
        return refuse(f"{noble} holds {office_of(state, noble)}: one office per titled noble",
                      "has-office", "§5.3")
    return None


def eligible_nobles(state: State, card: str, player: str) -> list[str]:
    return [n for n in state.faction(player) if placement_problem(state, card, n, player) is None]


def assign(state: State, card: str, noble: str, claims: bool = True) -> State:
    """The card goes to the noble; the places and ships it brings come with it (R-7)."""
    state = evolve(state, cards=moved_cards(state.cards, {card: f"noble:{noble}"}))
    entry = state.entry(card)
    if entry.kind == "town":  # at set-up control is settled after the layout
        return take_control(state, str(entry.get("place")), noble) if claims else state
    if claims:
        state = claim_places(state, noble, entry.names("brings"))
    return bring_ships(state, noble, entry)


def claim_places(state: State, noble: str, places: Iterable[str]) -> State:
    """R-7: places become the noble's if they are neutral fortresses."""
    control = dict(state.control)
    return evolve(state, control=control) if _claim(control, state.box, noble, places) \
        else state


def _claim(control: dict[str, str], box: Box, noble: str, places: Iterable[str]) -> bool:
    """R-7 in `control`: each of `places` that is a neutral fortress becomes the noble's (the
    first to claim one has it). Whether any did."""
    claimed = False
    kinds = box.place_kinds  # of the places whose kind is known: another is claimed by none
    for place in places:
        kind = kinds.get(place)
        if place not in control and kind is not None and PLACE_KINDS[str(kind)].fortress:
            control[place] = noble
            claimed = True
    return claimed


def take_control(state: State, place: str, noble: str) -> State:
    control = dict(state.control)
    control[place] = noble
    moved = {}  # the town card goes with the fortress (§8.1)
    for town in _towns_by_place(state.box).get(place, ()):
        where = state.cards.get(town, "")
        if where.startswith("noble:") and where != f"noble:{noble}":
            moved[town] = f"noble:{noble}"
    cards = moved_cards(state.cards, moved) if moved else state.cards  # kept if none moves
    return evolve(state, control=control, cards=cards)


@recalled
def _towns_by_place(box: Box) -> dict[object, list[str]]:
    """place -> the town cards of its fortress, in the box's order."""
    out: dict[object, list[str]] = {}
    for town in box.of("town"):
        out.setdefault(town.get("place"), []).append(town.name)
    return out


def bring_ships(state: State, noble: str, entry: Entry) -> State:
    brought: dict[str, ShipState] = {}
    names = list(entry.names("ships")) + ([entry.name] if entry.kind == "ship" else [])
    for name in names:
        ship = state.box.card(name)
        if ship is not None and name not in state.ships and name not in brought:
            brought[name] = ShipState(noble, f"port:{ship.get('home_port')}")
    return evolve(state, ships={**state.ships, **brought}) if brought else state


def place_town(state: State, card: str, player: str) -> State:
    """A town card in hand goes to its fortress's controller, or to an own noble who may take
    it (the player's choice when several may); else it stays in hand until one may (R-53)."""
    owner = town_destination(state, card, player)
    if owner is not None:
        return assign(state, card, owner)
    eligible = eligible_nobles(state, card, player)
    if len(eligible) == 1:
        return assign(state, card, eligible[0])
    if eligible and not any(d.kind == "place" and d.subject == card for d in state.duties):
        return add_duty(state, Duty("place", player, card, tuple(eligible)))
    return state


def town_destination(state: State, card: str, player: str) -> str | None:
    """§8.1, R-53, R-57: the noble a town card goes to without a choice (the fortress's
    controller), else None (the player chooses among his own)."""
    place = str(state.entry(card).get("place"))
    return state.control.get(place)


# --------------------------------------------------------------------------------------------
# Entering play (§4, R-7, R-30, R-60)


def home_choices(state: State, noble: str) -> list[str]:
    """R-30: inside a home castle his faction controls that is not under siege, his choice;
    if there is none, near one of his other home castles."""
    owner = state.owner(noble)
    homes = list(state.entry(noble).names("home"))
    inside_ = [f"in:{h}" for h in homes if controller_player(state, h) == owner
               and h not in state.sieges]
    if inside_:
        return inside_
    return [normal(state, f"near:{h}") for h in homes if controller_player(state, h) != owner] \
        or [normal(state, f"near:{h}") for h in homes]


def send_home(state: State, noble: str, to: str | None = None) -> State:
    choices = home_choices(state, noble)
    target = to if to is not None else choices[0]
    return move_nobles(state, [noble], target)


def move_nobles(state: State, nobles: Iterable[str], to: str) -> State:
    """Nobles (with the heirs they control) to a location."""
    return evolve(state, nobles=nobles_moved(state, nobles, to))


def nobles_moved(state: State, nobles: Iterable[str], to: str) -> dict[str, NobleState]:
    """`state.nobles` with `nobles` at `to` (for an event that changes more in one new state).
    A move changes no owner: `noble_owners` is told, and need not look."""
    moved = dict(state.nobles)
    for noble in nobles:
        moved[noble] = NobleState(moved[noble].owner, to)  # evolve(..., at=to), made directly
    made, base = _moved_nobles
    if state.nobles is not made or made is _last_owners[0]:
        base = state.nobles  # else a move of the last move, not asked about: the same base
    _moved_nobles[:] = moved, base
    return moved


def enter_noble(state: State, noble: str, player: str, placed: bool = True) -> State:
    """A noble comes into play for `player`: his home castles if neutral (R-7), Stanley with Le
    Lucas (rule 26), and (when `placed`) his position by R-30's placement (R-60)."""
    state = enter_nobles(state, [(noble, player)])
    if placed:
        state = claim_places(state, noble, state.entry(noble).names("home"))
        state = send_home(state, noble)
    return state


def enter_nobles(state: State, entering: Iterable[tuple[str, str]]) -> State:
    """Nobles come into play, each for his player (noble, player), with no place yet (the
    layout of §4.3 places them all at once, in `finish_setup`): one new state for them all, and
    Stanley's Le Lucas (rule 26)."""
    nobles = dict(state.nobles)
    moves = {}
    for noble, player in entering:
        nobles[noble] = NobleState(player, "")
        moves[noble] = PLAY
    state = evolve(state, nobles=nobles, cards=moved_cards(state.cards, moves))
    if STANLEY in moves and state.box.card(LE_LUCAS) is not None and \
            state.cards.get(LE_LUCAS) in (ASIDE, DECK, DISCARD):
        state = assign(state, LE_LUCAS, STANLEY)
    return state


# --------------------------------------------------------------------------------------------
# Death (§9)


def chronicle(state: State, text: str) -> State:
    return evolve(state, chronicle=state.chronicle + ((state.turn, text),))


def noble_dies(state: State, noble: str, why: str, heirs_to: str | None = "choice") -> State:
    """§9: titles, offices, bishops to the Chancery, other cards to the crown discard, Le Lucas
    and Royal Guards aside; his fortresses neutral with all inside expelled; his heirs to a noble
    of his faction with him (R-48, a duty when there is a choice), else uncontrolled there.
    `heirs_to=None`: the caller decides about his heirs (§6.1)."""
    info = state.nobles[noble]
    places = [p for p, n in state.control.items() if n == noble]
    mates = [n for n in at_location(state, info.at) if n != noble and
             state.owner(n) == info.owner]
    his_heirs = state.heirs_of(noble)
    state = chronicle(state, f"{noble} dies ({why})")
    cards = dict(state.cards)
    for card in state.cards_of(noble):
        kind = state.kind(card)
        cards[card] = CHANCERY if kind in ("title", "office", "bishop") else \
            ASIDE if card == LE_LUCAS else DISCARD
    cards[noble] = DISCARD
    ships = {s: v for s, v in state.ships.items() if v.by != noble}
    for ship, v in state.ships.items():
        if v.by == noble:
            ships.update(_ship_after_death(state, ship, noble, cards))
    sieges = {p: evolve(s, nobles=tuple(n for n in s.nobles if n != noble))
              for p, s in state.sieges.items()}
    state = evolve(state, cards=cards, ships=ships, sieges=sieges,
                    nobles={n: s for n, s in state.nobles.items() if n != noble},
                    control={p: n for p, n in state.control.items() if n != noble},
                    beaufort_crowned=state.beaufort_crowned and noble != BEAUFORT)
    for place in places:
        state = expel(state, place)
    heirs = dict(state.heirs)
    for heir in his_heirs:
        loose = evolve(heirs[heir], by=None, at=info.at)
        if heirs_to == "choice" and len(mates) > 1:
            state = add_duty(state, Duty("heir", info.owner, heir, tuple(mates) + ("none",),
                                         info.at))
            heirs[heir] = loose
        elif heirs_to == "choice" and mates:
            heirs[heir] = evolve(heirs[heir], by=mates[0])
        else:
            heirs[heir] = loose
    return evolve(state, heirs=heirs)


def _ship_after_death(state: State, ship: str, noble: str,
                      cards: dict[str, str]) -> dict[str, ShipState]:
    """R-69: a ship whose controller dies passes, with its card, to the first noble aboard; with
    nobody aboard it leaves play."""
    crew = [n for n in aboard(state, ship) if n != noble]
    if not crew:
        return {}
    if ship in cards:
        cards[ship] = f"noble:{crew[0]}"
    return {ship: evolve(state.ships[ship], by=crew[0])}


def expel(state: State, place: str) -> State:
    """A fortress gone neutral: everyone inside to its open square (§9)."""
    state = move_nobles(state, inside(state, place), f"near:{place}")
    heirs = {h: (evolve(s, at=f"near:{place}") if s.by is None and s.at == f"in:{place}"
                 else s) for h, s in state.heirs.items()}
    return evolve(state, heirs=heirs)


def heir_dies(state: State, heir: str, why: str) -> State:
    if heir == BEAUFORT:
        return state  # he dies only as a noble
    heirs = dict(state.heirs)
    heirs[heir] = evolve(heirs[heir], alive=False, by=None, crowned=False, due=None)
    return chronicle(evolve(state, heirs=heirs), f"{heir} dies ({why})")


def kill(state: State, names: Iterable[str], why: str, heirs_to: str | None = "choice") -> State:
    """Nobles and heirs die (heirs first, so that a dead noble's heirs are not handed on)."""
    names = list(names)
    for name in names:
        if name in state.heirs and name != BEAUFORT:
            state = heir_dies(state, name, why)
    for name in names:
        if name in state.nobles:
            state = noble_dies(state, name, why, heirs_to)
    return state


def ship_sinks(state: State, ship: str, why: str) -> State:
    """A ship lost with all aboard (storms, a broken siege from a ship): they die."""
    crew = aboard(state, ship)
    heirs = [h for n in crew for h in state.heirs_of(n)]
    state = kill(state, heirs + crew, why, heirs_to=None)
    ships = {s: v for s, v in state.ships.items() if s != ship}
    cards = dict(state.cards)
    if ship in cards and cards[ship].startswith("noble:"):
        cards[ship] = ASIDE if ship == LE_LUCAS else DISCARD
    return chronicle(evolve(state, ships=ships, cards=cards), f"{ship} is lost ({why})")


# --------------------------------------------------------------------------------------------
# Duties


def add_duty(state: State, duty: Duty) -> State:
    return evolve(state, duties=state.duties + (duty,))


def duty(state: State) -> Duty | None:
    return state.duties[0] if state.duties else None


def done(state: State, resolved: Duty) -> State:
    duties = list(state.duties)
    duties.remove(resolved)
    return evolve(state, duties=tuple(duties))


DUTY_PROMPTS = {
    "deal": "{player} is dealt crown cards one at a time until a noble comes: `dealt CARD`",
    "layout": "{player} lays out the cards dealt: `assign CARD to NOBLE` (or to chancery, a "
              "card no noble may take)",
    "respond": "{player}'s {subject} answers the event card: `respond {subject}`",
    "storm": "the table rolls for {subject} at sea: `storm {subject} ROLL port PLACE`",
    "heir": "{player} names who controls {subject}: `heir {subject} to NOBLE` (or none)",
    "control": "{player} names the noble who takes {subject}: `control {subject} to NOBLE`",
    "captive": "{player} decides the captive {subject}: `ransom {subject}` or `kill {subject}`",
    "retreat": "{player}'s {subject} goes to {choices}: `retreat {subject} to LOCATION`",
    "place": "{player} places the town card {subject}: `play {subject} to NOBLE`",
    "discard": "{player} holds more than two crown cards: `play CARD to NOBLE` or "
               "`discard CARD`",
    "port": "{player}'s ship {subject} comes to a mainland port for Parliament: `port {subject} "
            "PLACE`{stay} (R-74)",
}


def duty_prompt(item: Duty) -> str:
    choices = " or ".join(item.choices[:4]) or "home"
    stay = f", or `stay {item.subject}`" if "stay" in item.choices else ""
    return DUTY_PROMPTS[item.kind].format(player=item.player or "the table",
                                          subject=item.subject, choices=choices, stay=stay)


# --------------------------------------------------------------------------------------------
# The turn


def phase(state: State) -> str:
    if state.ended is not None:
        return OVER
    if state.time_up:
        return TIME_UP
    return state.stage


def to_act(state: State) -> ToAct:
    if state.ended is not None:
        return ToAct((), "the game is over")
    if state.time_up:
        return ToAct((), "the time limit is reached: the table records `end time` (R-49)",
                     table=True)
    current = duty(state)
    if current is not None:
        if current.player is None:
            return ToAct((), duty_prompt(current), table=True)
        return ToAct((current.player,), duty_prompt(current))
    if state.combat is not None:
        return combat_turn(state)
    if state.sitting is not None:
        return sitting_turn(state)
    if state.people_due and state.stage == PARLIAMENT:
        return ToAct((state.active,), f"{state.active} holds a People's Parliament (7.7): "
                                      "`parliament people at PLACE [moving NOBLE]`")
    if state.stage == PARLIAMENT:
        who = calling(state, state.active)
        where = place_of(noble_position(state, who.noble)) if who else None
        return ToAct((state.active,), f"{state.active} may call Parliament: `parliament call "
                                      f"at {where or 'PLACE'} summon NOBLE`, or `next`")
    if state.stage == DEAL:
        player = next(p for p in state.playing if p not in state.dealt)
        return ToAct((player,), f"{player} enters the {deal_size(state)} crown cards dealt: "
                                "`dealt CARD, CARD, ...` (R-5)")
    if state.stage == DRAW and state.drew:
        return ToAct((state.active,), _after_draw(state))
    return ToAct((state.active,), PROMPTS[state.stage].format(player=state.active))


def _after_draw(state: State) -> str:
    """The draw made, the turn ends with `next`, unless R-47's deadline holds it open."""
    player = state.active
    deadline = state.both.get(player)
    if deadline is not None and deadline <= state.own.get(player, 0):
        return (f"{player} holds heirs of both houses: back to one house (`transfer HEIR from "
                f"NOBLE to NOBLE` or `execute HEIR`) before `next` ends the turn (R-47)")
    return f"{player} has drawn: `next` ends the turn"


def acting(state: State) -> tuple[str, ...]:
    """`to_act(state).players` without its prompt (the core asks at every player event): a
    duty's player, or the active player in a phase of his own; anything else asks to_act."""
    if state.ended is None and not state.time_up:
        if state.duties:
            player = state.duties[0].player
            return () if player is None else (player,)
        if state.combat is None and state.sitting is None and state.stage in PROMPTS:
            return (state.active,)
    return to_act(state).players


PROMPTS = {
    CHANCE: "{player} draws an event card: `event CARD`",
    MOVEMENT: "{player} moves: `move NOBLES to LOCATION`, `sail SHIP to LOCATION`, or `next`",
    COMBAT: "{player} fights: `attack ...`, `siege lay|join|conclude|break PLACE ...`, "
            "or `next`",
    CORONATION: "{player} may crown an heir: `crown HEIR at PLACE`, or `next`",
    DRAW: "{player} draws a crown card: `draw CARD` or `draw hidden`; then `next`",
}


def sitting_turn(state: State) -> ToAct:
    """Who acts in a Parliament in session, and what is awaited (§7.2-7.5)."""
    sitting = state.sitting
    assert sitting is not None
    step, leader = sitting.step, sitting.leader
    if step in (EXCUSE, RETURN):
        player = sitting.order[sitting.asked]
        if step == EXCUSE:
            return ToAct((player,), f"{player} may excuse nobles from Parliament: `excuse "
                                    "NOBLES` (a Writ each) or `excuse NOBLE sea` (R-35); then "
                                    "`next`")
        return ToAct((player,), f"{player} sends his nobles home from Parliament: `return "
                                "NOBLE to HOME`, or `stay NOBLE freemove`; then `next`")
    if step == REVOKE:
        return ToAct((sitting.caller,), f"{sitting.caller} may revoke excuses: `revoke NOBLES` "
                                        "(a Writ each); then `next`")
    if step == BISHOPS:
        return ToAct((leader,), f"{leader} assigns the Chancery's bishops, no vote: `bishop "
                                "CARD to NOBLE` (7.3)")
    if step == SELECT:
        return ToAct((leader,), f"{leader} leads round {sitting.round}: `select CARDS` (titles "
                                "first) or `select none`")
    if step == PROPOSE:
        card = sitting.selected[0]
        return ToAct((leader,), f"{leader} proposes {card}: `propose {shown(card)} to NOBLE` "
                                "(R-37)")
    if step == VOTE:
        return ToAct((), f"the table votes on {subject(sitting)}: `vote yea PLAYERS nay "
                         "PLAYERS` (the others abstain)", table=True)
    if step == ASSIGN:
        return ToAct((leader,), f"{leader} assigns the rest without a vote (round 3): `assign "
                                "CARD to NOBLE`")
    return ToAct((sitting.caller,), f"{sitting.caller} may put other business (`illegitimate "
                                    "KING`, `transfer CARD from NOBLE to NOBLE agreed`), then "
                                    "`dismiss`")


SESSION_EVENTS = frozenset({"excuse", "revoke", "port", "stay", "bishop", "select", "propose",
                            "vote", "illegitimate", "dismiss", "return"})


def explain(state: State, kind: str, by: str | None) -> IllegalMove | None:
    """Parliament's own reason for a move the core refuses as out of turn or out of its phase
    (Game.explain): no Parliament in session, or whose turn it is in the session and why."""
    sitting = state.sitting
    if sitting is None:
        if kind in SESSION_EVENTS:
            return refuse(f"`{kind}` belongs to a Parliament in session, and none is: "
                          f"{to_act(state).prompt}", "no-parliament", "§7")
        return None
    if by is None or by not in state.names or kind not in SESSION_EVENTS | {"next"}:
        return None
    turn = sitting_turn(state)
    if by in turn.players:
        return None
    if sitting.step == EXCUSE and kind == "excuse" and by == sitting.caller:
        return refuse(f"{by} called this Parliament: the caller's faction is never excused "
                      "(7.2)", "callers-faction", "§7.2")
    if sitting.step in (EXCUSE, RETURN):
        what, rule = ("excuses come", "§7.2") if sitting.step == EXCUSE else \
            ("the nobles go home", "§7.5")
        return refuse(f"it is not {by}'s turn: in Parliament {what} one player at a time from "
                      f"{sitting.caller}'s left, and now {turn.prompt}", "not-your-turn", rule)
    return refuse(f"it is not {by}'s turn in Parliament: {turn.prompt}", "not-your-turn",
                  "§7.3" if sitting.step in (BISHOPS, SELECT, PROPOSE, ASSIGN) else "§7")


def subject(sitting: Sitting) -> str:
    """What the vote in progress decides, in words."""
    question = sitting.question
    if question is None:
        return "nothing"
    if question.kind == "illegitimate":
        return f"King {question.card}'s illegitimacy, moved by {question.noble}"
    if question.kind == "transfer":
        return f"{question.card} from {question.giver} to {question.noble}"
    return f"{question.card} to {question.noble}"


def combat_turn(state: State) -> ToAct:
    combat = state.combat
    assert combat is not None
    if combat.stage == "weather":
        return ToAct((state.active,), f"{state.active} checks the weather: `weather CARD`")
    if combat.stage == "result":
        return ToAct((), "the table enters the battle's result: `result major|minor|none`"
                         + (" or `result ROLL`" if has_chart(state, "battle_chart") else ""),
                     table=True)
    if combat.saves:
        return ToAct((), f"the table rolls for {combat.saves[0]}: `save {combat.saves[0]} "
                         "ROLL`", table=True)
    return ToAct((), "the table enters who died: `deaths NAMES` or `deaths none`", table=True)


def has_chart(state: State, kind: str) -> bool:
    return state.box.get(kind, kind) is not None


def deal_size(state: State) -> int:
    """R-5: `auto` deals 36 to 2, 3, 4 or 6 players and 35 to 5 or 7; a fixed size deals the
    quotient (the rest goes back)."""
    players = len(state.names)
    option = state.options.get("deal", "auto")
    total = (35 if players in (5, 7) else 36) if option == "auto" else int(option)
    return total // players


def next_seat(state: State, seat: int) -> int:
    for step in range(1, len(state.names) + 1):
        candidate = (seat + step) % len(state.names)
        if state.names[candidate] not in state.late:
            return candidate
    return seat


def next_turn_of(state: State, player: str) -> int:
    """The number of `player`'s next turn (turns go round the seats, late joiners aside)."""
    seat, turn = state.seat, state.turn
    for _ in range(len(state.names)):
        seat = next_seat(state, seat)
        turn += 1
        if state.names[seat] == player:
            return turn
    return turn


def begin_turn(state: State, seat: int) -> State:
    """A player's turn begins; the King's Peace ends just before the caller's chance phase."""
    player = state.names[seat]
    own = dict(state.own)
    own[player] = own.get(player, 0) + 1
    last = dict(state.last_turn)
    last[player] = state.turn + 1
    ends = state.peace is not None and state.peace.caller == player
    state = evolve(state, seat=seat, turn=state.turn + 1, own=own, last_turn=last,
                   stage=CHANCE, event_drawn=False, drew=False, cancelled=False, moved={},
                   acted=frozenset(), grants=frozenset(), people_due=False)
    if ends:
        state = chronicle(evolve(state, peace=None, peace_over=state.turn),
                          "the King's Peace ends")
    return state


def begin_phase(state: State, stage: str) -> State:
    # One new state: the friendly places are taken with this phase's grants (none yet).
    fresh: dict[str, Any] = dict(stage=stage, grants=frozenset(), moved={}, acted=frozenset())
    if stage == MOVEMENT:
        fresh["friendly"] = friendly_snapshot(state, state.active, grants=frozenset())
    elif stage == COMBAT and any(s.owner == state.active for s in state.sieges.values()):
        # R-27: the active player's sieges count one more turn (the others' stand as they were,
        # the same objects: what is checked by them is not checked again)
        fresh["sieges"] = {p: (evolve(s, turn=s.turn + 1) if s.owner == state.active else s)
                           for p, s in state.sieges.items()}
    return evolve(state, **fresh)


def advance(state: State) -> State:
    """The next phase of the turn, skipping those with nothing to do (§5)."""
    index = TURN_PHASES.index(state.stage) + 1
    while index < len(TURN_PHASES):
        stage = TURN_PHASES[index]
        if not skipped(state, stage):
            return begin_phase(state, stage)
        state = skip_note(state, stage)
        index += 1
    return state


def skip_note(state: State, stage: str) -> State:
    """Say why a Parliament phase is skipped when R-32 alone keeps its player from calling, so
    that the table hears the ruling and nobody waits for the phase."""
    problem = peace_problem(state) if stage == PARLIAMENT else None
    if problem is None or state.people_due or caller_problem(state, state.active) is not None:
        return state
    return chronicle(state, f"{state.active}'s Parliament phase is skipped: {problem.message}")


def skipped(state: State, stage: str) -> bool:
    if stage in (MOVEMENT, COMBAT):
        return state.cancelled  # 7.7: a People's Parliament cancels them
    if stage == PARLIAMENT:
        return not state.people_due and not may_call(state)
    if stage == CORONATION:
        return not coronations(state)
    return False


def coronations(state: State) -> list[tuple[str, str]]:
    """(heir, place) pairs the active player may crown now (8.1)."""
    out = []
    for house in ("lancaster", "york"):
        heir = first_in_line(state, house)
        if heir is None or any(house_of(state, k) == house for k in _kings(state)):
            continue
        if heir_player(state, heir) != state.active:
            continue
        place = place_of(heir_location(state, heir))
        if place and coronation_problem(state, heir, place) is None:
            out.append((heir, place))
    return out


def coronation_problem(state: State, heir: str, place: str) -> IllegalMove | None:
    house = house_of(state, heir)
    if first_in_line(state, house) != heir:
        return refuse(f"{heir} is not the first living heir of {house.title()}", "not-first",
                      "§8.1")
    if any(house_of(state, k) == house for k in _kings(state)):
        return refuse(f"a King of {house.title()} lives", "king-lives", "§8.1")
    noble = controller(state, heir)
    if noble is None or state.owner(noble) != state.active:
        return refuse(f"{heir} is not controlled by a noble of {state.active}'s faction",
                      "not-controlled", "§8.1")
    entry = state.box.place(place)
    if entry is None or not entry.flag("cathedral"):
        return refuse(f"{place} has no cathedral", "no-cathedral", "§8.1")
    here = normal(state, f"in:{place}")
    if state.nobles[noble].at != here:
        return refuse(f"{heir} and {noble} are not at {place} ({here})", "not-there", "§8.1")
    if garrison_ally(state, noble):
        return refuse(f"{noble} is a garrison ally in {place}: he crowns no heir (§8.5)",
                      "garrison-ally", "§8.5")
    clerics = [c for n in at_location(state, here)
               if state.options.get("coronation_bishops") == "present"
               or state.owner(n) == state.active for c in bishops_of(state, n)]
    if not any(state.entry(c).flag("archbishop") for c in clerics) and len(clerics) < 2:
        return refuse(f"no archbishop and fewer than two bishops are held at {place} "
                      "(R-43)", "no-bishops", "R-43")
    return None


# --------------------------------------------------------------------------------------------
# Set-up (§4)


def deck_cards(state: State) -> list[str]:
    return list(placed(state.cards).at.get(DECK, ()))


def deck_size(state: State) -> int:
    return len(placed(state.cards).at.get(DECK, ())) - sum(state.hidden.values())


def rebuild_deck(state: State) -> State:
    """R-15: an exhausted Crown deck is rebuilt from the crown discard."""
    if deck_size(state) > 0:
        return state
    cards = {c: (DECK if w == DISCARD else w) for c, w in state.cards.items()}
    return evolve(state, cards=cards)


def initial_place(box: Box, card: str) -> str:
    """§4.1, rule 25: where a crown card starts: the deck, set aside, or out of the game."""
    entry = box.crown_card(card)
    assert entry is not None, card
    if entry.get("assoc") in ("calais", "ireland") or card_entry(card) in _ships_brought(box):
        return OUT
    if card in (LE_LUCAS, CONSTABLE):
        return ASIDE
    return DECK


@recalled
def _ships_brought(box: Box) -> frozenset[str]:
    """The ships a title or office brings into play (rule 25: not in the Crown deck)."""
    return frozenset(s for kind in ("title", "office") for e in box.of(kind)
                     for s in e.names("ships"))


def open_deck(state: State) -> State:
    """At the first deal: the Crown deck as rule 25 makes it."""
    return evolve(state, cards=_opening_places(state.box))


@recalled
def _opening_places(box: Box) -> dict[str, str]:
    """card -> where it starts, a function of the box alone: the logs of a folder played with
    one box share it (a state's `cards` is never changed, only replaced)."""
    return {c: initial_place(box, c) for c in crown_instances(box)}


def first_player(state: State) -> int:
    """R-8: the Chancellor's faction; else the most senior cleric's; else the most troops."""
    chancellor = holder(state, CHANCELLOR)
    if chancellor:
        return state.names.index(state.owner(chancellor))
    clerics = [(-state.entry(c).number("lords"), _senior_rank(c), c)
               for c, w in state.cards.items() if w.startswith("noble:")
               and state.kind(c) == "bishop"]
    if clerics:
        return state.names.index(state.owner(str(holder(state, min(clerics)[2]))))
    troops = {p: sum(strength(state, n, bonuses=False) for n in state.faction(p))
              for p in state.playing}
    best = max(troops.values())
    return next(state.names.index(p) for p in state.playing if troops[p] == best)


def _senior_rank(card: str) -> int:
    return next((i for i, word in enumerate(SENIOR_CLERICS) if word in card), 99)


def finish_setup(state: State) -> State:
    """§4 steps 5-8: the first player, control at entry in seat order from him (R-7), the
    Constable back, heirs at their starts with Henry crowned, nobles and ships in place."""
    first = first_player(state)
    state = evolve(state, first=first, lines=lines_of(state))
    order = state.names[first:] + state.names[:first]
    for player in order:
        state = _claims_at_setup(state, player)
    back = {CONSTABLE: DECK} if state.cards.get(CONSTABLE) == ASIDE else {}
    state = evolve(state, cards=moved_cards(state.cards, back), heirs=start_heirs(state))
    # Each noble home (send_home): where he goes reads the control and the owners, which no
    # noble's placing changes, so all are placed in one new state.
    nobles = dict(state.nobles)
    for player in order:
        for noble in state.faction(player):
            nobles[noble] = NobleState(nobles[noble].owner, home_choices(state, noble)[0])
    state = evolve(state, nobles=nobles)
    return chronicle(begin_turn(state, first), "the game begins")


def _claims_at_setup(state: State, player: str) -> State:
    for noble in state.faction(player):
        for card in state.cards_of(noble):
            if state.kind(card) == "town":
                state = _town_at_setup(state, card, noble)
    # claim_places for each noble's homes, then for what each of his cards brings, in one new
    # state: the first to claim a neutral fortress has it.
    control, claimed = dict(state.control), False
    for noble in state.faction(player):
        claimed |= _claim(control, state.box, noble, state.entry(noble).names("home"))
        for card in state.cards_of(noble):
            claimed |= _claim(control, state.box, noble, state.entry(card).names("brings"))
    return evolve(state, control=control) if claimed else state


def _town_at_setup(state: State, card: str, noble: str) -> State:
    place = str(state.entry(card).get("place"))
    owner = state.control.get(place)
    if owner is None:
        return take_control(state, place, noble)
    # §8.1: the card goes to the fortress's controller
    return evolve(state, cards=moved_cards(state.cards, {card: f"noble:{owner}"}))


def start_heirs(state: State) -> dict[str, HeirState]:
    heirs = {}
    for entry in state.box.of("heir"):
        start = normal(state, f"in:{entry.get('start')}")
        crowned = entry.get("house") == "lancaster" and entry.get("rank") == 1
        heirs[entry.name] = HeirState(at=start, crowned=crowned)
    return heirs


def lines_of(state: State) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for house in ("lancaster", "york"):
        ranked = sorted((e for e in state.box.of("heir") if e.get("house") == house),
                        key=lambda e: (e.number("rank"), e.name))
        out[house] = tuple(e.name for e in ranked)
    return out


# --------------------------------------------------------------------------------------------
# After every event: what the referee settles by itself


def settle(before: State, state: State) -> State:
    """Sieges below half broken, mainland deadlines set, both houses watched, the hand limit,
    No Elimination, phases with nothing left to do, and Complete and Utter Victory."""
    if not state.in_play or state.ended is not None:
        return state
    state = _check_sieges(state)
    state = _track_heirs(before, state)
    state = _track_both_houses(state)
    state = _waiting_towns(state)
    state = _hand_limits(state)
    state = _no_elimination(state)
    state = _auto_advance(state)
    return _complete_victory(state)


# What _check_sieges reads, through strength, defence and the Royal Guards too; of the
# cards, only the nobles' holdings (strength): a card drawn or discarded leaves them.
SIEGE_READS = ("sieges", "nobles", "ships", "control", "heirs", "lines", "beaufort_crowned",
               "options", "box")
_siege_fields = attributes(SIEGE_READS)


def _siege_key(state: State) -> tuple[object, ...]:
    return _siege_fields(state) + (placed(state.cards).holdings,)


def _check_sieges(state: State) -> State:
    return _check_laid_sieges(state) if state.sieges else state  # none: nothing to check


@quiet_by(_siege_key)
def _check_laid_sieges(state: State) -> State:
    """R-27: a siege whose besiegers are gone or below half the defence is broken; from a ship,
    they die with it (§8.6)."""
    for place, siege in list(state.sieges.items()):
        here = {f"near:{place}"} | ({f"aboard:{siege.ship}"} if siege.ship else set())
        nobles = tuple(n for n in siege.nobles if n in state.nobles and
                       state.nobles[n].at in here)
        if siege.ship and (siege.ship not in state.ships or
                           state.ships[siege.ship].at != f"port:{place}"):
            nobles = tuple(n for n in nobles if not state.nobles[n].at.startswith("aboard:"))
        own = controller_player(state, place) == siege.owner
        empty = is_open_town(state, place) and not inside(state, place)
        if nobles != siege.nobles:
            state = evolve(state, sieges={**state.sieges, place: evolve(siege, nobles=nobles)})
        if own or empty or not nobles or \
                2 * force_strength(state, nobles) < defence(state, place):
            state = break_siege(state, place, "its besiegers fell below half the defence"
                                if nobles and not own else "its besiegers are gone")
    return state


def break_siege(state: State, place: str, why: str) -> State:
    siege = state.sieges[place]
    sieges = {p: s for p, s in state.sieges.items() if p != place}
    state = chronicle(evolve(state, sieges=sieges), f"the siege of {place} is broken ({why})")
    if siege.ship and siege.ship in state.ships:
        state = ship_sinks(state, siege.ship, f"the siege of {place} from the ship broke")
    return state


def _track_heirs(before: State, state: State) -> State:
    """8.4: an heir off the mainland must land by the end of his controller's next own movement
    phase (the second after a capture in Calais); the deadline is set when he leaves or changes
    hands. Carisbrooke's island is mainland for a faction that held Carisbrooke before he came."""
    if _heirs_at_rest(state):
        return state
    heirs = dict(state.heirs)
    for heir, info in state.heirs.items():
        if not info.alive:
            continue
        player = heir_player(state, heir)
        location = position(state, heir_location(state, heir))
        if player is None:
            if info.due is not None or info.wight:
                heirs[heir] = evolve(info, due=None, wight=False)
            continue
        came = heir not in before.heirs or not _is_wight(
            before, position(before, heir_location(before, heir)))
        wight = _is_wight(state, location) and (
            info.wight or (came and controller_player(state, "Carisbrooke") == player))
        if on_mainland(state, location) or wight:
            if info.due is not None or info.wight != wight:
                heirs[heir] = evolve(info, due=None, wight=wight)
            continue
        changed = heir not in before.heirs or heir_player(before, heir) != player
        if info.due is None or changed:
            prefix, name = split(location)
            calais = prefix != "sea" and area(state, name) == "calais"
            heirs[heir] = evolve(info, due=state.own.get(player, 0) + (2 if calais else 1),
                                  wight=False)
    return evolve(state, heirs=heirs) if heirs != state.heirs else state


def _heirs_at_rest_key(state: State) -> tuple[object, ...]:
    """What _heirs_at_rest reads: of the nobles, only those who control a living heir (a move
    of any other leaves it). The heirs come first: the same heirs, the same number of items."""
    nobles = state.nobles
    return (state.heirs, state.ships, state.box) + tuple(
        map(nobles.get, _heir_controllers(state.heirs)))


@recalled
def _heir_controllers(heirs: Mapping[str, HeirState]) -> tuple[str, ...]:
    return tuple(info.by for info in heirs.values() if info.alive and info.by)


@recalled_by(_heirs_at_rest_key)
def _heirs_at_rest(state: State) -> bool:
    """Whether _track_heirs has nothing to do: every living heir uncontrolled, or on the
    mainland off Wight, with no deadline and no Wight mark (then `before` does not matter)."""
    for heir, info in state.heirs.items():
        if not info.alive:
            continue
        if info.due is not None or info.wight or heir == BEAUFORT:
            return False
        if not info.by:  # heir_player(state, heir) is None: uncontrolled
            continue
        location = position(state, state.nobles[info.by].at)  # heir_location
        if not on_mainland(state, location) or _is_wight(state, location):
            return False
    return True


def _is_wight(state: State, location: str) -> bool:
    prefix, _, name = location.partition(":")
    entry = state.box.place(name) if prefix != "sea" else None
    carisbrooke = state.box.place("Carisbrooke")
    return entry is not None and carisbrooke is not None and \
        entry.get("island") is not None and entry.get("island") == carisbrooke.get("island")


def _both_houses_key(state: State) -> tuple[object, ...]:
    """What _track_both_houses reads: of the nobles, only who owns each (a move leaves it)."""
    return (state.heirs, state.lines, noble_owners(state.nobles), state.box, state.names,
            state.own, state.both)


@quiet_by(_both_houses_key)
def _track_both_houses(state: State) -> State:
    held: dict[str, set[str]] = {}
    for heir in living_heirs(state):
        player = heir_player(state, heir)
        if player is not None:
            held.setdefault(player, set()).add(house_of(state, heir))
    both = dict(state.both)
    for player in state.names:
        if len(held.get(player, ())) == 2:
            both.setdefault(player, state.own.get(player, 0) + 2)
        else:
            both.pop(player, None)
    return evolve(state, both=both) if both != state.both else state


# What _waiting_towns reads, placing a town card through eligible_nobles.
TOWN_READS = ("names", "cards", "box", "control", "nobles", "sieges", "ships", "options",
              "duties")


def _waiting_towns(state: State) -> State:
    """R-53: a town card kept in hand is placed as soon as a noble may take it."""
    return _place_waiting_towns(state) if _towns_in_hand(hands(state.cards), state.box) \
        else state


@quiet_while_same(*TOWN_READS)
def _place_waiting_towns(state: State) -> State:
    for player in state.names:
        for card in state.hand(player):
            if state.kind(card) == "town":
                state = place_town(state, card, player)
    return state


@recalled
def _towns_in_hand(known: Mapping[str, tuple[str, ...]], box: Box) -> bool:
    """Whether any hand (`known`, the hands of `placed`) may hold a town card (a card of no
    entry: the loop will say)."""
    for held in known.values():
        for card in held:
            entry = box.crown_card(card)
            if entry is None or entry.kind == "town":
                return True
    return False


def _hand_limits(state: State) -> State:
    """§5.3: more than two crown cards in hand must at once be played or discarded to two."""
    if _hands_within_limit(hands(state.cards), state.hidden, state.names) and \
            not (state.duties and any(d.kind == "discard" for d in state.duties)):
        return state  # no discard to add, none to drop
    return _enforce_hand_limits(state)


@recalled
def _hands_within_limit(known: Mapping[str, tuple[str, ...]], hidden: Mapping[str, int],
                        names: tuple[str, ...]) -> bool:
    """Whether every player's hand (State.hand_size: `known`, the hands of `placed`, and the
    `hidden` cards) holds two cards or fewer. Keyed by the hands, not every card: a card laid
    out or moved between nobles leaves them."""
    return all(len(known.get(player, ())) + hidden.get(player, 0) <= 2 for player in names)


@quiet_while_same("duties", "hidden", "cards", "names")
def _enforce_hand_limits(state: State) -> State:
    kept = tuple(d for d in state.duties if d.kind != "discard" or
                 state.hand_size(str(d.player)) > 2)
    if kept != state.duties:
        state = evolve(state, duties=kept)
    for player in state.names:
        if state.hand_size(player) > 2 and not any(
                d.kind == "discard" and d.player == player for d in state.duties):
            state = add_duty(state, Duty("discard", player))
    return state


def _no_elimination(state: State) -> State:
    """§9: a faction with no noble is dealt crown cards one at a time until a noble comes."""
    if _owners(state.nobles).issuperset(state.names):  # every seat has a noble
        return state
    owners = _owners(state.nobles)
    for player in state.playing:
        if player not in owners and not any(d.kind in ("deal", "layout") and
                                                 d.player == player for d in state.duties) \
                and deck_size(rebuild_deck(state)) > 0:
            state = add_duty(state, Duty("deal", player))
    return state


def _owners(nobles: Mapping[str, NobleState]) -> frozenset[str]:
    """The players with a noble in play."""
    return _players_of(noble_owners(nobles))


@recalled
def _players_of(owners: Mapping[str, str]) -> frozenset[str]:
    return frozenset(owners.values())


_OWNER = attrgetter("owner")
_last_owners: list[Any] = [None, {}]  # the nobles last asked about, and their owners
# The nobles last made by `nobles_moved`, and those it was made from through any number of
# moves: the same owners.
_moved_nobles: list[Any] = [None, None]


def noble_owners(nobles: Mapping[str, NobleState]) -> dict[str, str]:
    """noble -> the player who owns him. While the owners are those of the last call (most
    events move nobles, few change hands), the last result is returned, the same object, so
    that what is recalled by it outlives the move. Callers do not change it."""
    last_nobles, last = _last_owners
    if nobles is not last_nobles:
        made, base = _moved_nobles
        if nobles is not made or base is not last_nobles:
            owners = dict(zip(nobles, map(_OWNER, nobles.values())))
            if owners != last:
                last = owners
        _last_owners[:] = nobles, last
    return last  # type: ignore[no-any-return]


def _auto_advance(state: State) -> State:
    if state.duties or state.combat is not None or state.time_up:
        return state
    if state.stage == CHANCE and state.event_drawn:
        return advance(state)
    if state.stage == CORONATION and not coronations(state):
        return advance(state)
    return state


def _complete_victory(state: State) -> State:
    """§10: a faction controls the sole crowned King and every other heir is dead."""
    living = _living(state)
    if len(living) != 1 or not is_crowned(state, living[0]):
        return state
    player = heir_player(state, living[0])
    if player is None:
        return state
    return evolve(state, ended=Ending(
        "complete", f"{player} controls King {living[0]}, the last heir alive", (player,),
        "Complete and Utter Victory"), duties=())


# --------------------------------------------------------------------------------------------
# The time limit


def time_left(state: State) -> float | None:
    played = state.clock.minutes
    return None if played is None else int(state.options.get("time_limit", 240)) - played


def over_time(state: State) -> bool:
    left = time_left(state)
    return left is not None and left <= 0


def time_victory(state: State) -> tuple[str, tuple[str, ...]]:
    """R-50 in order, with R-51's counts (every living noble attends)."""
    living = living_heirs(state)
    if len(living) == 1 and not is_crowned(state, living[0]) and heir_player(state, living[0]):
        return "Major Royal Victory", (str(heir_player(state, living[0])),)
    votes = tally(state)
    commons = {p: c for p, (c, _) in votes.items() if p in state.playing}
    lords = {p: lo for p, (_, lo) in votes.items() if p in state.playing}
    total = sum(commons.values())
    for king in kings(state):
        player = heir_player(state, king)
        if player and 2 * commons[player] >= total and \
                all(lords[player] > lords[p] for p in lords if p != player):
            return "Major Parliamentary Victory", (player,)
    for player in commons:
        others = [p for p in commons if p != player]
        if all(commons[player] > commons[p] and lords[player] > lords[p] for p in others):
            return "Alternate Minor Victory", (player,)
    most_c, most_l = max(commons.values()), max(lords.values())
    winners = [p for p in state.playing if commons[p] == most_c or lords[p] == most_l]
    return "Minor Split Victory", tuple(winners)


def event_counts(state: State, name: str) -> tuple[int, int | None]:
    """(copies out of the event deck, copies in the box or None when unknown)."""
    entry = state.box.get("event", name)
    copies = entry.copies if entry else None
    return state.events_out.get(name, 0), copies


def event_available(state: State, name: str) -> bool:
    out, copies = event_counts(state, name)
    return copies is None or out < copies


def event_deck_empty(state: State) -> bool:
    """Whether no event card is available (event_available of each is false)."""
    copies = _event_copies(state.box)
    out = state.events_out.get
    return bool(copies) and not any(n is None or out(name, 0) < n for name, n in copies)


@recalled
def _event_copies(box: Box) -> tuple[tuple[str, int | None], ...]:
    """(event, its copies or None when unknown), in the box's order (event_counts of each)."""
    return tuple((e.name, e.copies) for e in box.of("event"))


def rebuild_events(state: State) -> State:
    """R-15 and rule 9: the event deck and its discard shuffled together (held cards stay out)."""
    held: dict[str, int] = {}
    for cards in state.held.values():
        for card in cards:
            held[card] = held.get(card, 0) + 1
    return evolve(state, events_out=held)
