"""The Dwarf King at a real table, through the real CLI entry point: a whole game from the first
deal to the scoresheet, a revoke noticed by `play` and `check`, options and status."""

import json
from pathlib import Path

from referee import log as logfile
from referee import session
from referee.games.dwarf_king.components import CARDS
from referee.engine import load_game
from referee.replay import replay_log

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "dwarf-king" / "three-player.toml"


def test_a_whole_game_at_the_table(cli):
    """Every move of the three-player golden game typed as players would type it."""
    log = logfile.read(GOLDEN)
    game = load_game("dwarf-king")
    names = [p.name for p in log.players]
    assert cli("new", "dwarf-king", *sum((["--player", n] for n in names), [])).status == 0
    state = game.setup(log.players, log.options, None)
    for entry in log.entries:
        event = entry.event
        args = ["play", game.format(state, event)]
        if event.by is not None and game.to_act(state).players != (event.by,):
            args += ["--as", event.by]
        result = cli(*args)
        assert result.status == 0, (args, result.err)
        state = game.apply(state, event)
    sheet = cli("scoresheet")
    assert sheet.status == 0
    # The CLI's sheet also says when this log was played (the golden sheet has no log date).
    lines = sheet.out.split("\n")
    assert lines[2].startswith("Date: ") and "Start player: Pierre" in lines[2]
    rest = "\n".join(lines[:2] + lines[3:])
    assert rest == GOLDEN.with_suffix(".scoresheet.txt").read_text(encoding="utf-8")
    assert cli("check", "game.toml").status == 0


def test_a_revoke_is_noticed_by_play_and_by_check(cli):
    cli("new", "dwarf-king", "--player", "Pierre", "--player", "Bruno", "--player", "Catie")
    for move in ("special Dragon", "quest 4a --as Bruno", "leader --as Catie", "D3", "D4", "GK"):
        assert cli("play", *move.split()).status == 0
    status = cli("status")
    assert "Bruno: 12 card(s); holds K5; no Dwarves since trick 1 (Bruno)" in status.out
    options = cli("options")
    assert "follow" not in options.out and "any unplayed card" in options.out
    for move in ("K2", "K3", "K4", "D5", "D6"):
        cli("play", move)
    options = cli("options")
    assert "follow Dwarves if you can: D7" in options.out
    revoke = cli("play", "D7")
    assert revoke.status == 0
    assert "Revoke by Bruno: in trick 1 Bruno played GK" in revoke.out + revoke.err
    found = cli("check", "game.toml")
    assert found.status == 0 and ": notice: revoke" in found.out  # a valid log of a breach
    refused = cli("play", "D2")
    assert refused.status == 1 and "out of the game with 3 players" in refused.err
    log = logfile.read(Path(cli.path) / "game.toml")
    assert len(log.entries) == 12 and replay_log(log)[1].deal.trick_number == 4


# The tool draws the quest tile (--shuffle): its holder reads both sides before choosing one
# (table findings F4, R-20). With seed 5 the first tile drawn is 20.

QUEST_20 = "hand 1: quest tile 20 drawn: `quest a` or `quest b`"
SIDES_20 = ["quest a   (20a Queen of Dwarves: +8 for the Queen of Dwarves)",
            "quest b   (20b Not the Queen of Dwarves: -8 for the Queen of Dwarves)"]
DRAWN_20 = ("Quest tile 20 drawn; the holder of the 5 of Knights chooses a side:\n"
            "  20a Queen of Dwarves (+8 for the Queen of Dwarves)\n"
            "  20b Not the Queen of Dwarves (-8 for the Queen of Dwarves)\n")


def seeded_three(cli):
    assert cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--shuffle",
               "--seed", "5").status == 0


def test_the_drawn_quest_tile_is_shown_before_its_side_is_chosen(cli):
    seeded_three(cli)
    assert "tile 20" not in cli("options").out + cli("status").out  # not drawn before the deal
    dealt = cli("play", "special")  # the deal says what was drawn; Next says what to type
    assert dealt.status == 0 and dealt.out.endswith(f"{DRAWN_20}Next: Ann - {QUEST_20}\n")
    assert cli("options").out.splitlines()[1:] == ["  " + line for line in SIDES_20]
    assert DRAWN_20 in cli("status").out
    before = (cli.path / "game.toml").read_bytes()
    bare = cli("play", "quest")
    assert bare.status == 1 and bare.err.splitlines() == [
        "referee: 'quest': which side of quest tile 20? `quest a` or `quest b`",
        "  closest legal moves: quest a | quest b"]
    other = cli("play", "quest", "7a")
    assert other.status == 1 and "the tool drew quest tile 20, not 7" in other.err
    for typed in (["7"], ["20"]):  # a tile without a side: the drawn tile's sides, not tile 7's
        sideless = cli("play", "quest", *typed)
        assert sideless.status == 1 and sideless.err.splitlines()[0] == (
            f"referee: 'quest {typed[0]}': which side of quest tile 20? `quest a` or `quest b`")
    assert (cli.path / "game.toml").read_bytes() == before
    chosen = cli("play", "quest", "b")
    assert chosen.status == 0 and "chooses quest 20b Not the Queen of Dwarves" in chosen.out
    log = logfile.read(cli.path / "game.toml")  # the log records the tile and its side, as ever
    assert dict(log.entries[-1].event.fields) == {"tile": 20, "side": "b"}
    assert "drawn" not in cli("status").out and "Quest: 20b" in cli("status").out


def test_the_drawn_quest_tile_at_the_table_prompt(cli, tmp_path):
    """`referee table` through a pseudo-terminal: the prompt names the drawn tile's two sides,
    `options` lists them in full, a bare `quest` asks which side; later a card refused from
    Ben's dealt hand is refused without a word about that hand."""
    import pexpect

    from tests.test_table_terminal import start

    seeded_three(cli)
    child = start(tmp_path, tmp_path / "game.toml")
    child.expect_exact("The table · hand 1: Ann deals and reveals the special card (`special "
                       "CARD`) > ")
    child.sendline("special")
    child.expect_exact(DRAWN_20.replace("\n", "\r\n"))
    prompt = f"Ann · {QUEST_20} > "  # short: a move typed after it stays on its line at 80
    assert len(prompt) <= 64
    child.expect_exact(prompt)
    child.sendline("options")
    for line in SIDES_20:
        child.expect_exact(line)
    child.expect_exact(" > ")
    child.sendline("quest")
    child.expect_exact("which side of quest tile 20? `quest a` or `quest b`")
    child.expect_exact(" > ")
    child.sendline("quest a")
    child.expect_exact("Ann shows the 5 of Knights and chooses quest 20a Queen of Dwarves")
    child.expect_exact("Ann · hand 1: the holder of the 5 of Goblins shows it (`leader`) > ")
    child.sendline("leader")
    child.expect_exact("Ann · hand 1, trick 1: Ann leads > ")
    child.sendline("K4")
    child.expect_exact("Ben · hand 1, trick 1: Ben follows Knights > ")
    child.sendline("K2")  # not Ben's: the table hears no more than for a card he holds
    child.expect_exact("referee: Ben cannot play K2 now (follow Knights if you can); why stays "
                       "with Ben's hidden hand")
    child.expect_exact("Ben · hand 1, trick 1: Ben follows Knights > ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert logfile.read(tmp_path / "game.toml").entries[1].event["tile"] == 20


# A refused card tells the table nothing of a hand the tool dealt (table findings F6, R-21)


def without(line, card):
    """An options line with `card` left out: a card just refused is never offered back."""
    return " ".join(word for word in line.split() if word != card)


def test_a_refused_card_tells_the_table_nothing_of_a_dealt_hand(cli):
    """Seed 5, after Ann's K4: whether Ben lacks the card typed or holds a Knight, the table
    hears the same words; Ben reads his legal cards alone with `options --for Ben`."""
    seeded_three(cli)
    for move in (["special"], ["quest", "a"], ["leader"], ["K4"]):
        assert cli("play", *move).status == 0, move
    state = session.load(cli.path / "game.toml").state
    bens = state.deal.slots[state.seat("Ben")].known
    unplayed = sorted(c for c in state.deal.deck(3) if not state.deal.is_gone(c))
    knights = [c for c in unplayed if CARDS[c].suit == "Knights"]
    held_other = next(c for c in unplayed if c in bens and CARDS[c].suit == "Goblins")
    lacked_other = next(c for c in unplayed if c not in bens and CARDS[c].suit == "Goblins")
    lacked_knight = next(c for c in knights if c not in bens and c != "K5")
    assert any(c in bens for c in knights)  # Ben must follow: he holds a Knight
    before = (cli.path / "game.toml").read_bytes()
    follow, void = cli("options").out.splitlines()[1:3]
    for card in (held_other, lacked_other, lacked_knight):
        refused = cli("play", card)
        assert refused.status == 1 and refused.err.splitlines() == [
            f"referee: Ben cannot play {card} now (follow Knights if you can); why stays with "
            "Ben's hidden hand",
            "  rule: R-21",
            "  hint: Ben alone may read the cards Ben can play: `options --for Ben`",
            f"  closest legal moves: {without(follow, card)} | {without(void, card)}"], card
        assert follow.strip().startswith("follow Knights if you can: ")
        assert void.strip().startswith("or, if void in Knights: ")
        error = json.loads(cli("play", card, "--json").err)["error"]
        assert (error["code"], error["rule"]) == ("not-playable-now", "R-21")
    assert (cli.path / "game.toml").read_bytes() == before
    mine = cli("options", "--for", "Ben").out.split()
    assert set(mine) >= {c for c in bens if CARDS[c].suit == "Knights"}
    assert held_other not in mine



def assert_taken_handed_over(transcript: str, holder: str, target: str, taken, columns: int):
    """The 2 cards taken shown after the Flag Bearer is named and before the wipe (screen and
    scrollback), then nowhere: neither printed after it nor left on the screen."""
    import pyte

    from referee.screen import WIPE
    from tests.test_hidden_information import word

    named = transcript.index(f"{holder} only")
    shown = transcript.index(f"Taken from {target}: {' '.join(taken)} (yours alone to see)")
    wiped = transcript.index(WIPE, shown)
    assert transcript.index(WIPE) < named < shown < wiped
    assert not any(word(card).search(transcript[:named]) for card in taken)
    after = transcript[wiped:]
    assert "gives 2 cards back" in after and not any(word(card).search(after) for card in taken)
    screen = pyte.Screen(columns, 24)
    pyte.Stream(screen).feed(transcript)
    visible = "\n".join(screen.display)
    assert "gives 2 cards back" in visible and not any(word(c).search(visible) for c in taken)


def test_the_table_session_hands_the_cards_taken_over_and_never_keeps_a_give_line(tmp_path,
                                                                                   capsys):
    """T1: in a table session the 2 cards taken are shown on the Flag Bearer's hand-over
    screen only (`status --for`); the 2 he gives back are typed there, and the session keeps
    `swap NAME` in its history (Up-arrow, its file) but never the `give` line."""
    import io
    import subprocess
    import sys

    import pexpect
    import pytest

    from referee import table as sessions
    from referee.errors import MoveError
    from tests.test_dwarf_king import SEED_WITH_GOBLIN_SWAP
    from tests.test_hidden_information import word
    from tests.test_table import Said
    from tests.test_table_terminal import TIMEOUT, environment, start

    path = tmp_path / "game.toml"
    for args in (["new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--seed",
                  str(SEED_WITH_GOBLIN_SWAP)], ["play", "special"], ["play", "quest", "a"]):
        done = subprocess.run([sys.executable, "-m", "referee", "--log", str(path), *args],
                              env=environment(tmp_path), capture_output=True, text=True,
                              timeout=TIMEOUT)
        assert done.returncode == 0, done.stderr
    table = session.load(path)
    holder = table.turn.players[0]
    target = next(n for n in table.state.names if n != holder)
    assert not sessions.kept(table, "give K3 K6") and sessions.kept(table, f"swap {target}")
    with pytest.raises(MoveError) as refused:  # not its moment: refused, no card asked for
        session.play(path, "give", holder)
    assert refused.value.code == "wrong-phase"
    # the 2 cards taken reach the Flag Bearer's hand-over screen only (`status --for`)
    said = Said()
    known = session.load_known(path)
    outcome = sessions.answer(path, known, f"swap {target}", said)
    giving = session.load(path)
    taken = giving.state.deal.taken
    # the give typed without its verb (the moment makes it clear) is not kept either
    assert not sessions.kept(giving, " ".join(taken)) and not sessions.kept(giving, "give")
    public = "\n".join(said.lines) + capsys.readouterr().out
    assert "status --for" in public and not any(word(card).search(public) for card in taken)
    # said as typed here: `referee status ...` is refused in a session
    assert f"`status --for {holder}`" in public and "`referee status" not in public
    sessions.answer(path, outcome.known, f"status --for {holder}", said)
    (player, text), = said.secrets
    assert player == holder and f"Taken from {target}: {' '.join(taken)}" in text
    sessions.answer(path, outcome.known, "status", said)
    public = "\n".join(said.lines) + capsys.readouterr().out
    assert "gives 2 cards back" in public and not any(word(card).search(public) for card in taken)
    session.undo(path, force=True)
    child = start(tmp_path, path, columns=120)
    child.expect_exact(" > ")
    # at a terminal, the 2 cards taken go to the Flag Bearer's hand-over screen at once
    heard = child.logfile_read = io.StringIO()
    child.sendline(f"swap {target}")
    child.expect_exact(f"{holder} only")
    child.sendline("")
    child.expect_exact("Press Enter when done: the screen is wiped.")
    child.sendline("")
    child.expect_exact("gives 2 cards back")
    child.expect_exact(" > ")
    child.logfile_read = None
    taken = session.load(path).state.deal.taken
    assert_taken_handed_over(heard.getvalue(), holder, target, taken, 120)
    heard = child.logfile_read = io.StringIO()
    child.send("gi\t")  # Tab completes the give once it is due
    child.expect_exact("give ")
    child.sendline("")  # the verb alone: the 2 cards are asked unseen
    child.expect_exact("Secret (not shown): ")
    child.sendline(f"{taken[0]} {taken[1]}")
    child.expect_exact("face down")
    child.expect_exact(" > ")
    child.logfile_read = None
    assert not any(word(card).search(heard.getvalue()) for card in taken)
    assert tuple(logfile.read(path).entries[-1].event["cards"]) == tuple(taken)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    (history,) = (tmp_path / "state" / "referee" / "history").iterdir()
    kept = history.read_text(encoding="utf-8")
    assert f"swap {target}" in kept and "quit" in kept
    assert "give" not in kept and taken[0] not in kept and taken[1] not in kept


def swap_due(folder: Path) -> tuple[list[str], str, str]:
    """A --seed game in `folder`/game.toml at the Flag Bearer's swap; the command line that
    reads it, the Flag Bearer and the player he takes from."""
    import subprocess
    import sys

    from tests.test_dwarf_king import SEED_WITH_GOBLIN_SWAP
    from tests.test_table_terminal import TIMEOUT, environment

    referee = [sys.executable, "-m", "referee", "--log", str(folder / "game.toml")]
    for args in (["new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--seed",
                  str(SEED_WITH_GOBLIN_SWAP)], ["play", "special"], ["play", "quest", "a"]):
        done = subprocess.run(referee + args, env=environment(folder), capture_output=True,
                              text=True, timeout=TIMEOUT)
        assert done.returncode == 0, done.stderr
    table = session.load(folder / "game.toml")
    holder = table.turn.players[0]
    return referee, holder, next(n for n in table.state.names if n != holder)


def test_play_swap_at_a_terminal_hands_the_cards_taken_to_the_flag_bearer_at_once(tmp_path):
    """`play swap NAME` at a terminal: the 2 cards the tool took go to the Flag Bearer's
    hand-over screen before the table's lines, wiped after; the table then reads that the give
    is due."""
    from tests.test_screen import run_in_pty
    from tests.test_table_terminal import environment

    referee, holder, target = swap_due(tmp_path)
    output = run_in_pty(referee + ["play", "swap", target], tmp_path, enters=2,
                        env=environment(tmp_path))
    taken = session.load(tmp_path / "game.toml").state.deal.taken
    assert len(taken) == 2
    assert_taken_handed_over(output, holder, target, taken, 80)
    assert f"Next: {holder} - hand 1: {holder} (Flag Bearer) gives 2 cards back" in \
        " ".join(output.split())


def test_play_swap_piped_or_as_json_shows_the_cards_taken_nowhere(tmp_path):
    """Off a terminal (a script, `| cat`), `play swap NAME` (text, --json) and a table session
    show no hand-over and print no card of the pair taken on either stream: `status --for NAME`
    shows it."""
    import subprocess

    from tests.test_hidden_information import word
    from tests.test_table_terminal import TIMEOUT, environment

    referee, holder, target = swap_due(tmp_path)
    log = tmp_path / "game.toml"
    before = log.read_bytes()
    said = []
    for extra in ([], ["--json"]):
        log.write_bytes(before)
        done = subprocess.run(referee + ["play", "swap", target, *extra], capture_output=True,
                              text=True, env=environment(tmp_path), timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stderr
        said += [done.stdout, done.stderr]
    log.write_bytes(before)  # and a table session with its lines on a pipe
    done = subprocess.run(referee + ["table"], input=f"swap {target}\nquit\n",
                          capture_output=True, text=True, env=environment(tmp_path),
                          timeout=TIMEOUT)
    assert done.returncode == 0 and "gives 2 cards back" in done.stdout, done.stdout
    said += [done.stdout, done.stderr]
    taken = session.load(log).state.deal.taken
    heard = "\n".join(said)
    assert f"`referee status --for {holder}`" in said[0] and "only" not in heard
    assert len(taken) == 2 and not any(word(card).search(heard) for card in taken), heard


def test_undoing_a_give_or_a_seeded_swap_says_what_it_showed_and_to_whom(cli):
    """A give shows the table nothing: its 2 cards go face down to the player they were taken
    from, who has seen them, so taking it back still needs --force, in words that say so (they
    said 'revealed hidden information that everyone has now seen'); so does the swap's (the
    Flag Bearer to all, the 2 cards taken to him alone). Refused, the log is unchanged."""
    from tests.test_dwarf_king import SEED_WITH_GOBLIN_SWAP

    assert cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--seed",
               str(SEED_WITH_GOBLIN_SWAP)).status == 0
    for move in (["special"], ["quest", "a"], ["swap", "Ann"]):
        assert cli("play", *move).status == 0, move
    taken = logfile.read(cli.path / "game.toml").entries[-1].event["taken"]
    assert cli("play", "give", *taken).status == 0
    log = cli.path / "game.toml"
    before = log.read_bytes()
    refused = cli("undo")
    assert refused.status == 1 and log.read_bytes() == before
    assert refused.err.strip() == (
        "referee: event 4 (give 2 cards back) handed 2 cards face down to the player they were "
        "taken from, who has seen them (the table has not); use `referee undo --force` to "
        "retract it anyway")
    corrected = cli("correct", "4", "give", "--why", "typo", "--by", "Ben")
    assert corrected.status == 1 and log.read_bytes() == before
    assert "(give) handed 2 cards face down to the player they were taken from" in corrected.err
    assert cli("undo", "--force").status == 0
    refused = cli("undo")
    assert refused.status == 1 and refused.err.strip() == (
        "referee: event 3 (swap Ann) showed the Flag Bearer to everyone and the 2 cards taken "
        "to the Flag Bearer alone; use `referee undo --force` to retract it anyway")


def test_a_cancelled_hand_over_of_the_cards_taken_shows_nothing_and_the_swap_stands(tmp_path):
    """Ctrl-D (or Ctrl-C) instead of Enter at the Flag Bearer's hand-over, in play and in a
    table session: no card is shown, the swap stays recorded (it was played first) and the
    message says which command shows the cards; play prints the table's lines, then ends with
    130 as a cancelled hand-over does (`man referee`, EXIT STATUS: it said 0)."""
    import sys

    import pexpect

    from tests.test_hidden_information import word
    from tests.test_table_terminal import TIMEOUT, environment, start

    referee, holder, target = swap_due(tmp_path)
    log = tmp_path / "game.toml"
    before = log.read_bytes()
    child = pexpect.spawn(sys.executable, referee[1:] + ["play", "swap", target],
                          cwd=str(tmp_path), env=environment(tmp_path), encoding="utf-8",
                          timeout=TIMEOUT, dimensions=(24, 80))
    child.expect_exact(f"{holder} only")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    taken = session.load(log).state.deal.taken
    said = " ".join(child.before.split())
    assert child.exitstatus == 130 and len(taken) == 2
    assert f"referee: hand-over cancelled (Ctrl-D): nothing was shown to {holder}; `referee " \
        f"status --for {holder}` shows it" in said
    assert f"Next: {holder}" in said and not any(word(card).search(said) for card in taken)
    log.write_bytes(before)
    child = start(tmp_path, log, columns=120)
    child.expect_exact(" > ")
    child.sendline(f"swap {target}")
    child.expect_exact(f"{holder} only")
    child.sendintr()
    child.expect_exact(" > ")
    said = " ".join(child.before.split())
    assert f"nothing was shown to {holder}; `status --for {holder}` shows it." in said
    assert not any(word(card).search(said) for card in taken)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert session.load(log).state.deal.taken == taken


def test_on_a_terminal_with_no_keyboard_the_cards_taken_are_shown_nowhere(tmp_path):
    """Lines from a pipe, output on a terminal the command cannot read Enter from (no
    controlling terminal: `printf ... | setsid referee table`): no hand-over can be held, so the
    Flag Bearer's board is shown nowhere, in a table session as in play (the session printed
    it plainly on the shared screen, the 2 cards taken in it); `status --for NAME` shows it."""
    from tests.test_hidden_information import word
    from tests.test_screen import run_in_pty
    from tests.test_table_terminal import environment

    referee, holder, target = swap_due(tmp_path)
    log = tmp_path / "game.toml"
    before = log.read_bytes()
    heard = []
    for args, typed in ((["table"], f"swap {target}\nquit\n"), (["play", "swap", target], "")):
        log.write_bytes(before)
        heard.append(run_in_pty(referee + args, tmp_path, enters=0, env=environment(tmp_path),
                                piped=typed))
        assert session.load(log).state.deal.taken, heard  # the swap was recorded
    taken = session.load(log).state.deal.taken
    assert all("gives 2 cards back" in said for said in heard), heard
    assert len(taken) == 2 and not any(word(card).search(said) for card in taken
                                       for said in heard), heard


def test_the_hand_over_of_the_cards_taken_fits_80_columns_with_a_wide_name(tmp_path):
    """The Flag Bearer named in 20 wide characters (40 columns): every line of his hand-over
    screen fits the 80-column terminal (its head ran on past the last column)."""
    import re
    import subprocess
    import sys

    from referee.screen import WIPE, cells
    from tests.test_dwarf_king import SEED_WITH_GOBLIN_SWAP
    from tests.test_screen import run_in_pty
    from tests.test_table_terminal import TIMEOUT, environment

    wide = "山田太郎" * 5  # the Flag Bearer's seat in this seed's first hand
    referee = [sys.executable, "-m", "referee", "--log", str(tmp_path / "game.toml")]
    for args in (["new", "dwarf-king", "-p", "Ann", "-p", wide, "-p", "Cat", "--seed",
                  str(SEED_WITH_GOBLIN_SWAP)], ["play", "special"], ["play", "quest", "a"]):
        assert subprocess.run(referee + args, env=environment(tmp_path), capture_output=True,
                              timeout=TIMEOUT).returncode == 0
    assert session.load(tmp_path / "game.toml").turn.players == (wide,)
    output = run_in_pty(referee + ["play", "swap", "Ann"], tmp_path, enters=2,
                        env=environment(tmp_path))
    shown = output[output.index(f"{wide} only"):output.index("Press Enter when done")]
    assert "Taken from Ann" in shown and f"{wide} sees" in shown
    lines = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", shown).replace("\r", "").split("\n")[1:]
    assert all(cells(line) <= 80 for line in lines), [l for l in lines if cells(l) > 80]
    assert WIPE in output[output.index("Press Enter when done"):]
