"""The Dwarf King at the table: each rule, special card and ruling, through the game protocol."""

import re

import pytest

from referee.engine import Player, apply_event
from referee.errors import AmbiguousMove, IllegalMove, NotationError, UsageError
from referee.evolve import evolve
from referee.games.dwarf_king import GAME
from referee.games.dwarf_king.components import CARDS, SPECIALS, deck, hand_size, sort_cards
from referee.games.dwarf_king.notation import parse_card
from referee.games.dwarf_king.rules import trick_winner
from referee.games.dwarf_king.scoring import hand_points
from referee.games.dwarf_king.state import Deal, Trick
from referee.replay import replay_events
from referee.sheets import render_text

# Clockwise: Pierre, Bruno, Catie (so after Catie comes Pierre, as in the seed's example).
SEED_TABLE = ("Pierre", "Bruno", "Catie")


class Table:
    """A game driven through the protocol, the way the CLI drives it."""

    def __init__(self, names=SEED_TABLE, seed=None, **options):
        self.players = tuple(Player(n) for n in names)
        self.options = GAME.check_options(options)
        self.seed = seed
        self.state = GAME.setup(self.players, self.options, seed)
        self.events = []

    def __call__(self, text, as_=None):
        turn = GAME.to_act(self.state)
        player = as_ or (turn.players[0] if len(turn.players) == 1 else None)
        event = GAME.parse(self.state, text, player)
        self.state = apply_event(GAME, self.state, event, self.players)
        self.events.append(event)
        return event

    def cards(self, text):
        for card in text.split():
            self(card)

    def start(self, special, quest="5a", quest_by="Bruno", leader="Catie"):
        self(f"special {special}")
        self(f"quest {quest}", as_=quest_by)
        if special == "FlagBearerG":
            return
        self("leader", as_=leader)

    def finish_hand(self):
        number = self.state.deal.number
        while self.state.deal.number == number and not self.state.over:
            event = GAME.legal(self.state)[0]
            self.state = apply_event(GAME, self.state, event, self.players)
            self.events.append(event)

    def rejects(self, text, code, as_=None, rule=None):
        before = self.state
        with pytest.raises(IllegalMove) as caught:
            self(text, as_=as_)
        assert caught.value.code == code, caught.value.message
        if rule is not None:
            assert caught.value.rule == rule
        assert self.state is before
        return caught.value

    @property
    def deal(self):
        return self.state.deal

    def trick_winner(self, number):
        return self.state.names[self.deal.tricks[number - 1].winner]


# --------------------------------------------------------------------------------------------
# Set-up, cards, notation


def test_cards_and_deals():
    assert len(CARDS) == 53 and len(SPECIALS) == 14
    assert len(deck(3, "Dragon")) == 39 and "D2" not in deck(3, "Dragon")
    assert len(deck(4, "Dragon")) == len(deck(5, "Druid")) == 40
    assert [hand_size(n) for n in (3, 4, 5)] == [13, 10, 8]


@pytest.mark.parametrize("text, card", [
    ("k7", "K7"), ("7K", "K7"), ("QD", "DQ"), ("dq", "DQ"), ("10g", "G10"), ("dra", "Dragon"),
    ("D1", "Druid"), ("goblins-11-minus3", "Shaman"), ("stand", "StandardBearer"),
    ("Standard Bearer", "StandardBearer"), ("flag bearer (goblins)", "FlagBearerG")])
def test_card_notation_is_forgiving(text, card):
    assert parse_card(text) == card


def test_card_notation_errors():
    with pytest.raises(NotationError):
        parse_card("Z9")
    with pytest.raises(NotationError):
        parse_card("K1O")
    with pytest.raises(AmbiguousMove):
        parse_card("D11")  # the Flag Bearer or the Tinkerer...
    assert parse_card("D11", frozenset({"Tinkerer"})) == "Tinkerer"  # ...unless the hand says
    with pytest.raises(AmbiguousMove):
        parse_card("flag")
    with pytest.raises(NotationError):
        parse_card("")


def test_options_and_player_counts():
    assert GAME.check_options({}) == {"edition": 2011}
    assert GAME.check_options({"edition": 2022}) == {"edition": 2022}
    with pytest.raises(UsageError):
        GAME.check_options({"edition": 2023})
    with pytest.raises(UsageError):
        GAME.seat_players([Player("A"), Player("B")], {})
    with pytest.raises(UsageError):
        GAME.seat_players([Player(n) for n in "ABCDEF"], {})


def test_hand_opens_with_the_special_card_as_a_table_event():
    t = Table()
    turn = GAME.to_act(t.state)
    assert turn.table and turn.players == ()
    assert GAME.option_lines(t.state, GAME.legal(t.state)) == [
        "special CARD: one not used before: " + " ".join(s.code for s in SPECIALS)]
    event = t("dragon")
    assert event.by is None and event["card"] == "Dragon" and event["dealer"] == "Pierre"
    assert GAME.format(t.state, event) == "special Dragon"
    assert GAME.to_act(t.state).players == SEED_TABLE  # nobody knows who holds the 5 of Knights


def test_wrong_dealer_and_non_special_cards_are_refused():
    t = Table()
    with pytest.raises(IllegalMove) as caught:
        apply_event(GAME, t.state, GAME.parse(t.state, "special Dragon", None).__class__.make(
            "special", None, card="Dragon", dealer="Bruno"), t.players)
    assert caught.value.code == "wrong-dealer"
    t.rejects("special K7", "not-special")


# --------------------------------------------------------------------------------------------
# The seed's example hand


def test_seed_example_trick():
    t = Table()
    t.start("Dragon", quest="4a", quest_by="Bruno", leader="Catie")
    assert GAME.to_act(t.state).players == ("Catie",)
    t.cards("D3 D4")  # Catie then Pierre
    t("GK")  # Bruno has no Dwarf
    assert t.trick_winner(1) == "Pierre"
    assert GAME.to_act(t.state).players == ("Pierre",)
    assert t.deal.slots[1].void_in("Dwarves") is not None


def test_quest_by_name_and_by_number():
    t = Table()
    t("special Dragon")
    e = GAME.parse(t.state, "quest knights victory", "Bruno")
    assert (e["tile"], e["side"]) == (4, "a")
    assert GAME.parse(t.state, "4 b", "Bruno")["side"] == "b"
    with pytest.raises(NotationError) as caught:
        GAME.parse(t.state, "quest 4", "Bruno")
    assert "Knights victory" in caught.value.message
    t.rejects("quest 21a", "unknown-quest", as_="Bruno")


def test_turn_order_one_card_per_player():
    t = Table()
    t.start("Dragon")
    t("K7")
    with pytest.raises(IllegalMove) as caught:
        apply_event(GAME, t.state, GAME.parse(t.state, "K8", "Bruno"), t.players)
    assert caught.value.code == "not-your-turn"


# --------------------------------------------------------------------------------------------
# Checks that need no secret


def test_card_must_exist_in_this_hand_and_not_be_played_twice():
    t = Table()
    t.start("Dragon")
    t.rejects("D2", "card-out-of-game", rule="Set-up")
    t.rejects("Druid", "special-not-in-hand", rule="Set-up")
    t("K7")
    t.rejects("K7", "card-played")


def test_the_two_of_dwarves_is_in_play_with_four_players():
    t = Table(names=("A", "B", "C", "D"))
    t.start("Dragon", quest_by="B", leader="C")
    t("D2")


def test_shown_fives_are_known_to_be_in_their_hands():
    t = Table()
    t.start("Dragon", quest_by="Bruno", leader="Catie")
    err = t.rejects("K5", "card-held-elsewhere", rule="Cards")
    assert "Bruno" in err.message
    t("G5")  # Catie showed it and leads with it


def test_quest_and_leader_need_the_holder_when_known():
    t = Table()
    t("special Dragon")
    t("hand K5 K2 K3 K4 K6 K7 K8 K9 K10 KJ KQ KK KA", as_="Pierre")
    assert GAME.to_act(t.state).players == ("Pierre",)
    t.rejects("quest 1a", "not-your-turn", as_="Bruno")
    t("quest 1a")
    assert GAME.to_act(t.state).players == SEED_TABLE
    t.rejects("leader", "not-the-holder", as_="Pierre")


def test_used_special_cards_and_quest_tiles_never_return():
    t = Table()
    t.start("Dragon", quest="4a")
    t.finish_hand()
    assert t.deal.number == 2
    t.rejects("special Dragon", "special-used", rule="Dealing")
    t("special Mummy")
    t.rejects("quest 4b", "quest-used", as_="Bruno")


def test_next_dealer_is_the_winner_of_the_five_of_dwarves():
    t = Table()
    t.start("Dragon", quest_by="Pierre")
    t.cards("D5 D6 D7")  # Catie, Pierre, Bruno: Bruno wins the 5 of Dwarves
    before_last = None
    while t.deal.number == 1:
        before_last = t.state
        event = GAME.legal(t.state)[0]
        t.state = apply_event(GAME, t.state, event, t.players)
    assert t.state.results[0].next_dealer == 1 and t.deal.dealer == 1
    lines = GAME.describe(before_last, event, t.state)
    assert "Bruno won the 5 of Dwarves and deals hand 2." in lines
    assert GAME.to_act(t.state).prompt.startswith("hand 2: Bruno deals")


# --------------------------------------------------------------------------------------------
# Revokes


def revoke_table():
    t = Table()
    t.start("Dragon")
    t.cards("D3 D4 GK")  # Bruno shows a void in Dwarves in trick 1; Pierre leads trick 2
    return t


def test_revoke_reported_with_both_tricks_and_only_once():
    t = revoke_table()
    t.cards("K2 K3 K4")  # Pierre, Bruno, Catie: Catie wins trick 2
    assert GAME.notices(t.state) == ()
    t.cards("D5 D6 D7")  # Catie, Pierre, Bruno: Bruno plays a Dwarf
    (notice,) = GAME.notices(t.state)
    assert notice.code == "revoke" and notice.rule == "Follow suit"
    assert "trick 1" in notice.message and "trick 3" in notice.message
    assert "Bruno" in notice.message and "GK" in notice.message and "D7" in notice.message
    t.cards("D8 D9 D10")  # Bruno leads; no second notice for the same void
    assert len(GAME.notices(t.state)) == 1


def test_voids_travel_with_the_cards_when_hands_are_traded():
    t = Table()
    t.start("Druid", quest_by="Pierre")
    t.cards("D3 D4 GK")  # Bruno void in Dwarves; Pierre leads trick 2
    t.cards("Druid G3 G4")  # Pierre's Druid (a 1 of Dwarves) wins: nobody else had a Dwarf
    assert t.trick_winner(2) == "Pierre"
    assert GAME.to_act(t.state).players == ("Pierre",)
    assert "swaps hands" in GAME.to_act(t.state).prompt
    t.rejects("D5", "wrong-phase")
    t.rejects("trade Pierre", "self-target")
    t("trade Bruno")  # Pierre now holds Bruno's hand, and Bruno Pierre's (with the K5)
    assert t.deal.slots[0].void_in("Dwarves").player == "Bruno"
    assert "K5" in t.deal.slots[1].known
    t("D5")  # Pierre leads a Dwarf from the hand Bruno showed void in: revoke
    (notice,) = GAME.notices(t.state)
    assert "Revoke by Bruno" in notice.message and "now Pierre's" in notice.message
    assert "trick 1" in notice.message and "trick 3" in notice.message
    t("D6")  # Bruno, with Pierre's old hand, plays Dwarves freely
    t("G2")  # Catie, void in Dwarves since trick 2: nothing new
    assert len(GAME.notices(t.state)) == 1


def test_standard_bearer_passes_every_hand_and_the_voids_with_them():
    t = Table()
    t.start("StandardBearer", quest_by="Pierre")
    t.cards("D3 D4 GK")  # Bruno void in Dwarves; Pierre leads
    t.cards("StandardBearer K3 K4")  # the 11 of Knights wins
    with pytest.raises(NotationError):
        t("pass up")
    t("pass left")  # each hand goes to the next player: Bruno's to Catie
    assert t.deal.slots[2].void_in("Dwarves").player == "Bruno"
    assert "K5" in t.deal.slots[1].known  # Pierre's hand went to Bruno
    t.cards("D5 D6 D7")  # Pierre leads; Catie plays a Dwarf from Bruno's old hand
    assert "Revoke by Bruno" in GAME.notices(t.state)[0].message


def test_pass_right_gives_each_hand_to_the_previous_player():
    t = Table()
    t.start("StandardBearer")
    t.cards("D3 D4 GK")
    t.cards("StandardBearer K3 K4")
    t("pass right")  # Bruno's hand goes to Pierre
    assert t.deal.slots[0].void_in("Dwarves").player == "Bruno"


def test_no_effect_in_the_last_trick():
    t = Table()
    t.start("Druid")
    while len(t.deal.tricks) < 12:
        legal = [e for e in GAME.legal(t.state) if e.type == "play" and e["card"] != "Druid"]
        t.state = apply_event(GAME, t.state, legal[0], t.players)
    seat = GAME.to_act(t.state).players[0]
    t("Druid", as_=seat)
    t.finish_hand()
    assert t.deal.number == 2 and len(t.state.results) == 1


def test_full_knowledge_makes_follow_suit_immediate():
    t = Table()
    t("special Dragon")
    t("hand K2 K3 K4 K5 K6 K7 K8 K9 K10 KJ KQ KK KA", as_="Pierre")
    t("hand D3 D4 D5 D6 D7 D8 D9 D10 DJ DQ DK DA Dragon", as_="Bruno")
    assert t.deal.slots[2].complete  # Catie's hand is what is left
    assert sorted(t.deal.slots[2].known)[0] == "G10"
    t("quest 5a", as_="Pierre")
    t("leader", as_="Catie")
    t("G2")
    t("K2")  # Pierre has no Goblin: a legal discard, no void to remember (the hand is known)
    assert t.deal.slots[0].voids == ()
    assert [e["card"] for e in GAME.legal(t.state)][:3] == ["D3", "D4", "D5"]
    assert "Dragon" in [e["card"] for e in GAME.legal(t.state)]


def test_full_knowledge_rejects_a_failure_to_follow():
    t = Table()
    t("special Dragon")
    t("hand K2 K3 K4 K5 K6 K7 K8 K9 K10 KJ KQ KK G2", as_="Pierre")
    t("quest 5a", as_="Pierre")
    t("leader", as_="Catie")
    t("G3")
    err = t.rejects("K2", "must-follow", rule="Follow suit")
    assert "G2" in err.message
    t.rejects("D7", "card-not-in-hand")
    assert [e["card"] for e in GAME.legal(t.state)] == ["G2"]
    assert GAME.option_lines(t.state, GAME.legal(t.state)) == ["G2"]


def test_entered_hands_are_checked():
    t = Table()
    t("special Dragon")
    t.rejects("hand K2 K3", "wrong-hand-size", as_="Pierre")
    t.rejects("hand D2 K3 K4 K5 K6 K7 K8 K9 K10 KJ KQ KK KA", "card-not-dealt", as_="Pierre")
    t("hand K2 K3 K4 K5 K6 K7 K8 K9 K10 KJ KQ KK KA", as_="Pierre")
    t("hand K2 K3 K4 K5 K6 K7 K8 K9 K10 KJ KQ KK KA", as_="Pierre")  # again: no harm
    t.rejects("hand K2 K3 K4 K5 K6 K7 K8 K9 K10 KJ KQ KK G2", "hand-known", as_="Pierre")
    t.rejects("hand K2 D3 D4 D5 D6 D7 D8 D9 D10 DJ DQ DK DA", "card-held-elsewhere", as_="Bruno")
    t("quest 5a", as_="Pierre")
    t.rejects("hand D3 D4 D5 D6 D7 D8 D9 D10 DJ DQ DK DA G2", "wrong-phase", as_="Bruno")


def test_options_without_knowledge_explain_the_rule():
    t = revoke_table()
    t("K2")
    lines = GAME.option_lines(t.state, GAME.legal(t.state))
    assert lines[0].startswith("follow Knights if you can: K3")
    # Bruno holds the 5 of Knights: only the Dragon may break suit, and it says so on its line
    assert lines[1:] == ["Dragon   (the Dragon may be played at any time)"]


# --------------------------------------------------------------------------------------------
# Magic cards in tricks


def test_dragon_wins_unless_an_ace_r1():
    assert trick_winner(((0, "K2"), (1, "Dragon"), (2, "KK")), None) == 1
    assert trick_winner(((0, "K2"), (1, "Dragon"), (2, "GA")), None) == 2  # off-suit Ace
    assert trick_winner(((0, "K3"), (1, "Dragon"), (2, "GA"), (3, "KA")), None) == 3  # led suit
    assert trick_winner(((0, "Dragon"), (1, "GA"), (2, "DA"), (3, "KA")), None) == 1  # led by GA


def test_dragon_leading_lets_the_next_card_set_the_suit():
    t = Table()
    t.start("Dragon", quest_by="Catie")
    t.cards("Dragon K3")  # Catie leads the Dragon: Pierre's K3 sets the suit
    assert "follows Knights" in GAME.to_act(t.state).prompt
    t("G7")  # Bruno did not follow Knights: a void
    assert t.deal.slots[1].void_in("Knights") is not None
    assert t.trick_winner(1) == "Catie"


def test_dragon_may_be_played_when_able_to_follow():
    t = Table()
    t("special Dragon")
    t("hand K2 K3 K4 K5 K6 K7 K8 K9 K10 KJ KQ KK Dragon", as_="Pierre")
    t("quest 5a", as_="Pierre")
    t("leader", as_="Catie")
    t("KA")
    t("Dragon")
    assert t.deal.slots[0].voids == ()


def test_mummy_copies_the_previous_winner_and_not_in_the_first_trick():
    t = Table()
    t.start("Mummy")
    t.rejects("Mummy", "mummy-first-trick", rule="Mummy")
    t.cards("K9 K2 K3")  # Catie wins with K9 and leads
    t.cards("K10")
    t("Mummy")  # Pierre: a copy of K9, following Knights
    assert t.deal.slots[0].voids == ()
    t("K8")
    assert t.trick_winner(2) == "Catie"
    assert t.deal.slots[0].voids == ()


def test_mummy_wins_as_its_copy():
    prev = Trick(1, ((0, "KQ"), (1, "K2"), (2, "K3")), winner=0)
    assert trick_winner(((1, "K10"), (2, "Mummy"), (0, "KJ")), prev) == 2
    assert trick_winner(((1, "G10"), (2, "Mummy"), (0, "GJ")), prev) == 0  # off-suit copy


def test_puppeteer_half_step_and_leading_rules():
    t = Table()
    t.start("Puppeteer")
    t.rejects("Puppeteer", "puppeteer-first-lead", rule="Puppeteer")
    t.cards("K9 Puppeteer KJ")  # Pierre's Puppeteer is a 9.5 of Knights; Bruno's KJ wins
    assert t.trick_winner(1) == "Bruno"
    assert trick_winner(((0, "K9"), (1, "Puppeteer"), (2, "K2")), None) == 1
    assert trick_winner(((0, "K9"), (1, "G4"), (2, "Puppeteer")), None) == 0  # copies G4


def test_puppeteer_and_excalibur_lead_only_as_last_card_r3():
    t = Table()
    t.start("Excalibur")
    t.cards("K9 K2 K3")  # Catie wins and leads trick 2
    t.rejects("Excalibur", "lead-last-card-only", rule="R-3")


def test_excalibur_needs_a_void_and_wins():
    t = Table()
    t.start("Excalibur", quest_by="Bruno")
    t.cards("K9")
    t("Excalibur")  # Pierre claims a void in Knights
    assert t.deal.slots[0].void_in("Knights").card == "Excalibur"
    t("KA")
    assert t.trick_winner(1) == "Pierre"
    t2 = Table()
    t2.start("Excalibur", quest_by="Pierre")  # Pierre showed the 5 of Knights
    t2.cards("K9")
    t2.rejects("Excalibur", "excalibur-not-void", rule="Excalibur")


def test_sorcerer_between_tricks_takes_a_card_back():
    t = Table()
    t.start("Sorcerer")
    t.rejects("Sorcerer K9", "sorcerer-between-tricks", as_="Pierre")  # before the first trick
    t.rejects("Sorcerer", "sorcerer-between-tricks", rule="Sorcerer")  # into a trick
    t.cards("D3 D4 D5")  # Bruno wins the 5 of Dwarves
    t.rejects("Sorcerer K9", "not-in-previous-trick", as_="Pierre")
    e = t("Sorcerer D5", as_="Pierre")
    assert e.type == "sorcerer" and GAME.format(t.state, e) == "Sorcerer D5"
    assert t.deal.tricks[0].cards == ("D3", "D4", "Sorcerer")
    from referee.games.dwarf_king.texts import card_words
    assert [card_words(c) for c in ("K2", "Druid", "StandardBearer")] == [
        "2 of Knights (K2)", "the Druid", "the Standard Bearer [StandardBearer]"]
    assert "D5" in t.deal.slots[0].known
    t.rejects("D5", "card-held-elsewhere")  # Bruno leads; the D5 is in Pierre's hand
    t.rejects("Sorcerer D3", "card-played", as_="Catie")


def test_a_card_taken_back_is_no_proof_of_revoke():
    t = Table()
    t.start("Sorcerer")
    t.cards("D3 D4 G9")  # Bruno shows a void in Dwarves; Pierre leads trick 2
    t("Sorcerer D4", as_="Bruno")  # ...then takes the D4 back
    t.cards("K2 K3 K4")  # Catie wins
    t.cards("D6 D7")
    t("D4")  # Bruno plays the card he took back: no revoke
    assert GAME.notices(t.state) == ()


def test_sorcerer_as_the_last_card_is_a_discard():
    prev = Trick(12, ((0, "K2"), (1, "K3"), (2, "K4")), winner=2)
    assert trick_winner(((2, "Sorcerer"), (0, "G2"), (1, "G5")), prev) == 1


# --------------------------------------------------------------------------------------------
# Special cards that ask for a choice


def test_goblin_flag_bearer_swap_comes_after_the_quest():
    t = Table()
    t.start("FlagBearerG", quest_by="Bruno")
    assert "Flag Bearer" in GAME.to_act(t.state).prompt
    t.rejects("swap Catie", "self-target", as_="Catie")
    t.rejects("leader", "wrong-phase", as_="Catie")
    t("swap Pierre", as_="Catie")
    assert t.deal.slots[1].known == {"K5"}  # Bruno's hand was not touched
    assert t.deal.slots[0].known == t.deal.slots[2].known == frozenset()
    t("leader", as_="Catie")
    t("FlagBearerG")


def test_goblin_swap_forgets_what_was_known_of_both_hands():
    t = Table()
    t.start("FlagBearerG", quest_by="Bruno")
    assert "K5" in t.deal.slots[1].known
    t("swap Bruno", as_="Catie")  # Catie may have taken the 5 of Knights
    assert t.deal.slots[1].known == frozenset() and t.deal.slots[2].known == frozenset()


def test_goblin_swap_with_recorded_cards_keeps_knowledge():
    t = Table()
    t("special FlagBearerG")
    t("hand K2 K3 K4 K5 K6 K7 K8 K9 K10 KJ KQ KK KA", as_="Pierre")
    t("hand D3 D4 D5 D6 D7 D8 D9 D10 DJ DQ DK DA FlagBearerG", as_="Bruno")
    t("quest 5a", as_="Pierre")
    t.rejects("swap Pierre take K2 give D3", "swap-cards", as_="Bruno")
    # a hand the tool did not deal: both pairs in one move, never a take alone (`give` is a
    # --seed game's second move)
    t.rejects("swap Pierre take K2 K3", "swap-cards", as_="Bruno")
    t.rejects("swap Pierre give D3 D4", "swap-cards", as_="Bruno")
    t.rejects("swap Pierre take K2 G2 give D3 D4", "swap-cards", as_="Bruno")
    t.rejects("swap Pierre take K2 K3 give G3 D4", "swap-cards", as_="Bruno")
    t("swap Pierre take K2 K3 give D3 D4", as_="Bruno")
    assert {"D3", "D4"} <= t.deal.slots[0].known and t.deal.slots[0].complete
    assert {"K2", "K3"} <= t.deal.slots[1].known and t.deal.slots[1].complete


# Eleven tricks of a 3-player hand before the two that matter, all won by Pierre (seat 0). The
# scoring functions read only who won what, so the filler need not be a consistent deal.
FILLER = [(((0, f"G{r}"), (1, f"D{r}"), (2, f"K{r}")), 0) for r in "6789"] + [
    (((0, f"G{r}"), (1, f"D{r}"), (2, f"K{r}")), 0) for r in ("10", "J", "Q", "K", "A")] + [
    (((0, "G5"), (1, "D6"), (2, "K6")), 0), (((0, "G4"), (1, "D5"), (2, "K5")), 0)]


def scored(special, last_two, quest=(5, "a")):
    """The points of a hand of 13 tricks (quest +1 per trick) whose last two tricks are given."""
    tricks = FILLER + last_two
    deal = Deal(1, 0, special=special, quest=quest, leader=0, tricks=tuple(
        Trick(i + 1, plays, winner) for i, (plays, winner) in enumerate(tricks)))
    return hand_points(deal, 3, 2011)


def test_specials_that_score():
    plain = [(((0, "K2"), (1, "K3"), (2, "K4")), 2), (((2, "D2"), (0, "D3"), (1, "D4")), 1)]
    assert scored("Dragon", plain) == (11, 1, 1)
    flag = [(((0, "K2"), (1, "FlagBearerD"), (2, "K4")), 1), plain[1]]
    assert scored("FlagBearerD", flag) == (11, 2 + 3, 0)
    shaman = [(((0, "G2"), (1, "Shaman"), (2, "G3")), 1), plain[1]]
    assert scored("Shaman", shaman) == (11, 2 - 3, 0)
    tinker = [(((0, "D2"), (1, "Tinkerer"), (2, "D4")), 1), plain[1]]
    assert scored("Tinkerer", tinker) == (11, 2 + 3, 0)  # Bruno wins the next trick too
    tinker_last = [plain[0], (((2, "D2"), (0, "D3"), (1, "Tinkerer")), 1)]
    assert scored("Tinkerer", tinker_last) == (11, 1, 1)  # no next trick
    joker_last = [plain[0], (((2, "K5"), (0, "Joker"), (1, "K6")), 1)]
    assert scored("Joker", joker_last) == (11 + 3, 1, 1)  # played in the last trick, not won
    joker_earlier = [(((0, "Joker"), (1, "K3"), (2, "K4")), 2), plain[1]]
    assert scored("Joker", joker_earlier) == (11, 1, 1)
    enchanter = [(((0, "K2"), (1, "K3"), (2, "Enchanter")), 2), plain[1]]
    assert scored("Enchanter", enchanter) == (11, 1, 2)
    assert scored("Enchanter", enchanter, quest=(5, "b")) == (-11, -1, -2)  # losses doubled
    scout = [(((0, "GK"), (1, "Scout"), (2, "GQ")), 0), plain[1]]
    assert scored("Scout", scout) == (12, 1 + 2, 0)


# --------------------------------------------------------------------------------------------
# Seeded virtual games


def test_seeded_game_fills_reveals_and_checks_them():
    t = Table(seed=7)
    e = t("special")
    assert e["card"] in CARDS
    assert all(slot.complete for slot in t.deal.slots)
    t2 = Table(seed=7)
    other = next(s.code for s in SPECIALS if s.code != e["card"])
    t2.rejects(f"special {other}", "seed-mismatch")
    holder = GAME.to_act(t.state).players
    assert len(holder) == 1
    q = t("quest a")
    assert q["side"] == "a"
    t.rejects("hand K2", "wrong-phase", as_="Pierre")


def test_seeded_hand_entry_is_refused():
    t = Table(seed=3)
    t("special")
    with pytest.raises(IllegalMove) as caught:
        t("hand " + " ".join(sorted(t.deal.slots[0].known)), as_="Pierre")
    assert caught.value.code == "hands-dealt"


# --------------------------------------------------------------------------------------------
# Answers: status, scoresheet, rules


def test_status_describe_and_scoresheet():
    t = revoke_table()
    text = GAME.render(t.state)
    assert "Hand 1 of 7; dealer Pierre" in text and "Dragon" in text
    assert "Quest: 5a Tricks" in text and "no Dwarves since trick 1 (Bruno)" in text
    assert "Points if the hand ended now: Pierre +1, Bruno +0, Catie +0" in text
    before = t.state
    event = t("K2")
    assert GAME.describe(before, event, t.state) == ["Pierre plays 2 of Knights (K2)."]
    t.cards("K3")
    before = t.state
    event = t("K4")
    lines = GAME.describe(before, event, t.state)
    assert "won by Catie with K4" in lines[1]
    t.finish_hand()
    sheet = GAME.score(t.state)
    assert [r.name for r in sheet.rows] == list(SEED_TABLE)
    assert sheet.rounds[0].caption.startswith("quest 5a Tricks; special Dragon; dealer Pierre")
    assert sum(dict(sheet.rounds[0].points).values()) == 13  # +1 per trick, 13 tricks
    text = render_text(sheet)
    assert "Hand 7" in text and "Running totals" in text


def test_blank_scoresheet_and_rules():
    sheet = GAME.blank_scoresheet({})
    assert sheet.blank and len(sheet.rows) == 5 and "Hand 7" in sheet.category_names
    text = GAME.rules()
    for n in range(1, 20):
        assert f"R-{n}:" in text
    for s in SPECIALS:
        assert s.code in text
    assert "Knights victory over Dwarves" in text and "Lucky run" in text


def test_game_ends_after_seven_hands_with_a_single_leader():
    t = Table(seed=11)
    import random

    from referee.games.dwarf_king import GAME as game
    rng = random.Random(0)
    while not t.state.over:
        event = game.random_event(t.state, rng)
        t.state = apply_event(game, t.state, event, t.players)
        t.events.append(event)
    totals = t.state.totals
    assert len(t.state.results) >= 7 and totals.count(max(totals)) == 1
    assert GAME.to_act(t.state).players == () and GAME.legal(t.state) == []
    assert replay_events(GAME, t.players, t.options, 11, t.events) == t.state
    sheet = GAME.score(t.state)
    assert sheet.finished and len(sheet.winners) == 1
    with pytest.raises(IllegalMove):
        apply_event(GAME, t.state, t.events[-1], t.players)


# --------------------------------------------------------------------------------------------
# Notation edges and hand-edited logs


def test_notation_errors_name_the_input():
    t = Table()
    for text, code in (("", "empty"), ("special", "no-card"), ("zz9", "unknown-card")):
        with pytest.raises(NotationError) as caught:
            GAME.parse(t.state, text, None)
        assert caught.value.code == code
    t("special Dragon")
    with pytest.raises(NotationError) as caught:
        GAME.parse(t.state, "quest", "Bruno")
    assert caught.value.code == "no-tile"
    e = GAME.parse(t.state, "quest 4a bruno", None)
    assert e.by == "Bruno" and e["tile"] == 4
    with pytest.raises(NotationError) as caught:
        GAME.parse(t.state, "quest 4a Bruno", "Catie")
    assert caught.value.code == "player-mismatch"
    t("quest 4a", as_="Bruno")
    assert GAME.parse(t.state, "leader catie", None).by == "Catie"
    assert GAME.parse(t.state, "Catie", None).by == "Catie"  # the keyword may be left out
    assert GAME.parse(t.state, "leader", None).by is None  # the CLI then asks for --as
    with pytest.raises(NotationError):
        GAME.parse(t.state, "leader Zed", None)
    t("leader", as_="Catie")
    for text, code in (("play", "no-card"), ("K7 K8", "trailing-words"), ("pass", "no-direction"),
                       ("trade", "no-player")):
        with pytest.raises(NotationError) as caught:
            GAME.parse(t.state, text, "Catie")
        assert caught.value.code == code


def test_a_card_typed_at_the_wrong_moment_is_explained():
    t = Table()
    t("special Dragon")
    t("quest 4a", as_="Bruno")
    err = t.rejects("K7", "wrong-phase", as_="Catie")  # the leader has not shown the 5 yet
    assert "5 of Goblins" in err.message


def test_hand_edited_events_are_refused_cleanly():
    t = Table()
    t.start("Dragon")

    def refused(event, code):
        with pytest.raises(IllegalMove) as caught:
            apply_event(GAME, t.state, event, t.players)
        assert caught.value.code == code

    make = type(t.events[0]).make
    refused(make("play", "Catie", card=7), "bad-field")
    refused(make("play", "Catie", card="K77"), "unknown-card")
    refused(make("hand", None, cards=["K2"]), "no-player")
    refused(make("sorcerer", "Catie", card="K2"), "special-not-in-hand")
    refused(make("quest", "Catie", tile=4, side="a"), "wrong-phase")


def test_druid_trade_and_pass_events_from_a_log_are_checked():
    t = Table()
    t.start("Druid", quest_by="Pierre")
    t.cards("D3 D4 GK Druid G3 G4")
    make = type(t.events[0]).make
    with pytest.raises(IllegalMove) as caught:
        apply_event(GAME, t.state, make("trade", "Pierre", target="Zed"), t.players)
    assert caught.value.code == "unknown-player"
    legal = GAME.legal(t.state)
    assert [GAME.format(t.state, e) for e in legal] == ["trade Bruno", "trade Catie"]
    for e in legal:
        assert GAME.parse(t.state, GAME.format(t.state, e), e.by) == e
    assert GAME.legal(t.state, "Bruno") == []
    t2 = Table()
    t2.start("StandardBearer", quest_by="Pierre")
    t2.cards("D3 D4 GK StandardBearer K3 K4")
    with pytest.raises(IllegalMove) as caught:
        apply_event(GAME, t2.state, make("pass", "Pierre", direction="up"), t2.players)
    assert caught.value.code == "bad-direction"


SEED_WITH_GOBLIN_SWAP = 8  # its first hand has the Flag Bearer (Goblins)


def _seeded_swap_table():
    t = Table(seed=SEED_WITH_GOBLIN_SWAP)
    t("special")
    assert t.deal.special == "FlagBearerG"
    t("quest a")
    (holder,) = GAME.to_act(t.state).players
    target = next(n for n in t.state.names if n != holder)
    return t, holder, target


def test_seeded_swap_takes_first_and_refuses_cards_typed_with_it_in_one_sentence():
    """T1: the Flag Bearer names nothing before seeing the 2 cards the tool took; cards typed
    with `swap` are refused in the same words whatever they are (held, lacking, taken)."""
    t, holder, target = _seeded_swap_table()
    mine = sorted(t.deal.slots[t.state.seat(holder)].known - {"FlagBearerG"})
    theirs = sorted(t.deal.slots[t.state.seat(target)].known)
    lacked = [c for c in sorted(t.deal.deck(3)) if c not in theirs and c not in mine]
    said = {t.rejects(f"swap {target} {words}", "swap-cards", as_=holder).message
            for words in (f"give {mine[0]} {mine[1]}", f"give {mine[0]} {lacked[0]}",
                          f"give {theirs[0]} {mine[0]}", f"give {lacked[0]} {lacked[1]}",
                          f"take {theirs[0]} {theirs[1]} give {mine[0]} {mine[1]}",
                          f"take {lacked[0]} {lacked[1]} give {mine[0]} {mine[1]}")}
    assert said == {f"the tool takes the 2 cards from {target}: type `swap {target}`; the Flag "
                    "Bearer reads them alone, then gives 2 back with `give CARD CARD`"}
    t(f"swap {target}", as_=holder)
    taken = t.deal.taken
    assert len(taken) == 2 and set(taken) <= set(theirs) and GAME.phase(t.state) == "give"
    assert set(taken) <= t.deal.slots[t.state.seat(holder)].known
    assert t.deal.slots[t.state.seat(holder)].size == 15
    # the table's view and the target's: the phase, never the cards taken
    for who in (None, target):
        view = GAME.view(t.state, who)
        assert view.deal.taken == () and GAME.phase(view) == "give"
    assert GAME.view(t.state, holder).deal.taken == taken


def test_seeded_give_refusals_are_one_sentence_and_the_table_never_sees_the_cards():
    t, holder, target = _seeded_swap_table()
    t(f"swap {target}", as_=holder)
    mine = sorted(t.deal.slots[t.state.seat(holder)].known)
    theirs = sorted(t.deal.slots[t.state.seat(target)].known)
    pairs = ((mine[0], theirs[0]), (theirs[0], theirs[1]), (theirs[1], mine[1]))
    for pair in pairs:  # a card of the Flag Bearer's with one he lacks: the same as two lacked
        refusal = t.rejects(f"give {pair[0]} {pair[1]}", "not-given-now", as_=holder,
                            rule="R-22")
        assert refusal.message == (f"{holder} cannot give those 2 cards back; why stays with "
                                   f"{holder}'s hidden hand")  # no card: typed unseen, maybe
    t.rejects(f"give {mine[0]} {mine[0]}", "swap-cards", as_=holder)
    with pytest.raises(NotationError) as caught:  # words typed unseen are never repeated
        t(f"give {mine[0]} {mine[1]}x", as_=holder)
    assert mine[0] not in caught.value.message and "asked unseen" in caught.value.message
    given = (t.deal.taken[0], mine[-1] if mine[-1] not in t.deal.taken else mine[0])
    t(f"give {given[0]} {given[1]}", as_=holder)
    assert t.deal.swapped and t.deal.taken == () and GAME.phase(t.state) == "leader"
    assert set(given) <= t.deal.slots[t.state.seat(target)].known
    assert all(slot.complete and slot.size == 13 for slot in t.deal.slots)
    public = GAME.view(t.state).deal  # neither hand shows a card given or kept
    assert not any(card in slot.known for slot in public.slots for card in given)
    assert "FlagBearerG" not in public.slots[t.state.seat(holder)].known


def test_a_seeded_swap_logged_in_one_event_still_replays():
    """Logs written before the take and the give were two moves (`swap NAME take C C give C C`
    in one event) replay to the same hands, the cards given still hidden from the table."""
    t, holder, target = _seeded_swap_table()
    taken = list(GAME.parse(t.state, f"swap {target}", holder)["taken"])
    mine = sorted(t.deal.slots[t.state.seat(holder)].known - {"FlagBearerG"})
    make = type(t.events[0]).make
    after = apply_event(GAME, t.state, make("swap", holder, target=target, taken=taken,
                                            given=mine[:2]), t.players)
    assert set(mine[:2]) <= after.deal.slots[t.state.seat(target)].known
    assert not set(mine[:2]) & GAME.view(after).deal.slots[t.state.seat(target)].known
    assert GAME.phase(after) == "leader"


def test_seeded_quest_tile_is_checked():
    t = Table(seed=5)
    t("special")
    (holder,) = GAME.to_act(t.state).players
    tile = GAME.parse(t.state, "quest a", holder)["tile"]
    other = 1 if tile != 1 else 2
    t.rejects(f"quest {other}a", "seed-mismatch", as_=holder)


def test_blind_swap_options_and_legal_note():
    t = Table()
    t("special FlagBearerG")
    assert "hand CARD" in GAME.legal_note(t.state)
    t("quest 4a", as_="Bruno")
    assert GAME.legal_note(t.state) == ""
    legal = GAME.legal(t.state)
    assert {(e.by, e["target"]) for e in legal} == {(a, b) for a in SEED_TABLE for b in SEED_TABLE
                                                   if a != b}
    lines = GAME.option_lines(t.state, legal)
    assert lines[0].startswith("swap Bruno   (--as whoever it is: Pierre, Catie)")


def test_option_lines_mention_the_specials_conditions():
    t = Table()
    t.start("Mummy")
    lines = GAME.option_lines(t.state, GAME.legal(t.state))
    assert lines[0].startswith("any unplayed card: ")
    # a card that cannot be played now is no option line: the note says why, on its own
    assert not any("Mummy" in line for line in lines)
    assert GAME.legal_note(t.state) == ("Not playable now: Mummy (it copies the card that won "
                                        "the previous trick: not in the first trick).")
    t2 = Table()
    t2.start("Sorcerer")
    t2.cards("K2 K3 K4")
    lines = GAME.option_lines(t2.state, GAME.legal(t2.state))
    assert lines[-1] == "Sorcerer CARD: its holder takes back one of K2 K3 K4 (between tricks)"
    t2("Sorcerer K3", as_="Bruno")  # the Sorcerer is played: no more Sorcerer line
    assert not [ln for ln in GAME.option_lines(t2.state, GAME.legal(t2.state))
                if ln.startswith("Sorcerer")]


def test_status_of_a_new_and_a_finished_game():
    t = Table()
    assert "Hand 1 of 7; dealer Pierre" in GAME.render(t.state)
    assert GAME.score(t.state).outcome == "hand 1 in progress"
    t = Table(seed=2)
    import random
    rng = random.Random(2)
    while not t.state.over:
        t.state = apply_event(GAME, t.state, GAME.random_event(t.state, rng), t.players)
        if t.state.results and len(t.state.results) == 1 and t.deal.special is None:
            assert "lead(s) with" in GAME.score(t.state).outcome
    text = GAME.render(t.state)
    assert text.splitlines()[1].startswith("Game over: ")
    assert "total" in text


def test_hand_entry_is_described_and_shown():
    t = Table()
    t("special Dragon")
    before = t.state
    event = t("hand K2 K3 K4 K5 K6 K7 K8 K9 K10 KJ KQ KK KA", as_="Pierre")
    assert GAME.describe(before, event, t.state) == [
        "Pierre's hand is entered: their plays are checked at once."]
    before = t.state
    event = t("hand D3 D4 D5 D6 D7 D8 D9 D10 DJ DQ DK DA Dragon", as_="Bruno")
    assert "Catie's hand is deduced (the cards left)." in GAME.describe(before, event, t.state)
    assert "Pierre: 13 card(s); known: K2 K3" in GAME.render(t.state)


def test_every_special_card_rule_is_handled_by_data():
    from referee.games.dwarf_king.scoring import SPECIAL_SCORING
    kinds = {s.scoring for s in SPECIALS if s.scoring}
    assert kinds == set(SPECIAL_SCORING)
    assert {s.action for s in SPECIALS if s.action} == {"trade-hands", "pass-hands",
                                                         "goblin-swap", "take-back"}
    assert {s.power for s in SPECIALS if s.power} == {"dragon", "mummy", "puppeteer", "sorcerer",
                                                       "excalibur"}


def test_r9_specials_and_tiles_come_back_once_all_are_used():
    from referee.games.dwarf_king.rules import available_specials, available_tiles
    from referee.games.dwarf_king.state import HandResult
    t = Table()

    def after(specials, tiles):
        results = tuple(HandResult(n + 1, "Pierre", s, (q, "a"), (0, 0, 0), 0, (0, 0, 0))
                        for n, (s, q) in enumerate(zip(specials, tiles)))
        return evolve(t.state, results=results)

    codes = [s.code for s in SPECIALS]
    state = after(codes[:13], range(1, 14))
    assert available_specials(state) == [codes[13]]
    assert available_tiles(state) == list(range(14, 21))
    state = after(codes + codes[:1], list(range(1, 21))[:15])
    assert available_specials(state) == codes[1:]  # a new round of the pile, Druid drawn again
    state = after(codes + codes[:6], list(range(1, 21)))
    assert available_tiles(state) == list(range(1, 21))


def test_r19_a_leading_puppeteer_copies_the_last_card_of_the_previous_trick():
    previous = Trick(12, ((0, "K2"), (1, "D3"), (2, "K8")), winner=2)
    assert trick_winner(((2, "Puppeteer"), (0, "K7"), (1, "K5")), previous) == 2  # a Knight 8.5
    assert trick_winner(((2, "Puppeteer"), (0, "K9"), (1, "K5")), previous) == 0
    assert trick_winner(((2, "Excalibur"), (0, "KA"), (1, "K5")), previous) == 2


def test_puppeteer_may_lead_the_last_trick():
    t = Table()
    t.start("Puppeteer", quest_by="Pierre")
    while len(t.deal.tricks) < 12:
        legal = [e for e in GAME.legal(t.state) if e.type == "play" and e["card"] != "Puppeteer"]
        t.state = apply_event(GAME, t.state, legal[0], t.players)
    leader = GAME.to_act(t.state).players[0]
    t("Puppeteer", as_=leader)
    assert "follows" in GAME.to_act(t.state).prompt


def test_known_hands_travel_with_the_druid_trade():
    t = Table()
    t("special Druid")
    t("hand K2 K3 K4 K5 K6 K7 K8 K9 K10 KJ KQ KK Druid", as_="Pierre")
    t("quest 5a", as_="Pierre")
    t("leader", as_="Catie")
    t("KA")  # Catie leads the Champion of Knights
    t.rejects("Druid", "must-follow", rule="Follow suit")  # the Druid is a Dwarf
    t.cards("K2 GK")  # Bruno shows a void in Knights; Catie wins and leads again
    t.cards("D9 Druid DQ")  # Pierre has no Dwarf but the Druid (a 1 of Dwarves); Bruno wins
    t("trade Bruno", as_="Pierre")  # Bruno now holds Pierre's known hand, Pierre Bruno's
    assert t.deal.slots[1].complete and not t.deal.slots[0].complete
    t.rejects("D3", "card-not-in-hand", as_="Bruno")
    t("K3")
    t("G8")  # Catie
    t.rejects("K5", "card-held-elsewhere", as_="Pierre")
    t("G2")  # Pierre, with the hand that showed no Knights: a discard, no revoke
    assert GAME.notices(t.state) == ()


def test_small_edges():
    from referee.games.dwarf_king.rules import effective
    with pytest.raises(AmbiguousMove):
        parse_card("K11")  # Enchanter or Standard Bearer, when the hand is not known
    assert effective("Puppeteer", (), None) == (None, 0.0)  # nothing to copy
    t = Table()
    t("special Mummy")
    with pytest.raises(NotationError) as caught:
        GAME.parse(t.state, "quest a", "Bruno")  # only a --seed game draws the tile itself
    assert caught.value.code == "no-tile"
    t("hand K2 K3 K4 K5 K6 K7 K8 K9 K10 KJ KQ KK Mummy", as_="Pierre")
    t("quest 5a", as_="Pierre")
    t("leader", as_="Catie")
    t("G2")
    t("K2")  # Pierre; now Bruno, who cannot hold the Mummy: no word about it
    assert not any("Mummy" in line for line in GAME.option_lines(t.state, GAME.legal(t.state)))
    import random
    over = evolve(t.state, over=True)
    assert GAME.random_event(over, random.Random(0)) is None


SEED_WITH_SORCERER = 50  # its first hand has the Sorcerer


def test_a_sorcerer_refused_from_a_dealt_hand_names_no_reason():
    """Between two tricks anyone may type `Sorcerer CARD --as NAME`: from a hand the tool dealt,
    the refusal of a player who lacks it sounds like any other (R-21)."""
    t = Table(seed=SEED_WITH_SORCERER)
    t("special")
    assert t.deal.special == "Sorcerer"
    t("quest a")
    t("leader")
    while not t.deal.tricks:
        t(next(e for e in GAME.legal(t.state) if e.type == "play")["card"])
    holder = t.state.names[t.deal.holder("Sorcerer")]
    other = next(n for n in t.state.names if n != holder)
    taken = t.deal.tricks[0].cards[0]
    err = t.rejects(f"Sorcerer {taken}", "not-playable-now", as_=other, rule="R-21")
    assert err.message == f"{other} cannot play Sorcerer now; why stays with {other}'s hidden hand"
    # A card outside the trick: the same refusal whether or not the one named holds the Sorcerer
    outside = next(c for c in sorted(t.deal.deck(3)) if c not in t.deal.tricks[0].cards
                   and c != "Sorcerer")
    said = {t.rejects(f"Sorcerer {outside}", "not-in-previous-trick", as_=name).message
            for name in (holder, other)}
    assert said == {f"{outside} is not in the previous trick "
                    f"({' '.join(t.deal.tricks[0].cards)})"}
    t(f"Sorcerer {taken}", as_=holder)


def test_a_dealt_hand_refuses_only_illegal_cards_and_says_why_only_from_the_tables_view():
    """Every card typed at every turn of a seeded hand: a legal card is never refused; a refusal
    either sounds the same whatever the hidden reason (R-21), or is the very refusal the table's
    own view gives; its closest moves are the table's, without the card refused."""
    from referee.games.dwarf_king import rules

    t = Table(seed=5)
    t("special")
    t("quest a")
    t("leader")
    uniform = 0
    while t.state.deal.number == 1:
        turn = GAME.to_act(t.state)
        who = turn.players[0]
        legal = {e["card"] for e in GAME.legal(t.state) if e.type == "play"}
        view = rules.table_view(t.state)
        offered = " ".join(GAME.option_lines(view, list(GAME.legal(view))))
        for card in CARDS:
            event = GAME.parse(t.state, card, who)
            try:
                apply_event(GAME, t.state, event, t.players)
            except IllegalMove as refusal:
                assert card not in legal, (who, card, refusal.message)
                suggested = set(" ".join(refusal.suggestions).split()) & set(CARDS)
                assert suggested == set(offered.split()) & set(CARDS) - {card}, refusal
                if refusal.code == "not-playable-now":
                    uniform += 1
                    led = rules.led_suit(view.deal.plays, view.deal.tricks[-1]
                                         if view.deal.tricks else None)
                    follow = f" (follow {led} if you can)" if led else ""
                    assert refusal.message == (f"{who} cannot play {card} now{follow}; why stays "
                                               f"with {who}'s hidden hand")
                else:
                    with pytest.raises(IllegalMove) as public:
                        rules.check_play(view, t.state.seat(who), card)
                    assert public.value.message == refusal.message
            else:
                assert card in legal, (who, card)
        t(sorted(legal)[0])
    assert uniform > 100  # the hidden hands were put to the test


def test_a_game_stopped_mid_hand_shows_that_hand_so_far_on_the_sheet():
    """B9: the table stops a --seed game in its first hand: the sheet shows that hand as it
    stood (quest, special card, tricks won, points so far, the tricks as played), outside the
    totals, and no card nobody played."""
    t = Table(seed=5)
    t("special")
    t("quest a", as_=GAME.to_act(t.state).players[0])
    t("leader", as_=GAME.to_act(t.state).players[0])
    for _ in range(7):  # two tricks and a card of the third
        event = GAME.legal(t.state)[0]
        t.state = apply_event(GAME, t.state, event, t.players)
    t("end pizza")
    deal = t.deal
    sheet = GAME.score(t.state)
    assert all(total == 0 for total in (row.total for row in sheet.rows))
    text = render_text(sheet, width=120)
    label = f"{deal.quest[0]}{deal.quest[1]}"
    assert f"\n1 (so far)  {label} " in text and "not in the totals" in text
    points = hand_points(deal, 3, 2011)
    won = [sum(1 for tr in deal.tricks if tr.winner == s) for s in range(3)]
    for w, p in zip(won, points):
        assert f"{w}t: {p}" in text
    names = t.state.names
    for trick in deal.tricks:
        cards = " ".join(f"{names[s]}:{c}" for s, c in trick.plays)
        assert re.search(rf"^{trick.number} +{cards} +{names[trick.winner]}$", text, re.M)
    (seat, card), = deal.plays
    assert f"{names[seat]}:{card}" in text and "(unfinished)" in text
    played = {c for tr in deal.tricks for c in tr.cards} | {card}
    held = {c for slot in deal.slots for c in slot.known} - played - {deal.special}
    assert not any(re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", text) for c in held)
