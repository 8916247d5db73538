"""The Dwarf King in words: what a move changed, the options as a player reads them, the board.
No rule is decided here; they live in rules.py."""

from __future__ import annotations

from typing import Any, Callable

from referee.engine import Event
from referee.games.dwarf_king.components import (
    BASIC,
    CARDS,
    SPECIAL_CARD,
    SPECIALS,
    sort_cards,
    tiles,
)
from referee.games.dwarf_king.rules import (
    available_specials,
    drawn_tile,
    effective,
    led_suit,
    to_act,
    trick_winner,
)
from referee.games.dwarf_king.scoring import HANDS, chart, hand_points, outcome_line
from referee.games.dwarf_king.state import State
from referee.screen import cells, ljust
from referee.textsafe import short_names


def quest_line(state: State, quest: tuple[int, str]) -> str:
    q = tiles(state.edition)[quest]
    return f"{q.label} {q.name} ({q.text})"


def _side_line(state: State, quest: tuple[int, str]) -> str:
    """A side as an option line explains its move, after `   (` as every such line does."""
    q = tiles(state.edition)[quest]
    return f"{q.label} {q.name}: {q.text}"


# --------------------------------------------------------------------------------------------
# Options


def option_lines(state: State, events: list[Event], formatted: list[str]) -> list[str]:
    plays = [e for e in events if e.type == "play"]
    sorcery = [e for e in events if e.type == "sorcerer"]
    quests = [e for e in events if e.type == "quest"]
    specials = [e for e in events if e.type == "special"]
    gives = [e for e in events if e.type == "give"]
    text = dict(zip(map(id, events), formatted))
    rest = [e for e in events if e.type not in ("play", "sorcerer", "quest", "special", "give")]
    lines = _by_text([(text[id(e)], e.by) for e in rest])
    if gives:  # the Flag Bearer's own view: any 2 of his cards
        held = sort_cards({card for e in gives for card in e["cards"]})
        taken = (f"   (taken from {state.names[state.deal.taken_from]}: "
                 f"{' '.join(state.deal.taken)})"
                 if state.deal.taken and state.deal.taken_from is not None else "")
        lines.append(f"give CARD CARD: any 2 of {' '.join(held)}{taken}")
    if len(specials) > 1:
        lines.append("special CARD: one not used before: "
                     + " ".join(e["card"] for e in specials))
    elif specials:
        lines.append(text[id(specials[0])])
    if quests and drawn_tile(state) is not None:  # the tile is drawn: its two sides, in full
        lines += [f"{text[id(e)]}   ({_side_line(state, (e['tile'], e['side']))})"
                  for e in quests]
    elif quests:
        tiles_left = sorted({e["tile"] for e in quests})
        who = sorted({e.by or "" for e in quests})
        head = (f"quest TILE SIDE: tile {' '.join(map(str, tiles_left))}, side a or b "
                f"(e.g. quest {tiles_left[0]}a)")
        lines.append(head + ("" if len(who) == 1 else "; --as the holder of the 5 of Knights"))
    if plays:
        lines += _play_lines(state, [e["card"] for e in plays])
    if sorcery:
        cards = " ".join(sort_cards({e["card"] for e in sorcery}))
        lines.append(f"Sorcerer CARD: its holder takes back one of {cards} (between tricks)")
    return lines


def _by_text(moves: list[tuple[str, str | None]]) -> list[str]:
    """One line per move text; a move several players could make names them once."""
    groups: dict[str, list[str]] = {}
    for text, by in moves:
        groups.setdefault(text, []).append(by or "")
    return [text if len(set(bys)) < 2 else f"{text}   (--as whoever it is: {', '.join(bys)})"
            for text, bys in groups.items()]


def _play_lines(state: State, cards: list[str]) -> list[str]:
    """The cards the player to act may play. A magic card (the hand's special card without a
    suit) gets a line of its own with its condition, so that it is never read as one of many."""
    deal = state.deal
    seat = (deal.turn_leader + len(deal.plays)) % state.players
    slot = deal.slots[seat]
    magic = [c for c in cards if c in MAGIC]
    cards = [c for c in cards if c not in MAGIC]
    shown = " ".join(sort_cards(cards))
    if slot.complete:
        lines = sort_cards(cards)
    else:
        previous = deal.tricks[-1] if deal.tricks else None
        led = led_suit(deal.plays, previous)
        if led is None:
            lines = [f"any unplayed card: {shown}"] if cards else []
        else:
            follow = [c for c in cards if CARDS[c].suit == led]
            others = [c for c in cards if c not in follow]
            lines = [f"follow {led} if you can: {' '.join(follow) or '(none known to be left)'}"]
            if others:
                lines.append(f"or, if void in {led}: {' '.join(others)}")
    return lines + [f"{card}   ({magic_condition(state, card)})" for card in magic]


def magic_condition(state: State, card: str) -> str:
    """What a magic card does if played now, and when it may be: whose copy it is, the suit to
    be void in (R-8)."""
    deal = state.deal
    previous = deal.tricks[-1] if deal.tricks else None
    led = led_suit(deal.plays, previous)
    text = MAGIC[card]
    if card == "Mummy" and previous is not None:
        text = f"as {card_words(previous.winning_card)}, the card that won the previous trick"
    elif card == "Puppeteer":
        source = deal.plays[-1][1] if deal.plays else \
            (previous.plays[-1][1] if previous else None)
        if source is not None:
            text = f"half a step above {card_words(source)}, the card played just before it"
        if not deal.plays:
            text += "; it leads only as a last card (R-3)"
    elif card == "Excalibur" and led is not None:
        text = f"only when void in {led}, and then it wins"
    if card in ("Mummy", "Puppeteer") and led is not None \
            and effective(card, deal.plays, previous)[0] != led:
        text += f"; only if void in {led} (R-8)"
    return text


# What each magic card allows, on its own line when it may be played now.
MAGIC = {
    "Dragon": "the Dragon may be played at any time",
    "Mummy": "a copy of the card that won the previous trick",
    "Puppeteer": "half a step above the card just before it; leads only as a last card (R-3)",
    "Excalibur": "only when void in the led suit, and it wins; leads only as a last card (R-3)",
    "Sorcerer": "as your last card (R-8); between two tricks it takes a card back: "
                "`Sorcerer CARD`",
}
WHY_NOT = {  # why a magic card the player may hold cannot be played now
    "Mummy": "it copies the card that won the previous trick: not in the first trick",
    "Puppeteer": "it leads only as a last card (R-3), and never the first trick",
    "Excalibur": "only when void in the led suit, and it leads only as a last card (R-3)",
    "Sorcerer": "between two tricks (`Sorcerer CARD`), or into a trick as a last card (R-8)",
}


def not_playable_note(state: State, playable: list[str]) -> str:
    """The hand's magic card, when the player to act may hold it but cannot play it now."""
    special = state.deal.special
    if special not in WHY_NOT or special in state.deal.gone or special in playable:
        return ""
    seat = (state.deal.turn_leader + len(state.deal.plays)) % state.players
    if state.deal.holder(special) not in (None, seat):
        return ""
    return f"Not playable now: {special} ({WHY_NOT[special]})."


# --------------------------------------------------------------------------------------------
# What a move changed: one describer per event type (a card played is the default)


def _special(before: State, event: Event, after: State) -> list[str]:
    s = SPECIAL_CARD[event["card"]]
    return [f"Hand {before.deal.number}: {before.names[before.deal.dealer]} deals; the special "
            f"card is {s.name}: {s.text}.", *drawn_lines(after)]


def _hand(before: State, event: Event, after: State) -> list[str]:
    lines = [f"{event.by}'s hand is entered: their plays are checked at once."]
    lines += [f"{after.names[s]}'s hand is deduced (the cards left)."
              for s, slot in enumerate(after.deal.slots)
              if slot.complete and not before.deal.slots[s].complete
              and after.names[s] != event.by]
    return lines


def _quest(before: State, event: Event, after: State) -> list[str]:
    return [f"{event.by} shows the 5 of Knights and chooses quest "
            f"{quest_line(after, (event['tile'], event['side']))}."]


def _swap(before: State, event: Event, after: State) -> list[str]:
    if after.deal.taken_from is not None:  # the tool took them: the give comes next
        return [f"{event.by} (Flag Bearer of the Goblins) takes 2 random cards from "
                f"{event['target']}: {event.by} reads them alone with `referee status --for "
                f"{event.by}`, then gives 2 back (`give CARD CARD`)."]
    return [f"{event.by} (Flag Bearer of the Goblins) takes 2 random cards from "
            f"{event['target']} and gives 2 back."]


def _give(before: State, event: Event, after: State) -> list[str]:
    target = before.names[before.deal.taken_from] if before.deal.taken_from is not None \
        else "their owner"
    return [f"{event.by} (Flag Bearer of the Goblins) gives 2 cards back to {target}, face "
            "down."]


def _leader(before: State, event: Event, after: State) -> list[str]:
    return [f"{event.by} shows the 5 of Goblins and leads trick 1."]


def _trade(before: State, event: Event, after: State) -> list[str]:
    return [f"{event.by} (Druid) and {event['target']} swap their whole hands."]


def _pass(before: State, event: Event, after: State) -> list[str]:
    return [f"Every player passes their hand to the {event['direction']} (Standard Bearer)."]


def _sorcerer(before: State, event: Event, after: State) -> list[str]:
    return [f"{event.by} plays the Sorcerer: takes {event['card']} back from trick "
            f"{before.deal.trick_number - 1} and leaves the Sorcerer in its place."]


DESCRIBERS: dict[str, Callable[[State, Event, State], list[str]]] = {
    "special": _special, "hand": _hand, "quest": _quest, "swap": _swap, "give": _give,
    "leader": _leader,
    "trade": _trade, "pass": _pass, "sorcerer": _sorcerer,
    "end": lambda before, event, after: [f"end {event['reason']}"],
}


def describe(before: State, event: Event, after: State) -> list[str]:
    return DESCRIBERS.get(event.type, _describe_play)(before, event, after)


def card_words(code: str) -> str:
    """`2 of Knights (K2)`, `the Druid`, `the Standard Bearer [StandardBearer]`."""
    card = CARDS[code]
    if card.special is None:
        return f"{card.name} ({code})"
    return f"the {card.name}" + ("" if card.name == code else f" [{code}]")


def _describe_play(before: State, event: Event, after: State) -> list[str]:
    lines = [f"{event.by} plays {card_words(event['card'])}."]
    bd = before.deal
    hand_over = len(after.results) > len(before.results)
    if not hand_over and len(after.deal.tricks) == len(bd.tricks):
        return lines
    assert event.by is not None
    plays = bd.plays + ((before.seat(event.by), event["card"]),)
    previous = bd.tricks[-1] if bd.tricks else None
    winner = trick_winner(plays, previous)
    card = next(c for s, c in plays if s == winner)
    lines.append(f"Trick {bd.trick_number} ({' '.join(c for _, c in plays)}) is won by "
                 f"{before.names[winner]} with {card}.")
    if not hand_over:
        return lines
    result = after.results[-1]
    special = SPECIAL_CARD[result.special]
    if special.action in ("trade-hands", "pass-hands") and \
            any(c == special.code for _, c in plays):
        lines.append(f"The {special.name} has no effect in the last trick.")
    lines.append(f"Hand {result.number} is over: quest {quest_line(after, result.quest)}; "
                 f"special {SPECIAL_CARD[result.special].name}.")
    lines.append("Points: " + ", ".join(f"{n} {p:+d}" for n, p in zip(after.names,
                                                                      result.points)))
    lines.append("Totals: " + ", ".join(f"{n} {t}" for n, t in zip(after.names, after.totals)))
    if after.over:
        lines.append(f"Game over: {outcome_line(after)}.")
    else:
        dealer = after.names[result.next_dealer]
        extra = " (extra hand: first place is tied)" if len(after.results) >= HANDS else ""
        lines.append(f"{dealer} won the 5 of Dwarves and deals hand {after.deal.number}{extra}.")
    return lines


# --------------------------------------------------------------------------------------------
# The board


def render(state: State) -> str:
    deal = state.deal
    lines = [f"The Dwarf King - {', '.join(state.names)} (edition {state.edition})"]
    if state.over:
        lines.append(f"Game over: {outcome_line(state)}")
    else:
        lines.append(f"Hand {_numbered(deal.number)}; dealer {state.names[deal.dealer]}")
        lines += _special_and_quest(state) + _trick_lines(state)
    lines += ["", "Scores by hand:"]
    header = "  " + " ".join(f"{n[:8]:>8}" for n in state.names)
    lines.append(header)
    for r in state.results:
        lines.append("  " + " ".join(f"{p:>8}" for p in r.points)
                     + f"   hand {r.number}: {tiles(state.edition)[r.quest].name}, "
                       f"{SPECIAL_CARD[r.special].name}")
    lines.append("  " + " ".join(f"{t:>8}" for t in state.totals) + "   total")
    lines += chart(state)
    lines += ["", "Game over: `referee scoresheet` prints the sheet." if state.over else
              to_act(state).line()]
    return "\n".join(lines)


def _numbered(number: int) -> str:
    """A hand's number as the boards give it: `2 of 7`, or `8 (extra hand)`."""
    return f"{number}" + (" (extra hand)" if number > HANDS else f" of {HANDS}")


def _special_and_quest(state: State) -> list[str]:
    """The hand's special card and quest, as both boards show them."""
    deal, lines = state.deal, []
    if deal.special:
        special = SPECIAL_CARD[deal.special]
        lines.append(f"Special card: {special.name} - {special.text}")
    if deal.quest:
        lines.append(f"Quest: {quest_line(state, deal.quest)}")
    return lines + drawn_lines(state) + taken_lines(state)


def taken_lines(state: State) -> list[str]:
    """The 2 cards the tool took for the Flag Bearer: only in his own view (`--for`)."""
    deal = state.deal
    if not deal.taken or deal.taken_from is None:
        return []
    return [f"Taken from {state.names[deal.taken_from]}: {' '.join(deal.taken)} (yours alone "
            "to see); give 2 cards back: `give CARD CARD`"]


def drawn_lines(state: State) -> list[str]:
    """The quest tile the tool drew, both sides, while its holder chooses one (R-20)."""
    tile = drawn_tile(state)
    if tile is None:
        return []
    return [f"Quest tile {tile} drawn; the holder of the 5 of Knights chooses a side:",
            *(f"  {quest_line(state, (tile, side))}" for side in "ab")]


def compact(state: State) -> str:
    """The board for a shared 80x24 screen: the hand, its special card and quest, the trick on
    the table, one line per player (cards held, tricks won, points this hand, total so far,
    what the table knows of the hand); the per-hand table and chart stay in `status --full`."""
    deal = state.deal
    lines = [f"The Dwarf King (edition {state.edition})"]
    if state.over:
        lines.append(f"Game over: {outcome_line(state)}")
    else:
        lines[0] += f" - hand {_numbered(deal.number)}, dealer {state.names[deal.dealer]}"
        lines += _special_and_quest(state)
        if deal.tricks:
            t = deal.tricks[-1]
            lines.append(f"Last trick ({t.number}): {' '.join(t.cards)} - won by "
                         f"{state.names[t.winner]}")
        if deal.leader is not None and deal.slots:
            shown = " ".join(f"{state.names[s]}:{c}" for s, c in deal.plays) or "(no card yet)"
            lines.append(f"Trick {deal.trick_number}: {shown}")
    lines += ["", _player_lines(state), "Game over: `referee scoresheet` prints the sheet."
              if state.over else to_act(state).line()]
    return "\n".join(line for line in lines if line is not None)


def _player_lines(state: State) -> str:
    deal = state.deal
    playing = bool(deal.slots) and not state.over
    won = [sum(1 for t in deal.tricks if t.winner == s) for s in range(state.players)]
    now = hand_points(deal, state.players, state.edition) if playing and deal.tricks else None
    names = short_names(state.names, 8)
    column = max(8, *map(cells, names))  # columns: a name in Chinese takes two a character
    head = f"  {'':<{column}} {'total':>5}" + ("  cards tricks  now" if playing else "")
    rows = [head]
    for seat, name in enumerate(names):
        row = f"  {ljust(name, column)} {state.totals[seat]:>5}"
        if playing:
            slot = deal.slots[seat]
            row += f"  {slot.size:>5} {won[seat]:>6} " + (f"{now[seat]:>+4}" if now else "   -")
            if slot.complete:
                row += "  known: " + " ".join(sort_cards(slot.known))
            elif slot.known:
                row += "  holds " + " ".join(sort_cards(slot.known))
            if slot.voids:
                row += "  no " + ", ".join(v.what for v in slot.voids)
        rows.append(row)
    return "\n".join(rows)


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
        facts += [f"no {v.what} since trick {v.since} ({v.player})" for v in slot.voids]
        lines.append(f"  {state.names[seat]}: {'; '.join(facts)}")
    return lines


def inventory(state: State) -> dict[str, int]:
    """Where the 53 cards are: the deck, the box, the specials' piles, hands, trick, won piles."""
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


def board(state: State) -> dict[str, Any]:
    """The hand as data: the special card and the quest, the trick on the table and the last
    one, the tricks won, what the referee knows of each hand, the scores by hand."""
    deal, names = state.deal, state.names
    special = SPECIAL_CARD[deal.special] if deal.special else None
    quest = tiles(state.edition)[deal.quest] if deal.quest else None
    last = deal.tricks[-1] if deal.tricks else None
    hands = []
    for seat, slot in enumerate(deal.slots):
        hands.append({"player": names[seat], "cards": slot.size,
                      "known": sort_cards(slot.known), "complete": slot.complete,
                      "voids": [{"suit": v.what, "since_trick": v.since, "shown_by": v.player,
                                 "card": v.card} for v in slot.voids]})
    return {
        "hand": deal.number, "hands": HANDS, "extra_hand": deal.number > HANDS,
        "edition": state.edition, "dealer": names[deal.dealer],
        "special": {"card": special.code, "name": special.name, "text": special.text}
        if special else None,
        "quest": {"tile": quest.tile, "side": quest.side, "name": quest.name,
                  "text": quest.text} if quest else None,
        "leader": names[deal.leader] if deal.leader is not None else None,
        "trick": {"number": deal.trick_number,
                  "plays": [{"player": names[s], "card": c} for s, c in deal.plays]}
        if deal.leader is not None else None,
        "last_trick": {"number": last.number, "cards": list(last.cards),
                       "winner": names[last.winner]} if last else None,
        "tricks_won": {n: sum(1 for t in deal.tricks if t.winner == s)
                       for s, n in enumerate(names)},
        "players": hands,
        "scores": {"hands": [{"hand": r.number, "quest": tiles(state.edition)[r.quest].label,
                              "special": r.special, "points": dict(zip(names, r.points))}
                             for r in state.results],
                   "totals": dict(zip(names, state.totals))},
        "outcome": outcome_line(state) if state.over else None,
    }
