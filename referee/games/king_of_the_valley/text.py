"""King of the Valley as text: the rules summary with every ruling, the board, what a move did."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.games.king_of_the_valley.board import (
    FILES, HILL_ROWS, SIZE, State, square_name)
from referee.games.king_of_the_valley.tiles import ASSUMED_PILE_MIX, COLUMNS
from referee.textsafe import clean_line

if TYPE_CHECKING:  # pragma: no cover
    from referee.engine import Event
    from referee.games.king_of_the_valley.game import KingOfTheValley

NOTATION_HELP = (
    "reveal TILE... | king SQ | recruit SIDE ROW [as COL] | move SQ SQ [SQ...] [take TYPE|SQ...] "
    "| pass | jester as COL | wizard TILE [from COL] for SIDE ROW [as COL] | tax COL | "
    "kingdom farmer|wife | refill left|right   (SQ a1..e5; SIDE left/right; ROW 1-6, 1 = bottom)")

SHEET_NOTES = (
    "Influence: queen 5, duke 4, countess 3, knight 2, farmer 1, wife 1, jester 0 (R-10); "
    "kingdom tokens 5 each; Knight Orders 3/5/8 for 3/4/5 knights of one Order; couples 2 per "
    "farmer + wife; gold 1 each.",
)


def _mix_table() -> str:
    names = sorted({n for mix in ASSUMED_PILE_MIX for n in mix},
                   key=lambda n: [k for mix in ASSUMED_PILE_MIX for k in mix].index(n))
    lines = []
    for name in names:
        label = f"knight (Order {int(name[7:]) + 1})" if name.startswith("knight#") else name
        counts = "  ".join(f"{mix.get(name, 0):>3}" for mix in ASSUMED_PILE_MIX)
        lines.append(f"     {label:<18}{counts}")
    return "\n".join(lines)


RULES_TEXT = f"""\
KING OF THE VALLEY (Hans van Tol, The Game Master 2021) - as refereed by `referee`

2-4 players, each with a king, a castle board and 2 gold. 90 character tiles in three face-down
piles (I = 29, II = 30, III = 31): subjects Queen x3 (influence 5), Duke x6 (4), Countess x9 (3),
Knight x20 (2; four Orders of five), Farmer x24 (1), Farmer's Wife x12 (1), Jester x3 (0);
specialists Priest x3 (one per pile), Wizard x2 (piles II, III), Tax Collector x8.
Set-up: the valley is 25 tiles of pile I face up in a 5x5 grid (a1..e5: a = left column,
1 = the row nearest the starting player); the hill has two columns of six rows (row 1 = bottom,
cheapest): the last 4 tiles of pile I on rows 1-2, 8 tiles of pile II on rows 3-6. In seat order
every player puts his king on a valley tile (one king per tile, at set-up only).

A turn has four phases, in order:
 1 Recruit (optional, from round 2): pay the row's price, take one SUBJECT from the hill into the
   castle column of its portrait (a Jester: a column chosen at once). Tiles above slide down.
 2 Summon (mandatory): move the king in a straight line (orthogonal or diagonal) and take either the
   single tile you end on, or 2-3 tiles of one identical character you passed, ending on the
   square directly behind the last of them. Kings may be passed, never summoned from; you may end
   on a king only when taking passed tiles; never summon the tile you start on.
   Subjects go to the castle. Specialists are activated at once, then discarded, and cannot be
   summoned if their requirement cannot be met: Priest (1 gold, left on its square; continue from
   there as if the turn started there - your start square included; only the last move obtains
   tiles), Wizard (swap a face-up castle subject with a hill subject), Tax Collector (no
   requirement: take its gold; else turn N identical face-up subjects of an untaxed type face
   down, take the gold, put a tax token on that type).
 3 Kingdom bonus (optional, once per turn): five face-up subjects of influence 5-4-3-2-1 (a farmer
   or a wife, not both; Jesters stand in for their column) are turned face down: 5 gold and a
   kingdom token.
 4 Replenish: the active player chooses the left or right hill column; the emptied valley squares
   are filled from its bottom in the order the king passed them; the hill is topped up from pile
   II, then III.
End: when the hill cannot be topped up in full, the round is completed (every player has had the
same number of turns). Score: influence + 5 per kingdom token + Knight Orders (3 knights of one
Order 3, 4 -> 5, 5 -> 8) + 2 per farmer-and-wife couple + 1 per gold. Ties: influence, then a
shared place.

Table rulings (R-1..R-10 from the rules page; options are set with `referee new --option K=V`):
 R-1  option orders = A,B,C,D: the Knight Order labels; knights are tiles knight-A .. knight-D.
 R-2  Tile identities are reported, not assumed: every tile put out (valley and hill at set-up,
      every new hill tile) is a `reveal`, checked against the box totals and the piles (29/30/31,
      one priest per pile, wizards only in II and III, at most 8 tax collectors).
 R-3  Tax collectors are entered as printed: tax-G (no requirement, G = 3 or 4 gold) or tax-N-G
      (N = 3, 4 or 5 identical subjects, G = 5..10 gold).
 R-4  option hill_prices = 2,3,4,6,8,10: the price of each hill row, bottom first. Check it
      against your hill.
 R-5  Identical character = same type: Knights of any Orders, and all Tax Collectors, are
      identical for summoning.
 R-6  A Jester counts as the type of its column for kingdom sets and taxes.
 R-7  At most 6 kingdom bonuses in the game (6 tokens).
 R-8  New hill tiles come from pile II, then pile III (pile I is used up at set-up).
 R-9  If the chosen hill column runs out while refilling the valley, continue from the other.
 R-10 Jesters score nothing at the end (no influence, no Order or couple bonus).
Rulings this referee adds where the rules are silent:
 R-11 A priest is summoned only by ending a move on it, never as one of 2-3 passed tiles, and
      the king then continues from it: a summon never ends on a priest it visits (landing on
      one behind taken tiles leaves it in place). Coins lying on a summoned tile come with it
      (before a priest is paid, so they can pay it).
 R-12 Tiles turned face down by a tax collector or the kingdom bonus: in each column the real
      subjects first (earliest first), a Jester last. Turn down the same tiles at the table.
 R-13 Summoned tiles are placed and activated one by one, in the order the king passed them. A
      summon is refused unless all its specialists can be activated, and a tax choice that would
      leave a later tax collector unusable is refused.
 R-14 Reveal order: the valley a1..e1, a2..e2, ... e5; then the hill row by row, left then right
      (rows 1-2 from pile I, rows 3-6 from pile II). New hill tiles fill the left column's gaps
      first, then the right's.
 R-15 A player who can make no legal summon records `pass` (legal only then) and goes on with
      phases 3 and 4.
 R-16 Once the end is triggered the hill gets what the piles still hold; if the hill runs dry, a
      valley square that cannot be refilled stays empty: it can be passed, or landed on behind
      taken tiles, but holds nothing to summon.
 R-17 Wizard: only a face-up subject may be given; it takes the hill tile's place (same row). A
      Jester taken from the hill chooses its column at once; a Jester given up leaves its column.
 R-18 "N identical subjects" for a tax collector = N face-up tiles of one castle column (Knights of
      all Orders together, Jesters as their column). The tax tokens are a reminder: the referee
      keeps track per player and type, and the 6 tokens do not limit taxes.
 R-19 Virtual piles (`--shuffle --seed N`, `simulate`) only: the per-pile mix is not published, so
      it is ASSUMED to be (pile I / II / III; tax-G / tax-N-G as in R-3):
{_mix_table()}
      A game with a physical copy never depends on it.

Notation (case-insensitive; unique prefixes accepted; `options` prints the canonical forms):
  reveal TILE...              tiles put out, in the order of the waiting places (R-14), e.g.
                              reveal knight-B farmer; a --shuffle game fills them in: reveal
  king SQ                     set-up: king c3
  recruit SIDE ROW [as COL]   recruit right 2; recruit left 1 as duke (a Jester)
  move SQ SQ [SQ...]          the king's path: start, any priests visited, end: move c1 c4,
                              move c1 c3 e5 (a priest on c3)
  move SQ SQ take TYPE|SQ...  take the passed tiles: move c1 a3 take farmer, move a1 a5 take a2 a4
  pass                        no summon is possible (R-15)
  jester as COL               where a summoned Jester goes
  wizard TILE [from COL] for SIDE ROW [as COL]
                              wizard duke for left 4; wizard jester from queen for right 1
  tax COL                     tax farmer
  kingdom farmer|wife         the kingdom bonus (`kingdom` alone when only one fits)
  refill left|right           replenish the valley from that hill column; ends the turn
TILE: queen duke countess knight-A farmer wife jester priest wizard tax-4 tax-3-6;
COL: queen duke countess knight farmer wife; SIDE: left right; ROW: 1-6 (1 = bottom).

Log events (see referee-king-of-the-valley(6)): reveal{{tiles}} (a table event), king{{square}},
recruit{{side, row, column?}}, move{{path, take?}}, pass{{}}, jester{{column}},
wizard{{give, give_column?, side, row, column?}}, tax{{column}}, kingdom{{column}}, refill{{side}}.
"""


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


def render(game: "KingOfTheValley", state: State) -> str:
    width = 16
    lines = [f"{game.title} - {game.to_act(state).phase}"
             + (f" ({state.player})" if game.to_act(state).players else ""), "",
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
    return "\n".join(lines)


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


def describe(game: "KingOfTheValley", before: State, event: "Event", after: State) -> list[str]:
    who = f"{clean_line(event.by)}: " if event.by else ""
    lines = [who + game.format(before, event)]
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
    if after.phase == "over":
        lines.append(game.score(after).outcome)
    return lines
