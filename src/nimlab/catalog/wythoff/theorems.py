"""Wythoff Nim's theorem, collected by the theorem registry
(:func:`nimlab.catalog.registry.family_hooks`)."""

from __future__ import annotations

from collections.abc import Iterator

from nimlab.catalog.wythoff.rules import Wythoff
from nimlab.core.theorems import HeapSpace, InstanceSpec, TheoremSpec

__all__ = ["THEOREMS"]


def _wythoff(bound: int) -> Iterator[InstanceSpec]:
    yield InstanceSpec(Wythoff(), HeapSpace(2, bound, order="box"))


THEOREMS = (
    TheoremSpec(
        id="S18-T7",
        paper="S18",
        statement="Wythoff Nim: P iff {x, y} = {floor(n*phi), floor(n*phi) + n}",
        game="wythoff",
        kind="p-set",
        instances=_wythoff,
        default_bound=1024,
        deep_bound=4096,
    ),
)
