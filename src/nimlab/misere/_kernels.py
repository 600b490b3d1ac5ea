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
def p_from_least_sums(delta: Any, weights: Any, optp: Any, wp: Any, wl: Any) -> Any:
    """``_candidates._p_from_least_sums``: P-membership of each state from the outcome
    rule on its least sum. The least sums are found in the order of Python's heap, with
    one pending entry per state (its least so far: the entries Python's heap holds beyond
    it are never used). The options of letter ``li`` are ``optp[li]:optp[li + 1]``,
    option ``o``'s letters ``wl[wp[o]:wp[o + 1]]``. Returns ``(is_p, steps)``."""
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
        if hn > 0:  # the last entry sifts down from the root
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
        length = e_len[x]
        if wtop + length > len(wflat):
            grown = np.empty(2 * (wtop + length), np.int64)
            grown[:wtop] = wflat[:wtop]
            wflat = grown
        p = e_par[x]
        if p >= 0:
            ps = wstart[p]
            for k in range(length - 1):
                wflat[wtop + k] = wflat[ps + k]
            wflat[wtop + length - 1] = e_li[x]
        wstart[x] = wtop
        wlen[x] = length
        wtop += length
        order[count] = x
        count += 1
        tot = e_tot[x]
        for li in range(nl):
            y = delta[x, li]
            if hpos[y] == -2:
                continue
            if hpos[y] >= 0:  # pending: keep the lesser entry
                t2 = tot + weights[li]
                if t2 > e_tot[y] or (t2 == e_tot[y] and length + 1 < e_len[y]):
                    continue
                if t2 == e_tot[y] and length + 1 == e_len[y]:
                    ot, ol, op, oli = e_tot[y], e_len[y], e_par[y], e_li[y]
                    e_par[y] = x
                    e_li[y] = li
                    # compare the new entry (parent x, letter li) with the old one
                    newer = True
                    if op != x:
                        sa = wstart[x]
                        sb = wstart[op]
                        for i in range(length):
                            va = wflat[sa + i]
                            vb = wflat[sb + i]
                            if va != vb:
                                newer = va < vb
                                break
                    else:
                        newer = li < oli
                    if not newer:
                        e_tot[y], e_len[y], e_par[y], e_li[y] = ot, ol, op, oli
                        continue
                e_tot[y] = t2
                e_len[y] = length + 1
                e_par[y] = x
                e_li[y] = li
                _sift_up(heap, hpos, hpos[y], e_tot, e_len, e_par, e_li, wstart, wflat)
            else:
                e_tot[y] = tot + weights[li]
                e_len[y] = length + 1
                e_par[y] = x
                e_li[y] = li
                heap[hn] = y
                hpos[y] = hn
                hn += 1
                _sift_up(heap, hpos, hn - 1, e_tot, e_len, e_par, e_li, wstart, wflat)
    is_p = np.zeros(n, np.bool_)
    steps = n * nl
    seen = np.full((n, nl), -1, np.int8)
    for idx in range(count):
        x = order[idx]
        length = wlen[x]
        w = np.sort(wflat[wstart[x] : wstart[x] + length])
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
            if got > 0:
                any_opt = True
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
        block[:] = new
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
        hn -= 1
        if hn > 0:
            lw = hw[hn]
            lx = hx[hn]
            i = 0
            while True:
                c = 2 * i + 1
                if c >= hn:
                    break
                if c + 1 < hn and (hw[c + 1] < hw[c] or (hw[c + 1] == hw[c] and hx[c + 1] < hx[c])):
                    c += 1
                if hw[c] < lw or (hw[c] == lw and hx[c] < lx):
                    hw[i] = hw[c]
                    hx[i] = hx[c]
                    i = c
                else:
                    break
            hw[i] = lw
            hx[i] = lx
        if wt > dist[x]:
            continue
        for li in range(nl):
            y = d[x, li]
            w2 = wt + weights[li]
            if w2 < dist[y]:
                dist[y] = w2
                back_x[y] = x
                back_li[y] = li
                i = hn
                hn += 1
                while i > 0:
                    up = (i - 1) // 2
                    if hw[up] > w2 or (hw[up] == w2 and hx[up] > y):
                        hw[i] = hw[up]
                        hx[i] = hx[up]
                        i = up
                    else:
                        break
                hw[i] = w2
                hx[i] = y
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
    to weight *limit*. Returns ``(status, word, steps)``: status 1 with the failing sum's
    letters (from its last), 0 when there is none lighter than *limit*, 2 when more than
    *max_pairs* pairs are needed, 3 when the steps outgrow *budget*."""
    n = d.shape[0]
    nw = add.shape[2]
    nu = len(use)
    pm = np.zeros(nw, np.uint64)
    for x in range(n):
        if is_p[x]:
            pm[x >> 6] |= np.uint64(1) << np.uint64(x & 63)
    cap = 1024
    pstate = np.empty(cap, np.int64)
    pmask = np.zeros((cap, nw), np.uint64)
    pdist = np.empty(cap, np.int64)
    ppar = np.empty(cap, np.int64)
    pli = np.empty(cap, np.int64)
    hsize = 2048
    htab = np.full(hsize, -1, np.int64)
    ccap = 4
    chains = np.empty((n, ccap), np.int64)
    clen = np.zeros(n, np.int64)
    hcap = 1024
    hw = np.empty(hcap, np.int64)
    ht = np.empty(hcap, np.int64)
    hp = np.empty(hcap, np.int64)
    # the start pair
    pstate[0] = start
    pdist[0] = 0
    ppar[0] = -1
    pli[0] = -1
    npairs = 1
    htab[np.int64(_hash(start, pmask[0]) >> np.uint64(33)) & (hsize - 1)] = 0
    hw[0] = 0
    ht[0] = 0
    hp[0] = 0
    hn = 1
    tick = 0
    steps = 0
    img = np.zeros((nu, nw), np.uint64)
    t2 = np.empty(nw, np.uint64)
    empty = np.empty(0, np.int64)
    while hn > 0:
        wt = hw[0]
        pid = hp[0]
        hn -= 1
        if hn > 0:
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
        if wt >= limit:
            break
        x = pstate[pid]
        tm = pmask[pid]
        if pdist[pid] < wt:
            continue
        skip = False
        for c in range(clen[x]):
            if _subset(pmask[chains[x, c]], tm):
                skip = True
                break
        if skip:
            continue
        steps += clen[x] + nu
        kept = 0
        for c in range(clen[x]):
            o = chains[x, c]
            if not _subset(tm, pmask[o]):
                chains[x, kept] = o
                kept += 1
        if kept == ccap:
            grown = np.empty((n, 2 * ccap), np.int64)
            grown[:, :ccap] = chains
            chains = grown
            ccap *= 2
        chains[x, kept] = pid
        clen[x] = kept + 1
        nonzero = False
        hits = False
        for k in range(nw):
            if tm[k]:
                nonzero = True
            if tm[k] & pm[k]:
                hits = True
        if nonzero and not is_p[x] and not hits:
            length = 0
            p = pid
            while ppar[p] >= 0:
                length += 1
                p = ppar[p]
            word = np.empty(length, np.int64)
            length = 0
            p = pid
            while ppar[p] >= 0:
                word[length] = pli[p]
                length += 1
                p = ppar[p]
            return 1, word, steps
        if steps > budget:
            return 3, empty, steps
        img[:, :] = 0
        pop = 0
        for k in range(nw):
            bits = tm[k]
            while bits:
                low = bits & (~bits + np.uint64(1))
                t = k * 64 + np.int64(np.log2(np.float64(low)) + 0.5)
                bits ^= low
                pop += 1
                for u in range(nu):
                    y = d[t, use[u]]
                    img[u, y >> 6] |= np.uint64(1) << np.uint64(y & 63)
        steps += nu * pop
        for u in range(nu):
            li = use[u]
            y = d[x, li]
            for k in range(nw):
                t2[k] = add[x, li, k] | img[u, k]
            dominated = False
            for c in range(clen[y]):
                if _subset(pmask[chains[y, c]], t2):
                    dominated = True
                    break
            if dominated:
                continue
            w2 = wt + wuse[u]
            h = _hash(y, t2)
            slot = np.int64(h >> np.uint64(33)) & (hsize - 1)
            found = -1
            while htab[slot] >= 0:
                j = htab[slot]
                if pstate[j] == y:
                    same = True
                    for k in range(nw):
                        if pmask[j, k] != t2[k]:
                            same = False
                            break
                    if same:
                        found = j
                        break
                slot = (slot + 1) & (hsize - 1)
            if found >= 0 and w2 >= pdist[found]:
                continue
            if found < 0:
                if npairs >= max_pairs:
                    return 2, empty, steps
                if npairs == cap:
                    cap *= 2
                    ps2 = np.empty(cap, np.int64)
                    ps2[:npairs] = pstate[:npairs]
                    pstate = ps2
                    pm2 = np.zeros((cap, nw), np.uint64)
                    pm2[:npairs] = pmask[:npairs]
                    pmask = pm2
                    tm = pmask[pid]
                    pd2 = np.empty(cap, np.int64)
                    pd2[:npairs] = pdist[:npairs]
                    pdist = pd2
                    pp2 = np.empty(cap, np.int64)
                    pp2[:npairs] = ppar[:npairs]
                    ppar = pp2
                    pl2 = np.empty(cap, np.int64)
                    pl2[:npairs] = pli[:npairs]
                    pli = pl2
                found = npairs
                npairs += 1
                pstate[found] = y
                pmask[found, :] = t2
                htab[slot] = found
                if 2 * npairs > hsize:
                    hsize *= 2
                    htab = np.full(hsize, -1, np.int64)
                    for j in range(npairs):
                        s2 = np.int64(_hash(pstate[j], pmask[j]) >> np.uint64(33)) & (hsize - 1)
                        while htab[s2] >= 0:
                            s2 = (s2 + 1) & (hsize - 1)
                        htab[s2] = j
            pdist[found] = w2
            ppar[found] = pid
            pli[found] = li
            tick += 1
            if hn == hcap:
                hcap *= 2
                hw2 = np.empty(hcap, np.int64)
                hw2[:hn] = hw[:hn]
                hw = hw2
                ht2 = np.empty(hcap, np.int64)
                ht2[:hn] = ht[:hn]
                ht = ht2
                hp2 = np.empty(hcap, np.int64)
                hp2[:hn] = hp[:hn]
                hp = hp2
            i = hn
            hn += 1
            while i > 0:
                up = (i - 1) // 2
                if hw[up] > w2 or (hw[up] == w2 and ht[up] > tick):
                    hw[i] = hw[up]
                    ht[i] = ht[up]
                    hp[i] = hp[up]
                    i = up
                else:
                    break
            hw[i] = w2
            ht[i] = tick
            hp[i] = found
    return 0, empty, steps
