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


def bgstats(sheet: Scoresheet, board: str = "", bgg_id: int | None = None) -> dict[str, Any]:
    """The play in BG Stats' documented "push a play" format."""
    occ = sheet.occasion
    game: dict[str, Any] = {"name": sheet.title, "highestWins": sheet.highest_wins,
                            "noPoints": sheet.no_points, "sourceGameId": sheet.game}
    if bgg_id:
        game["bggId"] = bgg_id
    data: dict[str, Any] = {"sourceName": SOURCE_NAME, "sourcePlayId": play_id(sheet)}
    if occ.started is not None:
        data["playDate"] = occ.started.strftime("%Y-%m-%d %H:%M:%S")
    if occ.minutes is not None:
        data["durationMin"] = occ.minutes
    data.update({"location": occ.place, "comments": comments(sheet), "board": board,
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


def bgstats_link(data: dict[str, Any]) -> str:
    """The createPlay link carrying `data` (URL-encoded compact JSON)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return BGSTATS_LINK + quote(text, safe="")


def bgg(sheet: Scoresheet, bgg_id: int | None = None) -> dict[str, Any]:
    """The fields of a BoardGameGeek play record. `objectid` is the game's BoardGameGeek id,
    null unless the table gives it (`--bgg-id`); `objectname` names the game for the reader."""
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
        "objectid": bgg_id,
        "objectname": sheet.title,
        "players": players,
    }
