"""Users' take-and-break games (catalog/takebreak.py): Kayles and relatives written as
one-heap move functions, against the catalog's octal games and exhaustive search."""

from __future__ import annotations

import numpy as np
import pytest

import nimlab
from nimlab.core.errors import GameDefinitionError
from nimlab.engine.search import Solver


@nimlab.take_and_break("test-kayles")
def kayles(h):  # type: ignore[no-untyped-def]
    """Kayles: knock down one pin or two adjacent pins of a row."""
    for t in (1, 2):
        for i in range(h - t + 1):
            yield (i, h - t - i)


@nimlab.take_and_break("test-grundy")
def grundys_game(h):  # type: ignore[no-untyped-def]
    """Grundy's game: split a heap into two unequal heaps."""
    for a in range(1, (h + 1) // 2):
        yield (a, h - a)


@nimlab.take_and_break("test-take-k-split", params={"k": 2})
def take_k_split(h, k):  # type: ignore[no-untyped-def]
    """Take k and leave the rest as three heaps (or fewer)."""
    r = h - k
    if r >= 0:
        for a in range(r + 1):
            for b in range(r - a + 1):
                yield (a, b, r - a - b)


@nimlab.take_and_break("test-four-heaps")
def four_heaps(h):  # type: ignore[no-untyped-def]
    """Take one and split the rest into four heaps (not an octal or hexadecimal code)."""
    r = h - 1
    for a in range(1, r + 1):
        for b in range(a, r + 1):
            for c in range(b, r + 1):
                d = r - a - b - c
                if d >= c:
                    yield (a, b, c, d)


def test_kayles_is_the_catalog_kayles() -> None:
    assert kayles.octal_code() == "0.77"
    n = 100_000
    np.testing.assert_array_equal(
        nimlab.sequence(kayles, n, max_terms=n),
        nimlab.sequence(nimlab.game("octal", code="0.77"), n, max_terms=n),
    )
    per = nimlab.periodicity_of(kayles, 400)
    assert (per.period, per.preperiod, per.proved) == (12, 71, True)
    assert "octal code 0.77" in per.reason


def test_codes_recognised() -> None:
    assert grundys_game.octal_code() == "4!.0"
    assert take_k_split.octal_code() == "0.0f"
    assert nimlab.game("test-take-k-split", k=1).octal_code() == "0.f"
    assert four_heaps.octal_code() is None


def test_values_equal_exhaustive_search() -> None:
    for g in (kayles, grundys_game, take_k_split, four_heaps):
        s = Solver(g)
        want = [s.grundy((h,), method="search") for h in range(14)]
        assert nimlab.sequence(g, 14).tolist() == want, g.label()
    # a sum of heaps, and options with more heaps than the position
    assert nimlab.grundy(kayles, (3, 4, 5)) == 3 ^ 1 ^ 4
    assert (1, 1, 1) in set(kayles.moves((1, 4)))


def test_misere_facets_equal_the_catalog() -> None:
    ours = [str(nimlab.genus(kayles, h)) for h in range(12)]
    theirs = [str(nimlab.genus(nimlab.game("octal", code="0.77"), h)) for h in range(12)]
    assert ours == theirs
    q1 = nimlab.misere_quotient(kayles, max_heap=12)
    q2 = nimlab.misere_quotient("0.77", max_heap=12)
    assert (q1.order, len(q1.p_portion)) == (q2.order, len(q2.p_portion))


def test_broken_move_functions() -> None:
    @nimlab.take_and_break("test-broken")
    def broken(h):  # type: ignore[no-untyped-def]
        yield (h,)

    with pytest.raises(GameDefinitionError, match="smaller than the heap it comes from"):
        nimlab.grundy(broken, 3)

    @nimlab.take_and_break("test-raises")
    def raises(h):  # type: ignore[no-untyped-def]
        yield (1 // (h - 2),)

    with pytest.raises(GameDefinitionError, match="raised ZeroDivisionError"):
        nimlab.grundy(raises, 2)
    with pytest.raises(nimlab.InvalidParameterError, match="another game"):
        nimlab.take_and_break("nim")(kayles.heap_function)


def test_recognition_kept_on_disk(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """octal_code's answer is kept in the cache directory, keyed by the function's
    source: a later process (here: the in-process memo dropped) reads it instead of
    probing the function; a damaged file is recognised again."""
    from nimlab.catalog import takebreak

    monkeypatch.setenv("NIMLAB_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(takebreak, "_CODES", {})
    path = kayles._recognised_file()
    assert path is not None and not path.exists()
    assert kayles.octal_code() == "0.77"
    assert path.read_text().split()[0] == "0.77"
    assert four_heaps.octal_code() is None
    kept = four_heaps._recognised_file()
    assert kept is not None and kept.read_text().split()[0] == "-"

    def probe(self, bound):  # type: ignore[no-untyped-def]
        raise AssertionError("the function was probed again")

    monkeypatch.setattr(takebreak, "_CODES", {})
    with monkeypatch.context() as m:
        m.setattr(takebreak.TakeBreakGame, "_recognise", probe)
        assert kayles.octal_code() == "0.77" and four_heaps.octal_code() is None
    # the same function with other parameters is another entry
    assert (
        take_k_split._recognised_file() != nimlab.game("test-take-k-split", k=1)._recognised_file()
    )
    path.write_text("damaged")
    monkeypatch.setattr(takebreak, "_CODES", {})
    assert kayles.octal_code() == "0.77"
    assert path.read_text().split() == [
        "0.77",
        str(takebreak.TakeBreakGame._checked[type(kayles), ()]),
    ]
