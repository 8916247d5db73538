"""The game protocol every game implements, the game registry, and replay.

The log of events is the only truth: a state is what you get by replaying the events from set-up.
Every game offers the same small protocol (`Game`), so the CLI, `check`, `simulate` and the tests
treat all games alike. Game modules live in `referee.games` and are imported only when needed.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from referee.errors import IllegalMove, UsageError

# --------------------------------------------------------------------------------------------
# Small immutable values shared by all games


@dataclass(frozen=True, slots=True)
class Player:
    """A seat at the table: the player's name and the game-specific seat (a House, a colour...)."""

    name: str
    seat: str | None = None


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened at the table: a type, who did it (None for table events), fields.

    Field values are TOML-friendly scalars or tuples of them; fields are kept sorted by name so that
    two equal events compare equal however they were built.
    """

    type: str
    by: str | None = None
    fields: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def make(cls, type: str, by: str | None = None, **fields: Any) -> "Event":
        items = tuple(sorted((k, _freeze(v)) for k, v in fields.items() if v is not None))
        return cls(type, by, items)

    def get(self, name: str, default: Any = None) -> Any:
        for key, value in self.fields:
            if key == name:
                return value
        return default

    def __getitem__(self, name: str) -> Any:
        for key, value in self.fields:
            if key == name:
                return value
        raise KeyError(name)

    def record(self) -> dict[str, Any]:
        """The event as the fields of a log entry (without seq/at/note)."""
        out: dict[str, Any] = {}
        if self.by is not None:
            out["by"] = self.by
        out["type"] = self.type
        for key, value in self.fields:
            out[key] = _thaw(value)
        return out


@dataclass(frozen=True, slots=True)
class ToAct:
    """Who must act now and in what phase. `table` means a table event is awaited (set-up reveals)."""

    players: tuple[str, ...]
    phase: str
    table: bool = False


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the referee noticed that is not a rejected move: a revoke proven by a later play.

    A game lists its notices, oldest first, in `Game.notices(state)`; `play` prints new ones and
    `check` reports each as a finding of the event that revealed it.
    """

    code: str
    message: str
    rule: str = ""


# Field kinds an event may carry; the log validates every field against its kind.
FIELD_KINDS = {
    "str": (str,),
    "int": (int,),
    "bool": (bool,),
    "str[]": (list,),
    "int[]": (list,),
}


@dataclass(frozen=True)
class EventSpec:
    """The schema of one event type: its fields, who may record it, whether it reveals hidden info."""

    fields: Mapping[str, str] = field(default_factory=dict)  # name -> kind (see FIELD_KINDS)
    optional: frozenset[str] = frozenset()
    actor: str = "player"  # "player": by the player to act; "table": no `by`; "any": either
    reveal: bool = False  # retracting it needs --force: the information has been seen
    doc: str = ""


@dataclass(frozen=True)
class OptionSpec:
    """A table ruling or variant chosen at `referee new`; its value is written into the log."""

    name: str
    default: Any
    kind: str  # "str", "int", "bool", "str[]", "int[]"
    help: str
    ruling: str = ""

    def parse(self, text: str) -> Any:
        """Parse a command-line value (`K=V`); lists are comma-separated."""
        try:
            if self.kind == "int":
                return int(text)
            if self.kind == "bool":
                low = text.strip().lower()
                if low in ("1", "true", "yes", "on"):
                    return True
                if low in ("0", "false", "no", "off"):
                    return False
                raise ValueError(text)
            if self.kind == "str[]":
                return [part.strip() for part in text.split(",") if part.strip()]
            if self.kind == "int[]":
                return [int(part) for part in text.split(",") if part.strip()]
            return text.strip()
        except ValueError:
            raise UsageError(f"option {self.name}: {text!r} is not a valid {self.kind} value") from None


# --------------------------------------------------------------------------------------------
# The protocol


class Game:
    """Base class of every game. Subclasses override the protocol methods below.

    A game module never prints and never touches files; it turns events into states and states into
    answers (who acts, what is legal, the score).
    """

    id: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 4
    seat_field: str | None = None  # the name of the seat field in [[players]], e.g. "house"
    options: tuple[OptionSpec, ...] = ()
    events: Mapping[str, EventSpec] = {}
    # A short description of the notation, printed by `rules` and in error hints.
    notation_help: str = ""

    # ---- set-up --------------------------------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return {spec.name: _thaw(spec.default) for spec in self.options}

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Fill defaults and validate option values; raise UsageError on a bad value."""
        known = {spec.name: spec for spec in self.options}
        for name in options:
            if name not in known:
                raise UsageError(f"{self.id} has no option {name!r}",
                                 hint=_choices_hint(name, known))
        merged = self.default_options()
        merged.update(options)
        return merged

    def seat_choices(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The seats a player may claim (empty when the game has no seats)."""
        return ()

    def seat_players(self, players: list[Player], options: Mapping[str, Any]) -> list[Player]:
        """Validate names and seats; fill in default seats. Raise UsageError when they don't fit."""
        if not self.min_players <= len(players) <= self.max_players:
            raise UsageError(f"{self.title} is for {self.min_players}-{self.max_players} players, "
                             f"not {len(players)}")
        names = [p.name for p in players]
        for name in names:
            if not name.strip():
                raise UsageError("a player name may not be empty")
        if len({n.casefold() for n in names}) != len(names):
            raise UsageError("player names must differ (ignoring case)")
        choices = self.seat_choices(options)
        if not choices:
            for p in players:
                if p.seat:
                    raise UsageError(f"{self.title} has no seats to claim ({p.name}:{p.seat})")
            return list(players)
        taken: list[str] = []
        for p in players:
            if p.seat is None:
                continue
            seat = _match_word(p.seat, choices, f"{self.seat_field} for {p.name}")
            if seat in taken:
                raise UsageError(f"{self.seat_field} {seat} is claimed twice")
            taken.append(seat)
        free = [c for c in choices if c not in taken]
        out = []
        for p in players:
            seat = _match_word(p.seat, choices, self.seat_field or "seat") if p.seat else free.pop(0)
            out.append(Player(p.name, seat))
        return out

    def setup(self, players: tuple[Player, ...], options: Mapping[str, Any],
              seed: int | None = None) -> Any:
        raise NotImplementedError

    # ---- moves ---------------------------------------------------------------------------
    def parse(self, state: Any, text: str, player: str | None) -> Event:
        raise NotImplementedError

    def format(self, state: Any, event: Event) -> str:
        raise NotImplementedError

    def apply(self, state: Any, event: Event) -> Any:
        raise NotImplementedError

    def legal(self, state: Any, player: str | None = None) -> list[Event]:
        raise NotImplementedError

    def legal_note(self, state: Any, player: str | None = None) -> str:
        """Moves that are legal but not enumerated (e.g. trades that need consent); may be ''."""
        return ""

    def option_lines(self, state: Any, events: list[Event]) -> list[str]:
        """`events` (from `legal`) as lines for `referee options`. Games override it to fold long
        families of moves into one readable line (e.g. 'draw CARD: any of the 40 unseen cards')."""
        return [self.format(state, event) for event in events]

    def random_event(self, state: Any, rng: random.Random) -> Event | None:
        """A random legal event, for `simulate`. Games with huge move lists override it."""
        moves = self.legal(state)
        return rng.choice(moves) if moves else None

    # ---- answers -------------------------------------------------------------------------
    def to_act(self, state: Any) -> ToAct:
        raise NotImplementedError

    def finished(self, state: Any) -> bool:
        raise NotImplementedError

    def describe(self, before: Any, event: Event, after: Any) -> list[str]:
        """What `event` changed, in a few plain lines, for `play` to print."""
        return [self.format(before, event)]

    def notices(self, state: Any) -> tuple[Notice, ...]:
        """Everything the referee has noticed so far that is not a rejected move (oldest first)."""
        return ()

    def score(self, state: Any):  # -> referee.scoresheet.Scoresheet
        raise NotImplementedError

    def blank_scoresheet(self, options: Mapping[str, Any] | None = None):
        raise NotImplementedError

    def render(self, state: Any) -> str:
        raise NotImplementedError

    def rules(self) -> str:
        """The rules summary, the rulings in force by default, the notation: for `referee rules`."""
        return ""

    def inventory(self, state: Any) -> dict[str, int]:
        """Where every physical piece is (location -> count); used to test conservation."""
        return {}


def _match_word(text: str, choices: Iterable[str], what: str) -> str:
    low = text.strip().casefold()
    exact = [c for c in choices if c.casefold() == low]
    if exact:
        return exact[0]
    hits = [c for c in choices if c.casefold().startswith(low)] if low else []
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise UsageError(f"{what}: {text!r} could be {', '.join(hits)}")
    raise UsageError(f"{what}: {text!r} is not one of {', '.join(choices)}")


def _choices_hint(word: str, choices: Iterable[str]) -> str | None:
    import difflib  # only on an error path: keep it off start-up

    close = difflib.get_close_matches(word, list(choices), n=3)
    return f"did you mean {' or '.join(close)}?" if close else None


# --------------------------------------------------------------------------------------------
# The registry: game id -> module (imported lazily so that `referee --help` stays fast)

REGISTRY: dict[str, str] = {
    "kings-ear": "referee.games.kings_ear",
    "king-of-the-valley": "referee.games.king_of_the_valley",
    "dwarf-king": "referee.games.dwarf_king",
}


def game_ids() -> list[str]:
    return list(REGISTRY)


def load_game(game_id: str) -> Game:
    module = REGISTRY.get(game_id)
    if module is None:
        raise UsageError(f"unknown game {game_id!r}; the games are: "
                         f"{', '.join(available_game_ids())}",
                         code="unknown-game", hint=_choices_hint(game_id, REGISTRY))
    if importlib.util.find_spec(module) is None:
        raise UsageError(f"{game_id} is not available in this version of referee",
                         code="unknown-game")
    game = getattr(importlib.import_module(module), "GAME", None)
    if not isinstance(game, Game):  # a game module still under construction
        raise UsageError(f"{game_id} is not available in this version of referee",
                         code="unknown-game")
    return game


def available_game_ids() -> list[str]:
    """The registered games whose module is present (a game under construction may be absent)."""
    return [gid for gid in REGISTRY if importlib.util.find_spec(REGISTRY[gid]) is not None
            and isinstance(getattr(importlib.import_module(REGISTRY[gid]), "GAME", None), Game)]


# --------------------------------------------------------------------------------------------
# Applying events: the generic checks every game shares, then the game's own rules


def apply_event(game: Game, state: Any, event: Event, players: Iterable[Player]) -> Any:
    """Check who may record `event`, then let the game apply it. Raises IllegalMove."""
    spec = game.events.get(event.type)
    if spec is None:
        raise IllegalMove(f"{game.title} has no event of type {event.type!r}", code="unknown-event")
    if game.finished(state):
        raise IllegalMove(f"the game is over; {event.type} is not possible any more",
                          code="game-over")
    if spec.actor == "table" and event.by is not None:
        raise IllegalMove(f"{event.type} is a table event; it has no player", code="not-a-player-event")
    if spec.actor == "player":
        if event.by is None:
            raise IllegalMove(f"{event.type} needs the player who made it", code="no-player")
        if event.by not in {p.name for p in players}:
            raise IllegalMove(f"{event.by!r} is not playing this game", code="unknown-player")
        turn = game.to_act(state)
        if event.by not in turn.players:
            who = " or ".join(turn.players) or "the table"
            raise IllegalMove(f"it is not {event.by}'s turn: {who} must act ({turn.phase})",
                              code="not-your-turn", rule="turn order")
    return game.apply(state, event)


def replay(game: Game, players: tuple[Player, ...], options: Mapping[str, Any], seed: int | None,
           events: Iterable[Event]) -> Any:
    """The state after set-up and every event in order (raises IllegalMove at the first bad one)."""
    state = game.setup(tuple(players), options, seed)
    for event in events:
        state = apply_event(game, state, event, players)
    return state
