"""The Dwarf King's states built positionally for speed (Deal.after_play, State.with_deal) name
every field of their class, in order: a field added later must be added there too."""

from referee.games.dwarf_king.state import Deal, State, Trick
from referee.hands import HiddenHand
from referee.values import fields


def test_the_positional_builders_know_every_field() -> None:
    assert [f.name for f in fields(Deal)] == [
        "number", "dealer", "special", "quest", "swapped", "leader", "slots", "tricks", "plays",
        "pending", "pending_seat", "taken", "taken_from"]
    assert [f.name for f in fields(State)] == [
        "names", "edition", "seed", "deal", "results", "notices", "over", "stopped"]


def test_after_play_changes_only_the_hand_and_the_tricks() -> None:
    trick = Trick(1, ((0, "K2"), (1, "K3"), (2, "K4")), winner=2)
    deal = Deal(2, 1, special="Druid", quest=(4, "a"), swapped=True, leader=2,
                slots=(HiddenHand(3), HiddenHand(3), HiddenHand(3)), tricks=(trick,),
                plays=((2, "D2"),), pending="trade-hands", pending_seat=1)
    after = deal.after_play(0, HiddenHand(2), ((2, "D2"), (0, "D3")), (trick,))
    assert after == Deal(2, 1, special="Druid", quest=(4, "a"), swapped=True, leader=2,
                         slots=(HiddenHand(2), HiddenHand(3), HiddenHand(3)), tricks=(trick,),
                         plays=((2, "D2"), (0, "D3")), pending="trade-hands", pending_seat=1)
    state = State(("Ann", "Ben", "Cat"), 2022, 7, deal, over=True)
    assert state.with_deal(after, ()) == State(("Ann", "Ben", "Cat"), 2022, 7, after, over=True)
