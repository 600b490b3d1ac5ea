"""What :func:`nimlab.conjecture` returns: proposals with their evidence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

KINDS = ("grundy", "outcome", "misere")
# cells of the table searched when no size is given, per number of heaps
_DEFAULT_CELLS = 40_000
# a statement that fails on at most this share of the cells is kept as an outlier
_OUTLIER_SHARE = 0.01


@dataclass(frozen=True)
class Proposal:
    """A statement that fits the data, with its evidence.

    Attributes
    ----------
    statement : str
        In the expression language of ``nimlab verify --formula`` / ``--p-set``.
    kind : {"formula", "p-set"}
        A Grundy function, or the set of P-positions.
    found_by : str
        Which search proposed it (formula, sum of one-heap parts, P-set atoms, Beatty pair).
    size : int
        Length of the statement in syntax-tree nodes (simplest first).
    region : str
        The positions it was fitted on.
    tested : int
        Number of positions tested there.
    exceptions : int
        Positions of the region where it fails (0 for an exact fit).
    exception_samples : tuple
        Up to ten of them.
    verified : dict or None
        The deeper check: ``bound``, ``positions``, ``ok``, ``method``, ``counterexample``.
    """

    statement: str
    kind: str
    found_by: str
    size: int
    region: str
    tested: int
    exceptions: int = 0
    exception_samples: tuple[tuple[int, ...], ...] = ()
    verified: dict[str, Any] | None = None

    @property
    def refuted(self) -> bool:
        """Whether the deeper check found a counterexample."""
        return self.verified is not None and not self.verified["ok"]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "statement": self.statement,
            "kind": self.kind,
            "found_by": self.found_by,
            "size": self.size,
            "region": self.region,
            "tested": self.tested,
            "exceptions": self.exceptions,
            "exception_samples": [list(p) for p in self.exception_samples],
            "verified": self.verified,
        }


@dataclass(frozen=True)
class Conjectures:
    """What :func:`conjecture` proposed for a game, best first, and what it tried.

    Attributes
    ----------
    game : str
        The game's label.
    heaps : int
        Number of heaps.
    below : int
        Heaps of the searched table are below this size.
    kind : str
        ``grundy``, ``outcome`` or ``misere``.
    proposals : tuple of Proposal
        Statements that fit the table (and were not refuted deeper), best first.
    refuted : tuple of Proposal
        Statements that fit the table but failed further out (with the counterexample).
    tried : tuple of str
        What was searched, in order (shown when nothing is found).
    seconds : float
        Time spent.
    """

    game: str
    heaps: int
    below: int
    kind: str
    proposals: tuple[Proposal, ...]
    refuted: tuple[Proposal, ...] = ()
    tried: tuple[str, ...] = ()
    seconds: float = 0.0

    @property
    def best(self) -> Proposal | None:
        """The first proposal, or None."""
        return self.proposals[0] if self.proposals else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "game": self.game,
            "heaps": self.heaps,
            "below": self.below,
            "kind": self.kind,
            "proposals": [p.to_dict() for p in self.proposals],
            "refuted": [p.to_dict() for p in self.refuted],
            "tried": list(self.tried),
            "seconds": self.seconds,
        }


@dataclass
class _Data:
    """The table flattened to its valid cells."""

    heaps: list[npt.NDArray[np.int64]]
    grundy: npt.NDArray[np.int64] | None
    p: npt.NDArray[np.bool_]
    region: str
    positive: bool
    constants: tuple[int, ...]
    lines: list[npt.NDArray[np.int64]] = field(default_factory=list)
