"""What Kingmaker's events share: the base class `Base` (values declared on first use, R-2;
why a move is out of its phase, in the words the table hears; the referee's own settling after
the effect; its notation read, printed and listed from its form, forms.py), names in moves and in
logged events with the slots that read and print them, dice, and held event cards.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Iterable, Sequence

from referee.derived import SelfCheckError
from referee.engine import Args, Event, EventType
from referee.errors import IllegalMove, MoveError, NotationError
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.components import (
    CROWN,
    EVENT_KINDS,
    FIELDS,
    DataError,
    Entry,
    article,
    check_values,
    norm,
)
from referee.games.kingmaker.events.declaring import (
    asking,
    card_name,
    declare_block,
    declare_lines,
    kind_from_name,
    kind_untold,
    not_a_crown_card,
    plague_from_name,
    unknown_card_gaps,
)
from referee.games.kingmaker.events.forms import Form, Slot
from referee.games.kingmaker.notation import (
    BLANK,
    declaration_words,
    find,
    find_all,
    inline_item,
    items,
    location_words,
    nearest,
    one,
    shown,
    shown_list,
    shown_location,
    split_trailing_declarations,
    tokens,
    value_of,
    value_text,
)
from referee.games.kingmaker.rules import refuse, split
from referee.games.kingmaker.state import (
    HeirState,
    State,
    card_entry,
    crown_instances,
    instances,
)


DECLARES = {"declares": "str[]"}
DECLARES_DOC = {"declares": "values declared on first use (R-2), each `NAME.key=value`"}
# once the time limit has ended the game, the table records its end and mends data only.
AFTER_TIME = frozenset({"end", "amend"})


# What the rules an event's effect may call change (the `changes` of the events are made of them).
PLACING = frozenset({"cards", "control", "ships", "duties"})  # a card assigned, what it brings
ENTERING = PLACING | {"nobles"}  # a noble comes into play (his castles, his home, Le Lucas)


class Base(EventType[State]):
    """The shared shape of Kingmaker's events (see the module doc)."""

    always: ClassVar[bool] = False  # may come while any duty is pending (table, trades)
    # The rule of an event that only answers a duty the referee set (a retreat, an heir's new
    # keeper): typed when no such duty is pending it is refused, never applied. "" for others.
    owed_rule: ClassVar[str] = ""
    # The fields of State the effect may change (declared with the event): the referee's
    # settling after it runs only the steps that read one (rules/settling.py). All, unless an
    # event says less.
    changes: ClassVar[frozenset[str]] = rules.ALL

    # ---- notation ---------------------------------------------------------------------------
    # One form per event type: it reads the typed words, prints the event and lists the lines
    # of `options` and the man page (`forms`, derived here from it).
    form: ClassVar[Form] = Form()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "form" in cls.__dict__:
            cls.forms = cls.form.lines(cls.name)

    def parse(self, state: State, args: Args) -> Event:
        words = tokens(args.text)[1:]
        main, declared = split_trailing_declarations(words)
        extra: tuple[str, ...] = ()
        if declared:
            if "declares" not in self.fields:
                raise NotationError(f"`{self.name}` takes no key=value declarations (R-2)",
                                    code="no-declarations")
            extra = inline_declarations(state, main, declared, args.text)
            state = with_inline(state, extra)
        by = None if self.actor == "table" else args.by  # the table's, whoever types it
        fields = self.read(state, Args(tuple(main), args.text, by))
        if extra:
            fields["declares"] = list(extra)
        return self.make(by, **fields)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        return self.form.read(self, state, args)

    def format(self, state: State, event: Event) -> str:
        text = self.text(state, event)
        extra = event.get("declares") or ()
        return text + "".join(" " + inline_text(item) for item in extra)

    def text(self, state: State, event: Event) -> str:
        return self.form.text(self.name, event)

    # ---- effect -----------------------------------------------------------------------------
    def apply(self, state: State, event: Event) -> State:
        before = state
        self.gate(state, event)
        if "declares" in self.fields and event.get("declares"):  # only where declared
            state = with_inline(state, event["declares"], refusal=True)
        state = self.effect(state, event)
        changes = self.changes if not event.get("declares") else self.changes | {"box"}
        if rules.self_checking():  # REFEREE_SELFCHECK=1: the effect changed only what it declares
            undeclared = set(rules.changed_fields(before, state)) - changes
            if undeclared:
                raise SelfCheckError(f"{self.name} changed {', '.join(sorted(undeclared))}, "
                                     "which its `changes` does not declare")
        return rules.settle(before, state, changes, self.name)

    def gate(self, state: State, event: Event) -> None:
        """The core gates an event of declared phases; one allowed in any is held here to what
        `out_of_place` says."""
        if self.phases is None:
            problem = self.out_of_place(state)
            if problem is not None:
                raise problem

    def out_of_place(self, state: State) -> IllegalMove | None:
        """Why the event cannot come now, said as the table hears it when the core refuses it by
        its phases (Game.explain): nothing after the time limit but its end (R-84); nothing but
        the answer to a pending duty; no answer when none is owed; nothing else while a combat
        is resolved."""
        if state.time_up and self.name not in AFTER_TIME:
            return time_up_refusal()
        current = rules.duty(state)
        phases = self.phases or frozenset()
        if current is not None and not self.always and \
                rules.DUTY_PHASES[current.kind] not in phases:
            return refuse(f"first: {rules.duty_prompt(current)}", "duty-pending", "§5")
        if current is None and self.owed_rule:
            return refuse(f"not the moment for `{self.name}`: it answers the referee's question "
                          f"({self.forms[0][1]}), and none is open now; "
                          f"{rules.to_act(state).prompt}", "not-owed", self.owed_rule)
        if state.combat is not None and not self.always and \
                phases.isdisjoint(rules.COMBAT_PHASES.values()):
            return refuse("a combat is being resolved: "
                          f"{rules.to_act(state).prompt}", "combat-pending", "§6")
        return None

    def effect(self, state: State, event: Event) -> State:
        raise NotImplementedError

    def valid(self, state: State, event: Event) -> bool:
        try:
            self.apply(state, event)
        except MoveError:
            return False
        return True


def active_combat(state: State) -> bool:
    """Rule 14: a combat past its first weather draw, or the heirs and fortress it hands on."""
    return state.combat is not None and state.combat.active or \
        any(d.combat for d in state.duties)


def time_up_refusal() -> IllegalMove:
    """R-84: what any move but the end and a data fix hears once the time limit has ended the
    game (those of no declared phase too: a discard, a siege broken)."""
    return refuse("the time limit has ended the game (R-49): nothing more is played; "
                  "the table records `end time`", "time-up", "R-84")


def refuse_in_active_combat(state: State, what: str) -> None:
    if active_combat(state):
        raise refuse(f"{what} is not possible during active combat (rule 14)", "active-combat",
                     "§5.4")


# --------------------------------------------------------------------------------------------
# Names in moves and in logged events


def card_names(state: State) -> list[str]:
    """Every crown card's name: its entries, and each copy of those with several."""
    names = set(state.cards) | set(crown_instances(state.box))
    names.update(e.name for kind in CROWN for e in state.box.of(kind))
    return sorted(names)


def card_aliases(state: State) -> dict[str, str]:
    return {norm(a): e.name for kind in CROWN for e in state.box.of(kind)
            for a in e.names("aliases")}


def parse_card(state: State, word: str, text: str,
               where: Callable[[str], bool] | None = None, new: bool = False) -> str:
    """A crown card as typed; an entry with copies names its first copy that `where` accepts.
    `new`: the move may bring a card the log does not list yet (a draw), so a slip's refusal
    offers declaring it beside the nearest cards."""
    try:
        name = find(word, card_names(state), "crown card", text, card_aliases(state))
    except NotationError as exc:
        if exc.code != "unknown-word":
            raise
        raise not_a_crown_card(state.box, word) or unknown_card(state, word, new) from None
    entry = state.box.card(name)
    if entry is not None and (entry.copies or 1) > 1 and where is not None:
        free = [c for c in instances(entry) if where(c)]
        return free[0] if free else instances(entry)[0]
    return name


def unknown_card(state: State, word: str, new: bool) -> NotationError:
    """R-2: a crown card the log does not know. A slip of a known card is offered that card,
    and declaring a new one only where a new card can come (`new`): elsewhere every card the
    move may name is known, and a declared one would be refused next. The lines to declare it
    are the block a deal's refusal prints (declaring.py), its kind read from its name."""
    typed, name = typed_name(word), card_name(word)
    near = nearest(word, {card_entry(c) for c in card_names(state)})
    block = declare_block(declare_lines(unknown_card_gaps(name)), [name])
    said = f"{word!r} is not a crown card this log knows"
    if near:
        said += f": {' or '.join(shown(n) for n in near)}?"
        said = asking(f"{said} If {typed} is a card of your box, declare it first (R-2)",
                      block) if new else said
    elif new:
        said = asking(f"{said}: declare it first (R-2)", block)
    else:
        said += " (a card new to the log is declared when it is dealt or drawn)"
    return NotationError(said, code="unknown-card", rule="R-2")


def typed_name(word: str) -> str:
    """A name as typed, in the notation a `declare` line takes (`Fair Weather`: Fair-Weather)."""
    return shown(card_name(word))


def parse_nobles(state: State, words: Sequence[str], text: str) -> tuple[str, ...]:
    return find_all(words, list(state.nobles), "noble in play", text)


def nobles_with_heirs(state: State, words: Sequence[str], text: str) -> list[str]:
    """A list of nobles that may name the heirs they take along (`with HEIRS`): heirs always
    go with their controlling noble (R-63), so a named heir is checked and dropped."""
    nobles: list[str] = []
    heirs: list[str] = []
    for name in items(words):
        try:
            nobles.append(find(name, list(state.nobles), "noble in play", text))
        except NotationError:
            heirs.append(find(name, heir_names(state), "noble or heir", text))
    for heir in heirs:
        if rules.controller(state, heir) not in nobles:
            raise NotationError(f"{heir} goes only with the noble who controls him (R-63)",
                                code="heir-alone")
    return [w for n in nobles for w in (shown(n), ",")][:-1]


def heir_names(state: State) -> list[str]:
    return list(state.heirs) + ([rules.BEAUFORT] if rules.beaufort_is_heir(state) else [])


def place_names(state: State) -> list[str]:
    return [e.name for e in state.box.of("place")]


def port_names(state: State) -> list[str]:
    """The declared ports whose kind is known."""
    return [e.name for e in state.box.of("place") if e.flag("port") and e.get("kind")]


def place_aliases(state: State) -> dict[str, str]:
    return {norm(a): e.name for e in state.box.of("place") for a in e.names("aliases")}


def parse_place(state: State, words: Sequence[str], text: str) -> str:
    return find(one(words, "place", text), place_names(state), "place", text,
                place_aliases(state))


def parse_location(state: State, words: Sequence[str], text: str, inside: str = "in") -> str:
    """`in:P`, `near:P`, `sq:TEXT`, `aboard:SHIP`, `port:P`, `sea:TEXT` (a bare P, or in:P, is
    `inside`:P). Free text is as written when quoted (`sq:"Bosworth-Field"`), as `shown` quotes
    a name with a `-` in it; unquoted, a `-` stands for a space."""
    prefix, name = location_words(words, text)
    prefix = inside if prefix == "in" else prefix
    if prefix in ("in", "near", "port"):
        name = find(name, place_names(state), "place", text, place_aliases(state))
    elif prefix == "aboard":
        name = find(name, list(state.ships), "ship in play", text)
    elif not any('"' in word for word in words):
        name = name.replace("-", " ")
    return f"{prefix}:{name}"


def rules_normal(state: State, location: str) -> str:
    """A typed location as stored, even for a place still to be declared (R-2)."""
    prefix, name = split(location)
    entry = state.box.place(name)
    if prefix == "in" and entry is not None and entry.get("kind") == "unfortified":
        return f"near:{name}"
    return location


# ---- slots: one reader and one printer per kind of value typed (see forms.py) ----------------


def named(field: str, label: str, choices: Callable[[State], Sequence[str]], one_what: str,
          what: str, aliases: Callable[[State], dict[str, str]] | None = None,
          **more: Any) -> Slot:
    """One name among the state's (`one_what` when not exactly one is typed)."""
    def reader(state: State, words: list[str], args: Args, out: dict[str, Any]) -> str:
        return find(one(words, one_what, args.text), list(choices(state)), what, args.text,
                    aliases(state) if aliases else None)
    return Slot(field, label, reader, **more)


def names(field: str, label: str, choices: Callable[[State], Sequence[str]], what: str,
          aliases: Callable[[State], dict[str, str]] | None = None, distinct: bool = True,
          **more: Any) -> Slot:
    """Comma-separated names among the state's (`distinct`: at least one, none twice)."""
    def reader(state: State, words: list[str], args: Args, out: dict[str, Any]) -> list[str]:
        known = aliases(state) if aliases else None
        if distinct:
            return list(find_all(words, list(choices(state)), what, args.text, known))
        return [find(name, list(choices(state)), what, args.text, known)
                for name in items(words)]
    return Slot(field, label, reader, shown_list, **more)


def in_play(state: State) -> list[str]:
    return list(state.nobles)


def nobles_or_heirs(state: State) -> list[str]:
    return list(state.nobles) + heir_names(state)


def noble(field: str, label: str = "NOBLE", **more: Any) -> Slot:
    return named(field, label, in_play, "noble", "noble in play", **more)


def nobles(field: str, label: str = "NOBLES", heirs: bool = False, **more: Any) -> Slot:
    """Nobles in play; with `heirs`, the heirs they take along may be named too (R-63)."""
    def reader(state: State, words: list[str], args: Args, out: dict[str, Any]) -> list[str]:
        if heirs:
            words = nobles_with_heirs(state, words, args.text)
        return list(parse_nobles(state, words, args.text))
    return Slot(field, label, reader, shown_list, **more)


def heirs_along(field: str) -> Slot:
    """`with HEIRS` after the moving nobles: the words of both, the heirs checked and dropped."""
    def reader(state: State, words: list[str], args: Args, out: dict[str, Any]) -> list[str]:
        return nobles_with_heirs(state, words, args.text)
    return Slot(field, "HEIRS", reader)


def heir(field: str, label: str = "HEIR", **more: Any) -> Slot:
    return named(field, label, heir_names, "heir", "heir", **more)


def place(field: str, **more: Any) -> Slot:
    return named(field, "PLACE", place_names, "place", "place", place_aliases, **more)


def places(field: str, **more: Any) -> Slot:
    return names(field, "PLACES", place_names, "place", place_aliases, distinct=False, **more)


def player(field: str, **more: Any) -> Slot:
    return named(field, "PLAYER", lambda state: list(state.names), "player", "player", **more)


def players(field: str, **more: Any) -> Slot:
    return names(field, "PLAYERS", lambda state: list(state.names), "player", distinct=False,
                 **more)


def ship(field: str, **more: Any) -> Slot:
    return named(field, "SHIP", lambda state: list(state.ships), "ship", "ship in play", **more)


def event_card(field: str, **more: Any) -> Slot:
    """An event card; one the log does not list is declared first (R-2): its refusal says how,
    beside the nearest cards the log lists."""
    def reader(state: State, words: list[str], args: Args, out: dict[str, Any]) -> str:
        word = one(words, "event card", args.text)
        try:
            return find(word, event_names(state), "event card", args.text)
        except NotationError as exc:
            if exc.code != "unknown-word":
                raise
            raise unknown_event(state, word) from None
    return Slot(field, "CARD", reader, **more)


def unknown_event(state: State, word: str) -> NotationError:
    """R-2: an event card the log does not list, as the shipped file lists only the kinds the
    rules name: the `declare` line to fill in, as a block (declaring.py), and the nearest cards
    listed (a slip)."""
    typed = typed_name(word)
    near = nearest(word, event_names(state))
    slip = f": {' or '.join(shown(n) for n in near)}? If {typed} is another card of your box" \
        if near else "; if it is a card of your box"
    place = plague_from_name(card_name(word))  # a plague card's name gives its place
    line = (f"declare event {typed} kind=plague place={shown(place)} weather={BLANK}"
            if place else f"declare event {typed} kind={BLANK} weather={BLANK}")
    note = (f"kind: {', '.join(EVENT_KINDS[:-1])} or {EVENT_KINDS[-1]}; weather: fair or bad; "
            f"a plague card also place={BLANK}, a call card calls={BLANK}.")
    return NotationError(asking(f"{word!r} is not an event card this log knows{slip}, declare "
                                f"it first as its card prints it",
                                declare_block([line], notes=[note])),
                         code="unknown-card", rule="R-2")


def choice(field: str, options: Sequence[str], one_what: str, what: str,
           **more: Any) -> Slot:
    return named(field, "|".join(options), lambda state: options, one_what, what, **more)


def location(field: str, label: str = "LOCATION", normal: bool = True, **more: Any) -> Slot:
    """`in:P`, `near:P`, `sq:TEXT`... as stored (`normal`: an unfortified place's `in:` is
    `near:`)."""
    def reader(state: State, words: list[str], args: Args, out: dict[str, Any]) -> str:
        typed = parse_location(state, words, args.text)
        return rules_normal(state, typed) if normal else typed
    return Slot(field, label, reader, shown_location, **more)


Where = Callable[[State, Args], Callable[[str], bool]]
New = Callable[[State, Args], bool]  # whether the move may bring a card new to the log


def card(field: str, label: str = "CARD", what: str = "card", where: Where | None = None,
         new: bool | New = False, **more: Any) -> Slot:
    """A crown card; an entry with copies names its first copy `where` accepts (`new`: see
    parse_card; a function when it depends on the move, as a hand's unseen card, R-18)."""
    def reader(state: State, words: list[str], args: Args, out: dict[str, Any]) -> str:
        return parse_card(state, one(words, what, args.text), args.text,
                          where(state, args) if where else None,
                          new(state, args) if callable(new) else new)
    return Slot(field, label, reader, **more)


def first_home(etype: Any, state: State, args: Args, out: dict[str, Any]) -> str:
    """The default of `to` for a noble going home: the first of his homes (R-30)."""
    return rules_normal(state, (rules.home_choices(state, out["noble"]) or [""])[0])


def roll_text(roll: int) -> str:
    return f"{roll:02d}" if roll < 100 else "00"


def known_noble(state: State, name: str) -> str:
    if name not in state.nobles:
        raise refuse(f"{name} is not a noble in play", "unknown-noble", "§5")
    return name


def known_heir(state: State, name: str) -> str:
    if name not in state.heirs and not (name == rules.BEAUFORT and
                                        rules.beaufort_is_heir(state)):
        raise refuse(f"{name} is not an heir", "unknown-heir", "§8")
    if name in state.heirs and not state.heirs[name].alive:
        raise refuse(f"{name} is dead", "dead-heir", "§8")
    return name


def known_place(state: State, name: str) -> str:
    rules.place_entry(state, name)
    return name


def known_card(state: State, name: str) -> str:
    if state.box.card(card_entry(name)) is None or name not in state.cards:
        raise refuse(f"{name} is not a crown card of this box (declare it first, R-2)",
                     "unknown-card", "R-2")
    return name


def known_player(state: State, name: str) -> str:
    if name not in state.names:
        raise refuse(f"{name} is not playing this game", "unknown-player", "§5")
    return name


def check_location(state: State, location: str) -> str:
    """A logged location: its form and its place (R-2), as stored (unfortified: near)."""
    prefix, name = split(location)
    if prefix in ("in", "near", "port"):
        known_place(state, name)
    elif prefix == "aboard":
        if name not in state.ships:
            raise refuse(f"{name} is not a ship in play", "unknown-ship", "§5.2")
    elif prefix not in ("sq", "sea") or not name.strip():
        raise refuse(f"{location!r} is not a location (in:, near:, sq:, aboard:, port:, sea:)",
                     "bad-location", "§3")
    elif not written_back(state, location):
        raise refuse(f"{location!r}: the notation cannot write this text back as it is (a "
                     "quote, an =, white space other than spaces, or spaces at the ends of "
                     "text with a - or a , in it): name the square or the sea without them",
                     "bad-location", "§3")
    return rules.normal(state, location) if prefix == "in" else location


def written_back(state: State, location: str) -> bool:
    """Whether free text (`sq:`, `sea:`) reads back from its notation as it is, and not as a
    declaration (R-2): a log edited by hand may hold text no move can type."""
    shown = shown_location(location)
    typed = tokens(shown)
    try:  # a lone quote prints as a word that names nothing
        return not split_trailing_declarations(typed)[1] and \
            parse_location(state, typed, shown) == location
    except NotationError:
        return False


# --------------------------------------------------------------------------------------------
# Declarations: `declare`, `amend`, and values declared on first use


def declared_values(kind: str, pairs: Sequence[tuple[str, str]], text: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    allowed = FIELDS[kind]
    for key, raw in pairs:
        if "." in key:
            raise NotationError(f"{key}: one entry per declaration; declare "
                                f"{key.rpartition('.')[0]} in a `declare` of its own",
                                code="one-entry", rule="R-2")
        if key not in allowed and key not in ("source", "aliases", "advanced", "assoc"):
            raise NotationError(f"{article(kind)} has no field {key!r} ({', '.join(allowed)})",
                                code="unknown-field")
        if key in values:
            raise NotationError(f"{key} is declared twice in {text!r}", code="repeated-word")
        values[key] = value_of(key, raw, text)
    return values


def inline_text(item: str) -> str:
    name, key, value = split_item(item)
    return f"{shown(name)}.{key}={value}"


def split_item(item: str) -> tuple[str, str, str]:
    left, _, value = item.partition("=")
    name, _, key = left.rpartition(".")
    return name, key, value


def _entries_named(state: State, name: str) -> list[Entry]:
    key = norm(name)
    return [e for _, e in state.box.entries if norm(e.name) == key or
            key in map(norm, e.names("aliases"))]


def inline_declarations(state: State, main: Sequence[str], declared: Sequence[str],
                        text: str) -> tuple[str, ...]:
    """Trailing `key=value` words as canonical `NAME.key=value` items. A bare key belongs to the
    first name the move mentions whose entry has that field (R-2)."""
    out: list[str] = []
    named = [word.split(":")[-1] for word in items(main)]
    mentioned = [e for word in named for e in _entries_named(state, word)]
    # a card the log does not list yet has the kind its printed name tells
    new = [Entry(kind_from_name(card_name(word)), card_name(word)) for word in named
           if not _entries_named(state, word)]
    for word, raw in declaration_words(declared, text):
        name, key, _ = inline_item(f"{word}={raw}", text)
        value = value_of(key, raw, text)
        if not name:
            owner = next((e for e in [*mentioned, *new] if key in FIELDS.get(e.kind, ())),
                         None)
            if owner is None:
                raise NotationError(f"{key}={raw} in {text!r}: say whose value it is "
                                    f"(NAME.{key}={raw})", code="whose-value")
            name = owner.name
        else:
            found = [e for e in _entries_named(state, name) if key in FIELDS[e.kind]]
            name = found[0].name if found else name
        out.append(f"{name}.{key}={value_text(key, value)}")
    for name in dict.fromkeys(split_item(item)[0] for item in out):
        values = [split_item(item)[1:] for item in out if split_item(item)[0] == name]
        untold = None if _entries_named(state, name) else kind_untold(name, values)
        if untold is not None:
            raise untold
    return tuple(out)


def with_inline(state: State, declared: Iterable[str], refusal: bool = False) -> State:
    """The box with values declared on first use: they complete an entry, or make a place."""
    for item in declared:
        name, key, raw = split_item(item)
        try:
            value = value_of(key, raw, item)
        except NotationError as exc:
            raise refuse(exc.message, "bad-declaration", "R-2") from None
        entry, new = _entry_for(state, name, key)
        if entry.get(key) is not None and entry.get(key) != value:
            raise refuse(f"{entry.name}'s {key} is already {value_text(key, entry.get(key))}: "
                         "values are "
                         "fixed once declared; `amend` mends a slip (R-2)", "declared-already",
                         "R-2")
        state = _declare(state, entry.kind, entry.name, {**dict(entry.values), key: value},
                         new)
    return state


def _entry_for(state: State, name: str, key: str) -> tuple[Entry, bool]:
    """The entry a `NAME.key=value` completes, and whether it is new: the log's entry of that
    name with that field; else a new card of the kind its printed name tells (R-2), or a new
    place; else refused with the `declare` lines that would make it."""
    known = _entries_named(state, name)
    for entry in known:
        if key in FIELDS[entry.kind]:
            return entry, False
    kind = kind_from_name(name)
    # a one-word name is a noble's only for a noble's own field: a ship or a place has one too
    if not known and key in FIELDS.get(kind, ()) and not (kind == "noble" and
                                                           key in FIELDS["place"]):
        return Entry(kind, name), True
    if key in FIELDS["place"]:
        return Entry("place", name), True
    block = declare_block(declare_lines(unknown_card_gaps(name)), [] if known else [name])
    said = asking(f"{name} has no entry with a field {key!r}: declare it first (R-2)", block)
    refusal = refuse(said, "unknown-entry", "R-2")
    refusal.suggest = False
    raise refusal


def _declare(state: State, kind: str, name: str, values: dict[str, Any], new: bool) -> State:
    try:
        checked = check_values(kind, name, values)
    except DataError as exc:
        raise refuse(str(exc), "bad-declaration", "R-2") from None
    entry = Entry(kind, name, tuple(sorted(checked.items())))
    state = evolve(state, box=state.box.with_entry(entry))
    if new and kind in ("noble", "title", "office", "bishop", "mercenary", "ship", "town") and \
            state.cards:
        cards = dict(state.cards)
        for card in instances(entry):
            cards.setdefault(card, rules.initial_place(state.box, card))
        state = evolve(state, cards=cards)
    if new and kind == "heir":
        heirs = dict(state.heirs)
        heirs[name] = HeirState(at=f"in:{values.get('start')}")
        state = evolve(state, heirs=heirs, lines=rules.lines_of(state))
    return state


# --------------------------------------------------------------------------------------------
# Event cards drawn and held (§5.1, R-11, R-15), and the dice


def event_names(state: State) -> list[str]:
    return [e.name for e in state.box.of("event")]


def draw_event(state: State, name: str) -> State:
    """An event card leaves the deck (R-15: an exhausted deck is rebuilt from its discard)."""
    entry = state.box.get("event", name)
    if entry is None:
        raise refuse(f"{name} is not an event card of this box (declare it first)",
                     "unknown-card", "R-2")
    if entry.missing():
        raise refuse(f"{name}: {', '.join(entry.missing())} not known yet (R-2)",
                     "missing-value", "R-2")
    if rules.event_deck_empty(state):
        state = rules.rebuild_events(state)
    if not rules.event_available(state, name):
        raise refuse(f"every copy of {name} is out of the event deck (R-15)", "no-copy", "R-15")
    out = dict(state.events_out)
    out[name] = out.get(name, 0) + 1
    return evolve(state, events_out=out)


def keep_event(state: State, player: str, name: str) -> State:
    held = dict(state.held)
    held[player] = held.get(player, ()) + (name,)
    return evolve(state, held=held)


def spend_event(state: State, player: str, kind: str) -> State:
    """A held Writ, Free Move or Chancellor-may-call card is played (to the event discard)."""
    cards = list(state.held.get(player, ()))
    card = next((c for c in cards if rules.event_kind(state, c) == kind), None)
    if card is None:
        raise refuse(f"{player} holds no {kind} card", "no-card", "R-11")
    cards.remove(card)
    held = dict(state.held)
    held[player] = tuple(cards)
    return evolve(state, held=held)


def available_events(state: State) -> list[str]:
    probe = rules.rebuild_events(state) if rules.event_deck_empty(state) else state
    return [e.name for e in state.box.of("event") if not e.missing()
            and rules.event_available(probe, e.name)]


def tool_roll(state: State, salt: str) -> int:
    """In a --seed game the tool rolls an omitted percentile die (rules page §14)."""
    import random  # only a seeded game rolls: kept off every other command's start-up

    return random.Random(f"{state.seed}:{state.turn}:{len(state.chronicle)}:{salt}"
                         ).randint(1, 100)


def parse_roll(word: str, text: str) -> int:
    if not word.isdecimal() or len(word) > 3 or not (0 <= int(word) <= 100):
        raise NotationError(f"{word!r} in {text!r} is not a percentile roll (1-100, 00 = 100)",
                            code="bad-roll")
    return int(word) or 100


def check_roll(roll: int) -> int:
    if not 1 <= roll <= 100:
        raise refuse(f"{roll} is not a percentile roll (1-100)", "bad-roll", "R-23")
    return roll


def give_heir(state: State, heir: str, noble: str) -> State:
    heirs = dict(state.heirs)
    heirs[heir] = evolve(heirs[heir], by=noble)
    return evolve(state, heirs=heirs)


def require_in_play(state: State) -> None:
    if not state.in_play:
        raise refuse("the set-up is not finished", "setting-up", "§4")
