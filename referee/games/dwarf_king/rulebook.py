"""The Dwarf King as the referee enforces it (../shared/rules/dwarf-king.md): the rules by section,
one section per special card, the quest tiles, and the rulings R-1..R-24. Every refusal cites one
of these ids."""

from referee.games.dwarf_king.components import REPLACED_2022, SPECIALS, TILES_2011
from referee.rulebook import Rule, Rulebook


def _special(code: str) -> Rule:
    s = next(s for s in SPECIALS if s.code == code)
    kind = f"the {s.rank} of {s.suit}" if s.suit else "a magic card"
    return Rule(s.name, f"`{s.code}`, {kind}: {s.text}.")


def _tiles() -> str:
    lines = ["the holder of the 5 of Knights draws a tile never used before and chooses a side "
             "(2011 edition; option edition=2022 replaces some, R-4):"]
    lines += [f"  {q.label:<4} {q.name}: {q.text}" for q in TILES_2011]
    lines += ["2022 edition replacements:"]
    lines += [f"  {q.label:<4} {q.name}: {q.text}" for q in REPLACED_2022]
    return "\n".join(lines)


RULEBOOK = Rulebook(
    title="The Dwarf King (Bruno Faidutti) - trick taking, 3-5 players, seven hands.",
    sections=(
        Rule("Set-up", "53 cards: Knights, Dwarves and Goblins 2-10, J, Q, K, A (the 39 basic "
             "cards) and 14 special cards (the 1s and 11s of each suit, and five magic cards); "
             "with 3 players the 2 of Dwarves is out of the game. Rank order: 1 < 2 < ... < 10 < "
             "11 < J < Q < K < A (Champion). Faces: J Q K A. Each hand is played with one special "
             "card only."),
        Rule("Dealing", "the dealer (hand 1: the first player; then whoever won the 5 of "
             "Dwarves) reveals a special card never used before and deals everything: 13 cards "
             "each with 3 players, 10 with 4, 8 with 5."),
        Rule("Each hand", "in order: the special card; the quest; the Goblins' Flag Bearer swap "
             "when it is the special card; the holder of the 5 of Goblins leads; the tricks, "
             "with the Druid's or the Standard Bearer's choice after its trick."),
        Rule("Cards", "a card is played once per hand, and only from the hand that holds it."),
        Rule("Follow suit", "follow the led suit if you can; no trumps; the highest card of the "
             "led suit wins and leads next."),
        Rule("Scoring", "after the last trick each player scores the quest (on the cards and "
             "tricks they won) and the special card's effect. After seven hands the highest "
             "total wins; extra hands are played while first place is tied."),
        *(_special(s.code) for s in SPECIALS),
        Rule("Quests", _tiles()),
        Rule("What the referee knows", "the card exists in this hand, was not played before, is "
             "played in turn; the specials' conditions. A player who did not follow has shown a "
             "void; when the same hand later plays that suit the referee reports the revoke, "
             "naming both tricks. Voids travel with the cards when hands are swapped or passed. "
             "Entered hands (or --shuffle --seed) make every follow-suit check immediate."),
    ),
    rulings=(
        Rule("R-1", "Several Aces against the Dragon: the Ace of the led suit wins; otherwise the "
             "first Ace played."),
        Rule("R-2", "Magic cards have no suit and no value when a hand is scored."),
        Rule("R-3", "The Puppeteer and Excalibur may not lead a trick unless they are the "
             "player's last card."),
        Rule("R-4", "the quest tiles of the 2011 edition, or of the 2022 reprint, which replaces "
             "tiles 1, 8, 11, 14, 20 and side 6b.", option="edition"),
        Rule("R-5", "Elite army counts only suits of which the player won at least one card; a "
             "player who won no suited card scores 0."),
        Rule("R-6", "Ties inside a quest (e.g. 'highest total') reward every tied player."),
        Rule("R-7", "'Right-hand neighbour' is the previous player in clockwise order, "
             "'left-hand' the next; passing hands left gives each hand to the next player."),
        Rule("R-8", "Following suit with magic cards: only suited cards (basic cards, 1s and "
             "11s) oblige a player to follow. The Mummy and the Puppeteer follow when the suit "
             "they copy is the led suit; otherwise, like Excalibur, they may be played only by a "
             "player void in the led suit. The Dragon may always be played. The Sorcerer is "
             "played between tricks; a Sorcerer still in hand at the last trick is played to it "
             "as a card with no suit that cannot win. A trick led by a card without suit takes "
             "its suit from the next card."),
        Rule("R-9", "Special cards and quest tiles are never reused; if a long tie-break uses "
             "them all up, all become available again."),
        Rule("R-10", "Quest 19: 'as many tricks as you' means exactly the same number of "
             "tricks."),
        Rule("R-11", "Triplets (6a): +1 per triplet of a rank, +2 instead when the rank is a "
             "face."),
        Rule("R-12", "Grand Army (6b): the run counts one card per rank (1, 2, ..., 10, 11, J, "
             "Q, K, A)."),
        Rule("R-13", "In line / Sandwich (2022 tile 20) are two separate conditions, each worth "
             "+3 on its own, so a player scores 0, 3 or 6: +3 for winning fewer (In line) or "
             "more (Sandwich) tricks than the previous player, and +3 for winning more tricks "
             "than the next player. E.g. four players who win 1, 4, 2 and 3 tricks in seat order "
             "all score +3 with In line (each meets exactly one of the two conditions); with "
             "Sandwich the second and the fourth score +6, the others 0."),
        Rule("R-14", "Save the nobles / the brave (tile 11) and the gnomes / soldiers (13): "
             "values are the printed numbers 1-11; a player with no such card scores 0, except "
             "that a player who won faces and no other suited card scores +10 for Save the "
             "nobles."),
        Rule("R-15", "The 2022 tiles replace, in order: 1 Lucky/Bad run, 8 Good/Bad numbers, 11 "
             "Eeny-meeny/Miney-mo, 6b '1, 2 and...', 14 Grand slam/Utter chaos, 20 In "
             "line/Sandwich."),
        Rule("R-16", "The special cards' choices are compulsory: the Druid's player swaps with "
             "another player, the Standard Bearer's player picks a direction, the Goblins' Flag "
             "Bearer swap is made with another player after the quest and before the first "
             "lead."),
        Rule("R-17", "A revoke is reported (once per void shown), not scored: the table decides "
             "any penalty; the hand's points are computed from the cards as played."),
        Rule("R-18", "A player who shows the 5 of Knights, the 5 of Goblins or plays a special "
             "card is known to hold it; a card known to be in one hand cannot be played from "
             "another."),
        Rule("R-19", "A Puppeteer that leads (as a last card, R-3) copies the last card played "
             "in the previous trick, half a step higher; Excalibur leading wins, and the next "
             "card sets the suit."),
        Rule("R-20", "When the tool draws the quest tiles (--shuffle), the tile it draws for the "
             "holder of the 5 of Knights is shown to the whole table, both sides, while the "
             "holder chooses one (`quest a` or `quest b`): the holder reads both sides before "
             "choosing, and a drawn tile lies face up on the table (the rules hide neither "
             "side). The `quest` event records the tile with the side chosen."),
        Rule("R-21", "A card refused from a hand only the referee knows (a hand the tool dealt) "
             "is refused in the same words whatever the reason, 'NAME cannot play CARD now "
             "(follow SUIT if you can)': the table learns only that the card goes back, as at a "
             "physical table, never whether the hand lacks it or holds the led suit. Its player "
             "reads their legal cards alone with `options --for NAME`. A refusal the table's own "
             "knowledge gives (a card shown, a hand typed in front of everyone) says why."),
        Rule("R-22", "The Goblins' Flag Bearer in a hand the tool dealt: the swap is two "
             "moves. `swap NAME`: the tool takes the 2 random cards, shown to the Flag Bearer "
             "alone (at a terminal on his hand-over screen at once; `status --for NAME` shows "
             "them again); then `give CARD CARD`: the 2 he gives back, any 2 of "
             "his hand (the 2 taken included), chosen after reading them; `give` alone asks "
             "for them unseen. Only he and NAME see the cards: play, history, status, --json "
             "and the sheet say `swap NAME` and `give 2 cards back`, and a table session does "
             "not keep a give line in its history. The log records both pairs, so that a "
             "replay checks them. Cards typed with `swap` are refused whatever they are, and "
             "a refused give is refused in one sentence that names no card, whatever the "
             "reason (R-21)."),
        Rule("R-23", "What a refusal cannot hide: that the card goes back. A card refused at a "
             "lead, where any held card may be led but for the specials' own limits (the "
             "Mummy, the Puppeteer, Excalibur, the Sorcerer, shown to everyone in `rules`), "
             "tells the table that the hand does not hold it; a refused follow, that the hand "
             "lacks it or holds the led suit; a refused give, that the Flag Bearer lacks one of "
             "the two. The tool hides why (R-21), every card nobody typed, and the hands it "
             "dealt; it cannot tell who is typing. So a hand's moves are typed by its player "
             "only, as at a table where nobody plays a card from another's hand: a move typed "
             "for another player and accepted is recorded, shown to all, and taken back only "
             "with `undo --force`."),
        Rule("R-24", "A give shows the table nothing, but its 2 cards go face down to the "
             "player they were taken from, who sees them: taken back, that player still knows "
             "2 cards of the Flag Bearer's hand, so `undo` and `correct` take it back only "
             "with --force, saying what it showed and to whom. So does the swap in a hand the "
             "tool dealt: it showed the Flag Bearer to everyone and the 2 cards taken to the "
             "Flag Bearer alone."),
    ),
    notation="Cards: a suit letter and a rank: K Knights, D Dwarves, G Goblins; 2-10, J, Q, K, A "
             "(K7 = 7 of Knights, DQ = Queen of Dwarves, GA = Champion of Goblins; 7K and QD "
             "work too). Special cards by name (unique prefixes of three or more letters work): "
             "Druid, FlagBearerD, Tinkerer, Joker, Enchanter, StandardBearer, Scout, Shaman, "
             "FlagBearerG, Dragon, Mummy, Puppeteer, Sorcerer, Excalibur; K1 D1 G1 and K11 D11 "
             "G11 name the hand's special card of that suit and rank. The keyword of a move may "
             "be left out when the moment is clear. When several players could be the one to "
             "act (nobody knows who holds the 5 of Knights), add --as NAME to `referee play`.",
)
