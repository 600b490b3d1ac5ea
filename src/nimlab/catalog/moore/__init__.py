"""Moore's Nim_k: rules (:mod:`.rules`), compiled move model and its inverse
(:mod:`.compiled`) and theorems (:mod:`.theorems`); the winning moves are Naito's
procedure of :mod:`nimlab.catalog.strategies.nimk`."""

from nimlab.catalog.moore.rules import Moore

GAMES = (Moore,)

__all__ = ["GAMES", "Moore"]
