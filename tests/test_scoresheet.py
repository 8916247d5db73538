"""The Scoresheet model's renderers and places."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re

from referee import scoresheet, sheets
from referee.scoresheet import Round, Row, Scoresheet, Section, ordinal, places
from tests.conftest import ROOT


def sample(blank: bool = False, rounds=()) -> Scoresheet:
    rows = (
        Row("Ann", "Horse", (("Army", 3), ("Trade", -1)), 3, 1, (("Ladder", "A3 T0"),), "winner"),
        Row("B<e>n", "Pig", (("Army", 1), ("Trade", 2)), 2, 2, (("Ladder", "A1 T2"),), "2nd"),
        Row(None, "Boar", (("Army", 0), ("Trade", 0)), 0, None, (("Ladder", "A0 T0"),),
            "unclaimed"),
    )
    return Scoresheet("g", "A Game", True, "Ann won", ("Ann",), rows, seat_label="House",
                      tiebreaks=("best", "sum"), rounds=tuple(rounds), notes=("a note",),
                      blank=blank)


def test_places_are_shared_competition_ranks():
    assert places({"a": 5, "b": 7, "c": 5, "d": 1}) == {"b": 1, "a": 2, "c": 2, "d": 4}
    assert places({"a": (1, 2), "b": (1, 3)}) == {"b": 1, "a": 2}
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]


def test_text_and_markdown():
    text = sheets.render_text(sample())
    assert text.startswith("A Game\nAnn won\n") and "Ties: best; then sum." in text
    assert "House" in text and "Ladder" in text and "winner" in text
    md = sheets.render_markdown(sample())
    assert md.startswith("# A Game\n\n*Ann won*") and "| Ann " in md


def test_csv_has_a_header_and_one_line_per_row():
    rows = list(csv.reader(io.StringIO(sheets.render_csv(sample()))))
    assert rows[0] == ["Player", "House", "Army", "Trade", "Ladder", "Total", "Place", "Result"]
    assert rows[1] == ["Ann", "Horse", "3", "-1", "A3 T0", "3", "1", "winner"]
    assert rows[3][0] == "-"


def test_json_separates_players_from_passive_seats():
    data = json.loads(sheets.render_json(sample()))
    assert [p["name"] for p in data["players"]] == ["Ann", "B<e>n"]
    assert data["others"][0]["seat"] == "Boar" and data["winners"] == ["Ann"]
    assert data["players"][0]["categories"] == {"Army": 3, "Trade": -1}


def test_html_is_self_contained_escaped_and_marks_the_winner():
    page = sheets.render_html(sample())
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page
    assert "B&lt;e&gt;n" in page and "<e>" not in page
    assert '<tr class="winner">' in page
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_blank_sheets_have_empty_cells():
    text = sheets.render_text(sample(blank=True))
    assert "Ann won" not in text and "winner" not in text and " 3 " not in text
    assert 'class="blank"' in sheets.render_html(sample(blank=True))


def test_rounds_table_and_chart():
    rounds = [Round("Hand 1", (("Ann", 3), ("B<e>n", -2)), "quest 4a"),
              Round("Hand 2", (("Ann", 1), ("B<e>n", 5)), "quest 7b")]
    sheet = sample(rounds=rounds)
    assert "Hand 2" in sheets.render_text(sheet) and "## Rounds" in sheets.render_markdown(sheet)
    page = sheets.render_html(sheet)
    assert "<svg" in page and page.count("<polyline") == 2 and "B&lt;e&gt;n</tspan> 3" in page


def test_no_seat_column_when_no_row_has_a_seat():
    rows = (Row("Ann", None, (("Hand 1", 3),), 3, 1),)
    sheet = Scoresheet("g", "T", False, "", (), rows)
    assert sheets.render_csv(sheet).splitlines()[0] == "Player,Hand 1,Total,Place,Result"


def test_control_characters_are_neutralised_everywhere():
    rows = (Row("A\x1b[2Jnn", None, (("x", 1),), 1, 1),)
    sheet = Scoresheet("g", "T\x07", True, "o\x1b", ("A",), rows)
    for fmt in sheets.RENDERERS:
        assert "\x1b" not in sheets.render(sheet, fmt) and "\x07" not in sheets.render(sheet, fmt)


def test_example_sheets_are_up_to_date():
    # The examples carry the occasion (date, duration, start player) from the log, as
    # `referee scoresheet` prints them: regenerate with tools/make_sheets.py.
    from referee import session

    for path in sorted((ROOT / "scoresheets").glob("*-example.*")):
        game_id = path.name.rsplit("-example", 1)[0]
        sheet = session.load(ROOT / "referee" / "examples" / f"{game_id}.toml").score()
        fmt = {"html": "html", "md": "markdown"}[path.suffix[1:]]
        assert path.read_text() == sheets.render(sheet, fmt), path


def test_further_tables_are_rendered_below_the_players_but_not_in_csv():
    table = Section("Posts <to check>", ("Post", "Total"), (("King", "14"), ("Lord\x1b 1", "9")))
    sheet = Scoresheet("g", "T", True, "o", ("Ann",), (Row("Ann", None, (("x", 1),), 1, 1),),
                       sections=(table,))
    text = sheets.render_text(sheet)
    assert "Posts <to check>\nPost" in text and "\x1b" not in text
    assert re.search(r"^King +14$", text, re.M)
    assert "## Posts \\<to check\\>" in sheets.render_markdown(sheet)  # not an HTML tag
    assert "<h2>Posts &lt;to check&gt;</h2>" in sheets.render_html(sheet)
    assert json.loads(sheets.render_json(sheet))["sections"][0]["rows"][0] == ["King", "14"]
    assert "King" not in sheets.render_csv(sheet)


# ---- Corrections made after play, listed on every sheet (late finding L9) -------------------


def test_every_sheet_lists_each_correction_with_its_event_change_author_and_reason(ke_game):
    cli = ke_game
    for move in ("draw Pig Army 3", "place Stag", "draw BF2", "place Horse"):
        assert cli("play", move).status == 0
    assert cli("correct", "4", "place", "Stag", "--why", "it went under Stag",
               "--by", "Cat").status == 0
    assert cli("correct", "5", "--insert", "note Dan joins late", "--why", "forgotten",
               "--by", "Dan").status == 0
    assert cli("correct", "5", "--delete", "--why", "he did not", "--by", "Ann").status == 0
    text = cli("scoresheet").out
    assert "Corrected: 3 correction(s)" in text
    flat = " ".join(text.split())  # the text sheet folds long lines at 80 columns
    assert '(1) Event 4 "Ben: place Horse" became "Ben: place Stag"; by Cat, ' in flat
    assert "why: it went under Stag" in flat
    assert '(2) "note Dan joins late" was put in as event 5; by Dan, ' in flat
    assert '(3) Event 5 "note Dan joins late" was taken out; by Ann, ' in flat
    assert all(len(line) <= 80 for line in text.splitlines())
    assert len(re.findall(r"\d{4}-\d\d-\d\d\u00a0\d\d:\d\d; why", text)) == 3  # never split
    md = cli("scoresheet", "-f", "markdown").out
    assert '- (1) Event 4 "Ben: place Horse" became "Ben: place Stag"; by Cat' in md
    page = cli("scoresheet", "-f", "html").out
    assert ("<li>(1) Event 4 &quot;Ben: place Horse&quot; became &quot;Ben: place Stag&quot;"
            "; by Cat, ") in page
    data = json.loads(cli("scoresheet", "-f", "json").out)
    first, second, third = data["corrections"]
    assert {k: first[k] for k in ("number", "seq", "kind", "old", "new", "by", "why")} == {
        "number": 1, "seq": 4, "kind": "change", "old": "Ben: place Horse",
        "new": "Ben: place Stag", "by": "Cat", "why": "it went under Stag"}
    assert (second["kind"], second["seq"], second["old"], second["new"]) == (
        "insert", 5, None, "note Dan joins late")
    assert (third["kind"], third["old"], third["new"]) == ("delete", "note Dan joins late", None)
    assert first["at"].startswith("20")  # ISO 8601, as `history --corrections --json`
    assert json.loads(cli("history", "--corrections", "--json").out)[0]["new"] == first["new"]


ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d([+-]\d\d:\d\d)?")


def test_every_json_writes_a_time_in_one_iso_8601_form(ke_game):
    """The sheet's JSON wrote a correction's time `2026-11-27T20:01:02`, `history
    --corrections --json` and `history --json` with a space: every JSON output writes ISO 8601
    (a `T`), the same time alike, as the log records it."""
    cli = ke_game
    assert cli("play", "draw Pig Army 3").status == 0
    assert cli("play", "place Stag").status == 0
    assert cli("correct", "2", "place", "Boar", "--why", "misread", "--by", "Cat").status == 0
    (in_sheet,) = json.loads(cli("scoresheet", "-f", "json").out)["corrections"]
    (in_trail,) = json.loads(cli("history", "--corrections", "--json").out)
    events = json.loads(cli("history", "--json").out)
    times = [in_sheet["at"], in_trail["at"], *(e["at"] for e in events)]
    assert all(ISO_TIME.fullmatch(t) for t in times), times
    assert in_sheet["at"] == in_trail["at"]
    assert dt.datetime.fromisoformat(events[0]["at"]) <= dt.datetime.fromisoformat(in_sheet["at"])


def test_a_sheet_replays_the_log_once_for_all_its_corrections(cli, monkeypatch):
    """The sheet says what each correction was and became, in notation as of the history it was
    made on: it replayed the log from the start for each correction (a 40-event game with five
    corrections: 34 + 24 + 14 + 4 + 4 = 80 events); the states before the event a correction
    changed stay, so it now replays each event once (and again only after a correction)."""
    from referee import log as logfile
    from referee import replay, session
    from referee.evolve import evolve
    from tests.conftest import GOLDEN

    played = logfile.read(GOLDEN / "kings-ear" / "three-player-win.toml")
    path = cli.path / "game.toml"
    path.write_text(logfile.dumps(evolve(played, entries=played.entries[:40])), encoding="utf-8")
    for seq in (35, 25, 15, 5):
        assert cli("correct", str(seq), "--insert", f"note checked {seq}", "--why", "late",
                   "--by", "Dan").status == 0
    assert cli("correct", "5", "--delete", "--why", "twice", "--by", "Ann").status == 0
    table = session.load(path)
    replayed = []
    apply = replay.apply_event
    monkeypatch.setattr(replay, "apply_event", lambda *a, **k: replayed.append(1) or apply(*a,
                                                                                          **k))
    sheet = table.score()
    assert [(fix.kind, fix.seq, fix.new) for fix in sheet.corrections] == [
        ("insert", 35, "note checked 35"), ("insert", 25, "note checked 25"),
        ("insert", 15, "note checked 15"), ("insert", 5, "note checked 5"),
        ("delete", 5, None)]
    assert sheet.corrections[-1].old == "note checked 5"
    assert len(replayed) <= len(table.log.entries), len(replayed)


def test_each_correction_is_read_against_the_history_it_was_made_on(cli, monkeypatch):
    """The one replay keeps the states along the history: a correction that moves the later
    events (an insert here) must drop the states kept after it, or a later correction between
    the two is read against a state of the history as it was before (here: one event too
    many)."""
    from referee import corrections, replay, session
    from referee import log as logfile
    from referee.evolve import evolve
    from tests.conftest import GOLDEN

    played = logfile.read(GOLDEN / "kings-ear" / "three-player-win.toml")
    path = cli.path / "game.toml"
    path.write_text(logfile.dumps(evolve(played, entries=played.entries[:40])), encoding="utf-8")
    made_on = []  # (seq, the history just before the correction)
    for seq in (35, 5, 20):
        made_on.append((seq, logfile.read(path).entries))
        assert cli("correct", str(seq), "--insert", f"note checked {seq}", "--why", "late",
                   "--by", "Dan").status == 0
    table = session.load(path)
    read_on = []
    text = corrections._text
    monkeypatch.setattr(corrections, "_text",
                        lambda table, state, event: read_on.append(state) or text(table, state,
                                                                                  event))
    corrections.trail(table)
    assert read_on == [replay.final(table.setup, history[:seq - 1]) for seq, history in made_on]


def test_a_sheet_of_an_uncorrected_game_lists_no_correction(ke_game):
    assert ke_game("play", "draw Pig Army 3").status == 0
    assert "Corrected" not in ke_game("scoresheet").out
    assert json.loads(ke_game("scoresheet", "-f", "json").out)["corrections"] == []


def test_a_corrected_seeded_swap_keeps_the_cards_the_tool_took_off_every_sheet(cli):
    """A Dwarf King swap in a game the tool dealt (R-22: `swap NAME`, then `give C C`): neither
    the 2 random cards it took nor the 2 given back are on the table's record; a correction of
    the give lists it as `history` does, without them."""
    from referee import log as logfile
    from referee import session
    from tests.test_dwarf_king import SEED_WITH_GOBLIN_SWAP

    assert cli("new", "dwarf-king", "-p", "Pierre", "-p", "Bruno", "-p", "Catie", "--seed",
               str(SEED_WITH_GOBLIN_SWAP)).status == 0
    assert cli("play", "special").status == 0 and cli("play", "quest", "a").status == 0
    table = session.load(cli.path / "game.toml")
    holder = table.turn.players[0]
    mine = sorted(table.state.deal.slots[table.state.seat(holder)].known - {"FlagBearerG"})
    assert cli("play", "swap", "Pierre", "--as", holder).status == 0
    taken = logfile.read(cli.path / "game.toml").entries[-1].event["taken"]
    assert cli("play", "give", mine[0], mine[1], "--as", holder).status == 0
    done = cli("correct", "4", "give", mine[2], mine[3], "--why", "wrong", "--by", "Catie",
               "--force")
    assert done.status == 0, done.err
    assert cli("play", "end", "stop").status == 0
    sheets_ = [cli("scoresheet", "-f", fmt).out for fmt in ("text", "markdown", "html", "json")]
    for s in sheets_:  # the give as the table read it: two cards, never which
        flat = " ".join(s.split()).replace("&quot;", '"').replace('\\"', '"')
        assert re.search(r'"Bruno: give 2 cards back", "?new"?: ?"Bruno: give 2 cards back'
                         if s.startswith("{") else
                         r'"Bruno: give 2 cards back" became "Bruno: give 2 cards back', flat), s
    hidden = set(taken) | set(mine[:4])
    assert not any(re.search(rf"\b{card}\b", s) for card in hidden for s in sheets_)


# ---- The King's Ear: who led when (box finding B9) -------------------------------------------


def test_kings_ear_sheet_charts_each_best_net_after_each_round_of_turns(ke_game):
    cli = ke_game
    # Ann (Horse), Ben (Pig), Cat (Stag) each draw an own card: placed at once
    for move in ("draw Horse Army 3", "draw Pig Religion 2", "draw Stag Trade 4",
                 "draw Horse Farming 4"):
        assert cli("play", move).status == 0
    data = json.loads(cli("scoresheet", "-f", "json").out)
    # round 1 is full; round 2 has only Ann's turn so far (the sheet shows where it stands)
    assert data["chart"]["rounds"] == ["1", "2"]
    assert data["chart"]["running_totals"] == {"Ann": [3, 4], "Ben": [2, 2], "Cat": [4, 4]}
    text = cli("scoresheet").out
    assert "Best net after each round" in text and "\nRounds\n" not in text
    assert "A Ann (4)   B Ben (2)   C Cat (4)" in text
    page = cli("scoresheet", "-f", "html").out
    assert "<h2>Best net after each round</h2>" in page and ">best net</text>" in page
    assert cli("play", "draw Pig Army 1").status == 0 and cli("play", "draw SA1").status == 0
    data = json.loads(cli("scoresheet", "-f", "json").out)  # round 2 done: no third yet
    assert data["chart"]["running_totals"] == {"Ann": [3, 4], "Ben": [2, 2], "Cat": [4, 4]}


def test_kings_ear_chart_ends_on_every_golden_games_best_nets():
    from referee import session

    for path in sorted((ROOT / "tests" / "golden" / "kings-ear").glob("*.toml")):
        data = scoresheet.as_dict(session.load(path).score())
        ends = {name: values[-1] for name, values in data["chart"]["running_totals"].items()}
        assert ends == {p["name"]: p["total"] for p in data["players"]}, path
        assert len(data["chart"]["rounds"]) >= 5, path


# ---- Wide characters: a name in Chinese takes two columns a character (box finding B11c) ------


def _wide_sheet(name: str) -> Scoresheet:
    rows = (Row(name, "Horse", (("Army", 3), ("Trade", -1)), 3, 1, (("Ladder", "A3 T0"),)),
            Row("Ben", "Pig", (("Army", 1), ("Trade", 2)), 2, 2, (("Ladder", "A1 T2"),)))
    rounds = (Round("Round 1", ((name, 1), ("Ben", 2))), Round("Round 2", ((name, 2), ("Ben", 0))))
    return Scoresheet("g", "A Game", False, f"{name} leads", (), rows, seat_label="House",
                      notes=(f"{name} 的笔记 " * 12, "张" * 40), rounds=rounds, round_table=True)


def test_a_wide_name_keeps_its_row_in_line_with_the_others_on_the_text_sheet():
    """Every line as it would be with a name of as many columns in plain letters: the tables,
    the rounds, the chart's legend and the folded notes."""
    for width in (30, 57, 80):
        wide = sheets.render_text(_wide_sheet("张伟"), width)
        plain = sheets.render_text(_wide_sheet("AZZZ"), width)  # the chart marks them A and B
        assert wide.replace("张伟", "AZZZ") == plain, width  # the notes keep 的笔记: wide too
    table = sheets.render_text(_wide_sheet("张伟")).split("\n\n")[1].splitlines()
    assert table[2] == "张伟    Horse     3     -1  A3 T0       3  1st so far"
    assert table[3] == "Ben     Pig       1      2  A1 T2       2  2nd so far"


def test_wide_texts_fit_every_width_and_a_cut_name_never_halves_a_character():
    from referee.screen import cells

    for name in ("张伟", "张" * 12, "Zhang 张伟" * 4):  # (a 60-letter name overflows anyway)
        for width in (30, 41, 57, 80):
            text = sheets.render_text(_wide_sheet(name), width)
            assert "\x00" not in text
            assert max(cells(line) for line in text.splitlines()) <= width, (name, width)
    from referee.screen import WIDE, widened
    from referee.sheets import text

    for room in (4, 5):  # cut after a whole character, or through one (then a space pads it)
        cut = text._shorten(widened("张" * 5), room).replace(WIDE, "")
        assert cells(cut) == room and cut == "张" * ((room - 1) // 2) + " " * (room % 2 == 0) + "~"


def test_history_lines_up_the_moves_after_a_wide_name(cli):
    from referee.screen import cells

    assert cli("new", "kings-ear", "-p", "张伟:Horse", "-p", "Ben:Pig").status == 0
    assert cli("play", "draw Horse Army 3").status == 0 and cli("play", "draw PA2").status == 0
    lines = cli("history").out.splitlines()
    assert [cells(line[:line.index("draw")]) for line in lines] == [17, 17]


def test_kings_ear_chart_shows_the_round_the_game_ended_in_whoever_ended_it():
    """Every player passed with the pile empty (R-6): when the last pass is the first seat's,
    the game ends in a round just begun, as when a later seat's pass ends it: the chart has it."""
    from referee import session
    from referee.evolve import evolve
    from referee.games.kings_ear import scoring

    state = session.load(ROOT / "tests" / "golden" / "kings-ear" / "two-player-no-winner.toml").state
    assert state.ended and state.turn == 1  # Hana passed, then Ivo: ended in round N + 1
    begun = len(state.rounds) + 1
    assert len(scoring.rounds(state)) == begun
    assert len(scoring.rounds(evolve(state, turn=0))) == begun  # Ivo, then Hana
