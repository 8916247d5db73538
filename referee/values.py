"""Frozen value classes that are cheap to define: `@value` in place of `@dataclass(frozen=True)`.

Every `referee` command imports the states and components of one game before it answers, and on
Python 3.11 `dataclasses` compiles six methods for each class (about 1 ms a class, 4 ms for a
state of fifty fields: a fifth of what `play` may cost above Python's own start-up), and
`typing.NamedTuple` compiles every field's annotation. `@value` compiles only `__init__`, and
only when the class makes its first object; equality, hashing and `repr` read the fields
through one `operator.attrgetter`, written once here for every class.

    @value(slots=True)
    class Siege:
        ships: tuple[str, ...]
        turn: int = 1

Fields are the annotated names, in order (no inheritance between value classes); a default is a
class attribute or `field(...)`. Instances are frozen: `evolve` (referee.evolve) makes a changed
copy. Equal instances are of the same class with equal compared fields, as with dataclasses.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Callable, Sequence, TypeVar, dataclass_transform, overload

T = TypeVar("T")
_MISSING: Any = object()
_NO_FIELDS: Callable[[Any], tuple[Any, ...]] = lambda _: ()  # noqa: E731


class FrozenInstanceError(AttributeError):
    """A value's field was assigned: values are replaced, never changed."""


class Field:
    __slots__ = ("name", "default", "default_factory", "init", "compare", "repr")

    def __init__(self, default: Any = _MISSING, default_factory: Any = _MISSING,
                 init: bool = True, compare: bool = True, repr: bool = True) -> None:
        self.name = ""
        self.default, self.default_factory = default, default_factory
        self.init, self.compare, self.repr = init, compare, repr


def field(*, default: Any = _MISSING, default_factory: Callable[[], Any] = _MISSING,
          init: bool = True, compare: bool = True, repr: bool = True) -> Any:
    """A field with a default made fresh for each instance, or left out of init, eq or repr."""
    return Field(default, default_factory, init, compare, repr)


def fields(cls: type) -> tuple[Field, ...]:
    """The fields of a value class, in order."""
    found: tuple[Field, ...] = cls.__dict__["__value_fields__"]
    return found


@overload
def value(cls: type[T], /) -> type[T]: ...
@overload
def value(*, slots: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def value(cls: Any = None, /, *, slots: bool = False) -> Any:
    """Make `cls` a frozen value class (with `__slots__` if `slots`: smaller, no cached
    properties)."""
    if cls is None:
        return lambda klass: _make(klass, slots)
    return _make(cls, slots)


def _make(cls: type, slots: bool) -> type:
    found = _fields(cls)
    if slots and "__derived__" in cls.__dict__:
        raise TypeError(f"{cls.__name__}: a class with __slots__ cannot keep derived values")
    if slots:
        namespace = {k: v for k, v in cls.__dict__.items()
                     if k not in {f.name for f in found} and k not in ("__dict__", "__weakref__")}
        namespace["__slots__"] = tuple(f.name for f in found)
        cls = type(cls)(cls.__name__, cls.__bases__, namespace)
    compared = [f.name for f in found if f.compare]
    shown = [f.name for f in found if f.repr]
    cls.__value_fields__ = found  # type: ignore[attr-defined]
    cls._value_key = staticmethod(attributes(compared))  # type: ignore[attr-defined]
    cls._value_shown = staticmethod(attributes(shown))  # type: ignore[attr-defined]
    cls._value_names = tuple(shown)  # type: ignore[attr-defined]
    cls.__init__ = _first_init(cls, found, slots)  # type: ignore[misc]
    _own_plan(cls)
    if "__derived__" in cls.__dict__:  # declared in the class body: check their reads now
        from referee.derived import expand
        expand(cls)
    for name, method in _METHODS.items():
        setattr(cls, name, method)
    if slots:  # the default pickling would assign the slots one by one, which frozen refuses
        cls._value_args = staticmethod(  # type: ignore[attr-defined]
            attributes([f.name for f in found if f.init]))
        cls.__reduce__ = _reduce  # type: ignore[method-assign, assignment]
    return cls


def _fields(cls: type) -> tuple[Field, ...]:
    annotations = cls.__dict__.get("__annotations__", {})
    found = []
    for name, kind in annotations.items():
        if str(kind).startswith(("ClassVar", "typing.ClassVar")):
            continue
        default = cls.__dict__.get(name, _MISSING)
        spec = default if isinstance(default, Field) else Field(default)
        spec.name = name
        found.append(spec)
        if spec is default:  # the class keeps the plain default, as with dataclasses
            if spec.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
    _check_defaults(cls.__name__, found)
    return tuple(found)


def _own_plan(cls: type) -> None:
    """Give `cls`, and every class made from it later, its own `__evolve_plan__` (none yet): a
    subclass must never evolve through its parent's plan (it would come back as the parent)."""
    from referee.derived import PLAN, NoPlanYet
    setattr(cls, PLAN, NoPlanYet())
    own = cls.__dict__.get("__init_subclass__")
    parent: Any = cls

    def __init_subclass__(sub: Any, /, **kwargs: Any) -> None:
        if own is not None:  # its own, declared in its body
            own.__get__(None, sub)(**kwargs)
        else:
            super(parent, sub).__init_subclass__(**kwargs)
        setattr(sub, PLAN, NoPlanYet())
    setattr(cls, "__init_subclass__", classmethod(__init_subclass__))


def _check_defaults(name: str, found: list[Field]) -> None:
    """Refused at once, as a dataclass would be (the `__init__` is compiled later)."""
    defaulted = False
    for spec in found:
        has_default = spec.default is not _MISSING or spec.default_factory is not _MISSING
        if not spec.init and not has_default:
            raise TypeError(f"{name}.{spec.name}: init=False needs a default")
        if spec.init and defaulted and not has_default:
            raise TypeError(f"{name}.{spec.name}: a field without a default follows one with "
                            f"a default")
        defaulted = defaulted or (spec.init and has_default)


def attributes(names: Sequence[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The named attributes of an object, as a tuple (of one, or none, too)."""
    if not names:
        return _NO_FIELDS
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    many: Callable[[Any], tuple[Any, ...]] = attrgetter(*names)
    return many


def _first_init(cls: type, found: tuple[Field, ...], slots: bool) -> Callable[..., None]:
    """An `__init__` that compiles the real one on the first call and puts it in its place: a
    command creates few of its classes' objects (a state from the cache is decoded, not
    initialised), so most classes never pay for the compilation."""
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if cls.__init__ is __init__:  # type: ignore[misc]
            cls.__init__ = _init(cls, found, slots)  # type: ignore[misc]
        cls.__init__(self, *args, **kwargs)  # type: ignore[misc]

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _init(cls: type, found: tuple[Field, ...], slots: bool) -> Callable[..., None]:
    """`__init__`, compiled once: it sets every field as directly as the class allows."""
    namespace: dict[str, Any] = {"_set": object.__setattr__, "_MISSING": _MISSING}
    params, body = [], []
    for spec in found:
        if spec.default is not _MISSING:
            namespace[f"_d_{spec.name}"] = spec.default
        if spec.default_factory is not _MISSING:
            namespace[f"_f_{spec.name}"] = spec.default_factory
        if spec.init:
            if spec.default is not _MISSING:
                params.append(f"{spec.name}=_d_{spec.name}")
            elif spec.default_factory is not _MISSING:
                params.append(f"{spec.name}=_MISSING")
                body.append(f"if {spec.name} is _MISSING: {spec.name} = _f_{spec.name}()")
            else:
                params.append(spec.name)
            source = spec.name
        elif spec.default_factory is not _MISSING:
            source = f"_f_{spec.name}()"
        else:
            source = f"_d_{spec.name}"
        body.append(f"_set(self, {spec.name!r}, {source})" if slots
                    else f"_d[{spec.name!r}] = {source}")
    lines = [f"def __init__(self, {', '.join(params)}):" if params else "def __init__(self):"]
    if not slots:
        lines.append("    _d = self.__dict__")
    lines += [f"    {line}" for line in body] or ["    pass"]
    exec("\n".join(lines), namespace)  # noqa: S102 - our own text, built from field names
    init: Callable[..., None] = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return self is other or self._value_key(self) == other._value_key(other)


def _hash(self: Any) -> int:
    return hash(self._value_key(self))


def _repr(self: Any) -> str:
    values = self._value_shown(self)
    inner = ", ".join(f"{name}={item!r}" for name, item in zip(self._value_names, values))
    return f"{type(self).__qualname__}({inner})"


def _frozen(self: Any, name: str, *args: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _reduce(self: Any) -> tuple[type, tuple[Any, ...]]:
    return type(self), self._value_args(self)


_METHODS: dict[str, Any] = {"__eq__": _eq, "__hash__": _hash, "__repr__": _repr,
                            "__setattr__": _frozen, "__delattr__": _frozen}
