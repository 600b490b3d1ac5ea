"""Emperor Nim: rules (:mod:`.rules`), the P-positions (:mod:`.formulas`), winning moves
(:mod:`.strategy`) and the compiled index model of ranges below a heap bound
(:mod:`.compiled`)."""

from nimlab.catalog.emperor.rules import Emperor

GAMES = (Emperor,)

__all__ = ["GAMES", "Emperor"]
