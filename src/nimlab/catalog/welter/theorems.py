"""The Welter–Sato game's theorem, collected by the theorem registry
(:func:`nimlab.catalog.registry.family_hooks`)."""

from __future__ import annotations

from collections.abc import Iterator

from nimlab.catalog.welter.rules import Welter
from nimlab.core.theorems import HeapSpace, InstanceSpec, TheoremSpec

__all__ = ["THEOREMS"]


def _welter(bound: int) -> Iterator[InstanceSpec]:
    for n in (1, 2, 3, 4):  # sets of n distinct heaps, walked compiled
        yield InstanceSpec(Welter(), HeapSpace(n, bound, order="distinct"))


THEOREMS = (
    TheoremSpec(
        id="S19-T7",
        paper="S19",
        statement="Welter–Sato game: G = XOR n_i XOR (XOR over i<j of M(n_i, n_j)), "
        "M(x, y) = 2^(e+1) - 1 where x, y agree in exactly their e lowest binary digits",
        game="welter",
        kind="grundy",
        instances=_welter,
        default_bound=52,
        deep_bound=96,
        params="r = 1..4 distinct heaps",
    ),
)
