"""The canonical wavefront kernel (``_levels.solve_levels``, numba's parallel loops) is kept
on disk per move model: its module's text and its fallbacks. That a second process loads it
and compiles nothing is tested with the other disk-cached kernels, in the two processes of
tests/test_engine_diskcache.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import nimlab
from nimlab.engine._levelcache import levels_source


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
