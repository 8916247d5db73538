"""King of the Castle: every rule and ruling (R-1..R-27) of shared/rules/king-of-the-castle.md, with
the rules' own examples, through the game's parser and `engine.apply_event` as the CLI drives
them."""

from __future__ import annotations

import itertools
import string
from collections import Counter

import pytest

from referee import log as logfile
from referee import seals
from referee.engine import Event, apply_event
from referee.errors import IllegalMove, NotationError, UsageError
from referee.evolve import evolve
from referee.games.king_of_the_castle import GAME
from referee.games.king_of_the_castle.components import CARDS, EVENT_CARDS
from referee.games.king_of_the_castle.scoring import post_points, squire_points
from referee.games.king_of_the_castle.state import Hand
from tests.conftest import GOLDEN
from tests.kotc_table import SQUIRES, Table

# ---- components -----------------------------------------------------------------------------


def test_the_decks_hold_what_the_rules_page_lists():
    assert EVENT_CARDS == 78 and len(CARDS) == 32
    counts = {c.title: c.count for c in CARDS}
    assert counts["Accidental Death"] == 6 and counts["Lucky Escape"] == 4
    assert [counts[f"Domain {n}"] for n in (1, 2, 3)] == [3, 2, 2]
    assert counts["Protracted Siege"] == counts["Incompetent Lord"] == 1
    assert {c.slug for c in CARDS} >= {"barbarians", "not-that-bad", "state-of-disrepair"}
    state = Table().state
    assert sum(GAME.inventory(state).values()) == 78 + 26


# ---- set-up: seals and the ten personality cards (R-2, R-4) -------------------------------

def test_seals_come_in_seat_order_then_the_kingdom_is_turned_up_in_order():
    t = Table()
    assert GAME.phase(t.state) == "seal" and GAME.to_act(t.state).players == ("Ann",)
    t.seal("Ann")
    assert GAME.to_act(t.state).players == ("Ben",)
    t.rejects("reveal Q", "wrong-phase")
    t.seal("Ben").seal("Cat")
    assert GAME.to_act(t.state).table and "King, Lord 1" in GAME.to_act(t.state).prompt
    t("reveal q, a b")  # R-4: King, then castle 1's Lord and Seneschal
    assert t.men == "Q A B - - - - - - -" and "Master at Arms 1" in GAME.to_act(t.state).prompt
    t("reveal CDEFGHI")
    assert t.men == "Q A B C D E F G H I"
    assert GAME.to_act(t.state).players == ("Ann",)  # the youngest starts
    assert [h.size for h in t.state.hands] == [4, 3, 3]  # Ann drew her fourth card


def test_a_personality_card_is_turned_up_once():
    t = Table().start("Q A B C D E F")
    t.rejects("reveal A", "squire-seen")
    t.rejects("reveal G H I J", "wrong-count")
    with pytest.raises(NotationError):
        t("reveal 7")
    with pytest.raises(IllegalMove) as caught:
        t.apply(Event.make("reveal", None, letters=["AA"]))
    assert caught.value.code == "unknown-squire"


def test_a_seal_is_three_different_letters_and_never_typed_in_the_open():
    t = Table()
    squires = GAME.events["squires"]
    assert squires.secret(t.state, "q d k") == "DKQ" == squires.secret(t.state, "qdk")
    for bad in ("qq", "abcd", "a b b", "12 3"):
        with pytest.raises(NotationError) as caught:
            squires.secret(t.state, bad)
        assert bad.upper() not in caught.value.message
    t.rejects("squires D K Q", "letters-in-the-open")
    with pytest.raises(IllegalMove):
        t.apply(Event.make("squires", "Ann", seal="sha256:nothex"))
    assert squires.draw_secret(t.state) is None
    drawn = {squires.draw_secret(Table(squires="random").state) for _ in range(20)}
    assert len(drawn) > 10 and all(len(d) == 3 and d == "".join(sorted(set(d))) for d in drawn)


def test_trying_every_letter_set_against_a_logs_seals_finds_nothing():
    t = Table().start()
    sets = ["".join(c) for c in itertools.combinations(string.ascii_uppercase, 3)]
    assert len(sets) == 2600 and "DKQ" in sets
    golden = logfile.read(GOLDEN / "king-of-the-castle" / "six-player-shared-first.toml")
    found = [e.event["seal"] for e in golden.entries if e.event.type == "squires"]
    assert len(found) == 6
    for seal in (t.state.seals[0], *found):
        for guess in ("", seal, "0000-0000-0000", "sha256:"):  # no salt a reader could know
            assert not any(seals.opens(seal, letters, guess) for letters in sets)
    assert seals.opens(t.state.seals[0], "DKQ", t.receipts["Ann"])


# ---- a turn (Turn, R-3, R-18, R-22) -------------------------------------------------------

def test_a_turn_draws_to_four_plays_one_card_or_none_and_discards_to_the_limit():
    t = Table().start()
    t("pass")  # Ann plays nothing: she holds 4, one above the limit
    assert GAME.phase(t.state) == "discard"
    t.rejects("discard plague recycle", "wrong-discard-count")
    t("discard plague")
    assert t.hand("Ann") == 3 and t.state.discard == ("Plague",)
    assert GAME.to_act(t.state).players == ("Ben",) and t.hand("Ben") == 4
    t("domain-1 castle 2")  # Ben plays a card: down to 3, no discard
    assert GAME.to_act(t.state).players == ("Cat",)


def test_the_hand_limit_is_an_option():
    t = Table(hand_limit=1).start()
    t("domain-2 castle 1")
    t.rejects("discard plague", "wrong-discard-count")
    t("discard plague recycle")
    assert t.hand("Ann") == 1
    with pytest.raises(UsageError):
        Table(hand_limit=7)


def test_the_deck_runs_out_and_the_discard_pile_becomes_the_new_deck():
    t = Table().start()
    t.state = evolve(t.state, deck_size=0, discard=("Plague", "Recycle"))
    t("pass")("discard domain-1")
    assert t.state.reshuffles == 1 and t.state.deck_size == 2 and t.state.discard == ()
    assert t.hand("Ben") == 4
    t.state = evolve(t.state, deck_size=0, discard=())
    t("domain-1 castle 2")  # the card stays on the castle: nothing to draw for Cat
    assert t.hand("Cat") == 3 and GAME.to_act(t.state).players == ("Cat",)


# ---- castles and attributes ----------------------------------------------------------------

def test_the_level_rule_with_the_rules_own_example():
    """No Defence card: level 1, 2 or 3 may be played; a Prestige 2: only a Prestige 3."""
    t = Table().start().build(1, "Prestige", 2)
    for card in ("defence-1", "defence-2", "defence-3"):
        assert t.event(f"{card} castle 1")["castle"] == 1
        GAME.apply(t.state, t.event(f"{card} castle 1"))
    for low in ("prestige-1", "prestige-2"):
        t.rejects(f"{low} castle 1", "level-too-low")
    t("famed c1")
    assert t.state.stacks[1] == (2, 3) and t.state.level(0) == 3


def test_largest_castle_ties_to_the_leftmost_even_at_level_zero():
    t = Table().start()
    assert t.state.largest == 0  # every castle at 0, castle 1
    t.build(3, "Domain", 2).build(2, "Defence", 1, 2)
    assert [t.state.level(c) for c in range(3)] == [0, 2, 2] and t.state.largest == 1
    assert t.state.best(1) is None and t.state.best(2) == 1  # a level of 1 needed


# ---- death and promotion -------------------------------------------------------------------

def test_a_seneschal_dies_the_master_moves_up_and_a_new_man_is_dealt():
    t = Table().start()
    t("financial-scandal castle 2").passes()
    assert t.men == "Q A B C D F - G H I" and GAME.phase(t.state) == "deal"
    assert GAME.to_act(t.state).prompt.startswith("turn up a personality card for Master at Arms 2")
    t("reveal J")
    assert t.men == "Q A B C D F J G H I" and t.state.dead == ("E",)


def test_the_king_dies_and_the_lord_of_the_largest_castle_succeeds():
    """The rules' example: the Lord becomes King, his Seneschal Lord, his Master Seneschal, and
    a new Master at Arms is dealt."""
    t = Table().start().build(2, "Domain", 1).build(3, "Domain", 1)
    t("peaceful-death").passes()
    assert t.men == "D A B C E F - G H I"  # castle 2 is the leftmost of the largest
    t("reveal J")
    assert t.men == "D A B C E F J G H I"


def test_assassination_crowns_the_lord_chosen():
    t = Table().start().build(1, "Domain", 3)
    t.rejects("assassination seneschal 3", "wrong-rank")
    t("assassination lord 3").passes()
    assert t.men.startswith("G A B C D E F H I -")


def test_several_deaths_at_once_survivors_move_up_then_new_men_highest_first():
    """R-6: Plague kills the Lord and the Master at Arms of castle 3: the Seneschal becomes Lord,
    then the Seneschal's post, then the Master's, are filled from the deck."""
    t = Table().start()
    t("plague castle 3 kill lord master").passes()
    assert t.men.endswith("H - -")
    t("reveal J")
    assert t.men.endswith("H J -")
    t("reveal K")
    assert t.men.endswith("H J K") and t.state.dead == ("G", "I")
    t2 = Table().start()
    t2("vanishings c1").passes()("reveal J K L")
    assert t2.men.startswith("Q J K L")


def test_kill_cards_need_their_man_and_discard_what_they_say():
    t = Table().start().build(1, "Defence", 1, 3).build(1, "Prestige", 2)
    t("barbarians castle 1").passes()("reveal J")  # kills C, discards the Defence 3
    assert t.state.dead == ("C",) and t.state.stacks[2] == (1,)
    t("financial-scandal s1").passes()("reveal K")  # kills B, discards the Prestige 2
    assert t.state.dead == ("C", "B") and t.state.stacks[1] == ()
    t("barbarians castle 2").passes()("reveal L")  # it kills without a Defence card
    assert t.state.dead[-1] == "F"
    t.state = evolve(t.state, men=t.state.men[:7] + ("G", None, None))
    t.rejects("plague castle 3 kill lord seneschal", "no-man")  # two men needed
    t.rejects("financial-scandal castle 3", "no-man")
    t.rejects("accidental-death seneschal 3", "no-man")  # nobody there to kill
    t.rejects("accidental-death H", "no-post")  # H is dead: his letter names no post
    t.state = evolve(t.state, men=t.state.men[:7] + (None, None, None))
    t.rejects("vanishings castle 3", "no-man")
    t.rejects("assassination lord 3", "no-man")


# ---- replies (R-5, R-10, R-23) -----------------------------------------------------------

def test_replies_are_asked_clockwise_from_the_left_then_the_active_player():
    t = Table(players=4).start()
    t("pass")("discard plague")  # Ann; Ben's turn
    t("plague castle 2 kill lord seneschal")
    asked = []
    while t.state.window is not None:
        asked.append(t.state.window.awaiting)
        t("pass")
    assert asked == ["Cat", "Dan", "Ann", "Ben"]


def test_the_first_reply_applies_and_closes_the_window():
    t = Table().start()
    t("plague castle 2 kill lord seneschal")
    t.rejects("reply lucky-escape lord 3", "not-a-victim")
    t.rejects("reply not-that-bad", "reply-does-not-fit")
    t("reply lucky-escape d")  # Ben saves the Lord of castle 2
    assert t.state.window is None and "D" in t.state.men and t.state.dead == ("E",)
    assert t.hand("Ben") == 2 and t.state.discard[-2:] == ("Lucky Escape", "Plague")


def test_not_that_bad_keeps_one_card_and_names_it_against_a_whole_stack():
    t = Table().start().build(2, "Domain", 1, 2, 3)
    t("protracted-siege castle 2")
    t.rejects("reply not-that-bad prestige-1", "not-discarded")
    t("pass")("reply not-that-bad domain-2")  # Cat keeps the Domain 2 card
    assert t.state.stacks[3] == (2,)
    assert Counter(t.state.discard) == Counter(["Domain 1", "Domain 3", "Not That Bad",
                                                "Protracted Siege"])


def test_a_reply_card_is_never_a_turns_play():
    t = Table().start()
    t.rejects("lucky-escape king", "reply-only")
    t.rejects("not-that-bad", "reply-only")
    t("pass")("discard lucky-escape")  # it may be discarded


def test_a_reply_window_opens_only_while_a_reply_card_may_be_face_down():
    t = Table().start().build(1, "Domain", 1)
    t.state = evolve(t.state, discard=("Not That Bad",) * 3)
    t("shrinking-domain castle 1")  # all three Not That Bad are face up
    assert t.state.window is None and t.state.stacks[0] == ()
    t2 = Table().start()
    t2.state = evolve(t2.state, hands=(Hand(4), Hand(0), Hand(3)))
    t2("accidental-death king")  # Ben holds no card: he is not asked
    assert t2.state.window.order == ("Cat", "Ann")


# ---- every other card ---------------------------------------------------------------------

def test_removals_discard_top_cards():
    t = Table().start().build(1, "Domain", 1, 2).build(1, "Defence", 3)
    t.rejects("incompetent-lord castle 2", "empty-stack")
    t("incompetent-lord castle 1").passes()
    assert t.state.stacks[:3] == ((1,), (), ())
    assert t.state.discard == ("Domain 2", "Defence 3", "Incompetent Lord")
    t("state-of-disrepair castle 1 domain").passes()
    assert t.state.stacks[0] == ()
    t.rejects("lazy-defence castle 1", "empty-stack")
    t.rejects("incompetent-lord castle 3", "no-copy-left")  # the only one is face up
    t.rejects("time-of-peace c1", "empty-stack")


def test_timely_repairs_and_recycle_take_from_the_discard_pile():
    t = Table().start()
    t.state = evolve(t.state, discard=("Defence 2", "Plague"))
    t.rejects("timely-repairs plague castle 1", "not-an-attribute")
    t.rejects("timely-repairs defence-3 castle 1", "not-in-discard")
    t("timely-repairs walls castle 1")
    assert t.state.stacks[2] == (2,) and t.state.discard == ("Plague", "Timely Repairs")
    t("recycle plague")  # Ben's turn
    assert t.state.hands[1].known == ("Plague",) and "Recycle" in t.state.discard
    t("discard plague")  # the card known to be in Ben's hand
    assert t.state.hands[1].known == ()
    t.state = evolve(t.state, discard=())
    t.rejects("recycle plague", "not-in-discard")


def test_unexpected_loss_names_another_player_and_the_card_lost():
    t = Table().start()
    t.rejects("unexpected-loss Ann loses plague", "self-target")
    t("unexpected-loss ben loses recycle")
    assert t.state.discard == ("Recycle", "Unexpected Loss")
    assert t.state.drew == 2 and t.hand("Ben") == 4  # Ben lost one, then drew up to four
    t.state = evolve(t.state, hands=(t.state.hands[0], Hand(0), t.state.hands[2]))
    t.rejects("unexpected-loss ann loses vanishings", "empty-hand", as_="Ben")
    t("pass")  # Ben passes with an empty hand
    assert GAME.to_act(t.state).players == ("Cat",)
    t.rejects("unexpected-loss ben loses plague", "empty-hand")


def test_targeted_theft_then_an_optional_extra_play():
    t = Table().start()
    t("targeted-theft cat")
    assert (t.hand("Ann"), t.hand("Cat")) == (4, 2) and GAME.phase(t.state) == "extra"
    t("domain-1 castle 1")
    assert t.state.discard == ("Targeted Theft",) and GAME.to_act(t.state).players == ("Ben",)
    t("targeted-theft ann")("pass")  # Ben declines the extra play
    assert GAME.phase(t.state) == "discard"


def test_sudden_changes_in_a_dealt_game_plays_the_drawn_cards_or_discards_them():
    t = Table(seed=11)  # a --shuffle game: the tool knows both cards drawn
    for name in t.names:
        t.seal(name)
    ann = t.state.hands[0]
    t.state = evolve(t.state, hands=(Hand.of(("Sudden Changes",) + ann.known[1:]),)
                      + t.state.hands[1:],
                      deck=("Lucky Escape", "Domain 2") + t.state.deck[2:])
    before = t.state
    t("sudden-changes")
    assert t.state.frames[-1].drawn == ("Lucky Escape", "Domain 2")
    said = GAME.describe(before, Event.make("play", "Ann", card="Sudden Changes"), t.state)
    assert "Sudden Changes draws 2 card(s): lucky-escape, domain-2; they are played now" in said
    before = t.state
    assert "lucky-escape, domain-2" in GAME.to_act(t.state).prompt
    t.rejects("discard domain-2", "must-play")
    t.rejects("plague castle 1 kill lord seneschal", "not-drawn")
    t.rejects("lucky-escape king", "reply-only")
    t("domain-2 castle 3")
    assert not any("draws" in line for line in GAME.describe(
        before, Event.make("play", "Ann", card="Domain 2", castle=3), t.state))
    t("discard lucky-escape")
    assert t.state.frames == () and t.state.discard[-2:] == ("Lucky Escape", "Sudden Changes")


def test_conservation_no_card_more_often_than_the_deck_holds():
    t = Table().start()
    t.state = evolve(t.state, discard=("Vanishings", "Vanishings"))
    t.rejects("vanishings castle 1", "no-copy-left")
    t.state = evolve(t.state, hands=(Hand(0),) + t.state.hands[1:])
    t.rejects("domain-1 castle 1", "empty-hand")


# ---- the end and scoring (R-7, R-8, R-16, R-17) --------------------------------------

def test_the_end_comes_when_a_vacancy_finds_the_deck_empty_then_the_round_is_finished():
    t = Table().start()
    letters = set(string.ascii_uppercase) - set("QABCDEFGHI")
    t.state = evolve(t.state, seen=frozenset(t.state.seen | letters))  # the deck is empty
    t("pass")("discard plague")  # Ann; Ben's turn
    t("unlucky-fall castle 1").passes()
    assert t.state.ending and t.men.startswith("Q B C -")  # the post stays empty
    t("discard domain-1") if GAME.phase(t.state) == "discard" else None
    assert GAME.to_act(t.state).players == ("Cat",)  # the round goes on to the last seat
    t("pass")("discard recycle")
    assert GAME.phase(t.state) == "open"
    for name in t.names:
        t(f"open {' '.join(SQUIRES[name])} {t.receipts[name]}", as_=name)
    assert GAME.finished(t.state)


def test_a_dead_king_with_no_lord_left_leaves_the_throne_empty():
    t = Table().start()
    t.state = evolve(t.state, ending=True,
                      men=("Q", None, None, None, None, None, None, None, None, None))
    t("peaceful-death").passes()
    assert t.state.men[0] is None and post_points(t.state, 0) == 0


def test_points_of_every_post_with_the_bonuses():
    t = Table().start().build(1, "Domain", 3).build(1, "Prestige", 3).build(2, "Defence", 1)
    state = t.state
    assert state.level(0) == 6
    assert [post_points(state, p) for p in range(10)] == [14, 9, 6, 2, 6, 4, 3, 6, 4, 2]
    assert squire_points(state, "Z") == 0 and squire_points(state, "Q") == 14


def test_opening_the_seals_scores_each_player_and_equal_totals_share_the_place():
    t = Table().start().build(2, "Domain", 1)  # castle 2 is the largest
    t.state = evolve(t.state, ending=True, turn=2)
    t("pass")  # Cat, the last seat, ends the round
    t.rejects("letters A B C", "sealed", as_="Ann")
    t.rejects(f"open D K Q {t.receipts['Ben']}", "wrong-reveal", as_="Ann")
    t(f"open D K Q {t.receipts['Ann']}", as_="Ann")  # Q King 12, D Lord 2: 6 +3
    t.rejects(f"open D K Q {t.receipts['Ann']}", "opened", as_="Ann")
    t(f"open a e x {t.receipts['Ben'].lower().replace('-', ' ')}", as_="Ben")  # A 6, E 4
    assert GAME.score(t.state).rows[2].result == "sealed"
    t(f"open B G Z {t.receipts['Cat']}", as_="Cat")  # B 4, G 6
    sheet = GAME.score(t.state)
    assert [(r.name, r.total, r.place) for r in sheet.rows] == [
        ("Ann", 21, 1), ("Ben", 10, 2), ("Cat", 10, 2)]
    assert sheet.winners == ("Ann",) and sheet.rows[1].result == "shared 2nd"


def test_a_table_that_stops_early_still_opens_the_squires_and_scores_as_it_stood():
    """R-27: `end` once the first turn has begun asks for the seals; a card announced and not
    carried out does nothing; the sheet is incomplete, with places so far and no winner."""
    t = Table().start().build(2, "Domain", 1)  # castle 2 is the largest
    t("plague castle 2 kill lord seneschal")  # announced: Ben and Cat may reply
    t("end cafe closes")
    assert GAME.phase(t.state) == "open" and GAME.stopped(t.state) is None
    assert not GAME.over(t.state) and t.men == "Q A B C D E F G H I"  # nobody died
    turn = GAME.to_act(t.state)
    assert turn.players == ("Ann", "Ben", "Cat") and turn.prompt.startswith(
        "the table stopped the game (cafe closes): `open LETTERS RECEIPT` to score as it stood")
    sheet = GAME.scoresheet(t.state)
    assert sheet.outcome == ("Incomplete: stopped by the table (cafe closes); scored as it "
                             "stood; waiting for Ann, Ben, Cat to open their seal (R-27)")
    assert [r.result for r in sheet.rows] == ["sealed"] * 3 and not sheet.finished
    t.rejects("end again", "game-stopped")
    t.rejects("pass", "wrong-phase", as_="Ben")  # the reply window closed with the stop
    t(f"open D K Q {t.receipts['Ann']}", as_="Ann")  # Q King 12, D Lord 2: 6 +3
    sheet = GAME.scoresheet(t.state)
    assert [(r.total, r.result) for r in sheet.rows] == [
        (21, "1st so far"), (None, "sealed"), (None, "sealed")]
    assert sheet.outcome.endswith("; waiting for Ben, Cat to open their seal (R-27)")
    t(f"open A E X {t.receipts['Ben']}", as_="Ben")(f"open B G Z {t.receipts['Cat']}", as_="Cat")
    assert GAME.stopped(t.state) == "cafe closes" and GAME.over(t.state)
    sheet = GAME.scoresheet(t.state)
    assert [(r.name, r.total, r.result) for r in sheet.rows] == [
        ("Ann", 21, "1st so far"), ("Ben", 10, "shared 2nd so far"),
        ("Cat", 10, "shared 2nd so far")]
    assert sheet.winners == () and not sheet.finished
    assert sheet.outcome == "Incomplete: stopped by the table (cafe closes); scored as it stood"
    assert GAME.render(t.state).endswith(
        "Game over: Ann leads with 21 points after 1 round(s), when the table stopped the game "
        "(cafe closes): incomplete (R-27)")
    t.rejects(f"open D K Q {t.receipts['Ann']}", "game-stopped", as_="Ann")


def test_a_table_that_stops_before_the_first_turn_has_nothing_to_open():
    t = Table()
    t.seal("Ann")("end rain")
    assert GAME.stopped(t.state) == "rain" and GAME.over(t.state)
    sheet = GAME.scoresheet(t.state)
    assert [r.result for r in sheet.rows] == ["sealed", "not sealed yet", "not sealed yet"]
    assert sheet.outcome == ("Incomplete: stopped by the table (rain); scored as it stood; "
                             "nobody scores: it stopped before the first turn (R-27)")
    t.rejects("squires", "game-stopped", as_="Ben")


def test_a_table_that_stops_while_the_squires_are_opened_keeps_what_was_opened():
    t = Table(squires="hand").start()
    t.state = evolve(t.state, ending=True, turn=2)
    t("pass")("letters q d k x", as_="Ann")  # the last round is over
    t("end the pub closes")
    assert GAME.phase(t.state) == "open" and t.state.opened[0] == ("D", "K", "Q", "X")
    assert GAME.resumes(t.state) == "`referee undo` resumes it"  # Ann entered hers before
    assert GAME.scoresheet(t.state).outcome.endswith("waiting for Ben, Cat to enter their "
                                                     "letters (R-27)")
    t("letters a b e", as_="Ben")("letters z y x", as_="Cat")
    assert GAME.stopped(t.state) == "the pub closes" and GAME.scoresheet(t.state).winners == ()


def test_a_hand_game_stopped_early_enters_the_letters_of_the_cards_held():
    t = Table(squires="hand").start()
    t("end the last bus")
    assert GAME.phase(t.state) == "open" and t.hand("Ann") == 4
    assert GAME.scoresheet(t.state).outcome.endswith(
        "; waiting for Ann, Ben, Cat to enter their letters (R-27)")
    t.rejects("letters Q", "wrong-letter-count", as_="Ann")
    t("letters q d k x", as_="Ann")("letters a b e", as_="Ben")("letters z y x", as_="Cat")
    assert GAME.stopped(t.state) == "the last bus"
    assert [r.total for r in GAME.scoresheet(t.state).rows] == [12 + 6, 6 + 3 + 4 + 4, 0]
    assert GAME.resumes(t.state) == ("`referee undo --force` takes back the letters entered "
                                     "since the stop, then `referee undo` resumes it")


def test_two_players_may_back_the_same_squire():
    t = Table().start()
    t.state = evolve(t.state, opened=(("A", "B", "C"), ("A", "D", "E"), None))
    scores = {r.name: r.total for r in GAME.score(t.state).rows}
    assert scores["Ann"] == 9 + 4 + 2 and scores["Ben"] == 9 + 6 + 4


def test_hand_scoring_enters_one_letter_per_card_and_duplicates_score_once_or_each():
    for duplicates, expected in (("once", 12), ("each", 24)):
        t = Table(squires="hand", duplicate_letters=duplicates).start()
        t.state = evolve(t.state, ending=True, turn=2)
        t("pass")
        assert GAME.phase(t.state) == "open"
        t.rejects("letters Q", "wrong-letter-count", as_="Ann")
        t.rejects("open D K Q 0000-0000-0000", "no-seal", as_="Ann")
        t("letters q q x y", as_="Ann")  # Ann drew four cards in her last turn
        assert {r.name: r.total for r in GAME.score(t.state).rows}["Ann"] == expected


# ---- options: names, alphabetical deck (R-19) ----------------------------------------

def test_squires_may_have_names():
    names = [f"{c}{c.lower()}rn" for c in string.ascii_uppercase]
    t = Table(names=names).start()
    assert "Q (Qqrn)" in GAME.render(t.state)
    t("accidental-death eerN").passes()
    assert "E" in t.state.dead
    with pytest.raises(UsageError):
        Table(names=names[:25])


def test_an_alphabetical_deck_is_dealt_by_the_referee():
    t = Table(personality_order="alphabetical").start("Q A B C D E F G H I")
    t("unlucky-fall lord 1").passes()
    assert t.men.startswith("Q B C J") and GAME.phase(t.state) != "deal"
    assert "next K (R-19)" in GAME.render(t.state)
    assert "next K" in GAME.compact(t.state)  # the compact board too: everyone knows him


def test_hand_edited_events_are_refused_cleanly():
    t = Table().start()

    def refused(code, **fields):
        with pytest.raises(IllegalMove) as caught:
            apply_event(GAME, t.state, Event.make("play", "Ann", **fields), t.players)
        assert caught.value.code == code, caught.value.message

    refused("unknown-card", card="Dragon")
    refused("bad-target", card="Plague", castle=1)
    refused("bad-target", card="Peaceful Death", castle=1)
    refused("unknown-castle", card="Vanishings", castle=4)
    refused("unknown-post", card="Accidental Death", post="Bishop 1")
    refused("bad-target", card="Plague", castle=1, kill=["Lord", "Lord"])
    refused("unknown-attribute", card="State of Disrepair", castle=1, attribute="Glory")
    refused("unknown-player", card="Targeted Theft", player="Zed")
    refused("bad-field", card=7)
    assert GAME.format(t.state, Event.make("play", "Ann", card="Dragon", post="Bishop")) == \
        "Dragon Bishop"
    with pytest.raises(IllegalMove):
        apply_event(GAME, t.state, Event.make("reply", "Ben", card="Plague", saves="King"),
                    t.players)


def test_every_card_parses_from_its_canonical_and_forgiving_forms():
    t = Table().start().build(1, "Domain", 1).build(1, "Prestige", 1).build(1, "Defence", 1)
    t.state = evolve(t.state, discard=("Defence 2", "Plague"))
    for typed, canonical in [
        ("acc death m3", "accidental-death master 3"),
        ("accidental-death master at arms 3", "accidental-death master 3"),
        ("Barbarians! I", "barbarians castle 3"),
        ("unlucky-fall lord 2", "unlucky-fall castle 2"),
        ("assassination 2", "assassination lord 2"),
        ("plague 2 E d", "plague castle 2 kill lord seneschal"),
        ("town 1", "domain-2 castle 1"),
        ("prestige2 castle 3", "prestige-2 castle 3"),
        ("sod c1 def", None),
        ("state of disrepair castle 1 defense", "state-of-disrepair castle 1 defence"),
        ("lazy def 1", "lazy-defence castle 1"),
        ("timely repairs walls castle 2", "timely-repairs defence-2 castle 2"),
        ("recycle plag", "recycle plague"),
        ("play sudden changes", "sudden-changes"),
        ("unexpected-loss be loses recycle", None),  # two letters name nobody
        ("unexpected-loss BEN loses recycle", "unexpected-loss Ben loses recycle"),
        ("tar cat", "targeted-theft Cat"),
        ("pa", None),
        ("pas", "pass"),
    ]:
        if canonical is None:
            with pytest.raises(NotationError):
                t.event(typed)
            continue
        event = t.event(typed)
        assert GAME.format(t.state, event) == canonical, typed
        assert t.event(canonical) == event
    with pytest.raises(NotationError):
        t.event("p castle 1")  # peaceful-death, plague, prestige-N...
    with pytest.raises(NotationError):
        t.event("dragon")

