"""A user's game in a new process: nothing compiled once its kernels are on disk.

The check that a move function yields tuples of ints is recorded on disk (a later
process does not compile the function to see), and the generated module of a move
function does not keep its generators in numba's cache (a generator loaded from that
cache cannot be lowered into a caller compiled later: ``KeyError`` in numba).
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
from nimlab.catalog import user
from nimlab.core.errors import GameDefinitionError

GAME_FILE = """
import nimlab


@nimlab.heap_game("fresh-minus-one", heaps=2)
def minus_one(h):
    x, y = h
    if x:
        yield (x - 1, y)
    if y:
        yield (x, y - 1)
    if x and y:
        yield (x - 1, y - 1)


@nimlab.heap_game("fresh-halves", heaps=1)
def halves(h):
    if h[0]:
        yield (h[0] / 2,)
"""


def _games(tmp_path: Path) -> tuple[Any, Any]:
    path = tmp_path / "fresh_games.py"
    path.write_text(GAME_FILE)
    return nimlab.game(f"{path}:fresh-minus-one"), nimlab.game(f"{path}:fresh-halves")


def test_yield_check_is_recorded_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NIMLAB_CACHE_DIR", str(tmp_path / "cache"))
    good, bad = _games(tmp_path)
    marker = user._typed_marker(good, 2)
    assert marker is not None and not marker.exists()
    gen = good.compiled_options()
    assert marker.is_file()  # checked once: recorded
    user._TYPED.clear()  # as in a new process: the record answers, nothing is compiled

    def no_compile(*args: object) -> None:
        raise AssertionError("compiled again")

    monkeypatch.setattr(gen, "compile", no_compile)
    assert good.compiled_options() is gen
    # a move function that yields floats is refused, and nothing is recorded for it
    with pytest.raises(GameDefinitionError, match="yields"):
        bad.compiled_options()
    bad_marker = user._typed_marker(bad, 1)
    assert bad_marker is not None and not bad_marker.exists()


_FIRST = """
import sys
import nimlab
nimlab.table(sys.argv[1], (6, 6), engine="compiled")
"""

#: A later process: the engine's kernel loaded from disk, then a new caller of the
#: module's generator compiled (what a verification walk does): no KeyError.
_SECOND = """
import json, sys
from numba import njit
import nimlab
from nimlab.engine import _diskcache
from nimlab.engine._compilewatch import CompileWatch
g = nimlab.game(sys.argv[1])
with CompileWatch() as w:
    t = nimlab.table(g, (6, 6), engine="compiled")
loaded = [n for n, _ in w.compiles]
gen = sys.modules[_diskcache._LOADED[g][0]].gen


@njit
def count(h):
    c = 0
    for o in gen(h):
        c += 1
    return c


print(json.dumps({"loaded": loaded, "options": count((3, 4)), "p": int((t == 0).sum())}))
"""


@pytest.mark.slow
def test_cached_generator_serves_a_caller_compiled_later(tmp_path: Path) -> None:
    path = tmp_path / "fresh_games.py"
    path.write_text(GAME_FILE)
    spec = f"{path}:fresh-minus-one"
    env = {**os.environ, "NIMLAB_CACHE_DIR": str(tmp_path / "cache")}
    for script in (_FIRST, _SECOND):
        r = subprocess.run(
            [sys.executable, "-c", script, spec], capture_output=True, text=True, env=env
        )
        assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    # the table's kernel and the move check: loaded from disk, nothing compiled
    assert out["loaded"] == []
    assert out["options"] == 3
    assert out["p"] == int((nimlab.table(spec, (6, 6), engine="generic") == 0).sum())
