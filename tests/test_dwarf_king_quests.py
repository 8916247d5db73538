"""Every quest side of both editions scored on hand-counted outcomes, and the seed's example."""

import pytest

from referee.games.dwarf_king.components import REPLACED_2022, TILES_2011, tiles
from referee.games.dwarf_king.scoring import KINDS, Outcome, quest_score

# Three seats, eight tricks. Seat 0 wins tricks 1, 2, 4, 8; seat 1 trick 3; seat 2 tricks 5-7.
#   seat 0: Knights K2 K3 K4 KK KJ, Dwarves DQ DJ, Goblins GJ G9, and the Dragon (no suit, R-2)
#   seat 1: DK D7 G8
#   seat 2: G2 G3 G4 G5 GQ, KQ and the Enchanter (an 11 of Knights), D9 D10
OUTCOME = Outcome(
    won=(("K2", "K3", "K4", "KK", "DQ", "DJ", "GJ", "KJ", "Dragon", "G9"),
         ("DK", "D7", "G8"),
         ("G2", "G3", "G4", "G5", "GQ", "KQ", "D9", "D10", "Enchanter")),
    winners=(0, 0, 1, 0, 2, 2, 2, 0),
)

EXPECTED_2011 = {
    "1a": (5, 0, 2), "1b": (2, 1, 5),
    "2a": (0, 3, -6), "2b": (0, -3, 6),
    "3a": (5, 0, 0), "3b": (0, 0, 0),
    "4a": (3, -2, 0), "4b": (-3, 2, 0),
    "5a": (4, 1, 3), "5b": (-4, -1, -3),
    "6a": (2, 0, 0), "6b": (3, 0, 4),
    "7a": (2, 1, 2), "7b": (5, 2, 5),
    "8a": (12, 0, 0), "8b": (-12, 0, 0),
    "9a": (2, 0, 6), "9b": (-2, 0, -6),
    "10a": (10, 1, 4), "10b": (-10, -1, -4),
    "11a": (2, 7, 2), "11b": (-2, -7, -2),
    "12a": (3, 4, 1), "12b": (1, 3, 4),
    "13a": (0, 7, 9), "13b": (2, 0, 11),
    "14a": (3, 3, 3), "14b": (-3, -3, -3),
    "15a": (5, 0, 0), "15b": (0, 5, 5),
    "16a": (0, 0, 5), "16b": (0, 5, 0),
    "17a": (-5, 0, -2), "17b": (-2, -1, -5),
    "18a": (8, 0, 8), "18b": (0, 4, 0),
    "19a": (5, 5, 5), "19b": (0, 0, 0),
    "20a": (8, 0, 0), "20b": (-8, 0, 0),
}

EXPECTED_2022 = {
    "1a": (4, 2, 6), "1b": (-4, -2, -6),
    "6b": (-2, 0, 0),
    "8a": (0, 0, 5), "8b": (0, 0, -5),
    "11a": (3, 0, 4), "11b": (-3, 0, -4),
    "14a": (0, 0, 0), "14b": (0, 5, 5),
    # two conditions worth +3 each; tricks 4, 1, 3 in seat order
    "20a": (3, 3, 0), "20b": (6, 0, 3),
}


@pytest.mark.parametrize("label", sorted(EXPECTED_2011))
def test_every_2011_side(label):
    side = {q.label: q for q in TILES_2011}[label]
    assert quest_score(side, OUTCOME) == EXPECTED_2011[label]


@pytest.mark.parametrize("label", sorted(EXPECTED_2022))
def test_every_2022_replacement(label):
    side = {q.label: q for q in REPLACED_2022}[label]
    assert quest_score(side, OUTCOME) == EXPECTED_2022[label]


def test_editions_have_forty_sides_and_2022_keeps_the_rest():
    old, new = tiles(2011), tiles(2022)
    assert len(old) == len(new) == 40
    changed = {k for k in old if old[k] != new[k]}
    assert changed == {(t, s) for t in (1, 8, 11, 14, 20) for s in "ab"} | {(6, "b")}
    assert len({q.name for q in new.values()}) == 40  # names are unique: `quest NAME` works


def test_every_kind_is_used():
    used = {q.kind for q in TILES_2011 + REPLACED_2022}
    assert used == set(KINDS)


def test_seed_worked_example():
    # "Knights victory over Dwarves": Catie 6 Dwarves, no Knight -> -6; Bruno 5 Knights, 1 Dwarf
    # -> 4; Pierre 8 Knights, 6 Dwarves -> 2.
    outcome = Outcome(
        won=(("D3", "D4", "D6", "D7", "D8", "D9"),
             ("K2", "K3", "K4", "K6", "K7", "D10"),
             ("K8", "K9", "K10", "KJ", "KQ", "KK", "KA", "K5", "DJ", "DQ", "DK", "DA", "D5",
              "D2")),
        winners=(0, 1, 2))
    assert quest_score(tiles(2011)[(4, "a")], outcome) == (-6, 4, 2)


# Trick counts (2, 4, 2, 2) over ten tricks; seat 1 wins the first four in a row.
TIES = Outcome(won=(("K5",), ("D5",), ("G2", "G3"), ()),
               winners=(1, 1, 1, 1, 0, 2, 2, 3, 3, 0))


def test_r10_as_many_tricks_means_the_same_number():
    assert quest_score(tiles(2011)[(19, "a")], TIES) == (0, 5, 0, 0)
    assert quest_score(tiles(2011)[(19, "b")], TIES) == (5, 0, 5, 5)


def test_r6_ties_reward_every_tied_player():
    assert quest_score(tiles(2022)[(8, "a")], TIES) == (5, 5, 5, 0)


def test_grand_slam_needs_four_in_a_row():
    assert quest_score(tiles(2022)[(14, "a")], TIES) == (0, 5, 0, 0)


def test_r13_in_line_and_sandwich_are_two_conditions_worth_3_each():
    """R-4 of the rules page: each condition is worth +3 on its own, so 0, 3 or 6."""
    counts_3210 = Outcome(won=((), (), (), ()), winners=(0, 0, 0, 1, 1, 2))
    assert quest_score(tiles(2022)[(20, "a")], counts_3210) == (3, 6, 6, 3)
    assert quest_score(tiles(2022)[(20, "b")], counts_3210) == (6, 3, 3, 0)


def test_r13_the_issue_example_1_4_2_3_gives_everyone_3_with_in_line():
    """Four players winning 1, 4, 2 and 3 tricks in seat order: each meets exactly one of In
    line's two conditions (the previous player won more, or the next player fewer)."""
    counts_1423 = Outcome(won=((), (), (), ()), winners=(0, 1, 1, 1, 1, 2, 2, 3, 3, 3))
    assert [counts_1423.tricks(s) for s in range(4)] == [1, 4, 2, 3]
    assert quest_score(tiles(2022)[(20, "a")], counts_1423) == (3, 3, 3, 3)
    assert quest_score(tiles(2022)[(20, "b")], counts_1423) == (0, 6, 0, 6)


def test_r5_elite_army_ignores_missing_suits_and_magic_cards():
    outcome = Outcome(won=(("K2", "K3", "D4"), ("Dragon",), ()), winners=(0, 1, 0))
    assert quest_score(tiles(2011)[(7, "a")], outcome) == (1, 0, 0)


def test_r14_save_the_nobles_only_faces_and_nothing():
    outcome = Outcome(won=(("KQ", "DK", "Mummy"), (), ("Joker", "KA")),
                      winners=(0, 2, 0))
    # seat 0: only faces -> +10; seat 1: nothing -> 0; seat 2: the Joker is a 1 of Knights -> +1
    assert quest_score(tiles(2011)[(11, "a")], outcome) == (10, 0, 1)
    assert quest_score(tiles(2011)[(11, "b")], outcome) == (0, 0, -1)


def test_r11_r12_triplets_and_runs_count_specials_of_their_rank():
    outcome = Outcome(won=(("K10", "Tinkerer", "DJ"), ("K2", "D2", "G2"), ("KA", "DA", "GA")),
                      winners=(0, 1, 2))
    assert quest_score(tiles(2011)[(6, "b")], outcome) == (3, 0, 0)  # 10 -> 11 -> J
    assert quest_score(tiles(2011)[(6, "a")], outcome) == (0, 1, 2)
    assert quest_score(tiles(2022)[(6, "b")], outcome) == (0, -1, -2)


def test_eeny_meeny_orders_by_the_third_trick():
    outcome = Outcome(won=((), (), ()), winners=(2, 2, 1, 1, 1, 2, 0, 0, 0))
    assert quest_score(tiles(2022)[(11, "a")], outcome) == (5, 3, 4)
