"""CN(6, 4)'s theorem, collected by the theorem registry
(:func:`nimlab.catalog.registry.family_hooks`)."""

from __future__ import annotations

from collections.abc import Iterator

from nimlab.catalog.circular.rules import Circular
from nimlab.core.theorems import HeapSpace, InstanceSpec, TheoremSpec

__all__ = ["THEOREMS"]


def _cn64(bound: int) -> Iterator[InstanceSpec]:
    yield InstanceSpec(Circular(k=4), HeapSpace(6, bound, order="box"))


THEOREMS = (
    TheoremSpec(
        id="S19-T9",
        paper="S19",
        statement="CN(6,4): with heaps a..f around the circle and a minimum at a, P iff "
        "a+b = d+e, b+c = e+f and a XOR c XOR e = 0 (for some such labelling)",
        game="circular",
        kind="p-set",
        instances=_cn64,
        default_bound=12,
        deep_bound=16,
        params="n = 6, k = 4",
    ),
)
