"""The Dwarf King on the referee core: events, notation, legality and answers.

Events of one hand, in order (see man/referee-dwarf-king.6):
  special   the dealer reveals the hand's special card             `special Dragon`
  hand      optional: a player enters their hand (full knowledge)  `hand K2 K7 DQ ...`
  quest     the holder of the 5 of Knights draws a tile, picks a side `quest 4a`
  swap      the Goblins' Flag Bearer takes 2 cards, gives 2         `swap Bob`
  leader    the holder of the 5 of Goblins shows it                `leader`
  play      a card played to the trick                             `K7`
  trade     the Druid's player swaps hands with another player     `trade Bob`
  pass      the Standard Bearer's player passes every hand         `pass left`
  sorcerer  the Sorcerer, between tricks, takes a card back        `Sorcerer KA`
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any, Iterator, Mapping

from referee.engine import Event, EventSpec, Game, Notice, OptionSpec, Player, ToAct
from referee.errors import IllegalMove, NotationError, UsageError
from referee.games.dwarf_king import texts
from referee.games.dwarf_king.cards import (CARDS, LEADER_CARD, QUEST_CARD, SPECIALS, deck,
                                            hand_size, parse_card, sort_cards)
from referee.games.dwarf_king.quests import EDITIONS, TILE_NUMBERS
from referee.games.dwarf_king.rules import (check_card_available, check_play, goblin_swap,
                                            pass_hands, phase, play_card, take_back,
                                            trade_hands)
from referee.games.dwarf_king.state import Deal, Slot, State
from referee.notation import expect_end, match, split_list, words

HANDS = 7
DIRECTIONS = {"left": 1, "right": -1}  # left = the next player clockwise
KEYWORDS = ("special", "hand", "quest", "swap", "leader", "play", "trade", "pass")
SEQUENCE = "Each hand"  # the rule named when an event comes at the wrong moment


class DwarfKing(Game):
    id = "dwarf-king"
    title = "The Dwarf King"
    min_players = 3
    max_players = 5
    options = (
        OptionSpec("edition", 2011, "int", "quest tiles of the 2011 edition or the 2022 reprint",
                   ruling="R-4"),
    )
    events = {
        "special": EventSpec({"card": "str", "dealer": "str"}, optional=frozenset({"dealer"}),
                             actor="table", reveal=True,
                             doc="the dealer reveals the hand's special card"),
        "hand": EventSpec({"cards": "str[]"}, actor="any", reveal=True,
                          doc="optional, before the quest: a player enters their whole hand"),
        "quest": EventSpec({"tile": "int", "side": "str"}, reveal=True,
                           doc="the holder of the 5 of Knights draws a quest tile, picks a side"),
        "swap": EventSpec({"target": "str", "taken": "str[]", "given": "str[]"},
                          optional=frozenset({"taken", "given"}), reveal=True,
                          doc="the Goblins' Flag Bearer: take 2 random cards from target, give 2"),
        "leader": EventSpec({}, reveal=True, doc="the holder of the 5 of Goblins shows it"),
        "play": EventSpec({"card": "str"}, reveal=True, doc="a card played to the trick"),
        "trade": EventSpec({"target": "str"}, doc="the Druid: swap whole hands with target"),
        "pass": EventSpec({"direction": "str"},
                          doc="the Standard Bearer: every hand passes left or right"),
        "sorcerer": EventSpec({"card": "str"}, actor="any", reveal=True,
                              doc="the Sorcerer, between tricks: take card back from the "
                                  "previous trick"),
    }
    notation_help = texts.NOTATION

    # ---- set-up --------------------------------------------------------------------------
    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        merged = super().check_options(options)
        if merged["edition"] not in EDITIONS:
            raise UsageError(f"edition must be 2011 or 2022, not {merged['edition']!r}")
        return merged

    def setup(self, players: tuple[Player, ...], options: Mapping[str, Any],
              seed: int | None = None) -> State:
        names = tuple(p.name for p in players)
        options = self.check_options(options)
        return State(names, options["edition"], seed, Deal(1, 0))

    # ---- notation ------------------------------------------------------------------------
    def parse(self, state: State, text: str, player: str | None) -> Event:
        parts = words(text)
        if not parts:
            raise NotationError("empty move; try `referee options`", code="empty")
        keyword = parts[0].casefold()
        if keyword in KEYWORDS:
            return getattr(self, f"_parse_{keyword}")(state, parts[1:], player, text)
        kind = texts.PHASE_EVENT.get(phase(state), "play")
        try:
            return getattr(self, f"_parse_{kind}")(state, parts, player, text)
        except NotationError:
            if kind == "play":
                raise
            try:  # a card typed at the wrong moment: let `apply` say what is awaited
                return self._parse_play(state, parts, player, text)
            except NotationError:
                pass
            raise

    def _parse_special(self, state, rest, player, text) -> Event:
        if rest:
            card = parse_card(" ".join(rest), None, text)
        elif state.seed is not None:
            card = seeded_special(state)
        else:
            raise NotationError(f"{text!r}: name the special card revealed, e.g. `special Dragon`",
                                code="no-card")
        return Event.make("special", None, card=card, dealer=state.names[state.deal.dealer])

    def _parse_hand(self, state, rest, player, text) -> Event:
        cards = _card_list(state, rest, text)
        return Event.make("hand", player, cards=sort_cards(cards))

    def _parse_quest(self, state, rest, player, text) -> Event:
        if len(rest) > 1 and rest[-1].casefold() in {n.casefold() for n in state.names}:
            player = _named(state, rest[-1:], player, text)  # `quest 4a Bruno`
            rest = rest[:-1]
        tile, side = texts.parse_quest(state, rest, text)
        if tile is None:
            if state.seed is None:
                raise NotationError(f"{text!r}: which tile? e.g. `quest 4a`", code="no-tile")
            tile = seeded_tile(state)
        return Event.make("quest", player, tile=tile, side=side)

    def _parse_swap(self, state, rest, player, text) -> Event:
        groups = _split_keywords(rest, ("take", "give"))
        target = _player(state, groups.get("", []), text)
        taken = _card_list(state, groups["take"], text) if "take" in groups else None
        given = _card_list(state, groups["give"], text) if "give" in groups else None
        if taken is None and given is not None and state.seed is not None and player is not None:
            taken = list(seeded_taken(state, state.seat(target)))
        return Event.make("swap", player, target=target,
                          taken=sort_cards(taken) if taken is not None else None,
                          given=sort_cards(given) if given is not None else None)

    def _parse_leader(self, state, rest, player, text) -> Event:
        if rest:
            player = _named(state, rest, player, text)
        return Event.make("leader", player)

    def _parse_play(self, state, rest, player, text) -> Event:
        if not rest:
            raise NotationError(f"{text!r}: which card?", code="no-card")
        card = parse_card(rest[0], state.deal.deck(state.players) or None, text)
        if card == "Sorcerer" and len(rest) > 1:
            taken = parse_card(rest[1], state.deal.deck(state.players) or None, text)
            expect_end(rest[2:], text)
            return Event.make("sorcerer", player, card=taken)
        expect_end(rest[1:], text)
        return Event.make("play", player, card=card)

    def _parse_trade(self, state, rest, player, text) -> Event:
        return Event.make("trade", player, target=_player(state, rest, text))

    def _parse_pass(self, state, rest, player, text) -> Event:
        if len(rest) != 1:
            raise NotationError(f"{text!r}: say `pass left` or `pass right`", code="no-direction")
        return Event.make("pass", player, direction=match(rest[0], DIRECTIONS, "direction",
                                                          text=text))

    def format(self, state: State, event: Event) -> str:
        t = event.type
        if t == "special":
            return f"special {event['card']}"
        if t == "hand":
            return "hand " + " ".join(sort_cards(event["cards"]))
        if t == "quest":
            return f"quest {event['tile']}{event['side']}"
        if t == "swap":
            cards = (f" take {' '.join(event['taken'])} give {' '.join(event['given'])}"
                     if event.get("taken") is not None else "")
            return f"swap {event['target']}{cards}"
        if t == "leader":
            return "leader"
        if t == "trade":
            return f"trade {event['target']}"
        if t == "pass":
            return f"pass {event['direction']}"
        if t == "sorcerer":
            return f"Sorcerer {event['card']}"
        return str(event["card"])

    # ---- rules ---------------------------------------------------------------------------
    def apply(self, state: State, event: Event) -> State:
        for key, value in event.fields:  # hand-edited logs may carry anything
            if key in ("card", "dealer", "target", "direction", "side") and not isinstance(value,
                                                                                          str):
                raise IllegalMove(f"{event.type}.{key} must be text", code="bad-field")
        return getattr(self, f"_apply_{event.type}")(state, event)

    def _apply_special(self, state: State, event: Event) -> State:
        _need_phase(state, "special", event)
        card = _known_card(event["card"])
        deal = state.deal
        dealer = state.names[deal.dealer]
        if event.get("dealer") not in (None, dealer):
            raise IllegalMove(f"the dealer of hand {deal.number} is {dealer}, not "
                              f"{event.get('dealer')} (the winner of the 5 of Dwarves deals)",
                              code="wrong-dealer", rule="Dealing")
        if CARDS[card].special is None:
            raise IllegalMove(f"{card} is not a special card", code="not-special", rule="Dealing")
        if card not in available_specials(state):
            raise IllegalMove(f"{card} was the special card of an earlier hand; special cards "
                              "are never used twice", code="special-used", rule="Dealing")
        if state.seed is not None and card != seeded_special(state):
            raise IllegalMove(f"the shuffled specials (seed {state.seed}) give "
                              f"{seeded_special(state)}, not {card}", code="seed-mismatch",
                              rule="Dealing")
        size = hand_size(state.players)
        slots = tuple(Slot(size) for _ in state.names)
        if state.seed is not None:
            slots = tuple(Slot(size, frozenset(h), True) for h in seeded_deal(state, card))
        return replace(state, deal=replace(deal, special=card, slots=slots))

    def _apply_hand(self, state: State, event: Event) -> State:
        seat = _by(state, event)
        deal = state.deal
        if phase(state) != "quest":
            raise IllegalMove("hands are entered at the deal, after the special card is revealed "
                              "and before the quest is chosen", code="wrong-phase", rule=SEQUENCE)
        if state.seed is not None:
            raise IllegalMove("the tool dealt the hands (seed); there is nothing to enter",
                              code="hands-dealt", rule="Dealing")
        cards = [_known_card(c) for c in event["cards"]]
        slot = deal.slots[seat]
        if slot.complete:  # entered before, or deduced: the same cards again are welcome
            if set(cards) == slot.known:
                return state
            raise IllegalMove(f"{event.by}'s hand is already known and differs: "
                              f"{' '.join(sort_cards(slot.known))}", code="hand-known",
                              rule="Dealing")
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
                raise IllegalMove(f"{card} is in {state.names[holder]}'s hand",
                                  code="card-held-elsewhere", rule="Cards")
        deal = deal.with_slot(seat, Slot(size, frozenset(cards), True))
        return replace(state, deal=_deduce_last_hand(deal, state.players))

    def _apply_quest(self, state: State, event: Event) -> State:
        _need_phase(state, "quest", event)
        seat = _by(state, event)
        tile, side = event["tile"], event["side"]
        if tile not in TILE_NUMBERS or side not in ("a", "b"):
            raise IllegalMove(f"there is no quest {tile}{side}: tiles are 1-20, sides a and b",
                              code="unknown-quest", rule="Quests")
        if tile not in available_tiles(state):
            raise IllegalMove(f"quest tile {tile} was used in an earlier hand; tiles are never "
                              "used twice", code="quest-used", rule="Quests")
        if state.seed is not None and tile != seeded_tile(state):
            raise IllegalMove(f"the shuffled quest tiles (seed {state.seed}) give tile "
                              f"{seeded_tile(state)}, not {tile}", code="seed-mismatch",
                              rule="Quests")
        deal = _shows(state, seat, QUEST_CARD, "draws the quest tile")
        return replace(state, deal=replace(deal, quest=(tile, side)))

    def _apply_swap(self, state: State, event: Event) -> State:
        _need_phase(state, "swap", event)
        seat = _by(state, event)
        target = _target(state, event)
        deal = _shows(state, seat, "FlagBearerG", "swaps cards with the Goblins' Flag Bearer")
        state = replace(state, deal=deal)
        taken, given = event.get("taken"), event.get("given")
        if (taken is None) != (given is None):
            raise IllegalMove("record both the 2 cards taken and the 2 given, or neither",
                              code="swap-cards", rule="Flag Bearer (Goblins)")
        if taken is not None:
            taken, given = _check_swap_cards(state, seat, target, tuple(taken), tuple(given))
        elif state.seed is not None:
            raise IllegalMove("the tool knows the hands: say which 2 cards you give back "
                              f"(`swap {state.names[target]} give CARD CARD`)", code="swap-cards",
                              rule="Flag Bearer (Goblins)")
        return goblin_swap(state, seat, target, taken, given)

    def _apply_leader(self, state: State, event: Event) -> State:
        _need_phase(state, "leader", event)
        seat = _by(state, event)
        deal = _shows(state, seat, LEADER_CARD, "leads the first trick")
        return replace(state, deal=replace(deal, leader=seat))

    def _apply_play(self, state: State, event: Event) -> State:
        _need_phase(state, "play", event)
        return play_card(state, _by(state, event), _known_card(event["card"]))

    def _apply_trade(self, state: State, event: Event) -> State:
        _need_phase(state, "trade", event)
        return trade_hands(state, _by(state, event), _target(state, event))

    def _apply_pass(self, state: State, event: Event) -> State:
        _need_phase(state, "pass", event)
        direction = event["direction"]
        if direction not in DIRECTIONS:
            raise IllegalMove(f"hands pass left or right, not {direction!r}", code="bad-direction",
                              rule="Standard Bearer")
        return pass_hands(state, DIRECTIONS[direction])

    def _apply_sorcerer(self, state: State, event: Event) -> State:
        seat = _by(state, event)
        deal = state.deal
        if deal.special != "Sorcerer":
            raise IllegalMove(f"the Sorcerer is not in this hand (the special card is "
                              f"{deal.special})", code="special-not-in-hand", rule="Set-up")
        if phase(state) != "play" or deal.plays or not deal.tricks:
            raise IllegalMove("the Sorcerer is played between two tricks, not before the first "
                              "trick nor during one", code="sorcerer-between-tricks",
                              rule="Sorcerer")
        check_card_available(state, seat, "Sorcerer")
        card = _known_card(event["card"])
        previous = deal.tricks[-1]
        if card not in previous.cards:
            raise IllegalMove(f"{card} is not in the previous trick ({' '.join(previous.cards)})",
                              code="not-in-previous-trick", rule="Sorcerer")
        return take_back(state, seat, card)

    # ---- who acts, what is legal ---------------------------------------------------------
    def to_act(self, state: State) -> ToAct:
        return texts.to_act(state)

    def finished(self, state: State) -> bool:
        return state.over

    def notices(self, state: State) -> tuple[Notice, ...]:
        return state.notices

    def legal(self, state: State, player: str | None = None) -> list[Event]:
        events = list(self._legal(state))
        if player is not None:  # table events are nobody's; the Sorcerer may be anyone's
            events = [e for e in events if e.by == player]
        return events

    def _legal(self, state: State) -> Iterator[Event]:
        if state.over:
            return
        step = phase(state)
        turn = self.to_act(state)
        if step == "special":
            cards = [seeded_special(state)] if state.seed is not None else available_specials(state)
            for card in cards:
                yield Event.make("special", None, card=card,
                                 dealer=state.names[state.deal.dealer])
        elif step == "quest":
            tiles_left = [seeded_tile(state)] if state.seed is not None else available_tiles(state)
            for name, tile, side in itertools.product(turn.players, tiles_left, "ab"):
                yield Event.make("quest", name, tile=tile, side=side)
        elif step == "swap":
            for name in turn.players:
                yield from _swaps(state, state.seat(name))
        elif step == "leader":
            for name in turn.players:
                yield Event.make("leader", name)
        elif step == "trade":
            for name in state.names:
                if name not in turn.players:
                    yield Event.make("trade", turn.players[0], target=name)
        elif step == "pass":
            for direction in DIRECTIONS:
                yield Event.make("pass", turn.players[0], direction=direction)
        else:
            yield from _plays(state, state.seat(turn.players[0]))
            yield from _sorcerer_moves(state)

    def legal_note(self, state: State, player: str | None = None) -> str:
        if phase(state) == "quest" and state.seed is None:
            return ("each player may first enter their hand for full checking: "
                    "`hand CARD CARD ...` (--as NAME)")
        return ""

    def option_lines(self, state: State, events: list[Event]) -> list[str]:
        return texts.option_lines(self, state, events)

    def random_event(self, state: State, rng: random.Random) -> Event | None:
        moves = self.legal(state)
        if not moves:
            return None
        sorcery = [m for m in moves if m.type == "sorcerer"]
        if sorcery and rng.random() < 0.3:
            return rng.choice(sorcery)
        others = [m for m in moves if m.type != "sorcerer"] or moves
        return rng.choice(others)

    # ---- answers -------------------------------------------------------------------------
    def describe(self, before: State, event: Event, after: State) -> list[str]:
        return texts.describe(self, before, event, after)

    def score(self, state: State):
        return texts.scoresheet(self, state)

    def blank_scoresheet(self, options: Mapping[str, Any] | None = None):
        return texts.blank_scoresheet(self, self.check_options(options or {}))

    def render(self, state: State) -> str:
        return texts.render(self, state)

    def rules(self) -> str:
        return texts.rules_text()

    def inventory(self, state: State) -> dict[str, int]:
        return texts.inventory(state)


# --------------------------------------------------------------------------------------------
# Phases and small checks


def _need_phase(state: State, wanted: str, event: Event) -> None:
    now = phase(state)
    if now != wanted:
        raise IllegalMove(f"`{event.type}` is not possible now: {texts.to_act(state).phase}",
                          code="wrong-phase", rule=SEQUENCE)


def _by(state: State, event: Event) -> int:
    if event.by not in state.names:
        raise IllegalMove(f"{event.type} needs the player who made it", code="no-player")
    return state.seat(event.by)


def _target(state: State, event: Event) -> int:
    target = event["target"]
    if target not in state.names:
        raise IllegalMove(f"{target!r} is not playing this game", code="unknown-player")
    if target == event.by:
        raise IllegalMove(f"{event.by} must choose another player", code="self-target",
                          rule=texts.SPECIAL_RULE[event.type])
    return state.seat(target)


def _known_card(code: Any) -> str:
    if code not in CARDS:
        raise IllegalMove(f"{code!r} is not a card of The Dwarf King", code="unknown-card")
    return code


def _shows(state: State, seat: int, card: str, what: str) -> Deal:
    """`seat` shows `card` (the 5 of Knights, the 5 of Goblins, the Flag Bearer): check it can be
    theirs and remember where it is."""
    deal = state.deal
    holder = deal.holder(card)
    slot = deal.slots[seat]
    if holder not in (None, seat) or (slot.complete and card not in slot.known):
        raise IllegalMove(f"{state.names[seat]} cannot be the one who {what}: they do not hold "
                          f"{card}", code="not-the-holder", rule="Dealing")
    return deal.with_slot(seat, deal.slots[seat].knowing(card))


def _deduce_last_hand(deal: Deal, players: int) -> Deal:
    """When every hand but one is known, the last one is what remains."""
    open_slots = [s for s, slot in enumerate(deal.slots) if not slot.complete]
    if len(open_slots) != 1:
        return deal
    rest = deal.deck(players) - {c for slot in deal.slots for c in slot.known}
    seat = open_slots[0]
    return deal.with_slot(seat, Slot(deal.slots[seat].size, frozenset(rest), True))


def _check_swap_cards(state: State, seat: int, target: int, taken: tuple[str, ...],
                      given: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    deal, rule = state.deal, "Flag Bearer (Goblins)"
    for group, what in ((taken, "taken"), (given, "given")):
        if len(set(group)) != 2:
            raise IllegalMove(f"the Flag Bearer swap moves exactly 2 different cards {what}",
                              code="swap-cards", rule=rule)
        for card in group:
            _known_card(card)
    for card in taken:
        holder = deal.holder(card)
        theirs = deal.slots[target]
        if card not in deal.deck(state.players) or (holder is not None and holder != target) \
                or (theirs.complete and card not in theirs.known):
            raise IllegalMove(f"{card} cannot be taken from {state.names[target]}'s hand",
                              code="swap-cards", rule=rule)
    if state.seed is not None and tuple(sort_cards(taken)) != seeded_taken(state, target):
        raise IllegalMove(f"the random cards taken (seed {state.seed}) are "
                          f"{' '.join(seeded_taken(state, target))}", code="seed-mismatch",
                          rule=rule)
    mine = deal.slots[seat]
    for card in given:
        holder = deal.holder(card)
        ok = card in taken or (card in deal.deck(state.players) and holder in (None, seat)
                               and (not mine.complete or card in mine.known))
        if not ok:
            raise IllegalMove(f"{state.names[seat]} cannot give {card}: it is not in their hand",
                              code="swap-cards", rule=rule)
    return taken, given


# --------------------------------------------------------------------------------------------
# Legal moves


def _plays(state: State, seat: int) -> Iterator[Event]:
    deal = state.deal
    slot = deal.slots[seat]
    candidates = slot.known if slot.complete else deal.deck(state.players) - deal.gone
    for card in sort_cards(candidates):
        try:
            check_play(state, seat, card)
        except IllegalMove:
            continue
        yield Event.make("play", state.names[seat], card=card)


def _sorcerer_moves(state: State) -> Iterator[Event]:
    deal = state.deal
    if deal.special != "Sorcerer" or deal.plays or not deal.tricks or "Sorcerer" in deal.gone:
        return
    holder = deal.holder("Sorcerer")
    seats = [holder] if holder is not None else [s for s, slot in enumerate(deal.slots)
                                                 if not slot.complete]
    for seat in seats:
        for card in deal.tricks[-1].cards:
            yield Event.make("sorcerer", state.names[seat], card=card)


def _swaps(state: State, seat: int) -> Iterator[Event]:
    name = state.names[seat]
    for target, other in enumerate(state.names):
        if target == seat:
            continue
        if not state.seed is not None:
            yield Event.make("swap", name, target=other)
            continue
        taken = seeded_taken(state, target)
        pool = sort_cards((state.deal.slots[seat].known | {"FlagBearerG"}) | set(taken))
        for given in itertools.combinations(pool, 2):
            yield Event.make("swap", name, target=other, taken=list(taken), given=list(given))


def available_specials(state: State) -> list[str]:
    """Special cards not used in an earlier hand (R-9: once all 14 are used, all come back)."""
    used = _this_round(state.used_specials, len(SPECIALS))
    return [s.code for s in SPECIALS if s.code not in used]


def available_tiles(state: State) -> list[int]:
    """Quest tiles not used in an earlier hand (R-9: once all 20 are used, all come back)."""
    used = _this_round(state.used_tiles, len(TILE_NUMBERS))
    return [t for t in TILE_NUMBERS if t not in used]


def _this_round(used: tuple, pile: int) -> tuple:
    """The draws since the pile was last complete."""
    return used[len(used) // pile * pile:]


# --------------------------------------------------------------------------------------------
# The tool's own shuffles (--shuffle --seed N): every draw is a function of the seed and the hand


def _rng(state: State, *parts: object) -> random.Random:
    return random.Random(":".join(["dwarf-king", str(state.seed), str(state.deal.number),
                                   *map(str, parts)]))


def seeded_special(state: State) -> str:
    return _rng(state, "special").choice(available_specials(state))


def seeded_tile(state: State) -> int:
    return _rng(state, "quest").choice(available_tiles(state))


def seeded_deal(state: State, special: str) -> list[list[str]]:
    cards = sort_cards(deck(state.players, special))
    _rng(state, "deal").shuffle(cards)
    n = state.players
    hands: list[list[str]] = [[] for _ in range(n)]
    for index, card in enumerate(cards):  # one at a time, starting left of the dealer
        hands[(state.deal.dealer + 1 + index) % n].append(card)
    return hands


def seeded_taken(state: State, target: int) -> tuple[str, ...]:
    hand = sort_cards(state.deal.slots[target].known)
    return tuple(sort_cards(_rng(state, "swap", target).sample(hand, 2)))


# --------------------------------------------------------------------------------------------
# Notation helpers


def _card_list(state: State, parts: list[str], text: str) -> list[str]:
    in_play = state.deal.deck(state.players) or None
    return [parse_card(word, in_play, text) for item in split_list(parts) for word in item]


def _split_keywords(parts: list[str], keys: tuple[str, ...]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {"": []}
    current = ""
    for word in parts:
        if word.casefold() in keys:
            current = word.casefold()
            groups[current] = []
        else:
            groups[current].append(word)
    return groups


def _named(state: State, parts: list[str], player: str | None, text: str) -> str:
    """The player a declaration names (`leader Catie`); it must agree with --as."""
    named = _player(state, parts, text)
    if player is not None and named != player:
        raise NotationError(f"{text!r} names {named}, but the move is made as {player}",
                            code="player-mismatch")
    return named


def _player(state: State, parts: list[str], text: str) -> str:
    if not parts:
        raise NotationError(f"{text!r}: name a player ({', '.join(state.names)})",
                            code="no-player")
    return match(" ".join(parts), state.names, "player", text=text)


GAME = DwarfKing()
