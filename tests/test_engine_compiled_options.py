"""The catalog's compiled move models (``compiled_options``) give exactly ``moves()``."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest

from nimlab import game
from nimlab.core.errors import InvalidPositionError

# numba compiles a kernel per game and number of heaps: seconds each, more on a loaded machine
pytestmark = pytest.mark.timeout(600)


CASES: list[tuple[str, dict[str, Any], tuple[int, ...], int]] = [
    # name, params, heaps counts to try, largest heap
    ("nim", {}, (1, 2, 3, 4), 4),
    ("welter", {}, (1, 2, 3), 5),
    ("wythoff", {}, (2,), 6),
    ("lim", {}, (3,), 4),
    ("nimhoff", {"k": 1}, (2, 3), 5),
    ("nimhoff", {"k": 2}, (2, 3), 6),
    ("moore", {"k": 1}, (2, 3), 3),
    ("moore", {"k": 2}, (2, 3, 4), 3),
    ("moore", {"k": 3}, (3, 4), 2),
    ("circular", {"k": 1}, (3,), 3),
    ("circular", {"k": 2}, (3, 4, 5), 2),
    ("circular", {"k": 4}, (6,), 1),
    ("delete-nim", {}, (2,), 6),
    ("single-delete", {}, (2, 3, 4, 5), 6),
    ("abo-delete", {}, (2, 3, 4), 9),
    ("subtraction", {"S": "1,3,4"}, (1,), 12),
    ("allbut", {"S": "2,5"}, (1,), 12),
    ("allbut", {}, (1,), 6),
    ("ryuo", {"p": 3}, (2,), 5),
    ("restricted-ryuo", {"p": 2, "q": 4}, (2,), 6),
    ("rgames", {"g0": "subtraction:1,2,3", "parts": "allbut:8;allbut:4,8"}, (2,), 10),
    ("rgames", {"g0": "subtraction:1,2", "parts": "allbut:3;subtraction:1..5"}, (2,), 8),
    ("rgames", {"g0": "subtraction:1", "parts": "allbut:2;nim;allbut:2,4"}, (3,), 5),
    ("rgames", {"g0": "nim", "parts": "subtraction:2,5;allbut:1"}, (2,), 7),
    ("rgames", {"g0": "allbut:1,3", "parts": "nim;subtraction:1,4;allbut:3"}, (3,), 4),
]


def _multiset(g: Any, opts: Any) -> Counter[tuple[int, ...]]:
    return Counter(g.canonical(tuple(int(x) for x in o)) for o in opts)


@pytest.mark.parametrize(("name", "params", "counts", "top"), CASES)
def test_compiled_options_equal_moves(
    name: str, params: dict[str, Any], counts: tuple[int, ...], top: int
) -> None:
    g = game(name, **params)
    gen = g.compiled_options()
    assert gen is not None
    checked = 0
    for n in counts:
        for pos in itertools.product(range(top + 1), repeat=n):
            try:
                p = g.validate(pos)
            except InvalidPositionError:
                continue
            want = _multiset(g, g.moves(p))
            got = _multiset(g, gen(p))
            assert got == want, (name, p)
            checked += 1
    assert checked > 0


def test_games_without_compiled_model() -> None:
    assert game("octal", code="0.77").compiled_options() is None


def test_replace_compiles() -> None:
    from numba import njit

    from nimlab.catalog._compiled import register_replace
    from nimlab.core.ruleset import replace

    register_replace()

    @njit
    def f(h: Any) -> Any:
        return replace(h, 1, 7)

    assert f((1, 2, 3)) == (1, 7, 3)
    assert replace((1, 2, 3), 1, 7) == (1, 7, 3)
