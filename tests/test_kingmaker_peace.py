"""Kingmaker's Parliament, continued (§7.4-7.7): other business (the illegitimacy motion and its
bound votes, transfers of titles and offices), the return home, the King's Peace rule by rule,
and the People's Parliament (rulings R-40..R-42, R-54..R-56, R-59, R-71, R-75..R-80, R-87)."""

from __future__ import annotations


import pytest

from referee.errors import NotationError
from referee.evolve import evolve
from referee.games.kingmaker import GAME, rules
from referee.games.kingmaker.state import CHANCERY, Parliament, Peace
from tests.kingmaker_realm import (
    at_phase,
    dead,
    give,
    heir,
    illegal,
    own,
    play,
    put,
    remove,
    ship,
    siege,
)
from tests.test_kingmaker_parliament import called, court, holding, seated, sitting_of


def two_kings(**kw):
    """No sole King: Henry (Ann's Neville) and Edward of March (Ben's Clifford) are crowned; Ann
    holds the Chancellor (Percy, at Coventry) and the card to call; the Chancery is empty."""
    state = court(cards=(), **kw)
    state = heir(state, "Edward of March", by="Clifford", crowned=True)
    state = put(give(state, "Chancellor of England", "Percy"), "Percy", "near:Coventry")
    return holding(state, "Ann", "Chancellor May Call Parliament")


def business(state=None, summon="Clifford"):
    state = called(state or two_kings(), summon)
    assert seated(state).step == "business", seated(state).step
    return state


# ---- 7.4 other business ------------------------------------------------------------------------

def test_an_illegitimacy_motion_with_bound_votes_r54():
    state = business()
    assert "illegitimate Edward-of-March" in [GAME.format(state, e) for e in GAME.legal(state)]
    illegal(state, "illegitimate Edward-of-March", "not-yours", by="Ben")
    illegal(state, "illegitimate Margaret-of-Anjou", "not-a-king", by="Ann")
    state = play(state, "illegitimate Edward-of-March", by="Ann")
    motion = seated(state).motion
    assert dict(motion.forced) == {"Ann": "yea", "Ben": "nay"}  # Cat holds no heir: free
    assert illegal(state, "vote yea Ann,Ben", "bound-vote").rule == "R-54"
    illegal(state, "vote nay Ben", "bound-vote")  # Ann may not abstain
    assert any("Ann must vote yea, Ben must vote nay (R-54)" in line
               for line in GAME.option_lines(state, GAME.legal(state)))
    state = play(state, "vote yea Ann nay Ben,Cat")
    assert seated(state).ballots[-1].passed
    assert not state.heirs["Edward of March"].crowned
    assert state.lines["york"][-1] == "Edward of March"
    assert rules.sole_king(state) == "Henry"
    assert rules.guards(state) == {"Duke of Lancaster": "Neville", "Duke of York": "Neville"}
    illegal(state, "illegitimate Edward-of-March", "two-kings", by="Ann")


def test_no_round_is_shown_running_during_other_business():
    state = play(business(), "illegitimate Edward-of-March", by="Ann")
    shown = GAME.render(state)
    assert "the vote: King Edward of March's illegitimacy" in shown
    assert "round" not in shown.split("Parliament at")[1] and \
        GAME.board(state)["parliament"]["round"] is None


def test_r40_once_per_king_per_parliament():
    state = sitting_of(business(), tally=(("Ann", 10, 2), ("Ben", 20, 9), ("Cat", 1, 1)))
    failed = play(state, "illegitimate Edward-of-March", by="Ann", )
    failed = play(failed, "vote yea Ann nay Ben", "heir Henry to Percy")
    assert rules.controller(failed, "Henry") == "Percy" and len(rules.kings(failed)) == 2
    err = illegal(failed, "illegitimate Edward-of-March", "moved-already", by="Ann")
    assert err.rule == "R-40"
    again = play(failed, "illegitimate Henry", by="Ben")  # another King: Ben may move it
    assert seated(again).question.card == "Henry" and dict(seated(again).motion.forced) == \
        {"Ann": "nay", "Ben": "yea"}


def test_no_motion_while_beaufort_is_a_king():
    state = dead(business(), "Margaret of Anjou", "Edward of Lancaster", "Henry")
    from tests.kingmaker_realm import enter
    state = enter(state, "Beaufort", "Cat", "near:Coventry")
    state = evolve(state, beaufort_crowned=True)
    assert rules.BEAUFORT in rules.kings(state)
    illegal(state, "illegitimate Edward-of-March", "beaufort-king", by="Cat")


def test_a_failed_motion_strips_the_mover_who_dies_if_the_other_king_attends():
    state = give(business(), "Marshal of England", "Neville")
    state = sitting_of(state, tally=(("Ann", 10, 2), ("Ben", 20, 9), ("Cat", 1, 1)))
    state = play(state, "illegitimate Edward-of-March", by="Ann", )
    state = play(state, "vote yea Ann nay Ben")
    assert state.cards["Marshal of England"] == CHANCERY
    assert "Neville" not in state.nobles  # Edward of March is at Parliament with Clifford
    duty = rules.duty(state)
    assert duty.kind == "heir" and duty.subject == "Henry" and "Neville" not in duty.choices
    state = play(state, "heir Henry to Talbot", by="Ann")
    assert rules.controller(state, "Henry") == "Talbot"
    # Edward away (Clifford excused, Herbert summoned): the mover lives
    away = holding(two_kings(), "Ben", "Writ")
    away = play(called(away, "Herbert"), "excuse Clifford", "next")
    away = sitting_of(away, tally=(("Ann", 10, 2), ("Ben", 20, 9), ("Cat", 1, 1)))
    away = play(away, "illegitimate Edward-of-March", by="Ann")
    away = play(away, "vote yea Ann nay Ben")
    assert "Neville" in away.nobles and rules.duty(away).kind == "heir"


def test_a_motion_needs_two_kings_and_an_attending_mover():
    state = business(summon="Herbert")
    one_king = evolve(state, heirs={**state.heirs, "Edward of March": evolve(
        state.heirs["Edward of March"], crowned=False)})
    illegal(one_king, "illegitimate Henry", "two-kings", by="Ben")
    away = holding(two_kings(), "Ben", "Writ")
    away = play(called(away, "Herbert"), "excuse Clifford", "next")
    illegal(away, "illegitimate Henry", "not-attending", by="Ben")
    both = heir(state, "Edward of March", by="Neville", crowned=True)
    illegal(both, "illegitimate Edward-of-March", "both-kings", by="Ann")


def test_title_transfers_need_a_vote_office_transfers_the_callers_approval():
    state = give(give(business(), "Earl of Essex", "Herbert"), "Chamberlain of England",
                 "Stafford")
    illegal(state, "transfer Earl-of-Essex from Herbert to Talbot", "not-agreed", by="Ben")
    illegal(state, "transfer Earl-of-Essex from Herbert to Stafford", "titled", by="Ben")
    office = give(state, "Warden of the Cinque Ports", "Herbert")
    assert illegal(office, "transfer Earl-of-Essex from Herbert to Clifford", "giver-has-office",
                   by="Ben").rule == "R-41"
    state = play(state, "transfer Earl-of-Essex from Herbert to Clifford", by="Ben")
    assert seated(state).step == "vote" and rules.holder(state, "Earl of Essex") == "Herbert"
    state = play(state, "vote yea Ann,Ben")
    assert rules.holder(state, "Earl of Essex") == "Clifford"
    err = illegal(state, "transfer Chamberlain-of-England from Stafford to Talbot agreed",
                  "not-approved", by="Ben")
    assert err.rule == "R-79"
    illegal(state, "transfer Chamberlain-of-England from Stafford to Bourchier agreed approved",
            "untitled", by="Ben")
    state = play(state, "transfer Chamberlain-of-England from Stafford to Talbot agreed approved",
                 by="Ben")
    assert rules.holder(state, "Chamberlain of England") == "Talbot"
    by_caller = give(business(), "Admiral of England", "Percy")
    by_caller = play(by_caller, "transfer Admiral-of-England from Percy to Neville", by="Ann")
    assert rules.holder(by_caller, "Admiral of England") == "Neville"


def test_titles_and_offices_pass_only_as_business_of_a_parliament_in_session():
    rounds = give(called(court()), "Earl of Essex", "Herbert")
    assert seated(rounds).step == "bishops"
    illegal(rounds, "transfer Earl-of-Essex from Herbert to Clifford", "parliament-only",
            by="Ben")


def test_refusals_in_parliament_name_their_rule():
    state = business()
    uncontrolled = heir(state, "Henry", by=None)  # nobody controls Henry: nobody moves (7.4)
    err = illegal(uncontrolled, "illegitimate Edward-of-March", "no-mover", by="Ann")
    assert err.rule == "§7.4" and "uncontrolled" in err.message
    with pytest.raises(NotationError) as printed:  # Neville's Earl of Warwick is printed
        play(state, "transfer Earl-of-Warwick from Neville to Percy", by="Ann")
    assert printed.value.code == "printed-title" and printed.value.rule == "§7.4"
    assert "printed titles never move" in printed.value.message
    due = play(kingless(), "event Parliament-Must-Be-Summoned")
    for move, rule in (("parliament people at Hull moving Clifford summon Talbot", "§7.7"),
                       ("parliament people at Hull moving Clifford host Clifford", "R-80"),
                       ("parliament call at Hull moving Clifford", "§7.7"),
                       ("vote Ann", "R-38")):
        with pytest.raises(NotationError) as refused:
            play(due, move, by="Ben")
        assert refused.value.rule == rule, move
    voted = play(state, "illegitimate Edward-of-March", by="Ann")
    voted = play(voted, "vote yea Ann nay Ben,Cat")
    err = illegal(voted, "vote yea Ann", "voted-already")
    assert err.rule == "R-75" and "Edward of March's illegitimacy, moved by Neville is " \
        "recorded already" in err.message and "passed" in err.message


# ---- 7.5 the return -----------------------------------------------------------------------------

def dismissed(state=None):
    return play(state or business(), "dismiss")


def test_the_return_one_player_at_a_time_the_caller_last():
    state = dismissed()
    assert seated(state).order == ("Ben", "Cat", "Ann") and GAME.to_act(state).players == ("Ben",)
    illegal(state, "return Neville", "not-your-turn", by="Ann")
    illegal(state, "return Clifford to in:Raglan", "not-home")
    illegal(state, "stay Clifford", "freemove-needed")
    illegal(state, "stay Clifford freemove", "no-freemove")
    illegal(state, "next", "still-attending")
    state = play(state, "return Clifford", "return Herbert", "return Stafford")
    assert GAME.to_act(state).players == ("Cat",)
    assert state.nobles["Clifford"].at == "in:Skipton"
    assert rules.heir_location(state, "Edward of March") == "in:Skipton"  # heirs go along
    state = play(state, "return Talbot", "return Courtenay", "return Bourchier")
    illegal(state, "stay Neville freemove", "no-freemove")
    state = play(state, "stay Percy", "return Neville")  # Percy, the Chancellor, called it
    assert state.sitting is None and state.stage in ("coronation", "draw")
    assert state.nobles["Percy"].at == "near:Coventry"
    peace = state.peace
    assert peace.caller == "Ann" and peace.place == "Coventry"
    assert "Percy" not in peace.returned and "Neville" in peace.returned
    record = state.parliaments[-1]
    assert record.chancellor and record.by == "Percy" and record.place == "Coventry"


def test_a_free_move_keeps_a_noble_or_a_ship_r55_keeps_an_excused_ship():
    state = holding(holding(two_kings(), "Ben", "Writ"), "Cat", "Free Move", "Free Move")
    state = ship(state, "Swan", "Stafford", "port:Bristol")
    state = ship(put(state, "Bourchier", "aboard:Trinity"), "Trinity", "Bourchier",
                 "sea:Irish Sea")
    state = holding(state, "Cat", "Writ")
    state = play(called(state, "Herbert"), "next", "excuse Bourchier sea", "next", "next")
    assert rules.duty(state).choices == ("stay",)
    state = play(state, "stay Trinity")
    state = play(state, "dismiss", "return Clifford", "return Herbert", "return Stafford")
    illegal(state, "stay Trinity freemove", "stays-anyway", by="Cat")
    state = play(state, "stay Talbot freemove", "return Courtenay")
    assert state.held["Cat"].count("Free Move") == 1
    state = play(state, "stay Percy", "return Neville")
    assert state.ships["Trinity"].at == "sea:Irish Sea"
    assert state.ships["Swan"].at == "port:Harlech"  # home
    assert "Swan" in state.peace.ships and "Trinity" not in state.peace.ships
    assert "Talbot" not in state.peace.returned and state.nobles["Talbot"].at == "near:Coventry"


def test_keeping_a_ship_costs_a_free_move():
    state = holding(ship(business(), "Swan", "Stafford", "port:Bristol"), "Ben", "Free Move")
    state = dismissed(state)
    illegal(state, "stay Swan", "freemove-needed")
    state = play(state, "stay Swan freemove", "return Clifford", "return Herbert",
                 "return Stafford")
    assert GAME.to_act(state).players == ("Cat",)
    state = play(state, "return Talbot", "return Courtenay", "return Bourchier", "stay Percy",
                 "return Neville")
    assert state.ships["Swan"].at == "port:Bristol" and "Swan" not in state.peace.ships


# ---- 7.6 the King's Peace -----------------------------------------------------------------------

def peaceful():
    """After Ann's Parliament: everyone went home but Percy (the Chancellor, who stayed free)."""
    state = dismissed()
    state = play(state, "return Clifford", "return Herbert", "return Stafford", "return Talbot",
                 "return Courtenay", "return Bourchier", "stay Percy", "return Neville")
    return state


def test_rule_2_returned_nobles_keep_still_and_rule_6_an_event_frees_them():
    state = at_phase(peaceful(), "movement", seat=1)
    err = illegal(state, "move Clifford to near:York", "kings-peace")
    assert err.rule == "§7.6" and "rule 2" in err.message
    assert not [e for e in GAME.legal(state) if e.type == "move" and "Clifford" in e["nobles"]]
    called_off = give(state, "Warden of the Northern Marches", "Clifford")
    chance = evolve(at_phase(called_off, "chance", seat=1), event_drawn=False)
    chance = play(chance, "event Scots-Raid", "respond Clifford")
    assert chance.nobles["Clifford"].at == "near:Newcastle"
    assert "Clifford" not in chance.peace.returned  # moved by an event: excused (rule 6)
    moving = at_phase(chance, "movement", seat=1)
    assert play(moving, "move Clifford to near:York").nobles["Clifford"].at == "near:York"


def test_rule_1_and_5_no_combat_at_parliament_and_nobody_attacks_the_returned():
    state = at_phase(put(peaceful(), "Talbot", "near:Coventry"), "combat", seat=2)
    state = evolve(state, peace=evolve(state.peace, returned=tuple(
        n for n in state.peace.returned if n != "Talbot")))
    err = illegal(state, "attack at near:Coventry with Talbot on Percy", "kings-peace")
    assert "Parliament's square" in err.message
    near = at_phase(put(peaceful(), "Talbot", "near:Skipton"), "combat", seat=2)
    near = evolve(near, peace=evolve(near.peace, returned=tuple(
        n for n in near.peace.returned if n != "Talbot")))
    near = give(near, "Burgundian Mercenaries", "Talbot")
    err = illegal(near, "siege lay Skipton with Talbot", "kings-peace")
    assert "rule 5" in err.message
    assert not [e for e in GAME.legal(near) if e.type == "siege" and e["place"] == "Skipton"]


def test_rule_3_near_an_enemy_held_home_castle_only_a_siege_of_it():
    state = own(business(), "Skipton", "Talbot")  # Cat holds Clifford's home
    state = dismissed(state)
    state = play(state, "return Clifford", "return Herbert", "return Stafford", "return Talbot",
                 "return Courtenay", "return Bourchier", "stay Percy", "return Neville")
    assert state.nobles["Clifford"].at == "near:Skipton"
    state = at_phase(give(state, "Burgundian Mercenaries", "Clifford"), "movement", seat=1)
    assert "rule 3" in illegal(state, "move Clifford to near:York", "kings-peace").message
    fight = at_phase(state, "combat", seat=1)
    laid = play(fight, "siege lay Skipton with Clifford")
    assert "Skipton" in laid.sieges
    joined = siege(fight, "Skipton", "Ben", ["Herbert"])
    joined = put(joined, "Herbert", "near:Skipton")
    joined = evolve(joined, peace=evolve(joined.peace, returned=tuple(
        n for n in joined.peace.returned if n != "Herbert")))
    illegal(joined, "siege join Skipton with Clifford", "kings-peace")


def test_rule_4_returned_ships_keep_still():
    state = ship(business(), "Swan", "Stafford", "port:Bristol")
    state = dismissed(state)
    state = play(state, "return Clifford", "return Herbert", "return Stafford", "return Talbot",
                 "return Courtenay", "return Bourchier", "stay Percy", "return Neville")
    assert state.ships["Swan"].at == "port:Harlech" and "Swan" in state.peace.ships
    moving = at_phase(state, "movement", seat=1)
    assert "rule 4" in illegal(moving, "sail Swan to sea:Irish-Sea", "kings-peace").message


def test_rule_7_excused_nobles_act_freely_but_not_against_the_returned():
    state = at_phase(peaceful(), "movement", seat=0)
    assert play(state, "move Percy to near:York").nobles["Percy"].at == "near:York"
    fight = at_phase(put(put(peaceful(), "Percy", "near:York"), "Talbot", "near:York"),
                     "combat", seat=0)
    err = illegal(fight, "attack at near:York with Percy on Talbot", "kings-peace")
    assert "rule 5" in err.message


def test_the_peace_ends_just_before_the_callers_next_chance_phase_r32_r71():
    state = play(peaceful(), "draw hidden", "next")
    assert "King's Peace (7.6)" in GAME.render(state)
    while state.active != "Ann" or state.stage != "chance":
        state = quiet(state)
    assert state.peace is None and state.peace_over == state.turn
    assert "No Parliament may be called before turn" in GAME.render(state)


def quiet(state):
    from tests.kingmaker_realm import quiet_turn
    return quiet_turn(state)


# ---- 7.7 the People's Parliament ----------------------------------------------------------------

def kingless():
    state = dead(court(cards=("Earl of Kent",)), "Henry")
    return evolve(at_phase(state, "chance", seat=1), event_drawn=False)


def test_the_peoples_parliament_card_needs_its_window_r59_r71():
    state = kingless()
    due = play(state, "event Parliament-Must-Be-Summoned")
    assert due.people_due and due.stage == "parliament" and GAME.to_act(due).players == ("Ben",)
    illegal(due, "next", "people-due")
    recent = evolve(state, parliaments=(Parliament(state.turn - 3, "Cat", "Talbot"),))
    assert not play(recent, "event Parliament-Must-Be-Summoned").people_due
    older = evolve(state, parliaments=(Parliament(state.turn - 4, "Cat", "Talbot"),))
    assert play(older, "event Parliament-Must-Be-Summoned").people_due
    peace = evolve(state, peace=Peace("Cat", "York", (), ()))
    assert not play(peace, "event Parliament-Must-Be-Summoned").people_due


def test_the_drawer_names_the_place_moving_or_naming_the_host_r80_r56():
    due = play(kingless(), "event Parliament-Must-Be-Summoned")
    illegal(due, "parliament people at Middleham moving Clifford", "not-a-town")
    illegal(due, "parliament people at Coventry moving Clifford", "unfriendly")  # Ann's town
    illegal(due, "parliament people at Hull", "moving-needed")
    illegal(due, "parliament people at Hull moving Talbot", "not-your-noble")
    two = put(put(due, "Clifford", "near:Hull"), "Herbert", "near:Hull")
    illegal(two, "parliament people at Hull moving Stafford", "no-move-needed")
    illegal(two, "parliament people at Hull", "no-host")
    illegal(two, "parliament people at Hull host Stafford", "not-there")
    state = play(due, "parliament people at Hull moving Clifford")
    s = seated(state)
    assert s.people and s.noble == "Clifford" and s.caller == "Ben" and s.excused == ()
    assert set(s.attending) == set(state.nobles)  # everyone attends


def test_every_siege_breaks_and_the_host_stays_free():
    state = put(kingless(), "Talbot", "near:Skipton")
    state = give(give(state, "Welsh Mercenaries #1", "Talbot"), "Burgundian Mercenaries",
                 "Courtenay")  # both sieges hold until the call
    state = siege(put(state, "Clifford", "in:Skipton"), "Skipton", "Cat", ["Talbot"])
    state = ship(state, "Christopher", "Courtenay", "port:Newcastle")
    state = put(state, "Courtenay", "aboard:Christopher")
    state = siege(state, "Newcastle", "Cat", ["Courtenay"], via="Christopher")
    state = play(state, "event Parliament-Must-Be-Summoned", "parliament people at Hull moving "
                 "Herbert")
    assert not state.sieges and "Courtenay" in seated(state).attending
    while seated(state).step != "business":
        state = play(state, GAME.format(state, next(e for e in GAME.legal(state)
                                                    if e.type in ("select", "propose", "vote",
                                                                  "assign", "bishop"))))
    state = play(state, "dismiss")
    illegal(state, "stay Herbert", "not-your-turn", by="Ben")
    while GAME.to_act(state).players != ("Ben",):
        event = next(e for e in GAME.legal(state) if e.type == "return")
        state = play(state, GAME.format(state, event))
    state = play(state, "stay Herbert", "return Clifford", "return Stafford")
    assert state.nobles["Herbert"].at == "near:Hull" and state.stage in ("coronation", "draw")
    assert state.parliaments[-1].people and state.peace.caller == "Ben"
    (story,) = GAME.score(state).sections  # what happened, turn by turn
    assert story.rows[-1][1].startswith("the People's Parliament, led by Ben at Hull")


def test_options_list_every_peoples_parliament_move_that_play_accepts():
    due = play(kingless(), "event Parliament-Must-Be-Summoned")
    legal = [GAME.format(due, e) for e in GAME.legal(due) if e.type == "parliament"]
    for noble in ("Clifford", "Herbert", "Stafford"):  # any of his may be the nearest (7.7)
        assert f"parliament people at Hull moving {noble}" in legal
        assert play(due, f"parliament people at Hull moving {noble}").sitting is not None
    lines = GAME.option_lines(due, GAME.legal(due))
    assert not [line for line in lines if "summon" in line]  # 7.7: no summons
    [folded] = [line for line in lines if line.startswith("parliament people")]
    assert folded.startswith("parliament people at PLACE moving NOBLE   (PLACE: ")
    assert "Hull" in folded and "Clifford, Herbert, Stafford" in folded
    hosted = put(due, "Herbert", "near:Hull")
    legal = [GAME.format(hosted, e) for e in GAME.legal(hosted) if e.type == "parliament"]
    assert "parliament people at Hull host Herbert" in legal
    assert not [move for move in legal if move.startswith("parliament people at Hull moving")]
    assert "parliament people at Hull host Herbert" in GAME.option_lines(hosted,
                                                                         GAME.legal(hosted))


def besieged_drawer():
    """Ben, who will draw the card, has Clifford and Herbert only, each besieged by Cat in his
    own castle, so that no noble of his is free to go to Parliament."""
    state = dead(court(cards=("Earl of Kent",), Ben=["Clifford", "Herbert"]), "Henry")
    state = evolve(at_phase(state, "chance", seat=1), event_drawn=False)
    for (noble, home), cats, hired in ((("Clifford", "Skipton"), "Talbot",
                                        "Burgundian Mercenaries"),
                                       (("Herbert", "Raglan"), "Courtenay",
                                        "Welsh Mercenaries #1")):
        state = own(put(state, noble, f"in:{home}"), home, noble)
        state = give(put(state, cats, f"near:{home}"), hired, cats)
        state = siege(state, home, "Cat", [cats])
    return state


def test_r87_a_drawer_whose_nobles_are_all_besieged_still_holds_it():
    due = play(besieged_drawer(), "event Parliament-Must-Be-Summoned")
    assert due.people_due and set(due.sieges) == {"Skipton", "Raglan"}
    moves = [GAME.format(due, e) for e in GAME.legal(due) if e.type == "parliament"]
    assert "parliament people at Hull moving Clifford" in moves
    state = play(due, "parliament people at Hull moving Herbert")
    assert not state.sieges and seated(state).noble == "Herbert"
    assert state.nobles["Herbert"].at == "near:Hull" and "Clifford" in seated(state).attending
    # one free noble: he is the one who moves
    free = put(besieged_drawer(), "Herbert", "near:Raglan")
    free = play(free, "event Parliament-Must-Be-Summoned")
    assert illegal(free, "parliament people at Hull moving Clifford", "under-siege").rule == \
        "R-80"
    # a ship besieger counts as besieged (7.7: he survives the siege and attends)
    aboard = give(remove(besieged_drawer(), "Clifford"), "Burgundian Mercenaries", "Herbert")
    aboard = ship(aboard, "Swan", "Herbert", "port:Newcastle")
    aboard = siege(put(aboard, "Herbert", "aboard:Swan"), "Newcastle", "Ben", ["Herbert"],
                   via="Swan")
    aboard = play(aboard, "event Parliament-Must-Be-Summoned",
                  "parliament people at Hull moving Herbert")
    assert not aboard.sieges and "Swan" in aboard.ships and seated(aboard).noble == "Herbert"


def test_r87_a_drawer_with_no_noble_in_play_holds_it_with_no_host():
    state = remove(besieged_drawer(), "Clifford", "Herbert")
    # no crown card left to deal him a noble (No Elimination waits for one)
    state = evolve(state, cards={c: (CHANCERY if w in ("deck", "discard") else w)
                                  for c, w in state.cards.items()})
    due = play(state, "event Parliament-Must-Be-Summoned")
    assert not due.duties and not due.faction("Ben")
    assert "parliament people at Hull" in [GAME.format(due, e) for e in GAME.legal(due)]
    held = play(due, "parliament people at Hull")
    assert seated(held).noble == "" and seated(held).people
    assert any("with no noble of his in play to host it (R-87)" in text
               for _, text in held.chronicle)


def test_every_other_refusal_of_the_peace_and_the_call():
    peace = peaceful()
    # rule 3: near an enemy-held home castle a returned noble lays siege only; never a battle
    state = own(business(), "Skipton", "Talbot")
    state = dismissed(state)
    state = play(state, "return Clifford", "return Herbert", "return Stafford", "return Talbot",
                 "return Courtenay", "return Bourchier", "stay Percy", "return Neville")
    fight = at_phase(put(state, "Courtenay", "near:Skipton"), "combat", seat=1)
    fight = evolve(fight, peace=evolve(fight.peace, returned=tuple(
        n for n in fight.peace.returned if n != "Courtenay")))
    assert "rules 2, 3, 7" in illegal(fight, "attack at near:Skipton with Clifford on Courtenay",
                                      "kings-peace").message
    elsewhere = give(put(fight, "Clifford", "near:York"), "Burgundian Mercenaries", "Clifford")
    illegal(elsewhere, "siege lay York with Clifford", "kings-peace")
    # rule 1: no siege of Parliament's place
    talbot = at_phase(put(peace, "Talbot", "near:Coventry"), "combat", seat=2)
    talbot = give(evolve(talbot, peace=evolve(talbot.peace, returned=())),
                  "Burgundian Mercenaries", "Talbot")
    assert "Parliament's square" in illegal(talbot, "siege lay Coventry with Talbot",
                                            "kings-peace").message
    # the call and the People's Parliament out of their moment
    session = business()
    illegal(session, "parliament call at Coventry summon Clifford", "in-session")
    illegal(session, "excuse Herbert", "not-now", by="Ann")
    illegal(session, "revoke Herbert", "not-now")
    illegal(court(), "parliament people at Hull moving Percy", "not-due")
    due = play(kingless(), "event Parliament-Must-Be-Summoned")
    illegal(due, "parliament call at Coventry summon Clifford", "people-due")
    held = siege(put(due, "Talbot", "near:Skipton"), "Skipton", "Cat", ["Talbot"])
    held = give(give(held, "Burgundian Mercenaries", "Talbot"), "Welsh Mercenaries #1", "Talbot")
    held = put(held, "Clifford", "in:Skipton")
    illegal(held, "parliament people at Hull moving Clifford", "under-siege")
