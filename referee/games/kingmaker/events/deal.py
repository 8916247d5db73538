"""The components declared (`declare`, `amend`, R-2, R-3) and the set-up (§4): the deal, the
extra deals, the layout.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

from referee.derived import derived
from referee.engine import Args, Event
from referee.errors import IllegalMove, NotationError
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.components import (
    ALL_FIELDS,
    FIELDS,
    KINDS,
    SINGLES,
    Box,
    Entry,
    article,
    norm,
)
from referee.games.kingmaker.events.assembly import assign_unvoted, unvoted_moves
from referee.games.kingmaker.events.base import (
    DECLARES,
    DECLARES_DOC,
    Base,
    _declare,
    card,
    card_names,
    declared_values,
    known_card,
    known_noble,
    noble,
    parse_card,
)
from referee.games.kingmaker.events.declaring import (
    asking,
    card_name,
    declare_block,
    declare_lines,
    unknown_card_gaps,
)
from referee.games.kingmaker.events.forms import Case, Form, Key, Slot, by_hand
from referee.games.kingmaker.notation import (
    BLANK,
    declaration_words,
    find,
    items,
    nearest,
    shown,
    split_trailing_declarations,
    tokens,
    value_text,
)
from referee.games.kingmaker.rules import DUTY_PHASES, SESSION_PHASES, refuse
from referee.games.kingmaker.state import (
    ASSIGN,
    DEAL,
    DECK,
    DISCARD,
    LAYOUT,
    OUT,
    Duty,
    State,
    card_entry,
    crown_instances,
    moved_cards,
    placed,
)


DECLARATION = (Slot("entry", "KIND", by_hand, width=1), Slot("name", "NAME", by_hand),
               Slot("values", "key=value ...", by_hand))


class Declare(Base):
    name = "declare"
    doc = "a component's printed values (the components file, or a card or place first seen)"
    fields = {"entry": "str", "name": "str", **dict(sorted(ALL_FIELDS.items()))}
    field_docs = {"entry": "the kind: " + ", ".join(KINDS),
                  "name": "its name (for votes and the charts, the kind again)"}
    optional = frozenset(ALL_FIELDS)
    actor = "table"
    always = True
    # By hand (`parse`, `text`): a kind, a name, then `key=value` values of that kind's fields.
    form = Form(*DECLARATION,
                cases=(Case("e.g. declare place Raglan kind=castle (R-2, R-3)"),
                       Case("the rule tables", {"entry": "votes|battle_chart|death_chart",
                                                "name": False})))
    verbs = ("declare",)

    def parse(self, state: State, args: Args) -> Event:
        words = tokens(args.text)[1:]
        if not words:
            raise NotationError(f"{self.name} needs a kind and a name, e.g. `{self.name} place "
                                "Raglan kind=castle`", code="no-kind")
        if BLANK in args.text:
            raise NotationError(f"{args.text!r} still has a blank {BLANK}: fill it in from the "
                                "box (R-2)", code="blank", rule="R-2")
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
        name = " ".join(card_name(w) for w in head if w != ",")
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
        values = {k: v for k, v in event.fields if k not in ("entry", "name")}
        if clash is not None and _completes(clash, kind, values):
            _copies_fixed(state, kind, {k: v for k, v in values.items() if clash.get(k) is None})
            return _declare(state, kind, clash.name, {**dict(clash.values), **values}, False)
        if clash is not None:
            raise refuse(f"{name} is declared already (as {article(clash.kind)}); `amend` mends a "
                         "slip (R-2)", "declared-already", "R-2")
        return _declare(state, kind, name, values, True)


def _completes(entry: Entry, kind: str, values: dict[str, Any]) -> bool:
    """A declaration of an entry the log has, of the same kind, that only adds the values it
    lacks (or repeats known ones): it completes the entry (R-2, the values the referee asked for).
    A different value is a slip for `amend`."""
    return entry.kind == kind and kind not in SINGLES and \
        all(entry.get(key) in (None, value) for key, value in values.items())


class Amend(Declare):
    name = "amend"
    doc = "the table mends a declared value, effective from then on (R-2)"
    form = Form(*DECLARATION, note="e.g. amend noble Herbert troops=20")
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
        _copies_fixed(state, kind, values)
        return _declare(state, kind, name, {**dict(entry.values), **values}, False)


def _copies_fixed(state: State, kind: str, values: dict[str, Any]) -> None:
    """A crown card's copies may not change once the deck is dealt (by amend, or by a declare
    that completes the entry)."""
    if "copies" in values and state.cards and kind != "event":
        raise refuse("the copies of a crown card are fixed once the deck is dealt",
                     "copies-fixed", "R-2")


# --------------------------------------------------------------------------------------------
# Set-up (§4): the deal, the extra deals, the layout


def missing_data(state: State, card: str) -> list[str]:
    """What R-2 still needs before a card can come into play (its places included): the box's
    answer, derived with it."""
    found = _missing_in(state.box).get(card)
    return list(found) if found is not None else _missing_data(state.box, card)


@derived(Box, "entries")
def _missing_in(box: Box) -> dict[str, tuple[str, ...]]:
    """card -> missing_data of it, for every crown card of the box."""
    return {card: tuple(_missing_data(box, card)) for card in crown_instances(box)}


def _missing_data(box: Box, card: str) -> list[str]:
    return [f"{name}.{key}" for _, name, key, _ in _gaps_in(box, card)]


def _gaps(state: State, card: str) -> Iterator[tuple[str, str, str, str]]:
    """What R-2 still needs before `card` comes into play: (kind, name, field, what is known of
    the value, else BLANK). A place not named yet has the name BLANK."""
    return _gaps_in(state.box, card)


def _gaps_in(box: Box, card: str) -> Iterator[tuple[str, str, str, str]]:
    entry = box.crown_card(card)
    assert entry is not None, card
    missing, kind = entry.missing(), entry.kind
    for key in missing:
        yield kind, entry.name, key, BLANK
    if "home" in missing:  # his home castles are not named yet: a castle each (§2.3)
        yield "place", BLANK, "kind", "castle"
    places = entry.names("home") + entry.names("brings")
    if kind == "town":
        place = entry.get("place")
        if place is not None:
            places += (str(place),)
        else:
            yield "place", BLANK, "kind", BLANK
    elif kind == "ship" and entry.get("home_port") is not None:
        places += (str(entry.get("home_port")),)
    known = box.place_kinds  # the places whose kind is known
    homes = entry.names("home")  # a castle each (§2.3), as the deal's block pre-fills them
    for place in places:
        if place not in known:
            yield "place", place, "kind", "castle" if place in homes else BLANK
    ships = entry.names("ships") + \
        ((rules.LE_LUCAS,) if entry.name == rules.STANLEY and box.card(rules.LE_LUCAS)
         else ())  # rule 26: Stanley comes with Le Lucas
    for ship in ships:
        found = box.card(ship)
        if found is None:
            yield "ship", ship, "capacity", BLANK
            yield "ship", ship, "home_port", BLANK
        else:
            yield from (("ship", ship, key, BLANK) for key in found.missing())


def missing_refusal(what: str, gaps: Sequence[tuple[str, str, str, str]],
                    unknown: Sequence[str] = (), notes: Sequence[str] = ()) -> IllegalMove:
    """R-2, all at once: every value a move needs, as the `declare` lines that give them; no
    closest legal moves (other cards' deals would only push the lines off the screen)."""
    lines = declare_lines(gaps)
    blanks = sum(line.count(BLANK) for line in lines)
    said = asking(f"{what} needs {blanks} printed value(s) this log does not have yet",
                  declare_block(lines, unknown, notes))
    refusal = refuse(said, "missing-value", "R-2")
    refusal.suggest = False
    return refusal


def check_data(state: State, card: str) -> None:
    gaps = list(_gaps(state, card))
    if gaps:
        raise missing_refusal(card_entry(card), gaps)


def check_all_data(state: State, cards: Sequence[str], unknown: Sequence[str],
                   what: str, notes: Sequence[str] = ()) -> None:
    """Every value the cards of one move need, asked in one refusal (R-2)."""
    gaps = [gap for card in cards for gap in _gaps(state, card)]
    gaps += [gap for name in unknown for gap in unknown_card_gaps(name)]
    if gaps:
        raise missing_refusal(what, gaps, unknown, notes)


def dealt(state: State, words: list[str], args: Args, out: dict[str, Any]) -> list[str]:
    """The cards dealt, each a free copy; a card the log does not know yet is asked for."""
    taken: list[str] = []

    def free(card: str) -> bool:
        return state.cards.get(card, DECK) == DECK and card not in taken

    unknown: list[str] = []
    slips: list[str] = []  # said in the one refusal of the whole deal, never taken
    for word in items(words):
        try:
            taken.append(parse_card(state, word, args.text, free))
        except NotationError as exc:
            if exc.code != "unknown-card":
                raise
            name = card_name(word)
            slip = _slip_for(state, word)
            if slip is not None:  # a slip, or a card of the box close to a listed one
                slips.append(f"{word!r} is no card this log lists: {shown(slip)}? If so, type "
                             f"the deal again with that name; if {name} is a card of your "
                             "box, fill in its line above too.")
            unknown.append(name)
    if not taken and not unknown:
        raise NotationError(f"{args.text!r} names no card", code="no-card", rule="§4")
    if unknown:  # a card needs its kind to be dealt: say at once all the deal needs,
        # the cards dealt before included (laid out face up, they need theirs next, §4);
        # but first what no value mends (a card in another hand), or the table fills the
        # lines in vain
        opened = state if state.cards else rules.open_deck(state)
        opened, player, extra = deal_due(opened, args.by)
        check_deal(opened, player, taken, extra is not None, unknown)
        before = [c for p in state.playing for c in dealt_cards(state, p)]
        check_all_data(state, before + [c for c in taken if state.box.crown_card(c)],
                       unknown, f"{args.by}'s deal" if args.by else "This deal", slips)
    return taken


class Dealt(Base):
    name = "dealt"
    doc = "the crown cards a player was dealt (a reveal): the deal, R-6 and No Elimination"
    fields = {"cards": "str[]", **DECLARES}
    field_docs = {"cards": "the cards, canonical names (copies as `NAME #2`)", **DECLARES_DOC}
    optional = frozenset({"declares"})
    reveal = True
    phases = frozenset({DEAL, DUTY_PHASES["deal"]})
    form = Form(Slot("cards", "CARD, CARD, ...", dealt,
                     lambda cards: ", ".join(map(shown, cards))),
                note="the cards dealt to you (R-5); one card at a time when dealt on until a "
                "noble comes (R-6, §9)")

    def effect(self, state: State, event: Event) -> State:
        cards = [known_card(state, c) if state.cards else c for c in event["cards"]]
        if not state.cards:
            state = rules.open_deck(state)
            cards = [known_card(state, c) for c in cards]
        state, player, current = deal_due(state, event.by)
        extra = current is not None
        check_deal(state, player, cards, extra)
        if state.in_play:  # dealt on in play (§9): he enters at once
            check_all_data(state, cards, (), f"{player}'s card")
        state = evolve(state, cards=moved_cards(state.cards,
                                                dict.fromkeys(cards, f"dealt:{player}")))
        if current is not None:
            return self._dealt_on(state, current, cards[0])
        state = evolve(state, dealt=state.dealt + (player,))
        if len(state.dealt) < len(state.playing):
            return state
        for name in state.playing:  # a player dealt no noble is dealt on
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
        current = rules.duty(state)
        player = rules.to_act(state).players[0]
        if not state.in_play and _layout_lacks_values(state, current is not None):
            return  # the deal that starts the layout would be refused: the note says why
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


def deal_due(state: State, by: str | None) -> tuple[State, str, Duty | None]:
    """Whose deal is due (§4), with the deck as it deals (R-15) and the duty of a player dealt
    on (R-6), else refused."""
    current = rules.duty(state)
    extra = current if current is not None and current.kind == "deal" else None
    if extra is None and state.stage != DEAL:
        raise refuse("no deal is due now", "no-deal", "§4")
    if extra is not None:
        state = rules.rebuild_deck(state)
    player = str(extra.player) if extra is not None else rules.to_act(state).players[0]
    if by != player:
        raise refuse(f"{player} is dealt now, not {by}", "not-your-deal", "§4")
    return state, player, extra


def check_deal(state: State, player: str, cards: Sequence[str], extra: bool,
               unknown: Sequence[str] = ()) -> None:
    """R-5, §4: the cards dealt (and those the log does not know yet, `unknown`), as many as
    the deal takes, none twice, each from the Crown deck."""
    count = len(cards) + len(unknown)
    want = 1 if extra else rules.deal_size(state)
    if count != want:
        raise refuse(f"{player} is dealt {want} card(s), not {count} (R-5)",
                     "deal-size", "R-5" if not extra else "R-6")
    named = [*cards, *unknown]
    keys = [norm(card) for card in named]
    twice = [card for card, key in zip(named, keys) if keys.count(key) > 1]
    if twice:
        raise refuse(f"{twice[0]} is named twice", "duplicate-card", "§4")
    # A card in the deck leaves it one at least, unless hidden draws took it: only then is
    # the deck counted (it takes sorting out where every card lies).
    empty = any(state.hidden.values()) and rules.deck_size(state) <= 0
    for card in cards:
        if state.cards.get(card) != DECK or empty:
            raise refuse(f"{card} is not in the Crown deck ({where_is(state, card)})",
                         "not-in-deck", "§4")


def _slip_for(state: State, word: str) -> str | None:
    """The box's card a name is a slip for (`Nevile`): corrected, never declared as new."""
    near = nearest(word, card_names(state))
    return near[0] if near else None


def _layout_lacks_values(state: State, extra: bool) -> bool:
    """Whether this deal may start the layout while cards dealt before it lack values."""
    last = extra or len(state.dealt) == len(state.playing) - 1
    return last and any(missing_data(state, card) for player in state.playing
                        for card in dealt_cards(state, player))


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
    return list(placed(state).dealt.get(player, ()))


def still_dealt(state: State, player: str) -> bool:
    """Whether `dealt_cards` of `player` is not empty, without sorting out where every card lies
    (`placed`): most assigns need no more, and the next state's `placed` is worked out once, from
    the last state that had it, when a move needs it."""
    return f"dealt:{player}" in state.cards.values()


def start_layout(state: State) -> State:
    """§4.3: nobles face up (Stanley with Le Lucas), then each player lays out the rest. The
    layout is what first needs the cards' printed values (R-2): every value the whole deal still
    lacks is asked for here, at once."""
    check_all_data(state, [card for player in state.playing for card in
                           dealt_cards(state, player)], (), "The layout of the deal")
    state = rules.enter_nobles(state, [(card, player) for player in state.playing
                                       for card in dealt_cards(state, player)
                                       if state.kind(card) == "noble"])
    state = evolve(state, stage=LAYOUT)
    for player in state.playing:
        if dealt_cards(state, player):
            state = rules.add_duty(state, Duty("layout", player))
    return state if state.duties else rules.finish_setup(state)


def lay_out(state: State, player: str) -> State:
    """§9: cards dealt on after a faction's last noble died are laid out as at set-up."""
    if dealt_cards(state, player):
        return rules.add_duty(state, Duty("layout", player))
    return state


def dealt_to_you(state: State, args: Args) -> Callable[[str], bool]:
    return lambda card: state.cards.get(card) == f"dealt:{args.by}"


class Assign(Base):
    name = "assign"
    doc = "a dealt card laid out on a noble, or to the Chancery when it fits none (§4.3); in " \
          "Parliament's third round, a Chancery card assigned without a vote (7.3)"
    fields = {"card": "str", "to": "str"}
    field_docs = {"card": "the card", "to": "the noble, or `chancery`"}
    phases = frozenset({DUTY_PHASES["layout"], SESSION_PHASES[ASSIGN]})
    form = Form(card("card", where=dealt_to_you), Key("to", noble("to", alts=("chancery",))),
                cases=(Case("lay out a dealt card (§4); Parliament's round 3 (7.3)",
                            {"to": "NOBLE"}),
                       Case("a card no noble of yours may take (§4)", {"to": "chancery"})))

    def effect(self, state: State, event: Event) -> State:
        current = rules.duty(state)
        if current is None and state.sitting is not None:
            return assign_unvoted(state, event)
        if current is None or current.kind != "layout" or current.player != event.by:
            raise refuse("no layout is due from you now", "no-layout", "§4")
        card, player = known_card(state, event["card"]), str(event.by)
        if state.cards.get(card) != f"dealt:{player}":
            raise refuse(f"{card} is not among the cards you were dealt", "not-dealt", "§4")
        if event["to"] == "chancery":
            eligible = rules.eligible_nobles(state, card, player)
            if eligible:
                raise refuse(f"{card} can be laid out on {', '.join(eligible)}: only a card "
                             "no noble may take goes to the Chancery", "placeable", "§4")
            state = evolve(state, cards=moved_cards(state.cards, {card: "chancery"}))
        else:
            noble = known_noble(state, event["to"])
            problem = rules.placement_problem(state, card, noble, player)
            if problem is not None:
                raise problem
            state = rules.assign(state, card, noble, claims=state.in_play)
        if still_dealt(state, player):
            return state
        state = rules.done(state, current)
        if state.stage == LAYOUT and not any(d.kind == "layout" for d in state.duties):
            return rules.finish_setup(state)
        return state

    def moves(self, state: State) -> Iterator[Event]:
        current = rules.duty(state)
        if current is None:  # Parliament's round 3
            s = state.sitting
            assert s is not None
            for card, noble in unvoted_moves(state):
                yield self.make(s.leader, card=card, to=noble)
            return
        player = str(current.player)
        for card in dealt_cards(state, player):
            eligible = rules.eligible_nobles(state, card, player)
            for noble in eligible or ["chancery"]:
                yield self.make(player, card=card, to=noble)
