"""Compiled loops of the misère-quotient candidates (numba, kept on disk by numba's own
cache, ``cache=True``: a new process loads their machine code and compiles nothing).

Each kernel is the loop of one Python method of :mod:`nimlab.misere._automaton` or
:mod:`nimlab.misere._candidates` on numpy arrays, visiting states, letters and pairs in
the same order, so that it returns the same answer (the same least sums, the same
failing sum); sets of states are bit masks of ``W`` words of 64 bits. Every kernel also
returns the steps of work it did, spent by its caller on the computation's budget.
Internal to :mod:`nimlab.misere` (imports numba: only :mod:`nimlab.misere._compiled`
imports it, inside its functions).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

# Copies between arrays are loops, not slice assignments: numba compiles a slice copy
# with the text of its shape-mismatch error (string formatting), 1.5-3 s of compilation
# in every process that compiles one.
_INF = np.int64(1) << np.int64(62)


@njit(cache=True)
def free_table(d: Any, start: Any, freed: Any, index: Any, period: Any, max_states: Any) -> Any:
    """``_candidates._free``'s table: the states reached from *start* by the kept letters,
    times a counter ``(index, period)`` per freed letter (``freed[li]``). Returns the
    table (no rows when it would have more than *max_states* states), the number of
    reached states and the product of the counters' sizes."""
    n, nl = d.shape
    ridx = np.full(n, -1, np.int64)
    order = np.empty(n, np.int64)
    ridx[start] = 0
    order[0] = start
    m = 1
    i = 0
    while i < m:
        x = order[i]
        i += 1
        for li in range(nl):
            if not freed[li]:
                y = d[x, li]
                if ridx[y] < 0:
                    ridx[y] = m
                    order[m] = y
                    m += 1
    prod = 1
    for li in range(nl):
        if freed[li]:
            prod *= index[li] + period[li]
    if m * prod > max_states:
        return np.empty((0, nl), np.int64), m, prod
    strides = np.zeros(nl, np.int64)
    acc = prod
    for li in range(nl):
        if freed[li]:
            acc //= index[li] + period[li]
            strides[li] = acc
    delta = np.empty((m * prod, nl), np.int64)
    for r in range(m):
        x = order[r]
        for c in range(prod):
            s = r * prod + c
            for li in range(nl):
                if freed[li]:
                    size = index[li] + period[li]
                    j = (c // strides[li]) % size
                    nj = j + 1 if j + 1 < size else index[li]
                    delta[s, li] = s + (nj - j) * strides[li]
                else:
                    delta[s, li] = ridx[d[x, li]] * prod + c
    return delta, m, prod


@njit(cache=True)
def _entry_less(
    a: Any, b: Any, e_tot: Any, e_len: Any, e_par: Any, e_li: Any, wstart: Any, wflat: Any
) -> Any:
    """Python's order of the heap entries ``(total, -length, word, state)`` of
    ``_p_from_least_sums`` for the pending entries of states *a* and *b* (an entry's word
    is its parent state's least word and a letter; different states, different words)."""
    if e_tot[a] != e_tot[b]:
        return e_tot[a] < e_tot[b]
    if e_len[a] != e_len[b]:
        return e_len[a] > e_len[b]
    pa = e_par[a]
    pb = e_par[b]
    if pa != pb:
        sa = wstart[pa]
        sb = wstart[pb]
        for i in range(e_len[a] - 1):
            va = wflat[sa + i]
            vb = wflat[sb + i]
            if va != vb:
                return va < vb
    return e_li[a] < e_li[b]


@njit(cache=True)
def _sift_up(
    heap: Any,
    hpos: Any,
    i: Any,
    e_tot: Any,
    e_len: Any,
    e_par: Any,
    e_li: Any,
    wstart: Any,
    wflat: Any,
) -> None:
    s = heap[i]
    while i > 0:
        up = (i - 1) // 2
        if _entry_less(s, heap[up], e_tot, e_len, e_par, e_li, wstart, wflat):
            heap[i] = heap[up]
            hpos[heap[i]] = i
            i = up
        else:
            break
    heap[i] = s
    hpos[s] = i


@njit(cache=True)
def _sift_down(
    heap: Any,
    hpos: Any,
    hn: Any,
    e_tot: Any,
    e_len: Any,
    e_par: Any,
    e_li: Any,
    wstart: Any,
    wflat: Any,
) -> None:
    """The last of the *hn* entries of *heap* sifts down from the root."""
    last = heap[hn]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= hn:
            break
        if c + 1 < hn and _entry_less(
            heap[c + 1], heap[c], e_tot, e_len, e_par, e_li, wstart, wflat
        ):
            c += 1
        if _entry_less(heap[c], last, e_tot, e_len, e_par, e_li, wstart, wflat):
            heap[i] = heap[c]
            hpos[heap[i]] = i
            i = c
        else:
            break
    heap[i] = last
    hpos[last] = i


@njit(cache=True)
def _lesser(
    x: Any, li: Any, length: Any, y: Any, e_par: Any, e_li: Any, wstart: Any, wflat: Any
) -> Any:
    """Whether the word of (parent *x*, letter *li*), of *length* letters before *li*, is
    less than the pending word of *y*, of the same total and length."""
    op = e_par[y]
    if op == x:
        return li < e_li[y]
    sa = wstart[x]
    sb = wstart[op]
    for i in range(length):
        va = wflat[sa + i]
        vb = wflat[sb + i]
        if va != vb:
            return va < vb
    return li < e_li[y]


@njit(cache=True)
def _least_words(delta: Any, weights: Any) -> Any:
    """The least word of each state from state 0 in the order of Python's heap of
    ``(total, -length, word, state)``, with one pending entry per state (its least so far:
    the entries Python's heap holds beyond it are never used). Returns the states in the
    order they were reached, their number, and the words (``wflat[wstart[x]:][:wlen[x]]``)."""
    n, nl = delta.shape
    e_tot = np.zeros(n, np.int64)
    e_len = np.zeros(n, np.int64)
    e_par = np.full(n, -1, np.int64)
    e_li = np.full(n, -1, np.int64)
    heap = np.empty(n, np.int64)
    hpos = np.full(n, -1, np.int64)  # -1: never reached, -2: done
    wstart = np.full(n, -1, np.int64)
    wlen = np.zeros(n, np.int64)
    wflat = np.empty(max(16, 4 * n), np.int64)
    wtop = 0
    order = np.empty(n, np.int64)
    count = 0
    heap[0] = 0
    hpos[0] = 0
    hn = 1
    while hn > 0:
        x = heap[0]
        hpos[x] = -2
        hn -= 1
        if hn > 0:
            _sift_down(heap, hpos, hn, e_tot, e_len, e_par, e_li, wstart, wflat)
        length = e_len[x]
        if wtop + length > len(wflat):
            grown = np.empty(2 * (wtop + length), np.int64)
            for j in range(wtop):  # loops, not slice copies (the note above _INF)
                grown[j] = wflat[j]
            wflat = grown
        if e_par[x] >= 0:
            src = wstart[e_par[x]]  # the parent's word, stored before wtop
            for j in range(length - 1):
                wflat[wtop + j] = wflat[src + j]
            wflat[wtop + length - 1] = e_li[x]
        wstart[x] = wtop
        wlen[x] = length
        wtop += length
        order[count] = x
        count += 1
        for li in range(nl):
            y = delta[x, li]
            t2 = e_tot[x] + weights[li]
            if hpos[y] == -2:
                continue
            if hpos[y] >= 0 and (
                t2 > e_tot[y]
                or (t2 == e_tot[y] and length + 1 < e_len[y])
                or (
                    t2 == e_tot[y]
                    and length + 1 == e_len[y]
                    and not _lesser(x, li, length, y, e_par, e_li, wstart, wflat)
                )
            ):
                continue  # its pending entry is less
            if hpos[y] < 0:
                heap[hn] = y
                hpos[y] = hn
                hn += 1
            e_tot[y] = t2
            e_len[y] = length + 1
            e_par[y] = x
            e_li[y] = li
            _sift_up(heap, hpos, hpos[y], e_tot, e_len, e_par, e_li, wstart, wflat)
    return order, count, wstart, wlen, wflat


@njit(cache=True)
def _sorted_word(wflat: Any, start: Any, length: Any, buf: Any) -> Any:
    """The letters ``wflat[start:start + length]`` in increasing order, in *buf* (or a
    larger array): an insertion sort (words are short; ``np.sort`` compiles numba's
    quicksort, about 1.5 s of compilation)."""
    if len(buf) < length:
        buf = np.empty(2 * length, np.int64)
    for i in range(length):
        v = wflat[start + i]
        j = i
        while j > 0 and buf[j - 1] > v:
            buf[j] = buf[j - 1]
            j -= 1
        buf[j] = v
    return buf


@njit(cache=True)
def p_from_least_sums(delta: Any, weights: Any, optp: Any, wp: Any, wl: Any) -> Any:
    """``_candidates._p_from_least_sums``: P-membership of each state from the outcome
    rule on its least sum. The options of letter ``li`` are ``optp[li]:optp[li + 1]``,
    option ``o``'s letters ``wl[wp[o]:wp[o + 1]]``. Returns ``(is_p, steps)``."""
    n, nl = delta.shape
    order, count, wstart, wlen, wflat = _least_words(delta, weights)
    is_p = np.zeros(n, np.bool_)
    steps = n * nl
    seen = np.full((n, nl), -1, np.int8)
    w = np.empty(16, np.int64)
    for idx in range(count):
        x = order[idx]
        length = wlen[x]
        w = _sorted_word(wflat, wstart[x], length, w)
        any_opt = False
        p_here = True
        for k in range(length):
            if k and w[k - 1] == w[k]:
                continue
            li = w[k]
            rest = 0
            for v in range(length):
                if v != k:
                    rest = delta[rest, w[v]]
            got = seen[rest, li]
            if got < 0:
                steps += (optp[li + 1] - optp[li]) * (length + 1)
                got = 0
                for o in range(optp[li], optp[li + 1]):
                    got = 1
                    y = rest
                    for q in range(wp[o], wp[o + 1]):
                        y = delta[y, wl[q]]
                    if is_p[y]:
                        got = 2
                        break
                seen[rest, li] = got
            any_opt = any_opt or got > 0
            if got == 2:
                p_here = False
                break
        is_p[x] = any_opt and p_here
    return is_p, steps


@njit(cache=True)
def _row_classes(block: Any, dp: Any, out: Any) -> Any:
    """Class of each row ``(block[i], block[dp[i, 0]], …)`` (equal rows, equal classes,
    numbered by first occurrence); returns the number of classes."""
    m, nl = dp.shape
    size = 1
    while size < 2 * m:
        size *= 2
    table = np.full(size, -1, np.int64)
    mask = size - 1
    count = 0
    for i in range(m):
        h = np.uint64(block[i]) * np.uint64(0x9E3779B97F4A7C15)
        for li in range(nl):
            h = (h ^ np.uint64(block[dp[i, li]])) * np.uint64(0xBF58476D1CE4E5B9)
        slot = np.int64(h >> np.uint64(33)) & mask
        while True:
            j = table[slot]
            if j < 0:
                table[slot] = i
                out[i] = count
                count += 1
                break
            same = block[j] == block[i]
            if same:
                for li in range(nl):
                    if block[dp[j, li]] != block[dp[i, li]]:
                        same = False
                        break
            if same:
                out[i] = out[j]
                break
            slot = (slot + 1) & mask
    return count


@njit(cache=True)
def minimize(d: Any, is_p: Any, start: Any) -> Any:
    """``_Automaton.minimize``: the states reached from *start*, indistinguishable ones
    merged (Moore's refinement), numbered by first occurrence in breadth-first order.
    Returns ``(delta, is_p, state_map, steps)``."""
    n, nl = d.shape
    pos = np.full(n, -1, np.int64)
    order = np.empty(n, np.int64)
    pos[start] = 0
    order[0] = start
    m = 1
    i = 0
    while i < m:
        x = order[i]
        i += 1
        for li in range(nl):
            y = d[x, li]
            if pos[y] < 0:
                pos[y] = m
                order[m] = y
                m += 1
    dp = np.empty((m, nl), np.int64)
    block = np.empty(m, np.int64)
    has = np.zeros(2, np.bool_)
    for r in range(m):
        x = order[r]
        block[r] = 1 if is_p[x] else 0
        has[block[r]] = True
        for li in range(nl):
            dp[r, li] = pos[d[x, li]]
    nblocks = int(has[0]) + int(has[1])
    steps = 0
    new = np.empty(m, np.int64)
    while True:
        steps += m * (nl + 1)
        count = _row_classes(block, dp, new)
        if count == nblocks:
            break
        for r in range(m):  # a loop, not a slice copy (the note above _INF)
            block[r] = new[r]
        nblocks = count
    ids = np.full(max(nblocks, 2), -1, np.int64)
    first = np.empty(nblocks, np.int64)
    k = 0
    for r in range(m):
        b = block[r]
        if ids[b] < 0:
            ids[b] = k
            first[k] = order[r]
            k += 1
    rdelta = np.empty((k, nl), np.int64)
    rp = np.empty(k, np.bool_)
    for s in range(k):
        x = first[s]
        rp[s] = is_p[x]
        for li in range(nl):
            rdelta[s, li] = ids[block[pos[d[x, li]]]]
    state_map = np.full(n, -1, np.int64)
    for r in range(m):
        state_map[order[r]] = ids[block[r]]
    return rdelta, rp, state_map, steps


@njit(cache=True)
def added(d: Any, optp: Any, wp: Any, wl: Any, words: Any) -> Any:
    """``_Automaton._added``: the states of the options letter ``li`` brings to a sum in
    state ``x``, as bit masks ``[x, li, :]`` of *words* words."""
    n, nl = d.shape
    out = np.zeros((n, nl, words), np.uint64)
    for x in range(n):
        for li in range(nl):
            for o in range(optp[li], optp[li + 1]):
                y = x
                for q in range(wp[o], wp[o + 1]):
                    y = d[y, wl[q]]
                out[x, li, y >> 6] |= np.uint64(1) << np.uint64(y & 63)
    return out


@njit(cache=True)
def least_sums(d: Any, start: Any, weights: Any) -> Any:
    """``_Automaton._least_sums``: least weight of a sum reaching each state, and the
    (previous state, letter) of it (Dijkstra's order; ties by state, as Python's heap)."""
    n, nl = d.shape
    dist = np.full(n, _INF, np.int64)
    back_x = np.full(n, -1, np.int64)
    back_li = np.full(n, -1, np.int64)
    cap = 1 + n * nl
    hw = np.empty(cap, np.int64)
    hx = np.empty(cap, np.int64)
    dist[start] = 0
    hw[0] = 0
    hx[0] = start
    hn = 1
    while hn > 0:
        wt = hw[0]
        x = hx[0]
        _pop(hw, hx, hx, hn)  # entries (weight, state): the state is the tie and the item
        hn -= 1
        if wt > dist[x]:
            continue
        for li in range(nl):
            y = d[x, li]
            w2 = wt + weights[li]
            if w2 < dist[y]:
                dist[y] = w2
                back_x[y] = x
                back_li[y] = li
                _place(hw, hx, hx, hn, w2, y, y)  # room: at most one entry an edge
                hn += 1
    return dist, back_x, back_li


@njit(cache=True)
def _subset(a: Any, b: Any) -> Any:
    """Whether the bit mask *a* is contained in *b*."""
    for k in range(len(a)):  # noqa: SIM110 (a loop numba compiles)
        if a[k] & ~b[k]:
            return False
    return True


@njit(cache=True)
def _hash(state: Any, mask: Any) -> Any:
    h = np.uint64(state) * np.uint64(0x9E3779B97F4A7C15)
    for k in range(len(mask)):
        h = (h ^ mask[k]) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    return h


@njit(cache=True, inline="always")
def _pop(hw: Any, ht: Any, hp: Any, hn: Any) -> None:
    """Remove the least ``(weight, tick)`` of the *hn* entries (the last one sifts down)."""
    hn -= 1
    lw = hw[hn]
    lt = ht[hn]
    lp = hp[hn]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= hn:
            break
        if c + 1 < hn and (hw[c + 1] < hw[c] or (hw[c + 1] == hw[c] and ht[c + 1] < ht[c])):
            c += 1
        if hw[c] < lw or (hw[c] == lw and ht[c] < lt):
            hw[i] = hw[c]
            ht[i] = ht[c]
            hp[i] = hp[c]
            i = c
        else:
            break
    hw[i] = lw
    ht[i] = lt
    hp[i] = lp


@njit(cache=True, inline="always")
def _place(hw: Any, ht: Any, hp: Any, i: Any, w: Any, t: Any, p: Any) -> None:
    """Put the entry ``(w, t, p)`` at place *i* (free) and move it up to its place."""
    while i > 0:
        up = (i - 1) // 2
        if hw[up] > w or (hw[up] == w and ht[up] > t):
            hw[i] = hw[up]
            ht[i] = ht[up]
            hp[i] = hp[up]
            i = up
        else:
            break
    hw[i] = w
    ht[i] = t
    hp[i] = p


@njit(cache=True)
def _doubled(a: Any) -> Any:
    """*a* followed by as many unset entries (loops: ``np.concatenate`` compiles slowly)."""
    out = np.empty(2 * len(a), a.dtype)
    for i in range(len(a)):
        out[i] = a[i]
    return out


@njit(cache=True)
def _doubled_rows(a: Any, fill: Any) -> Any:
    """The rows of *a* followed by as many rows of *fill*."""
    m, k = a.shape
    out = np.empty((2 * m, k), a.dtype)
    for i in range(m):
        for j in range(k):
            out[i, j] = a[i, j]
            out[m + i, j] = fill
    return out


@njit(cache=True)
def _push(hw: Any, ht: Any, hp: Any, hn: Any, w: Any, t: Any, p: Any) -> Any:
    """Add the entry ``(w, t, p)`` after the *hn* entries; returns the (grown) arrays."""
    if hn == len(hw):
        hw = _doubled(hw)
        ht = _doubled(ht)
        hp = _doubled(hp)
    _place(hw, ht, hp, hn, w, t, p)
    return hw, ht, hp


@njit(cache=True)
def _slot(htab: Any, pinfo: Any, pmask: Any, y: Any, t2: Any) -> Any:
    """The slot of the pair ``(y, t2)`` in the open-addressing table, or of its place."""
    size = len(htab)
    slot = np.int64(_hash(y, t2) >> np.uint64(33)) & (size - 1)
    while htab[slot] >= 0:
        j = htab[slot]
        if pinfo[j, 0] == y and _subset(pmask[j], t2) and _subset(t2, pmask[j]):
            break
        slot = (slot + 1) & (size - 1)
    return slot


@njit(cache=True)
def _add_pair(htab: Any, pinfo: Any, pmask: Any, npairs: Any, slot: Any, y: Any, t2: Any) -> Any:
    """Store the pair ``(y, t2)`` as number *npairs* at *slot*; returns the (grown) arrays."""
    if npairs == len(pinfo):
        pinfo = _doubled_rows(pinfo, np.int64(0))
        pmask = _doubled_rows(pmask, np.uint64(0))
    pinfo[npairs, 0] = y
    for j in range(pmask.shape[1]):  # a loop, not a slice copy (the note above _INF)
        pmask[npairs, j] = t2[j]
    htab[slot] = npairs
    if 2 * (npairs + 1) > len(htab):
        htab = np.full(2 * len(htab), -1, np.int64)
        for j in range(npairs + 1):
            htab[_slot(htab, pinfo, pmask, pinfo[j, 0], pmask[j])] = j
    return htab, pinfo, pmask


@njit(cache=True)
def _start_pair(start: Any, nw: Any) -> Any:
    """The tables of pairs holding the start pair (state *start*, no option states)."""
    zero = np.zeros(nw, np.uint64)
    htab = np.full(2048, -1, np.int64)
    pinfo = np.empty((1024, 4), np.int64)
    pmask = np.zeros((1024, nw), np.uint64)
    slot = _slot(htab, pinfo, pmask, start, zero)
    htab, pinfo, pmask = _add_pair(htab, pinfo, pmask, np.int64(0), slot, start, zero)
    pinfo[0, 1] = 0
    pinfo[0, 2] = -1
    pinfo[0, 3] = -1
    return htab, pinfo, pmask


@njit(cache=True)
def _keep_least(chains: Any, clen: Any, x: Any, pid: Any, pmask: Any) -> Any:
    """Add pair *pid* to the least option sets of state *x*, dropping the sets that
    contain its own; returns the (grown) chains."""
    kept = 0
    for c in range(clen[x]):
        o = chains[x, c]
        if not _subset(pmask[pid], pmask[o]):
            chains[x, kept] = o
            kept += 1
    if kept == chains.shape[1]:
        grown = np.empty((chains.shape[0], 2 * kept), np.int64)
        for r in range(chains.shape[0]):  # loops, not a slice copy (the note above _INF)
            for c in range(kept):
                grown[r, c] = chains[r, c]
        chains = grown
    chains[x, kept] = pid
    clen[x] = kept + 1
    return chains


@njit(cache=True)
def _bit_mask(flags: Any, nw: Any) -> Any:
    """The indices of the true *flags* as a bit mask of *nw* words."""
    out = np.zeros(nw, np.uint64)
    for x in range(len(flags)):
        if flags[x]:
            out[x >> 6] |= np.uint64(1) << np.uint64(x & 63)
    return out


@njit(cache=True)
def _nonempty_outside(t: Any, pm: Any) -> Any:
    """Whether the bit mask *t* has a state and none of *pm*: ``t.any() and not (t &
    pm).any()`` as loops (an array expression compiles slowly)."""
    some = False
    for k in range(len(t)):
        if t[k] & pm[k]:
            return False
        if t[k]:
            some = True
    return some


@njit(cache=True)
def _dominated(chains: Any, clen: Any, x: Any, pmask: Any, t: Any) -> Any:
    """Whether a least option set of state *x* is contained in *t*."""
    for c in range(clen[x]):  # noqa: SIM110 (a loop numba compiles)
        if _subset(pmask[chains[x, c]], t):
            return True
    return False


@njit(cache=True)
def _images(d: Any, use: Any, tm: Any, img: Any) -> Any:
    """``img[u]``: the states of *tm* (a bit mask) after letter ``use[u]``; returns the
    number of states of *tm*."""
    for u in range(img.shape[0]):  # loops, not a slice assignment (the note above _INF)
        for k in range(img.shape[1]):
            img[u, k] = 0
    pop = 0
    for k in range(len(tm)):
        bits = tm[k]
        while bits:
            low = bits & (~bits + np.uint64(1))
            t = k * 64 + np.int64(np.log2(np.float64(low)) + 0.5)
            bits ^= low
            pop += 1
            for u in range(len(use)):
                y = d[t, use[u]]
                img[u, y >> 6] |= np.uint64(1) << np.uint64(y & 63)
    return pop


@njit(cache=True)
def _word(pinfo: Any, pid: Any) -> Any:
    """The letters of the sum that reached pair *pid*, from its last."""
    length = 0
    p = pid
    while pinfo[p, 2] >= 0:
        length += 1
        p = pinfo[p, 2]
    word = np.empty(length, np.int64)
    p = pid
    for i in range(length):
        word[i] = pinfo[p, 3]
        p = pinfo[p, 2]
    return word


@njit(cache=True)
def least_n_failure(
    d: Any,
    is_p: Any,
    start: Any,
    add: Any,
    use: Any,
    wuse: Any,
    max_pairs: Any,
    limit: Any,
    budget: Any,
) -> Any:
    """``_Automaton._least_n_failure``'s search: pairs (state, option states) in order of
    weight (ties by the order they were reached), kept to least option sets per state, up
    to weight *limit*. Pairs are rows ``(state, weight, parent pair, letter)`` of *pinfo*
    with their option states in *pmask*. Returns ``(status, word, steps)``: status 1 with
    the failing sum's letters (from its last), 0 when there is none lighter than *limit*,
    2 when more than *max_pairs* pairs are needed, 3 when the steps outgrow *budget*."""
    nw = add.shape[2]
    pm = _bit_mask(is_p, nw)
    htab, pinfo, pmask = _start_pair(start, nw)
    npairs = np.int64(1)
    chains = np.empty((d.shape[0], 4), np.int64)
    clen = np.zeros(d.shape[0], np.int64)
    z = np.int64(0)  # not the constant 0: numba would compile _push for Literal[int](0) too
    hw, ht, hp = _push(
        np.empty(1024, np.int64), np.empty(1024, np.int64), np.empty(1024, np.int64), z, z, z, z
    )
    hn = 1
    tick = 0
    steps = 0
    img = np.zeros((len(use), nw), np.uint64)
    t2 = np.empty(nw, np.uint64)
    while hn > 0:
        wt = hw[0]
        pid = hp[0]
        _pop(hw, ht, hp, hn)
        hn -= 1
        if wt >= limit:
            break
        x = pinfo[pid, 0]
        if pinfo[pid, 1] < wt or _dominated(chains, clen, x, pmask, pmask[pid]):
            continue
        steps += clen[x] + len(use)
        chains = _keep_least(chains, clen, x, pid, pmask)
        if not is_p[x] and _nonempty_outside(pmask[pid], pm):
            return 1, _word(pinfo, pid), steps
        if steps > budget:
            return 3, np.empty(0, np.int64), steps
        steps += len(use) * _images(d, use, pmask[pid], img)
        for u in range(len(use)):
            li = use[u]
            y = d[x, li]
            for j in range(t2.shape[0]):  # a loop, not a slice copy (the note above _INF)
                t2[j] = add[x, li, j] | img[u, j]
            if _dominated(chains, clen, y, pmask, t2):
                continue
            w2 = wt + wuse[u]
            slot = _slot(htab, pinfo, pmask, y, t2)
            found = htab[slot]
            if found >= 0 and w2 >= pinfo[found, 1]:
                continue
            if found < 0:
                if npairs >= max_pairs:
                    return 2, np.empty(0, np.int64), steps
                htab, pinfo, pmask = _add_pair(htab, pinfo, pmask, npairs, slot, y, t2)
                found = npairs
                npairs += 1
            pinfo[found, 1] = w2
            pinfo[found, 2] = pid
            pinfo[found, 3] = li
            tick += 1
            hw, ht, hp = _push(hw, ht, hp, hn, w2, tick, found)
            hn += 1
    return 0, np.empty(0, np.int64), steps
