"""King of the Valley in words: the board for `status`, what a move changed, the folded options."""

from __future__ import annotations

from typing import Any

from referee.engine import Event
from referee.games.king_of_the_valley.components import (
    COLUMNS,
    FILES,
    HILL_ROWS,
    PILE_NAMES,
    SIDES,
    SIZE,
    place_name,
    square_name,
)
from referee.games.king_of_the_valley.notation import parse_square
from referee.games.king_of_the_valley.rules import OVER, round_name, to_act
from referee.games.king_of_the_valley.scoring import outcome
from referee.games.king_of_the_valley.state import State
from referee.textsafe import clean_line, short_names

# --------------------------------------------------------------------------------------------
# The board


def _cell(state: State, square: int) -> str:
    tile = state.valley[square] or "."
    if state.coins[square]:
        tile += f" ${state.coins[square]}"
    kings = [str(i + 1) for i, k in enumerate(state.kings) if k == square]
    if kings:
        tile += " <" + ",".join(kings) + ">"
    return tile


def render(state: State) -> str:
    width = 16
    stage = ("the game is over" if state.phase == OVER else "setting up" if state.setting_up
             else round_name(state))
    lines = [f"King of the Valley - {stage}", "",
             "Valley (<n> = king of player n, $n = priests' coins)",
             ("    " + "".join(f"{f:<{width}}" for f in FILES)).rstrip()]
    for row in reversed(range(SIZE)):
        cells = "".join(f"{_cell(state, row * SIZE + c):<{width}}" for c in range(SIZE))
        lines.append(f" {row + 1}  {cells}".rstrip())
    lines.append("Kings: " + ", ".join(
        f"{i + 1} {clean_line(n)} {square_name(k) if k is not None else '(not placed)'}"
        for i, (n, k) in enumerate(zip(state.names, state.kings))))
    lines += ["", f"Hill   {'price':>5}  {'left':<10}  right"]
    for row in reversed(range(1, HILL_ROWS + 1)):
        left, right = (state.hill_tile(s, row) or "." for s in (0, 1))
        lines.append(f" row {row} {state.prices[row - 1]:>4}  {left:<10}  {right}")
    piles = ", ".join(f"{n} {c}" for n, c in zip(("I", "II", "III"), state.unrevealed()))
    lines.append(f"Piles: {piles}" + ("  (virtual piles, --shuffle)" if state.virtual else ""))
    lines.append(f"Kingdom tokens left: {state.kingdoms_left}")
    lines += ["", "Castles ((tile) = face down, * = taxed column):"]
    for i, (name, castle) in enumerate(zip(state.names, state.castles)):
        lines.append(f" {i + 1} {clean_line(name)}: {castle.gold} gold, "
                     f"{castle.kingdoms} kingdom token(s)")
        for column in COLUMNS:
            held = " ".join(t if up else f"({t})" for t, up in castle.column(column)) or "-"
            mark = "*" if column in castle.taxed else " "
            lines.append(f"     {column:<9}{mark} {held}")
    if state.pending:
        lines.append(f"\nStill to place or activate: {' '.join(state.pending)}")
    if state.end_triggered and state.phase != "over":
        lines.append("\nThe end is triggered: this round is the last.")
    lines += ["", f"Game over: {outcome(state)}" if state.phase == OVER else
              to_act(state).line()]
    return "\n".join(lines)


def compact(state: State) -> str:
    """The board for a shared 80x24 screen: the valley (columns as wide as their tiles), the
    hill, a table of the castles with the count of each column, who acts. The tiles in each
    castle are in `status --full`."""
    stage = ("the game is over" if state.phase == OVER else "setting up" if state.setting_up
             else round_name(state))
    piles = ", ".join(f"{n} {c}" for n, c in zip(("I", "II", "III"), state.unrevealed()))
    lines = [f"King of the Valley - {stage}; piles {piles}; kingdom tokens "
             f"{state.kingdoms_left}"]
    grid = [[_cell(state, row * SIZE + c) for c in range(SIZE)] for row in range(SIZE)]
    widths = [max(len(FILES[c]), *(len(grid[r][c]) for r in range(SIZE))) + 2
              for c in range(SIZE)]
    lines.append(_within("    " + "".join(f.ljust(w) for f, w in zip(FILES, widths)),
                         "<n> king, $n coins"))
    for row in reversed(range(SIZE)):
        lines.append((f" {row + 1}  " + "".join(cell.ljust(w) for cell, w
                                                  in zip(grid[row], widths))).rstrip())
    unplaced = [clean_line(n) for n, k in zip(state.names, state.kings) if k is None]
    if unplaced:
        lines.append(f"Kings not placed yet: {', '.join(unplaced)}")
    lines.append("Hill: " + "  ".join(
        f"{state.prices[row - 1]} " + "/".join(state.hill_tile(s, row) or "." for s in (0, 1))
        for row in reversed(range(1, HILL_ROWS + 1))))
    lines += _castle_table(state)
    if state.pending:
        lines.append(f"Still to place or activate: {' '.join(state.pending)}")
    if state.end_triggered and state.phase != "over":
        lines.append("The end is triggered: this round is the last.")
    lines.append(f"Game over: {outcome(state)}" if state.phase == OVER else to_act(state).line())
    return "\n".join(lines)


def _within(line: str, legend: str, width: int = 80) -> str:
    """`line` with `legend` after it when both fit in `width` columns."""
    return line + legend if len(line) + len(legend) <= width else line.rstrip()


def _castle_table(state: State) -> list[str]:
    heads = ["gold", "tok"] + list(COLUMNS)
    rows = []
    for castle in state.castles:
        row = [str(castle.gold), str(castle.kingdoms)]
        for column in COLUMNS:
            tiles = castle.column(column)
            down = sum(1 for _, up in tiles if not up)
            row.append(f"{len(tiles)}" + (f"({down})" if down else "")
                       + ("*" if column in castle.taxed else ""))
        rows.append(row)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(heads)]
    names = [f" {i + 1} {n}" for i, n in enumerate(short_names(state.names, 8))]
    from referee.screen import cells, ljust  # by columns: a name in Chinese takes two a letter

    lead = max(len("Castles"), *map(cells, names)) + 1
    lines = [_within("Castles".ljust(lead) + " ".join(h.rjust(w) for h, w in zip(heads, widths)),
                     "  (n) down, * taxed")]
    for name, row in zip(names, rows):
        lines.append(ljust(name, lead) + " ".join(c.rjust(w) for c, w in zip(row, widths)))
    return lines


def _summon_lines(before: State, after: State) -> list[str]:
    lines = []
    priests = [square_name(s) for s in after.emptied if before.valley[s] == "priest"]
    if priests:
        lines.append(f"Priest(s) visited on {', '.join(priests)}: 1 gold left on each square")
    if after.pending:
        lines.append(f"Now place or activate, in this order: {' '.join(after.pending)}")
    elif len(after.discard) > len(before.discard) + len(priests):
        used = after.discard[len(before.discard) + len(priests):]
        lines.append(f"Used and discarded: {' '.join(used)}")
    return lines


def describe(before: State, event: Event, text: str, after: State) -> list[str]:
    who = f"{clean_line(event.by)}: " if event.by else ""
    lines = [who + text]
    for name, old, new in zip(before.names, before.castles, after.castles):
        if old.gold != new.gold:
            lines.append(f"{clean_line(name)}'s gold: {old.gold} -> {new.gold}")
        gained = new.tiles()
        for t in old.tiles():
            if t in gained:
                gained.remove(t)
        if gained:
            lines.append(f"{clean_line(name)}'s castle gains {' '.join(gained)}")
    if event.type == "move":
        lines += _summon_lines(before, after)
    if event.type == "refill" and before.emptied:
        filled = [f"{square_name(s)} {after.valley[s] or '(empty)'}" for s in before.emptied]
        lines.append("Valley refilled: " + ", ".join(filled))
    if after.end_triggered and not before.end_triggered:
        lines.append("The hill cannot be refilled in full: the end is triggered; this round is "
                     "completed and then the game ends.")
    if after.phase == OVER:
        lines.append(outcome(after))
    return lines


def option_lines(state: State, events: list[Event], formatted: list[str]) -> list[str]:
    """Long families folded: the tiles a reveal may name, the squares a king may start on."""
    reveals = [e for e in events if e.type == "reveal"]
    if len(reveals) > 1:
        names = ", ".join(e["tiles"][0] for e in reveals)
        where = place_name(state.awaiting[0])
        return [f"reveal TILE ...   ({len(state.awaiting)} place(s) wait, next {where} from "
                f"pile {PILE_NAMES[state.next_pile()]}; TILE is one of: {names})"]
    kings = [e["square"] for e in events if e.type == "king"]
    if len(kings) > 1:
        return [f"king SQUARE   (any tile without a king: {' '.join(kings)})"]
    width = max((len(t) for e, t in zip(events, formatted) if e.type == "move"), default=0)
    return [f"{text:<{width}}   [{summoned(state, event)}]" if event.type == "move" else text
            for event, text in zip(events, formatted)]


def summoned(state: State, event: Event) -> str:
    """What a summon obtains, as `options` notes it: 'priest -> wizard', 'farmer, farmer'."""
    path = [parse_square(s, "") for s in event["path"]]
    squares = [parse_square(s, "") for s in event.get("take", ())] or path[-1:]
    tiles = [state.valley[s] or "-" for s in squares]
    return " -> ".join(["priest"] * (len(path) - 2) + [", ".join(tiles)])


def board(state: State) -> dict[str, Any]:
    """The board as data: the valley square by square (a1..e5), the kings, the hill's columns
    with their prices, the piles' sizes (never their order), the castles column by column."""
    names = state.names
    valley = [{"square": square_name(sq), "tile": state.valley[sq], "coins": state.coins[sq],
               "kings": [names[i] for i, k in enumerate(state.kings) if k == sq]}
              for sq in range(SIZE * SIZE)]
    hill = {side: [{"row": row, "price": state.prices[row - 1],
                    "tile": state.hill_tile(index, row)} for row in range(1, HILL_ROWS + 1)]
            for index, side in enumerate(SIDES)}
    castles = [{"player": name, "gold": castle.gold, "kingdom_tokens": castle.kingdoms,
                "taxed": sorted(castle.taxed),
                "columns": {column: [{"tile": tile, "face_up": up}
                                     for tile, up in castle.column(column)]
                            for column in COLUMNS}}
               for name, castle in zip(names, state.castles)]
    return {"round": None if state.setting_up else state.round,
            "last_round": state.end_triggered, "valley": valley,
            "kings": {name: square_name(k) if k is not None else None
                      for name, k in zip(names, state.kings)},
            "hill": hill, "piles": dict(zip(PILE_NAMES, state.unrevealed())),
            "virtual_piles": state.virtual is not None,
            "awaiting": [place_name(p) for p in state.awaiting],
            "kingdom_tokens_left": state.kingdoms_left, "castles": castles,
            "pending": list(state.pending), "discarded": list(state.discard),
            "outcome": outcome(state) if state.phase == OVER else None}
