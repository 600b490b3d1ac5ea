"""Nim (Bouton): rules (:mod:`.rules`; the nim-sum lives in :mod:`nimlab.formulas.nim`,
shared), compiled move model (:mod:`.compiled`) and theorems S19-T1 and N99-T1.11
(:mod:`.theorems`); the winning moves are Bouton's rule of
:mod:`nimlab.catalog.strategies.nimk`."""

from nimlab.catalog.nim.rules import Nim

GAMES = (Nim,)

__all__ = ["GAMES", "Nim"]
