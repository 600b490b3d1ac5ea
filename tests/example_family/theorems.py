"""The theorem of Take-three Nim's closed form, as data the theorem registry collects."""

from __future__ import annotations

from collections.abc import Iterator

from example_family.rules import TakeThree
from nimlab.core.theorems import HeapSpace, InstanceSpec, TheoremSpec

__all__ = ["THEOREMS"]


def _instances(bound: int) -> Iterator[InstanceSpec]:
    # heap order does not matter: one position per multiset of 1 to 3 heaps below bound
    for n in (1, 2, 3):
        yield InstanceSpec(TakeThree(), HeapSpace(n, bound, order="sorted"))


THEOREMS = (
    TheoremSpec(
        id="EX-T1",
        paper="EX",
        statement="Take-three Nim: G(n1, ..., nr) = (n1 mod 4) XOR ... XOR (nr mod 4)",
        game="take-three",
        kind="grundy",
        instances=_instances,
        default_bound=24,
        params="r = 1..3 heaps",
    ),
)
