"""Solvers: exact values by search, closed forms where proved, and strategies."""

from nimlab.engine.search import DEFAULT_MAX_POSITIONS, SearchCache, Solver, mex, search_cache
from nimlab.solvers.api import Answer, answer, grundy, moves, outcome, winning_moves

__all__ = [
    "DEFAULT_MAX_POSITIONS",
    "Answer",
    "SearchCache",
    "Solver",
    "answer",
    "grundy",
    "mex",
    "moves",
    "outcome",
    "search_cache",
    "winning_moves",
]
