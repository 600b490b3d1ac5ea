"""Wythoff Nim: rules and winning moves (:mod:`.rules`), the Wythoff pairs
(:mod:`.formulas`), compiled move model (:mod:`.compiled`) and theorem S18-T7
(:mod:`.theorems`)."""

from nimlab.catalog.wythoff.rules import Wythoff

GAMES = (Wythoff,)

__all__ = ["GAMES", "Wythoff"]
