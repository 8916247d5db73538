"""The King's Ear's equal trades are counted, never all listed: a board may hold billions of them
(issue 9). Counting agrees with enumeration; options fold them into one line per partner House;
`options --all` streams them; a mistyped trade is refused at once."""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import Event, Player, apply_event
from referee.evolve import evolve
from referee.games.kings_ear import GAME
from referee.games.kings_ear.components import card_house, card_value
from referee.games.kings_ear.events import LISTED
from referee.games.kings_ear.rules import subset_counts, subsets_with_total
from referee.games.kings_ear.state import State

THREE = (Player("Ann", "Horse"), Player("Ben", "Pig"), Player("Cat", "Stag"))


def crowded(under_horse: int, horse_under_pig: int, others_under_pig: int) -> State:
    """Ann (Horse) to act with the pile empty: foreign cards under Horse, and under Pig some
    Horse cards and some Stag and Boar cards. A legal position (each card lies under a House
    that is not its own, as placed by the others)."""
    state = GAME.setup(THREE, {}, None)
    where = list(state.where)
    foreign = [c for c in range(64) if card_house(c) in (2, 3)]
    for card in foreign[:under_horse]:
        where[card] = 0
    for card in range(horse_under_pig):
        where[card] = 1
    for card in foreign[under_horse:under_horse + others_under_pig]:
        where[card] = 1
    return evolve(state, where=tuple(where), drawn=64)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 63), max_size=12, unique=True), st.integers(1, 20),
       st.sampled_from([None, 0, 1]))
def test_counting_and_lazy_listing_agree_with_brute_force(cards, total, need):
    brute = [combo for size in range(1, len(cards) + 1)
             for combo in itertools.combinations(sorted(cards), size)
             if (need is None or any(card_house(c) == need for c in combo))]
    counts: dict[int, int] = {}
    for combo in brute:
        counts[sum(map(card_value, combo))] = counts.get(sum(map(card_value, combo)), 0) + 1
    assert subset_counts(cards, need) == counts
    assert list(subsets_with_total(cards, total, need)) == \
        [c for c in brute if sum(map(card_value, c)) == total]


def test_a_medium_board_lists_counts_and_streams_every_trade():
    state = crowded(6, 3, 3)
    every = [e for e in GAME.every_move(state) if e.type == "trade"]
    assert GAME.count_moves(state) == len(every) > LISTED
    listed = [e for e in GAME.legal(state) if e.type == "trade"]
    assert listed == every[:LISTED]
    assert len(set(every)) == len(every)
    for event in random.Random(1).sample(every, 40):
        apply_event(GAME, state, event, THREE)
    [line] = GAME.option_lines(state, GAME.legal(state))
    assert line.startswith("trade Pig give CARDS take CARDS") and f"({len(every):,} equal" in line


def test_a_crowded_board_is_counted_not_listed():
    state = crowded(24, 8, 8)
    assert GAME.count_moves(state) > 10**9
    assert len(GAME.legal(state)) == LISTED
    [line] = GAME.option_lines(state, GAME.legal(state))
    assert "equal trades, worth 1-" in line


def test_few_trades_are_still_listed_one_by_one():
    state = crowded(1, 1, 0)
    lines = GAME.option_lines(state, GAME.legal(state))
    assert all(line.startswith("trade Pig give ") and "CARDS" not in line for line in lines)
    assert GAME.count_moves(state) == len(lines)


def test_options_all_streams_and_counts(ke_game, monkeypatch):
    from referee.games.kings_ear import game as game_module

    board = crowded(6, 3, 3)
    monkeypatch.setattr(game_module.KingsEar, "setup",
                        lambda self, players, options, seed=None: board)
    cli = ke_game
    every = cli("options", "--all", "trade", "pig")
    lines = every.out.splitlines()
    assert every.status == 0 and len(lines) == GAME.count_moves(board)
    assert all(line.startswith("trade Pig give ") for line in lines)
    data = json.loads(cli("options", "--all", "--json").out)
    assert data["count"] == len(data["moves"]) == len(lines)
    assert json.loads(cli("options", "--json").out)["count"] == len(lines)
    folded = cli("options")
    assert "320 equal trades" in folded.out and len(folded.out.splitlines()) == 3
    wrong = cli("play", "trade", "Pig", "give", "SR1", "take", "PR1")
    assert wrong.status == 1 and "closest legal moves: trade Pig give CARDS" in wrong.err


def test_the_event_is_the_canonical_one():
    state = crowded(2, 1, 0)
    for event in GAME.every_move(state):
        assert GAME.parse(state, GAME.format(state, event), "Ann") == event
        assert isinstance(event, Event)
