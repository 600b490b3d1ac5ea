"""Delete games: Delete Nim, single-delete Nim and ABO-delete. Rules (:mod:`.rules`;
the criteria live in :mod:`nimlab.formulas.delete`, shared with the theorems of
:mod:`nimlab.theory.sh`), constructions (:mod:`.strategy`) and compiled move models and
option index (:mod:`.compiled`)."""

from nimlab.catalog.delete.rules import AboDelete, DeleteNim, SingleDelete

GAMES = (DeleteNim, SingleDelete, AboDelete)

__all__ = ["GAMES", "AboDelete", "DeleteNim", "SingleDelete"]
