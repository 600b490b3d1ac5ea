"""Take-and-break codes in CGSuite's notation (catalog/tbcode.py) against CGSuite's own
published examples: the option lists of ``TBCodeTest.scala`` ("traverse options
correctly"), its equal codes ("normalize codes correctly"), and the option counts, Grundy
values, periods, misère values and genera of ``GameHeapTest.scala`` (A. N. Siegel,
CGSuite, lib/core/src/test/scala/org/cgsuite/{core/impartial,lang}/, commit of the
snapshot read 2026-11). Codes beyond octal are also checked against a brute force written
from the definition (every multiset of heaps, itertools)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

import numpy as np
import pytest

import nimlab
from nimlab.catalog.tbcode import TakeBreakCode, octal_of, parse_tb_code
from nimlab.core.errors import InvalidParameterError
from nimlab.misere.genus import genus_sequence

# TBCodeTest "traversals": (code, heap) -> the options, "-" for no heap left
TRAVERSALS = {
    ("0.3", 9): "8",
    ("0.7", 9): "8  1,7  2,6  3,5  4,4",
    ("0.77", 9): "8  1,7  2,6  3,5  4,4  7  1,6  2,5  3,4",
    ("4.0", 8): "1,7  2,6  3,5  4,4",
    ("4!.0", 8): "1,7  2,6  3,5",
    ("0.3F", 9): "8  7  1,6  2,5  3,4  1,1,5  1,2,4  1,3,3  2,2,3",
    ("0.3F?", 9): "8  7  1,6  2,5  3,4  1,1,5  1,2,4  1,3,3  2,2,3",
    ("0.3F!", 9): "8  7  1,6  2,5  3,4  1,2,4",
    ("0.3f", 11): "10  9  1,8  2,7  3,6  4,5  1,1,7  1,2,6  1,3,5  1,4,4  2,2,5  2,3,4  3,3,3",
    ("0.3f?", 11): "10  9  1,8  2,7  3,6  4,5  1,1,7  1,2,6  1,3,5  1,4,4  2,2,5  2,3,4",
    ("0.3f!", 11): "10  9  1,8  2,7  3,6  4,5  1,2,6  1,3,5  2,3,4",
    ("0.*3", 7): "6  1,5  2,4  3,3  1,1,4  1,2,3  2,2,2  1,1,1,3  1,1,2,2  1,1,1,1,2  "
    "1,1,1,1,1,1  5",
    ("0.*?3", 7): "6  1,5  2,4  1,1,4  1,2,3  1,1,1,3  1,1,2,2  1,1,1,1,2  5",
    ("0.*!3", 7): "6  1,5  2,4  1,2,3  5",
    ("0.[3]", 7): "6  5  4  3  2  1  -",
    ("0.[2]", 7): "6  5  4  3  2  1",
    ("0.3[1]", 7): "6  -",
    ("0.7[03]", 7): "6  1,5  2,4  3,3  4  2  -",
    ("80.0", 7): "1,1,6  1,2,5  1,3,4  2,2,4  2,3,3",
    ("0.*=", 11): "10  5,5  2,2,2,2,2  1,1,1,1,1,1,1,1,1,1",
    ("{2+}=.0", 10): "5,5  2,2,2,2,2  1,1,1,1,1,1,1,1,1,1",
    ("0.{0,1,3+}", 1): "-",
    ("0.{0,1,3+}", 2): "1",
    ("0.{0,1,3+}", 7): "6  1,1,4  1,2,3  2,2,2  1,1,1,3  1,1,2,2  1,1,1,1,2  1,1,1,1,1,1",
    ("0.{1,3+}", 1): "",
    ("0.{2,3?+}", 7): "1,5  2,4  3,3  1,1,4  1,2,3  1,1,1,3  1,1,2,2  1,1,1,1,2",
}

# TBCodeTest "normalizations": each code and its normal form are the same game
NORMALIZATIONS = {
    "04.30": "4.3",
    "04.00[30]": "4.00[30]",
    "04.00[00]": "4.0",
    "00.00[00]": "0.0",
    "0.{1,2!}": "0.6!",
    "0.{0!,2!,3!}": "0.D!",
    "0.{0!,2!,3}": "0.{0,2!,3}",
    "0.{0!,2!,3!+}": "0.{0,2+}!",
    "0.{0!,2,3!+}": "0.{0,2,3!+}",
    "0.{0!,3+}": "0.{0,3+}",
    "0.{0,2!,4!+}": "0.{0,2,4+}!",
    "0.{0!,2!,4+}": "0.{0,2!,4+}",
    "0.{0!,2!,4?+}": "0.{0,2!,4?+}",
    "0.{0!,2?,4?+}": "0.{0,2,4+}?",
    "0.{0!,2=,4?+}": "0.{0,2=,4?+}",
    "0.{0!,2=,3?,4?+}": "0.{0,2=,3?+}",
    "0.{0!,2?,3?,4?+}": "0.{0,2+}?",
    "0.{0,1!,2,3,4+}": "0.*",
    "0.{0,1,2!,3!,4!+}": "0.*!",
}

# GameHeapTest: code, options of the heap 20, G(1..20), (period, preperiod) found from
# 2000 values or None, misère values of the heaps 0..20, genera of the heaps 0..20
GAMES = [
    (
        "0.[3]",
        20,
        list(range(1, 21)),
        None,
        [1, 0, *range(2, 21)],
        ",".join(str(n) for n in range(21)),
    ),
    (
        "4!.0",
        9,
        [0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0],
        None,
        [1, 1, 1, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2],
        "0,0,0,1,0,2,1,0,2,1,0,2,1,3^1431,2,1,3^1431,2,4^0564,3^1431,0^20",
    ),
    (
        "0.77",
        20,
        [1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1],
        (12, 71),
        [1, 0, 2, 3, 0, 1, 3, 2, 1, 0, 2, 4, 0, 1, 2, 5, 1, 6, 3, 2, 0],
        "0,1,2,3,1,4^146,3,2^2,1^1,4^046,2^2,6^46,4^046,1^1,2^2,7^57,1^13,4^64,3^31,2^20,1^031",
    ),
    (
        "0.07",
        10,
        [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3],
        (34, 53),
        [1, 1, 0, 0, 2, 1, 3, 0, 0, 1, 1, 3, 0, 2, 1, 1, 0, 0, 2, 1, 3],
        "0,0,1,1,2,0,3,1,1,0,3^1431,3,2^0520,2,4^146,0,5^057,2^0520,2,3^1431,3",
    ),
    (  # Subtraction([2,3,7])
        "0.0330003",
        3,
        [0, 1, 1, 2, 0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 0],
        (5, 0),
        [1, 1, 0, 0, 2, 1, 1, 0, 0, 2, 1, 1, 0, 0, 2, 1, 1, 0, 0, 2, 1],
        None,
    ),
    (  # Subtraction([2,3,7], allbut => true)
        "0.3003330[3]",
        17,
        [1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9, 8, 9, 10],
        None,
        [1, 0, 1, 0, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9, 8, 9, 10],
        None,
    ),
    (
        "0.3F",
        38,
        [1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 6, 7, 8, 6, 7, 8, 9, 10, 11],
        None,
        [1, 0, 2, 1, 0, 2, 1, 0, 4, 1, 0, 4, 1, 0, 6, 1, 0, 6, 1, 0, 6],
        "0,1,2,0,1,2,3^1431,4^0564,5^46,3^1431,4^0564,5^4875,6^(1,9,10,8),7^075,8^6875,"
        "6^(1,9,10,8),7^075,8^(6,10,8),9^(1,9,12,11,9),10^(0,11,13,9,11),11^(6,10,8)",
    ),
]


def _genera(text: str) -> list[str]:
    """CGSuite's list of genera: ``g``, ``g^abc`` or ``g^(a,b,c)``, comma-separated."""
    return re.findall(r"\d+(?:\^(?:\([\d,]+\)|\d+))?", text)


def _listed(text: str) -> set[tuple[int, ...]]:
    return {() if t == "-" else tuple(int(x) for x in t.split(",")) for t in text.split()}


@pytest.mark.parametrize(("code", "heap"), sorted(TRAVERSALS))
def test_options_are_cgsuites(code: str, heap: int) -> None:
    got = list(parse_tb_code(code).heap_options(heap))
    assert len(got) == len(set(got))
    assert set(got) == _listed(TRAVERSALS[code, heap])


@pytest.mark.parametrize(("code", "normal"), sorted(NORMALIZATIONS.items()))
def test_equal_codes_are_the_same_game(code: str, normal: str) -> None:
    a, b = parse_tb_code(code), parse_tb_code(normal)
    for h in range(15):
        assert set(a.heap_options(h)) == set(b.heap_options(h)), h


@pytest.mark.parametrize(
    ("code", "options", "values", "period", "misere", "genera"), GAMES, ids=[g[0] for g in GAMES]
)
def test_cgsuite_games(
    code: str,
    options: int,
    values: list[int],
    period: tuple[int, int] | None,
    misere: list[int],
    genera: str | None,
) -> None:
    g = nimlab.game("tbcode", code=code)
    assert len(list(g.heap_options(20))) == options
    assert nimlab.sequence(g, 21).tolist() == [0, *values]
    if period is not None:  # CGSuite's CheckPeriodicity(2000); nimlab proves it
        per = nimlab.periodicity_of(g, 2000)
        assert (per.period, per.preperiod, per.proved) == (*period, True)
    gen = genus_sequence(g, 21)
    assert [x.misere_value for x in gen] == misere
    if genera is not None:
        assert [str(x) for x in gen] == _genera(genera)


@pytest.mark.parametrize(
    ("code", "octal"),
    [
        ("0.77", "0.77"),
        ("04!.0", "4!.0"),
        ("0.{1,2}", "0.6"),
        ("0.{2,3}", "0.c"),
        ("0.{1,2!}", "0.6!"),
        ("0.{2?}", "0.4!"),
        ("0.3F", "0.3f"),
        ("0.[3]", None),  # infinite
        ("0.{2=}", None),  # equal halves only
        ("0.{4}", None),  # four heaps
        ("0.F!", None),  # unequal three-heap splits
        ("80.0", None),  # adds a token
    ],
)
def test_octal_codes_run_on_the_octal_engine(code: str, octal: str | None) -> None:
    tb = parse_tb_code(code)
    assert octal_of(tb) == octal
    game = TakeBreakCode(code)
    if octal is not None:
        ref = nimlab.game("octal", code=octal)
        for h in range(25):
            assert set(tb.heap_options(h)) == set(ref.heap_options(h)), h
        assert game.sequence_kernel() is not None
        np.testing.assert_array_equal(
            nimlab.sequence(game, 800), nimlab.sequence(ref, 800, max_terms=800)
        )
    else:
        assert game.sequence_kernel() is None


def _brute(code_rule: dict[int, tuple[set[int], str]], n: int) -> list[int]:
    """G(0..n-1) from the definition: a move takes j tokens and leaves k heaps, k in the
    allowed set, as every multiset of k heaps summing to h - j (itertools), filtered by the
    modifier."""
    vals: list[int] = []
    for h in range(n):
        seen = set()
        for j, (ks, mod) in code_rule.items():
            r = h - j
            if r < 0:
                continue
            for k in ks:
                if k == 0:
                    if r == 0 and j > 0:
                        seen.add(0)
                    continue
                if mod == "=":  # k equal heaps
                    combos: Iterable[tuple[int, ...]] = [(r // k,) * k] if r % k == 0 else []
                else:
                    combos = itertools.combinations_with_replacement(range(1, r + 1), k)
                for combo in combos:
                    if sum(combo) != r or combo[-1] >= h:
                        continue
                    if mod == "!" and len(set(combo)) < k:
                        continue
                    if mod == "=" and len(set(combo)) > 1:
                        continue
                    v = 0
                    for x in combo:
                        v ^= vals[x]
                    seen.add(v)
        m = 0
        while m in seen:
            m += 1
        vals.append(m)
    return vals


@pytest.mark.parametrize(
    ("code", "rule"),
    [
        ("8!.0", {0: ({3}, "!")}),  # Grundy's game into three unequal heaps
        ("{2+}!.0", {0: ({2, 3, 4, 5, 6}, "!")}),  # into two or more unequal heaps
        ("{2+}=.0", {0: (set(range(2, 22)), "=")}),  # into two or more equal heaps
        ("0.{2+}", {1: (set(range(2, 10)), "")}),  # every k <= 9 of heaps < 10
        ("0.7G", {1: ({0, 1, 2}, ""), 2: ({4}, "")}),  # G = 16: four heaps
    ],
)
def test_grundys_game_and_relatives(code: str, rule: dict[int, tuple[set[int], str]]) -> None:
    g = nimlab.game("tbcode", code=code)
    n = 10 if code == "0.{2+}" else 22
    assert nimlab.sequence(g, n).tolist() == _brute(rule, n)


def test_grundys_game_as_a_code_is_the_catalogs() -> None:
    np.testing.assert_array_equal(
        nimlab.sequence(nimlab.game("tbcode", code="4!.0"), 5000),
        nimlab.sequence(nimlab.game("octal", code="4!.0"), 5000, max_terms=5000),
    )


@pytest.mark.parametrize(
    ("code", "match"),
    [
        ("77", "no point"),
        ("0.7(", "unexpected"),
        ("0.{2x}", "in braces"),
        ("2.0", "takes no token must leave at least 2"),
        ("20.017", "adds 1 token"),
        ("0.{2!}?", "modifier"),
    ],
)
def test_bad_codes(code: str, match: str) -> None:
    with pytest.raises(InvalidParameterError, match=match):
        parse_tb_code(code)


def test_search_values_sums_of_heaps_by_their_parts() -> None:
    # the heaps a move leaves are searched one by one (their XOR is the sum's value): the
    # one-heap values of Grundy's game to 20 need 21 positions, where the positions of
    # several heaps reachable from a heap of 20 are more than a hundred
    from nimlab.engine.search import Solver

    s = Solver(nimlab.game("tbcode", code="4!.0"), max_positions=100)
    got = [s.grundy((h,), method="search") for h in range(21)]
    assert got == [0, *GAMES[1][2]]  # CGSuite's values
