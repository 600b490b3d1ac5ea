"""Exact solvers by exhaustive search (:class:`Solver`), as :mod:`nimlab.engine.search`.

The search lives in the engine layer, below the solvers (the compiled tables fall back
on it); this module keeps the solvers' names for it.
"""

from nimlab.engine.search import DEFAULT_MAX_MOVES, DEFAULT_MAX_POSITIONS, Method, Solver, mex

__all__ = ["DEFAULT_MAX_MOVES", "DEFAULT_MAX_POSITIONS", "Method", "Solver", "mex"]
