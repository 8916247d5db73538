"""`referee check`: findings with file, event, line and code; strict; jobs; exit statuses."""

from __future__ import annotations

import json
import shutil

import pytest

from referee.check import Finding, Report, check_file, check_files, exit_status
from tests.conftest import GOLDEN

GOOD = GOLDEN / "kings-ear" / "three-player-win.toml"


def broken_copy(tmp_path, name="bad.toml"):
    """The golden log with event 9 (Ben: place Boar) changed to an illegal 'place Pig'."""
    text = GOOD.read_text()
    head, tail = text.split("seq = 9\n", 1)
    assert 'house = "Boar"' in tail.split("[[events]]")[0]
    path = tmp_path / name
    path.write_text(head + "seq = 9\n" + tail.replace('house = "Boar"', 'house = "Pig"', 1))
    return path


def test_a_golden_log_is_ok():
    report = check_file(GOOD)
    assert report.ok and report.finished and report.game == "kings-ear" and report.events == 92
    assert report.exit_status == 0


def test_every_illegal_event_is_found_with_its_line(tmp_path):
    path = broken_copy(tmp_path)
    report = check_file(path)
    assert not report.ok and report.exit_status == 1
    [finding] = report.findings
    assert (finding.event, finding.code, finding.rule) == (9, "place-own-house", "Turn (1b)")
    assert "83 later event(s) not checked" in finding.message
    lines = path.read_text().splitlines()
    assert lines[finding.line - 1] == "[[events]]" and lines[finding.line] == "seq = 9"


def test_strict_stops_after_the_first_log_with_a_finding(tmp_path):
    path = broken_copy(tmp_path)
    assert len(check_files([path, GOOD], strict=True)) == 1
    assert len(check_files([path, GOOD])) == 2


def test_malformed_and_missing_logs(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("format = 1\n")
    report = check_file(bad)
    assert report.findings[0].kind == "log" and report.exit_status == 65
    missing = check_file(tmp_path / "none.toml")
    assert missing.findings[0].kind == "missing" and missing.exit_status == 66
    assert exit_status([check_file(GOOD), report, missing]) == 66
    assert exit_status([check_file(GOOD), report]) == 65
    assert exit_status([]) == 0


def test_players_that_do_not_fit_the_game_are_a_malformed_log(tmp_path):
    path = tmp_path / "g.toml"
    path.write_text(GOOD.read_text().replace('house = "Pig"', 'house = "Horse"'))
    report = check_file(path)
    assert report.findings[0].code == "bad-players" and report.exit_status == 65


def test_jobs_spread_files_and_keep_their_order(tmp_path):
    files = []
    for index in range(6):
        target = tmp_path / f"g{index}.toml"
        shutil.copyfile(GOOD, target)
        files.append(target)
    files.append(broken_copy(tmp_path, "zbad.toml"))
    reports = check_files(files, jobs=2)
    assert [r.file for r in reports] == [str(f) for f in files]
    assert [r.ok for r in reports] == [True] * 6 + [False]


def test_cli_check_text_json_and_exit_status(cli, tmp_path):
    path = broken_copy(tmp_path)
    result = cli("check", str(GOOD), str(path))
    assert result.status == 1
    assert f"{GOOD}: ok (kings-ear, 92 events, finished)" in result.out
    assert f"{path}:9:" in result.out and "2 log(s) checked, 1 with findings" in result.err
    data = json.loads(cli("check", str(path), "--json").out)
    assert data[0]["file"] == str(path) and data[0]["ok"] is False
    finding = data[0]["findings"][0]
    assert set(finding) == {"code", "message", "event", "line", "rule", "kind"}
    assert cli("check", str(tmp_path / "missing.toml")).status == 66
    assert cli("check", "--jobs", "2", str(GOOD), str(GOOD)).status == 0


def test_a_notice_is_reported_and_leaves_the_log_ok(monkeypatch, cli):
    """Issue 24 (11): a game's notice (a proven revoke: a player's breach that the log records
    correctly) is reported beside the findings; the log is valid, ok and exit 0."""
    from referee.engine import Notice
    from referee.games.kings_ear import KingsEar

    def notices(self, state):
        return (Notice("revoke", "Ann showed a void", "Follow suit"),) if state.drawn >= 3 else ()

    monkeypatch.setattr(KingsEar, "notices", notices)
    report = check_file(GOOD)
    assert report.ok and report.findings == [] and report.exit_status == 0
    assert [(f.code, f.kind, f.rule) for f in report.notices] == [("revoke", "notice",
                                                                   "Follow suit")]
    shown = cli("check", str(GOOD))
    assert shown.status == 0 and ": ok (" in shown.out
    assert ": notice: revoke [Follow suit]: event " in shown.out
    assert "1 log(s) checked, 0 with findings, 1 notice(s)" in shown.err
    data = json.loads(cli("check", "--json", str(GOOD)).out)[0]
    assert data["ok"] and data["findings"] == [] and data["notices"][0]["code"] == "revoke"


def test_report_dict_shape():
    report = Report("x.toml", ok=False, findings=[Finding("c", "m", 1, 2, "R-1")])
    assert report.as_dict()["findings"][0] == {"code": "c", "message": "m", "event": 1,
                                               "line": 2, "rule": "R-1", "kind": "rule"}


def test_a_folder_stands_for_every_log_below_it(cli, tmp_path):
    (tmp_path / "round-1" / "table-2").mkdir(parents=True)
    shutil.copy(GOOD, tmp_path / "round-1" / "b.toml")
    broken_copy(tmp_path / "round-1" / "table-2")
    (tmp_path / "round-1" / "notes.txt").write_text("not a log")
    result = cli("check", "round-1")
    assert result.status == 1 and "2 log(s) checked, 1 with findings" in result.err
    lines = result.out.splitlines()
    assert lines[0].startswith("round-1/b.toml: ok") and lines[1].startswith("round-1/table-2/")
    (tmp_path / "empty").mkdir()
    empty = cli("check", "empty")
    assert empty.status == 2 and "holds no *.toml file" in empty.err


def test_a_malformed_log_is_named_once_in_its_finding(cli, tmp_path):
    (tmp_path / "bad.toml").write_text('format = "x"\n')
    result = cli("check", "bad.toml")
    assert result.status == 65
    assert result.out.strip() == "bad.toml:-:1: unknown-format: format is 'x', expected " \
                                 "'referee-log/1'"
    missing = cli("check", "gone.toml")
    assert missing.out.strip() == "gone.toml:-:-: log-missing: no such log"


@pytest.mark.parametrize("text, said", [
    ("", "nothing in it: a referee log starts with format = \"referee-log/1\""),
    ("# only a comment\n", "nothing in it"),
    ('game = "kings-ear"\n', "format is missing, expected 'referee-log/1'"),
    ("format = 1.5\n", "format is 1.5, expected"),
    ("format = [1]\n", "format is a list, expected"),
    ("format = {a = 1}\n", "format is a table, expected"),
    ("format = 1979-05-27\n", "format is a date, expected"),
    ('format = "referee-log/1"\ngame = 3\n', "game is 3; it must be text"),
    ('format = "referee-log/1"\ngame = "x"\nreferee = "1"\n', "created is missing; it must be "
                                                              "a date-time"),
])
def test_a_header_problem_is_said_in_plain_words(cli, tmp_path, text, said):
    """Issue 24 (11): an empty file was "format is NoneType"; no message names a Python type."""
    (tmp_path / "bad.toml").write_text(text)
    result = cli("check", "bad.toml")
    assert result.status == 65 and said in result.out, result.out
    for python_word in ("NoneType", "str", "dict", "list'", "datetime", "float", "int"):
        assert python_word not in result.out.replace("must be text", "")


def test_a_field_of_the_wrong_kind_is_said_in_plain_words(cli, tmp_path):
    text = GOOD.read_text()
    start = text.index('card = "', text.index("[[events]]"))
    (tmp_path / "bad.toml").write_text(text[:start] + "card = 7" + text[text.index("\n", start):])
    result = cli("check", "bad.toml")
    assert result.status == 65 and "draw.card must be text" in result.out, result.out


def test_a_log_read_without_lines_finds_each_line_when_asked():
    """`check` reads without lines and asks only for a finding's: the same lines as a full read."""
    from referee import log as logfile

    for path in sorted(GOLDEN.glob("*/*.toml")):
        eager, lazy = logfile.read(path), logfile.read(path, lines=False)
        assert {e.line for e in lazy.entries} == {None}
        assert [lazy.event_line(e) for e in lazy.entries] == [e.line for e in eager.entries]
        assert all(line is not None for line in (e.line for e in eager.entries))


def test_a_malformed_event_and_a_wrong_field_are_placed_on_their_lines(tmp_path):
    text = GOOD.read_text()
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line == "seq = 9") + 1  # 1-based
    bad_value = tmp_path / "value.toml"  # not a flat value: the log's own reading refuses it
    bad_value.write_text(text.replace("seq = 9\n", "seq = 9\nextra = { a = 1 }\n", 1))
    unknown = tmp_path / "field.toml"  # no such field of the event type: the replay refuses it
    unknown.write_text(text.replace("seq = 9\n", "seq = 9\nextra = 1\n", 1))
    for path, code in ((bad_value, "bad-field"), (unknown, "unknown-field")):
        [finding] = check_file(path).findings
        assert finding.code == code and finding.event == 9
        assert finding.line == header + 1, (path.name, finding.line, header)  # `extra = ...`
