"""The engine: exact search, compiled tables, one-heap sequences, periodicity, nim arithmetic.

:mod:`nimlab.engine.search` (the memoised exhaustive search, pure Python) is the base
every solver uses; the other modules import numpy (and numba when a kernel first runs).
``import nimlab.engine`` imports none of them: its public names load lazily, and
``import nimlab`` exports them lazily too. (``nimlab.engine.periodicity`` is the module;
the function is ``nimlab.periodicity``.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nimlab._lazy import lazy_attributes

__all__ = [
    "Periodicity",
    "Solver",
    "has_kernel",
    "nim_div",
    "nim_inverse",
    "nim_square",
    "nimmul",
    "periodicity_of",
    "sequence",
    "table",
]

_LAZY = {
    "Periodicity": "nimlab.engine.periodicity",
    "Solver": "nimlab.engine.search",
    "has_kernel": "nimlab.engine.tables",
    "nim_div": "nimlab.engine.nimarith",
    "nim_inverse": "nimlab.engine.nimarith",
    "nim_square": "nimlab.engine.nimarith",
    "nimmul": "nimlab.engine.nimarith",
    "periodicity_of": "nimlab.engine.periodicity",
    "sequence": "nimlab.engine.sequences",
    "table": "nimlab.engine.tables",
}

__getattr__, __dir__ = lazy_attributes(__name__, _LAZY, globals())

if TYPE_CHECKING:
    from nimlab.engine.nimarith import nim_div, nim_inverse, nim_square, nimmul
    from nimlab.engine.periodicity import Periodicity, periodicity_of
    from nimlab.engine.search import Solver
    from nimlab.engine.sequences import sequence
    from nimlab.engine.tables import has_kernel, table
