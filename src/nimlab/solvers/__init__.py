"""Solvers: exact values by search, closed forms where proved, and strategies."""

from nimlab.solvers.api import grundy, moves, outcome, winning_moves
from nimlab.solvers.search import DEFAULT_MAX_POSITIONS, Solver, mex

__all__ = ["DEFAULT_MAX_POSITIONS", "Solver", "grundy", "mex", "moves", "outcome", "winning_moves"]
