"""The vectorised Grundy check on values above 4,096: bitsets of more than 64 words, so
the kernel's bitmaps of full words (one bit a word) span several words.

Truth: Bouton's theorem (the Grundy value of two-heap Nim is ``a ^ b``), checked on the
last chunks of a box of side 4,224 (the rows above are added to the line state without
a check, as when a run resumes), with planted errors next to word boundaries (values
63 mod 64 and 0 mod 64): the kernel finds exactly the planted position, and the exact
path agrees on it.
"""

from __future__ import annotations

import pytest

import nimlab
from nimlab.verification import heap_space
from nimlab.verification.chunks import check_chunk
from nimlab.verification.expr import parse_expression
from nimlab.verification.local import ExprClaim
from nimlab.verification.runner import CheckSpec

BOUND = 4224
ROW = 4200  # a ^ b < 8192 for every position: up to 128 words a bitset
A = ROW + 3  # the row of the planted errors


def _last_chunk(expr: str) -> tuple[int, int, object]:
    """Check the chunk of row ``ROW`` (rows of 8 * BOUND positions a chunk)."""
    nim = nimlab.game("nim")
    space = heap_space(nim, BOUND, 2, fast=True, chunk_size=8 * BOUND)
    claim = ExprClaim(parse_expression(expr, 2))
    spec = CheckSpec(nim, "grundy", claim, space, expr, BOUND, fast=True)
    i = ROW // 8
    a0, _ = space.row_range(i)  # type: ignore[attr-defined]
    res = check_chunk(spec, i)
    assert res.method == "vectorised"
    return a0, res.count, res.failure


def test_true_claim_passes_above_4096() -> None:
    a0, count, failure = _last_chunk("a ^ b")
    assert failure is None and count == 8 * BOUND and a0 == ROW


@pytest.mark.parametrize(
    ("b", "delta"),
    [
        (A ^ 4159, 1),  # claims 4160 where 4159 (63 mod 64) is missing: a gap below
        (A ^ 4159, -1),  # claims 4158, a value of an option
        (A ^ 4160, 1),  # claims 4161: 4160 (0 mod 64) missing in the value's word
        (A ^ 8191, -64),  # a whole word lower
        (3000, 64),  # a whole word higher
    ],
)
def test_planted_error_above_4096_is_found_exactly(b: int, delta: int) -> None:
    expr = f"(a ^ b) + {delta} * (a == {A} and b == {b})"
    a0, count, failure = _last_chunk(expr)
    assert failure is not None
    assert failure.position == (A, b)  # type: ignore[attr-defined]
    assert count == (A - a0) * BOUND + b + 1
    assert failure.claimed == (A ^ b) + delta  # type: ignore[attr-defined]
