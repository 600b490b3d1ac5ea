"""The fast engine: compiled tables, one-heap sequences, periodicity, nim arithmetic.

This package imports numpy (and numba when a kernel first runs); ``import nimlab`` does
not import it: its public functions are exported lazily by :mod:`nimlab`.
"""

from nimlab.engine.nimarith import nim_div, nim_inverse, nim_square, nimmul
from nimlab.engine.periodicity import Periodicity, periodicity, periodicity_of
from nimlab.engine.sequences import sequence
from nimlab.engine.tables import has_kernel, table

__all__ = [
    "Periodicity",
    "has_kernel",
    "nim_div",
    "nim_inverse",
    "nim_square",
    "nimmul",
    "periodicity",
    "periodicity_of",
    "sequence",
    "table",
]
