"""Researchers' own games (nimlab.heap_game): compiled and interpreted runs agree."""

from __future__ import annotations

import itertools
import subprocess
import sys
import textwrap
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nimlab
from nimlab.core.errors import InvalidParameterError, NimlabError

# numba compiles each game's kernels: seconds each, more on a loaded machine
pytestmark = pytest.mark.timeout(600)

PRIMES = np.array([2, 3, 5, 7, 11, 13])


# README's "Your own game", in the file a user would write (shared with the benchmarks)
pow2_both = nimlab.game(
    f"{Path(__file__).resolve().parents[1] / 'examples' / 'my_games.py'}:pow2-both"
)


@nimlab.heap_game("prime-nim")
def prime_nim(h):  # type: ignore[no-untyped-def]
    for i in range(len(h)):
        for p in PRIMES:
            if p > h[i]:
                break
            yield nimlab.replace(h, i, h[i] - p)


@nimlab.heap_game("take-up-to-k", params={"k": 2})
def take_up_to_k(h, k):  # type: ignore[no-untyped-def]
    """Take 1..k stones from one heap."""
    for i in range(len(h)):
        t = 1
        while t <= k and t <= h[i]:
            yield nimlab.replace(h, i, h[i] - t)
            t += 1


@nimlab.heap_game("slide", heaps=3, order_free=False)
def slide(h):  # type: ignore[no-untyped-def]
    """Move one stone from a heap to the heap on its left, or take one from heap 0."""
    if h[0] > 0:
        yield nimlab.replace(h, 0, h[0] - 1)
    for i in range(1, len(h)):
        if h[i] > 0:
            yield nimlab.replace(nimlab.replace(h, i, h[i] - 1), i - 1, h[i - 1] + 1)


def _same(a: Any, b: Any) -> bool:
    return bool(np.array_equal(np.ma.getdata(a), np.ma.getdata(b)))


def test_readme_examples_compiled_equal_interpreted() -> None:
    a = nimlab.table(pow2_both, 24, engine="compiled")
    b = nimlab.table(pow2_both, 24, engine="generic")
    assert _same(a, b)
    assert nimlab.grundy("pow2-both", (3, 5)) == int(b[3, 5])
    t = nimlab.table("prime-nim", (12, 12, 12), kind="outcome", engine="compiled")
    u = nimlab.table("prime-nim", (12, 12, 12), kind="outcome", engine="generic")
    assert _same(t, u)
    # one heap of prime-nim: G(n) by hand for n < 6 (moves: n-2, n-3, n-5)
    assert [nimlab.grundy(prime_nim, (n,)) for n in range(6)] == [0, 0, 1, 1, 2, 2]


def test_order_matters_and_raising_moves() -> None:
    # slide raises heap i-1: solved exactly on a growing array
    a = nimlab.table(slide, (4, 4, 4), engine="compiled")
    b = nimlab.table(slide, (4, 4, 4), engine="generic")
    assert _same(a, b)
    assert nimlab.grundy(slide, (0, 0, 3)) == nimlab.grundy(slide, (0, 0, 3), method="search")


def test_params_choose_a_family_member() -> None:
    g3 = nimlab.game("take-up-to-k", k=3)
    assert g3.label() == "take-up-to-k(k=3)"
    assert [nimlab.grundy(g3, (n,)) for n in range(9)] == [n % 4 for n in range(9)]
    assert nimlab.grundy(take_up_to_k, (7, 4)) == (7 % 3) ^ (4 % 3)
    t = nimlab.table(g3, (9, 9), engine="compiled")
    x, y = np.indices(t.shape)
    np.testing.assert_array_equal(t, (x % 4) ^ (y % 4))


def test_every_facet() -> None:
    assert str(nimlab.outcome(prime_nim, (4, 4))) == "P"
    assert nimlab.outcome(prime_nim, (2,), misere=True) == nimlab.outcome(
        prime_nim, (2,), misere=True, method="search"
    )
    assert nimlab.winning_moves(pow2_both, (1, 3)) == [(1, 1)] or nimlab.winning_moves(
        pow2_both, (1, 3)
    )
    s = pow2_both + nimlab.game("nim")
    assert nimlab.grundy(s, ((2, 2), (3,))) == nimlab.grundy(pow2_both, (2, 2)) ^ 3
    seq = nimlab.sequence(nimlab.game("take-up-to-k", k=2), 9)
    assert list(seq) == [n % 3 for n in range(9)]
    tree = nimlab.game_tree(pow2_both, (1, 2))
    assert tree is not None


@given(st.lists(st.integers(0, 9), min_size=1, max_size=4))
@settings(max_examples=40, deadline=None)
def test_compiled_options_equal_python_moves(heaps: list[int]) -> None:
    pos = tuple(heaps)
    for g in (prime_nim, take_up_to_k):
        gen = g.compiled_options()
        assert Counter(tuple(map(int, o)) for o in gen(pos)) == Counter(g.moves(pos))
    if len(pos) == 2:
        gen = pow2_both.compiled_options()
        assert Counter(tuple(map(int, o)) for o in gen(pos)) == Counter(pow2_both.moves(pos))


@given(st.lists(st.integers(0, 12), min_size=1, max_size=3))
@settings(max_examples=30, deadline=None)
def test_compiled_values_equal_interpreted(heaps: list[int]) -> None:
    pos = tuple(heaps)
    from nimlab.engine.compiled import Session

    s = Session()
    assert s.grundy(prime_nim, pos) == nimlab.Solver(prime_nim).grundy(pos, method="search")
    assert (s.outcome(prime_nim, pos, misere=True) == "P") == nimlab.Solver(prime_nim).is_p(
        pos, misere=True, method="search"
    )


def test_a_function_numba_cannot_compile_runs_as_python() -> None:
    table_of_moves = {"take": (1, 2)}

    @nimlab.heap_game("dict-take", heaps=1)
    def dict_take(h):  # type: ignore[no-untyped-def]
        for t in table_of_moves["take"]:  # a dict: numba cannot compile this
            if t <= h[0]:
                yield (h[0] - t,)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = nimlab.table(dict_take, (30_000,))  # large enough for the compiled engine
        t2 = nimlab.table(dict_take, (30_000,))
    assert [int(v) for v in t] == [n % 3 for n in range(30_000)]
    assert _same(t, t2)
    said = [w for w in caught if "does not compile" in str(w.message)]
    assert len(said) == 1


def test_names_and_bad_functions() -> None:
    with pytest.raises(InvalidParameterError, match="catalog game"):

        @nimlab.heap_game("nim")
        def nim2(h):  # type: ignore[no-untyped-def]
            yield h

    @nimlab.heap_game("loopy", heaps=1)
    def loopy(h):  # type: ignore[no-untyped-def]
        yield h  # a move to the same position

    with pytest.raises(NimlabError, match="loopy"):
        nimlab.table(loopy, (3,), engine="compiled")


GAME_FILE = """
import numpy as np
import nimlab

PRIMES = np.array([2, 3, 5, 7, 11, 13])

@nimlab.heap_game("prime-nim-file")
def prime_nim(h):
    for i in range(len(h)):
        for p in PRIMES:
            if p > h[i]:
                break
            yield nimlab.replace(h, i, h[i] - p)
"""


def test_cli_takes_a_game_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "my_games.py"
    f.write_text(GAME_FILE)
    from nimlab.cli import main

    assert main(["grundy", f"{f}:prime-nim-file", "4", "6"]) == 0
    assert capsys.readouterr().out.strip() == str(nimlab.grundy(prime_nim, (4, 6)))
    assert main(["grundy", f"{tmp_path / 'none.py'}:x", "4"]) == 2
    assert "no game file" in capsys.readouterr().err


def test_cli_table_of_a_game_file_in_a_fresh_process(tmp_path: Path) -> None:
    f = tmp_path / "my_games.py"
    f.write_text(GAME_FILE)
    exe = Path(sys.executable).with_name("nimlab")
    r = subprocess.run(
        [str(exe), "table", f"{f}:prime-nim-file", "--size", "6", "--json"],
        capture_output=True,
        text=True,
        timeout=500,
    )
    assert r.returncode == 0, r.stderr
    assert "prime-nim-file" in r.stdout or "[" in r.stdout


def test_entry_point_games_appear_in_list(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.metadata as md

    from nimlab.catalog import registry

    src = textwrap.dedent(
        """
        import nimlab

        @nimlab.heap_game("plugin-take-one", heaps=1)
        def take_one(h):
            if h[0] > 0:
                yield (h[0] - 1,)
        """
    )
    mod = type(sys)("nimlab_test_plugin")
    exec(compile(src, "nimlab_test_plugin", "exec"), mod.__dict__)
    monkeypatch.setitem(sys.modules, "nimlab_test_plugin", mod)
    ep = md.EntryPoint(name="plugin", value="nimlab_test_plugin", group="nimlab.games")

    def fake_entry_points(**kw: Any) -> Any:
        return [ep] if kw.get("group") == "nimlab.games" else []

    monkeypatch.setattr(md, "entry_points", fake_entry_points)
    monkeypatch.setattr(registry, "_plugins_loaded", False)
    from nimlab.cli import main

    assert main(["list", "--json"]) == 0
    assert "plugin-take-one" in capsys.readouterr().out
    assert nimlab.grundy("plugin-take-one", 5) == 1


def test_many_heap_positions() -> None:
    for pos in itertools.product(range(4), repeat=4):
        want = nimlab.Solver(prime_nim).grundy(pos, method="search")
        assert nimlab.grundy(prime_nim, pos) == want


def test_generated_source_defines_the_same_moves(tmp_path: Path) -> None:
    from nimlab.catalog.user import move_source

    text = take_up_to_k.compiled_source()
    assert text is not None and "def take_up_to_k(h, k):" in text
    assert "for o in take_up_to_k(h, 2):" in text  # the default parameter, bound
    assert "PRIMES = _np.array([2, 3, 5, 7, 11, 13]" in (prime_nim.compiled_source() or "")
    (tmp_path / "gen_mod.py").write_text(nimlab.game("take-up-to-k", k=3).compiled_source() or "")
    sys.path.insert(0, str(tmp_path))
    try:
        import gen_mod  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(tmp_path))
    g = nimlab.game("take-up-to-k", k=3)
    for h in itertools.product(range(5), repeat=2):
        assert sorted(gen_mod.gen.py_func(h)) == sorted(g.moves(h))

    # what cannot be written as text alone: the engine compiles in memory instead
    def helper(x):  # type: ignore[no-untyped-def]
        return x

    def closure(h):  # type: ignore[no-untyped-def]
        yield (helper(h[0]),)

    assert move_source(closure, (), "closure") is None
    not_importable = {"helper": helper}

    def uses_helper(h):  # type: ignore[no-untyped-def]
        yield (helper(h[0]),)

    uses_helper.__globals__.update(not_importable)  # a function of this test's own module
    assert move_source(uses_helper, (), "uses-helper") is None
