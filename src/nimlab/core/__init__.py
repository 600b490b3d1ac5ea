"""The small core of nimlab: ruleset protocol, parameters, typed results, errors."""

from nimlab.core.errors import (
    InvalidParameterError,
    InvalidPositionError,
    NimlabError,
    NoClosedFormError,
    SearchTooLargeError,
    UnknownGameError,
    UnknownTheoremError,
)
from nimlab.core.params import REQUIRED, Param
from nimlab.core.results import Outcome
from nimlab.core.ruleset import HeapRuleset, Position, Ruleset, SumRuleset

__all__ = [
    "REQUIRED",
    "HeapRuleset",
    "InvalidParameterError",
    "InvalidPositionError",
    "NimlabError",
    "NoClosedFormError",
    "Outcome",
    "Param",
    "Position",
    "Ruleset",
    "SearchTooLargeError",
    "SumRuleset",
    "UnknownGameError",
    "UnknownTheoremError",
]
