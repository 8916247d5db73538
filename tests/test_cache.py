"""The replay cache can never change an answer: a log edited behind its back, an entry from
another version, another log, a corrupt, truncated, stale or planted entry all give what no cache
gives, and an entry is rebuilt. It never loads code (entries are plain data), and never reads or
writes a folder or an entry another user could have written, however the folder is swapped under
it. `check` never uses it. And appending a move writes the same text as writing the whole log
again."""

from __future__ import annotations

import datetime as dt
import marshal
import os
import pickle
import subprocess
import sys
import types
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import cache, cachecodec, replay
from referee import log as logfile
from referee.check import check_file
from referee.games.kings_ear import state as kings_ear_state
from referee.values import field, fields, value
from tests.conftest import GOLDEN

COMMANDS = (("status", "--json"), ("options",), ("history",), ("score",), ("options", "--json"))


def answers(cli) -> list[str]:
    return [cli(*command).out for command in COMMANDS]


def without_cache(cli, monkeypatch) -> list[str]:
    monkeypatch.setenv("REFEREE_CACHE", "0")
    try:
        return answers(cli)
    finally:
        monkeypatch.delenv("REFEREE_CACHE")


def folder() -> Path:
    where = cache.location()
    assert where is not None
    return Path(where)


def entries() -> list[Path]:
    return sorted(folder().glob("*" + cache.SUFFIX))


def entry_for(log: Path, data: bytes, game_id: str, values: Any) -> bytes:
    """An entry as `cache.store` writes it: what a planted entry must look like to pass."""
    body = cachecodec.encode(game_id, values)
    return cache.header(log, data) + cache.digest(body).encode() + b"\n" + body


class Game:
    """A King's Ear log with four moves played, its bytes and what the cache holds for it."""

    def __init__(self, cli):
        self.cli = cli
        self.log = cli.path / "game.toml"
        self.data = self.log.read_bytes()
        [self.entry] = entries()
        kept = cache.lookup(self.log, self.data)
        assert kept is not None
        self.game_id, self.values = kept

    def hit(self) -> bool:
        return cache.lookup(self.log, self.data) is not None


@pytest.fixture
def game(ke_game) -> Game:
    for move in ("draw PA3", "place Stag", "draw PR2", "draw SF1"):
        assert ke_game("play", *move.split()).status == 0
    assert len(entries()) == 1  # the table as the last play left it
    return Game(ke_game)


def test_the_cache_answers_as_the_log_does(game, monkeypatch):
    assert game.hit()  # the answers below come from it
    cached = answers(game.cli)
    assert cached == without_cache(game.cli, monkeypatch)


def test_an_entry_is_the_replayed_game_exactly(game):
    log, players, options, seed, start, state = game.values
    setup, replayed = replay.replay_log(logfile.read(game.log))
    assert (game.game_id, players, options, seed, start, state) == \
        (setup.game.id, setup.players, setup.options, setup.seed, setup.state, replayed)
    assert log == logfile.read(game.log)
    assert log._locator.text == game.data.decode()


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*/*.toml")), ids=lambda p: p.parent.name
                         + "/" + p.stem)
def test_every_game_comes_back_from_its_entry_as_it_went_in(path):
    """Every class of every game's state, the log with its times, through the codec."""
    log = logfile.read(path)
    setup, state = replay.replay_log(log)
    values = (log, setup.players, setup.options, setup.seed, setup.state, state)
    game_id, back = cachecodec.decode(cachecodec.encode(setup.game.id, values))
    assert (game_id, back) == (setup.game.id, values)
    assert [type(part) for part in back] == [type(part) for part in values]
    assert [e.at for e in back[0].entries] == [e.at for e in log.entries]
    assert back[0].path == log.path and back[0].source == log.source


@pytest.mark.parametrize("path", [p for p in sorted(GOLDEN.glob("*/*.toml"))
                                  if p.stem in ("three-player", "ship-siege-and-beaufort",
                                                "three-player-win")],
                         ids=lambda p: p.parent.name)
def test_every_game_answers_from_the_cache_as_from_its_log(path, cli, monkeypatch):
    (cli.path / "game.toml").write_bytes(path.read_bytes())
    truth = without_cache(cli, monkeypatch)
    assert answers(cli) == truth  # the first stores it
    assert len(entries()) == 1
    assert answers(cli) == truth  # the rest read it


# --------------------------------------------------------------------------------------------
# The codec on its own: every kind of value comes back as it went in, of the same types


FAKE = "referee.cache_test_classes"  # the codec stores only referee's classes


def fake_module() -> types.ModuleType:
    module = types.ModuleType(FAKE)

    def made(cls: type, **options: Any) -> type:
        cls.__module__, cls.__qualname__ = FAKE, cls.__name__
        made_class = value(**options)(cls) if options else value(cls)
        setattr(module, cls.__name__, made_class)
        return made_class

    class Point:
        x: Any
        y: Any = None

    class Slot:
        a: Any
        b: Any = ()

    class Memo:
        name: Any
        memo: dict[str, Any] = field(default_factory=dict, init=False, compare=False)
        seen: int = field(default=0, init=False, compare=False)

    class Empty:
        pass

    made(Point), made(Slot, slots=True), made(Memo), made(Empty)
    return module


@pytest.fixture
def classes(monkeypatch) -> types.ModuleType:
    module = fake_module()
    monkeypatch.setitem(sys.modules, FAKE, module)
    return module


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (1 == True, (1,) != [1] is not enough)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(map(same, a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(map(same, a.values(), b.values())) and \
            all(map(same, a, b))
    if isinstance(a, (set, frozenset)):
        return len(a) == len(b) and all(any(same(x, y) for y in b) for x in a)
    if hasattr(type(a), "__value_fields__"):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in fields(type(a)))
    return a == b or (a != a and b != b)  # nan


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
                    st.sampled_from(["[", "\xdb", "a[b"]),
                    st.datetimes(timezones=st.sampled_from(
                        [None, dt.timezone.utc, dt.timezone(dt.timedelta(hours=-7))])).map(
                        lambda time: time.replace(fold=0)),  # a log's times: no fold
                    st.dates(), st.times().map(lambda time: time.replace(fold=0)),
                    st.just(Path("some/where")))
hashable = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=4)),
                        lambda inner: st.tuples(inner, inner) | st.frozensets(inner, max_size=3),
                        max_leaves=6)


def values_of(module: types.ModuleType) -> st.SearchStrategy[Any]:
    def objects(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.one_of(
            st.builds(module.Point, inner, inner), st.builds(module.Slot, inner, inner),
            st.builds(module.Memo, inner), st.just(module.Empty()),
            st.lists(st.builds(module.Point, inner), min_size=2, max_size=4).map(tuple))

    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple),
        st.lists(st.tuples(inner, inner), min_size=1, max_size=3).map(tuple),
        st.dictionaries(hashable, inner, max_size=3), st.sets(hashable, max_size=3),
        st.frozensets(hashable, max_size=3), objects(inner),
        inner.map(lambda shared: (shared, shared, [shared]))), max_leaves=20)


def test_every_kind_of_value_comes_back_as_it_went_in(classes):
    @settings(max_examples=300, deadline=None)
    @given(values_of(classes))
    def round_trip(original):
        game_id, back = cachecodec.decode(cachecodec.encode("kings-ear", original))
        assert game_id == "kings-ear" and same(back, original), (original, back)

    round_trip()


def test_a_shared_object_comes_back_shared_and_a_memo_empty(classes):
    point = classes.Point(1, (2, 3))
    memo = classes.Memo("n")
    memo.memo["derived"] = "kept only in this process"
    object.__setattr__(memo, "seen", 5)
    original = ((point, point), [point], classes.Slot(point, memo), (memo, memo))
    back = cachecodec.decode(cachecodec.encode("kings-ear", original))[1]
    assert back == original
    assert back[0][0] is back[0][1] is back[1][0] is back[2].a
    assert back[3][0] is back[3][1] is back[2].b
    assert back[2].b.memo == {} and back[2].b.seen == 0


def test_an_object_inside_another_of_the_same_column_leaves_the_rest_right(classes):
    """A tuple of one class's objects is stored by columns; when one of them is also a field of
    another, every later reference still names the object it named."""
    b, c = classes.Point("b"), classes.Point("c")
    original = ((classes.Point(b), b, c), c, b)
    back = cachecodec.decode(cachecodec.encode("kings-ear", original))[1]
    assert back == original
    assert back[1] is back[0][2] and back[2] is back[0][1]


def test_a_value_of_a_class_outside_referee_is_not_stored(classes):
    class Foreign:
        pass

    for unstorable in (Foreign(), (1, Foreign()), dt.datetime.now(ZoneInfo("UTC")),
                       {"a": Foreign()}, classes.Point(Foreign())):
        with pytest.raises(cachecodec.Unstorable):
            cachecodec.encode("kings-ear", unstorable)


def test_a_log_edited_behind_the_cache(game, monkeypatch):
    text = game.log.read_text()
    game.log.write_text(text[:text.rindex("[[events]]")].rstrip("\n") + "\n")  # the last move gone
    edited = answers(game.cli)
    assert "draw Stag Farming 1" not in edited[2]
    assert edited == without_cache(game.cli, monkeypatch)


def test_an_entry_from_another_version_is_ignored_and_rebuilt(game, monkeypatch):
    truth = without_cache(game.cli, monkeypatch)
    with monkeypatch.context() as patch:
        patch.setattr(cache, "TAG", "referee 0.0.1 cache 1 python (3, 0, 0)")
        assert not game.hit()
        assert answers(game.cli) == truth
    assert not game.hit()  # written by "0.0.1"
    assert answers(game.cli) == truth
    assert game.hit()


@pytest.fixture
def package(monkeypatch, tmp_path) -> Path:
    """A copy of referee's package as the code the cache keys its entries on, its files taken
    as settled though they were copied just now."""
    import shutil

    copy = tmp_path / "package"
    shutil.copytree(cache.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "PACKAGE", str(copy))
    monkeypatch.setattr(cache, "SETTLED", 0)
    restart(monkeypatch)
    return copy


def restart(monkeypatch) -> None:
    """What a new process would tell the code it runs (cache.RUNNING, told once as the cache
    is first used): the commands after this one are the next command's."""
    monkeypatch.setattr(cache, "RUNNING", cache.code())


def test_an_entry_made_by_other_code_of_the_same_version_is_ignored(game, package,
                                                                   monkeypatch):
    """A rule fixed and installed again under the same version number: the entry the old code
    made is a miss, so no answer of the old rules is given again."""
    assert answers(game.cli) and game.hit()  # written by the code as copied
    rules = package / "games" / "kings_ear" / "rules.py"
    rules.write_text(rules.read_text() + "\n# a fix\n")
    assert game.hit()  # this process still runs the code it imported
    restart(monkeypatch)
    assert not game.hit()
    time = os.stat(rules).st_mtime_ns
    answers(game.cli)
    assert game.hit()
    os.utime(rules, ns=(time + 10**9, time + 10**9))  # the same size, saved again later
    restart(monkeypatch)
    assert not game.hit()
    answers(game.cli)
    (package / "games" / "kings_ear" / "rules.py").rename(package / "games" / "kings_ear" / "x.py")
    restart(monkeypatch)
    assert not game.hit()


def test_a_session_left_open_across_an_install_keeps_its_own_codes_key(game, package,
                                                                      monkeypatch):
    """A table session started before referee is installed again runs the old code to its end:
    what it stores is stamped with that code, so the next command, the new code's, misses it
    rather than answering from the old rules' replay."""
    rules = package / "games" / "kings_ear" / "rules.py"
    rules.write_text(rules.read_text() + "\n# a fix installed while the session is open\n")
    answers(game.cli)  # the open session (this process) stores what its own code replayed
    assert game.hit()
    restart(monkeypatch)  # the next command, the new code
    assert not game.hit()


@pytest.mark.parametrize("in_place", [True, False], ids=["cp -p", "tar, rsync -a"])
def test_a_fix_installed_with_the_old_files_size_and_time_is_other_code(game, package, in_place,
                                                                         monkeypatch):
    """Installers that keep a file's time (tar, cp -p, rsync -a; Nix stamps every file 1 s
    after 1970) can put a fixed module of the same size in place with the old one's
    modification time, written over it or renamed over it: it is still other code."""
    assert answers(game.cli) and game.hit()
    rules = package / "games" / "kings_ear" / "rules.py"
    before = rules.stat()
    written = rules if in_place else rules.with_name("rules.py.new")
    written.write_bytes(rules.read_bytes()[:-1] + b"#")  # other bytes, as many
    os.utime(written, ns=(before.st_atime_ns, before.st_mtime_ns))
    written.replace(rules)
    after = rules.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    restart(monkeypatch)
    assert not game.hit()


def test_code_changed_a_moment_ago_leaves_the_cache_unused(game, package, monkeypatch):
    """Where a file system stamps times by the second (two on FAT), a module changed twice in
    one tick at the same size looks unchanged: while the newest change in the package is that
    recent, no entry is read or written (as git treats a file changed as late as its index)."""
    monkeypatch.setattr(cache, "SETTLED", 3600 * 10**9)  # (a test is slower than a tick)
    rules = package / "games" / "kings_ear" / "rules.py"
    rules.write_text(rules.read_text() + "\n# a fix\n")  # just now
    restart(monkeypatch)  # a command started at once
    assert cache.RUNNING is None
    entry = game.entry.read_bytes()
    truth = without_cache(game.cli, monkeypatch)
    assert answers(game.cli) == truth
    assert not game.hit()
    assert game.entry.read_bytes() == entry and entries() == [game.entry]  # nothing written
    monkeypatch.setattr(cache, "SETTLED", 0)  # ... and one a tick later
    restart(monkeypatch)
    assert answers(game.cli) == truth
    assert game.hit()


def test_a_module_linked_from_elsewhere_is_the_file_it_points_to(game, package, tmp_path,
                                                                 monkeypatch):
    """A package put together from symbolic links (stow, a link farm): editing the module a
    link points to changes the code, though the link itself is untouched."""
    rules = package / "games" / "kings_ear" / "rules.py"
    real = tmp_path / "rules.py"
    rules.replace(real)
    rules.symlink_to(real)
    restart(monkeypatch)
    assert answers(game.cli) and game.hit()
    real.write_text(real.read_text() + "\n# a fix\n")
    restart(monkeypatch)
    assert not game.hit()


def test_the_log_parser_outside_the_package_is_code_too(game, package, monkeypatch, tmp_path):
    """The log's TOML parser (rtoml) is installed apart from referee: one upgraded could read a
    log otherwise, so an entry made with the other one is a miss."""
    parser = tmp_path / "site" / "fastparser"
    parser.mkdir(parents=True)
    (parser / "__init__.py").write_text("VERSION = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(cache, "PARSER", "fastparser")
    restart(monkeypatch)
    assert answers(game.cli) and game.hit()
    (parser / "__init__.py").write_text("VERSION = 2\n")
    restart(monkeypatch)
    assert not game.hit()


NEW_PROCESS = """import os, sys, time
changed = sys.argv[1]
os.utime(changed)  # referee installed again just now
now = os.stat(changed).st_ctime_ns + int(sys.argv[2])
time.time_ns = lambda: now  # the moment the command starts, whatever the machine's load
import referee.cache as cache
assert cache.PACKAGE == os.path.dirname(os.path.abspath(changed)), cache.PACKAGE
print(cache.RUNNING, cache.code(), now - int(sys.argv[2]))
"""


@pytest.mark.parametrize("after", [0, 10**8 - 1, 10**8], ids=["at once", "within a tick",
                                                               "a tick later"])
def test_a_new_process_tells_the_code_it_runs_only_once_settled(tmp_path, after):
    """What the next process really does as it first uses the cache (not `restart`): started
    within a tick of the clock of an install, it tells no code (RUNNING is None, so it reads
    and writes no entry for its whole life); a tick later, the code's digest."""
    import shutil

    site = tmp_path / "site"
    shutil.copytree(cache.PACKAGE, site / "referee", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(site), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", NEW_PROCESS, str(site / "referee" / "log.py"),
                           str(after)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    running, now, changed = done.stdout.split()
    settled = cache.settled(int(changed), int(changed) + after)  # a tick: 0.1 s, or 2 s
    assert settled or after < 10**8  # where times are whole seconds
    assert (running, now) == ((now, now) if settled else ("None", "None"))


def test_a_change_is_settled_once_no_later_change_can_share_its_stamp():
    second = 1_700_000_000 * 10**9
    assert not cache.settled(second, second + 10**9)  # whole seconds: FAT's, HFS+'s, ext3's
    assert cache.settled(second, second + 2 * 10**9)
    assert not cache.settled(second + 4_000_000, second + 4_000_000 + 5 * 10**7)  # ext4's ticks
    assert cache.settled(second + 4_000_000, second + 4_000_000 + 10**8)
    assert not cache.settled(second + 10**9, second)  # stamped in the future (a skewed clock)


def test_a_package_that_cannot_be_listed_leaves_the_cache_unused(game, monkeypatch, tmp_path):
    """A package folder that cannot be listed (gone, unreadable, inside a zip file): no entry
    can be told to be the current code's, so none is read or written, and nothing fails."""
    truth = without_cache(game.cli, monkeypatch)
    entry = game.entry.read_bytes()
    monkeypatch.setattr(cache, "PACKAGE", str(tmp_path / "referee.zip" / "referee"))
    assert cache.code() is None
    restart(monkeypatch)
    assert not game.hit()
    assert answers(game.cli) == truth
    assert game.entry.read_bytes() == entry and entries() == [game.entry]


@pytest.mark.parametrize("module", ["fast.cpython-311-x86_64-linux-gnu.so", "rules.pyc"])
def test_compiled_modules_are_code_too(package, module):
    """An extension module, or a module installed without its source: changing it is changing
    the code."""
    before = cache.code()
    (package / module).write_bytes(b"compiled")
    added = cache.code()
    (package / module).write_bytes(b"compiled again")
    assert len({before, added, cache.code()}) == 3


def test_the_code_digest_sees_every_module_and_data_file():
    listed: list[str] = []
    cache._code_files(cache.PACKAGE, "", listed)
    names = {line.rsplit(" ", 4)[0] for line in listed}
    assert {"cache.py", "games/kingmaker/rules/settling.py",
            "games/kingmaker/kingmaker-testbox.toml"} <= names
    assert not any("__pycache__" in name for name in names)
    assert cache.code() == cache.code()


def test_an_entry_of_another_log_is_ignored(game, monkeypatch):
    """Another log's entry in this log's place: other bytes, or the same bytes elsewhere."""
    truth = without_cache(game.cli, monkeypatch)
    other = game.cli.path / "other.toml"
    other.write_bytes(game.data)  # the same bytes, another log
    assert game.cli("--log", other, "status").status == 0
    theirs = folder() / cache.name(other)
    assert theirs.exists() and cache.lookup(other, game.data) is not None
    game.entry.write_bytes(theirs.read_bytes())
    assert not game.hit()
    assert answers(game.cli) == truth and game.hit()
    assert game.cli("play", "draw", "PR3").status == 0  # now another game than other.toml's
    theirs.write_bytes(game.entry.read_bytes())
    assert cache.lookup(other, game.data) is None
    assert cache.lookup(other, game.log.read_bytes()) is None


def flipped(content: bytes, bits: list[int]) -> bytes:
    changed = bytearray(content)
    for bit in bits:
        changed[bit // 8 % len(changed)] ^= 1 << bit % 8
    return bytes(changed)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bits=st.lists(st.integers(min_value=0), min_size=1, max_size=3, unique=True))
def test_an_entry_with_bits_flipped_anywhere_is_never_used(game, bits):
    content = game.entry.read_bytes()
    corrupt = flipped(content, bits)
    if corrupt == content:  # two flips of one bit
        return
    try:
        game.entry.write_bytes(corrupt)
        assert cache.lookup(game.log, game.data) is None
    finally:
        game.entry.write_bytes(content)


def test_a_corrupt_entry_is_rebuilt_with_the_right_answers(game, monkeypatch):
    truth = without_cache(game.cli, monkeypatch)
    content = game.entry.read_bytes()
    for where in (0, len(content) // 2, len(content) - 1):  # the header, the data, its end
        game.entry.write_bytes(flipped(content, [where * 8 + 3]))
        assert not game.hit()
        assert answers(game.cli) == truth
        assert cache.lookup(game.log, game.data) == (game.game_id, game.values)  # rebuilt


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.floats(min_value=0, max_value=1, exclude_max=True))
def test_a_truncated_entry_is_never_used(game, cut):
    content = game.entry.read_bytes()
    try:
        game.entry.write_bytes(content[:int(len(content) * cut)])
        assert cache.lookup(game.log, game.data) is None
    finally:
        game.entry.write_bytes(content)


def test_an_entry_that_is_no_entry_is_ignored(game, monkeypatch):
    truth = without_cache(game.cli, monkeypatch)
    for junk in (b"", b"\n", b"not an entry at all", cache.header(game.log, game.data) + b"x\n"):
        game.entry.write_bytes(junk)
        assert answers(game.cli) == truth


def grown(cls: type, **changes: Any) -> type:
    """`cls` as a later version might declare it: the same name and module, its fields changed
    (`name=("int", 0)` adds or retypes one, `name=None` drops it)."""
    declared = dict(cls.__dict__["__annotations__"])
    namespace: dict[str, Any] = {"__module__": cls.__module__, "__qualname__": cls.__qualname__}
    for spec in fields(cls):
        namespace[spec.name] = field(default=spec.default, default_factory=spec.default_factory)
    for name, change in changes.items():
        if change is None:
            del declared[name], namespace[name]
        else:
            declared[name], namespace[name] = change[0], field(default=change[1])
    namespace["__annotations__"] = declared
    return value(type(cls.__name__, (), namespace))


@pytest.mark.parametrize("changes", [{"grown": ("int", 0)}, {"drawn": None},
                                     {"drawn": ("tuple[int, ...]", ())},
                                     {"drawn": None, "grown": ("int", 0)}],
                         ids=["a field added", "a field dropped", "a field retyped",
                              "one field for another"])
def test_an_entry_written_before_a_state_class_changed_is_stale(game, monkeypatch, changes):
    """Pickle filled a field added since with its default, silently: a changed class is a miss,
    and the game is replayed."""
    truth = without_cache(game.cli, monkeypatch)
    state_class = kings_ear_state.State
    assert "drawn" in [f.name for f in fields(state_class)]
    monkeypatch.setattr(kings_ear_state, "State", grown(state_class, **changes))
    assert not game.hit()
    with pytest.raises(cachecodec.Stale):
        cachecodec.decode(game.entry.read_bytes().partition(b"\n")[2])
    assert answers(game.cli) == truth


def test_only_known_classes_are_decoded(game):
    """An entry can name no class but referee's value classes, and loads no module."""
    body = game.entry.read_bytes().partition(b"\n")[2]
    game_id, table, payload = marshal.loads(body)
    for module, name in (("os", "system"), ("referee.cache", "Path"), ("subprocess", "Popen"),
                         ("referee.session", "Table"), ("referee.nowhere", "X")):
        planted = marshal.dumps((game_id, ((module, name, ()),) + table[1:], payload))
        with pytest.raises(cachecodec.Stale):
            cachecodec.decode(planted)
    assert "referee.nowhere" not in sys.modules


CODE = compile("import os; os.system('planted')", "planted", "exec")


@pytest.mark.parametrize("planted", [
    CODE, (CODE,), {"key": CODE}, frozenset({CODE}), ["t", 1, CODE], ["d", ("key",), (CODE,)],
    (CODE, {"__builtins__": None}, "planted", None, None),  # a function's parts
    ..., StopIteration, b"bytes", 1j],
    ids=["code", "in a tuple", "in a dict", "in a frozenset", "in a tagged tuple",
         "in a tagged dict", "a function's parts", "Ellipsis", "StopIteration", "bytes",
         "complex"])
def test_an_entry_holding_code_or_any_other_kind_of_value_is_a_miss(game, planted):
    """marshal before Python 3.13 builds code objects (and a few other kinds): an entry with
    its digests right, in the user's own folder, whose state holds one is never used."""
    body = game.entry.read_bytes().partition(b"\n")[2]
    game_id, table, payload = marshal.loads(body)

    def planting(value: Any) -> bytes:
        state = [*payload[-1][:1], value, *payload[-1][2:]]  # the state's first field
        body = marshal.dumps((game_id, table, [*payload[:-1], state]))
        game.entry.write_bytes(cache.header(game.log, game.data) + cache.digest(body).encode()
                               + b"\n" + body)
        return body

    planting("a text")  # the same entry with plain data there is used as it is
    kept = cache.lookup(game.log, game.data)
    assert kept is not None and fields(type(kept[1][-1]))[0].name in vars(kept[1][-1])
    assert getattr(kept[1][-1], fields(type(kept[1][-1]))[0].name) == "a text"
    body = planting(planted)
    assert not game.hit()
    with pytest.raises(cachecodec.Stale):
        cachecodec.decode(body)
    for table_planted in (((CODE,),), (("referee.engine", "Player", CODE),)):
        with pytest.raises(cachecodec.Stale):
            cachecodec.decode(marshal.dumps((game_id, table_planted, payload)))


def test_the_check_for_code_ends_on_a_list_that_holds_itself_or_much_sharing():
    """marshal shares a container met twice: a list holding itself, or 2 ** 60 leaves in a few
    hundred bytes, is checked in one walk of each container (and code below them is found)."""
    itself: list[Any] = [1]
    itself.append(itself)
    shared: Any = ("leaf",)
    for _ in range(60):
        shared = (shared, [shared], {"k": shared})
    for planted, plain in ((itself, True), (shared, True), ((shared, [shared, CODE]), False),
                           ([itself, (shared, {"k": frozenset({CODE})})], False)):
        body = marshal.dumps(("kings-ear", (), planted))
        assert len(body) < 2000
        assert cachecodec._data_only(marshal.loads(body), len(body)) is plain


@pytest.mark.parametrize("value", [CODE, b"bytes", bytearray(b"bytes"), 1j, ...,
                                   StopIteration], ids=repr)
def test_a_value_of_a_kind_decoding_refuses_never_comes_back(value):
    """No game's state holds one, and checking every value as it is stored would cost a `play`
    as much again: inside plain data, the encoder stores it and the entry is a miss."""
    for holder in ((value,), {"key": (value,)}, [frozenset({1}), (value,)]):
        with pytest.raises(cachecodec.Stale):
            cachecodec.decode(cachecodec.encode("kings-ear", holder))


def test_a_value_it_cannot_store_leaves_no_entry(game, monkeypatch):
    with pytest.raises(cachecodec.Unstorable):
        cachecodec.encode("kings-ear", (object(),))
    game.entry.unlink()
    cache.store(game.log, game.data, "kings-ear", (game.values[0], object()))
    assert entries() == []


def test_an_old_pickle_entry_is_never_loaded(game, monkeypatch):
    """The format of earlier versions, planted where the entry goes: never unpickled."""
    truth = without_cache(game.cli, monkeypatch)
    mark = game.cli.path / "planted-code-ran"

    class Planted:
        def __reduce__(self):
            return (os.mkdir, (str(mark),))

    game.entry.write_bytes(cache.header(game.log, game.data) + b"\n" + pickle.dumps(Planted()))
    assert answers(game.cli) == truth and not mark.exists()


# --------------------------------------------------------------------------------------------
# The folder and the entry: only the user's, never through a symbolic link


def test_an_entry_others_could_write_is_never_loaded(game, monkeypatch):
    truth = without_cache(game.cli, monkeypatch)
    os.chmod(game.entry, 0o620)
    assert not game.hit()
    assert answers(game.cli) == truth
    os.chmod(game.entry, 0o600)
    assert game.hit()


@pytest.mark.parametrize("mode", [0o770, 0o707, 0o777])
def test_a_folder_others_could_write_is_never_read_nor_written(game, monkeypatch, mode):
    truth = without_cache(game.cli, monkeypatch)
    os.chmod(folder(), mode)
    with cache.opened() as fd:
        assert fd is None
    assert not game.hit()
    game.entry.unlink()
    assert answers(game.cli) == truth
    assert entries() == []  # nothing written there either


def test_an_entry_owned_by_another_user_is_never_loaded(game, monkeypatch):
    if os.getuid() != 0:
        pytest.skip("only root can give a file to another user")
    os.chown(game.entry, 65534, 65534)
    assert not game.hit()
    os.chown(folder(), 65534, 65534)
    with cache.opened() as fd:
        assert fd is None


def test_a_symbolic_link_for_the_folder_or_the_entry_is_never_followed(game, monkeypatch):
    truth = without_cache(game.cli, monkeypatch)
    real = folder().with_name("real")
    folder().rename(real)
    folder().symlink_to(real)  # a trusted folder, but through a link
    assert not game.hit()
    assert answers(game.cli) == truth
    assert [p.name for p in real.iterdir()] == [game.entry.name]  # nothing written through it
    folder().unlink()
    real.rename(folder())
    assert game.hit()
    moved = game.entry.with_name("elsewhere")
    game.entry.rename(moved)
    game.entry.symlink_to(moved.name)
    assert not game.hit()


def test_a_fifo_in_place_of_the_entry_does_not_hang(game):
    game.entry.unlink()
    os.mkfifo(game.entry)
    assert not game.hit()


def test_an_entry_larger_than_the_limit_is_not_read(game, monkeypatch):
    monkeypatch.setattr(cache, "LIMIT", game.entry.stat().st_size - 1)
    assert not game.hit()


def test_no_cache_where_files_cannot_be_opened_relative_to_a_folder(game, monkeypatch):
    truth = without_cache(game.cli, monkeypatch)
    monkeypatch.setattr(os, "supports_dir_fd", set())
    assert not cache.supported() and not game.hit()
    game.entry.unlink()
    assert answers(game.cli) == truth and entries() == []


def test_the_oldest_entries_are_pruned(game, monkeypatch):
    monkeypatch.setattr(cache, "KEEP", 3)
    (folder() / "0123.pickle").write_bytes(b"an entry of an earlier version")
    os.utime(folder() / "0123.pickle", (1, 1))
    for number in range(5):
        log = game.cli.path / f"copy{number}.toml"
        log.write_bytes(game.data)
        cache.store(log, game.data, game.game_id, game.values)
    assert sorted(p.name for p in folder().iterdir()) == \
        sorted(cache.name(game.cli.path / f"copy{n}.toml") for n in (2, 3, 4))


# --------------------------------------------------------------------------------------------
# REFEREE_CACHE and XDG_CACHE_HOME


@pytest.mark.parametrize("setting", ["0", "off", "OFF", "False", "NO", " no ", "disabled"])
def test_the_cache_can_be_turned_off(ke_game, monkeypatch, setting):
    monkeypatch.setenv("REFEREE_CACHE", setting)
    assert ke_game("play", "draw", "PA3").status == 0
    assert not cache.enabled()
    monkeypatch.delenv("REFEREE_CACHE")
    assert entries() == []


@pytest.mark.parametrize("setting", ["", "  ", "1", " on ", "TRUE", "Yes"])
def test_the_cache_is_on_by_default_or_when_asked(ke_game, monkeypatch, setting):
    monkeypatch.setenv("REFEREE_CACHE", setting)
    assert ke_game("play", "draw", "PA3").status == 0
    assert len(entries()) == 1


@pytest.mark.parametrize("relative", ["cache", "./cache", "~/cache", ""])
def test_a_relative_xdg_cache_home_is_ignored(ke_game, monkeypatch, tmp_path_factory, relative):
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", relative)
    assert cache.location() == str(home / ".cache" / "referee")
    assert ke_game("play", "draw", "PA3").status == 0
    assert len(list((home / ".cache" / "referee").iterdir())) == 1
    assert not (ke_game.path / "cache").exists() and not (ke_game.path / "~").exists()


def test_no_cache_without_a_home(ke_game, monkeypatch):
    monkeypatch.setenv("HOME", "relative")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache.location() is None
    assert ke_game("play", "draw", "PA3").status == 0
    assert not (ke_game.path / "relative").exists()


# --------------------------------------------------------------------------------------------
# The swap race: another user who can write the cache folder's parent swaps the folder


SWAPPER = """
import os, random, sys, time
parent, theirs, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
ours = os.path.join(parent, "referee")
end = time.monotonic() + seconds
swaps = 0
while time.monotonic() < end:
    swaps += 1
    try:  # ours out of the way (the cache makes a new one), theirs in its place
        os.rename(ours, os.path.join(parent, f"aside-{swaps}"))
    except OSError:
        pass
    if swaps % 2:
        try:
            os.rename(os.path.join(parent, theirs), ours)
            time.sleep(random.random() / 1000)
            os.rename(ours, os.path.join(parent, theirs))
        except OSError:
            pass
    else:  # or a symbolic link to theirs
        try:
            os.symlink(theirs, ours)
            time.sleep(random.random() / 1000)
            os.unlink(ours)
        except OSError:
            pass
    time.sleep(random.random() / 500)
print(swaps)
"""


def foreign(path: Path) -> None:
    """Make `path` look written by another user: theirs where we may give it away (root), else
    writable by others."""
    for item in (path, *path.iterdir()):
        try:
            os.chown(item, 65534, 65534)
        except PermissionError:
            os.chmod(item, 0o777 if item.is_dir() else 0o666)


@pytest.mark.slow
def test_the_swap_race_never_lets_a_planted_entry_answer(game, monkeypatch):
    """For a minute, another process swaps the cache folder for one holding a planted entry,
    well formed and with the right digests, whose game is the one before any move; the cache
    keeps reading and writing. Never is the planted game returned, nor anything written into
    the other folder. (A pickle here ran the attacker's code in 45 of 720 runs.)"""
    seconds = float(os.environ.get("REFEREE_RACE_SECONDS", "60"))
    log, players, options, seed, start, state = game.values
    planted_values = (log, players, options, seed, start, start)
    planted = entry_for(game.log, game.data, game.game_id, planted_values)
    theirs = folder().with_name("theirs")
    theirs.mkdir(mode=0o700)
    (theirs / game.entry.name).write_bytes(planted)
    os.chmod(theirs / game.entry.name, 0o600)
    folder().rename(folder().with_name("mine"))
    theirs.rename(folder())
    assert cache.lookup(game.log, game.data) == (game.game_id, planted_values)  # it would pass
    folder().rename(theirs)
    folder().with_name("mine").rename(folder())
    foreign(theirs)
    theirs_id = theirs.stat().st_ino

    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(folder().parent), "theirs",
                                str(seconds)], stdout=subprocess.PIPE, text=True)
    hits = misses = 0
    try:
        while swapper.poll() is None:
            kept = cache.lookup(game.log, game.data)
            if kept is None:
                misses += 1
                cache.store(game.log, game.data, game.game_id, game.values)
            else:
                assert kept == (game.game_id, game.values), "a planted entry was used"
                hits += 1
    except BaseException:
        swapper.kill()  # a failure ends the test now, not after the swapper's minute
        raise
    finally:
        swapper.wait(timeout=seconds + 60)
    assert int(swapper.stdout.read()) > 100 and hits > 100 and misses > 100
    [found] = [p for p in folder().parent.iterdir()
               if not p.is_symlink() and p.stat().st_ino == theirs_id]
    assert [p.name for p in found.iterdir()] == [game.entry.name]
    assert (found / game.entry.name).read_bytes() == planted  # nothing written there


# --------------------------------------------------------------------------------------------


def test_check_never_uses_the_cache(monkeypatch):
    monkeypatch.setattr(cache, "lookup", lambda *args: pytest.fail("check used the cache"))
    assert check_file(GOLDEN / "kings-ear" / "three-player-win.toml").ok


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*/*.toml")), ids=lambda p: p.stem)
def test_appending_a_move_writes_what_the_whole_log_would(path):
    log = logfile.read(path)
    shorter = logfile.GameLog(**{**log.__dict__, "entries": log.entries[:-1],
                                 "_locator": None})
    previous = logfile.dumps(shorter)
    assert logfile.appended_text(log, previous) == logfile.dumps(log) == path.read_text()
    again = logfile.located(log, logfile.dumps(log))
    assert [e.line for e in again.entries] == [e.line for e in log.entries]


def test_a_forged_entry_cannot_make_status_lie_or_play_write_from_it(cli):
    """T3, the tester's recipe: an entry of log a's game stored (by the user's own account)
    under log b's bytes passed every check of the entry, so `status` told b's 0 events as 1,
    and `play` wrote from the entry's log: event 2 into a log of none, a log `check` refused.
    The log's content now always comes from the file's bytes, and an entry is used only when
    the log it was replayed from is the file's."""
    three = ("-p", "Ann:Horse", "-p", "Ben:Pig", "-p", "Cat:Stag")
    assert cli("--log", "a.toml", "new", "kings-ear", *three).status == 0
    assert cli("--log", "a.toml", "play", "draw", "Pig", "Army", "3").status == 0
    assert cli("--log", "b.toml", "new", "kings-ear", *three).status == 0
    a, b = (cli.path / "a.toml").read_bytes(), (cli.path / "b.toml").read_bytes()
    kept = cache.lookup("a.toml", a)
    assert kept is not None
    cache.store("b.toml", b, *kept)
    assert cache.lookup("b.toml", b) is not None  # the forged entry passes the entry's checks
    status = cli("--log", "b.toml", "status")
    assert status.status == 0 and "0 event(s) in b.toml" in status.out
    assert "Pig Army 3" not in status.out
    refused = cli("--log", "b.toml", "play", "place", "Stag")  # nothing was drawn in b
    assert refused.status == 1 and (cli.path / "b.toml").read_bytes() == b
    played = cli("--log", "b.toml", "play", "draw", "Boar", "Army", "2")
    assert played.status == 0, played.err
    assert logfile.read(cli.path / "b.toml").entries[0].seq == 1
    assert check_file(cli.path / "b.toml").ok
    again = cache.lookup("b.toml", (cli.path / "b.toml").read_bytes())
    assert again is not None and len(again[1][0].entries) == 1  # the cache is kept as before
