"""A cache of replayed games, so that `play`, `status` and `options` skip reading and replaying a
log that has not changed since the last command.

It is never the truth: an entry is keyed by the SHA-256 of the log's exact bytes and by the
version of referee and Python, and anything that does not match, cannot be read, or looks tampered
with is ignored and rebuilt from the log. `check` never uses it. Entries are pickles, so they live
only where their owner alone can write: the user's own cache folder (mode 0700, files 0600,
owned by the user), never beside a shared log. REFEREE_CACHE=0 turns the cache off.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from pathlib import Path
from typing import Any

# The C modules behind hashlib and pickle: a `play` should not pay for their Python wrappers.
try:
    from _sha256 import sha256  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - another Python
    from hashlib import sha256
try:
    import _pickle as pickle
except ImportError:  # pragma: no cover - another Python
    import pickle  # type: ignore[no-redef]

from referee import __version__

KEEP = 256  # entries kept; the oldest go first
FORMAT = 7  # raised when what is pickled changes shape within a version
TAG = f"referee {__version__} cache {FORMAT} python {sys.version_info[:3]}"


def folder() -> Path | None:
    """The user's own cache folder, or None when the cache is off or cannot be trusted."""
    if os.environ.get("REFEREE_CACHE", "1") in ("0", "no", "off", "false"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = Path(base) / "referee"
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        return path if _owned(path) else None
    except OSError:
        return None


def _owned(path: Path) -> bool:
    """Only the user may have written it: owned by them, writable by nobody else."""
    info = path.lstat()
    getuid = getattr(os, "getuid", None)
    mine = getuid is None or info.st_uid == getuid()
    return mine and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not \
        stat.S_ISLNK(info.st_mode)


def _entry(root: Path, log_path: Path) -> Path:
    where = os.path.realpath(log_path).encode("utf-8", "surrogateescape")
    return root / (digest(where)[:40] + ".pickle")


def digest(data: bytes) -> str:
    hexdigest: str = sha256(data).hexdigest()
    return hexdigest


def lookup(log_path: Path, data: bytes) -> Any:
    """What was stored for this log when it held exactly `data`, or None."""
    root = folder()
    if root is None:
        return None
    entry = _entry(root, log_path)
    try:
        if not _owned(entry):
            return None
        with open(entry, "rb") as handle:
            if handle.readline() != _header(data):  # another version, or other bytes
                return None
            return pickle.load(handle)
    except Exception:  # noqa: BLE001 - missing, unreadable or corrupt: rebuilt from the log
        return None


def _header(data: bytes) -> bytes:
    """The first line of an entry: what it was made by, and for which bytes of the log."""
    return f"{TAG} {digest(data)}\n".encode()


def store(log_path: Path, data: bytes, value: Any) -> None:
    """Remember `value` for this log holding exactly `data` (quietly gives up on any error)."""
    root = folder()
    if root is None:
        return
    entry = _entry(root, log_path)
    with contextlib.suppress(Exception):
        payload = _header(data) + pickle.dumps(value, protocol=5)
        temp = root / f".entry.{os.urandom(6).hex()}"  # not tempfile: it would import random
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(payload)
            os.replace(temp, entry)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        if len(os.listdir(root)) > KEEP:
            _prune(root)


def _prune(root: Path) -> None:
    entries = list(root.glob("*.pickle"))
    if len(entries) <= KEEP:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[:len(entries) - KEEP]:
        with contextlib.suppress(OSError):
            old.unlink()
