"""The core's pieces for physical-table games, through a toy game played at the real CLI: sealed
secrets, reply windows, table votes and hidden hands."""

from __future__ import annotations

import io
import itertools
import re
import string

import pytest

from referee import engine, seals
from referee.hands import HiddenHand, Void
from referee.replies import ReplyWindow
from referee.votes import Motion, VoteError

# ---- sealed secrets ---------------------------------------------------------------------------

def test_receipts_are_random_readable_and_forgiving():
    receipts = {seals.new_receipt() for _ in range(50)}
    assert len(receipts) == 50
    for receipt in receipts:
        assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){2}", receipt)
        assert seals.normal_receipt(receipt.lower().replace("-", " ")) == receipt
    assert seals.normal_receipt("0OIL-1111-2222") == "0011-1111-2222"
    assert seals.normal_receipt("ABCD-EFGH") is None and seals.normal_receipt("!!!!-!!!!-!!!!") \
        is None


def test_a_seal_opens_only_with_its_secret_and_receipt():
    receipt = seals.new_receipt()
    seal = seals.commitment("AQZ", receipt)
    assert seals.is_commitment(seal) and not seals.is_commitment("sha256:xyz")
    assert seals.opens(seal, "AQZ", receipt)
    assert not seals.opens(seal, "ABZ", receipt)
    assert not seals.opens(seal, "AQZ", seals.new_receipt())


def test_trying_every_letter_set_without_the_receipt_finds_nothing():
    seal = seals.commitment("AQZ", seals.new_receipt())
    sets = ["".join(c) for c in itertools.combinations(string.ascii_uppercase, 3)]
    assert len(sets) == 2600
    # Whatever salt a reader of the log could guess (none, the seal itself, a blank receipt).
    for guess in ("", seal, "0000-0000-0000"):
        assert not any(seals.opens(seal, letters, guess) for letters in sets)


# ---- reply windows, votes, hidden hands ------------------------------------------------------

def test_a_reply_window_asks_clockwise_from_the_left_then_the_active_player():
    window = ReplyWindow.open("Plague on castle 2", ("Ann", "Ben", "Cat", "Dan"), "Cat")
    assert window.order == ("Dan", "Ann", "Ben", "Cat")
    asked = []
    while window is not None:
        asked.append(window.awaiting)
        window = window.passed()
    assert asked == ["Dan", "Ann", "Ben", "Cat"]
    quiet = ReplyWindow.open("x", ("Ann", "Ben"), "Ann", active_last=False)
    assert quiet.order == ("Ben",) and quiet.to_act().players == ("Ben",)
    assert "Ben may answer x" in quiet.to_act().prompt


def test_votes_weigh_each_house_and_a_tie_fails():
    weights = {"Ann": (30, 9), "Ben": (35, 4), "Cat": (5, 3)}
    motion = Motion.put("Earl of Essex to Bourchier", weights, ("Commons", "Lords"))
    done = motion.cast_all(yea=["Ann", "Cat"], nay=["Ben"])
    counts = {c.house: (c.yea, c.nay) for c in done.tally()}
    assert counts == {"Commons": (35, 35), "Lords": (12, 4)}
    assert not done.passed  # Commons 35-35: a tie fails (Kingmaker's worked example 3)
    assert "failed" in done.summary()
    one = Motion.put("x", {"A": (1,), "B": (2,)}).cast("B", "yea")
    assert one.waiting == ("A",) and one.cast("A", "nay").passed
    assert Motion.put("x", {"A": (1,), "B": (1,)}, rule="unanimous").cast_all(["A"], []).passed
    assert not Motion.put("x", {"A": (1,), "B": (2,)}, rule="majority-of-all").cast_all(
        ["A"], []).passed
    for bad in (lambda: one.cast("B", "yea"), lambda: one.cast("Zed", "yea"),
                lambda: one.cast("A", "maybe"), lambda: motion.cast_all(["Ann"], ["Ann"]),
                lambda: motion.cast_all(["Zed"], []),
                lambda: Motion.put("x", {"A": (1,)}, rule="loudest"),
                lambda: Motion.put("x", {"A": (1, 2)})):
        with pytest.raises(VoteError):
            bad()


def test_a_bound_vote_is_cast_only_one_way():
    weights = {"Ann": (30, 9), "Ben": (35, 4), "Cat": (5, 3)}
    motion = Motion.put("King Edward is illegitimate", weights, ("Commons", "Lords"),
                        forced={"Ann": "yea", "Ben": "nay"})
    assert motion.must("Ann") == "yea" and motion.must("Cat") is None
    assert motion.weight("Ben") == (35, 4) and motion.weight("Zed") == (0, 0)
    done = motion.cast_all(yea=["Ann", "Cat"], nay=["Ben"])
    assert [(c.yea, c.nay) for c in done.tally()] == [(35, 35), (12, 4)] and not done.passed
    assert motion.cast("Cat", "abstain").cast("Ann", "yea").waiting == ("Ben",)
    for bad in (lambda: motion.cast("Ann", "nay"), lambda: motion.cast("Ben", "abstain"),
                lambda: motion.cast_all(yea=["Cat"], nay=["Ben"]),  # Ann would abstain
                lambda: motion.cast_all(yea=["Ann", "Ben"], nay=[]),
                lambda: Motion.put("x", {"A": (1,)}, forced={"B": "yea"}),
                lambda: Motion.put("x", {"A": (1,)}, forced={"A": "abstain"})):
        with pytest.raises(VoteError) as info:
            bad()
        assert "must vote" in str(info.value) or "bound" in str(info.value)
    assert "Ann must vote yea" in _message(lambda: motion.cast_all([], ["Ann", "Ben"]))


def _message(call) -> str:
    with pytest.raises(VoteError) as info:
        call()
    return str(info.value)


def test_a_hidden_hand_keeps_what_is_known_and_its_voids():
    hand = HiddenHand(3)
    assert not hand.complete and hand.knowing("K7").known == {"K7"}
    full = HiddenHand.of(["K7", "D2", "G5"])
    assert full.complete and full.without("K7") == HiddenHand(2, frozenset({"D2", "G5"}), True)
    void = Void("Knights", 3, "Ann", "D2")
    shown = hand.showing_void(void)
    assert shown.void_in("Knights") is void and shown.showing_void(void) is shown
    assert shown.dropping_void(void).voids == ()
    taken = hand.taking("K9", after=4)
    assert taken.size == 4 and taken.joined_after("K9", 4) and not taken.joined_after("K9", 5)
    assert hand.taking(None, 1).size == 4 and not full.taking(None, 1).complete
    assert full.forgetting() == HiddenHand(3) and hand.with_known(["A", "B", "C"]).complete


# ---- the toy game at the CLI -----------------------------------------------------------------

@pytest.fixture
def council(cli, monkeypatch):
    monkeypatch.setitem(engine.REGISTRY, "council", "tests.toy_game")

    def play(*args: str, secret: str | None = None):
        if secret is not None:
            monkeypatch.setattr("sys.stdin", io.StringIO(secret + "\n"))
        return cli("play", *args)

    assert cli("new", "council", "-p", "Ann", "-p", "Ben", "-p", "Cat").status == 0
    cli.play = play  # type: ignore[attr-defined]
    return cli


def seal_all(council) -> dict[str, str]:
    """Every player seals three letters; the receipts each player was shown."""
    log = council.path / "game.toml"
    bad = council.play("seal", secret="qqz")
    assert bad.status == 1 and "QQZ" not in bad.err.upper() and "three different letters" in \
        bad.err
    receipts = {}
    for name, secret in (("Ann", "qxz"), ("Ben", "a b c"), ("Cat", "mno")):
        result = council.play("seal", secret=secret)
        assert result.status == 0, result.err
        receipts[name] = re.search(r"receipt: (\S+)", result.err).group(1)
        assert secret.upper().replace(" ", "") not in result.out + result.err
    text = log.read_text()
    for secret in ("QXZ", "ABC", "MNO", *receipts.values()):
        assert secret not in text
    history = council("history")
    assert "QXZ" not in history.out and history.out.count("seal") == 3
    assert council.play("seal", secret="abd").status == 1  # the sealing phase is over
    return receipts


def test_sealed_secrets_are_never_stored_shown_or_echoed(council):
    assert set(seal_all(council)) == {"Ann", "Ben", "Cat"}


def test_replies_votes_and_opening_the_seals(council):
    receipts = seal_all(council)
    assert "Ann proposes" in council("status", "--json").out
    assert council.play("propose", "3").status == 0
    options = council("options")
    assert "Ben may answer Ann's proposal of 3" in options.out and "veto" in options.out
    wrong = council.play("pass", "--as", "Cat")
    assert wrong.status == 1 and "Ben answers now" in wrong.err
    assert council.play("pass").status == 0 and council.play("pass").status == 0
    assert "vote on 3 for Ann" in council("options").out
    for choice in ("yea", "nay", "yea"):  # Ann 1 yea, Ben 2 nay, Cat 3 yea: 4 to 2
        assert council.play("vote", choice).status == 0
    assert council("status").out.strip().endswith("Ann:3 Ben:0 Cat:0")
    assert council.play("propose", "2").status == 0
    assert council.play("veto").status == 0  # Cat vetoes Ben's proposal: no vote
    assert council.play("propose", "1").status == 0
    assert council.play("pass").status == 0 and council.play("pass").status == 0
    for choice in ("nay", "abstain", "yea"):  # 3 to 1
        assert council.play("vote", choice).status == 0
    wrong = council.play("open", "QXZ", receipts["Ben"], "--as", "Ann")
    assert wrong.status == 1 and "do not open Ann's seal" in wrong.err
    for name, letters in (("Ann", "zqx"), ("Ben", "CBA"), ("Cat", "mno")):
        result = council.play("open", letters, receipts[name].lower(), "--as", name)
        assert result.status == 0, result.err
    assert "game is over" in council("status", "--json").out
    assert council("check", "game.toml").status == 0
