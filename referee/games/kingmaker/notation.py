"""Kingmaker's words: names as typed, locations, keyword sections and `key=value` declarations.

Names take any case, unique prefixes of three characters or more, and `-` for spaces
(`Earl-of-Essex`, `earl of essex`, `Earl-of-E`); a name of several words may also be typed with
spaces. Lists are comma-separated.
Canonical output writes each name with `-` for its spaces, so one token is one name.
Declarations (R-2) are `key=value` words; a value with a `-` of its own is quoted
(`"Stratford-upon-Avon"`).
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from referee.errors import AmbiguousMove, NotationError
from referee.games.kingmaker.components import ALL_FIELDS, ENUMS, NAME_FIELDS, article, norm
from referee.notation import prefixed

_TOKEN = re.compile(r'(?:"[^"]*"|[^\s,"])+|,|"[^"]*$')
LOCATION_PREFIXES = ("in", "near", "sq", "aboard", "port", "sea")
BLANK = "___"  # a value still to be typed in a `declare` line the referee prints


def tokens(text: str) -> list[str]:
    """Words, with commas as their own tokens and `"..."` kept whole."""
    return _TOKEN.findall(text)


def unquote(text: str) -> str:
    return text.replace('"', "")


def shown(name: str) -> str:
    """A name in canonical notation: one token, `-` for spaces, quoted if it has a `-`."""
    if "-" in name or "," in name or "=" in name:
        return f'"{name}"'
    return name.replace(" ", "-")


def shown_list(names: Iterable[str]) -> str:
    return ",".join(shown(n) for n in names)


# ---- sections: `move Neville, Percy to near:York via Coventry` --------------------------------


def sections(words: Sequence[str], keywords: Iterable[str], text: str) -> dict[str, list[str]]:
    """Words split at keywords: {"": leading words, "to": [...], ...}; a keyword may come once."""
    keys = {k.casefold(): k for k in keywords}
    out: dict[str, list[str]] = {"": []}
    current = ""
    for word in words:
        key = keys.get(word.casefold()) if not word.startswith('"') else None
        if key is not None:
            if key in out:
                raise NotationError(f"{key!r} comes twice in {text!r}", code="repeated-word")
            out[key] = []
            current = key
        else:
            out[current].append(word)
    return out


def items(words: Sequence[str]) -> list[str]:
    """Comma-separated items, each the words between two commas joined by spaces."""
    out: list[list[str]] = [[]]
    for word in words:
        if word == ",":
            out.append([])
        else:
            out[-1].append(unquote(word))
    return [" ".join(item) for item in out if item]


def one(words: Sequence[str], what: str, text: str) -> str:
    found = items(words)
    if len(found) != 1:
        raise NotationError(f"expected one {what} in {text!r}", code="bad-list")
    return found[0]


# ---- names ------------------------------------------------------------------------------------


def find(word: str, choices: Iterable[str], what: str, text: str,
         aliases: dict[str, str] | None = None) -> str:
    """The one choice `word` names: exact (normalised) or alias, else a unique prefix of three
    or more characters."""
    options = list(choices)
    key = norm(word)
    if not key:
        raise NotationError(f"{article(what)} is missing in {text!r}", code="no-name")
    exact = [c for c in options if norm(c) == key]
    if exact:
        return exact[0]
    if aliases and key in aliases:
        return aliases[key]
    hits = prefixed(key, options, key=norm)
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise AmbiguousMove(f"{word!r} in {text!r} could be the {what} "
                            f"{' or '.join(sorted(hits)[:6])}", code="ambiguous-word")
    near = nearest(word, options)
    if near:  # a slip (`Nevile`, `Londn`): offered, never taken
        raise NotationError(f"{word!r} in {text!r} is not {article(what)}: "
                            f"{' or '.join(shown(n) for n in near)}?", code="unknown-word")
    close = sorted(options)[:8] if len(options) <= 8 else []
    raise NotationError(f"{word!r} in {text!r} is not {article(what)}" +
                        (f"; expected one of {', '.join(close)}" if close else ""),
                        code="unknown-word")


def nearest(word: str, choices: Iterable[str]) -> list[str]:
    """The choices a slip is nearest to (`Nevile`: Neville), closest first: what forgiving
    input offers the table, never takes for it."""
    import difflib  # only on a refusal: keep it off start-up

    names: dict[str, str] = {}
    for choice in choices:
        names.setdefault(norm(choice), choice)
    close = difflib.get_close_matches(norm(word), list(names), n=3, cutoff=0.8)
    return [names[key] for key in close]


def find_all(words: Sequence[str], choices: Iterable[str], what: str, text: str,
             aliases: dict[str, str] | None = None) -> tuple[str, ...]:
    names = items(words)
    if not names:
        raise NotationError(f"no {what} named in {text!r}", code="no-name")
    options = list(choices)
    found = [find(n, options, what, text, aliases) for n in names]
    if len(set(found)) != len(found):
        raise NotationError(f"{article(what)} is named twice in {text!r}", code="duplicate-name")
    return tuple(found)


# ---- locations --------------------------------------------------------------------------------


def split_location(location: str) -> tuple[str, str]:
    """`near:York` -> ("near", "York"); a bare place name means inside it."""
    prefix, sep, rest = location.partition(":")
    if sep and prefix.casefold() in LOCATION_PREFIXES:
        return prefix.casefold(), rest
    return "in", location


def location_words(words: Sequence[str], text: str) -> tuple[str, str]:
    """The prefix and the name of a typed location (the name may have several words)."""
    joined = " ".join(unquote(w) for w in words if w != ",")
    if not joined:
        raise NotationError(f"a location is missing in {text!r}", code="no-location")
    prefix, rest = split_location(joined)
    if not rest.strip():
        raise NotationError(f"{joined!r} in {text!r} names no place", code="no-location")
    return prefix, rest.strip()


def shown_location(location: str) -> str:
    prefix, rest = split_location(location)
    return f"{prefix}:{shown(rest)}"


# ---- declarations (R-2) -----------------------------------------------------------------------


def is_declaration(word: str) -> bool:
    return "=" in word and not word.startswith("=")


def value_of(key: str, text: str, where: str) -> Any:
    """A typed value of a field, by the field's kind (lists are comma-separated)."""
    kind = ALL_FIELDS.get(key)
    if kind is None:
        raise NotationError(f"{key!r} in {where!r} is not a field of any component",
                            code="unknown-field")
    if kind == "int":
        if not re.fullmatch(r"\d{1,5}", text):
            raise NotationError(f"{key}={text} in {where!r}: a whole number is expected",
                                code="bad-value")
        return int(text)
    if kind == "bool":
        low = text.casefold()
        if low not in ("yes", "no", "true", "false"):
            raise NotationError(f"{key}={text} in {where!r}: yes or no is expected",
                                code="bad-value")
        return low in ("yes", "true")
    parts = [_text(key, part) for part in _split_outside_quotes(text)] if kind == "str[]" \
        else [_text(key, text)]
    return tuple(p for p in parts if p) if kind == "str[]" else parts[0]


def _split_outside_quotes(text: str) -> list[str]:
    return [p for p in re.findall(r'(?:"[^"]*"|[^,"])+', text)]


def _text(key: str, text: str) -> str:
    """A typed text value: quoted is literal; a name's `-` is a space; enums keep theirs."""
    if '"' in text:
        return unquote(text)
    if key in NAME_FIELDS or key == "source":
        return text.replace("-", " ")
    return text


def value_text(key: str, value: Any) -> str:
    """A value in canonical notation (parses back to the same value)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (tuple, list)):
        return ",".join(_one_text(key, v) for v in value) if value else '""'
    return _one_text(key, value)


def _one_text(key: str, value: str) -> str:
    enum = any(k == key or k.startswith(f"{key}:") for k in ENUMS)
    if enum and " " not in value:
        return value
    if "-" in value or "," in value or "=" in value or "." in value or not value:
        return f'"{value}"'
    return value.replace(" ", "-")


def declaration_words(words: Sequence[str], text: str) -> list[tuple[str, str]]:
    """`key=value` words (a list value may go on after commas) as (key, raw value) pairs."""
    out: list[tuple[str, str]] = []
    index = 0
    while index < len(words):
        word = words[index]
        if not is_declaration(word):
            raise NotationError(f"{word!r} in {text!r}: expected key=value", code="bad-value")
        key, _, value = word.partition("=")
        index += 1
        while index + 1 < len(words) and words[index] == "," and \
                not is_declaration(words[index + 1]):
            value += "," + words[index + 1]
            index += 2
        out.append((key, value))
    return out


def split_trailing_declarations(words: Sequence[str]) -> tuple[list[str], list[str]]:
    """A move's words and its trailing `key=value` declarations (R-2): from the first one on."""
    start = next((i for i, w in enumerate(words) if is_declaration(w)), len(words))
    return list(words[:start]), list(words[start:])


def inline_item(word: str, text: str) -> tuple[str, str, str]:
    """`Herbert.troops=10` -> ("Herbert", "troops", "10"); a bare `troops=10` has no name."""
    left, _, value = word.partition("=")
    name, dot, key = _rsplit_dot(left)
    if not dot:
        return "", left, value
    return unquote(name).replace("-", " ") if '"' not in name else unquote(name), key, value


def _rsplit_dot(text: str) -> tuple[str, str, str]:
    """Split at the last dot outside quotes."""
    quoted = False
    for index in range(len(text) - 1, -1, -1):
        char = text[index]
        if char == '"':
            quoted = not quoted
        elif char == "." and not quoted:
            return text[:index], ".", text[index + 1:]
    return "", "", text
