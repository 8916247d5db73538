"""King of the Valley's rules that more than one event shares: the phase and the turn, the summon
checker, carrying out a summon, the activation order, the kingdom bonus, the end of a turn.

Phase 2, the summon: which king moves are legal, and why a given one is not.

A summon is a path and, optionally, the passed tiles taken:
  path = (start, priest, priest, ..., end): every leg is a straight line; every square but the
         first and the last holds a priest the king visits (pays 1 gold, continues from there);
  take = ()  -> the single tile on `end` is summoned;
  take = squares passed on the last leg, 2 or 3 tiles of one character type, the last of them
         directly before `end` (the landing square).
`summons` lists every legal one; `check` explains, rule by rule, why one is refused. Both rest on
the same small predicates so that they cannot disagree.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any, Callable

from referee.derived import derived
from referee.engine import Event, ToAct
from referee.errors import IllegalMove, NotationError
from referee.evolve import evolve
from referee.games.king_of_the_valley.components import (
    COLUMNS,
    DIRECTIONS,
    KINGDOM_COLUMNS,
    PILE_SIZES,
    SIDES,
    SQUARE_NAMED,
    SUBJECT_KINDS,
    between,
    box_limit,
    is_subject,
    kind,
    pile_problems,
    place_name,
    ray,
    square_name,
    tax_terms,
    tile_names,
)
from referee.games.king_of_the_valley.notation import parse_square
from referee.games.king_of_the_valley.state import Castle, State, column_of, with_item
from referee.values import value

if TYPE_CHECKING:  # only seeded and random play use it
    import random

MAX_TAKE = 3


@value
class Summon:
    path: tuple[int, ...]
    take: tuple[int, ...] = ()

    @property
    def priests(self) -> tuple[int, ...]:
        return self.path[1:-1]

    @property
    def squares(self) -> tuple[int, ...]:
        """The squares whose tiles the final move obtains, in the order the king passed them."""
        return self.take or (self.path[-1],)


# ---------------------------------------------------------------------------------------------
# Specialists' requirements


def taxes_feasible(castle: Castle, needs: list[int]) -> bool:
    """Can tax collectors needing these numbers of identical subjects all be activated?

    Each one needs its own untaxed column (the tax token forbids a second tax on a type) with
    enough face-up tiles; a column that fits a larger need fits every smaller one, so serving the
    largest needs first with distinct columns is exact."""
    needs = sorted((n for n in needs if n > 0), reverse=True)
    counts = sorted((castle.face_up(c) for c in COLUMNS if c not in castle.taxed), reverse=True)
    return len(needs) <= len(counts) and all(count >= need for need, count in zip(needs, counts))


def wizard_feasible(state: State, castle: Castle) -> bool:
    return castle.any_face_up() and bool(state.hill_subjects())


def unmet_requirement(state: State, castle: Castle, tiles: list[str]) -> str | None:
    """Why the specialists among `tiles` cannot all be activated now, or None."""
    if all(kind(t) in SUBJECT_KINDS for t in tiles):  # most summons: nothing to activate
        return None
    if any(kind(t) == "wizard" for t in tiles) and not wizard_feasible(state, castle):
        if not castle.any_face_up():
            return "the wizard needs a face-up subject in your castle"
        return "the wizard needs a subject on the hill to swap with"
    taxes = [tax_terms(t)[0] for t in tiles if kind(t) == "tax"]
    if any(taxes) and not taxes_feasible(castle, taxes):
        needs = ", ".join(str(n) for n in sorted(taxes, reverse=True) if n)
        return (f"the tax collector(s) need {needs} identical face-up subjects of a type you have "
                "not taxed yet (a different type for each)")
    return None


# ---------------------------------------------------------------------------------------------
# Enumeration


@derived(State, "names", "turn", "kings", "castles", "valley", "coins", "hill")
def summons(state: State) -> tuple[Summon, ...]:
    """Every legal summon of the active player (kept in the state: `legal` asks twice, for
    moves and pass)."""
    me = state.active
    start = state.kings[me]
    if start is None:  # the kings are still being placed
        return ()
    out: list[Summon] = []
    feasible_cache: dict[tuple[str, ...], bool] = {}

    def feasible(tiles: tuple[str, ...]) -> bool:
        key = tuple(sorted(tiles))
        if key not in feasible_cache:
            feasible_cache[key] = unmet_requirement(state, state.castle, list(tiles)) is None
        return feasible_cache[key]

    def tile(square: int, gone: frozenset[int]) -> str | None:
        return None if square in gone else state.valley[square]

    def explore(path: tuple[int, ...], gold: int, gone: frozenset[int]) -> None:
        for direction in DIRECTIONS:
            line = ray(path[-1], direction)
            for j, square in enumerate(line):
                here = tile(square, gone)
                if here is not None and not state.other_king_on(square, me):
                    if here == "priest":
                        purse = gold + state.coins[square]
                        if purse >= 1:
                            explore(path + (square,), purse - 1, gone | {square})
                    elif feasible((here,)):
                        out.append(Summon(path + (square,)))
                if j >= 2:
                    _passed_takes(path + (square,), line[:j], tile, gone, feasible, state, me, out)

    explore((start,), state.castle.gold, frozenset())
    return tuple(out)


TileAt = Callable[[int, frozenset[int]], "str | None"]


def _passed_takes(path: tuple[int, ...], passed: tuple[int, ...], tile: TileAt,
                  gone: frozenset[int], feasible: Callable[[tuple[str, ...]], bool],
                  state: State, me: int, out: list[Summon]) -> None:
    """The 2-3 identical tiles taken from `passed`, the last of them right before the landing."""
    last = passed[-1]
    last_tile = tile(last, gone)
    if last_tile is None or last_tile == "priest" or state.other_king_on(last, me):
        return
    what = kind(last_tile)
    held = {s: t for s in passed[:-1] if (t := tile(s, gone)) is not None}
    others = [s for s, t in held.items() if kind(t) == what and not state.other_king_on(s, me)]
    for count in range(1, min(MAX_TAKE - 1, len(others)) + 1):
        for chosen in combinations(others, count):
            if feasible(tuple(held[s] for s in chosen) + (last_tile,)):
                out.append(Summon(path, chosen + (last,)))


# ---------------------------------------------------------------------------------------------
# Checking one summon, with the reason and the rule when it is refused


def _refuse(message: str, code: str, rule: str = "Summon") -> IllegalMove:
    return IllegalMove(message, code=code, rule=rule)


def check(state: State, summon: Summon) -> None:
    """Raise IllegalMove naming the rule if `summon` is not legal for the active player."""
    me = state.active
    path = summon.path
    if len(path) < 2:
        raise _refuse_move(path, ": name where your king starts and where it ends",
                           "incomplete-move")
    start = state.kings[me]
    assert start is not None  # summons come after the kings are placed
    if path[0] != start:
        raise _refuse_move(path, f": your king stands on {square_name(start)}, "
                           f"not on {square_name(path[0])}", "not-your-square")
    gold = state.castles[me].gold
    gone: set[int] = set()
    for leg, (a, b) in enumerate(zip(path, path[1:]), start=1):
        if a == b:
            raise _refuse_move(path, ": you may not summon the tile you start on (only after a "
                               "priest may you come back to it)", "start-square")
        if between(a, b) is None:
            raise _refuse_move(path, f": {square_name(a)} to {square_name(b)} is not a straight "
                               "line (orthogonal or diagonal)", "not-a-line")
        if leg == len(path) - 1:
            break
        here = None if b in gone else state.valley[b]
        if here != "priest":
            raise _refuse_move(path, ": the king may only change direction at a priest, and "
                               f"{square_name(b)} holds {here or 'no tile'}", "not-a-priest",
                               "Priest")
        if state.other_king_on(b, me):
            raise _refuse_move(path, f": the priest on {square_name(b)} is under another king",
                               "under-a-king")
        gold += state.coins[b]
        if gold < 1:
            raise _refuse_move(path, f": the priest on {square_name(b)} needs 1 gold and you "
                               "have none", "priest-needs-gold", "Priest")
        gold -= 1
        gone.add(b)
    _check_final(state, summon, gone)


def _check_final(state: State, summon: Summon, gone: set[int]) -> None:
    me = state.active
    path = summon.path
    end = path[-1]

    def tile(square: int) -> str | None:
        return None if square in gone else state.valley[square]

    if not summon.take:
        here = tile(end)
        if here is None:
            raise _refuse_move(path, f": {square_name(end)} holds no tile to summon",
                               "empty-square")
        if state.other_king_on(end, me):
            raise _refuse_move(path, ": you may not summon the tile under another king on "
                               f"{square_name(end)}", "under-a-king")
        if here == "priest":
            raise _refuse_move(path, ": a priest only changes your path; continue from "
                               f"{square_name(end)} to a tile (e.g. move {_words(path)} SQUARE)",
                               "priest-must-continue", "Priest")
        tiles = [here]
    else:
        tiles = _check_take(state, summon, tile)
    problem = unmet_requirement(state, state.castles[me], tiles)
    if problem:
        rule = "Wizard" if kind(tiles[0]) == "wizard" else "Tax Collector"
        raise _refuse_move(path, f": {problem}, so you cannot summon "
                           f"{' and '.join(tiles)}", "requirement-not-met", rule)


def _check_take(state: State, summon: Summon, tile: Callable[[int], "str | None"]) -> list[str]:
    me = state.active
    path = summon.path
    passed = between(path[-2], path[-1]) or ()
    take = summon.take
    if not 2 <= len(take) <= MAX_TAKE or len(set(take)) != len(take):
        raise _refuse_move(path, f" take {_words(take)}: take 2 or 3 passed tiles (or none, to "
                           "summon the tile you end on)", "take-two-or-three")
    for square in take:
        if square not in passed:
            raise _refuse_move(path, f": {square_name(square)} is not passed on the last move",
                               "not-passed")
        if tile(square) is None:
            raise _refuse_move(path, f": {square_name(square)} holds no tile", "empty-square")
        if state.other_king_on(square, me):
            raise _refuse_move(path, ": you may not summon the tile under another king on "
                               f"{square_name(square)}", "under-a-king")
    if take[-1] != passed[-1] or list(take) != sorted(take, key=passed.index):
        raise _refuse_move(path, f" take {_words(take)}: you must end on the square directly "
                           f"behind the last tile you take ({square_name(passed[-1])} is the "
                           "last passed)",
                           "land-behind-last")
    tiles = [t for s in take if (t := tile(s)) is not None]  # each was checked above
    if "priest" in tiles:
        raise _refuse_move(path, ": a priest is summoned only by ending a move on it (R-11)",
                           "priest-not-passed", "R-11")
    if len({kind(t) for t in tiles}) != 1:
        raise _refuse_move(path, f": {', '.join(tiles)} are not identical characters (R-5)",
                           "not-identical", "R-5")
    return tiles


def _refuse_move(path: tuple[int, ...], rest: str, code: str, rule: str = "Summon") -> IllegalMove:
    """A refused summon, quoting its path: `move a1 c3` followed by `rest`."""
    return _refuse(f"move {_words(path)}{rest}", code, rule)


def _words(path: tuple[int, ...]) -> str:
    """A path's squares as typed, written only when a refusal quotes them."""
    return " ".join(square_name(s) for s in path)


# ---------------------------------------------------------------------------------------------
# The phase and the turn

REVEAL, KING, RECRUIT, SUMMON, ACTIVATE, KINGDOM, OVER = (
    "reveal", "king", "recruit", "summon", "activate", "kingdom", "over")


def to_act(state: State) -> ToAct:
    phase = state.phase
    if phase == OVER:
        return ToAct((), "the game is over")
    if phase == REVEAL:
        where = place_name(state.awaiting[0])
        return ToAct((), f"reveal {len(state.awaiting)} tile(s), next {where}", table=True)
    who = (state.player,)
    if phase == KING:
        return ToAct(who, "set-up: place your king on a valley tile")
    if phase == RECRUIT:
        return ToAct(who, f"{round_name(state)}: recruit from the hill, or summon")
    if phase == SUMMON:
        return ToAct(who, f"{round_name(state)}: summon")
    if phase == ACTIVATE:
        first = state.pending[0]
        what = {"jester": "place the Jester in a column",
                "wizard": "activate the wizard: swap a subject with the hill"}
        return ToAct(who, what.get(first, f"activate {first}: choose the subjects to tax"))
    if kingdom_choices(state):
        return ToAct(who, "claim the kingdom bonus, or replenish (refill left/right)")
    return ToAct(who, "replenish: refill the valley from the left or right hill column")


def round_name(state: State) -> str:
    """'round 4', or 'round 10 (the last)' once the end is triggered."""
    return f"round {state.round}" + (" (the last)" if state.end_triggered else "")


def next_turn(state: State, **changes: Any) -> State:
    """The next turn begins, in one copy with the `changes` that ended this one (they may
    trigger the end; they never touch the castles, which a round's end keeps)."""
    turn = state.turn + 1
    players = len(state.names)
    changes.update(turn=turn, emptied=(), kingdom_claimed=False, pending=())
    if turn % players:
        changes["phase"] = RECRUIT if turn // players >= 1 else SUMMON  # recruiting from round 2
    else:  # a round ends: its castles are kept for the scoresheet
        ended = changes.get("end_triggered", state.end_triggered)
        changes.update(round_castles=state.round_castles + (state.castles,),
                       phase=OVER if ended else RECRUIT)
    return evolve(state, **changes)


# ---------------------------------------------------------------------------------------------
# Values of logged events (a hand-edited log may carry anything)


def square_field(name: str) -> int:
    found = SQUARE_NAMED.get(name)  # the 25 squares as a log writes them: most moves' words
    if found is not None:
        return found
    try:
        return parse_square(name, name)
    except NotationError as exc:
        raise IllegalMove(exc.message, code="bad-square", rule="Notation") from None


def column_field(name: str) -> str:
    if name not in COLUMNS:
        raise IllegalMove(f"{name!r} is not a castle column ({', '.join(COLUMNS)})",
                          code="bad-column", rule="Notation")
    return name


def side_field(name: str) -> int:
    if name not in SIDES:
        raise IllegalMove(f"{name!r} is not a hill column (left or right)", code="bad-side",
                          rule="Notation")
    return SIDES.index(name)


def arrival_column(tile: str, column: str | None, text: str, rule: str) -> str:
    """The column a subject goes to: its portrait's, or for a Jester the one chosen."""
    if tile == "jester":
        if column is None:
            raise IllegalMove(f"{text}: a Jester's column must be chosen at once (add 'as "
                              "COLUMN')", code="jester-needs-column", rule=rule)
        return column_field(column)
    if column is not None:
        raise IllegalMove(f"{text}: only a Jester has a column to choose; {tile} goes to "
                          f"{column_of(tile)}", code="not-a-jester", rule=rule)
    if not is_subject(tile):
        raise IllegalMove(f"{text}: {tile} is not a subject", code="not-a-subject", rule=rule)
    return column_of(tile)


# ---------------------------------------------------------------------------------------------
# Carrying out a summon, and what follows it


def move_event(state: State, summon: Summon) -> Event:
    return Event.make("move", state.player, path=[square_name(s) for s in summon.path],
                      take=[square_name(s) for s in summon.take] or None)


def set_castle(state: State, castle: Castle) -> State:
    return evolve(state, castles=with_item(state.castles, state.active, castle))


def expect_pending(state: State, what: str, text: str) -> None:
    first = state.pending[0]
    if kind(first) != what:
        todo = "place the Jester" if first == "jester" else f"activate {first}"
        raise IllegalMove(f"{text}: first {todo} (summoned tiles are placed and activated in the "
                          "order passed, R-13)", code="wrong-activation", rule="R-13")


def next_pending(state: State) -> State:
    pending = state.pending[1:]
    return evolve(state, pending=pending, phase=ACTIVATE if pending else KINGDOM)


def carry_out(state: State, summon: Summon) -> State:
    """Carry out a checked summon: priests paid, tiles taken, coins collected, king moved."""
    me = state.active
    castle = state.castles[me]
    gold = castle.gold
    valley, coins = list(state.valley), list(state.coins)
    discard, pending, emptied, subjects = list(state.discard), [], [], []
    for square in summon.priests:
        gold += coins[square] - 1
        coins[square] = 1  # the priest's coin stays on the square (and later on its new tile)
        discard.append("priest")
        valley[square] = None
        emptied.append(square)
    for square in summon.squares:
        tile = valley[square]
        assert tile is not None  # the summon was checked
        gold += coins[square]
        coins[square] = 0
        valley[square] = None
        emptied.append(square)
        if tile == "jester":
            pending.append(tile)
        elif is_subject(tile):
            subjects.append(tile)
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
    castles = with_item(state.castles, me, castle.receiving(subjects, gold))
    return evolve(state, castles=castles, valley=tuple(valley), coins=tuple(coins),
                  discard=tuple(discard), pending=tuple(pending), emptied=tuple(emptied),
                  kings=with_item(state.kings, me, summon.path[-1]),
                  phase=ACTIVATE if pending else KINGDOM)


def kingdom_choices(state: State) -> list[str]:
    """The influence-1 columns (farmer, wife) with which a kingdom bonus can be claimed now."""
    if state.kingdom_claimed or state.kingdoms_left <= 0:
        return []
    castle = state.castle
    if not all(castle.face_up(c) for c in KINGDOM_COLUMNS):
        return []
    return [c for c in ("farmer", "wife") if castle.face_up(c)]



# ---------------------------------------------------------------------------------------------
# Tiles put out: a virtual game's next ones, a physical random game's plausible ones


def virtual_next(state: State, count: int) -> tuple[str, ...]:
    taken = [len(s) for s in state.seen]
    out = []
    for _ in range(count):
        pile = next(i for i, size in enumerate(PILE_SIZES) if taken[i] < size)
        assert state.virtual is not None
        out.append(state.virtual[pile][taken[pile]])
        taken[pile] += 1
    return tuple(out)


def random_unseen(state: State, rng: random.Random) -> str:
    """A tile the box still holds, weighted by how many are left, that fits the next pile."""
    pile = state.next_pile()
    names = list(tile_names(state.orders))
    weights: list[float] = []
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


