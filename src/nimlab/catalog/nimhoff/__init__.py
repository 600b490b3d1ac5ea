"""2^k-balanced Nimhoff: rules (:mod:`.rules`), closed form (:mod:`.formulas`), winning moves
(:mod:`.strategy`), compiled move model (:mod:`.compiled`) and theorem (:mod:`.theorems`)."""

from nimlab.catalog.nimhoff.rules import Nimhoff

GAMES = (Nimhoff,)

__all__ = ["GAMES", "Nimhoff"]
