"""Files the tool must not damage: symlinks, devices, FIFOs, modes and owners, read-only logs, the
lock file, `simulate --save`, unreadable logs; and no temporary file is ever left behind."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from referee import files
from referee import log as logfile
from referee.errors import CannotWrite, LogError, LogMissing, UsageError
from tests.conftest import GOLDEN, ROOT

ROOT_USER = os.geteuid() == 0
NEW = ("new", "kings-ear", "-p", "Ann", "-p", "Ben")


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# ---- symlinks --------------------------------------------------------------------------------


def test_a_log_reached_through_a_symlink_is_written_and_locked_at_its_target(cli):
    real = cli.path / "games" / "real.toml"
    real.parent.mkdir()
    assert cli("--log", str(real), *NEW).status == 0
    link = cli.path / "link.toml"
    link.symlink_to(real)
    assert cli("--log", "link.toml", "play", "draw", "PA3").status == 0
    assert link.is_symlink() and os.readlink(link) == str(real)  # still a link, not a copy
    assert 'card = "Pig Army 3"' in real.read_text()
    assert files.lock_path(link) == real.parent / ".real.toml.lock"
    assert not (cli.path / ".link.toml.lock").exists()
    with logfile.locked(real):  # one game, one lock, whichever path is used
        result = cli("--log", "link.toml", "play", "place", "Stag")
    assert result.status == 75 and "busy" in result.err
    assert cli("--log", "link.toml", "undo", "--force").status == 0 and link.is_symlink()


def test_new_never_creates_a_log_through_a_dangling_symlink(cli):
    """T9: `new` followed a dangling symlink and created the log wherever it pointed (a shared
    or unzipped game folder could make it write outside). It is refused (73), nothing made;
    a folder reached through a symlink is still fine."""
    elsewhere = cli.path / "elsewhere"
    elsewhere.mkdir()
    (cli.path / "game.toml").symlink_to(elsewhere / "planted.sh")
    refused = cli(*NEW)
    assert refused.status == 73 and "symbolic link to nothing" in refused.err
    assert not (elsewhere / "planted.sh").exists() and (cli.path / "game.toml").is_symlink()
    (cli.path / "games").symlink_to(elsewhere)
    assert cli("--log", "games/real.toml", *NEW).status == 0
    assert (elsewhere / "real.toml").is_file()


def test_a_symlink_made_at_the_name_while_new_writes_is_not_followed(tmp_path, monkeypatch):
    """The name is checked, then the new log is linked at the name itself: a symlink put there
    in between makes `new` fail as 'already exists', never write where it points."""
    path = tmp_path / "game.toml"
    resolved = files.target

    def then_planted(where):
        if not path.is_symlink():  # planted after the name was checked, before it is resolved
            path.symlink_to(tmp_path / "planted")
        return resolved(where)

    monkeypatch.setattr(files, "target", then_planted)
    with pytest.raises(LogError) as refused:
        files.replace(path, b"x", "the log", exclusive=True)
    assert refused.value.code == "log-exists" and not (tmp_path / "planted").exists()


def test_a_symlink_at_the_lock_name_is_never_followed(ke_game):
    victim = ke_game.path / "victim"
    (ke_game.path / ".game.toml.lock").symlink_to(victim)
    before = (ke_game.path / "game.toml").read_bytes()
    result = ke_game("play", "draw", "PA3")
    assert result.status == 73 and "symbolic link" in result.err
    assert not victim.exists() and (ke_game.path / "game.toml").read_bytes() == before


# ---- devices, FIFOs and folders ---------------------------------------------------------------


def test_a_fifo_at_the_log_path_is_refused_at_once(cli):
    fifo = cli.path / "f.toml"
    os.mkfifo(fifo)
    started = time.monotonic()
    for args in (("status",), ("play", "draw", "PA3"), ("undo",), ("score",)):
        result = cli("--log", "f.toml", *args)
        assert result.status == 66 and "FIFO" in result.err, args
    result = cli("--log", "f.toml", *NEW)
    assert result.status == 73 and "never writes the log there" in result.err
    assert stat.S_ISFIFO(fifo.stat().st_mode) and time.monotonic() - started < 5


def test_check_in_two_processes_does_not_stall_on_a_fifo(tmp_path):
    good = GOLDEN / "kings-ear" / "three-player-win.toml"
    os.mkfifo(tmp_path / "f.toml")
    result = subprocess.run([sys.executable, "-m", "referee", "check", "--jobs", "2", str(good),
                             str(tmp_path / "f.toml"), str(good)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 66
    assert result.stdout.count(": ok (") == 2 and "FIFO" in result.stdout


def test_a_character_device_is_never_replaced(cli):
    result = cli("--log", "/dev/null", *NEW)
    assert result.status == 73 and "character device" in result.err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert cli("--log", "/dev/null", "status").status == 66


def test_new_onto_a_folder_is_not_a_malformed_log(cli):
    (cli.path / "dir.toml").mkdir()
    result = cli("--log", "dir.toml", *NEW)
    assert result.status == 73 and "is a folder" in result.err
    assert cli("--log", "dir.toml", "status").status == 66


def test_scoresheet_output_to_links_devices_fifos_and_folders(ke_game):
    cli = ke_game
    real = cli.path / "sheet.txt"
    real.write_text("old")
    (cli.path / "link").symlink_to(real)
    assert cli("scoresheet", "-O", "link").status == 0
    assert (cli.path / "link").is_symlink() and "King's Ear" in real.read_text()
    assert cli("scoresheet", "-O", "/dev/null").status == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    fifo = cli.path / "pipe"
    os.mkfifo(fifo)
    result = cli("scoresheet", "-O", "pipe")  # nobody reads it: refused, not a hang
    assert result.status == 73 and "no program is reading" in result.err
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    for _ in range(100):  # wait until the reader has opened its end
        result = cli("scoresheet", "-O", "pipe")
        if result.status == 0:
            break
        time.sleep(0.02)
    reader.join(timeout=10)
    assert result.status == 0 and b"King's Ear" in received[0] and stat.S_ISFIFO(
        fifo.stat().st_mode)
    (cli.path / "folder").mkdir()
    for target in ("folder", "missing/sheet.txt"):
        result = cli("scoresheet", "-O", target)
        assert result.status == 73 and "the log" not in result.err, result.err
    assert leftovers(cli.path) == []


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "g.toml"
    path.write_text("old")

    def no_room(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_room)
    with pytest.raises(CannotWrite) as info:
        files.replace(path, b"new", "the log")
    assert "No space left" in info.value.message and info.value.exit_status == 73
    monkeypatch.undo()

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        files.replace(path, b"new", "the log")
    assert path.read_text() == "old" and leftovers(tmp_path) == []


def test_a_log_created_meanwhile_is_never_overwritten(tmp_path, monkeypatch):
    def raced(src, dst):
        raise FileExistsError(17, "File exists")

    monkeypatch.setattr(os, "link", raced)
    with pytest.raises(LogError) as info:
        files.replace(tmp_path / "g.toml", b"new", "the log", exclusive=True)
    assert info.value.code == "log-exists" and leftovers(tmp_path) == []


def test_the_group_is_kept_when_the_owner_cannot_be(tmp_path, monkeypatch):
    path = tmp_path / "g.toml"
    path.write_text("old")
    owner = os.geteuid() + 1 if ROOT_USER else os.geteuid()  # someone else, when we may
    os.chown(path, owner, os.getegid())
    calls = []

    def fchown(fd, uid, gid):
        calls.append((uid, gid))
        if uid != -1:
            raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fchown", fchown)
    files.replace(path, b"new", "the log")
    assert path.read_text() == "new"
    assert calls == ([(owner, os.getegid()), (-1, os.getegid())] if ROOT_USER else [])


def test_sockets_paths_through_files_and_odd_lock_files_are_refused(tmp_path):
    import socket

    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "s.toml"))
        with pytest.raises(LogMissing) as info:
            logfile.read(tmp_path / "s.toml")
        assert "a socket" in info.value.message
    finally:
        sock.close()
    (tmp_path / "file").write_text("x")
    with pytest.raises(CannotWrite) as written:
        files.replace(tmp_path / "file" / "g.toml", b"x", "the scoresheet")
    assert "the scoresheet" in written.value.message
    os.mkfifo(tmp_path / ".g.toml.lock")
    with pytest.raises(CannotWrite) as locked:
        with files.locked(tmp_path / "g.toml", timeout=0):
            pass  # pragma: no cover - never reached
    assert "FIFO" in locked.value.message


# ---- modes, owners and read-only logs ---------------------------------------------------------


@pytest.mark.parametrize("mode", [0o664, 0o640, 0o600, 0o644])
def test_a_rewrite_keeps_the_mode(ke_game, mode):
    path = ke_game.path / "game.toml"
    path.chmod(mode)
    assert ke_game("play", "draw", "PA3").status == 0
    assert ke_game("undo", "--force").status == 0
    assert stat.S_IMODE(path.stat().st_mode) == mode


def test_new_files_are_created_under_the_umask(cli):
    old = os.umask(0o027)
    try:
        assert cli(*NEW).status == 0
        assert cli("scoresheet", "-O", "sheet.txt").status == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((cli.path / "game.toml").stat().st_mode) == 0o640
    assert stat.S_IMODE((cli.path / "sheet.txt").stat().st_mode) == 0o640


@pytest.mark.skipif(not ROOT_USER, reason="only root may give a file to another user")
def test_a_rewrite_keeps_the_owner_and_group(ke_game):
    path = ke_game.path / "game.toml"
    os.chown(path, 65534, 65534)
    assert ke_game("play", "draw", "PA3").status == 0
    assert (path.stat().st_uid, path.stat().st_gid) == (65534, 65534)


def test_a_read_only_log_is_refused_and_left_alone(ke_game):
    path = ke_game.path / "game.toml"
    assert ke_game("play", "draw", "PA3").status == 0
    path.chmod(0o444)
    before = path.read_bytes()
    for args in (("play", "place", "Stag"), ("undo", "--force")):
        result = ke_game(*args)
        assert result.status == 73 and "read-only" in result.err and "chmod u+w" in result.err
    assert path.read_bytes() == before and stat.S_IMODE(path.stat().st_mode) == 0o444
    assert leftovers(ke_game.path) == []
    assert ke_game("status").status == 0  # reading it is fine


# ---- simulate --save ---------------------------------------------------------------------------


def test_simulate_save_never_overwrites(cli):
    assert cli("simulate", "kings-ear", "-n", "2", "--save", "logs").status == 0
    first = (cli.path / "logs" / "kings-ear-00001.toml").read_bytes()
    result = cli("simulate", "kings-ear", "-n", "3", "--seed", "5", "--save", "logs")
    assert result.status == 73 and "kings-ear-00001.toml already exists (and 1 more)" in result.err
    assert (cli.path / "logs" / "kings-ear-00001.toml").read_bytes() == first
    assert not (cli.path / "logs" / "kings-ear-00003.toml").exists()
    (cli.path / "file").write_text("x")
    for target in ("file", "file/sub"):
        result = cli("simulate", "kings-ear", "-n", "1", "--save", target)
        assert result.status == 73 and "--save" in result.err, result.err
    assert (cli.path / "file").read_text() == "x"


# ---- the lock's timeout ---------------------------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "1e9", "1e2", "x", "1_0",
                                   "0x10", "+3", "601", "\u0663", "1" * 5000])
def test_a_bad_lock_timeout_is_a_usage_error(monkeypatch, value):
    """Issue 24 (11): `1_0` waited 10 s (Python's float reads it); only a plain decimal from 0
    to 600 is a timeout, anything else is refused in plain words (exit 2)."""
    monkeypatch.setenv("REFEREE_LOCK_TIMEOUT", value)
    with pytest.raises(UsageError) as info:
        files.lock_timeout()
    assert info.value.exit_status == 2 and "REFEREE_LOCK_TIMEOUT" in info.value.message
    assert "from 0 to 600" in info.value.message


@pytest.mark.parametrize("value, seconds", [("", files.LOCK_TIMEOUT), ("0", 0.0),
                                            ("10", 10.0), ("0.5", 0.5), (" 2.", 2.0),
                                            (".25", 0.25), ("600", 600.0)])
def test_a_plain_decimal_lock_timeout(monkeypatch, value, seconds):
    monkeypatch.setenv("REFEREE_LOCK_TIMEOUT", value)
    assert files.lock_timeout() == seconds


def test_a_bad_lock_timeout_refuses_the_move_and_leaves_the_log(ke_game, monkeypatch):
    monkeypatch.setenv("REFEREE_LOCK_TIMEOUT", "1_0")
    before = (ke_game.path / "game.toml").read_bytes()
    result = ke_game("play", "draw", "PA3")
    assert result.status == 2 and "REFEREE_LOCK_TIMEOUT is '1_0'" in result.err
    assert (ke_game.path / "game.toml").read_bytes() == before


# ---- a lock where the system has no flock (issue 24, item 10) ------------------------------


def test_without_fcntl_or_msvcrt_the_lock_is_an_exclusive_file(ke_game, monkeypatch):
    """Where `fcntl` is missing (Windows) every `play` exited 70. Simulated: with neither fcntl
    nor msvcrt importable, `.NAME.lock.held` is the lock: created exclusively, removed after."""
    monkeypatch.setitem(sys.modules, "fcntl", None)
    monkeypatch.setitem(sys.modules, "msvcrt", None)
    log = ke_game.path / "game.toml"
    held = ke_game.path / ".game.toml.lock.held"
    result = ke_game("play", "draw", "PA3")
    assert result.status == 0, result.err
    assert len(logfile.read(log).entries) == 1 and not held.exists()
    with files.locked(log, timeout=0):
        assert held.exists()
        with pytest.raises(files.LogBusy):
            with files.locked(log, timeout=0.1):
                pass  # pragma: no cover - never reached
        before = log.read_bytes()
        busy = ke_game("play", "pass")
        assert busy.status == 75 and log.read_bytes() == before
    assert not held.exists()
    held.write_text("")  # left by a writer that died long ago: taken over
    old = time.time() - files.STALE_LOCK - 5
    os.utime(held, (old, old))
    with files.locked(log, timeout=0):
        assert held.exists() and held.stat().st_mtime > old
    assert not held.exists()


def test_two_writers_taking_over_one_stale_held_file_do_not_both_hold_it(ke_game, monkeypatch):
    """Writer B finds a stale `.held` file; before B removes it, writer A also finds it stale,
    removes it and takes the lock. B must not then remove A's fresh file and hold it too."""
    monkeypatch.setitem(sys.modules, "fcntl", None)
    monkeypatch.setitem(sys.modules, "msvcrt", None)
    log = ke_game.path / "game.toml"
    held = ke_game.path / ".game.toml.lock.held"
    held.write_text("")
    old = time.time() - files.STALE_LOCK - 5
    os.utime(held, (old, old))
    real_lstat, writer_a, a_holds = os.lstat, contextlib.ExitStack(), []

    def lstat_then_writer_a_takes_over(path, *args, **kwargs):
        seen = real_lstat(path, *args, **kwargs)
        if Path(path) == held and not a_holds:
            a_holds.append("A")  # A's own look at the file goes straight through
            writer_a.enter_context(files.locked(log, timeout=0))
        return seen

    monkeypatch.setattr(os, "lstat", lstat_then_writer_a_takes_over)
    with writer_a:
        with pytest.raises(files.LogBusy):
            with files.locked(log, timeout=0):  # writer B
                pass  # pragma: no cover - both would hold the lock
        assert held.exists()  # A's lock file, still there while A holds it
    assert not held.exists() and not (ke_game.path / ".game.toml.lock.held.break").exists()


def test_a_stale_held_file_is_taken_over_by_one_writer_at_a_time(ke_game, monkeypatch):
    """While another writer takes a stale `.held` over (it holds `.held.break`), a writer waits;
    a `.held.break` left long ago by a writer that died doing so is removed."""
    monkeypatch.setitem(sys.modules, "fcntl", None)
    monkeypatch.setitem(sys.modules, "msvcrt", None)
    log = ke_game.path / "game.toml"
    held, guard = ke_game.path / ".game.toml.lock.held", ke_game.path / ".game.toml.lock.held.break"
    old = time.time() - files.STALE_LOCK - 5
    for path in (held, guard):
        path.write_text("")
        os.utime(path, (old, old))
    os.utime(guard)  # another writer is taking over right now
    with pytest.raises(files.LogBusy):
        with files.locked(log, timeout=0):
            pass  # pragma: no cover - never reached
    os.utime(guard, (old, old))  # ... and died doing so, long ago
    with files.locked(log, timeout=1):
        assert held.stat().st_mtime > old
    assert not held.exists() and not guard.exists()


class FakeMsvcrt:
    """msvcrt's byte locks, kept by this fake in a table shared by every open of one file."""

    LK_NBLCK, LK_UNLCK = 2, 0

    def __init__(self):
        self.held = {}  # (device, inode) -> fd holding it

    def locking(self, fd, mode, nbytes):
        info = os.fstat(fd)
        key = (info.st_dev, info.st_ino)
        if mode == self.LK_UNLCK:
            self.held.pop(key, None)
        elif self.held.setdefault(key, fd) != fd:
            raise OSError(13, "Permission denied")


def test_without_fcntl_msvcrt_byte_locks_are_used(ke_game, monkeypatch):
    fake = FakeMsvcrt()
    monkeypatch.setitem(sys.modules, "fcntl", None)
    monkeypatch.setitem(sys.modules, "msvcrt", fake)
    log = ke_game.path / "game.toml"
    assert ke_game("play", "draw", "PA3").status == 0 and fake.held == {}
    with files.locked(log, timeout=0):
        assert len(fake.held) == 1
        with pytest.raises(files.LogBusy):
            with files.locked(log, timeout=0):
                pass  # pragma: no cover - never reached
    assert fake.held == {}
    assert not (ke_game.path / ".game.toml.lock.held").exists()


# ---- unreadable logs ---------------------------------------------------------------------------


def test_an_unreadable_log_is_66_in_process(tmp_path, monkeypatch):
    path = tmp_path / "g.toml"
    path.write_text("x")
    real_open = os.open

    def refuse(name, *args, **kwargs):
        if Path(name) == path:
            raise PermissionError(13, "Permission denied")
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(LogMissing) as info:
        logfile.read(path)
    assert info.value.exit_status == 66 and "Permission denied" in info.value.message


def _as_another_user() -> list[str] | None:
    """The command prefix that runs a command as an ordinary user, when the tests run as root."""
    if not ROOT_USER:
        return []
    setpriv = shutil.which("setpriv")
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] if setpriv else None


def test_an_unreadable_log_is_66_and_check_reports_every_log():
    prefix = _as_another_user()
    if prefix is None:
        pytest.skip("setpriv is needed to test as an ordinary user")
    folder = Path(tempfile.mkdtemp())
    try:
        folder.chmod(0o755)
        good = folder / "a.toml"
        shutil.copy(GOLDEN / "kings-ear" / "three-player-win.toml", good)
        shutil.copy(good, folder / "c.toml")
        secret = folder / "b.toml"
        shutil.copy(good, secret)
        for path in (good, folder / "c.toml"):
            path.chmod(0o644)
        secret.chmod(0)
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")

        def run(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([*prefix, sys.executable, "-m", "referee", *args], cwd=folder,
                                  capture_output=True, text=True, env=env, timeout=60)

        probe = run("--version")
        if probe.returncode != 0:
            pytest.skip(f"the ordinary user cannot run referee here: {probe.stderr[-200:]}")
        result = run("--log", "b.toml", "status")
        assert result.returncode == 66 and "Permission denied" in result.stderr
        result = run("check", "a.toml", "b.toml", "c.toml")
        assert result.returncode == 66
        assert result.stdout.count(": ok (") == 2 and "b.toml" in result.stdout
    finally:
        shutil.rmtree(folder)


def test_scoresheet_to_dev_stdout_and_a_link_to_fd_1_writes_the_stream(tmp_path):
    good = GOLDEN / "kings-ear" / "three-player-win.toml"
    (tmp_path / "out").symlink_to("/proc/self/fd/1")
    for target in ("/dev/stdout", "out"):
        result = subprocess.run([sys.executable, "-m", "referee", "--log", str(good),
                                 "scoresheet", "-O", target], cwd=tmp_path,
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        assert "The King's Ear" in result.stdout and f"Wrote {target}" in result.stderr
    assert (tmp_path / "out").is_symlink() and os.path.islink("/dev/stdout")
    assert leftovers(tmp_path) == []


def test_text_that_is_not_utf8_never_reaches_a_log(tmp_path):
    from referee.errors import UsageError

    with pytest.raises(UsageError):
        logfile.write_atomic(tmp_path / "g.toml", 'note = "\udcff"\n')
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("grown_by", [1, 50, 5000])
def test_a_file_that_grows_after_its_size_was_taken_is_read_up_to_the_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, grown_by: int) -> None:
    """read_regular asks for the size the fstat gave (not the whole limit at once); a file
    longer by then is still read on, to the limit, so that an oversized log is still refused."""
    path = tmp_path / "growing.toml"
    path.write_bytes(b"x" * (100 + grown_by))
    real_fstat = os.fstat

    class Older:
        def __init__(self, info: os.stat_result) -> None:
            self.st_mode, self.st_size = info.st_mode, 100

    monkeypatch.setattr(os, "fstat", lambda fd: Older(real_fstat(fd)))
    assert files.read_regular(path, 10_000) == b"x" * min(100 + grown_by, 10_000)
    assert files.read_regular(path, 120) == b"x" * min(100 + grown_by, 120)
    assert files.read_regular(path, 100) == b"x" * 100
