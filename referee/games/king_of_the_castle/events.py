"""King of the Castle's events, each declared once: its fields, when it may come, its notation, its
effect and the moves it offers. A game goes:

  squires   each player seals the three squires they back            `squires` (typed unseen)
  reveal    the table turns up personality cards (set-up, vacancies)   `reveal Q A B`
  play      a card played, with its targets (the keyword is optional)  `plague castle 2 kill
                                                                        lord seneschal`
  reply     Lucky Escape or Not That Bad, out of turn (R-5)            `reply lucky-escape lord 2`
  pass      no card this turn, no reply, no extra play                 `pass`
  discard   down to the hand limit (R-3); a drawn card that cannot be played (R-12)
  open      at the end, each player opens their seal                   `open D K Q 7KQF-2M9X-PA4D`
  letters   at the end with squires = hand, the letters in hand        `letters A Q Q`
  end       the table stops the game; the squires are still opened      `end cafe closes`
            (R-27)
"""

from __future__ import annotations

import itertools
from typing import Any, Iterator

from referee import engine
from referee.engine import Args, Event, Events, EventType
from referee.errors import IllegalMove, NotationError
from referee.evolve import evolve
from referee.games.king_of_the_castle import rules
from referee.games.king_of_the_castle.components import (
    CARD,
    KING,
    LETTERS,
    POST_TITLES,
    RANKS,
    REPLY_CARDS,
    attribute_card,
    castle_of,
    post_words,
    rank_of,
    sort_cards,
)
from referee.games.king_of_the_castle.notation import (
    Words,
    parse_letters,
    rank_words,
    take_attribute,
    take_card,
    take_cards,
    take_castle,
    take_player,
    take_post,
    take_rank,
)
from referee.games.king_of_the_castle.rules import (
    DEAL,
    DISCARD,
    EXTRA,
    OPEN,
    PLAY,
    REPLY,
    SEAL,
    SETUP,
    SUDDEN,
)
from referee.games.king_of_the_castle.state import HAND, RANDOM, State, with_hand
from referee.notation import expect_end
from referee.replies import ReplyWindow

SQUIRES = 3


def _slug(title: Any) -> str:
    """A card's slug; a hand-edited unknown name is shown as it is."""
    return CARD[title].slug if title in CARD else str(title)


def simulated_secret(state: State, name: str) -> tuple[str, str]:
    """The letters and receipt a simulated player seals (`referee simulate` plays every seat).
    Never used for a real player: their secret is typed unseen or drawn by `secrets`."""
    import random

    from referee import seals  # only when a seal is made or opened

    rng = random.Random(f"king-of-the-castle:simulated:{state.seed}:{name}")
    letters = "".join(sorted(rng.sample(LETTERS, SQUIRES)))
    symbols = "".join(rng.choice(seals.ALPHABET) for _ in range(12))
    return letters, "-".join(symbols[i:i + 4] for i in range(0, 12, 4))


def three_letters(state: State, words: Words, text: str) -> str:
    """Three different squires, canonical: sorted letters, e.g. `DKQ`. Never repeats them."""
    letters = parse_letters(state, words, "your squires")
    if len(letters) == SQUIRES == len(set(letters)):
        return "".join(sorted(letters))
    # What was wrong, never which letters: a seal's letters are typed unseen.
    read = "a letter was typed twice" if len(letters) == SQUIRES else \
        f"{len(letters) or 'no'} letter{'s' * (len(letters) != 1)} read"
    raise NotationError(f"you back three different squires: exactly three letters A-Z, e.g. "
                        f"`D K Q` or `dkq` ({read})", code="bad-secret")


class Squires(EventType[State]):
    name = "squires"
    doc = "a player seals the three squires they back (only the commitment is kept)"
    fields = {"seal": "str"}
    field_docs = {"seal": "sha256: and 64 hex digits, the commitment to the letters salted with "
                          "the player's receipt; neither the letters nor the receipt is stored"}
    phases = frozenset({SEAL})
    sealed = True
    forms = (("squires", "seal your three squires: you type them unseen (squires = secret) or "
                         "the tool draws them and shows them to you once (squires = random); "
                         "write the receipt on your slip"),)

    def parse(self, state: State, args: Args) -> Event:
        from referee import seals  # only when a seal is made or opened

        if not args.words:
            return self.make(args.by)  # `referee play` seals the secret it asks for
        if len(args.words) != 1 or not seals.is_commitment(args.words[0].lower()):
            raise NotationError("type `squires` alone: your letters are asked for unseen, "
                                "never on the command line", code="letters-in-the-open")
        return self.make(args.by, seal=args.words[0].lower())

    def format(self, state: State, event: Event) -> str:
        return f"squires {event.get('seal', '')}".rstrip()

    def secret(self, state: State, text: str) -> str:
        return three_letters(state, tuple(text.split()), text)

    def draw_secret(self, state: State) -> str | None:
        if state.squires != RANDOM:
            return None
        import secrets

        return "".join(sorted(secrets.SystemRandom().sample(LETTERS, SQUIRES)))

    def apply(self, state: State, event: Event) -> State:
        from referee import seals  # only when a seal is made or opened

        if not seals.is_commitment(event["seal"]):
            raise IllegalMove("the seal must be `sha256:` and 64 hex digits", code="bad-seal",
                              rule="Seals")
        at = state.seals.index(None)
        state = evolve(state, seals=state.seals[:at] + (event["seal"],) + state.seals[at + 1:])
        if None in state.seals or not state.dealt:
            return state
        return rules.deal_kingdom(state)

    def moves(self, state: State) -> Iterator[Event]:
        from referee import seals  # only when a seal is made or opened

        name = state.names[state.seals.index(None)]
        letters, receipt = simulated_secret(state, name)
        yield self.make(name, seal=seals.commitment(letters, receipt))


class Reveal(EventType[State]):
    name = "reveal"
    doc = "the table turns up personality cards for the posts waiting, in order"
    fields = {"letters": "str[]"}
    field_docs = {"letters": "the squires turned up, in the order of the posts waiting: at "
                             "set-up the King, then each castle's Lord, Seneschal, Master at "
                             "Arms (R-4); later the vacancies, highest first (R-6)"}
    actor = "table"
    reveal = True
    phases = frozenset({SETUP, DEAL})
    forms = (("reveal LETTER...", "personality cards turned up, e.g. reveal Q, or all ten at "
                                  "set-up: reveal Q A B C D E F G H I"),)

    def parse(self, state: State, args: Args) -> Event:
        letters = parse_letters(state, args.words, args.text)
        if not letters:
            raise NotationError("reveal needs the letters turned up, e.g. `reveal Q`",
                                code="no-letters")
        return self.make(None, letters=list(letters))

    def format(self, state: State, event: Event) -> str:
        return "reveal " + " ".join(map(str, event["letters"]))

    def apply(self, state: State, event: Event) -> State:
        return rules.reveal(state, tuple(event["letters"]))

    def moves(self, state: State) -> Iterator[Event]:
        for letter in LETTERS:
            if letter not in state.seen:
                yield self.make(None, letters=[letter])


class Play(EventType[State]):
    name = "play"
    doc = "a card played with its targets, by the active player"
    fields = {"card": "str", "castle": "int", "post": "str", "kill": "str[]", "attribute": "str",
              "take": "str", "player": "str", "lost": "str"}
    field_docs = {"card": "the card played, its title: \"Plague\", \"Domain 2\", \"Barbarians!\"",
                  "castle": "the castle targeted, 1-3 (Assassination: the castle whose Lord is "
                            "crowned)",
                  "post": "Accidental Death: the man killed, by post: \"King\", \"Lord 2\", "
                          "\"Master at Arms 3\"",
                  "kill": "Plague: the two men killed, by rank: [\"Lord\", \"Seneschal\"]",
                  "attribute": "State of Disrepair: Domain, Prestige or Defence",
                  "take": "Timely Repairs, Recycle: the card taken from the discard pile",
                  "player": "Unexpected Loss, Targeted Theft: the other player",
                  "lost": "Unexpected Loss: the card the player discarded at random"}
    optional = frozenset(rules.TARGET_FIELDS)
    reveal = True
    phases = frozenset({PLAY, EXTRA, SUDDEN})
    verbs = ("play",)
    forms = (
        ("CARD [TARGETS]", "a card and its targets; `play` in front is optional:"),
        ("peaceful-death", "sudden-changes (no target)"),
        ("accidental-death MAN", "MAN: king, lord 2, seneschal 1, master 3 (l2, s1, m3) or the "
                                 "man's letter"),
        ("assassination lord N", "kill the King, crown the Lord of castle N"),
        ("barbarians castle N", "also financial-scandal, unlucky-fall, vanishings"),
        ("plague castle N kill MAN MAN", "two of lord, seneschal, master"),
        ("domain-2 castle N", "an attribute card (also town castle N)"),
        ("protracted-siege castle N", "also weak-administration, time-of-peace, "
                                      "incompetent-lord, lazy-defence, shrinking-domain, "
                                      "losing-influence"),
        ("state-of-disrepair castle N ATTRIBUTE", "ATTRIBUTE: domain, prestige, defence"),
        ("timely-repairs CARD castle N", "an attribute card from the discard pile"),
        ("recycle CARD", "a card from the discard pile"),
        ("unexpected-loss PLAYER loses CARD", "the card lost at random (a --shuffle game "
                                              "picks it: unexpected-loss PLAYER)"),
        ("targeted-theft PLAYER", "then play another card or pass"),
    )

    def parse(self, state: State, args: Args) -> Event:
        title, rest = take_card(args.words, args.text)
        if CARD[title].effect == "reply":
            return self.make(args.by, card=title)  # refused as a play, with its rule
        fields: dict[str, Any] = {}
        for key in rules.fields_of(CARD[title]):
            value, rest = self._target(state, title, key, fields, rest, args.text)
            fields[key] = value
        expect_end(rest, args.text)
        if CARD[title].effect == "loss" and fields["lost"] is None:  # the tool picks it
            seat = state.seat(fields["player"])
            if state.hands[seat].size == 0:
                raise IllegalMove(f"{fields['player']} holds no card: Unexpected Loss needs a "
                                  "player who holds one", code="empty-hand", rule="R-13")
            fields["lost"] = rules.picked(state, seat)
        return self.make(args.by, card=title, **fields)

    def _target(self, state: State, title: str, key: str, fields: dict[str, Any], rest: Words,
                text: str) -> tuple[Any, Words]:
        if key == "post":
            found, rest = take_post(state, rest, text)
            return POST_TITLES[found], rest
        if key == "castle":
            return self._castle(state, title, rest, text)
        if key == "kill":
            if rest and rest[0].casefold() == "kill":
                rest = rest[1:]
            first, rest = take_rank(state, fields["castle"], rest, text)
            second, rest = take_rank(state, fields["castle"], rest, text)
            return [RANKS[r] for r in sorted({first, second})], rest
        if key == "attribute":
            return take_attribute(rest, text)
        if key == "player":
            return take_player(state, rest, text)
        if key == "lost":
            if rest and rest[0].casefold() in ("loses", "lost", "lose"):
                rest = rest[1:]
            if state.dealt:  # any card named is refused alike, before it is even read
                if rest:
                    raise rules.tool_picks(fields["player"])
                return None, rest
            return take_card(rest, text)
        return take_card(rest, text)  # take

    def _castle(self, state: State, title: str, rest: Words, text: str) -> tuple[int, Words]:
        """`castle N`; for a card that kills one rank (or crowns a Lord) also the man's post
        or letter: `unlucky-fall lord 2`, `assassination lord 3`, `barbarians G`."""
        card = CARD[title]
        rank = 0 if card.effect == "assassinate" else card.param("rank")
        try:
            return take_castle(rest, text)
        except NotationError:
            if rank is None or not rest:
                raise
        found, rest = take_post(state, rest, text)
        if found == KING or rank_of(found) != rank:
            raise NotationError(f"{text!r}: {title} targets the {RANKS[rank]} of a castle, "
                                f"e.g. `{card.slug} castle 2`", code="wrong-rank")
        return castle_of(found) + 1, rest

    def format(self, state: State, event: Event) -> str:
        title = event["card"]
        words = [_slug(title)]
        keys = rules.fields_of(CARD[title]) if title in CARD else rules.TARGET_FIELDS
        for key in keys:
            value = event.get(key)
            if value is not None:
                words.append(self._target_text(title, key, value))
        return " ".join(words)

    @staticmethod
    def _target_text(title: str, key: str, value: Any) -> str:
        if key == "castle":
            return f"{'lord' if title == 'Assassination' else 'castle'} {value}"
        if key == "post":
            return post_words(POST_TITLES.index(value)) if value in POST_TITLES else str(value)
        if key == "kill":
            known = all(v in RANKS for v in value)
            return "kill " + (rank_words(value) if known else " ".join(map(str, value)))
        if key == "attribute":
            return str(value).lower()
        if key == "lost":
            return f"loses {_slug(value)}"
        if key == "take":
            return _slug(value)
        return str(value)

    def apply(self, state: State, event: Event) -> State:
        return rules.play(state, event)

    def moves(self, state: State) -> Iterator[Event]:
        for card in rules.playable(state):
            yield from rules.plays(state, card)


class Pass(EventType[State]):
    name = "pass"
    doc = "no card played this turn, no reply to the card announced, or no extra play"
    phases = frozenset({PLAY, EXTRA, REPLY})
    forms = (("pass", "play no card; let the card announced happen; no extra play after "
                      "Targeted Theft"),)

    def format(self, state: State, event: Event) -> str:
        return "pass"

    def apply(self, state: State, event: Event) -> State:
        now = rules.phase(state)
        if now == REPLY:
            window = state.window
            assert window is not None and state.pending is not None
            if window.asked + 1 >= len(window.order):  # everyone has passed
                return rules.resolve(state, state.pending)
            # `window.passed()`, made directly: a value class is copied through its __init__
            return evolve(state, window=ReplyWindow(window.announced, window.order,
                                                    window.asked + 1))
        if now == EXTRA:
            frame = state.frames[-1].after_play(None)
            state = evolve(state, frames=state.frames[:-1] + (frame,))
        return rules.proceed(state)

    def moves(self, state: State) -> Iterator[Event]:
        yield self.make(rules.to_act(state).players[0])


class Reply(EventType[State]):
    name = "reply"
    doc = "Lucky Escape saves a man, Not That Bad keeps an attribute card (R-5)"
    fields = {"card": "str", "saves": "str"}
    field_docs = {"card": "\"Lucky Escape\" or \"Not That Bad\"",
                  "saves": "Lucky Escape: the post of the man saved (\"Lord 2\"); Not That Bad: "
                           "the attribute card kept (\"Domain 2\")"}
    reveal = True
    phases = frozenset({REPLY})
    forms = (("reply lucky-escape MAN", "save a man the card announced would kill"),
             ("reply not-that-bad CARD", "keep an attribute card it would discard, e.g. "
                                         "domain-2 (the one that stays, R-10)"))

    def parse(self, state: State, args: Args) -> Event:
        title, rest = take_card(args.words, args.text)
        if title not in REPLY_CARDS:
            raise NotationError(f"{args.text!r}: the reply cards are lucky-escape and "
                                "not-that-bad", code="not-a-reply")
        harm = state.pending
        if harm is not None and title not in harm.replies:
            return self.make(args.by, card=title, saves="")  # refused with its rule
        if title == "Lucky Escape":
            if not rest and harm is not None and len(harm.kills) == 1:
                return self.make(args.by, card=title, saves=POST_TITLES[harm.kills[0]])
            found, rest = take_post(state, rest, args.text)
            saves = POST_TITLES[found]
        else:
            if not rest and harm is not None and len(harm.discards) == 1:
                index, level = harm.discards[0]
                return self.make(args.by, card=title, saves=attribute_card(index % 3, level))
            saves, rest = take_card(rest, args.text)
        expect_end(rest, args.text)
        return self.make(args.by, card=title, saves=saves)

    def format(self, state: State, event: Event) -> str:
        saves = event["saves"]
        target = post_words(POST_TITLES.index(saves)) if saves in POST_TITLES else _slug(saves)
        return f"reply {_slug(event['card'])} {target}"

    def apply(self, state: State, event: Event) -> State:
        harm = state.pending
        assert harm is not None and event.by is not None
        card = rules.card_named(event["card"])
        if card not in REPLY_CARDS:
            raise IllegalMove(f"{card} is not a reply card", code="not-a-reply", rule="R-5")
        if card not in harm.replies:
            what = "kills nobody" if card == "Lucky Escape" else "discards no attribute card"
            raise IllegalMove(f"{harm.card} {what}: {card} cannot answer it",
                              code="reply-does-not-fit", rule="R-5")
        saved, kept = self._saved(harm, card, event["saves"])
        seat = state.seat(event.by)
        rules.aloud(state, seat, f"reply with {card}",
                    lambda now: rules.check_held(now, seat, card, "reply with"))
        state = with_hand(state, seat, state.hands[seat].without(card))
        state = evolve(state, discard=state.discard + (card,))
        return rules.resolve(state, harm, saved, kept)

    @staticmethod
    def _saved(harm: Any, card: str, saves: str) -> tuple[int | None, tuple[int, int] | None]:
        if card == "Lucky Escape":
            found = POST_TITLES.index(saves) if saves in POST_TITLES else None
            if found not in harm.kills:
                raise IllegalMove(f"{harm.card} does not kill the {saves}: Lucky Escape saves "
                                  "one of the men it kills", code="not-a-victim", rule="R-5")
            return found, None
        kept = [(i, v) for i, v in harm.discards if attribute_card(i % 3, v) == saves]
        if not kept:
            raise IllegalMove(f"{harm.card} does not discard {saves}: Not That Bad keeps one "
                              "of the attribute cards it discards", code="not-discarded",
                              rule="R-10")
        return None, kept[0]

    def moves(self, state: State) -> Iterator[Event]:
        harm, window = state.pending, state.window
        assert harm is not None and window is not None
        seat = state.seat(window.awaiting)
        for card in harm.replies:
            if not rules.could_hold(state, seat, card):
                continue
            saves = [POST_TITLES[p] for p in harm.kills] if card == "Lucky Escape" else \
                [attribute_card(i % 3, v) for i, v in harm.discards]
            for target in saves:
                yield self.make(window.awaiting, card=card, saves=target)


class Discard(EventType[State]):
    name = "discard"
    doc = "cards discarded face up: down to the hand limit, or a drawn card that cannot be played"
    fields = {"cards": "str[]"}
    field_docs = {"cards": "the cards discarded, by title (R-9: they are named)"}
    reveal = True
    phases = frozenset({DISCARD, SUDDEN})
    forms = (("discard CARD...", "down to the hand limit (R-3, R-18); after Sudden Changes, a "
                                 "drawn card that cannot be played (R-12)"),)

    def parse(self, state: State, args: Args) -> Event:
        cards = take_cards(args.words, args.text)
        if not cards:
            raise NotationError("discard which card(s)?", code="no-card")
        return self.make(args.by, cards=sort_cards(cards))

    def format(self, state: State, event: Event) -> str:
        return "discard " + " ".join(_slug(c) for c in event["cards"])

    def apply(self, state: State, event: Event) -> State:
        cards = tuple(rules.card_named(c) for c in event["cards"])
        if rules.phase(state) == SUDDEN:
            return self._drawn(state, cards)
        excess = state.hands[state.turn].size - state.hand_limit
        if len(cards) != excess:
            raise IllegalMove(f"{state.player} holds {state.hands[state.turn].size} cards: "
                              f"discard exactly {excess} (hand limit {state.hand_limit})",
                              code="wrong-discard-count", rule="R-18")
        # Every card named at once: a refusal naming the one not held would tell the others.
        return rules.aloud(state, state.turn, f"discard {', '.join(cards)}",
                           lambda now: self._down(now, cards))

    @staticmethod
    def _down(state: State, cards: tuple[str, ...]) -> State:
        for card in cards:
            rules.check_held(state, state.turn, card, "discard")
            state = with_hand(state, state.turn, state.hands[state.turn].without(card))
            state = evolve(state, discard=state.discard + (card,))
        return rules.end_turn(state)

    @staticmethod
    def _drawn(state: State, cards: tuple[str, ...]) -> State:
        if len(cards) != 1:
            raise IllegalMove("discard the drawn cards one at a time, each when its turn comes "
                              "(R-12)", code="wrong-discard-count", rule="R-12")
        card = cards[0]
        rules.draw_source(state, card)
        if rules.plays(state, card):
            raise IllegalMove(f"{card} can be played: a card drawn by Sudden Changes is played "
                              "when it can be, and discarded only when it cannot",
                              code="must-play", rule="R-12")
        frame = state.frames[-1].after_play(card)
        state = evolve(state, frames=state.frames[:-1] + (frame,),
                             discard=state.discard + (card,))
        return rules.proceed(state) if frame.left == 0 else state

    def moves(self, state: State) -> Iterator[Event]:
        if rules.phase(state) == SUDDEN:
            for card in rules.playable(state):
                if not rules.plays(state, card):
                    yield self.make(state.player, cards=[card])
            return
        hand = state.hands[state.turn]
        excess = hand.size - state.hand_limit
        if hand.full:
            for cards in sorted(set(itertools.combinations(hand.known, excess))):
                yield self.make(state.player, cards=sort_cards(cards))
        elif excess == 1:  # more cards than one: a family only counted, never listed
            for card in CARD:
                if rules.could_hold(state, state.turn, card):
                    yield self.make(state.player, cards=[card])


class Open(EventType[State]):
    name = "open"
    doc = "at the end, a player opens their seal: the three letters and the receipt"
    fields = {"letters": "str[]", "receipt": "str"}
    field_docs = {"letters": "the three squires the player backs, sorted",
                  "receipt": "the receipt code the player was given when sealing"}
    actor = "any"
    reveal = True
    phases = frozenset({OPEN})
    forms = (("open LETTERS RECEIPT", "at the end: your three letters and your receipt, "
                                      "e.g. open D K Q 7KQF-2M9X-PA4D (--as NAME)"),)

    def parse(self, state: State, args: Args) -> Event:
        from referee import seals  # only when a seal is made or opened

        words = args.words
        for size in (1, 3):
            receipt = seals.normal_receipt("".join(words[-size:])) if len(words) > size \
                else None
            if receipt is not None:
                letters = three_letters(state, words[:-size], args.text)
                return self.make(args.by, letters=list(letters), receipt=receipt)
        raise NotationError("open LETTERS RECEIPT, e.g. `open D K Q 7KQF-2M9X-PA4D`: the "
                            "receipt is the code you were given", code="no-receipt")

    def format(self, state: State, event: Event) -> str:
        return f"open {' '.join(map(str, event['letters']))} {event['receipt']}"

    def apply(self, state: State, event: Event) -> State:
        from referee import seals  # only when a seal is made or opened

        assert event.by is not None
        if state.squires == HAND:
            raise IllegalMove("nobody sealed squires (squires = hand): enter the letters in "
                              "your hand with `letters`", code="no-seal", rule="R-2")
        seat = state.seat(event.by)
        if state.opened[seat] is not None:
            raise IllegalMove(f"{event.by} has opened their seal", code="opened", rule="Seals")
        seal = state.seals[seat]
        letters = "".join(event["letters"])
        if len(event["letters"]) != SQUIRES or "".join(sorted(letters)) != letters or \
                seal is None or not seals.opens(seal, letters, str(event["receipt"])):
            raise IllegalMove(f"wrong reveal: these letters and this receipt do not open "
                              f"{event.by}'s seal", code="wrong-reveal", rule="Seals")
        return _opened(state, seat, tuple(letters))

    def moves(self, state: State) -> Iterator[Event]:
        """Only a simulated player's opening can be listed: nobody else's secret is known."""
        from referee import seals  # only when a seal is made or opened

        if state.squires == HAND:
            return
        for seat, name in enumerate(state.names):
            letters, receipt = simulated_secret(state, name)
            seal = state.seals[seat]
            if state.opened[seat] is None and seal and seals.opens(seal, letters, receipt):
                yield self.make(name, letters=list(letters), receipt=receipt)


class Letters(EventType[State]):
    name = "letters"
    doc = "at the end with squires = hand: the letters of the cards in a player's hand"
    fields = {"letters": "str[]"}
    field_docs = {"letters": "one letter per card in the hand, sorted (a letter may repeat)"}
    actor = "any"
    reveal = True
    phases = frozenset({OPEN})
    forms = (("letters LETTER...", "squires = hand, at the end: the letters of your cards "
                                   "(--as NAME)"),)

    def parse(self, state: State, args: Args) -> Event:
        return self.make(args.by, letters=sorted(parse_letters(state, args.words, args.text)))

    def format(self, state: State, event: Event) -> str:
        return "letters " + " ".join(map(str, event["letters"]))

    def apply(self, state: State, event: Event) -> State:
        assert event.by is not None
        if state.squires != HAND:
            raise IllegalMove("the squires were sealed: open your seal with `open LETTERS "
                              "RECEIPT`", code="sealed", rule="R-2")
        seat = state.seat(event.by)
        letters = tuple(event["letters"])
        if state.opened[seat] is not None:
            raise IllegalMove(f"{event.by} has entered their letters", code="opened",
                              rule="R-20")
        if any(letter not in LETTERS for letter in letters) or list(letters) != sorted(letters):
            raise IllegalMove("letters are A-Z, sorted", code="bad-letters", rule="R-20")
        size = state.hands[seat].size
        if len(letters) != size:
            raise IllegalMove(f"{event.by} holds {size} card(s): enter one letter for each "
                              "card", code="wrong-letter-count", rule="R-20")
        return _opened(state, seat, letters)


def _opened(state: State, seat: int, letters: tuple[str, ...]) -> State:
    opened = state.opened[:seat] + (letters,) + state.opened[seat + 1:]
    return evolve(state, opened=opened, over=None not in opened)


class End(engine.End):
    """The core `end`, after which the seals are still opened (R-27): a table that stops early
    scores the posts as they stood, and only the players' slips say who backs whom."""

    doc = ("the table stops the game: the squires are still opened, then it scores as it stood, "
           "incomplete (R-27; undo resumes it)")
    forms = (("end REASON", "the table stops the game; the squires are still opened and it "
                            "scores as it stood (R-27)"),)

    def apply(self, state: State, event: Event) -> State:
        if state.stopped is not None:  # only while the squires are opened after a stop
            raise IllegalMove(f"the table stopped the game already ({state.stopped}): the "
                              "squires are being opened", code="game-stopped", rule="R-27")
        return rules.stop(state, event["reason"])


EVENTS = Events(Squires(), Reveal(), Play(), Reply(), Pass(), Discard(), Open(), Letters(), End())
