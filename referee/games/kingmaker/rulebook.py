"""Kingmaker with Covault's House Rules v2.12 as the referee enforces it
(../shared/rules/kingmaker.md): the rules by section and the table rulings. Every refusal cites
one of these ids."""

from referee.rulebook import Rule, Rulebook

RULEBOOK = Rulebook(
    title="KINGMAKER (Avalon Hill, 1974) with Covault's House Rules v2.12 - as refereed by "
          "`referee`",
    sections=(
        Rule("§1", "The referee keeps the realm, not the map: factions, nobles and their cards, "
             "hands, held event cards, the Chancery, heirs and Kings, fortresses, ships, sieges, "
             "every deadline, the clock and the score. Distances, roads, forests, sea squares "
             "and `nearest` are declared and recorded; dice and draws are reveals typed by the "
             "table; all that depends only on cards, place values and the log is checked."),
        Rule("§2.4", "The components file (kingmaker-components/1, TOML) holds the data: "
             "nobles, titles, offices, bishops, mercenaries, ships, town cards, Royal Guards, "
             "heirs, places, event cards, the vote rules and optional charts. `referee "
             "components kingmaker --template` prints one to complete; `referee new kingmaker "
             "--components FILE` copies it into the log (R-3). Place kinds and their defaults "
             "(fortress, garrison, capacity, Commons):\n"
             "  city           yes  300  any  4\n"
             "  town           yes  200  400  3     (fortified)\n"
             "  royal-castle   yes  200  300  0\n"
             "  castle         yes  100  300  0\n"
             "  open-town      no   200  400  0     (garrison while occupied, R-1)\n"
             "  unfortified    no   -    -    0     (no inside: in:P is near:P)"),
        Rule("§3", "Locations: in:P (inside), near:P (its open square), sq:TEXT (another land "
             "square), aboard:SHIP; ships lie at port:P or sea:TEXT (a - in TEXT stands for a "
             "space, but \"TEXT\" in quotes is as written, less spaces at its ends; no quote or = "
             "in it). A force is one faction's "
             "nobles at one location. Strength: troops + title, office, mercenaries, Royal "
             "Guard, + regional bonuses (R-4). Under siege: everyone inside a besieged place, "
             "and aboard a ship besieging a port. A garrison ally is a noble inside another "
             "faction's fortress."),
        Rule("§4", "Set-up: the Crown deck without Royal Guards, Le Lucas, Calais and Ireland "
             "cards (the Plague in Calais event stays), the Constable of the Tower aside; each "
             "player enters his deal (R-5) in seat order, a player without a noble is dealt on "
             "(R-6); each lays out his cards (titles on untitled nobles, offices on titled "
             "nobles without one, the rest anywhere; only a card no noble may take goes to the "
             "Chancery); then the first player (R-8), control at entry in seat order from him "
             "(R-7), the Constable shuffled back, heirs at their starts, Henry crowned, nobles "
             "and ships in place (R-60)."),
        Rule("§5", "A turn has six phases in order: chance, movement, combat, Parliament, "
             "coronation, crown draw; `next` ends a phase, and a phase with nothing to do is "
             "skipped. While the table owes a decision (a response to an event card, a storm, "
             "a captive, an heir, a discard...) nothing else is recorded first, save table "
             "events and trades."),
        Rule("§5.1", "Chance: the active player draws an event card. Plague (R-9); calls: each "
             "named noble not under siege answers with `respond` (§8.3); storms: each ship at "
             "sea rolls (rule 10); Writ, Free Move and Chancellor-may-call cards are kept "
             "(R-11); Embassy reshuffles the event deck; People's Parliament cancels movement "
             "and combat (7.7); bad weather alone does nothing (R-14)."),
        Rule("§5.2", "Movement is declared: `move` by land (up to five squares, or any distance "
             "by road past friendly fortresses only) and `sail` by sea. R-16 lists the checks."),
        Rule("§5.3", "Crown draw: one card; a noble enters play at once, a town card goes at "
             "once to an own noble or to its fortress's controller (§8.1, R-53); any other "
             "card is placed or kept. A hand holds at most two crown cards. Placing: a title "
             "on an untitled noble, an office on a titled noble without one, others on any own "
             "noble; never on a noble under siege or besieging a port from a ship (rule 12), "
             "nor at sea (R-19)."),
        Rule("§5.4", "Trades and transfers (§8.7), never in active combat: hand crown cards and "
             "held event cards between players; town cards, fortresses and ships between any "
             "two nobles (a ship at sea only once in port); bishops, mercenaries and heirs "
             "between two nobles in one square (a bishop never to a noble who has one); titles "
             "and offices only in Parliament; nobles never; nothing to a noble under siege. A "
             "deal between two players records `agreed`."),
        Rule("§6", "Combat: each noble takes part in one combat action per combat phase (R-20). "
             "The weather check (battles and siege conclusions) draws event cards: a Writ or "
             "Free Move is kept and the attacker draws again; otherwise only the weather "
             "counts. From that draw until deaths and heir control are applied, combat is "
             "active (rule 14): no hand plays, trades, transfers or executions."),
        Rule("§6.1", "Open battle in the open (near:, sq:, or an unfortified place) against all "
             "of one faction's nobles there; third factions' nobles there may join either "
             "side (rule 11, R-21). Below 1:4 only a lone untitled noble attacks (an assassin; "
             "his attack fails, one defender he names rolls against death, R-24, R-58). Bad "
             "weather cancels the battle. Victory: surviving defenders are captured, their "
             "heirs pass to a surviving attacker (R-25). No victory: surviving attackers "
             "retreat home; if all died, their heirs go to a defender (R-26 for sallies)."),
        Rule("§6.2", "Siege of a neutral or another faction's fortress, or an occupied open "
             "town. D = garrison (a quarter from siege turn 3) + every noble inside. Lay at "
             "D/2 (no card), conclude at D with the weather check; success: everyone on both "
             "sides rolls on the Major Victory column, the survivors inside are captured, the "
             "heirs inside taken, the fortress with its town card to an attacking noble. A "
             "siege is broken by its owner, by any victory over the besiegers, or when the "
             "besiegers fall below D/2 (checked after every event); besiegers from a ship then "
             "die (R-27)."),
        Rule("§6.3", "Captives (R-29) are ransomed (freed, home at once) or killed before any "
             "further combat; retreats go home (R-30)."),
        Rule("§7", "Parliament (phase 4): called by the sole King's controller or, with no "
             "sole King, the Chancellor (7.1); attended by all but the excused and the besieged "
             "(7.2); three rounds of assignment from the Chancery (7.3); other business (7.4); "
             "the return home (7.5); then the King's Peace (7.6). A People's Parliament follows "
             "its event card (7.7). `status` shows the Parliament in session, its frozen tally "
             "and the King's Peace; `history` each vote with its count."),
        Rule("§7.1", "Calling: `parliament call at P summon NOBLE` by the active player in his "
             "Parliament phase, if his faction controls the sole King (the only crowned King; an "
             "uncontrolled sole King lets no one call), or, with no sole King, holds the "
             "Chancellor of England and a Chancellor-may-call card (spent); either holds at "
             "least one Writ. The King with his controlling noble, or the Chancellor, is at P "
             "(R-31). Never during the King's Peace nor in the three turns after it (R-32); at "
             "most two calls per King and per Chancellor (R-33). The summons: one noble of "
             "another player, not under siege, a Writ spent; he cannot be excused (R-34)."),
        Rule("§7.2", "Attendance: excuses one player at a time clockwise from the caller's left "
             "(`excuse NOBLES`, a Writ each; R-35 free at sea), never the caller's faction nor "
             "the summoned noble, then `next`; the caller's revocations (`revoke NOBLES`, a Writ "
             "each), then `next`. Ships at sea or off the mainland come to a mainland port "
             "(`port SHIP PLACE`, or `stay SHIP`, R-74); everyone else goes to P with his heirs "
             "(R-72); sieges left below half are broken and their besieged nobles attend. The "
             "tally is then frozen for the session (R-36)."),
        Rule("§7.3", "Three rounds. Round 1, the caller: first each Chancery bishop to an "
             "attending noble holding none, no vote (`bishop CARD to NOBLE`; all that can be "
             "placed are); then `select CARDS` (titles first) and each in turn `propose CARD to "
             "NOBLE` (R-37) and the table's `vote yea PLAYERS nay PLAYERS` (R-38). Round 2: the "
             "player with the most Commons, skipped on a tie. Round 3: the single player whose "
             "attending noble holds the most senior bishop not assigned in this Parliament "
             "(R-39), skipped if none or tied: `assign CARD to NOBLE` without a vote while a card "
             "has an eligible noble. Leftovers stay in the Chancery (R-82)."),
        Rule("§7.4", "Other business, after the rounds and before `dismiss` (R-75): with two "
             "crowned Kings, neither Beaufort, the attending controller of one moves "
             "`illegitimate KING` against the other (R-40; bound votes, R-54). Passed: that King "
             "is uncrowned and last in his line (above Beaufort). Failed: the mover hands his King "
             "to another attending noble, loses his titles and offices to the Chancery, and dies "
             "if the other King is at Parliament (R-76). Titles pass between consenting attending "
             "nobles with a passing vote (`transfer TITLE from A to B agreed`, R-41); offices with "
             "the caller's approval (`approved`, R-79). Printed titles never move."),
        Rule("§7.5", "Return (`dismiss`): one player at a time from the caller's left, the caller "
             "last, each attending noble `return NOBLE to HOME` (R-30) or stays at P by a Free "
             "Move (`stay NOBLE freemove`), the calling noble free (`stay NOBLE`); a player keeps "
             "a ship of his from going home by a Free Move (`stay SHIP freemove`). Then every "
             "other ship goes home, forces aboard landing near its port, save R-55's (R-77)."),
        Rule("§7.6", "The King's Peace, from dismissal to just before the caller's next chance "
             "phase (R-42, R-78): (1) no combat in Parliament's square; (2) returned nobles in a "
             "home castle neither move nor attack; (3) returned nobles near an enemy-held home "
             "castle (a neutral one counts) stay, and may only lay or conclude a siege of that "
             "castle, never join one in progress; (4) returned ships do not move, embark or land; "
             "(5) nobles of (2) and (3) cannot be attacked; (6) a returned noble moved by an event "
             "card becomes excused; (7) excused nobles act freely but never start combat with "
             "returned nobles; unbroken sieges go on, and no returned noble joins either side."),
        Rule("§7.7", "People's Parliament: the parliament-must card with no sole King, no King's "
             "Peace and no Parliament called in the three turns before (R-59, R-71) cancels the "
             "turn's movement and combat; the drawer leads, naming P, a mainland town or city "
             "unfortified or friendly to him, first moving there the nearest of his nobles if "
             "none is there (`parliament people at P [moving NOBLE | host NOBLE]`, R-80, R-87). "
             "No Writs, summons or excuses; every siege breaks (ship besiegers survive and "
             "attend); every noble attends. Then 7.2's tally to 7.6, the drawer counting as "
             "caller (R-56); then his coronation and crown draw."),
        Rule("§8", "Heirs in each house's line of succession (seed §4): Lancaster: Henry "
             "(crowned, the sole King at the start, in London), Margaret of Anjou, Edward of "
             "Lancaster, then Beaufort under 8.2; York: Richard of York, Edward of March, "
             "George of Clarence, Richard of Gloucester. Heirs are controlled by nobles, never "
             "move alone, and add no strength."),
        Rule("§8.1", "Coronation: the first living heir of his house, no King of his house "
             "living, controlled by an active player's noble at a cathedral with an archbishop "
             "or two bishops there (R-43), that noble no garrison ally. Royal Guards follow "
             "the Kings (R-44)."),
        Rule("§8.2", "Friendly (for the mover, fixed at the start of his movement phase): his "
             "fortress; an open town no other faction occupies; another faction's fortress its "
             "controller declares friendly (`friendly`). Neutral fortresses are unfriendly; "
             "unfortified places never impede. Beaufort: while in play and every Lancastrian "
             "heir of the line is dead, he is the Lancastrian heir (R-45)."),
        Rule("§8.3", "A called noble goes at once, whatever the movement rules: inside if the "
             "place is friendly, else to its open square; aboard a ship, it first puts in at "
             "the declared nearest friendly or unfortified port and all aboard land; he may "
             "leave heirs with a noble of his force (`leave`). A called King takes his "
             "controller, whom others of the force may follow (R-10, R-67)."),
        Rule("§8.4", "An heir taken off the mainland must land on it by the end of his "
             "controller's next own movement phase (the second after a capture in Calais), or "
             "dies; Carisbrooke's island is mainland for a faction that held Carisbrooke "
             "before he went there. A ship with an heir lands only on the mainland."),
        Rule("§8.5", "A garrison ally adds to the defence, leaves only in his movement phase "
             "(and may not attack that fortress that turn), joins only a sally, never takes "
             "the fortress and crowns no heir. An heir is executed by his controller, outside "
             "active combat."),
        Rule("§8.6", "Sea: a force embarks from inside a friendly fortress port or at an "
             "unfortified port; a ship with a force leaves only a friendly or unfortified port "
             "and enters an open, friendly or unfortified port, or an unfriendly fortress port "
             "it can besiege (it must then lay or join the siege this combat phase, R-68). "
             "Never Ireland, Scotland or the Continent. Load within capacity, or one noble."),
        Rule("§9", "Death: titles, offices and bishops to the Chancery, other cards to the "
             "crown discard, Le Lucas and Royal Guards aside; his fortresses go neutral and "
             "all inside are expelled; his heirs pass to a noble of his faction with him (R-48)."
             " No Elimination: a faction with no noble is dealt crown cards one at a time "
             "until a noble comes, all laid out as at set-up; a late joiner likewise (R-66)."),
        Rule("§10", "Complete and Utter Victory (checked after every event): a faction controls "
             "the sole crowned King and every other heir is dead. The time limit (R-49) ends "
             "the game in the victory order of R-50. `end concede` and `end abandoned` close "
             "a game without a winner."),
    ),
    rulings=(
        Rule("R-1", "An open town has its garrison only while a faction occupies it; it may "
             "then be besieged by others. Unoccupied it is simply entered. Open and unfortified "
             "towns are never controlled."),
        Rule("R-2", "Declare on first appearance: a card or place the log does not know is "
             "declared in the move that first needs it, its printed values as key=value words "
             "(`draw Herbert troops=10 lords=1 home=Raglan`, or NAME.key=value when the move "
             "names several); the referee names each missing value (noble troops, lords, home; "
             "title and office troops, commons; bishop lords; mercenary troops; ship capacity, "
             "home_port; town place; place kind; event kind with place or calls). A move "
             "refused for missing values names them all at once, each in a `declare` line with "
             "its blanks (___) marked; `referee declare` records many such lines in one write, "
             "and a `declare` of an entry the log has completes the values it lacks. The deal "
             "asks for its cards' values when the layout needs them, the whole table's at "
             "once (a card the log does not list at all, when it is dealt). Such a card's "
             "line has the kind its printed name tells: a Bishop or Archbishop; an Earl, Duke "
             "or Baron a title; an Admiral, Captain, Warden or other officer an office; "
             "Mercenaries or Soldiers a mercenary card; a one-word name a noble's (a ship "
             "or a town card may have one: the refusal says so); any other name leaves the kind blank (___), "
             "with each kind's values. Values typed on a move for a one-word card the log "
             "lacks are a noble's only when no other card prints them all (home, or lords "
             "with troops): `draw Blount troops=3` is refused, asking the kind "
             "(`declare noble Blount troops=3` or title, office, mercenary), never guessed. "
             "Values are then fixed; `amend` mends a slip from then "
             "on."),
        Rule("R-3", "Self-contained logs: `referee new kingmaker --components FILE` writes one "
             "table `declare` event per entry at the head of the log (`history` folds them "
             "into one line) and the file's name and SHA-256 into the option; without "
             "--components `new` copies the shipped kingmaker-ah1.toml (the 1974 box) the same "
             "way, the default `referee games` names. The value `test-box` preloads a small "
             "invented box instead: `simulate`, the demo and the tests play with it.",
             option="components"),
        Rule("R-4", "A card's regional bonus counts only when the place's regions, or the "
             "`regions` word of the attack or siege, hold the noble's position; Tees lies "
             "within Trent and Conway within Wales."),
        Rule("R-5", "The deal: `auto` deals 36 to 2, 3, 4 or 6 players and 35 to 5 or 7, so the "
             "deal is even; a fixed size deals the quotient and returns the rest. Each player "
             "enters the cards received (`dealt`, a reveal).", option="deal"),
        Rule("R-6", "A player dealt no noble is dealt more, one card at a time, until a noble "
             "comes; those cards are kept and laid out like the deal."),
        Rule("R-7", "Control at entry: a town card gives its fortress to its noble; a noble's "
             "home castles and the places his cards bring become his if neutral, else stay "
             "with their controller; the card gives no later claim. At set-up, in seat order "
             "from the first player, town cards first."),
        Rule("R-8", "First player: the faction of the Chancellor of England; else of the most "
             "senior cleric (most Lords; Canterbury, York, Durham, Carlisle, Lincoln, Norwich); "
             "else of the most troops (the first in seat order on a tie)."),
        Rule("R-9", "Plague: every noble and heir inside P and aboard ships in its port dies; "
             "near:P is spared, save at an unfortified P; Beaufort dies as a noble."),
        Rule("R-10", "Apart from a called King's escort, only the named nobles move (with the "
             "heirs they do not leave)."),
        Rule("R-11", "Held event cards (Writ, Free Move, Chancellor-may-call) are public, "
             "tradeable (`give`) and outside the two-card hand limit."),
        Rule("R-12", "No redraw in the chance phase."),
        Rule("R-13", "An Embassy drawn for a weather check reshuffles the event deck too."),
        Rule("R-14", "A card whose only text is bad weather does nothing in the chance phase."),
        Rule("R-15", "An exhausted event deck is rebuilt from its discard, an exhausted Crown "
             "deck from the crown discard; where copies are known, no card is drawn more often "
             "than they allow (an event card of unknown copies is not limited)."),
        Rule("R-16", "Movement checks: the nobles are the active player's and at one location; "
             "each moves once per phase, by land or by sea, never both; none under siege; "
             "heirs go with their controlling noble; in:P needs P friendly and room (capacity, "
             "if known); another faction's fortress makes the force garrison allies; a road "
             "move lists the fortresses it passes (`via`), each friendly, save a single noble "
             "with a bishop spending a Free Move (rule 20). Distances are not checked."),
        Rule("R-17", "A force boards another faction's ship only with its player's consent "
             "(`agreed`)."),
        Rule("R-18", "`draw hidden`: a card kept unseen, named when played or discarded and "
             "checked then (a noble cannot have been hidden: he enters play at once).",),
        Rule("R-19", "No card is assigned to a noble aboard a ship at sea.",
             option="assign_at_sea"),
        Rule("R-20", "Each noble takes part in at most one combat action per combat phase "
             "(battle, siege lay, join or conclusion), as attacker, defender or ally."),
        Rule("R-21", "An ally joins only if he took no part in combat during his own player's "
             "previous turn (checked per noble); a joining ally cannot be refused."),
        Rule("R-22", "Odds: the larger strength over the smaller, rounded down to 4:1, 3:1, "
             "2:1, 3:2 or 5:4, else majority (or even), read the other way round when the "
             "defence is larger. With a chart, the column is the largest chart ratio <= A/D "
             "when A >= D, the smallest >= A/D when A < D. 4A < D (French Foot-soldiers and "
             "regional bonuses counted) is below 1:4."),
        Rule("R-23", "Results: `result major|minor|none`, the attacker's (a major or minor "
             "victory, or none), read by the table from its Battle "
             "Combat Table, or the roll alone when the log holds a battle_chart. Deaths: "
             "`deaths NAMES|none`, or `save NAME ROLL` for each when the log holds a "
             "death_chart. An assassin's attack is `none`, unrolled."),
        Rule("R-24", "An assassin rolls against death too.", option="assassin_saves"),
        Rule("R-25", "If no attacking noble survives a victory, the defenders' heirs stay "
             "uncontrolled there and the defenders go free, retreating home."),
        Rule("R-26", "Sallying nobles, after a battle lost or won, go back inside or stay in "
             "the open (their choice)."),
        Rule("R-27", "A siege belongs to the player who laid it; its count rises by one at the "
             "start of each of his later combat phases; from turn 3 the garrison is a quarter "
             "(exact) while the siege lasts. Others of his join with `siege join`. Besiegers "
             "aboard a ship stay until the siege concludes or breaks; if it breaks they die."),
        Rule("R-28", "French Foot-soldiers add their troops only when declared (`french`) in an "
             "open-battle attack or a siege conclusion; after that weather check, bad weather "
             "included, they go to the crown discard. Never in defence nor in a lay, join or "
             "break threshold."),
        Rule("R-29", "The active player holds all captives, alliance or not, and decides each "
             "(`ransom` or `kill`) before any further combat or phase end."),
        Rule("R-30", "Home: inside one of his home castles that his faction controls and that "
             "is not under siege, his choice; if there is none, near one of his other home "
             "castles. It serves retreat, ransom and entering play (R-60)."),
        Rule("R-31", "P is a mainland town (fortified, open or unfortified) or city, never a "
             "castle, island or Calais, not under siege; a fortified P is controlled by the "
             "caller's faction; an unfortified or open P is not occupied by another faction."),
        Rule("R-32", "A call is refused during the King's Peace and in the three turns after it "
             "(`turns`: player turns; `rounds`: three rounds).", option="lockout"),
        Rule("R-33", "At most two calls per King (the heir) and per Chancellor (the noble); "
             "People's Parliament counts here as neither, but as \"Parliament called\" for all "
             "windows."),
        Rule("R-34", "If no noble qualifies for the summons, Parliament sits with no summons "
             "and no Writ spent."),
        Rule("R-35", "`excuse NOBLE sea` is free for a noble off the mainland or at sea."),
        Rule("R-36", "The tally, printed and frozen for this Parliament. Commons, wherever the "
             "nobles are: noble, title and office Commons, each fortress the faction controls "
             "(place value), the King's 20 (the sole King's controller; with no sole King the "
             "Chancellor's faction), 10 per house whose first living heir it holds (a King who "
             "is first heir counts both). Lords, attending nobles only: noble Lords, their "
             "bishops' Lords, 10 per senior heir held by an attending noble."),
        Rule("R-37", "Eligibility, judged at each proposal: title to an untitled noble; office "
             "to a titled noble without an office; any noble in play, attending or not, the "
             "leader's own included; none under siege. A selected card with no eligible noble "
             "moves on."),
        Rule("R-38", "Votes: each player casts all its votes one way in both houses; a "
             "proposal passes when yea exceeds nay in the Commons and in the Lords; a tie or no "
             "vote fails. Failed or unselected cards move on."),
        Rule("R-39", "In round 3, one player holding both tied senior bishops leads."),
        Rule("R-40", "An illegitimacy motion is moved once per King per Parliament."),
        Rule("R-41", "A title is transferred in Parliament only by a noble who holds no office."),
        Rule("R-42", "Returned: a noble or ship sent home at dismissal. Excused: every other "
             "noble (excused, stayed, besieged, entered play later, or moved by an event "
             "since)."),
        Rule("R-43", "The bishops at a coronation are held there by the crowning faction's "
             "nobles (`present`: by any noble there).", option="coronation_bishops"),
        Rule("R-44", "A controlled sole King's controlling noble holds both Royal Guards (rule "
             "6); with two Kings each controller holds his house's; `by-house` keeps the other "
             "house's guard aside under a sole King. A guard follows every change of control "
             "and is aside while its King is dead, uncontrolled or no King.",
             option="royal_guard"),
        Rule("R-45", "Beaufort as heir: his own faction controls him; he is never executed or "
             "transferred; he dies only as a noble; the mainland deadlines do not bind him."),
        Rule("R-46", "`take HEIR by NOBLE`: the noble is where the heir is (inside a fortress "
             "only if his faction controls it) and no other faction's noble is there. Heirs in "
             "a neutral or enemy fortress are won only by concluding a siege."),
        Rule("R-47", "A faction holding heirs of both houses must be back to one house by the "
             "end of its second own turn begun after it came to hold both; the referee will "
             "not end that turn until it is (a transfer or an execution)."),
        Rule("R-48", "A dead noble's heirs pass to a noble of his faction at his location "
             "(the player's choice), else stay uncontrolled there, unless the battle rules say "
             "otherwise."),
        Rule("R-49", "The time limit in minutes, from the first chance phase, by the log's "
             "event times less `clock pause`/`resume` spans; `status` shows the time left; "
             "`end time` records the end (R-70 for logs without event times).",
             option="time_limit"),
        Rule("R-49", "When the limit passes, the game ends at the end of the turn in progress "
             "(`turn`), at once (`immediate`) or at the end of the round (`round`).",
             option="time_end"),
        Rule("R-50", "At the time limit, in order: Major Royal Victory (one faction controls "
             "the only living heir, uncrowned); Major Parliamentary Victory (a faction "
             "controls a crowned King, at least half of all Commons and strictly the most "
             "Lords); Alternate Minor Victory (one faction strictly the most in both houses); "
             "else Minor Split Victory (the factions with the most Commons and those with the "
             "most Lords, ties sharing)."),
        Rule("R-51", "These counts follow 7.2's tally with every living noble attending: "
             "Commons for nobles, titles, offices, fortresses, the King's 20 (a sole King's "
             "controller, else the Chancellor's faction) and 10 per house whose first living "
             "heir the faction holds; Lords for nobles, bishops and 10 per senior heir held."),
        Rule("R-52", "Landing in port is optional (`aboard` keeps the force aboard); who lands "
             "goes inside a friendly fortress (garrison alliance if another faction's), into "
             "an open town no other faction occupies, else to its open square."),
        Rule("R-53", "A town card's hand-over only records control, so it reaches a besieged "
             "controller too; a town card no own noble may take stays in hand, counting to the "
             "limit, until one may."),
        Rule("R-54", "In an illegitimacy motion, a player whose nobles hold heirs of one house "
             "only (Beaufort as heir counts) must vote for that house: yea when the motion "
             "strikes the other house's King, nay when it strikes his own; another vote or an "
             "abstention is rejected. Others vote freely."),
        Rule("R-55", "At dismissal, a ship whose controller is excused and that carries at least "
             "one noble, all excused, must stay, at sea or in port; an empty ship goes home."),
        Rule("R-56", "In a People's Parliament, the drawer's noble that hosts P (the one moved, "
             "else one of his there he names) has the caller's free stay."),
        Rule("R-57", "The Chancellor's 20 Commons are the votes rule, never added again as "
             "office Commons; an uncontrolled sole King gives the King's 20 to nobody; a King "
             "who is first heir counts both; printed titles add no troops; a town card for a "
             "fortress an own noble controls goes to that noble."),
        Rule("R-58", "No ally joins an assassin's side; allies of the defence still count."),
        Rule("R-59", "The two windows count differently: a call (7.1) is refused in the three "
             "turns after the King's Peace ends (R-32's option applies); the parliament-must card "
             "(7.7) needs no Parliament called in the three turns before it is drawn, counted in "
             "player turns from the call."),
        Rule("R-60", "A noble entering play (set-up, draw, No Elimination) is placed as R-30 "
             "places a noble sent home, in the order his home castles are listed."),
        Rule("R-61", "With a death chart, an assassin's target rolls on the loser's column of "
             "the `none` row and the assassin on the winner's; a concluded siege reads the "
             "Major Victory row, attackers on the winner's column."),
        Rule("R-62", "A ship that a title or office brings is not a card of the Crown deck: it "
             "comes into play with that card, at its home port."),
        Rule("R-63", "Heirs always travel with their controlling noble; an heir is parted from "
             "him by a transfer or, when he is called, by `leave`."),
        Rule("R-64", "A force aboard a ship in port may land without sailing: that is its land "
             "move, to the port's inside or open square only."),
        Rule("R-65", "A ship in a mainland port is on the mainland for 8.4; a ship at sea, and "
             "any island, Calais, Ireland, Scotland or Continent place, is not."),
        Rule("R-66", "A late joiner is named at `referee new` (as a player, and in the option "
             "`late`); `join PLAYER` deals him in as No Elimination does. He has no turn "
             "before.", option="late"),
        Rule("R-67", "An uncontrolled King who is called goes alone: inside an open town nobody "
             "occupies, else to the place's open square."),
        Rule("R-68", "A force that sailed into an unfriendly fortress port must lay or join the "
             "siege in that combat phase while it can; one that no longer can stays aboard."),
        Rule("R-69", "A ship whose controlling noble dies passes, with its card, to the first "
             "noble aboard; with nobody aboard it leaves play with his cards."),
        Rule("R-70", "In a log without event times (a simulated game), the table's `end time` "
             "is taken at its word at the start of a turn."),
        Rule("R-71", "The counts of R-32 and R-59: the turn in which the King's Peace ends (the "
             "caller's next) is the first of the three after it, so a call is possible again "
             "from the fourth (with `rounds`, from the first turn of the fourth round); a "
             "Parliament called in the turn three before the card's, or later, blocks a People's "
             "Parliament."),
        Rule("R-72", "A noble is at P when inside it or in its open square (the King or "
             "Chancellor for 7.1, Parliament's square for 7.6 rule 1). Nobles going to Parliament "
             "stand inside P when it is a fortress of their faction, else in its open square (an "
             "unfortified P's one square); one at P already stays where he is."),
        Rule("R-73", "A player excuses only his own nobles who would attend: a noble under siege "
             "(a ship besieger too) needs no excuse, and if his siege breaks at the call he "
             "attends with none. A player with nothing he may excuse is passed over, and the "
             "excuses of one who can give no more end by themselves; the caller's revocations "
             "likewise. Any excuse may be revoked, a sea excuse too, a Writ each."),
        Rule("R-74", "At the call, a ship at sea or in an off-mainland port comes to a declared "
             "mainland port, open or friendly to its force (`port SHIP PLACE`); whoever aboard "
             "attends goes on to P, the rest land there (R-52). A ship stays (`stay SHIP`) only "
             "when its controlling noble and every noble aboard stay away. In a People's "
             "Parliament nobody stays away: every such ship comes to port."),
        Rule("R-75", "Other business comes after the third round (or the rounds skipped) and "
             "before the caller's `dismiss`; a vote is taken on one question at a time."),
        Rule("R-76", "A failed illegitimacy motion: the mover's King passes to another attending "
             "noble his player names, of any faction (`heir KING to NOBLE`); with none, the King "
             "stays uncontrolled where the mover stands. The mover's titles and offices go to "
             "the Chancery, for a later Parliament. The other King is at Parliament when he is "
             "at P (in or near)."),
        Rule("R-77", "In the return, a player's turn ends by itself once each of his attending "
             "nobles is sent home or staying and he can keep no ship (no Free Move, or no ship "
             "going home); else `next`. Players with nothing to decide are passed over. A "
             "noble or ship that stays is excused (R-42)."),
        Rule("R-78", "The King's Peace protects every returned noble (R-30 puts each in or near a "
             "home castle). Rule 1 bars battles in P's square and any siege of P. A returned "
             "noble takes part in no battle on either side; under rule 3 he lays a siege of the "
             "home castle he stands near and concludes his own siege of it, never joining one "
             "laid before."),
        Rule("R-79", "An office passes in Parliament with the caller's approval, recorded as "
             "`approved`; the caller's own transfer needs no more. Between two players a "
             "transfer records their deal (`agreed`), as in §5.4."),
        Rule("R-80", "People's Parliament: P is a mainland town or city unfortified or friendly to "
             "the drawer; `moving NOBLE` (one of his not under siege, R-87) only when none of his "
             "nobles is at P; with several there, `host NOBLE` names the host (R-56). The "
             "nobles gather as R-72 says."),
        Rule("R-81", "The table types each vote as one event for everyone (`vote yea ... nay "
             "...`; the others abstain): the two minutes of debate and who calls the vote are "
             "not refereed. The Chancery is face down: `options` lists its cards to the "
             "leader only (`--for LEADER`); it holds no secret all the same (R-88)."),
        Rule("R-82", "A Parliament's rounds deal with the cards in the Chancery when its first "
             "round begins; a card reaching the Chancery later (a failed motion, a death) waits "
             "for the next Parliament. Bishops that fit no attending noble stay there."),
        Rule("R-83", "A land move never leaves the land it starts on: the mainland (its sq: "
             "squares included, R-65), one island, Calais, Ireland, Scotland or the Continent. "
             "Islands and Calais are reached and left by sea; ships never put in at Ireland, "
             "Scotland or the Continent, so a noble goes there only when an event card sends "
             "him (§8.3)."),
        Rule("R-84", "Once the time limit has ended the game (R-49), nothing more is played "
             "before the table's `end`: no move, hand play, gift, trade, transfer, execution, "
             "join or clock event counts towards R-50. Only `end` (time, concede or abandoned) "
             "is recorded, and `amend`, which mends a slip in the printed values the count "
             "reads (R-2)."),
        Rule("R-85", "A force that sails into a friendly fortress port lands inside only if "
             "there is room for it (R-16's capacity, as by land); else it stays aboard "
             "(`aboard`, R-52), and may land in a later movement phase (R-64)."),
        Rule("R-86", "An event card's weather is a printed value like those of R-2: a weather "
             "check that reads it (any card but a kept Writ or Free Move) asks for it when the "
             "log does not know it (`weather CARD weather=fair` or `bad`), and never takes it "
             "as fair. The shipped file reads fair for every card it names but Bad Weather "
             "Delays Attack, as seed rule 14 decides the check by that card alone."),
        Rule("R-87", "People's Parliament: when every noble of the drawer is under siege (a ship "
             "besieger too), R-80's mover is one of them all the same, since every siege breaks "
             "(7.7); a drawer with no noble in play names P alone (`parliament people at P`), "
             "and it sits with no host. So the card can always be obeyed."),
        Rule("R-88", "The Chancery lies face down as the rules page's section 12 says: it is "
             "not displayed (`status` gives its size, `options` lists it to the Parliament's "
             "leader only). But it holds no secret: every card reaches it by a recorded public "
             "move that `history` shows (the lay-out of revealed dealt cards, a death, a "
             "Parliament's leftovers), so a refusal may name what is or is not in it."),
    ),
    notation="Names take any case, unique prefixes of three or more letters and `-` for spaces "
             "(Earl-of-Essex); lists are comma-separated. LOCATION is in:P (or P), near:P, "
             "sq:TEXT, aboard:SHIP; a ship goes to port:P or sea:TEXT. Any move may end with "
             "NAME.key=value words declaring values first needed (R-2). `--as NAME` when another "
             "player acts.",
)
