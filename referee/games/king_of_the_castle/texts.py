"""King of the Castle in words: the kingdom for `status`, what a move changed, the options as a
player reads them. Nothing here names a card in a hand: only the table's cards are shown."""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.engine import Event
from referee.games.king_of_the_castle.components import (
    ATTRIBUTES,
    CARD,
    CASTLES,
    KING,
    LETTERS,
    POST_TITLES,
    POSTS,
    RANKS,
    post,
    post_title,
    sort_cards,
    stack,
)
from referee.games.king_of_the_castle.notation import squire
from referee.games.king_of_the_castle.rules import (
    DEAL,
    DISCARD,
    EXTRA,
    OPEN,
    PLAY,
    REPLY,
    SEAL,
    SETUP,
    SUDDEN,
    phase,
    to_act,
)
from referee.games.king_of_the_castle.scoring import outcome, post_points
from referee.games.king_of_the_castle.state import HAND, RANDOM, State

# How `options` writes a card's targets when it has several (what the words stand for).
PATTERNS = {"kill-man": "MAN", "assassinate": "lord N", "kill-rank": "castle N",
            "kill-two": "castle N kill MAN MAN", "kill-all": "castle N", "build": "castle N",
            "remove-stack": "castle N", "remove-tops": "castle N", "remove-top": "castle N",
            "repair": "CARD castle N", "recycle": "CARD", "loss": "PLAYER loses CARD",
            "theft": "PLAYER"}
LISTED = 12  # more alternatives than this are counted, not listed


# --------------------------------------------------------------------------------------------
# The kingdom


def _stack_text(state: State, castle: int, attribute: int) -> str:
    levels = state.stacks[stack(castle, attribute)]
    return " ".join(map(str, levels)) if levels else "-"


def kingdom(state: State) -> list[str]:
    king = state.men[KING]
    lines = [f"King: {squire(state, king)}" + (f"  ({post_points(state, KING)} points now)"
                                               if king else "  (the throne is empty)"), ""]
    width = 16
    lines.append(" " * width + "".join(f"Castle {c + 1}".ljust(14) for c in range(CASTLES)))
    for rank, title in enumerate(RANKS):
        lines.append(title.ljust(width) + "".join(
            squire(state, state.men[post(c, rank)]).ljust(14) for c in range(CASTLES)))
    for attribute, title in enumerate(ATTRIBUTES):
        lines.append(title.ljust(width) + "".join(
            _stack_text(state, c, attribute).ljust(14) for c in range(CASTLES)))
    lines.append("Level".ljust(width) + "".join(str(state.level(c)).ljust(14)
                                                for c in range(CASTLES)))
    best = [state.best(1), state.best(2)]
    lines.append(f"Largest: castle {state.largest + 1} (Lord +3); most prestigious: "
                 + (f"castle {best[0] + 1} (Seneschal +2)" if best[0] is not None else "none")
                 + "; best defended: "
                 + (f"castle {best[1] + 1} (Master at Arms +1)" if best[1] is not None
                    else "none"))
    return [line.rstrip() for line in lines]


def _pile(cards: tuple[str, ...]) -> str:
    counts = Counter(cards)
    return ", ".join(f"{CARD[c].slug}" + (f" x{counts[c]}" if counts[c] > 1 else "")
                     for c in sort_cards(counts)) or "empty"


def board(state: State) -> dict[str, Any]:
    """The kingdom as data: the King and every post, the stacks and levels of each castle, the
    piles' sizes and the face-up discard, each hand's size (never a card in it), who has sealed
    (never what), the reply window and the cards in play."""
    castles = []
    for c in range(CASTLES):
        castles.append({
            "castle": c + 1, "level": state.level(c),
            "men": {title: state.man_in(c, rank) for rank, title in enumerate(RANKS)},
            "stacks": {title: list(state.stacks[stack(c, a)])
                       for a, title in enumerate(ATTRIBUTES)}})
    best = [state.best(1), state.best(2)]
    window = state.window
    return {
        "dealt": bool(state.revealed), "king": state.men[KING] if state.revealed else None,
        "letter_names": dict(zip(LETTERS, state.letter_names)) if state.letter_names else None,
        "castles": castles if state.revealed else [],
        "largest": state.largest + 1 if state.revealed else None,
        "most_prestigious": best[0] + 1 if state.revealed and best[0] is not None else None,
        "best_defended": best[1] + 1 if state.revealed and best[1] is not None else None,
        "event_deck": state.deck_size, "dealt_by_the_tool": state.dealt,
        "discard": list(state.discard),
        "hands": {n: h.size for n, h in zip(state.names, state.hands)},
        "personality_deck": state.persona_left, "dead": list(state.dead),
        "squires": state.squires,
        "sealed": [n for n, seal in zip(state.names, state.seals) if seal],
        "reply_window": {"announced": window.announced,
                         "to_ask": list(window.order[window.asked:])} if window else None,
        "in_play": [f.card for f in state.frames],
        "drawn": _drawn(state) if state.dealt else None,
        **({"own_hand": {"player": state.viewer,
                         "size": state.hands[state.seat(state.viewer)].size,
                         "cards": list(state.hands[state.seat(state.viewer)].known)}}
           if state.viewer is not None else {}),
        "ending": state.ending,
        "outcome": outcome(state) if state.over else None}


def render(state: State) -> str:
    lines = kingdom(state) if state.revealed else ["The kingdom is not dealt yet."]
    lines += ["", f"Event deck: {state.deck_size} card(s)"
              + ("  (dealt by the tool)" if state.dealt else ""),
              f"Discard pile ({len(state.discard)}): {_pile(state.discard)}",
              "Hands: " + ", ".join(f"{n} {h.size}" for n, h in zip(state.names, state.hands))]
    people = f"Personality deck: {state.persona_left} card(s)"
    following = _known_next(state)
    if following:
        people += f" in alphabetical order, next {following} (R-19)"
    lines.append(people + f"; dead: {' '.join(state.dead) or 'none'}")
    if state.squires != HAND:
        sealed = [n for n, s in zip(state.names, state.seals) if s]
        lines.append(f"Sealed squires: {', '.join(sealed) or 'none yet'}")
    return "\n".join(lines + _now(state))


def _known_next(state: State) -> str | None:
    """The personality deck's next card when the table knows it (alphabetical order, R-19)."""
    following = state.next_persona()
    if following and state.revealed == POSTS and state.persona_order is not None \
            and not state.dealt:
        return following
    return None


def _now(state: State) -> list[str]:
    """The lines every board ends with: the card being answered, the cards in play, the end
    coming, who acts."""
    lines = []
    if state.window is not None:
        lines.append(f"Announced: {state.window.announced}; asked in turn: "
                     + ", ".join(state.window.order[state.window.asked:]))
    if state.frames:
        lines.append("In play: " + ", ".join(f.card for f in state.frames))
    drawn = _drawn(state)
    if drawn:
        lines.append("Drawn by Sudden Changes, to be played now: "
                     + ", ".join(CARD[c].slug for c in drawn))
    if state.viewer is not None and not state.over:
        lines.append(own_hand(state, state.viewer))
    if state.ending and not state.over:
        lines.append(f"The personality deck ran out: the game ends after {state.names[-1]}'s "
                     "turn (R-15)")
    lines.append("Game over: " + outcome(state) if state.over else to_act(state).line())
    return lines


def compact(state: State) -> str:
    """The board for a shared 80x24 screen: the kingdom, then the piles by their sizes (the
    discard by its top card), hands, seals, the card answered and who acts; `status --full`
    lists the whole discard pile."""
    lines = kingdom(state) if state.revealed else ["The kingdom is not dealt yet."]
    if state.revealed:  # the bonuses go up beside the King (or below him), not at the foot
        best = [state.best(1), state.best(2)]
        bonuses = (f"largest {state.largest + 1}, most prestigious "
                   + (f"{best[0] + 1}" if best[0] is not None else "none")
                   + ", best defended " + (f"{best[1] + 1}" if best[1] is not None else "none"))
        beside = len(lines[0]) + 2 + len(bonuses) <= 80
        lines = [lines[0] + "; " + bonuses if beside else lines[0]] \
            + ([] if beside else [f"Castles: {bonuses}"]) + lines[2:-1]
    top = f", top {CARD[state.discard[-1]].slug}" if state.discard else ""
    following = _known_next(state)
    lines.append(f"Event deck {state.deck_size}; discard {len(state.discard)}{top}; "
                 f"personalities {state.persona_left} left"
                 + (f", next {following}" if following else "")
                 + f", dead: {' '.join(state.dead) or 'none'}")
    sizes = [h.size for h in state.hands]
    usual = Counter(sizes).most_common(1)[0][0]  # one number for the table, then who differs
    odd = [f"{n} {size}" for n, size in zip(state.names, sizes) if size != usual]
    hands = f"Hands: {usual} card(s) each" + (f", but {', '.join(odd)}" if odd else "")
    if state.squires != HAND:
        sealed = [n for n, s in zip(state.names, state.seals) if s]
        hands += "; sealed: " + ("everyone" if len(sealed) == len(state.names)
                                 else ", ".join(sealed) or "nobody yet")
    lines.append(hands)
    return "\n".join(lines + _now(state))


# --------------------------------------------------------------------------------------------
# What a move changed


def _men(before: State, after: State) -> list[str]:
    lines = []
    for dead in after.dead[len(before.dead):]:
        lines.append(f"{squire(after, dead)} ({post_title(before.men.index(dead))}) dies")
    for place, man in enumerate(after.men):
        if man is None or before.men[place] == man:
            continue
        was = before.post_of(man)
        if was is None:
            lines.append(f"{squire(after, man)} becomes {POST_TITLES[place]}")
        else:
            lines.append(f"{squire(after, man)} moves up: {POST_TITLES[was]} -> "
                         f"{POST_TITLES[place]}")
    return lines


def _stacks(before: State, after: State) -> list[str]:
    lines = []
    for c in range(CASTLES):
        for a, title in enumerate(ATTRIBUTES):
            old, new = before.stacks[stack(c, a)], after.stacks[stack(c, a)]
            if old != new:
                lines.append(f"Castle {c + 1} {title}: level {before.top(stack(c, a))} -> "
                             f"{after.top(stack(c, a))}")
    return lines


def _cards(before: State, after: State, event: Event) -> list[str]:
    lines = []
    if after.reshuffles > before.reshuffles:
        lines.append("The event deck ran out: the discard pile is shuffled into a new deck")
    if event.type == "play" and event["card"] == "Targeted Theft":
        lines.append(f"{event.by} takes a card at random from {event['player']} (only the two "
                     "of them see it)")
    pushed = after.frames[len(before.frames):]  # frames are only pushed on top of others
    for frame in (f for f in pushed if f.card == "Sudden Changes"):
        drawn = f": {', '.join(CARD[c].slug for c in frame.drawn)}" if frame.drawn else ""
        lines.append(f"Sudden Changes draws {frame.left} card(s){drawn}; they are played now")
    return lines


def _next(before: State, after: State) -> list[str]:
    lines = []
    if after.window is not None and before.window is None:
        lines.append(f"Announced: {after.window.announced}. Replies, in turn: "
                     + ", ".join(after.window.order))
    if after.ending and not before.ending:
        lines.append(f"The personality deck is empty: the game ends when the round is over, "
                     f"after {after.names[-1]}'s turn (R-15)")
    if after.turns > before.turns and not after.scoring:
        size = after.hands[after.turn].size
        lines.append(f"{after.player}'s turn: draws {after.drew} card(s), holds {size}")
    if after.scoring and not before.scoring:
        how = ("each player enters the letters of their cards (`letters`" if after.squires == HAND
               else "each player opens their seal (`open`")
        lines.append(f"The table stopped the game: {how}, R-27); it scores as it stood, "
                     "incomplete" if after.stopped is not None
                     else f"The last round is over: {how})")
    for name, was, now in zip(after.names, before.opened, after.opened):
        if was is None and now is not None:
            lines.append(f"{name} backs {' '.join(now) or 'nobody'}")
    if after.over:
        lines.append("Game over: " + outcome(after))
    return lines


def _saved(before: State, event: Event) -> list[str]:
    if event.type != "reply":
        return []
    saves = event["saves"]
    if event["card"] == "Lucky Escape":
        man = before.men[POST_TITLES.index(saves)]
        return [f"{squire(before, man)} ({saves}) escapes death"]
    return [f"{saves} stays on its castle"]


def describe(before: State, event: Event, text: str, after: State) -> list[str]:
    if event.type == "squires":
        text = "seals the squires they back (only the seal is kept)"
    lines = [f"{event.by}: {text}" if event.by else text] + _saved(before, event)
    return lines + _men(before, after) + _stacks(before, after) + _cards(before, after, event) \
        + _next(before, after)


# --------------------------------------------------------------------------------------------
# Options


def _play_lines(state: State, events: list[Event], formatted: list[str]) -> list[str]:
    groups: dict[str, list[str]] = {}
    for event, text in zip(events, formatted):
        groups.setdefault(event["card"], []).append(text)
    lines = []
    for title, texts in groups.items():
        card = CARD[title]
        if len(texts) == 1:
            lines.append(texts[0])
            continue
        choices = [t[len(card.slug) + 1:] for t in texts]
        if card.effect in ("assassinate", "kill-rank", "kill-all", "build", "remove-stack",
                           "remove-tops") \
                or (card.effect == "remove-top" and card.param("attribute") is not None):
            shown = "N: " + ", ".join(c.split()[-1] for c in choices)
        elif card.effect == "kill-two":
            shown = "; ".join(f"castle {castle}: two of {' '.join(men)}"
                              for castle, men in _men_by_castle(choices).items())
        elif card.effect == "loss" and len(choices) > LISTED:
            who = ", ".join(dict.fromkeys(c.split(" loses ")[0] for c in choices))
            shown = f"PLAYER: {who}; CARD: the card they lost at random"
        elif len(choices) > LISTED:
            shown = f"{len(choices)} plays"
        else:
            shown = ", ".join(choices)
        pattern = PATTERNS[card.effect]
        if card.effect == "remove-top" and card.param("attribute") is None:
            pattern = "castle N ATTRIBUTE"
        if card.effect == "loss" and state.dealt:  # the tool picks the card lost
            pattern = "PLAYER"
        lines.append(f"{card.slug} {pattern}   ({shown})")
    return lines


def _men_by_castle(choices: list[str]) -> dict[str, list[str]]:
    """`castle 2 kill lord master` ... -> {"2": ["lord", "master", ...]}, men in rank order."""
    out: dict[str, list[str]] = {}
    for choice in choices:
        words = choice.split()
        men = out.setdefault(words[1], [])
        men += [w for w in words[3:] if w not in men]
    return {castle: sorted(men, key=("lord", "seneschal", "master").index)
            for castle, men in out.items()}


def option_lines(state: State, events: list[Event], formatted: list[str]) -> list[str]:
    """The legal moves grouped for reading: one line per card, families counted."""
    now = phase(state)
    text = dict(zip(map(id, events), formatted))
    plays = [e for e in events if e.type == "play"]
    lines = _play_lines(state, plays, [text[id(e)] for e in plays])
    replies = [e for e in events if e.type == "reply"]
    for title in dict.fromkeys(e["card"] for e in replies):
        targets = [text[id(e)].split(" ", 2)[2] for e in replies if e["card"] == title]
        lines.append(f"reply {CARD[title].slug} {' | '.join(targets)}")
    discards = [text[id(e)] for e in events if e.type == "discard"]
    lines += discards if len(discards) <= LISTED else \
        [f"discard CARD   (one of {len(discards)} cards your hand may hold)"]
    lines += _folded(state, now, events)
    lines += [text[id(e)] for e in events if e.type == "pass"]
    return lines


def _folded(state: State, now: str, events: list[Event]) -> list[str]:
    """The families no list shows: secrets, letters turned up, a hand the tool dealt."""
    if now == SEAL:
        how = "the tool draws your letters and shows them once" if state.squires == RANDOM \
            else "you type your three letters unseen"
        return [f"squires   ({how}; keep the receipt)"]
    if now in (SETUP, DEAL):
        count = len(LETTERS) - len(state.seen)
        return [f"reveal LETTER...   (the card turned up: one of the {count} letters not seen "
                "yet)"]
    if now == OPEN:
        waiting = ", ".join(n for n, o in zip(state.names, state.opened) if o is None)
        form = "letters LETTER..." if state.squires == HAND else "open LETTERS RECEIPT"
        return [f"{form} --as NAME   (waiting for {waiting})"]
    types = {e.type for e in events}
    if state.dealt and now in (PLAY, EXTRA) and "play" not in types:
        return [f"CARD [TARGETS]   (a card of your hand: `referee options --for {state.player}` "
                f"shows them to {state.player})"]
    if state.dealt and now == REPLY and "reply" not in types:
        assert state.window is not None
        return [f"reply CARD ...   (if you hold one: `referee options --for "
                f"{state.window.awaiting}`)"]
    if now == DISCARD and "discard" not in types:
        excess = state.hands[state.turn].size - state.hand_limit
        return [f"discard {' '.join(['CARD'] * excess)}   ({excess} of your cards)"]
    if now == SUDDEN and not events:
        return ["CARD [TARGETS] or discard CARD   (the cards drawn)"]
    return []


def _drawn(state: State) -> list[str]:
    """The cards Sudden Changes drew and are still to be played: the tool drew them from the
    deck it dealt and the table sees them played at once (R-12), so the table may read them."""
    return [card for frame in state.frames if frame.card == "Sudden Changes"
            for card in frame.drawn]


def legal_note(state: State, player: str | None) -> str:
    """A hand the tool dealt, shown to its player alone when asked for by name."""
    if not state.dealt or player is None or state.over:
        return ""
    return own_hand(state, player)


def own_hand(state: State, player: str) -> str:
    """What the referee knows of `player`'s hand, for their eyes only (`--for NAME`)."""
    hand = state.hands[state.seat(player)]
    if not state.dealt:
        known = ", ".join(CARD[c].slug for c in hand.known)
        return (f"{player}'s hand (for {player}'s eyes only): {hand.size} card(s)"
                + (f"; known: {known}" if known else ""))
    cards = ", ".join(CARD[c].slug for c in hand.known) or "no card"
    return f"{player}'s hand (for {player}'s eyes only): {cards}"
