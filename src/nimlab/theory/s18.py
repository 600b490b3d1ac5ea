"""Theorems of [S18]: Ryuo Nim (S18-T8), restricted Ryuo Nim (S18-T9) and RGAMES (S18-T12).

Positions are boxes of heaps below the bound, in increasing order: every move lowers
heaps, so the sets are move-closed. (S18-T7 and S18-T11 are in :mod:`nimlab.theory.basic`.)
"""

from __future__ import annotations

from collections.abc import Iterator

from nimlab.catalog import game
from nimlab.theory.registry import Instance, Theorem, register_theorem
from nimlab.theory.spaces import box, sorted_box

__all__ = ["RESTRICTED_RYUO_PQ", "RGAMES_INSTANCES"]

# (p, q) with p | q
RESTRICTED_RYUO_PQ: tuple[tuple[int, int], ...] = (
    (1, 1),
    (1, 3),
    (2, 2),
    (2, 4),
    (2, 6),
    (3, 3),
    (3, 6),
    (3, 9),
    (4, 8),
    (5, 10),
)

# (g0, parts): G0 = Subtraction({1..p-1}) and parts of inner period p
RGAMES_INSTANCES: tuple[tuple[str, str], ...] = (
    ("subtraction:1,2,3", "allbut:8;allbut:4,8"),  # [S18] Example 2, p = 4
    ("subtraction:1,2", "nim;nim"),  # Ryuo Nim(3)
    ("subtraction:1", "allbut:2;allbut:4"),  # p = 2
    ("subtraction:1,2", "allbut:3;subtraction:1..5"),  # p = 3
    ("subtraction:1,2,3", "subtraction:1,2,3;allbut:4,9"),  # p = 4
    ("subtraction:1", "allbut:2;nim;allbut:2,4"),  # p = 2, three heaps
)


def _ryuo(bound: int) -> Iterator[Instance]:
    for p in range(1, 6):
        yield Instance(game("ryuo", p=p), sorted_box(2, bound))


def _restricted(bound: int) -> Iterator[Instance]:
    for p, q in RESTRICTED_RYUO_PQ:
        yield Instance(game("restricted-ryuo", p=p, q=q), sorted_box(2, bound))


def _rgames(bound: int) -> Iterator[Instance]:
    for g0, parts in RGAMES_INSTANCES:
        g = game("rgames", g0=g0, parts=parts)
        m = len(g.parts)  # type: ignore[attr-defined]
        yield Instance(g, box(m, bound if m == 2 else bound // 4))


register_theorem(
    Theorem(
        id="S18-T8",
        paper="S18",
        statement="Ryuo Nim(p): G(x, y) = p(floor(x/p) XOR floor(y/p)) + ((x + y) mod p)",
        game="ryuo",
        kind="grundy",
        instances=_ryuo,
        default_bound=48,
        params="p = 1..5",
    )
)
register_theorem(
    Theorem(
        id="S18-T9",
        paper="S18",
        statement="restricted Ryuo Nim(p, q), p | q: "
        "G = p(floor((x mod q)/p) XOR floor((y mod q)/p)) + ((x + y) mod p)",
        game="restricted-ryuo",
        kind="grundy",
        instances=_restricted,
        default_bound=48,
        params="(p, q) = " + ", ".join(f"({p},{q})" for p, q in RESTRICTED_RYUO_PQ),
    )
)
register_theorem(
    Theorem(
        id="S18-T12",
        paper="S18",
        statement="RGAMES(Subtraction({1..p-1}); G1..Gm), every Gi of inner period p: "
        "G = p(floor(G1(x1)/p) XOR ... XOR floor(Gm(xm)/p)) + ((x1 + ... + xm) mod p)",
        game="rgames",
        kind="grundy",
        instances=_rgames,
        default_bound=40,
        params="; ".join(f"RGAMES({g0}; {parts})" for g0, parts in RGAMES_INSTANCES),
        bound_doc="every heap < bound (three heaps: < bound // 4)",
    )
)
