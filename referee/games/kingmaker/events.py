"""Kingmaker's events, each declared once: its fields, who records it, when, its notation, its
effect and the moves it offers. The base class `Base` adds what every event shares: the values a
move may declare on first use (R-2), the duty it may answer, the rule that nothing but the answer
to a duty comes while one is pending, and the referee's own settling after the effect.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Callable, ClassVar, Iterable, Iterator, Sequence

from referee.engine import Args, Event, Events, EventType
from referee.errors import IllegalMove, MoveError, NotationError
from referee.games.kingmaker import rules
from referee.games.kingmaker.components import (
    ALL_FIELDS,
    CROWN,
    FIELDS,
    KEPT_EVENTS,
    KINDS,
    NO_PORTS,
    SINGLES,
    DataError,
    Entry,
    check_values,
    norm,
    ratio,
    roll_range,
)
from referee.games.kingmaker.notation import (
    declaration_words,
    find,
    find_all,
    inline_item,
    items,
    location_words,
    one,
    sections,
    shown,
    shown_list,
    shown_location,
    split_trailing_declarations,
    tokens,
    unquote,
    value_of,
    value_text,
)
from referee.games.kingmaker.rules import refuse, split
from referee.games.kingmaker.state import (
    CHANCE,
    COMBAT,
    CORONATION,
    DEAL,
    DECK,
    DISCARD,
    DRAW,
    LAYOUT,
    MOVEMENT,
    OUT,
    TURN_PHASES,
    Combat,
    Duty,
    Ending,
    HeirState,
    Siege,
    State,
    card_entry,
    crown_instances,
    evolve,
    instances,
)

DECLARES = {"declares": "str[]"}
DECLARES_DOC = {"declares": "values declared on first use (R-2), each `NAME.key=value`"}


class Base(EventType[State]):
    """The shared shape of Kingmaker's events (see the module doc)."""

    keywords: ClassVar[tuple[str, ...]] = ()
    answers: ClassVar[frozenset[str]] = frozenset()  # duty kinds this event resolves
    always: ClassVar[bool] = False  # may come while any duty is pending (table, trades)

    # ---- notation ---------------------------------------------------------------------------
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
        if args.words:
            raise NotationError(f"unexpected {' '.join(args.words)!r} in {args.text!r}",
                                code="trailing-words")
        return {}

    def format(self, state: State, event: Event) -> str:
        text = self.text(state, event)
        extra = event.get("declares") or ()
        return text + "".join(" " + inline_text(item) for item in extra)

    def text(self, state: State, event: Event) -> str:
        return self.name

    # ---- effect -----------------------------------------------------------------------------
    def apply(self, state: State, event: Event) -> State:
        before = state
        self.gate(state, event)
        if event.get("declares"):
            state = with_inline(state, event["declares"], refusal=True)
        state = self.effect(state, event)
        return rules.settle(before, state)

    def gate(self, state: State, event: Event) -> None:
        """Nothing but the answer to a pending duty, and no trade in active combat (rule 14)."""
        current = rules.duty(state)
        if current is not None and not self.always and current.kind not in self.answers:
            raise refuse(f"first: {rules.duty_prompt(current)}", "duty-pending", "§5")
        if state.combat is not None and not self.always and not self.in_combat:
            raise refuse("a combat is being resolved: "
                         f"{rules.to_act(state).prompt}", "combat-pending", "§6")

    in_combat: ClassVar[bool] = False  # part of resolving a combat

    def effect(self, state: State, event: Event) -> State:
        raise NotImplementedError

    def valid(self, state: State, event: Event) -> bool:
        try:
            self.apply(state, event)
        except MoveError:
            return False
        return True


def active_combat(state: State) -> bool:
    return state.combat is not None and state.combat.stage != "weather" or \
        any(d.combat for d in state.duties)


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
               where: Callable[[str], bool] | None = None) -> str:
    """A crown card as typed; an entry with copies names its first copy that `where` accepts."""
    try:
        name = find(word, card_names(state), "crown card", text, card_aliases(state))
    except NotationError as exc:
        if exc.code != "unknown-word":
            raise
        raise NotationError(f"{word!r} is not a crown card this log knows: declare it first "
                            "(e.g. `declare noble Talbot troops=30 lords=2 home=Wingfield`)",
                            code="unknown-card", rule="R-2") from None
    entry = state.box.card(name)
    if entry is not None and (entry.copies or 1) > 1 and where is not None:
        free = [c for c in instances(entry) if where(c)]
        return free[0] if free else instances(entry)[0]
    return name


def parse_nobles(state: State, words: Sequence[str], text: str) -> tuple[str, ...]:
    return find_all(words, list(state.nobles), "noble in play", text)


def parse_noble(state: State, words: Sequence[str], text: str) -> str:
    return find(one(words, "noble", text), list(state.nobles), "noble in play", text)


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


def parse_heir(state: State, words: Sequence[str], text: str) -> str:
    return find(one(words, "heir", text), heir_names(state), "heir", text)


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


def parse_player(state: State, words: Sequence[str], text: str) -> str:
    return find(one(words, "player", text), list(state.names), "player", text)


def parse_location(state: State, words: Sequence[str], text: str) -> str:
    """`in:P`, `near:P`, `sq:TEXT`, `aboard:SHIP`, `port:P`, `sea:TEXT` (a bare P is in:P)."""
    prefix, name = location_words(words, text)
    if prefix in ("in", "near", "port"):
        name = find(name, place_names(state), "place", text, place_aliases(state))
    elif prefix == "aboard":
        name = find(name, list(state.ships), "ship in play", text)
    else:
        name = unquote(name).replace("-", " ")
    return f"{prefix}:{name}"


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
    return rules.normal(state, location) if prefix == "in" else location


# --------------------------------------------------------------------------------------------
# Declarations: `declare`, `amend`, and values declared on first use (R-2)


def declared_values(kind: str, pairs: Sequence[tuple[str, str]], text: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    allowed = FIELDS[kind]
    for key, raw in pairs:
        if "." in key:
            raise NotationError(f"{key}: one entry per declaration; declare "
                                f"{key.rpartition('.')[0]} in a `declare` of its own",
                                code="one-entry", rule="R-2")
        if key not in allowed and key not in ("source", "aliases", "advanced", "assoc"):
            raise NotationError(f"a {kind} has no field {key!r} ({', '.join(allowed)})",
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
    mentioned = [e for word in items(main) for e in _entries_named(state, word.split(":")[-1])]
    for word, raw in declaration_words(declared, text):
        name, key, _ = inline_item(f"{word}={raw}", text)
        value = value_of(key, raw, text)
        if not name:
            owner = next((e for e in mentioned if key in FIELDS[e.kind]), None)
            if owner is None:
                raise NotationError(f"{key}={raw} in {text!r}: say whose value it is "
                                    f"(NAME.{key}={raw})", code="whose-value")
            name = owner.name
        else:
            found = [e for e in _entries_named(state, name) if key in FIELDS[e.kind]]
            name = found[0].name if found else name
        out.append(f"{name}.{key}={value_text(key, value)}")
    return tuple(out)


def with_inline(state: State, declared: Iterable[str], refusal: bool = False) -> State:
    """The box with values declared on first use: they complete an entry, or make a place."""
    for item in declared:
        name, key, raw = split_item(item)
        try:
            value = value_of(key, raw, item)
        except NotationError as exc:
            raise refuse(exc.message, "bad-declaration", "R-2") from None
        matches = [e for e in _entries_named(state, name) if key in FIELDS[e.kind]]
        if not matches and key not in FIELDS["place"]:
            raise refuse(f"{name} has no entry with a field {key!r}: declare it first (R-2)",
                         "unknown-entry", "R-2")
        entry = matches[0] if matches else Entry("place", name)
        if entry.get(key) is not None and entry.get(key) != value:
            raise refuse(f"{entry.name}'s {key} is already {entry.get(key)!r}: values are "
                         "fixed once declared; `amend` mends a slip (R-2)", "declared-already",
                         "R-2")
        state = _declare(state, entry.kind, entry.name, {**dict(entry.values), key: value},
                         not matches)
    return state


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
            cards.setdefault(card, rules.initial_place(state, card))
        state = evolve(state, cards=cards)
    if new and kind == "heir":
        heirs = dict(state.heirs)
        heirs[name] = HeirState(at=f"in:{values.get('start')}")
        state = evolve(state, heirs=heirs, lines=rules.lines_of(state))
    return state


class Declare(Base):
    name = "declare"
    doc = "a component's printed values (the components file, or a card or place first seen)"
    fields = {"entry": "str", "name": "str", **dict(sorted(ALL_FIELDS.items()))}
    field_docs = {"entry": "the kind: " + ", ".join(KINDS),
                  "name": "its name (for votes and the charts, the kind again)"}
    optional = frozenset(ALL_FIELDS)
    actor = "table"
    always = True
    forms: ClassVar[tuple[tuple[str, str], ...]] = (
        ("declare KIND NAME key=value ...", "e.g. declare place Raglan kind=castle "
                                                 "(R-2, R-3)"),
             ("declare votes|battle_chart|death_chart key=value ...", "the rule tables"))
    verbs = ("declare",)

    def parse(self, state: State, args: Args) -> Event:
        words = tokens(args.text)[1:]
        if not words:
            raise NotationError(f"{self.name} needs a kind and a name, e.g. `{self.name} place "
                                "Raglan kind=castle`", code="no-kind")
        kind = find(words[0], KINDS, "kind of component", args.text)
        head, declared = split_trailing_declarations(words[1:])
        if kind in SINGLES:
            if head:
                raise NotationError(f"{kind} has no name in {args.text!r}", code="bad-name")
            name = kind
        else:
            name = self.name_of(state, kind, head, args.text)
        values = declared_values(kind, declaration_words(declared, args.text), args.text)
        return self.make(None, entry=kind, name=name, **values)

    def name_of(self, state: State, kind: str, head: Sequence[str], text: str) -> str:
        name = " ".join(unquote(w) if '"' in w else w.replace("-", " ") for w in head
                        if w != ",")
        if not name:
            raise NotationError(f"{text!r} names no {kind}", code="no-name")
        return name

    def text(self, state: State, event: Event) -> str:
        kind = event["entry"]
        words = [self.name, kind] + ([] if kind in SINGLES else [shown(event["name"])])
        order = list(FIELDS.get(kind, {})) + ["source", "aliases", "advanced", "assoc"]
        words += [f"{key}={value_text(key, event.get(key))}" for key in order
                  if event.get(key) is not None]
        return " ".join(words)

    def effect(self, state: State, event: Event) -> State:
        kind, name = event["entry"], event["name"]
        if kind not in KINDS:
            raise refuse(f"{kind!r} is not a kind of component", "unknown-kind", "R-2")
        if kind in SINGLES and name != kind:
            raise refuse(f"the {kind} table is named {kind}", "bad-name", "R-2")
        clash = state.box.clash(kind, name)
        if clash is not None:
            raise refuse(f"{name} is declared already (as a {clash.kind}); `amend` mends a "
                         "slip (R-2)", "declared-already", "R-2")
        values = {k: v for k, v in event.fields if k not in ("entry", "name")}
        return _declare(state, kind, name, values, True)


class Amend(Declare):
    name = "amend"
    doc = "the table mends a declared value, effective from then on (R-2)"
    forms = (("amend KIND NAME key=value ...", "e.g. amend noble Herbert troops=20"),)
    verbs = ("amend",)

    def name_of(self, state: State, kind: str, head: Sequence[str], text: str) -> str:
        known = [e.name for e in state.box.of(kind)]
        return find(" ".join(head), known, kind, text)

    def effect(self, state: State, event: Event) -> State:
        kind, name = event["entry"], event["name"]
        entry = state.box.get(kind, name)
        if entry is None:
            raise refuse(f"no {kind} {name} is declared", "unknown-entry", "R-2")
        values = {k: v for k, v in event.fields if k not in ("entry", "name")}
        if "copies" in values and state.cards and kind != "event":
            raise refuse("the copies of a crown card are fixed once the deck is dealt",
                         "copies-fixed", "R-2")
        return _declare(state, kind, name, {**dict(entry.values), **values}, False)


# --------------------------------------------------------------------------------------------
# Set-up (§4): the deal, the extra deals, the layout


def missing_data(state: State, card: str) -> list[str]:
    """What R-2 still needs before a card can come into play (its places included)."""
    entry = state.entry(card)
    needs = [f"{entry.name}.{key}" for key in entry.missing()]
    places = list(entry.names("home")) + list(entry.names("brings"))
    if entry.kind == "town":
        places.append(str(entry.get("place")))
    if entry.kind == "ship":
        places.append(str(entry.get("home_port")))
    for place in places:
        found = state.box.place(place)
        if found is None or found.get("kind") is None:
            needs.append(f"{place}.kind")
    ships = list(entry.names("ships")) + \
        ([rules.LE_LUCAS] if entry.name == rules.STANLEY and state.box.card(rules.LE_LUCAS)
         else [])  # rule 26: Stanley comes with Le Lucas
    for ship in ships:
        found = state.box.card(ship)
        if found is None:
            needs.append(f"the ship {ship} (declare it)")
        else:
            needs += [f"{ship}.{key}" for key in found.missing()]
    return needs


def check_data(state: State, card: str) -> None:
    needs = missing_data(state, card)
    if needs:
        raise refuse(f"{card_entry(card)} cannot come into play before these values are known: "
                     f"{', '.join(needs)} (add them to the move as NAME.key=value, or declare "
                     "them)", "missing-value", "R-2")


class Dealt(Base):
    name = "dealt"
    doc = "the crown cards a player was dealt (a reveal): the deal, R-6 and No Elimination"
    fields = {"cards": "str[]", **DECLARES}
    field_docs = {"cards": "the cards, canonical names (copies as `NAME #2`)", **DECLARES_DOC}
    optional = frozenset({"declares"})
    reveal = True
    answers = frozenset({"deal"})
    forms = (("dealt CARD, CARD, ...", "the cards dealt to you (R-5); one card at a time when "
                                       "dealt on until a noble comes (R-6, §9)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        taken: list[str] = []

        def free(card: str) -> bool:
            return state.cards.get(card, DECK) == DECK and card not in taken

        for word in items(args.words):
            taken.append(parse_card(state, word, args.text, free))
        if not taken:
            raise NotationError(f"{args.text!r} names no card", code="no-card")
        return {"cards": taken}

    def text(self, state: State, event: Event) -> str:
        return "dealt " + ", ".join(shown(c) for c in event["cards"])

    def effect(self, state: State, event: Event) -> State:
        cards = [known_card(state, c) if state.cards else c for c in event["cards"]]
        if not state.cards:
            state = rules.open_deck(state)
            cards = [known_card(state, c) for c in cards]
        current = rules.duty(state)
        extra = current is not None and current.kind == "deal"
        if not extra and state.stage != DEAL:
            raise refuse("no deal is due now", "no-deal", "§4")
        if extra:
            state = rules.rebuild_deck(state)  # R-15
        player = str(current.player) if extra and current is not None else \
            rules.to_act(state).players[0]
        if event.by != player:
            raise refuse(f"{player} is dealt now, not {event.by}", "not-your-deal", "§4")
        want = 1 if extra else rules.deal_size(state)
        if len(cards) != want:
            raise refuse(f"{player} is dealt {want} card(s), not {len(cards)} (R-5)",
                         "deal-size", "R-5" if not extra else "R-6")
        if len(set(cards)) != len(cards):
            raise refuse("a card is named twice", "duplicate-card", "§4")
        for card in cards:
            if state.cards.get(card) != DECK or rules.deck_size(state) <= 0:
                raise refuse(f"{card} is not in the Crown deck ({where_is(state, card)})",
                             "not-in-deck", "§4")
            check_data(state, card)
        moved = dict(state.cards)
        for card in cards:
            moved[card] = f"dealt:{player}"
        state = evolve(state, cards=moved)
        if extra and current is not None:
            return self._dealt_on(state, current, cards[0])
        state = evolve(state, dealt=state.dealt + (player,))
        if len(state.dealt) < len(state.playing):
            return state
        for name in state.playing:  # R-6: a player dealt no noble is dealt on
            if not any(state.kind(c) == "noble" for c in dealt_cards(state, name)):
                state = rules.add_duty(state, Duty("deal", name))
        return state if state.duties else start_layout(state)

    def _dealt_on(self, state: State, current: Duty, card: str) -> State:
        if state.kind(card) != "noble":
            return state
        state = rules.done(state, current)
        player = str(current.player)
        if not state.in_play:
            return state if any(d.kind == "deal" for d in state.duties) else start_layout(state)
        state = rules.enter_noble(state, card, player)
        return lay_out(state, player)

    def moves(self, state: State) -> Iterator[Event]:
        turn = rules.to_act(state)
        current = rules.duty(state)
        if (current is not None and current.kind != "deal") or not turn.players or \
                (current is None and state.stage != DEAL):
            return
        player = turn.players[0]
        probe = rules.rebuild_deck(state) if state.cards else rules.open_deck(state)
        deck = [c for c, w in probe.cards.items() if w == DECK]
        deck = [c for c in deck if not missing_data(state, c)]
        if current is not None:
            for card in sorted(deck, key=lambda c: (card_entry(c), c))[:60]:
                yield self.make(player, cards=[card])
            return
        size = rules.deal_size(state)
        if len(deck) >= size:
            yield self.make(player, cards=sorted(deck)[:size])


def where_is(state: State, card: str) -> str:
    where = state.cards.get(card, "not in the box")
    if where.startswith("noble:"):
        return f"with {where[6:]}"
    if where.startswith(("hand:", "dealt:")):
        return f"in {where.split(':', 1)[1]}'s hand"
    return {DECK: "in the deck", DISCARD: "in the crown discard", OUT: "out of the game",
            "aside": "set aside", "chancery": "in the Chancery", rules.PLAY: "in play"}.get(
        where, where)


def dealt_cards(state: State, player: str) -> list[str]:
    where = f"dealt:{player}"
    return [c for c, w in state.cards.items() if w == where]


def start_layout(state: State) -> State:
    """§4.3: nobles face up (Stanley with Le Lucas), then each player lays out the rest."""
    for player in state.playing:
        for card in dealt_cards(state, player):
            if state.kind(card) == "noble":
                state = rules.enter_noble(state, card, player, placed=False)
    state = evolve(state, stage=LAYOUT)
    for player in state.playing:
        if dealt_cards(state, player):
            state = rules.add_duty(state, Duty("layout", player, player))
    return state if state.duties else rules.finish_setup(state)


def lay_out(state: State, player: str) -> State:
    """§9: cards dealt on after a faction's last noble died are laid out as at set-up."""
    if dealt_cards(state, player):
        return rules.add_duty(state, Duty("layout", player, player))
    return state


class Assign(Base):
    name = "assign"
    doc = "a dealt card laid out on a noble, or to the Chancery when it fits none (§4.3)"
    fields = {"card": "str", "to": "str"}
    field_docs = {"card": "the card", "to": "the noble, or `chancery`"}
    answers = frozenset({"layout"})
    forms = (("assign CARD to NOBLE", "lay out a dealt card (§4)"),
             ("assign CARD to chancery", "a card no noble of yours may take (§4)"))

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("to",), args.text)
        where = f"dealt:{args.by}"
        card = parse_card(state, one(parts[""], "card", args.text), args.text,
                          lambda c: state.cards.get(c) == where)
        target = one(parts.get("to", []), "noble", args.text)
        to = "chancery" if norm(target) == "chancery" else \
            find(target, list(state.nobles), "noble in play", args.text)
        return {"card": card, "to": to}

    def text(self, state: State, event: Event) -> str:
        return f"assign {shown(event['card'])} to {shown(event['to'])}"

    def effect(self, state: State, event: Event) -> State:
        current = rules.duty(state)
        if current is None or current.kind != "layout" or current.player != event.by:
            raise refuse("no layout is due from you now", "no-layout", "§4")
        card, player = known_card(state, event["card"]), str(event.by)
        if state.cards.get(card) != f"dealt:{player}":
            raise refuse(f"{card} is not among the cards you were dealt", "not-dealt", "§4")
        eligible = rules.eligible_nobles(state, card, player)
        if event["to"] == "chancery":
            if eligible:
                raise refuse(f"{card} can be laid out on {', '.join(eligible)}: only a card "
                             "no noble may take goes to the Chancery", "placeable", "§4")
            cards = dict(state.cards)
            cards[card] = "chancery"
            state = evolve(state, cards=cards)
        else:
            noble = known_noble(state, event["to"])
            problem = rules.placement_problem(state, card, noble, player)
            if problem is not None:
                raise problem
            state = rules.assign(state, card, noble, claims=state.in_play)
        if dealt_cards(state, player):
            return state
        state = rules.done(state, current)
        if state.stage == LAYOUT and not any(d.kind == "layout" for d in state.duties):
            return rules.finish_setup(state)
        return state

    def moves(self, state: State) -> Iterator[Event]:
        current = rules.duty(state)
        if current is None or current.kind != "layout":
            return
        player = str(current.player)
        for card in dealt_cards(state, player):
            eligible = rules.eligible_nobles(state, card, player)
            for noble in eligible or ["chancery"]:
                yield self.make(player, card=card, to=noble)


# --------------------------------------------------------------------------------------------
# The chance phase (§5.1, §8.3)


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
    card = next((c for c in cards if event_kind(state, c) == kind), None)
    if card is None:
        raise refuse(f"{player} holds no {kind} card", "no-card", "R-11")
    cards.remove(card)
    held = dict(state.held)
    held[player] = tuple(cards)
    return evolve(state, held=held)


def event_kind(state: State, name: str) -> str | None:
    entry = state.box.get("event", name)
    return None if entry is None else entry.get("kind")


def holds_event(state: State, player: str, kind: str) -> bool:
    return any(event_kind(state, c) == kind for c in state.held.get(player, ()))


def available_events(state: State) -> list[str]:
    probe = rules.rebuild_events(state) if rules.event_deck_empty(state) else state
    return [e.name for e in state.box.of("event") if not e.missing()
            and rules.event_available(probe, e.name)]


class EventCard(Base):
    name = "event"
    doc = "the event card drawn in the chance phase (a reveal)"
    fields = {"card": "str", **DECLARES}
    field_docs = {"card": "the event card", **DECLARES_DOC}
    optional = frozenset({"declares"})
    reveal = True
    phases = frozenset({CHANCE})
    forms = (("event CARD", "the chance phase's card, e.g. event Plague-in-Calais (§5.1)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        return {"card": find(one(args.words, "event card", args.text), event_names(state),
                             "event card", args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"event {shown(event['card'])}"

    def effect(self, state: State, event: Event) -> State:
        if state.event_drawn:
            raise refuse("this turn's event card is drawn already; there is no redraw (R-12)",
                         "drawn-already", "R-12")
        name = event["card"]
        state = evolve(draw_event(state, name), event_drawn=True)
        entry = state.box.get("event", name)
        assert entry is not None
        kind = str(entry.get("kind"))
        if kind == "plague":
            return plague(state, known_place(state, str(entry.get("place"))))
        if kind == "call":
            return calls(state, entry)
        if kind == "storm":
            for ship, info in state.ships.items():
                if split(info.at)[0] == "sea":
                    state = rules.add_duty(state, Duty("storm", None, ship))
            return state
        if kind in KEPT_EVENTS:
            return keep_event(state, state.active, name)  # R-11
        if kind == "parliament-must":
            return people_must(state)
        if kind == "embassy":
            return rules.rebuild_events(state)  # rule 9
        return state  # R-14: bad weather alone does nothing here

    def moves(self, state: State) -> Iterator[Event]:
        if state.event_drawn or state.duties:
            return
        for name in available_events(state):
            yield self.make(state.active, card=name)


def plague(state: State, place: str) -> State:
    """R-9: every noble and heir inside P and aboard ships in its port dies; near:P is spared,
    save at an unfortified P (its one square)."""
    struck = {f"in:{place}", f"port:{place}"}
    if rules.is_unfortified(state, place):
        struck.add(f"near:{place}")
    nobles = [n for n, s in state.nobles.items() if rules.position(state, s.at) in struck]
    heirs = [h for h, s in state.heirs.items() if s.alive and
             rules.position(state, rules.heir_location(state, h)) in struck]
    return rules.kill(state, heirs + nobles, f"plague in {place}")


def people_must(state: State) -> State:
    """7.7 and R-59: with no sole King, no King's Peace and no Parliament called in the last
    three turns, this turn's movement and combat are cancelled for a People's Parliament."""
    recent = any(p.turn > state.turn - 3 for p in state.parliaments)
    if rules.sole_king(state) is not None or recent:
        return state
    state = evolve(state, cancelled=True)
    return rules.chronicle(state, "a People's Parliament must be held now (7.7): this turn's "
                                  "movement and combat are cancelled (Parliament itself is not "
                                  "refereed by this version: the table holds it by hand)")


def calls(state: State, entry: Entry) -> State:
    """§5.1, §8.3: each named noble (or the holder of the named card; `King`: each crowned King)
    not under siege must answer; an uncontrolled King goes alone (R-67)."""
    for call in entry.names("calls"):
        who, _, where = call.partition(">")
        place = known_place(state, where.strip())
        for noble, king in called(state, who.strip()):
            if noble is None:
                state = lone_king(state, king, place)
            elif not (rules.under_siege(state, noble) or rules.ship_besieger(state, noble)) and \
                    not any(d.kind == "respond" and d.subject == noble for d in state.duties):
                state = rules.add_duty(state, Duty("respond", state.owner(noble), noble,
                                                   ("king",) if king else (), place))
    return state


def called(state: State, who: str) -> list[tuple[str | None, str]]:
    """(noble, King) pairs a call names: a noble, a card's holder, or each crowned King."""
    if norm(who) == "king":
        return [(rules.controller(state, k), k) for k in rules.kings(state)]
    if who in state.nobles:
        return [(who, "")]
    entry = state.box.card(who)
    if entry is None:
        return []
    holders = [rules.holder(state, c) for c in instances(entry)]
    return [(h, "") for h in holders if h]


def lone_king(state: State, king: str, place: str) -> State:
    """R-67: an uncontrolled King goes alone: inside an open or unfortified place nobody holds,
    else to its open square."""
    if king == rules.BEAUFORT or king not in state.heirs:
        return state
    prefix, there = split(state.heirs[king].at)
    if prefix == "in" and there in state.sieges:
        return state  # under siege: he does not move (§5.1)
    inside = rules.is_open_town(state, place) and not rules.inside(state, place)
    heirs = dict(state.heirs)
    heirs[king] = replace(heirs[king], at=rules.normal(state, f"{'in' if inside else 'near'}:"
                                                              f"{place}"))
    return evolve(state, heirs=heirs)


def landing(state: State, place: str, player: str) -> str:
    """Where a force lands in a port (R-52): inside a friendly fortress or an open town no other
    faction occupies, else its open square."""
    if rules.is_unfortified(state, place):
        return f"near:{place}"
    if rules.friendly(state, player, place):
        return f"in:{place}"
    return f"near:{place}"


def land_all(state: State, ship: str, place: str) -> State:
    for noble in rules.aboard(state, ship):
        state = rules.move_nobles(state, [noble], landing(state, place, state.owner(noble)))
    return state


def port_problem(state: State, ship: str, place: str, player: str | None,
                 refuge: bool) -> IllegalMove | None:
    """Why a ship may not put in at `place`: no port; Ireland, Scotland, the Continent; an heir
    aboard off the mainland (8.4); and for a refuge (storm, event), not open or friendly."""
    if not rules.is_port(state, place):
        return refuse(f"{place} is not a port (declare port=yes if it is, R-2)", "not-a-port",
                      "§5.2")
    if rules.area(state, place) in NO_PORTS:
        return refuse(f"ships never put in at {place} ({rules.area(state, place)}) (§5.2)",
                      "no-port-there", "§5.2")
    crew = rules.aboard(state, ship)
    if any(state.heirs_of(n) for n in crew) and not rules.on_mainland(state, f"port:{place}") \
            and not (rules.controller_player(state, "Carisbrooke") == player and
                     rules._is_wight(state, f"port:{place}")):
        return refuse(f"an heir is aboard {ship}: it lands only on the mainland (8.4)",
                      "heir-off-mainland", "§8.4")
    if refuge and crew and player is not None and not rules.is_unfortified(state, place) and \
            not rules.friendly(state, player, place):
        return refuse(f"{place} is neither open nor friendly to {ship}'s force (§8.6)",
                      "unfriendly-port", "§8.6")
    return None


class Respond(Base):
    name = "respond"
    doc = "a noble called by the event card goes where it says (§5.1, §8.3)"
    fields = {"noble": "str", "to": "str", "with": "str[]", "port": "str", **DECLARES}
    field_docs = {"noble": "the called noble", "to": "where he goes: in:P if friendly, else near:P",
                  "with": "nobles of his force who follow a called King's controller (R-10)",
                  "port": "aboard a ship: the declared nearest friendly or unfortified port",
                  **DECLARES_DOC}
    optional = frozenset({"with", "port", "declares"})
    answers = frozenset({"respond"})
    phases = frozenset({CHANCE})
    forms = (("respond NOBLE [with NOBLES] [port PLACE]", "a called noble goes (§8.3); the "
                                                          "referee fills in `to`"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("to", "with", "port"), args.text)
        noble = parse_noble(state, parts[""], args.text)
        out: dict[str, Any] = {"noble": noble}
        out["to"] = parse_location(state, parts["to"], args.text) if "to" in parts else \
            self.destination(state, noble)
        if "with" in parts:
            out["with"] = list(parse_nobles(state, parts["with"], args.text))
        if "port" in parts:
            out["port"] = parse_place(state, parts["port"], args.text)
        return out

    def destination(self, state: State, noble: str) -> str:
        current = next((d for d in state.duties if d.kind == "respond" and d.subject == noble),
                       None)
        if current is None or noble not in state.nobles:
            return ""
        place = current.place
        if rules.friendly(state, state.owner(noble), place):
            return rules.normal(state, f"in:{place}")
        return f"near:{place}"

    def text(self, state: State, event: Event) -> str:
        out = f"respond {shown(event['noble'])} to {shown_location(event['to'])}"
        if event.get("with"):
            out += " with " + shown_list(event["with"])
        if event.get("port"):
            out += f" port {shown(event['port'])}"
        return out

    def effect(self, state: State, event: Event) -> State:
        current = rules.duty(state)
        assert current is not None and current.kind == "respond"
        noble = known_noble(state, event["noble"])
        if noble != current.subject:
            raise refuse(f"{current.subject} answers first", "not-this-noble", "§8.3")
        want = self.destination(state, noble)
        if event["to"] != want:
            raise refuse(f"{noble} goes to {want}: inside only if {current.place} is friendly "
                         "(§8.3)", "wrong-destination", "§8.3")
        followers = list(event.get("with", ()))
        here = state.nobles[noble].at
        for other in followers:
            known_noble(state, other)
            if "king" not in current.choices:
                raise refuse("only a called King's controller may be followed (R-10)",
                             "no-escort", "R-10")
            if state.nobles[other].at != here or state.owner(other) != state.owner(noble) \
                    or rules.under_siege(state, other):
                raise refuse(f"{other} is not of {noble}'s force (R-10)", "not-in-force",
                             "R-10")
        state = self.put_in(state, noble, event.get("port"))
        state = rules.move_nobles(state, [noble] + followers, want)
        return rules.done(state, current)

    def put_in(self, state: State, noble: str, port: str | None) -> State:
        """§8.3: a ship carrying him first goes to the declared port and all aboard land."""
        prefix, ship = split(state.nobles[noble].at)
        if prefix != "aboard":
            if port:
                raise refuse(f"{noble} is not aboard a ship: leave out `port`", "not-aboard",
                             "§8.3")
            return state
        if not port:
            raise refuse(f"{noble} is aboard {ship}: name the nearest friendly or unfortified "
                         "port it goes to (`port PLACE`)", "no-port", "§8.3")
        known_place(state, port)
        owner = state.owner(state.ships[ship].by)
        problem = port_problem(state, ship, port, owner, refuge=True)
        if problem is not None:
            raise problem
        ships = dict(state.ships)
        ships[ship] = replace(ships[ship], at=f"port:{port}")
        return land_all(evolve(state, ships=ships), ship, port)

    def moves(self, state: State) -> Iterator[Event]:
        current = rules.duty(state)
        if current is None or current.kind != "respond":
            return
        noble = current.subject
        ports: Sequence[str | None] = [None]
        if split(state.nobles[noble].at)[0] == "aboard":
            ship = split(state.nobles[noble].at)[1]
            owner = state.owner(state.ships[ship].by)
            ports = [p for p in port_names(state)
                     if port_problem(state, ship, p, owner, refuge=True) is None][:5]
        for port in ports:
            event = self.make(current.player, noble=noble, to=self.destination(state, noble),
                              port=port)
            if self.valid(state, event):
                yield event


class Leave(Base):
    name = "leave"
    doc = "a called noble leaves an heir with a noble of his force (§8.3)"
    fields = {"heir": "str", "with": "str"}
    field_docs = {"heir": "the heir left behind", "with": "the noble who takes him"}
    answers = frozenset({"respond"})
    phases = frozenset({CHANCE})
    forms = (("leave HEIR with NOBLE", "before a called noble answers (§8.3)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("with",), args.text)
        return {"heir": parse_heir(state, parts[""], args.text),
                "with": parse_noble(state, parts.get("with", []), args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"leave {shown(event['heir'])} with {shown(event['with'])}"

    def effect(self, state: State, event: Event) -> State:
        current = rules.duty(state)
        assert current is not None
        heir, noble = known_heir(state, event["heir"]), known_noble(state, event["with"])
        if rules.controller(state, heir) != current.subject or heir == rules.BEAUFORT:
            raise refuse(f"{heir} is not with {current.subject}", "not-his-heir", "§8.3")
        called_noble = current.subject
        if noble == called_noble or state.nobles[noble].at != state.nobles[called_noble].at or \
                state.owner(noble) != state.owner(called_noble):
            raise refuse(f"{noble} is not of {called_noble}'s force", "not-in-force", "§8.3")
        heirs = dict(state.heirs)
        heirs[heir] = replace(heirs[heir], by=noble)
        return evolve(state, heirs=heirs)

    def moves(self, state: State) -> Iterator[Event]:
        current = rules.duty(state)
        if current is None or current.kind != "respond":
            return
        noble = current.subject
        mates = [n for n in rules.at_location(state, state.nobles[noble].at)
                 if n != noble and state.owner(n) == state.owner(noble)]
        for heir in state.heirs_of(noble):
            for mate in mates:
                yield self.make(current.player, heir=heir, **{"with": mate})


def tool_roll(state: State, salt: str) -> int:
    """In a --seed game the tool rolls an omitted percentile die (rules page §14)."""
    return random.Random(f"{state.seed}:{state.turn}:{len(state.chronicle)}:{salt}"
                         ).randint(1, 100)


def parse_roll(word: str, text: str) -> int:
    if not word.isdigit() or len(word) > 3 or not (0 <= int(word) <= 100):
        raise NotationError(f"{word!r} in {text!r} is not a percentile roll (1-100, 00 = 100)",
                            code="bad-roll")
    return int(word) or 100


def check_roll(roll: int) -> int:
    if not 1 <= roll <= 100:
        raise refuse(f"{roll} is not a percentile roll (1-100)", "bad-roll", "R-23")
    return roll


class Storm(Base):
    name = "storm"
    doc = "a ship at sea in a storm: its rolls, and the port it reaches (§5.1, rule 10)"
    fields = {"ship": "str", "rolls": "int[]", "port": "str", **DECLARES}
    field_docs = {"ship": "the ship", "rolls": "percentile rolls: the first, then one per "
                                               "unfriendly port passed; 96-00 sinks it",
                  "port": "the declared nearest open or friendly port it enters", **DECLARES_DOC}
    optional = frozenset({"port", "declares"})
    actor = "table"
    reveal = True
    answers = frozenset({"storm"})
    phases = frozenset({CHANCE})
    forms = (("storm SHIP ROLL [ROLL ...] [port PLACE]", "each ship at sea in a storm "
                                                         "(rule 10; 96-00 sinks it)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("port",), args.text)
        head = [w for w in parts[""] if w != ","]
        rolls = [parse_roll(w, args.text) for w in head[1:]]
        ship = find(head[0] if head else "", list(state.ships), "ship in play", args.text)
        if not rolls and state.seed is not None:
            rolls = [tool_roll(state, ship)]
        out: dict[str, Any] = {"ship": ship, "rolls": rolls}
        if "port" in parts:
            out["port"] = parse_place(state, parts["port"], args.text)
        return out

    def text(self, state: State, event: Event) -> str:
        rolls = " ".join(f"{r:02d}" if r < 100 else "00" for r in event["rolls"])
        port = f" port {shown(event['port'])}" if event.get("port") else ""
        return f"storm {shown(event['ship'])} {rolls}{port}"

    def effect(self, state: State, event: Event) -> State:
        current = rules.duty(state)
        assert current is not None
        ship = event["ship"]
        if ship != current.subject:
            raise refuse(f"the table rolls for {current.subject} first", "not-this-ship",
                         "§5.1")
        rolls = [check_roll(r) for r in event["rolls"]]
        if not rolls:
            raise refuse("a storm needs at least one roll", "no-roll", "§5.1")
        state = rules.done(state, current)
        if any(r >= 96 for r in rolls):
            return rules.ship_sinks(state, ship, "storm at sea")
        port = event.get("port")
        if not port:
            raise refuse(f"{ship} survives: name the nearest open or friendly port it enters "
                         "(`port PLACE`)", "no-port", "§5.1")
        known_place(state, port)
        owner = state.owner(state.ships[ship].by)
        problem = port_problem(state, ship, port, owner, refuge=True)
        if problem is not None:
            raise problem
        ships = dict(state.ships)
        ships[ship] = replace(ships[ship], at=f"port:{port}")
        return land_all(evolve(state, ships=ships), ship, port)

    def moves(self, state: State) -> Iterator[Event]:
        current = rules.duty(state)
        if current is None or current.kind != "storm":
            return
        ship = current.subject
        yield self.make(None, ship=ship, rolls=[100])
        owner = state.owner(state.ships[ship].by)
        for place in place_names(state):
            entry = state.box.place(place)
            if entry is not None and entry.get("kind") and \
                    port_problem(state, ship, place, owner, refuge=True) is None:
                yield self.make(None, ship=ship, rolls=[50], port=place)


class Friendly(Base):
    name = "friendly"
    doc = "a fortress's controller declares it friendly to another player for this phase (§8.2)"
    fields = {"place": "str", "for": "str"}
    field_docs = {"place": "his fortress", "for": "the player it is friendly to"}
    actor = "any"
    answers = frozenset({"respond"})
    phases = frozenset({CHANCE, MOVEMENT})
    forms = (("friendly PLACE for PLAYER", "the controller's grant, irreversible for the phase "
                                           "(§8.2); --as the controller"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("for",), args.text)
        return {"place": parse_place(state, parts[""], args.text),
                "for": parse_player(state, parts.get("for", []), args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"friendly {shown(event['place'])} for {shown(event['for'])}"

    def effect(self, state: State, event: Event) -> State:
        place, player = known_place(state, event["place"]), known_player(state, event["for"])
        owner = rules.controller_player(state, place)
        if owner != event.by:
            raise refuse(f"{place} is not {event.by}'s: only its controller declares it "
                         "friendly" + (f" (--as {owner})" if owner else ""),
                         "not-your-fortress", "§8.2")
        if player == event.by:
            raise refuse("your own fortress is friendly to you already", "own-fortress", "§8.2")
        if state.stage == MOVEMENT and player != state.active:
            raise refuse(f"friendliness is declared for the mover, {state.active}",
                         "not-the-mover", "§8.2")
        if state.stage == CHANCE and not any(d.kind == "respond" for d in state.duties):
            raise refuse("no noble answers an event card now", "no-response", "§8.2")
        return evolve(state, grants=state.grants | {(place, player)})

    def moves(self, state: State) -> Iterator[Event]:
        if state.stage != MOVEMENT or state.duties or state.combat is not None:
            return
        for place, noble in state.control.items():
            owner = state.owner(noble)
            if owner != state.active and (place, state.active) not in state.grants:
                yield Event.make(self.name, owner, place=place, **{"for": state.active})


# --------------------------------------------------------------------------------------------
# Movement (§5.2, §8.4, §8.6): declared, not measured


def returned_problem(state: State, nobles: Iterable[str]) -> IllegalMove | None:
    """7.6: returned nobles do not move during the King's Peace (issue 12 keeps the Peace)."""
    return None


def move_problem(state: State, player: str, nobles: Sequence[str], to: str,
                 via: Sequence[str] = (), freemove: bool = False) -> IllegalMove | None:
    """R-16's checks of a land move (distances, roads and forests are declared, not checked)."""
    for noble in nobles:
        if noble not in state.nobles or state.owner(noble) != player:
            return refuse(f"{noble} is not a noble of yours in play", "not-your-noble", "R-16")
    starts = {state.nobles[n].at for n in nobles}
    if len(starts) != 1:
        return refuse("a force moves from one location: these nobles are apart", "apart",
                      "R-16")
    start = starts.pop()
    for noble in nobles:
        if noble in state.moved:
            return refuse(f"{noble} has moved this phase (by land or by sea, once)",
                          "moved-already", "R-16")
        if rules.under_siege(state, noble) or rules.ship_besieger(state, noble):
            return refuse(f"{noble} is under siege: no one leaves a besieged fortress",
                          "under-siege", "R-16")
    problem = returned_problem(state, nobles)
    if problem is not None:
        return problem
    prefix, name = split(to)
    if prefix not in ("in", "near", "sq"):
        return refuse(f"{to}: a land move ends in:, near: or sq: (ships `sail`)",
                      "not-a-land-location", "R-16")
    if to == start:
        return refuse(f"{', '.join(nobles)} are at {to} already", "no-move", "R-16")
    start_prefix, ship = split(start)
    if start_prefix == "aboard":
        ship_at = state.ships[ship].at
        if split(ship_at)[0] != "port":
            return refuse(f"{ship} is at sea: only the ship moves (`sail`)", "at-sea", "R-16")
        port = split(ship_at)[1]
        if to not in (rules.normal(state, f"in:{port}"), f"near:{port}"):
            return refuse(f"landing from {ship} is at {port} (R-64)", "landing", "R-64")
    if prefix == "in":
        problem = entry_problem(state, player, name, nobles)
        if problem is not None:
            return problem
    return via_problem(state, player, nobles, via, freemove)


def entry_problem(state: State, player: str, place: str, nobles: Sequence[str]) -> \
        IllegalMove | None:
    """in:P needs P friendly (fixed at the start of the phase, §8.2) and room (capacity)."""
    if not rules.friendly(state, player, place, snapshot=True):
        return refuse(f"{place} is not friendly to {player}: end near:{place}, or its "
                      "controller may declare it friendly (`friendly`)", "unfriendly", "§8.2")
    room = rules.capacity(state, place)
    if room is not None:
        inside = [n for n in rules.inside(state, place) if n not in nobles]
        load = sum(rules.strength(state, n) for n in list(inside) + list(nobles))
        if load > room:
            return refuse(f"{place} holds {room}: {load} would be inside", "no-room", "R-16")
    return None


def via_problem(state: State, player: str, nobles: Sequence[str], via: Sequence[str],
                freemove: bool) -> IllegalMove | None:
    """Road moves pass only friendly fortresses, save a single noble with a bishop who spends
    his faction's Free Move (rule 20, §8.4)."""
    blocked = [p for p in via if rules.is_fortress(state, p) and
               not rules.friendly(state, player, p, snapshot=True)]
    if freemove:
        if len(nobles) != 1 or not rules.bishops_of(state, nobles[0]):
            return refuse("a Free Move on the road is for a single noble with a bishop "
                          "(rule 20)", "freemove-noble", "§8.4")
        if not holds_event(state, player, "free-move"):
            return refuse(f"{player} holds no Free Move card", "no-freemove", "§8.4")
        if not blocked:
            return refuse("no unfriendly fortress is passed: no Free Move is needed",
                          "freemove-unneeded", "§8.4")
        return None
    if blocked:
        return refuse(f"the road passes {blocked[0]}, which is not friendly: a road move may "
                      f"end near:{blocked[0]} (§8.4)", "unfriendly-road", "§8.4")
    return None


class MoveForce(Base):
    name = "move"
    doc = "a force of the active player moves by land to a declared location (§5.2)"
    fields = {"nobles": "str[]", "to": "str", "via": "str[]", "freemove": "bool", **DECLARES}
    field_docs = {"nobles": "the moving nobles (their heirs go with them, R-63)",
                  "to": "the location (in:P, near:P, sq:TEXT)",
                  "via": "the fortresses a road move passes", "freemove":
                  "a single noble with a bishop spends a Free Move to pass unfriendly "
                  "fortresses (rule 20)", **DECLARES_DOC}
    optional = frozenset({"via", "freemove", "declares"})
    phases = frozenset({MOVEMENT})
    forms = (("move NOBLES [with HEIRS] to LOCATION [via PLACES] [freemove]",
              "e.g. move Neville,Percy to York via Coventry; LOCATION is in:P (or P), near:P, "
              "sq:TEXT"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        words = list(args.words)
        freemove = bool(words) and words[-1].casefold() == "freemove"
        parts = sections(words[:-1] if freemove else words, ("with", "to", "via"), args.text)
        if parts.get("with"):
            parts[""] = nobles_with_heirs(state, parts[""] + [","] + parts["with"], args.text)
        out: dict[str, Any] = {"nobles": list(parse_nobles(state, parts[""], args.text)),
                               "to": rules_normal(state, parse_location(
                                   state, parts.get("to", []), args.text))}
        if parts.get("via"):
            out["via"] = [find(p, place_names(state), "place", args.text, place_aliases(state))
                          for p in items(parts["via"])]
        if freemove:
            out["freemove"] = True
        return out

    def text(self, state: State, event: Event) -> str:
        out = f"move {shown_list(event['nobles'])} to {shown_location(event['to'])}"
        if event.get("via"):
            out += " via " + shown_list(event["via"])
        return out + (" freemove" if event.get("freemove") else "")

    def effect(self, state: State, event: Event) -> State:
        nobles = [known_noble(state, n) for n in event["nobles"]]
        to = check_location(state, event["to"])
        via = [known_place(state, p) for p in event.get("via", ())]
        player = str(event.by)
        problem = move_problem(state, player, nobles, to, via, bool(event.get("freemove")))
        if problem is not None:
            raise problem
        if event.get("freemove"):
            state = spend_event(state, player, "free-move")
        start = state.nobles[nobles[0]].at
        barred = state.barred
        if rules.split(start)[0] == "in" and rules.garrison_ally(state, nobles[0]):
            barred += tuple((n, split(start)[1], state.turn) for n in nobles)  # §8.5
        moved = dict(state.moved)
        moved.update({n: "land" for n in nobles})
        state = rules.move_nobles(state, nobles, to)
        return evolve(state, moved=moved, barred=barred)

    def moves(self, state: State) -> Iterator[Event]:
        if state.duties or state.combat is not None:
            return
        player = state.active
        for force in forces(state, player):
            for to in destinations(state):
                if move_problem(state, player, force, to) is None:
                    yield self.make(player, nobles=list(force), to=to)


def rules_normal(state: State, location: str) -> str:
    """A typed location as stored, even for a place still to be declared (R-2)."""
    prefix, name = split(location)
    entry = state.box.place(name)
    if prefix == "in" and entry is not None and entry.get("kind") == "unfortified":
        return f"near:{name}"
    return location


def forces(state: State, player: str) -> list[tuple[str, ...]]:
    """The player's movable groups: each whole force, and each of its nobles alone."""
    groups: dict[str, list[str]] = {}
    for noble in state.faction(player):
        if noble not in state.moved:
            groups.setdefault(state.nobles[noble].at, []).append(noble)
    out: list[tuple[str, ...]] = []
    for members in groups.values():
        out.append(tuple(members))
        if len(members) > 1:
            out.extend((m,) for m in members)
    return out


def destinations(state: State) -> list[str]:
    out = []
    for entry in state.box.of("place"):
        kind = entry.get("kind")
        if kind is None or entry.get("area", "mainland") != "mainland":
            continue
        out.append(f"near:{entry.name}")
        if kind != "unfortified":
            out.append(f"in:{entry.name}")
    return out


def sail_problem(state: State, player: str, ship: str, to: str, embark: Sequence[str],
                 agreed: bool = False) -> IllegalMove | None:
    """§5.2, §8.6: who may sail which ship where, with whom."""
    if ship not in state.ships:
        return refuse(f"{ship} is not a ship in play", "unknown-ship", "§5.2")
    info = state.ships[ship]
    if state.owner(info.by) != player and not agreed:
        return refuse(f"{ship} is {state.owner(info.by)}'s: another faction's ship only with "
                      "its player's consent (`agreed`, R-17)", "not-your-ship", "R-17")
    if ship in state.moved:
        return refuse(f"{ship} has moved this phase", "moved-already", "§5.2")
    if any(s.ship == ship for s in state.sieges.values()):
        return refuse(f"{ship}'s force is besieging: it stays until the siege ends (§8.6)",
                      "besieging", "§8.6")
    where, at = split(info.at)
    for noble in embark:
        problem = embark_problem(state, player, noble, ship, where, at)
        if problem is not None:
            return problem
    force = rules.aboard(state, ship) + list(embark)
    if force and where == "port" and not rules.is_unfortified(state, at) and \
            not rules.friendly(state, player, at, snapshot=True):
        return refuse(f"a ship with a force leaves only a friendly or unfortified port, not "
                      f"{at} (§8.6)", "unfriendly-port", "§8.6")
    cap = state.box.card(card_entry(ship))
    load = sum(rules.strength(state, n) for n in force)
    room = cap.number("capacity") if cap is not None else 0
    if len(force) > 1 and load > room:
        return refuse(f"{ship} carries {room}: {load} aboard (or one noble, rule 22)",
                      "overloaded", "§5.2")
    prefix, place = split(to)
    if prefix == "sea":
        return None if place.strip() else refuse("name the sea (sea:TEXT)", "bad-location",
                                                 "§5.2")
    if prefix != "port":
        return refuse(f"{to}: a ship goes to port:P or sea:TEXT", "not-a-sea-location",
                      "§5.2")
    if to == info.at:
        return refuse(f"{ship} is at {to} already", "no-move", "§5.2")
    problem = port_problem(state, ship, place, player, refuge=False) if not embark else \
        _port_problem_with(state, ship, place, player, embark)
    if problem is not None:
        return problem
    if force and not rules.is_unfortified(state, place) and \
            not rules.friendly(state, player, place, snapshot=True):
        siege = state.sieges.get(place)
        if not (siege and siege.owner == player) and not rules.is_fortress(state, place):
            return refuse(f"{place} is not friendly (§8.6)", "unfriendly-port", "§8.6")
        if not (siege and siege.owner == player) and \
                2 * rules.force_strength(state, force) < rules.defence(state, place):
            return refuse(f"{place} is unfriendly and the force cannot besiege it (less than "
                          "half its defence, §8.6)", "cannot-besiege", "§8.6")
    return None


def _port_problem_with(state: State, ship: str, place: str, player: str,
                       embark: Sequence[str]) -> IllegalMove | None:
    """port_problem as if `embark` were aboard already (their heirs count for 8.4)."""
    if any(state.heirs_of(n) for n in embark) and not rules.on_mainland(state, f"port:{place}") \
            and not (rules.controller_player(state, "Carisbrooke") == player and
                     rules._is_wight(state, f"port:{place}")):
        return refuse(f"an heir would be aboard {ship}: it lands only on the mainland (8.4)",
                      "heir-off-mainland", "§8.4")
    return port_problem(state, ship, place, player, refuge=False)


def embark_problem(state: State, player: str, noble: str, ship: str, where: str,
                   port: str) -> IllegalMove | None:
    if noble not in state.nobles or state.owner(noble) != player:
        return refuse(f"{noble} is not a noble of yours in play", "not-your-noble", "§5.2")
    if noble in state.moved:
        return refuse(f"{noble} has moved this phase (land or sea, never both)",
                      "moved-already", "§8.6")
    if rules.under_siege(state, noble):
        return refuse(f"{noble} is under siege", "under-siege", "R-16")
    if where != "port":
        return refuse(f"{ship} is at sea: no one embarks", "at-sea", "§8.6")
    at = state.nobles[noble].at
    if rules.is_unfortified(state, port):
        ok = at == f"near:{port}"
    else:
        ok = at == f"in:{port}" and rules.friendly(state, player, port, snapshot=True)
    if not ok:
        return refuse(f"{noble} cannot embark at {port}: from inside a friendly fortress port, "
                      "or at an unfortified port (§8.6)", "cannot-embark", "§8.6")
    return None


class Sail(Base):
    name = "sail"
    doc = "a ship moves, with the force that embarks; at a port its force lands (§5.2, R-52)"
    fields = {"ship": "str", "to": "str", "with": "str[]", "aboard": "bool", "agreed": "bool",
              **DECLARES}
    field_docs = {"ship": "the ship", "to": "port:P or sea:TEXT",
                  "with": "nobles who embark at its port", "aboard": "the force stays aboard "
                  "in port (R-52)", "agreed": "another faction's ship, with consent (R-17)",
                  **DECLARES_DOC}
    optional = frozenset({"with", "aboard", "agreed", "declares"})
    phases = frozenset({MOVEMENT})
    forms = (("sail SHIP to port:P|sea:TEXT [with NOBLES] [aboard] [agreed]",
              "e.g. sail Le-Lucas to sea:Irish-Sea with Stanley (§5.2, §8.6)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        words = list(args.words)
        flags = {w.casefold() for w in words if w.casefold() in ("aboard", "agreed")}
        words = [w for w in words if w.casefold() not in ("aboard", "agreed")]
        parts = sections(words, ("to", "with"), args.text)
        ship = find(one(parts[""], "ship", args.text), list(state.ships), "ship in play",
                    args.text)
        if parts.get("with"):
            parts["with"] = nobles_with_heirs(state, parts["with"], args.text)
        prefix, name = location_words(parts.get("to", []), args.text)
        if prefix == "in":
            prefix = "port"
        to = parse_location(state, [f"{prefix}:{name}"], args.text)
        out: dict[str, Any] = {"ship": ship, "to": to}
        if parts.get("with"):
            out["with"] = list(parse_nobles(state, parts["with"], args.text))
        for flag in sorted(flags):
            out[flag] = True
        return out

    def text(self, state: State, event: Event) -> str:
        out = f"sail {shown(event['ship'])} to {shown_location(event['to'])}"
        if event.get("with"):
            out += " with " + shown_list(event["with"])
        return out + "".join(f" {f}" for f in ("aboard", "agreed") if event.get(f))

    def effect(self, state: State, event: Event) -> State:
        ship, to = event["ship"], check_location(state, event["to"])
        embark = [known_noble(state, n) for n in event.get("with", ())]
        player = str(event.by)
        problem = sail_problem(state, player, ship, to, embark, bool(event.get("agreed")))
        if problem is not None:
            raise problem
        state = rules.move_nobles(state, embark, f"aboard:{ship}")
        ships = dict(state.ships)
        ships[ship] = replace(ships[ship], at=to)
        moved = dict(state.moved)
        moved[ship] = "sea"
        moved.update({n: "sea" for n in rules.aboard(state, ship)})
        state = evolve(state, ships=ships, moved=moved)
        prefix, place = split(to)
        if prefix == "port" and not event.get("aboard") and \
                (rules.is_unfortified(state, place) or
                 rules.friendly(state, player, place, snapshot=True)):
            state = land_all(state, ship, place)
        return state

    def moves(self, state: State) -> Iterator[Event]:
        if state.duties or state.combat is not None:
            return
        player = state.active
        ports = [f"port:{e.name}" for e in state.box.of("place")
                 if e.flag("port") and e.get("kind")]
        for ship, info in state.ships.items():
            if state.owner(info.by) != player or ship in state.moved:
                continue
            where, at = split(info.at)
            crews: list[list[str]] = [[]]
            if where == "port":
                ready = [n for n in state.faction(player)
                         if embark_problem(state, player, n, ship, where, at) is None]
                if ready:
                    crews.append(ready)
            for crew in crews:
                for to in ports + ["sea:Channel"]:
                    if sail_problem(state, player, ship, to, crew) is None:
                        yield self.make(player, ship=ship, to=to, **({"with": crew} if crew
                                                                     else {}))


# --------------------------------------------------------------------------------------------
# Ending a phase, a turn


def mainland_deadlines(state: State) -> State:
    """8.4: at the end of his controller's movement phase, an heir past his deadline dies."""
    for heir, info in state.heirs.items():
        if info.alive and info.due is not None and rules.heir_player(state, heir) == \
                state.active and info.due <= state.own.get(state.active, 0):
            state = rules.heir_dies(state, heir, "not brought to the mainland in time (8.4)")
    return state


def ship_obligations(state: State) -> IllegalMove | None:
    """§8.6: a force that sailed into an unfriendly fortress port must lay or join its siege
    this combat phase; one that no longer can stays aboard (R-68)."""
    player = state.active
    for ship, info in state.ships.items():
        prefix, place = split(info.at)
        crew = [n for n in rules.aboard(state, ship) if state.owner(n) == player]
        if prefix != "port" or not crew or any(s.ship == ship for s in state.sieges.values()):
            continue
        if rules.is_unfortified(state, place) or rules.friendly(state, player, place):
            continue
        siege = state.sieges.get(place)
        fresh = [n for n in crew if n not in state.acted]
        can_join = siege is not None and siege.owner == player and fresh
        can_lay = siege is None and fresh and \
            2 * rules.force_strength(state, fresh) >= rules.defence(state, place)
        if can_join or can_lay:
            return refuse(f"the force aboard {ship} in {place}'s port must "
                          f"{'join' if can_join else 'lay'} the siege this combat phase (§8.6)",
                          "must-besiege", "§8.6")
    return None


def end_turn(state: State) -> State:
    """The draw phase ends the turn: R-47's limit, the time limit (R-49), the next player."""
    player = state.active
    if not state.drew and rules.deck_size(rules.rebuild_deck(state)) > 0:
        raise refuse(f"{player} draws a crown card first (§5.3)", "draw-first", "§5.3")
    deadline = state.both.get(player)
    if deadline is not None and deadline <= state.own.get(player, 0):
        raise refuse(f"{player} holds heirs of both houses: back to one house (a transfer or an "
                     "execution) before this turn ends (R-47)", "both-houses", "R-47")
    state = evolve(state, barred=tuple(b for b in state.barred if b[2] > state.turn))
    seat = rules.next_seat(state, state.seat)
    timing = state.options.get("time_end", "turn")
    if rules.over_time(state) and (timing != "round" or seat == state.first):
        return evolve(state, time_up=True)
    return rules.begin_turn(state, seat)


class Next(Base):
    name = "next"
    doc = "the active player ends the phase (the draw phase ends the turn)"
    phases = frozenset(TURN_PHASES)
    forms = (("next", "end the phase; phases with nothing to do are skipped (§5)"),)

    def effect(self, state: State, event: Event) -> State:
        stage = state.stage
        if stage == CHANCE:
            raise refuse("the event card comes first (§5.1)", "event-first", "§5.1")
        if stage == MOVEMENT:
            state = mainland_deadlines(state)
        if stage == COMBAT:
            problem = ship_obligations(state)
            if problem is not None:
                raise problem
        if stage == DRAW:
            return end_turn(state)
        return rules.advance(state)

    def moves(self, state: State) -> Iterator[Event]:
        event = self.make(state.active)
        if not state.duties and state.combat is None and self.valid(state, event):
            yield event


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
    player = state.owner(noble)
    return state.fought.get(noble) != state.last_turn.get(player) or \
        state.last_turn.get(player) is None


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


def peace_problem(state: State, nobles: Iterable[str]) -> IllegalMove | None:
    """7.6: the King's Peace limits combat (issue 12 keeps the Peace)."""
    return None


def start_combat(state: State, combat: Combat) -> State:
    names = combat.attacking + combat.defending
    fought = dict(state.fought)
    fought.update({n: state.turn for n in names})
    return evolve(state, combat=combat, acted=state.acted | set(names), fought=fought)


class Attack(Base):
    name = "attack"
    doc = "an open battle: the active player's force attacks another faction's there (§6.1)"
    fields = {"location": "str", "with": "str[]", "allies": "str[]", "on": "str[]",
              "def_allies": "str[]", "target": "str", "french": "bool", "regions": "str[]",
              **DECLARES}
    field_docs = {"location": "the battle's location (open ground)", "with": "the attacking nobles",
                  "allies": "third factions' nobles joining the attack (rule 11, R-21)",
                  "on": "the defending force: all the target faction's nobles there",
                  "def_allies": "third factions' nobles joining the defence",
                  "target": "an assassin's one victim (§6.1)",
                  "french": "French Foot-soldiers used in this attack (R-28)",
                  "regions": "bonus regions the battle's square lies in (R-4)", **DECLARES_DOC}
    optional = frozenset({"allies", "def_allies", "target", "french", "regions",
                          "declares"})
    phases = frozenset({COMBAT})
    forms = (("attack at LOCATION with NOBLES [allies NOBLES] on NOBLES [allies NOBLES] "
              "[target NAME] [french] [regions R,...]",
              "e.g. attack at near:York with Neville on Clifford (§6.1)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        words = [w for w in args.words if w.casefold() != "french"]
        french = len(words) != len(args.words)
        cut = next((i for i, w in enumerate(words) if w.casefold() == "on"), None)
        if cut is None:
            raise NotationError(f"{args.text!r}: name the defenders (`on NOBLES`)",
                                code="no-defenders")
        left = sections(words[:cut], ("at", "with", "allies"), args.text)
        right = sections(words[cut + 1:], ("allies", "target", "regions"), args.text)
        if left[""]:
            raise NotationError(f"{args.text!r}: write `attack at LOCATION with NOBLES on "
                                "NOBLES`", code="bad-attack")
        out: dict[str, Any] = {
            "location": rules_normal(state, parse_location(state, left.get("at", []), args.text)),
            "with": list(parse_nobles(state, left.get("with", []), args.text)),
            "on": list(parse_nobles(state, right[""], args.text))}
        if left.get("allies"):
            out["allies"] = list(parse_nobles(state, left["allies"], args.text))
        if right.get("allies"):
            out["def_allies"] = list(parse_nobles(state, right["allies"], args.text))
        if right.get("target"):
            out["target"] = find(one(right["target"], "target", args.text),
                                 list(state.nobles) + heir_names(state), "noble or heir",
                                 args.text)
        if french:
            out["french"] = True
        if right.get("regions"):
            out["regions"] = [find(r, rules_regions(), "region", args.text)
                              for r in items(right["regions"])]
        return out

    def text(self, state: State, event: Event) -> str:
        out = f"attack at {shown_location(event['location'])} with {shown_list(event['with'])}"
        if event.get("allies"):
            out += " allies " + shown_list(event["allies"])
        out += " on " + shown_list(event["on"])
        if event.get("def_allies"):
            out += " allies " + shown_list(event["def_allies"])
        if event.get("target"):
            out += f" target {shown(event['target'])}"
        if event.get("french"):
            out += " french"
        if event.get("regions"):
            out += " regions " + shown_list(event["regions"])
        return out

    def effect(self, state: State, event: Event) -> State:
        names = [known_noble(state, n) for key in ("with", "allies", "on", "def_allies")
                 for n in event.get(key, ())]
        problem = peace_problem(state, names)
        if problem is not None:
            raise problem
        combat = plan_attack(state, str(event.by), check_location(state, event["location"]),
                             event["with"], event.get("allies", ()), event["on"],
                             event.get("def_allies", ()), event.get("target"),
                             bool(event.get("french")), check_regions(event))
        return start_combat(state, combat)

    def moves(self, state: State) -> Iterator[Event]:
        if state.duties or state.combat is not None:
            return
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


def besieger_problem(state: State, player: str, place: str,
                     nobles: Sequence[str]) -> IllegalMove | None:
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
    return peace_problem(state, nobles)


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
    forms = (("siege lay|join PLACE with NOBLES", "lay at half the defence, join a siege of "
                                                  "yours (§6.2)"),
             ("siege conclude PLACE [with NOBLES] [french] [regions R,...]",
              "at full strength, then the weather check (§6.2)"),
             ("siege break PLACE", "its owner ends his siege, at any time (§6.2)"))

    def read(self, state: State, args: Args) -> dict[str, Any]:
        words = [w for w in args.words if w.casefold() != "french"]
        french = len(words) != len(args.words)
        if not words:
            raise NotationError(f"{args.text!r}: siege lay|join|conclude|break PLACE",
                                code="bad-siege")
        action = find(words[0], SIEGE_ACTIONS, "siege action", args.text)
        parts = sections(words[1:], ("with", "regions"), args.text)
        place = parse_place(state, parts[""], args.text)
        out: dict[str, Any] = {"action": action, "place": place}
        if parts.get("with"):
            out["with"] = list(parse_nobles(state, parts["with"], args.text))
        elif action != "break" and args.by is not None and not (
                action == "conclude" and place in state.sieges):
            out["with"] = self.ready(state, args.by, place, action) or None
        if french:
            out["french"] = True
        if parts.get("regions"):
            out["regions"] = [find(r, rules_regions(), "region", args.text)
                              for r in items(parts["regions"])]
        return out

    def text(self, state: State, event: Event) -> str:
        out = f"siege {event['action']} {shown(event['place'])}"
        if event.get("with"):
            out += " with " + shown_list(event["with"])
        if event.get("french"):
            out += " french"
        if event.get("regions"):
            out += " regions " + shown_list(event["regions"])
        return out

    def ready(self, state: State, player: str, place: str, action: str) -> list[str]:
        """Without `with`: the player's nobles who may act on `place` now (near it or aboard
        in its port, not yet in a combat action) and not besieging it already; a siege under
        way is concluded by its besiegers alone unless `with` names more."""
        siege = state.sieges.get(place)
        return [n for n in state.faction(player) if n not in state.acted and
                siege_spot(state, place, n) is not None and
                not (siege and n in siege.nobles)]

    def gate(self, state: State, event: Event) -> None:
        if event.get("action") == "break":
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
            besieger_problem(state, player, place, nobles)
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
        fought = dict(state.fought)
        fought.update({n: state.turn for n in nobles})
        state = evolve(state, sieges=sieges, acted=state.acted | set(nobles), fought=fought)
        return rules.chronicle(state, f"{player} lays siege to {place}")

    def join(self, state: State, player: str, place: str, nobles: list[str]) -> State:
        siege = state.sieges.get(place)
        if siege is None or siege.owner != player:
            raise refuse(f"{place} is not under a siege of yours", "no-siege", "R-27")
        problem = besieger_problem(state, player, place, nobles)
        if problem is not None:
            raise problem
        if set(nobles) & set(siege.nobles):
            raise refuse(f"{', '.join(set(nobles) & set(siege.nobles))} besieges {place} "
                         "already", "besieging-already", "R-27")
        ship = siege.ship or siege_ship(state, place, nobles)
        if siege.ship and siege_ship(state, place, nobles) not in (None, siege.ship):
            raise refuse("a siege is laid from one ship", "two-ships", "§8.6")
        sieges = dict(state.sieges)
        sieges[place] = replace(siege, nobles=siege.nobles + tuple(nobles), ship=ship)
        fought = dict(state.fought)
        fought.update({n: state.turn for n in nobles})  # R-21: joining a siege is combat
        return evolve(state, sieges=sieges, acted=state.acted | set(nobles), fought=fought)

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
        problem = besieger_problem(state, player, place, attackers)
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
    in_combat = True
    phases = frozenset({COMBAT})
    forms = (("weather CARD", "a Writ or Free Move is kept and the attacker draws again "
                              "(rule 14)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        return {"card": find(one(args.words, "event card", args.text), event_names(state),
                             "event card", args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"weather {shown(event['card'])}"

    def effect(self, state: State, event: Event) -> State:
        combat = state.combat
        if combat is None or combat.stage != "weather":
            raise refuse("no combat awaits its weather check", "no-weather", "§6")
        name = event["card"]
        state = draw_event(state, name)
        entry = state.box.get("event", name)
        assert entry is not None
        kind = entry.get("kind")
        if kind in ("writ", "free-move"):
            return keep_event(state, state.active, name)  # rule 14: kept, draw again
        if kind == "embassy":
            state = rules.rebuild_events(state)  # R-13
        state = discard_french(state, combat)
        if entry.get("weather", "fair") == "bad":
            return bad_weather(state, combat)
        if combat.kind == "siege":
            return evolve(state, combat=with_saves(state, replace(combat, outcome="taken",
                                                                   stage="deaths")))
        if combat.assassin:
            return evolve(state, combat=with_saves(state, replace(combat, outcome="none",
                                                                   stage="deaths")))
        return evolve(state, combat=replace(combat, stage="result"))

    def moves(self, state: State) -> Iterator[Event]:
        if state.combat is None or state.combat.stage != "weather":
            return
        for name in available_events(state):
            yield self.make(state.active, card=name)


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
        sieges[place] = replace(siege, nobles=combat.attackers)
    return evolve(state, sieges=sieges)


def with_saves(state: State, combat: Combat) -> Combat:
    """With a death chart, each in the combat rolls in turn; without, the table enters deaths."""
    if not rules.has_chart(state, "death_chart"):
        return combat
    return replace(combat, saves=participants(state, combat))


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


class Result(Base):
    name = "result"
    doc = "the battle's result, read from the table's Battle Combat Table (R-23)"
    fields = {"outcome": "str", "roll": "int"}
    field_docs = {"outcome": "major, minor or none", "roll": "the percentile roll (needed when "
                                                             "the log holds a battle_chart)"}
    optional = frozenset({"roll"})
    actor = "table"
    reveal = True
    in_combat = True
    phases = frozenset({COMBAT})
    forms = (("result major|minor|none [ROLL]", "without a chart in the log"),
             ("result ROLL", "with a battle_chart: the referee reads it (R-22, R-23)"))

    def read(self, state: State, args: Args) -> dict[str, Any]:
        words = [w for w in args.words if w != ","]
        outcome = None
        roll = None
        for word in words:
            if word.isdigit():
                roll = parse_roll(word, args.text)
            else:
                outcome = find(word, ("major", "minor", "none"), "result", args.text)
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

    def text(self, state: State, event: Event) -> str:
        roll = event.get("roll")
        return f"result {event['outcome']}" + (f" {roll:02d}" if roll is not None and roll < 100
                                               else " 00" if roll == 100 else "")

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
        return evolve(state, combat=with_saves(state, replace(combat, outcome=outcome,
                                                               stage="deaths")))

    def moves(self, state: State) -> Iterator[Event]:
        combat = state.combat
        if combat is None or combat.stage != "result":
            return
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
    in_combat = True
    phases = frozenset({COMBAT})
    forms = (("deaths NAMES", "the nobles and heirs of the combat who died"),
             ("deaths none", "nobody died"))

    def read(self, state: State, args: Args) -> dict[str, Any]:
        if [w.casefold() for w in args.words] == ["none"]:
            return {"names": []}
        return {"names": list(find_all(args.words, list(state.nobles) + heir_names(state),
                                       "noble or heir", args.text))}

    def text(self, state: State, event: Event) -> str:
        return "deaths " + (shown_list(event["names"]) or "none")

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
        if combat is None or combat.stage != "deaths" or combat.saves:
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
    in_combat = True
    phases = frozenset({COMBAT})
    forms = (("save NAME ROLL", "each in the combat, in the order the referee asks"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        words = [w for w in args.words if w != ","]
        roll = parse_roll(words[-1], args.text) if words and words[-1].isdigit() else None
        names = words[:-1] if roll is not None else words
        if roll is None and state.seed is not None:
            roll = tool_roll(state, "save")
        if roll is None:
            raise NotationError(f"{args.text!r}: save NAME ROLL", code="no-roll")
        return {"name": find(" ".join(names), list(state.nobles) + heir_names(state),
                             "noble or heir", args.text), "roll": roll}

    def text(self, state: State, event: Event) -> str:
        roll = event["roll"]
        return f"save {shown(event['name'])} {roll:02d}" if roll < 100 else \
            f"save {shown(event['name'])} 00"

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
        combat = replace(combat, saves=combat.saves[1:],
                         dead=combat.dead + ((name,) if dies else ()))
        if combat.saves:
            return evolve(state, combat=combat)
        return after_deaths(state, combat, combat.dead)

    def moves(self, state: State) -> Iterator[Event]:
        combat = state.combat
        if combat is None or not combat.saves:
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
        loose[heir] = replace(loose[heir], by=None, at=at)
        state = evolve(state, heirs=loose)
        if not nobles:
            continue
        if len(nobles) == 1 and not allow_none:
            state = give_heir(state, heir, nobles[0])
            continue
        choices = tuple(nobles) + (("none",) if allow_none else ())
        state = rules.add_duty(state, Duty("heir", chooser, heir, choices, at, in_combat))
    return state


def give_heir(state: State, heir: str, noble: str) -> State:
    heirs = dict(state.heirs)
    heirs[heir] = replace(heirs[heir], by=noble)
    return evolve(state, heirs=heirs)


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
    state = evolve(state, combat=replace(combat, dead=dead, stage="spoils", saves=()))
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
        pass  # R-1: an open town is never controlled
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


class HeirTo(Base):
    name = "heir"
    doc = "who controls an heir after a battle or a death (rules 16-17, R-25, R-48)"
    fields = {"heir": "str", "to": "str"}
    field_docs = {"heir": "the heir", "to": "the noble who takes him, or `none`"}
    answers = frozenset({"heir"})
    in_combat = True
    forms = (("heir HEIR to NOBLE|none", "when the referee asks who takes an heir"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("to",), args.text)
        target = one(parts.get("to", []), "noble", args.text)
        to = "none" if norm(target) == "none" else \
            find(target, list(state.nobles), "noble in play", args.text)
        return {"heir": parse_heir(state, parts[""], args.text), "to": to}

    def text(self, state: State, event: Event) -> str:
        return f"heir {shown(event['heir'])} to {shown(event['to'])}"

    def effect(self, state: State, event: Event) -> State:
        current = rules.duty(state)
        assert current is not None
        if event["heir"] != current.subject or event["to"] not in current.choices:
            raise refuse(f"{current.subject} goes to one of {', '.join(current.choices)}",
                         "bad-choice", "R-48")
        state = rules.done(state, current)
        if event["to"] != "none":
            state = give_heir(state, event["heir"], event["to"])
        return combat_done(state)

    def moves(self, state: State) -> Iterator[Event]:
        current = rules.duty(state)
        if current is not None and current.kind == "heir":
            for choice in current.choices:
                yield self.make(current.player, heir=current.subject, to=choice)


class Control(Base):
    name = "control"
    doc = "the attacking noble who takes a fortress won by siege, with its town card (§6.2)"
    fields = {"place": "str", "to": "str"}
    field_docs = {"place": "the fortress", "to": "the noble"}
    answers = frozenset({"control"})
    in_combat = True
    forms = (("control PLACE to NOBLE", "after a siege is won (§6.2)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("to",), args.text)
        return {"place": parse_place(state, parts[""], args.text),
                "to": parse_noble(state, parts.get("to", []), args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"control {shown(event['place'])} to {shown(event['to'])}"

    def effect(self, state: State, event: Event) -> State:
        current = rules.duty(state)
        assert current is not None
        if event["place"] != current.subject or event["to"] not in current.choices:
            raise refuse(f"{current.subject} goes to one of {', '.join(current.choices)}",
                         "bad-choice", "§6.2")
        state = rules.take_control(rules.done(state, current), current.subject, event["to"])
        return combat_done(state)

    def moves(self, state: State) -> Iterator[Event]:
        current = rules.duty(state)
        if current is not None and current.kind == "control":
            for choice in current.choices:
                yield self.make(current.player, place=current.subject, to=choice)


class Ransom(Base):
    name = "ransom"
    doc = "a captive is freed and goes home at once (R-29, R-30); the price is paid by "\
          "separate transfers"
    fields = {"noble": "str", "to": "str"}
    field_docs = {"noble": "the captive", "to": "his home (R-30)"}
    answers = frozenset({"captive"})
    forms = (("ransom NOBLE [to LOCATION]", "the captor frees him (R-29); he goes home"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("to",), args.text)
        noble = parse_noble(state, parts[""], args.text)
        to = parse_location(state, parts["to"], args.text) if parts.get("to") else \
            (rules.home_choices(state, noble) or [""])[0]
        return {"noble": noble, "to": rules_normal(state, to)}

    def text(self, state: State, event: Event) -> str:
        return f"ransom {shown(event['noble'])} to {shown_location(event['to'])}"

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
        current = rules.duty(state)
        if current is not None and current.kind == "captive":
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
    answers = frozenset({"captive"})
    forms = (("kill NOBLE", "the captor refuses ransom (R-29)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        return {"noble": parse_noble(state, args.words, args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"kill {shown(event['noble'])}"

    def effect(self, state: State, event: Event) -> State:
        current = captive_duty(state, event["noble"])
        return rules.noble_dies(rules.done(state, current), current.subject,
                                f"killed, a captive of {state.active}")

    def moves(self, state: State) -> Iterator[Event]:
        current = rules.duty(state)
        if current is not None and current.kind == "captive":
            yield self.make(current.player, noble=current.subject)


class Retreat(Base):
    name = "retreat"
    doc = "a noble goes home after a battle (R-30), or a sallying noble back inside or out (R-26)"
    fields = {"noble": "str", "to": "str"}
    field_docs = {"noble": "the noble", "to": "where he goes"}
    answers = frozenset({"retreat"})
    forms = (("retreat NOBLE to LOCATION", "one of the places the referee names"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("to",), args.text)
        return {"noble": parse_noble(state, parts[""], args.text),
                "to": rules_normal(state, parse_location(state, parts.get("to", []),
                                                         args.text))}

    def text(self, state: State, event: Event) -> str:
        return f"retreat {shown(event['noble'])} to {shown_location(event['to'])}"

    def effect(self, state: State, event: Event) -> State:
        current = rules.duty(state)
        assert current is not None
        if event["noble"] != current.subject or event["to"] not in current.choices:
            raise refuse(f"{current.subject} goes to {' or '.join(current.choices)} (R-30)",
                         "bad-choice", "R-30")
        noble, place = current.subject, current.place
        if place and event["to"] == f"near:{place}" and rules.garrison_ally(state, noble):
            # §8.5: a garrison ally who stays out after a sally may not attack that fortress
            # in his next turn
            turn = rules.next_turn_of(state, state.owner(noble))
            state = evolve(state, barred=state.barred + ((noble, place, turn),))
        return rules.move_nobles(rules.done(state, current), [noble], event["to"])

    def moves(self, state: State) -> Iterator[Event]:
        current = rules.duty(state)
        if current is not None and current.kind == "retreat":
            for choice in current.choices:
                yield self.make(current.player, noble=current.subject, to=choice)


# --------------------------------------------------------------------------------------------
# Heirs and Kings (§8)


class Take(Base):
    name = "take"
    doc = "a noble takes an uncontrolled heir where he is (R-46)"
    fields = {"heir": "str", "noble": "str"}
    field_docs = {"heir": "the heir", "noble": "the noble who takes him"}
    phases = frozenset({MOVEMENT, COMBAT})
    forms = (("take HEIR by NOBLE", "no other faction's noble there; inside a fortress only "
                                    "your faction's (R-46)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("by",), args.text)
        return {"heir": parse_heir(state, parts[""], args.text),
                "noble": parse_noble(state, parts.get("by", []), args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"take {shown(event['heir'])} by {shown(event['noble'])}"

    def effect(self, state: State, event: Event) -> State:
        heir, noble = known_heir(state, event["heir"]), known_noble(state, event["noble"])
        problem = take_problem(state, str(event.by), heir, noble)
        if problem is not None:
            raise problem
        return rules.chronicle(give_heir(state, heir, noble), f"{noble} takes {heir}")

    def moves(self, state: State) -> Iterator[Event]:
        if state.duties or state.combat is not None:
            return
        for heir, info in state.heirs.items():
            if info.alive and info.by is None:
                for noble in rules.at_location(state, info.at):
                    if take_problem(state, state.active, heir, noble) is None:
                        yield self.make(state.active, heir=heir, noble=noble)


def take_problem(state: State, player: str, heir: str, noble: str) -> IllegalMove | None:
    if heir == rules.BEAUFORT or state.heirs[heir].by is not None:
        return refuse(f"{heir} is controlled already", "controlled", "R-46")
    if state.owner(noble) != player:
        return refuse(f"{noble} is not yours", "not-your-noble", "R-46")
    at = state.heirs[heir].at
    if state.nobles[noble].at != at:
        return refuse(f"{noble} is not where {heir} is ({at})", "not-there", "R-46")
    prefix, place = split(at)
    if prefix == "in" and rules.is_fortress(state, place) and \
            rules.controller_player(state, place) != player:
        return refuse(f"{heir} is inside {place}, which your faction does not control: he is "
                      "won only by concluding a siege (R-46)", "in-fortress", "R-46")
    if any(state.owner(n) != player for n in rules.at_location(state, at)):
        return refuse(f"another faction's noble is with {heir}", "contested", "R-46")
    return None


class Execute(Base):
    name = "execute"
    doc = "an heir is executed by his controller (8.5), outside active combat"
    fields = {"heir": "str"}
    field_docs = {"heir": "the heir"}
    actor = "any"
    always = True
    forms = (("execute HEIR", "by the player whose noble controls him (--as NAME)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        return {"heir": parse_heir(state, args.words, args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"execute {shown(event['heir'])}"

    def effect(self, state: State, event: Event) -> State:
        refuse_in_active_combat(state, "an execution")
        require_in_play(state)
        heir = known_heir(state, event["heir"])
        if heir == rules.BEAUFORT:
            raise refuse("Beaufort is never executed: he dies only as a noble (R-45)",
                         "beaufort", "R-45")
        owner = rules.heir_player(state, heir)
        if owner != event.by:
            raise refuse(f"{heir} is not controlled by a noble of {event.by}'s" +
                         (f" (--as {owner})" if owner else ""), "not-yours", "§8.5")
        return rules.heir_dies(state, heir, f"executed by {event.by}")

    def moves(self, state: State) -> Iterator[Event]:
        if active_combat(state) or not state.in_play:
            return
        for heir, info in state.heirs.items():
            player = rules.heir_player(state, heir) if info.alive else None
            if player is not None:
                yield self.make(player, heir=heir)


def require_in_play(state: State) -> None:
    if not state.in_play:
        raise refuse("the set-up is not finished", "setting-up", "§4")


class Crown(Base):
    name = "crown"
    doc = "an heir is crowned at a cathedral (8.1)"
    fields = {"heir": "str", "place": "str", **DECLARES}
    field_docs = {"heir": "the heir", "place": "the cathedral's place", **DECLARES_DOC}
    optional = frozenset({"declares"})
    phases = frozenset({CORONATION})
    forms = (("crown HEIR at PLACE", "first in line, no King of his house, an archbishop or two "
                                     "bishops there (8.1, R-43)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("at",), args.text)
        return {"heir": parse_heir(state, parts[""], args.text),
                "place": parse_place(state, parts.get("at", []), args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"crown {shown(event['heir'])} at {shown(event['place'])}"

    def effect(self, state: State, event: Event) -> State:
        heir, place = known_heir(state, event["heir"]), known_place(state, event["place"])
        problem = rules.coronation_problem(state, heir, place)
        if problem is not None:
            raise problem
        if heir == rules.BEAUFORT:
            state = evolve(state, beaufort_crowned=True)
        else:
            heirs = dict(state.heirs)
            heirs[heir] = replace(heirs[heir], crowned=True)
            state = evolve(state, heirs=heirs)
        return rules.chronicle(state, f"{heir} is crowned at {place}")

    def moves(self, state: State) -> Iterator[Event]:
        if state.duties or state.combat is not None:
            return
        for heir, place in rules.coronations(state):
            yield self.make(state.active, heir=heir, place=place)


# --------------------------------------------------------------------------------------------
# Crown cards (§5.3, §5.4)


class Draw(Base):
    name = "draw"
    doc = "the crown card drawn in the draw phase (a reveal), or `hidden` (R-18)"
    fields = {"card": "str", **DECLARES}
    field_docs = {"card": "the card, or `hidden`", **DECLARES_DOC}
    optional = frozenset({"declares"})
    reveal = True
    phases = frozenset({DRAW})
    forms = (("draw CARD", "e.g. draw Herbert; a noble or town card goes into play at once "
                           "(§5.3)"),
             ("draw hidden", "kept unseen, named when played (R-18)"))

    def read(self, state: State, args: Args) -> dict[str, Any]:
        word = one(args.words, "card", args.text)
        if norm(word) == "hidden":
            return {"card": "hidden"}
        probe = rules.rebuild_deck(state)
        return {"card": parse_card(state, word, args.text,
                                   lambda c: probe.cards.get(c) == DECK)}

    def text(self, state: State, event: Event) -> str:
        return f"draw {shown(event['card'])}"

    def effect(self, state: State, event: Event) -> State:
        if state.drew:
            raise refuse("this turn's crown card is drawn already", "drawn-already", "§5.3")
        state = evolve(rules.rebuild_deck(state), drew=True)
        if rules.deck_size(state) <= 0:
            raise refuse("the Crown deck and its discard are empty", "deck-empty", "R-15")
        player = state.active
        if event["card"] == "hidden":
            hidden = dict(state.hidden)
            hidden[player] = hidden.get(player, 0) + 1
            return evolve(state, hidden=hidden)
        card = known_card(state, event["card"])
        if state.cards[card] != DECK:
            raise refuse(f"{card} is not in the Crown deck ({where_is(state, card)})",
                         "not-in-deck", "§5.3")
        check_data(state, card)
        return enter_drawn(state, card, player)

    def moves(self, state: State) -> Iterator[Event]:
        if state.drew or state.duties or state.combat is not None:
            return
        probe = rules.rebuild_deck(state)
        if rules.deck_size(probe) <= 0:
            return
        yield self.make(state.active, card="hidden")
        seen: set[str] = set()
        for card, where in probe.cards.items():
            if where == DECK and card_entry(card) not in seen and not missing_data(state, card):
                seen.add(card_entry(card))
                yield self.make(state.active, card=card)


def enter_drawn(state: State, card: str, player: str) -> State:
    """§5.3: a noble enters play at once; a town card goes at once to an own noble, or to the
    noble who controls its fortress (§8.1, R-53); any other card is kept in hand."""
    kind = state.kind(card)
    if kind == "noble":
        return rules.chronicle(rules.enter_noble(state, card, player),
                               f"{card} enters play for {player}")
    cards = dict(state.cards)
    cards[card] = f"hand:{player}"
    state = evolve(state, cards=cards)
    if kind == "town":
        return rules.place_town(state, card, player)
    return state


def hand_card(state: State, player: str, name: str) -> tuple[State, str]:
    """A card the player holds: a known one, or (R-18) a hidden one named now, checked then."""
    card = known_card(state, name)
    if state.cards[card] == f"hand:{player}":
        return state, card
    if state.hidden.get(player, 0) > 0 and state.cards[card] == DECK:
        hidden = dict(state.hidden)
        hidden[player] -= 1
        cards = dict(state.cards)
        cards[card] = f"hand:{player}"
        return evolve(state, hidden=hidden, cards=cards), card
    raise refuse(f"{card} is not in {player}'s hand ({where_is(state, card)})", "not-in-hand",
                 "§5.3")


class Play(Base):
    name = "play"
    doc = "a crown card from hand assigned to an own noble, at any time outside active combat"
    fields = {"card": "str", "to": "str", **DECLARES}
    field_docs = {"card": "the card (a hidden one is named now, R-18)", "to": "the noble",
                  **DECLARES_DOC}
    optional = frozenset({"declares"})
    actor = "any"
    always = True
    forms = (("play CARD to NOBLE", "title: untitled noble; office: titled noble without one; "
                                    "others: any noble of yours (§5.3)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("to",), args.text)
        where = f"hand:{args.by}"
        card = parse_card(state, one(parts[""], "card", args.text), args.text,
                          lambda c: state.cards.get(c) in (where, DECK))
        return {"card": card, "to": parse_noble(state, parts.get("to", []), args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"play {shown(event['card'])} to {shown(event['to'])}"

    def effect(self, state: State, event: Event) -> State:
        refuse_in_active_combat(state, "playing a card")
        require_in_play(state)
        player = str(event.by)
        state, card = hand_card(state, player, event["card"])
        if state.kind(card) == "noble":
            raise refuse(f"{card} is a noble: a drawn noble enters play at once, so he cannot "
                         "be in a hand (R-18)", "noble-in-hand", "R-18")
        check_data(state, card)
        noble = known_noble(state, event["to"])
        if state.kind(card) == "town":
            owner = rules.town_destination(state, card, player)
            if owner is not None and owner != noble:
                raise refuse(f"{card}'s fortress is {owner}'s: the card goes to him (§8.1)",
                             "town-to-controller", "§8.1")
        problem = None if state.kind(card) == "town" and \
            rules.town_destination(state, card, player) == noble else \
            rules.placement_problem(state, card, noble, player)
        if problem is not None:
            raise problem
        state = rules.assign(state, card, noble)
        duties = tuple(d for d in state.duties if not (d.kind == "place" and d.subject == card))
        return evolve(state, duties=duties)

    def moves(self, state: State) -> Iterator[Event]:
        if active_combat(state) or not state.in_play:
            return
        for player in state.names:
            for card in state.hand(player) + unseen_examples(state, player):
                if state.kind(card) == "town" and \
                        rules.town_destination(state, card, player) is not None:
                    yield self.make(player, card=card,
                                    to=rules.town_destination(state, card, player))
                    continue
                for noble in rules.eligible_nobles(state, card, player):
                    yield self.make(player, card=card, to=noble)


class Discard(Base):
    name = "discard"
    doc = "a player over the two-card hand limit discards a crown card (§5.3)"
    fields = {"card": "str"}
    field_docs = {"card": "the card (a hidden one is named now)"}
    actor = "any"
    answers = frozenset({"discard"})
    forms = (("discard CARD", "down to two crown cards in hand (§5.3)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        where = f"hand:{args.by}"
        return {"card": parse_card(state, one(args.words, "card", args.text), args.text,
                                   lambda c: state.cards.get(c) in (where, DECK))}

    def text(self, state: State, event: Event) -> str:
        return f"discard {shown(event['card'])}"

    def gate(self, state: State, event: Event) -> None:
        current = next((d for d in state.duties if d.kind == "discard" and
                        d.player == event.by), None)
        if current is None:
            raise refuse(f"{event.by} holds no more than two crown cards: nothing to discard",
                         "within-limit", "§5.3")
        refuse_in_active_combat(state, "discarding")

    def effect(self, state: State, event: Event) -> State:
        state, card = hand_card(state, str(event.by), event["card"])
        if state.kind(card) == "noble":
            raise refuse(f"{card} is a noble: he entered play when drawn (R-18)",
                         "noble-in-hand", "R-18")
        cards = dict(state.cards)
        cards[card] = DISCARD
        return evolve(state, cards=cards)

    def moves(self, state: State) -> Iterator[Event]:
        for item in state.duties:
            if item.kind == "discard" and item.player and not active_combat(state):
                for card in state.hand(item.player) + unseen_examples(state, item.player):
                    yield self.make(item.player, card=card)


def unseen_examples(state: State, player: str) -> list[str]:
    """A few cards an unseen hand card may be named as (R-18): Crown deck cards, no noble."""
    if not state.hidden.get(player):
        return []
    deck = sorted(c for c, w in state.cards.items() if w == DECK and state.kind(c) != "noble")
    return deck[:3]


class Give(Base):
    name = "give"
    doc = "a hand crown card or a held event card to another player (§5.4)"
    fields = {"item": "str", "to": "str"}
    field_docs = {"item": "the card (`hidden`: an unseen hand card)", "to": "the player"}
    actor = "any"
    always = True
    forms = (("give CARD|hidden to PLAYER", "e.g. give Writ to Ben; the hand limit applies at "
                                            "once (§5.4, R-11)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        parts = sections(args.words, ("to",), args.text)
        word = one(parts[""], "card", args.text)
        held = list(state.held.get(str(args.by), ()))
        if norm(word) == "hidden":
            item = "hidden"
        elif any(norm(h).startswith(norm(word)) for h in held):
            item = find(word, sorted(set(held)), "held event card", args.text)
        else:
            where = f"hand:{args.by}"
            item = parse_card(state, word, args.text, lambda c: state.cards.get(c) == where)
        return {"item": item, "to": parse_player(state, parts.get("to", []), args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"give {shown(event['item'])} to {shown(event['to'])}"

    def effect(self, state: State, event: Event) -> State:
        refuse_in_active_combat(state, "a trade")
        require_in_play(state)
        giver, taker, item = str(event.by), known_player(state, event["to"]), event["item"]
        if giver == taker:
            raise refuse("a gift goes to another player", "self", "§5.4")
        if item == "hidden":
            if state.hidden.get(giver, 0) <= 0:
                raise refuse(f"{giver} holds no unseen card", "no-hidden", "§5.4")
            hidden = dict(state.hidden)
            hidden[giver] -= 1
            hidden[taker] = hidden.get(taker, 0) + 1
            return evolve(state, hidden=hidden)
        if item in state.held.get(giver, ()):
            held = dict(state.held)
            kept = list(held[giver])
            kept.remove(item)
            held[giver] = tuple(kept)
            held[taker] = held.get(taker, ()) + (item,)
            return evolve(state, held=held)
        card = known_card(state, item)
        if state.cards[card] != f"hand:{giver}":
            raise refuse(f"{card} is not in {giver}'s hand", "not-in-hand", "§5.4")
        cards = dict(state.cards)
        cards[card] = f"hand:{taker}"
        return evolve(state, cards=cards)

    def moves(self, state: State) -> Iterator[Event]:
        if active_combat(state) or not state.in_play:
            return
        for giver in state.names:
            items_ = state.hand(giver) + sorted(set(state.held.get(giver, ())))
            for item in items_[:3]:
                for taker in state.names:
                    if taker != giver:
                        yield self.make(giver, item=item, to=taker)


def transfer_kind(state: State, item: str, giver: str) -> str:
    """What a transfer moves: an heir, a card the giver holds, a fortress or a ship."""
    if item in state.heirs or item == rules.BEAUFORT:
        return "heir"
    if state.cards.get(item) == f"noble:{giver}":
        return state.kind(item)
    if state.control.get(item) == giver:
        return "fortress"
    if item in state.ships and state.ships[item].by == giver:
        return "ship"
    raise refuse(f"{giver} holds no {item}", "not-his", "§5.4")


def transfer_problem(state: State, item: str, giver: str, taker: str,
                     agreed: bool) -> IllegalMove | None:
    """§5.4 (§8.7): what may pass between two nobles, and when."""
    kind = transfer_kind(state, item, giver)
    if giver == taker:
        return refuse("a transfer is between two nobles", "self", "§5.4")
    if kind in ("title", "office"):
        return refuse(f"{item} passes only between attending nobles in Parliament (7.4)",
                      "parliament-only", "§5.4")
    if kind == "noble":
        return refuse("nobles are never transferred", "noble", "§5.4")
    if state.owner(giver) != state.owner(taker) and not agreed:
        return refuse(f"a transfer to {state.owner(taker)}'s noble records the deal "
                      "(`agreed`)", "not-agreed", "§5.4")
    if rules.under_siege(state, taker) or rules.ship_besieger(state, taker):
        return refuse(f"{taker} is under siege: nothing goes to him", "under-siege", "§5.4")
    together = rules.noble_position(state, giver) == rules.noble_position(state, taker)
    if kind in ("bishop", "mercenary", "heir") and not together:
        return refuse(f"{giver} and {taker} are not in the same square", "apart", "§5.4")
    if kind == "heir" and (item == rules.BEAUFORT or rules.controller(state, item) != giver):
        return refuse(f"{item} is not {giver}'s to transfer (R-45)", "not-his", "R-45")
    if kind == "bishop" and rules.bishops_of(state, taker):
        return refuse(f"{taker} holds a bishop: no bishop is transferred to him (rule 24)",
                      "has-bishop", "§5.4")
    if kind == "ship" or (kind in ("ship",) and item in state.ships):
        if split(state.ships[item].at)[0] == "sea":
            return refuse(f"{item} is at sea: its control passes only once in port",
                          "at-sea", "§5.4")
    return None


class Transfer(Base):
    name = "transfer"
    doc = "a town card or fortress, ship, bishop, mercenary or heir between two nobles (§5.4)"
    fields = {"item": "str", "from": "str", "to": "str", "agreed": "bool"}
    field_docs = {"item": "what passes", "from": "the giving noble", "to": "the receiving noble",
                  "agreed": "the deal between two players (§5.4)"}
    optional = frozenset({"agreed"})
    actor = "any"
    always = True
    forms = (("transfer ITEM from NOBLE to NOBLE [agreed]",
              "e.g. transfer Coventry from Neville to Stafford (§5.4)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        words = [w for w in args.words if w.casefold() != "agreed"]
        agreed = len(words) != len(args.words)
        parts = sections(words, ("from", "to"), args.text)
        giver = parse_noble(state, parts.get("from", []), args.text)
        choices = heir_names(state) + state.cards_of(giver) + \
            [p for p, n in state.control.items() if n == giver] + \
            [s for s, v in state.ships.items() if v.by == giver]
        item = find(one(parts[""], "item", args.text), sorted(set(choices)) or [""],
                    f"thing {giver} holds", args.text)
        out: dict[str, Any] = {"item": item, "from": giver,
                               "to": parse_noble(state, parts.get("to", []), args.text)}
        if agreed:
            out["agreed"] = True
        return out

    def text(self, state: State, event: Event) -> str:
        return f"transfer {shown(event['item'])} from {shown(event['from'])} to " \
               f"{shown(event['to'])}" + (" agreed" if event.get("agreed") else "")

    def effect(self, state: State, event: Event) -> State:
        refuse_in_active_combat(state, "a transfer")
        require_in_play(state)
        giver, taker = known_noble(state, event["from"]), known_noble(state, event["to"])
        if state.owner(giver) != event.by:
            raise refuse(f"{giver} is not {event.by}'s (--as {state.owner(giver)})",
                         "not-your-noble", "§5.4")
        item = event["item"]
        problem = transfer_problem(state, item, giver, taker, bool(event.get("agreed")))
        if problem is not None:
            raise problem
        kind = transfer_kind(state, item, giver)
        if kind == "heir":
            return give_heir(state, item, taker)
        if kind == "fortress":
            return rules.take_control(state, item, taker)
        if kind == "town":
            return rules.take_control(state, str(state.entry(item).get("place")), taker)
        if item in state.ships and state.ships[item].by == giver:
            ships = dict(state.ships)
            ships[item] = replace(ships[item], by=taker)
            state = evolve(state, ships=ships)
        if item in state.cards:
            cards = dict(state.cards)
            cards[item] = f"noble:{taker}"
            state = evolve(state, cards=cards)
        return state

    def moves(self, state: State) -> Iterator[Event]:
        if active_combat(state) or not state.in_play:
            return
        for giver, info in state.nobles.items():
            mates = [n for n in rules.at_location(state, info.at) if n != giver and
                     state.owner(n) == info.owner]
            things = [h for h in state.heirs_of(giver)] + \
                [c for c in state.cards_of(giver) if state.kind(c) in ("bishop", "mercenary")]
            for item in things[:2]:
                for taker in mates[:2]:
                    if transfer_problem(state, item, giver, taker, False) is None:
                        yield self.make(info.owner, item=item, to=taker, **{"from": giver})


# --------------------------------------------------------------------------------------------
# The table: the clock, late joiners, the end


class Clock(Base):
    name = "clock"
    doc = "the table pauses or resumes the game clock (R-49)"
    fields = {"action": "str"}
    field_docs = {"action": "pause or resume"}
    actor = "table"
    always = True
    forms = (("clock pause|resume", "time paused does not count towards the limit (R-49)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        return {"action": find(one(args.words, "pause or resume", args.text),
                               ("pause", "resume"), "clock action", args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"clock {event['action']}"

    def effect(self, state: State, event: Event) -> State:
        action = event["action"]
        if action not in ("pause", "resume"):
            raise refuse(f"{action!r}: pause or resume", "bad-clock", "R-49")
        if (action == "pause") == state.paused:
            raise refuse(f"the clock is {'paused' if state.paused else 'running'} already",
                         "clock-state", "R-49")
        clock = state.clock
        if action == "pause":
            clock = replace(clock, since=clock.now)
        elif clock.since is not None and clock.now is not None:
            clock = replace(clock, since=None, paused=clock.paused +
                            (clock.now - clock.since).total_seconds())
        else:
            clock = replace(clock, since=None)
        return evolve(state, clock=clock, paused=action == "pause")

    def moves(self, state: State) -> Iterator[Event]:
        if state.in_play:
            yield self.make(None, action="resume" if state.paused else "pause")


class Join(Base):
    name = "join"
    doc = "a late player joins: dealt crown cards one at a time until a noble comes (§9, R-66)"
    fields = {"player": "str"}
    field_docs = {"player": "the player (named at `new` with the option late)"}
    actor = "table"
    always = True
    forms = (("join PLAYER", "a player listed at `new` as late (R-66)"),)

    def read(self, state: State, args: Args) -> dict[str, Any]:
        return {"player": parse_player(state, args.words, args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"join {shown(event['player'])}"

    def effect(self, state: State, event: Event) -> State:
        require_in_play(state)
        player = known_player(state, event["player"])
        if player not in state.late:
            raise refuse(f"{player} is playing already", "joined", "R-66")
        state = evolve(state, late=tuple(p for p in state.late if p != player))
        return rules.add_duty(state, Duty("deal", player))

    def moves(self, state: State) -> Iterator[Event]:
        if state.in_play:
            for player in state.late:
                yield self.make(None, player=player)


END_REASONS = ("time", "concede", "abandoned")


class End(Base):
    name = "end"
    doc = "the table ends the game: at the time limit (R-49, R-50), or without a winner"
    fields = {"reason": "str"}
    field_docs = {"reason": "time, concede or abandoned"}
    actor = "table"
    always = True
    forms = (("end time", "the time limit: the victory order of R-50"),
             ("end concede|abandoned", "the game closes without a winner (§10)"))

    def read(self, state: State, args: Args) -> dict[str, Any]:
        return {"reason": find(one(args.words, "reason", args.text), END_REASONS, "reason",
                               args.text)}

    def text(self, state: State, event: Event) -> str:
        return f"end {event['reason']}"

    def effect(self, state: State, event: Event) -> State:
        reason = event["reason"]
        require_in_play(state)
        if reason not in END_REASONS:
            raise refuse(f"{reason!r}: time, concede or abandoned", "bad-reason", "§10")
        if reason != "time":
            return evolve(state, ended=Ending(reason, f"the table ended it ({reason})"),
                           duties=())
        problem = time_problem(state)
        if problem is not None:
            raise problem
        victory, winners = rules.time_victory(state)
        # The sheet adds the minutes played to the outcome (scoring._outcome).
        return evolve(state, ended=Ending("time", "the time limit", winners, victory), duties=())

    def moves(self, state: State) -> Iterator[Event]:
        if not state.in_play:
            return
        if time_problem(state) is None:
            yield self.make(None, reason="time")
        yield self.make(None, reason="concede")


def time_problem(state: State) -> IllegalMove | None:
    """R-49: `end time` when the limit is reached; with no event times in the log (a simulated
    game), at the start of a turn, as the table says."""
    if state.time_up:
        return None
    if state.clock.minutes is not None:
        left = rules.time_left(state)
        return refuse(f"{left:.0f} minutes are left of the time limit (R-49)", "time-left",
                      "R-49")
    boundary = state.stage == CHANCE and not state.event_drawn and not state.duties and \
        state.combat is None
    if not boundary:
        return refuse("the game ends at the end of a turn (R-49)", "mid-turn", "R-49")
    return None


EVENTS: Events[State] = Events(
    Declare(), Amend(), Dealt(), Assign(), EventCard(), Respond(), Leave(), Storm(),
    Friendly(), MoveForce(), Sail(), Attack(), SiegeAct(), Weather(), Result(), Deaths(),
    Save(), HeirTo(), Control(), Ransom(), Kill(), Retreat(), Take(), Execute(), Crown(),
    Draw(), Play(), Discard(), Give(), Transfer(), Next(), Clock(), Join(), End(),
)


def with_box(state: State) -> State:
    """A state whose box is preloaded (the test box): its heirs known, the Crown deck open."""
    heirs = {e.name: HeirState(at=f"in:{e.get('start')}") for e in state.box.of("heir")}
    return rules.open_deck(evolve(state, heirs=heirs, lines=rules.lines_of(state)))


# --------------------------------------------------------------------------------------------
# Random play for `simulate` and the playout tests: quick games that reach every phase


ROUNDS = 3  # a simulated game ends (`end time`, R-70) after this many rounds
RESOLVING = frozenset({"dealt", "assign", "respond", "leave", "storm", "weather", "result",
                       "deaths", "save", "heir", "control", "ransom", "kill", "retreat",
                       "discard", "play"})


def random_move(game: Any, state: State, rng: random.Random) -> Event | None:
    """A random legal event, steered towards fights, sieges and heirs so that short games
    exercise the rules; never by enumerating every move when a sample will do."""
    if state.ended is not None:
        return None
    if state.time_up:
        return Event.make("end", None, reason="time")
    if state.stage == DEAL and not state.duties:
        return _random_deal(state, rng)
    if state.duties or state.combat is not None or not state.in_play:
        choices = [e for e in game.legal(state) if e.type in RESOLVING]
        return rng.choice(choices) if choices else None
    if state.stage == CHANCE:
        if state.turn > ROUNDS * len(state.playing):
            return Event.make("end", None, reason="time")
        return rng.choice(list(EVENTS["event"].moves(state)))
    return _random_turn(state, rng) or Event.make("next", state.active)


def _random_deal(state: State, rng: random.Random) -> Event:
    player = rules.to_act(state).players[0]
    probe = state if state.cards else rules.open_deck(state)
    deck = sorted(c for c, w in probe.cards.items() if w == DECK)
    return Event.make("dealt", player, cards=rng.sample(deck, rules.deal_size(state)))


def _random_turn(state: State, rng: random.Random) -> Event | None:
    pick: Callable[[str], list[Event]] = lambda name: list(EVENTS[name].moves(state))
    roll = rng.random()
    if state.stage == MOVEMENT:
        takes = pick("take")
        if takes and roll < 0.8:
            return rng.choice(takes)
        if roll < 0.3:
            return None
        aimed = _aimed_moves(state)
        if aimed and roll < 0.75:
            return rng.choice(aimed)
        sails = pick("sail") if roll < 0.85 else []
        moves = sails or pick("move")
        return rng.choice(moves) if moves else None
    if state.stage == COMBAT:
        fights = pick("attack") + [e for e in pick("siege") if e["action"] != "break"]
        return rng.choice(fights) if fights and roll < 0.85 else None
    if state.stage == CORONATION:
        crowns = pick("crown")
        return rng.choice(crowns) if crowns and roll < 0.9 else None
    if state.stage == DRAW:
        if not state.drew:
            draws = pick("draw")
            return rng.choice(draws) if draws else None
        extras = pick("play") + (pick("execute") + pick("give") if roll < 0.1 else [])
        return rng.choice(extras) if extras and roll < 0.6 else None
    return None


def _aimed_moves(state: State) -> list[Event]:
    """Moves towards something to fight for: an enemy force in the open, a fortress to besiege,
    an heir to take."""
    player = state.active
    targets: set[str] = set()
    for info in state.nobles.values():
        if info.owner != player and split(info.at)[0] in ("near", "sq"):
            targets.add(info.at)
    for heir in state.heirs.values():
        if heir.alive and heir.by is None:
            targets.add(heir.at if split(heir.at)[0] != "in" else f"near:{split(heir.at)[1]}")
    for place in state.control:
        if rules.controller_player(state, place) != player:
            targets.add(f"near:{place}")
    out = []
    for force in forces(state, player):
        for to in sorted(targets):
            if move_problem(state, player, force, to) is None:
                out.append(Event.make("move", player, nobles=list(force), to=to))
    return out
