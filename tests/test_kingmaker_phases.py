"""Kingmaker's pending duty, combat stage and Parliament step are phase ids the core gates, as
every game's phases are (issue 27): what `phase` returns, what each event type declares, and the
words a move the core refuses out of its phase hears (the rules', never a bare phase id)."""

from __future__ import annotations

from collections import Counter

import pytest

from referee import log as logfile
from referee.engine import apply_event
from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.games.kingmaker import GAME
from referee.replay import from_log, steps
from referee.simulate import default_players, play_out
from tests.conftest import GOLDEN

FINER = frozenset(p.id for p in GAME.phases if "." in p.id)  # duty.*, combat.*, parliament.*


def playout_states(seeds: range):
    """(players, state, the event played there) of seeded random games of 3 to 6 players."""
    for seed in seeds:
        players = default_players(GAME, 3 + seed % 4)
        playout = play_out(GAME, seed, players)
        state = GAME.setup(playout.players, GAME.default_options(), playout.seed)
        for event in playout.events:
            yield playout.players, state, event
            state = apply_event(GAME, state, event, playout.players)


def test_the_phase_is_the_duty_the_combat_stage_or_the_parliament_step_awaited():
    seen = set()
    for _, state, event in playout_states(range(6)):
        now = GAME.phase(state)
        seen.add(now)
        if state.duties:
            assert now == f"duty.{state.duties[0].kind}"
        elif state.combat is not None:
            assert now == f"combat.{state.combat.stage}"
        elif state.sitting is not None:
            assert now == f"parliament.{state.sitting.step}"
        else:
            assert now == state.stage
        allowed = GAME.events[event.type].phases
        assert allowed is None or now in allowed, (event, now)  # what was played declares it
    assert seen <= {p.id for p in GAME.phases}
    assert {"duty.layout", "duty.respond", "combat.weather", "combat.deaths", "parliament.vote",
            "parliament.return", "movement"} <= seen, seen


def test_a_move_out_of_its_phase_hears_the_rules_words_never_a_finer_phase_id():
    """Every event type's latest move tried at every state of random games: a refusal never
    names `duty.*`, `combat.*` or `parliament.*` (the core's own words for a phase), and those
    the core makes by the finer phases give the rules' own codes."""
    latest: dict[str, object] = {}
    codes: Counter[str] = Counter()
    for players, state, event in playout_states(range(4)):
        latest[event.type] = event
        now = GAME.phase(state)
        for candidate in latest.values():
            try:
                apply_event(GAME, state, candidate, players)
            except IllegalMove as refusal:
                assert not any(f"the {p} phase" in refusal.message for p in FINER), refusal
                assert refusal.rule and refusal.code != "internal", refusal
                allowed = GAME.events[candidate.type].phases
                if now in FINER and allowed is not None and now not in allowed:
                    codes[refusal.code] += 1
    assert {"duty-pending", "not-owed", "wrong-phase", "not-your-turn"} <= set(codes), codes


LOG = logfile.read(GOLDEN / "kingmaker" / "three-player-two-parliaments.toml")


def golden_state(phase: str):
    """The first state of the golden game with two Parliaments in `phase`."""
    setup = from_log(LOG)
    state = next(s.after for s in steps(setup, LOG.entries) if GAME.phase(s.after) == phase)
    return setup.players, state


def refusal(phase: str, text: str, by: str | None = None) -> IllegalMove:
    players, state = golden_state(phase)
    by = by or GAME.default_player(state)
    try:
        apply_event(GAME, state, GAME.parse(state, text, by), players)
    except IllegalMove as exc:
        return exc
    raise AssertionError(f"{text} accepted in {phase}")


def test_in_its_stage_but_not_its_step_a_move_hears_its_own_effects_words():
    """The core refuses these by the finer phase; `explain` gives what the event itself says
    (before issue 27 its effect said it, the stage being right)."""
    weather = refusal("combat", "weather Writ")  # the combat phase, no combat declared
    assert (weather.code, weather.rule) == ("no-weather", "§6")
    assert weather.message == "no combat awaits its weather check"
    _, proposing = golden_state("parliament.propose")
    excuse = refusal("parliament.propose", "excuse " + next(iter(proposing.nobles)))
    assert (excuse.code, excuse.rule) == ("not-now", "§7.2")
    assert excuse.message.startswith("no excuses are asked now: they come after a call")


def test_out_of_its_stage_a_move_hears_the_stage_not_the_step():
    wrong = refusal("parliament.propose", "draw hidden")
    assert wrong.code == "wrong-phase" and wrong.rule == "§7"
    assert wrong.message.startswith("`draw` is not possible now, in the parliament phase: ")


def test_a_vote_is_listed_only_while_the_vote_is_the_phase():
    """A crown card given during a vote puts a discard first (duty.discard): `options --all`
    and its count list no ballot the table could not cast now."""
    players, state = golden_state("parliament.vote")
    assert any(e.type == "vote" for e in GAME.every_move(state))  # while the vote is awaited
    for by, card in (("Ann", "Constable of the Tower"), ("Cat", "Trinity")):
        state = apply_event(GAME, state, GAME.parse(state, f"give {card} to Ben", by), players)
    assert GAME.phase(state) == "duty.discard"
    listed = list(GAME.every_move(state))
    assert "vote" not in {e.type for e in listed} and "discard" in {e.type for e in listed}
    assert GAME.count_moves(state) == len(listed)
    assert not GAME.legal_note(state).startswith("The table votes")  # nor its note


def test_while_the_time_limit_ends_a_parliament_nobody_hears_it_is_his_turn_in_it():
    """R-84 in a session (time_end immediate): Parliament's own words would name who acts in
    it; the move hears the time limit instead."""
    players, state = golden_state("parliament.excuse")
    state = evolve(state, time_up=True)
    for by in state.names:
        for text in ("next", "excuse Neville", "select none"):
            with pytest.raises(IllegalMove) as info:
                apply_event(GAME, state, GAME.parse(state, text, by), players)
            assert "in Parliament" not in info.value.message, (by, text, info.value)
            assert "the time limit is reached" in info.value.message, (by, text, info.value)


def test_in_a_session_a_duty_first_is_what_a_move_out_of_turn_hears():
    """A discard owed during a session: a Parliament move by another player hears the duty
    awaited, not the session's turn (which waits on it)."""
    players, state = golden_state("parliament.select")
    assert GAME.to_act(state).players == ("Ann",)  # she leads the round
    for by, card in (("Ann", "Constable of the Tower"), ("Cat", "Trinity")):
        state = apply_event(GAME, state, GAME.parse(state, f"give {card} to Ben", by), players)
    assert GAME.phase(state) == "duty.discard"
    for by in ("Ann", "Cat"):
        with pytest.raises(IllegalMove) as info:
            apply_event(GAME, state, GAME.parse(state, "select none", by), players)
        assert "in Parliament" not in info.value.message, info.value
        assert "Ben holds more than two crown cards" in info.value.message, info.value
