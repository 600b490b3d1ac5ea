"""Moore's Nim_k's theorems (normal and misère play), collected by the theorem registry
(:func:`nimlab.catalog.registry.family_hooks`)."""

from __future__ import annotations

from collections.abc import Iterator

from nimlab.catalog.moore.rules import Moore
from nimlab.core.theorems import HeapSpace, InstanceSpec, TheoremSpec

__all__ = ["THEOREMS"]


def _moore(bound: int) -> Iterator[InstanceSpec]:
    for k in (1, 2, 3):
        for n in (1, 2, 3, 4):
            b = max(2, bound - 2) if n == 4 and k == 3 else bound
            yield InstanceSpec(Moore(k=k), HeapSpace(n, b))


THEOREMS = (
    TheoremSpec(
        id="S19-T5",
        aliases=("N99-T2.4",),
        paper="S19",
        statement="Moore's Nim_k: P iff the binary digits of the heaps add up to 0 mod k+1 "
        "in every position (n1 ⊕_{k+1} ... ⊕_{k+1} nr = 0)",
        game="moore",
        kind="p-set",
        instances=_moore,
        default_bound=32,
        deep_bound=64,
        params="k = 1..3, r = 1..4 heaps",
        bound_doc="every heap < bound (4 heaps with k = 3: < bound - 2)",
    ),
    TheoremSpec(
        id="N99-T2.10",
        paper="N99",
        statement="misère Nim_K: P iff (some heap > 1 and the digit sums are 0 mod K+1) or "
        "(all heaps <= 1 and the number of 1-heaps is 1 mod K+1)",
        game="moore",
        kind="misere-p-set",
        instances=_moore,
        default_bound=32,
        deep_bound=64,
        params="K = 1..3, r = 1..4 heaps",
        bound_doc="every heap < bound (4 heaps with K = 3: < bound - 2)",
    ),
)
