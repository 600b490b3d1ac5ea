"""Theorems of [S18]: Ryuo Nim (S18-T8), restricted Ryuo Nim (S18-T9) and RGAMES (S18-T12).

Positions are boxes of heaps below the bound, in increasing order: every move lowers
heaps, so the sets are move-closed. The two Ryuo theorems give their claims over numpy
arrays too (``vector_claim``), so their local check runs vectorised, and as a function of
the heaps and the game's parameters (``scalar_claim``, ``claim_params``) that numba
compiles for the rows of large boxes. (S18-T7 and S18-T11
are declared by their families: :mod:`nimlab.catalog.wythoff.theorems`,
:mod:`nimlab.catalog.onepile.theorems`.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nimlab.catalog import game
from nimlab.core.ruleset import Ruleset
from nimlab.theory.registry import Instance, Theorem, register_theorem
from nimlab.theory.spaces import box_space

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


def _box(g: Ruleset[Any], bound: int) -> Instance:
    """Every ``(x, y)`` below the bound, as a space the vectorised local check can use."""
    from nimlab.verification.runner import heap_space

    return Instance(g, space=heap_space(g, bound, 2, fast=True))


def _ryuo(bound: int) -> Iterator[Instance]:
    for p in range(1, 6):
        yield _box(game("ryuo", p=p), bound)


def _restricted(bound: int) -> Iterator[Instance]:
    for p, q in RESTRICTED_RYUO_PQ:
        yield _box(game("restricted-ryuo", p=p, q=q), bound)


def _ryuo_scalar(x: Any, y: Any, p: Any) -> Any:
    """S18-T8 at heaps ``(x, y)`` of Ryuo Nim(p), with integer operations only (Python
    ints, numpy int64 arrays, or compiled by numba with *p* a constant)."""
    return p * ((x // p) ^ (y // p)) + (x + y) % p


def _restricted_scalar(x: Any, y: Any, p: Any, q: Any) -> Any:
    """S18-T9 at heaps ``(x, y)`` of restricted Ryuo Nim(p, q), ``p | q`` (as
    :func:`_ryuo_scalar`)."""
    return p * (((x % q) // p) ^ ((y % q) // p)) + (x + y) % p


def _ryuo_vector(g: Ruleset[Any], heaps: tuple[Any, ...]) -> Any:
    """S18-T8 over arrays of heaps (numpy int64 or Python ints)."""
    x, y = heaps
    return _ryuo_scalar(x, y, g.p)  # type: ignore[attr-defined]


def _restricted_vector(g: Ruleset[Any], heaps: tuple[Any, ...]) -> Any:
    """S18-T9 over arrays of heaps (numpy int64 or Python ints); ``p | q``."""
    x, y = heaps
    return _restricted_scalar(x, y, g.p, g.q)  # type: ignore[attr-defined]


def _rgames(bound: int) -> Iterator[Instance]:
    for g0, parts in RGAMES_INSTANCES:
        g = game("rgames", g0=g0, parts=parts)
        m = len(g.parts)  # type: ignore[attr-defined]
        yield Instance(g, space=box_space(m, bound if m == 2 else bound // 4))


register_theorem(
    Theorem(
        id="S18-T8",
        paper="S18",
        statement="Ryuo Nim(p): G(x, y) = p(floor(x/p) XOR floor(y/p)) + ((x + y) mod p)",
        game="ryuo",
        kind="grundy",
        instances=_ryuo,
        vector_claim=_ryuo_vector,
        scalar_claim=_ryuo_scalar,
        claim_params=("p",),
        default_bound=12953,
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
        vector_claim=_restricted_vector,
        scalar_claim=_restricted_scalar,
        claim_params=("p", "q"),
        default_bound=6477,
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
        default_bound=256,
        deep_bound=1024,
        params="; ".join(f"RGAMES({g0}; {parts})" for g0, parts in RGAMES_INSTANCES),
        bound_doc="every heap < bound (three heaps: < bound // 4)",
    )
)
