"""Nim's theorems (Bouton; misère Nim), collected by the theorem registry
(:func:`nimlab.catalog.registry.family_hooks`)."""

from __future__ import annotations

from collections.abc import Iterator

from nimlab.catalog.nim.rules import Nim
from nimlab.core.theorems import HeapSpace, InstanceSpec, TheoremSpec

__all__ = ["THEOREMS"]


def _nim(bound: int) -> Iterator[InstanceSpec]:
    for n in (1, 2, 3):
        yield InstanceSpec(Nim(), HeapSpace(n, bound))


def _nim_misere(bound: int) -> Iterator[InstanceSpec]:
    for n in (1, 2, 3, 4):
        yield InstanceSpec(Nim(), HeapSpace(n, bound))


THEOREMS = (
    TheoremSpec(
        id="S19-T1",
        aliases=("SM-T2.1",),
        paper="S19",
        statement="Nim (Bouton): G(n1,...,nr) = n1 XOR ... XOR nr",
        game="nim",
        kind="grundy",
        instances=_nim,
        default_bound=128,
        deep_bound=256,
        params="r = 1..3 heaps",
    ),
    TheoremSpec(
        id="N99-T1.11",
        aliases=("SM-T2.3",),
        paper="N99",
        statement="misère Nim: P iff (some heap > 1 and XOR = 0) or (all heaps <= 1 and an odd number of 1s)",
        game="nim",
        kind="misere-p-set",
        instances=_nim_misere,
        default_bound=48,
        deep_bound=96,
        params="r = 1..4 heaps",
    ),
)
