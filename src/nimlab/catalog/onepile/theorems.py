"""Siegel's theorem on All-but games, collected by the theorem registry
(:func:`nimlab.catalog.registry.family_hooks`)."""

from __future__ import annotations

from collections.abc import Iterator

from nimlab.catalog.onepile.rules import AllBut
from nimlab.core.theorems import HeapSpace, InstanceSpec, TheoremSpec

__all__ = ["THEOREMS"]


def _allbut(bound: int) -> Iterator[InstanceSpec]:
    for k in range(1, 6):
        yield InstanceSpec(AllBut(S=frozenset({k})), HeapSpace(1, bound))
        for m in range(k + 1, 11):
            yield InstanceSpec(AllBut(S=frozenset({k, m})), HeapSpace(1, bound))


THEOREMS = (
    TheoremSpec(
        id="S18-T11",
        paper="S18",
        statement="Siegel: All-but({k}): G(n) = (n mod k) + k*floor(n/2k); All-but({k,m}): "
        "(n mod k) + k*floor(n/3k) if m = 2k else (n mod k) + k*floor(n/2k)",
        game="allbut",
        kind="grundy",
        instances=_allbut,
        default_bound=4000,
        params="k = 1..5, m = k+1..10",
        bound_doc="heap < bound",
    ),
)
