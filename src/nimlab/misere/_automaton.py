"""Automata on sums of heaps: candidates for a misère quotient and their proofs.

States with commuting actions of the heaps (letters), a P-predicate and option words;
the proof that the P-predicate gives every sum its misère outcome (:meth:`verify`), its
least failure (:meth:`least_failure`), minimisation and the monoid of a minimal
automaton (internal to :mod:`nimlab.misere.quotient`).
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from nimlab.misere._work import QuotientTooLargeError, _compiled, _spend


def _refine(
    d: Sequence[Sequence[int]], is_p: Sequence[bool], order: list[int], size: int
) -> list[int]:
    """Block of each state of *order* (reached states) in the coarsest partition that
    separates P from N and is stable under every letter (Moore's refinement; the blocks
    of equal signatures ``(block, blocks of the letters' targets)``)."""
    nl = len(d[0]) if d else 0
    pos = [-1] * size
    for i, x in enumerate(order):
        pos[x] = i
    dp = [[pos[y] for y in d[x]] for x in order]
    block = [1 if is_p[x] else 0 for x in order]
    nblocks = len(set(block))
    while True:
        _spend(len(order) * (nl + 1))
        ids: dict[tuple[int, ...], int] = {}
        get = block.__getitem__
        new = [
            ids.setdefault((b, *map(get, row)), len(ids)) for b, row in zip(block, dp, strict=True)
        ]
        if len(ids) == nblocks:
            break
        block, nblocks = new, len(ids)
    return block


def _word_to(
    parent: dict[tuple[int, int], tuple[tuple[int, int], int] | None], pair: tuple[int, int]
) -> list[int]:
    """The letters of the sum that reached *pair* (following *parent* to the start)."""
    word: list[int] = []
    node = parent[pair]
    while node is not None:
        cur, li = node
        word.append(li)
        node = parent[cur]
    return word


class _Automaton:
    """States with commuting actions of the heaps (letters), a P-predicate, and option words.

    ``delta[x][i]`` is the state after adding heap ``letters[i]`` to a sum in state ``x``;
    ``opts[i]`` lists the options of that heap as tuples of letter indices.
    """

    def __init__(
        self,
        delta: list[list[int]],
        is_p: list[bool],
        letters: list[int],
        opts: list[list[tuple[int, ...]]],
        start: int = 0,
    ) -> None:
        self.start = start
        self.delta = delta
        self.is_p = is_p
        self.letters = letters
        self.opts = opts
        self.arr: Any = None  # delta as a numpy array, once the compiled loops need it

    def array(self) -> Any:
        """The transitions as a numpy array (for the compiled loops; made once)."""
        if self.arr is None:
            from nimlab.misere._compiled import array

            self.arr = array(self.delta, len(self.letters))
        return self.arr

    def apply(self, x: int, word: Iterable[int]) -> int:
        d = self.delta
        for li in word:
            x = d[x][li]
        return x

    def verify(
        self, max_pairs: int, add_cache: dict[tuple[int, int], int] | None = None
    ) -> list[int] | None:
        """None when the P-predicate is proved right for every sum; else a failing sum.

        The pairs (state of a sum, states of its options) reachable from the empty sum
        are closed under adding a heap; the check "P iff some option exists and no option
        is P" on all of them proves, by induction on the game, that every sum's state
        carries its misère outcome. A failing pair yields the sum (letter indices) that
        reached it.

        *add_cache* keeps the option states each heap brings to each state between
        proofs of automata that share those (the candidates for one heap differ only in
        the action of that heap, which no option word contains).
        """
        d, is_p, opts = self.delta, self.is_p, self.opts
        pmask = 0
        for x, pp in enumerate(is_p):
            if pp:
                pmask |= 1 << x
        nl = len(self.letters)
        # the states of the options a heap adds, from each state (memoised per state)
        if add_cache is None:
            add_cache = {}
        ocost = [len(o) + sum(len(w) for w in o) for o in opts]

        def added(x: int, li: int) -> int:
            key = (x, li)
            got = add_cache.get(key)
            if got is None:
                _spend(ocost[li])
                got = 0
                for o in opts[li]:
                    got |= 1 << self.apply(x, o)
                add_cache[key] = got
            return got

        start = (self.start, 0)
        parent: dict[tuple[int, int], tuple[tuple[int, int], int] | None] = {start: None}
        queue = deque([start])
        while queue:
            pair = queue.popleft()
            x, tmask = pair
            tbits = []
            m = tmask
            while m:
                low = m & -m
                tbits.append(low.bit_length() - 1)
                m ^= low
            row = d[x]
            _spend(nl * (1 + len(tbits)))
            for li in range(nl):
                x2 = row[li]
                t2 = added(x, li)
                for t in tbits:
                    t2 |= 1 << d[t][li]
                if is_p[x2] != (t2 != 0 and not (t2 & pmask)):
                    word = [li]
                    node = parent[pair]
                    cur = pair
                    while node is not None:
                        cur, l2 = node
                        word.append(l2)
                        node = parent[cur]
                    return word
                nxt = (x2, t2)
                if nxt not in parent:
                    if len(parent) >= max_pairs:
                        raise QuotientTooLargeError(
                            "misère quotient: the proof of a candidate visits more than "
                            f"{max_pairs:,} (class, option classes) pairs; raise max_pairs or "
                            "lower the heap bound"
                        )
                    parent[nxt] = (pair, li)
                    queue.append(nxt)
        return None

    def least_failure(self, weights: Sequence[int], max_pairs: int) -> list[int] | None:
        """Like :meth:`verify`, but the failing sum returned is one of least weight.

        The failures are of two kinds (as in Siegel's MisereSolver). A *P-failure* is a
        P-state with an option in P: the sum ``X + h`` for a state ``x``, a heap ``h``
        with ``x·h`` in P and an option ``h'`` with ``x·h'`` in P; the lightest one is
        the least sum of ``x`` plus ``h``, found by a loop over states and letters. An
        *N-failure* is an N-state whose options miss P: the pairs (state, option states)
        are explored in order of the weight of the sums reaching them (the sum of the
        letters' *weights*, Dijkstra's order) up to the lightest P-failure; a pair whose
        option states contain those of a pair of its state already explored is dropped
        (every sum reached from it has a superset of the options, which cannot miss P
        where the smaller set does not). When every option of a sum weighs less than the
        sum (weights are birthdays), all sums lighter than a least failure are right, so
        its options are, and its true outcome is the opposite of the one this automaton
        gives it: a least failure is a counterexample to learn from.
        """
        if self.is_p[self.start]:
            return []  # the empty sum is a misère N-position
        if _compiled():
            from nimlab.misere._compiled import least_failure

            return least_failure(self.array(), self.is_p, self.start, self.opts, weights, max_pairs)
        added = self._added()
        best = self._least_p_failure(weights, added)
        return self._least_n_failure(weights, added, max_pairs, best)

    def _added(self) -> list[list[int]]:
        """``added[x][li]``: the states of the options heap li brings to a sum in state x."""
        d, opts = self.delta, self.opts
        _spend(len(d) * sum(len(o) + sum(len(w) for w in o) for o in opts))
        out = []
        for x in range(len(d)):
            row = []
            for olist in opts:
                m = 0
                for o in olist:
                    y = x
                    for li in o:
                        y = d[y][li]
                    m |= 1 << y
                row.append(m)
            out.append(row)
        return out

    def _least_sums(self, weights: Sequence[int]) -> tuple[list[int], list[tuple[int, int]]]:
        """Least weight of a sum reaching each state, and (previous state, letter)."""
        d = self.delta
        nl = len(self.letters)
        inf = 1 << 62
        dist = [inf] * len(d)
        back = [(-1, -1)] * len(d)
        dist[self.start] = 0
        hq = [(0, self.start)]
        _spend(len(d) * nl)
        while hq:
            wt, x = heapq.heappop(hq)
            if wt > dist[x]:
                continue
            row = d[x]
            for li in range(nl):
                y, w2 = row[li], wt + weights[li]
                if w2 < dist[y]:
                    dist[y] = w2
                    back[y] = (x, li)
                    heapq.heappush(hq, (w2, y))
        return dist, back

    def _least_p_failure(
        self, weights: Sequence[int], added: list[list[int]]
    ) -> tuple[int, list[int]] | None:
        """The lightest P-state with an option in P: (weight, sum), or None."""
        d, is_p = self.delta, self.is_p
        pmask = sum(1 << x for x, pp in enumerate(is_p) if pp)
        dist, back = self._least_sums(weights)
        best: tuple[int, int, int] | None = None
        for x in range(len(d)):
            if dist[x] >= 1 << 62:
                continue
            row, add = d[x], added[x]
            for li, y in enumerate(row):
                if is_p[y] and add[li] & pmask:
                    w = dist[x] + weights[li]
                    if best is None or w < best[0]:
                        best = (w, x, li)
        if best is None:
            return None
        word = [best[2]]
        x = best[1]
        while x != self.start:
            x, li = back[x]
            word.append(li)
        return best[0], word

    def _least_n_failure(
        self,
        weights: Sequence[int],
        added: list[list[int]],
        max_pairs: int,
        bound: tuple[int, list[int]] | None,
    ) -> list[int] | None:
        """The lightest N-failure lighter than *bound* (a P-failure), else *bound*'s sum."""
        d, is_p = self.delta, self.is_p
        pmask = sum(1 << x for x, pp in enumerate(is_p) if pp)
        # letters acting alike on the states and on the option states: the lightest one
        lightest: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        for li in range(len(self.letters)):
            key = (tuple(row[li] for row in d), tuple(row[li] for row in added))
            if key not in lightest or weights[li] < weights[lightest[key]]:
                lightest[key] = li
        use = sorted(lightest.values())
        nl = len(use)
        image = self._images(use)
        limit = bound[0] if bound is not None else 1 << 62
        start = (self.start, 0)
        parent: dict[tuple[int, int], tuple[tuple[int, int], int] | None] = {start: None}
        dist: dict[tuple[int, int], int] = {start: 0}
        least: list[list[int]] = [[] for _ in d]
        hq: list[tuple[int, int, tuple[int, int]]] = [(0, 0, start)]
        tick = 0
        while hq:
            wt, _, pair = heapq.heappop(hq)
            if wt >= limit:
                break
            x, tmask = pair
            chain = least[x]
            if dist[pair] < wt or any(old & tmask == old for old in chain):
                continue
            _spend(len(chain) + nl)
            chain[:] = [old for old in chain if old & tmask != tmask]
            chain.append(tmask)
            if tmask and not is_p[x] and not tmask & pmask:
                return _word_to(parent, pair)
            img, row, add = image(tmask), d[x], added[x]
            for k, li in enumerate(use):
                y = row[li]
                t2 = add[li] | img[k]
                if any(old & t2 == old for old in least[y]):
                    continue  # a pair of its state no heavier has fewer options
                nxt = (y, t2)
                w2 = wt + weights[li]
                old = dist.get(nxt)
                if old is None or w2 < old:
                    if old is None and len(dist) >= max_pairs:
                        raise QuotientTooLargeError(
                            "misère quotient: the proof of a candidate visits more than "
                            f"{max_pairs:,} (class, option classes) pairs; raise max_pairs or "
                            "lower the heap bound"
                        )
                    dist[nxt] = w2
                    parent[nxt] = (pair, li)
                    tick += 1
                    heapq.heappush(hq, (w2, tick, nxt))
        return None if bound is None else bound[1]

    def _images(self, use: list[int]) -> Callable[[int], list[int]]:
        """``image``: a set of option states' images under each letter of *use*, memoised."""
        d = self.delta
        nl = len(use)
        images: dict[int, list[int]] = {0: [0] * nl}
        rows: list[list[int] | None] = [None] * len(d)  # state -> its letters' targets, as bits

        def image(tmask: int) -> list[int]:
            got = images.get(tmask)
            if got is None:
                _spend(nl * tmask.bit_count())
                got = [0] * nl
                m = tmask
                while m:
                    low = m & -m
                    t = low.bit_length() - 1
                    m ^= low
                    bits = rows[t]
                    if bits is None:
                        row = d[t]
                        bits = rows[t] = [1 << row[li] for li in use]
                    got = [a | b for a, b in zip(got, bits, strict=True)]
                images[tmask] = got
            return got

        return image

    def power_cycle(self, li: int) -> tuple[int, int]:
        """``(index, period)`` of the powers of letter *li* from the start."""
        seen: dict[int, int] = {}
        x, k = self.start, 0
        while x not in seen:
            seen[x] = k
            x = self.delta[x][li]
            k += 1
        return seen[x], k - seen[x]

    def minimize(self) -> tuple[_Automaton, list[int]]:
        """The minimal automaton (states reached from the start, indistinguishable merged).

        Two states are merged when adding any sum leads both to P or both to N
        (automaton minimisation by partition refinement). The minimal automaton passes
        :meth:`verify` exactly when this one does: on every sum it gives the same
        P-membership to the sum and to its options. Also returns state -> new state (-1
        for unreached states); the start becomes state 0.
        """
        d = self.delta
        nl = len(self.letters)
        size = len(d)
        reach = [False] * size
        reach[self.start] = True
        order = [self.start]
        for x in order:
            for li in range(nl):
                y = d[x][li]
                if not reach[y]:
                    reach[y] = True
                    order.append(y)
        blocks = _refine(d, self.is_p, order, size)
        block = dict(zip(order, blocks, strict=True))
        ids: dict[int, int] = {}
        for x in order:
            ids.setdefault(block[x], len(ids))
        first: dict[int, int] = {}
        for x in order:
            first.setdefault(ids[block[x]], x)
        n = len(ids)
        rdelta = [[ids[block[d[first[i]][li]]] for li in range(nl)] for i in range(n)]
        rp = [self.is_p[first[i]] for i in range(n)]
        state_map = [ids[block[x]] if reach[x] else -1 for x in range(size)]
        return _Automaton(rdelta, rp, self.letters, self.opts), state_map

    def monoid(self) -> list[list[int]]:
        """Multiplication table of a minimal automaton's states (start = identity 0)."""
        rdelta = self.delta
        nl = len(self.letters)
        n = len(rdelta)
        reps: list[tuple[int, ...] | None] = [None] * n
        hq: list[tuple[tuple[int, int], tuple[int, ...], int]] = [((0, 0), (), 0)]
        while hq:
            _, w, x = heapq.heappop(hq)
            if reps[x] is not None:
                continue
            reps[x] = w
            for li in range(nl):
                y = rdelta[x][li]
                if reps[y] is None:
                    w2 = tuple(sorted((*w, li)))
                    key = (sum(self.letters[v] for v in w2), -len(w2))
                    heapq.heappush(hq, (key, w2, y))
        mul = []
        for x in range(n):
            row = []
            for y in range(n):
                z = x
                for li in reps[y] or ():
                    z = rdelta[z][li]
                row.append(z)
            mul.append(row)
        return mul
