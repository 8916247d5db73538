"""A replayed game as plain data, for the replay cache (referee.cache): loading it builds values,
and runs no code the data names.

The container is `marshal`, holding only str, int, float, bool, None, tuple, frozenset and dict:
it reads them back in C, several times faster than JSON (a warm `play` pays it). Whatever else
the game holds is a list whose first item says what it is: `["t", ...]` a tuple, `["f", ...]` a
frozenset or `["d", keys, values]` a dict that holds such things, `["l", ...]` a list, `["s",
...]` a set, `["D", iso]` a date-time, `["a", iso]` a date, `["T", iso]` a time, `["P", text]` a
path, `[n, field, ...]` an object of the n-th class of the entry's table, `["c", n, count,
column, ...]` a tuple of objects of that class by the columns of their fields (made in C loops),
`["z", column, ...]` a tuple of rows of one length (pairs, say) by their columns, and `["r", k]`
the k-th object made before (an object met again: a state shares most of its parts with the one
before it). A container of plain data only is stored as it is, and decoding never walks into it.
Before anything is made of an entry, it is checked to hold nothing but those kinds: marshal
before Python 3.13 also builds code objects (never running them), and none may come out.

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
from collections import deque
from itertools import chain, compress, count, islice, repeat
from operator import is_
from pathlib import Path
from typing import Any, Callable

from referee.engine import Event, load_game
from referee.log import _Locator
from referee.values import attributes, fields

FORMAT = 1  # raised when the encoding itself changes
PLAIN: tuple[type, ...] = (Event, _Locator)  # not value classes: made by their constructor
SCALARS = frozenset((str, int, float, bool, type(None)))
CONTAINERS = frozenset((tuple, frozenset, dict, list, set))
DATA = SCALARS | CONTAINERS  # all an entry may hold (marshal also makes code objects, bytes...)
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
    # Objects by id, numbered as they are stored: the memo lives for this call only and keeps
    # each object it names, so no id is reused while it stands. Numbered in the order decoding
    # makes them: an object of a column met first inside another's fields is made twice.
    memo: dict[int, tuple[int, Any]] = {}
    numbers = count()
    scalar = SCALARS.__contains__

    def enc(obj: Any) -> Any:
        kind = obj.__class__
        if kind is tuple or kind is frozenset:
            return sequence(obj)
        if kind in SCALARS:
            return obj
        if kind is dict:
            if _plain(obj):
                return obj
            return ["d", enc(tuple(obj)), enc(tuple(obj.values()))]
        if kind is list or kind is set:
            return ["l" if kind is list else "s", *map(enc, obj)]
        seen = memo.get(id(obj))
        if seen is not None:
            return ["r", seen[0]]
        found = classes.get(kind) or _known(kind, classes)
        if found is None:
            return _scalar_like(obj)
        out = [found[0], *[x if x.__class__ in SCALARS else enc(x) for x in found[1](obj)]]
        memo[id(obj)] = (next(numbers), obj)
        return out

    def sequence(obj: tuple[Any, ...] | frozenset[Any]) -> Any:
        if all(map(scalar, map(type, obj))):
            return obj
        first = next(iter(obj)).__class__
        rows = len(obj)
        if obj.__class__ is tuple and rows > 1 and first not in CONTAINERS and \
                first not in SCALARS and all(map(is_, map(type, obj), repeat(first))):
            # objects of one class
            found = columns(obj)
            if found is not None:
                return found
        elif _plain(obj):
            return obj
        elif first is tuple and obj.__class__ is tuple and \
                all(map(is_, map(type, obj), repeat(tuple))) and \
                len(set(map(len, obj))) == 1 and len(obj[0]) < rows:
            # many rows of one length, e.g. pairs
            return ["z", *[enc(column) for column in zip(*obj)]]
        items = [x if x.__class__ in SCALARS else enc(x) for x in obj]
        if all(map(is_, items, obj)):
            return obj  # all plain data, however deep
        return ["t" if obj.__class__ is tuple else "f", *items]

    def columns(objects: tuple[Any, ...]) -> list[Any] | None:
        """Objects of one class, none met before, by the columns of their fields."""
        found = classes.get(objects[0].__class__) or _known(objects[0].__class__, classes)
        ids = set(map(id, objects))
        if found is None or len(ids) < len(objects) or not memo.keys().isdisjoint(ids):
            return None
        stored = [enc(column) for column in zip(*map(found[1], objects))]
        for obj in objects:
            memo[id(obj)] = (next(numbers), obj)
        return ["c", found[0], len(objects), *stored]

    payload = enc(value)
    table = tuple((cls.__module__, cls.__qualname__, shape(cls)) for cls in classes)
    return marshal.dumps((game_id, table, payload))


def _plain(obj: tuple[Any, ...] | frozenset[Any] | dict[Any, Any]) -> bool:
    """Whether `obj` holds, however deep, only what marshal stores as itself (never a subclass,
    an object, a date-time) and no list (a list is a tag here): checked in C. A list's code in
    the bytes may also be a byte of a text or a number; then the walk decides."""
    try:
        dumped = marshal.dumps(obj)
    except ValueError:
        return False
    return b"[" not in dumped and b"\xdb" not in dumped


def _known(kind: type, classes: dict[type, Any]) -> tuple[int, Callable[[Any], Any]] | None:
    """A class met for the first time: its number in the table and what is stored of an
    object of it (the fields `__init__` takes; a memo is not stored)."""
    if kind in PLAIN or "__value_fields__" in kind.__dict__ and \
            kind.__module__.startswith("referee."):
        found = classes[kind] = (len(classes), attributes(_layout(kind)[1]))
        return found
    return None


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
    entry = marshal.loads(body, **LOADS)
    if not _data_only(entry, len(body)):
        raise Stale("not plain data")
    game_id, table, payload = entry
    if game_id.__class__ is not str or table.__class__ is not tuple:
        raise Stale("not an entry")
    load_game(game_id)  # its modules, which hold the classes the table names
    made: list[Any] = []  # the objects made so far, in the order the encoder numbered them

    def items(x: list[Any], start: int = 1) -> list[Any]:
        return [i if i.__class__ is not list else makers[i[0]](i) for i in islice(x, start, None)]

    makers: dict[Any, Callable[[list[Any]], Any]] = {
        "t": lambda x: tuple(items(x)),
        "f": lambda x: frozenset(items(x)),
        "l": items,
        "s": lambda x: set(items(x)),
        "d": lambda x: _dict(*items(x)),
        "D": lambda x: dt.datetime.fromisoformat(x[1]),
        "a": lambda x: dt.date.fromisoformat(x[1]),
        "T": lambda x: dt.time.fromisoformat(x[1]),
        "P": lambda x: PATH(x[1]),
        "r": lambda x: made[x[1]],
        "c": lambda x: makers_of[x[1]](x[2], items(x, 3)),
        "z": lambda x: tuple(zip(*items(x))),
    }
    makers_of: list[Callable[[int, list[Any]], tuple[Any, ...]]] = []
    for index, (module, name, written) in enumerate(table):
        cls = _resolve(module, name)
        if shape(cls) != written:
            raise Stale(f"{module}.{name} has changed shape")
        makers_of.append(_maker(cls, made.extend))
        makers[index] = _one(cls, items, made.append)
    return game_id, items([None, payload])[0]


def _data_only(entry: Any, budget: int) -> bool:
    """Whether `entry` holds, however deep, only the kinds of DATA: not a code object (which
    marshal builds before Python 3.13, without running it), nor anything else. One level of
    the containers at a time, each in C loops. marshal shares a container met twice (and a
    list may even hold itself): past `budget` items, far more than an entry of that size holds
    but for much sharing, a container met again is not walked again."""
    level: list[Any] = [(entry,)]
    seen: set[int] | None = None  # the containers walked, by id (all alive: `entry` holds them)
    while level:
        if seen is not None:
            fresh = dict(zip(map(id, level), level))
            level = [fresh[key] for key in fresh.keys() - seen]
            seen.update(fresh)
        dicts = compress(level, map(is_, map(type, level), repeat(dict)))
        items = list(chain.from_iterable(chain(level, map(dict.values, dicts))))
        kinds = list(map(type, items))
        if not DATA.issuperset(kinds):
            return False
        level = list(compress(items, map(CONTAINERS.__contains__, kinds)))
        budget -= len(items)
        if budget < 0 and seen is None:
            seen = set()
    return True


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


def _dict(keys: tuple[Any, ...], values: tuple[Any, ...]) -> dict[Any, Any]:
    if len(keys) != len(values):
        raise Stale("a dict of more keys than values, or fewer")
    return dict(zip(keys, values))


def _layout(cls: type) -> tuple[bool, list[str], list[tuple[str, Any, Any]]]:
    """Whether `cls` is made by its constructor (PLAIN), the fields stored, and the memos
    (fields left out of `__init__`: each with its default factory and default)."""
    if cls in PLAIN:
        return True, [param for param, in shape(cls)], []
    return False, [f.name for f in fields(cls) if f.init], \
        [(f.name, f.default_factory, f.default) for f in fields(cls) if not f.init]


def _one(cls: type, items: Callable[[list[Any]], list[Any]],
         keep: Callable[[Any], None]) -> Callable[[list[Any]], Any]:
    """What makes one object of `cls` from `[n, field, ...]`, as `_maker` makes many (a
    separate path: most objects are alone, and columns of one would cost a third more)."""
    plain, stored, memos = _layout(cls)
    count = len(stored) + 1
    new, put = object.__new__, object.__setattr__
    slotted = "__slots__" in cls.__dict__

    def make(x: list[Any]) -> Any:
        if len(x) != count:
            raise Stale(f"{cls.__qualname__}: the stored fields do not fit")
        values = items(x)
        if plain:
            obj = cls(*values)
        else:
            obj = new(cls)
            if slotted:
                for pair in zip(stored, values):
                    put(obj, *pair)
            else:
                obj.__dict__.update(zip(stored, values))
            for field_name, factory, default in memos:
                put(obj, field_name, factory() if callable(factory) else default)
        keep(obj)
        return obj
    return make


def _maker(cls: type, keep: Callable[[list[Any]], None]) -> Callable[[int, list[Any]],
                                                                       tuple[Any, ...]]:
    """What makes `count` objects of `cls` from the columns of their fields, without its
    `__init__` (but a PLAIN class's), in C loops; and keeps them for the references that
    follow."""
    plain, stored, memos = _layout(cls)
    new, put = object.__new__, object.__setattr__
    slotted = "__slots__" in cls.__dict__

    def make(count: int, columns: list[Any]) -> tuple[Any, ...]:
        if len(columns) != len(stored) or any(len(column) != count for column in columns):
            raise Stale(f"{cls.__qualname__}: the stored fields do not fit")
        if plain:
            objects = list(map(cls, *columns))
        else:
            objects = list(map(new, repeat(cls, count)))
            if slotted:
                for field_name, column in zip(stored, columns):
                    deque(map(put, objects, repeat(field_name), column), 0)
            else:
                deque(map(dict.update, map(vars, objects), map(zip, repeat(stored),
                                                                zip(*columns))), 0)
            for field_name, factory, default in memos:
                for obj in objects:
                    put(obj, field_name, factory() if callable(factory) else default)
        keep(objects)
        return tuple(objects)
    return make
