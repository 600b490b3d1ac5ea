"""The theorem registry: ids of GAMES.md §6, statements, and checks against search."""

from nimlab.theory.registry import (
    CheckResult,
    Counterexample,
    Instance,
    Theorem,
    check_theorem,
    register_theorem,
    status_of,
    theorem,
    theorems,
)

__all__ = [
    "CheckResult",
    "Counterexample",
    "Instance",
    "Theorem",
    "check_theorem",
    "register_theorem",
    "status_of",
    "theorem",
    "theorems",
]
