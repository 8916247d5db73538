"""What a game declares of its table rulings and variants (`OptionSpec`, chosen at `referee
new` and written into the log), the options every game takes (`TABLE_OPTIONS`), and the kinds of
value an option or an event's field may hold. `referee.engine` re-exports them for the games."""

from __future__ import annotations

from typing import Any

from referee.errors import UsageError
from referee.values import value

FIELD_KINDS = ("str", "int", "bool", "str[]", "int[]")
KIND_WORDS = {"str": "text", "int": "a whole number", "bool": "true or false",
              "str[]": "a list of text", "int[]": "a list of whole numbers"}  # for messages


def kind_ok(value: Any, kind: str) -> bool:
    """Whether a TOML value is of a declared field kind (booleans are not integers)."""
    if kind.endswith("[]"):
        inner = kind[:-2]
        return isinstance(value, (list, tuple)) and all(kind_ok(v, inner) for v in value)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    return isinstance(value, str)


@value
class OptionSpec:
    """A table ruling or variant chosen at `referee new`; its value is written into the log.

    `check` validates a value and returns it in canonical form (raising UsageError); `choices`
    limits a scalar option to a few values.
    """

    name: str
    default: Any
    kind: str  # one of FIELD_KINDS
    help: str
    ruling: str = ""
    choices: tuple[Any, ...] = ()
    check: Any = None  # Callable[[Any], Any] | None

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
            raise UsageError(f"option {self.name}: {text!r} is not a valid {self.kind} "
                             "value") from None

    def validate(self, value: Any) -> Any:
        """The value in canonical form, or UsageError naming the option and its ruling."""
        if not kind_ok(value, self.kind):
            raise UsageError(f"option {self.name} must be a {self.kind}", code="bad-option")
        if self.choices and value not in self.choices:
            shown = " or ".join(str(c) for c in self.choices)
            raise UsageError(f"option {self.name} must be {shown}, not {value!r}",
                             code="bad-option")
        return self.check(value) if self.check is not None else value


# Options every game accepts besides its own rulings: facts about the table, not rules. They are
# written into the log only when given.
TABLE_OPTIONS = (
    OptionSpec("place", "", "str", "where the game is played: shown on the scoresheet and "
                                   "carried by `referee export`"),
)
