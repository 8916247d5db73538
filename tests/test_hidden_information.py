"""Hidden information: no output shows what the table has not seen.

Whole seeded games (`--shuffle --seed`) of every game are replayed and, before each reveal, every
read command and a refused move are run through the CLI: none may name the card, tile or special
about to be revealed, nor a card of a hand the tool dealt. Then the move `options` offers is
played, and the reveal does name it (so the search itself is sound). Twins of every game that differ
only in hidden cards print the same everywhere. The policy is in docs/design.md ("Hidden
information").
"""

from __future__ import annotations

import json
import random
import re

import pytest

from referee import log as logfile
from referee import session
from referee.engine import apply_event, load_game
from referee.evolve import evolve
from referee.games.dwarf_king.components import LEADER_CARD, QUEST_CARD, SPECIAL_CARD, tiles
from referee.games.kings_ear.components import card_ids, short_name
from referee.simulate import default_players, play_out, to_log

READS = (("status",), ("status", "--json"), ("options",), ("options", "--json"), ("history",),
         ("history", "--json"), ("score",), ("score", "--json"), ("scoresheet",))


def seeded_game(game_id: str, seed: int, players: int | None = None):
    game = load_game(game_id)
    playout = play_out(game, seed, default_players(game, players))
    assert playout.finished
    return game, playout, to_log(game, playout)


def write_prefix(cli, log: logfile.GameLog, cut: int) -> str:
    """./game.toml with the first `cut` events of `log`; its text."""
    text = logfile.dumps(evolve(log, entries=log.entries[:cut]))
    (cli.path / "game.toml").write_text(text, encoding="utf-8")
    return text


def outputs_at(cli, log: logfile.GameLog, cut: int, refused: list[list[str]]) -> str:
    """Everything the read commands and some refused moves print with the first `cut` events."""
    path = cli.path / "game.toml"
    text = write_prefix(cli, log, cut)
    printed = []
    for args in READS:
        result = cli(*args)
        assert result.status == 0, (args, result.err)
        printed.append(result.out + result.err)
    printed.append(session.load(path).compact_board())  # `status` on a terminal
    for move in refused:
        result = cli("play", *move)
        assert result.status in (1, 2), (move, result.out)
        printed.append(result.out + result.err)
    assert path.read_text(encoding="utf-8") == text  # refused: untouched
    return "\n".join(printed)


def offered(cli) -> list[str]:
    return json.loads(cli("options", "--json").out)["moves"]


def word(text: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(text)}(?![\w-])")


# ---- The King's Ear: the virtual pile --------------------------------------------------------


@pytest.mark.parametrize("seed", [7])
def test_kings_ear_never_shows_the_next_card_of_the_pile(cli, seed):
    game, playout, log = seeded_game("kings-ear", seed)
    houses = tuple(playout.setup.options["houses"])
    draws = [i for i, e in enumerate(playout.events) if e.type == "draw"]
    for cut in draws:
        card = playout.events[cut]["card"]
        short = short_name(houses, card_ids(houses)[card])
        unseen = next(n for n in card_ids(houses) if n != card and all(
            e.get("card") != n for e in playout.events[:cut + 1]))
        # The refused moves name another unseen card: a refusal may repeat what was typed.
        other = short_name(houses, card_ids(houses)[unseen])
        printed = outputs_at(cli, log, cut, [["draw", *unseen.split()], ["place", "Horse"],
                                             ["trade", "Pig", "take", other]])
        assert not word(card).search(printed) and not word(short).search(printed), (cut, card)
        assert offered(cli) == ["draw"] or "draw" in offered(cli)
        result = cli("play", "draw")
        assert result.status == 0 and card in result.out  # the reveal itself names it


# ---- King of the Valley: the virtual piles -----------------------------------------------------


def test_king_of_the_valley_never_shows_the_next_tiles(cli):
    game, playout, log = seeded_game("king-of-the-valley", 5)
    reveals = [i for i, e in enumerate(playout.events) if e.type == "reveal"]
    for cut in reveals[:6] + reveals[6::5]:  # the set-up, then a sample of the refills
        next_tiles = list(playout.events[cut]["tiles"])
        wrong = next(t for t in ("farmer", "wife", "queen", "duke", "priest") if
                     t != next_tiles[0])
        outputs_at(cli, log, cut, [])
        assert offered(cli) == ["reveal"]
        assert json.loads(cli("options", "--json").out)["lines"] == ["reveal"]
        assert cli("options").out.splitlines()[1:] == ["  reveal"]
        result = cli("play", "reveal", wrong)
        assert result.status == 1 and not word(next_tiles[0]).search(result.err), result.err
        result = cli("play", "reveal")
        assert result.status == 0 and " ".join(next_tiles) in result.out


# ---- The Dwarf King: the specials, the quest tiles and the hands the tool deals ----------------


def test_dwarf_king_never_shows_the_next_special_tile_or_a_dealt_hand(cli):
    game, playout, log = seeded_game("dwarf-king", 3, players=3)
    events = playout.events
    shown: set[str] = set()
    state = playout.setup.state
    for cut, event in enumerate(events):
        if event.type == "special":
            shown = set()
            names = {event["card"], SPECIAL_CARD[event["card"]].name}
            printed = outputs_at(cli, log, cut, [["special", "K2"], ["leader"]])
            assert not any(word(name).search(printed) for name in names), (cut, event)
            tile = next(e["tile"] for e in events[cut:] if e.type == "quest")  # not drawn yet
            assert not re.search(rf"(?<![\w+-]){tile}[ab]\b|tile {tile}\b", printed), (cut, tile)
            assert offered(cli) == ["special"]
            result = cli("play", "special")
            assert result.status == 0 and SPECIAL_CARD[event["card"]].name in result.out
        elif event.type == "quest":  # drawn: the table sees both sides while one is chosen
            tile = event["tile"]
            printed = outputs_at(cli, log, cut, [["quest", f"{tile % 20 + 1}a"]])
            assert f"quest tile {tile} drawn: `quest a" in printed, (cut, tile)
            assert f"  {tile}a " in printed and f"  {tile}b " in printed, (cut, tile)
            assert set(offered(cli)) == {"quest a", "quest b"}
            label = tiles(playout.setup.options["edition"])[(tile, event["side"])].label
            result = cli("play", "quest", event["side"])
            assert result.status == 0 and label in result.out
        elif cut % 7 == 0:  # in the tricks: a hand shows only what the table has seen
            write_prefix(cli, log, cut)
            status = cli("status").out
            listed = {card for line in re.findall(r"^  \w+: \d+ card\(s\); (.*)$", status, re.M)
                      for card in re.findall(r"(?:holds|known:) ([^;]*)", line)
                      for card in card.split()}
            allowed = shown | {QUEST_CARD, LEADER_CARD, "FlagBearerG"} | told(state)
            assert listed <= allowed, (cut, listed)
        if event.type == "sorcerer":
            shown.add(event["card"])
        state = apply_event(game, state, event, playout.setup.players)


def told(state) -> set[str]:
    """The cards of the one hand the table can tell: every other hand's cards were all shown
    (in the last trick, the others have played theirs: the card left is the last one's)."""
    slots = state.deal.slots
    unknown = [slot for slot in slots if len(slot.shown) < slot.size]
    return set(unknown[0].known) if len(unknown) == 1 else set()


def test_a_players_own_view_shows_their_hand(cli):
    new = cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--seed", "3")
    assert new.status == 0
    assert cli("play", "special").status == 0
    table = session.load(cli.path / "game.toml")
    hands = {name: sorted(slot.known) for name, slot in zip(table.state.names,
                                                           table.state.deal.slots)}
    public = cli("status").out
    seen = {QUEST_CARD, table.state.deal.special}  # its holder acts next; the special is known
    for name, cards in hands.items():
        mine = cli("status", "--for", name).out
        assert all(word(c).search(mine) for c in cards), name
        others = [c for n, cs in hands.items() if n != name for c in cs if c not in seen]
        assert not any(word(c).search(mine) for c in others), name
        assert not any(word(c).search(public) for c in cards if c not in seen)
    holder = table.turn.players[0]
    assert cli("play", "quest", "a").status == 0 and cli("play", "leader").status == 0
    leader = session.load(cli.path / "game.toml").turn.players[0]
    own = json.loads(cli("options", "--for", leader, "--json").out)["moves"]
    assert set(own) <= set(hands[leader]) and len(own) == len(hands[leader])
    assert holder in hands and "any unplayed card" in cli("options").out


def test_a_seeded_swap_hides_the_cards_taken_and_given(cli):
    """T1: the tool takes the 2 cards, shown to the Flag Bearer alone (`status --for`); he gives
    2 back after seeing them; no public channel names either pair: play's text and --json,
    history (text, --json), status, options, the sheet."""
    from tests.test_dwarf_king import SEED_WITH_GOBLIN_SWAP

    assert cli("new", "dwarf-king", "-p", "Pierre", "-p", "Bruno", "-p", "Catie", "--seed",
               str(SEED_WITH_GOBLIN_SWAP)).status == 0
    assert cli("play", "special").status == 0 and cli("play", "quest", "a").status == 0
    table = session.load(cli.path / "game.toml")
    holder = table.turn.players[0]
    target = next(n for n in table.state.names if n != holder)
    kept = sorted(table.state.deal.slots[table.state.seat(holder)].known - {"FlagBearerG"})
    assert "give CARD CARD" in cli("options").out
    before = (cli.path / "game.toml").read_bytes()
    refused = cli("play", "swap", target, "give", kept[0], kept[1], "--as", holder)
    assert refused.status == 1 and (cli.path / "game.toml").read_bytes() == before
    result = cli("play", "swap", target, "--json", "--as", holder)
    assert result.status == 0, result.err
    taken = logfile.read(cli.path / "game.toml").entries[-1].event["taken"]
    own = cli("status", "--for", holder).out
    assert f"Taken from {target}: {' '.join(taken)}" in own
    given = [taken[0], kept[0]]
    public = [result.out, cli("status").out, cli("options").out, cli("status", "--json").out]
    result = cli("play", "give", *given, "--json", "--as", holder)
    assert result.status == 0, result.err
    assert json.loads(result.out)["move"] == "give 2 cards back"
    public += [result.out, cli("history").out, cli("history", "--json").out, cli("status").out,
               cli("status", "--json").out, cli("scoresheet").out, cli("options").out]
    text = "\n".join(public)
    for card in {*taken, *given}:
        assert not word(card).search(text), card
    assert f"swap {target}" in cli("history").out


def test_undoing_a_seeded_swap_or_give_names_neither_pair(cli):
    """T1: `undo` (text and --json) takes back a give, then the swap, naming no card of either
    pair: the retracted event is shown as the table may read it."""
    from tests.test_dwarf_king import SEED_WITH_GOBLIN_SWAP

    assert cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--seed",
               str(SEED_WITH_GOBLIN_SWAP)).status == 0
    cli("play", "special"), cli("play", "quest", "a")
    holder = session.load(cli.path / "game.toml").turn.players[0]
    target = next(n for n in ("Ann", "Ben", "Cat") if n != holder)
    assert cli("play", "swap", target).status == 0
    taken = logfile.read(cli.path / "game.toml").entries[-1].event["taken"]
    assert cli("play", "give", *taken).status == 0
    said = [cli("undo", "--force", "--json").out, cli("undo", "--force").out]
    assert cli("play", "swap", target).status == 0
    said += [cli("undo", "--force", "--json").out]
    assert json.loads(said[0])["retracted"]["event"] == {"by": holder, "type": "give"}
    assert "swap" in said[1] and json.loads(said[2])["retracted"]["move"].startswith("swap ")
    for card in taken:
        assert not word(card).search("\n".join(said)), card


# ---- Indistinguishable deals: what the table sees does not depend on the hidden cards -----


def _shuffled_hands(state, rng):
    """The same game, its unseen cards dealt otherwise among the hands (sizes kept)."""
    deal = state.deal
    hidden = [sorted(slot.known - slot.shown) for slot in deal.slots]
    pool = [card for cards in hidden for card in cards]
    rng.shuffle(pool)
    slots = []
    for slot, cards in zip(deal.slots, hidden):
        mine, pool = pool[:len(cards)], pool[len(cards):]
        slots.append(evolve(slot, known=slot.shown | frozenset(mine)))
    return evolve(state, deal=evolve(deal, slots=tuple(slots)))


@pytest.mark.parametrize("seed", [1, 4, 9])
def test_the_tables_view_of_a_tool_deal_does_not_depend_on_the_cards(seed):
    game, playout, log = seeded_game("dwarf-king", seed, players=4)
    rng = random.Random(seed)
    setup = playout.setup
    state = setup.state
    checked = 0
    for event in playout.events:
        if game.phase(state) == "play" and rng.random() < 0.3:
            other = _shuffled_hands(state, rng)
            one = session.Table(log, setup, state)
            two = session.Table(log, setup, other)
            assert one.board() == two.board()
            assert one.compact_board() == two.compact_board()
            assert one.choices().lines == two.choices().lines
            assert one.choices().texts() == two.choices().texts()
            assert one.turn == two.turn and one.score() == two.score()
            checked += 1
        state = apply_event(game, state, event, setup.players)
    assert checked > 10


# ---- The seed is the key to every hidden card ------------------------------------------------


def test_a_drawn_seed_is_never_printed(cli):
    result = cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--shuffle")
    seed = logfile.read(cli.path / "game.toml").seed
    assert result.status == 0 and "kept in the log only" in result.out
    printed = [result.out, cli("play", "special", "Dragon").err, cli("play", "special").out,
               cli("play", "quest", "99a").err]
    printed += [cli(*args).out for args in READS]
    assert not any(word(str(seed)).search(text) for text in printed)
    chosen = cli("--log", "other.toml", "new", "kings-ear", "-p", "A", "-p", "B", "--seed", "7")
    assert "seed 7" in chosen.out  # typed at the table: no secret
    drawn = cli("--log", "third.toml", "new", "kings-ear", "-p", "A", "-p", "B", "--shuffle",
                "--json")
    assert json.loads(drawn.out)["seed"] is None
    assert logfile.read(cli.path / "third.toml").seed is not None  # kept in the log only


def test_new_says_what_the_seed_does_in_each_game(cli):
    result = cli("new", "kingmaker", "-p", "A", "-p", "B", "--option", "components=test-box",
                 "--seed", "3")
    assert "The tool rolls the percentile dice a move leaves out, with seed 3." in result.out
    result = cli("--log", "b.toml", "new", "kings-ear", "-p", "A", "-p", "B", "--seed", "3")
    assert "Virtual pile shuffled, with seed 3." in result.out


# ---- What `options` offers is what `play` accepts --------------------------------------------


@pytest.mark.parametrize("game_id", ["kings-ear", "king-of-the-valley", "dwarf-king"])
def test_every_offered_move_parses_back_to_the_same_event(game_id):
    game, playout, _ = seeded_game(game_id, 11)
    state = playout.setup.state
    rng = random.Random(11)
    for event in playout.events:
        for candidate in rng.sample(game.legal(state), min(5, len(game.legal(state)))):
            text = game.option_text(state, candidate)
            assert game.parse(state, text, candidate.by) == candidate, text
        state = apply_event(game, state, event, playout.setup.players)


# ---- No hidden count: twins that differ only in hidden cards print the same --------------------
#
# Issue 24: counts, lists and suggestions in every output and `--json` are computed from public
# information only. For every game with hidden information, the log of a seeded game is read
# through the real CLI twice: once as it is, once with what only the tool knows changed (the
# unseen cards dealt otherwise among the hands, the undrawn piles in another order, another
# seed for what is still to come). The public history is the same, so every read command, the
# refusals of some bad moves and the output of a public move must be the same, byte for byte.


def _twin_kings_ear(state, rng):
    if state.deck is None:
        return state
    rest = list(state.deck[state.drawn:])
    rng.shuffle(rest)
    return evolve(state, deck=state.deck[:state.drawn] + tuple(rest))


def _twin_king_of_the_valley(state, rng):
    if state.virtual is None:
        return state
    piles = []
    for pile, seen in zip(state.virtual, state.seen):
        rest = list(pile[len(seen):])
        rng.shuffle(rest)
        piles.append(pile[:len(seen)] + tuple(rest))
    return evolve(state, virtual=tuple(piles))


def _twin_dwarf_king(state, rng):
    twin = evolve(state, seed=None if state.seed is None else state.seed + 1)
    return _shuffled_hands(twin, rng) if state.deal.slots else twin


def _twin_king_of_the_castle(state, rng):
    from referee.games.king_of_the_castle.state import Hand

    if not state.dealt or state.deck is None:
        return state
    pool = [card for hand in state.hands for card in hand.known] + list(state.deck)
    rng.shuffle(pool)
    hands = []
    for hand in state.hands:
        mine, pool = pool[:len(hand.known)], pool[len(hand.known):]
        hands.append(Hand.of(mine) if hand.complete else evolve(hand, known=tuple(sorted(mine))))
    return evolve(state, hands=tuple(hands), deck=tuple(pool))


def _twin_kingmaker(state, rng):
    return evolve(state, seed=None if state.seed is None else state.seed + 7)


TWINS = {"kings-ear": _twin_kings_ear, "king-of-the-valley": _twin_king_of_the_valley,
         "dwarf-king": _twin_dwarf_king, "king-of-the-castle": _twin_king_of_the_castle,
         "kingmaker": _twin_kingmaker}
PUBLIC = (*READS, ("scoresheet", "--format", "json"), ("options", "--all"))


def _public_outputs(cli, monkeypatch, game, text: str, twin) -> list[str]:
    """Every public output of the log `text`, read with its state made into `twin` of it."""
    from referee import replay

    real = replay.replay_log

    def replay_twin(log):
        setup, state = real(log)
        return setup, twin(state, random.Random(len(log.entries)))

    monkeypatch.setenv("REFEREE_CACHE", "0")
    monkeypatch.setattr(replay, "replay_log", replay_twin)
    path = cli.path / "game.toml"
    printed = []
    try:
        path.write_text(text, encoding="utf-8")
        for args in PUBLIC:
            result = cli(*args)
            printed.append(f"{args}: {result.status}\n{result.out}{result.err}")
        bad = ["@@## !!", "zz", *(f"{verb} @@" for verb in list(game.events.verbs())[:6])]
        for move in bad:
            result = cli("play", *move.split())
            printed.append(f"{move}: {result.status}\n{result.out}{result.err}")
            path.write_text(text, encoding="utf-8")  # `end @@` ends a game: free text
        public_move = next((m for m in json.loads(cli("options", "--json").out)["moves"]
                            if _is_public(game, m)), None)
        if public_move is not None:
            for flag in ((), ("--json",)):
                result = cli("play", *public_move.split(), *flag)
                printed.append(f"{public_move}: {result.status}\n{result.out}{result.err}")
                path.write_text(text, encoding="utf-8")
    finally:
        monkeypatch.setattr(replay, "replay_log", real)
    return printed


def _is_public(game, move: str) -> bool:
    """A move whose record names no hidden card: not a reveal, not a move the tool fills in."""
    verb = move.split()[0].casefold()
    etype = game.events.verbs().get(verb)
    return etype is not None and not etype.reveal and not etype.sealed


@pytest.mark.parametrize("game_id", sorted(TWINS))
def test_games_that_differ_only_in_hidden_cards_print_the_same(cli, monkeypatch, game_id):
    players = 3 if game_id != "kingmaker" else None
    game, playout, log = seeded_game(game_id, 6, players=players)
    cuts = sorted({len(log.entries) * k // 9 for k in range(1, 9)})
    compared = 0
    for cut in cuts:
        text = logfile.dumps(evolve(log, entries=log.entries[:cut]))
        state = playout.setup.state
        for event in playout.events[:cut]:
            state = apply_event(game, state, event, playout.setup.players)
        twin = TWINS[game_id]
        if twin(state, random.Random(cut)) == state:
            continue  # nothing hidden here (a physical game, or every card shown)
        plain = _public_outputs(cli, monkeypatch, game, text, lambda s, rng: s)
        other = _public_outputs(cli, monkeypatch, game, text, twin)
        for mine, theirs in zip(plain, other):
            assert mine == theirs, (cut, mine[:2000], theirs[:2000])
        compared += 1
    assert compared >= 3, compared
