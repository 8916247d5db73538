#!/usr/bin/env python3
"""Regenerate every scoresheet file the tests compare byte for byte, after a deliberate change
of the sheets' layout: the blank and example sheets in scoresheets/, the golden games' expected
text sheets (tests/golden/GAME/NAME.scoresheet.txt) and the bundled demos' sheets
(referee/examples/GAME.scoresheet.txt). The logs themselves are left as they are.

    python tools/make_sheets.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee import log as logfile  # noqa: E402
from referee import scoresheet, sheets  # noqa: E402
from referee import session  # noqa: E402
from referee.engine import available_game_ids, load_game  # noqa: E402
from referee.replay import replay_log  # noqa: E402

SUFFIX = {"html": "html", "markdown": "md"}


def write(path: Path, text: str) -> None:
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old != text:
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


def main() -> None:
    for game_id in available_game_ids():
        blank = load_game(game_id).blank_scoresheet()
        example = session.load(ROOT / "referee" / "examples" / f"{game_id}.toml").score()
        for fmt, suffix in SUFFIX.items():
            write(ROOT / "scoresheets" / f"{game_id}-blank.{suffix}", sheets.render(blank, fmt))
            write(ROOT / "scoresheets" / f"{game_id}-example.{suffix}",
                  sheets.render(example, fmt))
    logs = sorted((ROOT / "tests" / "golden").glob("*/*.toml"))
    logs += sorted((ROOT / "referee" / "examples").glob("*.toml"))
    for path in logs:
        log = logfile.read(path)
        state = replay_log(log)[1]
        write(path.with_suffix(".scoresheet.txt"),
              sheets.render_text(load_game(log.game).scoresheet(state)))  # a stop noted


if __name__ == "__main__":
    main()
