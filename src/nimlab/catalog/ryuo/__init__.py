"""Ryuo Nim, restricted Ryuo Nim and RGAMES (moves on the sum of two heaps): rules
(:mod:`.rules`), closed forms (:mod:`.formulas`), winning moves (:mod:`.strategy`) and
compiled move models (:mod:`.compiled`). Their theorems are in :mod:`nimlab.theory.s18`."""

from nimlab.catalog.ryuo.rules import RestrictedRyuo, RGames, Ryuo

GAMES = (Ryuo, RestrictedRyuo, RGames)

__all__ = ["GAMES", "RGames", "RestrictedRyuo", "Ryuo"]
