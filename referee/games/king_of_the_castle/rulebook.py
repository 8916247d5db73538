"""King of the Castle as the referee enforces it (../shared/rules/king-of-the-castle.md): the rules
by section, the card table, and the rulings R-1..R-18 of the rules page with the referee's own
R-19..R-27. Every refusal cites one of these ids."""

from referee.games.king_of_the_castle.components import CARDS
from referee.rulebook import Rule, Rulebook


def _cards() -> str:
    lines = ["78 event cards (count, notation, text):"]
    lines += [f"  {c.count} x {c.slug:<20} {c.text}" for c in CARDS]
    return "\n".join(lines)


RULEBOOK = Rulebook(
    title="KING OF THE CASTLE (Toadflax Games) - 2-6 players - as refereed by `referee`",
    sections=(
        Rule("Components", "26 personality cards, the squires A-Z (R-1); 78 event cards (below). "
             "Every card is somewhere: in a deck, a hand, the event discard pile, on a castle, "
             "in play, in office or in the personality discard pile."),
        Rule("Kingdom", "a King and three castles, 1-3 left to right; each castle has a Lord, a "
             "Seneschal and a Master at Arms, and three attribute stacks: Domain (under the "
             "Lord), Prestige (under the Seneschal), Defence (under the Master at Arms). Castle "
             "level = Domain + Prestige + Defence levels. Largest castle: the highest level, a "
             "tie to the leftmost."),
        Rule("Attributes", "an attribute card goes on a stack only if its level is higher than "
             "the stack's top card (any level on an empty stack). A stack's level is its top "
             "card's."),
        Rule("Seals", "each player backs three different squires (R-2). The referee keeps only "
             "a SHA-256 of the letters salted with a random receipt that the player writes on "
             "their slip and that is never stored; at the end each player enters letters and "
             "receipt (`open`) and the referee checks them. A wrong reveal is refused."),
        Rule("Set-up", "the squires are sealed in seat order; each player holds 3 event cards; "
             "the table turns up ten personality cards: the King, then castle 1's Lord, "
             "Seneschal, Master at Arms, then castles 2 and 3 (R-4); the other 16 are the "
             "personality deck. The first player (the youngest) starts; play goes clockwise."),
        Rule("Turn", "(1) draw event cards until the hand holds 4 (when the deck is empty the "
             "discard pile is shuffled into a new deck); (2) play one card or none (`pass`); "
             "(3) discard down to the hand limit (R-3)."),
        Rule("Death and promotion", "a dead man goes to the personality discard pile. The King "
             "dies: the Lord of the largest castle becomes King (Assassination: the Lord "
             "chosen), and his castle fills its Lord's post. A Lord dies: Seneschal -> Lord, "
             "Master at Arms -> Seneschal, a new Master at Arms from the deck. A Seneschal dies: "
             "Master at Arms -> Seneschal, a new Master at Arms. A Master at Arms dies: a new "
             "one. Several at once: R-6."),
        Rule("Replies", "Lucky Escape saves one man from death; Not That Bad prevents the "
             "discard of one attribute card. They are played out of turn (R-5, R-10)."),
        Rule("Cards", _cards()),
        Rule("End", "when a vacancy must be filled and the personality deck is empty, the game "
             "is ending: the round is finished so that every player has had as many turns, "
             "then the squires are opened and scored."),
        Rule("Scoring", "each backed squire scores for the post he holds: King 12 (+2 per "
             "castle of level 6 or more), Lord 6 (+3 if Lord of the largest castle), Seneschal "
             "4 (+2 if Seneschal of the most prestigious castle), Master at Arms 2 (+1 if Master "
             "at Arms of the best defended castle). The highest total wins."),
        Rule("Conservation", "the referee learns a card when it is played, discarded, lost or "
             "taken from the discard pile, and checks that a copy of it can be where it comes "
             "from: no card is played more often than the deck holds, counting the discard "
             "pile, the castles, the cards in play and the cards known to be in hands. Hand "
             "sizes follow draw to 4 / play at most one / discard. A personality card is "
             "turned up once."),
        Rule("Virtual decks", "`referee new --shuffle --seed N` lets the tool shuffle both "
             "decks and deal: hands are known to the tool, the kingdom and new men are dealt "
             "without `reveal`, and `referee options --for NAME` shows NAME their hand. Nothing "
             "else ever names a card in a hand."),
    ),
    rulings=(
        Rule("R-1", "the referee names the squires by letter; the option gives them 26 names, "
             "one beginning with each letter (a name or its prefix is then read as his "
             "letter).", option="names"),
        Rule("R-2", "how the squires are chosen: secret (each player picks three letters, "
             "sealed), random (the tool draws three distinct letters for each player with "
             "fresh randomness, never the game's seed, shows them to that player alone, and "
             "seals them; each player's draw is independent, so two may share a squire as in "
             "R-17), or hand (no backing: at the end each player scores the letters of "
             "the event cards in hand, entered then).", option="squires"),
        Rule("R-3", "the discard phase discards down to this many cards.", option="hand_limit"),
        Rule("R-4", "the ten set-up cards are dealt face up in order: King, then castle 1 Lord, "
             "Seneschal, Master at Arms, then castles 2 and 3 likewise. The other 16 form the "
             "personality deck (R-19)."),
        Rule("R-5", "when a card about to kill a man or discard an attribute card is announced "
             "with its targets, each other player in clockwise order from the active player's "
             "left, then the active player, may reply; the first reply played applies. A reply "
             "is not the replier's play for their turn and cannot itself be answered."),
        Rule("R-6", "when several men die at once, all are removed first; each castle's "
             "survivors move up to the highest vacancies in rank order, then new men are dealt "
             "from the deck, highest vacancy first."),
        Rule("R-7", "most prestigious / best defended: the highest Prestige / Defence level, "
             "ties to the leftmost; only a level of 1 or more earns the bonus."),
        Rule("R-8", "equal totals share the place."),
        Rule("R-9", "cards leave a hand face up: played, discarded or lost cards are named, so "
             "the event discard pile is public. A played card goes to the discard pile once its "
             "effect is over; Sudden Changes and Targeted Theft go there after the cards played "
             "through them."),
        Rule("R-10", "Lucky Escape and Not That Bad are replies only, never a turn's play (they "
             "may be discarded). A card gets at most one reply. When Not That Bad answers a "
             "card that removes a whole stack, the replier names the card that stays."),
        Rule("R-11", "targets: a kill card needs its man (Barbarians! still kills when the "
             "castle has no Defence card; Financial Scandal and Unlucky Fall likewise without "
             "their discard); Plague needs two men in the castle; Vanishings at least one; a "
             "removal card a non-empty stack of its attribute; Incompetent Lord at least one "
             "non-empty stack, and it removes the top card of each non-empty one."),
        Rule("R-12", "Sudden Changes: draw two cards (fewer if deck and discard are both empty) "
             "and play them at once, in the player's order; each is played if it can legally "
             "be, else it is discarded."),
        Rule("R-13", "Targeted Theft: the stolen card is taken at random from a player who "
             "holds at least one; the extra play is optional. Unexpected Loss must name "
             "another player who holds a card."),
        Rule("R-14", "Recycle: the player names the card taken from the discard pile (which "
             "must not be empty); Recycle itself goes to the discard pile."),
        Rule("R-15", "new men are dealt highest vacancy first. The end is triggered only when a "
             "vacancy finds the personality deck empty (not when the deck merely runs out); "
             "after that, posts that fall vacant stay empty, and a dead King is succeeded by "
             "the Lord of the largest castle that still has a Lord (none: the throne stays "
             "empty). An empty post scores nothing."),
        Rule("R-16", "the Lord's bonus goes to the Lord of the largest castle even when every "
             "castle is at level 0 (ties to the leftmost: castle 1); only the Prestige and "
             "Defence bonuses need a level of 1 (R-7)."),
        Rule("R-17", "two players may back the same squire (with secret choices); each scores "
             "him."),
        Rule("R-18", "the discard phase removes exactly the cards above the hand limit, chosen "
             "by their holder."),
        Rule("R-19", "the order of the personality deck: shuffled, or alphabetical. With "
             "alphabetical the ten set-up cards are still turned up from a shuffled deck; the "
             "16 left form the deck in alphabetical order, so the referee deals new men itself "
             "(everyone knows the next one).", option="personality_order"),
        Rule("R-20", "with squires = hand, each player enters one letter per card in hand "
             "(players with no card are not asked); a letter held twice scores once, or each "
             "time with duplicate_letters = each.", option="duplicate_letters"),
        Rule("R-21", "Targeted Theft and Unexpected Loss name another player, never the player "
             "of the card."),
        Rule("R-22", "the draw is counted, not typed: when a turn begins the referee has its "
             "player draw up to 4 and says how many; when the deck is empty it has the discard "
             "pile shuffled into a new deck."),
        Rule("R-23", "a reply window opens only while a copy of a reply card that could answer "
             "the card may lie face down; players holding no card are not asked. What the "
             "table sees decides: the tool never skips a player whose dealt hand it knows."),
        Rule("R-24", "the cards Sudden Changes draws are shown to the table (they are played "
             "at once); one that cannot be played is discarded with `discard CARD`, one at a "
             "time; a reply card drawn so is always discarded (R-10)."),
        Rule("R-25", "in a --shuffle game the tool makes the random choices: the card stolen "
             "(shown to nobody but in the thief's hand), the card lost, the reshuffles."),
        Rule("R-26", "in a physical game only the two players see the stolen card: the referee "
             "learns nothing of it and forgets what it knew of the robbed hand (but its size)."),
        Rule("R-27", "a table that stops the game early (`end REASON`) still opens the squires: "
             "once the first turn has begun, each player opens their seal (`open`; with "
             "squires = hand, enters the letters of the cards held at the stop) and every squire "
             "scores for the post he held when the table stopped (a card announced and not "
             "carried out has no effect). The sheet is incomplete: places so far, no winner. "
             "Stopped before the first turn, nobody scores. `undo` takes back the openings, "
             "then the stop."),
        Rule("R-28", "in a --shuffle game only the tool knows the hands: a card refused because "
             "of the hand it dealt is refused in the same words whatever the reason, 'NAME "
             "cannot play CARD now; why stays with NAME's hidden hand' (likewise a reply or a "
             "discard): the table learns only that the card goes back, as at a physical table, "
             "never whether the hand holds it. A refusal the table's own knowledge gives (a "
             "target the kingdom does not offer, every copy face up) says why, held or not. The "
             "player reads their legal moves alone with `options --for NAME`. Unexpected Loss "
             "is typed with the player alone (`unexpected-loss NAME`): the tool picks the card "
             "(R-25), and nothing names it before it is lost, `options --for NAME` included."),
        Rule("R-29", "squires = hand is played with the table's own cards, never with --shuffle: "
             "it scores the letters on the event cards in hand, and the cards the tool deals "
             "carry none, so the tool could neither show a player their letters nor check the "
             "letters entered at the end. `new` refuses the two together and names what works: "
             "squires = secret or random with --shuffle, or squires = hand without it. A log "
             "begun with both before this ruling still reads, replayed as it was played."),
    ),
    notation="Case-insensitive; unique prefixes of three or more letters work (`acc death` = "
             "accidental-death, `plag` = plague). CARD: the slug of a card (accidental-death, "
             "domain-2), its title in words, or an attribute card's level name (village, town, "
             "city, known, recognised, famed, keep, walls, towers). N: a castle 1-3 (`castle 2`, "
             "`c2`, `2`). MAN: king, lord N, seneschal N, master N (l2, s2, m2, maa 2) or the "
             "letter of the man. LETTER: a squire A-Z (or his name, option names). Canonical "
             "output uses slugs and the long forms.",
)
