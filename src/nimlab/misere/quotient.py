"""Misère quotients of heap games (Plambeck 2005; Plambeck and Siegel 2008).

For a heap game (octal or hexadecimal code, subtraction game, any one-heap ruleset whose
positions are sums of heaps) and a heap bound ``N``, let ``A`` be the set of all sums of
heaps of sizes ``<= N``. Two sums ``G``, ``H`` are *indistinguishable* when ``G + X`` and
``H + X`` have the same misère outcome for every ``X`` in ``A``. The classes form a
commutative monoid ``Q`` (the *misère quotient*), with the set ``P`` of classes of
misère P-positions (its *P-portion*) and the *pretending function* heap -> class. Once
``Q`` is known, the misère outcome of any sum of heaps is a product in ``Q``.

Algorithm
---------
Heaps are added one at a time. For heap ``n``, with the quotient ``Q`` of heaps ``< n``
known, each element of ``Q`` is tried as the class of heap ``n``; otherwise ``n`` becomes a
new generator ``x``, and the candidate ``Q × {1, x, x², …}`` (with ``x^(i+p) = x^i`` for a
few small ``i, p``) gets its P-portion from the outcomes of representative sums. A
candidate is accepted only after a *proof* that it gives every sum its right outcome: the
pairs (class of a sum, set of classes of its options) are closed under adding a heap and
finite, and the check "P exactly when some option exists and none is in P" on every pair
reachable from the empty sum proves, by induction on the game, that the candidate's
P-portion is exactly the set of classes of P-positions. The accepted candidate is then
reduced (indistinguishable elements merged, as in the minimisation of an automaton), which
gives the quotient itself. When no candidate of this form passes,
:class:`QuotientNotFoundError` says so (the full algorithm of Plambeck and Siegel's
MisereSolver also refines classes of smaller heaps, which nimlab does not do yet).

References
----------
T. E. Plambeck, "Taming the wild in impartial combinatorial games", INTEGERS 5 (2005)
G05. T. E. Plambeck and A. N. Siegel, "Misère quotients for impartial games", J.
Combin. Theory Ser. A 115 (2008) 593–622.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from nimlab.core.errors import (
    InvalidParameterError,
    InvalidPositionError,
    NimlabError,
    SearchTooLargeError,
)
from nimlab.core.results import Outcome
from nimlab.core.ruleset import HeapRuleset, Ruleset

__all__ = [
    "MisereQuotient",
    "QuotientNotFoundError",
    "QuotientTooLargeError",
    "misere_quotient",
]

DEFAULT_MAX_ORDER = 2000
DEFAULT_MAX_PAIRS = 2_000_000
DEFAULT_MAX_EXPLICIT = 2000
_CYCLES = ((2, 2), (1, 2), (3, 2), (2, 1))
_MAX_ROUNDS = 120
_NAMES = "abcdefghijklmnopqrstuvwxyz"


class QuotientTooLargeError(SearchTooLargeError):
    """The misère quotient (or the proof of a candidate) outgrows its budget."""


class QuotientNotFoundError(NimlabError, RuntimeError):
    """No candidate of the forms nimlab tries passes the proof at some heap."""


Word = tuple[int, ...]


@dataclass
class _Quotient:
    """A verified, reduced quotient of the heaps 0..n (internal working form)."""

    mul: list[list[int]]
    is_p: list[bool]
    phi: list[int]  # heap -> element
    heap_opts: list[list[Word]]  # heap -> option words (heaps with options only)
    rep: list[Word] = field(default_factory=list)  # element -> least representative sum
    gens: list[int] = field(default_factory=list)  # heaps introducing a generator

    @property
    def size(self) -> int:
        return len(self.mul)

    def elem(self, word: Iterable[int]) -> int:
        x = 0
        for h in word:
            x = self.mul[x][self.phi[h]]
        return x


def _word_key(word: Word) -> tuple[int, int]:
    return (sum(word), -len(word))


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

    def apply(self, x: int, word: Iterable[int]) -> int:
        d = self.delta
        for li in word:
            x = d[x][li]
        return x

    def verify(self, max_pairs: int) -> list[int] | None:
        """None when the P-predicate is proved right for every sum; else a failing sum.

        The pairs (state of a sum, states of its options) reachable from the empty sum
        are closed under adding a heap; the check "P iff some option exists and no option
        is P" on all of them proves, by induction on the game, that every sum's state
        carries its misère outcome. A failing pair yields the sum (letter indices) that
        reached it.
        """
        d, is_p, opts = self.delta, self.is_p, self.opts
        pmask = 0
        for x, pp in enumerate(is_p):
            if pp:
                pmask |= 1 << x
        nl = len(self.letters)
        # the states of the options a heap adds, from each state (memoised per state)
        add_cache: dict[tuple[int, int], int] = {}

        def added(x: int, li: int) -> int:
            key = (x, li)
            got = add_cache.get(key)
            if got is None:
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
        block = {x: int(self.is_p[x]) for x in order}
        nblocks = len(set(block.values()))
        while True:
            sig: dict[tuple[int, ...], int] = {}
            new = {}
            for x in order:
                key = (block[x], *(block[d[x][li]] for li in range(nl)))
                new[x] = sig.setdefault(key, len(sig))
            if len(sig) == nblocks:
                break
            block, nblocks = new, len(sig)
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


def _heap_option_words(game: Ruleset[Any], h: int) -> list[Word]:
    words: dict[Word, None] = {}
    for pos in game.moves(game.validate((h,))):
        words[tuple(sorted(x for x in pos if x > 0))] = None
    return list(words)


def _build(
    game: Ruleset[Any], max_heap: int, max_order: int, max_pairs: int, max_explicit: int
) -> _Quotient:
    q = _Quotient(mul=[[0]], is_p=[False], phi=[0], heap_opts=[[]], rep=[()], gens=[])
    for n in range(1, max_heap + 1):
        words = _heap_option_words(game, n)
        if any(h >= n for w in words for h in w):
            raise InvalidParameterError(
                f"{game.label()}: heap {n} has an option with a heap >= {n}; misère quotients "
                "are computed for games whose moves make heaps smaller"
            )
        # heaps without options are the zero game: drop them from option words
        words = list(dict.fromkeys(tuple(h for h in w if q.heap_opts[h]) for w in words))
        q.heap_opts.append(words)
        if not words:
            q.phi.append(0)
            continue
        tn = {q.elem(w) for w in words}
        want_p = not any(q.is_p[t] for t in tn)
        letters = [h for h in range(1, n + 1) if q.heap_opts[h]]
        lidx = {h: i for i, h in enumerate(letters)}
        lopts = [[tuple(lidx[v] for v in w) for w in q.heap_opts[h]] for h in letters]
        found = None
        for x in range(q.size):
            if q.is_p[x] != want_p:
                continue
            phi = [*q.phi, x]
            delta = [[row[phi[h]] for h in letters] for row in q.mul]
            if _Automaton(delta, q.is_p, letters, lopts).verify(max_pairs) is None:
                found = x
                break
        if found is not None:
            q.phi.append(found)
            continue
        q = _extend(q, n, letters, lopts, max_order, max_pairs, max_explicit)
    return q


def _extend(
    q: _Quotient,
    n: int,
    letters: list[int],
    lopts: list[list[tuple[int, ...]]],
    max_order: int,
    max_pairs: int,
    max_explicit: int,
) -> _Quotient:
    """Heap n is a new generator x: candidates Q × {1, x, x², …} refined by explicit sums.

    The base candidate identifies ``x^(i+p)`` with ``x^i``; its P-portion comes from the
    outcomes of least representative sums. When the proof fails, every sub-sum of the
    failing sum becomes a state of its own (its outcome computed from its options), and
    the proof is tried again; a passing candidate is reduced to the quotient.
    """
    size = q.size
    nl = len(letters)
    ln = nl - 1  # heap n is the last letter
    work = 0  # states built, over all candidates for this heap
    for i, p in _CYCLES:
        c = i + p
        if size * c > 4 * max_order:
            raise QuotientTooLargeError(
                f"misère quotient: at heap {n} the candidate would have {size * c:,} elements, "
                f"beyond the budget (max_order={max_order:,}); raise max_order or lower the "
                "heap bound"
            )

        def cnext(j: int, i: int = i, p: int = p) -> int:
            return j + 1 if j + 1 < i + p else i + (j + 1 - i) % p

        bsize = size * c
        base_delta = []
        for x in range(size):
            for j in range(c):
                row = [q.mul[x][q.phi[h]] * c + j for h in letters[:ln]]
                row.append(x * c + cnext(j))
                base_delta.append(row)
        # states (explicit sum w, base class b): heaps join w while w stays explicit
        explicit: list[tuple[int, ...]] = [()]
        widx: dict[tuple[int, ...], int] = {(): 0}
        failed = False
        rounds = 0
        while True:
            rounds += 1
            total = len(explicit) * bsize
            work += total
            if rounds > _MAX_ROUNDS or work > 40 * max_order:
                failed = True
                break
            if total > 12 * max_order:
                failed = True
                break
            delta = []
            for wi, w in enumerate(explicit):
                grow = []
                for li in range(nl):
                    w2 = tuple(sorted((*w, li)))
                    grow.append(widx.get(w2, -1))
                for b in range(bsize):
                    brow = base_delta[b]
                    delta.append(
                        [
                            grow[li] * bsize + b if grow[li] >= 0 else wi * bsize + brow[li]
                            for li in range(nl)
                        ]
                    )
            is_p = _p_from_least_sums(delta, letters, lopts)
            auto, _ = _Automaton(delta, is_p, letters, lopts).minimize()
            fail = auto.verify(max_pairs)
            if fail is None:
                break
            fw = tuple(sorted(fail))
            new = set(_sub_sums(fw)) - set(widx)
            if not new or len(explicit) + len(new) > max_explicit:
                failed = True
                break
            for w in sorted(new, key=lambda w: (len(w), w)):
                widx[w] = len(explicit)
                explicit.append(w)
        if failed:
            continue
        mul, rp = auto.monoid(), auto.is_p
        if len(mul) > max_order:
            raise QuotientTooLargeError(
                f"misère quotient: at heap {n} the quotient has order {len(mul):,}, beyond "
                f"max_order={max_order:,}; raise max_order or lower the heap bound"
            )
        phi = [0] * (n + 1)
        for h in range(1, n + 1):
            if q.heap_opts[h]:
                phi[h] = auto.delta[0][letters.index(h)]
        nq = _Quotient(mul=mul, is_p=rp, phi=phi, heap_opts=q.heap_opts, gens=[*q.gens, n])
        return nq
    raise QuotientNotFoundError(
        f"misère quotient: at heap {n} no candidate passed the proof within the work budget "
        f"(max_explicit={max_explicit:,} explicit sums, max_order={max_order:,}); the quotient "
        "may be much larger here, or need refinements nimlab does not try; raise the budgets "
        "or lower the heap bound"
    )


def _sub_sums(word: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every sub-multiset of a sorted word (as sorted tuples)."""
    counts: dict[int, int] = {}
    for v in word:
        counts[v] = counts.get(v, 0) + 1
    items = sorted(counts.items())
    out = []
    for exps in itertools.product(*(range(c + 1) for _, c in items)):
        out.append(tuple(v for (v, _), e in zip(items, exps, strict=True) for _ in range(e)))
    return out


def _p_from_least_sums(
    delta: list[list[int]], letters: list[int], lopts: list[list[tuple[int, ...]]]
) -> list[bool]:
    """P-membership of each state from the outcome rule on its least representative sum.

    The options of a least sum have smaller keys, and so do the least sums of their
    states: each state is decided after all the states it depends on.
    """
    n = len(delta)
    nl = len(letters)
    least: list[tuple[int, ...] | None] = [None] * n
    hq: list[tuple[int, int, tuple[int, ...], int]] = [(0, 0, (), 0)]
    order = []
    while hq:
        tot, neg, w, x = heapq.heappop(hq)
        if least[x] is not None:
            continue
        least[x] = w
        order.append(x)
        row = delta[x]
        for li in range(nl):
            y = row[li]
            if least[y] is None:
                heapq.heappush(hq, (tot + letters[li], neg - 1, (*w, li), y))
    is_p = [False] * n
    for x in order:
        w = tuple(sorted(least[x] or ()))
        any_opt = False
        p_here = True
        for k, li in enumerate(w):
            if k and w[k - 1] == li:
                continue
            rest = w[:k] + w[k + 1 :]
            for o in lopts[li]:
                any_opt = True
                y = 0
                for v in sorted(rest + o):
                    y = delta[y][v]
                if is_p[y]:
                    p_here = False
                    break
            if not p_here:
                break
        is_p[x] = any_opt and p_here
    return is_p


# -- the public result -------------------------------------------------------------


def _element_names(q: _Quotient) -> tuple[list[tuple[int, ...]], list[int]]:
    """Normal form (exponents over generators) of each element; generator elements."""
    gen_elems = [q.phi[h] for h in q.gens]
    k = len(gen_elems)
    nf: list[tuple[int, ...] | None] = [None] * q.size
    nf[0] = (0,) * k
    frontier = [(0,) * k]
    elem_of = {(0,) * k: 0}
    while frontier:
        nxt: list[tuple[int, ...]] = []
        # graded order: all vectors of degree d before d + 1; within, lexicographic
        cand: dict[tuple[int, ...], int] = {}
        for v in frontier:
            x = elem_of[v]
            for i in range(k):
                w = v[:i] + (v[i] + 1,) + v[i + 1 :]
                if w not in cand:
                    cand[w] = q.mul[x][gen_elems[i]]
        for w in sorted(cand, key=lambda v: tuple(-e for e in v)):
            y = cand[w]
            if nf[y] is None:
                nf[y] = w
                elem_of[w] = y
                nxt.append(w)
        frontier = nxt
    return [v if v is not None else (0,) * k for v in nf], gen_elems


def _name(v: Sequence[int], latex: bool = False) -> str:
    parts = []
    for i, e in enumerate(v):
        if e == 0:
            continue
        s = _NAMES[i] if i < len(_NAMES) else f"x{i}"
        if e > 1:
            s += f"^{{{e}}}" if latex else f"^{e}"
        parts.append(s)
    return "".join(parts) or "1"


@dataclass(frozen=True)
class MisereQuotient:
    """The misère quotient of the sums of heaps ``<= max_heap`` of a heap game.

    Attributes
    ----------
    game : Ruleset
        The rules.
    max_heap : int
        The heap bound.
    order : int
        Number of elements.
    elements : tuple of str
        Element names, words in the generators ``a, b, c, …`` (``1`` is the identity).
    p_portion : tuple of str
        The elements that are classes of misère P-positions.
    generators : tuple of (str, int)
        Each generator's name and the heap that introduced it.
    relations : tuple of (str, str)
        Defining relations ``lhs = rhs`` (with the generators, a presentation).
    pretending : tuple of str
        The class of each heap ``0..max_heap``.

    Examples
    --------
    >>> q = misere_quotient("0.3333", max_heap=3)  # misère Nim, heaps up to 3
    >>> q.order, q.p_portion, q.presentation()
    (6, ('a', 'b^2'), '<a, b | a^2 = 1, b^3 = b>')
    >>> q.pretending
    ('1', 'a', 'b', 'ab')
    >>> q.outcome((2, 2)), q.outcome((1, 2, 2)), q.winning_move((1, 2, 2))
    (<Outcome.P: 'P'>, <Outcome.N: 'N'>, (2, 2))
    """

    game: Ruleset[Any]
    max_heap: int
    order: int
    elements: tuple[str, ...]
    p_portion: tuple[str, ...]
    generators: tuple[tuple[str, int], ...]
    relations: tuple[tuple[str, str], ...]
    pretending: tuple[str, ...]
    _mul: tuple[tuple[int, ...], ...] = field(repr=False)
    _is_p: tuple[bool, ...] = field(repr=False)
    _phi: tuple[int, ...] = field(repr=False)
    _heap_opts: tuple[tuple[Word, ...], ...] = field(repr=False)
    _latex_names: tuple[str, ...] = field(repr=False)

    def presentation(self) -> str:
        """``<a, b | a^2 = 1, b^3 = b>``."""
        gens = ", ".join(g for g, _ in self.generators)
        rels = ", ".join(f"{lhs} = {rhs}" for lhs, rhs in self.relations)
        return f"<{gens} | {rels}>" if rels else f"<{gens}>"

    def element(self, heaps: Iterable[int]) -> str:
        """The class (element name) of a sum of heaps."""
        return self.elements[self._elem(heaps)]

    def _elem(self, heaps: Iterable[int]) -> int:
        x = 0
        for i, h in enumerate(heaps, 1):
            if not isinstance(h, int) or isinstance(h, bool) or h < 0:
                raise InvalidPositionError(f"heap {i} is {h!r}, but heaps must be integers >= 0")
            if h > self.max_heap:
                raise InvalidPositionError(
                    f"heap {i} is {h}, beyond the quotient's heap bound {self.max_heap}; "
                    f"compute the quotient with max_heap >= {h}"
                )
            x = self._mul[x][self._phi[h]]
        return x

    def is_p(self, heaps: Iterable[int]) -> bool:
        """Whether the sum of *heaps* is a misère P-position."""
        return self._is_p[self._elem(heaps)]

    def outcome(self, heaps: Iterable[int] | int) -> Outcome:
        """Misère outcome of the sum of *heaps* (instantly, from the quotient)."""
        hs = (heaps,) if isinstance(heaps, int) else tuple(heaps)
        return Outcome.from_bool(self.is_p(hs))

    def winning_move(self, heaps: Iterable[int]) -> tuple[int, ...] | None:
        """A move to a misère P-position (the sorted heaps after it), or None if P."""
        hs = tuple(sorted(heaps))
        self._elem(hs)
        for i, h in enumerate(hs):
            if i and hs[i - 1] == h:
                continue
            rest = hs[:i] + hs[i + 1 :]
            r = self._elem(rest)
            for o in self._heap_opts[h]:
                x = r
                for k in o:
                    x = self._mul[x][self._phi[k]]
                if self._is_p[x]:
                    return tuple(sorted(rest + o))
        return None

    def period(self) -> tuple[int, int] | None:
        """``(period, preperiod)`` of the pretending function as observed up to max_heap.

        The smallest period ``p`` (then the smallest preperiod) such that heap ``h + p``
        pretends to be heap ``h`` for every observed ``h`` past the preperiod, seen over at
        least two whole periods. It is an observation on heaps ``<= max_heap``, not a proof.
        """
        phi = self._phi
        n = len(phi)
        for p in range(1, n // 2 + 1):
            s = n - p  # phi[h + p] == phi[h] for all s <= h < n - p
            while s > 0 and phi[s - 1 + p] == phi[s - 1]:
                s -= 1
            if n - s >= 2 * p:
                return (p, s)
        return None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        per = self.period()
        return {
            "game": self.game.label(),
            "max_heap": self.max_heap,
            "order": self.order,
            "p_portion": list(self.p_portion),
            "generators": [{"name": g, "heap": h} for g, h in self.generators],
            "relations": [[lhs, rhs] for lhs, rhs in self.relations],
            "presentation": self.presentation(),
            "elements": list(self.elements),
            "pretending": list(self.pretending),
            "period": None
            if per is None
            else {"period": per[0], "preperiod": per[1], "proved": False},
        }

    def latex(self) -> str:
        """The presentation, P-portion and pretending function in LaTeX."""
        gens = ", ".join(g for g, _ in self.generators)
        rels = ", ".join(f"{_to_latex(lhs)} = {_to_latex(rhs)}" for lhs, rhs in self.relations)
        pp = ", ".join(_to_latex(x) for x in self.p_portion)
        lines = [
            f"$\\mathcal{{Q}} = \\langle {gens} \\mid {rels} \\rangle$, "
            f"$|\\mathcal{{Q}}| = {self.order}$, $\\mathcal{{P}} = \\{{{pp}\\}}$",
            "",
            r"\begin{tabular}{rl}",
            r"heap & class \\ \hline",
        ]
        lines += [f"{h} & ${_to_latex(x)}$ \\\\" for h, x in enumerate(self.pretending)]
        lines.append(r"\end{tabular}")
        return "\n".join(lines)


def _to_latex(name: str) -> str:
    import re

    return re.sub(r"\^(\d+)", r"^{\1}", name)


def _relations(
    q: _Quotient, nf: list[tuple[int, ...]], gen_elems: list[int]
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Minimal exponent vectors that are not normal forms, with their normal forms."""
    k = len(gen_elems)
    normal = {v: x for x, v in enumerate(nf)}
    rels = []
    seen: set[tuple[int, ...]] = set()
    for v in sorted(normal, key=lambda v: (sum(v), tuple(-e for e in v))):
        x = normal[v]
        for i in range(k):
            w = v[:i] + (v[i] + 1,) + v[i + 1 :]
            if w in normal or w in seen:
                continue
            # minimal: every w - e_j is a normal form
            if all(w[j] == 0 or (w[:j] + (w[j] - 1,) + w[j + 1 :]) in normal for j in range(k)):
                seen.add(w)
                rels.append((w, nf[q.mul[x][gen_elems[i]]]))
    rels.sort(key=lambda r: (sum(r[0]), tuple(-e for e in r[0])))
    return rels


def _resolve(game: Ruleset[Any] | str) -> Ruleset[Any]:
    if isinstance(game, str):
        from nimlab.catalog.registry import game as lookup

        if game.strip()[:1].isdigit() or game.strip().startswith("."):
            return lookup("octal", code=game)
        return lookup(game)
    return game


def misere_quotient(
    game: Ruleset[Any] | str,
    max_heap: int,
    *,
    max_order: int = DEFAULT_MAX_ORDER,
    max_pairs: int = DEFAULT_MAX_PAIRS,
    max_explicit: int = DEFAULT_MAX_EXPLICIT,
) -> MisereQuotient:
    """The misère quotient of the sums of heaps ``<= max_heap`` of a heap game.

    Parameters
    ----------
    game : Ruleset or str
        A heap game, or an octal/hexadecimal code such as ``"0.77"`` (Kayles).
    max_heap : int
        The heap bound.
    max_order : int
        Largest quotient order computed (QuotientTooLargeError beyond it).
    max_pairs : int
        Budget of the proof of each candidate.

    Examples
    --------
    >>> q = misere_quotient("0.75", max_heap=12)
    >>> q.order, len(q.p_portion), q.order % 2
    (8, 2, 0)
    """
    g = _resolve(game)
    if not isinstance(g, HeapRuleset):
        raise InvalidParameterError(
            f"{g.label()}: misère quotients are computed for heap games (positions are sums "
            "of heaps), such as octal games"
        )
    if not isinstance(max_heap, int) or isinstance(max_heap, bool) or max_heap < 0:
        raise InvalidParameterError(f"max_heap must be an integer >= 0, got {max_heap!r}")
    if g.components((1, 1)) is None:
        raise InvalidParameterError(
            f"{g.label()}: a position of this game is not the sum of its heaps, so it has no "
            "misère quotient of heaps"
        )
    q = _build(g, max_heap, max_order, max_pairs, max_explicit)
    nf, gen_elems = _element_names(q)
    names = tuple(_name(v) for v in nf)
    rels = _relations(q, nf, gen_elems)
    return MisereQuotient(
        game=g,
        max_heap=max_heap,
        order=q.size,
        elements=names,
        p_portion=tuple(
            sorted(
                (names[x] for x in range(q.size) if q.is_p[x]),
                key=lambda s: nf[names.index(s)][::-1],
            )
        ),
        generators=tuple((_NAMES[i] if i < 26 else f"x{i}", h) for i, h in enumerate(q.gens)),
        relations=tuple((_name(lhs), _name(rhs)) for lhs, rhs in rels),
        pretending=tuple(names[x] for x in q.phi),
        _mul=tuple(tuple(r) for r in q.mul),
        _is_p=tuple(q.is_p),
        _phi=tuple(q.phi),
        _heap_opts=tuple(tuple(w) for w in q.heap_opts),
        _latex_names=tuple(_name(v, latex=True) for v in nf),
    )
