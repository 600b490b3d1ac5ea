"""The deeper check of a proposal: the local check of :func:`nimlab.verify` on a larger box."""

from __future__ import annotations

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
