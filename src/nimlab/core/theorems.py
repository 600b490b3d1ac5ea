"""A family's theorems, declared as data in its own package.

A game family (a package of :mod:`nimlab.catalog`, or a plugin's package) states the
results it relies on in a ``theorems`` module that defines ``THEOREMS``, a tuple of
:class:`TheoremSpec`. The theorem registry (:mod:`nimlab.theory.registry`) collects them
through :func:`nimlab.catalog.registry.family_hooks` and checks them like its own: a
:class:`HeapSpace` names the positions to check, the registry builds the chunked space
of :mod:`nimlab.verification.spaces` from it. So a family declares its theorems without
importing the layers above the catalog.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from nimlab.core.ruleset import Ruleset

__all__ = ["HeapSpace", "InstanceSpec", "TheoremSpec"]

#: Orders of a :class:`HeapSpace`: every tuple (``box``), one per multiset (``sorted``),
#: one per set of pairwise different heaps (``distinct``), multisets whose total is below
#: the bound (``total``).
SpaceOrder = Literal["box", "sorted", "distinct", "total"]


@dataclass(frozen=True)
class HeapSpace:
    """Positions of *n_heaps* heaps with ``low <= heap < bound`` (``total``: sum < bound).

    Examples
    --------
    >>> HeapSpace(2, 10, order="box")
    HeapSpace(n_heaps=2, bound=10, low=0, order='box')
    """

    n_heaps: int
    bound: int
    low: int = 0
    order: SpaceOrder = "sorted"


@dataclass(frozen=True)
class InstanceSpec:
    """One ruleset and the positions of it to check: a :class:`HeapSpace`, or a
    move-closed iterable of positions in increasing order.

    Examples
    --------
    >>> from nimlab.catalog import game
    >>> InstanceSpec(game("nim"), HeapSpace(3, 8)).space.n_heaps
    3
    """

    game: Ruleset[Any]
    space: HeapSpace | None = None
    positions: Iterable[Any] = ()


@dataclass(frozen=True)
class TheoremSpec:
    """A result a family relies on; the fields of :class:`nimlab.theory.registry.Theorem`.

    *instances* maps a bound to the :class:`InstanceSpec` values to check there; the
    claim is, by default, the ruleset's own closed-form hook for *kind*.

    Examples
    --------
    >>> spec = TheoremSpec(
    ...     id="X-T1", paper="X", statement="G = n", game="nim", kind="grundy",
    ...     instances=lambda b: (), default_bound=8)
    >>> spec.kind, spec.deep_bound
    ('grundy', None)
    """

    id: str
    paper: str
    statement: str
    game: str
    kind: Literal["grundy", "p-set", "misere-p-set"]
    instances: Callable[[int], Iterable[InstanceSpec]]
    default_bound: int
    aliases: tuple[str, ...] = ()
    params: str = ""
    bound_doc: str = "every heap < bound"
    deep_bound: int | None = None
    claim: Callable[[Ruleset[Any], Any], Any] | None = None
    scalar_claim: Callable[..., Any] | None = None
    claim_params: tuple[str, ...] = ()
    vector_claim: Callable[[Ruleset[Any], tuple[Any, ...]], Any] | None = None
