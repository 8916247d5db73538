"""Kingmaker's components as data: the schema of the components file and its one validator.

The referee keeps the realm, not the map, and most printed values are not published, so the game's
data lives in a components file (`kingmaker-components/1`, TOML; rules page §2.4). The project
ships `kingmaker-ah1.toml` with what is known (§2.5); a table completes a template from its own
box; `referee new --components FILE` copies every entry into the log as a table `declare` event
(R-3). A value nobody declared is asked for the first time a move needs it (R-2).

An entry is one card, heir, place or rule table: its kind (`noble`, `place`...), its name and the
values declared so far. The same `check_values` validates an entry from a file and from a
`declare` or `amend` event, so both kinds of data obey one schema.
"""

from __future__ import annotations

from typing import Any, Mapping

from referee.derived import derived
from referee.evolve import evolve
from referee.values import value

FORMAT = "kingmaker-components/1"
SHIPPED = "kingmaker-ah1.toml"  # what is known of the Avalon Hill 1st edition (§2.5)
TEST_BOX = "kingmaker-testbox.toml"  # a small invented box: simulate, tests, the demo
TEST_BOX_OPTION = "test-box"  # the `components` option value that preloads the test box

# ---- the schema -------------------------------------------------------------------------------
# File key (an array of entries) -> entry kind; the three rule tables are single tables.
ARRAYS = {"nobles": "noble", "titles": "title", "offices": "office", "bishops": "bishop",
          "mercenaries": "mercenary", "ships": "ship", "towns": "town", "guards": "guard",
          "heirs": "heir", "places": "place", "events": "event"}
SINGLES = ("votes", "battle_chart", "death_chart")
KINDS = tuple(ARRAYS.values()) + SINGLES
CROWN = ("noble", "title", "office", "bishop", "mercenary", "ship", "town")  # the Crown deck

COMMON = {"source": "str", "aliases": "str[]", "advanced": "bool", "assoc": "str"}
GAINS = {"troops": "int", "commons": "int", "bonus": "int", "bonus_region": "str",
         "brings": "str[]", "ships": "str[]"}
FIELDS: dict[str, dict[str, str]] = {
    "noble": {"troops": "int", "lords": "int", "commons": "int", "title": "str",
              "home": "str[]"},
    "title": GAINS,
    "office": GAINS,
    "bishop": {"archbishop": "bool", "lords": "int", "bonus": "int", "bonus_region": "str",
               "brings": "str[]"},
    "mercenary": {"troops": "int", "copies": "int", "attack_only": "bool",
                  "single_use": "bool"},
    "ship": {"capacity": "int", "home_port": "str"},
    "town": {"place": "str"},
    "guard": {"house": "str", "troops": "int"},
    "heir": {"house": "str", "rank": "int", "start": "str"},
    "place": {"kind": "str", "port": "bool", "cathedral": "bool", "area": "str",
              "island": "str", "regions": "str[]", "garrison": "int", "capacity": "int",
              "commons": "int"},
    "event": {"kind": "str", "copies": "int", "place": "str", "calls": "str[]",
              "weather": "str"},
    "votes": {"king_commons": "int", "no_sole_king": "str", "senior_heir_commons": "int",
              "senior_heir_lords": "int"},
    "battle_chart": {"columns": "str[]", "major": "str[]", "minor": "str[]"},
    "death_chart": {f"{row}_{side}": "str" for row in ("major", "minor", "none")
                    for side in ("winner", "loser")},
}
# what must be known before an entry can be used.
REQUIRED: dict[str, tuple[str, ...]] = {
    "noble": ("troops", "lords", "home"), "title": ("troops", "commons"),
    "office": ("troops", "commons"), "bishop": ("lords",), "mercenary": ("troops",),
    "ship": ("capacity", "home_port"), "town": ("place",), "guard": ("house", "troops"),
    "heir": ("house", "rank", "start"), "place": ("kind",), "event": ("kind",),
}
ALL_FIELDS: dict[str, str] = {k: v for fields in FIELDS.values() for k, v in fields.items()}
ALL_FIELDS.update(COMMON)

HOUSES = ("lancaster", "york")
AREAS = ("mainland", "island", "calais", "ireland", "scotland", "continent")
NO_PORTS = frozenset({"ireland", "scotland", "continent"})  # ships never enter (§5.2)
REGIONS = ("London", "Wales", "Conway", "Trent", "Tees", "Devon and Cornwall")
WITHIN = {"Tees": "Trent", "Conway": "Wales"}  # a place in Tees is in Trent too
EVENT_KINDS = ("plague", "call", "storm", "writ", "free-move", "chancellor-may-call",
               "parliament-must", "embassy", "none")
KEPT_EVENTS = ("writ", "free-move", "chancellor-may-call")  # held, public, tradeable
WEATHER = ("fair", "bad")
ASSOC = ("calais", "ireland")
ENUMS: dict[str, tuple[str, ...]] = {"house": HOUSES, "area": AREAS, "weather": WEATHER,
                                     "assoc": ASSOC, "no_sole_king": ("chancellor", "none")}
# R-2 notation: the fields whose values are names (a `-` typed for a space)
NAME_FIELDS = frozenset({"title", "home", "brings", "ships", "home_port", "place", "start",
                         "island", "regions", "calls", "bonus_region", "aliases"})


@value(slots=True)
class PlaceKind:
    """The defaults of a kind of place (§2.3): an entry's own values override them."""

    fortress: bool
    garrison: int
    capacity: int | None  # None: any number may enter
    commons: int


PLACE_KINDS: dict[str, PlaceKind] = {
    "city": PlaceKind(True, 300, None, 4),
    "town": PlaceKind(True, 200, 400, 3),
    "royal-castle": PlaceKind(True, 200, 300, 0),
    "castle": PlaceKind(True, 100, 300, 0),
    "open-town": PlaceKind(False, 200, 400, 0),  # garrison only while occupied
    "unfortified": PlaceKind(False, 0, None, 0),
}
ENUMS["kind:place"] = tuple(PLACE_KINDS)
ENUMS["kind:event"] = EVENT_KINDS
VOTE_DEFAULTS = {"king_commons": 20, "no_sole_king": "chancellor", "senior_heir_commons": 10,
                 "senior_heir_lords": 10}


class DataError(ValueError):
    """An entry that breaks the schema; the caller adds where it came from."""


# ---- entries ----------------------------------------------------------------------------------


def norm(name: str) -> str:
    """A name as compared: any case, `-` or `_` for a space, apostrophes optional."""
    return " ".join(name.replace("-", " ").replace("_", " ").replace("'", "").casefold().split())


def article(noun: str) -> str:
    """`an event card`, `a noble in play`."""
    return f"an {noun}" if noun[:1].casefold() in tuple("aeiou") else f"a {noun}"


@value
class Entry:
    """One declared entry: its kind, its name and its values (sorted by field)."""

    kind: str
    name: str
    values: tuple[tuple[str, Any], ...] = ()

    @derived("values")
    def _map(self) -> dict[str, Any]:
        return dict(self.values)

    def get(self, key: str, default: Any = None) -> Any:
        return self._map.get(key, default)

    def number(self, key: str, default: int = 0) -> int:
        value = self._map.get(key)  # self.get(key), asked at every event: one call less
        return value if isinstance(value, int) else default

    def names(self, key: str) -> tuple[str, ...]:
        return tuple(self._map.get(key, ()))

    def flag(self, key: str) -> bool:
        return bool(self._map.get(key, False))

    @property
    def copies(self) -> int | None:
        """Copies in the deck: crown cards are single unless stated; events unknown (None)."""
        value = self.get("copies")
        if isinstance(value, int):
            return value
        return None if self.kind == "event" else 1

    def missing(self) -> tuple[str, ...]:
        """The required values not known yet (R-2)."""
        return self._missing

    @derived("values", "kind")
    def _missing(self) -> tuple[str, ...]:  # asked at every draw: an entry never changes
        have = {field for field, _ in self.values}
        needed = [key for key in REQUIRED.get(self.kind, ()) if key not in have]
        if self.kind == "event":
            kind = self.get("kind")
            if kind == "plague" and "place" not in have:
                needed.append("place")
            if kind == "call" and "calls" not in have:
                needed.append("calls")
        return tuple(needed)

    def merged(self, values: Mapping[str, Any]) -> Entry:
        """The entry with `values` set (an amendment, or a declaration on first use)."""
        merged = dict(self.values)
        merged.update(values)
        return Entry(self.kind, self.name, tuple(sorted(merged.items())))


def _typed(value: Any, kind: str) -> bool:
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    return isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)


def check_values(kind: str, name: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """The values of an entry, checked against the schema and canonical (lists as tuples)."""
    if kind not in FIELDS:
        raise DataError(f"{kind!r} is not a kind of entry ({', '.join(KINDS)})")
    if not name.strip() or '"' in name:
        raise DataError("an entry needs a name (without quotes)")
    if card_entry(name) != name:  # `Welsh Mercenaries #2` names the second copy of a card
        raise DataError(f"{kind} {name}: a name may not end in ' #' and a number, which "
                        "numbers the copies of a card")
    allowed = FIELDS[kind] | COMMON
    out: dict[str, Any] = {}
    for key, value in values.items():
        field = allowed.get(key)
        if field is None:
            raise DataError(f"{kind} {name}: no field {key!r} ({article(kind)} has "
                            f"{', '.join(allowed)})")
        if not _typed(value, field):
            raise DataError(f"{kind} {name}: {key} must be {_KIND_WORDS[field]}")
        if isinstance(value, (list, tuple)):
            value = tuple(value)
        _check_value(kind, name, key, value)
        out[key] = value
    return out


_KIND_WORDS = {"int": "an integer", "bool": "true or false", "str": "text",
               "str[]": "a list of text"}


def _check_value(kind: str, name: str, key: str, value: Any) -> None:
    choices = ENUMS.get(f"{key}:{kind}") or ENUMS.get(key)
    if choices and value not in choices:
        raise DataError(f"{kind} {name}: {key} must be one of {', '.join(choices)}, "
                        f"not {value!r}")
    if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= 10_000:
        raise DataError(f"{kind} {name}: {key} must be between 0 and 10000")
    if key in ("regions", "bonus_region"):
        for region in (value if isinstance(value, tuple) else (value,)):
            if region not in REGIONS:
                raise DataError(f"{kind} {name}: {region!r} is not a bonus region "
                                f"({', '.join(REGIONS)})")
    if key == "calls":
        for call in value:
            who, sep, where = call.partition(">")
            if not sep or not who.strip() or not where.strip():
                raise DataError(f"{kind} {name}: a call is WHO>PLACE, not {call!r}")
    if (kind == "death_chart" and key != "source") or key in ("major", "minor"):
        for text in (value if isinstance(value, tuple) else (value,)):
            if text:
                roll_range(text)
    if key == "columns":
        for text in value:
            ratio(text)


def roll_range(text: str) -> tuple[int, int]:
    """A chart's roll range: `81-00` is 81 to 100 (00 reads 100), `05` one roll."""
    low, _, high = text.partition("-")
    try:
        first, last = _roll(low), _roll(high or low)
    except ValueError:
        raise DataError(f"{text!r} is not a roll range such as 81-00") from None
    if first > last:
        raise DataError(f"{text!r}: the range runs backwards")
    return first, last


def _roll(text: str) -> int:
    value = int(text.strip())
    value = 100 if value == 0 else value
    if not 1 <= value <= 100:
        raise ValueError(text)
    return value


def ratio(text: str) -> tuple[int, int]:
    """A chart column `2:1` as (2, 1)."""
    left, sep, right = text.partition(":")
    try:
        a, d = int(left), int(right)
    except ValueError:
        raise DataError(f"{text!r} is not an odds column such as 2:1") from None
    if not sep or a <= 0 or d <= 0:
        raise DataError(f"{text!r} is not an odds column such as 2:1")
    return a, d


def card_entry(card: str) -> str:
    """The entry a card instance belongs to: `Welsh Mercenaries #2` -> `Welsh Mercenaries`."""
    name, sep, number = card.rpartition(" #")
    return name if sep and number.isdigit() else card


# ---- a whole box ------------------------------------------------------------------------------


def namespace(kind: str) -> str:
    """Entries share a name space: crown cards and guards, or heirs, places, events."""
    return "card" if kind in CROWN or kind == "guard" else kind


def _spaced_names(entry: Entry) -> set[tuple[str, str]]:
    """The (name space, compared name) pairs an entry is known by: its name and aliases."""
    space = namespace(entry.kind)
    return {(space, norm(name)) for name in (entry.name, *entry.names("aliases"))}


class Layers:
    """A mapping never changed once made, extended cheaply: a large shared base and a small top
    layer. `with_items` copies only the top, and folds it into a new base once it has grown
    past the square root of the base, so n additions one at a time cost O(n * sqrt(n))."""

    __slots__ = ("_base", "_top")

    def __init__(self, base: dict[Any, Any], top: dict[Any, Any]):
        self._base, self._top = base, top

    def get(self, key: Any) -> Any:
        found = self._top.get(key)
        return self._base.get(key) if found is None else found

    def __eq__(self, other: object) -> bool:  # as the mappings they stand for (SELFCHECK)
        return isinstance(other, Layers) and \
            {**self._base, **self._top} == {**other._base, **other._top}

    __hash__ = None  # type: ignore[assignment]

    def with_items(self, items: dict[Any, Any]) -> Layers:
        top = {**self._top, **items}
        if len(top) ** 2 > len(self._base) + 64:
            return Layers({**self._base, **top}, {})
        return Layers(self._base, top)


def _key_added(old: Layers, reads: tuple[Any, ...], box: Box) -> Layers:
    """`Box._by_key` of a box made by `with_entry`: the last box's with the entry added."""
    key, entry = box.entries[-1]
    return old.with_items({key: entry})


def _names_added(old: Layers, reads: tuple[Any, ...], box: Box) -> Layers:
    """`Box._names` of a box made by `with_entry`: the last box's with the entry's names (an
    amended entry's old aliases stay: `clash` checks them against the entry)."""
    key, entry = box.entries[-1]
    return old.with_items(dict.fromkeys(_spaced_names(entry), key))


@value
class Box:
    """The components a log has declared so far (R-2, R-3), by kind and name. What is derived
    from the entries is declared with them (referee.derived): a box made by `with_entry` brings
    its indexes up to date from the last box's."""

    entries: tuple[tuple[tuple[str, str], Entry], ...] = ()

    @derived("entries", update=_key_added)
    def _by_key(self) -> Layers:
        """kind and name -> entry."""
        return Layers({}, dict(self.entries))

    @derived("entries", update=_names_added)
    def _names(self) -> Layers:
        """(name space, norm of a name or alias) -> the key of the entry declared under it."""
        return Layers({}, {name: key for key, entry in self.entries
                           for name in _spaced_names(entry)})

    @derived("entries")
    def _cards(self) -> dict[str, Entry]:
        return {e.name: e for (kind, _), e in self.entries if kind in CROWN or kind == "guard"}

    @derived("_cards")
    def instances(self) -> dict[str, Entry]:
        """`crown_card` of each card in the box and of each of its numbered copies."""
        out: dict[str, Entry] = {}
        for entry in self._cards.values():
            copies = entry.get("copies")
            count = copies if isinstance(copies, int) else 1
            for card in [entry.name] + [f"{entry.name} #{i}" for i in range(1, count + 1)]:
                found = self._cards.get(card_entry(card))
                if found is not None:
                    out[card] = found
        return out

    def get(self, kind: str, name: str) -> Entry | None:
        found: Entry | None = self._by_key.get((kind, name))
        return found

    def card(self, name: str) -> Entry | None:
        """A crown card or Royal Guard by its entry name."""
        return self._cards.get(name)

    def crown_card(self, card: str) -> Entry | None:
        """The entry of a card or of one of its copies (`Welsh Mercenaries #2`; any number)."""
        found = self.instances.get(card)
        return found if found is not None else self._cards.get(card_entry(card))

    @derived("entries")
    def _kinds(self) -> dict[str, list[Entry]]:
        out: dict[str, list[Entry]] = {}
        for (kind, _), entry in self.entries:
            out.setdefault(kind, []).append(entry)
        return out

    def of(self, kind: str) -> list[Entry]:
        return self._kinds.get(kind, [])

    def with_entry(self, entry: Entry) -> Box:
        """The box with `entry` declared or amended (it comes last). Its indexes are this box's
        with the entry added (the updates of `_by_key` and `_names`), so that declaring n
        entries one by one (a log's `declare` events) costs about n * sqrt(n) steps of C, not
        n * n of Python."""
        key = (entry.kind, entry.name)
        kept = self.entries if self._by_key.get(key) is None else \
            tuple(item for item in self.entries if item[0] != key)  # an amendment: rare
        self._names  # worked out here, so that the new box's is brought up to date from it
        return evolve(self, entries=kept + ((key, entry),))

    @derived("entries")
    def _places(self) -> dict[str, Entry]:
        return {name: entry for (kind, name), entry in self.entries if kind == "place"}

    def place(self, name: str) -> Entry | None:
        return self._places.get(name)  # get("place", name), asked most: one lookup

    @derived("entries")
    def place_kinds(self) -> dict[str, Any]:
        """place -> its kind, for every place whose kind is known, in the box's order."""
        return {p.name: p.get("kind") for p in self.of("place") if p.get("kind") is not None}

    def single(self, kind: str) -> Entry:
        return self.get(kind, kind) or Entry(kind, kind)

    def votes(self, key: str) -> Any:
        return self.single("votes").get(key, VOTE_DEFAULTS[key])

    def namespace(self, kind: str) -> str:
        return namespace(kind)

    def clash(self, kind: str, name: str) -> Entry | None:
        """An entry of the same name space with this name or alias (declared already)."""
        spaced = (namespace(kind), norm(name))
        key = self._names.get(spaced)
        entry = None if key is None else self._by_key.get(key)
        # An amendment may have taken the alias away since it was indexed.
        return entry if entry is not None and spaced in _spaced_names(entry) else None


def load(text: str, source: str) -> Box:
    """A components file, validated: a Box, or DataError naming the file and the entry."""
    import tomllib  # a components file is read by `new`, `components` and tests, never by a play

    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:  # arrays or inline tables nested hundreds deep
        raise DataError(f"{source}: values nested too deeply to be a components file's "
                        "(its entries are tables of flat values)") from None
    except ValueError:  # tomllib's int() of a number over Python's 4,300-digit limit
        raise DataError(f"{source}: a number too long to be a components file's (at most "
                        "10000)") from None
    if "format" not in doc:  # an empty file, or some other TOML: never "format is None"
        raise DataError(f"{source}: not a components file (it has no `format = "
                        f"\"{FORMAT}\"` line)")
    if doc.get("format") != FORMAT:
        raise DataError(f"{source}: format is {doc.get('format')!r}, expected {FORMAT!r}")
    entries: list[Entry] = []
    known: set[tuple[str, str]] = set()  # every name and alias listed so far, in its name space
    for key, value in doc.items():
        if key in ("format", "edition"):
            continue
        if key in SINGLES:
            values = _flat_single(key, value, source)
            if values:  # an empty table, as in a template: nothing declared
                entries.append(_entry(known, key, key, values, source))
        elif key in ARRAYS:
            if not isinstance(value, list):
                raise DataError(f"{source}: {key} must be an array of tables")
            for index, item in enumerate(value):
                entries.append(_item(known, ARRAYS[key], item, f"{source}: {key}[{index + 1}]"))
        else:
            raise DataError(f"{source}: unknown key {key!r} (the file has "
                            f"{', '.join(list(ARRAYS) + list(SINGLES))})")
    return Box(tuple(((entry.kind, entry.name), entry) for entry in entries))


def _item(known: set[tuple[str, str]], kind: str, item: Any, where: str) -> Entry:
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        raise DataError(f"{where}: an entry is a table with a name")
    values = {k: v for k, v in item.items() if k != "name"}
    return _entry(known, kind, item["name"], values, where)


def _entry(known: set[tuple[str, str]], kind: str, name: str, values: Mapping[str, Any],
           where: str) -> Entry:
    """The entry checked, refused if its name was listed before (as a name or an alias, as
    `Box.clash` finds it); its names join `known`: one set lookup an entry, never a scan."""
    try:
        checked = check_values(kind, name, values)
    except DataError as exc:
        raise DataError(f"{where}: {exc}") from None
    if (namespace(kind), norm(name)) in known:
        raise DataError(f"{where}: {name!r} is listed twice")
    entry = Entry(kind, name, tuple(sorted(checked.items())))
    known.update(_spaced_names(entry))
    return entry


def _flat_single(key: str, value: Any, source: str) -> dict[str, Any]:
    """A rule table as flat values: the death chart's `major = {winner, loser}` becomes
    `major_winner` and `major_loser`."""
    if not isinstance(value, dict):
        raise DataError(f"{source}: {key} must be a table")
    if key != "death_chart":
        return dict(value)
    out: dict[str, Any] = {}
    for row, sides in value.items():
        if row == "source":
            out[row] = sides
            continue
        if not isinstance(sides, dict):
            raise DataError(f"{source}: death_chart.{row} must be a table of winner and loser")
        for side, text in sides.items():
            out[f"{row}_{side}"] = text
    return out


def ordered(box: Box) -> list[Entry]:
    """The entries in the order a log declares them: rules, places, heirs, then the cards."""
    rank = {kind: index for index, kind in enumerate(
        SINGLES + ("place", "heir", "noble", "title", "office", "bishop", "mercenary", "ship",
                   "town", "guard", "event"))}
    return sorted((e for _, e in box.entries), key=lambda e: rank[e.kind])


# ---- files ------------------------------------------------------------------------------------


def file_text(name: str) -> str:
    from importlib import resources

    return (resources.files("referee.games.kingmaker") / name).read_text(encoding="utf-8")


def digest(text: str) -> str:
    import hashlib

    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def dumps(box: Box, edition: str = "") -> str:
    """A Box as a components file (the data a log declared, written back)."""
    import tomli_w

    doc: dict[str, Any] = {"format": FORMAT}
    if edition:
        doc["edition"] = edition
    for kind in SINGLES:
        entry = box.get(kind, kind)
        if entry is not None:
            doc[kind] = _single_table(entry)
    for key, kind in ARRAYS.items():
        entries = box.of(kind)
        if entries:
            doc[key] = [{"name": e.name, **_in_order(e)} for e in entries]
    return tomli_w.dumps(doc)


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _in_order(entry: Entry) -> dict[str, Any]:
    """An entry's values in the schema's order (as a person reads a card), common keys last."""
    order = list(FIELDS[entry.kind]) + list(COMMON)
    return {k: _plain(entry.get(k)) for k in order if entry.get(k) is not None}


def _single_table(entry: Entry) -> dict[str, Any]:
    if entry.kind != "death_chart":
        return _in_order(entry)
    out: dict[str, Any] = {}
    for key, value in entry.values:
        row, _, side = key.partition("_")
        if key == "source":
            out[key] = value
        else:
            out.setdefault(row, {})[side] = value
    return out


def template(box: Box) -> str:
    """The shipped data as a file to complete: each entry with its known values, and a comment
    line, in the box's words, for every value still to be entered from the box (R-2 would ask
    for it). Where a value came from (`source`) is the project's business, not the group's."""
    lines = [f'format = "{FORMAT}"', 'edition = "Avalon Hill 1st edition (1974)"',
             "# What is known of the 1974 box. Each commented line is a value printed on a card",
             "# or the map: type it after the `=` and remove the `#`. A card of your box that",
             "# is not here gets an entry of its own, like the commented one closing its list.",
             "# Easier: `referee components kingmaker --fill FILE` asks for each value in turn.",
             "# Then: referee new kingmaker --components FILE -p NAME ...", ""]
    import tomli_w

    for kind in SINGLES:
        entry = box.get(kind, kind)
        lines += _TABLE_NOTES[kind] + [f"[{kind}]"]
        if entry is not None:
            lines += tomli_w.dumps(_without_source(_single_table(entry))).rstrip().splitlines()
        else:
            lines += [f"# {line}" for line in _SINGLE_TEMPLATES[kind]]
        lines.append("")
    for key, kind in ARRAYS.items():
        lines.append(f"# ---- {_LIST_NOTES[kind]}")
        for entry in box.of(kind):
            lines.append(f"[[{key}]]")
            lines += tomli_w.dumps({"name": entry.name, **_without_source(_in_order(entry))}
                                   ).rstrip().splitlines()
            lines += [f"# {field} =    {_hint(kind, field)}" for field in FIELDS[kind]
                      if entry.get(field) is None and field in _wanted(kind)]
            lines.append("")
        lines += [f"# [[{key}]]", '# name = ""'] + \
            [f"# {f} =    {_hint(kind, f)}" for f in _wanted(kind)] + [""]
    return "\n".join(lines)


def _without_source(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if k != "source"}


def _hint(kind: str, field: str) -> str:
    """A template line's note: what the card or map prints there, and how to type it."""
    words = WORDING.get((kind, field)) or _MORE_WORDING.get(field, "")
    typed = {"int": "a number", "bool": "true or false", "str": 'in quotes, "..."',
             "str[]": 'a list, ["...", "..."]'}[FIELDS[kind][field]]
    return f"# {words}; {typed}" if words else f"# {typed}"


_MORE_WORDING = {
    "title": "a title printed on the noble's card, if any",
    "bonus": "the bonus troops printed for a region", "bonus_region": "that region's name",
    "brings": "the places the card gives its holder", "ships": "the ships the card gives",
    "archbishop": "true for an archbishop", "copies": "how many such cards the box has",
    "port": "true if the map shows a port", "cathedral": "true if the map shows a cathedral",
    "area": "mainland, island, calais, ireland, scotland or continent",
    "regions": "the bonus regions it lies in", "weather": "fair, or bad for bad weather",
    "place": "the place the card names", "calls": "who is called where, WHO>PLACE",
    "house": "lancaster or york", "rank": "its place in the line of succession",
    "start": "where it starts",
}
_TABLE_NOTES = {
    "votes": ["# ---- the votes of a King and of the senior heirs (the rules' Parliament)"],
    "battle_chart": ["# ---- the Battle Combat Table: the odds columns, and the rolls that win"],
    "death_chart": ["# ---- the rolls that kill a noble after a battle, by result and side"],
}
_LIST_NOTES = {
    "noble": "the noble cards", "title": "the title cards", "office": "the office cards",
    "bishop": "the bishops' cards", "mercenary": "the mercenary cards",
    "ship": "the ship cards", "town": "the town cards", "guard": "the Royal Guard cards",
    "heir": "the royal heirs, in their line of succession", "place": "the places on the map",
    "event": "the event cards",
}


def _wanted(kind: str) -> tuple[str, ...]:
    """The fields a template asks for: the required ones first, then the usual extras."""
    extra = {"noble": ("commons", "title"), "title": ("bonus", "bonus_region", "brings"),
             "office": ("bonus", "bonus_region", "brings", "ships"),
             "bishop": ("archbishop", "bonus", "bonus_region", "brings"),
             "mercenary": ("copies",), "place": ("port", "cathedral", "area", "regions"),
             "event": ("copies", "weather", "place", "calls")}
    return REQUIRED.get(kind, ()) + tuple(k for k in extra.get(kind, ())
                                          if k not in REQUIRED.get(kind, ()))


_SINGLE_TEMPLATES = {
    "votes": [f"{k} = {v!r}".replace("'", '"') for k, v in VOTE_DEFAULTS.items()],
    "battle_chart": ['columns = ["1:2", "1:1", "2:1", "4:1"]   # attacker:defender',
                     'major = ["", "", "81-00", "51-00"]       # rolls per column',
                     'minor = ["96-00", "81-90", "61-80", "31-50"]'],
    "death_chart": ['major = { winner = "01-05", loser = "01-30" }',
                    'minor = { winner = "01-05", loser = "01-20" }',
                    'none = { winner = "01-05", loser = "01-10" }'],
}


# ---- filling a file from the box, one question at a time (`components --fill`) ---------------

# The box's order: the nobles' cards, then the other crown cards, then the map's places; and
# the values asked of each, as the cards and the map print them.
FILL_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("noble cards", ("noble",)),
    ("crown cards", ("title", "office", "bishop", "mercenary", "ship", "town")),
    ("places on the map", ("place",)))
ASKED: dict[str, tuple[str, ...]] = {
    "noble": ("troops", "lords", "commons", "home"), "title": ("troops", "commons"),
    "office": ("troops", "commons"), "bishop": ("lords",), "mercenary": ("troops",),
    "ship": ("capacity", "home_port"), "town": ("place",), "place": ("kind",)}
WORDING: dict[tuple[str, str], str] = {
    ("noble", "troops"): "the troops printed on his card",
    ("noble", "lords"): "the Lords votes printed on his card",
    ("noble", "commons"): "the Commons votes printed on his card (0 if none)",
    ("noble", "home"): "his home castle as the map names it (two: A, B)",
    ("title", "troops"): "the troops printed on the card",
    ("title", "commons"): "the Commons votes printed on the card (0 if none)",
    ("office", "troops"): "the troops printed on the card",
    ("office", "commons"): "the Commons votes printed on the card (0 if none)",
    ("bishop", "lords"): "the Lords votes printed on the card",
    ("mercenary", "troops"): "the troops printed on the card",
    ("ship", "capacity"): "how many troops the ship's card says it carries",
    ("ship", "home_port"): "its home port as the map names it",
    ("town", "place"): "the town on the map the card gives",
    ("place", "kind"): "on the map, is it a city, town (walled), royal-castle, castle, "
                       "open-town or unfortified?",
}
CARD_WORDS = {"noble": "noble card", "title": "title card", "office": "office card",
              "bishop": "bishop's card", "mercenary": "mercenary card", "ship": "ship card",
              "town": "town card", "place": "place"}


@value
class Question:
    """One question of `--fill`: a value of an entry, or (key "") whether the section has
    another card the file does not list yet."""

    section: str
    kind: str
    name: str
    key: str
    text: str


def fill_questions(box: Box, closed: frozenset[str] = frozenset()) -> list[Question]:
    """Every value still to ask, in the box's order, each section closed by the question of
    another card (unless the group said it has no more, `closed`)."""
    out: list[Question] = []
    for section, kinds in FILL_SECTIONS:
        for kind in kinds:
            for entry in box.of(kind):
                out += [Question(section, kind, entry.name, key,
                                 f"{entry.name}, {CARD_WORDS[kind]}: {WORDING[(kind, key)]}")
                        for key in ASKED[kind] if entry.get(key) is None]
        if kinds == ("place",):
            out += [Question(section, "place", name, "kind",
                             f"{name}, {CARD_WORDS['place']}: {WORDING[('place', 'kind')]}")
                    for name in _places_named(box)]
        if section not in closed:
            out.append(Question(section, "", "", "", _more_text(section)))
    return out


def _more_text(section: str) -> str:
    if section == "noble cards":
        return "Another noble card this file does not list? Its name as printed (Enter: none)"
    if section == "crown cards":
        return ("Another crown card this file does not list? Its kind and name, e.g. `title "
                "Earl of Kent` (kinds: title, office, bishop, mercenary, ship, town; Enter: "
                "none)")
    return "Another place on the map to list? Its name (Enter: none)"


def _places_named(box: Box) -> list[str]:
    """Places the cards name (homes, places brought, towns, home ports) the file lacks."""
    named: list[str] = []
    for kind in ("noble", "title", "office", "bishop", "town", "ship"):
        for entry in box.of(kind):
            named += list(entry.names("home")) + list(entry.names("brings"))
            named += [str(entry.get(k)) for k in ("place", "home_port")
                      if entry.get(k) is not None]
    return [name for name in dict.fromkeys(named)
            if box.place(name) is None and box.clash("place", name) is None]


def fill_remaining(box: Box) -> int:
    """How many values are still to ask."""
    return sum(1 for q in fill_questions(box, frozenset(s for s, _ in FILL_SECTIONS)))


def fill_answer(box: Box, question: Question, text: str) -> Box:
    """The box with one answer: a value of an entry, or a card or place it did not list.
    Raises DataError (in the box's words) for an answer that does not fit."""
    text = text.strip()
    if not question.key:
        return _new_entry(box, question.section, text)
    kind = FIELDS[question.kind][question.key]
    value: Any
    if not text:
        raise DataError("nothing typed: type the value, or Ctrl-C to stop (all is saved)")
    if kind == "int":
        if not text.isdecimal():  # isdigit() takes '²', which int() does not
            raise DataError(f"{text!r} is not a number: type the number the card prints")
        value = int(text)
    elif kind == "str[]":
        value = tuple(part.strip() for part in text.split(",") if part.strip())
    else:
        value = text
    if value == ():
        raise DataError("no name typed: the names as the map prints them, A, B for two")
    entry = box.get(question.kind, question.name) or Entry(question.kind, question.name)
    checked = check_values(question.kind, question.name,
                           {**dict(entry.values), question.key: value})
    return _in_place(box, Entry(question.kind, question.name, tuple(sorted(checked.items()))))


def _in_place(box: Box, entry: Entry) -> Box:
    """The box with `entry` where it was (the file keeps the box's order), or added last."""
    key = (entry.kind, entry.name)
    if box.get(*key) is None:
        return box.with_entry(entry)
    return Box(tuple((k, entry if k == key else e) for k, e in box.entries))


def _new_entry(box: Box, section: str, text: str) -> Box:
    if section == "noble cards":
        kind, name = "noble", text
    elif section == "crown cards":
        kind, _, name = text.partition(" ")
        if kind not in CROWN or kind == "noble":
            raise DataError(f"start with the kind of card: title, office, bishop, mercenary, "
                            f"ship or town (then its name), not {kind!r}")
    else:
        kind, name = "place", text
    name = name.strip()
    if box.clash(kind, name) is not None:
        raise DataError(f"{name} is listed already")
    check_values(kind, name, {})
    return box.with_entry(Entry(kind, name))
