"""King of the Valley: every rule of the rules page and every ruling (R-1..R-19), on small boards.

Boards are written as five rows of tile names, row 5 first (as the board is drawn); '.' is an
empty square. Each test builds the situation it needs and plays moves in the game's notation.
"""

from __future__ import annotations


import pytest

from referee.engine import Event, Player, apply_event
from referee.errors import AmbiguousMove, IllegalMove, NotationError, UsageError
from referee.evolve import evolve
from referee.games.king_of_the_valley import GAME
from referee.games.king_of_the_valley.components import (
    ASSUMED_PILE_MIX,
    BOX,
    PILE_SIZES,
    kind,
    pile_problems,
    valid_tax,
    virtual_piles,
)
from referee.games.king_of_the_valley.notation import parse_square
from referee.games.king_of_the_valley.state import Castle
from referee.sheets import render_text

PLAYERS = (Player("Ann"), Player("Bob"), Player("Cy"))
HILL = (("farmer", "wife", "duke", "countess", "knight-A", "farmer"),
        ("queen", "farmer", "wife", "knight-B", "jester", "priest"))

# The seed's movement examples: Ann's (red) king bottom right on e1; Bob's king on c3.
EXAMPLE = """
countess  wife      queen     knight-B  farmer
farmer    farmer    duke      wife      wife
wife      countess  wife      queen     knight-A
queen     countess  jester    farmer    knight-D
farmer    countess  duke      wife      farmer
"""

PRIESTS = """
farmer    wife      duke      wife      countess
wife      countess  farmer    queen     wife
farmer    knight-A  priest    wife      farmer
wife      farmer    countess  knight-B  wife
duke      wife      farmer    countess  queen
"""


def sq(name: str) -> int:
    return parse_square(name, name)


def grid(text: str) -> tuple:
    rows = [line.split() for line in text.strip().splitlines()]
    assert len(rows) == 5 and all(len(r) == 5 for r in rows)
    valley = [None] * 25
    for index, words in enumerate(rows):
        row = 5 - index
        for col, word in enumerate(words):
            valley[(row - 1) * 5 + col] = None if word == "." else word
    return tuple(valley)


def castle(gold: int = 2, kingdoms: int = 0, taxed: tuple = (), **columns) -> Castle:
    """castle(duke=["duke", "~jester"]): '~' marks a face-down tile."""
    made = Castle(gold=gold, kingdoms=kingdoms, taxed=frozenset(taxed))
    for column, tiles in columns.items():
        for tile in tiles:
            made = made.add(tile.lstrip("~"), column)
            if tile.startswith("~"):
                made = _down_last(made, column)
    return made


def _down_last(made: Castle, column: str) -> Castle:
    held = list(made.column(column))
    held[-1] = (held[-1][0], False)
    index = ("queen", "duke", "countess", "knight", "farmer", "wife").index(column)
    return evolve(made, columns=made.columns[:index] + (tuple(held),) + made.columns[index + 1:])


def table(valley: str = EXAMPLE, kings=("e1", "c3"), castles=None, hill=HILL,
          phase: str = "summon", turn: int = 0, **changes):
    players = PLAYERS[:len(kings)]
    base = GAME.setup(players, GAME.check_options({}), None)
    changes.setdefault("awaiting", ())
    return evolve(base, valley=grid(valley), kings=tuple(sq(k) for k in kings),
                   castles=tuple(castles or (Castle(),) * len(kings)), hill=hill, phase=phase,
                   turn=turn, **changes)


def play(state, *texts):
    for text in texts:
        turn = GAME.to_act(state)
        who = turn.players[0] if turn.players else None
        event = GAME.parse(state, text, who)
        state = apply_event(GAME, state, event, PLAYERS[:len(state.names)])
    return state


def refused(state, text, code, rule=None):
    with pytest.raises(IllegalMove) as info:
        play(state, text)
    assert info.value.code == code, info.value.message
    if rule is not None:
        assert info.value.rule == rule
    return info.value


def legal_texts(state):
    return {GAME.format(state, e) for e in GAME.legal(state)}


# --------------------------------------------------------------------------------------------
# Tiles, box and piles


def test_assumed_mix_matches_every_published_total():
    piles = virtual_piles(("A", "B", "C", "D"))
    assert tuple(len(p) for p in piles) == PILE_SIZES == (29, 30, 31)
    everything = [t for p in piles for t in p]
    assert len(everything) == 90
    for name, count in BOX.items():
        assert sum(1 for t in everything if kind(t) == name) == count, name
    for order in "ABCD":
        assert everything.count(f"knight-{order}") == 5
    assert [sum(1 for t in p if t == "priest") for p in piles] == [1, 1, 1]
    assert [sum(1 for t in p if t == "wizard") for p in piles] == [0, 1, 1]
    assert all(valid_tax(t) for t in everything if kind(t) == "tax")
    assert pile_problems(piles) is None
    assert sum(sum(m.values()) for m in ASSUMED_PILE_MIX) == 90


@pytest.mark.parametrize("tile,ok", [("tax-3", True), ("tax-4", True), ("tax-5", False),
                                     ("tax-3-5", True), ("tax-5-10", True), ("tax-6-7", False),
                                     ("tax-3-11", False), ("tax-3-05", False), ("tax", False)])
def test_tax_collector_printings(tile, ok):
    assert valid_tax(tile) is ok


def test_set_up_reveals_fill_valley_then_hill_from_piles_one_and_two():
    state = GAME.setup(PLAYERS[:2], GAME.check_options({}), seed=5)
    assert GAME.to_act(state).table
    piles = state.virtual
    state = play(state, "reveal")
    assert state.valley == piles[0][:25]
    assert state.hill[0] == (piles[0][25], piles[0][27], *piles[1][0:8:2])
    assert state.hill[1] == (piles[0][26], piles[0][28], *piles[1][1:8:2])
    assert state.unrevealed() == (0, 22, 31)
    assert state.phase == "king"


def test_a_virtual_game_checks_each_reveal_against_its_pile():
    state = GAME.setup(PLAYERS[:2], GAME.check_options({}), seed=5)
    first = state.virtual[0][0]
    wrong = next(t for t in ("farmer", "duke") if t != first)
    refused(state, f"reveal {wrong}", "not-the-virtual-tile", "R-2")
    assert play(state, f"reveal {first}").valley[0] == first


def test_physical_reveals_are_checked_against_the_box_and_piles():
    state = GAME.setup(PLAYERS[:2], GAME.check_options({}), None)
    refused(state, "reveal wizard", "box-count", "R-2")  # wizards are in piles II and III
    state = play(state, "reveal priest queen queen queen")
    refused(state, "reveal priest", "box-count", "R-2")  # one priest per pile
    refused(state, "reveal queen", "box-count", "R-2")  # three queens in the box
    with pytest.raises(NotationError):
        GAME.parse(state, "reveal dragon", None)
    refused(state, "reveal " + " ".join(["farmer"] * 34), "wrong-count", "R-2")
    with pytest.raises(IllegalMove) as info:
        apply_event(GAME, state, Event.make("reveal", None, tiles=["dragon"]), PLAYERS[:2])
    assert info.value.code == "unknown-tile"


def test_pile_one_must_still_hold_its_priest():
    state = GAME.setup(PLAYERS[:2], GAME.check_options({}), None)
    tiles = ["farmer"] * 24 + ["wife"] * 4
    state = play(state, "reveal " + " ".join(tiles))
    refused(state, "reveal wife", "box-count", "R-2")  # the 29th tile of pile I is the priest
    state = play(state, "reveal priest")
    assert state.unrevealed() == (0, 30, 31)


def test_reveal_notation_accepts_knight_and_order_label():
    state = GAME.setup(PLAYERS[:2], GAME.check_options({"orders": ["Red", "Blue", "Sun", "X"]}),
                       None)
    event = GAME.parse(state, "reveal knight red KNIGHT-sun Far", None)
    assert event["tiles"] == ("knight-Red", "knight-Sun", "farmer")
    with pytest.raises(AmbiguousMove):
        GAME.parse(state, "reveal knight", None)
    with pytest.raises(NotationError):
        GAME.parse(state, "reveal tax", None)
    with pytest.raises(NotationError):
        GAME.parse(state, "reveal", None)  # a physical game must name its tiles


def test_options_are_checked():
    with pytest.raises(UsageError):
        GAME.check_options({"orders": ["A", "A", "B", "C"]})
    with pytest.raises(UsageError):
        GAME.check_options({"orders": ["A", "B"]})
    with pytest.raises(UsageError):
        GAME.check_options({"orders": ["A", "B", "C", "knight D"]})
    with pytest.raises(UsageError):
        GAME.check_options({"hill_prices": [2, 3, 4]})
    assert GAME.check_options({"hill_prices": [1, 2, 3, 4, 5, 6]})["hill_prices"] == \
        [1, 2, 3, 4, 5, 6]


def test_one_king_per_tile_at_set_up_only():
    state = play(GAME.setup(PLAYERS[:2], GAME.check_options({}), seed=1), "reveal", "king c3")
    refused(state, "king c3", "one-king-per-tile", "Set-up")
    assert "king c3" not in legal_texts(state)
    state = play(state, "king d4")
    assert state.phase == "summon" and state.player == "Ann"


# --------------------------------------------------------------------------------------------
# Phase 2: the summon (the seed's three examples, R-5)


def test_example_option_1_summon_the_tile_you_end_on():
    after = play(table(), "move e1 c1")
    assert after.castles[0].column("duke") == (("duke", True),)
    assert after.kings[0] == sq("c1") and after.valley[sq("c1")] is None
    assert after.phase == "kingdom"


def test_example_option_2_two_passed_knights_of_different_orders_r5():
    after = play(table(), "move e1 e4 take knight")
    assert after.castles[0].column("knight") == (("knight-D", True), ("knight-A", True))
    assert after.kings[0] == sq("e4") and after.valley[sq("e4")] == "wife"
    assert after.emptied == (sq("e2"), sq("e3"))


def test_example_option_3_two_farmers_on_a_diagonal_passing_a_king():
    state = table()
    after = play(state, "move e1 a5 take farmer")
    assert after.castles[0].column("farmer") == (("farmer", True), ("farmer", True))
    assert after.valley[sq("c3")] == "wife"  # passed, stays
    assert after.kings[0] == sq("a5")
    refused(state, "move e1 a5 take d2 c3 b4", "under-a-king")
    refused(table(kings=("e1", "a1")), "move e1 a5 take d2 c3 b4", "not-identical", "R-5")


def test_cannot_summon_under_another_king_but_may_land_on_one():
    state = table(kings=("e1", "c3", "a5"))
    refused(state, "move e1 c3", "under-a-king")
    after = play(state, "move e1 a5 take farmer")  # landing on Cy's king: allowed
    assert after.kings == (sq("a5"), sq("c3"), sq("a5"))
    wives = table(kings=("a1", "c1"), valley="""
farmer  wife farmer wife farmer
wife    wife farmer wife farmer
wife    wife farmer wife farmer
wife    wife farmer wife farmer
duke    wife farmer wife farmer
""")
    assert "move a1 a5 take wife" in legal_texts(wives)
    blocked = evolve(wives, kings=(sq("a1"), sq("a3")))
    refused(blocked, "move a1 a5 take a2 a3 a4", "under-a-king")
    refused(blocked, "move a1 a4 take a2 a3", "under-a-king")
    options = legal_texts(blocked)
    assert "move a1 a5 take wife" in options  # = a2 and a4: Bob's king on a3 is passed
    assert GAME.parse(blocked, "move a1 a5 take wife", "Ann")["take"] == ("a2", "a4")
    assert not any(t.startswith("move a1 a3") for t in options)


def test_summon_restrictions():
    state = table()
    refused(state, "move e1 e1", "start-square")
    refused(state, "move e1 c2", "not-a-line")
    refused(state, "move c1 c2", "not-your-square")
    refused(state, "move e1 e4 take e2", "take-two-or-three")
    refused(state, "move e1 e5 take e2 e3", "land-behind-last")
    refused(state, "move e1 e5 take knight", "land-behind-last")
    refused(state, "move e1 b1 take d1 c1", "not-identical", "R-5")
    refused(state, "move e1 b1 take c1 d1", "not-identical", "R-5")  # typed in any order
    backwards = Event.make("move", "Ann", path=["e1", "e4"], take=["e3", "e2"])
    with pytest.raises(IllegalMove) as info:  # as a hand-edited log could hold it
        apply_event(GAME, state, backwards, PLAYERS[:2])
    assert info.value.code == "land-behind-last"
    refused(state, "move e1 e4 take d2 e3", "not-passed")
    with pytest.raises(IllegalMove):
        GAME.parse(state, "move e1 e4 take queen", "Ann")  # no queen passed


def test_choose_which_identical_tiles_to_take():
    state = table(kings=("a1", "e5"), valley="""
farmer  wife farmer wife farmer
farmer  wife farmer wife farmer
farmer  wife farmer wife farmer
farmer  wife farmer wife farmer
duke    wife farmer wife farmer
""")
    options = legal_texts(state)
    assert {"move a1 a5 take farmer", "move a1 a5 take a2 a4", "move a1 a5 take a3 a4"} <= options
    assert GAME.parse(state, "move a1 a5 take a4 a3", "Ann")["take"] == ("a3", "a4")
    after = play(state, "move a1 a5 take a3 a4")
    assert after.valley[sq("a2")] == "farmer" and after.emptied == (sq("a3"), sq("a4"))
    assert len(play(state, "move a1 a5 take farmer").castles[0].column("farmer")) == 3


def test_pass_only_when_no_summon_is_possible_r15():
    walled = table(kings=("a1", "e5"), valley="""
wizard wizard wizard wizard wizard
wizard wizard wizard wizard wizard
wizard wizard wizard wizard wizard
wizard wizard wizard wizard wizard
duke   wizard wizard wizard wizard
""")
    assert legal_texts(walled) == {"pass"}
    after = play(walled, "pass")
    assert after.phase == "kingdom" and after.emptied == ()
    refused(table(), "pass", "must-summon", "Summon")


# --------------------------------------------------------------------------------------------
# The priest


def test_priest_changes_the_path_and_leaves_its_coin():
    state = table(PRIESTS, kings=("c1", "a5"))
    after = play(state, "move c1 c3 e5")
    ann = after.castles[0]
    assert ann.gold == 1 and ann.column("countess") == (("countess", True),)
    assert after.coins[sq("c3")] == 1 and after.valley[sq("c3")] is None
    assert after.discard == ("priest",)
    assert after.emptied == (sq("c3"), sq("e5"))
    assert after.kings[0] == sq("e5")


def test_after_a_priest_the_start_square_may_be_summoned():
    state = table(PRIESTS, kings=("c1", "a5"))
    after = play(state, "move c1 c3 c1")
    assert after.castles[0].column("farmer") == (("farmer", True),)
    assert "move c1 c3 c1" in legal_texts(state)


def test_priest_must_be_paid_and_continued_from():
    state = table(PRIESTS, kings=("c1", "a5"))
    refused(state, "move c1 c3", "priest-must-continue", "Priest")
    refused(state, "move c1 c2 c4", "not-a-priest", "Priest")
    broke = evolve(state, castles=(Castle(gold=0), Castle()))
    refused(broke, "move c1 c3 e5", "priest-needs-gold", "Priest")
    assert not any(t.startswith("move c1 c3 ") for t in legal_texts(broke))
    # A coin already on the priest's square comes with it and pays it.
    paid = play(evolve(broke, coins=tuple(1 if s == sq("c3") else 0 for s in range(25))),
                "move c1 c3 e5")
    assert paid.castles[0].gold == 0 and paid.coins[sq("c3")] == 1


def test_priest_cannot_be_taken_as_a_passed_tile():
    state = table("""
farmer wife priest wife countess
wife countess priest queen wife
farmer knight-A priest wife farmer
wife farmer countess knight-B wife
duke wife farmer countess queen
""", kings=("c2", "a1"))
    refused(state, "move c2 c5 take c3 c4", "priest-not-passed", "R-11")
    refused(state, "move c2 c5 take priest", "priest-not-passed", "R-11")


def test_several_priests_then_the_coin_goes_to_whoever_summons_the_new_tile():
    state = table("""
farmer wife duke wife countess
wife countess farmer queen wife
priest knight-A priest wife farmer
wife farmer countess knight-B wife
duke wife farmer countess queen
""", kings=("c1", "e5"), castles=(Castle(gold=3), Castle()))
    after = play(state, "move c1 c3 a3 a5")
    assert after.castles[0].gold == 1
    assert after.coins[sq("c3")] == after.coins[sq("a3")] == 1
    assert after.emptied == (sq("c3"), sq("a3"), sq("a5"))
    refilled = play(after, "refill right")
    assert refilled.valley[sq("c3")] == "queen" and refilled.valley[sq("a3")] == "farmer"
    assert refilled.valley[sq("a5")] == "wife"
    bob = play(refilled, "reveal farmer wife knight-C")
    assert bob.player == "Bob"
    bob = play(bob, "move e5 c3")
    assert bob.castles[1].gold == 3 and bob.coins[sq("c3")] == 0
    assert bob.castles[1].column("queen") == (("queen", True),)


# --------------------------------------------------------------------------------------------
# Wizard, tax collectors, Jesters


WIZARDS = """
farmer wife duke wife countess
wife countess farmer queen wife
farmer knight-A wizard wife farmer
wife farmer countess knight-B wife
duke wife farmer countess queen
"""


def test_wizard_needs_a_face_up_subject():
    state = table(WIZARDS, kings=("c1", "a5"))
    refused(state, "move c1 c3", "requirement-not-met", "Wizard")
    down = evolve(state, castles=(castle(duke=["~duke"]), Castle()))
    refused(down, "move c1 c3", "requirement-not-met", "Wizard")


def test_wizard_swaps_a_castle_subject_with_a_hill_subject():
    state = table(WIZARDS, kings=("c1", "a5"), castles=(castle(duke=["duke"]), Castle()))
    after = play(state, "move c1 c3")
    assert after.phase == "activate" and after.discard == ("wizard",)
    assert "wizard duke for right 1" in legal_texts(after)
    assert not any("right 6" in t for t in legal_texts(after))  # the priest is no subject
    refused(after, "wizard duke for right 6", "not-a-subject", "Wizard")
    refused(after, "wizard queen for right 1", "not-in-castle", "Wizard")
    refused(after, "tax duke", "wrong-activation", "R-13")
    done = play(after, "wizard duke for right 1")
    assert done.castles[0].column("queen") == (("queen", True),)
    assert done.castles[0].column("duke") == ()
    assert done.hill[1][0] == "duke" and done.phase == "kingdom"


def test_wizard_with_jesters_on_both_sides():
    state = table(WIZARDS, kings=("c1", "a5"), castles=(castle(queen=["jester"]), Castle()))
    after = play(state, "move c1 c3")
    refused(after, "wizard jester from queen for right 5", "jester-needs-column", "Wizard")
    refused(after, "wizard jester from duke for right 1", "not-in-castle", "Wizard")
    done = play(after, "wizard jester from queen for right 5 as duke")
    assert done.castles[0].column("duke") == (("jester", True),)
    assert done.castles[0].column("queen") == ()
    assert done.hill[1][4] == "jester"


def test_two_wizards_two_swaps():
    state = table("""
farmer wife duke wife countess
wife countess wizard queen wife
farmer knight-A wizard wife farmer
wife farmer countess knight-B wife
duke wife farmer countess queen
""", kings=("c2", "a5"), castles=(castle(farmer=["farmer", "farmer"]), Castle()))
    after = play(state, "move c2 c5 take wizard")
    assert after.pending == ("wizard", "wizard")
    after = play(after, "wizard farmer for right 1", "wizard farmer for left 3")
    assert after.castles[0].column("queen") == (("queen", True),)
    assert after.castles[0].column("duke") == (("duke", True),)
    assert after.phase == "kingdom"


TAXES = """
farmer wife duke wife countess
wife countess tax-4-7 queen wife
farmer knight-A tax-3-5 wife farmer
wife farmer tax-4 knight-B wife
duke wife farmer countess queen
"""


def test_tax_collector_without_requirement_pays_at_once():
    after = play(table(TAXES, kings=("c1", "a5")), "move c1 c2")
    assert after.castles[0].gold == 6 and after.phase == "kingdom"
    assert after.discard == ("tax-4",)


def test_tax_collector_turns_subjects_down_and_leaves_a_token():
    ann = castle(farmer=["farmer", "farmer", "jester"], wife=["wife", "wife"])
    state = table(TAXES, kings=("c1", "a5"), castles=(ann, Castle()))
    refused(state, "move c1 c2 take tax", "not-passed")
    state = evolve(state, kings=(sq("c2"), sq("a5")))
    after = play(state, "move c2 c3")
    assert legal_texts(after) == {"tax farmer"}  # a Jester counts as its column
    refused(after, "tax wife", "too-few-subjects", "Tax Collector")
    done = play(after, "tax farmer")
    farmers = done.castles[0].column("farmer")
    assert farmers == (("farmer", False), ("farmer", False), ("jester", False))
    assert done.castles[0].gold == 7 and done.castles[0].taxed == {"farmer"}


def test_a_type_can_be_taxed_only_once():
    ann = castle(taxed=("farmer",), farmer=["farmer"] * 4)
    state = table(TAXES, kings=("c2", "a5"), castles=(ann, Castle()))
    refused(state, "move c2 c3", "requirement-not-met", "Tax Collector")
    state = evolve(state, castles=(castle(taxed=("farmer",), farmer=["farmer"] * 4,
                                           wife=["wife"] * 3), Castle()))
    after = play(state, "move c2 c3")
    refused(after, "tax farmer", "taxed-before", "Tax Collector")


def test_tax_collectors_in_the_order_passed_without_stranding_one_r13():
    ann = castle(farmer=["farmer"] * 4, wife=["wife"] * 3)
    state = table(TAXES, kings=("c2", "a5"), castles=(ann, Castle()))
    after = play(state, "move c2 c5 take tax")
    assert after.pending == ("tax-3-5", "tax-4-7")
    assert legal_texts(after) == {"tax wife"}
    refused(after, "tax farmer", "strands-specialist", "R-13")
    done = play(after, "tax wife", "tax farmer")
    assert done.castles[0].gold == 2 + 5 + 7 and done.castles[0].taxed == {"wife", "farmer"}
    knights_only = evolve(state, castles=(castle(knight=["knight-A", "knight-B", "knight-C"]),
                                           Castle()))
    refused(knights_only, "move c2 c5 take tax", "requirement-not-met", "Tax Collector")


def test_summoned_jesters_choose_their_columns():
    state = table("""
farmer wife duke wife countess
wife countess jester queen wife
farmer knight-A jester wife farmer
wife farmer countess knight-B wife
duke wife farmer countess queen
""", kings=("c2", "a5"))
    after = play(state, "move c2 c5 take jester")
    assert after.phase == "activate" and GAME.inventory(after)["jesters being placed"] == 2
    assert len(GAME.legal(after)) == 6
    done = play(after, "jester as queen", "jester as queen")
    assert done.castles[0].column("queen") == (("jester", True), ("jester", True))
    assert done.phase == "kingdom"
    with pytest.raises(NotationError):
        GAME.parse(after, "jester as king", "Ann")


# --------------------------------------------------------------------------------------------
# Phase 1: recruit


def test_no_recruiting_in_round_one():
    state = table()
    refused(state, "recruit left 1", "recruit-round-1", "Recruit")
    assert not any(t.startswith("recruit") for t in legal_texts(state))


def test_recruit_pays_the_row_price_and_the_column_slides_down():
    state = table(phase="recruit", turn=2, castles=(Castle(gold=3), Castle()))
    assert state.round == 2
    options = legal_texts(state)
    assert {"recruit left 1", "recruit left 2", "recruit right 1", "recruit right 2"} == \
        {t for t in options if t.startswith("recruit")}
    refused(state, "recruit left 3", "cannot-afford", "Recruit")
    after = play(state, "recruit left 2")
    assert after.castles[0].gold == 0 and after.castles[0].column("wife") == (("wife", True),)
    assert after.hill[0] == ("farmer", "duke", "countess", "knight-A", "farmer")
    assert after.phase == "summon"
    refused(after, "recruit left 1", "wrong-phase", "Recruit")


def test_recruit_subjects_only_and_a_jesters_column_at_once():
    state = table(phase="recruit", turn=2, castles=(Castle(gold=20), Castle()))
    refused(state, "recruit right 6", "not-a-subject", "Recruit")
    refused(state, "recruit right 5", "jester-needs-column", "Recruit")
    refused(state, "recruit right 4 as duke", "not-a-jester", "Recruit")
    after = play(state, "recruit right 5 as countess")
    assert after.castles[0].column("countess") == (("jester", True),)
    assert after.castles[0].gold == 12
    short = evolve(state, hill=(("farmer",), HILL[1]))
    refused(short, "recruit left 2", "no-tile-there", "Recruit")


def test_hill_prices_option_r4():
    state = GAME.setup(PLAYERS[:2], GAME.check_options({"hill_prices": [1, 1, 1, 1, 1, 9]}),
                       None)
    state = evolve(table(phase="recruit", turn=2), prices=state.prices)
    assert play(state, "recruit left 5").castles[0].gold == 1


# --------------------------------------------------------------------------------------------
# Phase 3: kingdom bonus


def full_house(**extra) -> Castle:
    columns = dict(queen=["queen"], duke=["jester", "duke"], countess=["countess"],
                   knight=["knight-A"], farmer=["farmer"], wife=["wife"])
    columns.update(extra)
    return castle(**columns)


def test_kingdom_bonus_turns_five_values_down():
    state = table(phase="kingdom", castles=(full_house(), Castle()))
    assert {"kingdom farmer", "kingdom wife", "refill left", "refill right"} == legal_texts(state)
    with pytest.raises(AmbiguousMove):
        GAME.parse(state, "kingdom", "Ann")
    after = play(state, "kingdom wife")
    ann = after.castles[0]
    assert ann.gold == 7 and ann.kingdoms == 1
    assert ann.column("duke") == (("jester", True), ("duke", False))  # real first
    assert ann.column("farmer") == (("farmer", True),)
    assert ann.column("wife") == (("wife", False),)
    refused(after, "kingdom farmer", "one-kingdom-per-turn", "Kingdom bonus")
    assert legal_texts(after) == {"refill left", "refill right"}


def test_kingdom_needs_all_five_values_jesters_standing_in():
    no_queen = full_house(queen=[])
    state = table(phase="kingdom", castles=(no_queen, Castle()))
    refused(state, "kingdom farmer", "kingdom-incomplete", "Kingdom bonus")
    jester_queen = table(phase="kingdom", castles=(full_house(queen=["jester"], wife=[]),
                                                   Castle()))
    event = GAME.parse(jester_queen, "kingdom", "Ann")
    assert event["column"] == "farmer"
    assert play(jester_queen, "kingdom").castles[0].kingdoms == 1
    refused(jester_queen, "kingdom wife", "kingdom-incomplete")


def test_at_most_six_kingdom_bonuses_r7():
    state = table(phase="kingdom", castles=(full_house(), castle(kingdoms=6)))
    refused(state, "kingdom farmer", "no-kingdom-tokens", "R-7")
    assert legal_texts(state) == {"refill left", "refill right"}


# --------------------------------------------------------------------------------------------
# Phase 4: replenish, the end, scoring


def test_refill_in_the_order_passed_from_the_chosen_column():
    state = play(table(kings=("a1", "e5"), valley="""
farmer  wife farmer wife farmer
farmer  wife farmer wife farmer
farmer  wife farmer wife farmer
farmer  wife farmer wife farmer
duke    wife farmer wife farmer
"""), "move a1 a5 take farmer")
    after = play(state, "refill right")
    assert [after.valley[sq(s)] for s in ("a2", "a3", "a4")] == ["queen", "farmer", "wife"]
    assert after.hill[1] == ("knight-B", "jester", "priest")
    assert after.awaiting == (26, 26, 26) and after.phase == "reveal"
    after = play(after, "reveal knight-C farmer wife")
    assert after.hill[1] == ("knight-B", "jester", "priest", "knight-C", "farmer", "wife")
    assert after.player == "Bob" and after.phase == "summon"


def test_refill_continues_from_the_other_column_and_new_tiles_go_left_first_r9_r14():
    state = play(table(kings=("a1", "e5"), hill=(("duke",), HILL[1]), valley="""
farmer  wife farmer wife farmer
farmer  wife farmer wife farmer
farmer  wife farmer wife farmer
farmer  wife farmer wife farmer
duke    wife farmer wife farmer
"""), "move a1 a5 take farmer")
    after = play(state, "refill left")
    assert [after.valley[sq(s)] for s in ("a2", "a3", "a4")] == ["duke", "queen", "farmer"]
    assert after.hill == ((), ("wife", "knight-B", "jester", "priest"))
    assert after.awaiting == (25,) * 6 + (26,) * 2
    after = play(after, "reveal farmer farmer farmer farmer farmer farmer wife wife")
    assert after.hill[0] == ("farmer",) * 6 and after.hill[1][-2:] == ("wife", "wife")


def _late_game(active_turn: int, left_in_piles: int = 1):
    piles = virtual_piles(("A", "B", "C", "D"))
    seen = (piles[0], piles[1], piles[2][:31 - left_in_piles])
    return table(turn=active_turn, seen=seen, phase="recruit" if active_turn >= 2 else "summon",
                 kings=("e1", "c3"))


def test_the_end_is_triggered_when_the_hill_cannot_be_filled_and_the_round_completed():
    state = play(_late_game(2), "move e1 e4 take knight", "refill left")
    assert state.end_triggered and state.awaiting == (25,)
    last = virtual_piles(("A", "B", "C", "D"))[2][30]
    state = play(state, f"reveal {last}")
    assert state.player == "Bob" and state.phase == "recruit"  # Bob still plays this round
    assert len(state.hill[0]) == 5
    state = play(state, "move c3 c1", "refill left")
    assert GAME.finished(state) and state.phase == "over"
    assert state.turn == 4  # both played 2 turns
    refused(state, "refill left", "game-over")
    sheet = GAME.score(state)
    assert sheet.finished and sheet.outcome.startswith("Game over after 2 rounds")


def test_the_game_ends_at_once_when_the_starting_player_would_be_next():
    state = play(_late_game(3, left_in_piles=0), "move c3 c1", "refill left")
    assert state.end_triggered and state.turn == 4
    assert GAME.finished(state) and GAME.to_act(state).players == ()
    assert GAME.legal(state) == []


def test_when_the_hill_runs_dry_squares_stay_empty_r16():
    state = table(kings=("e1", "c3"), hill=(("duke",), ()), end_triggered=True,
                  seen=virtual_piles(("A", "B", "C", "D")))
    after = play(state, "move e1 e4 take knight", "refill right")
    assert after.valley[sq("e2")] == "duke" and after.valley[sq("e3")] is None
    assert after.player == "Bob"
    bob = after
    assert "move c3 e3" not in legal_texts(bob)  # nothing to summon there
    refused(bob, "move c3 e3", "empty-square")


def test_scoring_categories_and_tie_breaks_r10():
    rich = castle(gold=7, kingdoms=2,
                  queen=["queen"], knight=["knight-A"] * 5 + ["knight-B"] * 4 + ["knight-C"] * 3
                  + ["knight-D"] * 2 + ["jester"], farmer=["~farmer", "farmer", "farmer",
                                                         "jester"], wife=["wife", "wife"])
    state = table(castles=(rich, castle(gold=3, duke=["duke"])))
    sheet = GAME.score(state)
    ann = dict(sheet.rows[0].categories)
    assert ann == {"Influence": 5 + 14 * 2 + 3 + 2, "Kingdom points": 10, "Order points": 16,
                   "Couple points": 4, "Gold": 7}
    assert sheet.rows[0].total == 38 + 10 + 16 + 4 + 7
    assert not sheet.finished and sheet.rows[0].result == "1st so far"
    # Equal totals: influence decides; equal influence too: a shared place.
    tie = table(castles=(castle(gold=1, queen=["queen"]), castle(gold=2, duke=["duke"]),
                         castle(gold=1, queen=["queen"])), kings=("a1", "b1", "c1"),
                phase="over")
    sheet = GAME.score(tie)
    assert [r.place for r in sheet.rows] == [1, 3, 1]
    assert sheet.winners == ("Ann", "Cy") and sheet.rows[0].result == "shared 1st"
    assert "share the crown" in sheet.outcome
    assert "Ties: highest influence; then shared place." in render_text(sheet)


def test_blank_scoresheet_has_every_category():
    sheet = GAME.blank_scoresheet({})
    assert sheet.blank and len(sheet.rows) == 4
    assert sheet.category_names == ["Influence", "Kingdom points", "Order points",
                                    "Couple points", "Gold"]


def test_describe_names_priests_specialists_and_what_is_left_to_do():
    state = table(PRIESTS, kings=("c1", "a5"))
    event = GAME.parse(state, "move c1 c3 e5", "Ann")
    lines = GAME.describe(state, event, GAME.apply(state, event))
    assert lines[0] == "Ann: move c1 c3 e5"
    assert "Ann's gold: 2 -> 1" in lines and "Ann's castle gains countess" in lines
    assert "Priest(s) visited on c3: 1 gold left on each square" in lines
    taxes = table(TAXES, kings=("c1", "a5"))
    event = GAME.parse(taxes, "move c1 c2", "Ann")
    assert "Used and discarded: tax-4" in GAME.describe(taxes, event, GAME.apply(taxes, event))
    pending = evolve(taxes, kings=(sq("c2"), sq("a5")),
                      castles=(castle(farmer=["farmer"] * 3), Castle()))
    event = GAME.parse(pending, "move c2 c3", "Ann")
    assert "Now place or activate, in this order: tax-3-5" in \
        GAME.describe(pending, event, GAME.apply(pending, event))


def test_landing_on_a_priest_behind_taken_tiles_leaves_it_r11():
    state = table("""
farmer wife priest wife countess
wife countess farmer queen wife
farmer knight-A farmer wife farmer
wife farmer countess knight-B wife
duke wife farmer countess queen
""", kings=("c2", "a1"))
    after = play(state, "move c2 c5 take farmer")
    assert after.valley[sq("c5")] == "priest" and after.kings[0] == sq("c5")
    assert after.castles[0].gold == 2 and after.discard == ()
    # Bob may not visit the priest under Ann's king.
    bob = evolve(play(after, "refill left", "reveal farmer farmer"), kings=(sq("c5"), sq("c3")))
    assert bob.player == "Bob"
    assert not any(t.startswith("move c3 c5") for t in legal_texts(bob))
    refused(bob, "move c3 c5 a5", "under-a-king")


def test_new_hill_tiles_come_from_pile_two_then_three_r8():
    piles = virtual_piles(("A", "B", "C", "D"))
    state = table(seen=(piles[0], piles[1][:29], ()), phase="reveal", awaiting=(25, 25))
    after = play(state, "reveal farmer priest")
    assert after.seen[1][-1] == "farmer" and after.seen[2] == ("priest",)
    assert after.unrevealed() == (0, 0, 30)
    # Pile II's own priest is already out: a second one there is refused, in III it is fine.
    refused(state, "reveal priest", "box-count", "R-2")


def test_only_face_up_subjects_go_to_the_wizard_r17():
    ann = castle(duke=["~duke"], farmer=["farmer"])
    state = play(table(WIZARDS, kings=("c1", "a5"), castles=(ann, Castle())), "move c1 c3")
    refused(state, "wizard duke for right 1", "not-in-castle", "Wizard")
    assert {t.split(" for ")[0] for t in legal_texts(state)} == {"wizard farmer"}


def test_knights_of_all_orders_are_identical_for_taxes_and_tokens_do_not_run_out_r18():
    ann = castle(knight=["knight-A", "knight-B", "knight-C"])
    others = tuple(castle(taxed=("queen", "duke", "countess")) for _ in range(2))
    state = table(TAXES, kings=("c2", "a5", "a1"), castles=(ann,) + others)
    after = play(state, "move c2 c3")
    assert legal_texts(after) == {"tax knight"}
    done = play(after, "tax knight")  # 7 tax tokens in play now: the referee does not mind
    assert done.castles[0].gold == 7 and done.castles[0].column("knight")[0] == ("knight-A", False)


def test_first_tiles_of_virtual_piles_fit_the_box_as_counting_says():
    """`first_of_virtual_piles`, which a replay asks in place of counting the box, is never
    wrong: at every reveal of random --shuffle games, and for tiles that are not the piles'."""
    import random

    from referee.games.king_of_the_valley.components import first_of_virtual_piles
    from referee.simulate import play_out

    for seed in range(6):
        playout = play_out(GAME, seed, list(PLAYERS[:2 + seed % 2]))
        state = playout.setup.state
        for event in playout.events:
            state = apply_event(GAME, state, event, PLAYERS)
            assert state.virtual is not None
            assert first_of_virtual_piles(state.seen, state.virtual)
            assert pile_problems(state.seen) is None
    rng = random.Random(1)
    for _ in range(200):
        piles = tuple(tuple(rng.sample(p, len(p))) for p in virtual_piles(("A", "B", "C", "D")))
        seen = tuple(p[:rng.randrange(len(p) + 1)] for p in piles)
        assert first_of_virtual_piles(seen, piles)
        assert pile_problems(seen) is None
    assert not first_of_virtual_piles((("queen",) * 2, (), ()), piles)
    assert not first_of_virtual_piles(((),) * 3, (("priest", "priest"), (), ()))


def test_rays_and_the_squares_between_follow_the_valley_step_by_step():
    """`ray` and `between`, worked out by arithmetic: every ray walks one step at a time to the
    edge, and the squares between two squares are those a ray passes before the second."""
    from referee.games.king_of_the_valley.components import DIRECTIONS, SIZE, between, ray

    on_a_line = set()
    for square in range(SIZE * SIZE):
        for across, up in DIRECTIONS:
            line = ray(square, (across, up))
            col, row, walked = square % SIZE + across, square // SIZE + up, []
            while 0 <= col < SIZE and 0 <= row < SIZE:
                walked.append(row * SIZE + col)
                col, row = col + across, row + up
            assert line == tuple(walked)
            for index, end in enumerate(line):
                assert between(square, end) == line[:index]
                on_a_line.add((square, end))
    assert len(on_a_line) == 320  # the others are on no line, or the same square
    for start in range(SIZE * SIZE):
        for end in range(SIZE * SIZE):
            if (start, end) not in on_a_line:
                assert between(start, end) is None
