"""The theorem registry's check: claims of unregistered theorems and one-shot iterables."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from nimlab import game
from nimlab.theory import Instance, Theorem, check_theorem, theorem
from nimlab.theory.spaces import box


def _lim_box(bound: int) -> Iterator[Instance]:
    # a plain box is not move-closed for Lim (moves add stones): the check must fall back
    # to search over the SAME positions, given here as a one-shot generator
    yield Instance(game("lim"), (p for p in box(3, bound)))


def test_generator_instances_are_checked_after_fallback() -> None:
    t = Theorem(
        id="TEST-LIM",
        paper="S19",
        statement="Lim formula",
        game="lim",
        kind="grundy",
        instances=_lim_box,
        default_bound=5,
    )
    for method in ("local", "search"):
        r = check_theorem(t, method=method)  # type: ignore[arg-type]
        assert r.ok
        assert r.positions_checked == 5**3


def test_replaced_claim_is_the_one_checked() -> None:
    wrong = replace(theorem("S19-T1"), claim=lambda g, p: (p[0] ^ 1) if len(p) == 1 else 0)
    for method in ("local", "search"):
        r = check_theorem(wrong, bound=4, method=method)  # type: ignore[arg-type]
        assert not r.ok
        assert r.counterexample is not None
