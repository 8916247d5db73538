"""Ending a phase and a turn (`next`), and the table's own events: the clock, late joiners, the
end (R-49, R-66, §10).
"""

from __future__ import annotations

from typing import Any, Iterator

from referee.engine import STOPPED, Args, Event
from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.games.kingmaker import rules
from referee.games.kingmaker.events.base import Base, choice, known_player, player, require_in_play
from referee.games.kingmaker.events.forms import Case, Form, Slot
from referee.games.kingmaker.events.homecoming import return_next
from referee.games.kingmaker.events.parliament import next_step
from referee.games.kingmaker.rules import SESSION_PHASES, refuse, split
from referee.games.kingmaker.state import (
    CHANCE,
    COMBAT,
    DRAW,
    EXCUSE,
    MOVEMENT,
    PARLIAMENT,
    RETURN,
    REVOKE,
    TURN_PHASES,
    Duty,
    Ending,
    State,
)


# --------------------------------------------------------------------------------------------
# Ending a phase, a turn


def mainland_deadlines(state: State) -> State:
    """8.4: at the end of his controller's movement phase, an heir past his deadline dies."""
    for heir, info in state.heirs.items():
        if info.alive and info.due is not None and rules.heir_player(state, heir) == \
                state.active and info.due <= state.own.get(state.active, 0):
            state = rules.heir_dies(state, heir, "not brought to the mainland in time (8.4)")
    return state


def ship_obligations(state: State) -> IllegalMove | None:
    """§8.6: a force that sailed into an unfriendly fortress port must lay or join its siege
    this combat phase; one that no longer can stays aboard (R-68)."""
    player = state.active
    for ship, info in state.ships.items():
        prefix, place = split(info.at)
        if prefix != "port":  # at sea: no port to besiege
            continue
        crew = [n for n in rules.aboard(state, ship) if state.owner(n) == player]
        if not crew or any(s.ship == ship for s in state.sieges.values()):
            continue
        if rules.is_unfortified(state, place) or rules.friendly(state, player, place):
            continue
        siege = state.sieges.get(place)
        fresh = [n for n in crew if n not in state.acted]
        can_join = siege is not None and siege.owner == player and fresh
        can_lay = siege is None and fresh and \
            2 * rules.force_strength(state, fresh) >= rules.defence(state, place)
        if can_join or can_lay:
            return refuse(f"the force aboard {ship} in {place}'s port must "
                          f"{'join' if can_join else 'lay'} the siege this combat phase (§8.6)",
                          "must-besiege", "§8.6")
    return None


def end_turn(state: State) -> State:
    """The draw phase ends the turn: R-47's limit, the time limit (R-49), the next player."""
    player = state.active
    if not state.drew and rules.deck_size(rules.rebuild_deck(state)) > 0:
        raise refuse(f"{player} draws a crown card first (§5.3)", "draw-first", "§5.3")
    deadline = state.both.get(player)
    if deadline is not None and deadline <= state.own.get(player, 0):
        raise refuse(f"{player} holds heirs of both houses: back to one house (a transfer or an "
                     "execution) before this turn ends (R-47)", "both-houses", "R-47")
    barred = tuple(b for b in state.barred if b[2] > state.turn)
    if barred != state.barred:  # most turns end with none to lift: no copy of the realm
        state = evolve(state, barred=barred)
    seat = rules.next_seat(state, state.seat)
    timing = state.options.get("time_end", "turn")
    if rules.over_time(state) and (timing != "round" or seat == state.first):
        return evolve(state, time_up=True)
    return rules.begin_turn(state, seat)


class Next(Base):
    name = "next"
    doc = "the active player ends the phase (the draw phase ends the turn); in Parliament, the " \
          "player asked ends his excuses, revocations or return"
    phases = frozenset(TURN_PHASES) | {SESSION_PHASES[step] for step in (EXCUSE, REVOKE, RETURN)}
    form = Form(note="end the phase; phases with nothing to do are skipped (§5); in Parliament, "
                "done with excuses, revocations or the return (7.2, 7.5)")

    def effect(self, state: State, event: Event) -> State:
        stage = state.stage
        sitting = state.sitting
        if sitting is not None:
            if sitting.step in (EXCUSE, REVOKE):
                return next_step(state)
            if sitting.step == RETURN:
                return return_next(state)
            raise refuse(f"Parliament is in session: {rules.sitting_turn(state).prompt}",
                         "in-session", "§7")
        if state.people_due and stage == PARLIAMENT:
            raise refuse(f"a People's Parliament must be held now: {rules.to_act(state).prompt}",
                         "people-due", "§7.7")
        if stage == CHANCE:
            raise refuse("the event card comes first (§5.1)", "event-first", "§5.1")
        if stage == MOVEMENT:
            state = mainland_deadlines(state)
        if stage == COMBAT:
            problem = ship_obligations(state)
            if problem is not None:
                raise problem
        if stage == DRAW:
            return end_turn(state)
        return rules.advance(state)

    def moves(self, state: State) -> Iterator[Event]:
        turn = rules.to_act(state)
        if not turn.players:
            return
        event = self.make(turn.players[0])
        if self.valid(state, event):
            yield event


# --------------------------------------------------------------------------------------------
# The table: the clock, late joiners, the end


class Clock(Base):
    name = "clock"
    changes = frozenset({"clock", "paused"})
    doc = "the table pauses or resumes the game clock (R-49)"
    fields = {"action": "str"}
    field_docs = {"action": "pause or resume"}
    actor = "table"
    always = True
    form = Form(choice("action", ("pause", "resume"), "pause or resume", "clock action"),
                note="time paused does not count towards the limit (R-49)")

    def effect(self, state: State, event: Event) -> State:
        action = event["action"]
        if action not in ("pause", "resume"):
            raise refuse(f"{action!r}: pause or resume", "bad-clock", "R-49")
        if (action == "pause") == state.paused:
            raise refuse(f"the clock is {'paused' if state.paused else 'running'} already",
                         "clock-state", "R-49")
        clock = state.clock
        if action == "pause":
            clock = evolve(clock, since=clock.now)
        elif clock.since is not None and clock.now is not None:
            clock = evolve(clock, since=None, paused=clock.paused +
                            (clock.now - clock.since).total_seconds())
        else:
            clock = evolve(clock, since=None)
        return evolve(state, clock=clock, paused=action == "pause")

    def moves(self, state: State) -> Iterator[Event]:
        if state.in_play:
            yield self.make(None, action="resume" if state.paused else "pause")


class Join(Base):
    name = "join"
    doc = "a late player joins: dealt crown cards one at a time until a noble comes (§9, R-66)"
    fields = {"player": "str"}
    field_docs = {"player": "the player (named at `new` with the option late)"}
    actor = "table"
    always = True
    form = Form(player("player"), note="a player listed at `new` as late (R-66)")

    def effect(self, state: State, event: Event) -> State:
        require_in_play(state)
        player = known_player(state, event["player"])
        if player not in state.late:
            raise refuse(f"{player} is playing already", "joined", "R-66")
        state = evolve(state, late=tuple(p for p in state.late if p != player))
        return rules.add_duty(state, Duty("deal", player))

    def moves(self, state: State) -> Iterator[Event]:
        if state.in_play:
            for player in state.late:
                yield self.make(None, player=player)


def reason(state: State, words: list[str], args: Args, out: dict[str, Any]) -> str:
    if [word.casefold() for word in words] == ["time"]:
        return "time"
    return " ".join(words) or STOPPED


class End(Base):
    """The core `end` (engine.End), with Kingmaker's own ending at the time limit: `end time`
    closes the game by R-50; any other reason stops it as it stands, incomplete."""

    name = "end"
    doc = "the table ends the game: at the time limit (R-49, R-50), or stops it as it stands"
    fields = {"reason": "str"}
    field_docs = {"reason": "time, or why the table stops the game (concede, abandoned...)"}
    actor = "table"
    always = True
    form = Form(Slot("reason", "REASON", reason, str),
                cases=(Case("the time limit: the victory order of R-50", {"reason": "time"}),
                       Case("the table stops the game: it scores as it stands (§10)")))

    def effect(self, state: State, event: Event) -> State:
        reason = event["reason"]
        require_in_play(state)
        if reason != "time":
            return evolve(state, stopped=reason)
        problem = time_problem(state)
        if problem is not None:
            raise problem
        victory, winners = rules.time_victory(state)
        # The sheet adds the minutes played to the outcome (scoring._outcome).
        return evolve(state, ended=Ending("time", "the time limit", winners, victory), duties=())

    def moves(self, state: State) -> Iterator[Event]:
        if not state.in_play:
            return
        if time_problem(state) is None:
            yield self.make(None, reason="time")
        yield self.make(None, reason="concede")


def time_problem(state: State) -> IllegalMove | None:
    """R-49: `end time` when the limit is reached; with no event times in the log (a simulated
    game), at the start of a turn, as the table says."""
    if state.time_up:
        return None
    if state.clock.minutes is not None:
        left = rules.time_left(state)
        return refuse(f"{left:.0f} minutes are left of the time limit (R-49)", "time-left",
                      "R-49")
    boundary = state.stage == CHANCE and not state.event_drawn and not state.duties and \
        state.combat is None
    if not boundary:
        return refuse("the game ends at the end of a turn (R-49)", "mid-turn", "R-49")
    return None
