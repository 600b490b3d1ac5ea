"""The theorem registry: every result of GAMES.md §6 by its id, with a check.

A :class:`Theorem` names its paper, states the result in one line, and says which
rulesets (with which parameters) it speaks of at a given bound, and which positions to
check there. Its claim is, by default, the ruleset's own closed form hook
(``closed_grundy``, ``closed_is_p`` or ``closed_misere_is_p``), so the check compares
exactly the code users call with exhaustive search.

Theorems are registered by modules listed in :data:`THEOREM_MODULES` (one per paper),
imported on first use, and declared by the game families themselves: a family package's
``theorems.THEOREMS`` (:class:`nimlab.core.theorems.TheoremSpec` values), collected
through :func:`nimlab.catalog.registry.family_hooks` (a plugin's family too, once loaded).
"""

from __future__ import annotations

import importlib
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from nimlab.core.errors import NimlabError, UnknownTheoremError
from nimlab.core.results import Counterexample
from nimlab.core.ruleset import Ruleset
from nimlab.core.status import ResultStatus
from nimlab.core.status import status_of as _recorded_status
from nimlab.core.theorems import HeapSpace, TheoremSpec
from nimlab.planner import DEFAULT_BUDGETS, Method, Plan, Question, closed_value, plan
from nimlab.verification._instances import check_side_by_side
from nimlab.verification.local import Claim
from nimlab.verification.spec import VerificationResult

__all__ = [
    "CheckResult",
    "Counterexample",
    "Instance",
    "Kind",
    "ObjectTheoremClaim",
    "Theorem",
    "TheoremClaim",
    "VerificationResult",
    "check_theorem",
    "from_spec",
    "register_theorem",
    "status_of",
    "theorem",
    "theorem_specs",
    "theorems",
]

Kind = Literal["grundy", "p-set", "misere-p-set", "custom"]

THEOREM_MODULES: tuple[str, ...] = (
    "nimlab.theory.multiplayer",
    "nimlab.theory.s19a",
    "nimlab.theory.s19b",
    "nimlab.theory.sh",
    "nimlab.theory.s18",
)

_THEOREMS: dict[str, Theorem] = {}
_ALIASES: dict[str, str] = {}
_loaded = False
#: The family packages whose declared theorems are registered.
_FAMILIES_DONE: set[str] = set()


@dataclass(frozen=True)
class Instance:
    """One ruleset and the positions of it to check (a move-closed set, in increasing order).

    Either *positions* (any iterable; it is materialised and cut into chunks) or *space*
    (a :class:`nimlab.verification.spaces.Space` that re-enumerates its chunks, such as
    ``BoxSpace(2, bound)``; a two-heap ``BoxSpace`` plus a theorem's ``vector_claim``
    enables the vectorised check).
    """

    game: Ruleset[Any]
    positions: Iterable[Any] = ()
    space: Any = None

    def iter_positions(self) -> Iterable[Any]:
        """The positions, from *space* when given."""
        if self.space is None:
            return self.positions
        sp = self.space
        return (p for i in range(sp.n_chunks) for p in sp.chunk(i))


#: Deprecated alias: a theorem's check gives the verifier's one result type,
#: :class:`~nimlab.verification.spec.VerificationResult` (built by its ``of_theorem``).
CheckResult = VerificationResult


@dataclass(frozen=True)
class Theorem:
    """A result of the papers, with what it takes to check it.

    Parameters
    ----------
    id : str
        Stable id of GAMES.md §6 (``"S19-T5"``).
    paper : str
        Paper key (``"S19"``, ``"N99"``, ``"Sh"``, ``"SM"``, ``"S18"``).
    statement : str
        One-line statement.
    game : str
        Registry name of the game it speaks of.
    kind : {"grundy", "p-set", "misere-p-set", "custom"}
        What is claimed: a Grundy function, a P-set (normal or misère), or something else.
    instances : callable
        ``instances(bound)`` yields :class:`Instance` values: rulesets (parameters drawn
        as the statement requires) and the positions to check at that bound.
    default_bound : int
        Bound used by ``nimlab reproduce``: finishes in seconds to a minute on 2 cores.
    deep_bound : int, optional
        Bound of ``nimlab reproduce --deep`` (hours, resumable); default 4 × default_bound.
    claim : callable, optional
        ``claim(game, position)``: the claimed value. Default: the ruleset's hook for
        *kind* (``closed_grundy`` / ``closed_is_p`` / ``closed_misere_is_p``).
    custom_check : callable, optional
        For ``kind="custom"``: ``custom_check(bound) -> VerificationResult``.
    aliases : tuple of str
        Alias ids naming the same statement in another paper.
    params : str
        Human-readable parameters the statement ranges over (``"k = 1..3"``).
    vector_claim : callable, optional
        ``vector_claim(game, heaps)``: the claim over numpy int64 arrays of heaps (a tuple
        of arrays), for the vectorised local check of two-heap ``BoxSpace`` instances.
    scalar_claim : callable, optional
        ``scalar_claim(*heaps)``: the claim as a function of the heaps written with plain
        integer operations, so that numba compiles the same function for the compiled
        local check of any number of heaps, and for the rows of the vectorised check
        (used as the claim when *claim* is None).
    claim_params : tuple of str
        The names of the game's parameters *scalar_claim* takes after the heaps (their
        values are constants of the compiled claim).
    """

    id: str
    paper: str
    statement: str
    game: str
    kind: Kind
    instances: Callable[[int], Iterable[Instance]] | None
    default_bound: int
    claim: Callable[[Ruleset[Any], Any], Any] | None = None
    custom_check: Callable[[int], VerificationResult] | None = None
    aliases: tuple[str, ...] = ()
    params: str = ""
    bound_doc: str = field(default="every heap < bound")
    deep_bound: int | None = None
    vector_claim: Callable[[Ruleset[Any], tuple[Any, ...]], Any] | None = None
    scalar_claim: Callable[..., Any] | None = None
    claim_params: tuple[str, ...] = ()

    @property
    def status(self) -> ResultStatus:
        """Proved, refuted or conjectured, with the evidence (:mod:`nimlab.core.status`).

        Examples
        --------
        >>> from nimlab import theorem
        >>> theorem("Sh-T6").status.state, theorem("Sh-T6*").status.state
        ('refuted', 'conjectured')
        """
        return _recorded_status(self.id)

    def claimed(self, game: Ruleset[Any], position: Any) -> Any:
        """The claimed value at *position* (Grundy value or P-membership)."""
        if self.claim is not None:
            return self.claim(game, position)
        if self.scalar_claim is not None:
            return self.scalar_claim(*position, *self.claim_args(game))
        question = _CLAIMED.get(self.kind)
        if question is not None:  # the theorem is the game's closed form (the planner's)
            return closed_value(game, question, position)
        raise TypeError(f"{self.id}: a custom theorem has no pointwise claim")

    def claim_args(self, game: Ruleset[Any]) -> tuple[int, ...]:
        """The values of *game*'s parameters that *scalar_claim* takes after the heaps.

        Examples
        --------
        >>> from nimlab import game, theorem
        >>> theorem("S18-T9").claim_args(game("restricted-ryuo", p=2, q=4))
        (2, 4)
        """
        return tuple(int(getattr(game, name)) for name in self.claim_params)


#: The closed form a theorem of each kind claims (a Grundy value, a normal or misère P-set).
_CLAIMED = {"grundy": Question.GRUNDY, "p-set": Question.OUTCOME, "misere-p-set": Question.MISERE}


def register_theorem(t: Theorem) -> Theorem:
    """Add *t* to the registry (ids and aliases must be new)."""
    for key in (t.id, *t.aliases):
        if key in _THEOREMS or key in _ALIASES:
            raise ValueError(f"theorem id {key} registered twice")
    _THEOREMS[t.id] = t
    for a in t.aliases:
        _ALIASES[a] = t.id
    return t


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for mod in THEOREM_MODULES:
            importlib.import_module(mod)
    _load_families()


def _load_families() -> None:
    """Register the theorems the family packages declare (new families only)."""
    from nimlab.catalog.registry import families, family_hooks

    if {f.__name__ for f in families()} <= _FAMILIES_DONE:
        return
    for family, specs in family_hooks("theorems", "THEOREMS"):
        if family not in _FAMILIES_DONE:
            for spec in specs:
                register_theorem(from_spec(spec))
    _FAMILIES_DONE.update(f.__name__ for f in families())


def _space(space: HeapSpace) -> Any:
    """The chunked space of :mod:`nimlab.verification.spaces` a :class:`HeapSpace` names."""
    from nimlab.theory.spaces import SPACE_CHUNK, box_space, sorted_space
    from nimlab.verification.spaces import DistinctBoxSpace, SortedTotalSpace

    n, bound, low = space.n_heaps, space.bound, space.low
    if space.order == "box":
        return box_space(n, bound, low)
    if space.order == "distinct":
        return DistinctBoxSpace(n, bound, low, SPACE_CHUNK)
    if space.order == "total":
        return SortedTotalSpace(n, bound, low, SPACE_CHUNK)
    return sorted_space(n, bound, low)


@dataclass(frozen=True)
class _SpecInstances:
    """A declared theorem's instances at a bound, with their spaces built (picklable)."""

    spec: TheoremSpec

    def __call__(self, bound: int) -> Iterator[Instance]:
        for inst in self.spec.instances(bound):
            space = None if inst.space is None else _space(inst.space)
            yield Instance(inst.game, positions=inst.positions, space=space)


def from_spec(spec: TheoremSpec) -> Theorem:
    """The :class:`Theorem` a family declares as a :class:`nimlab.core.theorems.TheoremSpec`.

    Examples
    --------
    >>> from nimlab.catalog.lim.theorems import THEOREMS
    >>> t = from_spec(THEOREMS[0])
    >>> t.id, sum(1 for _ in t.instances(4))
    ('S19-T8', 1)
    """

    return Theorem(
        id=spec.id,
        paper=spec.paper,
        statement=spec.statement,
        game=spec.game,
        kind=spec.kind,
        instances=_SpecInstances(spec),
        default_bound=spec.default_bound,
        claim=spec.claim,
        aliases=spec.aliases,
        params=spec.params,
        bound_doc=spec.bound_doc,
        deep_bound=spec.deep_bound,
        vector_claim=spec.vector_claim,
        scalar_claim=spec.scalar_claim,
        claim_params=spec.claim_params,
    )


def _order(tid: str) -> tuple[int, tuple[int, ...], str]:
    """Sort key: paper order, then the number read naturally (T5 < T10, T6 < P7)."""
    papers = ["S19", "Sh", "N99", "SM", "S18"]
    head, _, rest = tid.partition("-")
    letters = rest.rstrip("0123456789.")
    numbers = tuple(int(x) for x in re.findall(r"\d+", rest))
    return (papers.index(head) if head in papers else 99, numbers, letters)


def theorems() -> list[Theorem]:
    """Every registered theorem, grouped by paper.

    Examples
    --------
    >>> from nimlab import theorems
    >>> "S19-T1" in [t.id for t in theorems()]
    True
    """
    _load()
    return [_THEOREMS[k] for k in sorted(_THEOREMS, key=_order)]


def theorem(tid: str) -> Theorem:
    """The theorem registered under *tid* or one of its aliases.

    Examples
    --------
    >>> from nimlab import theorem
    >>> theorem("S19-T1").paper
    'S19'
    """
    _load()
    hit = _THEOREMS.get(tid)
    if hit is not None:
        return hit
    key = tid.strip()
    upper = {k.upper(): k for k in [*_THEOREMS, *_ALIASES]}
    key = upper.get(key.upper(), key)
    key = _ALIASES.get(key, key)
    t = _THEOREMS.get(key)
    if t is None:
        import difflib

        close = difflib.get_close_matches(tid, list(_THEOREMS) + list(_ALIASES), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise UnknownTheoremError(
            f"unknown theorem id {tid!r}{hint} (run `nimlab theorems` to list them)"
        )
    return t


def status_of(result_id: str) -> ResultStatus:
    """The status of the result *result_id* (a theorem's id or alias): proved, refuted,
    or a conjecture with how far it is verified.

    Examples
    --------
    >>> status_of("Sh-T3").summary()
    'proved: published proof'
    >>> status_of("nope")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.UnknownTheoremError: unknown theorem id 'nope' (run `nimlab theorems` to list them)
    """
    from nimlab.core.errors import InvalidArgumentError

    if not isinstance(result_id, str):
        raise InvalidArgumentError(
            f"a result id is text such as 'S19-T1' (run `nimlab theorems`), got {result_id!r:.60}"
        )
    return _recorded_status(theorem(result_id).id)


def _check_bound(bound: object, used: bool = True) -> None:
    from nimlab.core.errors import InvalidArgumentError, InvalidParameterError
    from nimlab.core.params import as_index

    b = as_index(bound)
    if b is None:
        raise InvalidArgumentError(f"bound must be an integer, got {bound!r:.40}")
    if used and b < 1:
        raise InvalidParameterError(
            f"bound must be >= 1, got {b}: a check of no position proves nothing"
        )


# Positions a theorem instance without a box space may list in memory (each a tuple),
# unless max_positions raises it; counted while listing, so a huge bound stops at once.
MAX_LISTED = DEFAULT_BUDGETS.max_listed


def _listed(t: Theorem, b: int, positions: Iterable[Any], budget: int | None) -> list[Any]:
    import itertools

    from nimlab.core.errors import WorkTooLargeError

    cap = MAX_LISTED if budget is None else budget
    out = list(itertools.islice(positions, cap + 1))
    if len(out) > cap:
        raise WorkTooLargeError(
            f"{t.id}: bound {b} gives more than {cap:,} positions to list, more than the "
            "budget; lower the bound, or raise the budget (--max-positions N, "
            "max_positions=N) for a long run"
        )
    return out


def _no_position(t: Theorem, b: int) -> NimlabError:
    from nimlab.core.errors import InvalidParameterError

    return InvalidParameterError(
        f"{t.id}: no position has every heap < {b}, so nothing would be checked; raise the "
        f"bound (default {t.default_bound})"
    )


def check_theorem(
    tid: str | Theorem,
    bound: int | None = None,
    *,
    method: Literal["local", "search"] = "local",
    workers: int | None = 1,
    scheduler: str | None = None,
    dask_local: bool = False,
    store: Any = None,
    resume: bool = False,
    progress: bool = False,
    max_positions: int | None = None,
) -> VerificationResult:
    """Check a theorem at *bound*: by local check (default) or against exhaustive search.

    ``method="local"`` runs :mod:`nimlab.verification`: at every position of every
    instance (a move-closed set) the claim must satisfy the mex rule (Grundy claims) or
    the P/N rules (P-set claims) with the claim evaluated at the options; this is
    equivalent to agreeing with exhaustive search on the whole set, needs no table and
    runs in chunks (``workers`` processes, or on Dask with ``scheduler``/``dask_local``;
    recorded in ``store`` and resumable). An instance whose positions are not move-closed
    is compared with search instead. ``method="search"`` compares every position
    serially with :class:`~nimlab.solvers.search.Solver`. The first failure in
    enumeration order is reported, with the true value found by search.

    Examples
    --------
    >>> from nimlab.theory.registry import check_theorem
    >>> r = check_theorem("S19-T1", bound=6)
    >>> r.ok, r.positions_checked > 0, r.method   # 2 and 3 heaps compiled, 1 heap by sequence
    (True, True, 'local (compiled)+sequence')
    >>> check_theorem("S19-T1", bound=6, method="search").positions_checked == r.positions_checked
    True
    """
    t = tid if isinstance(tid, Theorem) else theorem(tid)
    b = t.default_bound if bound is None else bound
    _check_bound(b, used=t.kind != "custom")
    if t.kind == "custom":
        assert t.custom_check is not None
        custom = t.custom_check(b)
        if custom.ok and custom.positions_checked == 0:
            raise _no_position(t, b)
        return custom
    assert t.instances is not None
    if method == "search":
        return _check_search(t, b)
    if method != "local":
        from nimlab.core.errors import InvalidParameterError

        raise InvalidParameterError(f"unknown method {method!r}: choose local or search")
    registered = _THEOREMS.get(t.id)
    claim: Claim = TheoremClaim(t.id) if registered is t else ObjectTheoremClaim(t)
    run_options = {
        "workers": workers,
        "scheduler": scheduler,
        "dask_local": dask_local,
        "store": store,
        "resume": resume,
        "progress": progress,
        "max_positions": max_positions,
    }
    if dask_local and scheduler is None:
        import os

        from nimlab._dask import dask_client

        # one local cluster serves every instance (its start, 1-3 s with its workers
        # loading the kernels, once): the runs find this client of its scheduler
        with dask_client(None, workers or os.cpu_count() or 1) as client:
            run_options.update(scheduler=client.scheduler.address, dask_local=False)
            return _check_instances(t, b, claim, run_options)
    return _check_instances(t, b, claim, run_options)


def _check_instances(
    t: Theorem, b: int, claim: Claim, run_options: dict[str, Any]
) -> VerificationResult:
    """Check every instance of *t* at *b* (side by side on a cluster when they may be)
    by its planned method; stop at the first failure."""
    start, count, ok, cex = time.perf_counter(), 0, True, None
    used: set[str] = set()
    runs: list[int] = []
    specs = _instance_specs(t, b, claim, run_options["max_positions"])
    together = check_side_by_side([s for _, s in specs], run_options, "theorem")
    for (inst, spec), done in zip(specs, together or [None] * len(specs), strict=True):
        res = _check_instance(t, b, inst, spec, run_options, used, runs, done)
        count += res.positions_checked
        if not res.ok:
            ok, cex = False, res.counterexample
            break
    if count == 0:
        raise _no_position(t, b)
    methods = "+".join(sorted(used)) or ("local" if ok else "")
    seconds = time.perf_counter() - start
    return VerificationResult.of_theorem(
        t.id, b, count, ok, seconds, cex, methods, (*runs,), game=t.game, kind=t.kind
    )


def _instance_specs(
    t: Theorem, b: int, claim: Claim, max_positions: int | None
) -> list[tuple[Instance, Any]]:
    """Every instance of *t* at *b* with its local-check spec (None: the compiled
    sequence checks it), listed and measured before any is checked: a bound too large
    for the budget is refused before work is spent."""
    from nimlab.verification.runner import LIST_CHUNK, CheckSpec, check_budget
    from nimlab.verification.spaces import ListSpace

    assert t.instances is not None and t.kind != "custom"
    kind = t.kind
    specs: list[tuple[Instance, CheckSpec | None]] = []
    listed = 0
    for k, inst in enumerate(t.instances(b)):
        space = inst.space
        if space is None:
            # materialise once: the search fallback must see the same positions
            left = None if max_positions is None else max(0, max_positions - listed)
            cap = MAX_LISTED - listed if left is None else left
            inst = Instance(inst.game, _listed(t, b, inst.positions, max(cap, 0)))
            listed += len(inst.positions)  # type: ignore[arg-type]
            space = ListSpace.of(list(inst.positions), LIST_CHUNK, inst.game)
        p = _check_plan(t, inst.game, space)
        if p.method is Method.COMPILED_SEQUENCE:
            specs.append((inst, None))
            continue
        fast, compiled = p.method is Method.VECTORISED_CHECK, p.method is Method.COMPILED_CHECK
        made = CheckSpec(inst.game, kind, claim, space, f"{t.id}#{k}", b, fast, compiled)
        check_budget(made, max_positions)
        specs.append((inst, made))
    return specs


def _check_instance(
    t: Theorem,
    b: int,
    inst: Instance,
    spec: Any,
    run_options: dict[str, Any],
    used: set[str],
    runs: list[int],
    done: Any = None,
) -> Any:
    """Check one instance: by the compiled sequence (*spec* None), the local check of
    *spec* (*done*: its result if checked), or (positions not move-closed) the compiled
    engine or search; the method is added to *used*, a stored run's id to *runs*."""
    from nimlab.core.errors import NotMoveClosedError
    from nimlab.verification.runner import run_spec

    if spec is None:
        used.add("sequence")
        return _check_sequence(t, b, inst)
    try:
        res = done or run_spec(spec, what="theorem", **run_options)
    except NotMoveClosedError:
        got = _check_engine(t, b, inst)
        if got is None:
            used.add("search")
            return _check_search(t, b, [inst])
        used.add("engine (compiled)")
        return got
    used.add("local" if res.method == "python" else f"local ({res.method})")
    if res.run_id is not None:
        runs.append(res.run_id)
    return res


def theorem_specs(tid: str | Theorem, bound: int | None = None) -> list[Any]:
    """The local-check specs of a theorem at *bound*, one per instance (for ``--all``).

    Examples
    --------
    >>> [s.target for s in theorem_specs("Sh-T3", 5)]
    ['Sh-T3#0']
    """
    from nimlab.verification.local import CheckKind
    from nimlab.verification.runner import LIST_CHUNK, CheckSpec
    from nimlab.verification.spaces import ListSpace

    t = tid if isinstance(tid, Theorem) else theorem(tid)
    b = t.default_bound if bound is None else bound
    if t.instances is None or t.kind == "custom":
        return []
    claim: Claim = TheoremClaim(t.id) if _THEOREMS.get(t.id) is t else ObjectTheoremClaim(t)
    out = []
    for k, inst in enumerate(t.instances(b)):
        space = inst.space
        if space is None:
            space = ListSpace.of(list(inst.positions), LIST_CHUNK, inst.game)
        # a spec walks positions: a one-heap claim is not compared with the sequence here
        p = _check_plan(t, inst.game, space, avoid=frozenset({Method.COMPILED_SEQUENCE}))
        fast = p.method is Method.VECTORISED_CHECK
        compiled = p.method is Method.COMPILED_CHECK
        kind: CheckKind = t.kind
        out.append(CheckSpec(inst.game, kind, claim, space, f"{t.id}#{k}", b, fast, compiled))
    return out


def _check_plan(
    t: Theorem, game: Ruleset[Any], space: Any, avoid: frozenset[Method] = frozenset()
) -> Plan:
    """The planner's plan of the local check of *t*'s claim over *space*: the compiled
    sequence (a one-heap Grundy claim over heaps ``0 .. bound-1`` of a game with a
    compiled recurrence), the vectorised check (a box and a vectorised claim), the
    compiled check (a box, sorted, distinct, total or index space: a compiled or tabulated
    claim when the game has a move model) or the Python check."""
    return plan(
        game,
        Question.CHECK,
        space=space,
        kind=t.kind,
        vectorised=t.vector_claim is not None,
        compiled=True,
        avoid=avoid,
    )


def _check_sequence(t: Theorem, b: int, inst: Instance) -> VerificationResult:
    """Compare the claim at every heap ``0 .. bound-1`` with the game's Grundy sequence."""
    from nimlab.engine.sequences import sequence

    start = time.perf_counter()
    sp = inst.space
    values = sequence(inst.game, sp.bound).tolist()
    for h, actual in enumerate(values):
        claimed = t.claimed(inst.game, (h,))
        if claimed != actual:
            return VerificationResult.of_theorem(
                t.id,
                b,
                h + 1,
                False,
                time.perf_counter() - start,
                Counterexample(inst.game.label(), (h,), claimed, actual),
            )
    return VerificationResult.of_theorem(t.id, b, len(values), True, time.perf_counter() - start)


def _check_engine(t: Theorem, b: int, inst: Instance) -> VerificationResult | None:
    """Compare the claim at every listed position of *inst* (a set that is not
    move-closed, such as all-odd heaps) with the compiled engine's exhaustive values: one
    solve of every position below the largest heap, then a look-up each. None when the
    game has no compiled model, the positions differ in their number of heaps, or the
    solve is beyond the engine's memory (the caller searches instead)."""
    from nimlab.core.ruleset import HeapRuleset

    g = inst.game
    positions = list(inst.iter_positions())
    kinds = {"grundy": "grundy", "p-set": "outcome", "misere-p-set": "misere"}
    if not positions or t.kind not in kinds or not isinstance(g, HeapRuleset):
        return None
    n = len(positions[0])
    if any(type(p) is not tuple or len(p) != n for p in positions):
        return None
    side = max(max(p) for p in positions) + 1
    how = plan(g, Question.CHECK, shape=(side,) * n, kind=t.kind)
    if how.method is Method.COMPILED_ENGINE:
        from nimlab.engine.compiled import has_compiled_model

        if has_compiled_model(g):  # else the model does not compile: the fallback, search
            return _engine_compare(t, b, g, n, side, positions, kinds[t.kind])
    return None  # a small solve (the search costs less than compiling), or no model


def _engine_compare(
    t: Theorem, b: int, g: Any, n: int, side: int, positions: list[Any], kind: str
) -> CheckResult | None:
    """The claim of *t* compared with the compiled engine's values at *positions* (one
    solve below *side*), or None when the solve is beyond the engine's memory."""
    from nimlab.core.errors import SearchTooLargeError
    from nimlab.engine.compiled import CompiledSolver

    start = time.perf_counter()
    try:
        solver = CompiledSolver(g, n, kind)
        solver.solve_below(side, progress=True)
        values = [solver.value(p) for p in positions]
    except (SearchTooLargeError, MemoryError):
        return None
    for count, (pos, v) in enumerate(zip(positions, values, strict=True), 1):
        claimed = t.claimed(g, pos)
        actual: Any = v if t.kind == "grundy" else v == 0
        if claimed != actual:
            return VerificationResult.of_theorem(
                t.id,
                b,
                count,
                False,
                time.perf_counter() - start,
                Counterexample(g.label(), pos, claimed, actual),
                "engine (compiled)",
            )
    return VerificationResult.of_theorem(t.id, b, len(positions), True, time.perf_counter() - start)


def _check_search(
    t: Theorem, b: int, instances: Iterable[Instance] | None = None
) -> VerificationResult:
    """Compare the claim with exhaustive search at every position, serially."""
    from nimlab.engine.search import Solver

    assert t.instances is not None
    start = time.perf_counter()
    count = 0
    for inst in t.instances(b) if instances is None else instances:
        solver = Solver(inst.game)
        for pos in inst.iter_positions():
            claimed = t.claimed(inst.game, pos)
            if t.kind == "grundy":
                actual: Any = solver.grundy(pos, method="search")
            else:
                actual = solver.is_p(pos, misere=t.kind == "misere-p-set", method="search")
            count += 1
            if claimed != actual:
                return VerificationResult.of_theorem(
                    t.id,
                    b,
                    count,
                    False,
                    time.perf_counter() - start,
                    Counterexample(inst.game.label(), pos, claimed, actual),
                )
    if count == 0:
        raise _no_position(t, b)
    return VerificationResult.of_theorem(t.id, b, count, True, time.perf_counter() - start)


# -- claims for the verification runner ---------------------------------------------


@dataclass(frozen=True)
class TheoremClaim(Claim):
    """The claim of a registered theorem (looked up by id in each worker)."""

    tid: str
    _t: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __getstate__(self) -> dict[str, Any]:
        return {"tid": self.tid}

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "tid", state["tid"])
        object.__setattr__(self, "_t", {})

    def value(self, game: Ruleset[Any], position: Any) -> Any:
        fn = self._t.get("claimed")
        if fn is None:
            fn = self._t["claimed"] = theorem(self.tid).claimed
        return fn(game, position)

    def key(self) -> str:
        return f"theorem:{self.tid}"

    def scalar(self) -> tuple[Callable[..., Any], bool] | None:
        fn = theorem(self.tid).scalar_claim
        return None if fn is None else (fn, True)

    def scalar_args(self, game: Ruleset[Any]) -> tuple[int, ...]:
        return theorem(self.tid).claim_args(game)

    def vectorised(self, game: Ruleset[Any], bound: int) -> Callable[..., Any] | None:
        vc = theorem(self.tid).vector_claim
        if vc is None:
            return None
        return lambda *heaps: vc(game, heaps)


@dataclass(frozen=True)
class ObjectTheoremClaim(Claim):
    """The claim of a :class:`~nimlab.theory.registry.Theorem` object that is not the
    registered one (a modified copy): pickled with the spec."""

    theorem: Any

    def value(self, game: Ruleset[Any], position: Any) -> Any:
        return self.theorem.claimed(game, position)

    def key(self) -> str:
        fn = self.theorem.claim
        if fn is None:
            return f"theorem-object:{self.theorem.id}"
        from nimlab.verification.local import FunctionClaim

        # the function's code, constants and captured values: two closures differ
        return f"theorem-object:{self.theorem.id}:{FunctionClaim(fn).key()}"

    def scalar(self) -> tuple[Callable[..., Any], bool] | None:
        fn = self.theorem.scalar_claim
        return None if fn is None else (fn, True)

    def scalar_args(self, game: Ruleset[Any]) -> tuple[int, ...]:
        return tuple(self.theorem.claim_args(game))

    def vectorised(self, game: Ruleset[Any], bound: int) -> Callable[..., Any] | None:
        vc = self.theorem.vector_claim
        if vc is None:
            return None
        return lambda *heaps: vc(game, heaps)
