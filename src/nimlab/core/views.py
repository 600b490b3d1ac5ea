"""Descriptions of the binary criteria a game's theorem reads, for binary views.

A ruleset names the quantity its theorem reads from the heaps written in binary through
the optional :meth:`~nimlab.core.ruleset.Ruleset.binary_criterion` hook; the renderer
(:func:`nimlab.render.binary_view`) draws the rows of that criterion. A game without one
gets the heaps and the plain nim-sum, labelled as such.

Examples
--------
>>> from nimlab import game
>>> game("moore", k=2).binary_criterion()
DigitSumCriterion(k=2)
>>> game("wythoff").binary_criterion() is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BinaryCriterion",
    "DigitSumCriterion",
    "MajorityCriterion",
    "NimProductCriterion",
    "NimhoffCriterion",
    "OrTailCriterion",
    "RangeCriterion",
    "ResidueCriterion",
    "ValuationCriterion",
    "WelterCriterion",
    "XorCriterion",
]


@dataclass(frozen=True)
class BinaryCriterion:
    """Base of the criteria returned by ``Ruleset.binary_criterion``."""


@dataclass(frozen=True)
class XorCriterion(BinaryCriterion):
    """The nim-sum of the heaps is the Grundy value (Bouton, ``S19-T1``)."""


@dataclass(frozen=True)
class DigitSumCriterion(BinaryCriterion):
    """P iff every binary digit sums to 0 mod ``k+1`` (Moore's Nim_k, ``S19-T5``)."""

    k: int


@dataclass(frozen=True)
class WelterCriterion(BinaryCriterion):
    """XOR of the heaps and of the ``M(x, y)`` terms (Welter's game, ``S19-T7``)."""


@dataclass(frozen=True)
class NimhoffCriterion(BinaryCriterion):
    """XOR with the bit-``k`` correction of 2^k-balanced Nimhoff (``S19-T10``)."""

    k: int


@dataclass(frozen=True)
class MajorityCriterion(BinaryCriterion):
    """Bitwise majority of three heaps (Lim, ``S19-T8``)."""


@dataclass(frozen=True)
class OrTailCriterion(BinaryCriterion):
    """Trailing ones of the OR of two heaps (Delete Nim, ``S19-T11``)."""


@dataclass(frozen=True)
class ValuationCriterion(BinaryCriterion):
    """2-adic valuations of positive heaps (Single-delete Nim, ``Sh-T1``–``Sh-P7``)."""


@dataclass(frozen=True)
class ResidueCriterion(BinaryCriterion):
    """Every heap ``z`` has ``1 <= z mod n(n-1) <= n-1`` (ABO-delete, ``Sh-T2``)."""


@dataclass(frozen=True)
class RangeCriterion(BinaryCriterion):
    """XOR per range, and the range totals' XOR (``k = 1``) or digit sums mod ``k+1``
    (Emperor Nim, ``S19-T12``, ``S19-T13``)."""

    k: int


@dataclass(frozen=True)
class NimProductCriterion(BinaryCriterion):
    """XOR of the nim products ``a ⊗ b`` of the heads (Turning Turtles, ``S19-T6``)."""
