"""One-heap games, Subtraction(S) and All-but(S): rules (:mod:`.rules`; periodicity in
:mod:`nimlab.formulas.onepile`, shared with RGAMES), winning moves (:mod:`.strategy`),
compiled move models (:mod:`.compiled`) and Siegel's theorem S18-T11 (:mod:`.theorems`)."""

from nimlab.catalog.onepile.rules import AllBut, OneHeapGame, Subtraction

GAMES = (Subtraction, AllBut)

__all__ = ["GAMES", "AllBut", "OneHeapGame", "Subtraction"]
