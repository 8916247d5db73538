"""Plays that travel: a finished or stopped game as the apps players already use want it.

- `bgstats`: BG Stats' "push a play" JSON (../shared/formats/bgstats.md, from the app's support
  page), and `bgstats_link`, the createPlay link that opens it in the app on a phone.
- `bgg`: the fields of a BoardGameGeek play record (date, length, location, quantity, incomplete,
  comments, the game, and each player's name, start position, colour, score and win), named as
  BoardGameGeek names them in its play records.

Both are built from the scoresheet (with its occasion: date, duration, place, start player), so
they say what the sheet says.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from urllib.parse import quote

from referee import __version__
from referee.scoresheet import Scoresheet, number

BGSTATS_LINK = "https://app.bgstatsapp.com/createPlay.html?data="

# Each game's BoardGameGeek id, where it is a documented fact (the comment cites where), else
# None: then the records carry none unless the table gives one (`--bgg-id`). An id from memory
# would send plays to the wrong game, silently; an absent one only leaves the match to the user.
BGG_IDS: dict[str, int | None] = {
    "kings-ear": None,  # not documented: ../shared/formats/bgstats.md ("We know no BGG ids")
    "king-of-the-valley": None,  # likewise
    "dwarf-king": None,  # likewise
    "king-of-the-castle": None,  # likewise
    "kingmaker": None,  # likewise
}
SOURCE_NAME = "referee"
FORMATS = ("bgstats", "bgg")


def play_id(sheet: Scoresheet) -> str:
    """A stable id for the play (the same log always gives the same id), so that an app can
    recognise a play it has already imported."""
    started = sheet.occasion.started.isoformat() if sheet.occasion.started else ""
    key = "\n".join([sheet.game, started, *sheet.players])
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]


def comments(sheet: Scoresheet) -> str:
    lines = [sheet.outcome if sheet.finished else f"Not finished: {sheet.outcome}"]
    lines += list(sheet.tie_notes)
    lines.append(f"Recorded with referee {__version__}.")
    return "\n".join(lines)


def _score(value: Any) -> int | float:
    if value is None:
        return 0
    return int(value) if isinstance(value, float) and value.is_integer() else value


def bgstats(sheet: Scoresheet, given_id: int | None = None) -> dict[str, Any]:
    """The play in BG Stats' documented "push a play" format (`board`: the game's options that
    differ from their defaults)."""
    occ = sheet.occasion
    game: dict[str, Any] = {"name": sheet.title, "highestWins": sheet.highest_wins,
                            "noPoints": sheet.no_points, "sourceGameId": sheet.game}
    known = bgg_id(sheet.game, given_id)
    if known:
        game["bggId"] = known
    data: dict[str, Any] = {"sourceName": SOURCE_NAME, "sourcePlayId": play_id(sheet)}
    if occ.started is not None:
        data["playDate"] = occ.started.strftime("%Y-%m-%d %H:%M:%S")
    if occ.minutes is not None:
        data["durationMin"] = occ.minutes
    data.update({"location": occ.place, "comments": comments(sheet),
                 "board": occ.variant,
                 "game": game, "players": []})
    for row in sheet.rows:
        if row.name is None:
            continue
        player: dict[str, Any] = {
            "name": row.name, "score": _score(row.total), "winner": row.name in sheet.winners,
            "startPlayer": row.name == occ.start_player, "role": row.seat or "",
            "sourcePlayerId": row.name}
        if row.place is not None:
            player["rank"] = row.place
        data["players"].append(player)
    return data


def bgg_id(game: str, given: int | None = None) -> int | None:
    """The BoardGameGeek id a record carries: the one the table gave, else the documented one."""
    return given if given is not None else BGG_IDS.get(game)


def bgstats_link(data: dict[str, Any]) -> str:
    """The createPlay link carrying `data` (URL-encoded compact JSON)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return BGSTATS_LINK + quote(text, safe="")


def play_link(sheet: Scoresheet, given_id: int | None = None) -> str:
    """The play's createPlay link: the one `export --link` prints and the sheet's QR code
    carries."""
    return bgstats_link(bgstats(sheet, given_id))


def bgg(sheet: Scoresheet, given_id: int | None = None) -> dict[str, Any]:
    """The fields of a BoardGameGeek play record. `objectid` is the game's BoardGameGeek id:
    the table's (`--bgg-id`), else the documented one (BGG_IDS), else null; `objectname` names
    the game for the reader."""
    occ = sheet.occasion
    names = sheet.players
    first = names.index(occ.start_player) if occ.start_player in names else 0
    players = []
    for row in sheet.rows:
        if row.name is None:
            continue
        position = (names.index(row.name) - first) % len(names) + 1
        players.append({"username": "", "name": row.name, "startposition": str(position),
                        "color": row.seat or "",
                        "score": "" if sheet.no_points else number(_score(row.total)),
                        "new": False, "rating": 0, "win": row.name in sheet.winners})
    return {
        "playdate": occ.started.strftime("%Y-%m-%d") if occ.started else None,
        "length": occ.minutes or 0,
        "location": occ.place,
        "quantity": 1,
        "incomplete": not sheet.finished,
        "nowinstats": not sheet.finished,
        "comments": comments(sheet),
        "objecttype": "thing",
        "objectid": bgg_id(sheet.game, given_id),
        "objectname": sheet.title,
        "players": players,
    }


# --------------------------------------------------------------------------------------------
# The link as a QR code, for a phone's camera. segno is imported only here: no other command
# pays for it.

QUIET_ZONE = 4  # the light border, in modules, that readers need around a code


def qr_code(link: str) -> Any:
    """The link as a segno QR code: byte mode, the lowest error correction (L), so the fewest
    modules (segno raises the correction only where that costs no module more)."""
    import segno

    return segno.make(link, error="l", micro=False)


def qr_width(link: str) -> int:
    """How many modules wide the code is with its quiet zone: the columns its text takes."""
    width: int = qr_code(link).symbol_size(border=QUIET_ZONE)[0]
    return width


PICTURES = (".svg", ".png")  # `export --qr -O FILE`: the code as a picture, by the extension


def qr_picture(link: str, kind: str) -> bytes:
    """The code as an SVG or PNG file's bytes (8 pixels a module: a phone reads it on a
    screen as well as printed)."""
    import io

    buffer = io.BytesIO()
    qr_code(link).save(buffer, kind=kind.lstrip("."), scale=8, border=QUIET_ZONE)
    return buffer.getvalue()


def qr_text(link: str) -> str:
    """The code as text for a terminal: two rows of modules per line, in half blocks (a dark
    module is drawn, a light one left blank), with its quiet zone."""
    rows = [list(row) for row in qr_code(link).matrix_iter(border=QUIET_ZONE)]
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))
    glyphs = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}
    return "\n".join("".join(glyphs[bool(top), bool(low)] for top, low in zip(upper, lower))
                     for upper, lower in zip(rows[::2], rows[1::2])) + "\n"


def qr_svg(link: str) -> str:
    """The code as inline SVG (no XML declaration, sized by the page's CSS)."""
    svg: str = qr_code(link).svg_inline(border=QUIET_ZONE, omitsize=True, svgclass="qr",
                                        dark="#000", light="#fff", title="BG Stats link")
    return svg
