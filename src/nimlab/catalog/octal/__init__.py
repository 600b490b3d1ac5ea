"""Octal games: rules and code parsing (:mod:`.rules`); their Grundy sequences are
computed by the rare-value engine (:mod:`nimlab.engine.octal_rare`)."""

from nimlab.catalog.octal.rules import Octal, parse_octal_code

GAMES = (Octal,)

__all__ = ["GAMES", "Octal", "parse_octal_code"]
