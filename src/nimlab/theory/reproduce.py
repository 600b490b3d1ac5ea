"""Reproduce every registered result and compare it with its recorded status.

A run passes when every result behaves as its status says: a proved or conjectured
result verifies at the bound; a refuted one fails there with its recorded smallest
counterexample (once the bound reaches it), and the number of positions it gets wrong
(measured against its corrected statement, verified in the same run) matches the
recorded counts. A refuted result that "verifies", or a proved one that fails, fails the
run. The refutation is reported as a finding.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from nimlab.core.errors import ClusterError, NimlabError, StoreError
from nimlab.theory.registry import Theorem, check_theorem, theorem, theorems
from nimlab.verification.spec import VerificationResult

__all__ = [
    "BOUNDS_BEFORE",
    "CUSTOM_POSITIONS",
    "NOT_RAISED",
    "Finding",
    "count_positions",
    "reproduce",
    "reproduce_result",
]

#: ``nimlab reproduce``'s bound of each result before issue 11 asked for bounds that
#: would have caught [Sh] Theorem 6 (at least 10 times more positions each), and the
#: number of positions it checked there (Sh-T6 was checked to heap 36; Sh-T6* is
#: checked on the same space).
BOUNDS_BEFORE: dict[str, tuple[int, int]] = {
    "S19-T1": (32, 6_544),
    "S19-T5": (14, 8_162),
    "S19-T6": (14, 37_504),
    "S19-T7": (28, 24_157),
    "S19-T8": (70, 10_578),
    "S19-T9": (5, 15_625),
    "S19-T10": (40, 7_200),
    "S19-T11": (100, 5_050),
    "S19-T12": (7, 5_971),
    "S19-T13": (6, 4_802),
    "Sh-T1": (60, 3_540),
    "Sh-T2": (26, 12_099),
    "Sh-T3": (64, 43_680),
    "Sh-T6": (36, 73_815),
    "Sh-T6*": (36, 73_815),
    "Sh-P7": (18, 1_629),
    "Sh-P8": (24, 23),
    "N99-T1.11": (16, 4_844),
    "N99-T2.10": (14, 8_162),
    "N99-T3.3": (6, 2_508),
    "SM-T3.1": (8, 1_976),
    "SM-T4.2": (8, 6_916),
    "SM-T4.3": (8, 25_200),
    "SM-E5": (0, 5),
    "S18-T7": (120, 14_400),
    "S18-T8": (4096, 83_886_080),
    "S18-T9": (2048, 41_943_040),
    "S18-T11": (200, 8_000),
    "S18-T12": (64, 24_576),
}

#: Results with a check of their own (``kind="custom"``): the default bound and the
#: number of positions ``nimlab reproduce`` checked there (measured; the check counts them).
CUSTOM_POSITIONS: dict[str, tuple[int, int]] = {
    "SM-T3.1": (17, 23_936),
    "SM-T4.2": (17, 83_776),
    "SM-T4.3": (20, 284_592),
    "N99-T3.3": (13, 28_548),
    "SM-E5": (0, 5),
}

#: CPU seconds of each result on one worker at the bound given (measured with
#: ``benchmarks/bench_reproduce.py``'s 1-worker run on 2026-11-27; S18-T8 and S18-T9
#: again after the vectorised kernels' changes: ``reproduce_result(id, workers=1,
#: store=False)``, 05:30 UTC, load 5):
#: only the order in which a parallel ``reproduce`` starts the results (longest first).
#: At another bound, or for a result not listed, the cost is estimated from the positions
#: its check covers (:data:`SECONDS_PER_POSITION` each).
SECONDS: dict[str, tuple[int, float]] = {
    "S19-T1": (128, 1.41),
    "S19-T5": (32, 9.15),
    "S19-T6": (18, 6.61),
    "S19-T7": (52, 5.92),
    "S19-T8": (160, 0.36),
    "S19-T9": (12, 13.12),
    "S19-T10": (128, 0.9),
    "S19-T11": (512, 1.92),
    "S19-T12": (12, 0.93),
    "S19-T13": (12, 11.52),
    "Sh-T1": (256, 2.77),
    "Sh-T2": (60, 11.47),
    "Sh-T3": (160, 2.09),
    "Sh-T6": (96, 3.27),
    "Sh-T6*": (96, 0.16),
    "Sh-P7": (30, 1.73),
    "Sh-P8": (240, 1.32),
    "N99-T1.11": (48, 4.44),
    "N99-T2.10": (32, 8.33),
    "N99-T3.3": (13, 12.22),
    "SM-T3.1": (17, 0.69),
    "SM-T4.2": (17, 2.35),
    "SM-T4.3": (20, 13.38),
    "SM-E5": (0, 0.0),
    "S18-T7": (1_024, 3.71),
    "S18-T8": (12_953, 21.2),
    "S18-T9": (6_477, 12.56),
    "S18-T11": (4_000, 0.55),
    "S18-T12": (256, 12.58),
}
#: The estimate of a position's cost where :data:`SECONDS` has none (a rough median).
SECONDS_PER_POSITION = 1e-5

#: Results whose default bound does not reach 10 times the positions of
#: :data:`BOUNDS_BEFORE`, and why (docs/PERFORMANCE.md says the same).
NOT_RAISED: dict[str, str] = {
    "SM-E5": "a fixed example of the paper (five claims about given positions): no bound",
}


@dataclass
class Finding:
    """One result reproduced: what its status predicts and what the run found."""

    theorem: str
    statement: str
    state: str
    bound: int
    result: VerificationResult | None
    matches: bool
    message: str
    disagreements: list[tuple[int, int]] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (with the check's own fields)."""
        row: dict[str, Any] = {} if self.result is None else self.result.to_dict()
        row.update(
            {
                "theorem": self.theorem,
                "statement": self.statement,
                "status": self.state,
                "bound": self.bound,
                "matches_status": self.matches,
                "finding": self.message,
                "disagreements": [{"bound": b, "count": n} for b, n in self.disagreements],
                "seconds": self.seconds,
            }
        )
        row.setdefault("positions_checked", 0)
        row.setdefault("result", "ERROR")
        if self.error is not None:
            row["error"] = self.error
        return row


def count_positions(t: Theorem | str, bound: int | None = None) -> int | None:
    """How many positions a check of *t* at *bound* (its default) covers, counted without
    checking them; None for a result with a check of its own (``kind="custom"``).

    Examples
    --------
    >>> count_positions("S19-T1", 4), count_positions("SM-E5")
    (34, None)
    """
    t = theorem(t) if isinstance(t, str) else t
    b = t.default_bound if bound is None else bound
    if t.instances is None:
        return None
    n = 0
    for inst in t.instances(b):
        sp = inst.space
        if sp is None:
            n += sum(1 for _ in inst.positions)
        elif hasattr(sp, "size"):
            n += int(sp.size)
        else:
            n += sum(1 for i in range(sp.n_chunks) for _ in sp.chunk(i))
    return n


def _cost(t: Theorem, bound: int) -> float:
    """Seconds the check of *t* at *bound* takes, about (the order in which a parallel
    reproduce starts the results: longest first): recorded in :data:`SECONDS`, else
    estimated from the positions it covers."""
    if t.id in SECONDS and SECONDS[t.id][0] == bound:
        return SECONDS[t.id][1]
    try:
        n = count_positions(t, bound)
    except Exception:  # an estimate only
        n = None
    return SECONDS_PER_POSITION * float(CUSTOM_POSITIONS.get(t.id, (0, 0))[1] if n is None else n)


def _parts(t: Theorem, bound: int) -> list[float]:
    """The positions of each instance of *t* at *bound* when reproduce may check them as
    parts of their own (side by side in the pool): a result that is not refuted (its
    finding needs no measuring) with instances checked by the local check; else ``[]``."""
    if t.instances is None or t.kind == "custom" or t.status.state == "refuted":
        return []
    try:
        return [float(getattr(i.space, "size", 0) or 0) for i in t.instances(bound)]
    except Exception:  # an estimate only
        return []


def _check_part(t: Theorem, bound: int, k: int, **run: Any) -> VerificationResult:
    """Instance *k* of *t* checked at *bound* as :func:`check_theorem` checks it."""
    from nimlab.theory.registry import (
        _THEOREMS,
        ObjectTheoremClaim,
        TheoremClaim,
        _check_instance,
        _instance_specs,
    )

    start = time.perf_counter()
    claim = TheoremClaim(t.id) if _THEOREMS.get(t.id) is t else ObjectTheoremClaim(t)
    options = {"max_positions": None, **run}
    inst, spec = _instance_specs(t, bound, claim, options["max_positions"])[k]
    used: set[str] = set()
    runs: list[int] = []
    res = _check_instance(t, bound, inst, spec, options, used, runs)
    return VerificationResult.of_theorem(
        t.id, bound, res.positions_checked, res.ok, time.perf_counter() - start,
        None if res.ok else res.counterexample, "+".join(sorted(used)), (*runs,),
        game=t.game, kind=t.kind,
    )  # fmt: skip


def _merged(t: Theorem, bound: int, parts: list[VerificationResult], seconds: float) -> Any:
    """The result of :func:`check_theorem` from its instances' *parts* (in order): as
    the check of every instance one after the other, which stops at the first failure."""
    count, ok, cex = 0, True, None
    used: set[str] = set()
    runs: list[int] = []
    for res in parts:
        count += res.positions_checked
        used.update(x for x in res.method.split("+") if x)
        runs += res.run_ids
        if not res.ok:
            ok, cex = False, res.counterexample
            break
    methods = "+".join(sorted(used)) or ("local" if ok else "")
    return VerificationResult.of_theorem(
        t.id, bound, count, ok, seconds, cex, methods, (*runs,), game=t.game, kind=t.kind
    )


def _measure(t: Theorem, bound: int) -> list[int] | None:
    """Per largest heap, the positions where refuted *t* and its correction differ."""
    st = t.status
    if st.replaced_by is None or t.scalar_claim is None:
        return None
    fixed = theorem(st.replaced_by)
    if fixed.scalar_claim is None or t.instances is None:
        return None
    sp = next(iter(t.instances(bound))).space
    if getattr(sp, "walk", None) != "sorted box":  # disagreements are counted by multiset
        return None
    from nimlab.verification.differences import count_differences

    return count_differences(t.scalar_claim, fixed.scalar_claim, sp.n_heaps, sp.bound, sp.low)


def reproduce_result(
    t: Theorem | str,
    bound: int | None = None,
    *,
    truth_verified: bool = False,
    check: Any = None,
    **run: Any,
) -> Finding:
    """Check *t* at *bound* (its default) and judge the outcome against its status.

    For a refuted result, *truth_verified* says that its corrected statement passed the
    local check at this bound in the same run, so that the disagreement counts can be
    measured (the correction is then the truth on the space).

    Examples
    --------
    >>> f = reproduce_result("S19-T1", 6, workers=1)
    >>> f.matches, f.message
    (True, 'proved: verified as expected')
    """
    t = theorem(t) if isinstance(t, str) else t
    b = t.default_bound if bound is None else bound
    st = t.status
    t0 = time.perf_counter()
    try:
        # the theorem itself (a modified copy given in ``results`` is checked as given),
        # its id to a *check* of the same signature as check_theorem's by id
        res = check_theorem(t, bound=b, **run) if check is None else check(t.id, bound=b, **run)
    except (StoreError, ClusterError):
        raise  # the store or the cluster failed, not the result: stop the whole run
    except NimlabError as exc:
        return Finding(t.id, t.statement, st.state, b, None, False, f"error: {exc}", error=str(exc))
    if st.state != "refuted":
        ok = res.ok
        msg = f"{st.state}: verified as expected" if ok else f"{st.state} result FAILED"
        if not ok and res.counterexample is not None:
            msg += f" at {res.counterexample.position}"
        return Finding(t.id, t.statement, st.state, b, res, ok, msg, seconds=res.seconds)
    return _judge_refuted(t, b, res, truth_verified, t0)


def _judge_refuted(t: Theorem, b: int, res: Any, truth_verified: bool, t0: float) -> Finding:
    """The finding of refuted *t* checked at *b* with result *res*: its smallest
    counterexample and, when its correction verified (*truth_verified*), its counts
    (*t0*: when its check began)."""
    st = t.status
    cex = st.counterexample
    reach = cex is not None and max(cex) < b
    if res.ok:
        if reach:
            return Finding(
                t.id,
                t.statement,
                st.state,
                b,
                res,
                False,
                f"refuted, but it VERIFIED at bound {b} although the recorded counterexample "
                f"{cex} lies below it",
                seconds=res.seconds,
            )
        return Finding(
            t.id,
            t.statement,
            st.state,
            b,
            res,
            True,
            f"refuted (counterexample {cex}); bound {b} is below it, nothing to see",
            seconds=res.seconds,
        )
    found = res.counterexample.position if res.counterexample is not None else None
    matches = found == cex
    parts = [f"refuted as recorded: smallest counterexample ⟨{','.join(map(str, found or ()))}⟩"]
    if not matches:
        parts = [f"refuted, but the smallest counterexample is {found}, recorded {cex}"]
    measured: list[tuple[int, int]] = []
    if truth_verified:
        per_top = _measure(t, b)
        if per_top is not None:
            wanted = {bb: n for bb, n in st.disagreements if bb <= b}
            for bb in sorted({*wanted, b}):
                measured.append((bb, sum(per_top[:bb])))
            for bb, n in measured:
                if bb in wanted and wanted[bb] != n:
                    matches = False
                    parts.append(f"{n:,} wrong below {bb}, recorded {wanted[bb]:,}")
            parts.append("; ".join(f"{n:,} wrong below {bb}" for bb, n in measured))
    return Finding(
        t.id,
        t.statement,
        st.state,
        b,
        res,
        matches,
        ", ".join(parts),
        measured,
        seconds=time.perf_counter() - t0,
    )


def reproduce(
    *,
    deep: bool = False,
    ids: list[str] | None = None,
    results: list[Theorem] | None = None,
    check: Any = None,
    on_result: Any = None,
    **run: Any,
) -> list[Finding]:
    """Reproduce every registered result (or *ids*, or the theorems *results*) at its
    default bound (*deep*: its deep bound), corrected statements before the statements
    they correct; *check* replaces :func:`~nimlab.theory.registry.check_theorem`.

    With several workers (``workers=N``, default every core) the results run side by
    side on a pool of N processes, each result's chunks in its process
    (:mod:`nimlab.theory._jobs`); on a Dask cluster one after the other, each on the
    whole cluster."""
    if run.get("dask_local") and not run.get("scheduler"):
        import os

        from nimlab._dask import dask_client

        # one local cluster for every result, not one per result (each start 1-3 s)
        with dask_client(None, run.get("workers") or os.cpu_count() or 1) as client:
            on = {**run, "dask_local": False, "scheduler": client.scheduler.address}
            return reproduce(
                deep=deep, ids=ids, results=results, check=check, on_result=on_result, **on
            )
    if results is not None:
        ts = list(results)
    else:
        ts = theorems() if ids is None else [theorem(i) for i in ids]
    from nimlab.theory._jobs import parallel_jobs, run_parallel

    jobs = parallel_jobs(run, len(ts))
    if jobs > 1:  # every result in one pool: all cores check results side by side
        bounds = [(t.deep_bound or 4 * t.default_bound) if deep else t.default_bound for t in ts]
        how = {"one": reproduce_result, "cost": _cost, "parts": _parts, "part": _check_part,
               "merge": _merged}  # fmt: skip
        found = run_parallel(ts, bounds, check, on_result, jobs, run, how)
        return [found[i] for i in range(len(ts))]
    order = sorted(
        range(len(ts)), key=lambda i: (ts[i].status.state == "refuted", i)
    )  # corrections first: a refutation is measured against a verified correction
    verified: dict[str, tuple[int, bool]] = {}
    out: dict[int, Finding] = {}
    for i in order:
        t = ts[i]
        b = (t.deep_bound or 4 * t.default_bound) if deep else t.default_bound
        truth = False
        fix = t.status.replaced_by
        if fix is not None:
            got = verified.get(fix)
            truth = got is not None and got[0] >= b and got[1]
        f = reproduce_result(t, b, truth_verified=truth, check=check, **run)
        if f.result is not None:
            verified[t.id] = (b, f.result.ok)
        out[i] = f
        if on_result is not None:
            on_result(f)
    return [out[i] for i in range(len(ts))]


@dataclass
class Counterexamples:
    """Every counterexample of a failed check (positions where the local rule fails).

    ``groups(keys)`` groups them by comma-separated safe expressions over the heaps (as in
    ``--group-by "v2(a),v2(b)"``), ``write_csv(path, keys)`` writes one row each.
    """

    failures: list[Any]
    n_heaps: int
    consts: dict[str, int]
    limit: int

    @property
    def truncated(self) -> bool:
        """Whether the listing stopped at *limit*."""
        return len(self.failures) >= self.limit

    def groups(self, keys: str) -> list[Any]:
        """The counterexamples grouped by *keys*, largest group first."""
        from nimlab.verification.failures import group_failures

        return group_failures(self.failures, keys, self.n_heaps, self.consts)

    def write_csv(self, path: str, keys: str | None = None) -> int:
        """Write them to *path*; returns the number of rows."""
        from nimlab.verification.failures import write_csv

        return write_csv(path, self.failures, keys, self.n_heaps, self.consts)


def counterexamples(
    target: str | Theorem | None = None,
    bound: int | None = None,
    *,
    game: Any = None,
    formula: Any = None,
    p_set: Any = None,
    misere: bool = False,
    heaps: int | None = None,
    limit: int = 100_000,
) -> Counterexamples:
    """Every counterexample of a theorem (*target*, an id) or of a conjecture about *game*
    (*formula* or *p_set*, as for :func:`nimlab.verify`) up to *bound*, in order.

    Examples
    --------
    >>> cs = counterexamples(game="nim", formula="a | b", bound=4, heaps=2)
    >>> [f.position for f in cs.failures][:3], [(g.key, g.count) for g in cs.groups("a % 2")]
    ([(1, 1), (1, 2), (1, 3)], [((1,), 6), ((0,), 3)])
    """
    from nimlab.verification.failures import all_failures

    if target is not None:
        from nimlab.theory.registry import theorem_specs

        specs = theorem_specs(target, bound)
    else:
        from nimlab.verification.runner import conjecture_spec

        specs = [
            conjecture_spec(game, formula, p_set=p_set, misere=misere, bound=bound, heaps=heaps)
        ]
    fails: list[Any] = []
    n_heaps = 0
    consts: dict[str, int] = {}
    for spec in specs:
        if len(fails) >= limit:
            break
        fails += all_failures(spec, limit - len(fails))
        n_heaps = n_heaps or int(getattr(spec.space, "n_heaps", 0))
        consts = {
            k: v
            for k, v in spec.game.param_values().items()
            if isinstance(v, int) and not isinstance(v, bool)
        }
    if not n_heaps and fails and isinstance(fails[0].position, tuple):
        n_heaps = len(fails[0].position)
    return Counterexamples(fails, n_heaps, consts, limit)
