"""Kingmaker's notation forms: each event type declares one `Form`, from which its typed words
are read, its events printed canonically and its lines listed in `options` and the man page
(as King of the Valley's summon checker serves both listing and refusing).

A form is the event's verb followed by its parts, in the order they are printed:
- a `Slot` alone is a head value, typed before the first keyword (a head slot of `width` 1 takes
  one word, the last one the rest; a `lead` slot is the first word as typed, `siege lay ...`);
- `Key(word, slot)` is a keyword and the value after it, in brackets if `optional`; typed bare,
  an optional keyword is ignored unless `strict`; a `split` keyword (`attack ... on NOBLES`)
  starts keywords of its own, so `allies` may come on both sides;
- `Flag(word)` is a word alone, true when typed (as the last word, or `anywhere`);
- `Either` is one value after one of two keywords (`[moving NOBLE | host NOBLE]`).
Each slot kind (a noble, nobles, a place, a location, a card, a roll...) has one reader (typed
words -> value) and one printer (value -> canonical words): the slot factories of base.py.
`alts` are words kept as typed (`none`, `hidden`); a `default` is what the referee fills in for
a value left out; a `late` slot is read after the others (a transferred item is looked for
among the giver's). A form's `empty` word (`vote none`) stands for empty lists. Where one form
is listed as several lines (`siege lay|join` / `conclude` / `break`), each `Case` says how its
line shows a part: a label, required (True) or left out (False).
A few event types read by hand (a notation too irregular for a form: `declare`, `result`,
`save`, `parliament`, `port`); their forms still list them and print all but `declare`'s
(with `by_hand` slots).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from referee.engine import Args
from referee.errors import NotationError
from referee.games.kingmaker.components import norm
from referee.games.kingmaker.notation import items, sections, shown
from referee.values import field, value


class Missing:
    """A default that adds no field."""


MISSING = Missing()

Reader = Callable[[Any, list[str], Args, dict[str, Any]], Any]  # state, words, args, read so far
Default = Callable[[Any, Any, Args, dict[str, Any]], Any]  # event type, state, args, read so far


def by_hand(state: Any, words: list[str], args: Args, out: dict[str, Any]) -> Any:
    """The reader of a slot its event type reads in its own `read` (an irregular notation)."""
    raise NotImplementedError("read by the event type's own `read`")


@value(slots=True)
class Slot:
    """One value of a move: its label in the listed forms, its reader and its printer."""

    field: str
    label: str
    reader: Reader
    printer: Callable[[Any], str] = shown
    alts: tuple[str, ...] = ()  # words taken as they are, before the reader (`none`, `hidden`)
    lead: bool = False  # the first word as typed, before keywords are looked for (an action)
    width: int = 0  # as a head: the words it takes from the front (0: all the rest)
    optional: bool = False  # as a head: may be left out (listed in brackets)
    default: Default | None = None  # the value the referee fills in when it is left out
    late: bool = False  # read after the other parts (its reader looks at them)

    def read(self, state: Any, words: Sequence[str], args: Args, out: dict[str, Any]) -> Any:
        found = items(words) if self.alts else []
        if len(found) == 1 and norm(found[0]) in self.alts:
            return norm(found[0])
        return self.reader(state, list(words), args, out)

    def show(self, value: Any) -> str:
        return value if isinstance(value, str) and value in self.alts else self.printer(value)

    @property
    def listed(self) -> str:
        return "|".join((self.label, *self.alts))


@value(slots=True)
class Key:
    """`to LOCATION`: a keyword and the value after it."""

    word: str
    slot: Slot
    optional: bool = False
    listed: bool = True  # False: filled in by the referee, printed but not offered
    strict: bool = False  # typed with nothing after it, it is read (and refused), not ignored
    join: bool = False  # its words join the head's; its slot's reader gives them (`with HEIRS`)
    split: bool = False  # the keywords after it are its own (`on NOBLES [allies NOBLES]`)
    absent: str = ""  # for a split keyword: what to say when it is missing (code `no-...`)
    absent_code: str = ""


@value(slots=True)
class Flag:
    """A word alone (`freemove`): the field of its name is true when it is typed."""

    word: str
    anywhere: bool = False  # else only as the last word

    def take(self, words: list[str]) -> tuple[list[str], bool]:
        """The words without the flag, and whether it was typed (in any case, as a keyword is:
        `freemove'` is no flag)."""
        if self.anywhere:
            kept = [w for w in words if w.casefold() != self.word]
            return kept, len(kept) != len(words)
        if words and words[-1].casefold() == self.word:
            return words[:-1], True
        return words, False


@value(slots=True)
class Either:
    """`[moving NOBLE | host NOBLE]`: one of two keywords for one value, the first printed when
    the field `when` is true (read by its event type's own `read`)."""

    first: Key
    second: Key
    when: str


@value(slots=True)
class Case:
    """One listed line of a form: how it shows each part named (label, True: required,
    False: left out); a part not named shows as the form has it."""

    note: str
    shows: Mapping[str, str | bool] = field(default_factory=dict)


Part = Slot | Key | Flag | Either


def part_field(part: Part) -> str:
    if isinstance(part, Slot):
        return part.field
    if isinstance(part, Key):
        return part.slot.field
    if isinstance(part, Flag):
        return part.word
    return part.first.slot.field


class Form:
    """An event type's notation, declared once (see the module doc)."""

    def __init__(self, *parts: Part, note: str = "", cases: Sequence[Case] = (),
                 empty: tuple[str, ...] = (), usage: tuple[str, str, str | None] | None = None):
        self.parts = parts
        self.cases = tuple(cases) or (Case(note),)
        self.empty = empty  # a word alone that leaves every list empty (`vote none`)
        self.usage = usage  # (what to write, code, rule) when the words fit no part
        self.heads = [p for p in parts if isinstance(p, Slot) and not p.lead]
        self.lead = [p for p in parts if isinstance(p, Slot) and p.lead]
        self.keys = [p for p in parts if isinstance(p, Key)]
        self.flags = [p for p in parts if isinstance(p, Flag)]

    # ---- reading ------------------------------------------------------------------------------
    def read(self, etype: Any, state: Any, args: Args) -> dict[str, Any]:
        """The fields of the typed words (`etype` is the event type, for the defaults)."""
        out: dict[str, Any] = {}
        words = self.take_flags(list(args.words), out)
        if self.empty and len(words) == 1 and norm(words[0]) in self.empty:
            return {slot.field: [] for slot in self.heads + [k.slot for k in self.keys]}
        first, words = (words[:1], words[1:]) if self.lead else ([], words)
        found = self.split(words, args.text)
        for key in self.keys:
            if key.join and found.get(key.slot.field):
                found[""] = key.slot.reader(state, found[""] + [","] + found[key.slot.field],
                                            args, out)
        for slot, typed in sorted(self.typed(first, found), key=lambda pair: pair[0].late):
            out[slot.field] = slot.read(state, typed, args, out)  # the late ones last
        for slot in self.lead + self.heads + [k.slot for k in self.keys]:
            if slot.field not in out and slot.default is not None:
                value = slot.default(etype, state, args, out)
                if value is not MISSING:
                    out[slot.field] = value
        return out

    def take_flags(self, words: list[str], out: dict[str, Any]) -> list[str]:
        for flag in self.flags:
            words, typed = flag.take(words)
            if typed:
                out[flag.word] = True
        return words

    def typed(self, first: list[str], found: dict[str, list[str]]) -> \
            list[tuple[Slot, list[str]]]:
        """Each slot to read with its words: those typed, and those needed though not typed."""
        pairs = [(slot, first, True) for slot in self.lead] + self.head_words(found[""]) + \
            [(k.slot, found.get(k.slot.field, []), not k.optional or
              k.strict and k.slot.field in found) for k in self.keys if not k.join]
        return [(slot, words) for slot, words, needed in pairs if words or needed]

    def split(self, words: list[str], text: str) -> dict[str, list[str]]:
        """The words by field ("" for the head's); a split keyword starts its own sections."""
        cut = next((k for k in self.keys if k.split), None)
        index = len(self.keys) if cut is None else self.keys.index(cut)
        at = len(words)
        if cut is not None:
            at = next((i for i, w in enumerate(words) if w.casefold() == cut.word), -1)
            if at < 0:
                raise NotationError(f"{text!r}: {cut.absent}", code=cut.absent_code)
        left = sections(words[:at], [k.word for k in self.keys[:index]], text)
        found = {"": left[""], **{k.slot.field: left[k.word] for k in self.keys[:index]
                                  if k.word in left}}
        if cut is not None:
            right = sections(words[at + 1:], [k.word for k in self.keys[index + 1:]], text)
            found[cut.slot.field] = right[""]
            found.update({k.slot.field: right[k.word] for k in self.keys[index + 1:]
                          if k.word in right})
        self.check_head(found, text)
        return found

    def check_head(self, found: dict[str, list[str]], text: str) -> None:
        stray = found[""] and not self.heads
        none = self.usage is not None and all(k.optional for k in self.keys) and \
            len(found) == 1
        if self.usage is not None and (stray or none):
            what, code, rule = self.usage
            raise NotationError(f"{text!r}: {what}", code=code, rule=rule)
        if stray:
            raise NotationError(f"unexpected {' '.join(found[''])!r} in {text!r}",
                                code="trailing-words")

    def head_words(self, words: list[str]) -> list[tuple[Slot, list[str], bool]]:
        """Each head slot's words (and whether it must be read, typed or not). Commas name
        nothing: skipped before a word (`storm ,Ship`), and alone they leave an optional slot
        untyped, so its default is filled in (`storm Ship ,`)."""
        out: list[tuple[Slot, list[str], bool]] = []
        rest = list(words)
        for index, slot in enumerate(self.heads):
            if slot.width and index < len(self.heads) - 1:
                while rest[:1] == [","]:
                    rest = rest[1:]
                taken, rest = rest[:slot.width], rest[slot.width:]
            else:
                taken, rest = rest, []
            if slot.optional and set(taken) <= {","}:
                taken = []
            out.append((slot, taken, not slot.optional))
        return out

    # ---- printing -----------------------------------------------------------------------------
    def text(self, name: str, event: Any) -> str:
        words = [name]
        for part in self.parts:
            if isinstance(part, Slot):
                value = event.get(part.field)
                shown_value = part.show(value) if value is not None else ""
                words += [shown_value] if shown_value else []
            elif isinstance(part, Key):
                value = event.get(part.slot.field)
                if not part.join and value is not None and (value or not part.optional):
                    words += [part.word, part.slot.show(value)]
            elif isinstance(part, Flag) and event.get(part.word):
                words.append(part.word)
            elif isinstance(part, Either):
                key = part.first if event.get(part.when) else part.second
                value = event.get(key.slot.field)
                words += [key.word, key.slot.show(value)] if value else []
        if len(words) == 1 and self.empty:
            words.append(self.empty[0])
        return " ".join(words)

    # ---- listing ------------------------------------------------------------------------------
    def lines(self, name: str) -> tuple[tuple[str, str], ...]:
        return tuple((self.render(name, case.shows), case.note) for case in self.cases)

    def render(self, name: str, shows: Mapping[str, str | bool]) -> str:
        words = [name]
        for part in self.parts:
            show = shows.get(part_field(part))
            if show is not False and self.rendered(part, show):
                words.append(self.rendered(part, show))
        if len(words) == 1 and self.empty:
            words.append(self.empty[0])
        return " ".join(words)

    def rendered(self, part: Part, show: str | bool | None) -> str:
        if isinstance(part, Slot):
            label = show if isinstance(show, str) else part.listed
            return f"[{label}]" if part.optional and show is None else label
        if isinstance(part, Flag):
            return part.word if show is True else f"[{part.word}]"
        if isinstance(part, Either):
            first, second = (f"{k.word} {k.slot.listed}" for k in (part.first, part.second))
            return f"[{first} | {second}]"
        if not part.listed:
            return ""
        body = f"{part.word} {show if isinstance(show, str) else part.slot.listed}"
        return body if not part.optional or show is True else f"[{body}]"
