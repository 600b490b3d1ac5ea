"""The deeper check of a proposal: the local check of :func:`nimlab.verify` on a larger box."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from nimlab.core.ruleset import Ruleset
from nimlab.discovery._model import Proposal


def _check_deeper(
    g: Ruleset[Any],
    prop: Proposal,
    n: int,
    bounds: tuple[int, int],
    misere: bool,
    store: Any,
    seconds: float,
) -> Proposal:
    """*prop* with the result of the local check to the largest bound in *bounds* (from,
    to) whose expected time fits *seconds*; unchanged when none does."""
    import warnings

    from nimlab.verification.runner import conjecture_spec, python_seconds, run_spec

    claim: dict[str, Any] = (
        {"formula": prop.statement} if prop.kind == "formula" else {"p_set": prop.statement}
    )
    low, bound = bounds
    while True:
        spec = conjecture_spec(g, bound=bound, heaps=n, misere=misere, **claim)
        if python_seconds(spec) <= seconds:
            break
        if bound <= low:
            return prop
        bound = max(low, (bound + low) // 2 if bound - low > 1 else low)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the cost was weighed above
        res = run_spec(spec, workers=1, store=store, what="conjecture")
    ce = res.counterexample
    return replace(
        prop,
        verified={
            "bound": bound,
            "space": res.space,
            "positions": res.positions_checked,
            "ok": bool(res.ok),
            "method": res.method,
            "counterexample": None if ce is None else str(ce),
            "run_id": res.run_id,
        },
    )


def _check_best(
    g: Ruleset[Any],
    found: list[Proposal],
    n: int,
    checks: tuple[int, int, int],
    misere: bool,
    store: Any,
    deadline: float,
    progress: bool,
) -> tuple[list[Proposal], list[Proposal]]:
    """The proposals that hold and the ones refuted deeper: the first *best* exact fits of
    *found* checked from heaps below *low* to heaps below *bound* (``checks`` is ``(low,
    bound, best)``; a bound of 0 checks nothing), each in its share of the time left."""
    from nimlab.discovery._table import _say

    low, bound, best = checks
    kept: list[Proposal] = []
    refuted: list[Proposal] = []
    checked = 0
    for prop in found:
        if bound and prop.exceptions == 0 and checked < best:
            _say(progress, f"checking {prop.statement} to heaps below {bound}")
            left = max(deadline - time.monotonic(), 1.0) / (best - checked)
            prop = _check_deeper(g, prop, n, (low, bound), misere, store, left)
            checked += 1
        (refuted if prop.refuted else kept).append(prop)
    return kept, refuted
