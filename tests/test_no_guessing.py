"""Forgiving input never guesses (DESIGN.md "Notation"; issue 24, item 5).

Over every game and many positions of random legal playouts, text that names no move is refused:
text with no letter or digit, single letters, two letters, random words and random bytes. Every
text that is accepted is made of the canonical words of the move it was read as, the game's
documented aliases, or unambiguous prefixes of three or more characters of those words.
"""

from __future__ import annotations

import random
import string
from typing import Any, Iterator

import pytest

from referee.engine import Game, apply_event, available_game_ids, load_game
from referee.errors import MoveError, RefereeError
from referee.games.dwarf_king import notation as dwarf_words
from referee.games.king_of_the_castle import notation as castle_words
from referee.games.king_of_the_castle.components import LETTERS
from referee.games.kings_ear.components import DEFAULT_HOUSES, PROFESSIONS
from referee.notation import MIN_PREFIX, words
from referee.simulate import default_players, play_out

SEEDS = (2, 5)
STATES_PER_GAME = 24
NO_LETTER = ("@@## !!", "!", "!!", "@@##", "...", "-- --", "()", "[ ]", ",", "*", "?!?", "---",
             "@", ":", "= =", "' '", '"', "..,,..")


def _split(word: str) -> set[str]:
    return {part for part in word.replace("-", " ").replace(":", " ").split() if part}


# The documented short forms of each game, beyond the words its canonical moves print: the man
# pages' NOTATION sections.
ALIASES: dict[str, set[str]] = {
    "dwarf-king": set(dwarf_words._SUIT_WORDS) | set(dwarf_words._RANK_WORDS)
    | set(dwarf_words._SPECIAL_NAMES) | {"of", "the", "a", "b"}
    | {f"{s}{r}" for s in "kdg" for r in ("10", "11", *"123456789jqka")}  # K7, KQ, K11
    | {f"{r}{s}" for s in "kdg" for r in ("10", "11", *"123456789jqka")},  # 7K, QK (R-first)
    "king-of-the-castle": {w for form in castle_words.NAMES for w in _split(form)}
    | set(castle_words.NAMES) | set(castle_words.RANK_FORMS) | set(castle_words.RANK_LETTERS)
    | {"castle", "c", "and", "play", "def", "defense", "loses", "lost", "lose", "kill"}
    | {letter.casefold() for letter in LETTERS},
    "king-of-the-valley": {"l", "r", "knight", "as", "take"},
    "kings-ear": {"and"} | {h[0] for h in DEFAULT_HOUSES} | {p[0] for p in PROFESSIONS}  # pig a 3
    | {f"{h[0]}{p[0]}{v}" for h in DEFAULT_HOUSES for p in PROFESSIONS for v in "1234"},  # PA3
    "kingmaker": {"in", "near", "sq", "aboard", "port", "sea", "to", "via"},
}


def visited(game_id: str) -> Iterator[tuple[Game[Any], Any, tuple[str | None, ...]]]:
    """States of random playouts of `game_id`, with who may type there (nobody named first)."""
    game = load_game(game_id)
    for seed in SEEDS:
        playout = play_out(game, seed, default_players(game, None))
        state = playout.setup.state
        step = max(1, len(playout.events) // (STATES_PER_GAME // len(SEEDS)))
        for index, event in enumerate(playout.events):
            if index % step == 0:
                yield game, state, (None, *game.to_act(state).players)
            state = apply_event(game, state, event, playout.players)


def accepted(game: Game[Any], state: Any, text: str, player: str | None) -> Any:
    """The event `text` is read as, or None when it is refused."""
    try:
        return game.parse(state, text, player)
    except MoveError:
        return None
    except RefereeError:  # a usage problem (who is typing): refused as well
        return None


def vocabulary(game: Game[Any], state: Any, event: Any, game_id: str) -> set[str]:
    tokens = {t for w in words(game.format(state, event)) for t in _split(w.casefold())}
    return tokens | {w.casefold() for w in ALIASES[game_id]}


def named_by(word: str, vocab: set[str]) -> bool:
    """`word` is a word of the vocabulary or a prefix of one of at least MIN_PREFIX chars."""
    parts = _split(word.casefold().strip("()[]*\"'"))
    return all(part in vocab or (len(part) >= MIN_PREFIX and any(v.startswith(part)
                                                                 for v in vocab))
               for part in parts) and bool(parts)


def garbage(rng: random.Random) -> Iterator[tuple[str, str]]:
    """(kind, text) of texts that name no move."""
    for text in NO_LETTER:
        yield "no letter or digit", text
    for _ in range(3):
        yield "no letter or digit", "".join(rng.choice("!@#$%^&*()[]{}<>,.;:'\"-_=+?/\\|~ ")
                                            for _ in range(rng.randint(1, 12)))
    for letter in rng.sample(string.ascii_letters, 8):
        yield "single letter", letter
    for _ in range(6):
        yield "two letters", "".join(rng.choice(string.ascii_letters) for _ in range(2))


def random_texts(rng: random.Random) -> Iterator[tuple[str, str]]:
    """(kind, text) of texts that may happen to name a move: then only as the rule allows."""
    for _ in range(6):
        yield "random words", " ".join(
            "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 7)))
            for _ in range(rng.randint(1, 3)))
    for _ in range(4):
        yield "random bytes", bytes(rng.randrange(256) for _ in range(rng.randint(1, 16))) \
            .decode("utf-8", "replace")


@pytest.mark.parametrize("game_id", available_game_ids())
def test_text_that_names_no_move_is_never_accepted(game_id):
    rng = random.Random(game_id)
    checked = 0
    for game, state, typists in visited(game_id):
        legal_tokens = {t for e in game.legal(state)[:400]
                        for w in words(game.format(state, e)) for t in _split(w.casefold())}
        for kind, text in garbage(rng):
            if kind == "two letters" and text.casefold() in legal_tokens | ALIASES[game_id]:
                continue  # `KQ` is a card of The Dwarf King: a canonical word, no guess
            for player in typists:
                event = accepted(game, state, text, player)
                assert event is None, (kind, text, player, game.format(state, event))
                checked += 1
    assert checked > 300


SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


@pytest.mark.parametrize("game_id", available_game_ids())
def test_a_number_in_lookalike_digits_is_refused_not_a_crash(game_id):
    """`barbarians ²`, `draw Pig Army ³`, `result ²`: a superscript is a digit to
    `str.isdigit` but no number to `int`; it was read as one and crashed the referee (exit 70).
    Every legal move with its digits written as superscripts is refused as a plain MoveError."""
    tried = 0
    for game, state, typists in visited(game_id):
        texts = [game.format(state, event) for event in game.legal(state)[:60]]
        for text in [*texts, *ROLLS.get(game_id, ())]:
            if not any(ch.isdigit() for ch in text):
                continue
            for player in typists:
                assert accepted(game, state, text.translate(SUPERSCRIPT), player) is None, text
                tried += 1
    assert tried > 0


ROLLS = {"kingmaker": ("result 5", "save Percy 50", "storm Trinity 50 port London")}


@pytest.mark.parametrize("game_id", available_game_ids())
def test_every_accepted_text_is_canonical_an_alias_or_a_long_prefix(game_id):
    rng = random.Random(game_id)
    read = 0
    for game, state, typists in visited(game_id):
        texts = list(random_texts(rng))
        for event in rng.sample(game.legal(state), min(4, len(game.legal(state)))):
            canonical = words(game.format(state, event))
            cut = rng.randrange(len(canonical))  # one word cut short: long enough, or refused
            for size in (1, 2, MIN_PREFIX):
                shortened = canonical[cut][:size]
                if len(shortened) < len(canonical[cut]):
                    texts.append(("cut word", " ".join(canonical[:cut] + [shortened]
                                                       + canonical[cut + 1:])))
        for kind, text in texts:
            for player in typists:
                event = accepted(game, state, text, player)
                if event is None:
                    continue
                vocab = vocabulary(game, state, event, game_id)
                typed = [w for w in words(text) if w != ","]
                assert all(named_by(w, vocab) for w in typed), (
                    kind, text, player, game.format(state, event))
                read += 1
    assert read > 0


def test_the_dwarf_kings_garbage_is_not_the_special_card(cli):
    """Issue 24, item 5: `play '@@##' '!!'` was recorded as the hand's special card."""
    assert cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--seed", "3") \
        .status == 0
    for move in (["special"], ["quest", "a"], ["leader"]):
        assert cli("play", *move).status == 0, move
    before = (cli.path / "game.toml").read_bytes()
    for move in (["@@##", "!!"], ["!"], ["Sc"], ["s"], ["Sco", "!!"]):
        result = cli("play", *move)
        assert result.status == 1 and "plays" not in result.out, (move, result.out)
        assert (cli.path / "game.toml").read_bytes() == before
    refused = cli("play", "@@##", "!!")  # refused with the nearest moves there are
    assert "closest legal moves: any unplayed card: " in refused.err


# ---- What `options` offers is what `play` accepts (issue 24, item 14) -----------------------


@pytest.mark.parametrize("game_id", available_game_ids())
def test_every_offered_text_is_a_legal_move_for_play(game_id):
    """Every move text `options --json` lists parses as `play` reads it; as each player to act
    sees them (--for) they are legal: the event applies (a sealed secret's move too, once `play`
    has made its seal). The table's list may offer a card a hidden hand turns out not to hold:
    that refusal depends on the hand, and the table does not know it."""
    from referee import seals
    from referee.session import Table
    from referee.simulate import to_log

    game = load_game(game_id)
    for seed in SEEDS:
        playout = play_out(game, seed, default_players(game, None))
        log = to_log(game, playout)
        state = playout.setup.state
        for index, event in enumerate(playout.events):
            if index % 5 == 0:
                table = Table(log, playout.setup, state)
                for player in (None, *game.to_act(state).players):
                    choices = table.choices(player, own=player is not None)
                    assert table.count_moves(player, own=player is not None) >= \
                        len(choices.texts())
                    for text, offered in zip(choices.texts(), choices.events):
                        read = game.parse(state, text, offered.by or player)
                        if game.events[read.type].sealed:  # `play` makes the seal, never
                            assert text == game.events[read.type].words[0]  # reads one typed
                        if player is None:
                            continue
                        if game.events[read.type].sealed:
                            read = read.with_fields(seal=seals.commitment("x", "y"))
                        apply_event(game, state, read, playout.players)
            state = apply_event(game, state, event, playout.players)
