"""Misère play: genus, misère canonical forms and misère quotients.

This package belongs to the functions layer: it uses ``core``, ``catalog`` and
``formulas`` below it, never the interfaces.
"""

from __future__ import annotations

from nimlab.misere.canonical import MisereUniverse, Phylum
from nimlab.misere.genus import (
    Genus,
    GenusOutcome,
    MisereForms,
    genus,
    genus_outcome,
    genus_sequence,
    misere_canonical_form,
)
from nimlab.misere.quotient import (
    MisereQuotient,
    QuotientNotFoundError,
    QuotientTooLargeError,
    misere_quotient,
)

__all__ = [
    "Genus",
    "GenusOutcome",
    "MisereForms",
    "MisereQuotient",
    "MisereUniverse",
    "Phylum",
    "QuotientNotFoundError",
    "QuotientTooLargeError",
    "genus",
    "genus_outcome",
    "genus_sequence",
    "misere_canonical_form",
    "misere_quotient",
]
