"""King of the Valley's events, each declared once: its fields, when it may come, its notation, its
effect and the moves it offers. Each phase step of a turn is its own event:

  reveal (table)  tiles put out face up: the set-up and every new hill tile (R-2)
  king            a king's starting square (set-up)
  recruit         phase 1, optional from round 2       move / pass   phase 2, the summon
  jester / wizard / tax   the summoned tiles placed or activated, in the order passed (R-13)
  kingdom         phase 3, optional                     refill        phase 4, ends the turn
"""

from __future__ import annotations

from typing import Iterator

from referee.engine import Args, End, Event, Events, EventType
from referee.errors import AmbiguousMove, IllegalMove, NotationError, refuse
from referee.evolve import evolve
from referee.games.king_of_the_valley import rules
from referee.games.king_of_the_valley.components import (
    COLUMNS,
    HILL_PLACE,
    HILL_ROWS,
    KINGDOM_COLUMNS,
    KINGDOM_GOLD,
    PILE_NAMES,
    SIDES,
    SQUARES,
    TAKE_KINDS,
    first_of_virtual_piles,
    is_subject,
    kind,
    pile_problems,
    square_name,
    tax_terms,
    tile_names,
    valid_tax,
)
from referee.games.king_of_the_valley.notation import (
    as_column,
    column,
    in_passing_order,
    join_knight_words,
    looks_like_square,
    need,
    parse_as,
    parse_slot,
    parse_square,
    parse_tile,
    plain,
    take_of_kind,
)
from referee.games.king_of_the_valley.rules import (
    ACTIVATE,
    KING,
    KINGDOM,
    RECRUIT,
    REVEAL,
    SUMMON,
    Summon,
    taxes_feasible,
)
from referee.games.king_of_the_valley.state import State, with_item
from referee.notation import expect_end, initials, match

PLAYING = frozenset({RECRUIT, SUMMON})


class Reveal(EventType[State]):
    name = "reveal"
    doc = "tiles put out face up, in the order of the places waiting"
    fields = {"tiles": "str[]"}
    field_docs = {"tiles": "tile names, in the order of the places waiting (R-14)"}
    actor = "table"
    reveal = True
    phases = frozenset({REVEAL})
    forms = (("reveal TILE...", "tiles put out, in the order of the waiting places (R-14), "
                                "e.g. reveal knight-B farmer; a --shuffle game fills them in: "
                                "reveal"),)

    def parse(self, state: State, args: Args) -> Event:
        words = plain(args.words)
        if words:
            parts = join_knight_words(words, state.orders)
            return self.make(None, tiles=[parse_tile(w, state.orders, args.text) for w in parts])
        if state.virtual is None:
            raise NotationError("reveal needs the tiles put out, e.g. 'reveal knight-B farmer' "
                                "(only a --shuffle game knows its piles)", code="no-tiles")
        if not state.awaiting:
            raise IllegalMove("there is no tile to reveal now", code="nothing-to-reveal",
                              rule="R-2")
        return self.make(None, tiles=list(rules.virtual_next(state, len(state.awaiting))))

    def format(self, state: State, event: Event) -> str:
        return "reveal " + " ".join(event["tiles"])

    def apply(self, state: State, event: Event) -> State:
        tiles = list(event["tiles"])
        awaiting = state.awaiting
        if not 1 <= len(tiles) <= len(awaiting):
            raise IllegalMove(f"reveal: {len(tiles)} tile(s) named, but {len(awaiting)} "
                              "place(s) wait for a tile", code="wrong-count", rule="R-2")
        # Only the piles and hill columns a tile joins are made again (one or two, mostly).
        seen, hill = list(state.seen), list(state.hill)
        valley = list(state.valley)
        piles = state.next_piles(len(tiles))  # the pile each tile comes from
        refusal = None
        for offset, tile in enumerate(tiles):
            pile = piles[offset]
            refusal = self._unknown(state, len(seen[pile]), pile, tile)
            if refusal is not None:
                tiles = tiles[:offset]  # the box is checked for the tiles before it first
                break
            seen[pile] += (tile,)
            place = awaiting[offset]
            if place < SQUARES:
                valley[place] = tile
            else:
                hill[place - SQUARES] += (tile,)
        # The box's limits only ever tighten as tiles come: checked once for the whole event,
        # and tile by tile only to name the one that broke them.
        seen_now = tuple(seen)
        if not first_of_virtual_piles(seen_now, state.virtual, state.virtual_fits) \
                and pile_problems(seen_now, tiles, set(piles[:len(tiles)])) is not None:
            raise self._over_the_box(state, tiles)
        if refusal is not None:
            raise refusal
        changes = {"seen": seen_now, "valley": tuple(valley), "hill": tuple(hill),
                   "awaiting": awaiting[len(tiles):]}
        if len(tiles) < len(awaiting):
            return evolve(state, **changes)
        if state.setting_up:
            return evolve(state, **changes, phase=KING)
        return rules.next_turn(state, **changes)

    @staticmethod
    def _unknown(state: State, taken: int, pile: int, tile: str) -> IllegalMove | None:
        """A tile that is no tile of this game, or not the one a virtual pile holds next (after
        the `taken` tiles already turned up from it)."""
        if tile not in state.tile_set and not valid_tax(tile):
            return IllegalMove(f"reveal: {tile!r} is not a tile of this game (Orders: "
                               f"{', '.join(state.orders)})", code="unknown-tile", rule="R-2")
        if state.virtual is not None and state.virtual[pile][taken] != tile:
            # Never name the tile it holds: nobody has seen it yet.
            return IllegalMove(f"reveal: {tile} is not the next tile of the virtual pile "
                               f"{PILE_NAMES[pile]}: type `reveal` alone and the tool turns "
                               "the tiles up", code="not-the-virtual-tile", rule="R-2")
        return None

    @staticmethod
    def _over_the_box(state: State, tiles: list[str]) -> IllegalMove:
        """The refusal naming the first tile the box or the piles could not hold."""
        seen = [list(s) for s in state.seen]
        for offset, tile in enumerate(tiles):
            seen[state.next_pile(offset)].append(tile)
            problem = pile_problems(tuple(tuple(s) for s in seen))
            if problem:
                return IllegalMove(f"reveal {tile}: {problem} (R-2)", code="box-count",
                                   rule="R-2")
        raise AssertionError("the whole reveal broke the box's limits, but no prefix did")

    def moves(self, state: State) -> Iterator[Event]:
        if state.virtual is not None:
            yield self.make(None, tiles=list(rules.virtual_next(state, len(state.awaiting))))
            return
        pile = state.next_pile()
        for tile in tile_names(state.orders):
            seen = list(state.seen)
            seen[pile] = seen[pile] + (tile,)
            if pile_problems(tuple(seen)) is None:
                yield self.make(None, tiles=[tile])


class King(EventType[State]):
    name = "king"
    doc = "a king's starting square (set-up)"
    fields = {"square": "str"}
    field_docs = {"square": "a valley square, e.g. \"c3\""}
    phases = frozenset({KING})
    forms = (("king SQ", "set-up: king c3"),)

    def parse(self, state: State, args: Args) -> Event:
        words = plain(args.words)
        need(words, 1, args.text, "king SQUARE, e.g. king c3")
        expect_end(words[1:], args.text)
        return self.make(args.by, square=square_name(parse_square(words[0], args.text)))

    def format(self, state: State, event: Event) -> str:
        return f"king {event['square']}"

    def apply(self, state: State, event: Event) -> State:
        square = rules.square_field(event["square"])
        if square in state.kings:
            owner = state.names[state.kings.index(square)]
            raise IllegalMove(f"king {event['square']}: {owner}'s king is there; at set-up only "
                              "one king may stand on a tile", code="one-king-per-tile",
                              rule="Set-up")
        kings = with_item(state.kings, state.active, square)
        after = evolve(state, kings=kings)
        return evolve(after, phase=SUMMON) if None not in kings else after

    def moves(self, state: State) -> Iterator[Event]:
        for square in range(SQUARES):
            if square not in state.kings:
                yield self.make(state.player, square=square_name(square))


class Recruit(EventType[State]):
    name = "recruit"
    doc = "phase 1: a subject bought from the hill (column: a Jester's)"
    fields = {"side": "str", "row": "int", "column": "str"}
    field_docs = {"side": "the hill column: left or right",
                  "row": "the hill row, 1 (bottom) to 6",
                  "column": "only for a Jester: the castle column it joins"}
    optional = frozenset({"column"})
    phases = PLAYING
    forms = (("recruit SIDE ROW [as COL]", "recruit right 2; recruit left 1 as duke (a Jester)"),)

    def parse(self, state: State, args: Args) -> Event:
        side, row, rest = parse_slot(plain(args.words), args.text, "recruit left 2")
        return self.make(args.by, side=side, row=row, column=parse_as(rest, args.text))

    def format(self, state: State, event: Event) -> str:
        return f"recruit {event['side']} {event['row']}" + as_column(event.get("column"))

    def apply(self, state: State, event: Event) -> State:
        text = self.format(state, event)
        side, row = rules.side_field(event["side"]), event["row"]
        tile = state.hill_tile(side, row)
        price = state.prices[row - 1] if 1 <= row <= len(state.prices) else 0
        refuse([  # every rule the recruit breaks, the turn's order first
            IllegalMove(f"{text}: recruiting is allowed from round 2 on",
                        code="recruit-round-1", rule="Recruit") if state.round == 1 else
            IllegalMove(f"{text}: only one recruit per turn, before the summon",
                        code="wrong-phase", rule="Recruit") if state.phase != RECRUIT else None,
            IllegalMove(f"{text}: there is no tile on the hill at {SIDES[side]} {row}",
                        code="no-tile-there", rule="Recruit") if tile is None else
            IllegalMove(f"{text}: {tile} is a specialist; only subjects can be recruited",
                        code="not-a-subject", rule="Recruit") if not is_subject(tile) else None,
            IllegalMove(f"{text}: row {row} costs {price} gold and you have "
                        f"{state.castle.gold}", code="cannot-afford", rule="Recruit")
            if state.castle.gold < price else None,
        ])
        assert tile is not None
        column_to = rules.arrival_column(tile, event.get("column"), text, "Recruit")
        castle = evolve(state.castle.add(tile, column_to), gold=state.castle.gold - price)
        hill = with_item(state.hill, side, state.hill[side][:row - 1] + state.hill[side][row:])
        return evolve(rules.set_castle(state, castle), hill=hill, phase=SUMMON)

    def moves(self, state: State) -> Iterator[Event]:
        if state.phase != RECRUIT:
            return
        for side, row, tile in state.hill_subjects():
            if state.prices[row - 1] > state.castle.gold:
                continue
            for choice in (COLUMNS if tile == "jester" else (None,)):
                yield self.make(state.player, side=SIDES[side], row=row, column=choice)


class Move(EventType[State]):
    name = "move"
    doc = "phase 2: the king's path (start, priests, end) and the passed tiles taken, if any"
    fields = {"path": "str[]", "take": "str[]"}
    field_docs = {"path": "squares: the start, every priest visited, the end",
                  "take": "the passed squares taken, in the order passed; absent when the tile "
                          "on the end square is summoned"}
    optional = frozenset({"take"})
    phases = PLAYING
    forms = (("move SQ SQ [SQ...]", "the king's path: start, any priests visited, end: "
                                    "move c1 c4, move c1 c3 e5 (a priest on c3)"),
             ("move SQ SQ take TYPE|SQ...", "take the passed tiles: move c1 a3 take farmer, "
                                            "move a1 a5 take a2 a4"))

    def parse(self, state: State, args: Args) -> Event:
        rest, text = plain(args.words), args.text
        note = next((i for i, w in enumerate(rest) if w.startswith("[")), None)
        if note is not None:  # `options` notes what a summon obtains: [priest -> wizard]
            rest = rest[:note]
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
            if len(take_words) == 1 and not looks_like_square(take_words[0]):
                # A priest is named so that the refusal can cite R-11, not a spelling error.
                what = match_kind(take_words[0], text)
                take = take_of_kind(state, path, what, text)
            else:
                take = in_passing_order(path, [parse_square(w, text) for w in take_words])
        return self.make(args.by, path=[square_name(s) for s in path],
                         take=[square_name(s) for s in take] if take is not None else None)

    def format(self, state: State, event: Event) -> str:
        return "move " + " ".join(event["path"]) + self._format_take(state, event)

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
        if tiles and None not in tiles and len({kind(t) for t in tiles if t}) == 1:
            what = kind(tiles[0] or "")
            try:
                if take_of_kind(state, path, what, "") == squares:
                    return f" take {what}"
            except IllegalMove:
                pass
        return " take " + " ".join(take)

    def apply(self, state: State, event: Event) -> State:
        path = tuple(rules.square_field(s) for s in event["path"])
        take = tuple(rules.square_field(s) for s in event.get("take", ()))
        if event.get("take") is not None and not take:
            raise IllegalMove("move: take names no tile", code="take-two-or-three",
                              rule="Summon")
        summon = Summon(path, take)
        rules.check(state, summon)
        return rules.carry_out(state, summon)

    def moves(self, state: State) -> Iterator[Event]:
        for summon in rules.summons(state):
            yield rules.move_event(state, summon)


def match_kind(word: str, text: str) -> str:
    return match(word, TAKE_KINDS + ("priest",), "character type", text=text)


class Pass(EventType[State]):
    name = "pass"
    doc = "phase 2 when no summon is possible (R-15)"
    phases = PLAYING
    forms = (("pass", "no summon is possible (R-15)"),)

    def parse(self, state: State, args: Args) -> Event:
        expect_end(plain(args.words), args.text)
        return self.make(args.by)

    def apply(self, state: State, event: Event) -> State:
        options = rules.summons(state)
        if options:
            example = Move().format(state, rules.move_event(state, options[0]))
            raise IllegalMove(f"pass: the summon is mandatory and you can summon (e.g. "
                              f"{example})", code="must-summon", rule="Summon")
        return evolve(state, phase=KINGDOM)

    def moves(self, state: State) -> Iterator[Event]:
        if not rules.summons(state):
            yield self.make(state.player)


class Jester(EventType[State]):
    name = "jester"
    doc = "the column a summoned Jester goes to"
    fields = {"column": "str"}
    field_docs = {"column": "the castle column the Jester joins"}
    phases = frozenset({ACTIVATE})
    forms = (("jester as COL", "where a summoned Jester goes"),)

    def parse(self, state: State, args: Args) -> Event:
        rest = plain(args.words)
        if rest and rest[0].lower() == "as":
            rest = rest[1:]
        need(rest, 1, args.text, "jester as COLUMN, e.g. jester as duke")
        expect_end(rest[1:], args.text)
        return self.make(args.by, column=column(rest[0], args.text))

    def format(self, state: State, event: Event) -> str:
        return f"jester as {event['column']}"

    def apply(self, state: State, event: Event) -> State:
        rules.expect_pending(state, "jester", "jester as COLUMN")
        castle = state.castle.add("jester", rules.column_field(event["column"]))
        return rules.next_pending(rules.set_castle(state, castle))

    def moves(self, state: State) -> Iterator[Event]:
        if state.pending[0] == "jester":
            for choice in COLUMNS:
                yield self.make(state.player, column=choice)


class Wizard(EventType[State]):
    name = "wizard"
    doc = "a wizard's swap of a castle subject with a hill subject"
    fields = {"give": "str", "give_column": "str", "side": "str", "row": "int", "column": "str"}
    field_docs = {"give": "the castle tile given",
                  "give_column": "only when a Jester is given: its column",
                  "side": "the hill column of the tile taken",
                  "row": "its hill row",
                  "column": "only when a Jester is taken: the column it joins"}
    optional = frozenset({"give_column", "column"})
    phases = frozenset({ACTIVATE})
    forms = (("wizard TILE [from COL] for SIDE ROW [as COL]",
              "wizard duke for left 4; wizard jester from queen for right 1"),)

    def parse(self, state: State, args: Args) -> Event:
        rest, text = plain(args.words), args.text
        low = [w.lower() for w in rest]
        if "for" not in low:
            raise NotationError(f"{text!r}: write wizard TILE for SIDE ROW, e.g. wizard duke for "
                                "left 4", code="bad-wizard")
        cut = low.index("for")
        give_words = join_knight_words(rest[:cut], state.orders)
        give_column = None
        if len(give_words) == 3 and give_words[1].lower() == "from":
            give_column = column(give_words[2], text)
            give_words = give_words[:1]
        need(give_words, 1, text, "wizard TILE for SIDE ROW")
        expect_end(give_words[1:], text)
        give = parse_tile(give_words[0], state.orders, text)
        side, row, tail = parse_slot(rest[cut + 1:], text, "wizard duke for left 4")
        return self.make(args.by, give=give, give_column=give_column, side=side, row=row,
                         column=parse_as(tail, text))

    def format(self, state: State, event: Event) -> str:
        give = event["give"]
        if event.get("give_column"):
            give += f" from {event['give_column']}"
        return f"wizard {give} for {event['side']} {event['row']}" + as_column(event.get("column"))

    def apply(self, state: State, event: Event) -> State:
        text = self.format(state, event)
        rules.expect_pending(state, "wizard", text)
        give = event["give"]
        give_column = rules.arrival_column(give, event.get("give_column"), text, "Wizard")
        if (give, True) not in state.castle.column(give_column):
            raise IllegalMove(f"{text}: there is no face-up {give} in your {give_column} column",
                              code="not-in-castle", rule="Wizard")
        side, row = rules.side_field(event["side"]), event["row"]
        tile = state.hill_tile(side, row)
        if tile is None or not is_subject(tile):
            what = f"holds {tile}, a specialist" if tile else "is empty"
            raise IllegalMove(f"{text}: the hill at {SIDES[side]} {row} {what}; the wizard swaps "
                              "with a subject", code="not-a-subject", rule="Wizard")
        column_to = rules.arrival_column(tile, event.get("column"), text, "Wizard")
        castle = state.castle.remove_face_up(give, give_column).add(tile, column_to)
        column_tiles = state.hill[side]
        hill = with_item(state.hill, side,
                         column_tiles[:row - 1] + (give,) + column_tiles[row:])
        return rules.next_pending(evolve(rules.set_castle(state, castle), hill=hill))

    def moves(self, state: State) -> Iterator[Event]:
        if state.pending[0] != "wizard":
            return
        gives = sorted({(tile, col) for col in COLUMNS
                        for tile, up in state.castle.column(col) if up},
                       key=lambda g: (COLUMNS.index(g[1]), g[0]))
        for tile, col in gives:
            for side, row, hill_tile in state.hill_subjects():
                for choice in (COLUMNS if hill_tile == "jester" else (None,)):
                    yield self.make(state.player, give=tile, side=SIDES[side], row=row,
                                    column=choice, give_column=col if tile == "jester" else None)


class Tax(EventType[State]):
    name = "tax"
    doc = "the subject type a tax collector taxes"
    fields = {"column": "str"}
    field_docs = {"column": "the castle column taxed"}
    phases = frozenset({ACTIVATE})
    forms = (("tax COL", "tax farmer"),)

    def parse(self, state: State, args: Args) -> Event:
        rest = plain(args.words)
        need(rest, 1, args.text, "tax COLUMN, e.g. tax farmer")
        expect_end(rest[1:], args.text)
        return self.make(args.by, column=column(rest[0], args.text))

    def format(self, state: State, event: Event) -> str:
        return f"tax {event['column']}"

    def apply(self, state: State, event: Event) -> State:
        tile = state.pending[0] if state.pending else ""
        text = self.format(state, event)
        if kind(tile) != "tax":
            rules.expect_pending(state, "tax", text)
        taxed = rules.column_field(event["column"])
        needed, gold = tax_terms(tile)
        castle = state.castle
        if taxed in castle.taxed:
            raise IllegalMove(f"{text}: you have taxed your {taxed} column before (tax token)",
                              code="taxed-before", rule="Tax Collector")
        if castle.face_up(taxed) < needed:
            raise IllegalMove(f"{text}: {tile} needs {needed} identical face-up subjects; your "
                              f"{taxed} column has {castle.face_up(taxed)} (R-6, R-18)",
                              code="too-few-subjects", rule="Tax Collector")
        after = evolve(castle.turn_down(taxed, needed), gold=castle.gold + gold,
                        taxed=castle.taxed | {taxed})
        later = [tax_terms(t)[0] for t in state.pending[1:]]
        if not taxes_feasible(after, later):
            raise IllegalMove(f"{text}: then the next tax collector could not be activated; "
                              "every summoned specialist must be used (R-13)",
                              code="strands-specialist", rule="R-13")
        return rules.next_pending(rules.set_castle(state, after))

    def moves(self, state: State) -> Iterator[Event]:
        first = state.pending[0]
        if kind(first) != "tax":
            return
        needed, _ = tax_terms(first)
        later = [tax_terms(t)[0] for t in state.pending[1:]]
        castle = state.castle
        for choice in COLUMNS:
            if choice in castle.taxed or castle.face_up(choice) < needed:
                continue
            after = evolve(castle.turn_down(choice, needed), taxed=castle.taxed | {choice})
            if taxes_feasible(after, later):
                yield self.make(state.player, column=choice)


class Kingdom(EventType[State]):
    name = "kingdom"
    doc = "phase 3: the kingdom bonus; column: farmer or wife"
    fields = {"column": "str"}
    field_docs = {"column": "the influence-1 column used: farmer or wife"}
    phases = frozenset({KINGDOM})
    forms = (("kingdom farmer|wife", "the kingdom bonus (`kingdom` alone when only one fits)"),)

    def parse(self, state: State, args: Args) -> Event:
        rest, text = plain(args.words), args.text
        if rest:
            expect_end(rest[1:], text)
            choice = match(rest[0], ("farmer", "wife"), "kingdom bonus 1-influence column",
                           text=text)
            return self.make(args.by, column=choice)
        usable = [c for c in ("farmer", "wife") if state.castle.face_up(c)]
        if len(usable) == 2:
            raise AmbiguousMove(f"{text!r}: a farmer or a wife can stand for influence 1; write "
                                "'kingdom farmer' or 'kingdom wife'", code="ambiguous-kingdom")
        return self.make(args.by, column=usable[0] if usable else "farmer")

    def format(self, state: State, event: Event) -> str:
        return f"kingdom {event['column']}"

    def apply(self, state: State, event: Event) -> State:
        # `kingdom` alone fills in the column: the refusals speak of the bonus, not of a
        # `kingdom farmer` nobody typed.
        low = event["column"]
        if low not in ("farmer", "wife"):
            raise IllegalMove(f"{self.format(state, event)}: the influence-1 subject is a farmer "
                              "or a wife", code="bad-column", rule="Kingdom bonus")
        if state.kingdom_claimed:
            raise IllegalMove("the kingdom bonus: one per turn", code="one-kingdom-per-turn",
                              rule="Kingdom bonus")
        if state.kingdoms_left <= 0:
            raise IllegalMove("the kingdom bonus: all 6 kingdom tokens are taken (R-7)",
                              code="no-kingdom-tokens", rule="R-7")
        castle = state.castle
        missing = [c for c in KINGDOM_COLUMNS if not castle.face_up(c)]
        if not castle.face_up(low):
            other = "wife" if low == "farmer" else "farmer"
            missing.append(low if castle.face_up(other) else "farmer or wife")
        if missing:
            raise IllegalMove(f"the kingdom bonus needs a face-up subject of each influence "
                              f"5-4-3-2-1 (a Jester stands in for its column): no face-up "
                              f"{', '.join(missing)}", code="kingdom-incomplete",
                              rule="Kingdom bonus")
        for turned in KINGDOM_COLUMNS + (low,):
            castle = castle.turn_down(turned, 1)
        castle = evolve(castle, gold=castle.gold + KINGDOM_GOLD, kingdoms=castle.kingdoms + 1)
        return evolve(rules.set_castle(state, castle), kingdom_claimed=True)

    def moves(self, state: State) -> Iterator[Event]:
        for choice in rules.kingdom_choices(state):
            yield self.make(state.player, column=choice)


class Refill(EventType[State]):
    name = "refill"
    doc = "phase 4: the hill column that refills the valley"
    fields = {"side": "str"}
    field_docs = {"side": "the hill column that refills the valley: left or right"}
    phases = frozenset({KINGDOM})
    forms = (("refill left|right", "replenish the valley from that hill column; ends the turn"),)

    def parse(self, state: State, args: Args) -> Event:
        rest = plain(args.words)
        need(rest, 1, args.text, "refill left or refill right")
        expect_end(rest[1:], args.text)
        side = match(rest[0], SIDES, "hill column", text=args.text, aliases=initials(SIDES))
        return self.make(args.by, side=side)

    def format(self, state: State, event: Event) -> str:
        return f"refill {event['side']}"

    def apply(self, state: State, event: Event) -> State:
        side = rules.side_field(event["side"])
        hill = list(state.hill)  # a column's tuple is made again only when a tile leaves it
        valley = list(state.valley)
        for square in state.emptied:
            source = side if hill[side] else 1 - side  # then the other column
            if not hill[source]:
                break  # the hill is bare; the square stays empty
            valley[square], hill[source] = hill[source][0], hill[source][1:]
        gaps = [HILL_ROWS - len(hill[0]), HILL_ROWS - len(hill[1])]
        supply = state.pile_supply()
        count = min(sum(gaps), supply)
        left = min(gaps[0], count)  # new tiles fill the left column first
        changes = {"valley": tuple(valley), "hill": tuple(hill),
                   "awaiting": (HILL_PLACE[0],) * left + (HILL_PLACE[1],) * (count - left),
                   "end_triggered": state.end_triggered or supply < sum(gaps)}
        if count:
            return evolve(state, **changes, phase=REVEAL)
        return rules.next_turn(state, **changes)

    def moves(self, state: State) -> Iterator[Event]:
        for side in SIDES:
            yield self.make(state.player, side=side)


EVENTS = Events(Reveal(), King(), Recruit(), Move(), Pass(), Jester(), Wizard(), Tax(),
                Kingdom(), Refill(), End())
