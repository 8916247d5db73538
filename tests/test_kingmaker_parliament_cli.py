"""Kingmaker's Parliament at the command line, from the golden game with two Parliaments: what
`status`, `options` and `history` show at each step, refusals that leave the log untouched,
random games that call Parliament, and fuzzed votes, proposals and hand-edited events that end
in clean errors."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import log as logfile
from referee.check import check_file
from referee.engine import apply_event
from referee.errors import RefereeError
from referee.evolve import evolve
from referee.games.kingmaker import GAME
from referee.replay import final, from_log, replay_log
from referee.simulate import default_players, play_out
from tests.conftest import GOLDEN, assert_handled

TWO = GOLDEN / "kingmaker" / "three-player-two-parliaments.toml"
LOG = logfile.read(TWO)


def upto(kind: str, nth: int = 1, after: int = 0) -> int:
    """The number of entries up to and including the nth event of a type (after `after`)."""
    seen = 0
    for index, entry in enumerate(LOG.entries):
        if index >= after and entry.event.type == kind:
            seen += 1
            if seen == nth:
                return index + 1
    raise AssertionError(f"no {kind} #{nth}")


def write(path: Path, count: int) -> Path:
    path.write_text(logfile.dumps(evolve(LOG, entries=LOG.entries[:count])),
                    encoding="utf-8")
    return path


def test_the_golden_game_holds_two_parliaments_and_a_failed_motion():
    state = replay_log(LOG)[1]
    first, people = state.parliaments
    assert not first.people and first.by == "Henry" and first.caller == "Ann"
    assert people.people and people.caller == "Cat"
    assert any("motion against King Henry fails" in note for note in people.business)
    types = [e.event.type for e in LOG.entries]
    assert "revoke" in types and "excuse" in types and "illegitimate" in types


def test_status_options_and_history_during_a_vote(cli):
    write(cli.path / "game.toml", upto("propose"))
    status = cli("status")
    assert status.status == 0
    assert "Parliament at London, called by Ann (King Henry, with Neville): a vote" in status.out
    assert "tally, frozen (Commons/Lords, R-36): Ann " in status.out
    assert "excused: Mowbray; revoked: Talbot" in status.out
    assert "the vote: Earl of Pembroke to Herbert" in status.out
    options = cli("options")
    assert "The table - the table votes on Earl of Pembroke to Herbert" in options.out
    assert "vote yea PLAYERS nay PLAYERS   (on Earl of Pembroke to Herbert; Commons/Lords:" \
        in options.out
    mine = cli("options", "--for", "Ben")
    assert "Ben has " in mine.out and " Lords." in mine.out
    every = json.loads(cli("options", "--json", "--all").out)
    assert every["count"] == sum(1 for m in every["moves"] if m.startswith("vote")) + \
        sum(1 for m in every["moves"] if not m.startswith("vote"))
    assert sum(1 for m in every["moves"] if m.startswith("vote")) == 27  # 3 choices, 3 players
    voted = cli("play", "vote", "yea", "Ben", "nay", "Ann,Cat")
    assert voted.status == 0 and "Earl of Pembroke to Herbert: Commons" in voted.out
    assert "it fails" in voted.out
    history = cli("history")  # a row folded at 80 columns goes on in indented lines
    rows = re.sub(r"\n {6,}", " ", history.out).splitlines()
    line = [row for row in rows if "vote yea Ben nay Ann,Cat" in row][0]
    assert "= Earl of Pembroke to Herbert: Commons " in line and line.endswith("failed")
    data = json.loads(cli("history", "--json").out)
    assert data[-1]["remark"].startswith("Earl of Pembroke to Herbert")
    assert cli("check", "game.toml").status == 0


def test_the_chancery_is_shown_to_the_leader_only(cli):
    write(cli.path / "game.toml", upto("select") - 1)
    assert "led by Ann" in cli("status").out
    shown = cli("options", "--for", "Ann")
    assert "select CARDS | select none   (titles first, from:" in shown.out
    hidden = cli("options")
    assert "select" not in hidden.out.split("\n", 1)[1].split("At any time")[0]
    assert "listed to Ann" in hidden.out
    assert "Earl of Pembroke" not in hidden.out and "Earl-of-Pembroke" not in hidden.out


def test_the_chancery_is_face_down_but_no_secret_r88(cli):
    """T5: options lists the Chancery to the leader only (section 12), yet every card went in
    by a move history shows, so a refusal may say a card is not there (R-88)."""
    write(cli.path / "game.toml", upto("select") - 1)
    assert "to chancery" in cli("history").out
    before = (cli.path / "game.toml").read_bytes()
    refused = cli("play", "select", "Bristol", "--as", "Ann")
    assert refused.status == 1 and "Bristol" in refused.err and "Chancery" in refused.err
    assert (cli.path / "game.toml").read_bytes() == before
    rules = " ".join(cli("rules", "kingmaker").out.split())
    assert "R-88: The Chancery lies face down" in rules and "leader only" in rules


def test_options_at_the_peoples_parliament_name_the_golden_games_own_move(cli):
    write(cli.path / "game.toml", upto("parliament", 2) - 1)  # Cat drew the card
    shown = cli("options")
    assert "parliament people at PLACE moving NOBLE   (PLACE: " in shown.out
    line = next(x for x in shown.out.splitlines() if "parliament people at PLACE moving" in x)
    assert "Exeter" in line and "Courtenay" in line and "summon" not in line
    refused = cli("play", "parliament", "people", "at", "Exeter", "moving", "Courtenay",
                  "summon", "Herbert", "--as", "Cat")
    assert refused.status == 1 and "summon" not in refused.err.split("closest legal moves")[1]


def test_a_refused_parliament_move_names_its_rule_and_leaves_the_log(cli):
    path = write(cli.path / "game.toml", upto("excuse"))  # Ben has excused Mowbray: Cat's turn
    before = path.read_bytes()
    for move, who, words in ((["excuse", "Stafford"], "Cat", ("Stafford is not Cat's noble",
                                                             "rule: §7.2")),
                             (["excuse", "Talbot", "sea"], "Cat", ("on the mainland",
                                                                  "rule: R-35")),
                             (["revoke", "Mowbray"], "Ann", ("it is not Ann's turn",
                                                             "Cat may excuse", "rule: §7.2")),
                             (["excuse", "Herbert"], "Ben", ("it is not Ben's turn",
                                                             "rule: §7.2"))):
        result = cli("play", *move, "--as", who)
        assert result.status == 1, result
        for word in words:
            assert word in result.err, result.err
        assert "Traceback" not in result.err and path.read_bytes() == before
    bound = cli("--log", str(write(cli.path / "vote.toml", upto("illegitimate"))),
                "play", "vote", "yea", "Ann,Ben")
    assert bound.status == 1 and "rule: R-54" in bound.err and "Ann must vote nay" in bound.err


def test_parliament_moves_out_of_their_moment_say_why(cli):
    write(cli.path / "game.toml", upto("parliament") - 3)  # Ann's movement phase, turn 4
    result = cli("play", "vote", "yea", "Ann")
    assert result.status == 1 and "`vote` belongs to a Parliament in session, and none is" \
        in result.err and "rule: §7" in result.err
    write(cli.path / "game.toml", upto("select"))  # Ann proposes
    result = cli("play", "propose", "Earl-of-Wiltshire", "to", "Herbert", "--as", "Ben")
    assert result.status == 1 and "it is not Ben's turn in Parliament: Ann proposes" \
        in result.err and "rule: §7.3" in result.err
    write(cli.path / "game.toml", upto("dismiss"))
    result = cli("play", "return", "Percy", "--as", "Ann")
    assert result.status == 1 and "the nobles go home one player at a time from Ann's left" \
        in result.err and "rule: §7.5" in result.err


def test_status_json_holds_the_parliament_and_the_peace(cli):
    write(cli.path / "game.toml", upto("propose"))
    board = json.loads(cli("status", "--json").out)["board"]
    session = board["parliament"]
    assert session["place"] == "London" and session["vote"]["on"] == \
        "Earl of Pembroke to Herbert"
    assert {t["player"] for t in session["tally"]} == {"Ann", "Ben", "Cat"}
    assert session["chancery_cards"] >= 1 and "pool" not in session  # face down (§12)
    write(cli.path / "game.toml", upto("dismiss") + 8)
    board = json.loads(cli("status", "--json").out)["board"]
    assert board["parliament"] is None and board["peace"]["place"] == "London"
    assert board["parliaments"][0]["votes"][0]["passed"] is False


def test_the_kings_peace_in_status_and_the_scoresheet(cli):
    write(cli.path / "game.toml", upto("dismiss") + 8)
    status = " ".join(cli("status").out.split())  # long lines are folded at 80 columns
    assert "King's Peace (7.6) until just before Ann's next chance phase: no combat at London" \
        in status
    write(cli.path / "game.toml", len(LOG.entries))
    sheet = " ".join(cli("scoresheet").out.split())  # the story's table folds its rows
    assert "What happened Turn Event" in sheet
    assert "4 Ann's Parliament (King Henry) at London; assigned Earl of Wiltshire to" in sheet
    assert "voted down Earl of Pembroke to Herbert" in sheet
    assert "the People's Parliament, led by Cat at Exeter" in sheet
    assert sheet.count("Stafford dies") == 1  # told once, by the Parliament's business


def test_random_games_call_parliament_and_play_it_through():
    """The playout tests' seeds (tests/test_playouts.py) include called and People's
    Parliaments, played through to the King's Peace, with excuses and a revocation."""
    kinds = set()
    for seed in range(12):
        playout = play_out(GAME, seed, default_players(GAME, None))
        for parliament in playout.state.parliaments:
            kinds.add("people" if parliament.people else "call")
            assert parliament.place
        kinds |= {e.type for e in playout.events if e.type in ("excuse", "revoke")}
    assert kinds == {"call", "people", "excuse", "revoke"}


def random_parliament(setup, start, seed):
    """The golden game up to `start`, then random legal moves (the simulator's player) until
    the Parliament in session or due is over; each move checked as the playout tests do."""
    rng = random.Random(seed)
    state = final(setup, LOG.entries[:start])
    played = []
    while state.sitting is not None or state.people_due:
        event = GAME.random_event(state, rng)
        assert event is not None, GAME.to_act(state).prompt
        assert GAME.parse(state, GAME.format(state, event), event.by) == event
        state = apply_event(GAME, state, event, setup.players)
        played.append(event)
    entries = LOG.entries[:start] + tuple(logfile.Entry(len(LOG.entries) + i, e)
                                          for i, e in enumerate(played, 1))
    assert final(setup, entries) == state  # the log replays to the state played
    return played


def test_random_play_moves_illegitimacy_where_two_kings_sit():
    """From scratch, random games seldom crown a second King; from the golden game's People's
    Parliament (Henry and Edward of March both crowned) the random player moves illegitimacy
    when it may, so the motion and its bound votes are played at random too."""
    setup = from_log(LOG)
    start = upto("parliament", 2) - 1  # Cat has drawn the card
    motions = [sum(e.type == "illegitimate" for e in random_parliament(setup, start, seed))
               for seed in range(6)]
    assert sum(1 for m in motions if m) >= 3, motions


# ---- fuzzing ---------------------------------------------------------------------------------

WORDS = ["parliament", "call", "people", "at", "summon", "moving", "host", "excuse", "sea",
         "revoke", "port", "stay", "freemove", "bishop", "select", "none", "propose", "to",
         "vote", "yea", "nay", "abstain", "assign", "illegitimate", "transfer", "from", "agreed",
         "approved", "dismiss", "return", "next", "Ann", "Ben", "Cat", "Zed", "Neville",
         "Stafford", "Herbert", "Talbot", "Mowbray", "Henry", "Edward-of-March", "London",
         "Exeter", "Hull", "in:London", "near:Exeter", "Earl-of-Pembroke", "Earl-of-Kent",
         "Chamberlain-of-England", "Bishop-of-Durham", "Grace-Dieu", ",", "Ann,Ann", "x=1"]


def parliament_states():
    from referee.replay import from_log, steps

    setup = from_log(LOG)
    return [step.before for step in steps(setup, LOG.entries)
            if step.before.sitting is not None or step.before.people_due]


STATES = parliament_states()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(min_value=0, max_value=len(STATES) - 1),
       text=st.one_of(st.text(max_size=30),
                      st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)),
       who=st.integers(min_value=0, max_value=3))
def test_fuzzed_votes_and_proposals_end_in_clean_errors(index, text, who):
    state = STATES[index]
    players = LOG.players
    by = (None,) + tuple(p.name for p in players)
    try:
        event = GAME.parse(state, text, by[who])
        after = apply_event(GAME, state, event, players)
    except RefereeError as exc:
        assert exc.message
        return
    assert GAME.to_act(after).prompt  # a legal move leaves a game that says who acts
    shown(after)


def shown(state) -> None:
    """Everything the commands print about a state, without a crash."""
    assert GAME.render(state)
    GAME.option_lines(state, GAME.legal(state))
    for name in (None, "Ann", "Ben", "Cat"):
        GAME.legal_note(state, name)
    GAME.score(state)


def test_every_state_of_the_parliaments_is_shown():
    for state in STATES:
        shown(state)


JUNK = ["", "x", "Zed", "Ann", "Neville", "Henry", "Earl of Kent", "Bishop of Durham", 0, -1, 3,
        True, [], ["Ann", "Ann"], ["Zed"], ["Ann", 1], "London", "near:Exeter", "call",
        "people", "chancery", "none"]
KINDS = {"parliament", "excuse", "revoke", "port", "stay", "bishop", "select", "propose", "vote",
         "assign", "illegitimate", "dismiss", "return", "heir", "transfer"}


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_hand_edited_parliament_events_end_in_clean_findings(tmp_path_factory, seed):
    rng = random.Random(seed)
    spots = [i for i, e in enumerate(LOG.entries) if e.event.type in KINDS]
    index = rng.choice(spots)
    entry = LOG.entries[index]
    fields = dict(entry.event.fields)
    if fields and rng.random() < 0.8:
        fields[rng.choice(sorted(fields))] = rng.choice(JUNK)
    else:
        fields[rng.choice(["yea", "nay", "cards", "card", "to", "nobles", "king"])] = \
            rng.choice(JUNK)
    by = entry.event.by if rng.random() < 0.8 else rng.choice(["Ann", "Ben", "Cat", None])
    event = entry.event.__class__.make(entry.event.type, by, **fields)
    entries = LOG.entries[:index] + (logfile.Entry(entry.seq, event, entry.at),) + \
        LOG.entries[index + 1:]
    path = tmp_path_factory.mktemp("km") / "edited.toml"
    path.write_text(logfile.dumps(evolve(LOG, entries=entries)), encoding="utf-8")
    report = check_file(path)  # never raises
    assert_handled(report, edited_seq=entry.seq)
    assert report.ok or event != entry.event  # only an edit can make the log fail


def test_a_post_combat_decision_during_a_parliament_is_refused_not_a_crash():
    """Issue 24 (15): `heir Henry to Percy` during a People's Parliament exited 70."""
    from referee.errors import IllegalMove
    from referee.replay import steps

    setup = from_log(LOG)
    refused = 0
    for step in steps(setup, LOG.entries):
        state = step.after
        by = GAME.default_player(state)
        if not GAME.phase(state).startswith("parliament") or by is None:  # its steps too
            continue  # (with no one player to act, a player's move is refused before)
        for text in ("heir Henry to Percy", "control London to Percy",
                     "retreat Percy to in:London", "kill Percy", "ransom Percy"):
            try:
                event = GAME.parse(state, text, by)
                apply_event(GAME, state, event, setup.players)
            except IllegalMove as exc:
                assert exc.code == "not-owed" and exc.rule, (text, exc.message)
                refused += 1
            except RefereeError:
                pass  # a name this game does not know: a clean refusal of its own
            else:
                raise AssertionError(f"{text} accepted with no decision owed")
    assert refused >= 5
