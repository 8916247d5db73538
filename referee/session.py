"""A game at the table: a log, the state replayed from it, and what the commands ask of them.

`cli.py` calls these and prints; this module never prints. Every change is made under the log's
lock (read, replay, check, write), so two terminals can never lose each other's moves, and a
rejected move never touches the file. The CLI asks a `Table`, never a game, so what a command
shows and what `check` checks come from the same replay.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from referee import __version__, replay
from referee import log as logfile
from referee.engine import (
    Event,
    Game,
    Notice,
    Player,
    ToAct,
    check_and_apply,
    load_game,
    refuse_if_over,
)
from referee.errors import (
    IllegalMove,
    MoveError,
    NeedsForce,
    RefereeError,
    UsageError,
)
from referee.evolve import evolve
from referee.notation import match, prefixed
from referee.textsafe import name_key
from referee.values import value

if TYPE_CHECKING:
    from referee.scoresheet import Amendment, Occasion, Scoresheet


STOPPED_PHASE = "stopped"  # the phase a stopped game is in, for every game (`status --json`)


@value
class Choices:
    """What `referee options` shows: the legal events, as lines, and a note on unlisted moves;
    computed on `view`, the game as whoever asks has seen it."""

    events: list[Event]
    lines: list[str]
    note: str
    game: Game[Any]
    view: Any
    listing: "Listing"

    def texts(self) -> list[str]:
        """Each event as it is typed, in the order of `events` (for `options --json`)."""
        return [self.game.option_text(self.view, event) for event in self.events]


@value
class Listing:
    """The legal events where the game stands, asked of the game once and passed on to what
    lists, streams or counts them: on `view` (the game as the asker has seen it), every one
    (`listed`, those only their player may see too) and those the asker may see (`events`)."""

    view: Any
    listed: list[Event]
    events: list[Event]


@value
class Row:
    """A line of `history`: the log entry, its move in canonical notation, and the game's remark
    on what it decided (often '')."""

    entry: logfile.Entry
    text: str
    remark: str = ""


@value
class Table:
    log: logfile.GameLog
    setup: replay.Setup[Any]
    state: Any

    @property
    def game(self) -> Game[Any]:
        return self.setup.game

    @property
    def players(self) -> tuple[Player, ...]:
        return self.setup.players

    # ---- where the game stands -----------------------------------------------------------
    @property
    def finished(self) -> bool:
        """No more moves: the game reached its end, or the table stopped it."""
        return self.game.over(self.state)

    @property
    def stopped(self) -> str | None:
        """Why the table stopped the game (`end REASON`), else None."""
        return self.game.stopped(self.state)

    @property
    def turn(self) -> ToAct:
        if self.stopped is not None:
            return ToAct((), f"nobody: the table stopped the game ({self.stopped}); "
                             f"{self.game.resumes(self.state)}")
        return self.game.to_act(self.state)

    @property
    def phase(self) -> str:
        return STOPPED_PHASE if self.stopped is not None else self.game.phase(self.state)

    def view(self, player: str | None = None) -> Any:
        """The state as the table has seen it, or as `player` has (their own hand too)."""
        return self.game.view(self.state, player)

    def board(self, player: str | None = None) -> str:
        """The board as text, for the table or for `player`'s eyes only: its last line says
        who acts and what they may do (of a stopped game: that it was stopped)."""
        text = self.game.render(self.view(player))
        if self.stopped is None:
            return text
        board = text.rpartition("\n")[0]  # the last line said who acts
        return f"{board}\nGame over: the table stopped it ({self.stopped}), incomplete; " \
               f"{self.game.resumes(self.state)}"

    def compact_board(self, player: str | None = None) -> str:
        """The board for a shared screen (fits 80x24), for the table or for `player`'s eyes."""
        return self.game.compact(self.view(player))

    def board_data(self, player: str | None = None) -> dict[str, Any]:
        """The board as data (`status --json`), for the table or for `player`'s eyes only."""
        return self.game.board(self.view(player))

    def inventory(self) -> dict[str, int]:
        return self.game.inventory(self.state)

    def score(self, place: str | None = None) -> Scoresheet:
        """The game's scoresheet with the occasion from the log (`place` overrides the log's),
        listing the corrections made to the log after play, if any."""
        sheet = self.game.scoresheet(self.state)
        fixes = self.amendments()
        notes = sheet.notes if not fixes else (
            *sheet.notes, f"Corrected: {len(fixes)} correction(s) made to the log after play "
                          "(as `referee history --corrections` lists them):")
        return evolve(sheet, occasion=self.occasion(place), notes=notes, corrections=fixes)

    def amendments(self) -> tuple[Amendment, ...]:
        """The log's corrections for the sheet, each event as `history` reads it."""
        if not self.log.corrections:
            return ()
        from referee.corrections import trail
        from referee.scoresheet import Amendment

        return tuple(Amendment(line.number, line.correction.seq, line.correction.kind,
                               line.old, line.new, line.correction.by, line.correction.why,
                               line.correction.at) for line in trail(self))

    def occasion(self, place: str | None = None) -> Occasion:
        """When the game started (the log's `created`), its last event, the place, who began."""
        from referee.scoresheet import Occasion

        last = next((e.at for e in reversed(self.log.entries) if e.at is not None), None)
        if place is None:
            place = str(self.setup.options.get("place", ""))
        return Occasion(self.log.created, last, place, self.start_player, self.variant())

    def variant(self) -> str:
        """The game's options that differ from their defaults, as `name=value` (for exports)."""
        defaults = self.game.default_options()

        def shown(value: Any) -> str:
            items = value if isinstance(value, (list, tuple)) else [value]
            return ",".join(str(v) for v in items)

        return ", ".join(f"{name}={shown(value)}" for name, value in self.setup.options.items()
                         if name in defaults and shown(value) != shown(defaults[name]))

    @property
    def start_player(self) -> str | None:
        """Who began (`Game.start_player`)."""
        return self.game.start_player(self.setup.state, self.state,
                                      [p.name for p in self.players])

    def player(self, name: str) -> str:
        """The player a (possibly abbreviated) name means, or UsageError."""
        key = name_key(name)
        same = [p.name for p in self.players if name_key(p.name) == key]
        if same:  # `ann`, `Ann` + a zero-width space: the same person
            return same[0]
        try:
            return match(name, [p.name for p in self.players], "player")
        except MoveError as exc:
            raise UsageError(exc.message) from None

    def listing(self, player: str | None = None, own: bool = False) -> Listing:
        """The legal moves (of `player`, if given) as the table may see them; with `own`, as
        `player` sees them, their own hand included. A move only its player may see
        (`Game.private`) is listed only with `own`."""
        game = self.game
        view = self.view(player if own else None)
        listed = game.legal(view, player)
        return Listing(view, listed, [event for event in listed if not game.private(view, event)
                                      or (own and event.by == player)])

    def choices(self, player: str | None = None, own: bool = False,
                listing: Listing | None = None) -> Choices:
        """The moves of `listing` (by default, `self.listing(player, own)`) as lines."""
        game = self.game
        found = listing or self.listing(player, own)
        view, events = found.view, found.events
        return Choices(events, game.option_lines(view, events),
                       game.legal_note(view, player, found.listed), game, view, found)

    def every_move(self, player: str | None = None, own: bool = False,
                   listing: Listing | None = None) -> Iterator[Event]:
        """Every legal move, lazily, as `choices` lists them (a family `legal` folds, too)."""
        game = self.game
        found = listing or self.listing(player, own)
        view = found.view
        return (event for event in game.every_move(view, player, found.listed)
                if not game.private(view, event) or (own and event.by == player))

    def every_move_text(self, player: str | None = None, own: bool = False,
                        listing: Listing | None = None) -> Iterator[str]:
        """`every_move` as `options --all` prints them, each as it is typed."""
        found = listing or self.listing(player, own)
        return (self.game.option_text(found.view, event)
                for event in self.every_move(player, own, found))

    def completions(self, player: str | None, typed: list[str], incomplete: str) -> list[str]:
        """The words that may come next in a legal move after the words `typed`, starting with
        `incomplete`: read off the table's view (whoever sits at the keyboard reads them), so
        never a hidden card."""
        if self.finished:
            return []
        words = self.game.completions(self.view(), player, typed)
        return [w for w in words if w.casefold().startswith(incomplete.casefold())]

    def count_moves(self, player: str | None = None, own: bool = False,
                    listing: Listing | None = None) -> int:
        """How many moves `choices` and `every_move` list: a move only its player may see is
        not counted for the table either (the count would tell the size of a hidden hand)."""
        found = listing or self.listing(player, own)
        unseen = len(found.listed) - len(found.events)
        return self.game.count_moves(found.view, player, found.listed) - unseen

    def format(self, event: Event) -> str:
        return self.game.format(self.state, event)

    def history(self) -> list[Row]:
        """Every event as the table may read it, formatted in the state it was played in, and
        the game's remark on what it decided; a run of events of a type the game folds
        (Kingmaker's declarations) is one line, under its first event."""
        game = self.game
        rows: list[Row] = []
        run: list[logfile.Entry] = []
        for step in replay.steps(self.setup, self.log.entries, self.log.source, checked=True):
            if step.event.type in game.fold_history and run and \
                    run[-1].event.type == step.event.type:
                run.append(step.entry)
                rows[-1] = Row(run[0], f"{len(run)} x {step.event.type} (events {run[0].seq}-"
                                       f"{step.entry.seq})")
                continue
            run = [step.entry]
            rows.append(Row(step.entry, game.table_text(step.before, step.event),
                            game.remark(step.before, step.event, step.after)))
        return rows


@value
class Known:
    """A table and the exact bytes of the log it was replayed from: what a session holds
    between moves, so that a move replays nothing while the file still holds those bytes."""

    table: Table
    data: bytes


def load(path: Path) -> Table:
    """Read, validate and replay a log (or find it replayed in the cache, referee.cache)."""
    return load_known(path).table


def load_with_bytes(path: Path) -> tuple[Table, bytes]:
    """The table of a log, and the bytes it was read from (a writer holding the lock builds
    its new text from them)."""
    known = load_known(path)
    return known.table, known.data


def load_known(path: Path, known: Known | None = None) -> Known:
    """The log's table and bytes: `known` itself while the file holds exactly its bytes."""
    data = logfile.read_data(path)
    if known is not None and known.data == data:
        return known
    return _replayed(path, data)


class LogChanged(RefereeError):
    """The log no longer holds the bytes a session last read or wrote: another command changed
    it. Nothing was written; `known` is the log as it is now."""

    code = "log-changed"

    def __init__(self, path: Path, known: Known):
        super().__init__(f"{path} was changed by another command since this session last read "
                         f"it (it has {len(known.table.log.entries)} event(s) now): read again, "
                         "and nothing was recorded",
                         hint="type the line again if it still stands")
        self.known = known


def _unchanged(path: Path, known: Known | None) -> Known:
    """The log as it is (under its lock): `known` when it still holds its bytes, else
    LogChanged. With no `known`, the log as read."""
    current = load_known(path, known)
    if known is not None and current is not known:
        raise LogChanged(path, current)
    return current


def _replayed(path: Path, data: bytes) -> Known:
    """The table of the log `path` that holds `data` (from the cache when it has it)."""
    from referee import cache

    kept = cache.lookup(path, data)
    log = logfile.from_data(data, path)  # what is written next is built from the file's bytes
    if kept is not None:
        game_id, (cached, players, options, seed, start, state) = kept
        if game_id == log.game and cached == log:  # the entry's game was replayed from this log
            setup = replay.Setup(load_game(game_id), players, options, seed, start)
            return Known(Table(log, setup, state), data)
    setup, state = replay.replay_log(log)
    table = Table(log, setup, state)
    remember(path, data, table)
    return Known(table, data)


def remember(path: Path, data: bytes, table: Table) -> None:
    """Keep `table`, just written as `data`, in the cache of replayed logs."""
    from referee import cache

    setup = table.setup
    cache.store(path, data, setup.game.id, (table.log, setup.players, setup.options, setup.seed,
                                            setup.state, table.state))


def new_game(path: Path, game_id: str, players: list[Player], options: Mapping[str, Any],
             seed: int | None, components: tuple[str, str] | None = None) -> Table:
    """Start a log; `components` is a components file as (name, text) for games that take one.
    The game's opening events (e.g. Kingmaker's declarations) are checked like any move."""
    game = load_game(game_id)
    options, head = game.opening(options, components)
    setup = replay.from_table(game, players, options, seed)
    created = logfile.now()
    log = logfile.GameLog(game=game.id, players=setup.players, options=setup.options,
                          created=created, referee=__version__, seed=seed,
                          seat_field=game.seat_field, path=path, source=str(path))
    state = setup.state
    for event in head:
        state = check_and_apply(game, state, event, setup.players, created)
        log = log.appended(event, at=created)
    logfile.write_atomic(path, logfile.dumps(log), exclusive=True)
    return Table(log, setup, state)


# --------------------------------------------------------------------------------------------
# Playing a move


@value
class Played:
    before: Table
    after: Table
    event: Event
    lines: list[str]  # what the move changed, in plain words
    notices: tuple[Notice, ...]  # new ones this move brought to light
    receipt: str | None = None  # a sealed secret's receipt, shown once to its player
    drawn: str | None = None  # a sealed secret the tool drew, shown once to its player
    written: bytes = b""  # the log's bytes as this move left them
    typed: str | None = None  # a secret the player typed unseen, as sealed: shown back once

    @property
    def known(self) -> Known:
        return Known(self.after, self.written)

    def as_dict(self) -> dict[str, Any]:
        """The move as the whole table may read it, for `play --json`."""
        game, state, event = self.before.game, self.before.state, self.event
        return {"seq": len(self.after.log.entries), "event": game.table_record(state, event),
                "move": game.table_text(state, event),
                "notices": [n.message for n in self.notices], "finished": self.after.finished,
                "receipt": self.receipt, "drawn": self.drawn,
                "revealed": game.revealed(state, event, self.after.state)}


class SecretNeeded(Exception):
    """The move seals a secret and none was given: ask for it unseen, then play it again.

    Raised before anything is written, so that nobody types a secret while holding the lock."""


def play(path: Path, text: str, as_name: str | None = None, note: str | None = None,
         secret: str | None = None, known: Known | None = None, cache: bool = True) -> Played:
    """Parse, check and append one move. Raises MoveError (the file is then left untouched).
    With `known`, the table the caller last saw: if the log no longer holds its bytes,
    LogChanged (another command wrote meanwhile), and nothing is played. Without
    `cache`, the replay cache is not written (a session holds the game itself, and stores it
    once, with `remember`, when it ends)."""
    with logfile.locked(path):
        current = _unchanged(path, known)
        table, data = current.table, current.data
        game = table.game
        refuse_if_over(game, table.state)
        text = _privately(table, text, secret)
        at = logfile.now()
        move = check_typed(table, text, as_name, at,
                           seal=lambda here, event: _sealed(here, event, secret))
        log = table.log.appended(move.event, note, at)
        written = logfile.appended_text(log, data.decode("utf-8"))
        logfile.write_atomic(path, written)
        after = Table(logfile.located(log, written), table.setup, move.state)
        data = written.encode("utf-8")
        if cache:
            remember(path, data, after)
        old = len(game.notices(table.state))
        typed = None if secret is None or move.receipt is None or move.drawn is not None \
            else game.events[move.event.type].secret(table.state, secret)
        return Played(table, after, move.event, game.describe(table.state, move.event, move.state),
                      game.notices(move.state)[old:], move.receipt, move.drawn, data, typed)


def _privately(table: Table, text: str, secret: str | None) -> str:
    """A private move's verb typed alone (`give`): its words are asked unseen, as a sealed
    move's secret is (SecretNeeded), then played as if typed after the verb."""
    words, game = text.split(), table.game
    verb = _verb(game, words[0]) if len(words) == 1 else None
    etype = game.events[verb] if verb is not None else None
    if etype is None or not etype.private_text or \
            (etype.phases is not None and game.phase(table.state) not in etype.phases):
        return text  # not now: refused at once, nothing asked
    if secret is None:
        raise SecretNeeded(verb)
    return f"{text} {secret}"


@value
class Checked:
    """A typed move read and checked where a table stands: the event, the state it makes and,
    for a sealed move, the receipt its player keeps and the secret the tool drew, if it did."""

    event: Event
    state: Any
    receipt: str | None = None
    drawn: str | None = None


Sealer = Callable[["Table", Event], "tuple[Event, str | None, str | None]"]


def check_typed(table: Table, text: str, as_name: str | None, at: dt.datetime | None = None, *,
                seal: Sealer) -> Checked:
    """`text`, typed by `as_name` (or written `NAME: MOVE`), parsed and checked where `table`
    stands (`play` now, `correct` at an earlier event). Raises MoveError with the legal moves
    closest to what was typed, UsageError where the player must be named. A sealed move is
    handed to `seal`, which returns it sealed (with the receipt and drawn secret) or refuses."""
    game = table.game
    text, as_name = _speaker(table, text, as_name)
    player = _actor(table, as_name)
    receipt = drawn = None
    event: Event | None = None
    try:
        event = game.parse(table.state, text, player)
        _explain_missing_player(table, event)
        if game.events[event.type].sealed:
            event, receipt, drawn = seal(table, event)
        try:
            state = check_and_apply(game, table.state, event, table.players, at)
        except IllegalMove as exc:
            raise _untyped_player(table, event, exc) if as_name is None else exc from None
    except MoveError as exc:
        kind = event.type if event is not None else _verb(game, text)
        raise with_suggestions(table, text, player, exc, kind) from None
    return Checked(event, state, receipt, drawn)


DECLARATIONS = ("declare", "amend")  # the table's data events a batch may hold


@value
class Declared:
    before: Table
    after: Table
    lines: list[str]  # what each declaration recorded, in plain words


def declare(path: Path, lines: list[str]) -> Declared:
    """Several `declare` (or `amend`) lines recorded at once, as one write: each is checked in
    order on the state the ones before it made; a refused line leaves the log untouched and
    names its line. A line may leave out the word `declare`; blank lines and `#` comments are
    skipped."""
    with logfile.locked(path):
        table = load(path)
        refuse_unless_declaring(table)
        at = logfile.now()
        state, log, said = table.state, table.log, []
        for number, text in _declaration_lines(lines):
            event, after = declaration(table, state, number, text, at)
            said += table.game.describe(state, event, after)
            state, log = after, log.appended(event, None, at)
        if log is table.log:
            raise UsageError("no declaration was given: one `declare KIND NAME key=value ...` "
                             "line each, on standard input or in the file", code="no-lines")
        written = logfile.dumps(log)
        logfile.write_atomic(path, written)
        after_table = Table(logfile.located(log, written), table.setup, state)
        remember(path, written.encode("utf-8"), after_table)
        return Declared(table, after_table, said)


def refuse_unless_declaring(table: Table) -> None:
    """Declarations are for a game whose printed values the log records, while it goes on."""
    game = table.game
    if not any(verb in game.events for verb in DECLARATIONS):
        raise UsageError(f"{game.title} has no declarations: `referee declare` is for games "
                         "whose printed values the log records (Kingmaker)",
                         code="no-declarations")
    refuse_if_over(game, table.state)


def declaration(table: Table, state: Any, number: int, text: str,
                at: dt.datetime) -> tuple[Event, Any]:
    """Line `number` of a batch, `text`, checked where the lines before it left `state`: its
    event and the state after it. A refusal names the line."""
    game = table.game
    try:
        event = game.parse(state, text, None)
        if event.type not in DECLARATIONS:
            raise UsageError(f"line {number}: {text!r} is not a declaration (`declare "
                             "KIND NAME key=value ...` or `amend ...`)",
                             code="not-a-declaration")
        return event, check_and_apply(game, state, event, table.players, at)
    except MoveError as exc:
        raise type(exc)(f"line {number} ({text}): {exc.message}", code=exc.code,
                        rule=exc.rule, hint=exc.hint) from None


def declaration_text(line: str) -> str | None:
    """A batch's line as a move (`declare` put before a line that leaves it out); None for a
    blank line or a `#` comment."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    return text if text.split()[0].casefold() in DECLARATIONS else f"declare {text}"


def _declaration_lines(lines: list[str]) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(lines, 1):
        text = declaration_text(line)
        if text is not None:
            yield number, text


def _speaker(table: Table, text: str, as_name: str | None) -> tuple[str, str | None]:
    """A move as `play` and `status` print it, `Ann: draw Pig Army 3` or `Catie:K7`, is that
    player's move (`--player NAME:SEAT` never makes a name with a colon)."""
    head, colon, rest = text.partition(":")
    name = {p.name.casefold(): p.name for p in table.players}.get(head.strip().casefold())
    if not colon or name is None or not rest.strip():
        return text, as_name
    if as_name is not None and table.player(as_name) != name:
        raise UsageError(f"{text!r} is {name}'s move, but --as says {as_name}")
    return rest.strip(), name


def _actor(table: Table, as_name: str | None) -> str | None:
    """Who is making the move: --as NAME, else whoever the game says a typed move is by."""
    if as_name is not None:
        return table.player(as_name)
    return table.game.default_player(table.state)


def _explain_missing_player(table: Table, event: Event) -> None:
    """A player's move typed when no single player is to act: say why, and how to name one."""
    if event.by is not None or table.game.events[event.type].actor == "table":
        return
    explained = table.game.explain(table.state, event)
    if explained is not None:
        raise explained
    turn = table.turn
    if turn.table or not turn.players:
        raise IllegalMove(f"the table must act now ({turn.prompt}), not a player",
                          code="table-must-act", rule=table.game.turn_rule or None)
    raise UsageError(f"several players may act now ({' or '.join(turn.players)}): "
                     "say who with --as NAME")


def _untyped_player(table: Table, event: Event, exc: IllegalMove) -> IllegalMove:
    """A refusal for a move typed without --as that names the player the move was taken to be
    by (`it is not Ann's turn`): say what is awaited instead, naming nobody it was not typed by."""
    if exc.code != "not-your-turn":
        return exc
    turn = table.turn
    who = "the table" if turn.table or not turn.players else " or ".join(turn.players)
    return IllegalMove(f"`{event.type}` is not possible now: {who} must act ({turn.prompt})",
                       code=exc.code, rule=exc.rule)


def _verb(game: Game[Any], text: str) -> str | None:
    """The event type the first word of a move names (its verb or a unique prefix), if any."""
    parts = text.split()
    verbs = game.events.verbs()
    if not parts:
        return None
    first = parts[0].casefold()
    if first in verbs:
        return verbs[first].name
    hits = {verbs[word].name for word in prefixed(first, verbs)} if game.verb_prefixes else set()
    return hits.pop() if len(hits) == 1 else None


def _sealed(table: Table, event: Event, secret: str | None) -> tuple[Event, str, str | None]:
    """The event with the seal of `secret` in it, the receipt its player keeps, and the secret
    when the tool drew it (the player has not seen it yet)."""
    from referee import seals

    etype = table.game.events[event.type]
    drawn = etype.draw_secret(table.state)
    if drawn is None and secret is None:
        raise SecretNeeded(event.type)
    canonical = etype.secret(table.state, drawn if drawn is not None else str(secret))
    receipt = seals.new_receipt()
    return (event.with_fields(seal=seals.commitment(canonical, receipt)), receipt,
            canonical if drawn is not None else None)


def with_suggestions(table: Table, text: str, player: str | None, exc: MoveError,
                      kind: str | None) -> MoveError:
    """The same error, with the legal moves closest to what was typed: moves of the kind typed
    (`recruit` for a refused recruit), never another kind; with no kind known, moves that look
    much like the text, else (text that names no move, `@@##`) the first moves `options`
    lists: the nearest there are, never a guess at what was meant."""
    if exc.suggestions or not exc.suggest:
        return exc
    import difflib  # only on a rejected move: keep it off start-up

    try:
        # The table reads the refusal: the moves of its view, never a hidden hand's, never a
        # move only its player may see. Folded lines ('draw CARD') read better than forty
        # single draws; their comments are dropped.
        choices = table.choices(player)
        events = [e for e in choices.events if kind is None or e.type == kind]
        lines = [line.split("  ")[0] for line in
                 table.game.option_lines(choices.view, events)] if events else []
    except RefereeError:  # pragma: no cover - a game that cannot list moves still rejects cleanly
        lines = []
    cutoff = 0.0 if kind is not None else 0.6
    close = difflib.get_close_matches(text[:200], _likeliest(text, lines), n=3, cutoff=cutoff)
    exc.suggestions = tuple(close if close or kind is not None or not _names_nothing(text)
                            else lines[:3])
    return exc


def _names_nothing(text: str) -> bool:
    """Text with no word of three letters or digits: it cannot name a move, even cut short."""
    return not any(sum(ch.isalnum() for ch in word) >= 3 for word in text.split())


SUGGESTION_POOL = 200  # difflib compares this many moves at most: a late King's Ear position
#                        has tens of thousands of legal trades, and comparing them all took minutes


def _likeliest(text: str, lines: list[str]) -> list[str]:
    """The lines that share the most words with `text` (in their order), at most
    SUGGESTION_POOL of them: a cheap first cut before difflib's costly comparison."""
    if len(lines) <= SUGGESTION_POOL:
        return lines
    typed = set(text.casefold().replace(",", " ").split())
    shared = [len(typed.intersection(line.casefold().replace(",", " ").split()))
              for line in lines]
    best = sorted(range(len(lines)), key=lambda i: -shared[i])[:SUGGESTION_POOL]
    return [lines[i] for i in sorted(best)]


# --------------------------------------------------------------------------------------------
# Undo, demo


@value
class Undone:
    entry: logfile.Entry
    text: str  # the event retracted, in notation
    table: Table
    written: bytes = b""  # the log's bytes as the undo left them

    @property
    def known(self) -> Known:
        return Known(self.table, self.written)

    @property
    def record(self) -> dict[str, Any]:
        """The event retracted, as the whole table may read it (`undo --json`)."""
        return self.table.game.table_record(self.table.state, self.entry.event)


def undo(path: Path, force: bool = False, known: Known | None = None) -> Undone:
    """Move the last event to [[retracted]]. Retracting a reveal needs `force`. With `known`,
    the table the caller last saw: LogChanged if the log no longer holds its bytes."""
    with logfile.locked(path):
        log = _unchanged(path, known).table.log if known is not None else logfile.read(path)
        if not log.entries:
            raise UsageError("there is nothing to undo: the log has no events")
        last = log.entries[-1]
        new_log = log.without_last()
        _keep_trail(new_log, last)
        # Not `replay_log`: an illegal event in what is left is not the last of the log, so
        # its hint must not offer `undo` (that would take back `last`, never reach it).
        setup = replay.from_log(new_log)
        state = replay.final(setup, new_log.entries, new_log.source, checked=True)
        text = setup.game.table_text(state, last.event)
        etype = setup.game.events[last.event.type]
        if etype.reveals(last.event) and not force:
            raise NeedsForce(f"event {last.seq} ({text}) {etype.shown(last.event)}; use "
                             "`referee undo --force` to retract it anyway", code="undo-reveal")
        written = logfile.dumps(new_log)
        logfile.write_atomic(path, written)
        return Undone(last, text, Table(logfile.located(new_log, written), setup, state),
                      written.encode("utf-8"))


def _keep_trail(log: logfile.GameLog, last: logfile.Entry) -> None:
    """Undo may not take back an event the corrections' trail stands on: it would no longer
    match the events (`correct N --delete` takes it out and says so in the trail)."""
    if not log.corrections:
        return
    from referee import corrections

    try:
        corrections.original(log)
    except RefereeError:
        raise NeedsForce(f"event {last.seq} is part of a correction in the log's trail; "
                         f"`referee correct {last.seq} --delete --why TEXT --by NAME` takes it "
                         "out and keeps the trail", code="undo-corrected") from None


@value
class DemoMove:
    seq: int
    lines: list[str]


@value
class DemoOptions:
    """`referee options` at a moment of the demo where a player has a real choice."""

    turn: ToAct
    lines: list[str]
    note: str


@value
class DemoRefusal:
    """A move the rules forbid at a moment of the demo, and the refusal `play` would print."""

    text: str
    by: str
    error: MoveError


DemoBeat = DemoMove | DemoOptions | DemoRefusal
SHOWN_CHOICES = range(2, 31)  # a choice worth showing: a few lines of options, not one or forty


class Demo:
    """A bundled example game, replayed move by move; `table` is the game at its end."""

    def __init__(self, game_id: str):
        from importlib import resources

        load_game(game_id)  # unknown game: usage error before anything else
        source = resources.files("referee") / "examples" / f"{game_id}.toml"
        if not source.is_file():
            raise UsageError(f"there is no bundled example for {game_id} yet")
        self.log = logfile.parse(source.read_text(encoding="utf-8"), f"example {game_id}.toml")
        self.setup = replay.from_log(self.log)
        self.table = Table(self.log, self.setup, self.setup.state)

    def moves(self) -> Iterator[DemoMove]:
        return (beat for beat in self.beats(teach=False) if isinstance(beat, DemoMove))

    def beats(self, teach: bool = True) -> Iterator[DemoBeat]:
        """The game move by move; with `teach`, once each and at the first moment it is worth
        it, what `referee options` lists and a move the rules refuse, with the refusal."""
        game = self.setup.game
        steps = list(replay.steps(self.setup, self.log.entries, self.log.source, checked=True))
        listed = refused = not teach
        for index, step in enumerate(steps):
            table = Table(self.log, self.setup, step.before)
            turn = table.turn
            actor = step.event.by
            if actor is not None and not turn.table and len(turn.players) == 1:
                if not listed:
                    choices = table.choices()
                    if len(choices.lines) in SHOWN_CHOICES:
                        listed = True
                        yield DemoOptions(turn, choices.lines, choices.note)
                if listed and not refused:
                    refusal = self._refusal(table, step.event, steps, index)
                    if refusal is not None:
                        refused = True
                        yield refusal
            self.table = Table(self.log, self.setup, step.after)
            yield DemoMove(step.entry.seq, game.describe(step.before, step.event, step.after))

    def _refusal(self, table: Table, event: Event, steps: list[replay.Step[Any]],
                 index: int) -> DemoRefusal | None:
        """A move of the kind about to be played, as it was played elsewhere in the game, that
        the rules refuse here for a reason of their own (not the turn or the phase). A reveal
        is taken only from the moves before: the demo never names a card before its time."""
        game, actor = table.game, event.by
        assert actor is not None
        tried = {game.format(table.state, event)}
        later = () if game.events[event.type].reveal else steps[index + 1:]
        for other in (*steps[:index], *later):
            if other.event.type != event.type:
                continue
            text = game.format(other.before, other.event)
            if text in tried:
                continue
            tried.add(text)
            try:
                move = game.parse(table.state, text, actor)
                if move.by != actor:
                    continue
                check_and_apply(game, table.state, move, table.players)
            except IllegalMove as exc:
                if exc.rule and exc.code not in GENERIC_REFUSALS:
                    return DemoRefusal(text, actor, with_suggestions(table, text, actor, exc,
                                                                     event.type))
            except MoveError:
                continue
        return None

    def start_commands(self) -> list[str]:
        """The three commands that start a real game like this one: the example's players and
        its options that differ from the defaults, then its first move as a player types it
        (a sealed secret's move without the seal: the secret is asked for unseen)."""
        import shlex

        game = self.setup.game
        players = " ".join(f"--player {p.name}" + (f":{p.seat}" if p.seat else "")
                           for p in self.setup.players)
        plain = game.check_options(game.opening({}, None)[0])  # what `new` alone would write
        options = "".join(f" --option {shlex.quote(f'{key}={_option_text(value)}')}"
                          for key, value in self.setup.options.items()
                          if value != plain.get(key) and key not in game.demo_options)
        first = next(iter(replay.steps(self.setup, self.log.entries[:1], checked=True)))
        etype = game.events[first.event.type]
        move = etype.words[0] if etype.sealed else game.format(first.before, first.event)
        turn = game.to_act(first.before)
        who = f" --as {first.event.by}" if first.event.by and len(turn.players) > 1 else ""
        return [f"referee new {game.id} {players}{options}", "referee options",
                f"referee play {move}{who}"]


def _option_text(value: Any) -> str:
    """An option's value as `--option K=V` takes it (lists comma-separated)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ",".join(str(item) for item in value)
    return str(value)


# Refusals that say only that a move comes out of turn or out of its phase: a demo shows a rule.
GENERIC_REFUSALS = frozenset({"not-your-turn", "wrong-phase", "game-over", "table-must-act"})


# --------------------------------------------------------------------------------------------
# A components file filled in, one question at a time (`referee components kingmaker --fill`):
# the CLI asks and prints, Kingmaker's components module knows the box.


class BadAnswer(UsageError):
    """An answer that does not fit the box, in the box's words: the question is asked again."""


def fill_start(path: Path, read: tuple[str, str] | None) -> Any:
    """The box to fill: the file read (its name and text), or else the shipped one."""
    from referee.games.kingmaker import components as km

    if read is None:
        return km.load(km.file_text(km.SHIPPED), km.SHIPPED)
    try:
        return km.load(read[1], read[0])
    except km.DataError as exc:
        raise UsageError(str(exc), code="bad-components") from None


def fill_questions(box: Any, closed: frozenset[str]) -> list[Any]:
    """The questions still to ask (`text`, `key`, `section`), in the box's order."""
    from referee.games.kingmaker import components as km

    return km.fill_questions(box, closed)


def fill_remaining(box: Any) -> int:
    from referee.games.kingmaker import components as km

    return km.fill_remaining(box)


def fill_answer(box: Any, question: Any, answer: str) -> Any:
    """The box with one more answer, or BadAnswer."""
    from referee.games.kingmaker import components as km

    try:
        return km.fill_answer(box, question, answer)
    except km.DataError as exc:
        raise BadAnswer(str(exc), code="bad-answer") from None


def fill_save(path: Path, box: Any) -> None:
    """The box written to `path`, atomically."""
    from referee import files
    from referee.games.kingmaker import components as km

    text = km.dumps(box, "Avalon Hill 1st edition (1974)")
    files.replace(path, text.encode("utf-8"), "the components file")
