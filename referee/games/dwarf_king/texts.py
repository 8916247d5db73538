"""Everything The Dwarf King says in words: who acts, the options, what a move changed, the board,
the scoresheet and the rules summary. No rule is decided here; they live in rules.py."""

from __future__ import annotations

import re
import textwrap
from typing import Any

from referee.engine import Event, ToAct
from referee.errors import NotationError
from referee.games.dwarf_king.cards import (BASIC, CARDS, LEADER_CARD, QUEST_CARD, SPECIAL,
                                            SPECIALS, sort_cards)
from referee.games.dwarf_king.quests import REPLACED_2022, TILES_2011, tiles
from referee.games.dwarf_king.rules import hand_points, led_suit, phase, trick_winner
from referee.games.dwarf_king.state import State
from referee.notation import match
from referee.scoresheet import Round, Row, Scoresheet, places

HANDS = 7
PHASE_EVENT = {"special": "special", "quest": "quest", "swap": "swap", "leader": "leader",
               "trade": "trade", "pass": "pass", "play": "play"}
SPECIAL_RULE = {"trade": "Druid", "swap": "Flag Bearer (Goblins)"}
TIEBREAK = "a tie for first place after seven hands is broken by extra hands"

NOTATION = """\
Cards: a suit letter and a rank: K Knights, D Dwarves, G Goblins; 2-10, J, Q, K, A
  (K7 = 7 of Knights, DQ = Queen of Dwarves, GA = Champion of Goblins; 7K and QD work too).
  Special cards by name (unique prefixes work): Druid, FlagBearerD, Tinkerer, Joker, Enchanter,
  StandardBearer, Scout, Shaman, FlagBearerG, Dragon, Mummy, Puppeteer, Sorcerer, Excalibur;
  K1 D1 G1 and K11 D11 G11 name the hand's special card of that suit and rank.
Each hand, in order (the keyword may be left out when the moment is clear):
  special CARD           the dealer reveals the special card (table; `special` alone with --seed)
  hand CARD CARD ...     optional, before the quest: enter your hand for full checking (--as NAME)
  quest 4a               the holder of the 5 of Knights: tile 4, side a (a side's name works too)
  swap NAME [take C C give C C]   the Goblins' Flag Bearer, right after the quest
  leader [NAME]          the holder of the 5 of Goblins shows it; they lead the first trick
  K7  (or play K7)       a card played; the referee knows whose turn it is
  trade NAME             after the Druid's trick: its player swaps hands with NAME
  pass left|right        after the Standard Bearer's trick: every hand passes that way
  Sorcerer K7            between tricks: its holder takes K7 back from the previous trick
When several players could be the one to act (nobody knows who holds the 5 of Knights), add
--as NAME to `referee play`."""

RULINGS = (
    ("R-1", "Several Aces against the Dragon: the Ace of the led suit wins; otherwise the first "
            "Ace played."),
    ("R-2", "Magic cards have no suit and no value when a hand is scored."),
    ("R-3", "The Puppeteer and Excalibur may not lead a trick unless they are the player's last "
            "card."),
    ("R-4", "Option edition = 2011 (default) | 2022: the 2022 reprint replaces tiles 1, 8, 11, "
            "14, 20 and side 6b."),
    ("R-5", "Elite army counts only suits of which the player won at least one card; a player "
            "who won no suited card scores 0."),
    ("R-6", "Ties inside a quest (e.g. 'highest total') reward every tied player."),
    ("R-7", "'Right-hand neighbour' is the previous player in clockwise order, 'left-hand' the "
            "next; passing hands left gives each hand to the next player."),
    ("R-8", "Following suit with magic cards: only suited cards (basic cards, 1s and 11s) oblige "
            "a player to follow. The Mummy and the Puppeteer follow when the suit they copy is the "
            "led suit; otherwise, like Excalibur, they may be played only by a player void in the "
            "led suit. The Dragon may always be played. The Sorcerer is played between tricks; a "
            "Sorcerer still in hand at the last trick is played to it as a card with no suit "
            "that cannot win. A trick led by a card without suit takes its suit from the next "
            "card."),
    ("R-9", "Special cards and quest tiles are never reused; if a long tie-break uses them all "
            "up, all become available again."),
    ("R-10", "Quest 19: 'as many tricks as you' means exactly the same number of tricks."),
    ("R-11", "Triplets (6a): +1 per triplet of a rank, +2 instead when the rank is a face."),
    ("R-12", "Grand Army (6b): the run counts one card per rank (1, 2, ..., 10, 11, J, Q, K, A)."),
    ("R-13", "In line / Sandwich (2022 tile 20): +3 to each player who won fewer (In line) or "
             "more (Sandwich) tricks than the previous player and more than the next player."),
    ("R-14", "Save the nobles / the brave (tile 11) and the gnomes / soldiers (13): values are "
             "the printed numbers 1-11; a player with no such card scores 0, except that a "
             "player who won faces and no other suited card scores +10 for Save the nobles."),
    ("R-15", "The 2022 tiles replace, in order: 1 Lucky/Bad run, 8 Good/Bad numbers, 11 "
             "Eeny-meeny/Miney-mo, 6b '1, 2 and...', 14 Grand slam/Utter chaos, 20 In "
             "line/Sandwich."),
    ("R-16", "The special cards' choices are compulsory: the Druid's player swaps with another "
             "player, the Standard Bearer's player picks a direction, the Goblins' Flag Bearer "
             "swap is made with another player after the quest and before the first lead."),
    ("R-17", "A revoke is reported (once per void shown), not scored: the table decides any "
             "penalty; the hand's points are computed from the cards as played."),
    ("R-18", "A player who shows the 5 of Knights, the 5 of Goblins or plays a special card is "
             "known to hold it; a card known to be in one hand cannot be played from another."),
    ("R-19", "A Puppeteer that leads (as a last card, R-3) copies the last card played in the "
             "previous trick, half a step higher; Excalibur leading wins, and the next card sets "
             "the suit."),
)


def rules_text() -> str:
    lines = [
        "The Dwarf King (Bruno Faidutti) - trick taking, 3-5 players, seven hands.",
        "",
        "Each hand: the dealer (hand 1: the first player; then whoever won the 5 of Dwarves) "
        "reveals a special card never used before and deals everything (13 cards each with 3 "
        "players, without the 2 of Dwarves; 10 with 4; 8 with 5). The holder of the 5 of "
        "Knights draws a quest tile and chooses a side; the holder of the 5 of Goblins leads. "
        "Follow the led suit if you can; no trumps; the highest card of the led suit wins and "
        "leads next. After the last trick each player scores the quest (on the cards and tricks "
        "they won) and the special card's effect. After seven hands the highest total wins; "
        "extra hands are played while first place is tied.",
        "",
        "Rank order: 1 < 2 < ... < 10 < 11 < J < Q < K < A (Champion). Faces: J Q K A.",
        "",
        "Special cards:",
    ]
    for s in SPECIALS:
        kind = f"{s.rank} of {s.suit}" if s.suit else "magic"
        lines.append(f"  {s.code:<15} {s.name} ({kind}): {s.text}")
    lines += ["", "Quest tiles (2011 edition; option edition=2022 replaces some, R-4):"]
    lines += [f"  {q.label:<4} {q.name}: {q.text}" for q in TILES_2011]
    lines += ["", "2022 edition replacements:"]
    lines += [f"  {q.label:<4} {q.name}: {q.text}" for q in REPLACED_2022]
    lines += ["", "Rulings (defaults; R-4 is the option `edition`):"]
    lines += [f"  {code}: {text}" for code, text in RULINGS]
    lines += ["", "What the referee checks without seeing the hands: the card exists in this hand, "
              "was not played before, is played in turn; the specials' conditions. A player who "
              "did not follow has shown a void; when the same hand later plays that suit the "
              "referee reports the revoke, naming both tricks. Voids travel with the cards when "
              "hands are swapped or passed. Entered hands (or --shuffle --seed) make every "
              "follow-suit check immediate.", ""]
    wrapped = []
    for line in lines:
        indent = "      " if line.startswith("  ") else ""
        wrapped.extend(textwrap.wrap(line, 96, subsequent_indent=indent) or [""])
    return "\n".join(wrapped + ["Notation:", NOTATION]) + "\n"


# --------------------------------------------------------------------------------------------
# Quests in notation


_QUEST = re.compile(r"^(\d+)\s*([ab])?$", re.IGNORECASE)


def parse_quest(state: State, rest: list[str], text: str) -> tuple[int | None, str]:
    """`4a`, `4 a`, `a` (tile from the seeded pile) or a side's name."""
    joined = " ".join(rest).strip()
    if joined.casefold() in ("a", "b"):
        return None, joined.casefold()
    m = _QUEST.match(joined)
    if m:
        tile = int(m.group(1))
        if not m.group(2):
            sides = tiles(state.edition)
            hint = "; ".join(f"{tile}{s} {sides[(tile, s)].name}" for s in "ab"
                             if (tile, s) in sides)
            raise NotationError(f"{text!r}: choose a side, a or b ({hint})", code="no-side")
        return tile, m.group(2).lower()
    if not joined:
        raise NotationError(f"{text!r}: which quest? e.g. `quest 4a`", code="no-tile")
    by_name = {q.name: q for q in tiles(state.edition).values()}
    quest = by_name[match(joined, by_name, "quest side", text=text)]
    return quest.tile, quest.side


def quest_line(state: State, quest: tuple[int, str]) -> str:
    q = tiles(state.edition)[quest]
    return f"{q.label} {q.name} ({q.text})"


# --------------------------------------------------------------------------------------------
# Who acts


def _holders(state: State, card: str) -> tuple[str, ...]:
    seat = state.deal.holder(card)
    return (state.names[seat],) if seat is not None else state.names


def to_act(state: State) -> ToAct:
    deal = state.deal
    step = phase(state)
    head = f"hand {deal.number}"
    if step == "over":
        return ToAct((), "game over")
    if step == "special":
        return ToAct((), f"{head}: {state.names[deal.dealer]} deals and reveals the special card "
                         "(`special CARD`)", table=True)
    if step == "quest":
        return ToAct(_holders(state, QUEST_CARD), f"{head}: the holder of the 5 of Knights "
                     "draws a quest tile and chooses a side (`quest 4a`)")
    if step == "swap":
        return ToAct(_holders(state, "FlagBearerG"), f"{head}: the holder of the Flag Bearer "
                     "(Goblins) takes 2 random cards from a player (`swap NAME`)")
    if step == "leader":
        return ToAct(_holders(state, LEADER_CARD), f"{head}: the holder of the 5 of Goblins "
                     "shows it (`leader`)")
    if step in ("trade", "pass"):
        who = state.names[deal.pending_seat]
        what = ("swaps hands with another player (`trade NAME`)" if step == "trade"
                else "passes every hand left or right (`pass left`)")
        return ToAct((who,), f"{head}: {who} {what}")
    seat = (deal.turn_leader + len(deal.plays)) % state.players
    previous = deal.tricks[-1] if deal.tricks else None
    led = led_suit(deal.plays, previous)
    doing = "leads" if not deal.plays else (f"follows {led}" if led else "plays (sets the suit)")
    return ToAct((state.names[seat],), f"{head}, trick {deal.trick_number}: "
                 f"{state.names[seat]} {doing}")


# --------------------------------------------------------------------------------------------
# Options


def option_lines(game: Any, state: State, events: list[Event]) -> list[str]:
    plays = [e for e in events if e.type == "play"]
    sorcery = [e for e in events if e.type == "sorcerer"]
    quests = [e for e in events if e.type == "quest"]
    specials = [e for e in events if e.type == "special"]
    rest = [e for e in events if e.type not in ("play", "sorcerer", "quest", "special")]
    lines = _by_text(game, state, rest)
    if len(specials) > 1:
        lines.append("special CARD: one not used before: "
                     + " ".join(e["card"] for e in specials))
    elif specials:
        lines.append(game.format(state, specials[0]))
    if quests:
        tiles_left = sorted({e["tile"] for e in quests})
        who = sorted({e.by for e in quests})
        lines.append(f"quest TILE SIDE: tile {' '.join(map(str, tiles_left))}, side a or b "
                     f"(e.g. quest {tiles_left[0]}a)" + ("" if len(who) == 1 else
                                                         "; --as the holder of the 5 of Knights"))
    if plays:
        lines += _play_lines(state, [e["card"] for e in plays])
    if sorcery:
        cards = " ".join(sort_cards({e["card"] for e in sorcery}))
        lines.append(f"Sorcerer CARD: its holder takes back one of {cards} (between tricks)")
    return lines


def _by_text(game: Any, state: State, events: list[Event]) -> list[str]:
    """One line per move text; a move several players could make names them once."""
    groups: dict[str, list[str]] = {}
    for e in events:
        groups.setdefault(game.format(state, e), []).append(e.by or "")
    return [text if len(set(bys)) < 2 else f"{text}   (--as whoever it is: {', '.join(bys)})"
            for text, bys in groups.items()]


def _play_lines(state: State, cards: list[str]) -> list[str]:
    deal = state.deal
    seat = (deal.turn_leader + len(deal.plays)) % state.players
    slot = deal.slots[seat]
    shown = " ".join(sort_cards(cards))
    if slot.complete:
        return [shown]
    previous = deal.tricks[-1] if deal.tricks else None
    led = led_suit(deal.plays, previous)
    if led is None:
        return [f"any unplayed card: {shown}"] + _special_conditions(state, cards)
    follow = [c for c in cards if CARDS[c].suit == led]
    others = [c for c in cards if c not in follow]
    lines = [f"follow {led} if you can: {' '.join(follow) or '(none known to be left)'}"]
    if others:
        lines.append(f"or, if void in {led}: {' '.join(others)}")
    if "Dragon" in cards:
        lines.append("the Dragon may be played at any time")
    return lines + _special_conditions(state, cards)


# What the hand's special card allows, said once when it may be in the player's hand.
CONDITIONS = {
    "Mummy": "Mummy: a copy of the card that won the previous trick; not in the first trick",
    "Puppeteer": "Puppeteer: the suit of the card just before it, half a step higher; leads only "
                 "as a last card (R-3)",
    "Excalibur": "Excalibur: only when void in the led suit, and it wins; leads only as a last "
                 "card (R-3)",
    "Sorcerer": "Sorcerer: between two tricks (`Sorcerer CARD`), or as a last card (R-8)",
}


def _special_conditions(state: State, cards: list[str]) -> list[str]:
    special = state.deal.special
    if special not in CONDITIONS or special in state.deal.gone:
        return []
    seat = (state.deal.turn_leader + len(state.deal.plays)) % state.players
    holder = state.deal.holder(special)
    if holder not in (None, seat):
        return []
    return [CONDITIONS[special] + ("" if special in cards else " (not playable now)")]


# --------------------------------------------------------------------------------------------
# What a move changed


def describe(game: Any, before: State, event: Event, after: State) -> list[str]:
    t, by = event.type, event.by
    bd = before.deal
    if t == "special":
        s = SPECIAL[event["card"]]
        return [f"Hand {bd.number}: {before.names[bd.dealer]} deals; the special card is "
                f"{s.name}: {s.text}."]
    if t == "hand":
        lines = [f"{by}'s hand is entered: their plays are checked at once."]
        lines += [f"{after.names[s]}'s hand is deduced (the cards left)."
                  for s, slot in enumerate(after.deal.slots)
                  if slot.complete and not bd.slots[s].complete and after.names[s] != by]
        return lines
    if t == "quest":
        return [f"{by} shows the 5 of Knights and chooses quest "
                f"{quest_line(after, (event['tile'], event['side']))}."]
    if t == "swap":
        return [f"{by} (Flag Bearer of the Goblins) takes 2 random cards from {event['target']} "
                "and gives 2 back."]
    if t == "leader":
        return [f"{by} shows the 5 of Goblins and leads trick 1."]
    if t == "trade":
        return [f"{by} (Druid) and {event['target']} swap their whole hands."]
    if t == "pass":
        return [f"Every player passes their hand to the {event['direction']} (Standard Bearer)."]
    if t == "sorcerer":
        return [f"{by} plays the Sorcerer: takes {event['card']} back from trick "
                f"{bd.trick_number - 1} and leaves the Sorcerer in its place."]
    return _describe_play(game, before, event, after)


def card_words(code: str) -> str:
    """`2 of Knights (K2)`, `the Druid`, `the Standard Bearer [StandardBearer]`."""
    card = CARDS[code]
    if card.special is None:
        return f"{card.name} ({code})"
    return f"the {card.name}" + ("" if card.name == code else f" [{code}]")


def _describe_play(game: Any, before: State, event: Event, after: State) -> list[str]:
    lines = [f"{event.by} plays {card_words(event['card'])}."]
    bd = before.deal
    hand_over = len(after.results) > len(before.results)
    if not hand_over and len(after.deal.tricks) == len(bd.tricks):
        return lines
    plays = bd.plays + ((before.seat(event.by), event["card"]),)
    previous = bd.tricks[-1] if bd.tricks else None
    winner = trick_winner(plays, previous)
    card = next(c for s, c in plays if s == winner)
    lines.append(f"Trick {bd.trick_number} ({' '.join(c for _, c in plays)}) is won by "
                 f"{before.names[winner]} with {card}.")
    if not hand_over:
        return lines
    result = after.results[-1]
    lines.append(f"Hand {result.number} is over: quest {quest_line(after, result.quest)}; "
                 f"special {SPECIAL[result.special].name}.")
    lines.append("Points: " + ", ".join(f"{n} {p:+d}" for n, p in zip(after.names,
                                                                      result.points)))
    lines.append("Totals: " + ", ".join(f"{n} {t}" for n, t in zip(after.names, after.totals)))
    if after.over:
        lines.append(f"Game over: {_outcome(after)}.")
    else:
        dealer = after.names[result.next_dealer]
        extra = " (extra hand: first place is tied)" if len(after.results) >= HANDS else ""
        lines.append(f"{dealer} won the 5 of Dwarves and deals hand {after.deal.number}{extra}.")
    return lines


# --------------------------------------------------------------------------------------------
# Scoresheet


def _outcome(state: State) -> str:
    totals = state.totals
    hands = len(state.results)
    if state.over:
        best = max(totals)
        winner = state.names[totals.index(best)]
        extra = f" ({hands - HANDS} extra hand(s) broke a tie)" if hands > HANDS else ""
        return f"{winner} wins with {best} points after {hands} hands{extra}"
    if not hands:
        return "hand 1 in progress"
    best = max(totals)
    leaders = [n for n, t in zip(state.names, totals) if t == best]
    return (f"after {hands} hand(s): {' and '.join(leaders)} lead(s) with {best}; hand "
            f"{state.deal.number} in progress")


def _columns(count: int) -> list[str]:
    return [f"Hand {n}" for n in range(1, max(HANDS, count) + 1)]


def scoresheet(game: Any, state: State) -> Scoresheet:
    totals = state.totals
    ranked = places(dict(zip(state.names, totals)))
    columns = _columns(len(state.results))
    rows = []
    for seat, name in enumerate(state.names):
        points = [r.points[seat] for r in state.results]
        cells = tuple((col, points[i] if i < len(points) else None)
                      for i, col in enumerate(columns))
        won = state.over and ranked[name] == 1
        rows.append(Row(name, None, cells, totals[seat], ranked[name],
                        result="winner" if won else ""))
    rounds = tuple(Round(f"Hand {r.number}", tuple(zip(state.names, r.points)),
                         f"quest {tiles(state.edition)[r.quest].label} "
                         f"{tiles(state.edition)[r.quest].name}; special "
                         f"{SPECIAL[r.special].name}; dealer {r.dealer}")
                   for r in state.results)
    winners = tuple(n for n in state.names if ranked[n] == 1) if state.over else ()
    return Scoresheet(game=game.id, title="The Dwarf King", finished=state.over,
                      outcome=_outcome(state), winners=winners, rows=tuple(rows),
                      tiebreaks=(TIEBREAK,), rounds=rounds, notes=tuple(chart(state)))


def chart(state: State) -> list[str]:
    """The running totals as a small text chart: one line per player, one column per hand."""
    if not state.results:
        return []
    running = []
    for seat in range(state.players):
        total, series = 0, []
        for r in state.results:
            total += r.points[seat]
            series.append(total)
        running.append(series)
    low = min(min(s) for s in running)
    high = max(max(s) for s in running)
    span = (high - low) or 1
    marks = "_.:-=+*#%@"
    width = max(len(n) for n in state.names)
    lines = ["Running totals after each hand (chart, low to high: _ . : - = + * # % @):"]
    for name, series in zip(state.names, running):
        spark = "".join(marks[round((v - low) / span * (len(marks) - 1))] for v in series)
        numbers = " ".join(f"{v:>4}" for v in series)
        lines.append(f"  {name:<{width}} |{spark}| {numbers}")
    return lines


def blank_scoresheet(game: Any, options: dict[str, Any]) -> Scoresheet:
    columns = _columns(HANDS) + ["Extra"]
    rows = tuple(Row(None, None, tuple((c, None) for c in columns), None)
                 for _ in range(game.max_players))
    return Scoresheet(game=game.id, title=f"The Dwarf King - scoresheet (edition "
                                          f"{options['edition']})",
                      finished=False, outcome="", winners=(), rows=rows, tiebreaks=(TIEBREAK,),
                      notes=("Per hand, note the quest tile and side, and the special card.",),
                      blank=True)


# --------------------------------------------------------------------------------------------
# The board


def render(game: Any, state: State) -> str:
    deal = state.deal
    lines = [f"The Dwarf King - {', '.join(state.names)} (edition {state.edition})"]
    if state.over:
        lines.append(f"Game over: {_outcome(state)}")
    else:
        extra = " (extra hand)" if deal.number > HANDS else f" of {HANDS}"
        lines.append(f"Hand {deal.number}{extra}; dealer {state.names[deal.dealer]}")
        if deal.special:
            s = SPECIAL[deal.special]
            lines.append(f"Special card: {s.name} - {s.text}")
        if deal.quest:
            lines.append(f"Quest: {quest_line(state, deal.quest)}")
        lines += _trick_lines(state)
    lines += ["", "Scores by hand:"]
    header = "  " + " ".join(f"{n[:8]:>8}" for n in state.names)
    lines.append(header)
    for r in state.results:
        lines.append("  " + " ".join(f"{p:>8}" for p in r.points)
                     + f"   hand {r.number}: {tiles(state.edition)[r.quest].name}, "
                       f"{SPECIAL[r.special].name}")
    lines.append("  " + " ".join(f"{t:>8}" for t in state.totals) + "   total")
    lines += chart(state)
    if not state.over:
        lines += ["", f"To act: {game.to_act(state).phase}"]
    return "\n".join(lines)


def _trick_lines(state: State) -> list[str]:
    deal = state.deal
    if not deal.slots:
        return []
    lines = []
    if deal.tricks:
        t = deal.tricks[-1]
        lines.append(f"Last trick ({t.number}): {' '.join(t.cards)} - won by "
                     f"{state.names[t.winner]}")
    if deal.leader is not None:
        shown = " ".join(f"{state.names[s]}:{c}" for s, c in deal.plays) or "(no card yet)"
        lines.append(f"Trick {deal.trick_number}: {shown}")
        won = [sum(1 for t in deal.tricks if t.winner == s) for s in range(state.players)]
        lines.append("Tricks won: " + ", ".join(f"{n} {w}" for n, w in zip(state.names, won)))
        if deal.tricks:
            so_far = hand_points(deal, state.players, state.edition)
            lines.append("Points if the hand ended now: "
                         + ", ".join(f"{n} {p:+d}" for n, p in zip(state.names, so_far)))
    for seat, slot in enumerate(deal.slots):
        facts = [f"{slot.size} card(s)"]
        if slot.complete:
            facts.append("known: " + " ".join(sort_cards(slot.known)))
        elif slot.known:
            facts.append("holds " + " ".join(sort_cards(slot.known)))
        facts += [f"no {v.suit} since trick {v.trick} ({v.player})" for v in slot.voids]
        lines.append(f"  {state.names[seat]}: {'; '.join(facts)}")
    return lines


def inventory(state: State) -> dict[str, int]:
    """Where the 53 cards are: the deck, the box, the specials' piles, hands, trick, won piles."""
    from referee.games.dwarf_king.game import available_specials

    deal = state.deal
    basic = len(BASIC) - (1 if state.players == 3 else 0)
    left = len(available_specials(state))
    counts = {"out of the game": len(BASIC) - basic,
              "special cards used": len(SPECIALS) - left,
              "special cards pile": left - (1 if deal.special else 0),
              "deck": 0 if deal.special else basic,
              "trick": len(deal.plays)}
    for seat, name in enumerate(state.names):
        counts[f"hand {name}"] = deal.slots[seat].size if deal.slots else 0
        counts[f"won {name}"] = sum(len(t.cards) for t in deal.tricks if t.winner == seat)
    return counts

