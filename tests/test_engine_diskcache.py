"""The catalog's compiled kernels are kept on disk: a new process loads, never compiles.

Each process here is new (``python -c``), with its own cache directory; numba's
``numba:compile`` events count the compilations (loading from the disk cache is none).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import nimlab
from nimlab.catalog._source import generator_source

pytestmark = pytest.mark.timeout(600)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "my_games.py"

#: The jobs of one process, each with the numba compilations it needed (``compiles``) and
#: the engine's modules it added to the cache directory (``modules``): ``table NAME
#: [KEY=VALUE]`` a table by the compiled engine (3 heaps of Single-delete: no hand kernel;
#: a one-heap game 40 long; others 7 x 7) with the module its kernel came from,
#: ``caller NAME`` a function compiled after the loads that calls the move model of the
#: module of NAME's table (what a verification walk does), ``verify THEOREM BOUND`` the CLI's check of a theorem (the verification's walks), and
#: ``njit`` a function compiled after the loads.
_RUN = """
import itertools, json, sys
import numpy as np
from numba import njit
import nimlab
from nimlab.cli import main
from nimlab.engine import _diskcache, _levelcache
from nimlab.engine._compilewatch import CompileWatch
from nimlab.engine.compiled import CompiledSolver
out = {}
for job in sys.argv[1:]:
    kind, *args = job.split()
    before = set(_diskcache.cache_dir().glob("nimlab_compiled_*.py"))
    got = {}
    with CompileWatch() as w:
        if kind == "table":  # table NAME SHAPE KIND [KEY=VALUE]
            key, _, value = (args[3:] or [""])[0].partition("=")
            g = nimlab.game(args[0], **({key: value} if key else {}))
            shape = tuple(map(int, args[1].split("x")))
            t = nimlab.table(g, shape, kind=args[2], engine="compiled")
            got["table"] = np.asarray(t).tolist()
            got["module"] = _diskcache._LOADED[g][0] if g in _diskcache._LOADED else None
        elif kind == "levels":  # levels HEAPS SIDE KIND NAME: the wavefront (parallel=True)
            g = nimlab.game(job.split(" ", 4)[4])
            s = CompiledSolver(g, int(args[0]), args[2], parallel=True)
            s.solve_below(int(args[1]))
            box = itertools.product(range(int(args[1])), repeat=int(args[0]))
            got["table"] = [s.value(p) for p in box]
            got["module"] = _levelcache._LOADED[g][0] if g in _levelcache._LOADED else None
        elif kind == "caller":  # caller NAME: a function compiled now calling NAME's gen
            try:
                gen = sys.modules[_diskcache._LOADED[nimlab.game(args[0])][0]].gen

                @njit
                def count(h):
                    c = 0
                    for o in gen(h):
                        c += 1
                    return c

                got["options"] = count((3, 4))
            except Exception as exc:  # KeyError in numba's lowering: the test says it
                got["options"] = repr(exc)
        elif kind == "verify":
            got["code"] = main(["verify", args[0], "--bound", args[1], "--json"])
        else:
            got["value"] = njit(lambda x: x + 1)(41)  # compiling after the loads still works
    got["compiles"] = [n for n, _ in w.compiles]
    after = set(_diskcache.cache_dir().glob("nimlab_compiled_*.py"))
    got["modules"] = sorted(p.stem for p in after - before)
    out[job] = got
print(json.dumps(out))
"""

_SINGLE_DELETE = "table single-delete 9x9x9 outcome"
#: the walks of a heap game; an index space's walks (indexed.py)
_VERIFY = {"Sh-T6*": "verify Sh-T6* 14", "S19-T6": "verify S19-T6 6"}
#: a user's game (a file run as the CLI runs it: the working directory is the checkout's)
_USER = "examples/my_games.py:pow2-both"
_USER_TABLE = f"table {_USER} 6x6 grundy"
#: the wavefront of a catalog move model (parameters as an argument: 3 heaps of
#: Single-delete) and of a user's (its own source: 2 heaps)
_LEVELS = ("levels 3 10 outcome single-delete", f"levels 2 12 grundy {_USER}")
#: a first parameter value of each game, and a new value of the same size for the second
_PARAMS = {
    "table subtraction 40 grundy S=1,3,4": "table subtraction 40 grundy S=2,5,7",
    "table moore 7x7 grundy k=2": "table moore 7x7 grundy k=1",
}


def _run(cache: Path, *jobs: str) -> dict[str, dict[str, Any]]:
    env = {**os.environ, "NIMLAB_CACHE_DIR": str(cache)}
    r = subprocess.run(
        [sys.executable, "-c", _RUN, *jobs],
        capture_output=True,
        text=True,
        timeout=500,
        env=env,
        cwd=EXAMPLES.parent.parent,
    )
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "Cannot cache" not in r.stderr, r.stderr  # numba kept every kernel on disk
    out: dict[str, dict[str, Any]] = json.loads(r.stdout.strip().splitlines()[-1])
    return out


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A first process on a fresh cache directory and a second on the cache it filled,
    each running the jobs of every test below (one process start and one numba start-up
    for all, instead of two a test): each test checks its own jobs.

    Run once for the whole session: when ``pytest -n`` gives this module's tests to both
    workers, the second waits for the first's processes (a lock file in the directory the
    workers share) and reads what they gave, instead of compiling everything again."""
    import fcntl

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the workers' common directory of this session
    home = root / "diskcache-two-processes"
    home.mkdir(exist_ok=True)
    done = home / "processes.json"
    with open(home / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            cache = home / "cache"
            jobs = (_SINGLE_DELETE, *_PARAMS, *_VERIFY.values(), _USER_TABLE, *_LEVELS)
            first = _run(cache, *jobs)
            again = (_SINGLE_DELETE, *_PARAMS.values(), *_VERIFY.values(), _USER_TABLE)
            second = _run(cache, *again, f"caller {_USER}", *_LEVELS, "njit")
            done.write_text(json.dumps({"first": first, "second": second}))
        got: dict[str, Any] = json.loads(done.read_text())
    return {"cache": home / "cache", **got}


def test_catalog_move_models_become_modules(tmp_path: Path) -> None:
    got = generator_source(nimlab.game("moore", k=3).compiled_options())
    assert got is not None
    text, params = got
    # the parameter is an argument, not a constant of the text
    assert params == (3,) and "k = _nimlab_p[0]" in text and "k = 3" not in text
    assert "def allowed(mask, n, _nimlab_p):" in text and "def gen(h, _nimlab_p):" in text
    (tmp_path / "moore_mod.py").write_text(text)
    sys.path.insert(0, str(tmp_path))
    try:
        import moore_mod  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(tmp_path))
    gen = moore_mod.gen  # the module as written, compiled by numba
    for k in (1, 3):  # one module, every value of k
        g = nimlab.game("moore", k=k)
        other = generator_source(g.compiled_options())
        assert other is not None and other[0] == text
        for h in [(0, 0, 0, 0), (1, 2, 3, 4), (3, 0, 2, 5)]:
            want = sorted(g.moves(h))
            assert sorted(tuple(map(int, o)) for o in gen(h, other[1])) == want
    # not a catalog closure: nothing to write (the engine compiles it in memory)
    assert generator_source(lambda h: h) is None


@pytest.mark.parametrize(
    ("name", "values"),
    [
        ("subtraction", [{"S": "1,3,4"}, {"S": "2,5,7,9"}, {"S": "6"}]),
        ("allbut", [{"S": "2"}, {"S": "1,4"}]),
        ("circular", [{"k": 1}, {"k": 2}]),
        ("nimhoff", [{"k": 1}, {"k": 2}]),
        ("ryuo", [{"p": 3}, {"p": 5}]),
        ("restricted-ryuo", [{"p": 3, "q": 2}, {"p": 4, "q": 3}]),
    ],
)
def test_one_module_serves_every_parameter_value(
    name: str, values: list[dict[str, object]]
) -> None:
    texts = set()
    for params in values:
        got = generator_source(nimlab.game(name, **params).compiled_options())
        assert got is not None
        texts.add(got[0])
    assert len(texts) == 1  # the values: run-time arguments, never written in the text


def test_a_module_is_named_by_every_file_compiled_into_it() -> None:
    """A written walk imports the compiled helpers of another file (the local rules of
    ``_heapwalks`` in ``indexed``'s kernels): numba does not see that file change, so its
    text is part of the digest that names the module (a changed helper: a new module)."""
    import hashlib
    import inspect

    from nimlab.verification import _heapwalks, indexed
    from nimlab.verification._walkcache import _walk_text

    m = nimlab.game("turning-turtles").index_model((2, 3))
    assert m is not None
    named = (("decode", m.decode), ("encode", m.encode), ("gen", m.options))
    got = _walk_text(indexed._grundy, named)
    assert got is not None and "import _mex_holds" in got[0]
    files = {inspect.getfile(f.py_func) for _, f in named}
    files |= {indexed.__file__, _heapwalks.__file__}
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(Path(path).read_bytes())
    assert f"# sources: {digest.hexdigest()[:24]}" in got[0]


@pytest.mark.slow
def test_second_process_loads_catalog_kernels_from_disk(
    two_processes: dict[str, Any], tmp_path: Path
) -> None:
    cache: Path = two_processes["cache"]
    first = two_processes["first"][_SINGLE_DELETE]
    assert first["compiles"], "a fresh cache compiles"
    g = nimlab.game("single-delete")
    tab = first["table"]
    assert isinstance(tab, list)
    for x, y, z in [(1, 1, 1), (1, 3, 5), (2, 4, 6), (8, 7, 3), (5, 5, 2)]:
        want = nimlab.outcome(g, (x, y, z), method="search")
        assert bool(tab[x][y][z]) == (str(want) == "P")
    # the table wrote one module, the one its kernel came from
    assert first["modules"] == [first["module"]]
    module = cache / "compiled" / f"{first['module']}.py"
    assert "def gen(h, _nimlab_p):" in module.read_text()
    # compiled under the module's lock file (processes needing it at once compile it once)
    assert module.with_suffix(".lock").is_file()
    second = two_processes["second"][_SINGLE_DELETE]
    assert second == {**first, "compiles": [], "modules": []}  # loaded, not compiled
    # a cache directory that cannot be created: compiled in memory, the same table (damaged
    # files take the same fallback: see test_user_games.py)
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    assert _run(blocked / "cache", _SINGLE_DELETE)[_SINGLE_DELETE]["table"] == tab


@pytest.mark.slow
@pytest.mark.parametrize("theorem", sorted(_VERIFY))
def test_second_process_loads_verification_walks_from_disk(
    two_processes: dict[str, Any], theorem: str
) -> None:
    job = _VERIFY[theorem]
    first, second = two_processes["first"][job], two_processes["second"][job]
    assert first["code"] == 0 and first["compiles"], "a fresh cache compiles the walks"
    assert second == {"code": 0, "compiles": [], "modules": []}  # the walk and the claim: loaded


@pytest.mark.slow
def test_a_new_parameter_value_in_a_new_process_compiles_nothing(
    two_processes: dict[str, Any],
) -> None:
    for job, new in _PARAMS.items():
        assert two_processes["first"][job]["compiles"], "a fresh cache compiles"
        second = two_processes["second"][new]
        assert second["compiles"] == [] and second["modules"] == []  # loaded, not compiled
        # the values: the exact Python search (data we did not make with the kernel)
        _, name, shape, _, param = new.split()
        key, _, value = param.partition("=")
        g = nimlab.game(name, **{key: value})
        want = nimlab.table(g, tuple(map(int, shape.split("x"))), engine="generic")
        assert second["table"] == want.tolist()
    assert two_processes["second"]["njit"]["value"] == 42  # compiling after the loads works


@pytest.mark.slow
def test_a_second_process_loads_the_wavefront_and_compiles_nothing(
    two_processes: dict[str, Any],
) -> None:
    """The canonical wavefront kernel is kept on disk per move model (tests/test_levelcache.py
    tests its module's text and its fallbacks)."""
    cache: Path = two_processes["cache"]
    for job in _LEVELS:
        first = two_processes["first"][job]
        # the game ran the cached wavefront: compiled once, into a module it wrote
        assert sum(str(n).endswith(".solve_levels") for n in first["compiles"]) == 1
        assert first["module"] in first["modules"]
        # compiled under the lock file of its module (processes at once compile it once)
        assert (cache / "compiled" / f"{first['module']}.lock").is_file()
        second = two_processes["second"][job]
        assert second == {**first, "compiles": [], "modules": []}  # loaded, not compiled
    # the values: the exact Python search (data we did not make with the kernel)
    sd = two_processes["first"][_LEVELS[0]]["table"]
    g = nimlab.game("single-delete")
    for p in [(1, 1, 1), (1, 3, 5), (2, 4, 6), (9, 7, 3), (5, 5, 2), (3, 8, 8)]:
        want = str(nimlab.outcome(g, p, method="search")) == "N"
        assert sd[(p[0] * 10 + p[1]) * 10 + p[2]] == int(want)
    u = nimlab.game(f"{EXAMPLES}:pow2-both")
    box = nimlab.table(u, (12, 12), engine="generic").tolist()
    assert two_processes["first"][_LEVELS[1]]["table"] == [v for row in box for v in row]


@pytest.mark.slow
def test_cached_generator_serves_a_caller_compiled_later(two_processes: dict[str, Any]) -> None:
    """A user's game in a new process: the engine's kernel loaded from disk, then a new
    caller of the module's generator compiled (what a verification walk does). The module
    does not keep its generators in numba's cache (one loaded from that cache cannot be
    lowered into a caller compiled later: ``KeyError`` in numba)."""
    first = two_processes["first"][_USER_TABLE]
    assert first["compiles"] and first["modules"] == [first["module"]]
    second = two_processes["second"][_USER_TABLE]
    # the table's kernel and the move check: loaded from disk, nothing compiled
    assert second == {**first, "compiles": [], "modules": []}
    g = nimlab.game(f"{EXAMPLES}:pow2-both")
    assert two_processes["second"][f"caller {_USER}"]["options"] == len(list(g.moves((3, 4))))
    assert second["table"] == nimlab.table(g, (6, 6), engine="generic").tolist()


@pytest.mark.slow
def test_compiled_user_games_are_cached_on_disk(
    two_processes: dict[str, Any], tmp_path: Path
) -> None:
    """A user's game file on the command line (``nimlab table``) in new processes, on a
    copy of the cache the first process filled: damaged files give the same table and are
    written again."""
    cache = tmp_path / "cache"
    shutil.copytree(two_processes["cache"], cache)
    module = two_processes["first"][_USER_TABLE]["module"]
    compiled = cache / "compiled"
    mine = [p for p in (compiled / "__pycache__").iterdir() if p.name.startswith(f"{module}.")]
    kept = {p.name.split(".")[1].split("-")[0] for p in mine}
    # the engine's kernel, which holds the move function's code; a generator is not cached
    # itself (one loaded from numba's cache cannot be lowered into a later caller)
    assert "solve" in kept and "pow2_both" not in kept
    env = {**os.environ, "NIMLAB_CACHE_DIR": str(cache)}
    # 150 x 150 cells: nimlab.table runs the compiled engine (from 20,000 cells)
    exe = Path(sys.executable).with_name("nimlab")
    argv = [str(exe), "table", _USER, "--size", "150", "--heaps", "2", "--json"]

    def run() -> str:
        r = subprocess.run(
            argv, capture_output=True, text=True, timeout=500, env=env, cwd=EXAMPLES.parent.parent
        )
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        return r.stdout

    first = run()
    values = json.loads(first)["values"]
    assert [row[:6] for row in values[:6]] == two_processes["first"][_USER_TABLE]["table"]
    g = nimlab.game(f"{EXAMPLES}:pow2-both")
    for x, y in [(4, 9), (13, 2), (30, 17), (41, 40), (57, 3)]:
        assert values[x][y] == nimlab.grundy(g, (x, y), method="search")
    # damaged files: the same table, and the files written again
    for p in mine:
        if p.suffix in (".nbi", ".nbc"):
            p.write_bytes(b"damaged")
    assert run() == first
    (compiled / f"{module}.py").write_text("this is not python (")
    assert run() == first
    assert "def pow2_both(h):" in (compiled / f"{module}.py").read_text()


def test_a_cached_walk_is_compiled_under_its_modules_lock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the verification's walks of the disk cache are compiled (or loaded) under their
    # module's lock like the engine's kernels (two processes needing one at once compile
    # it once: the lock itself is tested with the engine's kernels above)
    from nimlab.engine import _diskcache

    locked: list[str] = []
    real = _diskcache.compile_locked

    def spy(name: str, kernel: Any, args: tuple[Any, ...]) -> None:
        locked.append(name)
        real(name, kernel, args)

    monkeypatch.setattr(_diskcache, "compile_locked", spy)
    got = nimlab.check_theorem("S19-T7", bound=6, store=False)
    assert got.ok
    walks = [n for n in set(locked) if hasattr(_diskcache.load_module(n), "walk")]
    assert walks, "the check ran a walk of the disk cache, under its lock"
    for name in walks:
        assert (_diskcache.cache_dir() / f"{name}.lock").is_file(), name
