"""The papers' results that nimlab.conjecture rediscovers from tables, and the check of a
proposed statement against the registered result on the registered box.

Shared by tests/test_discovery_registered.py and benchmarks/bench_discovery.py.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

import nimlab

# (result id, game (name or (name, params)), conjecture keyword arguments, kind of claim)
CASES: list[tuple[str, Any, dict[str, Any], str]] = [
    ("S19-T1", "nim", {"heaps": 3, "below": 10}, "formula"),
    ("S19-T5", ("moore", {"k": 2}), {"heaps": 4, "kind": "outcome", "below": 8}, "p-set"),
    ("S19-T8", "lim", {"below": 10}, "formula"),
    ("S19-T10", ("nimhoff", {"k": 1}), {"heaps": 2, "below": 16}, "formula"),
    ("S19-T11", "delete-nim", {"below": 16}, "formula"),
    ("Sh-T1", "single-delete", {"heaps": 2, "kind": "outcome", "below": 16}, "p-set"),
    ("Sh-T2", "abo-delete", {"heaps": 3, "kind": "outcome", "below": 14}, "p-set"),
    ("Sh-T3", "single-delete", {"heaps": 3, "kind": "outcome", "below": 10}, "p-set"),
    ("S18-T7", "wythoff", {"kind": "outcome", "below": 40}, "p-set"),
    ("S18-T8", ("ryuo", {"p": 3}), {"below": 16}, "formula"),
    ("S18-T9", ("restricted-ryuo", {"p": 3, "q": 6}), {"below": 16}, "formula"),
    ("S18-T11", ("allbut", {"S": {2}}), {"below": 40}, "formula"),
    ("N99-T1.11", "nim", {"heaps": 3, "kind": "misere", "below": 8}, "p-set"),
    ("N99-T2.10", ("moore", {"k": 2}), {"heaps": 3, "kind": "misere", "below": 8}, "p-set"),
]


def make_game(game: Any) -> Any:
    """The ruleset of a case."""
    return nimlab.game(game[0], **game[1]) if isinstance(game, tuple) else nimlab.game(game)


def _box_blocks(low: int, bound: int, rows: int) -> Any:
    """Two-heap box [low, bound)^2 in blocks of *rows* values of the first heap."""
    b = np.arange(low, bound, dtype=np.int64)
    for start in range(low, bound, rows):
        a = np.arange(start, min(start + rows, bound), dtype=np.int64)
        aa, bb = np.meshgrid(a, b, indexing="ij")
        yield aa.ravel(), bb.ravel()


def against_registered(tid: str, game: Any, statement: str, heaps: int) -> dict[str, Any]:
    """Check *statement* against the registered result *tid* on the instance of *game*
    with *heaps* heaps, on the registered positions at the registered bound.

    Returns ``{"bound", "positions", "seconds", "mismatch"}`` (mismatch: the first
    position where they differ, or None).
    """
    from nimlab.verification.expr import parse_expression

    t0 = time.perf_counter()
    t = nimlab.theorem(tid)
    bound = t.default_bound
    insts = [
        i
        for i in t.instances(bound)
        if i.game.label() == game.label() and i.space is not None and i.space.n_heaps == heaps
    ]
    assert len(insts) == 1, (tid, game.label(), heaps)
    (inst,) = insts
    sp = inst.space
    expr = parse_expression(statement, heaps)
    fn = expr.numpy_function(sp.bound + 1)
    assert fn is not None, statement
    count = 0
    if t.vector_claim is not None and type(sp).__name__ == "BoxSpace":
        for aa, bb in _box_blocks(sp.low, sp.bound, 256):
            want = np.asarray(t.vector_claim(inst.game, (aa, bb)), dtype=np.int64)
            got = np.asarray(fn(aa, bb), dtype=np.int64)
            count += aa.size
            if not np.array_equal(want, got):
                i = int(np.flatnonzero(want != got)[0])
                return {"bound": bound, "positions": count, "mismatch": (int(aa[i]), int(bb[i]))}
    else:
        for c in range(sp.n_chunks):
            pos = list(sp.chunk(c))
            if not pos:
                continue
            arr = np.asarray(pos, dtype=np.int64).reshape(len(pos), heaps)
            got = np.asarray(fn(*arr.T), dtype=np.int64)
            want = np.fromiter(
                (int(t.claimed(inst.game, p)) for p in pos), dtype=np.int64, count=len(pos)
            )
            count += len(pos)
            if not np.array_equal(want, got):
                i = int(np.flatnonzero(want != got)[0])
                return {"bound": bound, "positions": count, "mismatch": pos[i]}
    return {
        "bound": bound,
        "positions": count,
        "seconds": time.perf_counter() - t0,
        "mismatch": None,
    }


def _all_subclasses(cls: type) -> set[type]:
    out: set[type] = set()
    for sub in cls.__subclasses__():
        out |= {sub} | _all_subclasses(sub)
    return out


def disable_closed_forms(monkeypatch: Any) -> None:
    """Make every closed form of every ruleset raise: discovery must work from tables."""
    from nimlab.core.ruleset import Ruleset

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("discovery consulted a registered closed form")

    for hook in ("closed_grundy", "closed_is_p", "closed_misere_is_p"):
        for cls in {Ruleset} | _all_subclasses(Ruleset):
            if hook in vars(cls):
                monkeypatch.setattr(cls, hook, refuse)
