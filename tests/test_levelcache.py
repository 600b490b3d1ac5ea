"""The canonical wavefront kernel (``_levels.solve_levels``, numba's parallel loops) is kept
on disk per move model: a second process loads it and compiles nothing.

Each process here is new (``python -c``) and shares one cache directory with the other;
numba's ``numba:compile`` events count the compilations (a load from the disk cache is
none).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import nimlab
from nimlab.engine._levelcache import levels_source

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "my_games.py"

#: Tables by the wavefront (``parallel=True``): a catalog move model (parameters as an
#: argument: 3 heaps of Single-delete) and a user's (its own source: 2 heaps), the numba
#: compilations they needed and the wavefront's cached modules.
_RUN = """
import json, sys
import numpy as np
import nimlab
from nimlab.engine import _levelcache
from nimlab.engine._compilewatch import CompileWatch
from nimlab.engine.compiled import CompiledSolver
out = {"tables": []}
with CompileWatch() as w:
    for name, heaps, side, kind in [("single-delete", 3, 10, "outcome"),
                                    (sys.argv[1], 2, 12, "grundy")]:
        s = CompiledSolver(nimlab.game(name), heaps, kind, parallel=True)
        s.solve_below(side)
        out["tables"].append([s.value(p) for p in __import__("itertools").product(
            range(side), repeat=heaps)])
out["compiles"] = [n for n, _ in w.compiles]
out["modules"] = sorted(v[0] for v in _levelcache._LOADED.values())
print(json.dumps(out))
"""


def _run(cache: Path) -> dict[str, list[object]]:
    env = {**os.environ, "NIMLAB_CACHE_DIR": str(cache)}
    game = f"{EXAMPLES}:pow2-both"
    r = subprocess.run(
        [sys.executable, "-c", _RUN, game], capture_output=True, text=True, timeout=300, env=env
    )
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "Cannot cache" not in r.stderr, r.stderr  # numba kept every kernel on disk
    out: dict[str, list[object]] = json.loads(r.stdout.strip().splitlines()[-1])
    return out


@pytest.mark.slow
def test_a_second_process_loads_the_wavefront_and_compiles_nothing(tmp_path: Path) -> None:
    first = _run(tmp_path)
    assert len(first["modules"]) == 2  # both games ran the cached wavefront
    assert sum(n.endswith(".solve_levels") for n in map(str, first["compiles"])) == 2
    # compiled under the lock file of its module (processes at once compile it once)
    assert all((tmp_path / "compiled" / f"{m}.lock").is_file() for m in first["modules"])
    second = _run(tmp_path)
    assert second == {**first, "compiles": []}  # loaded, not compiled: the same values
    # the values: the exact Python search (data we did not make with the kernel)
    sd, pow2 = first["tables"]
    assert isinstance(sd, list) and isinstance(pow2, list)
    g = nimlab.game("single-delete")
    for p in [(1, 1, 1), (1, 3, 5), (2, 4, 6), (9, 7, 3), (5, 5, 2), (3, 8, 8)]:
        want = str(nimlab.outcome(g, p, method="search")) == "N"
        assert sd[(p[0] * 10 + p[1]) * 10 + p[2]] == int(want)
    u = nimlab.game(f"{EXAMPLES}:pow2-both")
    box = nimlab.table(u, (12, 12), engine="generic").tolist()
    assert pow2 == [v for row in box for v in row]


def test_the_written_kernels_call_the_modules_own_move_model() -> None:
    for params in (None, "_nimlab_p"):
        tree = ast.parse(levels_source(params))
        defs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
        assert "solve_levels" in defs and len(defs) >= 3  # and the kernels it calls with gen
        for f in defs.values():
            names = [a.arg for a in f.args.args]
            assert "gen" not in names and (params is None or names[-1] == params)
        calls = [
            c for c in ast.walk(tree) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
        ]
        gens = [c for c in calls if c.func.id == "gen"]  # type: ignore[attr-defined]
        assert gens and all(len(c.args) == (1 if params is None else 2) for c in gens)
        # numba's get_num_threads (a ctypes pointer) would keep the kernel off the disk
        assert "import get_num_threads " not in levels_source(params)


def test_a_kernel_that_fails_from_its_module_runs_in_memory_and_is_forgotten(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from nimlab.engine import _diskcache, _levelcache, _levels

    g = nimlab.game("nim")
    module = tmp_path / "compiled" / "nimlab_compiled_broken.py"
    module.parent.mkdir()
    module.write_text("")
    monkeypatch.setenv("NIMLAB_CACHE_DIR", str(tmp_path))

    def broken(*args: object) -> None:
        raise OSError("numba could not load its cache file")

    ran: list[tuple[object, ...]] = []
    monkeypatch.setitem(_levelcache._LOADED, g, ("nimlab_compiled_broken", broken, None))
    monkeypatch.setattr(_levels, "solve_levels", lambda *a: ran.append(a) or 0)
    monkeypatch.setattr(_levelcache, "_FAILED", set())
    _levelcache.solve_levels(g, "GEN", 1, 2)
    assert ran == [("GEN", 1, 2)]  # the level ran in memory with the move model
    assert g not in _levelcache._LOADED and not module.exists()  # its files deleted
    assert not _levelcache.available(g)  # not tried again in this process
    assert _diskcache.cache_dir() == tmp_path / "compiled"


def test_a_game_without_a_model_source_keeps_the_kernel_compiled_in_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from nimlab.engine import _levelcache, _levels

    class NoSource(nimlab.HeapRuleset):
        name = "no-source"
        n_heaps = 2

        def moves(self, position: tuple[int, ...]):  # type: ignore[no-untyped-def]
            yield from ()

    g = NoSource()
    assert _levelcache.cached_levels(g) is None
    ran: list[tuple[object, ...]] = []
    monkeypatch.setattr(_levels, "solve_levels", lambda *a: ran.append(a) or 0)
    _levelcache.solve_levels(g, "GEN", 3)
    assert ran == [("GEN", 3)]
