"""The pages of the scoresheet: text within 80 columns, Markdown, and the printable HTML's
structure (the page rules, one row per player, the chart's axes, lines and legend).

Every game is checked at every player count with 18-character names (tests/sheet_samples.py);
tools/print_check.py prints the same sheets in a real browser.
"""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from referee import scoresheet, sheets
from referee.scoresheet import Column, Occasion, Round, Row, Scoresheet, tie_notes
from referee.sheets import chart, text
from tests.sheet_samples import LONG_NAMES, samples

SAMPLES = list(samples())


def ids(sample):
    return sample.label


@pytest.mark.parametrize("sample", SAMPLES, ids=ids)
def test_text_fits_80_columns_and_never_cuts_a_name(sample):
    page = sheets.render_text(sample.sheet)
    assert max(len(line) for line in page.splitlines()) <= 80
    for name in sample.sheet.players:
        assert re.search(rf"^{re.escape(name)}\s", page, re.M), name
    assert not any(line != line.rstrip() for line in page.splitlines())


@pytest.mark.parametrize("sample", SAMPLES, ids=ids)
@pytest.mark.parametrize("width", [60, 40])
def test_text_narrower_terminals_wrap_or_split(sample, width):
    page = sheets.render_text(sample.sheet, width)
    assert max(len(line) for line in page.splitlines()) <= width


def test_each_sample_has_as_many_players_as_its_name_says():
    """The print check's "kingmaker-7p" is a sheet of seven players (it had six: the names ran
    out), and so on for every game and count."""
    counted = [(s.label, int(found.group(1)), len(s.sheet.players)) for s in SAMPLES
               if (found := re.search(r"-(\d+)p$", s.label))]
    assert ("kingmaker-7p", 7, 7) in counted
    assert [c for c in counted if c[1] != c[2]] == []


@pytest.mark.parametrize("sample", SAMPLES, ids=ids)
def test_plain_ascii_when_the_terminal_is_not_utf8(sample):
    page = sheets.render_text(sample.sheet, unicode=False)
    assert page.isascii()


def _column_ends(page: str, header: str) -> set[int]:
    """Where the cells under `header` end, in the first table of a text page."""
    lines = page.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("---"))
    end = lines[rule - 1].index(header) + len(header)
    out = set()
    for line in lines[rule + 1:]:
        if not line.strip():
            break
        cell = line[:end].rstrip()
        if cell and cell[-1].isdigit():
            out.add(len(cell))
    return out


def test_numbers_are_right_aligned_under_their_header():
    sheet = next(s.sheet for s in SAMPLES if s.label == "king-of-the-valley-4p")
    page = sheets.render_text(sheet)
    assert len(_column_ends(page, "Total")) == 1
    assert len(_column_ends(page, "Influence")) == 1


def test_round_headers_share_their_word_when_space_is_short():
    columns = [Column("Player", "name")] + [Column(f"Hand {n}", "num") for n in range(1, 9)]
    columns.append(Column("Place", "place"))
    body = [["Alexandrina Louisa", *["-23"] * 8, "shared 2nd"]]
    table = text.fit_table(columns, body, 60)
    assert max(len(line) for line in table.splitlines()) <= 60
    assert table.splitlines()[0].strip() == "Hand" and "Alexandrina Louisa" in table


def test_a_table_too_wide_for_any_narrowing_is_split_repeating_the_first_column():
    columns = [Column("Player", "name")] + [Column(f"Category {n}", "num") for n in range(12)]
    body = [["Alexandrina Louisa", *["12345"] * 12]]
    table = text.fit_table(columns, body, 40)
    assert max(len(line) for line in table.splitlines()) <= 40
    blocks = table.split("\n\n")
    assert len(blocks) > 1
    for block in blocks:
        lines = block.splitlines()
        assert lines[0].strip() == "Category" and lines[1].startswith("Player")
        assert lines[-1].startswith("Alexandrina Louisa ")


def test_blank_text_sheet_has_lines_to_write_on():
    sheet = next(s.sheet for s in SAMPLES if s.label == "dwarf-king-blank")
    page = sheets.render_text(sheet)
    assert "Date: ____" in page and "Place: ____" in page and "Start player: ____" in page
    assert "_" * 18 in page and "Special card" in page and "Extra" in page


def test_text_chart_has_a_scale_round_labels_and_a_legend():
    sheet = next(s.sheet for s in SAMPLES if s.label == "dwarf-king-five-player-tie")
    lines = text.chart(sheet)
    assert lines[0] == "Running totals after each hand"
    assert any(re.match(r"\s*-20 \u2524", line) for line in lines)  # a labelled tick
    assert any(re.match(r"\s*0 \u253c", line) for line in lines)  # the zero line
    assert re.search(r"1\s+2\s+3\s+4\s+5\s+6\s+7\s+8\s+hand", "\n".join(lines))
    legend = "\n".join(lines[-2:])
    for mark, name in zip("ABCDE", LONG_NAMES):
        assert f"{mark} {name} (" in legend


def test_text_chart_marks_crowded_points_and_keeps_the_latest_rounds_when_narrow():
    rounds = tuple(Round(f"Round {n}", tuple((p, 0) for p in "PQRSTU")) for n in range(1, 41))
    rows = tuple(Row(p, None, (), 0, 1) for p in "PQRSTU")
    sheet = Scoresheet("g", "T", True, "", (), rows, rounds=rounds)
    lines = text.chart(sheet, 50)
    assert "(the last" in lines[0] and lines[-1].endswith("* several players")
    assert max(len(line) for line in lines) <= 50


def test_chart_scale_and_letters():
    assert scoresheet.nice_ticks([-17, 9]) == [-20, -15, -10, -5, 0, 5, 10]
    assert scoresheet.nice_ticks([0]) == [0, 1]
    assert scoresheet.nice_ticks([0.2, 0.7]) == [0, 0.2, 0.4, 0.6, 0.8]
    assert chart.letters(["Ann", "Ben"]) == ["A", "B"]
    assert chart.letters(["Ann", "Abe", "Ben"]) == ["A", "B", "C"]
    assert len({chart.style(i) for i in range(5)}) == 5


# --------------------------------------------------------------------------------------------
# HTML


def _tbody(page: str, table: str) -> str:
    found = re.search(rf'<table class="{table}[^"]*">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert found, table
    return found.group(1)


@pytest.mark.parametrize("sample", SAMPLES, ids=ids)
def test_html_page_rules_and_one_row_per_player(sample):
    page = sheets.render_html(sample.sheet)
    assert "@page { size: A4 portrait;" in page
    assert "break-inside: avoid" in page and "page-break-inside: avoid" in page
    assert _tbody(page, "scores").count("<tr") == len(sample.sheet.rows)
    for name in sample.sheet.players:
        assert f'<td class="name">{name}</td>' in page
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "<script" not in page
    # every page ends with lines for notes (they fill what the page has left: a flex box in
    # print) and a line for each player to sign, named on a played sheet
    assert page.count('<div class="ruled">Notes</div>') == 1
    signatures = page.split('<div class="signatures">', 1)[1].split("</div>\n", 1)[0]
    signers = sample.sheet.rows if sample.sheet.blank else sample.sheet.players
    assert signatures.count("<span></span>") == len(signers)
    for name in sample.sheet.players:
        assert f"<span></span>{name}</div>" in signatures
    if sample.sheet.blank:
        assert signatures.count("<span></span>Signature</div>") == len(signers)
    if sample.sheet.blank:
        assert '<body class="blank">' in page and page.count('<span class="line">') == 4
        assert '<figure class="qr">' not in page
    else:
        assert '<dl class="facts">' in page and "<dt>Date</dt><dd>2026-11-21 19:00</dd>" in page
        assert "<dt>Place</dt>" in page and "<dt>Start player</dt>" in page
        assert page.count('<figure class="qr"><svg') == 1


def test_letter_paper_is_explicit_too():
    sheet = SAMPLES[0].sheet
    assert "@page { size: letter portrait;" in sheets.render_html(sheet, "letter")


def test_an_own_page_story_follows_the_signatures_and_only_the_html_moves_it():
    """Kingmaker's 'What happened' is a story of its own page: in HTML it comes after the
    notes and signatures, in a section that starts a page; text, Markdown and JSON are the
    same as for a table that is not one."""
    from referee.evolve import evolve

    (sample,) = [s for s in SAMPLES if s.label == "kingmaker-six-player-time-limit"]
    (story,) = [s for s in sample.sheet.sections if s.title == "What happened"]
    assert story.own_page
    assert not any(s.own_page for s in SAMPLES[0].sheet.sections)  # others: the default
    page = sheets.render_html(sample.sheet)
    assert "section.story { break-before: page;" in page
    end = page.index('<section class="end">')
    assert page.index('<section class="story">\n<h2>What happened</h2>') > end
    assert page.count("<h2>What happened</h2>") == 1
    assert page.index("<h2>Factions at the end</h2>") < end  # the others stay on page 1
    inline = evolve(sample.sheet, sections=tuple(evolve(s, own_page=False)
                                                 for s in sample.sheet.sections))
    assert '<section class="story">' not in sheets.render_html(inline)
    for fmt in ("text", "markdown", "json"):
        assert sheets.render(sample.sheet, fmt) == sheets.render(inline, fmt), fmt


def test_a_story_that_fits_page_1_stays_in_its_place_and_a_long_one_starts_a_page():
    """Every played Kingmaker sheet used to print on two pages: the story now starts a page of
    its own only when the sheet with it would not fit one (estimated from its rows and texts,
    with a margin: tools/print_check.py and test_print check it in a browser)."""
    from referee.evolve import evolve
    from referee.sheets import fit
    from referee.sheets.html import stories_apart

    (short,) = [s.sheet for s in SAMPLES if s.label == "kingmaker-three-player-two-parliaments"]
    (long,) = [s.sheet for s in SAMPLES if s.label == "kingmaker-six-player-time-limit"]
    assert fit.page_mm(short) < fit.PAGE_MM - fit.SPARE_MM < fit.page_mm(long)
    assert not stories_apart(short) and stories_apart(long)
    page = sheets.render_html(short)
    assert '<section class="story">' not in page and page.count("<h2>What happened</h2>") == 1
    assert page.index("<h2>Factions at the end</h2>") < page.index("<h2>What happened</h2>") \
        < page.index('<section class="explanation">') < page.index('<section class="end">')
    (story,) = [s for s in short.sections if s.own_page]
    longer = evolve(short, sections=(evolve(story, rows=story.rows * 6),))
    assert stories_apart(longer)  # the same game with six times the story: a page of its own
    assert '<section class="story">\n<h2>What happened</h2>' in sheets.render_html(longer)
    assert not stories_apart(evolve(long, sections=()))  # no story: nothing to move
    odd = (scoresheet.Section("No columns", (), ()), scoresheet.Section("Short", ("A", "B"),
                                                                       (("1",),), own_page=True))
    assert fit.page_mm(evolve(short, sections=odd)) < fit.page_mm(short)  # estimated all the same


@pytest.mark.parametrize("sample", [s for s in SAMPLES if s.label.startswith("dwarf-king")
                                    and "blank" not in s.label], ids=ids)
def test_html_chart_has_axes_round_labels_a_scale_and_a_legend(sample):
    page = sheets.render_html(sample.sheet)
    svg = re.search(r'<svg class="chart".*?</svg>', page, re.S).group(0)
    players = sample.sheet.players
    assert svg.count("<polyline") == len(players)
    assert svg.count('<g class="series"') == len(players)
    dashes = re.findall(r'<polyline[^>]*?(?:stroke-dasharray="([^"]*)")?/>', svg)
    colours = re.findall(r'<polyline[^>]*stroke="(#[0-9A-Fa-f]{6})"', svg)
    assert len(set(dashes)) == len(players) and len(set(colours)) == len(players)
    for label in ["start", *[str(n) for n in range(1, len(sample.sheet.rounds) + 1)]]:
        assert f'text-anchor="middle">{label}</text>' in svg
    assert ">Hand</text>" in svg and ">points</text>" in svg
    assert re.search(r'text-anchor="end">-?\d+</text>', svg)  # the scale
    for name in players:  # a label at the end of each line
        assert f'<tspan font-weight="bold">{name}</tspan>' in svg
    legend = re.search(r'<ul class="legend">(.*?)</ul>', page, re.S).group(1)
    assert legend.count("<li>") == len(players)
    assert legend.count('<svg class="sample"') == len(players)
    for name in players:
        assert f"<b>{name}</b>" in legend


def test_end_labels_are_spread_apart():
    from referee.sheets.html import LABEL_GAP, _spread

    placed = _spread([50, 50, 51, 200], 10, 210, LABEL_GAP)
    ordered = sorted(placed)
    assert all(b - a >= LABEL_GAP - 1e-9 for a, b in zip(ordered, ordered[1:]))
    placed = _spread([205, 206, 207], 10, 210, LABEL_GAP)
    assert max(placed) <= 210 and min(placed) >= 10


def test_html_tie_notes_and_shared_places():
    sheet = next(s.sheet for s in SAMPLES if s.label == "dwarf-king-five-player-tie")
    page = sheets.render_html(sheet)
    assert '<section class="ties">' in page and "extra hands decided: hand 8" in page
    assert "<td class=\"place\">shared 2nd</td>" in page


# --------------------------------------------------------------------------------------------
# Markdown and JSON


def test_markdown_puts_the_chart_in_a_code_block_and_aligns_numbers():
    sheet = next(s.sheet for s in SAMPLES if s.label == "dwarf-king-five-player-tie")
    md = sheets.render_markdown(sheet)
    assert "\n## Running totals after each hand\n\n```text\n" in md
    code = re.search(r"```text\n(.*?)\n```", md, re.S).group(1)
    outside = md.replace(code, "")
    assert "\u2524" in code and "\u2524" not in outside
    assert "|---------:|" in md or re.search(r"\|-+:\|", md)
    assert "- **Date:** 2026-11-21 19:00" in md and "- **Place:** " in md
    # footer lines are separate paragraphs or list items, never run together
    assert "\n\nTies: " in md and "\n- Alexandrina Louisa, " in md


def test_markdown_fence_outgrows_backticks_in_names():
    rows = (Row("A```b", None, (), 1, 1), Row("C", None, (), 0, 2))
    sheet = Scoresheet("g", "T", True, "o", ("A```b",), rows,
                       rounds=(Round("Round 1", (("A```b", 1), ("C", 0))),))
    md = sheets.render_markdown(sheet)
    assert "````text\n" in md


def test_json_carries_the_occasion_and_a_schema():
    sheet = next(s.sheet for s in SAMPLES if s.label == "kings-ear-4p")
    data = json.loads(sheets.render_json(sheet))
    assert data["schema"] == scoresheet.SCHEMA == "referee-scoresheet/1"
    assert data["date"].startswith("2026-11-21T19:00:00")
    assert isinstance(data["duration_min"], int) and data["duration_min"] > 0
    assert data["start_player"] == LONG_NAMES[0] and data["place"].startswith("The Old")
    assert data["highest_wins"] is True and data["no_points"] is False
    blank = json.loads(sheets.render_json(SAMPLES[0].sheet))
    assert blank["date"] is None and blank["duration_min"] is None


def test_occasion_minutes():
    start = dt.datetime(2026, 1, 1, 19, 0, tzinfo=dt.timezone.utc)
    assert Occasion(start, start + dt.timedelta(minutes=85, seconds=40)).minutes == 86
    assert Occasion(start, None).minutes is None
    assert Occasion(start, dt.datetime(2026, 1, 1, 20, 0)).minutes is None  # naive vs aware
    assert scoresheet.duration_text(86) == "1 h 26 min" and scoresheet.duration_text(9) == "9 min"


# --------------------------------------------------------------------------------------------
# Ties in words, with the values


def test_tie_notes_say_what_decided_with_the_values():
    keys = {"Ann": (61, 34), "Ben": (58, 30), "Cat": (61, 35)}
    assert tie_notes(keys, ("total", "influence")) == (
        "Ann and Cat tied on total (61); influence decided: Cat 35, Ann 34.",)


def test_tie_notes_for_shared_places_and_partly_broken_ties():
    assert tie_notes({"Ann": (5, 5), "Ben": (5, 5)}, ("total", "influence")) == (
        "Ann and Ben tied on total (5) and influence (5): they share 1st place.",)
    notes = tie_notes({"A": (9, 3, 1), "B": (9, 2, 1), "C": (9, 2, 1), "D": (1, 0, 0)},
                      ("total", "influence", "gold"))
    assert notes == ("A, B and C tied on total (9); influence decided: A 3, B 2, C 2.",
                     "B and C were also level on influence (2) and gold (1): they share "
                     "2nd place.")
    assert tie_notes({"A": (1,), "B": (2,)}, ("total",)) == ()


def test_games_state_their_tie_breaks_with_values():
    by_label = {s.label: s.sheet for s in SAMPLES}
    dk = by_label["dwarf-king-five-player-tie"]
    assert dk.tie_notes[0].startswith("Alexandrina Louisa, Clementine Osborne and Dashiell "
                                      "Hammerson were tied for first with 6 after seven hands")
    assert "hand 8: Alexandrina Louisa +3, Clementine Osborne +3, Dashiell Hammerson +6" \
        in dk.tie_notes[0]
    assert "they share 2nd place" in dk.tie_notes[1]
    ke = by_label["kings-ear-four-player-win"]
    assert any("best net (5); the sum of the four nets decided" in n for n in ke.tie_notes)


def test_result_column_says_the_place_of_everyone():
    dk = next(s.sheet for s in SAMPLES if s.label == "dwarf-king-five-player-tie")
    results = [scoresheet.result_text(dk, row) for row in dk.rows]
    assert results == ["shared 2nd", "4th", "shared 2nd", "winner", "5th"]
    rows = (Row("A", None, (), 3, 1), Row("B", None, (), 1, 2))
    running = Scoresheet("g", "T", False, "", (), rows)
    assert [scoresheet.result_text(running, r) for r in rows] == ["1st so far", "2nd so far"]


def test_a_name_longer_than_any_real_one_may_wrap_rather_than_overflow():
    rows = (Row("A" * 60, None, (("x", 1),), 1, 1), Row("Ann", None, (("x", 0),), 0, 2))
    page = sheets.render_html(Scoresheet("g", "T", True, "o", (), rows))
    assert f'<td class="name long">{"A" * 60}</td>' in page
    assert '<td class="name">Ann</td>' in page and "td.long { white-space: normal;" in page


@pytest.mark.parametrize("sample", [s for s in SAMPLES if s.sheet.rounds and not s.sheet.blank],
                         ids=ids)
def test_running_totals_end_at_the_totals(sample):
    sheet = sample.sheet
    totals = {row.name: row.total for row in sheet.rows if row.name is not None}  # players
    assert {name: values[-1] for name, values in scoresheet.running_totals(sheet)} == totals


def test_king_of_the_valley_charts_every_round_but_has_no_round_table():
    sheet = next(s.sheet for s in SAMPLES if s.label == "king-of-the-valley-two-player")
    assert len(sheet.rounds) == 21 and not sheet.round_table
    page = sheets.render_text(sheet)
    assert "Running totals after each round" in page and "\nRounds\n" not in page
    assert "<h2>Rounds</h2>" not in sheets.render_html(sheet)


def test_plain_ascii_spells_out_accents_and_signs():
    from referee.sheets.text import ascii_text

    assert ascii_text("Zoë Ørsted") == "Zoe Orsted"
    assert ascii_text("the victory of §10 · 4×") == "the victory of s.10 - 4x"
    assert ascii_text("王") == "?"
