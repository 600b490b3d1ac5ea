"""2^k-balanced Nimhoff's theorem, collected by the theorem registry
(:func:`nimlab.catalog.registry.family_hooks`)."""

from __future__ import annotations

from collections.abc import Iterator

from nimlab.catalog.nimhoff.rules import Nimhoff
from nimlab.core.theorems import HeapSpace, InstanceSpec, TheoremSpec

__all__ = ["THEOREMS"]


def _nimhoff(bound: int) -> Iterator[InstanceSpec]:
    for k in (1, 2, 3):
        for n in (1, 2, 3):
            b = bound if n < 3 else max(2, bound // 2)
            yield InstanceSpec(Nimhoff(k=k), HeapSpace(n, b))


THEOREMS = (
    TheoremSpec(
        id="S19-T10",
        paper="S19",
        statement="2^k-balanced Nimhoff (k >= 1): G = n1 ⓚ n2 ⓚ ... ⓚ nr, "
        "a ⓚ b = a XOR b XOR (a_k * b_k)",
        game="nimhoff",
        kind="grundy",
        instances=_nimhoff,
        default_bound=128,
        deep_bound=512,
        params="k = 1..3, r = 1..3 heaps",
        bound_doc="every heap < bound (3 heaps: < bound // 2)",
    ),
)
