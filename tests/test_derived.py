"""The one way the project remembers an answer: a derived value declared with what it reads."""

from __future__ import annotations

from typing import Any

import pytest

from referee import derived as derived_module
from referee.derived import SelfCheckError, derived, verify
from referee.evolve import evolve
from referee.values import field, value

CALLS: list[str] = []  # which derived values were worked out, in order


@value
class Realm:
    nobles: tuple[str, ...]
    cards: dict[str, str] = field(default_factory=dict)
    turn: int = 0

    @derived("nobles")
    def count(self) -> int:
        CALLS.append("count")
        return len(self.nobles)

    @derived("count", "turn")
    def per_turn(self) -> float:  # reads another derived value: stands for its fields
        CALLS.append("per_turn")
        return self.count / (self.turn + 1)


@derived(Realm, "cards")
def where(realm: Realm) -> dict[str, list[str]]:
    CALLS.append("where")
    out: dict[str, list[str]] = {}
    for card, at in realm.cards.items():
        out.setdefault(at, []).append(card)
    return out


def _moved(old: dict[str, list[str]], reads: tuple[Any, ...], realm: Realm
           ) -> dict[str, list[str]]:
    CALLS.append("update")
    (before,) = reads
    out = {at: list(cards) for at, cards in old.items()}
    for card, at in realm.cards.items():
        if before.get(card) != at:
            out[before[card]].remove(card)
            out.setdefault(at, []).append(card)
    order = list(realm.cards).index
    return {at: sorted(cards, key=order) for at, cards in out.items() if cards}


@derived(Realm, "cards", update=_moved)
def where_updated(realm: Realm) -> dict[str, list[str]]:
    CALLS.append("where_updated")
    out: dict[str, list[str]] = {}
    for card, at in realm.cards.items():
        out.setdefault(at, []).append(card)
    return out


@pytest.fixture(autouse=True)
def _calls() -> None:
    CALLS.clear()


def test_worked_out_once_per_state_and_carried_while_its_reads_stand() -> None:
    realm = Realm(("Warwick", "Neville"))
    assert realm.count == 2 and realm.count == 2
    assert CALLS == ["count"]
    later = evolve(realm, turn=3)  # count reads only the nobles
    assert later.count == 2
    assert CALLS == ["count"]


def test_dropped_when_a_read_changes() -> None:
    realm = Realm(("Warwick",))
    assert realm.count == 1
    more = evolve(realm, nobles=("Warwick", "Neville"))
    assert more.count == 2
    assert CALLS == ["count", "count"]


def test_the_same_object_given_again_is_no_change() -> None:
    realm = Realm(("Warwick",))
    assert realm.count == 1
    assert evolve(realm, nobles=realm.nobles).count == 1
    assert CALLS == ["count"]


def test_a_derived_read_stands_for_its_fields() -> None:
    realm = Realm(("Warwick", "Neville"), turn=1)
    assert realm.per_turn == 1.0
    assert evolve(realm, cards={"a": "deck"}).per_turn == 1.0
    assert CALLS == ["count", "per_turn"]  # its derived read first: kept for the next state
    assert evolve(realm, nobles=("Warwick",)).per_turn == 0.5  # through count
    assert evolve(realm, turn=3).per_turn == 0.5
    assert CALLS == ["count", "per_turn", "count", "per_turn", "per_turn"]


@derived(Realm, "nobles")
def leader(realm: Realm) -> str:
    CALLS.append("leader")
    return realm.nobles[0] if realm.nobles else ""


@derived(Realm, "leader", "turn")
def herald(realm: Realm) -> str:
    CALLS.append("herald")
    return f"{leader(realm)} in turn {realm.turn}"


def test_a_value_read_from_derived_values_stands_while_they_are_the_same_objects() -> None:
    warwick = "Warwick"
    realm = Realm((warwick, "Neville"))
    told = herald(realm)
    assert CALLS == ["leader", "herald"]
    joined = evolve(realm, nobles=(warwick, "Neville", "Clifford"))  # the same leader object
    assert herald(joined) is told
    assert CALLS == ["leader", "herald", "leader"]
    assert herald(evolve(joined, nobles=("Clifford", warwick))) == "Clifford in turn 0"
    assert CALLS[3:] == ["leader", "herald"]
    both = evolve(joined, nobles=(warwick,), turn=2)  # a field it reads itself: afresh
    assert herald(both) == "Warwick in turn 2" and CALLS[5:] == ["leader", "herald"]
    assert herald.afresh(both) == herald(both) and herald.derived.key.endswith("herald")
    verify(joined)


def test_a_module_level_declaration_is_called_with_the_state() -> None:
    realm = Realm((), cards={"a": "deck", "b": "hand"})
    assert where(realm) == {"deck": ["a"], "hand": ["b"]}
    assert where(evolve(realm, turn=2)) == {"deck": ["a"], "hand": ["b"]}
    assert where(evolve(realm, cards={"a": "hand", "b": "hand"})) == {"hand": ["a", "b"]}
    assert CALLS == ["where", "where"]


def test_an_update_starts_from_the_old_value_and_what_it_read() -> None:
    realm = Realm((), cards={"a": "deck", "b": "deck", "c": "hand"})
    assert where_updated(realm) == {"deck": ["a", "b"], "hand": ["c"]}
    moved = evolve(realm, cards={**realm.cards, "a": "hand"})
    twice = evolve(moved, cards={**moved.cards, "b": "out"})  # waits through two moves
    assert where_updated(twice) == {"hand": ["a", "c"], "out": ["b"]}
    assert CALLS == ["where_updated", "update"]  # one update, from the first state's value
    verify(twice)


def test_nothing_is_kept_anywhere_but_in_the_state() -> None:
    realm = Realm(("Warwick",))
    other = Realm(("Warwick",))  # equal, another object: worked out for each
    assert realm.count == other.count == 1
    assert CALLS == ["count", "count"]
    assert "count" in vars(realm) and not any(
        isinstance(v, dict) and v for k, v in vars(derived_module).items()
        if not k.startswith("__"))


def test_declarations_are_checked() -> None:
    with pytest.raises(TypeError, match="reads 'crowns', which is no field"):
        @derived(Realm, "crowns")
        def crowns(realm: Realm) -> int:
            return 0
    with pytest.raises(TypeError, match="names the fields it reads"):
        derived()
    with pytest.raises(TypeError, match="__slots__"):
        @value(slots=True)
        class Small:
            a: int

            @derived("a")
            def twice(self) -> int:
                return 2 * self.a


def test_a_cached_property_beside_derived_values_is_refused() -> None:
    """evolve copies a class's whole `__dict__` when it has derived values: a cached_property
    kept there would be carried to every later state, whatever field changed."""
    from functools import cached_property

    with pytest.raises(TypeError, match=r"Hoard\.total: a cached_property beside derived"):
        @value
        class Hoard:
            coins: tuple[int, ...]

            @cached_property
            def total(self) -> int:
                return sum(self.coins)

            @derived("coins")
            def most(self) -> int:
                return max(self.coins)


def test_evolve_refuses_a_change_that_is_no_field() -> None:
    with pytest.raises(TypeError, match="no field 'count'"):
        evolve(Realm(("Warwick",)), count=3)


def test_verify_finds_a_read_left_out_of_a_declaration() -> None:
    @value
    class Forgetful:
        nobles: tuple[str, ...]
        turn: int = 0

        @derived("nobles")
        def label(self) -> str:
            return f"{len(self.nobles)} at turn {self.turn}"  # reads turn, undeclared

    state = Forgetful(("Warwick",))
    assert state.label == "1 at turn 0"
    verify(state)  # right so far
    later = evolve(state, turn=2)
    with pytest.raises(SelfCheckError, match=r"Forgetful\.label kept '1 at turn 0' but works "
                                             r"out to '1 at turn 2' after move 7"):
        verify(later, "move 7")


def test_verify_looks_into_the_values_a_state_holds() -> None:
    @value
    class Trick:
        plays: tuple[str, ...]
        led: str = ""

        @derived("plays")
        def shown(self) -> str:
            return f"{self.led}: {', '.join(self.plays)}"  # reads led, undeclared

    @value
    class Deal:
        tricks: tuple[Trick, ...]

    trick = Trick(("7H",), led="Ann")
    assert trick.shown == "Ann: 7H"
    deal = Deal((evolve(trick, led="Bob"),))
    with pytest.raises(SelfCheckError, match=r"Trick\.shown kept 'Ann: 7H' but works out to "
                                             r"'Bob: 7H'"):
        verify(deal)


def test_verify_looks_into_the_pairs_a_state_holds() -> None:
    """A box keeps its entries as (key, entry) pairs: an entry's derived values are compared
    too, two levels down (a state, its box, the box's entries)."""
    @value
    class Entry:
        name: str
        values: tuple[tuple[str, int], ...] = ()

        @derived("values")
        def total(self) -> str:
            return f"{self.name}: {sum(v for _, v in self.values)}"  # reads name, undeclared

    @value
    class Box:
        entries: tuple[tuple[str, Entry], ...]

    @value
    class Game:
        box: Box

    entry = Entry("Warwick", (("troops", 20),))
    assert entry.total == "Warwick: 20"
    renamed = evolve(entry, name="Neville")
    verify(Game(Box((("noble", entry),))))  # right so far
    with pytest.raises(SelfCheckError, match=r"Entry\.total kept 'Warwick: 20' but works out "
                                             r"to 'Neville: 20'"):
        verify(Game(Box((("noble", renamed),))))


def test_a_declaration_after_the_class_expands_only_itself(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A module declares its derived values one after the other: each is checked and expanded
    as it comes, the ones before it are not expanded again (a game's start-up)."""
    expanded: list[str] = []
    expand_one = derived_module._expand_one

    def recording(cls: type, item: Any, names: set[str], by_name: dict[str, Any]) -> None:
        expanded.append(item.name)
        expand_one(cls, item, names, by_name)

    monkeypatch.setattr(derived_module, "_expand_one", recording)

    @value
    class Court:
        lords: tuple[str, ...]
        turn: int = 0

    @derived(Court, "lords")
    def size(court: Court) -> int:
        return len(court.lords)

    @derived(Court, "size", "turn")
    def share(court: Court) -> float:
        return size(court) / (court.turn + 1)

    @derived(Court, "share")
    def shown(court: Court) -> str:
        return f"{share(court):.1f}"

    assert expanded == ["size", "share", "shown"]
    assert shown.derived.reads == {"lords", "turn"}
    assert shown.derived.derived_reads == (share.derived,)
    court = Court(("York", "Percy"), turn=1)
    assert shown(court) == "1.0" and shown(evolve(court, turn=3)) == "0.5"


def test_a_refused_declaration_is_not_kept() -> None:
    with pytest.raises(TypeError, match="reads 'crowns', which is no field"):
        @derived(Realm, "crowns")
        def crowned(realm: Realm) -> int:
            return 0
    assert not [key for key in derived_module.table(Realm) if key.endswith("crowned")]
    assert where(evolve(Realm(("York",)), turn=1)) == {}
