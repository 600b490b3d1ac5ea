"""Grundy formulas: the grammar searched on the table, sums of one-heap games and block
scalings."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import numpy.typing as npt

from nimlab.discovery._model import _OUTLIER_SHARE, Proposal, _Data
from nimlab.discovery._table import _fits, _full, _sample
from nimlab.discovery.grammar import LETTERS, Term, enumerate_terms


def _formulas(data: _Data, deadline: float, max_size: int) -> Iterator[Proposal]:
    """Grundy formulas of the grammar that fit (exactly, or with few exceptions): searched
    on a sample of the cells, each hit confirmed on every cell by the expression
    language's own evaluation."""
    assert data.grundy is not None
    target = data.grundy
    limit = int(_OUTLIER_SHARE * target.size)
    pick = _sample(data)
    small = target[pick]
    hits: list[Proposal] = []

    def stop(t: Term) -> bool:
        if int((t.values != small).sum()) > 2 * _OUTLIER_SHARE * small.size:
            return False
        got = _fits(_full(t.text, data), target, data, limit)
        if got is None:
            return False
        hits.append(Proposal(t.text, "formula", "formula", t.size, data.region, target.size, *got))
        return got[0] == 0

    enumerate_terms(
        [h[pick] for h in data.heaps],
        max_size=max_size,
        constants=data.constants,
        positive=data.positive,
        deadline=deadline,
        stop=stop,
        keep_last=False,
    )
    yield from hits


def _decomposition(data: _Data, deadline: float) -> Iterator[Proposal]:
    """G = XOR of one-heap parts, each part a formula of its own heap."""
    if data.grundy is None or len(data.heaps) < 2 or len(data.lines) != len(data.heaps):
        return
    low = min(int(h.min()) for h in data.heaps)
    xor = np.zeros_like(data.grundy)
    for h, line in zip(data.heaps, data.lines, strict=True):
        xor ^= line[h - low] if low == 0 else line[h]
    if not np.array_equal(xor, data.grundy):
        return
    parts: list[str] = []
    size = len(data.heaps) - 1
    for i, line in enumerate(data.lines):
        x = np.arange(low, low + len(line), dtype=np.int64)
        found: list[Term] = []
        target = line[x - low] if low == 0 else line
        enumerate_terms(
            [x],
            max_size=5,
            constants=data.constants,
            positive=low >= 1,
            deadline=deadline,
            stop=_collector(target, found),
        )
        if found:
            text, atomic, tsize = found[-1].text, found[-1].atomic, found[-1].size
        elif low == 0 and (periodic := _periodic_text(line, "a")) is not None:
            text, atomic, tsize = periodic, False, 9
        else:
            return
        text = _rename(text, lambda v, i=i: LETTERS[i] if v == "a" else v)  # type: ignore[misc]
        parts.append(text if atomic else f"({text})")
        size += tsize
    yield Proposal(
        " ^ ".join(parts),
        "formula",
        "sum of one-heap games (XOR of the parts)",
        size,
        data.region,
        data.grundy.size,
    )


def _xor_residual(data: _Data, deadline: float) -> Iterator[Proposal]:
    """G = (XOR of the heaps) ^ D with D a short formula (Nimhoff's ⓚ-sum: the nim-sum
    with a product of two bits XORed in): D is searched as a formula of its own table."""
    from dataclasses import replace

    if data.grundy is None or len(data.heaps) < 2:
        return
    xor = np.zeros_like(data.grundy)
    for h in data.heaps:
        xor ^= h
    rest = data.grundy ^ xor
    if not np.any(rest):
        return
    for hit in _formulas(replace(data, grundy=rest), deadline, 6):
        if hit.exceptions:
            continue
        text = f"{' ^ '.join(LETTERS[: len(data.heaps)])} ^ ({hit.statement})"
        full = _full(text, data)
        if full is not None and np.array_equal(full, data.grundy):
            yield Proposal(
                text,
                "formula",
                f"the nim-sum of the heaps corrected by {hit.statement}",
                hit.size + len(data.heaps),
                data.region,
                data.grundy.size,
            )
            return


def _periodic_text(line: npt.NDArray[np.int64], var: str) -> str | None:
    """A one-heap line ``G(0), G(1), ...`` that is purely periodic (or arithmetic-periodic,
    saltus s) with period p, written as a lookup of its period packed in one integer K:
    ``s * (x // p) + ((K >> (w * (x % p))) & (2**w - 1))``; None when it has no such form
    (a preperiod, or a period too long to pack in 62 bits).

    Examples
    --------
    >>> _periodic_text(np.array([0, 1, 0, 1, 2, 3, 2] * 4), "a")  # subtraction {1, 3, 4}
    '(11844 >> (2 * (a % 7))) & 3'
    """
    from nimlab.engine.periodicity import periodicity

    if len(line) < 8:
        return None
    per = periodicity(line.tolist(), reps=2)
    if per.period is None or per.preperiod != 0 or per.period < 2:
        return None
    p, s = int(per.period), int(per.saltus)
    head = [int(v) for v in per.head[:p]]
    if min(head) < 0:
        return None
    w = max(max(head).bit_length(), 1)
    if p * w > 62:
        return None
    packed = sum(v << (w * i) for i, v in enumerate(head))
    text = f"({packed} >> ({w} * ({var} % {p}))) & {(1 << w) - 1}"
    return f"{s} * ({var} // {p}) + ({text})" if s else text


def _periodic_one_heap(data: _Data) -> Iterator[Proposal]:
    """One-heap games: the line as a packed lookup of its period (:func:`_periodic_text`)."""
    if data.grundy is None or len(data.heaps) != 1 or not data.lines:
        return
    if int(data.heaps[0].min()) != 0:
        return
    text = _periodic_text(data.lines[0], "a")
    if text is None:
        return
    full = _full(text, data)
    if full is not None and np.array_equal(full, data.grundy):
        yield Proposal(
            text,
            "formula",
            "a period (and saltus) of the one-heap sequence, its values packed in one integer",
            9,
            data.region,
            data.grundy.size,
        )


def _tidy(text: str) -> str:
    """*text* with ``(x // p) // q`` written ``x // pq`` and doubled parentheses around a
    parenthesis-free part removed (the caller checks the result on the table again).

    Examples
    --------
    >>> _tidy("3 * ((a // 3) // 2) + ((a % 3))")
    '3 * (a // 6) + (a % 3)'
    """
    import re

    def merge(m: re.Match[str]) -> str:
        return f"{m.group(1)} // {int(m.group(2)) * int(m.group(3))}"

    text = re.sub(r"\(([a-h]) // (\d+)\) // (\d+)", merge, text)
    return re.sub(r"\(\(([^()]*)\)\)", r"(\1)", text)


def _collector(target: npt.NDArray[np.int64], found: list[Term]) -> Callable[[Term], bool]:
    """A ``stop`` function for :func:`enumerate_terms`: keep and stop at a term equal to
    *target*."""

    def stop(t: Term) -> bool:
        if np.array_equal(t.values, target):
            found.append(t)
            return True
        return False

    return stop


def _rename(text: str, subst: Callable[[str], str]) -> str:
    """*text* with each heap variable ``a, b, ...`` replaced by ``subst(letter)``."""
    import re

    return re.sub(r"\b([a-h])\b", lambda m: subst(m.group(1)), text)


def _formula_of(
    heaps: list[npt.NDArray[np.int64]],
    target: npt.NDArray[np.int64],
    consts: Sequence[int],
    deadline: float,
    max_size: int = 7,
) -> Term | None:
    """The shortest term of the grammar equal to *target* on every cell, or None."""
    found: list[Term] = []
    positive = all(int(h.min()) >= 1 for h in heaps)
    enumerate_terms(
        heaps,
        max_size=max_size,
        constants=consts,
        positive=positive,
        deadline=deadline,
        stop=_collector(target, found),
        keep_last=False,
    )
    return found[-1] if found else None


def _block_scaling(data: _Data, deadline: float) -> Iterator[Proposal]:
    """G = p * H(a // p, b // p, ...) + R(a % p, b % p, ...): G // p constant on blocks of
    side p and G % p a function of the residues; H and R then found as formulas."""
    if data.grundy is None:
        return
    g = data.grundy
    for p in data.constants:
        if p < 2 or time.monotonic() > deadline:
            continue
        hi = [h // p for h in data.heaps]
        lo = [h % p for h in data.heaps]
        if int(min(int(x.max()) for x in hi)) < 2:
            continue
        # G // p depends on the blocks only, G % p on the residues only
        ok = True
        for keys, vals in ((hi, g // p), (lo, g % p)):
            radix = [int(k.max()) + 1 for k in keys]
            code = np.zeros_like(g)
            for k, r in zip(keys, radix, strict=True):
                code = code * r + k
            order = np.argsort(code, kind="stable")
            c, v = code[order], vals[order]
            same = c[1:] == c[:-1]
            if np.any(v[1:][same] != v[:-1][same]):
                ok = False
                break
        if not ok:
            continue
        h_term = _formula_of(hi, g // p, data.constants, deadline)
        r_term = _formula_of(lo, g % p, data.constants, deadline)
        if h_term is None or r_term is None:
            continue
        same = _full(h_term.text, data)
        if same is not None and np.array_equal(same, g):
            # self-similar: the block part is the game itself, its formula fits the table
            yield Proposal(
                h_term.text,
                "formula",
                f"self-similar block scaling by {p}: G = {p}*G(heaps // {p}) + R(heaps % {p})",
                h_term.size,
                data.region,
                g.size,
            )
            return
        h_text = _rename(h_term.text, lambda v, p=p: f"({v} // {p})")  # type: ignore[misc]
        r_text = _rename(r_term.text, lambda v, p=p: f"({v} % {p})")  # type: ignore[misc]
        periodic = not np.any(g // p)  # no block part: G is periodic in every heap
        text = _tidy(r_text if periodic else f"{p} * ({h_text}) + ({r_text})")
        how = f"block scaling by {p}: G = {p}*H(heaps // {p}) + R(heaps % {p})"
        full = _full(text, data)
        if full is not None and np.array_equal(full, g):
            yield Proposal(
                text,
                "formula",
                f"periodic with period {p} in every heap" if periodic else how,
                h_term.size + r_term.size + 3,
                data.region,
                g.size,
            )
            return
