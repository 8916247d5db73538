"""Kingmaker's derived values and its settling, checked against themselves: 120 seeded random
games, each replayed with the self-check on (REFEREE_SELFCHECK), which works every kept derived
value out afresh after each event, runs every settle step that was skipped (it must do nothing)
and holds each event's changed fields to its `changes` declaration. Runs in the plain pytest
run (CI)."""

from __future__ import annotations

import random
from unittest import mock

import pytest

from referee import engine
from referee.derived import SelfCheckError
from referee.engine import Player, apply_event, load_game
from referee.games.kingmaker.rules import STEPS, settle
from referee.simulate import play_out

GAME = load_game("kingmaker")
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")
COUNTS = range(GAME.min_players, GAME.max_players + 1)  # 2..7: what randomplay seats
GAMES = 120


def _games() -> list[tuple[int, int]]:
    """(players, seed) for 120 games, the player counts taken in turn."""
    rng = random.Random(27)
    counts = list(COUNTS)
    return [(counts[i % len(counts)], rng.randrange(2**31)) for i in range(GAMES)]


def _replayed(playout, players):
    state = playout.setup.state
    with mock.patch.object(engine, "SELFCHECK", True):
        for event in playout.events:
            state = apply_event(GAME, state, event, players)
    return state


@pytest.mark.parametrize("count", list(COUNTS))
def test_random_games_replay_identically_with_the_self_check_on(count):
    chosen = [seed for players, seed in _games() if players == count]
    assert len(chosen) >= GAMES // len(COUNTS)
    players = GAME.seat_players([Player(n) for n in NAMES[:count]], GAME.default_options())
    for seed in chosen:
        playout = play_out(GAME, seed, list(players))
        assert playout.events, seed
        state = _replayed(playout, playout.players)
        assert state == playout.state, seed
        assert GAME.score(state) == GAME.score(playout.state), seed


def test_the_self_check_names_a_step_skipped_that_had_work_to_do():
    """A step declared with too few reads is skipped when it would act: the self-check says
    which step, after which event."""
    playout = play_out(GAME, 5, list(GAME.seat_players([Player(n) for n in NAMES[:3]],
                                                       GAME.default_options())))
    blind = tuple(step._replace(reads=frozenset()) for step in STEPS)  # reads nothing
    with mock.patch("referee.games.kingmaker.rules.settling.STEPS", blind), \
            pytest.raises(SelfCheckError, match=r"settle step _\w+ was skipped after \w+"):
        _replayed(playout, playout.players)


def test_the_self_check_names_a_change_an_event_does_not_declare():
    playout = play_out(GAME, 5, list(GAME.seat_players([Player(n) for n in NAMES[:3]],
                                                       GAME.default_options())))
    etype = GAME.events[playout.events[-1].type]
    with mock.patch.object(type(etype), "changes", frozenset()), \
            pytest.raises(SelfCheckError, match=rf"{etype.name} changed \w+"):
        _replayed(playout, playout.players)


def test_settle_without_a_declaration_runs_every_step():
    """An event that declares nothing narrower changes everything: no step is skipped."""
    playout = play_out(GAME, 5, list(GAME.seat_players([Player(n) for n in NAMES[:3]],
                                                       GAME.default_options())))
    state = playout.state
    assert settle(state, state) == settle(state, state, frozenset(STEPS[0].reads))


def _two_sieges():
    """A realm in a movement phase with two sieges, Middleham's looked at first: Ann's Neville
    and Clifford (70) besiege Herbert (10, with the Lancastrian Royal Guard, 30) in Middleham
    (garrison 100): 140, exactly half, holds. Ben's Percy besieges London from the Grace Dieu
    with King Edward of March (the York Royal Guard, 50) aboard."""
    from referee.evolve import evolve
    from referee.games.kingmaker.state import (
        DISCARD, MOVEMENT, HeirState, NobleState, ShipState, Siege)

    playout = play_out(GAME, 3, list(GAME.seat_players([Player(n) for n in NAMES[:3]],
                                                       GAME.default_options())))
    state = playout.setup.state
    for event in playout.events:
        state = apply_event(GAME, state, event, playout.players)
        if state.in_play and state.stage == MOVEMENT and not state.duties:
            break
    ann, ben, cat = state.names
    heirs = {h: HeirState("in:London") for h in state.heirs}
    heirs["Edward of March"] = HeirState("", by="Percy", crowned=True)
    heirs["Henry"] = HeirState("", by="Herbert", crowned=True)
    state = evolve(state, nobles={
        "Neville": NobleState(ann, "near:Middleham"), "Clifford": NobleState(ann, "near:Middleham"),
        "Herbert": NobleState(ben, "in:Middleham"), "Percy": NobleState(ben, "aboard:Grace Dieu"),
        "Audley": NobleState(cat, "sq:test")},
        cards={c: DISCARD if w.startswith("noble:") else w for c, w in state.cards.items()},
        heirs=heirs, duties=(), both={}, control={"Middleham": "Herbert"},
        ships={"Grace Dieu": ShipState("Percy", "port:London")},
        sieges={"Middleham": Siege(ann, ("Neville", "Clifford")),
                "London": Siege(ben, ("Percy",), ship="Grace Dieu")})
    return state, playout.players


def test_a_step_that_leaves_itself_work_runs_again_at_the_next_event():
    """R-27: Percy comes to control London (a town card played): Ben's own siege of it breaks
    and the Grace Dieu sinks with Percy and his King (§8.6). Henry is the sole King: Herbert holds
    both Royal Guards (190), and the siege of Middleham, already looked at, is below half. The
    next event, whatever it changes (a clock paused), breaks it, as running every step at every
    event did."""
    from referee.evolve import evolve

    before, players = _two_sieges()
    state = evolve(before, control={**before.control, "London": "Percy"})
    settled = settle(before, state, frozenset({"control"}), "play")
    assert list(settled.sieges) == ["Middleham"]
    assert "Percy" not in settled.nobles and not settled.heirs["Edward of March"].alive
    with mock.patch.object(engine, "SELFCHECK", True):
        paused = apply_event(GAME, settled, GAME.events["clock"].make(None, action="pause"),
                             players)
    assert paused.sieges == {}
    assert any("siege of Middleham is broken" in text for _, text in paused.chronicle)
