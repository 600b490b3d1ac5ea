"""A user's game is checked with walks kept in the disk cache (verification/_walkcache)."""

from __future__ import annotations

from pathlib import Path

import nimlab
from nimlab.engine import _diskcache
from nimlab.verification import _walkcache

GAME_FILE = """
import nimlab


@nimlab.heap_game("walkcache-nim", heaps=2, summary="Nim on two heaps, as a user writes it")
def walkcache_nim(h):
    x, y = h
    for t in range(1, x + 1):
        yield (x - t, y)
    for t in range(1, y + 1):
        yield (x, y - t)
"""


def test_a_users_game_is_checked_by_walks_of_the_disk_cache(tmp_path: Path) -> None:
    path = tmp_path / "walkcache_games.py"
    path.write_text(GAME_FILE)
    g = nimlab.game(f"{path}:walkcache-nim")
    gen = _walkcache.model_gen(g)
    home = gen.py_func.__module__
    assert _diskcache.is_cached_module(home)  # the compiled engine's module of the game
    assert "def walkcache_nim(h):" in (_diskcache.cache_dir() / f"{home}.py").read_text()
    bad = nimlab.verify(g, "a | b", bound=12, heaps=2, workers=1)
    assert bad.method == "compiled" and bad.counterexample is not None
    assert bad.counterexample.position == (1, 1)  # a | b = 1, a P-position
    walks = [v for k, v in _walkcache._DISK.items() if ("gen", gen) in k]
    assert walks and all(v is not None and _diskcache.is_cached_module(v[0]) for v in walks)
