"""Regression tests from the review of issue 28 (the box to the first turn): hostile input to
`referee declare` and `components --fill`, the default box named explicitly, slips and new
cards."""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from tests.conftest import env_without_log


def _limited() -> None:
    """A child that may not take much memory: an unbounded read fails at once, not after
    eating the machine's memory."""
    limit = 700 * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _referee(folder, *args: str, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=folder, stdin=stdin,
                          capture_output=True, text=True, timeout=120, env=env_without_log(),
                          preexec_fn=_limited)


@pytest.mark.parametrize("args", [("declare", "/dev/zero"), ("declare",),
                                  ("new", "kingmaker", "-p", "Ann", "-p", "Ben",
                                   "--components", "/dev/zero")])
def test_endless_input_is_refused_as_too_large(tmp_path, args):
    assert _referee(tmp_path, "new", "kingmaker", "-p", "Ann", "-p", "Ben").returncode == 0
    before = (tmp_path / "game.toml").read_bytes()
    with open("/dev/zero", "rb") as zero:
        done = _referee(tmp_path, *args, stdin=zero)
    assert done.returncode == 2, done.stderr
    # a file named is refused unread (a device is no file); standard input is read to the limit
    refused = "is a character device, not a" if len(args) > 1 else "too large"
    assert refused in done.stderr and "internal error" not in done.stderr
    assert (tmp_path / "game.toml").read_bytes() == before


def test_fill_refuses_a_digit_that_is_no_number():
    from referee.games.kingmaker import components as km

    box = km.load(km.file_text(km.SHIPPED), km.SHIPPED)
    lords = next(q for q in km.fill_questions(box) if q.key == "lords")
    with pytest.raises(km.DataError, match="is not a number"):
        km.fill_answer(box, lords, "²")
    assert km.fill_answer(box, lords, "3").get("noble", lords.name).get("lords") == 3


def test_fill_shows_a_name_from_the_file_with_its_control_characters_neutralised(tmp_path):
    (tmp_path / "box.toml").write_text('format = "kingmaker-components/1"\n'
                                       'nobles = [ { name = "Evil\\u001b[2J", troops = 5 } ]\n')
    done = _referee(tmp_path, "components", "kingmaker", "--fill", "box.toml")
    assert done.returncode == 0, done.stderr
    assert "Evil\\x1b[2J, noble card: the Lords votes" in done.stdout
    assert "\x1b" not in done.stdout + done.stderr


def test_fill_and_declare_with_standard_input_closed(tmp_path):
    def closed() -> None:
        import os

        _limited()
        os.close(0)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "referee", *args], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120,
                              env=env_without_log(), preexec_fn=closed)

    fill = run("components", "kingmaker", "--fill", "box.toml")
    assert fill.returncode == 2 and "standard input" in fill.stderr, fill.stderr
    assert not (tmp_path / "box.toml").exists()
    assert run("new", "kingmaker", "-p", "Ann", "-p", "Ben").returncode == 0
    declare = run("declare")
    assert declare.returncode == 2 and "standard input" in declare.stderr, declare.stderr


def test_an_empty_file_is_no_components_file_and_no_none_is_shown(cli):
    (cli.path / "empty.toml").write_text("")
    fill = cli("components", "kingmaker", "--fill", "empty.toml")
    new = cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "--components", "empty.toml")
    for done in (fill, new):
        assert done.status == 2 and "empty.toml: not a components file" in done.err
        assert "None" not in done.err
    assert (cli.path / "empty.toml").read_text() == ""


def test_the_default_box_named_as_games_names_it_is_the_default(cli):
    """`referee games` lists components=kingmaker-ah1.toml: typing it gives what `new` alone
    gives (the shipped box copied), not an empty box; a bare name of another file is refused."""
    from referee import log as logfile

    assert cli("--log", "plain.toml", "new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    named = cli("--log", "named.toml", "new", "kingmaker", "-p", "Ann", "-p", "Ben",
                "--option", "components=kingmaker-ah1.toml")
    assert named.status == 0, named.err
    plain, typed = (logfile.read(cli.path / f"{n}.toml") for n in ("plain", "named"))
    assert typed.options["components"] == plain.options["components"]
    assert [e.event for e in typed.entries] == [e.event for e in plain.entries]
    assert len(typed.entries) > 50  # the shipped box's declarations
    other = cli("--log", "other.toml", "new", "kingmaker", "-p", "Ann", "-p", "Ben",
                "--option", "components=mybox.toml")
    assert other.status == 2 and "--components FILE" in other.err
    assert not (cli.path / "other.toml").exists()
    assert cli("--log", "t.toml", "new", "kingmaker", "-p", "Ann", "-p", "Ben",
               "--option", "components=test-box").status == 0


def test_a_card_close_to_a_listed_one_can_still_be_declared(cli):
    """Bonville is no slip for Neville: the refusal that asks `Neville?` also says how a card
    of the box the log lacks is declared, and the deal then goes through."""
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben", "-p", "Cat", "-p", "Dan").status == 0
    hand = ("Bonville, Chancellor-of-England, Bishop-of-Durham, Bristol, Carisbrooke, Coventry, "
            "Earl-of-Essex, Ipswich, Lancaster")
    refused = cli("play", f"dealt {hand}")
    assert refused.status == 1 and "Neville?" in refused.err
    # the block a deal's refusal prints, to fill and paste, with the same notes
    assert "\n  declare noble Bonville troops=___ lords=___ home=___" \
        "\n  declare place ___ kind=castle\n" in refused.err
    assert "\nBonville: not in this box yet; a one-word name is " \
        "read as a noble's (a ship's card is `declare ship NAME capacity=___ home_port=___`, a " \
        "town card's `declare town NAME place=___`).\n" \
        "A `declare place ___` line names a place as the map prints it; a noble with two home " \
        "castles has home=A,B and a place line for each.\nFill in each ___ above" in refused.err
    assert refused.err.endswith("then the move goes through.\n  rule: R-2\n")
    (cli.path / "d.txt").write_text("declare noble Bonville troops=20 lords=2 home=Chewton\n"
                                    "declare place Chewton kind=castle\n")
    assert cli("declare", "d.txt").status == 0
    assert cli("play", f"dealt {hand}").status == 0


def test_the_deal_note_says_when_a_missing_value_is_asked(cli):
    """A known card missing a value is dealt (the lay-out asks for it), as options says."""
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    note = " ".join(cli("options").out.split())
    assert "a card missing a value is dealt, and the deal that starts the lay-out is " \
           "refused until every card dealt has its values" in note
    assert "or one missing a value, is refused" not in note
    hand = "Neville, " + ", ".join(["Bristol", "Carisbrooke", "Coventry", "Ipswich",
                                    "Lancaster", "Leicester", "Newcastle", "Northampton",
                                    "Nottingham", "Shrewsbury", "Earl-of-Essex",
                                    "Bishop-of-Durham", "Bishop-of-Lincoln",
                                    "Bishop-of-Norwich", "Archbishop-of-York",
                                    "French-Foot-Soldiers", "Chancellor-of-England"])
    assert cli("play", f"dealt {hand}").status == 0  # Neville lacks his home: dealt all the same


def test_a_castle_named_like_a_noble_is_still_transferred():
    """Stafford is a noble and his home castle: the castle, held by a noble, may pass (§5.4);
    only the noble himself never does."""
    from tests.kingmaker_realm import at_phase, dealt_game, illegal, own, play, put

    state = dealt_game({"Ann": ["Neville", "Percy"], "Ben": ["Stafford", "Herbert"],
                        "Cat": ["Talbot", "Courtenay"]})
    state = at_phase(put(own(state, "Stafford", "Neville"), "Percy", "in:Stafford"), "movement",
                     seat=0)
    state = put(state, "Neville", "in:Stafford")
    after = play(state, "transfer Stafford from Neville to Percy", by="Ann")
    assert after.control["Stafford"] == "Percy"
    noble = illegal(state, "transfer Herbert from Neville to Percy", "noble", by="Ann")
    assert "nobles are never transferred" in noble.message


def test_a_revocation_during_the_excuses_says_the_excuses_come_first():
    """The caller holds Writs, but the excuses are still being given: not 'the time for
    revocations is past' (7.2)."""
    from tests.kingmaker_realm import illegal
    from tests.test_kingmaker_parliament import called, court, holding, seated

    state = holding(holding(court(writs=3), "Ben", "Writ", "Writ"), "Cat", "Writ")
    state = called(state)
    assert seated(state).step == "excuse"
    early = illegal(state, "revoke Herbert", "not-now", by="Ben")  # Ben is to act
    assert "past" not in early.message and "once every excuse is in" in early.message


def test_a_completing_declaration_cannot_change_the_copies_once_dealt(cli):
    """`amend` may not change a crown card's copies once the deck is dealt; a `declare` that
    completes the entry may not either (it could add cards to a dealt deck)."""
    assert cli("new", "kingmaker", "-p", "Ann", "-p", "Ben").status == 0
    (cli.path / "d.txt").write_text("declare mercenary Welsh-Bowmen troops=10\n")
    assert cli("declare", "d.txt").status == 0
    hand = ("Welsh-Bowmen, Archbishop-of-York, Bishop-of-Durham, Bishop-of-Lincoln, "
            "Bishop-of-Norwich, Bristol, Carisbrooke, Coventry, Earl-of-Essex, "
            "French-Foot-Soldiers, Ipswich, Lancaster, Leicester, Newcastle, Northampton, "
            "Nottingham, Shrewsbury, Neville")
    assert cli("play", f"dealt {hand}").status == 0
    before = (cli.path / "game.toml").read_bytes()
    for verb in ("declare", "amend"):
        (cli.path / "d.txt").write_text(f"{verb} mercenary Welsh-Bowmen copies=3\n")
        refused = cli("declare", "d.txt")
        assert refused.status == 1 and "copies of a crown card are fixed" in refused.err, verb
    assert (cli.path / "game.toml").read_bytes() == before


def test_fill_refuses_a_fifo_or_a_device_at_once(tmp_path):
    import os

    os.mkfifo(tmp_path / "pipe.toml")
    for name in ("pipe.toml", "/dev/null", "/dev/zero"):
        done = _referee(tmp_path, "components", "kingmaker", "--fill", name)
        assert done.returncode == 2 and "not a regular file" in done.stderr, done.stderr
    assert (tmp_path / "pipe.toml").is_fifo()
