"""Kingmaker's Parliament (§7.1-7.3): calling it, attendance and the tally, the three rounds of
assignment and their votes, through the parser as the table types them; every refusal names its
rule (rules page §7, rulings R-31..R-39, R-71..R-74, R-81, R-82)."""

from __future__ import annotations


import pytest

from referee.errors import NotationError

from referee.engine import Event
from referee.evolve import evolve
from referee.games.kingmaker import GAME, rules
from referee.games.kingmaker.state import CHANCERY, Sitting
from tests.kingmaker_realm import (
    at_phase,
    dealt_game,
    dead,
    give,
    heir,
    illegal,
    own,
    play,
    put,
    ship,
    siege,
)

ANN_CARDS = ["Neville", "Percy", "Coventry", "Bishop of Lincoln"]


def holding(state, player, *cards):
    """Held event cards (R-11), out of the event deck as if drawn."""
    out = dict(state.events_out)
    for card in cards:
        out[card] = out.get(card, 0) + 1
    held = dict(state.held)
    held[player] = held.get(player, ()) + tuple(cards)
    return evolve(state, held=held, events_out=out)


def chancery(state, *cards):
    moved = dict(state.cards)
    for card in cards:
        moved[card] = CHANCERY
    return evolve(state, cards=moved)


def court(writs=2, cards=("Earl of Essex", "Earl of Kent", "Marshal of England",
                          "Bishop of Durham"), **deals):
    """Ann's Neville holds the sole King, Henry, inside Coventry, Ann's own town, in Ann's
    Parliament phase; Ann holds Writs; the Chancery holds `cards`."""
    state = dealt_game({"Ann": deals.get("Ann", ANN_CARDS),
                        "Ben": deals.get("Ben", ["Clifford", "Herbert", "Stafford"]),
                        "Cat": deals.get("Cat", ["Talbot", "Courtenay", "Bourchier"])})
    state = heir(state, "Henry", by="Neville")
    state = own(put(state, "Neville", "in:Coventry"), "Coventry", "Neville")
    state = holding(state, "Ann", *["Writ"] * writs)
    return at_phase(chancery(state, *cards), "parliament", seat=0)


def texts(state, player=None):
    return [GAME.format(state, e) for e in GAME.legal(state, player)]


def seated(state) -> Sitting:
    assert state.sitting is not None
    return state.sitting


# ---- 7.1 calling -------------------------------------------------------------------------------

def test_the_sole_kings_controller_calls_with_a_writ_and_a_summons():
    state = holding(court(), "Ben", "Writ")
    assert rules.may_call(state)
    assert "parliament call at Coventry summon Clifford" in texts(state)
    state = play(state, "parliament call summon Clifford")  # `at` defaults to the King's place
    s = seated(state)
    assert (s.caller, s.by, s.place, s.noble, s.summoned) == \
        ("Ann", "Henry", "Coventry", "Neville", "Clifford")
    assert state.held["Ann"] == ("Writ",)  # the summons spent one
    assert s.order == ("Ben", "Cat") and s.step == "excuse"  # Cat holds no Writ: passed over
    assert GAME.to_act(state).players == ("Ben",)
    assert "calls Parliament at Coventry (King Henry, with Neville)" in state.chronicle[-1][1]
    quiet = play(court(), "parliament call summon Clifford")  # nobody may excuse anything
    assert seated(quiet).step == "bishops" and seated(quiet).excused == ()


def test_the_parliament_phase_is_skipped_when_nobody_may_call():
    state = at_phase(court(writs=0), "combat", seat=0)
    assert not rules.may_call(state)
    assert play(state, "next").stage in ("coronation", "draw")
    callable_ = at_phase(court(), "combat", seat=0)
    assert play(callable_, "next").stage == "parliament"
    assert play(play(callable_, "next"), "next").stage in ("coronation", "draw")


def test_who_may_call():
    state = court()
    err = illegal(heir(state, "Henry", by=None), "parliament call at Coventry summon Clifford",
                  "no-caller")
    assert err.rule == "§7.1" and "uncontrolled" in err.message
    bens = at_phase(holding(state, "Ben", "Writ"), "parliament", seat=1)
    illegal(bens, "parliament call at Coventry summon Percy", "not-the-king")
    illegal(court(writs=0), "parliament call at Coventry summon Clifford", "no-writ")
    kingless = dead(state, "Henry")
    illegal(kingless, "parliament call at Coventry summon Clifford", "not-the-chancellor")
    chancellor = give(kingless, "Chancellor of England", "Percy")
    chancellor = put(chancellor, "Percy", "near:Coventry")
    illegal(chancellor, "parliament call at Coventry summon Clifford", "no-chancellor-card")
    chancellor = holding(chancellor, "Ann", "Chancellor May Call Parliament")
    after = play(chancellor, "parliament call at Coventry summon Clifford")
    assert seated(after).chancellor and seated(after).noble == "Percy"
    assert after.held["Ann"] == ("Writ",)  # the card and a Writ spent


def test_r31_where_parliament_sits():
    state = court()
    castle = put(state, "Neville", "in:Middleham")
    err = illegal(castle, "parliament call at Middleham summon Clifford", "not-a-town")
    assert err.rule == "R-31"
    calais = own(put(state, "Neville", "in:Calais"), "Calais", "Neville")
    illegal(calais, "parliament call at Calais summon Clifford", "off-mainland")
    illegal(state, "parliament call at York summon Clifford", "not-at-place")
    besieged = siege(put(state, "Clifford", "near:Coventry"), "Coventry", "Ben", ["Clifford"])
    illegal(besieged, "parliament call at Coventry summon Herbert", "under-siege")
    theirs = own(state, "Coventry", "Clifford")
    illegal(theirs, "parliament call at Coventry summon Herbert", "not-controlled")
    hull = put(state, "Neville", "near:Hull")
    assert play(hull, "parliament call at Hull summon Clifford").sitting is not None
    occupied = put(hull, "Clifford", "near:Hull")
    illegal(occupied, "parliament call at Hull summon Herbert", "occupied")
    cardigan = put(put(state, "Neville", "in:Cardigan"), "Herbert", "in:Cardigan")
    illegal(cardigan, "parliament call at Cardigan summon Clifford", "occupied")
    at_sea = ship(put(state, "Neville", "aboard:Swan"), "Swan", "Neville", "sea:Irish Sea")
    illegal(at_sea, "parliament call at Coventry summon Clifford", "not-at-place")


def test_the_summons_r34():
    state = court()
    err = illegal(state, "parliament call at Coventry", "no-summons")
    assert "Clifford" in err.message and err.rule == "§7.1"
    illegal(state, "parliament call at Coventry summon Percy", "own-noble")
    held = siege(put(state, "Talbot", "near:Skipton"), "Skipton", "Cat", ["Talbot"])
    illegal(held, "parliament call at Coventry summon Clifford", "under-siege")
    # nobody qualifies (every other noble under siege): no summons, no Writ spent
    alone = state
    for noble, home in (("Clifford", "Skipton"), ("Herbert", "Raglan"), ("Stafford", "Stafford"),
                        ("Talbot", "Wingfield"), ("Courtenay", "Tiverton"),
                        ("Bourchier", "Little Easton")):
        alone = siege(put(alone, "Percy", f"near:{home}"), home, "Ann", ["Percy"])
    alone = put(alone, "Percy", "in:Coventry")
    assert texts(alone).count("parliament call at Coventry") == 1
    after = play(alone, "parliament call at Coventry")
    assert after.held["Ann"] == ("Writ", "Writ") and seated(after).summoned == ""


def test_r32_r33_r71_the_kings_peace_lockout_and_two_calls():
    state = court()
    peace = evolve(state, peace=rules_peace("Ben"))
    err = illegal(peace, "parliament call at Coventry summon Clifford", "kings-peace")
    assert err.rule == "R-32"
    late = illegal(evolve(peace, time_up=True), "parliament call at Coventry summon Clifford",
                   "not-your-turn", by=state.active)  # the time limit first
    assert "the time limit is reached" in late.message and "R-32" not in late.message
    ended = evolve(state, peace_over=state.turn)  # the Peace ended this turn (R-71: the first)
    illegal(ended, "parliament call at Coventry summon Clifford", "lockout")
    illegal(evolve(ended, turn=state.turn + 2), "parliament call at Coventry summon Clifford",
            "lockout")
    assert play(evolve(ended, turn=state.turn + 3),
                "parliament call at Coventry summon Clifford").sitting is not None
    rounds = evolve(ended, turn=state.turn + 3,
                     options={**state.options, "lockout": "rounds"})
    illegal(rounds, "parliament call at Coventry summon Clifford", "lockout")
    assert play(evolve(rounds, turn=state.turn + 9),
                "parliament call at Coventry summon Clifford").sitting is not None
    from referee.games.kingmaker.state import Parliament
    twice = evolve(state, parliaments=(Parliament(1, "Ann", "Henry"),
                                        Parliament(4, "Cat", "Henry")))
    err = illegal(twice, "parliament call at Coventry summon Clifford", "two-calls")
    assert err.rule == "R-33"
    people = evolve(state, parliaments=(Parliament(1, "Ann", "", people=True),) * 2)
    assert play(people, "parliament call at Coventry summon Clifford").sitting is not None


def test_r32_a_call_out_of_its_phase_hears_r32_and_the_skip_is_said():
    for held, code in ((dict(peace_over=1), "lockout"), (dict(peace=rules_peace("Ben")),
                                                         "kings-peace")):
        combat = evolve(at_phase(court(), "combat", seat=0), **held)
        after = play(combat, "next")
        assert after.stage in ("coronation", "draw")  # the Parliament phase is skipped...
        assert after.chronicle[-1][1].startswith("Ann's Parliament phase is skipped: ")
        assert "(R-32" in after.chronicle[-1][1]  # ...and the table hears why
        err = illegal(after, "parliament call at Coventry summon Clifford", code)
        assert err.rule == "R-32"
    peace = evolve(court(), peace=rules_peace("Ben"))
    assert "no Parliament is called during it nor in the 3 turns after (R-32)" in \
        GAME.render(peace)
    # nobody who could call but for R-32: the phase goes by without a word
    idle = evolve(at_phase(court(writs=0), "combat", seat=0), peace_over=1)
    assert not any("skipped" in text for _, text in play(idle, "next").chronicle)


def rules_peace(caller):
    from referee.games.kingmaker.state import Peace
    return Peace(caller, "York", (), ())


# ---- 7.2 attendance ------------------------------------------------------------------------------

def called(state=None, summon="Clifford"):
    return play(state or court(), f"parliament call at Coventry summon {summon}")


def test_excuses_in_turn_from_the_callers_left_a_writ_each():
    state = holding(holding(court(), "Ben", "Writ", "Writ"), "Cat", "Writ")
    state = called(state)
    assert GAME.to_act(state).players == ("Ben",)
    illegal(state, "excuse Talbot", "not-your-turn", by="Cat")
    err = illegal(state, "excuse Percy", "callers-faction", by="Ann")
    assert err.rule == "§7.2" and "the caller's faction is never excused" in err.message
    illegal(state, "excuse Clifford", "summoned")
    illegal(state, "excuse Talbot", "not-your-noble")
    with pytest.raises(NotationError):
        play(state, "excuse Herbert,Stafford,Herbert")
    err = illegal(state, "excuse Herbert sea", "not-at-sea")
    assert err.rule == "R-35"
    held = siege(put(state, "Talbot", "near:Raglan"), "Raglan", "Cat", ["Talbot"])
    assert illegal(held, "excuse Herbert", "under-siege").rule == "R-73"
    state = play(state, "excuse Herbert")
    assert seated(state).excused == ("Herbert",) and state.held["Ben"] == ("Writ",)
    illegal(state, "excuse Herbert", "excused-already")
    state = play(state, "next")
    assert GAME.to_act(state).players == ("Cat",)
    illegal(state, "excuse Talbot,Courtenay", "no-writ")
    state = play(state, "excuse Talbot")  # Cat's last Writ: his turn ends by itself
    assert seated(state).step == "revoke" and GAME.to_act(state).players == ("Ann",)


def test_a_sea_excuse_is_free_r35():
    state = holding(court(), "Ben", "Writ")
    state = ship(put(state, "Stafford", "aboard:Swan"), "Swan", "Stafford", "sea:Irish Sea")
    state = called(state)
    state = play(state, "excuse Stafford sea")
    assert state.held["Ben"] == ("Writ",) and seated(state).sea == ("Stafford",)
    douglas = put(called(holding(court(), "Ben", "Writ")), "Herbert", "near:Douglas")
    assert "excuse Herbert sea" in texts(douglas)


def test_revocations_by_the_caller_a_writ_each():
    state = holding(holding(court(writs=3), "Ben", "Writ", "Writ"), "Cat", "Writ")
    state = play(called(state), "excuse Herbert,Stafford", "excuse Talbot")
    assert seated(state).step == "revoke"
    illegal(state, "revoke Courtenay", "not-excused")
    illegal(state, "revoke Herbert", "not-your-turn", by="Ben")
    illegal(state, "revoke Herbert,Stafford,Talbot", "no-writ")
    state = play(state, "revoke Herbert,Stafford")  # Ann's last two Writs: travel at once
    s = seated(state)
    assert s.excused == ("Talbot",) and s.revoked == ("Herbert", "Stafford")
    assert "Herbert" in s.attending and "Talbot" not in s.attending
    assert state.nobles["Talbot"].at == "in:Wingfield"
    late = illegal(state, "revoke Talbot", "not-now", by="Ann")
    assert "Ann, the caller, holds no Writ" in late.message and late.rule == "§7.2"


def test_travel_brings_everyone_else_with_their_heirs_r72():
    state = heir(holding(court(), "Ben", "Writ"), "George of Clarence", by="Herbert")
    state = play(called(state), "next")  # Ben does not excuse
    s = seated(state)
    assert set(s.attending) == set(state.nobles)
    assert state.nobles["Neville"].at == "in:Coventry"  # Ann's town: inside
    assert state.nobles["Percy"].at == "in:Coventry"
    assert state.nobles["Herbert"].at == "near:Coventry"  # another's: its open square
    assert rules.heir_location(state, "George of Clarence") == "near:Coventry"
    hull = play(put(court(), "Neville", "near:Hull"), "parliament call at Hull summon Clifford")
    assert {s.at for s in hull.nobles.values()} == {"near:Hull"}  # an unfortified P


def test_sieges_left_below_half_break_and_their_besieged_attend():
    state = put(court(), "Talbot", "near:Skipton")
    state = siege(state, "Skipton", "Cat", ["Talbot"])  # Clifford inside, under siege
    state = put(state, "Clifford", "in:Skipton")
    state = holding(state, "Cat", "Writ")
    state = play(called(state, "Herbert"), "excuse Courtenay", "next")
    assert "Skipton" not in state.sieges
    assert "Clifford" in seated(state).attending and "Talbot" in seated(state).attending
    assert any("siege of Skipton is broken" in t for _, t in state.chronicle)
    kept = holding(put(court(), "Talbot", "near:Skipton"), "Cat", "Writ")
    kept = give(kept, "Burgundian Mercenaries", "Talbot")  # 130: at least half of 120
    kept = siege(put(kept, "Clifford", "in:Skipton"), "Skipton", "Cat", ["Talbot"])
    kept = play(called(kept, "Herbert"), "excuse Talbot", "next")
    assert "Skipton" in kept.sieges and "Clifford" not in seated(kept).attending


def test_a_ship_siege_broken_by_the_call_kills_nobody():
    state = ship(court(), "Christopher", "Talbot", "port:Newcastle")
    state = put(put(state, "Talbot", "aboard:Christopher"), "Courtenay", "near:Newcastle")
    state = siege(state, "Newcastle", "Cat", ["Talbot", "Courtenay"], via="Christopher")
    state = called(state, "Herbert")  # Courtenay leaves: below half
    assert "Newcastle" not in state.sieges and "Talbot" in state.nobles
    assert state.nobles["Talbot"].at == "near:Coventry" and "Christopher" in state.ships


def test_ships_at_sea_come_to_a_mainland_port_r74():
    state = ship(put(court(), "Stafford", "aboard:Swan"), "Swan", "Stafford", "sea:Irish Sea")
    state = play(called(state), "next")  # Ben might have excused Stafford free
    assert rules.duty(state).kind == "port" and GAME.to_act(state).players == ("Ben",)
    illegal(state, "stay Swan", "must-port")
    illegal(state, "port Swan Douglas", "off-mainland")
    illegal(state, "port Swan Coventry", "not-a-port")
    illegal(state, "port Swan Harlech", "unfriendly-port")  # neutral, with a force aboard
    state = play(state, "port Swan Hull")
    assert state.ships["Swan"].at == "port:Hull" and state.nobles["Stafford"].at == \
        "near:Coventry"
    assert seated(state).step == "bishops"


def test_a_ship_whose_force_stays_away_may_stay():
    state = holding(court(), "Ben", "Writ")
    state = ship(put(state, "Stafford", "aboard:Swan"), "Swan", "Stafford", "sea:Irish Sea")
    state = play(called(state), "excuse Stafford sea", "next", "next")  # no revocation
    assert rules.duty(state).choices == ("stay",)
    assert illegal(state, "stay Swan freemove", "no-freemove-needed").rule == "R-74"
    assert play(state, "stay Swan").ships["Swan"].at == "sea:Irish Sea"
    landed = play(state, "port Swan Hull")
    assert landed.nobles["Stafford"].at == "near:Hull"  # excused: he lands


def test_r36_the_tally_is_frozen_for_the_session():
    state = called()
    s = seated(state)
    votes = rules.tally(state, s.attending)
    assert s.tally == tuple((p, *votes[p]) for p in ("Ann", "Ben", "Cat"))
    commons = {p: c for p, c, _ in s.tally}
    assert commons["Ann"] >= 20  # the King's 20
    state = play(state, "bishop Bishop-of-Durham to Talbot")
    assert seated(state).tally == s.tally  # Durham's Lords do not count this time
    assert "tally, frozen (Commons/Lords, R-36)" in GAME.render(state)


# ---- 7.3 the rounds ------------------------------------------------------------------------------

def sitting_of(state, **changes):
    return evolve(state, sitting=evolve(seated(state), **changes))


def test_round_1_bishops_first_all_that_can_be_placed():
    state = called(court(cards=("Bishop of Durham", "Bishop of Carlisle", "Earl of Kent")))
    s = seated(state)
    assert s.step == "bishops" and s.leader == "Ann"
    illegal(state, "select Earl-of-Kent", "not-now")
    illegal(state, "bishop Bishop-of-Durham to Neville", "has-bishop")  # holds Lincoln
    illegal(state, "bishop Earl-of-Kent to Percy", "not-in-chancery")
    away = sitting_of(state, attending=tuple(n for n in s.attending if n != "Percy"))
    illegal(away, "bishop Bishop-of-Durham to Percy", "not-attending")
    state = play(state, "bishop Bishop-of-Durham to Percy")
    assert rules.holder(state, "Bishop of Durham") == "Percy" and seated(state).step == "bishops"
    state = play(state, "bishop Bishop-of-Carlisle to Clifford")
    assert seated(state).step == "select"
    assert seated(state).bishops == ("Bishop of Durham", "Bishop of Carlisle")
    # once no attending noble may take one, the other bishops go back to the Chancery
    few = called(court(cards=("Bishop of Durham", "Bishop of Carlisle", "Earl of Kent")))
    few = sitting_of(few, attending=("Neville", "Percy"))
    few = play(few, "bishop Bishop-of-Carlisle to Percy")
    assert seated(few).step == "select" and few.cards["Bishop of Durham"] == CHANCERY
    assert seated(few).pool == ("Earl of Kent",)


def test_selection_titles_first_and_proposals_in_order():
    state = called(court(cards=("Earl of Essex", "Earl of Kent", "Marshal of England")))
    event = GAME.parse(state, "select Marshal-of-England,Earl-of-Kent", "Ann")
    assert event["cards"] == ("Earl of Kent", "Marshal of England")  # typed in any order
    from referee.engine import Event, apply_event
    from tests.kingmaker_realm import THREE
    bad = Event.make("select", "Ann", cards=["Marshal of England", "Earl of Kent"])
    with pytest.raises(Exception) as info:
        apply_event(GAME, state, bad, THREE)
    assert info.value.code == "titles-first"
    illegal(state, "select Bishop-of-Lincoln", "not-in-chancery")
    illegal(state, "select Earl-of-Kent,Earl-of-Kent", "duplicate-card")
    state = play(state, "select Earl-of-Kent,Marshal-of-England")
    err = illegal(state, "propose Marshal-of-England to Stafford", "out-of-order")
    assert err.rule == "§7.3"


def test_r37_eligibility_at_each_proposal():
    state = called(court(cards=("Earl of Kent", "Marshal of England")))
    state = play(state, "select Earl-of-Kent,Marshal-of-England")
    assert illegal(state, "propose Earl-of-Kent to Stafford", "titled").rule == "R-37"
    far = siege(put(state, "Talbot", "near:Raglan"), "Raglan", "Cat", ["Talbot"])
    far = put(far, "Herbert", "in:Raglan")
    illegal(far, "propose Earl-of-Kent to Herbert", "under-siege")
    assert "propose Earl-of-Kent to Herbert" in texts(state, "Ann")
    state = play(state, "propose Earl-of-Kent to Herbert", "vote yea Ann")
    assert rules.holder(state, "Earl of Kent") == "Herbert"
    illegal(state, "propose Marshal-of-England to Clifford", "untitled")
    illegal(give(state, "Chamberlain of England", "Stafford"),
            "propose Marshal-of-England to Stafford", "has-office")
    # a non-attending noble is eligible too
    excused = sitting_of(state, attending=tuple(n for n in seated(state).attending
                                                if n != "Talbot"))
    assert play(excused, "propose Marshal-of-England to Talbot").sitting.step == "vote"


def test_a_selected_card_with_no_eligible_noble_moves_on():
    state = called(court(cards=("Earl of Kent", "Chamberlain of England")))
    for title, noble in (("Earl of Essex", "Clifford"), ("Earl of Pembroke", "Herbert"),
                         ("Earl of Wiltshire", "Bourchier")):
        state = give(state, title, noble)  # every noble in play is titled now
    state = play(state, "select Earl-of-Kent,Chamberlain-of-England")
    assert seated(state).selected == ("Chamberlain of England",)
    assert GAME.to_act(state).prompt.startswith("Ann proposes Chamberlain of England")


def test_r38_votes_each_player_one_way_a_tie_or_no_vote_fails():
    state = play(called(court(cards=("Earl of Kent",))), "select Earl-of-Kent",
                 "propose Earl-of-Kent to Herbert")
    err = illegal(state, "vote yea Ann nay Ann", "split-vote")
    assert err.rule == "R-38"
    illegal(state, "vote yea Ann,Ann", "split-vote")
    lines = GAME.option_lines(state, GAME.legal(state))
    assert any(line.startswith("vote yea PLAYERS nay PLAYERS   (on Earl of Kent to Herbert")
               for line in lines)
    assert "Ben has" in GAME.legal_note(state, "Ben")
    none = play(state, "vote none")
    assert not seated(none).ballots[-1].passed and rules.holder(none, "Earl of Kent") is None
    assert GAME.count_moves(state) == sum(1 for _ in GAME.every_move(state)) >= 27


def test_round_2_skipped_on_a_tie_round_3_by_the_senior_bishop_r39():
    state = play(called(court(cards=("Earl of Kent",))), "select none")
    assert (seated(state).round, seated(state).leader) == (2, "Ann")  # the most Commons
    tied = sitting_of(called(court(cards=("Earl of Kent",))),
                      tally=(("Ann", 10, 1), ("Ben", 10, 1), ("Cat", 5, 1)))
    tied = play(tied, "select none")
    assert seated(tied).round == 3 and "round 2 of Parliament is skipped" in \
        tied.chronicle[-2][1]
    # round 3: Neville's Lincoln (2) against Talbot's Norwich (2): two players tie, skipped
    tie = give(called(court(cards=("Earl of Kent",))), "Bishop of Norwich",
               "Talbot")
    tie = sitting_of(tie, tally=(("Ann", 10, 1), ("Ben", 10, 1), ("Cat", 5, 1)))
    tie = play(tie, "select none")
    assert seated(tie).step == "business"
    # one player holding both tied bishops leads
    both = give(called(court(cards=("Earl of Kent",))), "Bishop of Norwich",
                "Percy")
    both = sitting_of(both, tally=(("Ann", 10, 1), ("Ben", 10, 1), ("Cat", 5, 1)))
    both = play(both, "select none")
    assert seated(both).leader == "Ann" and seated(both).round == 3


def test_round_3_assigns_every_card_that_can_go_without_a_vote():
    state = give(called(court(cards=("Earl of Kent", "Marshal of England"))),
                 "Bishop of Durham", "Talbot")
    state = sitting_of(state, tally=(("Ann", 10, 1), ("Ben", 10, 1), ("Cat", 5, 1)))
    state = play(state, "select none")
    assert seated(state).leader == "Cat"
    illegal(state, "assign Earl-of-Kent to chancery", "to-chancery")
    illegal(state, "assign Earl-of-Kent to Talbot", "titled")
    illegal(state, "dismiss", "not-now")
    illegal(state, "next", "in-session")
    state = play(state, "assign Marshal-of-England to Talbot")
    assert seated(state).step == "assign"
    state = play(state, "assign Earl-of-Kent to Bourchier")
    assert seated(state).step == "business" and seated(state).pool == ()


def test_round_3_with_nothing_to_assign_says_why_it_ends():
    state = give(called(court(cards=("Earl of Kent",))), "Bishop of Durham", "Talbot")
    for title, noble in (("Earl of Essex", "Clifford"), ("Earl of Pembroke", "Herbert"),
                         ("Earl of Wiltshire", "Bourchier")):
        state = give(state, title, noble)  # every noble in play is titled now
    state = sitting_of(state, tally=(("Ann", 10, 1), ("Ben", 10, 1), ("Cat", 5, 1)))
    state = play(state, "select none")
    assert seated(state).step == "business" and seated(state).round == 0
    said = [text for _, text in state.chronicle[-2:]]
    assert said[0].startswith("round 3 of Parliament is led by Cat")
    assert said[1] == ("round 3 ends: no noble may take the 1 title(s) and office(s) left "
                       "(R-37); they stay in the Chancery (R-82)")  # face down: no names
    assert "round 3" not in GAME.render(state)


def test_round_3_lasts_while_a_later_card_of_the_pool_has_an_eligible_noble():
    """7.3: the round lasts while ANY card left has an eligible noble, not only the first: every
    noble is titled (the Earl, first in the pool, has none), the Marshal may still go."""
    state = give(called(court(cards=("Earl of Kent", "Marshal of England"))),
                 "Bishop of Durham", "Talbot")
    for title, noble in (("Earl of Essex", "Clifford"), ("Earl of Pembroke", "Herbert"),
                         ("Earl of Wiltshire", "Bourchier")):
        state = give(state, title, noble)  # every noble in play is titled now
    state = sitting_of(state, tally=(("Ann", 10, 1), ("Ben", 10, 1), ("Cat", 5, 1)))
    state = play(state, "select none")
    assert (seated(state).round, seated(state).step) == (3, "assign")
    assert seated(state).pool[0] == "Earl of Kent"
    illegal(state, "assign Earl-of-Kent to Talbot", "titled")
    state = play(state, "assign Marshal-of-England to Talbot")
    assert seated(state).step == "business" and rules.holder(state, "Marshal of England") == \
        "Talbot"
    assert state.chronicle[-1][1].startswith("round 3 ends: no noble may take the 1 title(s)")


def test_the_chancery_is_listed_to_the_leader_only_r81():
    state = called(court())
    assert not [e for e in GAME.legal(state) if e.type == "bishop" and
                not GAME.private(state, e)]
    assert "options --for Ann" in GAME.legal_note(state, "Ben")
    assert "4 Chancery card(s) in play (face down)" in GAME.render(state)
    assert [e for e in GAME.legal(state, "Ann") if e.type == "bishop"]


def test_only_the_chanceries_cards_are_private_r81():
    """An `assign` names a Chancery card in round 3 (listed to the leader only); one that lays
    out a card dealt to a player is his own to see, whatever step the Parliament is at."""
    state = called(court())
    state = evolve(state, sitting=evolve(seated(state), step="assign"))
    pool_card = seated(state).pool[0]
    assert GAME.private(state, Event("assign", "Ann", (("card", pool_card), ("to", "Clifford"))))
    dealt = Event("assign", "Ben", (("card", "Bristol"), ("to", "Herbert")))
    assert "Bristol" not in seated(state).pool
    assert not GAME.private(state, dealt)
    assert not GAME.private(evolve(state, sitting=None), dealt)


def test_cards_reaching_the_chancery_later_wait_for_the_next_parliament_r82():
    state = called(court(cards=("Earl of Kent",)))
    assert seated(state).pool == ("Earl of Kent",)
    later = chancery(state, "Earl of Essex")
    illegal(later, "select Earl-of-Essex", "not-in-chancery")
    later = play(later, "select Earl-of-Kent", "propose Earl-of-Kent to Herbert", "vote nay Ann")
    assert later.cards["Earl of Essex"] == CHANCERY and "Earl of Essex" not in seated(later).pool
