"""The Dwarf King's events, each declared once: its fields, when it may come, its notation, its
effect and the moves it offers. Events of one hand, in order:

  special   the dealer reveals the hand's special card             `special Dragon`
  hand      optional: a player enters their hand (full knowledge)  `hand K2 K7 DQ ...`
  quest     the holder of the 5 of Knights draws a tile, picks a side `quest 4a`
  swap      the Goblins' Flag Bearer takes 2 cards, gives 2         `swap Bob`
  give      (a hand the tool dealt) the 2 cards he gives back       `give K3 G7`
  leader    the holder of the 5 of Goblins shows it                `leader`
  play      a card played to the trick                             `K7`
  trade     the Druid's player swaps hands with another player     `trade Bob`
  pass      the Standard Bearer's player passes every hand         `pass left`
  sorcerer  the Sorcerer, between tricks, takes a card back        `Sorcerer KA`
"""

from __future__ import annotations

import itertools
from typing import Iterator

from referee.engine import Args, End, Event, Events, EventType
from referee.errors import IllegalMove, NotationError
from referee.evolve import evolve
from referee.games.dwarf_king import rules, texts
from referee.games.dwarf_king.components import (
    CARDS,
    LEADER_CARD,
    QUEST_CARD,
    TILE_NUMBERS,
    hand_size,
    sort_cards,
)
from referee.games.dwarf_king.notation import (
    card_list,
    named,
    parse_quest,
    player_named,
    read_card,
    read_cards,
    split_keywords,
)
from referee.games.dwarf_king.rules import (
    GIVE,
    LEADER,
    PASS,
    PLAY,
    QUEST,
    SPECIAL,
    SWAP,
    TRADE,
    seeded_special,
    seeded_taken,
    seeded_tile,
)
from referee.games.dwarf_king.state import Slot, State
from referee.notation import expect_end, match

DIRECTIONS = {"left": 1, "right": -1}  # left = the next player clockwise


class Special(EventType[State]):
    name = "special"
    doc = "the dealer reveals the hand's special card"
    fields = {"card": "str", "dealer": "str"}
    field_docs = {"card": "the special card, canonical name",
                  "dealer": "written by referee: the dealer the rules give"}
    optional = frozenset({"dealer"})
    actor = "table"
    reveal = True
    phases = frozenset({SPECIAL})
    forms = (("special CARD", "the dealer reveals the special card (table; `special` alone "
                              "with --seed)"),)

    def parse(self, state: State, args: Args) -> Event:
        if args.words:
            cards = read_cards(args.words, None, args.text)
            if len(cards) > 1:
                raise NotationError(f"{args.text!r}: name one special card, the one the dealer "
                                    f"reveals (this names {len(cards)}: {', '.join(cards)})",
                                    code="one-special")
            card = cards[0]
        elif state.seed is not None:
            card = seeded_special(state)
        else:
            raise NotationError(f"{args.text!r}: name the special card revealed, e.g. "
                                "`special Dragon`", code="no-card")
        return self.make(None, card=card, dealer=state.names[state.deal.dealer])

    def format(self, state: State, event: Event) -> str:
        return f"special {event['card']}"

    def apply(self, state: State, event: Event) -> State:
        card = rules.known_card(event["card"])
        deal = state.deal
        dealer = state.names[deal.dealer]
        if event.get("dealer") not in (None, dealer):
            raise IllegalMove(f"the dealer of hand {deal.number} is {dealer}, not "
                              f"{event.get('dealer')} (the winner of the 5 of Dwarves deals)",
                              code="wrong-dealer", rule="Dealing")
        if CARDS[card].special is None:
            raise IllegalMove(f"{card} is not a special card", code="not-special", rule="Dealing")
        if card not in rules.available_specials(state):
            raise IllegalMove(f"{card} was the special card of an earlier hand; special cards "
                              "are never used twice", code="special-used", rule="Dealing")
        if state.seed is not None and card != seeded_special(state):
            raise IllegalMove("the tool's shuffled specials give another card "
                              f"than {card}: type `special` alone and the tool turns it up",
                              code="seed-mismatch", rule="Dealing")
        size = hand_size(state.players)
        slots = tuple(Slot(size) for _ in state.names)
        if state.seed is not None:
            slots = tuple(Slot.of(h) for h in rules.seeded_deal(state, card))
        return evolve(state, deal=evolve(deal, special=card, slots=slots))

    def moves(self, state: State) -> Iterator[Event]:
        cards = [seeded_special(state)] if state.seed is not None \
            else rules.available_specials(state)
        for card in cards:
            yield self.make(None, card=card, dealer=state.names[state.deal.dealer])


class Hand(EventType[State]):
    name = "hand"
    doc = "optional, before the quest: a player enters their whole hand"
    fields = {"cards": "str[]"}
    field_docs = {"cards": "the whole hand, canonical card names"}
    actor = "any"
    reveal = True
    phases = frozenset({QUEST})
    forms = (("hand CARD CARD ...", "optional, before the quest: enter your hand for full "
                                    "checking (--as NAME)"),)

    def parse(self, state: State, args: Args) -> Event:
        return self.make(args.by, cards=sort_cards(card_list(state, args.words, args.text)))

    def format(self, state: State, event: Event) -> str:
        return "hand " + " ".join(sort_cards(event["cards"]))

    def apply(self, state: State, event: Event) -> State:
        seat = rules.seat_of(state, event)
        deal = state.deal
        if state.seed is not None:
            raise IllegalMove("the tool dealt the hands (seed); there is nothing to enter",
                              code="hands-dealt", rule="Dealing")
        cards = [rules.known_card(c) for c in event["cards"]]
        slot = deal.slots[seat]
        if slot.complete:  # entered before, or deduced: the same cards again are welcome
            if set(cards) == slot.known:
                return state
            raise IllegalMove(f"{event.by}'s hand is already known (entered or deduced), and "
                              "these cards differ", code="hand-known", rule="Dealing")
        size = hand_size(state.players)
        if len(cards) != size or len(set(cards)) != size:
            raise IllegalMove(f"a hand has {size} different cards with {state.players} players, "
                              f"not {len(set(cards))}", code="wrong-hand-size", rule="Dealing")
        in_deal = deal.deck(state.players)
        for card in cards:
            if card not in in_deal:
                raise IllegalMove(f"{card} is not in this hand's deal", code="card-not-dealt",
                                  rule="Dealing")
            holder = deal.holder(card)
            if holder is not None and holder != seat:
                raise IllegalMove(f"{card} is in {rules.where_is(state, card, holder)}",
                                  code="card-held-elsewhere", rule="Cards")
        deal = deal.with_slot(seat, Slot.of(cards, seen=True))  # typed at the table
        return evolve(state, deal=rules.deduce_last_hand(deal, state.players))


class Quest(EventType[State]):
    name = "quest"
    doc = "the holder of the 5 of Knights draws a quest tile, picks a side"
    fields = {"tile": "int", "side": "str"}
    field_docs = {"tile": "the quest tile, 1 to 20",
                  "side": "a or b"}
    reveal = True
    phases = frozenset({QUEST})
    forms = (("quest 4a", "the holder of the 5 of Knights: tile 4, side a (a side's name works "
                          "too)"),)

    def parse(self, state: State, args: Args) -> Event:
        rest, player = list(args.words), args.by
        if len(rest) > 1 and rest[-1].casefold() in {n.casefold() for n in state.names}:
            player = named(state, rest[-1:], player, args.text)  # `quest 4a Bruno`
            rest = rest[:-1]
        drawn = rules.drawn_tile(state)  # `quest` or `quest 7`: a side of the drawn tile is meant
        if drawn is not None and (not rest or (len(rest) == 1 and rest[0].isdigit())):
            raise NotationError(f"{args.text!r}: which side of quest tile {drawn}? `quest a` or "
                                "`quest b`", code="no-side", suggestions=("quest a", "quest b"))
        tile, side = parse_quest(state, rest, args.text)
        if tile is None:
            if state.seed is None:
                raise NotationError(f"{args.text!r}: which tile? e.g. `quest 4a`", code="no-tile")
            tile = seeded_tile(state)
        return self.make(player, tile=tile, side=side)

    def format(self, state: State, event: Event) -> str:
        return f"quest {event['tile']}{event['side']}"

    def apply(self, state: State, event: Event) -> State:
        seat = rules.seat_of(state, event)
        tile, side = event["tile"], event["side"]
        if tile not in TILE_NUMBERS or side not in ("a", "b"):
            raise IllegalMove(f"there is no quest {tile}{side}: tiles are 1-20, sides a and b",
                              code="unknown-quest", rule="Quests")
        if tile not in rules.available_tiles(state):
            raise IllegalMove(f"quest tile {tile} was used in an earlier hand; tiles are never "
                              "used twice", code="quest-used", rule="Quests")
        if state.seed is not None and tile != seeded_tile(state):
            raise IllegalMove(f"the tool drew quest tile {seeded_tile(state)}, not {tile}: type "
                              "`quest a` or `quest b` to choose its side",
                              code="seed-mismatch", rule="Quests")
        deal = rules.shows(state, seat, QUEST_CARD, "draws the quest tile")
        return evolve(state, deal=evolve(deal, quest=(tile, side)))

    def moves(self, state: State) -> Iterator[Event]:
        tiles_left = [seeded_tile(state)] if state.seed is not None else \
            rules.available_tiles(state)
        for name, tile, side in itertools.product(rules.to_act(state).players, tiles_left, "ab"):
            yield self.make(name, tile=tile, side=side)


class Swap(EventType[State]):
    name = "swap"
    doc = "the Goblins' Flag Bearer: take 2 random cards from target, give 2"
    fields = {"target": "str", "taken": "str[]", "given": "str[]"}
    field_docs = {"target": "the player the 2 cards are taken from",
                  "taken": "the 2 cards taken, when known (in a --seed game, those the tool "
                           "took; the give event then records the 2 given back)",
                  "given": "the 2 cards given back, when typed with the swap (logs of a "
                           "--seed game written before give was a move of its own hold them "
                           "here too)"}
    optional = frozenset({"taken", "given"})
    reveal = True
    phases = frozenset({SWAP})
    forms = (("swap NAME [take C C give C C]", "the Goblins' Flag Bearer, right after the "
                                               "quest"),)

    def parse(self, state: State, args: Args) -> Event:
        groups = split_keywords(args.words, ("take", "give"))
        target = player_named(state, groups.get("", []), args.text)
        if state.seed is not None:
            return self._seeded(state, args, target, groups)
        taken = card_list(state, groups["take"], args.text) if "take" in groups else None
        given = card_list(state, groups["give"], args.text) if "give" in groups else None
        return self.make(args.by, target=target,
                         taken=sort_cards(taken) if taken is not None else None,
                         given=sort_cards(given) if given is not None else None)

    def _seeded(self, state: State, args: Args, target: str, groups: dict[str, list[str]]) \
            -> Event:
        """In a hand the tool dealt, the tool takes the 2 cards (shown to the Flag Bearer
        alone) and he gives 2 back after seeing them, with `give`: cards typed here, whatever
        they are, are refused in the same words, so that no refusal tells a hand (R-21)."""
        if "take" in groups or "give" in groups:
            raise IllegalMove(f"the tool takes the 2 cards from {target}: type `swap {target}`; "
                              "the Flag Bearer reads them alone, then gives 2 back with "
                              "`give CARD CARD`", code="swap-cards", rule="Flag Bearer (Goblins)")
        # the take is drawn only where a swap is due: elsewhere the core's gate refuses the
        # move (not the Flag Bearer's moment), and before a deal there is no hand to take from
        due = args.by is not None and rules.phase(state) == SWAP
        taken = list(seeded_taken(state, state.seat(target))) if due else None
        return self.make(args.by, target=target, taken=taken)

    def format(self, state: State, event: Event) -> str:
        if event.get("taken") is not None and event.get("given") is None:
            return f"swap {event['target']}"  # the tool took them: `play` fills them in again
        cards = (f" take {' '.join(event['taken'])} give {' '.join(event['given'])}"
                 if event.get("taken") is not None else "")
        return f"swap {event['target']}{cards}"

    def shown(self, event: Event) -> str:
        """In a hand the tool dealt, the swap shows the Flag Bearer to everyone and the 2 cards
        the tool took to the Flag Bearer alone; typed with its cards, all of it to the table."""
        if event.get("taken") is not None and event.get("given") is None:
            return ("showed the Flag Bearer to everyone and the 2 cards taken to the Flag "
                    "Bearer alone")
        return super().shown(event)

    def apply(self, state: State, event: Event) -> State:
        seat = rules.seat_of(state, event)
        target = rules.target_of(state, event)
        deal = rules.shows(state, seat, "FlagBearerG", "swaps cards with the Goblins' Flag Bearer")
        state = evolve(state, deal=deal)
        taken, given = event.get("taken"), event.get("given")
        if taken is not None and state.seed is not None:
            # the take; the give is the next move (`give`), or, in a log written before they
            # were two moves, in this event: checked as the give is, in the same words
            state = rules.goblin_take(state, seat, target,
                                      rules.check_taken(state, target, tuple(taken)))
            if given is None:
                return state
            return rules.goblin_give(state, seat, rules.check_given(state, seat, tuple(given)))
        if (taken is None) != (given is None):
            raise IllegalMove("record both the 2 cards taken and the 2 given, or neither",
                              code="swap-cards", rule="Flag Bearer (Goblins)")
        if taken is not None:
            taken, given = rules.check_swap_cards(state, seat, target, tuple(taken), tuple(given))
        elif state.seed is not None:
            raise IllegalMove("the tool knows the hands: it takes the 2 cards itself "
                              f"(`swap {state.names[target]}`)", code="swap-cards",
                              rule="Flag Bearer (Goblins)")
        return rules.goblin_swap(state, seat, target, taken, given)

    def moves(self, state: State) -> Iterator[Event]:
        for name in rules.to_act(state).players:
            seat = state.seat(name)
            for target, other in enumerate(state.names):
                if target == seat:
                    continue
                if state.seed is None or not state.deal.slots[target].complete:
                    yield self.make(name, target=other)  # (the table's view of a tool deal)
                    continue
                yield self.make(name, target=other, taken=list(seeded_taken(state, target)))


class Give(EventType[State]):
    name = "give"
    doc = "the Goblins' Flag Bearer gives 2 cards back (a hand the tool dealt)"
    fields = {"cards": "str[]"}
    field_docs = {"cards": "the 2 cards given back, never shown to the table"}
    reveal = True
    private_text = True
    phases = frozenset({GIVE})
    forms = (("give [C C]", "in a --seed game, after `swap NAME`: the 2 cards the Flag Bearer "
                            "gives back, chosen after reading the 2 taken (`status --for "
                            "NAME`); `give` alone asks for them unseen"),)

    def parse(self, state: State, args: Args) -> Event:
        try:
            cards = card_list(state, args.words, args.text)
        except NotationError:  # never repeats the words: they may have been typed unseen
            raise NotationError("`give` takes the 2 cards given back, e.g. `give K3 G7` (or "
                                "`give` alone: they are asked unseen)", code="no-card") from None
        return self.make(args.by, cards=sort_cards(cards))

    def format(self, state: State, event: Event) -> str:
        return f"give {' '.join(event['cards'])}"

    def shown(self, event: Event) -> str:
        """A give shows the table nothing: its 2 cards go face down to the player they were
        taken from, who has seen them (taken back, that player still knows them: --force)."""
        return ("handed 2 cards face down to the player they were taken from, who has seen them "
                "(the table has not)")

    def apply(self, state: State, event: Event) -> State:
        seat = rules.seat_of(state, event)
        given = rules.check_given(state, seat, tuple(event["cards"]))
        return rules.goblin_give(state, seat, given)

    def moves(self, state: State) -> Iterator[Event]:
        """Every 2 cards of the Flag Bearer's hand, when it is known (his own view): the
        table's view offers none (`legal_note` says what to type)."""
        for name in rules.to_act(state).players:
            slot = state.deal.slots[state.seat(name)]
            if slot.complete:
                for given in itertools.combinations(sort_cards(slot.known), 2):
                    yield self.make(name, cards=list(given))


class Leader(EventType[State]):
    name = "leader"
    doc = "the holder of the 5 of Goblins shows it"
    reveal = True
    phases = frozenset({LEADER})
    forms = (("leader [NAME]", "the holder of the 5 of Goblins shows it; they lead the first "
                               "trick"),)

    def parse(self, state: State, args: Args) -> Event:
        player = named(state, args.words, args.by, args.text) if args.words else args.by
        return self.make(player)

    def format(self, state: State, event: Event) -> str:
        return "leader"

    def apply(self, state: State, event: Event) -> State:
        seat = rules.seat_of(state, event)
        deal = rules.shows(state, seat, LEADER_CARD, "leads the first trick")
        return evolve(state, deal=evolve(deal, leader=seat))

    def moves(self, state: State) -> Iterator[Event]:
        for name in rules.to_act(state).players:
            yield self.make(name)


class Play(EventType[State]):
    name = "play"
    doc = "a card played to the trick"
    fields = {"card": "str"}
    field_docs = {"card": "the card played, canonical name (K7, DQ, Dragon)"}
    reveal = True
    phases = frozenset({PLAY})
    forms = (("K7  (or play K7)", "a card played; the referee knows whose turn it is"),)

    def parse(self, state: State, args: Args) -> Event:
        rest, text = args.words, args.text
        if not rest:
            raise NotationError(f"{text!r}: which card?", code="no-card")
        in_play = state.deal.deck(state.players) or None
        card, after = read_card(rest, 0, in_play, text)
        if card == "Sorcerer" and after < len(rest):
            taken, after = read_card(rest, after, in_play, text)
            expect_end(rest[after:], text)
            return Event.make("sorcerer", args.by, card=taken)
        expect_end(rest[after:], text)
        return self.make(args.by, card=card)

    def format(self, state: State, event: Event) -> str:
        return str(event["card"])

    def apply(self, state: State, event: Event) -> State:
        seat, card = rules.seat_of(state, event), rules.known_card(event["card"])
        try:
            return rules.play_card(state, seat, card)
        except IllegalMove as refusal:
            refusal.suggestions = self.offered(state, card)
            raise

    def offered(self, state: State, refused: str) -> tuple[str, ...]:
        """The cards `options` offers the table now, as its lines read top down ('follow Knights
        if you can: ...' before 'or, if void in Knights: ...'), without their comments and
        without the card just refused: a refused card's closest legal moves."""
        view = rules.table_view(state)
        plays = [e for e in self.moves(view) if e["card"] != refused]
        lines = texts.option_lines(view, plays, [self.format(view, e) for e in plays])
        return tuple(line.split("  ")[0] for line in lines)

    def moves(self, state: State) -> Iterator[Event]:
        seat = state.seat(rules.to_act(state).players[0])
        deal = state.deal
        slot = deal.slots[seat]
        candidates = slot.known if slot.complete else deal.deck(state.players) - deal.gone
        for card in sort_cards(candidates):
            try:
                rules.check_play(state, seat, card)
            except IllegalMove:
                continue
            yield self.make(state.names[seat], card=card)


class Trade(EventType[State]):
    name = "trade"
    doc = "the Druid: swap whole hands with target"
    fields = {"target": "str"}
    field_docs = {"target": "the player whose hand is swapped with the Druid's player's"}
    phases = frozenset({TRADE})
    forms = (("trade NAME", "after the Druid's trick: its player swaps hands with NAME"),)

    def parse(self, state: State, args: Args) -> Event:
        return self.make(args.by, target=player_named(state, args.words, args.text))

    def format(self, state: State, event: Event) -> str:
        return f"trade {event['target']}"

    def apply(self, state: State, event: Event) -> State:
        return rules.trade_hands(state, rules.seat_of(state, event), rules.target_of(state, event))

    def moves(self, state: State) -> Iterator[Event]:
        (player,) = rules.to_act(state).players
        for name in state.names:
            if name != player:
                yield self.make(player, target=name)


class Pass(EventType[State]):
    name = "pass"
    doc = "the Standard Bearer: every hand passes left or right"
    fields = {"direction": "str"}
    field_docs = {"direction": "left (to the next player) or right"}
    phases = frozenset({PASS})
    forms = (("pass left|right", "after the Standard Bearer's trick: every hand passes that "
                                 "way"),)

    def parse(self, state: State, args: Args) -> Event:
        if len(args.words) != 1:
            raise NotationError(f"{args.text!r}: say `pass left` or `pass right`",
                                code="no-direction")
        return self.make(args.by, direction=match(args.words[0], DIRECTIONS, "direction",
                                                  text=args.text))

    def format(self, state: State, event: Event) -> str:
        return f"pass {event['direction']}"

    def apply(self, state: State, event: Event) -> State:
        direction = event["direction"]
        if direction not in DIRECTIONS:
            raise IllegalMove(f"hands pass left or right, not {direction!r}",
                              code="bad-direction", rule="Standard Bearer")
        return rules.pass_hands(state, DIRECTIONS[direction])

    def moves(self, state: State) -> Iterator[Event]:
        (player,) = rules.to_act(state).players
        for direction in DIRECTIONS:
            yield self.make(player, direction=direction)


class Sorcerer(EventType[State]):
    name = "sorcerer"
    doc = "the Sorcerer, between tricks: take card back from the previous trick"
    fields = {"card": "str"}
    field_docs = {"card": "the card taken back from the previous trick"}
    actor = "any"
    reveal = True
    phases = frozenset({PLAY})
    verbs = ()  # typed as the card itself: `Sorcerer K7` (see Play.parse)
    forms = (("Sorcerer K7", "between tricks: its holder takes K7 back from the previous "
                             "trick"),)

    def format(self, state: State, event: Event) -> str:
        return f"Sorcerer {event['card']}"

    def apply(self, state: State, event: Event) -> State:
        seat = rules.seat_of(state, event)
        deal = state.deal
        if deal.special != "Sorcerer":
            raise IllegalMove(f"the Sorcerer is not in this hand (the special card is "
                              f"{deal.special})", code="special-not-in-hand", rule="Set-up")
        if deal.plays or not deal.tricks:
            raise IllegalMove("the Sorcerer is played between two tricks, not before the first "
                              "trick nor during one", code="sorcerer-between-tricks",
                              rule="Sorcerer")
        card = rules.known_card(event["card"])
        previous = deal.tricks[-1]
        if card not in previous.cards:  # checked first: it tells nothing of anyone's hand
            raise IllegalMove(f"{card} is not in the previous trick ({' '.join(previous.cards)})",
                              code="not-in-previous-trick", rule="Sorcerer")
        rules.aloud(state, seat, "Sorcerer", rules.check_card_available)
        return rules.take_back(state, seat, card)

    def moves(self, state: State) -> Iterator[Event]:
        deal = state.deal
        if deal.special != "Sorcerer" or deal.plays or not deal.tricks or "Sorcerer" in deal.gone:
            return
        holder = deal.holder("Sorcerer")
        seats = [holder] if holder is not None else [s for s, slot in enumerate(deal.slots)
                                                     if not slot.complete]
        for seat in seats:
            for card in deal.tricks[-1].cards:
                yield self.make(state.names[seat], card=card)


EVENTS = Events(Special(), Hand(), Quest(), Swap(), Give(), Leader(), Play(), Trade(), Pass(),
                Sorcerer(), End())
