"""The catalog's compiled kernels are kept on disk: a new process loads, never compiles.

Each process here is new (``python -c``), with its own cache directory; numba's
``numba:compile`` events count the compilations (loading from the disk cache is none).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import nimlab
from nimlab.catalog._source import generator_source

pytestmark = pytest.mark.timeout(600)

#: A table by the compiled engine (3 heaps of Single-delete: no hand kernel), the numba
#: compilations it needed, and a few values (checked against the Python search).
_RUN = """
import json, sys
import numpy as np
import nimlab
from nimlab.engine._compilewatch import CompileWatch
with CompileWatch() as w:
    t = nimlab.table("single-delete", (9, 9, 9), kind="outcome", engine="compiled")
print(json.dumps({"compiles": [n for n, _ in w.compiles], "table": np.asarray(t).tolist()}))
"""


def _run(cache: Path) -> dict[str, object]:
    env = {**os.environ, "NIMLAB_CACHE_DIR": str(cache)}
    r = subprocess.run(
        [sys.executable, "-c", _RUN], capture_output=True, text=True, timeout=500, env=env
    )
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    out: dict[str, object] = json.loads(r.stdout)
    return out


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
def test_second_process_loads_catalog_kernels_from_disk(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _run(cache)
    assert first["compiles"], "a fresh cache compiles"
    g = nimlab.game("single-delete")
    tab = first["table"]
    assert isinstance(tab, list)
    for x, y, z in [(1, 1, 1), (1, 3, 5), (2, 4, 6), (8, 7, 3), (5, 5, 2)]:
        want = nimlab.outcome(g, (x, y, z), method="search")
        assert bool(tab[x][y][z]) == (str(want) == "P")
    modules = list((cache / "compiled").glob("nimlab_compiled_*.py"))
    assert len(modules) == 1 and "def gen(h, _nimlab_p):" in modules[0].read_text()
    # compiled under the module's lock file (processes needing it at once compile it once)
    assert modules[0].with_suffix(".lock").is_file()
    second = _run(cache)
    assert second == {"compiles": [], "table": tab}  # loaded, not compiled
    # a cache directory that cannot be created: compiled in memory, the same table (damaged
    # files take the same fallback: see test_user_games.py)
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    assert _run(blocked / "cache")["table"] == tab


_VERIFY = """
import json, sys
from nimlab.engine._compilewatch import CompileWatch
from nimlab.cli import main
with CompileWatch() as w:
    code = main(["verify", sys.argv[1], "--bound", sys.argv[2], "--json"])
print(json.dumps({"code": code, "compiles": [n for n, _ in w.compiles]}))
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("theorem", "bound"),
    [("Sh-T6*", "14"), ("S19-T6", "6")],  # heap walks; an index space's walks (indexed.py)
)
def test_second_process_loads_verification_walks_from_disk(
    tmp_path: Path, theorem: str, bound: str
) -> None:
    env = {**os.environ, "NIMLAB_CACHE_DIR": str(tmp_path)}

    def run() -> dict[str, object]:
        r = subprocess.run(
            [sys.executable, "-c", _VERIFY, theorem, bound],
            capture_output=True,
            text=True,
            timeout=500,
            env=env,
        )
        assert r.returncode == 0, r.stderr
        out: dict[str, object] = json.loads(r.stdout.strip().splitlines()[-1])
        return out

    first = run()
    assert first["code"] == 0 and first["compiles"], "a fresh cache compiles the walks"
    assert run() == {"code": 0, "compiles": []}  # the walk and the claim: loaded


#: A table by the compiled engine for each ``name:param=value`` argument, the numba
#: compilations it needed, the tables, and a function compiled after the loads.
_PARAMS_RUN = """
import json, sys
import numpy as np
from numba import njit
import nimlab
from nimlab.engine._compilewatch import CompileWatch
out = {"tables": []}
with CompileWatch() as w:
    for arg in sys.argv[1:]:
        name, _, param = arg.partition(":")
        key, _, value = param.partition("=")
        g = nimlab.game(name, **{key: value})
        size = (40,) if g.heap_count() == 1 else (7, 7)
        out["tables"].append(np.asarray(nimlab.table(g, size, engine="compiled")).tolist())
out["compiles"] = [n for n, _ in w.compiles]
out["after"] = njit(lambda x: x + 1)(41)  # compiling after the cached loads still works
print(json.dumps(out))
"""


@pytest.mark.slow
def test_a_new_parameter_value_in_a_new_process_compiles_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "NIMLAB_CACHE_DIR": str(tmp_path / "cache")}

    def run(*games: str) -> dict[str, object]:
        r = subprocess.run(
            [sys.executable, "-c", _PARAMS_RUN, *games],
            capture_output=True,
            text=True,
            timeout=500,
            env=env,
        )
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        out: dict[str, object] = json.loads(r.stdout.strip().splitlines()[-1])
        return out

    first = run("subtraction:S=1,3,4", "moore:k=2")
    assert first["compiles"], "a fresh cache compiles"
    games = ["subtraction:S=2,5,7", "moore:k=1"]  # a set of the same size
    second = run(*games)
    assert second["compiles"] == [] and second["after"] == 42  # loaded, not compiled
    tables = second["tables"]
    assert isinstance(tables, list)
    # the values: the exact Python search (data we did not make with the kernel)
    for (name, param), tab in zip([("subtraction", "2,5,7"), ("moore", 1)], tables, strict=True):
        key = "S" if name == "subtraction" else "k"
        g = nimlab.game(name, **{key: param})
        want = nimlab.table(g, (40,) if name == "subtraction" else (7, 7), engine="generic")
        assert tab == want.tolist()


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
