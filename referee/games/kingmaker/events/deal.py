"""The components declared (`declare`, `amend`, R-2, R-3) and the set-up (§4): the deal, the
extra deals, the layout.
"""

from __future__ import annotations

from typing import Any, ClassVar, Iterator, Sequence

from referee.engine import Args, Event
from referee.errors import NotationError
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.components import ALL_FIELDS, FIELDS, KINDS, SINGLES, norm
from referee.games.kingmaker.events.assembly import assign_unvoted, unvoted_moves
from referee.games.kingmaker.events.base import (
    DECLARES,
    DECLARES_DOC,
    Base,
    _declare,
    declared_values,
    known_card,
    known_noble,
    parse_card,
)
from referee.games.kingmaker.notation import (
    declaration_words,
    find,
    items,
    one,
    sections,
    shown,
    split_trailing_declarations,
    tokens,
    unquote,
    value_text,
)
from referee.games.kingmaker.rules import refuse
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
    moved_cards,
    placed,
)


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
    """What R-2 still needs before a card can come into play (its places included): the box's
    answer, kept with it."""
    key = ("missing", card)
    found = state.box.memo.get(key)
    if found is None:
        found = state.box.memo[key] = tuple(_missing_data(state, card))
    return list(found)


def _missing_data(state: State, card: str) -> list[str]:
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
            state = rules.rebuild_deck(state)
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
        # A card in the deck leaves it one at least, unless hidden draws took it: only then is
        # the deck counted (it takes sorting out where every card lies).
        empty = any(state.hidden.values()) and rules.deck_size(state) <= 0
        for card in cards:
            if state.cards.get(card) != DECK or empty:
                raise refuse(f"{card} is not in the Crown deck ({where_is(state, card)})",
                             "not-in-deck", "§4")
            check_data(state, card)
        state = evolve(state, cards=moved_cards(state.cards,
                                                dict.fromkeys(cards, f"dealt:{player}")))
        if extra and current is not None:
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
    return list(placed(state.cards).dealt.get(player, ()))


def start_layout(state: State) -> State:
    """§4.3: nobles face up (Stanley with Le Lucas), then each player lays out the rest."""
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


class Assign(Base):
    name = "assign"
    doc = "a dealt card laid out on a noble, or to the Chancery when it fits none (§4.3); in " \
          "Parliament's third round, a Chancery card assigned without a vote (7.3)"
    fields = {"card": "str", "to": "str"}
    field_docs = {"card": "the card", "to": "the noble, or `chancery`"}
    answers = frozenset({"layout"})
    forms = (("assign CARD to NOBLE", "lay out a dealt card (§4); Parliament's round 3 (7.3)"),
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
        if dealt_cards(state, player):
            return state
        state = rules.done(state, current)
        if state.stage == LAYOUT and not any(d.kind == "layout" for d in state.duties):
            return rules.finish_setup(state)
        return state

    def moves(self, state: State) -> Iterator[Event]:
        current = rules.duty(state)
        s = state.sitting
        if current is None and s is not None and s.step == ASSIGN:
            for card, noble in unvoted_moves(state):
                yield self.make(s.leader, card=card, to=noble)
            return
        if current is None or current.kind != "layout":
            return
        player = str(current.player)
        for card in dealt_cards(state, player):
            eligible = rules.eligible_nobles(state, card, player)
            for noble in eligible or ["chancery"]:
                yield self.make(player, card=card, to=noble)
