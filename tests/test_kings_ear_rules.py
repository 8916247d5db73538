"""The King's Ear: every rule and ruling (R-1..R-8) of shared/rules/kings-ear.md."""

from __future__ import annotations


import pytest

from referee.engine import Event, Player, apply_event
from referee.errors import IllegalMove, NotationError, UsageError
from referee.evolve import evolve
from referee.games.kings_ear import GAME
from referee.games.kings_ear.components import PENDING, PILE, card_ids
from referee.games.kings_ear.notation import card_name
from referee.games.kings_ear.state import State

ANN, BEN, CAT = Player("Ann", "Horse"), Player("Ben", "Pig"), Player("Cat", "Stag")
THREE = (ANN, BEN, CAT)


def start(players=THREE, seed=None, **options) -> State:
    return GAME.setup(players, options, seed)


def play(state: State, *moves: str, players=THREE, by: str | None = None) -> State:
    for move in moves:
        player = by or (GAME.to_act(state).players or (None,))[0]
        event = GAME.parse(state, move, player)
        state = apply_event(GAME, state, event, players)
    return state


def board(state: State, layout: dict[str, str], turn: int = 0) -> State:
    """A state with the named cards lying under the named Houses (for targeted rule tests)."""
    ids = card_ids(state.houses)
    where = list(state.where)
    for name, house in layout.items():
        where[ids[name]] = state.houses.index(house)
    return evolve(state, where=tuple(where), turn=turn, drawn=sum(h != PILE for h in where))


def illegal(state: State, move: str, code: str, players=THREE, by: str | None = None):
    with pytest.raises(IllegalMove) as info:
        play(state, move, players=players, by=by)
    assert info.value.code == code, info.value.message
    return info.value


# ---- scoring: the source's own example and R-4 ---------------------------------------------

def test_worked_example_horse_army_4_plus_3_minus_pig_4_is_3():
    s = play(start(), "draw Horse Army 4",          # Ann: own card, placed at once
             "draw Horse Religion 1", "place Stag",   # Ben
             "draw Pig Army 4", "place Horse",        # Cat puts Pig Army 4 under Horse
             "draw Horse Army 3")                     # Ann again
    assert s.net(0, 1) == 3
    sheet = GAME.score(s)
    ann = sheet.rows[0]
    assert dict(ann.categories)["Army"] == 3 and dict(ann.details)["Ladder"] == "R0 A3 T0 F0"


def test_r4_net_may_be_negative_and_ladder_shows_zero():
    s = board(start(), {"Pig Army 4": "Horse", "Horse Army 1": "Horse"})
    assert s.net(0, 1) == -3
    row = GAME.score(s).rows[0]
    assert dict(row.categories)["Army"] == -3
    assert dict(row.details)["Ladder"] == "R0 A0 T0 F0"


# ---- drawing -----------------------------------------------------------------------------

def test_own_house_draw_is_placed_automatically_and_locked():
    s = play(start(), "draw HA2")
    ids = card_ids(s.houses)
    assert s.where[ids["Horse Army 2"]] == 0 and s.pending is None
    assert GAME.to_act(s).players == ("Ben",)
    later = board(s, {"Horse Farming 1": "Pig"}, turn=1)
    err = illegal(later, "trade Horse give Horse Farming 1 take Horse Army 2", "locked-card",
                  by="Ben")
    assert err.rule == "Locked cards"


def test_foreign_draw_waits_for_a_place_or_trade():
    s = play(start(), "draw Pig Army 3")
    assert s.pending == card_ids(s.houses)["Pig Army 3"]
    assert GAME.to_act(s).prompt == "place or trade the drawn Pig Army 3"
    assert [GAME.format(s, e) for e in GAME.legal(s)] == ["place Stag", "place Boar"]
    illegal(s, "draw Stag Army 1", "pending-card")
    illegal(s, "pass", "pending-card")


@pytest.mark.parametrize("house,code", [("Pig", "place-own-card-house"),
                                        ("Horse", "place-own-house")])
def test_place_only_under_a_third_house(house, code):
    s = play(start(), "draw Pig Army 3")
    assert illegal(s, f"place {house}", code).rule == "Turn (1b)"


def test_place_without_a_drawn_card_is_rejected():
    illegal(start(), "place Stag", "no-pending")


def test_card_conservation_a_card_reported_twice_is_rejected():
    s = play(start(), "draw PA3", "place Stag")
    err = illegal(s, "draw PA3", "card-seen", by="Ben")
    assert "Pig Army 3" in err.message and "Stag" in err.message


def test_r5_empty_pile_no_draw_but_trades_continue():
    s = evolve(start(), drawn=64)
    assert illegal(s, "draw HA1", "pile-empty").rule == "R-5"
    crowded = evolve(board(start(), {"Stag Army 1": "Horse", "Horse Army 1": "Stag"}), drawn=64)
    moves = [GAME.format(crowded, e) for e in GAME.legal(crowded)]
    assert moves == ["trade Stag give Stag Army 1 take Horse Army 1"]


# ---- trades after a draw (1b) ------------------------------------------------------------

def draw_trade_state() -> State:
    s = board(start(), {"Horse Religion 1": "Pig", "Horse Trade 2": "Pig", "Stag Farming 1": "Pig",
                        "Horse Farming 4": "Stag", "Pig Army 2": "Pig"})
    return play(s, "draw Boar Army 3")


def test_draw_trade_takes_exactly_the_drawn_value_with_an_own_card():
    s = draw_trade_state()
    moves = {GAME.format(s, e) for e in GAME.legal(s)}
    assert "trade Pig take Horse Religion 1, Horse Trade 2" in moves
    assert "trade Pig take Horse Trade 2, Stag Farming 1" in moves
    assert "trade Pig take Horse Religion 1, Stag Farming 1" not in moves  # only 2, not 3
    after = play(s, "trade Pig take HR1, HT2")
    ids = card_ids(s.houses)
    assert after.where[ids["Boar Army 3"]] == 1  # the drawn card goes under Pig
    assert after.where[ids["Horse Religion 1"]] == 0 and after.where[ids["Horse Trade 2"]] == 0
    assert after.net(0, 0) == 1 and after.net(1, 1) == 2 - 3


def test_draw_trade_must_be_exact():
    assert illegal(draw_trade_state(), "trade Pig take HT2", "inexact-trade").rule == "Turn (1b)"


def test_draw_trade_needs_an_own_house_card():
    s = board(start(), {"Stag Farming 1": "Pig", "Boar Trade 2": "Pig"})
    s = play(s, "draw Boar Army 3")
    assert illegal(s, "trade Pig take SF1, BT2", "no-own-card").rule == "Trade"


def test_draw_trade_cannot_take_locked_cards():
    illegal(draw_trade_state(), "trade Pig take Pig Army 2, Horse Religion 1", "locked-card")


def test_draw_trade_gives_only_the_drawn_card():
    illegal(draw_trade_state(), "trade Pig give SF1 take HR1, HT2", "give-after-draw")


def test_draw_trade_not_with_own_house_and_only_cards_under_the_partner():
    s = draw_trade_state()
    illegal(s, "trade Horse take HR1, HT2", "trade-own-house")
    illegal(s, "trade Stag take HR1, HT2", "not-on-board")


def test_draw_trade_into_the_cards_own_house_locks_it():
    s = board(start(), {"Horse Religion 2": "Boar"})
    s = play(s, "draw Boar Army 2", "trade Boar take HR2")
    ids = card_ids(s.houses)
    assert s.where[ids["Boar Army 2"]] == 3 and s.net(3, 1) == 2


# ---- option (2) trades and R-3 -------------------------------------------------------------

def trade_state() -> State:
    return board(start(), {"Stag Army 2": "Horse", "Pig Trade 1": "Horse",
                           "Horse Religion 2": "Pig", "Horse Religion 1": "Pig",
                           "Boar Army 3": "Pig", "Horse Farming 2": "Boar"})


def test_equal_trade_moves_cards_each_to_its_profession():
    s = play(trade_state(), "trade Pig give Stag Army 2 take Horse Religion 2")
    ids = card_ids(s.houses)
    assert s.where[ids["Stag Army 2"]] == 1 and s.where[ids["Horse Religion 2"]] == 0
    assert s.net(0, 0) == 2 and s.net(1, 1) == -3 - 2  # Boar Army 3 was there already


def test_equal_trades_are_enumerated_exactly():
    s = trade_state()
    moves = {GAME.format(s, e) for e in GAME.legal(s) if e.type == "trade"}
    assert moves == {
        "trade Pig give Pig Trade 1 take Horse Religion 1",
        "trade Pig give Stag Army 2 take Horse Religion 2",
        "trade Pig give Pig Trade 1, Stag Army 2 take Horse Religion 1, Horse Religion 2",
        "trade Boar give Stag Army 2 take Horse Farming 2",
    }


def test_r3_unequal_trade_needs_agreement_of_a_seated_partner():
    s = trade_state()
    err = illegal(s, "trade Pig give Stag Army 2 take Horse Religion 1", "unequal-not-agreed")
    assert err.rule == "R-3" and "Ben" in err.message
    after = play(s, "trade Pig give Stag Army 2 take Horse Religion 1 agreed")
    assert after.net(0, 0) == 1
    assert illegal(s, "trade Boar give Pig Trade 1 take Horse Farming 2 agreed",
                   "unequal-unseated").rule == "R-3"


def test_r3_agreed_on_an_equal_trade_is_dropped_from_the_canonical_event():
    s = trade_state()
    event = GAME.parse(s, "trade Pig give SA2 take HR2 agreed", "Ann")
    assert event.get("agreed") is None
    assert GAME.format(s, event) == "trade Pig give Stag Army 2 take Horse Religion 2"


@pytest.mark.parametrize("move,code", [
    ("trade Pig give Horse Farming 2 take Horse Religion 2", "not-yours"),
    ("trade Pig take Horse Religion 2", "nothing-given"),
    ("trade Pig give Stag Army 2 take Boar Army 3 agreed", "no-own-card"),
    ("trade Horse give Stag Army 2 take Pig Trade 1 agreed", "trade-own-house"),
])
def test_option_two_trade_conditions(move, code):
    illegal(trade_state(), move, code)


def test_option_two_cannot_give_a_locked_card():
    s = board(trade_state(), {"Horse Army 2": "Horse"})
    illegal(s, "trade Pig give Horse Army 2 take Horse Religion 2", "locked-card")


def test_legal_note_mentions_unequal_trades():
    assert "agreed" in GAME.legal_note(trade_state())
    assert GAME.legal_note(start()) == ""


# ---- winning ----------------------------------------------------------------------------

def nine_in_horse_army() -> dict[str, str]:
    return {"Horse Army 4": "Horse", "Horse Army 3": "Horse", "Horse Army 2": "Horse"}


def test_acting_player_reaching_10_wins():
    s = play(board(start(), nine_in_horse_army()), "draw Horse Army 1")
    assert s.finished and s.winner == 0
    sheet = GAME.score(s)
    assert sheet.winners == ("Ann",) and sheet.rows[0].result == "winner"
    assert GAME.legal(s) == [] and GAME.to_act(s).players == ()
    with pytest.raises(IllegalMove) as info:
        apply_event(GAME, s, Event.make("pass", "Ben"), THREE)
    assert info.value.code == "game-over"


def test_another_seated_house_reaching_10_wins_for_its_player():
    # Ann draws Pig Farming 1 and trades it to Pig, which completes Pig Farming.
    s = board(start(), {"Pig Farming 4": "Pig", "Pig Farming 3": "Pig", "Pig Farming 2": "Pig",
                        "Horse Religion 1": "Pig"})
    s = play(s, "draw Pig Farming 1", "trade Pig take Horse Religion 1")
    assert s.winner == 1 and GAME.score(s).winners == ("Ben",)


def test_simultaneous_10_goes_to_the_player_whose_turn_it_is():
    layout = {"Pig Farming 4": "Pig", "Pig Farming 3": "Pig", "Pig Farming 2": "Pig",
              "Horse Army 1": "Pig", **nine_in_horse_army()}
    s = play(board(start(), layout), "draw Pig Farming 1", "trade Pig take Horse Army 1")
    assert 10 in s.nets(0) and 10 in s.nets(1)
    assert s.winner == 0


def test_r2_unclaimed_house_can_receive_cards_but_never_wins():
    two = (ANN, BEN)
    s = board(start(two), {"Boar Religion 4": "Boar", "Boar Religion 3": "Boar",
                           "Boar Religion 2": "Boar", "Horse Trade 1": "Boar"})
    s = play(s, "draw Boar Religion 1", "trade Boar take Horse Trade 1", players=two)
    assert s.net(3, 0) == 10
    assert not s.finished and GAME.to_act(s).players == ("Ben",)
    rows = GAME.score(s).rows
    assert [r.seat for r in rows] == ["Horse", "Pig", "Stag", "Boar"]
    assert rows[3].name is None and rows[3].result == "unclaimed"


# ---- pass, end and ranking (R-6, R-7, R-8) --------------------------------------------------

def test_r6_pass_only_without_a_legal_action():
    assert illegal(start(), "pass", "pass-not-allowed").rule == "R-6"
    tradeable = evolve(board(start(), {"Stag Army 1": "Horse", "Horse Army 1": "Stag"}), drawn=64)
    illegal(tradeable, "pass", "pass-not-allowed")


def test_r6_a_full_round_of_passes_with_an_empty_pile_ends_without_a_winner():
    s = evolve(start(), drawn=64)
    assert [e.type for e in GAME.legal(s)] == ["pass"]
    s = play(s, "pass", "pass")
    assert not s.finished
    s = play(s, "pass")
    assert s.finished and s.winner is None and "R-6" in s.ended


def test_r6_an_action_between_passes_restarts_the_round():
    s = evolve(board(start(), {"Stag Army 1": "Pig", "Pig Army 1": "Stag"}), drawn=64)
    s = play(s, "pass", "trade Stag give Stag Army 1 take Pig Army 1")
    assert s.passes == 0
    s = play(s, "pass", "pass", "pass")
    assert s.finished


def test_r7_the_table_may_end_the_game_at_any_time():
    s = play(start(), "draw PA3", "end the cafe closed")
    assert GAME.over(s) and GAME.stopped(s) == "the cafe closed" and not s.finished
    sheet = GAME.scoresheet(s)  # scored as it stands, incomplete, no winner
    assert not sheet.finished and sheet.winners == ()
    assert sheet.outcome.startswith("Incomplete: stopped by the table (the cafe closed)")


def test_r8_ranking_best_net_then_sum_then_shared_place():
    s = board(start(), {"Horse Army 4": "Horse", "Pig Army 4": "Pig", "Pig Trade 1": "Pig",
                        "Stag Farming 4": "Stag"})
    s = play(s, "end stop")
    places = {r.name: (r.place, r.result) for r in GAME.scoresheet(s).rows if r.name}
    assert places == {"Ben": (1, "1st so far"), "Ann": (2, "shared 2nd so far"),
                      "Cat": (2, "shared 2nd so far")}


def test_a_game_ended_without_a_house_at_10_has_no_winner_but_keeps_its_places():
    """R-6 and R-8: nobody wins a game stopped by the table or ended by a round of passes;
    R-8 only ranks the players."""
    s = board(start(), {"Horse Army 4": "Horse", "Pig Army 4": "Pig", "Pig Trade 1": "Pig"})
    stopped = GAME.scoresheet(play(s, "end stop"))
    assert not stopped.finished and stopped.winners == ()  # incomplete
    assert [(r.name, r.place, r.result) for r in stopped.rows if r.name] == [
        ("Ann", 2, "2nd so far"), ("Ben", 1, "1st so far"),
        ("Cat", 3, "3rd so far")]
    passed = GAME.score(play(evolve(s, drawn=64), "pass", "pass", "pass"))
    assert passed.finished and passed.winners == () and "R-6" in passed.outcome
    assert {r.name: r.place for r in passed.rows if r.name} == {"Ann": 2, "Ben": 1, "Cat": 3}


def test_standing_places_while_in_progress():
    rows = GAME.score(start()).rows
    assert {r.result for r in rows if r.name} == {"shared 1st so far"}
    assert GAME.score(start()).winners == ()


# ---- R-1 Houses, seats, set-up ----------------------------------------------------------

def test_r1_houses_can_be_renamed_and_short_forms_follow():
    players = (Player("Ann", "Wolf"), Player("Ben", "Eagle"))
    s = start(players, houses=["Wolf", "Eagle", "Lion", "Bear"])
    s = play(s, "draw EA3", players=players)
    assert GAME.format(s, GAME.legal(s)[0]) == "place Lion"


@pytest.mark.parametrize("houses", [["Horse", "Pig"], ["Horse", "Hog", "Stag", "Boar"],
                                    ["Horse", "horse", "Stag", "Boar"],
                                    ["Horse", "Pig 2", "Stag", "Boar"]])
def test_r1_bad_house_names_are_refused(houses):
    with pytest.raises(UsageError):
        GAME.check_options({"houses": houses})


def test_seats_default_to_the_free_houses_in_order_and_must_differ():
    seated = GAME.seat_players([Player("Ann"), Player("Ben", "horse")], GAME.default_options())
    assert [p.seat for p in seated] == ["Pig", "Horse"]
    with pytest.raises(UsageError):
        GAME.seat_players([Player("Ann", "Pig"), Player("Ben", "pig")], GAME.default_options())
    with pytest.raises(UsageError):
        GAME.seat_players([Player("Ann")], GAME.default_options())
    with pytest.raises(UsageError):
        GAME.seat_players([Player("Ann", "Cow"), Player("Ben")], GAME.default_options())


# ---- the virtual pile (--shuffle --seed) ------------------------------------------------

def test_shuffled_pile_draw_needs_no_card_and_checks_the_order():
    s = start(seed=7)
    event = GAME.parse(s, "draw", "Ann")
    first = card_name(s, s.deck[0])
    assert event["card"] == first
    other = next(n for n in card_ids(s.houses) if n != first)
    with pytest.raises(IllegalMove) as info:
        apply_event(GAME, s, Event.make("draw", "Ann", card=other), THREE)
    assert info.value.code == "not-next-card"
    assert [GAME.format(s, e) for e in GAME.legal(s)] == [f"draw {first}"]


def test_a_shuffled_pile_refuses_every_named_draw_in_the_same_words():
    """T7: `draw CARD` was refused only when CARD was not the pile's next, so the player to act
    could try the cards one by one (nothing recorded) and know the next card before choosing
    to draw or to trade. Every named draw is refused alike now, the next card too."""
    s = start(seed=7)
    said = set()
    for name in card_ids(s.houses):
        with pytest.raises(IllegalMove) as refused:
            GAME.parse(s, f"draw {name}", "Ann")
        said.add((refused.value.code, refused.value.message, refused.value.rule))
    assert said == {("tool-draws", "the tool draws from its shuffled pile: type `draw` alone, "
                     "without a card", "Virtual pile")}
    assert GAME.parse(s, "draw", "Ann")["card"] == card_name(s, s.deck[0])


def test_a_named_draw_on_a_shuffled_pile_prints_the_same_whatever_the_card(cli):
    assert cli("new", "kings-ear", "-p", "Ann:Horse", "-p", "Ben:Pig", "--seed", "7").status == 0
    before = (cli.path / "game.toml").read_bytes()
    s = start(seed=7)
    following = card_name(s, s.deck[0])
    other = next(n for n in card_ids(s.houses) if n != following)
    right, wrong = cli("play", "draw", *following.split()), cli("play", "draw", *other.split())
    assert right.status == wrong.status == 1 and right.err == wrong.err and right.out == wrong.out
    assert following not in right.err and (cli.path / "game.toml").read_bytes() == before


def test_physical_draw_needs_a_card():
    with pytest.raises(NotationError):
        GAME.parse(start(), "draw", "Ann")


# ---- notation -----------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["draw Pig Army 3", "DRAW pa3", "dra pig a 3", "draw p arm 3"])
def test_card_notation_is_forgiving(text):
    assert GAME.parse(start(), text, "Ann") == Event.make("draw", "Ann", card="Pig Army 3")


@pytest.mark.parametrize("text,error", [
    ("", NotationError), ("dance", NotationError), ("p", NotationError), ("pa", NotationError),
    ("draw Pig Army 5", NotationError), ("draw Pig Army", NotationError),
    ("draw Cow Army 3", NotationError), ("draw PX3", NotationError),
    ("place", NotationError), ("pass now", NotationError), ("place Stag now", NotationError),
    ("trade Pig give HR1", NotationError), ("trade Pig take", NotationError),
    ("trade Pig swap HR1 take HR2", NotationError), ("trade Pig take HR1, HR1", NotationError),
])
def test_bad_notation_is_a_clean_error_naming_the_input(text, error):
    with pytest.raises(error) as info:
        GAME.parse(start(), text, "Ann")
    assert info.value.message


def test_canonical_forms_and_lists_with_and():
    s = trade_state()
    e = GAME.parse(s, "trade pig give PT1 and SA2 take hr1, HR2", "Ann")
    assert GAME.format(s, e) == ("trade Pig give Pig Trade 1, Stag Army 2 take Horse Religion 1, "
                                 "Horse Religion 2")
    assert GAME.format(s, GAME.parse(s, "end", None)) == "end stopped by the table"


def test_option_lines_fold_the_unseen_draws():
    lines = GAME.option_lines(start(), GAME.legal(start()))
    assert lines == ["draw CARD    (the card you drew: one of the 64 cards not seen yet)"]


def test_unknown_card_or_house_in_a_logged_event_is_illegal():
    with pytest.raises(IllegalMove) as info:
        apply_event(GAME, start(), Event.make("draw", "Ann", card="Pig Army 9"), THREE)
    assert info.value.code == "unknown-card"
    s = play(start(), "draw PA3")
    with pytest.raises(IllegalMove) as info:
        apply_event(GAME, s, Event.make("place", "Ann", house="Cow"), THREE)
    assert info.value.code == "unknown-house"


def test_turn_order_is_enforced():
    with pytest.raises(IllegalMove) as info:
        apply_event(GAME, start(), Event.make("draw", "Ben", card="Pig Army 3"), THREE)
    assert info.value.code == "not-your-turn"


# ---- what the referee shows ---------------------------------------------------------------

def test_render_shows_sections_locked_cards_pile_and_turn():
    s = play(start(), "draw HA4", "draw SA3")
    text = GAME.render(s)
    assert "HA4*" in text and "Pile: 62 card(s)" in text
    assert "Drawn, waiting: Stag Army 3" in text and "To act: Ben" in text
    assert "Stag (Cat)" in text and "Boar (unclaimed)" in text


def test_describe_names_the_changes():
    s = start()
    after = play(s, "draw HA4")
    lines = GAME.describe(s, GAME.parse(s, "draw HA4", "Ann"), after)
    assert lines[0] == "Ann: draw Horse Army 4"
    assert "Horse Army: 0 -> 4" in lines


def test_inventory_accounts_for_all_64_cards():
    s = play(start(), "draw HA4", "draw SA3")
    inv = GAME.inventory(s)
    assert sum(inv.values()) == 64 and inv["drawn, waiting"] == 1 and inv["under Horse"] == 1
    assert s.where.count(PENDING) == 1


def test_rules_text_names_every_ruling():
    text = GAME.rules()
    for n in range(1, 9):
        assert f"R-{n}" in text


def test_the_table_may_note_a_remark_at_any_time():
    s = play(start(), "draw PA3")
    event = GAME.parse(s, "note break for dinner", "Ann")
    assert event.by is None and GAME.format(s, event) == "note break for dinner"
    assert apply_event(GAME, s, event, THREE) == s
    with pytest.raises(NotationError):
        GAME.parse(s, "note", None)
