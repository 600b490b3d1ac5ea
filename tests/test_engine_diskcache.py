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
    text = generator_source(nimlab.game("moore", k=3).compiled_options())
    assert text is not None
    assert "k = 3" in text and "def allowed(mask, n):" in text and "def gen(h):" in text
    (tmp_path / "moore_mod.py").write_text(text)
    sys.path.insert(0, str(tmp_path))
    try:
        import moore_mod  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(tmp_path))
    gen = moore_mod.gen  # the module as written, compiled by numba
    g = nimlab.game("moore", k=3)
    for h in [(0, 0, 0, 0), (1, 2, 3, 4), (3, 0, 2, 5)]:
        assert sorted(tuple(map(int, o)) for o in gen(h)) == sorted(g.moves(h))
    # not a catalog closure: nothing to write (the engine compiles it in memory)
    assert generator_source(lambda h: h) is None


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
    assert len(modules) == 1 and "def gen(h):" in modules[0].read_text()
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
