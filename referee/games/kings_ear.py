"""The King's Ear (Jon Linney, 2005): every rule and table ruling the referee enforces.

The rules page is ../shared/rules/kings-ear.md; rulings are named R-1..R-8 there and in `rules()`.

Model: 64 cards, one per (House, profession, value 1-4), numbered 0..63. A state records where
every card lies: in the pile, drawn and waiting for its placement, or under one of the four Houses
(always at the card's own profession). Cards are never held in hand.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping

from referee.engine import Event, EventSpec, Game, OptionSpec, Player, ToAct
from referee.errors import IllegalMove, NotationError, UsageError
from referee.notation import expect_end, match, split_list, words

if TYPE_CHECKING:
    from referee.scoresheet import Scoresheet

PROFESSIONS = ("Religion", "Army", "Trade", "Farming")
VALUES = (1, 2, 3, 4)
DEFAULT_HOUSES = ("Horse", "Pig", "Stag", "Boar")
WINNING_NET = 10
PILE, PENDING = -1, -2  # card locations besides "under House h" (0..3)


# --------------------------------------------------------------------------------------------
# Cards: id = house * 16 + profession * 4 + (value - 1)


def card_id(house: int, profession: int, value: int) -> int:
    return house * 16 + profession * 4 + value - 1


def card_house(card: int) -> int:
    return card // 16


def card_profession(card: int) -> int:
    return card // 4 % 4


def card_value(card: int) -> int:
    return card % 4 + 1


@lru_cache(maxsize=8)
def card_names(houses: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f"{houses[card_house(c)]} {PROFESSIONS[card_profession(c)]} {card_value(c)}"
                 for c in range(64))


@lru_cache(maxsize=8)
def card_ids(houses: tuple[str, ...]) -> dict[str, int]:
    return {name: index for index, name in enumerate(card_names(houses))}


def short_name(houses: tuple[str, ...], card: int) -> str:
    return f"{houses[card_house(card)][0]}{PROFESSIONS[card_profession(card)][0]}{card_value(card)}"


# --------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True)
class State:
    houses: tuple[str, ...]  # the four House labels
    names: tuple[str, ...]  # players in seat order
    seats: tuple[int, ...]  # each player's House index
    where: tuple[int, ...]  # card -> PILE, PENDING or the House it lies under
    turn: int = 0  # index into names
    pending: int | None = None  # a drawn card of another House waiting for place/trade
    passes: int = 0  # consecutive passes
    winner: int | None = None  # seat index
    ended: str | None = None  # why the game ended without a winner
    deck: tuple[int, ...] | None = None  # the virtual pile order of a --shuffle game
    drawn: int = 0  # cards taken from the pile so far

    @property
    def finished(self) -> bool:
        return self.winner is not None or self.ended is not None

    @property
    def pile_size(self) -> int:
        return 64 - self.drawn

    @property
    def player(self) -> str:
        return self.names[self.turn]

    @property
    def own(self) -> int:
        return self.seats[self.turn]

    def house_index(self, name: str) -> int:
        return self.houses.index(name)

    def owner(self, house: int) -> str | None:
        for name, seat in zip(self.names, self.seats):
            if seat == house:
                return name
        return None

    def under(self, house: int) -> list[int]:
        return [c for c, h in enumerate(self.where) if h == house]

    @cached_property
    def _nets(self) -> tuple[int, ...]:
        """All 16 section nets in one pass: index house * 4 + profession."""
        nets = [0] * 16
        for card, house in enumerate(self.where):
            if house >= 0:
                value = card % 4 + 1
                nets[house * 4 + card // 4 % 4] += value if card // 16 == house else -value
        return tuple(nets)

    def net(self, house: int, profession: int) -> int:
        return self._nets[house * 4 + profession]

    def nets(self, house: int) -> tuple[int, ...]:
        return self._nets[house * 4:house * 4 + 4]


def locked(state: State, card: int) -> bool:
    """A card under its own House is in its correct position and never moves again."""
    return state.where[card] == card_house(card)


def tradeable_under(state: State, house: int) -> list[int]:
    return [c for c in state.under(house) if card_house(c) != house]


# --------------------------------------------------------------------------------------------
# The game


def _check_houses(houses: Any) -> tuple[str, ...]:
    if not isinstance(houses, (list, tuple)) or len(houses) != 4:
        raise UsageError("option houses needs exactly four names (R-1)")
    names = tuple(str(h).strip() for h in houses)
    for name in names:
        if not name.isalpha():
            raise UsageError(f"House name {name!r} must be one word of letters (R-1)")
    if len({n.casefold() for n in names}) != 4:
        raise UsageError("the four House names must differ (R-1)")
    if len({n[0].casefold() for n in names}) != 4:
        raise UsageError("the four House names need distinct first letters: the short card "
                         "form (PA3) relies on it (R-1)")
    return tuple(n.capitalize() for n in names)


class KingsEar(Game):
    id = "kings-ear"
    title = "The King's Ear"
    min_players = 2
    max_players = 4
    seat_field = "house"
    options = (
        OptionSpec("houses", list(DEFAULT_HOUSES), "str[]",
                   "the four House labels, as on the table's shields", "R-1"),
    )
    events = {
        "draw": EventSpec({"card": "str"}, reveal=True,
                          doc="the card drawn from the pile (a reveal)"),
        "place": EventSpec({"house": "str"},
                           doc="the drawn card of another House goes under HOUSE"),
        "trade": EventSpec({"house": "str", "give": "str[]", "take": "str[]", "agreed": "bool"},
                           optional=frozenset({"give", "agreed"}),
                           doc="a trade with HOUSE; without `give`, the drawn card is traded"),
        "pass": EventSpec({}, doc="no legal action (R-6)"),
        "end": EventSpec({"reason": "str"}, actor="table",
                         doc="the table stops the game without a winner (R-7)"),
    }
    notation_help = ("draw CARD | place HOUSE | trade HOUSE [give CARDS] take CARDS [agreed] | "
                     "pass | end REASON   (CARD: 'Pig Army 3' or 'PA3'; CARDS: comma-separated)")

    # ---- set-up --------------------------------------------------------------------------
    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        merged = super().check_options(options)
        merged["houses"] = list(_check_houses(merged["houses"]))
        return merged

    def seat_choices(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return tuple(self.check_options(options)["houses"])

    def setup(self, players: tuple[Player, ...], options: Mapping[str, Any],
              seed: int | None = None) -> State:
        houses = tuple(self.check_options(options)["houses"])
        seated = self.seat_players(list(players), {"houses": list(houses)})
        deck = None
        if seed is not None:
            order = list(range(64))
            random.Random(seed).shuffle(order)
            deck = tuple(order)
        return State(houses=houses, names=tuple(p.name for p in seated),
                     seats=tuple(houses.index(p.seat) for p in seated),
                     where=(PILE,) * 64, deck=deck)

    # ---- notation ------------------------------------------------------------------------
    def card_name(self, state: State, card: int) -> str:
        return card_names(state.houses)[card]

    def parse_card(self, state: State, parts: list[str], text: str) -> int:
        """One card: 'Pig Army 3', 'pig a 3', 'PA3' (case-insensitive, unique prefixes)."""
        if len(parts) == 1 and len(parts[0]) == 3 and parts[0][2].isdigit():
            parts = [parts[0][0], parts[0][1], parts[0][2]]
        if len(parts) != 3:
            raise NotationError(f"{' '.join(parts)!r} in {text!r} is not a card; write it as "
                                "'Pig Army 3' or 'PA3'", code="bad-card")
        house = match(parts[0], state.houses, "House", text=text)
        profession = match(parts[1], PROFESSIONS, "profession", text=text)
        if not parts[2].isdigit() or int(parts[2]) not in VALUES:
            raise NotationError(f"{parts[2]!r} in {text!r} is not a card value (1-4)",
                                code="bad-card")
        return card_id(state.houses.index(house), PROFESSIONS.index(profession), int(parts[2]))

    def parse_cards(self, state: State, parts: list[str], text: str) -> tuple[str, ...]:
        items = split_list(parts)
        if not items:
            raise NotationError(f"no cards given in {text!r}", code="no-cards")
        cards = [self.parse_card(state, item, text) for item in items]
        if len(set(cards)) != len(cards):
            raise NotationError(f"a card is named twice in {text!r}", code="duplicate-card")
        return tuple(self.card_name(state, c) for c in sorted(cards))

    def parse(self, state: State, text: str, player: str | None) -> Event:
        parts = words(text)
        if not parts:
            raise NotationError("no move given", code="empty")
        verb = match(parts[0], ("draw", "place", "trade", "pass", "end"), "move", text=text)
        rest = parts[1:]
        if verb == "end":
            return Event.make("end", None, reason=" ".join(rest) or "stopped by the table")
        if verb == "pass":
            expect_end(rest, text)
            return Event.make("pass", player)
        if verb == "draw":
            if not rest:
                if state.deck is None:
                    raise NotationError("draw needs the card you drew, e.g. 'draw Pig Army 3' "
                                        "(only a --shuffle game knows its pile)", code="no-card")
                if state.drawn >= 64:
                    raise IllegalMove("the pile is empty (R-5)", code="pile-empty", rule="R-5")
                card = state.deck[state.drawn]
            else:
                card = self.parse_card(state, rest, text)
            return Event.make("draw", player, card=self.card_name(state, card))
        if not rest:
            raise NotationError(f"{verb} needs a House, e.g. '{verb} {state.houses[2]}'",
                                code="no-house")
        house = match(rest[0], state.houses, "House", text=text)
        if verb == "place":
            expect_end(rest[1:], text)
            return Event.make("place", player, house=house)
        return self._parse_trade(state, house, rest[1:], text, player)

    def _parse_trade(self, state: State, house: str, parts: list[str], text: str,
                     player: str | None) -> Event:
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
            give = self.parse_cards(state, give_part[1:], text)
        take = self.parse_cards(state, take_part, text)
        if agreed and give and _sum(state, give) == _sum(state, take):
            agreed = False  # equal trades need no agreement; keep one canonical event
        return Event.make("trade", player, house=house, give=list(give) or None,
                          take=list(take), agreed=True if agreed else None)

    def format(self, state: State, event: Event) -> str:
        if event.type == "draw":
            return f"draw {event['card']}"
        if event.type == "place":
            return f"place {event['house']}"
        if event.type == "trade":
            text = f"trade {event['house']}"
            if event.get("give"):
                text += " give " + ", ".join(event["give"])
            text += " take " + ", ".join(event["take"])
            return text + (" agreed" if event.get("agreed") else "")
        if event.type == "end":
            return f"end {event['reason']}"
        return event.type

    # ---- rules ---------------------------------------------------------------------------
    def _card(self, state: State, name: str) -> int:
        card = card_ids(state.houses).get(name)
        if card is None:
            raise IllegalMove(f"{name!r} is not a card of this game "
                              f"(Houses: {', '.join(state.houses)})", code="unknown-card")
        return card

    def _house(self, state: State, name: str) -> int:
        if name not in state.houses:
            raise IllegalMove(f"{name!r} is not a House of this game "
                              f"({', '.join(state.houses)})", code="unknown-house")
        return state.houses.index(name)

    def apply(self, state: State, event: Event) -> State:
        if event.type == "end":
            return replace(state, ended=f"stopped by the table: {event['reason']} (R-7)")
        if event.type == "draw":
            return self._draw(state, self._card(state, event["card"]))
        if event.type == "place":
            return self._place(state, self._house(state, event["house"]))
        if event.type == "trade":
            house = self._house(state, event["house"])
            take = [self._card(state, n) for n in event["take"]]
            give = [self._card(state, n) for n in event.get("give", ())]
            if state.pending is not None:
                return self._draw_trade(state, house, give, take)
            return self._trade(state, house, give, take, bool(event.get("agreed")))
        return self._pass(state)

    def _draw(self, state: State, card: int) -> State:
        name = self.card_name(state, card)
        if state.pending is not None:
            raise IllegalMove(f"{state.player} must first place or trade the drawn "
                              f"{self.card_name(state, state.pending)}", code="pending-card",
                              rule="Turn (1b)")
        if state.drawn >= 64:
            raise IllegalMove("the pile is empty: draw is no longer possible (R-5)",
                              code="pile-empty", rule="R-5")
        if state.where[card] != PILE:
            raise IllegalMove(f"{name} has already been drawn; it lies under "
                              f"{state.houses[state.where[card]]} (card conservation)",
                              code="card-seen", rule="Components")
        if state.deck is not None and state.deck[state.drawn] != card:
            expected = self.card_name(state, state.deck[state.drawn])
            raise IllegalMove(f"the shuffled pile's next card is {expected}, not {name}",
                              code="not-next-card", rule="--shuffle")
        where = list(state.where)
        state = replace(state, drawn=state.drawn + 1, passes=0)
        if card_house(card) == state.own:  # (a) own House: placed at once, nothing to choose
            where[card] = state.own
            return self._after_action(replace(state, where=tuple(where)))
        where[card] = PENDING
        return replace(state, where=tuple(where), pending=card)

    def _need_pending(self, state: State, what: str) -> int:
        if state.pending is None:
            raise IllegalMove(f"there is no drawn card to {what}; draw first", code="no-pending",
                              rule="Turn (1b)")
        return state.pending

    def _place(self, state: State, house: int) -> State:
        card = self._need_pending(state, "place")
        name = self.card_name(state, card)
        if house == card_house(card):
            raise IllegalMove(f"{name} cannot be placed under its own House {state.houses[house]}"
                              "; place it under a House that is neither its House nor yours",
                              code="place-own-card-house", rule="Turn (1b)")
        if house == state.own:
            raise IllegalMove(f"{name} cannot be placed under your own House "
                              f"{state.houses[house]}; trade it instead, or place it under "
                              "a third House", code="place-own-house", rule="Turn (1b)")
        return self._after_action(_move(state, {card: house}, pending=None))

    def _check_take(self, state: State, house: int, take: list[int]) -> None:
        houses = state.houses
        for card in take:
            name = self.card_name(state, card)
            if state.where[card] != house:
                lies = ("in the pile" if state.where[card] == PILE else
                        f"under {houses[state.where[card]]}" if state.where[card] >= 0 else
                        "in play")
                raise IllegalMove(f"{name} is not under {houses[house]} (it is {lies})",
                                  code="not-on-board", rule="Trade")
            if locked(state, card):
                raise IllegalMove(f"{name} lies under its own House {houses[house]}: it is locked "
                                  "and can never move again", code="locked-card",
                                  rule="Locked cards")
        if not any(card_house(c) == state.own for c in take):
            raise IllegalMove(f"at least one card taken must be of your own House "
                              f"{houses[state.own]}", code="no-own-card", rule="Trade")

    def _check_partner(self, state: State, house: int) -> None:
        if house == state.own:
            raise IllegalMove(f"you cannot trade with your own House {state.houses[house]}",
                              code="trade-own-house", rule="Trade")

    def _draw_trade(self, state: State, house: int, give: list[int], take: list[int]) -> State:
        card = self._need_pending(state, "trade")
        name = self.card_name(state, card)
        if give:
            raise IllegalMove(f"after a draw only the drawn {name} is traded: leave out 'give'",
                              code="give-after-draw", rule="Turn (1b)")
        self._check_partner(state, house)
        self._check_take(state, house, take)
        total = sum(card_value(c) for c in take)
        if total != card_value(card):
            raise IllegalMove(f"the cards taken add up to {total}, but the drawn {name} is worth "
                              f"{card_value(card)}: a trade after a draw must be exact",
                              code="inexact-trade", rule="Turn (1b)")
        moves = {card: house, **{c: state.own for c in take}}
        return self._after_action(_move(state, moves, pending=None))

    def _trade(self, state: State, house: int, give: list[int], take: list[int],
               agreed: bool) -> State:
        if state.pending is not None:  # pragma: no cover - apply() routes pending trades away
            raise AssertionError("pending draw trade")
        houses = state.houses
        if not give:
            raise IllegalMove("a trade without a drawn card must give one or more cards "
                              "('give CARDS')", code="nothing-given", rule="Turn (2)")
        self._check_partner(state, house)
        for card in give:
            name = self.card_name(state, card)
            if state.where[card] != state.own:
                raise IllegalMove(f"{name} is not under your House {houses[state.own]}: you can "
                                  "only give cards that lie under it", code="not-yours",
                                  rule="Turn (2)")
            if card_house(card) == state.own:
                raise IllegalMove(f"{name} lies under its own House: it is locked and can never "
                                  "move again", code="locked-card", rule="Locked cards")
        self._check_take(state, house, take)
        given, taken = (sum(card_value(c) for c in cards) for cards in (give, take))
        if given != taken:
            if state.owner(house) is None:
                raise IllegalMove(f"an unequal trade ({given} for {taken}) needs the agreement "
                                  f"of {houses[house]}'s player, and nobody plays "
                                  f"{houses[house]}", code="unequal-unseated", rule="R-3")
            if not agreed:
                raise IllegalMove(f"the trade is unequal ({given} given for {taken} taken): it "
                                  f"needs {state.owner(house)}'s agreement; add 'agreed' once "
                                  "they accept", code="unequal-not-agreed", rule="R-3")
        moves = {**{c: house for c in give}, **{c: state.own for c in take}}
        return self._after_action(_move(state, moves, pending=None))

    def _pass(self, state: State) -> State:
        if state.pending is not None:
            raise IllegalMove(f"you must place or trade the drawn "
                              f"{self.card_name(state, state.pending)}", code="pending-card",
                              rule="Turn (1b)")
        if state.drawn < 64:
            raise IllegalMove("pass is only allowed when you have no legal action; the pile "
                              "still has cards to draw", code="pass-not-allowed", rule="R-6")
        if _equal_trade_sums(state):
            raise IllegalMove("pass is only allowed when you have no legal action; a trade "
                              "is still possible (see 'referee options')",
                              code="pass-not-allowed", rule="R-6")
        state = replace(state, passes=state.passes + 1)
        if state.passes >= len(state.names):
            return replace(state, ended="no winner: every player passed in one full round "
                                        "with the pile empty (R-6)")
        return _next_turn(state)

    def _after_action(self, state: State) -> State:
        """After each action: the acting House wins first, then any other seated House at 10."""
        order = [state.turn] + [i for i in range(len(state.names)) if i != state.turn]
        for seat in order:
            if WINNING_NET in state.nets(state.seats[seat]):
                return replace(state, winner=seat)
        return _next_turn(state)

    # ---- legal moves ---------------------------------------------------------------------
    def legal(self, state: State, player: str | None = None) -> list[Event]:
        if state.finished or (player is not None and player != state.player):
            return []
        if state.pending is not None:
            return [*self._placements(state), *self._draw_trades(state)]
        moves: list[Event] = []
        if state.drawn < 64:
            unseen = (state.deck[state.drawn],) if state.deck else \
                [c for c in range(64) if state.where[c] == PILE]
            moves += [Event.make("draw", state.player, card=self.card_name(state, c))
                      for c in unseen]
        if _equal_trade_sums(state):
            moves += list(self._equal_trades(state))
        if not moves:
            moves.append(Event.make("pass", state.player))
        return moves

    def legal_note(self, state: State, player: str | None = None) -> str:
        if state.finished or state.pending is not None or (player and player != state.player):
            return ""
        if not any(card_house(c) != state.own for c in state.under(state.own)):
            return ""
        return ("Unequal trades are legal too when the other House's player agrees: "
                "add 'agreed' (R-3).")

    def _placements(self, state: State) -> Iterator[Event]:
        card = state.pending
        assert card is not None
        for house in range(4):
            if house not in (card_house(card), state.own):
                yield Event.make("place", state.player, house=state.houses[house])

    def _draw_trades(self, state: State) -> Iterator[Event]:
        value = card_value(state.pending)  # type: ignore[arg-type]
        for house in range(4):
            if house == state.own:
                continue
            for take in _subsets_with_sum(tradeable_under(state, house), value, state.own):
                yield self._trade_event(state, house, (), take)

    def _equal_trades(self, state: State) -> Iterator[Event]:
        give_pool = tradeable_under(state, state.own)
        if not give_pool:
            return
        gives = _subsets_by_sum(give_pool, None)
        for house in range(4):
            if house == state.own:
                continue
            takes = _subsets_by_sum(tradeable_under(state, house), state.own)
            for total in sorted(set(gives) & set(takes)):
                for give in gives[total]:
                    for take in takes[total]:
                        yield self._trade_event(state, house, give, take)

    def _trade_event(self, state: State, house: int, give: Iterable[int], take: Iterable[int],
                     agreed: bool = False) -> Event:
        name = self.card_name
        return Event.make("trade", state.player, house=state.houses[house],
                          give=[name(state, c) for c in sorted(give)] or None,
                          take=[name(state, c) for c in sorted(take)],
                          agreed=True if agreed else None)

    def option_lines(self, state: State, events: list[Event]) -> list[str]:
        draws = [e for e in events if e.type == "draw"]
        lines = []
        if len(draws) > 1:
            lines.append(f"draw CARD    (the card you drew: one of the {len(draws)} cards not "
                         "seen yet)")
        lines += [self.format(state, e) for e in events if e.type != "draw" or len(draws) == 1]
        return lines

    def random_event(self, state: State, rng: random.Random) -> Event | None:
        """Random play that stays fast: choose the kind of move first, then one instance.

        The number of equal trades grows exponentially with the cards on the board, so trades are
        sampled directly (`_random_equal_trade`) instead of drawn from the full `legal()` list.
        """
        if state.finished:
            return None
        if state.pending is not None:
            return rng.choice(self.legal(state))
        if state.drawn >= 64:
            return self._random_equal_trade(state, rng) or Event.make("pass", state.player)
        roll = rng.random()
        trade = (self._random_equal_trade(state, rng) if roll < 0.1 else
                 self._random_unequal_trade(state, rng) if roll < 0.15 else None)
        if trade is not None:
            return trade
        card = state.deck[state.drawn] if state.deck else \
            rng.choice([c for c in range(64) if state.where[c] == PILE])
        return Event.make("draw", state.player, card=self.card_name(state, card))

    def _random_equal_trade(self, state: State, rng: random.Random) -> Event | None:
        options = _equal_trade_sums(state)
        if not options:
            return None
        house, total = rng.choice(sorted(options))
        give = _random_subset(tradeable_under(state, state.own), total, None, rng)
        take = _random_subset(tradeable_under(state, house), total, state.own, rng)
        assert give is not None and take is not None
        return self._trade_event(state, house, give, take)

    def _random_unequal_trade(self, state: State, rng: random.Random) -> Event | None:
        """An option-2 trade that the partner accepts (R-3), as happens at real tables."""
        give_pool = tradeable_under(state, state.own)
        partners = [h for h in state.seats if h != state.own]
        rng.shuffle(partners)
        for house in partners:
            own_there = [c for c in tradeable_under(state, house) if card_house(c) == state.own]
            if give_pool and own_there:
                give = rng.sample(give_pool, rng.randint(1, min(2, len(give_pool))))
                take = [rng.choice(own_there)]
                equal = sum(map(card_value, give)) == sum(map(card_value, take))
                return self._trade_event(state, house, give, take, agreed=not equal)
        return None

    # ---- answers -------------------------------------------------------------------------
    def to_act(self, state: State) -> ToAct:
        if state.finished:
            return ToAct((), "the game is over")
        if state.pending is not None:
            card = self.card_name(state, state.pending)
            return ToAct((state.player,), f"place or trade the drawn {card}")
        if state.drawn >= 64:
            return ToAct((state.player,), "trade, or pass if no trade is possible")
        return ToAct((state.player,), "draw or trade")

    def finished(self, state: State) -> bool:
        return state.finished

    def describe(self, before: State, event: Event, after: State) -> list[str]:
        who = f"{event.by}: " if event.by else ""
        lines = [who + self.format(before, event)]
        if event.type == "draw" and after.pending is None and not after.ended:
            card = self._card(before, event["card"])
            lines.append(f"{event['card']} is {before.houses[before.own]}'s own card: it goes "
                         f"under {before.houses[before.own]} {PROFESSIONS[card_profession(card)]}"
                         " and is locked there")
        for house in range(4):
            for prof in range(4):
                old, new = before.net(house, prof), after.net(house, prof)
                if old != new:
                    lines.append(f"{before.houses[house]} {PROFESSIONS[prof]}: {old} -> {new}")
        if after.winner is not None:
            lines.append(f"{after.names[after.winner]} ({after.houses[after.seats[after.winner]]}) "
                         "reaches 10 and has the King's ear: game over")
        elif after.ended:
            lines.append(f"Game over: {after.ended}")
        return lines

    def score(self, state: State) -> Scoresheet:
        from referee.scoresheet import Row, Scoresheet  # only scoring needs it: keep `play` fast

        ranked = _ranking(state)
        rows = []
        for house in _row_order(state):
            nets = state.nets(house)
            name = state.owner(house)
            place = ranked.get(name) if name else None
            rows.append(Row(
                name=name, seat=state.houses[house],
                categories=tuple(zip(PROFESSIONS, nets)),
                total=max(nets), place=place,
                details=(("Ladder", " ".join(f"{p[0]}{max(0, n)}"
                                             for p, n in zip(PROFESSIONS, nets))),),
                result=_result(state, name, place, ranked),
            ))
        winners = tuple(n for n, p in ranked.items() if p == 1) if state.finished else ()
        if state.winner is not None:
            winners = (state.names[state.winner],)
        return Scoresheet(
            game=self.id, title="The King's Ear", finished=state.finished,
            outcome=_outcome(state), winners=winners, rows=tuple(rows), seat_label="House",
            total_label="Best net",
            tiebreaks=("a House at 10 wins outright", "highest best net (R-8)",
                       "highest sum of the four nets (R-8)", "shared place"),
            notes=("Net = own cards minus other Houses' cards in a section; the ladder shows "
                   "max(0, net) (R-4).",),
        )

    def blank_scoresheet(self, options: Mapping[str, Any] | None = None) -> Scoresheet:
        from referee.scoresheet import Row, Scoresheet

        houses = self.check_options(options or {})["houses"]
        rows = tuple(Row(None, h, tuple((p, None) for p in PROFESSIONS), None,
                         details=(("Ladder", ""),)) for h in houses)
        return Scoresheet(game=self.id, title="The King's Ear - scoresheet", finished=False,
                          outcome="", winners=(), rows=rows, seat_label="House",
                          total_label="Best net",
                          tiebreaks=("a House at 10 wins outright", "highest best net (R-8)",
                                     "highest sum of the four nets (R-8)", "shared place"),
                          notes=("Net = own cards minus other Houses' cards in a section; the "
                                 "ladder shows max(0, net) (R-4).",), blank=True)

    def render(self, state: State) -> str:
        lines = []
        for house in _row_order(state):
            owner = state.owner(house)
            head = f"{state.houses[house]}" + (f" ({owner})" if owner else " (unclaimed)")
            lines.append(head)
            for prof in range(4):
                cards = sorted(c for c in state.under(house) if card_profession(c) == prof)
                shown = " ".join(short_name(state.houses, c) + ("*" if locked(state, c) else "")
                                 for c in cards) or "-"
                lines.append(f"  {PROFESSIONS[prof]:<9} net {state.net(house, prof):>3}   {shown}")
        lines.append("")
        lines.append(f"Pile: {state.pile_size} card(s)"
                     + ("  (virtual pile, --shuffle)" if state.deck else ""))
        if state.pending is not None:
            lines.append(f"Drawn, waiting: {self.card_name(state, state.pending)}")
        lines.append("* = locked (under its own House)")
        turn = self.to_act(state)
        lines.append("Game over: " + _outcome(state) if state.finished else
                     f"To act: {state.player} - {turn.phase}")
        return "\n".join(lines)

    def rules(self) -> str:
        return RULES_TEXT

    def inventory(self, state: State) -> dict[str, int]:
        counts = {"pile": 0, "drawn, waiting": 0, **{f"under {h}": 0 for h in state.houses}}
        for h in state.where:
            key = ("pile" if h == PILE else "drawn, waiting" if h == PENDING
                   else f"under {state.houses[h]}")
            counts[key] += 1
        return counts


# --------------------------------------------------------------------------------------------
# Helpers


def _sum(state: State, names: Iterable[str]) -> int:
    ids = card_ids(state.houses)
    return sum(card_value(ids[n]) for n in names)


def _move(state: State, moves: Mapping[int, int], pending: int | None) -> State:
    where = list(state.where)
    for card, house in moves.items():
        where[card] = house
    return replace(state, where=tuple(where), pending=pending, passes=0)


def _next_turn(state: State) -> State:
    return replace(state, turn=(state.turn + 1) % len(state.names))


def _subset_sums(cards: list[int], need_house: int | None) -> set[int]:
    """Every total a non-empty subset of `cards` can make (with `need_house`: subsets holding at
    least one card of that House). A subset-sum sweep: cheap however many cards there are."""
    any_sums: set[int] = set()  # totals of non-empty subsets
    own_sums: set[int] = set()  # ... that contain a card of need_house
    for card in cards:
        value = card_value(card)
        new_any = {t + value for t in any_sums} | {value}
        if need_house is not None and card_house(card) == need_house:
            own_sums |= new_any
        else:
            own_sums |= {t + value for t in own_sums}
        any_sums |= new_any
    return any_sums if need_house is None else own_sums


def _equal_trade_sums(state: State) -> set[tuple[int, int]]:
    """(partner House, total) pairs for which an equal option-2 trade exists."""
    gives = _subset_sums(tradeable_under(state, state.own), None)
    if not gives:
        return set()
    return {(house, total) for house in range(4) if house != state.own
            for total in gives & _subset_sums(tradeable_under(state, house), state.own)}


def _random_subset(cards: list[int], total: int, need_house: int | None,
                   rng: random.Random) -> list[int] | None:
    """A random subset of `cards` adding up to `total` (holding a card of `need_house` if set)."""
    cards = list(cards)
    rng.shuffle(cards)
    if need_house is not None:
        anchors = [c for c in cards if card_house(c) == need_house]
        for anchor in anchors:
            rest = [c for c in cards if c != anchor]
            remainder = total - card_value(anchor)
            if remainder == 0:
                return [anchor]
            if remainder > 0 and remainder in _subset_sums(rest, None):
                return [anchor, *_random_subset(rest, remainder, None, rng)]  # type: ignore[misc]
        return None
    chosen: list[int] = []
    for index, card in enumerate(cards):
        value = card_value(card)
        rest = cards[index + 1:]
        if value == total:
            return chosen + [card]
        if value < total and (total - value) in _subset_sums(rest, None) and rng.random() < 0.5:
            chosen.append(card)
            total -= value
        elif total not in _subset_sums(rest, None):
            chosen.append(card)  # the rest alone cannot make the total: this card must go in
            total -= value
    return chosen if total == 0 else None


def _subsets_by_sum(cards: list[int], need_house: int | None) -> dict[int, list[tuple[int, ...]]]:
    """Non-empty subsets of `cards` by total value; with `need_house`, only those that contain
    at least one card of that House (the 'at least one of your own House' rule)."""
    out: dict[int, list[tuple[int, ...]]] = {}
    for size in range(1, len(cards) + 1):
        for combo in itertools.combinations(sorted(cards), size):
            if need_house is not None and not any(card_house(c) == need_house for c in combo):
                continue
            out.setdefault(sum(card_value(c) for c in combo), []).append(combo)
    return out


def _subsets_with_sum(cards: list[int], total: int, need_house: int) -> list[tuple[int, ...]]:
    # Values are 1..4 and the total at most 4, so at most four cards take part.
    small = [c for c in sorted(cards) if card_value(c) <= total]
    out = []
    for size in range(1, min(total, len(small)) + 1):
        for combo in itertools.combinations(small, size):
            if sum(card_value(c) for c in combo) == total and \
                    any(card_house(c) == need_house for c in combo):
                out.append(combo)
    return out


def _row_order(state: State) -> list[int]:
    seated = list(state.seats)
    return seated + [h for h in range(4) if h not in seated]


def _ranking(state: State) -> dict[str, int]:
    """Places of the seated players: the winner first, then R-8 (best net, sum of nets)."""
    keys = {}
    for name, house in zip(state.names, state.seats):
        nets = state.nets(house)
        won = state.winner is not None and state.names[state.winner] == name
        keys[name] = (won, max(nets), sum(nets))
    from referee.scoresheet import places

    return places(keys)


def _result(state: State, name: str | None, place: int | None, ranked: dict[str, int]) -> str:
    from referee.scoresheet import ordinal

    if name is None or place is None:
        return "unclaimed"
    shared = list(ranked.values()).count(place) > 1
    if not state.finished:
        return ("shared " if shared else "") + ordinal(place) + " so far"
    if state.winner is not None and state.names[state.winner] == name:
        return "winner"
    if place == 1 and not shared:
        return "1st"
    return ("shared " if shared else "") + ordinal(place)


def _outcome(state: State) -> str:
    if state.winner is not None:
        name = state.names[state.winner]
        house = state.houses[state.seats[state.winner]]
        return f"{name} ({house}) reached 10 and won the King's ear"
    if state.ended:
        return f"Game over, {state.ended}; ranked by R-8"
    return f"In progress: {state.pile_size} card(s) in the pile, {state.player} to act"


RULES_TEXT = """\
THE KING'S EAR (Jon Linney, 2005) - as refereed by `referee`

Components: 4 Houses, each with a board edge of four profession sections (Religion, Army, Trade,
Farming). 64 cards: every House x profession x value 1-4 once. Cards are never held in hand: they
are in the face-down pile, or under a House at the card's own profession.

A turn is exactly one of:
 (1) draw the top card of the pile (you report the card: it is a reveal), then
     (a) a card of your own House goes under your House at its profession - nothing to choose;
     (b) a card of another House: either `place` it under a House that is neither the card's House
         nor yours, or `trade` it at once with one other House H: the drawn card goes under H and
         you take from H's board cards adding up to exactly its value, at least one of your own
         House. H cannot refuse.
 (2) trade with another House H: give one or more cards of other Houses lying under your House,
     take one or more cards from H's board, at least one of your own House. Equal totals: H cannot
     refuse. Unequal totals: only with H's agreement (R-3).
Locked cards: a card under its own House never moves again. Every other card is tradeable.
Scoring: net of a section = own cards - other Houses' cards (e.g. Horse Army with Horse 4, Horse 3
and Pig 4: net 3). After each action: if the acting House has a section at 10 it wins (this also
settles a simultaneous 10); otherwise another seated House at 10 wins.

Table rulings (defaults; an option can be changed with `referee new --option K=V`):
 R-1 option houses = Horse, Pig, Stag, Boar: the House labels; distinct names with distinct first
     letters (the short card form relies on it).
 R-2 2-4 players; unclaimed Houses stay on the table as passive boards: they receive cards but
     never win. All 64 cards stay in the pile.
 R-3 An unequal trade needs H to be a seated player; the log records the agreement (`agreed`).
 R-4 A net may be negative; the ladder shows max(0, net). Reaching 10 means net = 10 exactly
     (all four own cards and no foreign card).
 R-5 When the pile is empty, drawing is no longer possible; trades continue.
 R-6 A player with no legal action records `pass` (legal only then). Unequal trades need consent,
     so only equal trades count as "a legal action" here. If the pile is empty and every seated
     player passes in one full round, the game ends with no winner. (Every trade locks at least one
     card for good, so a game always ends.)
 R-7 The table may stop a game at any time: `end REASON`.
 R-8 Ranking without a winner: highest best-section net, then highest sum of the four nets, then
     a shared place.

Notation (case-insensitive; unique prefixes accepted):
  draw CARD                               e.g. draw Pig Army 3, draw PA3, draw pig a 3
  draw                                    in a --shuffle game (the tool knows its pile)
  place HOUSE                             e.g. place Stag
  trade HOUSE take CARDS                  after a draw: trade the drawn card
  trade HOUSE give CARDS take CARDS       option (2)
  ... agreed                              an unequal trade that HOUSE's player accepted (R-3)
  pass                                    only with no legal action (R-6)
  end REASON                              the table stops the game (R-7)
CARD is 'House Profession Value' or the short form HPV (PA3 = Pig Army 3); CARDS are separated by
commas or 'and'. Canonical output uses the full card names.

Log events (see referee-kings-ear(6)): draw{card}, place{house}, trade{house, give?, take,
agreed?}, pass{}, end{reason} (a table event).
"""

GAME = KingsEar()
