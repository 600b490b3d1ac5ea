"""Every family's explanation says why, in the papers' terms (issue 24, item 2).

For each catalog family (and a user's game), the explanation of a sample N-position
contains the reason specific to that family, and the number it computes agrees with an
exhaustive search (never with a value written here). No explanation names an internal
identifier (such as a method of a class).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import nimlab
from nimlab.formulas.nimmul import nimmul_by_mex

# (game, params, position, reason: a regex that must match, value: a regex whose group 1
# is the position's Grundy value as the explanation computes it, or None)
FAMILIES: list[tuple[str, dict[str, Any], str, str, str | None]] = [
    ("nim", {}, "3 4 5", r"sum mod 2  0 1 0", r"nim-sum: (\d+) →"),
    ("moore", {"k": 2}, "3 4 5 9", r"sum mod 3  1 2 1 0", None),
    ("wythoff", {}, "4 6", r"pairs \(⌊nφ⌋, ⌊nφ²⌋\).*reaches the pair n = \d+", None),
    (
        "turning-turtles",
        {},
        "1,2 2,2 3,3",
        r"⊗ the nim product \[S19-T6\]: 1⊗2 ⊕ 2⊗2 ⊕ 3⊗3",
        r"⊕ a⊗b.* = (\d+)\n",
    ),
    (
        "subtraction",
        {"S": "1,3,4"},
        "10",
        r"G\(n \+ 7\) = G\(n\) for n >= 0.*10 ≡ 3 \(mod 7\)",
        r"so G\(10\) = G\(3\) = (\d+)",
    ),
    (
        "allbut",
        {"S": "2"},
        "9",
        r"G\(n \+ 4\) = G\(n\) \+ 2 .*9 = 1 \+ 2·4",
        r"so G\(9\) = G\(1\) \+ 2·2 = (\d+)",
    ),
    (
        "octal",
        {"code": "0.54"},
        "2 20",
        r"G\(n \+ 7\) = G\(n\) for n >= 3 \(Guy–Smith.*heap 20: 20 ≡ 6 \(mod 7, from 3\)",
        r"G\(2\) ⊕ G\(20\) = \d+ ⊕ \d+ = (\d+)",
    ),
    (
        "welter",
        {},
        "1 2 4",
        r"M\(1, 2\) = 1, M\(1, 4\) = 1, M\(2, 4\) = 3",
        r"G = 7 ⊕ 1 ⊕ 1 ⊕ 3 = (\d+)",
    ),
    (
        "lim",
        {},
        "3 5 6",
        r"bitwise majority of a, b, c \[S19-T8\]",
        r"\(\(3 \+ 5 \+ 6\) − 0\)/2 = (\d+)",
    ),
    ("nimhoff", {"k": 1}, "3 4", r"a ⓚ b = a ⊕ b ⊕ \(a_k·b_k\)", r"3 ① 4 = 3 ⊕ 4 ⊕ 0 = (\d+)"),
    ("delete-nim", {}, "3 5", r"tail\(a ∨ b\).*3 ∨ 5 = 7 = 111₂", r"111₂, tail (\d+)"),
    (
        "single-delete",
        {},
        "3 5 6",
        r"2-adic valuations before: 0, 0, 1\n.*v2\(x\) = v2\(y\) = v2\(z\)",
        None,
    ),
    ("abo-delete", {}, "7 1 12", r"\[Sh-T2\].*12 mod 6 = 0 \(outside 1\.\.2\)", None),
    (
        "ryuo",
        {"p": 3},
        "4 7",
        r"3·\(⌊4/3⌋ ⊕ ⌊7/3⌋\) \+ \(11 mod 3\)",
        r"= 3·\(1 ⊕ 2\) \+ 2 = (\d+)",
    ),
    (
        "restricted-ryuo",
        {"p": 3, "q": 6},
        "4 7",
        r"⌊\(x mod q\)/p⌋.*3·\(⌊4/3⌋ ⊕ ⌊1/3⌋\)",
        r"= 3·\(1 ⊕ 0\) \+ 2 = (\d+)",
    ),
    (
        "rgames",
        {"g0": "subtraction:1,2,3", "parts": "allbut:8;allbut:4,8"},
        "5 6",
        r"\[S18-T12\]: G1\(5\) = \d+, G2\(6\) = \d+",
        r"\[S18-T12\]: .*\) \+ \d+ = (\d+)",
    ),
    (
        "circular",
        {"k": 4},
        "1 2 3 1 2 4",
        r"a\+b = d\+e, b\+c = e\+f and a ⊕ c ⊕ e = 0; here",
        None,
    ),
    (
        "circular",
        {"k": 2},
        "1 2 3 4",
        r"Grundy values of the options \(by exhaustive search\)",
        r"G = mex of them = (\d+)",
    ),
    (
        "emperor",
        {},
        "1,2 3,3 4",
        r"range XORs 3, 0, 4; range totals 3, 6, 4 \(XOR 1\).*P iff every range.s heaps XOR to 0",
        None,
    ),
]

INTERNAL = re.compile(r"\b[A-Z][A-Za-z]+\.[a-z_]+\b|\b[a-z]+_[a-z_]{3,}\b")


def _explain(name: str, params: dict[str, Any], text: str) -> tuple[Any, Any, Any]:
    g = nimlab.game(name, **params)
    pos = g.parse_position(text.split())
    return g, pos, nimlab.explain(g, pos)


@pytest.mark.parametrize(
    ("name", "params", "text", "reason", "value"),
    FAMILIES,
    ids=[f"{f[0]}-{'-'.join(map(str, f[1].values()))}" for f in FAMILIES],
)
def test_each_family_explains_why(
    name: str, params: dict[str, Any], text: str, reason: str, value: str | None
) -> None:
    g, pos, e = _explain(name, params, text)
    rendered = e.render_text()
    assert e.outcome == "N" and e.move is not None, rendered
    assert re.search(reason, rendered, re.S), rendered
    assert not INTERNAL.search(rendered), INTERNAL.search(rendered)
    # the move explained wins: its target is a P-position by exhaustive search
    assert nimlab.grundy(g, e.raw_move, method="search") == 0
    if value is not None:
        m = re.search(value, rendered + "\n")
        assert m, rendered
        assert int(m.group(1)) == nimlab.grundy(g, pos, method="search")


def test_turtles_nim_products_agree_with_the_mex_definition() -> None:
    _, _, e = _explain("turning-turtles", {}, "1,2 2,2 3,3")
    line = next(n for n in e.notes if "nim product" in n)
    m = re.search(r"3⊗3 = ([\d ⊕]+) = \d+$", line)
    assert m, line
    products = [int(v) for v in m.group(1).split(" ⊕ ")]
    assert products == [nimmul_by_mex(1, 2), nimmul_by_mex(2, 2), nimmul_by_mex(3, 3)]


def test_wythoff_pair_of_the_move_is_floor_n_phi() -> None:
    _, _, e = _explain("wythoff", {}, "4 6")
    line = next(n for n in e.notes if n.startswith("the move"))
    n, a, b = (int(x) for x in re.search(r"n = (\d+): .* = \((\d+), (\d+)\)", line).groups())  # type: ignore[union-attr]
    phi = (1 + 5**0.5) / 2
    assert (a, b) == (int(n * phi), int(n * phi * phi))
    assert "strategy_moves" not in e.render_text() and e.procedure is not None


def test_a_users_game_explained_through_what_is_known() -> None:
    @nimlab.heap_game("take-one-or-four-explained", heaps=1)
    def take_1_or_4(h):  # type: ignore[no-untyped-def]
        for t in (1, 4):
            if t <= h[0]:
                yield (h[0] - t,)

    g = nimlab.game("take-one-or-four-explained")
    e = nimlab.explain(g, (8,))
    text = e.render_text()
    assert e.outcome == "N", text
    m = re.search(r"G\(7\) = (\d+), G\(4\) = (\d+), and G = mex of them = (\d+)", text)
    assert m, text
    g7, g4, mex = (int(x) for x in m.groups())
    assert (g7, g4) == (
        nimlab.grundy(g, (7,), method="search"),
        nimlab.grundy(g, (4,), method="search"),
    )
    assert mex == nimlab.grundy(g, (8,), method="search")
    # the period the values show: subtraction {1, 4} has period 5 (0 1 0 1 2)
    per = re.search(r"repeats with period (\d+) from n = (\d+)", text)
    assert per, text
    p, start = int(per.group(1)), int(per.group(2))
    values = [nimlab.grundy(g, (n,), method="search") for n in range(start, start + 3 * p)]
    assert values[:p] == values[p : 2 * p] == values[2 * p :]
    assert not INTERNAL.search(text)


def test_cli_explain_has_the_same_reasons() -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "nimlab", "moves", "wythoff", "4", "6", "--explain"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert "⌊nφ⌋" in out and "strategy_moves" not in out
