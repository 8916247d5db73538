"""`referee export`: BG Stats' push-a-play JSON and link, a BoardGameGeek play record, and the
scoresheet's place, paper and width options, through the real entry point.

The BG Stats fields and their types are those of ../shared/formats/bgstats.md (the app's support
page, restated)."""

from __future__ import annotations

import json
import shutil
from urllib.parse import quote, unquote

from tests.conftest import GOLDEN

# field -> type, as documented for BG Stats' "push a play" JSON
BGSTATS_TOP = {"playDate": str, "durationMin": (int, float), "location": str, "comments": str,
               "board": str, "game": dict, "players": list, "sourceName": str,
               "sourcePlayId": str}
BGSTATS_GAME = {"name": str, "bggId": (int, float), "highestWins": bool, "noPoints": bool,
                "sourceGameId": str}
BGSTATS_PLAYER = {"name": str, "score": (int, float), "rank": (int, float), "winner": bool,
                  "startPlayer": bool, "role": str, "sourcePlayerId": str}


def copy_golden(cli, game: str, name: str) -> None:
    shutil.copy(GOLDEN / game / f"{name}.toml", cli.path / "game.toml")


def check_types(data: dict, documented: dict) -> None:
    for key, value in data.items():
        assert key in documented, f"{key} is not a documented field"
        assert isinstance(value, documented[key]), (key, value)


def test_bgstats_export_has_the_documented_fields_and_values(cli):
    copy_golden(cli, "kings-ear", "four-player-win")
    result = cli("export", "--format", "bgstats")
    assert result.status == 0, result.err
    data = json.loads(result.out)
    check_types(data, BGSTATS_TOP)
    check_types(data["game"], BGSTATS_GAME)
    for player in data["players"]:
        check_types(player, BGSTATS_PLAYER)
    assert data["playDate"] == "2026-11-21 19:00:00"
    assert data["durationMin"] == 49 and data["location"] == "" and data["board"] == ""
    assert data["game"] == {"name": "The King's Ear", "highestWins": True, "noPoints": False,
                            "sourceGameId": "kings-ear"}
    players = {p["name"]: p for p in data["players"]}
    assert list(players) == ["Dora", "Emil", "Finn", "Gwen"]
    assert players["Emil"] == {"name": "Emil", "score": 10, "rank": 1, "winner": True,
                               "startPlayer": False, "role": "Stag", "sourcePlayerId": "Emil"}
    assert players["Dora"]["startPlayer"] and not players["Gwen"]["winner"]
    assert [p["rank"] for p in data["players"]] == [3, 1, 4, 2]
    assert "Emil (Stag) reached 10" in data["comments"]
    assert "Dora and Finn tied on best net (5)" in data["comments"]
    again = json.loads(cli("export").out)
    assert again["sourcePlayId"] == data["sourcePlayId"]  # the same log, the same play


def test_bgstats_link_carries_the_same_play(cli):
    copy_golden(cli, "dwarf-king", "three-player")
    data = json.loads(cli("export").out)
    link = cli("export", "--link").out.strip()
    prefix = "https://app.bgstatsapp.com/createPlay.html?data="
    assert link.startswith(prefix) and "\n" not in link and " " not in link
    assert json.loads(unquote(link[len(prefix):])) == data


def test_place_variant_and_bgg_id(cli):
    assert cli("new", "dwarf-king", "-p", "Ann", "-p", "Ben", "-p", "Cat", "--option",
               "edition=2022", "--option", "place=Ann's kitchen").status == 0
    assert 'place = "Ann\'s kitchen"' in (cli.path / "game.toml").read_text()
    assert cli("play", "special", "Dragon").status == 0
    result = cli("export", "--bgg-id", "22300")
    assert result.status == 0 and "not finished" in result.err
    data = json.loads(result.out)
    assert data["location"] == "Ann's kitchen" and data["board"] == "edition=2022"
    assert data["game"]["bggId"] == 22300
    assert data["comments"].startswith("Not finished: ")
    assert json.loads(cli("export", "--place", "the pub").out)["location"] == "the pub"
    sheet = cli("scoresheet").out
    assert "Place: Ann's kitchen" in sheet
    assert "Place: the pub" in cli("scoresheet", "--place", "the pub").out
    js = json.loads(cli("scoresheet", "-f", "json").out)
    assert js["place"] == "Ann's kitchen" and js["start_player"] == "Ann"


def test_bgg_export_has_the_play_record_fields(cli):
    copy_golden(cli, "king-of-the-valley", "three-player")
    data = json.loads(cli("export", "-f", "bgg", "--bgg-id", "12").out)
    assert data["playdate"] == "2026-11-21" and data["length"] > 0 and data["quantity"] == 1
    assert data["incomplete"] is False and data["objectid"] == 12
    assert data["objectname"] == "King of the Valley"
    players = data["players"]
    assert [p["name"] for p in players] == ["Ann", "Ben", "Cat"]
    assert [p["startposition"] for p in players] == ["1", "2", "3"]
    assert [p["win"] for p in players] == [True, False, False]
    assert [p["score"] for p in players] == ["65", "58", "61"]
    for player in players:
        assert set(player) == {"username", "name", "startposition", "color", "score", "new",
                               "rating", "win"}


def test_export_refuses_what_it_cannot_do(cli):
    assert cli("new", "kings-ear", "-p", "Ann", "-p", "Ben").status == 0
    empty = cli("export")
    assert empty.status == 2 and "nothing to export" in empty.err
    assert cli("play", "draw", "Pig Army 3").status == 0
    assert cli("export", "--format", "xml").status == 2
    assert cli("export", "--format", "bgg", "--link").status == 2
    assert cli("export", "--bgg-id", "0").status == 2
    written = cli("export", "-O", "play.json")
    assert written.status == 0 and "Wrote play.json" in written.err
    assert json.loads((cli.path / "play.json").read_text())["players"][0]["name"] == "Ann"


def test_scoresheet_paper_place_and_width(cli, monkeypatch):
    copy_golden(cli, "dwarf-king", "five-player-tie")
    html = cli("scoresheet", "-f", "html", "--paper", "letter").out
    assert "@page { size: letter portrait;" in html
    assert cli("scoresheet", "-f", "html", "--paper", "a3").status == 2
    monkeypatch.setenv("COLUMNS", "50")
    narrow = cli("scoresheet").out
    assert max(len(line) for line in narrow.splitlines()) <= 50
    assert max(len(line) for line in cli("score").out.splitlines()) <= 50
    monkeypatch.setenv("COLUMNS", "200")
    wide = cli("scoresheet").out
    assert max(len(line) for line in wide.splitlines()) <= 80
    assert cli("scoresheet", "-O", "sheet.txt").status == 0
    assert (cli.path / "sheet.txt").read_text().startswith("The Dwarf King\n")


def test_unknown_option_lists_place_too(cli):
    result = cli("new", "kings-ear", "-p", "Ann", "-p", "Ben", "--option", "venue=x")
    assert result.status == 2 and "place" in result.err


# --------------------------------------------------------------------------------------------
# The QR code of the BG Stats link, and the BoardGameGeek ids


HALF_BLOCKS = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}


def matrix_of_text(text: str) -> list[list[int]]:
    """The modules a terminal QR code shows: each character is two rows of one module."""
    rows: list[list[int]] = []
    for line in text.rstrip("\n").split("\n"):
        pairs = [HALF_BLOCKS[c] for c in line]
        rows += [[top for top, _ in pairs], [low for _, low in pairs]]
    return rows


def modules(link: str) -> list[list[int]]:
    import segno

    code = segno.make(link, error="l", micro=False)
    return [[int(bool(m)) for m in row] for row in code.matrix_iter(border=4)]


def zbar_decode(matrix: list[list[int]], tmp_path) -> str | None:
    """The text a real QR reader (zbarimg, if installed) finds in the modules, drawn 4 pixels
    a module as a PBM picture."""
    if shutil.which("zbarimg") is None:
        return None
    import subprocess

    scale = 4
    lines = [" ".join(str(m) for m in row for _ in range(scale))
             for row in matrix for _ in range(scale)]
    picture = tmp_path / "qr.pbm"
    picture.write_text(f"P1\n{len(matrix[0]) * scale} {len(matrix) * scale}\n"
                       + "\n".join(lines) + "\n")
    found = subprocess.run(["zbarimg", "--quiet", "--raw", "-Sbinary", str(picture)],
                           capture_output=True)
    return found.stdout.decode("utf-8").rstrip("\n")


def test_export_qr_is_the_link_as_a_code_a_reader_decodes(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # wide enough for this code (161 columns)
    copy_golden(cli, "dwarf-king", "five-player-tie")
    link = cli("export", "--link").out.strip()
    result = cli("export", "--qr")
    assert result.status == 0, result.err
    shown = matrix_of_text(result.out)
    expected = modules(link)
    assert shown[:len(expected)] == expected  # the last text line may carry one blank row
    assert all(m == 0 for row in shown[len(expected):] for m in row)
    assert set(result.out) <= set(HALF_BLOCKS) | {"\n"}
    decoded = zbar_decode(shown, tmp_path)
    assert decoded in (None, link)  # None: no reader installed; segno's matrix was compared
    assert cli("export", "--qr", "-f", "bgg").status == 2


def test_the_html_sheet_embeds_the_same_code():
    from referee import export
    from referee.engine import load_game
    from referee.sheets import render_html
    from referee.session import load

    sheet = load(GOLDEN / "king-of-the-castle" / "three-player.toml").score()
    page = render_html(sheet)
    link = export.play_link(sheet)
    assert page.count(export.qr_svg(link)) == 1
    assert modules(link) == [[int(bool(m)) for m in row]
                             for row in export.qr_code(link).matrix_iter(border=4)]
    assert '<figure class="qr">' not in render_html(load_game("kings-ear").blank_scoresheet())


def test_bgg_ids_per_game_come_from_the_table_of_documented_ids(cli):
    from referee import export
    from referee.engine import available_game_ids

    assert set(export.BGG_IDS) == set(available_game_ids())
    # None is documented for our games (../shared/formats/bgstats.md): no id unless given
    for game_id, known in export.BGG_IDS.items():
        assert known is None, game_id
        assert export.bgg_id(game_id) is None and export.bgg_id(game_id, 7) == 7
    copy_golden(cli, "kings-ear", "four-player-win")
    assert json.loads(cli("export", "-f", "bgg").out)["objectid"] is None
    assert "bggId" not in json.loads(cli("export").out)["game"]
    assert json.loads(cli("export", "-f", "bgg", "--bgg-id", "5").out)["objectid"] == 5


def test_a_documented_id_is_carried_by_default(monkeypatch):
    from referee import export
    from referee.session import load

    monkeypatch.setitem(export.BGG_IDS, "kings-ear", 4242)
    sheet = load(GOLDEN / "kings-ear" / "four-player-win.toml").score()
    assert export.bgg(sheet)["objectid"] == 4242 and export.bgg(sheet, 9)["objectid"] == 9
    assert export.bgstats(sheet)["game"]["bggId"] == 4242


def test_a_move_does_not_import_the_qr_library(cli):
    """segno is imported only to draw a code: `play` and `scoresheet` (text) never load it."""
    import subprocess
    import sys

    assert cli("new", "kings-ear", "-p", "Ann", "-p", "Ben").status == 0
    probe = ("import sys\nfrom referee.cli import main\n"
             "for args in (['play', 'draw', 'Pig Army 3'], ['scoresheet']):\n"
             "    try:\n        main(args)\n    except SystemExit:\n        pass\n"
             "print('segno' in sys.modules, file=sys.stderr)\n")
    found = subprocess.run([sys.executable, "-c", probe], cwd=cli.path, capture_output=True,
                           text=True)
    assert found.stderr.strip().splitlines()[-1] == "False", found.stderr
    assert "Pig Army 3" in (cli.path / "game.toml").read_text()


def svg_matrix(svg: str) -> list[list[int]]:
    """The modules of segno's inline SVG: its dark path is runs (`h`) on rows, moved between
    with `M`/`m` (each row's line drawn at its middle, y + 0.5)."""
    import re

    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    path = re.search(r'stroke="#000" d="([^"]+)"', svg).group(1)
    matrix = [[0] * size for _ in range(size)]
    x = y = 0.0
    for op, args in re.findall(r"([MmHh])([-\d. ]+)", path):
        numbers = [float(n) for n in args.split()]
        if op in "Mm":
            x, y = (numbers[0], numbers[1]) if op == "M" else (x + numbers[0], y + numbers[1])
        else:
            end = numbers[0] if op == "H" else x + numbers[0]
            for column in range(int(x), int(end)):
                matrix[int(y)][column] = 1
            x = end
    return matrix


def test_the_html_sheets_code_decodes_to_exactly_the_export_link(cli, tmp_path):
    """The sheet's code and `export --link` are the same link, options (`board`) included: a
    Dwarf King of the 2022 edition, a King of the Castle dealt by hand."""
    import re

    for game, name in (("dwarf-king", "five-player-tie"), ("king-of-the-castle",
                                                            "four-player-hand")):
        copy_golden(cli, game, name)
        link = cli("export", "--link").out.strip()
        assert '%22board%22%3A%22%22' not in link  # the variant is in the link
        page = cli("scoresheet", "-f", "html").out
        svg = re.search(r'<figure class="qr">(<svg.*?</svg>)', page, re.S).group(1)
        matrix = svg_matrix(svg)
        assert matrix == modules(link)
        assert zbar_decode(matrix, tmp_path) in (None, link)
        variant = json.loads(cli("scoresheet", "-f", "json").out)["variant"]
        assert variant and quote(json.dumps({"board": variant})[1:-1].replace(": ", ":"),
                                 safe="") in link  # the JSON sheet has what the code says


def test_a_code_wider_than_the_terminal_is_not_printed(cli, monkeypatch):
    """Every real link needs more than 80 modules: on an 80-column terminal a cut code would
    not scan, so none is printed; the message says how to get one that does."""
    from referee import export

    copy_golden(cli, "kings-ear", "two-player-no-winner")  # the shortest golden link
    link = cli("export", "--link").out.strip()
    width = export.qr_width(link)
    assert width > 80
    monkeypatch.setenv("COLUMNS", "80")
    result = cli("export", "--qr")
    assert result.status == 0 and result.out == ""
    assert f"{width} columns wide" in result.err and "-O play.svg" in result.err
    monkeypatch.setenv("COLUMNS", str(width))
    shown = cli("export", "--qr").out
    assert max(len(line) for line in shown.splitlines()) == width
    assert cli("export", "--qr", "-O", "code.txt").status == 0  # a file has no width
    assert matrix_of_text((cli.path / "code.txt").read_text())[:width] == modules(link)


def test_export_qr_to_a_picture_file(cli, tmp_path):
    copy_golden(cli, "kingmaker", "six-player-time-limit")
    link = cli("export", "--link").out.strip()
    for name in ("play.svg", "play.PNG"):
        result = cli("export", "--qr", "-O", name)
        assert result.status == 0 and f"Wrote {name}" in result.err
    svg = (cli.path / "play.svg").read_text()
    assert svg.startswith("<?xml") and "<svg" in svg
    assert (cli.path / "play.PNG").read_bytes().startswith(b"\x89PNG\r\n")
    if shutil.which("zbarimg"):
        import subprocess

        found = subprocess.run(["zbarimg", "--quiet", "--raw", "-Sbinary",
                                str(cli.path / "play.PNG")], capture_output=True)
        assert found.stdout.decode("utf-8").rstrip("\n") == link
