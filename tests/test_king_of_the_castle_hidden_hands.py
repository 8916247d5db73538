"""King of the Castle dealt by the tool (--shuffle --seed): the hands stay with their players.
`options --for NAME` reads NAME's own hand and nothing of another's, not even the card Unexpected
Loss would take (R-25, R-28); a card refused because of a dealt hand is refused in the same words
whether the hand holds it or not (R-28), and never offered back."""

from __future__ import annotations

import io
import itertools
import json
import random
from pathlib import Path

import pytest

from referee import log as logfile
from referee.engine import Player, apply_event
from referee.errors import MoveError
from referee.evolve import evolve
from referee.games.king_of_the_castle import GAME
from referee.games.king_of_the_castle.components import (
    ATTRIBUTES,
    CARD,
    POSTS,
    RANK_WORDS,
    REPLY_CARDS,
    build_of,
    post_words,
    sort_cards,
)
from referee.games.king_of_the_castle.state import Hand, State
from referee.replay import replay_log

NAMES = ("Ann", "Ben", "Cat", "Dan")


def dealt_game(seed: int, players: int = 3) -> tuple[tuple[Player, ...], list[State]]:
    """A random game the tool deals, to its end: the players and every state it went through."""
    seats = tuple(Player(n) for n in NAMES[:players])
    state = GAME.setup(seats, {}, seed)
    rng = random.Random(seed)
    states = []
    while not GAME.finished(state):
        states.append(state)
        event = GAME.random_event(state, rng)
        assert event is not None
        state = apply_event(GAME, state, event, seats)
    return seats, states


def twin(state: State, rng: random.Random, keep: int | None = None) -> State:
    """The same public game, the cards only the tool knows dealt otherwise among the hands and
    the deck (sizes kept); the hand at seat `keep`, if any, stays as it is."""
    pool = [card for seat, hand in enumerate(state.hands) if seat != keep for card in hand.known]
    pool += list(state.deck or ())
    rng.shuffle(pool)
    hands = []
    for seat, hand in enumerate(state.hands):
        if seat == keep:
            hands.append(hand)
            continue
        hands.append(Hand.of(pool[:hand.size]))
        pool = pool[hand.size:]
    return evolve(state, hands=tuple(hands), deck=tuple(pool))


def offered(state: State, player: str | None) -> tuple[list[str], list[str], str]:
    """What `options` shows (`--for player`, or the table's with None): lines, moves, note."""
    view = GAME.view(state, player)
    events = [e for e in GAME.legal(view, player)
              if not GAME.private(view, e) or (player is not None and e.by == player)]
    return (GAME.option_lines(view, events), [GAME.option_text(view, e) for e in events],
            GAME.legal_note(view, player))


# ---- options --for NAME: NAME's own hand, nothing of another's ------------------------------

def test_options_for_a_player_are_the_same_whatever_the_other_hands_hold():
    """T12: `options --for Ben` listed `unexpected-loss Ann loses assassination`, a card of
    Ann's hidden hand and the outcome of the tool's random pick. Now what a player is offered
    depends on their own hand alone: dealing the other hands otherwise changes nothing."""
    losses = 0
    for seed in range(3):
        _, states = dealt_game(seed)
        rng = random.Random(seed)
        for state in states[::2]:
            for seat, name in enumerate(state.names):
                mine = offered(state, name)
                assert offered(twin(state, rng, keep=seat), name) == mine, (seed, name)
                losses += sum(move.startswith("unexpected-loss ") for move in mine[1])
                assert not any(" loses " in line for line in mine[0] + mine[1])
            assert offered(twin(state, rng), None) == offered(state, None)
    assert losses >= 5  # the card was offered often enough to matter


@pytest.fixture
def seed3(cli, monkeypatch):
    """The testers' game: Ann, Ben, Cat dealt with seed 3, seals made, Ann's turn."""
    assert cli("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--seed",
               "3").status == 0
    for letters in ("dkq", "aex", "bgz"):
        monkeypatch.setattr("sys.stdin", io.StringIO(letters + "\n"))
        assert cli("play", "squires").status == 0
    return cli


def hands(cli) -> dict[str, list[str]]:
    state = replay_log(logfile.read(cli.path / "game.toml"))[1]
    return {name: [CARD[c].slug for c in hand.known]
            for name, hand in zip(state.names, state.hands)}


def test_unexpected_loss_is_offered_without_the_card_in_every_channel(seed3):
    cli = seed3
    assert cli("play", "pass").status == 0 and cli("play", "discard", "not-that-bad").status == 0
    held = hands(cli)
    assert "unexpected-loss" in held["Ben"]
    others = {slug for name in ("Ann", "Cat") for slug in held[name]} - set(held["Ben"])
    text = cli("options", "--for", "Ben").out
    data = json.loads(cli("options", "--for", "Ben", "--json").out)
    every = cli("options", "--for", "Ben", "--all").out
    every_json = json.loads(cli("options", "--for", "Ben", "--all", "--json").out)
    assert "  unexpected-loss PLAYER   (Ann, Cat)\n" in text
    assert "unexpected-loss PLAYER   (Ann, Cat)" in data["lines"]
    assert {"unexpected-loss Ann", "unexpected-loss Cat"} <= set(data["moves"])
    assert "unexpected-loss Ann\nunexpected-loss Cat\n" in every
    assert {"unexpected-loss Ann", "unexpected-loss Cat"} <= set(every_json["moves"])
    for shown in (text, json.dumps(data), every, json.dumps(every_json)):
        assert " loses" not in shown
        assert not [slug for slug in others if slug in shown], shown
    state = replay_log(logfile.read(cli.path / "game.toml"))[1]
    unseen = others - {CARD[c].slug for c in state.discard}
    assert {"assassination", "domain-2"} <= unseen  # the two cards the testers saw
    for channel in (("status",), ("status", "--json"), ("status", "--for", "Ben"), ("history",),
                    ("history", "--json"), ("score",), ("options",), ("options", "--json")):
        shown = cli(*channel).out
        assert not [slug for slug in unseen if slug in shown], (channel, shown)
    # Naming the card is refused alike whatever it is, the one the tool would pick included.
    before = (cli.path / "game.toml").read_bytes()
    refusals = {cli("play", "unexpected-loss", "Ann", "loses", slug).err
                for slug in held["Ann"] + ["plague", "zzz"]}
    assert refusals == {"referee: the tool deals the cards: it picks the card Ann loses (type "
                        "`unexpected-loss Ann`)\n  rule: R-25\n"}
    assert (cli.path / "game.toml").read_bytes() == before
    played = cli("play", "unexpected-loss", "Ann")
    assert played.status == 0 and "Ben: unexpected-loss Ann loses " in played.out


# ---- a refusal never tells what a dealt hand holds ------------------------------------

def typed_plays(state: State) -> list[str]:
    """Every card typed with every target the kingdom could name, legal or not."""
    castles = range(1, 4)
    others = [n for n in state.names if n != state.player]
    pile = sorted(set(state.discard)) + ["Domain 1", "Defence 3", "Plague"]
    targets = {
        "kill-king": [""], "sudden": [""], "reply": [""],
        "kill-man": [post_words(p) for p in range(POSTS)],
        "assassinate": [f"lord {c}" for c in castles],
        "kill-two": [f"castle {c} kill {a} {b}" for c in castles
                     for a, b in itertools.combinations(RANK_WORDS, 2)],
        "repair": [f"{CARD[t].slug} castle {c}" for t in pile if build_of(t) for c in castles],
        "recycle": [CARD[t].slug for t in pile],
        "loss": others, "theft": others,
    }
    moves = []
    for card in CARD.values():
        if card.effect in targets:
            aims = targets[card.effect]
        elif card.effect == "remove-top" and card.param("attribute") is None:
            aims = [f"castle {c} {a.lower()}" for c in castles for a in ATTRIBUTES]
        else:
            aims = [f"castle {c}" for c in castles]
        moves += [f"{card.slug} {aim}".strip() for aim in aims]
    return moves


def typed_moves(state: State) -> tuple[str, str, list[str]]:
    """(who types, the card-naming verb's phase, the moves) where a dealt hand is involved."""
    now = GAME.phase(state)
    if now in ("play", "extra"):
        return state.player, now, typed_plays(state)
    if now == "reply":
        assert state.window is not None and state.pending is not None
        saves = [post_words(p) for p in range(POSTS)] + \
            ["domain-1", "prestige-2", "defence-3", "domain-3"]
        return state.window.awaiting, now, [f"reply {CARD[c].slug} {s}" for c in REPLY_CARDS
                                            for s in saves]
    if now == "discard":
        excess = state.hands[state.turn].size - state.hand_limit
        slugs = [c.slug for c in CARD.values()]
        groups = itertools.combinations_with_replacement(slugs[::3] if excess > 1 else slugs,
                                                         excess)
        return state.player, now, ["discard " + " ".join(g) for g in groups]
    return "", now, []


def outcome(state: State, seats: tuple[Player, ...], text: str, by: str) -> str | None:
    """None when the move is taken; else the refusal as the table reads it."""
    try:
        apply_event(GAME, state, GAME.parse(state, text, by), seats)
    except MoveError as refusal:
        return f"{refusal.code} [{refusal.rule}] {refusal.message} | {refusal.hint}"
    return None


def test_a_refusal_reads_the_same_whether_the_dealt_hand_holds_the_card():
    """T6/L4: `Ann does not hold Domain 2 (the tool dealt the cards)`, `Ben does not hold Lucky
    Escape`, and a held card refused on its target (`castle 1 has no Defence card`) while one
    not held was refused on the hand. Every card is typed with every target at turns of dealt
    games, in the game as dealt and with the hidden cards dealt otherwise: a move refused in
    several of them is refused in the same words; every legal move is taken."""
    mixed = uniform = 0
    for seed in (3, 8):
        seats, states = dealt_game(seed)
        rng = random.Random(seed)
        sampled = [s for s in states if GAME.phase(s) in ("play", "extra", "reply",
                                                          "discard")][::6]
        for state in sampled:
            for event in GAME.legal(state):
                apply_event(GAME, state, event, seats)  # no legal move is refused
            games = [state] + [twin(state, rng) for _ in range(3)]
            by, now, moves = typed_moves(state)
            seat = state.seat(by)
            for text in moves:
                results = [outcome(game, seats, text, by) for game in games]
                refusals = {r for r in results if r is not None}
                assert len(refusals) <= 1, (seed, now, text, refusals)
                word = text.split()[1] if now in ("reply", "discard") else text.split()[0]
                title = next(c.title for c in CARD.values() if c.slug == word)
                holding = {title in game.hands[seat].known for game in games}
                if len(holding) == 2 and None not in results:
                    mixed += 1  # held here, not there, refused alike everywhere
                uniform += any(r is not None and "hidden hand" in r for r in refusals)
    assert mixed >= 20 and uniform >= 20, (mixed, uniform)


def test_the_testers_refusals_name_no_card_of_the_hand(seed3):
    """The probes of T6, on the testers' game: same words for a card not held, a held card's
    impossible target refused on the rule alone, nothing recorded, nothing offered back."""
    cli = seed3
    log = cli.path / "game.toml"
    before = log.read_bytes()
    refused = cli("play", "domain-2", "castle", "1")
    assert refused.status == 1 and refused.err == (
        "referee: Ann cannot play Domain 2 now; why stays with Ann's hidden hand\n"
        "  rule: R-28\n  hint: Ann alone may read the cards Ann can play: `options --for Ann`\n")
    as_json = json.loads(cli("play", "domain-2", "castle", "1", "--json").err)["error"]
    assert as_json["code"] == "not-playable-now" and as_json["suggestions"] == []
    assert log.read_bytes() == before
    assert cli("play", "assassination", "lord", "2").status == 0
    held = hands(cli)
    assert "lucky-escape" not in held["Ben"]
    reply = cli("play", "reply", "lucky-escape", "J")
    assert reply.status == 1 and "Ben cannot reply with Lucky Escape now; why stays with " \
        "Ben's hidden hand" in reply.err
    before = log.read_bytes()
    mended = cli("correct", "4", "domain-2", "castle", "1", "--why", "typo", "--by", "Ann",
                 "--force")
    # a dealt game's refused correction is the core's one sentence (T11), naming no card
    assert mended.status == 1 and "the correction does not fit the cards the tool dealt" in \
        mended.err and "omain" not in mended.err and log.read_bytes() == before
    assert cli("undo", "--force").status == 0
    assert cli("play", "pass").status == 0 and cli("play", "discard", "not-that-bad").status == 0
    held = hands(cli)
    assert "lazy-defence" in held["Ben"] and "time-of-peace" not in held["Ben"]
    for card in ("lazy-defence", "time-of-peace"):  # castle 1 has no Defence card
        probe = cli("play", card, "castle", "1")
        assert probe.status == 1 and "castle 1 has no Defence card\n  rule: R-11\n" in probe.err
        assert "hold" not in probe.err


def test_a_discard_of_several_cards_reads_the_same_whichever_the_hand_lacks(cli, monkeypatch):
    """R-28 for the hand limit's discard: refused on the hand, `Ann does not hold Plague`
    named the one card missing among those typed, telling the table the others are held.
    Every pair the hand cannot give is refused in one wording, nothing recorded."""
    assert cli("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--seed",
               "3", "--option", "hand_limit=2").status == 0
    for letters in ("dkq", "aex", "bgz"):
        monkeypatch.setattr("sys.stdin", io.StringIO(letters + "\n"))
        assert cli("play", "squires").status == 0
    assert cli("play", "pass").status == 0
    held = hands(cli)["Ann"]
    assert "not-that-bad" in held and not {"plague", "time-of-peace"} & set(held)
    log = cli.path / "game.toml"
    before = log.read_bytes()
    for typed, named in ((("not-that-bad", "plague"), "Plague, Not That Bad"),
                         (("plague", "time-of-peace"), "Plague, Time of Peace")):
        refused = cli("play", "discard", *typed)
        assert refused.status == 1 and refused.err == (
            f"referee: Ann cannot discard {named} now; why stays with Ann's hidden hand\n"
            "  rule: R-28\n  hint: Ann alone may read the cards Ann can play: "
            "`options --for Ann`\n"), refused.err
    assert log.read_bytes() == before


# ---- squires = hand is never played with the tool's cards -----------------------------

def test_squires_in_hand_are_refused_with_the_tools_cards(cli):
    """B3: with --shuffle and squires=hand the hand shown had no letters and `letters Z Z Z Z`
    was taken. The tool's cards carry none: `new` refuses the pair and says what works; a log
    with both (begun before R-29, or so edited) still reads, as it was played."""
    for shuffle in (["--shuffle", "--seed", "4"], ["--shuffle"]):
        refused = cli("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", *shuffle,
                      "--option", "squires=hand")
        assert refused.status == 2 and "squires=secret or squires=random" in refused.err
        assert "without --shuffle (R-29)" in " ".join(refused.err.split())
        assert not (cli.path / "game.toml").exists()
    assert cli("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", "--option",
               "squires=hand").status == 0  # the table's own cards
    log = cli.path / "game.toml"
    log.write_text(log.read_text(encoding="utf-8").replace("\n[options]", "seed = 4\n\n"
                                                           "[options]", 1), encoding="utf-8")
    assert logfile.read(log).seed == 4
    status = cli("status")
    assert status.status == 0 and "R-29" not in status.out + status.err
    check = cli("check", "game.toml")
    assert check.status == 0 and "game.toml: ok (king-of-the-castle, 0 events" in check.out
    assert cli("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", "--seed", "4",
               "--option", "squires=random", "--log", "other.toml").status == 0


OLD_LOGS = Path(__file__).parent / "old_logs"


def test_a_seeded_hand_game_finished_before_r29_still_reads_to_its_sheet(cli):
    """A log `referee` wrote before R-29 (made by the code of 721d24a^: --seed 1 and
    squires=hand, played out to the end) replays, checks and sheets as it did then (the
    sheet it gave is beside it); `new` still refuses the pair."""
    name = "king-of-the-castle-seeded-hand-before-r29"
    log = cli.path / "old.toml"
    log.write_bytes((OLD_LOGS / f"{name}.toml").read_bytes())
    assert logfile.read(log).seed == 1 and logfile.read(log).options["squires"] == "hand"
    check = cli("check", "old.toml")
    assert (check.status, check.out) == (0, "old.toml: ok (king-of-the-castle, 80 events, "
                                            "finished)\n")
    score = cli("score", "--log", "old.toml")
    then = (OLD_LOGS / f"{name}.score.txt").read_text(encoding="utf-8").splitlines()
    assert score.status == 0 and "Cat wins with 10 points after 13 round(s)" in then[1]
    now = score.out.splitlines()
    assert now[:2] == then[:2] and now[3:] == then[3:]  # line 3: the date, as this zone says it
    assert log.read_bytes() == (OLD_LOGS / f"{name}.toml").read_bytes()
    refused = cli("new", "king-of-the-castle", "-p", "Ann", "-p", "Ben", "--seed", "1",
                  "--option", "squires=hand", "--log", "again.toml")
    assert refused.status == 2 and "(R-29)" in refused.err
    assert not (cli.path / "again.toml").exists()
