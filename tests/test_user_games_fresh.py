"""A user's game in a new process: nothing compiled once its kernels are on disk.

The check that a move function yields tuples of ints is recorded on disk (a later
process does not compile the function to see). That the generated module of a move
function does not keep its generators in numba's cache (a generator loaded from that
cache cannot be lowered into a caller compiled later: ``KeyError`` in numba) is tested in
the two processes of tests/test_engine_diskcache.py.
"""

from __future__ import annotations

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
