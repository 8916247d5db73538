"""The King's Ear's events, each declared once: its fields, when it may come, its notation, its
effect and the moves it offers.
"""

from __future__ import annotations

import itertools
from typing import Iterator

from referee.engine import Args, End, Event, Events, EventType
from referee.errors import IllegalMove, NotationError, refuse
from referee.evolve import evolve
from referee.games.kings_ear import rules
from referee.games.kings_ear.components import (
    CARDS,
    PENDING,
    PILE,
    card_house,
    card_value,
)
from referee.games.kings_ear.notation import (
    card_name,
    parse_card,
    parse_cards,
    parse_house,
)
from referee.games.kings_ear.rules import PLACING, TURN
from referee.games.kings_ear.state import State, tradeable_under
from referee.notation import expect_end

LISTED = 200  # equal trades listed one by one at most; beyond, `options` shows families


class Draw(EventType[State]):
    name = "draw"
    doc = "the card drawn from the pile (a reveal)"
    fields = {"card": "str"}
    field_docs = {"card": "the card drawn, e.g. \"Pig Army 3\""}
    reveal = True
    phases = frozenset({TURN})
    forms = (("draw CARD", "e.g. draw Pig Army 3, draw PA3, draw pig a 3"),
             ("draw", "in a --shuffle game (the tool knows its pile)"))

    def parse(self, state: State, args: Args) -> Event:
        if args.words and state.deck is not None:
            # Whatever the card: a refusal that told the next card from the others would let
            # the player to act find it by elimination before choosing to draw or to trade.
            raise IllegalMove("the tool draws from its shuffled pile: type `draw` alone, "
                              "without a card", code="tool-draws", rule="Virtual pile")
        if args.words:
            card = parse_card(state, args.words, args.text)
        elif state.deck is None:
            raise NotationError("draw needs the card you drew, e.g. 'draw Pig Army 3' "
                                "(only a --shuffle game knows its pile)", code="no-card")
        elif state.drawn >= CARDS:
            raise IllegalMove("the pile is empty (R-5)", code="pile-empty", rule="R-5")
        else:
            card = state.deck[state.drawn]
        return self.make(args.by, card=card_name(state, card))

    def format(self, state: State, event: Event) -> str:
        return f"draw {event['card']}"

    def apply(self, state: State, event: Event) -> State:
        card = rules.card_of(state, event["card"])
        name = card_name(state, card)
        if state.drawn >= CARDS:
            raise IllegalMove("the pile is empty: draw is no longer possible (R-5)",
                              code="pile-empty", rule="R-5")
        if state.where[card] != PILE:
            raise IllegalMove(f"{name} has already been drawn; it lies under "
                              f"{state.houses[state.where[card]]} (card conservation)",
                              code="card-seen", rule="Components")
        if state.deck is not None and state.deck[state.drawn] != card:
            raise IllegalMove(f"{name} is not the next card of the shuffled pile: type `draw` "
                              "alone and the tool draws it", code="not-next-card",
                              rule="Virtual pile")
        where = list(state.where)
        state = evolve(state, drawn=state.drawn + 1, passes=0)
        if card_house(card) == state.own:  # (1a) own House: placed at once, nothing to choose
            where[card] = state.own
            return rules.after_action(evolve(state, where=tuple(where)))
        where[card] = PENDING
        return evolve(state, where=tuple(where), pending=card)

    def moves(self, state: State) -> Iterator[Event]:
        if state.drawn >= CARDS:
            return
        unseen = (state.deck[state.drawn],) if state.deck else \
            [c for c in range(CARDS) if state.where[c] == PILE]
        for card in unseen:
            yield self.make(state.player, card=card_name(state, card))


class Place(EventType[State]):
    name = "place"
    doc = "the drawn card of another House goes under HOUSE"
    fields = {"house": "str"}
    field_docs = {"house": "the House the drawn card goes under"}
    phases = frozenset({PLACING})
    forms = (("place HOUSE", "e.g. place Stag"),)

    def parse(self, state: State, args: Args) -> Event:
        house = parse_house(state, args.words, "place", args.text)
        expect_end(args.words[1:], args.text)
        return self.make(args.by, house=house)

    def format(self, state: State, event: Event) -> str:
        return f"place {event['house']}"

    def apply(self, state: State, event: Event) -> State:
        house = rules.house_of(state, event["house"])
        card = state.pending
        assert card is not None  # the phase says so
        name = card_name(state, card)
        if house == card_house(card):
            raise IllegalMove(f"{name} cannot be placed under its own House {state.houses[house]}"
                              "; place it under a House that is neither its House nor yours",
                              code="place-own-card-house", rule="Turn (1b)")
        if house == state.own:
            raise IllegalMove(f"{name} cannot be placed under your own House "
                              f"{state.houses[house]}; trade it instead, or place it under "
                              "a third House", code="place-own-house", rule="Turn (1b)")
        return rules.after_action(rules.moved(state, {card: house}))

    def moves(self, state: State) -> Iterator[Event]:
        card = state.pending
        assert card is not None
        for house in range(4):
            if house not in (card_house(card), state.own):
                yield self.make(state.player, house=state.houses[house])


class Trade(EventType[State]):
    name = "trade"
    doc = "a trade with HOUSE; without `give`, the drawn card is traded"
    fields = {"house": "str", "give": "str[]", "take": "str[]", "agreed": "bool"}
    field_docs = {"house": "the other House",
                  "give": "the cards given from under your House; absent for a trade right "
                          "after a draw",
                  "take": "the cards taken from the other House's board",
                  "agreed": "true for an unequal trade the other House's player accepted (R-3)"}
    optional = frozenset({"give", "agreed"})
    phases = frozenset({TURN, PLACING})
    forms = (("trade HOUSE [give CARDS] take CARDS [agreed]", "a trade with HOUSE:"),
             ("trade HOUSE take CARDS", "after a draw: trade the drawn card"),
             ("trade HOUSE give CARDS take CARDS", "option (2)"),
             ("... agreed", "an unequal trade that HOUSE's player accepted (R-3)"))

    def parse(self, state: State, args: Args) -> Event:
        house = parse_house(state, args.words, "trade", args.text)
        parts, text = list(args.words[1:]), args.text
        agreed = bool(parts) and parts[-1].lower() in ("agreed", "agree")
        if agreed:
            parts = parts[:-1]
        low = [p.lower() for p in parts]
        if "take" not in low:
            raise NotationError(f"a trade needs 'take CARDS' in {text!r}", code="no-take")
        at = low.index("take")
        give_part, take_part = parts[:at], parts[at + 1:]
        give: tuple[str, ...] = ()
        if give_part:
            if give_part[0].lower() != "give":
                raise NotationError(f"expected 'give CARDS' or 'take CARDS' after the House in "
                                    f"{text!r}", code="bad-trade")
            give = parse_cards(state, give_part[1:], text)
        take = parse_cards(state, take_part, text)
        if agreed and give and rules.value_of(state, give) == rules.value_of(state, take):
            agreed = False  # equal trades need no agreement; keep one canonical event
        return self.make(args.by, house=house, give=list(give) or None, take=list(take),
                         agreed=True if agreed else None)

    def format(self, state: State, event: Event) -> str:
        text = f"trade {event['house']}"
        if event.get("give"):
            text += " give " + ", ".join(event["give"])
        text += " take " + ", ".join(event["take"])
        return text + (" agreed" if event.get("agreed") else "")

    def apply(self, state: State, event: Event) -> State:
        house = rules.house_of(state, event["house"])
        take = [rules.card_of(state, n) for n in event["take"]]
        give = [rules.card_of(state, n) for n in event.get("give", ())]
        if state.pending is not None:
            return self._with_drawn(state, house, give, take)
        return self._option_two(state, house, give, take, bool(event.get("agreed")))

    def _with_drawn(self, state: State, house: int, give: list[int], take: list[int]) -> State:
        card = state.pending
        assert card is not None
        name = card_name(state, card)
        total = sum(card_value(c) for c in take)
        refuse([
            IllegalMove(f"after a draw only the drawn {name} is traded: leave out 'give'",
                        code="give-after-draw", rule="Turn (1b)") if give else None,
            rules.partner_problem(state, house),
            *rules.take_problems(state, house, take),
            IllegalMove(f"the cards taken add up to {total}, but the drawn {name} is worth "
                        f"{card_value(card)}: a trade after a draw must be exact",
                        code="inexact-trade", rule="Turn (1b)")
            if total != card_value(card) else None,
        ])
        moves = {card: house, **{c: state.own for c in take}}
        return rules.after_action(rules.moved(state, moves))

    def _option_two(self, state: State, house: int, give: list[int], take: list[int],
                    agreed: bool) -> State:
        refuse([
            IllegalMove("a trade without a drawn card must give one or more cards ('give "
                        "CARDS')", code="nothing-given", rule="Turn (2)") if not give else None,
            rules.partner_problem(state, house),
            *self._give_problems(state, give),
            *rules.take_problems(state, house, take),
            self._unequal_problem(state, house, give, take, agreed) if give else None,
        ])
        moves = {**{c: house for c in give}, **{c: state.own for c in take}}
        return rules.after_action(rules.moved(state, moves))

    @staticmethod
    def _give_problems(state: State, give: list[int]) -> list[IllegalMove]:
        houses, problems = state.houses, []
        for card in give:
            name = card_name(state, card)
            if state.where[card] != state.own:
                problems.append(IllegalMove(f"{name} is not under your House "
                                            f"{houses[state.own]}: you can only give cards "
                                            "that lie under it", code="not-yours",
                                            rule="Turn (2)"))
            elif card_house(card) == state.own:
                problems.append(IllegalMove(f"{name} lies under its own House: it is locked "
                                            "and can never move again", code="locked-card",
                                            rule="Locked cards"))
        return problems

    @staticmethod
    def _unequal_problem(state: State, house: int, give: list[int], take: list[int],
                         agreed: bool) -> IllegalMove | None:
        houses = state.houses
        given, taken = (sum(card_value(c) for c in cards) for cards in (give, take))
        if given == taken:
            return None
        if state.owner(house) is None:
            return IllegalMove(f"an unequal trade ({given} for {taken}) needs the agreement of "
                               f"{houses[house]}'s player, and nobody plays {houses[house]}",
                               code="unequal-unseated", rule="R-3")
        if not agreed:
            return IllegalMove(f"the trade is unequal ({given} given for {taken} taken): it "
                               f"needs {state.owner(house)}'s agreement; add 'agreed' once they "
                               "accept", code="unequal-not-agreed", rule="R-3")
        return None

    def moves(self, state: State) -> Iterator[Event]:
        """The trades to list: after a draw all of them (at most four cards are taken); else the
        first LISTED equal trades, never more (`options` counts the rest, `--all` streams them)."""
        if state.pending is not None:
            yield from self._drawn_trades(state)
        else:
            yield from itertools.islice(self.equal_trades(state), LISTED)

    def _drawn_trades(self, state: State) -> Iterator[Event]:
        assert state.pending is not None
        value = card_value(state.pending)
        for house in range(4):
            if house == state.own:
                continue
            for take in rules.subsets_with_sum(tradeable_under(state, house), value, state.own):
                yield rules.trade_event(state, house, (), take)

    def equal_trades(self, state: State) -> Iterator[Event]:
        """Every equal option-2 trade, lazily: by House, worth, then cards (there may be
        billions)."""
        give_pool = tradeable_under(state, state.own)
        for family in rules.equal_trade_families(state):
            take_pool = tradeable_under(state, family.house)
            for give in rules.subsets_with_total(give_pool, family.total, None):
                for take in rules.subsets_with_total(take_pool, family.total, state.own):
                    yield rules.trade_event(state, family.house, give, take)


class Pass(EventType[State]):
    name = "pass"
    doc = "no legal action (R-6)"
    phases = frozenset({TURN})
    forms = (("pass", "only with no legal action (R-6)"),)

    def format(self, state: State, event: Event) -> str:
        return "pass"

    def apply(self, state: State, event: Event) -> State:
        if state.drawn < CARDS:
            raise IllegalMove("pass is only allowed when you have no legal action; the pile "
                              "still has cards to draw", code="pass-not-allowed", rule="R-6")
        if rules.equal_trade_sums(state):
            raise IllegalMove("pass is only allowed when you have no legal action; a trade "
                              "is still possible (see 'referee options')",
                              code="pass-not-allowed", rule="R-6")
        state = evolve(state, passes=state.passes + 1)
        if state.passes >= len(state.names):
            return evolve(state, ended="no winner: every player passed in one full round "
                                        "with the pile empty (R-6)")
        return rules.next_turn(state)

    def moves(self, state: State) -> Iterator[Event]:
        if state.drawn >= CARDS and not rules.equal_trade_sums(state):
            yield self.make(state.player)


class Note(EventType[State]):
    name = "note"
    doc = "a remark the table records, with no effect on the game"
    fields = {"text": "str"}
    field_docs = {"text": "the remark, e.g. a break or an agreement made at the table"}
    actor = "table"
    forms = (("note TEXT", "the table records a remark: note break for dinner"),)

    def parse(self, state: State, args: Args) -> Event:
        if not args.words:
            raise NotationError("note needs the remark, e.g. 'note break for dinner'",
                                code="no-text")
        return self.make(None, text=" ".join(args.words))

    def format(self, state: State, event: Event) -> str:
        return f"note {event['text']}"

    def apply(self, state: State, event: Event) -> State:
        return state


TRADE = Trade()
EVENTS = Events(Draw(), Place(), TRADE, Pass(), End(), Note())
