"""One chunk of a local check: the vectorised, compiled or Python path, as planned.

:func:`check_chunk` sits above the three paths (:mod:`~nimlab.verification.fast`,
:mod:`~nimlab.verification.compiled` and the exact check of
:mod:`~nimlab.verification.local`), which know nothing of each other, so there is no import
circle among them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from nimlab.core.errors import InvalidParameterError, NimlabError
from nimlab.core.settings import env_float
from nimlab.planner import Method, Question, plan
from nimlab.verification.local import ChunkResult, Claim, _fmt, check_position
from nimlab.verification.spaces import heap_walk, is_indexed, own_walk

__all__ = [
    "SLEEP_ENV",
    "check_chunk",
    "chunk_checker",
    "install_prepared",
    "needs_prepare",
    "prepare_part",
]

SLEEP_ENV = "NIMLAB_VERIFY_CHUNK_SLEEP"


def prepare_part(spec: Any, chunks: Iterable[int]) -> Any:
    """The part of a spec's shared set-up that *chunks* contribute (the compiled P-set
    check's option index, recorded from their claimed P-positions), or None when the
    spec's chunks need no set-up. Parts are independent: workers compute them in
    parallel and :func:`install_prepared` merges them where the chunks are checked.
    """
    if getattr(spec, "compiled", False) and heap_walk(spec.space):
        from nimlab.verification.compiled import index_part

        return index_part(spec, chunks)
    return None


def needs_prepare(spec: Any) -> bool:
    """Whether the chunks of *spec* share a set-up (:func:`prepare_part`)."""
    if getattr(spec, "compiled", False) and heap_walk(spec.space):
        from nimlab.verification.compiled import uses_index

        return uses_index(spec)
    return False


def install_prepared(spec: Any, parts: list[Any]) -> Any:
    """Merge the parts of :func:`prepare_part` for the chunks checked in this process
    (nothing to do when it holds them already); returns the merged set-up to send to
    other workers, or None."""
    if parts and getattr(spec, "compiled", False) and heap_walk(spec.space):
        from nimlab.verification.compiled import has_index, install_index

        if len(parts) == 1 and has_index(spec):
            return parts[0]
        return install_index(spec, parts)
    return None


#: The planner's path for each spec and avoided paths (asked once per spec, not once per
#: chunk: its answer depends on the spec only), the last few specs.
_PLANS: dict[tuple[str, frozenset[Method]], Any] = {}


def _plan(spec: Any, avoid: frozenset[Method]) -> Any:
    key = (spec.key(), avoid)
    hit = _PLANS.get(key)
    if hit is None:
        hit = plan(
            spec.game,
            Question.CHECK,
            space=spec.space,
            kind=spec.kind,
            vectorised=spec.fast,
            compiled=getattr(spec, "compiled", False),
            avoid=avoid,
        )
        if len(_PLANS) > 64:
            _PLANS.clear()
        _PLANS[key] = hit
    return hit


#: Paths a chunk is never checked by (a sequence is a one-heap game's own run).
_AVOID = frozenset({Method.COMPILED_SEQUENCE})


def check_chunk(spec: Any, i: int) -> ChunkResult:
    """Check chunk *i* of a :class:`~nimlab.verification.runner.CheckSpec`."""
    t0 = time.perf_counter()
    sleep = env_float(SLEEP_ENV, 0.0, low=0, high=3600, what="a number of seconds")
    if sleep:
        time.sleep(sleep)
    # the spec says which paths its claim and space allow; the planner picks among them
    # and a path that cannot run this chunk falls back to the next
    avoid = _AVOID
    while True:
        p = _plan(spec, avoid)
        if p.method is Method.VECTORISED_CHECK:
            from nimlab.verification.fast import fast_chunk

            res = fast_chunk(spec, i)
            if res is not None:
                return ChunkResult(i, res[0], time.perf_counter() - t0, res[1], "vectorised")
        elif p.method is Method.COMPILED_CHECK:
            own = own_walk(spec.space)
            if own is not None:
                res = own(spec, i)
            elif is_indexed(spec.space):
                from nimlab.verification.indexed import indexed_chunk

                res = indexed_chunk(spec, i)
            else:
                from nimlab.verification.compiled import compiled_chunk

                res = compiled_chunk(spec, i)
            if res is not None:
                return ChunkResult(i, res[0], time.perf_counter() - t0, res[1], "compiled")
        else:
            break
        avoid |= {p.method}
    game = spec.game
    claim_obj: Claim = spec.claim
    cache: dict[Any, Any] = {}

    def claim(p: Any) -> Any:
        v = cache.get(p, cache)
        if v is cache:
            try:
                v = claim_obj.value(game, p)
            except NimlabError:
                raise
            except ZeroDivisionError:
                raise InvalidParameterError(
                    f"the claim divides by zero at {_fmt(game, p)}"
                ) from None
            if len(cache) > 500_000:
                cache.clear()
            cache[p] = v
        return v

    count = 0
    for pos in spec.space.chunk(i):
        count += 1
        fail = check_position(game, spec.kind, claim, pos, spec.space)
        if fail is not None:
            return ChunkResult(i, count, time.perf_counter() - t0, fail)
    return ChunkResult(i, count, time.perf_counter() - t0, None)


def chunk_checker(spec: Any) -> Callable[[int], ChunkResult]:
    """:func:`check_chunk` for the chunks of one run of *spec*: on the compiled heap walks
    the planner is asked once and the kernel's look-ups are done once (a thread checking
    a run's chunks spends its time in the kernel, not in Python holding the lock); any
    other path, and a chunk the kernel cannot settle, go through :func:`check_chunk`."""
    walk = None
    plain = not env_float(SLEEP_ENV, 0.0, low=0, high=3600, what="a number of seconds")
    sp = spec.space
    direct = plain and getattr(spec, "compiled", False) and heap_walk(sp)
    direct = direct and own_walk(sp) is None and not is_indexed(sp)
    if direct and _plan(spec, _AVOID).method is Method.COMPILED_CHECK:
        from nimlab.verification.compiled import chunk_walker

        walk = chunk_walker(spec)
    if walk is None:
        return lambda i: check_chunk(spec, i)
    compiled_walk = walk

    def check(i: int) -> ChunkResult:
        t0 = time.perf_counter()
        res = compiled_walk(i)
        if res is None:
            return check_chunk(spec, i)
        return ChunkResult(i, res[0], time.perf_counter() - t0, res[1], "compiled")

    return check
