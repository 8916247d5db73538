"""Duties, what the table owes before play goes on (a deal, a choice of heir, a discard...)
with the prompt for each, and the chronicle of what happened."""

from __future__ import annotations

from referee.evolve import evolve
from referee.games.kingmaker.state import Duty, State


def chronicle(state: State, text: str) -> State:
    return evolve(state, chronicle=state.chronicle + ((state.turn, text),))


def add_duty(state: State, duty: Duty) -> State:
    return evolve(state, duties=state.duties + (duty,))


def duty(state: State) -> Duty | None:
    return state.duties[0] if state.duties else None


def done(state: State, resolved: Duty) -> State:
    duties = list(state.duties)
    duties.remove(resolved)
    return evolve(state, duties=tuple(duties))


DUTY_PROMPTS = {
    "deal": "{player} is dealt crown cards one at a time until a noble comes: `dealt CARD`",
    "layout": "{player} lays out the cards dealt: `assign CARD to NOBLE` (or to chancery, a "
              "card no noble may take)",
    "respond": "{player}'s {subject} answers the event card: `respond {subject}`",
    "storm": "the table rolls for {subject} at sea: `storm {subject} ROLL port PLACE`",
    "heir": "{player} names who controls {subject}: `heir {subject} to NOBLE` (or none)",
    "control": "{player} names the noble who takes {subject}: `control {subject} to NOBLE`",
    "captive": "{player} decides the captive {subject}: `ransom {subject}` or `kill {subject}`",
    "retreat": "{player}'s {subject} goes to {choices}: `retreat {subject} to LOCATION`",
    "place": "{player} places the town card {subject}: `play {subject} to NOBLE`",
    "discard": "{player} holds more than two crown cards: `play CARD to NOBLE` or "
               "`discard CARD`",
    "port": "{player}'s ship {subject} comes to a mainland port for Parliament: `port {subject} "
            "PLACE`{stay} (R-74)",
}


def duty_prompt(item: Duty) -> str:
    choices = " or ".join(item.choices[:4]) or "home"
    stay = f", or `stay {item.subject}`" if "stay" in item.choices else ""
    return DUTY_PROMPTS[item.kind].format(player=item.player or "the table",
                                          subject=item.subject, choices=choices, stay=stay)
