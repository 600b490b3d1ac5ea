"""The candidates' loops on compiled kernels (:mod:`nimlab.misere._kernels`): the same
answers as the Python methods of :class:`~nimlab.misere._automaton._Automaton` and
:func:`~nimlab.misere._candidates._free`, once a computation is long enough that numba's
start pays (``Budgets.misere_compiled_after_steps``; internal to :mod:`nimlab.misere`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nimlab.misere._work import QuotientTooLargeError, _spend, _work_left

Options = list[list[tuple[int, ...]]]


def array(delta: list[list[int]], nl: int) -> Any:
    """The transition table *delta* (``nl`` letters) as a numpy array."""
    import numpy as np

    return np.array(delta, dtype=np.int64).reshape(len(delta), nl)


def _options(opts: Options) -> tuple[Any, Any, Any]:
    """Option words of each letter, flattened: ``optp``, ``wp``, ``wl``."""
    import numpy as np

    optp = [0]
    wp = [0]
    wl: list[int] = []
    for olist in opts:
        for o in olist:
            wl.extend(o)
            wp.append(len(wl))
        optp.append(len(wp) - 1)
    return (
        np.array(optp, dtype=np.int64),
        np.array(wp, dtype=np.int64),
        np.array(wl, dtype=np.int64),
    )


def free(
    d: Any,
    start: int,
    opts: Options,
    freed: dict[int, tuple[int, int]],
    weights: Sequence[int],
    max_states: int,
) -> tuple[Any, Any] | None:
    """:func:`nimlab.misere._candidates._free` on compiled loops, for the automaton of
    table *d* (a numpy array), *start* and option words *opts*: the minimised candidate's
    table and P-states (numpy arrays), or None when it would have more than *max_states*
    states."""
    import numpy as np

    from nimlab.misere import _kernels

    nl = d.shape[1]
    mask = np.zeros(nl, dtype=np.bool_)
    index = np.zeros(nl, dtype=np.int64)
    period = np.zeros(nl, dtype=np.int64)
    for li, (i, p) in freed.items():
        mask[li] = True
        index[li] = i
        period[li] = p
    delta, m, prod = _kernels.free_table(d, start, mask, index, period, max_states)
    if m * prod > max_states:
        return None
    _spend(m * prod * (nl + 1))
    optp, wp, wl = _options(opts)
    w = np.array(weights, dtype=np.int64)
    is_p, steps = _kernels.p_from_least_sums(delta, w, optp, wp, wl)
    _spend(int(steps))
    rdelta, rp, _, steps = _kernels.minimize(delta, is_p, 0)
    _spend(int(steps))
    return rdelta, rp


def least_failure(
    d: Any,
    p_states: Sequence[bool],
    start: int,
    opts: Options,
    weights: Sequence[int],
    max_pairs: int,
) -> list[int] | None:
    """:meth:`nimlab.misere._automaton._Automaton.least_failure` on compiled loops, for
    the automaton of table *d* (a numpy array), P-states *p_states*, *start* and option
    words *opts* (the empty sum's case is the caller's)."""
    import numpy as np

    from nimlab.misere import _kernels

    n, nl = d.shape
    nw = (n + 63) // 64
    optp, wp, wl = _options(opts)
    _spend(n * (len(wl) + len(wp) - 1))
    add = _kernels.added(d, optp, wp, wl, nw)
    w = np.array(weights, dtype=np.int64)
    is_p = np.array(p_states, dtype=np.bool_)
    best = _least_p_failure(d, start, is_p, add, w)
    # letters acting alike on the states and on the option states: the lightest one
    lightest: dict[bytes, int] = {}
    for li in range(nl):
        key = d[:, li].tobytes() + add[:, li, :].tobytes()
        if key not in lightest or weights[li] < weights[lightest[key]]:
            lightest[key] = li
    use = np.array(sorted(lightest.values()), dtype=np.int64)
    limit = best[0] if best is not None else 1 << 62
    status, word, steps = _kernels.least_n_failure(
        d, is_p, start, add, use, w[use], max_pairs, limit, _work_left()
    )
    _spend(int(steps))
    if status == 2:
        raise QuotientTooLargeError(
            "misère quotient: the proof of a candidate visits more than "
            f"{max_pairs:,} (class, option classes) pairs; raise max_pairs or "
            "lower the heap bound"
        )
    if status == 1:
        return [int(v) for v in word]
    return None if best is None else best[1]


def _least_p_failure(
    d: Any, start: int, is_p: Any, add: Any, w: Any
) -> tuple[int, list[int]] | None:
    """:meth:`_Automaton._least_p_failure` on arrays: the lightest P-state with an option
    in P (the first of least weight in the order of states, then letters)."""
    import numpy as np

    from nimlab.misere import _kernels

    n, nl = d.shape
    _spend(n * nl)
    dist, back_x, back_li = _kernels.least_sums(d, start, w)
    pm = np.packbits(is_p, bitorder="little")
    pm = np.concatenate([pm, np.zeros(add.shape[2] * 8 - len(pm), dtype=np.uint8)])
    hits = (add & pm.view(np.uint64)[None, None, :]).any(axis=2)
    ok = hits & is_p[d] & (dist < 1 << 62)[:, None]
    if not ok.any():
        return None
    weight = np.where(ok, dist[:, None] + w[None, :], np.int64(1) << 62)
    flat = int(np.argmin(weight))
    x, li = divmod(flat, nl)
    word = [li]
    while x != start:
        word.append(int(back_li[x]))
        x = int(back_x[x])
    return int(weight.flat[flat]), word


def warm() -> None:
    """Run every compiled loop once on a small automaton, so that numba compiles them (or
    loads them from its disk cache): :func:`nimlab.warm` does it for ``nimlab warm``
    (no doctest: the first call compiles for about 15 s of CPU; tests/test_misere_compiled.py
    runs it).
    """
    d = array([[1, 2], [0, 2], [2, 1]], 2)
    opts: Options = [[()], [(), (0,)]]
    least_failure(d, [False, True, False], 0, opts, [1, 2], 1000)
    free(d, 0, opts, {0: (2, 2)}, [1, 2], 1000)
