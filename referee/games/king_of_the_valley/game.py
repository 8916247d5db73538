"""King of the Valley (Hans van Tol, 2021): the game protocol - notation, rules, answers.

Rules page: ../shared/rules/king-of-the-valley.md (rulings R-1..R-10); the rulings this referee adds
(R-11 onwards) are in `RULES_TEXT` and the man page. Each phase step of a turn is its own event:

  reveal (table)  tiles put out face up: the set-up and every new hill tile (R-2)
  king            a king's starting square (set-up)
  recruit         phase 1, optional from round 2       move / pass   phase 2, the summon
  jester / wizard / tax   the summoned tiles placed or activated, in the order passed (R-13)
  kingdom         phase 3, optional                     refill        phase 4, ends the turn
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Mapping

from referee.engine import Event, EventSpec, Game, OptionSpec, Player, ToAct
from referee.errors import AmbiguousMove, IllegalMove, NotationError, UsageError
from referee.games.king_of_the_valley import text as texts
from referee.games.king_of_the_valley.board import (
    HILL_PLACE, HILL_ROWS, SIDES, SQUARES, Castle, State, between, column_of, influence,
    parse_square, square_name, with_item)
from referee.games.king_of_the_valley.summon import Summon, check, summons, taxes_feasible
from referee.games.king_of_the_valley.tiles import (
    COLUMNS, DEFAULT_ORDERS, PILE_SIZES, TAKE_KINDS, box_limit, is_subject, join_knight_words,
    kind, parse_tile, pile_problems, tax_terms, tile_names, valid_tax, virtual_piles)
from referee.notation import expect_end, match, words
from referee.scoresheet import Row, Scoresheet, ordinal, places

DEFAULT_PRICES = (2, 3, 4, 6, 8, 10)
KINGDOM_COLUMNS = ("queen", "duke", "countess", "knight")  # plus a farmer or a wife
KINGDOM_GOLD = 5
KINGDOM_POINTS = 5
ORDER_BONUS = {3: 3, 4: 5, 5: 8}
COUPLE_POINTS = 2
# Set-up: 25 valley tiles a1..e5, then the hill row by row (left, right): rows 1-2 from pile I,
# rows 3-6 from pile II.
SETUP_PLACES = tuple(range(SQUARES)) + HILL_PLACE * HILL_ROWS
VERBS = ("reveal", "king", "recruit", "move", "pass", "jester", "wizard", "tax", "kingdom",
         "refill")
# The phases in which each event may come (a recruit in "summon" is refused with its reason).
PHASES_OF = {
    "reveal": ("reveal",), "king": ("king",), "recruit": ("recruit", "summon"),
    "move": ("recruit", "summon"), "pass": ("recruit", "summon"),
    "jester": ("activate",), "wizard": ("activate",), "tax": ("activate",),
    "kingdom": ("kingdom",), "refill": ("kingdom",),
}
CATEGORIES = ("Influence", "Kingdom tokens", "Knight Orders", "Couples", "Gold")
TIEBREAKS = ("highest influence", "shared place")


def _check_orders(orders: Any) -> tuple[str, ...]:
    if not isinstance(orders, (list, tuple)) or len(orders) != 4:
        raise UsageError("option orders needs exactly four Knight Order labels (R-1)")
    labels = tuple(str(o).strip() for o in orders)
    for label in labels:
        if not label.isalnum():
            raise UsageError(f"Knight Order label {label!r} must be letters or digits (R-1)")
    if len({label.casefold() for label in labels}) != 4:
        raise UsageError("the four Knight Order labels must differ (R-1)")
    return labels


def _check_prices(prices: Any) -> tuple[int, ...]:
    if (not isinstance(prices, (list, tuple)) or len(prices) != HILL_ROWS
            or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 99
                       for p in prices)):
        raise UsageError("option hill_prices needs six prices 0..99, bottom row first (R-4)")
    return tuple(prices)


def _illegal(message: str, code: str, rule: str) -> IllegalMove:
    return IllegalMove(message, code=code, rule=rule)


class KingOfTheValley(Game):
    id = "king-of-the-valley"
    title = "King of the Valley"
    min_players = 2
    max_players = 4
    options = (
        OptionSpec("hill_prices", list(DEFAULT_PRICES), "int[]",
                   "the recruiting price of each hill row, bottom row first", "R-4"),
        OptionSpec("orders", list(DEFAULT_ORDERS), "str[]",
                   "the labels of the four Knight Orders (tiles knight-A ...)", "R-1"),
    )
    events = {
        "reveal": EventSpec({"tiles": "str[]"}, actor="table", reveal=True,
                            doc="tiles put out face up, in the order of the places waiting"),
        "king": EventSpec({"square": "str"}, doc="a king's starting square (set-up)"),
        "recruit": EventSpec({"side": "str", "row": "int", "column": "str"},
                             optional=frozenset({"column"}),
                             doc="phase 1: a subject bought from the hill (column: a Jester's)"),
        "move": EventSpec({"path": "str[]", "take": "str[]"}, optional=frozenset({"take"}),
                          doc="phase 2: the king's path (start, priests, end) and the passed "
                              "tiles taken, if any"),
        "pass": EventSpec({}, doc="phase 2 when no summon is possible (R-15)"),
        "jester": EventSpec({"column": "str"}, doc="the column a summoned Jester goes to"),
        "wizard": EventSpec({"give": "str", "give_column": "str", "side": "str", "row": "int",
                             "column": "str"},
                            optional=frozenset({"give_column", "column"}),
                            doc="a wizard's swap of a castle subject with a hill subject"),
        "tax": EventSpec({"column": "str"}, doc="the subject type a tax collector taxes"),
        "kingdom": EventSpec({"column": "str"},
                             doc="phase 3: the kingdom bonus; column: farmer or wife"),
        "refill": EventSpec({"side": "str"}, doc="phase 4: the hill column that refills the "
                                                 "valley"),
    }
    notation_help = texts.NOTATION_HELP

    # ---- set-up --------------------------------------------------------------------------
    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        merged = super().check_options(options)
        merged["orders"] = list(_check_orders(merged["orders"]))
        merged["hill_prices"] = list(_check_prices(merged["hill_prices"]))
        return merged

    def setup(self, players: tuple[Player, ...], options: Mapping[str, Any],
              seed: int | None = None) -> State:
        opts = self.check_options(options)
        seated = self.seat_players(list(players), opts)
        orders = tuple(opts["orders"])
        virtual = None
        if seed is not None:
            rng = random.Random(seed)
            piles = [list(p) for p in virtual_piles(orders)]
            for pile in piles:
                rng.shuffle(pile)
            virtual = tuple(tuple(p) for p in piles)
        return State(names=tuple(p.name for p in seated), orders=orders,
                     prices=tuple(opts["hill_prices"]), castles=(Castle(),) * len(seated),
                     kings=(None,) * len(seated), virtual=virtual, awaiting=SETUP_PLACES)

    # ---- notation ------------------------------------------------------------------------
    def parse(self, state: State, text: str, player: str | None) -> Event:
        parts = words(text.replace(",", " "))
        if not parts:
            raise NotationError("no move given", code="empty")
        verb = match(parts[0], VERBS, "move", text=text)
        # Without a resolved player (the table must reveal tiles), a player's move is taken to
        # be the active player's, so that the refusal says who must act instead.
        by = player if player is not None else state.player
        return getattr(self, f"_parse_{verb}")(state, parts[1:], text, by)

    def _parse_pass(self, state: State, rest: list[str], text: str, player: str | None) -> Event:
        expect_end(rest, text)
        return Event.make("pass", player)

    def _parse_king(self, state: State, rest: list[str], text: str, player: str | None) -> Event:
        _need(rest, 1, text, "king SQUARE, e.g. king c3")
        expect_end(rest[1:], text)
        return Event.make("king", player, square=square_name(parse_square(rest[0], text)))

    def _parse_recruit(self, state: State, rest: list[str], text: str,
                       player: str | None) -> Event:
        side, row, rest = _parse_slot(rest, text, "recruit left 2")
        return Event.make("recruit", player, side=side, row=row, column=_parse_as(rest, text))

    def _parse_jester(self, state: State, rest: list[str], text: str,
                      player: str | None) -> Event:
        if rest and rest[0].lower() == "as":
            rest = rest[1:]
        _need(rest, 1, text, "jester as COLUMN, e.g. jester as duke")
        expect_end(rest[1:], text)
        return Event.make("jester", player, column=_column(rest[0], text))

    def _parse_tax(self, state: State, rest: list[str], text: str, player: str | None) -> Event:
        _need(rest, 1, text, "tax COLUMN, e.g. tax farmer")
        expect_end(rest[1:], text)
        return Event.make("tax", player, column=_column(rest[0], text))

    def _parse_refill(self, state: State, rest: list[str], text: str,
                      player: str | None) -> Event:
        _need(rest, 1, text, "refill left or refill right")
        expect_end(rest[1:], text)
        return Event.make("refill", player, side=match(rest[0], SIDES, "hill column", text=text))

    def _parse_reveal(self, state: State, rest: list[str], text: str,
                      player: str | None) -> Event:
        if rest:
            parts = join_knight_words(rest, state.orders)
            return Event.make("reveal", None,
                              tiles=[parse_tile(w, state.orders, text) for w in parts])
        if state.virtual is None:
            raise NotationError("reveal needs the tiles put out, e.g. 'reveal knight-B farmer' "
                                "(only a --shuffle game knows its piles)", code="no-tiles")
        if not state.awaiting:
            raise _illegal("there is no tile to reveal now", "nothing-to-reveal", "R-2")
        return Event.make("reveal", None, tiles=list(_virtual_next(state, len(state.awaiting))))

    def _parse_move(self, state: State, rest: list[str], text: str,
                    player: str | None) -> Event:
        low = [w.lower() for w in rest]
        cut = low.index("take") if "take" in low else len(rest)
        path = [parse_square(w, text) for w in rest[:cut]]
        if len(path) < 2:
            raise NotationError(f"{text!r}: write move FROM TO (e.g. move c1 c4), with any "
                                "priest squares in between", code="incomplete-move")
        take_words = rest[cut + 1:]
        take = None
        if cut < len(rest):
            if not take_words:
                raise NotationError(f"{text!r}: take what? e.g. take farmer, or take b2 d4",
                                    code="incomplete-move")
            if len(take_words) == 1 and not _looks_like_square(take_words[0]):
                # A priest is named so that the refusal can cite R-11, not a spelling error.
                what = match(take_words[0], TAKE_KINDS + ("priest",), "character type",
                             text=text)
                take = _take_of_kind(state, path, what, text)
            else:
                take = _in_passing_order(path, [parse_square(w, text) for w in take_words])
        return Event.make("move", player, path=[square_name(s) for s in path],
                          take=[square_name(s) for s in take] if take is not None else None)

    def _parse_wizard(self, state: State, rest: list[str], text: str,
                      player: str | None) -> Event:
        low = [w.lower() for w in rest]
        if "for" not in low:
            raise NotationError(f"{text!r}: write wizard TILE for SIDE ROW, e.g. wizard duke for "
                                "left 4", code="bad-wizard")
        cut = low.index("for")
        give_words = join_knight_words(rest[:cut], state.orders)
        give_column = None
        if len(give_words) == 3 and give_words[1].lower() == "from":
            give_column = _column(give_words[2], text)
            give_words = give_words[:1]
        _need(give_words, 1, text, "wizard TILE for SIDE ROW")
        expect_end(give_words[1:], text)
        give = parse_tile(give_words[0], state.orders, text)
        side, row, tail = _parse_slot(rest[cut + 1:], text, "wizard duke for left 4")
        column = _parse_as(tail, text)
        return Event.make("wizard", player, give=give, give_column=give_column, side=side,
                          row=row, column=column)

    def _parse_kingdom(self, state: State, rest: list[str], text: str,
                       player: str | None) -> Event:
        if rest:
            expect_end(rest[1:], text)
            column = match(rest[0], ("farmer", "wife"), "kingdom bonus 1-influence column",
                           text=text)
            return Event.make("kingdom", player, column=column)
        usable = [c for c in ("farmer", "wife") if state.castle.face_up(c)]
        if len(usable) == 2:
            raise AmbiguousMove(f"{text!r}: a farmer or a wife can stand for influence 1; write "
                                "'kingdom farmer' or 'kingdom wife'", code="ambiguous-kingdom")
        return Event.make("kingdom", player, column=usable[0] if usable else "farmer")

    def format(self, state: State, event: Event) -> str:
        t = event.type
        if t == "reveal":
            return "reveal " + " ".join(event["tiles"])
        if t == "king":
            return f"king {event['square']}"
        if t == "recruit":
            return f"recruit {event['side']} {event['row']}" + _as(event.get("column"))
        if t == "move":
            return "move " + " ".join(event["path"]) + self._format_take(state, event)
        if t == "jester":
            return f"jester as {event['column']}"
        if t == "wizard":
            give = event["give"]
            if event.get("give_column"):
                give += f" from {event['give_column']}"
            return (f"wizard {give} for {event['side']} {event['row']}"
                    + _as(event.get("column")))
        if t in ("tax", "kingdom"):
            return f"{t} {event['column']}"
        if t == "refill":
            return f"refill {event['side']}"
        return t

    def _format_take(self, state: State, event: Event) -> str:
        take = event.get("take")
        if take is None:
            return ""
        try:
            path = [parse_square(s, "") for s in event["path"]]
            squares = [parse_square(s, "") for s in take]
        except NotationError:
            return " take " + " ".join(take)
        tiles = [state.valley[s] for s in squares]
        if tiles and None not in tiles and len({kind(t) for t in tiles}) == 1:
            what = kind(tiles[0])
            try:
                if _take_of_kind(state, path, what, "") == squares:
                    return f" take {what}"
            except IllegalMove:
                pass
        return " take " + " ".join(take)

    # ---- rules ---------------------------------------------------------------------------
    def apply(self, state: State, event: Event) -> State:
        if state.phase not in PHASES_OF[event.type]:
            raise _illegal(f"'{self.format(state, event)}' is not possible now: "
                           f"{self.to_act(state).phase}", "wrong-phase", "Turn")
        return getattr(self, f"_apply_{event.type}")(state, event)

    def _apply_reveal(self, state: State, event: Event) -> State:
        tiles = list(event["tiles"])
        if not 1 <= len(tiles) <= len(state.awaiting):
            raise _illegal(f"reveal: {len(tiles)} tile(s) named, but {len(state.awaiting)} "
                           "place(s) wait for a tile", "wrong-count", "R-2")
        seen = [list(s) for s in state.seen]
        valley, hill = list(state.valley), [list(h) for h in state.hill]
        for offset, tile in enumerate(tiles):
            if tile not in tile_names(state.orders) and not valid_tax(tile):
                raise _illegal(f"reveal: {tile!r} is not a tile of this game (Orders: "
                               f"{', '.join(state.orders)})", "unknown-tile", "R-2")
            pile = state.next_pile(offset)
            if state.virtual is not None and state.virtual[pile][len(seen[pile])] != tile:
                raise _illegal(f"reveal: the virtual pile {('I', 'II', 'III')[pile]} has "
                               f"{state.virtual[pile][len(seen[pile])]} next, not {tile}",
                               "not-the-virtual-tile", "R-2")
            seen[pile].append(tile)
            problem = pile_problems(tuple(tuple(s) for s in seen))
            if problem:
                raise _illegal(f"reveal {tile}: {problem} (R-2)", "box-count", "R-2")
            place = state.awaiting[offset]
            if place < SQUARES:
                valley[place] = tile
            else:
                hill[place - SQUARES].append(tile)
        after = replace(state, seen=tuple(tuple(s) for s in seen), valley=tuple(valley),
                        hill=tuple(tuple(h) for h in hill), awaiting=state.awaiting[len(tiles):])
        if after.awaiting:
            return after
        if after.setting_up:
            return replace(after, phase="king")
        return _next_turn(after)

    def _apply_king(self, state: State, event: Event) -> State:
        square = _square_field(event["square"])
        if square in state.kings:
            owner = state.names[state.kings.index(square)]
            raise _illegal(f"king {event['square']}: {owner}'s king is there; at set-up only one "
                           "king may stand on a tile", "one-king-per-tile", "Set-up")
        kings = with_item(state.kings, state.active, square)
        after = replace(state, kings=kings)
        return replace(after, phase="summon") if None not in kings else after

    def _apply_recruit(self, state: State, event: Event) -> State:
        text = self.format(state, event)
        if state.round == 1:
            raise _illegal(f"{text}: recruiting is allowed from round 2 on", "recruit-round-1",
                           "Recruit")
        if state.phase != "recruit":
            raise _illegal(f"{text}: only one recruit per turn, before the summon",
                           "wrong-phase", "Recruit")
        side, row = _side(event["side"]), event["row"]
        tile = state.hill_tile(side, row)
        if tile is None:
            raise _illegal(f"{text}: there is no tile on the hill at {SIDES[side]} {row}",
                           "no-tile-there", "Recruit")
        if not is_subject(tile):
            raise _illegal(f"{text}: {tile} is a specialist; only subjects can be recruited",
                           "not-a-subject", "Recruit")
        price = state.prices[row - 1]
        if state.castle.gold < price:
            raise _illegal(f"{text}: row {row} costs {price} gold and you have "
                           f"{state.castle.gold}", "cannot-afford", "Recruit")
        column = _arrival_column(tile, event.get("column"), text, "Recruit")
        castle = replace(state.castle.add(tile, column), gold=state.castle.gold - price)
        hill = with_item(state.hill, side, state.hill[side][:row - 1] + state.hill[side][row:])
        return replace(_set_castle(state, castle), hill=hill, phase="summon")

    def _apply_move(self, state: State, event: Event) -> State:
        path = tuple(_square_field(s) for s in event["path"])
        take = tuple(_square_field(s) for s in event.get("take", ()))
        if event.get("take") is not None and not take:
            raise _illegal("move: take names no tile", "take-two-or-three", "Summon")
        summon = Summon(path, take)
        check(state, summon)
        return _summon(state, summon)

    def _apply_pass(self, state: State, event: Event) -> State:
        options = summons(state)
        if options:
            raise _illegal(f"pass: the summon is mandatory and you can summon (e.g. "
                           f"{self.format(state, _move_event(state, options[0]))})",
                           "must-summon", "Summon")
        return replace(state, phase="kingdom")

    def _apply_jester(self, state: State, event: Event) -> State:
        _expect_pending(state, "jester", "jester as COLUMN")
        column = _column_field(event["column"])
        castle = state.castle.add("jester", column)
        return _next_pending(_set_castle(state, castle))

    def _apply_wizard(self, state: State, event: Event) -> State:
        text = self.format(state, event)
        _expect_pending(state, "wizard", text)
        give = event["give"]
        give_column = _arrival_column(give, event.get("give_column"), text, "Wizard")
        if (give, True) not in state.castle.column(give_column):
            raise _illegal(f"{text}: there is no face-up {give} in your {give_column} column",
                           "not-in-castle", "Wizard")
        side, row = _side(event["side"]), event["row"]
        tile = state.hill_tile(side, row)
        if tile is None or not is_subject(tile):
            what = f"holds {tile}, a specialist" if tile else "is empty"
            raise _illegal(f"{text}: the hill at {SIDES[side]} {row} {what}; the wizard swaps "
                           "with a subject", "not-a-subject", "Wizard")
        column = _arrival_column(tile, event.get("column"), text, "Wizard")
        castle = state.castle.remove_face_up(give, give_column).add(tile, column)
        column_tiles = state.hill[side]
        hill = with_item(state.hill, side,
                         column_tiles[:row - 1] + (give,) + column_tiles[row:])
        return _next_pending(replace(_set_castle(state, castle), hill=hill))

    def _apply_tax(self, state: State, event: Event) -> State:
        tile = state.pending[0] if state.pending else ""
        text = self.format(state, event)
        if kind(tile) != "tax":
            _expect_pending(state, "tax", text)
        column = _column_field(event["column"])
        need, gold = tax_terms(tile)
        castle = state.castle
        if column in castle.taxed:
            raise _illegal(f"{text}: you have taxed your {column} column before (tax token)",
                           "taxed-before", "Tax Collector")
        if castle.face_up(column) < need:
            raise _illegal(f"{text}: {tile} needs {need} identical face-up subjects; your "
                           f"{column} column has {castle.face_up(column)} (R-6, R-18)",
                           "too-few-subjects", "Tax Collector")
        after = replace(castle.turn_down(column, need), gold=castle.gold + gold,
                        taxed=castle.taxed | {column})
        later = [tax_terms(t)[0] for t in state.pending[1:]]
        if not taxes_feasible(after, later):
            raise _illegal(f"{text}: then the next tax collector could not be activated; every "
                           "summoned specialist must be used (R-13)", "strands-specialist",
                           "R-13")
        return _next_pending(_set_castle(state, after))

    def _apply_kingdom(self, state: State, event: Event) -> State:
        text = self.format(state, event)
        low = event["column"]
        if low not in ("farmer", "wife"):
            raise _illegal(f"{text}: the influence-1 subject is a farmer or a wife",
                           "bad-column", "Kingdom bonus")
        if state.kingdom_claimed:
            raise _illegal(f"{text}: one kingdom bonus per turn", "one-kingdom-per-turn",
                           "Kingdom bonus")
        if state.kingdoms_left <= 0:
            raise _illegal(f"{text}: all 6 kingdom tokens are taken (R-7)", "no-kingdom-tokens",
                           "R-7")
        castle = state.castle
        missing = [c for c in KINGDOM_COLUMNS + (low,) if not castle.face_up(c)]
        if missing:
            raise _illegal(f"{text}: no face-up {' or '.join(missing)} (a Jester in that column "
                           "stands in) for the five influence values 5-4-3-2-1",
                           "kingdom-incomplete", "Kingdom bonus")
        for column in KINGDOM_COLUMNS + (low,):
            castle = castle.turn_down(column, 1)
        castle = replace(castle, gold=castle.gold + KINGDOM_GOLD, kingdoms=castle.kingdoms + 1)
        return replace(_set_castle(state, castle), kingdom_claimed=True)

    def _apply_refill(self, state: State, event: Event) -> State:
        side = _side(event["side"])
        hill = [list(h) for h in state.hill]
        valley = list(state.valley)
        for square in state.emptied:
            source = side if hill[side] else 1 - side  # then the other column
            if not hill[source]:
                break  # the hill is bare; the square stays empty
            valley[square] = hill[source].pop(0)
        gaps = [HILL_ROWS - len(hill[0]), HILL_ROWS - len(hill[1])]
        supply = state.pile_supply()
        count = min(sum(gaps), supply)
        left = min(gaps[0], count)  # new tiles fill the left column first
        after = replace(state, valley=tuple(valley), hill=tuple(tuple(h) for h in hill),
                        awaiting=(HILL_PLACE[0],) * left + (HILL_PLACE[1],) * (count - left),
                        end_triggered=state.end_triggered or supply < sum(gaps))
        if after.awaiting:
            return replace(after, phase="reveal")
        return _next_turn(after)

    # ---- legal moves ---------------------------------------------------------------------
    def legal(self, state: State, player: str | None = None) -> list[Event]:
        turn = self.to_act(state)
        if state.phase == "over" or (player is not None and player not in turn.players):
            return []
        phase = state.phase
        me = state.player
        if phase == "reveal":
            return self._legal_reveals(state)
        if phase == "king":
            return [Event.make("king", me, square=square_name(s)) for s in range(SQUARES)
                    if s not in state.kings]
        if phase in ("recruit", "summon"):
            out = self._legal_recruits(state) if phase == "recruit" else []
            moves = [_move_event(state, s) for s in summons(state)]
            return out + (moves or [Event.make("pass", me)])
        if phase == "activate":
            return self._legal_activations(state)
        kingdoms = [Event.make("kingdom", me, column=c) for c in _kingdom_choices(state)]
        return kingdoms + [Event.make("refill", me, side=s) for s in SIDES]

    def _legal_reveals(self, state: State) -> list[Event]:
        if state.virtual is not None:
            return [Event.make("reveal", None, tiles=list(_virtual_next(state,
                                                                        len(state.awaiting))))]
        pile = state.next_pile()
        out = []
        for tile in tile_names(state.orders):
            seen = list(state.seen)
            seen[pile] = seen[pile] + (tile,)
            if pile_problems(tuple(seen)) is None:
                out.append(Event.make("reveal", None, tiles=[tile]))
        return out

    def _legal_recruits(self, state: State) -> list[Event]:
        out = []
        for side, row, tile in state.hill_subjects():
            if state.prices[row - 1] > state.castle.gold:
                continue
            for column in (COLUMNS if tile == "jester" else (None,)):
                out.append(Event.make("recruit", state.player, side=SIDES[side], row=row,
                                      column=column))
        return out

    def _legal_activations(self, state: State) -> list[Event]:
        me, first = state.player, state.pending[0]
        if first == "jester":
            return [Event.make("jester", me, column=c) for c in COLUMNS]
        if first == "wizard":
            out = []
            gives = sorted({(tile, col) for col in COLUMNS
                            for tile, up in state.castle.column(col) if up},
                           key=lambda g: (COLUMNS.index(g[1]), g[0]))
            for tile, col in gives:
                for side, row, hill_tile in state.hill_subjects():
                    for column in (COLUMNS if hill_tile == "jester" else (None,)):
                        out.append(Event.make(
                            "wizard", me, give=tile, side=SIDES[side], row=row, column=column,
                            give_column=col if tile == "jester" else None))
            return out
        out = []
        need, _ = tax_terms(first)
        later = [tax_terms(t)[0] for t in state.pending[1:]]
        for column in COLUMNS:
            castle = state.castle
            if column in castle.taxed or castle.face_up(column) < need:
                continue
            after = replace(castle.turn_down(column, need), taxed=castle.taxed | {column})
            if taxes_feasible(after, later):
                out.append(Event.make("tax", me, column=column))
        return out

    def option_lines(self, state: State, events: list[Event]) -> list[str]:
        reveals = [e for e in events if e.type == "reveal"]
        if len(reveals) > 1:
            names = ", ".join(e["tiles"][0] for e in reveals)
            where = _place_name(state.awaiting[0])
            return [f"reveal TILE ...   ({len(state.awaiting)} place(s) wait, next {where} from "
                    f"pile {('I', 'II', 'III')[state.next_pile()]}; TILE is one of: {names})"]
        kings = [e["square"] for e in events if e.type == "king"]
        if len(kings) > 1:
            return [f"king SQUARE   (any tile without a king: {' '.join(kings)})"]
        return [self.format(state, e) for e in events]

    def random_event(self, state: State, rng: random.Random) -> Event | None:
        """Random legal play; a physical game's reveals are drawn from what the box has left."""
        if state.phase == "over":
            return None
        if state.phase == "reveal" and state.virtual is None:
            return Event.make("reveal", None, tiles=[_random_unseen(state, rng)])
        return rng.choice(self.legal(state))

    # ---- answers -------------------------------------------------------------------------
    def to_act(self, state: State) -> ToAct:
        phase = state.phase
        if phase == "over":
            return ToAct((), "the game is over")
        if phase == "reveal":
            where = _place_name(state.awaiting[0])
            return ToAct((), f"reveal {len(state.awaiting)} tile(s), next {where}", table=True)
        who = (state.player,)
        if phase == "king":
            return ToAct(who, "set-up: place your king on a valley tile")
        if phase == "recruit":
            return ToAct(who, f"round {state.round}: recruit from the hill, or summon")
        if phase == "summon":
            return ToAct(who, f"round {state.round}: summon")
        if phase == "activate":
            first = state.pending[0]
            what = {"jester": "place the Jester in a column",
                    "wizard": "activate the wizard: swap a subject with the hill"}
            return ToAct(who, what.get(first, f"activate {first}: choose the subjects to tax"))
        if _kingdom_choices(state):
            return ToAct(who, "claim the kingdom bonus, or replenish (refill left/right)")
        return ToAct(who, "replenish: refill the valley from the left or right hill column")

    def finished(self, state: State) -> bool:
        return state.phase == "over"

    def describe(self, before: State, event: Event, after: State) -> list[str]:
        return texts.describe(self, before, event, after)

    def score(self, state: State) -> Scoresheet:
        keys, rows = {}, []
        for name, castle in zip(state.names, state.castles):
            points = _points(state, castle)
            keys[name] = (sum(points), points[0])
        ranked = places(keys)
        for name, castle in zip(state.names, state.castles):
            points = _points(state, castle)
            rows.append(Row(name=name, seat=None, categories=tuple(zip(CATEGORIES, points)),
                            total=sum(points), place=ranked[name],
                            result=_result(state, ranked, name)))
        finished = state.phase == "over"
        winners = tuple(n for n in state.names if ranked[n] == 1) if finished else ()
        return Scoresheet(game=self.id, title=self.title, finished=finished,
                          outcome=_outcome(state, winners), winners=winners, rows=tuple(rows),
                          tiebreaks=TIEBREAKS, notes=texts.SHEET_NOTES)

    def blank_scoresheet(self, options: Mapping[str, Any] | None = None) -> Scoresheet:
        rows = tuple(Row(None, None, tuple((c, None) for c in CATEGORIES), None)
                     for _ in range(self.max_players))
        return Scoresheet(game=self.id, title=f"{self.title} - scoresheet", finished=False,
                          outcome="", winners=(), rows=rows, tiebreaks=TIEBREAKS,
                          notes=texts.SHEET_NOTES, blank=True)

    def render(self, state: State) -> str:
        return texts.render(self, state)

    def rules(self) -> str:
        return texts.RULES_TEXT

    def inventory(self, state: State) -> dict[str, int]:
        counts = {f"pile {n}": c for n, c in zip(("I", "II", "III"), state.unrevealed())}
        counts["valley"] = sum(1 for t in state.valley if t is not None)
        counts["hill"] = len(state.hill[0]) + len(state.hill[1])
        for name, castle in zip(state.names, state.castles):
            counts[f"castle {name}"] = len(castle.tiles())
        counts["jesters being placed"] = state.pending.count("jester")
        counts["discarded"] = len(state.discard)
        return counts


# --------------------------------------------------------------------------------------------
# Helpers: notation


def _need(parts: list[str], count: int, text: str, example: str) -> None:
    if len(parts) < count:
        raise NotationError(f"{text!r} is incomplete; write {example}", code="incomplete-move")


def _looks_like_square(word: str) -> bool:
    return len(word) == 2 and word[0].lower() in "abcde" and word[1] in "12345"


def _column(word: str, text: str) -> str:
    return match(word.rstrip("s") if word.lower() not in COLUMNS else word, COLUMNS,
                 "castle column", text=text)


def _parse_slot(parts: list[str], text: str, example: str) -> tuple[str, int, list[str]]:
    """`left 3` -> ('left', 3, rest); also `l3`, `left3`."""
    if parts and len(parts[0]) > 1 and parts[0][-1].isdigit() and not parts[0].isdigit():
        parts = [parts[0].rstrip("0123456789"), parts[0][len(parts[0].rstrip("0123456789")):],
                 *parts[1:]]
    _need(parts, 2, text, example)
    side = match(parts[0], SIDES, "hill column", text=text)
    if not parts[1].isdigit() or not 1 <= int(parts[1]) <= HILL_ROWS:
        raise NotationError(f"{parts[1]!r} in {text!r} is not a hill row (1-6, 1 = bottom)",
                            code="bad-row")
    return side, int(parts[1]), parts[2:]


def _parse_as(parts: list[str], text: str) -> str | None:
    if not parts:
        return None
    if parts[0].lower() != "as" or len(parts) != 2:
        raise NotationError(f"{text!r}: a Jester's column is given as 'as COLUMN', e.g. as duke",
                            code="bad-column")
    return _column(parts[1], text)


def _as(column: str | None) -> str:
    return f" as {column}" if column else ""


def _take_of_kind(state: State, path: list[int], what: str, text: str) -> list[int]:
    """`take farmer`: every takeable farmer passed on the last leg (priests visited are gone)."""
    passed = None
    if len(path) >= 2 and path[-2] != path[-1]:
        passed = between(path[-2], path[-1])
    if passed is None:
        raise _illegal(f"{text!r}: the last move is not a straight line", "not-a-line", "Summon")
    gone = set(path[1:-1])
    me = state.active
    squares = [s for s in passed if s not in gone and state.valley[s] is not None
               and kind(state.valley[s]) == what and not state.other_king_on(s, me)]
    if not squares:
        raise _illegal(f"{text!r}: no {what} is passed on the last move", "not-passed",
                       "Summon")
    return squares


def _in_passing_order(path: list[int], squares: list[int]) -> list[int]:
    """Squares typed in any order, sorted as the king passes them (the canonical order)."""
    passed = between(path[-2], path[-1]) if path[-2] != path[-1] else None
    if passed is None:
        return squares
    return sorted(squares, key=lambda s: passed.index(s) if s in passed else len(passed))


def _move_event(state: State, summon: Summon) -> Event:
    return Event.make("move", state.player, path=[square_name(s) for s in summon.path],
                      take=[square_name(s) for s in summon.take] or None)


def _virtual_next(state: State, count: int) -> tuple[str, ...]:
    taken = [len(s) for s in state.seen]
    out = []
    for _ in range(count):
        pile = next(i for i, size in enumerate(PILE_SIZES) if taken[i] < size)
        out.append(state.virtual[pile][taken[pile]])
        taken[pile] += 1
    return tuple(out)


def _random_unseen(state: State, rng: random.Random) -> str:
    """A tile the box still holds, weighted by how many are left, that fits the next pile."""
    pile = state.next_pile()
    names = list(tile_names(state.orders))
    weights = []
    revealed = [t for s in state.seen for t in s]
    for tile in names:
        seen = list(state.seen)
        seen[pile] = seen[pile] + (tile,)
        if pile_problems(tuple(seen)) is not None:
            weights.append(0)
        elif kind(tile) == "tax":
            weights.append(0.4)  # 8 tax collectors spread over 20 printable variants
        else:
            weights.append(box_limit(tile) - revealed.count(tile))
    return rng.choices(names, weights)[0]


def _place_name(place: int) -> str:
    return square_name(place) if place < SQUARES else f"hill {SIDES[place - SQUARES]}"


# --------------------------------------------------------------------------------------------
# Helpers: rules


def _square_field(name: str) -> int:
    try:
        return parse_square(name, name)
    except NotationError as exc:
        raise _illegal(exc.message, "bad-square", "Notation") from None


def _column_field(name: str) -> str:
    if name not in COLUMNS:
        raise _illegal(f"{name!r} is not a castle column ({', '.join(COLUMNS)})", "bad-column",
                       "Notation")
    return name


def _side(name: str) -> int:
    if name not in SIDES:
        raise _illegal(f"{name!r} is not a hill column (left or right)", "bad-side", "Notation")
    return SIDES.index(name)


def _arrival_column(tile: str, column: str | None, text: str, rule: str) -> str:
    """The column a subject goes to: its portrait's, or for a Jester the one chosen."""
    if tile == "jester":
        if column is None:
            raise _illegal(f"{text}: a Jester's column must be chosen at once (add 'as COLUMN')",
                           "jester-needs-column", rule)
        return _column_field(column)
    if column is not None:
        raise _illegal(f"{text}: only a Jester has a column to choose; {tile} goes to "
                       f"{column_of(tile)}", "not-a-jester", rule)
    if not is_subject(tile):
        raise _illegal(f"{text}: {tile} is not a subject", "not-a-subject", rule)
    return column_of(tile)


def _expect_pending(state: State, what: str, text: str) -> None:
    first = state.pending[0]
    if kind(first) != what:
        todo = "place the Jester" if first == "jester" else f"activate {first}"
        raise _illegal(f"{text}: first {todo} (summoned tiles are placed and activated in the "
                       "order passed, R-13)", "wrong-activation", "R-13")


def _set_castle(state: State, castle: Castle) -> State:
    return replace(state, castles=with_item(state.castles, state.active, castle))


def _next_pending(state: State) -> State:
    pending = state.pending[1:]
    return replace(state, pending=pending, phase="activate" if pending else "kingdom")


def _summon(state: State, summon: Summon) -> State:
    """Carry out a checked summon: priests paid, tiles taken, coins collected, king moved."""
    castle = state.castle
    gold = castle.gold
    valley, coins = list(state.valley), list(state.coins)
    discard, pending, emptied = list(state.discard), [], []
    for square in summon.priests:
        gold += coins[square] - 1
        coins[square] = 1  # the priest's coin stays on the square (and later on its new tile)
        discard.append(valley[square])
        valley[square] = None
        emptied.append(square)
    for square in summon.squares:
        tile = valley[square]
        gold += coins[square]
        coins[square] = 0
        valley[square] = None
        emptied.append(square)
        if tile == "jester":
            pending.append(tile)
        elif is_subject(tile):
            castle = castle.add(tile, column_of(tile))
        else:
            discard.append(tile)
            if kind(tile) == "wizard":
                pending.append(tile)
            else:
                need, pay = tax_terms(tile)
                if need:
                    pending.append(tile)
                else:
                    gold += pay
    after = _set_castle(state, replace(castle, gold=gold))
    return replace(after, valley=tuple(valley), coins=tuple(coins), discard=tuple(discard),
                   pending=tuple(pending), emptied=tuple(emptied),
                   kings=with_item(state.kings, state.active, summon.path[-1]),
                   phase="activate" if pending else "kingdom")


def _kingdom_choices(state: State) -> list[str]:
    """The influence-1 columns (farmer, wife) with which a kingdom bonus can be claimed now."""
    if state.kingdom_claimed or state.kingdoms_left <= 0:
        return []
    castle = state.castle
    if not all(castle.face_up(c) for c in KINGDOM_COLUMNS):
        return []
    return [c for c in ("farmer", "wife") if castle.face_up(c)]


def _next_turn(state: State) -> State:
    turn = state.turn + 1
    after = replace(state, turn=turn, emptied=(), kingdom_claimed=False, pending=())
    if state.end_triggered and turn % len(state.names) == 0:
        return replace(after, phase="over")
    return replace(after, phase="recruit" if after.round >= 2 else "summon")


# --------------------------------------------------------------------------------------------
# Helpers: scoring


def _points(state: State, castle: Castle) -> tuple[int, ...]:
    tiles = castle.tiles()
    orders = sum(ORDER_BONUS.get(tiles.count(f"knight-{o}"), 0) for o in state.orders)
    couples = min(tiles.count("farmer"), tiles.count("wife"))
    return (influence(castle), KINGDOM_POINTS * castle.kingdoms, orders,
            COUPLE_POINTS * couples, castle.gold)


def _result(state: State, ranked: dict[str, int], name: str) -> str:
    place = ranked[name]
    shared = list(ranked.values()).count(place) > 1
    text = ("shared " if shared else "") + ordinal(place)
    if state.phase != "over":
        return text + " so far"
    return "winner" if place == 1 and not shared else text


def _outcome(state: State, winners: tuple[str, ...]) -> str:
    if state.phase == "over":
        who = " and ".join(winners)
        crown = "share the crown" if len(winners) > 1 else "is the King of the Valley"
        return (f"Game over after {state.round - 1} rounds (the hill could not be refilled in "
                f"full): {who} {crown}")
    if state.setting_up:
        return "Setting up"
    return f"In progress: round {state.round}, {state.player} to act"


GAME = KingOfTheValley()
