"""The file system, trusted as little as the logs: read, write and lock files without hanging on a
FIFO, splitting a game in two through a symlink, replacing a device or leaving temporary files.

- `read_regular` reads only a regular file, at most `limit` bytes; a FIFO, a device or a folder
  is refused at once (the open never blocks).
- `replace` writes a file through any symlinks to their target: the new text goes to a temporary
  file beside the target, is fsynced and renamed over it, with the target's mode and (as far as
  the system allows) owner and group; a new file gets the umask. A read-only file, a folder, a
  FIFO or a device is never replaced; with `streams`, a character device or a FIFO (/dev/stdout,
  a named pipe with a reader) is written as a stream instead.
- `locked` holds an exclusive flock on `.NAME.lock` beside the target (so every path to one file
  shares one lock), never through a symlink, waiting a bounded time.

Messages name the path as the user gave it, and what it is (`noun`: "the log", "the scoresheet").
"""

from __future__ import annotations

import contextlib
import errno
import math
import os
import re
import stat
import time
from pathlib import Path
from typing import Any, Iterator

from referee.errors import CannotWrite, LogBusy, LogError, LogMissing, UsageError

LOCK_TIMEOUT = 3.0  # seconds a writer waits for another writer (REFEREE_LOCK_TIMEOUT overrides)
MAX_LOCK_TIMEOUT = 600.0  # a longer (or infinite, or NaN) wait is a mistake: the default applies

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # Windows has none (and no FIFOs to block on)


def kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def target(path: Path) -> Path:
    """The file `path` names once every symlink is followed (the file to write and to lock)."""
    return Path(os.path.realpath(path))


def _stat(path: Path, noun: str) -> os.stat_result | None:
    """The file's status (following symlinks), None when it does not exist."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:  # a symlink loop, a path through a file, no permission
        raise CannotWrite(f"{path}: cannot write {noun} ({exc.strerror})") from None


# --------------------------------------------------------------------------------------------
# Reading


def read_regular(path: Path, limit: int, noun: str = "log", hint: str | None = None) -> bytes:
    """At most `limit` bytes of the regular file `path`; LogMissing (66) for anything else."""
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):  # never open a device or a FIFO: it may block, or act
            raise LogMissing(f"{path}: is {kind(mode)}, not a {noun} file")
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _CLOEXEC | _NOCTTY)
    except FileNotFoundError:
        raise LogMissing(f"{path}: no such {noun}", hint=hint) from None
    except OSError as exc:
        raise LogMissing(f"{path}: cannot read the {noun} ({exc.strerror})") from None
    with open(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):  # swapped for something else since the stat
            raise LogMissing(f"{path}: is {kind(info.st_mode)}, not a {noun} file")
        try:
            # Asked for `limit` bytes at once, read() would first allocate all of them.
            expected = min(limit, info.st_size + 1)
            data = handle.read(expected)
            if len(data) == expected < limit:  # it grew since the fstat: the rest, up to limit
                data += handle.read(limit - expected)
            return data
        except OSError as exc:
            raise LogMissing(f"{path}: cannot read the {noun} ({exc.strerror})") from None


# --------------------------------------------------------------------------------------------
# Writing


def replace(path: Path, data: bytes, noun: str, *, exclusive: bool = False,
            streams: bool = False, exists_hint: str | None = None) -> None:
    """Write `data` to the file `path` names, so that a crash leaves the old file or the new one.

    `exclusive`: the file must not exist yet (LogError 'log-exists' if it does). `streams`: a
    character device or a FIFO is written as a stream rather than refused."""
    st = _stat(path, noun)  # following symlinks, /proc/self/fd/1 to its pipe too
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise CannotWrite(f"{path}: is a folder; name a file for {noun}")
        if not stat.S_ISREG(st.st_mode):
            if streams and (stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
                _write_stream(path, data, noun)
                return
            raise CannotWrite(f"{path}: is {kind(st.st_mode)}, not a regular file; referee "
                              f"never writes {noun} there")
        if exclusive:
            raise LogError(f"{path}: already exists", code="log-exists", hint=exists_hint)
        if not st.st_mode & 0o222 or not os.access(path, os.W_OK):
            raise CannotWrite(f"{path}: is read-only; {noun} was not changed",
                              hint=f"make it writable (chmod u+w {path}) to go on")
    if exclusive and st is None and os.path.islink(path):
        raise CannotWrite(f"{path}: is a symbolic link to nothing ({os.readlink(path)}); referee "
                          f"never creates {noun} through one", hint=exists_hint)
    # A new file is made at the name itself (its folder's links followed): a symbolic link put
    # there meanwhile makes the link below fail, rather than a file made where it points.
    real = target(path.parent) / path.name if exclusive else target(path)
    _write_new_version(real, data, st, exclusive, path, noun, exists_hint)


def _write_new_version(real: Path, data: bytes, st: os.stat_result | None, exclusive: bool,
                       shown: Path, noun: str, exists_hint: str | None) -> None:
    folder = real.parent
    tmp = folder / f".{real.name}.{os.urandom(4).hex()}.tmp"
    try:  # a new file gets 0666 less the umask; a rewritten one gets its old mode below
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC,
                     0o600 if st is not None else 0o666)
    except OSError as exc:
        raise CannotWrite(f"{shown}: cannot write in {folder} ({exc.strerror})") from None
    try:
        with open(fd, "wb") as handle:
            if st is not None:
                _keep_owner_and_mode(handle.fileno(), st)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if exclusive:
            os.link(tmp, real)  # fails if someone created the file meanwhile
            os.unlink(tmp)
        else:
            os.replace(tmp, real)
    except BaseException as exc:  # an interrupt too: never leave the temporary file behind
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, FileExistsError):
            raise LogError(f"{shown}: already exists", code="log-exists",
                           hint=exists_hint) from None
        if isinstance(exc, OSError):
            raise CannotWrite(f"{shown}: cannot write {noun} ({exc.strerror})") from None
        raise
    _fsync_dir(folder)


def _keep_owner_and_mode(fd: int, st: os.stat_result) -> None:
    """Give the new version the old file's owner and group where the system allows it (root, or
    a group the user is in), then its mode (after chown, which may clear set-id bits)."""
    if hasattr(os, "fchown") and (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, st.st_uid, st.st_gid)
        except PermissionError:
            with contextlib.suppress(PermissionError):
                os.fchown(fd, -1, st.st_gid)
    if hasattr(os, "fchmod"):  # Windows before Python 3.13: the new file's mode is kept
        os.fchmod(fd, stat.S_IMODE(st.st_mode))


def _write_stream(path: Path, data: bytes, noun: str) -> None:
    """Write to a character device or a FIFO as it is, without waiting for a reader."""
    try:
        fd = os.open(path, os.O_WRONLY | _NONBLOCK | _NOCTTY | _CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise CannotWrite(f"{path}: no program is reading this FIFO; {noun} was not "
                              "written") from None
        raise CannotWrite(f"{path}: cannot write {noun} ({exc.strerror})") from None
    try:
        os.set_blocking(fd, True)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except OSError as exc:
        raise CannotWrite(f"{path}: cannot write {noun} ({exc.strerror})") from None
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --------------------------------------------------------------------------------------------
# Locking


def lock_path(path: Path) -> Path:
    """The lock file of the file `path` names: beside its target, whatever the symlinks."""
    real = target(path)
    return real.with_name(f".{real.name}.lock")


_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")  # 3, 0.5, 10., .5: nothing else


def lock_timeout() -> float:
    """REFEREE_LOCK_TIMEOUT: seconds from 0 to 600, written as a plain decimal number. Anything
    else (`1_0`, `1e3`, `inf`, `-1`, `601`, text) is refused with a usage error rather than read
    as Python would read it, so that a writer never waits longer than the table meant."""
    text = os.environ.get("REFEREE_LOCK_TIMEOUT")
    if text is None or not text.strip():
        return LOCK_TIMEOUT
    value = float(text) if _DECIMAL.fullmatch(text.strip()) else math.nan
    if not 0 <= value <= MAX_LOCK_TIMEOUT:
        raise UsageError(f"REFEREE_LOCK_TIMEOUT is {text!r}: it must be a number of seconds "
                         f"from 0 to {MAX_LOCK_TIMEOUT:g}, such as 3 or 0.5",
                         code="bad-environment")
    return value


@contextlib.contextmanager
def locked(path: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the exclusive writer's lock of `path`; wait up to `timeout` s, then raise LogBusy.

    The lock is an flock (POSIX) or a byte lock (Windows, msvcrt) on `.NAME.lock`; where the
    system has neither, the lock is the file `.NAME.lock.held`, created exclusively and removed
    when done."""
    wait = lock_timeout() if timeout is None else timeout
    lock = lock_path(path)
    fcntl, msvcrt = _system_module("fcntl"), _system_module("msvcrt")
    if fcntl is None and msvcrt is None:
        with _held_file(path, lock.with_name(lock.name + ".held"), wait):
            yield
        return
    try:
        fd = os.open(lock, os.O_RDONLY | os.O_CREAT | _NOFOLLOW | _NONBLOCK | _CLOEXEC, 0o666)
    except OSError as exc:
        raise _lock_file_error(path, lock, exc) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise CannotWrite(f"{path}: its lock file {lock} is {kind(mode)}",
                              hint=f"remove {lock}")
        deadline = time.monotonic() + wait
        while not _lock_now(fd, fcntl, msvcrt, path):
            _wait_or_give_up(path, deadline)
        yield
    finally:
        if fcntl is None:
            with contextlib.suppress(OSError):
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        os.close(fd)  # closing releases an flock


def _system_module(name: str) -> Any:
    """`fcntl` or `msvcrt`, None where the system has no such module."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        return None


_BUSY = (errno.EAGAIN, errno.EACCES, errno.EDEADLK)  # msvcrt says EACCES or EDEADLOCK


def _lock_now(fd: int, fcntl: Any, msvcrt: Any, path: Path) -> bool:
    """Take the lock if it is free: True; False if another process holds it."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError as exc:
        if exc.errno not in _BUSY:
            raise CannotWrite(f"{path}: cannot lock the log ({exc.strerror})") from None
        return False
    return True


def _wait_or_give_up(path: Path, deadline: float) -> None:
    if time.monotonic() >= deadline:
        raise LogBusy(f"{path}: busy: another referee command is writing this log",
                      hint="wait for it to finish and run your command again")
    time.sleep(0.05)


def _lock_file_error(path: Path, lock: Path, exc: OSError) -> CannotWrite:
    if exc.errno == errno.ELOOP:
        return CannotWrite(f"{path}: its lock file {lock} is a symbolic link; referee does not "
                           "follow it", hint=f"remove {lock}")
    return CannotWrite(f"{path}: cannot create its lock file ({exc.strerror})")


STALE_LOCK = 2 * MAX_LOCK_TIMEOUT  # seconds after which a `.held` file is a crashed writer's


@contextlib.contextmanager
def _held_file(path: Path, held: Path, wait: float) -> Iterator[None]:
    """The lock where the system offers no file locking: `held` created exclusively (exactly
    one writer succeeds), removed when done. A writer holds it for the few moments of a write;
    one older than STALE_LOCK was left by a writer that died, and is taken over."""
    deadline = time.monotonic() + wait
    while True:
        try:
            fd = os.open(held, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC,
                         0o644)
            break
        except FileExistsError:
            if _stale(held) and _removed_while_stale(held):
                continue
            _wait_or_give_up(path, deadline)
        except OSError as exc:
            raise _lock_file_error(path, held, exc) from None
    try:
        os.close(fd)
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(held)


def _stale(path: Path) -> bool:
    try:
        return time.time() - os.lstat(path).st_mtime > STALE_LOCK
    except OSError:
        return False


def _removed_while_stale(held: Path) -> bool:
    """Remove a stale `held` file, with the writers taking it over one at a time (each holding
    `held.break`, created exclusively) and each looking again once alone: without that, one
    could remove the fresh file another has just made in its place, and both would write."""
    guard = held.with_name(held.name + ".break")
    try:
        fd = os.open(guard, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o644)
    except OSError:  # another writer is taking over; one that died doing so left it long ago
        if _stale(guard):
            with contextlib.suppress(OSError):
                os.unlink(guard)
        return False
    try:
        os.close(fd)
        if not _stale(held):
            return False
        with contextlib.suppress(OSError):
            os.unlink(held)
        return True
    finally:
        with contextlib.suppress(OSError):
            os.unlink(guard)
