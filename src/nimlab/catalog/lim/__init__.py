"""Lim (Fink–Fraenkel–Santos): rules (:mod:`.rules`), closed form (:mod:`.formulas`),
winning moves (:mod:`.strategy`), compiled move model (:mod:`.compiled`) and theorem
S19-T8 (:mod:`.theorems`)."""

from nimlab.catalog.lim.rules import Lim

GAMES = (Lim,)

__all__ = ["GAMES", "Lim"]
