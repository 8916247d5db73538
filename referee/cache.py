"""A cache of replayed games, so that `play`, `status` and `options` skip replaying a log that has
not changed since the last command. The log itself is always read from its file, and an entry is
used only when the log it stores is that one (referee.session): a forged entry cannot supply the
log's content, nor what a command writes.

It is never the truth: an entry is used only for the log at the same real path holding exactly
the same bytes, written by the same version and code of referee (`code`) and Python, and whose
own content still has the SHA-256 it was written with; anything else is ignored and rebuilt
from the log. `check` never uses it.

An entry is plain data, never code: marshal of the game's values (referee.cachecodec), which
loading turns back only into referee's own value classes whose fields are still those the entry
names, so a class changed since is a miss. It lives in the user's own cache folder, opened once
and checked through the open descriptor (owned by the user, writable by nobody else, not a
symbolic link); every entry is opened, written and renamed relative to that descriptor, so no
path is looked up again after the check. Where the system cannot open files relative to a
folder, the cache is off. REFEREE_CACHE unset, empty, 1, true, yes or on (any case, blanks
around ignored) leaves it on; any other value, 0, false, no or off say, turns it off.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import time
from typing import Any, Iterator

# The C module behind hashlib: a `play` should not pay for its Python wrapper.
try:
    from _sha256 import sha256  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - another Python
    from hashlib import sha256

from referee import __version__, cachecodec

KEEP = 256  # entries kept; the oldest go first
LIMIT = 64 * 1024 * 1024  # bytes; far more than a log of the largest size (4 MiB) replays to
SUFFIX = ".json"
TAG = f"referee {__version__} cache {cachecodec.FORMAT} python {sys.version_info[:3]}"
ON = ("", "1", "true", "yes", "on")  # REFEREE_CACHE values that leave it on; others turn it off


def enabled() -> bool:
    """Whether REFEREE_CACHE leaves the cache on (unset, empty, 1, true, yes, on; any case)."""
    return os.environ.get("REFEREE_CACHE", "").strip().lower() in ON


def location() -> str | None:
    """The cache folder's path: $XDG_CACHE_HOME/referee, else ~/.cache/referee. A relative
    XDG_CACHE_HOME is invalid (the XDG base directory specification) and ignored."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return os.path.join(base, "referee")


def supported() -> bool:
    """Whether this system opens, renames and removes files relative to an open folder (a
    rename's support is os.rename's: os.replace is the same call, but not listed)."""
    return (hasattr(os, "O_DIRECTORY") and hasattr(os, "O_NOFOLLOW") and hasattr(os, "getuid")
            and {os.open, os.stat, os.unlink, os.rename} <= os.supports_dir_fd
            and os.listdir in os.supports_fd)


@contextlib.contextmanager
def opened() -> Iterator[int | None]:
    """The cache folder, open (a descriptor), or None when the cache is off, unsupported, or
    the folder cannot be trusted; closed on leaving."""
    fd = _open_folder()
    try:
        yield fd
    finally:
        if fd is not None:
            os.close(fd)


def _open_folder() -> int | None:
    path = location() if enabled() and supported() else None
    if path is None:
        return None
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, 0o700)
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    if _trusted(os.fstat(fd), stat.S_ISDIR):
        return fd
    os.close(fd)
    return None


def _trusted(info: os.stat_result, kind: Any) -> bool:
    """Only the user may have written it: of the right kind, theirs, writable by nobody else."""
    return bool(kind(info.st_mode)) and info.st_uid == os.getuid() and \
        not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def name(log_path: os.PathLike[str] | str) -> str:
    """The entry's file name in the folder: a digest of the log's real path."""
    return digest(_where(log_path))[:40] + SUFFIX


def _where(log_path: os.PathLike[str] | str) -> bytes:
    return os.path.realpath(log_path).encode("utf-8", "surrogateescape")


def digest(data: bytes) -> str:
    hexdigest: str = sha256(data).hexdigest()
    return hexdigest


def header(log_path: os.PathLike[str] | str, data: bytes) -> bytes | None:
    """An entry's first line before its content's digest: what made it (this version, this very
    code), for which log. None when the code cannot be told (`code`): no entry is read or
    written then."""
    if RUNNING is None:
        return None
    return f"{TAG} {RUNNING} {digest(_where(log_path) + bytes(1) + data)} ".encode()


PACKAGE = os.path.dirname(os.path.abspath(__file__))
CODE = (".py", ".pyc", ".so", ".pyd", ".toml")  # modules, sourceless or compiled, and data
PARSER = "rtoml"  # referee.log's parser, installed apart: an upgrade could read a log otherwise
SETTLED = 2 * 10**9  # ns: the coarsest tick a common file system stamps times in (FAT's)


def code() -> str | None:
    """A digest of the code that replays a log: the path, size, times and inode of every module
    and data file of the package, and of the log's parser (PARSER) where it is installed. A rule changed without a new version number (a fix installed
    again, a source tree edited) makes every entry a miss, rather than an answer the new code
    would not give; the change time is there because no installer can set it back, as tar,
    cp -p or rsync -a do the modification time. Stamps, not contents: about a millisecond.
    None when a file cannot be listed, or when one changed so lately (`settled`) that the same
    stamps could still go to other bytes within the same tick of the file system's clock."""
    found: list[str] = []
    try:
        changed = _code_files(PACKAGE, "", found)
        parser = _parser_folder()
        if parser is not None:
            changed = max(changed, _code_files(parser, f"{PARSER}:", found))
    except OSError:
        return None
    if not settled(changed, time.time_ns()):
        return None
    found.sort()  # the order a folder lists its files in is the file system's
    return digest("\n".join(found).encode("utf-8", "surrogateescape"))


def _parser_folder() -> str | None:
    from importlib.util import find_spec

    try:
        spec = find_spec(PARSER)
    except (ImportError, ValueError):  # pragma: no cover - a broken install: tomllib reads
        return None
    return None if spec is None or spec.origin is None else os.path.dirname(spec.origin)


def settled(changed: int, now: int) -> bool:
    """Whether a file changed at `changed` (ns) is too long ago to share its stamp with a change
    made `now` or later: SETTLED where stamps are whole seconds (a file system that keeps no
    finer times), a twentieth of it (0.1 s, ten clock ticks) where they are finer."""
    return changed <= now - (SETTLED if changed % 10**9 == 0 else SETTLED // 20)


def _code_files(folder: str, prefix: str, found: list[str]) -> int:
    """Each code file's line added to `found`; the latest change time among them."""
    latest = 0
    with os.scandir(folder) as entries:
        for entry in entries:
            name = entry.name
            if name.endswith(CODE):
                info = entry.stat()
                found.append(f"{prefix}{name} {info.st_size} {info.st_mtime_ns} "
                             f"{info.st_ctime_ns} {info.st_ino}")
                latest = max(latest, info.st_ctime_ns)
            elif "." not in name and name != "__pycache__" and entry.is_dir():
                latest = max(latest, _code_files(entry.path, f"{prefix}{name}/", found))
    return latest


# The code this process runs, told once as it starts using the cache (this module is imported
# by the first lookup or store, or a table session's history file, before a game's modules):
# a constant of the process, as TAG is, not a remembered answer. A session left open while
# referee is installed again keeps stamping its entries with the code it really runs, and a
# later command of the new code misses them. None, for the process's whole life, when it
# starts within a tick of a change (`settled`): it cannot tell which bytes it loaded.
RUNNING = code()


def lookup(log_path: os.PathLike[str] | str, data: bytes) -> tuple[str, Any] | None:
    """The game id and the values stored for this log when it held exactly `data`, or None."""
    with opened() as folder:
        content = None if folder is None else _read(folder, name(log_path))
    if content is None:
        return None
    first, _, body = content.partition(b"\n")
    expected = header(log_path, data)
    if expected is None or first != expected + digest(body).encode():
        return None  # another log, version or Python; or corrupt, truncated, tampered with
    try:
        return cachecodec.decode(body)
    except Exception:  # noqa: BLE001 - a state class changed since it was written: rebuilt
        return None


def _read(folder: int, entry: str) -> bytes | None:
    """An entry's bytes, if it is a regular file only the user could have written."""
    try:  # O_NONBLOCK: a FIFO in its place must not hang the command (it is then refused)
        fd = os.open(entry, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK,
                     dir_fd=folder)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not _trusted(info, stat.S_ISREG) or info.st_size > LIMIT:
            return None
        try:
            content: bytes = handle.read(LIMIT + 1)
        except OSError:
            return None
    return content if len(content) <= LIMIT else None


def store(log_path: os.PathLike[str] | str, data: bytes, game_id: str, values: Any) -> None:
    """Remember `values` of a game for this log holding exactly `data` (quietly gives up on any
    error, or on a value the codec does not store)."""
    if not enabled():
        return
    with contextlib.suppress(Exception):
        made = header(log_path, data)
        if made is None:
            return
        body = cachecodec.encode(game_id, values)
        content = made + digest(body).encode() + b"\n" + body
        with opened() as folder:
            if folder is not None:
                _write(folder, name(log_path), content)
                if len(os.listdir(folder)) > KEEP:
                    _prune(folder)


def _write(folder: int, entry: str, content: bytes) -> None:
    """Written whole beside the entry and renamed over it, all within the folder. Not fsynced:
    what a crash leaves of an entry fails its digest and is rebuilt, and a `play` would wait
    for the disk twice (the log is fsynced)."""
    temp = f".entry.{os.urandom(6).hex()}"  # not tempfile: it would import random
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o600, dir_fd=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
        os.replace(temp, entry, src_dir_fd=folder, dst_dir_fd=folder)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=folder)


def _prune(folder: int) -> None:
    """The oldest entries go (and any left by earlier versions of the cache)."""
    dated = []
    for entry in os.listdir(folder):
        with contextlib.suppress(OSError):
            info = os.stat(entry, dir_fd=folder, follow_symlinks=False)
            dated.append((info.st_mtime, entry))
    dated.sort()
    for _, entry in dated[:max(0, len(dated) - KEEP)]:
        with contextlib.suppress(OSError):
            os.unlink(entry, dir_fd=folder)
