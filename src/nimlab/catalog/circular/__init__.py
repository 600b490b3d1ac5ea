"""Circular Nim CN(n, k): rules (:mod:`.rules`), compiled move model and its inverse
(:mod:`.compiled`) and theorems (:mod:`.theorems`); the winning moves are Naito's
procedure of :mod:`nimlab.catalog.strategies.nimk`."""

from nimlab.catalog.circular.rules import Circular

GAMES = (Circular,)

__all__ = ["GAMES", "Circular"]
