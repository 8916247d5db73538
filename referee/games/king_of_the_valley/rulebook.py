"""King of the Valley as the referee enforces it (../shared/rules/king-of-the-valley.md): the rules
by section and the rulings R-1..R-19 (R-11 onwards are this referee's, where the page is silent).
Every refusal cites one of these ids."""

from referee.games.king_of_the_valley.components import ASSUMED_PILE_MIX
from referee.rulebook import Rule, Rulebook


def _mix_table() -> str:
    names = sorted({n for mix in ASSUMED_PILE_MIX for n in mix},
                   key=lambda n: [k for mix in ASSUMED_PILE_MIX for k in mix].index(n))
    lines = []
    for name in names:
        label = f"knight (Order {int(name[7:]) + 1})" if name.startswith("knight#") else name
        counts = "  ".join(f"{mix.get(name, 0):>3}" for mix in ASSUMED_PILE_MIX)
        lines.append(f"     {label:<18}{counts}")
    return "\n".join(lines)


RULEBOOK = Rulebook(
    title="KING OF THE VALLEY (Hans van Tol, The Game Master 2021) - as refereed by `referee`",
    sections=(
        Rule("Components", "2-4 players, each with a king, a castle board and 2 gold. 90 "
             "character tiles in three face-down piles (I = 29, II = 30, III = 31): subjects "
             "Queen x3 (influence 5), Duke x6 (4), Countess x9 (3), Knight x20 (2; four Orders of "
             "five), Farmer x24 (1), Farmer's Wife x12 (1), Jester x3 (0); specialists Priest x3 "
             "(one per pile), Wizard x2 (piles II, III), Tax Collector x8."),
        Rule("Set-up", "the valley is 25 tiles of pile I face up in a 5x5 grid (a1..e5: a = left "
             "column, 1 = the row nearest the starting player); the hill has two columns of six "
             "rows (row 1 = bottom, cheapest): the last 4 tiles of pile I on rows 1-2, 8 tiles of "
             "pile II on rows 3-6. In seat order every player puts his king on a valley tile (one "
             "king per tile, at set-up only)."),
        Rule("Turn", "a turn has four phases, in order: recruit, summon, kingdom bonus, "
             "replenish."),
        Rule("Recruit", "phase 1, optional, from round 2: pay the row's price, take one SUBJECT "
             "from the hill into the castle column of its portrait (a Jester: a column chosen at "
             "once). Tiles above slide down."),
        Rule("Summon", "phase 2, mandatory: move the king in a straight line (orthogonal or "
             "diagonal) and take either the single tile you end on, or 2-3 tiles of one identical "
             "character you passed, ending on the square directly behind the last of them. Kings "
             "may be passed, never summoned from; you may end on a king only when taking passed "
             "tiles; never summon the tile you start on. Subjects go to the castle. Specialists "
             "are activated at once, then discarded, and cannot be summoned if their requirement "
             "cannot be met."),
        Rule("Priest", "1 gold, left on its square; continue from there as if the turn started "
             "there - your start square included; only the last move obtains tiles."),
        Rule("Wizard", "swap a face-up castle subject with a hill subject."),
        Rule("Tax Collector", "no requirement: take its gold; else turn N identical face-up "
             "subjects of an untaxed type face down, take the gold, put a tax token on that "
             "type."),
        Rule("Kingdom bonus", "phase 3, optional, once per turn: five face-up subjects of "
             "influence 5-4-3-2-1 (a farmer or a wife, not both; Jesters stand in for their "
             "column) are turned face down: 5 gold and a kingdom token."),
        Rule("Replenish", "phase 4: the active player chooses the left or right hill column; the "
             "emptied valley squares are filled from its bottom in the order the king passed "
             "them; the hill is topped up from pile II, then III."),
        Rule("End", "when the hill cannot be topped up in full, the round is completed (every "
             "player has had the same number of turns)."),
        Rule("Score", "influence + 5 per kingdom token + Knight Orders (3 knights of one Order "
             "3, 4 -> 5, 5 -> 8) + 2 per farmer-and-wife couple + 1 per gold. Ties: influence, "
             "then a shared place."),
        Rule("Notation", "squares a1..e5, hill columns left and right, castle columns queen "
             "duke countess knight farmer wife (see below)."),
    ),
    rulings=(
        Rule("R-1", "the Knight Order labels; knights are tiles knight-A .. knight-D.",
             option="orders"),
        Rule("R-2", "Tile identities are reported, not assumed: every tile put out (valley and "
             "hill at set-up, every new hill tile) is a `reveal`, checked against the box totals "
             "and the piles (29/30/31, one priest per pile, wizards only in II and III, at most 8 "
             "tax collectors)."),
        Rule("R-3", "Tax collectors are entered as printed: tax-G (no requirement, G = 3 or 4 "
             "gold) or tax-N-G (N = 3, 4 or 5 identical subjects, G = 5..10 gold)."),
        Rule("R-4", "the price of each hill row, bottom first. Check it against your hill.",
             option="hill_prices"),
        Rule("R-5", "Identical character = same type: Knights of any Orders, and all Tax "
             "Collectors, are identical for summoning."),
        Rule("R-6", "A Jester counts as the type of its column for kingdom sets and taxes."),
        Rule("R-7", "At most 6 kingdom bonuses in the game (6 tokens)."),
        Rule("R-8", "New hill tiles come from pile II, then pile III (pile I is used up at "
             "set-up)."),
        Rule("R-9", "If the chosen hill column runs out while refilling the valley, continue "
             "from the other."),
        Rule("R-10", "Jesters score nothing at the end (no influence, no Order or couple "
             "bonus)."),
        Rule("R-11", "A priest is summoned only by ending a move on it, never as one of 2-3 "
             "passed tiles, and the king then continues from it: a summon never ends on a priest "
             "it visits (landing on one behind taken tiles leaves it in place). Coins lying on a "
             "summoned tile come with it (before a priest is paid, so they can pay it)."),
        Rule("R-12", "Tiles turned face down by a tax collector or the kingdom bonus: in each "
             "column the real subjects first (earliest first), a Jester last. Turn down the same "
             "tiles at the table."),
        Rule("R-13", "Summoned tiles are placed and activated one by one, in the order the king "
             "passed them. A summon is refused unless all its specialists can be activated, and a "
             "tax choice that would leave a later tax collector unusable is refused."),
        Rule("R-14", "Reveal order: the valley a1..e1, a2..e2, ... e5; then the hill row by row, "
             "left then right (rows 1-2 from pile I, rows 3-6 from pile II). New hill tiles fill "
             "the left column's gaps first, then the right's."),
        Rule("R-15", "A player who can make no legal summon records `pass` (legal only then) and "
             "goes on with phases 3 and 4."),
        Rule("R-16", "Once the end is triggered the hill gets what the piles still hold; if the "
             "hill runs dry, a valley square that cannot be refilled stays empty: it can be "
             "passed, or landed on behind taken tiles, but holds nothing to summon."),
        Rule("R-17", "Wizard: only a face-up subject may be given; it takes the hill tile's "
             "place (same row). A Jester taken from the hill chooses its column at once; a "
             "Jester given up leaves its column."),
        Rule("R-18", "\"N identical subjects\" for a tax collector = N face-up tiles of one castle "
             "column (Knights of all Orders together, Jesters as their column). The tax tokens "
             "are a reminder: the referee keeps track per player and type, and the 6 tokens do "
             "not limit taxes."),
        Rule("R-19", "Virtual piles (`--shuffle --seed N`, `simulate`) only: the per-pile mix is "
             "not published, so it is ASSUMED to be (pile I / II / III; tax-G / tax-N-G as in "
             f"R-3):\n{_mix_table()}\nA game with a physical copy never depends on it."),
    ),
    notation="TILE: queen duke countess knight-A farmer wife jester priest wizard tax-4 "
             "tax-3-6; COL: queen duke countess knight farmer wife; SIDE: left right; ROW: 1-6 "
             "(1 = bottom); SQ: a1..e5.",
)
