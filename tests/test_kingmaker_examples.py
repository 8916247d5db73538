"""The rules page's worked examples (../shared/rules/kingmaker.md §15): all five, example 3 (a tied
vote in Parliament) on the Parliament helpers of tests/test_kingmaker_parliament.py."""

from __future__ import annotations


from referee.evolve import evolve
from referee.games.kingmaker import GAME, rules
from tests.kingmaker_realm import (
    at_phase,
    calm,
    dead,
    dealt_game,
    give,
    heir,
    illegal,
    own,
    play,
    put,
    ship,
    turns,
)
from tests.test_kingmaker_parliament import called, court, seated, sitting_of


def test_example_1_siege_laid_at_half_and_concluded_in_its_third_turn():
    state = dealt_game({"Ann": ["Neville", "Marshal of England"], "Ben": ["Percy"],
                        "Cat": ["Clifford"]})
    assert rules.strength(state, "Neville") == 150
    assert rules.controller_player(state, "Fotheringhay") is None  # neutral
    assert state.heirs["Margaret of Anjou"].at == "in:Fotheringhay"
    state = at_phase(put(state, "Neville", "near:Fotheringhay"), "combat",
                     seat=state.names.index("Ann"))
    assert rules.defence(state, "Fotheringhay") == 200
    err = illegal(state, "siege conclude Fotheringhay", "too-weak")
    assert "150 is less than the defence of Fotheringhay (200)" in err.message
    state = play(state, "siege lay Fotheringhay with Neville")
    assert state.sieges["Fotheringhay"].turn == 1
    state = play(state, "next", "draw hidden", "next")
    state = turns(state, 2)  # Ben's and Cat's turns
    state = play(state, calm(state), "next")  # Ann's next combat phase
    assert state.stage == "combat" and state.sieges["Fotheringhay"].turn == 2
    illegal(state, "siege conclude Fotheringhay", "too-weak")
    state = play(state, "next", "draw hidden", "next")
    state = turns(state, 2)
    state = play(state, calm(state), "next")
    assert state.sieges["Fotheringhay"].turn == 3 and rules.defence(state, "Fotheringhay") == 50
    state = play(state, "siege conclude Fotheringhay")
    state = play(state, "weather Writ")  # kept, and Ann draws again
    assert "Writ" in state.held["Ann"] and state.combat.stage == "weather"
    state = play(state, "weather Plague-(Bristol)")  # fair
    state = play(state, "deaths none")
    assert rules.controller(state, "Margaret of Anjou") == "Neville"
    assert state.control["Fotheringhay"] == "Neville"
    assert "Fotheringhay" not in state.sieges and rules.defence(state, "Fotheringhay") == 200
    assert state.combat is None and state.stage == "combat"


def test_example_2_beaufort_becomes_heir_and_is_never_executed():
    state = dealt_game({"Ann": ["Neville"], "Ben": ["Beaufort", "Herbert"],
                        "Cat": ["Clifford"]})
    state = dead(state, "Henry", "Margaret of Anjou")
    for york in ("Richard of York", "Edward of March", "Richard of Gloucester"):
        state = dead(state, york)
    state = heir(state, "George of Clarence", by="Clifford", crowned=True)
    state = heir(state, "Edward of Lancaster", at="in:Coventry")
    assert not rules.beaufort_is_heir(state)
    state = at_phase(state, "chance")
    state = evolve(state, event_drawn=False)
    state = play(state, "event Plague-(Coventry)")
    assert not state.heirs["Edward of Lancaster"].alive
    assert rules.beaufort_is_heir(state) and rules.line(state, "lancaster") == ["Beaufort"]
    assert state.ended is None  # no Complete Victory for Cat's King George while Beaufort lives
    assert rules.sole_king(state) == "George of Clarence"
    # Had Ben held Edward of March, he would now hold both houses.
    alive = heir(state, "Edward of March", by="Herbert", alive=True)
    assert rules.houses_held(alive, "Ben") == {"lancaster", "york"}
    alive = rules.settle(alive, alive)
    assert alive.both["Ben"] == alive.own.get("Ben", 0) + 2
    illegal(alive, "execute Beaufort", "beaufort", by="Ben")
    after = play(alive, "execute Edward-of-March", by="Ben")
    assert not after.heirs["Edward of March"].alive and "Ben" not in after.both


def test_example_3_a_tied_vote_fails_and_the_rounds_pass_on():
    """Rules page §15, example 3: Ann 30/9, Ben 35/4, Cat 5/3; Essex to Bourchier ties the
    Commons 35-35 and fails; Ben (most Commons) leads round 2; Cat's Durham (4) over Ann's
    Lincoln (2) gives Cat round 3, where she assigns the rest unvoted."""
    state = called(court(cards=("Earl of Essex", "Earl of Kent")))
    state = give(state, "Bishop of Durham", "Talbot")  # Cat's attending noble
    state = sitting_of(state, tally=(("Ann", 30, 9), ("Ben", 35, 4), ("Cat", 5, 3)))
    assert seated(state).step == "select"
    state = play(state, "select Earl-of-Essex", "propose Earl-of-Essex to Bourchier")
    assert GAME.to_act(state).table
    before = state
    state = play(state, "vote yea Ann,Cat nay Ben")
    ballot = seated(state).ballots[-1]
    assert (ballot.counts, ballot.passed) == ("Commons 35-35, Lords 12-4", False)
    assert GAME.remark(before, GAME.parse(before, "vote yea Ann,Cat nay Ben", None), state) == \
        "Earl of Essex to Bourchier: Commons 35-35, Lords 12-4, failed"
    assert rules.holder(state, "Earl of Essex") is None
    assert seated(state).round == 2 and seated(state).leader == "Ben"
    state = play(state, "select none")
    s = seated(state)
    assert (s.round, s.leader, s.step) == (3, "Cat", "assign")
    assert GAME.to_act(state).players == ("Cat",)
    state = play(state, "assign Earl-of-Essex to Bourchier", "assign Earl-of-Kent to Clifford")
    assert rules.holder(state, "Earl of Essex") == "Bourchier"
    assert seated(state).step == "business"


def test_example_4_the_assassin():
    state = dealt_game({"Ann": ["Neville", "Marshal of England"],
                        "Ben": ["Bourchier", "Earl of Essex"], "Cat": ["Audley"]})
    state = put(put(state, "Neville", "near:York"), "Audley", "near:York")
    state = at_phase(put(state, "Bourchier", "near:York"), "combat",
                     seat=state.names.index("Cat"))
    assert rules.strength(state, "Neville") == 150 and rules.strength(state, "Audley") == 10
    state = play(state, "attack at near:York with Audley on Neville")
    assert state.combat.assassin and state.combat.odds == "1:4"
    state = play(state, "weather Fair-Weather")
    assert state.combat.outcome == "none" and state.combat.stage == "deaths"  # automatic
    illegal(state, "deaths Bourchier", "not-in-combat")  # only Neville and Audley roll
    after = play(state, "deaths none")
    assert after.nobles["Audley"].at == "in:Heighley"  # alive, he goes home
    assert after.nobles["Neville"].at == "near:York"
    killed = play(state, "deaths Neville")
    assert "Neville" not in killed.nobles
    # Bourchier holding the Earl of Essex: 30 against 150 is below 1:4, and he is titled.
    ben = at_phase(state, "combat", seat=state.names.index("Ben"))
    ben = evolve(ben, combat=None, acted=frozenset())
    assert rules.strength(ben, "Bourchier") == 30
    err = illegal(ben, "attack at near:York with Bourchier on Neville", "below-1-4")
    assert "lone untitled noble" in err.message


def test_example_5_an_heir_at_sea_dies_if_not_landed_in_time():
    state = dealt_game({"Ann": ["Neville"], "Ben": ["Stanley"],
                        "Cat": ["Clifford"]})
    ben = state.names.index("Ben")
    state = own(state, "Harlech", "Stanley")
    state = put(state, "Stanley", "in:Harlech")
    state = heir(state, "Edward of March", by="Stanley")
    state = ship(state, "Le Lucas", "Stanley", "port:Harlech")
    state = at_phase(state, "movement", seat=ben)
    state = play(state, "sail Le-Lucas to sea:Irish-Sea with Stanley,Edward-of-March")
    assert state.nobles["Stanley"].at == "aboard:Le Lucas"
    due = state.heirs["Edward of March"].due
    assert due == state.own.get("Ben", 0) + 1
    state = play(state, "next", "next", "draw hidden", "next")
    state = turns(state, 2)
    state = play(state, calm(state))
    assert state.stage == "movement" and state.active == "Ben"
    err = illegal(state, "sail Le-Lucas to Douglas", "heir-off-mainland")
    assert err.rule == "§8.4"
    state = play(state, "next")  # his movement phase ends with Edward still at sea
    assert not state.heirs["Edward of March"].alive
    assert any("not brought to the mainland" in text for _, text in state.chronicle)
