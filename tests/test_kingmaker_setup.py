"""Kingmaker set-up (rules page §4, R-5..R-8, R-60) and the chance phase (§5.1, R-9..R-15)."""

from __future__ import annotations


import pytest

from referee.engine import Player, apply_event
from referee.errors import IllegalMove, NotationError
from referee.evolve import evolve
from referee.games.kingmaker import GAME, rules
from referee.games.kingmaker.state import ASIDE, CHANCERY, DECK, OUT
from tests.kingmaker_realm import (
    THREE,
    at_phase,
    dealt_game,
    event,
    fresh,
    heir,
    illegal,
    own,
    play,
    put,
    ship,
    siege,
)


def players(count: int) -> tuple[Player, ...]:
    return tuple(Player(n) for n in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus")[:count])


@pytest.mark.parametrize("count,option,size", [(2, "auto", 18), (3, "auto", 12), (4, "auto", 9),
                                               (5, "auto", 7), (6, "auto", 6), (7, "auto", 5),
                                               (5, "36", 7), (4, "35", 8)])
def test_r5_the_deal_is_even(count, option, size):
    assert rules.deal_size(fresh(players(count), deal=option)) == size


def test_the_crown_deck_as_rule_25_makes_it():
    state = fresh()
    assert state.cards["Le Lucas"] == ASIDE and state.cards["Constable of the Tower"] == ASIDE
    assert state.cards["Captain of Calais"] == OUT and state.cards["Lieutenant of Ireland"] == OUT
    assert state.cards["Grace Dieu"] == OUT  # the Admiral brings it
    assert "Duke of York" not in state.cards  # Royal Guards are never dealt
    assert state.cards["Welsh Mercenaries #2"] == DECK


def test_deals_are_checked():
    state = fresh()
    deck = sorted(c for c, w in state.cards.items() if w == DECK)
    with pytest.raises(IllegalMove) as info:
        event(state, "dealt", "Ann", cards=deck[:11])
    assert info.value.code == "deal-size" and info.value.rule == "R-5"
    with pytest.raises(IllegalMove) as info:
        event(state, "dealt", "Ann", cards=deck[:11] + ["Le Lucas"])
    assert info.value.code == "not-in-deck" and "set aside" in info.value.message
    with pytest.raises(IllegalMove) as info:
        event(state, "dealt", "Ann", cards=deck[:11] + [deck[0]])
    assert info.value.code == "duplicate-card"
    with pytest.raises(IllegalMove) as info:
        event(state, "dealt", "Ben", cards=deck[:12])
    assert info.value.code == "not-your-turn"
    state = event(state, "dealt", "Ann", cards=deck[:12])
    with pytest.raises(IllegalMove) as info:
        event(state, "dealt", "Ben", cards=deck[:12])
    assert info.value.code == "not-in-deck" and "Ann's hand" in info.value.message
    assert GAME.to_act(state).players == ("Ben",)


def test_r6_a_player_without_a_noble_is_dealt_on_and_keeps_the_cards():
    state = fresh()
    deck = sorted(c for c, w in state.cards.items() if w == DECK)
    plain = [c for c in deck if state.kind(c) != "noble"]
    nobles = [c for c in deck if state.kind(c) == "noble"]
    state = event(state, "dealt", "Ann", cards=plain[:12])
    state = event(state, "dealt", "Ben", cards=nobles[:2] + plain[12:22])
    state = event(state, "dealt", "Cat", cards=nobles[2:4] + plain[22:32])
    assert [d.kind for d in state.duties] == ["deal"] and GAME.to_act(state).players == ("Ann",)
    with pytest.raises(IllegalMove) as info:
        event(state, "dealt", "Ann", cards=plain[32:34])
    assert info.value.rule == "R-6"
    state = event(state, "dealt", "Ann", cards=[plain[32]])  # not a noble: dealt on
    assert state.stage == "deal" and state.duties
    state = event(state, "dealt", "Ann", cards=[nobles[4]])
    assert state.stage == "layout"
    ann = [c for c, w in state.cards.items() if w == "dealt:Ann"]
    assert len(ann) == 13 and nobles[4] in state.nobles  # the extra cards are kept


def test_layout_titles_offices_and_the_chancery():
    state = dealt_game({"Ann": ["Audley", "Neville", "Earl of Kent", "Earl of Essex",
                                "Marshal of England", "Chamberlain of England"],
                        "Ben": ["Stanley"], "Cat": ["Clifford"]}, )
    # dealt_game lays out named cards on the first noble that may take each:
    assert rules.titled(state, "Audley") and rules.office_of(state, "Neville")
    cards = {c: w for c, w in state.cards.items()}
    assert cards["Earl of Essex"] == CHANCERY or cards["Earl of Kent"] == CHANCERY
    assert state.cards["Le Lucas"] == "noble:Stanley"  # rule 26
    assert state.ships["Le Lucas"].at == "port:Douglas"
    assert state.cards["Constable of the Tower"] == DECK  # shuffled back (§4.6)


def test_layout_refusals():
    state = fresh()
    deck = sorted(c for c, w in state.cards.items() if w == DECK)
    ann = ["Neville", "Audley", "Earl of Kent", "Marshal of England", "Bishop of Durham"] + \
        [c for c in deck if state.kind(c) == "town"][:7]
    rest = [c for c in deck if c not in ann and state.kind(c) != "noble"]
    state = event(state, "dealt", "Ann", cards=ann)
    state = event(state, "dealt", "Ben", cards=["Percy"] + rest[:11])
    state = event(state, "dealt", "Cat", cards=["Clifford"] + rest[11:22])
    assert state.stage == "layout" and GAME.to_act(state).players == ("Ann",)
    assert GAME.to_act(state).prompt.startswith("Ann lays out the cards dealt: `assign CARD to ")
    illegal(state, "assign Earl-of-Kent to Neville", "titled")
    illegal(state, "assign Marshal-of-England to Audley", "untitled")
    illegal(state, "assign Bishop-of-Durham to chancery", "placeable")
    illegal(state, "assign Earl-of-Kent to Percy", "not-your-noble")
    illegal(state, "assign Percy to Neville", "not-dealt")
    state = play(state, "assign Earl-of-Kent to Audley", "assign Marshal-of-England to Neville")
    assert "assign Bishop-of-Durham to Audley" in [GAME.format(state, e)
                                                   for e in GAME.legal(state)]
    with pytest.raises(IllegalMove) as info:
        event(state, "assign", "Ben", card="Percy", to="Percy")
    assert info.value.code == "not-your-turn"


def test_r7_control_at_entry_and_r8_the_first_player():
    state = dealt_game({"Ann": ["Clifford", "Coventry"], "Ben": ["Fauconberg"],
                        "Cat": ["Percy", "Bishop of Durham"]})
    # No Chancellor; Cat's Bishop of Durham is the most senior cleric.
    assert state.active == "Cat" and state.first == 2
    assert state.control["Coventry"] == "Clifford"  # a town card gives its fortress
    assert state.control["Alnwick"] == "Percy"  # a home castle, neutral, becomes his
    # Clifford and Fauconberg share Skipton: settled in seat order from the first player (Cat),
    # so Ann's Clifford comes before Ben's Fauconberg.
    assert state.control["Skipton"] == "Clifford"
    assert state.nobles["Fauconberg"].at == "near:Skipton"  # outside another's
    assert state.nobles["Clifford"].at == "in:Skipton"
    assert rules.sole_king(state) == "Henry" and rules.controller(state, "Henry") is None
    assert state.heirs["George of Clarence"].at == "in:Cardigan"  # an open town has an inside
    chancellor = dealt_game({"Ann": ["Percy"], "Ben": ["Neville", "Chancellor of England"],
                             "Cat": ["Clifford", "Archbishop of Canterbury"]})
    assert chancellor.active == "Ben"
    troops = dealt_game({"Ann": ["Percy"], "Ben": ["Neville"], "Cat": ["Clifford"]})
    assert troops.active == "Ben"  # Neville's 50 is the most troops


def test_r7_a_town_card_for_a_fortress_held_by_another_goes_to_its_controller():
    five = players(5)
    state = play(fresh(five), "amend title Earl-of-Richmond brings=Coventry", players=five)
    pool = sorted(c for c, w in state.cards.items() if w == DECK and state.kind(c) not in
                  ("noble", "bishop") and c not in ("Chancellor of England", "Coventry",
                                                   "Earl of Richmond"))
    hands = {"Ann": ["Clifford", "Coventry"],
             "Ben": ["Herbert", "Earl of Richmond", "Chancellor of England"],
             "Cat": ["Talbot"], "Dan": ["Grey"], "Eve": ["Scrope"]}
    for player in five:
        cards = hands[player.name]
        while len(cards) < 7:
            cards.append(pool.pop(0))
        state = event(state, "dealt", player.name, five, cards=cards)
    while state.stage == "layout":
        if state.duties[0].player == "Ben" and state.cards["Earl of Richmond"] != \
                "noble:Herbert":
            state = play(state, "assign Earl-of-Richmond to Herbert",
                         "assign Chancellor-of-England to Herbert", players=five)
            continue
        state = apply_event(GAME, state, next(iter(GAME.events["assign"].moves(state))), five)
    assert state.first == 1  # Ben holds the Chancellor
    assert state.control["Coventry"] == "Herbert"  # Ben's claim came before Ann's
    assert state.cards["Coventry"] == "noble:Herbert"  # §8.1: the card follows


# ---- the chance phase ----------------------------------------------------------------------

def chance(state, seat=0):
    return evolve(at_phase(state, "chance", seat=seat), event_drawn=False)


def test_r9_plague_strikes_inside_and_in_port_not_outside():
    state = dealt_game({"Ann": ["Neville", "Percy"], "Ben": ["Clifford", "Stanley"],
                        "Cat": ["Talbot"]})
    state = put(put(state, "Neville", "in:Bristol"), "Percy", "near:Bristol")
    state = put(state, "Stanley", "aboard:Le Lucas")
    state = ship(state, "Le Lucas", "Stanley", "port:Bristol")
    state = heir(state, "Edward of March", by="Neville")
    state = play(chance(state), "event Plague-(Bristol)")
    assert "Neville" not in state.nobles and "Stanley" not in state.nobles
    assert "Percy" in state.nobles and not state.heirs["Edward of March"].alive
    assert state.stage == "movement"  # nothing left to do in the chance phase
    illegal(state, "event Fair-Weather", "wrong-phase")


def test_calls_are_answered_where_the_card_says():
    state = dealt_game({"Ann": ["Percy", "Warden of the Northern Marches"],
                        "Ben": ["Herbert"], "Cat": ["Clifford"]})
    state = put(state, "Herbert", "near:York")
    state = play(chance(state), "event Scots-Raid")  # Warden>Newcastle, Percy>Alnwick
    assert [(d.kind, d.subject, d.place) for d in state.duties] == [
        ("respond", "Percy", "Newcastle")]  # Percy holds the Warden: one response
    err = illegal(state, "respond Percy to in:Newcastle", "wrong-destination")
    assert "inside only if Newcastle is friendly" in err.message
    event_ = GAME.parse(state, "respond Percy", "Ann")
    assert event_["to"] == "near:Newcastle"
    state = play(state, "respond Percy")
    assert state.nobles["Percy"].at == "near:Newcastle" and state.stage == "movement"


def test_a_call_into_another_factions_fortress_with_its_grant():
    state = dealt_game({"Ann": ["Herbert"], "Ben": ["Neville", "Newcastle"],
                        "Cat": ["Clifford"]})
    state = put(state, "Herbert", "near:York")
    state = play(chance(state), "event Welsh-Rising")  # Herbert>Raglan (his own)
    assert state.duties[0].subject == "Herbert"
    state = play(state, "respond Herbert")
    assert state.nobles["Herbert"].at == "in:Raglan"
    state = dealt_game({"Ann": ["Percy"], "Ben": ["Neville", "Newcastle"], "Cat": ["Clifford"]})
    state = play(chance(state), "event Scots-Raid")  # Percy to Alnwick, his own
    state = play(state, "respond Percy")
    assert state.nobles["Percy"].at == "in:Alnwick"


def test_friendly_grants_and_escorts_and_leaving_an_heir():
    state = dealt_game({"Ann": ["Neville", "Percy", "Talbot"], "Ben": ["Clifford"],
                        "Cat": ["Courtenay"]})
    state = own(state, "York", "Clifford")
    state = put(put(put(state, "Neville", "near:London"), "Percy", "near:London"),
                "Talbot", "near:London")
    state = heir(state, "Henry", by="Neville", crowned=True)
    state = heir(state, "Edward of March", by="Neville")
    state = play(chance(state), "event Royal-Progress")  # King>York
    assert state.duties[0].subject == "Neville" and "king" in state.duties[0].choices
    illegal(state, "respond Neville to in:York", "wrong-destination")
    state = play(state, "friendly York for Ann", by="Ben")
    illegal(state, "friendly York for Ann", "not-your-fortress", by="Ann")
    state = play(state, "leave Edward-of-March with Talbot")
    assert rules.controller(state, "Edward of March") == "Talbot"
    illegal(state, "leave Henry with Courtenay", "not-in-force")
    state = play(state, "respond Neville with Percy")
    assert state.nobles["Neville"].at == "in:York" and state.nobles["Percy"].at == "in:York"
    assert state.nobles["Talbot"].at == "near:London"
    assert rules.heir_location(state, "Henry") == "in:York"
    assert rules.garrison_ally(state, "Neville")  # inside another faction's fortress


def test_only_a_kings_controller_is_followed_and_the_besieged_stay():
    state = dealt_game({"Ann": ["Percy", "Clifford"], "Ben": ["Herbert"], "Cat": ["Talbot"]})
    state = put(put(state, "Clifford", "in:Alnwick"), "Percy", "in:Alnwick")
    illegal_state = play(chance(state), "event Scots-Raid")
    illegal(illegal_state, "respond Percy with Clifford", "no-escort")
    besieged = siege(state, "Alnwick", "Ben", ["Herbert"])
    besieged = put(besieged, "Herbert", "near:Alnwick")
    after = play(chance(besieged), "event Scots-Raid")
    assert not after.duties and after.stage == "movement"  # under siege: nobody answers


def test_a_called_noble_at_sea_first_puts_in():
    state = dealt_game({"Ann": ["Stanley", "Percy"], "Ben": ["Herbert"], "Cat": ["Talbot"]})
    state = put(put(state, "Percy", "aboard:Le Lucas"), "Stanley", "aboard:Le Lucas")
    state = ship(state, "Le Lucas", "Stanley", "sea:North Sea")
    state = play(chance(state), "event Scots-Raid")
    illegal(state, "respond Percy", "no-port")
    illegal(state, "respond Percy port Newcastle", "unfriendly-port")
    illegal(state, "respond Percy port Dublin", "no-port-there")
    state = play(state, "respond Percy port Hull")
    assert state.ships["Le Lucas"].at == "port:Hull"
    assert state.nobles["Stanley"].at == "near:Hull"  # all aboard land
    assert state.nobles["Percy"].at == "in:Alnwick"


def test_an_uncontrolled_king_goes_alone():
    state = dealt_game({"Ann": ["Percy"], "Ben": ["Herbert"], "Cat": ["Talbot"]})
    state = play(chance(state), "event Royal-Progress")
    assert state.heirs["Henry"].at == "near:York" and not state.duties


def test_storms_at_sea():
    state = dealt_game({"Ann": ["Stanley", "Percy"], "Ben": ["Herbert", "Christopher"],
                        "Cat": ["Talbot"]})
    state = put(state, "Percy", "aboard:Le Lucas")
    state = ship(state, "Le Lucas", "Stanley", "sea:Irish Sea")
    state = ship(state, "Christopher", "Herbert", "sea:North Sea")
    state = play(chance(state), "event Storms-at-Sea")
    assert [d.subject for d in state.duties] == ["Le Lucas", "Christopher"]
    assert GAME.to_act(state).table
    illegal(state, "storm Christopher 50 port Hull", "not-this-ship")
    illegal(state, "storm Le-Lucas 50", "no-port")
    illegal(state, "storm Le-Lucas 50 port Newcastle", "unfriendly-port")
    state = play(state, "storm Le-Lucas 12 40 port Hull")
    assert state.nobles["Percy"].at == "near:Hull"  # landed at once
    state = play(state, "storm Christopher 97")
    assert "Christopher" not in state.ships and state.cards["Christopher"] == "discard"


def test_held_event_cards_and_the_event_deck():
    state = dealt_game({"Ann": ["Percy"], "Ben": ["Herbert"], "Cat": ["Talbot"]})
    first = state.active
    state = play(chance(state), "event Writ")
    assert state.held[first] == ("Writ",)  # kept, outside the hand limit
    illegal(evolve(state, stage="chance"), "event Writ", "drawn-already")
    for _ in range(3):
        state = play(evolve(state, stage="chance", event_drawn=False), "event Writ")
    err = illegal(evolve(state, stage="chance", event_drawn=False), "event Writ", "no-copy")
    assert err.rule == "R-15"
    state = play(evolve(state, stage="chance", event_drawn=False), "event Embassy")
    assert state.events_out == {"Writ": 4}  # rule 9: the discard is shuffled back; held stay
    state = play(state, f"give Writ to {state.names[(state.seat + 1) % 3]}", by=first)
    assert len(state.held[first]) == 3


def test_r15_an_exhausted_event_deck_is_rebuilt():
    state = dealt_game({"Ann": ["Percy"], "Ben": ["Herbert"], "Cat": ["Talbot"]})
    out = {e.name: e.copies for e in state.box.of("event")}
    state = evolve(chance(state), events_out=out, held={"Ann": ("Writ",)})
    assert rules.event_deck_empty(state)
    state = play(state, "event Fair-Weather")
    assert state.events_out == {"Writ": 1, "Fair Weather": 1}


def test_the_peoples_parliament_card_cancels_movement_and_combat_without_a_sole_king():
    state = dealt_game({"Ann": ["Percy"], "Ben": ["Herbert"], "Cat": ["Talbot"]})
    calm = play(chance(state), "event Parliament-Must-Be-Summoned")
    assert calm.stage == "movement" and calm.chronicle == state.chronicle  # a sole King
    kingless = heir(state, "Henry", alive=False, crowned=False)
    after = play(chance(kingless), "event Parliament-Must-Be-Summoned")
    assert after.stage == "parliament" and after.cancelled and after.people_due
    assert "People's Parliament" in after.chronicle[-1][1]  # held at once (7.7)


def test_bad_weather_alone_does_nothing_in_the_chance_phase():
    state = dealt_game({"Ann": ["Percy"], "Ben": ["Herbert"], "Cat": ["Talbot"]})
    after = play(chance(state), "event Bad-Weather-Delays-Attack")
    assert after.stage == "movement" and after.nobles == state.nobles


def test_nothing_but_the_answer_while_a_duty_is_pending():
    state = dealt_game({"Ann": ["Percy", "Warden of the Northern Marches"],
                        "Ben": ["Herbert"], "Cat": ["Clifford"]})
    state = play(chance(state), "event Scots-Raid")
    err = illegal(state, "next", "duty-pending")
    assert "Percy answers the event card" in err.message
    assert [GAME.format(state, e) for e in GAME.legal(state, "Ann")][0].startswith("respond")
    assert THREE


def test_an_uncontrolled_king_under_siege_stays():
    state = dealt_game({"Ann": ["Percy", "Marshal of England"], "Ben": ["Herbert"],
                        "Cat": ["Talbot"]})
    state = siege(put(state, "Percy", "near:London"), "London", "Ann", ["Percy"])
    state = evolve(state, cards={**state.cards, "Burgundian Mercenaries": "noble:Percy"})
    state = play(chance(state), "event Royal-Progress")
    assert state.heirs["Henry"].at == "in:London"


def test_a_slip_in_a_drawn_card_offers_the_near_card_and_a_declaration():
    """F10: a draw may bring a card the log does not list yet, so a slip of a listed one
    (`Bishop-of-Carlsle`) is offered both, never taken; a card near none is only declared."""
    state = at_phase(dealt_game({"Ann": ["Percy"], "Ben": ["Neville"], "Cat": ["Clifford"]}),
                     "draw")
    assert state.cards["Bishop of Carlisle"] == "deck"
    with pytest.raises(NotationError) as slip:
        play(state, "draw Bishop-of-Carlsle")
    assert slip.value.message == (
        "'Bishop-of-Carlsle' is not a crown card this log knows: Bishop-of-Carlisle? If "
        "Bishop-of-Carlsle is a card of your box, declare it first (R-2):\n"
        "  declare bishop Bishop-of-Carlsle lords=___\n"  # the kind its name tells
        "Bishop of Carlsle: not in this box yet; the kind is read from the card's name.\n"
        "Fill in each ___ above from the box, then record the lines at once with `referee "
        "declare` (the lines on standard input) or `referee declare FILE`, or type each line at "
        "the `referee table` prompt; then the move goes through.")  # last, where the eye is
    with pytest.raises(NotationError) as new:
        play(state, "draw Zouche")
    assert new.value.message.startswith("'Zouche' is not a crown card this log knows: declare "
                                        "it first (R-2):\n  declare noble Zouche")
    assert "\n  declare noble Zouche troops=___ lords=___ home=___\n  declare place ___ " \
        "kind=castle\nZouche: not in this box yet; a one-word name is read as a noble's (a " \
        "ship's card is `declare ship NAME capacity=___ home_port=___`, a town card's `declare " \
        "town NAME place=___`)." in new.value.message


def test_a_card_named_from_an_unseen_hand_may_be_new_so_a_slip_is_offered_both():
    """R-18: a card drawn hidden is named when played or discarded, and may be one the log
    does not list yet (`Earl-of-Kendal`, near the listed Earl of Kent): its refusal offers the
    near card and the declaration, as a draw's does. A player with no unseen card holds only
    cards the log knows: a slip is offered the near card alone."""
    nobles = {"Ann": "Percy", "Ben": "Neville", "Cat": "Clifford"}
    state = play(at_phase(dealt_game({p: [n] for p, n in nobles.items()}), "draw"),
                 "draw hidden")
    unseen_by, seen_by = state.active, next(p for p in nobles if p != state.active)
    assert state.hidden == {unseen_by: 1} and state.cards["Earl of Kent"] == "deck"
    declaration = "If Earl-of-Kendal is a card of your box, declare it first (R-2):\n"
    for move in (f"play Earl-of-Kendal to {nobles[unseen_by]}", "discard Earl-of-Kendal"):
        with pytest.raises(NotationError) as unseen:
            play(state, move, by=unseen_by)
        assert unseen.value.message.startswith(
            "'Earl-of-Kendal' is not a crown card this log knows: Earl-of-Kent? "), move
        assert declaration in unseen.value.message, move
        assert "\n  declare title Earl-of-Kendal troops=___ commons=___\n" in \
            unseen.value.message, move
    with pytest.raises(NotationError) as seen:
        play(state, f"play Earl-of-Kendal to {nobles[seen_by]}", by=seen_by)
    assert seen.value.message == "'Earl-of-Kendal' is not a crown card this log knows: " \
        "Earl-of-Kent?"
