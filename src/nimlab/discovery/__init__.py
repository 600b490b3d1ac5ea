"""Discovery: nimlab proposes closed forms from exhaustive tables, then checks them.

:func:`conjecture` searches formulas for Grundy values, decompositions into sums, P-sets
and complementary pairs in a table computed by the engine (never from a registered closed
form), and verifies the best statements on a larger box (:func:`nimlab.verify`), recording
them in the results store when one is given.
"""

from __future__ import annotations

from nimlab.discovery.propose import Conjectures, Proposal, conjecture

__all__ = ["Conjectures", "Proposal", "conjecture"]
