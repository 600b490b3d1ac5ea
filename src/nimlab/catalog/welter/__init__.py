"""The Welter–Sato game: rules (:mod:`.rules`), closed form (:mod:`.formulas`), winning moves
(:mod:`.strategy`), compiled move model (:mod:`.compiled`) and theorem (:mod:`.theorems`)."""

from nimlab.catalog.welter.rules import Welter

GAMES = (Welter,)

__all__ = ["GAMES", "Welter"]
