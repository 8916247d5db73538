"""Building Kingmaker positions for the tests: a real deal and layout from the test box, then the
realm arranged by hand (positions, control, cards) the way a test needs it."""

from __future__ import annotations

from typing import Iterable

import pytest

from referee.engine import Event, Player, apply_event
from referee.errors import IllegalMove
from referee.evolve import evolve
from referee.games.kingmaker import GAME, rules
from referee.games.kingmaker.components import Box
from referee.games.kingmaker.state import DECK, NobleState, ShipState, Siege, State

ANN, BEN, CAT = Player("Ann"), Player("Ben"), Player("Cat")
THREE = (ANN, BEN, CAT)
NAMES = ("Ann", "Ben", "Cat")


def fresh(players=THREE, charts: bool = False, **options) -> State:
    """The test box, set up but not dealt; without its charts unless asked (the table then
    enters results and deaths, R-23)."""
    state = GAME.setup(players, GAME.check_options(options))
    if not charts:
        box = Box(tuple(e for e in state.box.entries
                        if e[0][0] not in ("battle_chart", "death_chart")))
        state = evolve(state, box=box)
    return state


def mover(state: State, move: str, by: str | None) -> str | None:
    """Who a typed move is by: `by`, nobody for a table event, else whom the referee expects."""
    verb = GAME.events.verbs().get(move.split()[0].casefold())
    if verb is not None and verb.actor == "table":
        return None
    return by if by is not None else GAME.default_player(state)


def play(state: State, *moves: str, by: str | None = None, players=THREE) -> State:
    """Moves as typed at the table, each by whoever the referee expects (or `by`)."""
    for move in moves:
        event = GAME.parse(state, move, mover(state, move, by))
        state = apply_event(GAME, state, event, players)
    return state


def in_deck(state: State, *kinds: str, skip: Iterable[str] = ()) -> str:
    """A card of one of these kinds still in the Crown deck."""
    return next(c for c, w in sorted(state.cards.items()) if w == DECK and
                state.kind(c) in kinds and c not in set(skip))


def event(state: State, etype: str, by: str | None = None, players=THREE, **fields) -> State:
    return apply_event(GAME, state, Event.make(etype, by, **fields), players)


def illegal(state: State, move: str, code: str, by: str | None = None, players=THREE):
    with pytest.raises(IllegalMove) as info:
        play(state, move, by=by, players=players)
    assert info.value.code == code, info.value.message
    assert info.value.rule in GAME.rulebook, info.value.rule
    return info.value


def dealt_game(deals: dict[str, list[str]], players=THREE, charts: bool = False,
               **options) -> State:
    """A game dealt with these cards in each hand, the rest of each hand made up from the deck
    and put straight back (so that only the named cards count, and the deck stays full); the
    named cards laid out on the first noble that may take each."""
    state = fresh(players, charts, **options)
    size = rules.deal_size(state)
    chosen = {c for cards in deals.values() for c in cards}
    spare = balanced([c for c, w in sorted(state.cards.items()) if w == DECK and
                      c not in chosen and state.kind(c) != "noble"], state)
    fillers: set[str] = set()
    size = size if not options.get("late") else rules.deal_size(state)
    for player in players:
        if player.name in options.get("late", ()):
            continue
        cards = list(deals.get(player.name, []))
        while len(cards) < size:
            cards.append(spare.pop(0))
            fillers.add(cards[-1])
        state = event(state, "dealt", player.name, players, cards=cards)
    state = evolve(state, cards={c: (DECK if c in fillers else w)
                                  for c, w in state.cards.items()})
    duties = tuple(d for d in state.duties if d.kind != "layout" or any(
        w == f"dealt:{d.player}" for w in state.cards.values()))
    state = evolve(state, duties=duties)
    if not duties:
        return rules.finish_setup(state)
    while state.stage == "layout":
        moves = list(GAME.events["assign"].moves(state))
        state = apply_event(GAME, state, moves[0], players)
    return state


def balanced(cards: list[str], state: State) -> list[str]:
    """Cards in the order fillers are taken: all but two of each kind first, so that the deck
    left after a deal still holds some cards of every kind."""
    kinds: dict[str, list[str]] = {}
    for card in cards:
        kinds.setdefault(state.kind(card), []).append(card)
    first = [c for group in kinds.values() for c in group[:-2]]
    return first + [c for c in cards if c not in first]


def put(state: State, noble: str, at: str) -> State:
    nobles = dict(state.nobles)
    nobles[noble] = evolve(nobles[noble], at=at)
    return evolve(state, nobles=nobles)


def own(state: State, place: str, noble: str | None) -> State:
    control = {p: n for p, n in state.control.items() if p != place}
    if noble is not None:
        control[place] = noble
    return evolve(state, control=control)


def give(state: State, card: str, noble: str) -> State:
    cards = dict(state.cards)
    cards[card] = f"noble:{noble}"
    return evolve(state, cards=cards)


def enter(state: State, noble: str, player: str, at: str) -> State:
    nobles = dict(state.nobles)
    nobles[noble] = NobleState(player, at)
    cards = dict(state.cards)
    cards[noble] = rules.PLAY
    return evolve(state, nobles=nobles, cards=cards)


def remove(state: State, *nobles: str) -> State:
    cards = dict(state.cards)
    for noble in nobles:
        cards[noble] = "discard"
        for card in state.cards_of(noble):
            cards[card] = DECK
    return evolve(state, cards=cards,
                   nobles={n: s for n, s in state.nobles.items() if n not in nobles},
                   control={p: n for p, n in state.control.items() if n not in nobles})


def heir(state: State, name: str, by: str | None = None, at: str | None = None,
         alive: bool = True, crowned: bool | None = None) -> State:
    heirs = dict(state.heirs)
    old = heirs[name]
    heirs[name] = evolve(old, by=by, at=at or old.at, alive=alive,
                          crowned=old.crowned if crowned is None else crowned)
    return evolve(state, heirs=heirs)


def dead(state: State, *names: str) -> State:
    for name in names:
        state = heir(state, name, alive=False, crowned=False)
    return state


def ship(state: State, name: str, by: str, at: str) -> State:
    ships = dict(state.ships)
    ships[name] = ShipState(by, at)
    return evolve(state, ships=ships)


def siege(state: State, place: str, owner: str, nobles: Iterable[str], turn: int = 1,
          via: str | None = None) -> State:
    sieges = dict(state.sieges)
    sieges[place] = Siege(owner, tuple(nobles), turn, via)
    return evolve(state, sieges=sieges)


def at_phase(state: State, stage: str, seat: int | None = None) -> State:
    """The same realm in another phase of the turn (of the player at `seat`)."""
    seat = state.seat if seat is None else seat
    return evolve(state, stage=stage, seat=seat, event_drawn=True, moved={}, acted=frozenset(),
                   friendly=rules.friendly_snapshot(evolve(state, seat=seat),
                                                    state.names[seat]), duties=(), drew=False)




HARMLESS = ("Fair Weather", "Bad Weather Delays Attack", "Writ", "Free Move",
            "Chancellor May Call Parliament")


def calm(state: State) -> str:
    """A chance card that changes nothing, as typed."""
    name = next((n for n in HARMLESS if rules.event_available(state, n)), "Embassy")
    return f"event {name.replace(' ', '-')}"


def quiet_turn(state: State, players=THREE) -> State:
    """One whole turn in which nothing happens: a harmless event card, no move, no combat, a
    crown card drawn (a non-noble) and discarded or kept."""
    assert state.stage == "chance", state.stage
    state = play(state, calm(state), players=players)
    while state.stage != "draw":
        state = play(state, "next", players=players)
    card = next((c for c, w in sorted(state.cards.items()) if w == DECK
                 and state.kind(c) in ("mercenary", "bishop", "title", "office")), None)
    state = play(state, f"draw {card.replace(' ', '-')}" if card else "draw hidden",
                 players=players)
    while state.duties:
        duty = rules.duty(state)
        assert duty is not None and duty.kind == "discard", duty
        state = play(state, f"discard {state.hand(duty.player)[0].replace(' ', '-')}",
                     by=duty.player, players=players)
    return play(state, "next", players=players)


def turns(state: State, count: int, players=THREE) -> State:
    for _ in range(count):
        state = quiet_turn(state, players)
    return state
