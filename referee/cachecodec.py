"""A replayed game as plain data, for the replay cache (referee.cache): loading it builds values,
and runs no code the data names.

The container is `marshal`, holding only str, int, float, bool, None, tuple, frozenset and dict:
it reads them back in C, several times faster than JSON (a warm `play` pays it). Whatever else
the game holds is a list whose first item says what it is: `["t", ...]` a tuple, `["f", ...]` a
frozenset or `["d", key, value, ...]` a dict that holds such things, `["l", ...]` a list,
`["s", ...]` a set, `["D", iso]` a date-time, `["a", iso]` a date, `["T", iso]` a time,
`["P", text]` a path, and `[n, field, ...]` an object of the n-th class of the entry's table. A
container of plain data only is stored as it is, and decoding never walks into it.

The entry is `(game id, table, value)`; the table names each class by module and name with its
shape: the names and declared types of its fields (a value class, referee.values) or its
constructor's parameters (the hand-written classes in PLAIN). Decoding accepts only those
classes, from referee's own modules as they are now, and only with the shape the entry was
written with: a class that has gained, lost or retyped a field since is Stale, and the entry is
rebuilt. Objects are made without calling `__init__` (as unpickling did), so a value class
compiles none; a field left out of `__init__` (a memo) starts as `__init__` starts it, and a
cached property is computed again when asked.
"""

from __future__ import annotations

import datetime as dt
import marshal
import sys
from itertools import islice
from pathlib import Path
from typing import Any, Callable

from referee.engine import Event, load_game
from referee.log import _Locator
from referee.values import attributes, fields

FORMAT = 1  # raised when the encoding itself changes
PLAIN: tuple[type, ...] = (Event, _Locator)  # not value classes: made by their constructor
SCALARS = frozenset((str, int, float, bool, type(None)))
PATH = type(Path())  # PosixPath or WindowsPath
# Python 3.13 can refuse code objects outright; before it, loading one would not run it either.
LOADS: dict[str, Any] = {"allow_code": False} if sys.version_info >= (3, 13) else {}


class Stale(ValueError):
    """An entry names a class that is not, or no longer, one this version decodes as written."""


class Unstorable(TypeError):
    """A value the codec does not store: the game is simply not cached."""


def shape(cls: type) -> tuple[tuple[str, ...], ...]:
    """What an entry must agree with to be decoded into `cls` as it is now."""
    if cls in PLAIN:
        code = cls.__init__.__code__  # type: ignore[misc]
        return tuple((param,) for param in code.co_varnames[1:code.co_argcount])
    declared = cls.__dict__.get("__annotations__", {})
    return tuple((f.name, str(declared.get(f.name))) for f in fields(cls))


# --------------------------------------------------------------------------------------------
# Encoding


def encode(game_id: str, value: Any) -> bytes:
    """The entry for a game's values (Unstorable when one is of a kind not stored)."""
    classes: dict[type, tuple[int, Callable[[Any], tuple[Any, ...]]]] = {}
    # An object met again (a state shares most of its parts with the one before it) is stored
    # once and referred to by its number, as pickle did. The memo lives for this call only,
    # and keeps each object it names, so no id is reused while it stands.
    memo: dict[int, tuple[int, Any]] = {}
    scalar = SCALARS.__contains__

    def enc(obj: Any) -> Any:
        kind = obj.__class__
        if kind is tuple or kind is frozenset:
            if all(map(scalar, map(type, obj))):
                return obj
            items = [x if x.__class__ in SCALARS else enc(x) for x in obj]
            if all(map(_same, items, obj)):
                return obj  # all plain data, however deep
            return ["t" if kind is tuple else "f", *items]
        if kind in SCALARS:
            return obj
        if kind is dict:
            if all(map(scalar, map(type, obj))) and all(map(scalar, map(type, obj.values()))):
                return obj
            return ["d", *[enc(item) for pair in obj.items() for item in pair]]
        if kind is list or kind is set:
            return ["l" if kind is list else "s", *map(enc, obj)]
        seen = memo.get(id(obj))
        if seen is not None:
            return ["r", seen[0]]
        found = classes.get(kind) or _known(kind, classes)
        if found is None:
            return _scalar_like(obj)
        out = [found[0], *[x if x.__class__ in SCALARS else enc(x) for x in found[1](obj)]]
        memo[id(obj)] = (len(memo), obj)
        return out

    payload = enc(value)
    table = tuple((cls.__module__, cls.__qualname__, shape(cls)) for cls in classes)
    return marshal.dumps((game_id, table, payload))


def _same(a: Any, b: Any) -> bool:
    return a is b


def _known(kind: type, classes: dict[type, Any]) -> tuple[int, Callable[[Any], tuple[Any, ...]]] | None:
    """A class met for the first time: its number in the table and what is stored of an
    object of it (the fields `__init__` takes; a memo is not stored)."""
    if kind in PLAIN:
        names = [param for param, in shape(kind)]
    elif "__value_fields__" in kind.__dict__ and kind.__module__.startswith("referee."):
        names = [f.name for f in fields(kind) if f.init]
    else:
        return None
    found = classes[kind] = (len(classes), attributes(names))
    return found


def _scalar_like(obj: Any) -> list[str]:
    kind = obj.__class__
    if kind is dt.datetime and (obj.tzinfo is None or obj.tzinfo.__class__ is dt.timezone) \
            and not obj.fold:
        return ["D", obj.isoformat()]
    if kind is dt.date:
        return ["a", obj.isoformat()]
    if kind is dt.time and obj.tzinfo is None and not obj.fold:
        return ["T", obj.isoformat()]
    if kind is PATH:
        return ["P", str(obj)]
    raise Unstorable(f"{kind.__qualname__} is not stored in the replay cache")


# --------------------------------------------------------------------------------------------
# Decoding


def decode(body: bytes) -> tuple[str, Any]:
    """The game id and the values of an entry (Stale, or any error of malformed data)."""
    game_id, table, payload = marshal.loads(body, **LOADS)
    if game_id.__class__ is not str or table.__class__ is not tuple:
        raise Stale("not an entry")
    load_game(game_id)  # its modules, which hold the classes the table names

    def dec(x: Any) -> Any:
        return makers[x[0]](x) if x.__class__ is list else x

    made: list[Any] = []  # the objects made so far, in the order the encoder numbered them
    makers: dict[Any, Callable[[list[Any]], Any]] = {
        "t": lambda x: tuple(map(dec, islice(x, 1, None))),
        "f": lambda x: frozenset(map(dec, islice(x, 1, None))),
        "l": lambda x: list(map(dec, islice(x, 1, None))),
        "s": lambda x: set(map(dec, islice(x, 1, None))),
        "d": lambda x: _pairs(list(map(dec, islice(x, 1, None)))),
        "D": lambda x: dt.datetime.fromisoformat(x[1]),
        "a": lambda x: dt.date.fromisoformat(x[1]),
        "T": lambda x: dt.time.fromisoformat(x[1]),
        "P": lambda x: PATH(x[1]),
        "r": lambda x: made[x[1]],
    }
    for index, (module, name, written) in enumerate(table):
        cls = _resolve(module, name)
        if shape(cls) != written:
            raise Stale(f"{module}.{name} has changed shape")
        makers[index] = _maker(cls, dec, made.append)
    return game_id, dec(payload)


def _resolve(module: Any, name: Any) -> type:
    """The class an entry names, if it is one it may name: a value class or one in PLAIN,
    defined in a module of referee's that is already loaded (nothing is imported)."""
    found = sys.modules.get(module) if module.__class__ is str and \
        module.startswith("referee.") else None
    cls = vars(found).get(name) if found is not None and name.__class__ is str else None
    if not isinstance(cls, type) or cls.__module__ != module or cls.__qualname__ != name or \
            not (cls in PLAIN or "__value_fields__" in cls.__dict__):
        raise Stale(f"{module}.{name} is not a class the cache decodes")
    return cls


def _pairs(items: list[Any]) -> dict[Any, Any]:
    if len(items) % 2:
        raise Stale("a dict of an odd count of items")
    return dict(zip(items[::2], items[1::2]))


def _maker(cls: type, dec: Callable[[Any], Any],
           keep: Callable[[Any], None]) -> Callable[[list[Any]], Any]:
    """What makes an object of `cls` from its stored fields, without its `__init__`, and keeps
    it for the references that follow."""
    plain = cls in PLAIN
    stored = [param for param, in shape(cls)] if plain else \
        [f.name for f in fields(cls) if f.init]
    memos = [] if plain else \
        [(f.name, f.default_factory, f.default) for f in fields(cls) if not f.init]
    count = len(stored) + 1
    new, put = object.__new__, object.__setattr__
    slotted = "__slots__" in cls.__dict__

    def make(x: list[Any]) -> Any:
        if len(x) != count:
            raise Stale(f"{cls.__qualname__}: {len(x) - 1} fields stored")
        items = [i if i.__class__ is not list else dec(i) for i in islice(x, 1, None)]
        if plain:
            obj = cls(*items)
        elif slotted:
            obj = new(cls)
            for pair in zip(stored, items):
                put(obj, *pair)
        else:
            obj = new(cls)
            obj.__dict__.update(zip(stored, items))
        for field_name, factory, default in memos:
            put(obj, field_name, factory() if callable(factory) else default)
        keep(obj)
        return obj
    return make
