"""The turn and its phases (§5): the phase, who acts and what is awaited (duties, combat,
Parliament in session), Parliament's reasons for a move out of turn, the size of a deal (R-5),
the next seat and turn, and the next phase, those with nothing to do skipped."""

from __future__ import annotations

from typing import Any

from referee.engine import ToAct
from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.games.kingmaker.notation import shown
from referee.games.kingmaker.rules.calls import caller_problem, calling, may_call, peace_problem
from referee.games.kingmaker.rules.control import friendly_snapshot
from referee.games.kingmaker.rules.crowning import coronations
from referee.games.kingmaker.rules.duties import DUTY_PROMPTS, chronicle, duty, duty_prompt
from referee.games.kingmaker.rules.names import refuse
from referee.games.kingmaker.rules.places import noble_position, place_of
from referee.games.kingmaker.state import (
    ASSIGN,
    BISHOPS,
    BUSINESS,
    CHANCE,
    COMBAT,
    CORONATION,
    DEAL,
    DRAW,
    EXCUSE,
    MOVEMENT,
    OVER,
    PARLIAMENT,
    PORTS,
    PROPOSE,
    RETURN,
    REVOKE,
    SELECT,
    TIME_UP,
    TURN_PHASES,
    VOTE,
    Sitting,
    State,
)


# The phases finer than the turn's stage, which the core gates every event on as it does the
# stages: the duty pending first (`duty.heir`), a combat's stage (`combat.weather`), a Parliament's
# step (`parliament.vote`). Each refines a stage of the turn, but for a duty that may fall due in
# any (a deal, an heir's keeper, a captive...).
DUTY_PHASES = {kind: f"duty.{kind}" for kind in DUTY_PROMPTS}
COMBAT_PHASES = {stage: f"combat.{stage}" for stage in ("weather", "result", "deaths")}
SESSION_PHASES = {step: f"parliament.{step}" for step in (
    EXCUSE, REVOKE, PORTS, BISHOPS, SELECT, PROPOSE, VOTE, ASSIGN, BUSINESS, RETURN)}
# A Parliament in session: its steps, and the ships it calls to port.
SESSION_STEPS = frozenset(SESSION_PHASES.values())
IN_SESSION = SESSION_STEPS | {DUTY_PHASES["port"]}
STAGE_OF = {**dict.fromkeys(COMBAT_PHASES.values(), COMBAT),
            **dict.fromkeys(IN_SESSION, PARLIAMENT),
            DUTY_PHASES["respond"]: CHANCE, DUTY_PHASES["storm"]: CHANCE}  # the event card's


def phase(state: State) -> str:
    """The phase id (Game.phase): the game's end, the time limit, the duty pending, the combat's
    stage, the Parliament's step, else the turn's stage."""
    if state.ended is not None or state.time_up:
        return stage(state)
    if state.duties:
        return DUTY_PHASES[state.duties[0].kind]
    if state.combat is not None:
        return COMBAT_PHASES[state.combat.stage]
    if state.sitting is not None:
        return SESSION_PHASES[state.sitting.step]
    return state.stage


def stage(state: State) -> str:
    """The turn's stage, as a move out of its phase is told it (the end and the time limit
    first)."""
    if state.ended is not None:
        return OVER
    if state.time_up:
        return TIME_UP
    return state.stage


def stages(phases: frozenset[str] | None) -> frozenset[str] | None:
    """The turn's stages that `phases` refine; None (any) for a duty that may fall due in any."""
    if phases is None or any(p in DUTY_PHASES.values() and p not in STAGE_OF for p in phases):
        return None
    return frozenset(STAGE_OF.get(p, p) for p in phases)


def to_act(state: State) -> ToAct:
    if state.ended is not None:
        return ToAct((), "the game is over")
    if state.time_up:
        return ToAct((), "the time limit is reached: the table records `end time` (R-49)",
                     table=True)
    current = duty(state)
    if current is not None:
        if current.player is None:
            return ToAct((), duty_prompt(current), table=True)
        return ToAct((current.player,), duty_prompt(current))
    if state.combat is not None:
        return combat_turn(state)
    if state.sitting is not None:
        return sitting_turn(state)
    if state.people_due and state.stage == PARLIAMENT:
        return ToAct((state.active,), f"{state.active} holds a People's Parliament (7.7): "
                                      "`parliament people at PLACE [moving NOBLE]`")
    if state.stage == PARLIAMENT:
        who = calling(state, state.active)
        where = place_of(noble_position(state, who.noble)) if who else None
        return ToAct((state.active,), f"{state.active} may call Parliament: `parliament call "
                                      f"at {where or 'PLACE'} summon NOBLE`, or `next`")
    if state.stage == DEAL:
        player = next(p for p in state.playing if p not in state.dealt)
        return ToAct((player,), f"{player} enters the {deal_size(state)} crown cards dealt: "
                                "`dealt CARD, CARD, ...` (R-5)")
    if state.stage == DRAW and state.drew:
        return ToAct((state.active,), _after_draw(state))
    return ToAct((state.active,), PROMPTS[state.stage].format(player=state.active))


def _after_draw(state: State) -> str:
    """The draw made, the turn ends with `next`, unless R-47's deadline holds it open."""
    player = state.active
    deadline = state.both.get(player)
    if deadline is not None and deadline <= state.own.get(player, 0):
        return (f"{player} holds heirs of both houses: back to one house (`transfer HEIR from "
                f"NOBLE to NOBLE` or `execute HEIR`) before `next` ends the turn (R-47)")
    return f"{player} has drawn: `next` ends the turn"


def acting(state: State) -> tuple[str, ...]:
    """`to_act(state).players` without its prompt (the core asks at every player event): a
    duty's player, or the active player in a phase of his own; anything else asks to_act."""
    if state.ended is None and not state.time_up:
        if state.duties:
            player = state.duties[0].player
            return () if player is None else (player,)
        if state.combat is None and state.sitting is None and state.stage in PROMPTS:
            return (state.active,)
    return to_act(state).players


PROMPTS = {
    CHANCE: "{player} draws an event card: `event CARD`",
    MOVEMENT: "{player} moves: `move NOBLES to LOCATION`, `sail SHIP to LOCATION`, or `next`",
    COMBAT: "{player} fights: `attack ...`, `siege lay|join|conclude|break PLACE ...`, "
            "or `next`",
    CORONATION: "{player} may crown an heir: `crown HEIR at PLACE`, or `next`",
    DRAW: "{player} draws a crown card: `draw CARD` or `draw hidden`; then `next`",
}


def sitting_turn(state: State) -> ToAct:
    """Who acts in a Parliament in session, and what is awaited (§7.2-7.5)."""
    sitting = state.sitting
    assert sitting is not None
    step, leader = sitting.step, sitting.leader
    if step in (EXCUSE, RETURN):
        player = sitting.order[sitting.asked]
        if step == EXCUSE:
            return ToAct((player,), f"{player} may excuse nobles from Parliament: `excuse "
                                    "NOBLES` (a Writ each) or `excuse NOBLE sea` (R-35); then "
                                    "`next`")
        return ToAct((player,), f"{player} sends his nobles home from Parliament: `return "
                                "NOBLE to HOME`, or `stay NOBLE freemove`; then `next`")
    if step == REVOKE:
        return ToAct((sitting.caller,), f"{sitting.caller} may revoke excuses: `revoke NOBLES` "
                                        "(a Writ each); then `next`")
    if step == BISHOPS:
        return ToAct((leader,), f"{leader} assigns the Chancery's bishops, no vote: `bishop "
                                "CARD to NOBLE` (7.3)")
    if step == SELECT:
        return ToAct((leader,), f"{leader} leads round {sitting.round}: `select CARDS` (titles "
                                "first) or `select none`")
    if step == PROPOSE:
        card = sitting.selected[0]
        return ToAct((leader,), f"{leader} proposes {card}: `propose {shown(card)} to NOBLE` "
                                "(R-37)")
    if step == VOTE:
        return ToAct((), f"the table votes on {subject(sitting)}: `vote yea PLAYERS nay "
                         "PLAYERS` (the others abstain)", table=True)
    if step == ASSIGN:
        return ToAct((leader,), f"{leader} assigns the rest without a vote (round 3): `assign "
                                "CARD to NOBLE`")
    return ToAct((sitting.caller,), f"{sitting.caller} may put other business (`illegitimate "
                                    "KING`, `transfer CARD from NOBLE to NOBLE agreed`), then "
                                    "`dismiss`")


def explain(state: State, kind: str, by: str | None,
            phases: frozenset[str] | None) -> IllegalMove | None:
    """Parliament's own reason for a move out of turn or out of its stage (Game.explain), the
    move's `phases` telling whether it belongs to a session: no Parliament in session, or whose
    turn it is in the session and why."""
    sitting = state.sitting
    session = phases is not None and phases <= IN_SESSION
    if sitting is None:
        if session:
            return refuse(f"`{kind}` belongs to a Parliament in session, and none is: "
                          f"{to_act(state).prompt}", "no-parliament", "§7")
        return None
    if by is None or by not in state.names or not (session or kind == "next") or \
            phase(state) not in SESSION_STEPS:  # a duty or the time limit comes first
        return None
    turn = sitting_turn(state)
    if by in turn.players:
        return None
    if sitting.step == EXCUSE and kind == "excuse" and by == sitting.caller:
        return refuse(f"{by} called this Parliament: the caller's faction is never excused "
                      "(7.2)", "callers-faction", "§7.2")
    if sitting.step in (EXCUSE, RETURN):
        what, rule = ("excuses come", "§7.2") if sitting.step == EXCUSE else \
            ("the nobles go home", "§7.5")
        return refuse(f"it is not {by}'s turn: in Parliament {what} one player at a time from "
                      f"{sitting.caller}'s left, and now {turn.prompt}", "not-your-turn", rule)
    return refuse(f"it is not {by}'s turn in Parliament: {turn.prompt}", "not-your-turn",
                  "§7.3" if sitting.step in (BISHOPS, SELECT, PROPOSE, ASSIGN) else "§7")


def subject(sitting: Sitting) -> str:
    """What the vote in progress decides, in words."""
    question = sitting.question
    if question is None:
        return "nothing"
    if question.kind == "illegitimate":
        return f"King {question.card}'s illegitimacy, moved by {question.noble}"
    if question.kind == "transfer":
        return f"{question.card} from {question.giver} to {question.noble}"
    return f"{question.card} to {question.noble}"


def combat_turn(state: State) -> ToAct:
    combat = state.combat
    assert combat is not None
    if combat.stage == "weather":
        return ToAct((state.active,), f"{state.active} checks the weather: `weather CARD`")
    if combat.stage == "result":
        return ToAct((), "the table enters the attacker's result (a major or minor victory, "
                         "or none): `result major|minor|none`"
                         + (" or `result ROLL`" if has_chart(state, "battle_chart") else ""),
                     table=True)
    if combat.saves:
        return ToAct((), f"the table rolls for {combat.saves[0]}: `save {combat.saves[0]} "
                         "ROLL`", table=True)
    return ToAct((), "the table enters who died: `deaths NAMES` or `deaths none`", table=True)


def has_chart(state: State, kind: str) -> bool:
    return state.box.get(kind, kind) is not None


def deal_size(state: State) -> int:
    """R-5: `auto` deals 36 to 2, 3, 4 or 6 players and 35 to 5 or 7; a fixed size deals the
    quotient (the rest goes back)."""
    players = len(state.names)
    option = state.options.get("deal", "auto")
    total = (35 if players in (5, 7) else 36) if option == "auto" else int(option)
    return total // players


def next_seat(state: State, seat: int) -> int:
    for step in range(1, len(state.names) + 1):
        candidate = (seat + step) % len(state.names)
        if state.names[candidate] not in state.late:
            return candidate
    return seat


def next_turn_of(state: State, player: str) -> int:
    """The number of `player`'s next turn (turns go round the seats, late joiners aside)."""
    seat, turn = state.seat, state.turn
    for _ in range(len(state.names)):
        seat = next_seat(state, seat)
        turn += 1
        if state.names[seat] == player:
            return turn
    return turn


def begin_turn(state: State, seat: int) -> State:
    """A player's turn begins; the King's Peace ends just before the caller's chance phase."""
    player = state.names[seat]
    own = dict(state.own)
    own[player] = own.get(player, 0) + 1
    last = dict(state.last_turn)
    last[player] = state.turn + 1
    ends = state.peace is not None and state.peace.caller == player
    state = evolve(state, seat=seat, turn=state.turn + 1, own=own, last_turn=last,
                   stage=CHANCE, event_drawn=False, drew=False, cancelled=False, moved={},
                   acted=frozenset(), grants=frozenset(), people_due=False)
    if ends:
        state = chronicle(evolve(state, peace=None, peace_over=state.turn),
                          "the King's Peace ends")
    return state


def begin_phase(state: State, stage: str) -> State:
    # One new state: the friendly places are taken with this phase's grants (none yet).
    fresh: dict[str, Any] = dict(stage=stage, grants=frozenset(), moved={}, acted=frozenset())
    if stage == MOVEMENT:
        fresh["friendly"] = friendly_snapshot(state, state.active, grants=frozenset())
    elif stage == COMBAT and any(s.owner == state.active for s in state.sieges.values()):
        # R-27: the active player's sieges count one more turn (the others' stand as they were,
        # the same objects: what is checked by them is not checked again)
        fresh["sieges"] = {p: (evolve(s, turn=s.turn + 1) if s.owner == state.active else s)
                           for p, s in state.sieges.items()}
    return evolve(state, **fresh)


def advance(state: State) -> State:
    """The next phase of the turn, skipping those with nothing to do (§5)."""
    index = TURN_PHASES.index(state.stage) + 1
    while index < len(TURN_PHASES):
        stage = TURN_PHASES[index]
        if not skipped(state, stage):
            return begin_phase(state, stage)
        state = skip_note(state, stage)
        index += 1
    return state


def skip_note(state: State, stage: str) -> State:
    """Say why a Parliament phase is skipped when R-32 alone keeps its player from calling, so
    that the table hears the ruling and nobody waits for the phase."""
    problem = peace_problem(state) if stage == PARLIAMENT else None
    if problem is None or state.people_due or caller_problem(state, state.active) is not None:
        return state
    return chronicle(state, f"{state.active}'s Parliament phase is skipped: {problem.message}")


def skipped(state: State, stage: str) -> bool:
    if stage in (MOVEMENT, COMBAT):
        return state.cancelled  # 7.7: a People's Parliament cancels them
    if stage == PARLIAMENT:
        return not state.people_due and not may_call(state)
    if stage == CORONATION:
        return not coronations(state)
    return False
