"""Lim's theorem, collected by the theorem registry (:func:`nimlab.catalog.registry.family_hooks`)."""

from __future__ import annotations

from collections.abc import Iterator

from nimlab.catalog.lim.rules import Lim
from nimlab.core.theorems import HeapSpace, InstanceSpec, TheoremSpec

__all__ = ["THEOREMS"]


def _lim(bound: int) -> Iterator[InstanceSpec]:
    # sorted positions with a + b + c < bound: move-closed (the total drops), compiled
    yield InstanceSpec(Lim(), HeapSpace(3, bound, order="total"))


THEOREMS = (
    TheoremSpec(
        id="S19-T8",
        paper="S19",
        statement="Lim: G(a, b, c) = ((a+b+c) - (a XOR b XOR c)) / 2, the bitwise majority",
        game="lim",
        kind="grundy",
        instances=_lim,
        default_bound=160,
        deep_bound=320,
        bound_doc="a + b + c < bound (moves add stones to a heap, the total drops)",
    ),
)
