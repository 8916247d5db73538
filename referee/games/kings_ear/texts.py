"""The King's Ear in words: the board for `status`, what a move changed, the folded options."""

from __future__ import annotations

from typing import Any

from referee.engine import Event
from referee.games.kings_ear.components import (
    PROFESSIONS,
    card_house,
    card_profession,
    short_name,
)
from referee.games.kings_ear.notation import card_name
from referee.games.kings_ear.rules import Family, card_of, to_act
from referee.games.kings_ear.scoring import outcome, row_order
from referee.games.kings_ear.state import State, locked
from referee.textsafe import clean_line, short_names


def describe(before: State, event: Event, text: str, after: State) -> list[str]:
    who = f"{event.by}: " if event.by else ""
    lines = [who + text]
    if event.type == "draw" and after.pending is None and not after.ended:
        card = card_of(before, event["card"])
        own = before.houses[before.own]
        lines.append(f"{event['card']} is {own}'s own card: it goes under {own} "
                     f"{PROFESSIONS[card_profession(card)]} and is locked there")
    for house in range(4):
        for prof in range(4):
            old, new = before.net(house, prof), after.net(house, prof)
            if old != new:
                lines.append(f"{before.houses[house]} {PROFESSIONS[prof]}: {old} -> {new}")
    if after.winner is not None:
        lines.append(f"{after.names[after.winner]} ({after.houses[after.seats[after.winner]]}) "
                     "reaches 10 and has the King's ear: game over")
    elif after.ended:
        lines.append(f"Game over: {after.ended}")
    return lines


def render(state: State) -> str:
    lines = []
    for house in row_order(state):
        owner = state.owner(house)
        lines.append(f"{state.houses[house]}" + (f" ({owner})" if owner else " (unclaimed)"))
        for prof in range(4):
            cards = sorted(c for c in state.under(house) if card_profession(c) == prof)
            shown = " ".join(short_name(state.houses, c) + ("*" if locked(state, c) else "")
                             for c in cards) or "-"
            lines.append(f"  {PROFESSIONS[prof]:<9} net {state.net(house, prof):>3}   {shown}")
    lines.append("")
    lines.append(f"Pile: {state.pile_size} card(s)"
                 + ("  (virtual pile, --shuffle)" if state.deck else ""))
    if state.pending is not None:
        lines.append(f"Drawn, waiting: {card_name(state, state.pending)}")
    lines.append("* = locked (under its own House)")
    lines.append("Game over: " + outcome(state) if state.finished else to_act(state).line())
    return "\n".join(lines)


def compact(state: State) -> str:
    """The board for a shared 80x24 screen: one row per House (more when its cards need them),
    a column per profession with its net and its cards; the pile, the card waiting, who acts."""
    width = 16
    owners = dict(zip(state.names, short_names(state.names, 7)))
    from referee import screen  # by columns: a name in Chinese takes two a letter

    # The House and its owner, then a space, within what 80 columns leave beside the professions
    # (the last one's cells take `width - 1` at most): a name of wide characters is cut by the
    # columns it takes, with an ellipsis; so is a House named in them, by its columns too.
    # A name cut alike another's in what it shows keeps its end instead ("Alexandr\u2026a").
    room = screen.BOARD_COLUMNS - 3 * width - (width - 1) - 1
    names = [clean_line(name) for name in state.names]

    def owner(house: int, cols: int) -> str:
        short = owners.get(state.owner(house) or "", "-")
        if screen.cells(short) <= cols:
            return short
        return screen.clip_apart(clean_line(state.owner(house) or ""), cols, names)

    heads = {house: screen.clip(f"{label} " + owner(house, room - screen.cells(label) - 1), room)
             for house, label in ((house, state.houses[house]) for house in row_order(state))}
    lead = max(14, *(screen.cells(head) + 1 for head in heads.values()))
    lines = ["House".ljust(lead) + "".join(PROFESSIONS[p].ljust(width) for p in range(4)).rstrip()]
    for house in row_order(state):
        head = screen.ljust(heads[house], lead)
        columns = []
        for prof in range(4):
            cards = sorted(c for c in state.under(house) if card_profession(c) == prof)
            words = [f"{state.net(house, prof):>3}"] + [
                short_name(state.houses, c) + ("*" if locked(state, c) else "") for c in cards]
            columns.append(_cell_rows(words, width - 1))
        for row in range(max(map(len, columns))):
            cells = [col[row] if row < len(col) else "" for col in columns]
            lines.append(((head if row == 0 else " " * lead)
                          + "".join(screen.ljust(cell, width) for cell in cells)).rstrip())
    waiting = f"; drawn, waiting: {card_name(state, state.pending)}" \
        if state.pending is not None else ""
    lines.append(f"Pile: {state.pile_size} card(s){waiting}   (* = locked)")
    lines.append("Game over: " + outcome(state) if state.finished else to_act(state).line())
    return "\n".join(lines)


def _cell_rows(words: list[str], width: int) -> list[str]:
    """Words packed into rows at most `width` columns wide (a table cell that grows downwards;
    a card of a House named in Chinese takes two columns for its first letter)."""
    from referee import screen

    rows = [words[0]]
    for word in words[1:]:
        if screen.cells(rows[-1]) + 1 + screen.cells(word) <= width:
            rows[-1] += " " + word
        else:
            rows.append("    " + word)
    return rows


def option_lines(state: State, events: list[Event], formatted: list[str],
                 families: list[Family]) -> list[str]:
    """Forty single draws read worse than one line: `draw CARD` with the count. With
    `families`, the equal trades are too many to list: one line per partner House says how many
    there are and what they are worth."""
    draws = [e for e in events if e.type == "draw"]
    lines = []
    if len(draws) > 1:
        lines.append(f"draw CARD    (the card you drew: one of the {len(draws)} cards not "
                     "seen yet)")
    for event, text in zip(events, formatted):
        if (event.type != "draw" or len(draws) == 1) and not (families and event.type == "trade"):
            lines.append(text)
    own = state.houses[state.own]
    for house in sorted({f.house for f in families}):
        mine = [f for f in families if f.house == house]
        worth = _worths([f.total for f in mine])
        lines.append(f"trade {state.houses[house]} give CARDS take CARDS    "
                     f"({sum(f.count for f in mine):,} equal trades, worth {worth}: cards of "
                     f"other Houses under {own} for cards under {state.houses[house]} worth as "
                     f"much, one at least a {own} card)")
    return lines


def _worths(totals: list[int]) -> str:
    """1, 2, 3, 5, 6, 7 -> '1-3, 5-7'."""
    runs: list[list[int]] = []
    for total in sorted(totals):
        if runs and total == runs[-1][-1] + 1:
            runs[-1].append(total)
        else:
            runs.append([total])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def legal_note(state: State) -> str:
    if not any(card_house(c) != state.own for c in state.under(state.own)):
        return ""
    return ("Unequal trades are legal too when the other House's player agrees: "
            "add 'agreed' (R-3).")


def board(state: State) -> dict[str, Any]:
    """The board as data: every House's sections with their nets and cards, the pile's size
    (never its order), the card drawn and waiting."""
    houses = []
    for house in row_order(state):
        sections = []
        for prof in range(4):
            cards = sorted(c for c in state.under(house) if card_profession(c) == prof)
            net = state.net(house, prof)
            sections.append({"profession": PROFESSIONS[prof], "net": net, "ladder": max(0, net),
                             "cards": [{"card": card_name(state, c),
                                        "short": short_name(state.houses, c),
                                        "locked": locked(state, c)} for c in cards]})
        houses.append({"house": state.houses[house], "player": state.owner(house),
                       "sections": sections})
    pending = card_name(state, state.pending) if state.pending is not None else None
    return {"houses": houses, "pile": state.pile_size, "virtual_pile": state.deck is not None,
            "drawn": pending, "outcome": outcome(state) if state.finished else None}
