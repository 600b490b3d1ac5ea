"""Theorems about the foundation games: Nim (S19-T1), misère Nim (N99-T1.11),
Siegel's all-but forms (S18-T11). (Wythoff's S18-T7 is declared by its family,
:mod:`nimlab.catalog.wythoff.theorems`.)"""

from __future__ import annotations

from collections.abc import Iterator

from nimlab.catalog import game
from nimlab.theory.registry import Instance, Theorem, register_theorem
from nimlab.theory.spaces import sorted_space


def _nim(bound: int) -> Iterator[Instance]:
    for n in (1, 2, 3):
        yield Instance(game("nim"), space=sorted_space(n, bound))


def _nim_misere(bound: int) -> Iterator[Instance]:
    for n in (1, 2, 3, 4):
        yield Instance(game("nim"), space=sorted_space(n, bound))


def _allbut(bound: int) -> Iterator[Instance]:
    for k in range(1, 6):
        yield Instance(game("allbut", S={k}), space=sorted_space(1, bound))
        for m in range(k + 1, 11):
            yield Instance(game("allbut", S={k, m}), space=sorted_space(1, bound))


register_theorem(
    Theorem(
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
    )
)
register_theorem(
    Theorem(
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
    )
)
register_theorem(
    Theorem(
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
    )
)
