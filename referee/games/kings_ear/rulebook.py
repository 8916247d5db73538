"""The King's Ear as the referee enforces it (../shared/rules/kings-ear.md): the rules by section
and the table rulings R-1..R-8. Every refusal cites one of these ids."""

from referee.rulebook import Rule, Rulebook

RULEBOOK = Rulebook(
    title="THE KING'S EAR (Jon Linney, 2005) - as refereed by `referee`",
    sections=(
        Rule("Components", "4 Houses, each with a board edge of four profession sections "
             "(Religion, Army, Trade, Farming). 64 cards: every House x profession x value 1-4 "
             "once. Cards are never held in hand: they are in the face-down pile, or under a "
             "House at the card's own profession."),
        Rule("Turn", "A turn is exactly one of (1) and (2)."),
        Rule("Turn (1)", "draw the top card of the pile (you report the card: it is a reveal), "
             "then (1a) or (1b)."),
        Rule("Turn (1a)", "a card of your own House goes under your House at its profession - "
             "nothing to choose."),
        Rule("Turn (1b)", "a card of another House: either `place` it under a House that is "
             "neither the card's House nor yours, or `trade` it at once with one other House H: "
             "the drawn card goes under H and you take from H's board cards adding up to exactly "
             "its value, at least one of your own House. H cannot refuse."),
        Rule("Turn (2)", "trade with another House H: give one or more cards of other Houses "
             "lying under your House, take one or more cards from H's board, at least one of your "
             "own House. Equal totals: H cannot refuse. Unequal totals: only with H's agreement "
             "(R-3)."),
        Rule("Trade", "a trade is made with one other House; every card taken lies under that "
             "House, and at least one of them is of your own House."),
        Rule("Locked cards", "a card under its own House never moves again. Every other card is "
             "tradeable."),
        Rule("Scoring", "net of a section = own cards - other Houses' cards (e.g. Horse Army "
             "with Horse 4, Horse 3 and Pig 4: net 3)."),
        Rule("Winning", "after each action: if the acting House has a section at 10 it wins "
             "(this also settles a simultaneous 10); otherwise another seated House at 10 wins."),
        Rule("Virtual pile", "`referee new --shuffle --seed N` lets the tool shuffle a virtual "
             "pile: the tool draws, so type `draw` alone; a card named is refused, whatever "
             "the card (so no refusal tells the next card from the others)."),
    ),
    rulings=(
        Rule("R-1", "the House labels; distinct names with distinct first letters (the short "
             "card form relies on it).", option="houses"),
        Rule("R-2", "2-4 players; unclaimed Houses stay on the table as passive boards: they "
             "receive cards but never win. All 64 cards stay in the pile."),
        Rule("R-3", "An unequal trade needs H to be a seated player; the log records the "
             "agreement (`agreed`)."),
        Rule("R-4", "A net may be negative; the ladder shows max(0, net). Reaching 10 means net "
             "= 10 exactly (all four own cards and no foreign card)."),
        Rule("R-5", "When the pile is empty, drawing is no longer possible; trades continue."),
        Rule("R-6", "A player with no legal action records `pass` (legal only then). Unequal "
             "trades need consent, so only equal trades count as \"a legal action\" here. If the "
             "pile is empty and every seated player passes in one full round, the game ends with "
             "no winner. (Every trade locks at least one card for good, so a game always ends.)"),
        Rule("R-7", "The table may stop a game at any time: `end REASON`."),
        Rule("R-8", "Ranking without a winner: highest best-section net, then highest sum of the "
             "four nets, then a shared place."),
    ),
    notation="CARD is 'House Profession Value' or the short form HPV (PA3 = Pig Army 3); CARDS "
             "are separated by commas or 'and'. Canonical output uses the full card names.",
)
