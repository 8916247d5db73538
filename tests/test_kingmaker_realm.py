"""Kingmaker's heirs and Kings (§8), crown cards and transfers (§5.3, §5.4), death and No
Elimination (§9), the clock and the victories (§10, R-49..R-51), and what the table is shown."""

from __future__ import annotations

import datetime as dt

import pytest

from referee.engine import Player, apply_event
from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.games.kingmaker import GAME, rules
from referee.games.kingmaker.state import CHANCERY, DISCARD
from tests.kingmaker_realm import (
    THREE,
    at_phase,
    calm,
    dead,
    dealt_game,
    event,
    give,
    heir,
    illegal,
    in_deck,
    mover,
    own,
    play,
    put,
    ship,
    siege,
)


def realm(**deals):
    return dealt_game({"Ann": deals.get("Ann", ["Neville", "Percy"]),
                       "Ben": deals.get("Ben", ["Clifford", "Herbert"]),
                       "Cat": deals.get("Cat", ["Talbot", "Courtenay"])},
                      **({"late": deals["late"]} if "late" in deals else {}))


def phase(state, stage, name="Ann"):
    return at_phase(state, stage, seat=state.names.index(name))


# ---- heirs -----------------------------------------------------------------------------------

def test_r46_taking_an_uncontrolled_heir():
    state = phase(put(realm(), "Percy", "in:Cardigan"), "movement")
    state = put(state, "Herbert", "near:York")
    illegal(state, "take George-of-Clarence by Herbert", "not-your-noble")
    illegal(state, "take Richard-of-York by Percy", "not-there")
    contested = put(state, "Herbert", "in:Cardigan")
    illegal(contested, "take George-of-Clarence by Percy", "contested")
    state = play(state, "take George-of-Clarence by Percy")
    assert rules.controller(state, "George of Clarence") == "Percy"
    illegal(state, "take George-of-Clarence by Percy", "controlled")
    fortress = phase(put(realm(), "Percy", "in:York"), "movement")
    illegal(fortress, "take Richard-of-York by Percy", "in-fortress")
    held = own(fortress, "York", "Percy")
    assert rules.controller(play(held, "take Richard-of-York by Percy"),
                            "Richard of York") == "Percy"


def test_execution_by_the_controller_outside_active_combat():
    state = heir(phase(realm(), "movement"), "Margaret of Anjou", by="Percy")
    illegal(state, "execute Margaret-of-Anjou", "not-yours", by="Ben")
    illegal(state, "execute Henry", "not-yours", by="Ann")
    after = play(state, "execute Margaret-of-Anjou", by="Ann")
    assert not after.heirs["Margaret of Anjou"].alive
    illegal(after, "execute Margaret-of-Anjou", "dead-heir", by="Ann")


def coronation_realm():
    state = realm(Ann=["Neville", "Percy", "Archbishop of York", "Bishop of Durham"])
    state = dead(state, "Richard of York")
    state = heir(state, "Edward of March", by="Neville")
    state = put(put(state, "Neville", "near:Salisbury"), "Percy", "near:Salisbury")
    return state


def test_coronation_needs_the_first_heir_a_cathedral_and_the_clergy():
    state = coronation_realm()
    assert rules.coronations(phase(state, "coronation", "Ben")) == []  # not Ann's turn
    state = phase(state, "coronation")
    holders = {c: rules.holder(state, c) for c in ("Archbishop of York", "Bishop of Durham")}
    assert set(holders.values()) <= {"Neville", "Percy"}
    assert rules.coronations(state) == [("Edward of March", "Salisbury")]
    illegal(state, "crown Edward-of-March at York", "not-there")
    illegal(state, "crown George-of-Clarence at Salisbury", "not-first")
    illegal(state, "crown Henry at London", "king-lives")
    elsewhere = put(state, "Neville", "near:Middleham")
    illegal(elsewhere, "crown Edward-of-March at Middleham", "no-cathedral")
    no_clergy = give(give(state, "Archbishop of York", "Percy"), "Bishop of Durham", "Percy")
    no_clergy = put(no_clergy, "Percy", "near:York")
    illegal(no_clergy, "crown Edward-of-March at Salisbury", "no-bishops")
    state = play(state, "crown Edward-of-March at Salisbury")
    assert rules.kings(state) == ["Henry", "Edward of March"] and rules.sole_king(state) is None
    assert state.stage == "draw"
    assert any("crowned at Salisbury" in text for _, text in state.chronicle)


def test_r43_present_bishops_and_the_garrison_ally():
    state = phase(coronation_realm(), "coronation")
    lent = give(give(state, "Archbishop of York", "Clifford"), "Bishop of Durham", "Clifford")
    lent = put(lent, "Clifford", "near:Salisbury")
    illegal(lent, "crown Edward-of-March at Salisbury", "no-bishops")
    present = evolve(lent, options={**lent.options, "coronation_bishops": "present"})
    assert rules.kings(play(present, "crown Edward-of-March at Salisbury"))[-1] == \
        "Edward of March"
    york = own(put(state, "Neville", "in:York"), "York", "Clifford")
    york = put(york, "Percy", "in:York")
    illegal(york, "crown Edward-of-March at York", "garrison-ally")


def test_r44_royal_guards_follow_the_kings():
    state = heir(realm(), "Henry", by="Neville")
    assert rules.guards(state) == {"Duke of Lancaster": "Neville", "Duke of York": "Neville"}
    assert rules.strength(state, "Neville") == 50 + 30 + 50
    by_house = evolve(state, options={**state.options, "royal_guard": "by-house"})
    assert rules.guards(by_house) == {"Duke of Lancaster": "Neville"}
    two = heir(heir(state, "Richard of York", by="Clifford", crowned=True), "Henry",
               by="Neville")
    assert rules.guards(two) == {"Duke of Lancaster": "Neville", "Duke of York": "Clifford"}
    assert rules.guards(realm()) == {}  # an uncontrolled King: aside


def test_8_4_heirs_off_the_mainland_and_the_calais_capture():
    state = realm(Ann=["Stanley", "Percy"])
    state = heir(state, "Richard of Gloucester", by="Percy")
    state = put(state, "Percy", "in:Calais")
    before = heir(state, "Richard of Gloucester", by=None)
    state = rules.settle(before, state)  # captured in Calais: two turns (8.4)
    assert state.heirs["Richard of Gloucester"].due == state.own.get("Ann", 0) + 2
    wight = own(realm(Ann=["Stanley", "Percy"]), "Carisbrooke", "Percy")
    wight = heir(wight, "Edward of March", by="Percy")
    before = wight
    wight = put(wight, "Percy", "in:Carisbrooke")
    wight = rules.settle(before, wight)
    assert wight.heirs["Edward of March"].due is None  # 8.4: Wight is mainland for Ann
    late = rules.settle(wight, own(wight, "Carisbrooke", None))
    assert late.heirs["Edward of March"].due is None


def test_r47_both_houses_must_be_given_up_by_the_second_own_turn():
    state = realm()
    state = heir(heir(state, "Henry", by="Neville"), "Edward of March", by="Percy")
    state = rules.settle(state, state)
    ann = state.names.index("Ann")
    assert state.both["Ann"] == state.own.get("Ann", 0) + 2
    end = evolve(at_phase(state, "draw", seat=ann), drew=True,
                  own={**state.own, "Ann": state.both["Ann"]})
    err = illegal(end, "next", "both-houses")
    assert err.rule == "R-47"
    fixed = play(end, "execute Edward-of-March", by="Ann")
    assert "Ann" not in fixed.both and play(fixed, "next").active != "Ann"


# ---- crown cards -----------------------------------------------------------------------------

def drawing(state, name="Ann"):
    return phase(state, "draw", name)


def test_drawing_nobles_and_town_cards_and_the_hand_limit():
    state = drawing(realm())
    state = play(state, "draw Stafford")
    assert state.nobles["Stafford"].owner == "Ann" and state.nobles["Stafford"].at == \
        "in:Stafford"
    illegal(state, "draw hidden", "drawn-already")
    illegal(drawing(realm()), "next", "draw-first")  # the turn ends only after the draw
    base = realm()
    town_card = in_deck(base, "town")
    place = base.entry(town_card).get("place")
    town = drawing(own(base, place, "Clifford"))
    town = play(town, f"draw {town_card}")
    assert town.cards[town_card] == "noble:Clifford"  # its fortress's controller (§8.1)
    choice = play(drawing(base), f"draw {town_card}")
    assert rules.duty(choice).kind == "place" and choice.cards[town_card] == "hand:Ann"
    taken = own(choice, place, "Clifford")  # the fortress changed hands meanwhile
    illegal(taken, f"play {town_card} to Percy", "town-to-controller", by="Ann")
    choice = play(choice, f"play {town_card} to Percy")
    assert choice.control[place] == "Percy" and not choice.duties
    full = drawing(base)
    kent, essex, arundel = (in_deck(base, "title", "mercenary", skip=skip) for skip in
                            ((), [in_deck(base, "title", "mercenary")],
                             [in_deck(base, "title", "mercenary"),
                              in_deck(base, "title", "mercenary",
                                      skip=[in_deck(base, "title", "mercenary")])]))
    full = play(full, f"draw {kent.replace(' ', '-')}")
    full = evolve(full, cards={**full.cards, essex: "hand:Ann", arundel: "hand:Ann"})
    full = rules.settle(full, full)
    assert rules.duty(full).kind == "discard"
    illegal(full, "next", "duty-pending")
    illegal(full, f"discard {kent.replace(' ', '-')}", "within-limit", by="Ben")
    full = play(full, f"discard {kent.replace(' ', '-')}", by="Ann")
    assert full.cards[kent] == DISCARD and not full.duties


def test_r18_hidden_cards_are_named_when_played():
    state = play(drawing(realm()), "draw hidden")
    assert state.hand_size("Ann") == 1 and state.hand("Ann") == []
    illegal(state, "play Stafford to Percy", "noble-in-hand", by="Ann")
    illegal(state, "play Stafford to Percy", "not-in-hand", by="Ben")
    card = in_deck(state, "mercenary", "bishop")
    state = play(state, f"play {card.replace(' ', '-')} to Percy", by="Ann")
    assert state.hidden["Ann"] == 0 and state.cards[card] == "noble:Percy"
    other = in_deck(state, "mercenary", "bishop", "ship")
    illegal(state, f"play {other.replace(' ', '-')} to Percy", "not-in-hand", by="Ann")


def test_placing_rules_12_and_r19():
    base = realm()
    kent = in_deck(base, "mercenary", "bishop").replace(" ", "-")
    title = in_deck(base, "title").replace(" ", "-")
    titled = play(drawing(base), f"draw {title}")
    illegal(titled, f"play {title} to Neville", "titled", by="Ann")
    state = play(drawing(base), f"draw {kent}")
    illegal(state, f"play {kent} to Clifford", "not-your-noble", by="Ann")
    sieged = siege(put(state, "Clifford", "near:Middleham"), "Middleham", "Ben", ["Clifford"])
    sieged = put(sieged, "Percy", "in:Middleham")
    illegal(sieged, f"play {kent} to Herbert", "not-your-noble", by="Ann")
    sieged = put(sieged, "Percy", "in:Middleham")
    illegal(sieged, f"play {kent} to Percy", "noble-under-siege", by="Ann")
    sea = ship(put(state, "Percy", "aboard:Le Lucas"), "Le Lucas", "Percy", "sea:Irish Sea")
    illegal(sea, f"play {kent} to Percy", "noble-at-sea", by="Ann")
    allowed = evolve(sea, options={**sea.options, "assign_at_sea": "yes"})
    percy = play(allowed, f"play {kent} to Percy", by="Ann")
    assert percy.cards[kent.replace("-", " ")] == "noble:Percy"


def test_trades_and_transfers():
    state = phase(realm(Ann=["Neville", "Percy", "Bishop of Durham", "Welsh Mercenaries #1"]),
                  "movement")
    state = put(state, "Percy", "in:Middleham")
    bishop = rules.bishops_of(state, "Neville")[0]
    state = play(state, f"transfer {bishop.replace(' ', '-')} from Neville to Percy", by="Ann")
    assert rules.bishops_of(state, "Percy") == [bishop]
    illegal(state, "transfer Middleham from Neville to Clifford", "not-agreed", by="Ann")
    after = play(state, "transfer Middleham from Neville to Clifford agreed", by="Ann")
    assert after.control["Middleham"] == "Clifford"
    illegal(state, "transfer Middleham from Neville to Percy", "not-your-noble", by="Ben")
    apart = put(state, "Percy", "near:York")
    illegal(apart, "transfer Welsh-Mercenaries-#1 from Neville to Percy", "apart", by="Ann")
    titled = give(state, "Earl of Kent", "Neville")
    illegal(titled, "transfer Earl-of-Kent from Neville to Percy", "parliament-only", by="Ann")
    second = give(state, "Bishop of Carlisle", "Neville")  # Percy holds a bishop already
    illegal(second, "transfer Bishop-of-Carlisle from Neville to Percy", "has-bishop", by="Ann")
    sailing = ship(state, "Christopher", "Neville", "sea:Channel")
    illegal(sailing, "transfer Christopher from Neville to Percy", "at-sea", by="Ann")
    assert play(ship(state, "Christopher", "Neville", "port:Hull"),
                "transfer Christopher from Neville to Percy", by="Ann").ships[
        "Christopher"].by == "Percy"
    others = heir(state, "Edward of March", by="Clifford")
    err = illegal(others, "transfer Edward-of-March from Neville to Percy", "not-his", by="Ann")
    assert err.rule == "R-45"
    with pytest.raises(IllegalMove) as info:  # a logged transfer of what he does not hold
        event(state, "transfer", "Ann", item="York", **{"from": "Neville", "to": "Percy"})
    assert (info.value.code, info.value.rule) == ("not-his", "§5.4")
    noble = illegal(state, "transfer Percy from Neville to Clifford agreed", "noble", by="Ann")
    assert noble.rule == "§5.4" and "nobles are never transferred" in noble.message
    with pytest.raises(IllegalMove) as info:  # logged: the same answer
        event(state, "transfer", "Ann", item="Percy", **{"from": "Neville", "to": "Clifford"})
    assert (info.value.code, info.value.rule) == ("noble", "§5.4")
    state = play(state, "give Chancellor-May-Call-Parliament to Ben", by="Ann") \
        if "Chancellor May Call Parliament" in state.held.get("Ann", ()) else state
    held = evolve(state, held={"Ann": ("Writ",)})
    held = play(held, "give Writ to Ben", by="Ann")
    assert held.held == {"Ann": (), "Ben": ("Writ",)}
    illegal(held, "give Writ to Ben", "self", by="Ben")


# ---- death and No Elimination ----------------------------------------------------------------

def test_section_9_a_dead_nobles_cards_fortresses_and_heirs():
    state = realm(Ann=["Neville", "Percy", "Marshal of England", "Welsh Mercenaries #1"])
    state = heir(state, "Henry", by="Neville")
    state = put(put(state, "Percy", "in:Middleham"), "Clifford", "in:Middleham")
    dead_state = rules.kill(put(state, "Neville", "near:York"), ["Neville"], "a test")
    assert dead_state.cards["Marshal of England"] == CHANCERY
    assert dead_state.cards["Welsh Mercenaries #1"] == DISCARD
    assert "Middleham" not in dead_state.control
    assert dead_state.nobles["Percy"].at == "near:Middleham"  # expelled
    assert dead_state.nobles["Clifford"].at == "near:Middleham"
    assert dead_state.heirs["Henry"].by is None  # nobody of his with him
    state = put(state, "Percy", "in:Middleham")
    with_mate = rules.kill(put(state, "Neville", "in:Middleham"), ["Neville"], "a test")
    assert with_mate.heirs["Henry"].by == "Percy"


def test_no_elimination_deals_a_faction_on_and_lays_it_out():
    state = phase(realm(), "draw", "Ann")
    state = play(state, "draw hidden")
    state = rules.settle(state, rules.kill(state, ["Clifford", "Herbert"], "a test"))
    assert rules.duty(state).kind == "deal" and GAME.to_act(state).players == ("Ben",)
    deck = [in_deck(state, "title")]
    state = play(state, f"dealt {deck[0].replace(' ', '-')}", by="Ben")
    assert rules.duty(state).kind == "deal"
    state = play(state, "dealt Scrope", by="Ben")
    assert state.nobles["Scrope"].owner == "Ben" and rules.duty(state).kind == "layout"
    state = play(state, f"assign {deck[0].replace(' ', '-')} to Scrope", by="Ben")
    assert rules.titled(state, "Scrope") and not state.duties


def test_late_joiners():
    state = realm(late=["Cat"])
    assert "Cat" not in state.playing and not state.faction("Cat")
    assert rules.deal_size(state) == 12 and rules.next_seat(state, 1) == 0  # Cat is skipped
    state = phase(state, "chance", state.names[state.seat])
    assert state.active != "Cat"
    state = play(state, "join Cat")
    assert rules.duty(state).kind == "deal" and rules.duty(state).player == "Cat"
    illegal(state, "join Cat", "joined")
    card = in_deck(state, "mercenary", "bishop")
    state = play(state, f"dealt {card.replace(' ', '-')}", by="Cat")
    state = play(state, "dealt Scrope", by="Cat")
    assert state.faction("Cat") == ["Scrope"] and rules.duty(state).kind == "layout"
    state = play(state, f"assign {card.replace(' ', '-')} to Scrope", by="Cat")
    assert not state.duties and rules.next_seat(state, 1) == 2


# ---- victory, the clock and the votes ----------------------------------------------------------

def test_complete_and_utter_victory_is_checked_after_every_event():
    state = realm()
    for name in ("Margaret of Anjou", "Edward of Lancaster", "Richard of York",
                 "Edward of March", "Richard of Gloucester"):
        state = dead(state, name)
    state = heir(heir(state, "Henry", by="Neville"), "George of Clarence", by="Percy")
    state = phase(state, "movement")
    state = play(state, "execute George-of-Clarence", by="Ann")
    assert state.ended.kind == "complete" and state.ended.winners == ("Ann",)
    assert GAME.finished(state) and GAME.legal(state) == []
    sheet = GAME.score(state)
    assert sheet.winners == ("Ann",) and "Complete and Utter Victory" in sheet.outcome


def test_r51_the_tally():
    state = realm(Ann=["Neville", "Percy", "Chancellor of England", "Bishop of Durham"])
    votes = rules.tally(state)
    ann_commons = 3 + 2 + sum(rules.place_commons(state, p) for p, n in state.control.items()
                              if state.owner(n) == "Ann")
    assert votes["Ann"][0] == ann_commons  # an uncontrolled sole King gives nobody his 20
    assert votes["Ann"][1] == 4 + 3 + 4
    kingless = heir(dead(state, "Henry"), "Henry", alive=False)
    assert rules.tally(kingless)["Ann"][0] == ann_commons + 20  # the Chancellor's faction
    held = heir(state, "Henry", by="Neville")
    assert rules.tally(held)["Ann"] == (ann_commons + 20 + 10, 4 + 3 + 4 + 10)
    away = rules.tally(held, attending=["Percy"])
    assert away["Ann"] == (ann_commons + 30, 3 + 4 if rules.holder(
        held, "Bishop of Durham") == "Percy" else 3)


def test_r50_the_victory_order_at_the_time_limit():
    state = realm()
    alone = state
    for name in list(state.heirs):
        if name != "George of Clarence":
            alone = dead(alone, name)
    royal = heir(alone, "George of Clarence", by="Clifford")
    assert rules.time_victory(royal) == ("Major Royal Victory", ("Ben",))
    kingly = heir(state, "Henry", by="Neville")
    victory, winners = rules.time_victory(kingly)
    assert winners == ("Ann",) and victory in ("Major Parliamentary Victory",
                                               "Alternate Minor Victory")
    tied = evolve(state, control={})
    victory, winners = rules.time_victory(tied)
    assert victory in ("Alternate Minor Victory", "Minor Split Victory") and winners


def stamp(minutes):
    return dt.datetime(2026, 11, 21, 19, 0, tzinfo=dt.timezone.utc) + \
        dt.timedelta(minutes=minutes)


def at(state, move, minutes, by=None):
    return apply_event(GAME, state, GAME.parse(state, move, mover(state, move, by)), THREE,
                       stamp(minutes))


def test_r49_the_clock_runs_from_the_first_chance_phase_less_pauses():
    state = realm()
    assert state.clock.started is None
    state = at(state, calm(state), 0)
    assert state.clock.started == stamp(0)
    state = at(state, "clock pause", 10)
    state = at(state, "clock resume", 70)  # an hour's pause does not count
    state = at(state, "next", 100)
    assert round(state.clock.minutes) == 40
    illegal(state, "clock resume", "clock-state")
    err = illegal(state, "end time", "time-left")
    assert "200 minutes are left" in err.message
    state = at(state, "next", 290)  # 230 minutes played
    state = at(state, "draw hidden", 300)
    assert not state.time_up
    state = at(state, "next", 320)  # the turn ends after 260 minutes: the game ends
    assert state.time_up and GAME.phase(state) == "time-up" and GAME.to_act(state).table
    illegal(state, "next", "not-your-turn", by="Ann")
    state = at(state, "end time", 321)
    assert state.ended.kind == "time" and state.ended.winners
    assert "minutes on the game clock (R-49: from the first chance phase, pauses left out)" \
        in GAME.score(state).outcome


def test_r49_immediate_and_round_endings():
    state = realm()
    quick = evolve(state, options={**state.options, "time_end": "immediate"})
    quick = at(quick, calm(quick), 0)
    with pytest.raises(IllegalMove) as info:
        at(quick, "next", 250)  # at once, mid-turn: only `end time` now
    assert info.value.code == "not-your-turn"
    assert at(quick, "end time", 250).ended.kind == "time"
    rounds = evolve(state, options={**state.options, "time_end": "round"})
    rounds = at(rounds, calm(rounds), 0)
    rounds = at(rounds, "next", 241)
    rounds = at(rounds, "next", 242)
    rounds = at(rounds, "draw hidden", 243)
    rounds = at(rounds, "next", 244)
    assert not rounds.time_up and rounds.seat == (state.first + 1) % 3  # the round goes on


def test_r84_once_the_limit_ends_the_game_nothing_more_is_played():
    state = heir(realm(), "George of Clarence", by="Neville")
    state = evolve(state, held={"Ann": ("Writ",)},
                    options={**state.options, "time_end": "immediate"})
    state = at(state, calm(state), 0)
    for move in ("transfer Middleham from Neville to Percy", "give Writ to Ben",
                 "execute George-of-Clarence", "clock pause"):
        with pytest.raises(IllegalMove) as info:
            at(state, move, 250, by="Ann")
        assert (info.value.code, info.value.rule) == ("time-up", "R-84"), move
    over = at(state, "amend noble Neville troops=60", 250)  # a slip in the data the count reads
    assert {e.type for e in GAME.legal(over)} == {"end"}
    assert GAME.legal_note(over) == ""  # no `play`, `give`... offered after the limit either
    assert at(over, "end time", 251).ended.kind == "time"


def test_r84_a_discard_owed_and_a_siege_of_ones_own_wait_too():
    """`discard` and `siege` declare no phase (their moment is their own): the time limit
    still ends them, as every move but the end and a data fix (R-84)."""
    state = evolve(realm(), options={**realm().options, "time_end": "immediate"})
    state = at(state, calm(state), 0)
    laid = siege(put(state, "Neville", "near:Fotheringhay"), "Fotheringhay", "Ann", ["Neville"])
    cards: list[str] = []
    for _ in range(3):
        cards.append(in_deck(state, "title", "mercenary", skip=cards))
    full = evolve(state, cards={**state.cards, **{c: "hand:Ann" for c in cards}})
    full = rules.settle(full, full)
    assert rules.duty(full).kind == "discard"
    for before, move in ((laid, "siege break Fotheringhay"),
                         (full, f"discard {cards[0].replace(' ', '-')}")):
        at(before, move, 100, by="Ann")  # before the limit, it is played
        with pytest.raises(IllegalMove) as info:
            at(before, move, 250, by="Ann")
        assert (info.value.code, info.value.rule) == ("time-up", "R-84"), move


def test_r70_without_event_times_the_table_ends_at_a_turn_boundary():
    state = realm()
    illegal(at_phase(state, "movement"), "end time", "mid-turn")
    ended = play(state, "end time")
    assert ended.ended.kind == "time"
    conceded = play(state, "end concede")  # the table stops the game: incomplete, no winner
    sheet = GAME.scoresheet(conceded)
    assert conceded.ended is None and GAME.stopped(conceded) == "concede"
    assert sheet.winners == () and not sheet.finished and "(concede)" in sheet.outcome


# ---- what the table is shown -------------------------------------------------------------------

def test_status_shows_the_realm_but_no_hidden_card():
    state = realm(Ann=["Neville", "Percy", "Earl of Kent", "Earl of Essex"])
    secret = [c for c, w in state.cards.items() if w == CHANCERY]
    kept = in_deck(state, "title")
    state = play(phase(state, "draw"), f"draw {kept.replace(' ', '-')}")
    text = GAME.render(state)
    assert "Neville" in text and "Henry (King) in:London, uncontrolled" in text
    assert "Chancery " in text and "hand 1 card(s)" in text
    for card in [c for c in secret if state.kind(c) != "town"] + [kept]:
        assert card not in text, card
    options = "\n".join(GAME.option_lines(state, GAME.legal(state)))
    for card in secret:
        assert card not in options
    setup = GAME.render(GAME.setup(THREE, GAME.check_options({})))
    assert "Set-up (deal)" in setup


def test_the_scoresheet_rows_and_record():
    state = realm()
    state = rules.heir_dies(state, "Margaret of Anjou", "a test")
    sheet = GAME.score(state)
    assert [r.name for r in sheet.rows] == list(state.names) and not sheet.finished
    (story,) = sheet.sections
    assert ("1", "Margaret of Anjou dies (a test)") in story.rows
    assert sheet.rows[0].result.endswith("so far")
    blank = GAME.blank_scoresheet()
    assert blank.blank and len(blank.rows) == 7


def test_every_refusal_in_play_keeps_the_state():
    state = phase(realm(), "movement")
    before = state
    with pytest.raises(IllegalMove):
        event(state, "move", "Ann", nobles=["Nobody"], to="near:York")
    with pytest.raises(IllegalMove):
        event(state, "move", "Ann", nobles=["Neville"], to="nowhere:York")
    with pytest.raises(IllegalMove):
        event(state, "move", "Ann", nobles=["Neville"], to="near:Atlantis")
    assert state == before
    assert Player("Ann") in THREE


def test_a_log_whose_first_chance_phase_has_no_time_keeps_no_clock():
    state = play(realm(), calm(realm()), "next")  # untimed, as a simulated game's log
    state = at(state, "next", 10)
    assert state.clock.started is None and state.clock.minutes is None
    state = at(state, "draw hidden", 11)
    state = at(state, "next", 12)
    assert at(state, "end time", 13).ended.kind == "time"  # the table's word
