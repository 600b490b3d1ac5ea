"""Turning Turtles on a board: rules (:mod:`.rules`), winning moves by nim products
(:mod:`.strategy`) and the compiled index model of a board's sets of heads
(:mod:`.compiled`). Its theorem S19-T6 is checked over index spaces
(:mod:`nimlab.theory.s19a`)."""

from nimlab.catalog.turtles.rules import TurningTurtles, WholeBoardTurningTurtles

GAMES = (TurningTurtles,)

__all__ = ["GAMES", "TurningTurtles", "WholeBoardTurningTurtles"]
