"""The Scoresheet model and its renderers (text, Markdown, CSV, JSON, printable HTML).

A game builds one `Scoresheet` from its state: rows, categories, rounds, tie-break rules and the
sentences saying how ties were decided. The session adds the `Occasion` (date, place, duration,
start player) from the log. `score`, `scoresheet`, `export` and `check` only render it; a new game
supplies data and never layout. The text page and the HTML page live in `referee.sheets`.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any, Mapping, Sequence

from referee.textsafe import clean_line, json_text
from referee.values import value

Number = int | float

SCHEMA = "referee-scoresheet/1"  # the version of `scoresheet --format json`


@value
class Row:
    """One line of the sheet: a player (or a passive seat, `name=None`) and their results.

    (A game imports this module at start-up; the renderers import what they need when they
    run.)"""

    name: str | None
    seat: str | None
    categories: tuple[tuple[str, Number | None], ...]
    total: Number | None
    place: int | None = None
    details: tuple[tuple[str, str], ...] = ()  # shown on the sheet, not part of the score
    result: str = ""  # e.g. "winner", "shared 2nd"; derived from the place when empty


@value
class Round:
    """One round (hand) of a game with rounds: points scored by each player and what happened.

    `details` are named facts of the round (e.g. the quest, the special card, the dealer), shown
    as columns of the rounds table; without them the `caption` is shown as one note."""

    label: str
    points: tuple[tuple[str, Number], ...]
    caption: str = ""
    details: tuple[tuple[str, str], ...] = ()


@value
class Occasion:
    """When, where and by whom a game was started: from the log, not from the game's state."""

    started: dt.datetime | None = None
    ended: dt.datetime | None = None  # the time of the last event
    place: str = ""
    start_player: str | None = None
    variant: str = ""  # the options that differ from their defaults (exports' `board`)

    @property
    def minutes(self) -> int | None:
        if self.started is None or self.ended is None:
            return None
        try:
            seconds = (self.ended - self.started).total_seconds()
        except TypeError:  # a hand-written log may mix local and offset date-times
            return None
        return max(0, round(seconds / 60))


@value
class Section:
    """A further table below the players' (e.g. the points of every position, to check them).

    On a blank sheet its cells are printed as they are: a game leaves empty what is to be filled.
    """

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    # A story (Kingmaker's "What happened") that may outgrow the page: the printed sheet keeps
    # the scores on one page and, when the story would not fit on it too, starts the story on a
    # page of its own. The other forms ignore it.
    own_page: bool = False


@value
class Amendment:
    """A correction made to the log after play, as the sheet lists it (`history --corrections`
    too): event `seq` as the log was numbered when it was made, what it was (`old`) and what it
    became (`new`; an insert has no `old`, a delete no `new`), when, by whom and why. The events
    read as `history` shows them: a sealed or hidden card stays hidden."""

    number: int
    seq: int
    kind: str  # "change", "insert" or "delete"
    old: str | None
    new: str | None
    by: str
    why: str
    at: dt.datetime | None = None

    def sentence(self) -> str:
        """The correction in one sentence: which event, what it was and became, by whom, why."""
        old, new = (f'"{clean_line(t)}"' if t is not None else "" for t in (self.old, self.new))
        what = {"change": f"Event {self.seq} {old} became {new}",
                "insert": f"{new} was put in as event {self.seq}",
                "delete": f"Event {self.seq} {old} was taken out"}[self.kind]
        when = f", {self.at:%Y-%m-%d\u00a0%H:%M}" if self.at is not None else ""  # kept whole
        return f"({self.number}) {what}; by {clean_line(self.by)}{when}; " \
               f"why: {clean_line(self.why)}"

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "seq": self.seq, "kind": self.kind, "old": self.old,
                "new": self.new, "by": self.by, "why": self.why, "at": _iso(self.at)}


@value
class Scoresheet:
    game: str
    title: str
    finished: bool
    outcome: str  # how the game ended, or how it stands
    winners: tuple[str, ...]
    rows: tuple[Row, ...]
    seat_label: str = "Seat"
    total_label: str = "Total"
    tiebreaks: tuple[str, ...] = ()  # the tie-break rules, in order, in words
    rounds: tuple[Round, ...] = ()
    notes: tuple[str, ...] = ()
    blank: bool = False
    tie_notes: tuple[str, ...] = ()  # how the finished game's ties were decided, with values
    round_label: str = "Round"  # what the game calls a round ("Hand")
    highest_wins: bool = True
    no_points: bool = False  # a win/lose game without points
    occasion: Occasion = Occasion()
    round_table: bool = True  # False: the rounds only draw the chart (no per-round scoring)
    chart_label: str = "Running totals"  # what the chart's lines show, round after round
    chart_unit: str = "points"  # the printed chart's vertical axis
    sections: tuple[Section, ...] = ()  # further tables, below the rounds
    # How each total came about, to check it by hand from the sheet alone (the cards under each
    # House, the castles, the tricks of each hand...): tables below the rounds.
    breakdown: tuple[Section, ...] = ()
    # Sentences saying why the winners won (Kingmaker's victory), shown after the breakdown.
    explanation: Sequence[str] = ()
    # The corrections made to the log after play, listed under the notes (the last of which
    # says how many there were).
    corrections: tuple[Amendment, ...] = ()

    @property
    def category_names(self) -> list[str]:
        return [name for name, _ in self.rows[0].categories] if self.rows else []

    @property
    def detail_names(self) -> list[str]:
        return [name for name, _ in self.rows[0].details] if self.rows else []

    @property
    def players(self) -> list[str]:
        return [row.name for row in self.rows if row.name is not None]

    @property
    def round_details(self) -> list[str]:
        names: list[str] = []
        for rnd in self.rounds:
            names += [name for name, _ in rnd.details if name not in names]
        return names

    @property
    def rounds_in_categories(self) -> bool:
        """True when every round's points are already columns of the category table."""
        names = set(self.category_names)
        return bool(self.rounds) and all(r.label in names for r in self.rounds)


def places(keys: Mapping[str, Any]) -> dict[str, int]:
    """Competition ranking (1, 1, 3): a higher key is better; equal keys share the place."""
    order = sorted(keys, key=lambda name: keys[name], reverse=True)
    out: dict[str, int] = {}
    for index, name in enumerate(order):
        if index and keys[name] == keys[order[index - 1]]:
            out[name] = out[order[index - 1]]
        else:
            out[name] = index + 1
    return out


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def and_list(names: Sequence[str]) -> str:
    """'Ann', 'Ann and Ben', 'Ann, Ben and Cat'."""
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def tie_notes(keys: Mapping[str, Sequence[Any]], labels: Sequence[str]) -> tuple[str, ...]:
    """Sentences for every group of players level on the first key (a higher key is better):
    which key separated them, with each player's value, or that they share a place.

    `labels` name the keys in words, e.g. ("total", "influence")."""
    ranked = places({name: tuple(key) for name, key in keys.items()})
    out: list[str] = []

    def explain(names: list[str], level: int, said: str) -> None:
        for index in range(level, len(labels)):
            values = {n: keys[n][index] for n in names}
            if len(set(values.values())) > 1:
                order = sorted(names, key=lambda n: (ranked[n], names.index(n)))
                shown = ", ".join(f"{n} {number(values[n])}" for n in order)
                out.append(f"{said}; {labels[index]} decided: {shown}.")
                groups: dict[Any, list[str]] = {}
                for n in order:
                    groups.setdefault(values[n], []).append(n)
                for value, group in groups.items():
                    if len(group) > 1:
                        explain(group, index + 1, f"{and_list(group)} were also level on "
                                                  f"{labels[index]} ({number(value)})")
                return
            said += f" and {labels[index]} ({number(values[names[0]])})"
        out.append(f"{said}: they share {ordinal(ranked[names[0]])} place.")

    by_first: dict[Any, list[str]] = {}
    for name in keys:  # seat order within a group; the groups best first
        by_first.setdefault(keys[name][0], []).append(name)
    for value, names in sorted(by_first.items(), key=lambda item: ranked[item[1][0]]):
        if len(names) > 1:
            explain(names, 1, f"{and_list(names)} tied on {labels[0]} ({number(value)})")
    return tuple(out)


# --------------------------------------------------------------------------------------------
# What every renderer shows


def _cell(value: Any, blank: bool) -> str:
    if blank or value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return clean_line(value)


def _table(sheet: Scoresheet) -> tuple[list[str], list[list[str]]]:
    """The data table (CSV): every column, place and result apart."""
    headers = ["Player", sheet.seat_label, *sheet.category_names, *sheet.detail_names,
               sheet.total_label, "Place", "Result"]
    body = []
    for row in sheet.rows:
        body.append([
            clean_line(row.name) if row.name is not None else ("" if sheet.blank else "-"),
            clean_line(row.seat or ""),
            *(_cell(v, sheet.blank) for _, v in row.categories),
            *(_cell(v, sheet.blank) for _, v in row.details),
            _cell(row.total, sheet.blank),
            _cell(row.place, sheet.blank),
            _cell(row.result, sheet.blank),
        ])
    if not any(row.seat for row in sheet.rows):
        headers.pop(1)
        for line in body:
            line.pop(1)
    return headers, body


def result_text(sheet: Scoresheet, row: Row) -> str:
    """The row's standing in words: the game's own result, else derived from the place."""
    if sheet.blank:
        return ""
    if row.result:
        return row.result
    if row.place is None:
        return ""
    shared = sum(1 for r in sheet.rows if r.name is not None and r.place == row.place) > 1
    if row.name in sheet.winners and not shared:
        return "winner"
    text = ("shared " if shared else "") + ordinal(row.place)
    return text if sheet.finished else text + " so far"


def stopped(sheet: Scoresheet, reason: str,
            resumes: str = "`referee undo` resumes the game") -> Scoresheet:
    """The sheet of a game the table stopped (`end REASON`): as it stood, with no winner, and
    incomplete in every format: the outcome, each player's result (CSV too), a note saying how
    the game `resumes`, and `finished` false (JSON, exports)."""
    from referee.evolve import evolve

    standing = evolve(sheet, finished=False, winners=())

    def result(row: Row) -> str:
        text = result_text(standing, row).removesuffix(" so far")
        return f"{text} so far" if text else ""

    rows = tuple(row if row.name is None else evolve(row, result=result(row))
                 for row in sheet.rows)
    return evolve(standing, rows=rows, outcome=f"Incomplete: stopped by the table ({reason}); "
                                               "scored as it stood",
                  notes=(*sheet.notes, "The game was stopped before its end: this sheet is "
                                       f"incomplete ({resumes})."))


@value
class Column:
    header: str
    kind: str  # "name" (the player), "num" (right-aligned), "text" or "place" (a short text)


def display_table(sheet: Scoresheet) -> tuple[list[Column], list[list[str]]]:
    """The table people read: numbers apart from words, place and result in one column."""
    seats = any(row.seat for row in sheet.rows)
    columns = [Column("Player", "name")]
    if seats:
        columns.append(Column(sheet.seat_label, "text"))
    columns += [Column(name, "num") for name in sheet.category_names]
    columns += [Column(name, "text") for name in sheet.detail_names]
    columns += [Column(sheet.total_label, "num"), Column("Place", "place")]
    body = []
    for row in sheet.rows:
        name = clean_line(row.name) if row.name is not None else ("" if sheet.blank else "-")
        cells = [name] + ([clean_line(row.seat or "")] if seats else [])
        cells += [_cell(v, sheet.blank) for _, v in row.categories]
        cells += [_cell(v, sheet.blank) for _, v in row.details]
        cells += [_cell(row.total, sheet.blank), clean_line(result_text(sheet, row))]
        body.append(cells)
    return columns, body


def round_table(sheet: Scoresheet) -> tuple[list[Column], list[list[str]]]:
    """One row per round: its label, the points (unless the category table has them already)
    and the round's details (or its caption as a note)."""
    names = [] if sheet.rounds_in_categories else sheet.players
    details = sheet.round_details
    note = not details and any(r.caption for r in sheet.rounds)
    columns = [Column(sheet.round_label, "text")]
    columns += [Column(clean_line(n), "num") for n in names]
    columns += [Column(d, "text") for d in details]
    if note:
        columns.append(Column("Note", "text"))
    body = []
    for rnd in sheet.rounds:
        points, facts = dict(rnd.points), dict(rnd.details)
        cells = [clean_line(rnd.label)]
        cells += [_cell(points.get(n), sheet.blank) for n in names]
        cells += [_cell(facts.get(d), sheet.blank) for d in details]
        if note:
            cells.append(_cell(rnd.caption, sheet.blank))
        body.append(cells)
    return columns, body


def section_table(section: Section) -> tuple[list[Column], list[list[str]]]:
    """A section as a table of text columns, its cells made safe to print."""
    return ([Column(clean_line(h), "text") for h in section.headers],
            [[clean_line(cell) for cell in row] for row in section.rows])


def running_totals(sheet: Scoresheet) -> list[tuple[str, list[Number]]]:
    """Each player's total after each round (no entry for the start, where all are 0)."""
    out = []
    for name in sheet.players:
        total: Number = 0
        series: list[Number] = []
        for rnd in sheet.rounds:
            total += dict(rnd.points).get(name, 0)
            series.append(total)
        out.append((name, series))
    return out


def chart_ticks(sheet: Scoresheet) -> list[Number]:
    """The printed chart's scale: round values covering every running total and 0."""
    return nice_ticks([v for _, values in running_totals(sheet) for v in values], most=5)


def nice_ticks(values: Sequence[Number], most: int = 7) -> list[Number]:
    """Round tick values (steps of 1, 2 or 5 times a power of ten) covering `values` and 0."""
    low, high = min([0, *values]), max([0, *values])
    if low == high:
        high = low + 1
    span = high - low
    exponent = math.floor(math.log10(span / max(1, most - 1)))
    if all(isinstance(v, int) for v in values):
        exponent = max(0, exponent)  # whole points: whole steps
    while True:
        for mantissa in (1, 2, 5):
            step = mantissa * 10.0 ** exponent
            first, last = math.floor(low / step), math.ceil(high / step)
            if last - first <= most - 1:
                return [_tidy(k * step) for k in range(first, last + 1)]
        exponent += 1


def _tidy(value: float) -> Number:
    rounded = round(value, 6)
    return int(rounded) if float(rounded).is_integer() else rounded


def tables_below(sheet: Scoresheet) -> tuple[Section, ...]:
    """The tables below the players' and the rounds': the breakdown first, then the others."""
    return (*sheet.breakdown, *sheet.sections)


def has_chart(sheet: Scoresheet) -> bool:
    return bool(sheet.rounds) and not sheet.blank and bool(sheet.players)


def round_ticks(sheet: Scoresheet) -> list[str]:
    """Short labels for the rounds on a chart's axis: 'Hand 3' -> '3'."""
    prefix = sheet.round_label + " "
    return [clean_line(r.label[len(prefix):] if r.label.startswith(prefix) else r.label)
            for r in sheet.rounds]


def duration_text(minutes: int) -> str:
    hours, mins = divmod(minutes, 60)
    return f"{hours} h {mins:02d} min" if hours else f"{mins} min"


def facts(sheet: Scoresheet) -> list[tuple[str, str]]:
    """The header facts that are known: date, duration, place, start player."""
    occ = sheet.occasion
    out = []
    if occ.started is not None:
        out.append(("Date", occ.started.strftime("%Y-%m-%d %H:%M")))
    if occ.minutes is not None:
        out.append(("Duration", duration_text(occ.minutes)))
    if occ.place:
        out.append(("Place", clean_line(occ.place)))
    if occ.start_player:
        out.append(("Start player", clean_line(occ.start_player)))
    return out


BLANK_FACTS = ("Date", "Place", "Start player", "Duration")


def tie_rule(sheet: Scoresheet) -> str:
    return ("Ties: " + "; then ".join(sheet.tiebreaks) + ".") if sheet.tiebreaks else ""


def chart_title(sheet: Scoresheet) -> str:
    return f"{sheet.chart_label} after each {sheet.round_label.lower()}"


def rounds_title(sheet: Scoresheet) -> str:
    return sheet.round_label + "s"


# --------------------------------------------------------------------------------------------
# Renderers


def render_csv(sheet: Scoresheet) -> str:
    import csv
    import io
    headers, body = _table(sheet)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([_csv_cell(h) for h in headers])
    writer.writerows([_csv_cell(c) for c in row] for row in body)
    return out.getvalue()


_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def _csv_cell(text: str) -> str:
    """A cell a spreadsheet shows as text, never runs as a formula: one that starts with = + - @
    (or a tab or carriage return) and goes on gets a leading apostrophe, unless it is a number
    (a lone `-` is the sheet's own placeholder)."""
    if len(text) > 1 and text[0] in "=+-@\t\r" and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def _iso(moment: dt.datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def as_dict(sheet: Scoresheet) -> dict[str, Any]:
    def player(row: Row) -> dict[str, Any]:
        return {"name": row.name, "seat": row.seat, "place": row.place, "total": row.total,
                "categories": dict(row.categories), "details": dict(row.details),
                "result": row.result}

    occ = sheet.occasion
    return {
        "schema": SCHEMA,
        "game": sheet.game,
        "title": sheet.title,
        "finished": sheet.finished,
        "outcome": sheet.outcome,
        "date": _iso(occ.started),
        "ended": _iso(occ.ended),
        "duration_min": occ.minutes,
        "place": occ.place,
        "start_player": occ.start_player,
        "variant": occ.variant,
        "highest_wins": sheet.highest_wins,
        "no_points": sheet.no_points,
        "winners": list(sheet.winners),
        "players": [player(r) for r in sheet.rows if r.name is not None],
        "others": [player(r) for r in sheet.rows if r.name is None],
        "tiebreaks": list(sheet.tiebreaks),
        "tie_notes": list(sheet.tie_notes),
        "rounds": [{"label": r.label, "points": dict(r.points), "caption": r.caption,
                    "details": dict(r.details)} for r in sheet.rounds],
        "notes": list(sheet.notes),
        "breakdown": [_section_dict(t) for t in sheet.breakdown],
        "explanation": list(sheet.explanation),
        "corrections": [fix.as_dict() for fix in sheet.corrections],
        "sections": [_section_dict(t) for t in sheet.sections],
        "facts": [list(fact) for fact in facts(sheet)],
        "chart": _chart_dict(sheet),
    }


def _section_dict(section: Section) -> dict[str, Any]:
    return {"title": section.title, "headers": list(section.headers),
            "rows": [list(r) for r in section.rows]}


def _chart_dict(sheet: Scoresheet) -> dict[str, Any] | None:
    """What the HTML chart shows: its scale and each player's running totals."""
    if not has_chart(sheet):
        return None
    return {"ticks": chart_ticks(sheet), "rounds": round_ticks(sheet),
            "running_totals": dict(running_totals(sheet))}


def render_json(sheet: Scoresheet) -> str:
    return json_text(as_dict(sheet)) + "\n"
