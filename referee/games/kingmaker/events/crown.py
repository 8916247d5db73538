"""Heirs and Kings (§8: taking, executing, crowning) and the crown cards (§5.3, §5.4: the draw,
playing, discarding, gifts and transfers).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from referee.engine import Args, Event
from referee.errors import IllegalMove, NotationError
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.components import norm
from referee.games.kingmaker.events.assembly import parliament_transfer, transfer_moves
from referee.games.kingmaker.events.base import (
    DECLARES,
    DECLARES_DOC,
    ENTERING,
    PLACING,
    Base,
    active_combat,
    card,
    give_heir,
    heir,
    heir_names,
    known_card,
    known_heir,
    known_noble,
    known_place,
    known_player,
    noble,
    parse_card,
    place,
    player,
    refuse_in_active_combat,
    time_up_refusal,
    require_in_play,
)
from referee.games.kingmaker.events.deal import check_data, missing_data, where_is
from referee.games.kingmaker.events.forms import Case, Flag, Form, Key, Slot
from referee.games.kingmaker.notation import find, one
from referee.games.kingmaker.rules import refuse, split
from referee.games.kingmaker.state import (
    COMBAT,
    CORONATION,
    DECK,
    DISCARD,
    DRAW,
    MOVEMENT,
    State,
    card_entry,
    moved_cards,
)
from referee.notation import prefixed


# --------------------------------------------------------------------------------------------
# Heirs and Kings (§8)


class Take(Base):
    name = "take"
    doc = "a noble takes an uncontrolled heir where he is (R-46)"
    fields = {"heir": "str", "noble": "str"}
    field_docs = {"heir": "the heir", "noble": "the noble who takes him"}
    phases = frozenset({MOVEMENT, COMBAT})
    form = Form(heir("heir"), Key("by", noble("noble")),
                note="no other faction's noble there; inside a fortress only your faction's "
                "(R-46)")

    def effect(self, state: State, event: Event) -> State:
        heir, noble = known_heir(state, event["heir"]), known_noble(state, event["noble"])
        problem = take_problem(state, str(event.by), heir, noble)
        if problem is not None:
            raise problem
        return rules.chronicle(give_heir(state, heir, noble), f"{noble} takes {heir}")

    def moves(self, state: State) -> Iterator[Event]:
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
    form = Form(heir("heir"), note="by the player whose noble controls him (--as NAME)")

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


class Crown(Base):
    name = "crown"
    doc = "an heir is crowned at a cathedral (8.1)"
    fields = {"heir": "str", "place": "str", **DECLARES}
    field_docs = {"heir": "the heir", "place": "the cathedral's place", **DECLARES_DOC}
    optional = frozenset({"declares"})
    phases = frozenset({CORONATION})
    form = Form(heir("heir"), Key("at", place("place")),
                note="first in line, no King of his house, an archbishop or two bishops there "
                "(8.1, R-43)")

    def effect(self, state: State, event: Event) -> State:
        heir, place = known_heir(state, event["heir"]), known_place(state, event["place"])
        problem = rules.coronation_problem(state, heir, place)
        if problem is not None:
            raise problem
        if heir == rules.BEAUFORT:
            state = evolve(state, beaufort_crowned=True)
        else:
            heirs = dict(state.heirs)
            heirs[heir] = evolve(heirs[heir], crowned=True)
            state = evolve(state, heirs=heirs)
        return rules.chronicle(state, f"{heir} is crowned at {place}")

    def moves(self, state: State) -> Iterator[Event]:
        for heir, place in rules.coronations(state):
            yield self.make(state.active, heir=heir, place=place)


# --------------------------------------------------------------------------------------------
# Crown cards (§5.3, §5.4)


def in_deck(state: State, args: Args) -> Callable[[str], bool]:
    """A card still to be drawn (the deck rebuilt from its discard when it is empty, R-15)."""
    probe = rules.rebuild_deck(state)
    return lambda card: probe.cards.get(card) == DECK


class Draw(Base):
    name = "draw"
    changes = ENTERING | {"drew", "hidden", "chronicle"}
    doc = ("the crown card drawn in the draw phase (a reveal), or `hidden` (R-18: seen by "
           "nobody, it is undone or corrected without --force)")
    fields = {"card": "str", **DECLARES}
    field_docs = {"card": "the card, or `hidden`", **DECLARES_DOC}
    optional = frozenset({"declares"})
    reveal = True
    phases = frozenset({DRAW})
    form = Form(card("card", alts=("hidden",), where=in_deck, new=True),
                cases=(Case("e.g. draw Herbert; a noble or town card goes into play at once "
                            "(§5.3)", {"card": "CARD"}),
                       Case("kept unseen, named when played (R-18)", {"card": "hidden"})))

    def reveals(self, event: Event) -> bool:
        """A card drawn `hidden` (R-18) was seen by nobody: taking it back needs no --force."""
        return bool(event.get("card") != "hidden")

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
        if state.drew:
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
    state = evolve(state, cards=moved_cards(state.cards, {card: f"hand:{player}"}))
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
        cards = moved_cards(state.cards, {card: f"hand:{player}"})
        return evolve(state, hidden=hidden, cards=cards), card
    raise refuse(f"{card} is not in {player}'s hand ({where_is(state, card)})", "not-in-hand",
                 "§5.3")


def in_hand(state: State, args: Args) -> Callable[[str], bool]:
    return lambda card: state.cards.get(card) in (f"hand:{args.by}", DECK)


def holds_unseen(state: State, args: Args) -> bool:
    """R-18: a card drawn unseen is named when played, and may be one the log does not list."""
    return state.hidden.get(str(args.by), 0) > 0


class Play(Base):
    name = "play"
    changes = PLACING | {"hidden"}
    doc = "a crown card from hand assigned to an own noble, at any time outside active combat"
    fields = {"card": "str", "to": "str", **DECLARES}
    field_docs = {"card": "the card (a hidden one is named now, R-18)", "to": "the noble",
                  **DECLARES_DOC}
    optional = frozenset({"declares"})
    actor = "any"
    always = True
    form = Form(card("card", where=in_hand, new=holds_unseen), Key("to", noble("to")),
                note="title: untitled noble; office: titled noble without one; others: any noble "
                "of yours (§5.3)")

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
    changes = frozenset({"hidden", "cards"})
    doc = "a player over the two-card hand limit discards a crown card (§5.3)"
    fields = {"card": "str"}
    field_docs = {"card": "the card (a hidden one is named now)"}
    actor = "any"
    form = Form(card("card", where=in_hand, new=holds_unseen),
                note="down to two crown cards in hand (§5.3)")

    def gate(self, state: State, event: Event) -> None:
        """A discard answers its duty wherever that stands among those pending: no phase is
        declared for it, and its moment is checked here."""
        if state.time_up:
            raise time_up_refusal()
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
        return evolve(state, cards=moved_cards(state.cards, {card: DISCARD}))

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


def given(state: State, words: list[str], args: Args, out: dict[str, Any]) -> str:
    """A held event card, or else a crown card in the giver's hand."""
    word = one(words, "card", args.text)
    held = list(state.held.get(str(args.by), ()))
    if any(norm(h) == norm(word) for h in held) or prefixed(norm(word), held, key=norm):
        return find(word, sorted(set(held)), "held event card", args.text)
    where = f"hand:{args.by}"
    return parse_card(state, word, args.text, lambda c: state.cards.get(c) == where)


class Give(Base):
    name = "give"
    changes = frozenset({"hidden", "held", "cards"})
    doc = "a hand crown card or a held event card to another player (§5.4)"
    fields = {"item": "str", "to": "str"}
    field_docs = {"item": "the card (`hidden`: an unseen hand card)", "to": "the player"}
    actor = "any"
    always = True
    form = Form(Slot("item", "CARD", given, alts=("hidden",)), Key("to", player("to")),
                note="e.g. give Writ to Ben; the hand limit applies at once (§5.4, R-11)")

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
        return evolve(state, cards=moved_cards(state.cards, {card: f"hand:{taker}"}))

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
    if item in state.nobles:  # after what he holds: Stafford is a noble and a castle
        return "noble"
    raise refuse(f"{giver} holds no {item}", "not-his", "§5.4")


def transfer_problem(state: State, item: str, giver: str, taker: str,
                     agreed: bool) -> IllegalMove | None:
    """§5.4 (§8.7): what may pass between two nobles, and when."""
    kind = transfer_kind(state, item, giver)
    if giver == taker:
        return refuse("a transfer is between two nobles", "self", "§5.4")
    if kind in ("title", "office"):
        return refuse(f"{item} passes only between attending nobles, as other business of a "
                      "Parliament in session (7.4)", "parliament-only", "§5.4")
    if kind == "noble":
        return refuse(f"{item} is a noble, and nobles are never transferred: a noble stays in "
                      "his faction until he dies (§5.4)", "noble", "§5.4")
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
    if kind == "ship" and item in state.ships and split(state.ships[item].at)[0] == "sea":
        return refuse(f"{item} is at sea: its control passes only once in port", "at-sea",
                      "§5.4")
    return None


def held_item(state: State, giver: str, word: str, text: str) -> str:
    """What `word` names among the things a noble may hand over (§5.4); his printed title is
    no card, and never moves (7.4)."""
    choices = heir_names(state) + state.cards_of(giver) + \
        [p for p, n in state.control.items() if n == giver] + \
        [s for s, v in state.ships.items() if v.by == giver]
    try:
        return find(word, sorted(set(choices)) or [""], f"thing {giver} holds", text)
    except NotationError as exc:
        noble = next((n for n in state.nobles if norm(n) == norm(word)), None)
        if exc.code == "unknown-word" and noble is not None:
            raise refuse(f"{noble} is a noble, and nobles are never transferred: a noble stays "
                         "in his faction until he dies (§5.4)", "noble", "§5.4") from None
        printed = state.entry(giver).get("title")
        if exc.code != "unknown-word" or not printed or not norm(printed).startswith(norm(word)):
            raise
        raise NotationError(f"{printed} is printed on {giver}'s card: printed titles never move "
                            "(7.4)", code="printed-title", rule="§7.4") from None


def transferred(state: State, words: list[str], args: Args, out: dict[str, Any]) -> str:
    return held_item(state, out["from"], one(words, "item", args.text), args.text)


class Transfer(Base):
    name = "transfer"
    doc = "a town card or fortress, ship, bishop, mercenary or heir between two nobles (§5.4)"
    fields = {"item": "str", "from": "str", "to": "str", "agreed": "bool", "approved": "bool"}
    field_docs = {"item": "what passes", "from": "the giving noble", "to": "the receiving noble",
                  "agreed": "the deal between two players (§5.4)",
                  "approved": "an office in Parliament: the caller's approval (7.4, R-79)"}
    optional = frozenset({"agreed", "approved"})
    actor = "any"
    always = True
    form = Form(Slot("item", "ITEM", transferred, late=True), Key("from", noble("from")),
                Key("to", noble("to", late=True)),
                Flag("agreed", anywhere=True), Flag("approved", anywhere=True),
                cases=(Case("e.g. transfer Coventry from Neville to Stafford (§5.4); a title in "
                            "Parliament, then a vote (7.4)", {"approved": False}),
                       Case("in Parliament, with the caller's approval (7.4, R-79)",
                            {"item": "OFFICE", "approved": True})))

    def effect(self, state: State, event: Event) -> State:
        refuse_in_active_combat(state, "a transfer")
        require_in_play(state)
        giver, taker = known_noble(state, event["from"]), known_noble(state, event["to"])
        if state.owner(giver) != event.by:
            raise refuse(f"{giver} is not {event.by}'s (--as {state.owner(giver)})",
                         "not-your-noble", "§5.4")
        item = event["item"]
        kind = transfer_kind(state, item, giver)
        if kind in ("title", "office") and giver != taker:
            return parliament_transfer(state, event, kind)  # 7.4
        if event.get("approved"):
            raise refuse("`approved` is for an office passing in Parliament (7.4)",
                         "not-an-office", "§7.4")
        problem = transfer_problem(state, item, giver, taker, bool(event.get("agreed")))
        if problem is not None:
            raise problem
        if kind == "heir":
            return give_heir(state, item, taker)
        if kind == "fortress":
            return rules.take_control(state, item, taker)
        if kind == "town":
            return rules.take_control(state, str(state.entry(item).get("place")), taker)
        if item in state.ships and state.ships[item].by == giver:
            ships = dict(state.ships)
            ships[item] = evolve(ships[item], by=taker)
            state = evolve(state, ships=ships)
        if item in state.cards:
            state = evolve(state, cards=moved_cards(state.cards, {item: f"noble:{taker}"}))
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
        yield from transfer_moves(state)
