"""Misère canonical forms of impartial games (Conway, *On Numbers and Games*, ch. 12).

Two impartial games are *misère-equal* when they have the same misère outcome in sum
with every impartial game. Every class has a unique simplest member, its *misère
canonical form*, obtained by simplifying the options and then deleting reversible
moves. In misère play a move from ``G`` to ``G'`` is reversible when ``G'`` has an
option ``G''`` equal to ``G``; since ``G''`` is already canonical, ``G`` then *is*
``G''``. Equality of a canonical form ``X`` with a game ``G`` whose options are
canonical is decided by Conway's criteria (Siegel, *Combinatorial Game Theory*,
§V.1), with the misère care about ends (games without options, the endgame proviso):

* ``X = G`` iff no ``X'`` is linked to ``G``, ``X`` is linked to no ``G'``, and if one
  of them has no options the other is an N-position;
* ``A`` and ``B`` are *linked* (some ``T`` makes ``A + T`` and ``B + T`` both P) iff no
  option of ``A`` equals ``B`` and no option of ``B`` equals ``A``.

Canonical forms live in a :class:`MisereUniverse`, which interns them (equal games get
the same integer id), adds them, and computes their normal and misère Grundy values,
birthdays, genus and phylum (nim heap, tame, restive, tameable, restless, wild). Ids are small
integers; ``0`` is the game ``0`` (no options) and ``1`` is ``*1``.

References
----------
J. H. Conway, *On Numbers and Games*, 2nd ed., ch. 12. E. R. Berlekamp, J. H. Conway,
R. K. Guy, *Winning Ways*, 2nd ed., ch. 13. A. N. Siegel, *Combinatorial Game Theory*,
ch. V. A. N. Siegel, "On the structure of misère impartial games", arXiv:2012.08554.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence

from nimlab.core.errors import SearchTooLargeError
from nimlab.formulas.nim import mex

__all__ = ["DEFAULT_MAX_FORMS", "MisereUniverse", "Phylum"]

DEFAULT_MAX_FORMS = 2_000_000


class Phylum(enum.Enum):
    """How tame a misère canonical form is (Winning Ways ch. 13; ONAG ch. 12).

    ``NIM_HEAP``: the form is a nim heap. ``TAME`` (hereditarily or through reversible
    moves): it behaves like a nim heap in sums with other tame games. ``RESTIVE``:
    normal Grundy value 0 or 1 and misère value >= 2, all options tame (or reverting to
    tame or restive games): an "ambivalent nim heap". ``TAMEABLE`` (Dan Hoey's phylum,
    as in CGSuite): of tame genus and not tame, but its genus is determined beside any
    tame games (its untame options are tameable or revert through tameable options).
    ``RESTLESS``: misère value 0 or 1, normal value >= 2, options tame. ``WILD``:
    anything else.
    """

    NIM_HEAP = "nim heap"
    HEREDITARILY_TAME = "tame"
    REVERSIBLY_TAME = "tame (reversibly)"
    HEREDITARILY_RESTIVE = "restive"
    REVERSIBLY_RESTIVE = "restive (reversibly)"
    TAMEABLE = "tameable"
    RESTLESS = "restless"
    WILD = "wild"

    @property
    def is_tame(self) -> bool:
        """Nim heap, hereditarily tame or reversibly tame."""
        return self in _TAME

    @property
    def is_restive(self) -> bool:
        """Hereditarily or reversibly restive."""
        return self in (Phylum.HEREDITARILY_RESTIVE, Phylum.REVERSIBLY_RESTIVE)

    @property
    def kind(self) -> str:
        """One word: ``nim heap``, ``tame``, ``restive``, ``restless`` or ``wild``."""
        if self is Phylum.NIM_HEAP:
            return "nim heap"
        if self.is_tame:
            return "tame"
        if self.is_restive:
            return "restive"
        return str(self.value)


_TAME = (Phylum.NIM_HEAP, Phylum.HEREDITARILY_TAME, Phylum.REVERSIBLY_TAME)


def _tame_genus(gp: int, gm: int) -> bool:
    return gp == gm or (gp | gm) <= 1


class MisereUniverse:
    """Interned misère canonical forms, their sums and invariants.

    Parameters
    ----------
    max_forms : int
        Budget of distinct canonical forms; creating more raises
        :class:`~nimlab.core.errors.SearchTooLargeError`.

    Examples
    --------
    >>> u = MisereUniverse()
    >>> two = u.nim_heap(2)
    >>> u.text(u.add(two, two)), u.text(u.make([two]))
    ('*[2[2]]', '*[2#]')
    >>> u.add(1, 1)  # *1 + *1 = 0 in misère play
    0
    >>> u.misere_value(u.make([2, 3])), u.grundy(u.make([2, 3]))
    (0, 0)
    """

    def __init__(self, max_forms: int = DEFAULT_MAX_FORMS) -> None:
        self.max_forms = max_forms
        self._options: list[tuple[int, ...]] = []
        self._index: dict[tuple[int, ...], int] = {}
        self._gp: list[int] = []
        self._gm: list[int] = []
        self._birthday: list[int] = []
        self._phylum: list[Phylum] = []
        self._sum: dict[tuple[int, int], int] = {}
        self._eq: dict[tuple[int, tuple[int, ...]], bool] = {}
        self._gamma: dict[int, tuple[int, ...]] = {}
        self._heaps: list[int] = []
        self._intern(())  # 0
        self._intern((0,))  # *1

    # -- construction ---------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._options)

    def _intern(self, opts: tuple[int, ...]) -> int:
        got = self._index.get(opts)
        if got is not None:
            return got
        if len(self._options) >= self.max_forms:
            raise SearchTooLargeError(
                f"misère canonical forms: more than {self.max_forms:,} distinct forms would "
                "be stored; use smaller positions or raise max_forms"
            )
        gid = len(self._options)
        self._options.append(opts)
        self._index[opts] = gid
        self._gp.append(mex(self._gp[o] for o in opts))
        self._gm.append(mex(self._gm[o] for o in opts) if opts else 1)
        self._birthday.append(1 + max((self._birthday[o] for o in opts), default=-1))
        self._phylum.append(self._classify(gid))
        return gid

    def make(self, options: Iterable[int]) -> int:
        """The canonical form of the game whose options are the forms *options*.

        Examples
        --------
        >>> u = MisereUniverse()
        >>> u.make([1]) == 0  # {*1} = 0: the option *1 reverses through 0
        True
        >>> u.make([0, 1, 3]) == u.nim_heap(2) if u.nim_heap(3) else None
        True
        """
        opts = tuple(sorted(set(options)))
        if opts in self._index:
            return self._index[opts]
        gp = mex(self._gp[o] for o in opts)
        gm = mex(self._gm[o] for o in opts) if opts else 1
        for a in opts:
            for b in self._options[a]:
                if self._gp[b] == gp and self._gm[b] == gm and self.equals_game(b, opts):
                    self._index[opts] = b
                    return b
        return self._intern(opts)

    def nim_heap(self, n: int) -> int:
        """The nim heap ``*n``."""
        while len(self._heaps) <= n:
            self._heaps.append(self.make(self._heaps))
        return self._heaps[n]

    def add(self, x: int, y: int) -> int:
        """The canonical form of the sum ``x + y``.

        Examples
        --------
        >>> u = MisereUniverse()
        >>> u.add(u.nim_heap(2), 1) == u.nim_heap(3)
        True
        """
        if x == 0:
            return y
        if y == 0:
            return x
        key = (x, y) if x <= y else (y, x)
        got = self._sum.get(key)
        if got is not None:
            return got
        # iterative: the sums needed first are those of options (smaller birthdays)
        stack = [key]
        while stack:
            a, b = stack[-1]
            missing = []
            opts = []
            for pair in [(ao, b) for ao in self._options[a]] + [(a, bo) for bo in self._options[b]]:
                p, q = pair
                if p == 0 or q == 0:
                    opts.append(q if p == 0 else p)
                    continue
                k = (p, q) if p <= q else (q, p)
                s = self._sum.get(k)
                if s is None:
                    missing.append(k)
                else:
                    opts.append(s)
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            if (a, b) not in self._sum:
                self._sum[(a, b)] = self.make(opts)
        return self._sum[key]

    def add_all(self, forms: Iterable[int]) -> int:
        """The canonical form of the sum of *forms*."""
        total = 0
        for f in forms:
            total = self.add(total, f)
        return total

    # -- equality ------------------------------------------------------------------
    def equals_game(self, x: int, opts: tuple[int, ...]) -> bool:
        """Whether the canonical form *x* equals the game with canonical options *opts*."""
        key = (x, opts)
        got = self._eq.get(key)
        if got is not None:
            return got
        xo = self._options[x]
        if not opts:
            res = x == 0
        elif not xo:
            # G = 0 iff every option of G has 0 as an option and G is an N-position
            res = all(0 in self._options[a] for a in opts) and any(self._gm[a] == 0 for a in opts)
        else:
            xset = set(xo)
            oset = set(opts)
            res = all(a in xset or x in self._options[a] for a in opts) and all(
                xp in oset or any(self.equals_game(xpp, opts) for xpp in self._options[xp])
                for xp in xo
            )
        self._eq[key] = res
        return res

    # -- invariants ----------------------------------------------------------------
    def options(self, x: int) -> tuple[int, ...]:
        """The options of the canonical form *x* (canonical forms themselves)."""
        return self._options[x]

    def grundy(self, x: int) -> int:
        """Normal-play Grundy value ``G+``."""
        return self._gp[x]

    def misere_value(self, x: int) -> int:
        """Misère Grundy value ``G-`` (0 exactly for misère P-positions)."""
        return self._gm[x]

    def birthday(self, x: int) -> int:
        """Height of the game tree of the canonical form."""
        return self._birthday[x]

    def phylum(self, x: int) -> Phylum:
        """Nim heap, tame, restive, tameable, restless or wild."""
        return self._phylum[x]

    def is_nim_heap(self, x: int) -> bool:
        """Whether *x* is a nim heap."""
        return self._phylum[x] is Phylum.NIM_HEAP

    def gammas(self, x: int) -> tuple[int, ...]:
        """The genus superscript ``γ0 γ1 …`` up to where it alternates with period 2.

        ``γk`` is the misère Grundy value of ``x + *2 + … + *2`` (k copies); the tuple
        returned is the shortest prefix (of length >= 2) after which ``γ(k+2) = γk``.
        """
        got = self._gamma.get(x)
        if got is not None:
            return got
        stack = [x]
        while stack:
            g = stack[-1]
            todo = [o for o in self._options[g] if o not in self._gamma]
            if todo:
                stack.extend(todo)
                continue
            stack.pop()
            if g in self._gamma:
                continue
            opts = [self._gamma[o] for o in self._options[g]]
            length = max((len(s) for s in opts), default=2) + 2
            seq: list[int] = []
            for k in range(length):
                excl = {_ext(s, k) for s in opts}
                if k == 0:
                    seq.append(mex(excl) if opts else 1)
                else:
                    excl.add(seq[-1])
                    excl.add(seq[-1] ^ 1)
                    seq.append(mex(excl))
            while len(seq) > 2 and seq[-1] == seq[-3]:
                seq.pop()
            self._gamma[g] = tuple(seq)
        return self._gamma[x]

    # -- classification ------------------------------------------------------------
    def _classify(self, x: int) -> Phylum:
        opts = self._options[x]
        gp, gm = self._gp[x], self._gm[x]
        tame = _tame_genus(gp, gm)
        restive = not tame and gp <= 1
        restless = not tame and gm <= 1
        phyla = [self._phylum[o] for o in opts]
        if all(p is Phylum.NIM_HEAP for p in phyla) and tame and not (gp == gm and gp <= 1):
            return Phylum.NIM_HEAP
        if all(p in (Phylum.NIM_HEAP, Phylum.HEREDITARILY_TAME) for p in phyla):
            if tame:
                return Phylum.HEREDITARILY_TAME
            if restive:
                return Phylum.HEREDITARILY_RESTIVE
        if all(p.is_tame for p in phyla):
            if tame:
                return Phylum.REVERSIBLY_TAME
            if restive:
                return Phylum.REVERSIBLY_RESTIVE
            if restless:
                return Phylum.RESTLESS
            return Phylum.WILD
        if not (tame or restive):
            return Phylum.WILD
        if tame:
            return self._classify_tame_genus(x)
        # some option is untame: each such option must revert to x's values
        for o, p in zip(opts, phyla, strict=True):
            if p.is_tame:
                continue
            found_m = found_p = False
            for r in self._options[o]:
                rp = self._phylum[r]
                if rp.is_tame or rp.is_restive:
                    rgp, rgm = self._gp[r], self._gm[r]
                    found_m |= rgm == gm and (rgp <= 1 or (rgp ^ gm) <= 1)
                    found_p |= rgp == gp and (rgm <= 1 or (rgm ^ gm) <= 1)
            if not (found_m and found_p):
                return Phylum.WILD
        tame_opts = [o for o, p in zip(opts, phyla, strict=True) if p.is_tame]
        if mex(self._gp[o] for o in tame_opts) != gp or mex(self._gm[o] for o in tame_opts) != gm:
            return Phylum.WILD
        return Phylum.REVERSIBLY_RESTIVE

    def _classify_tame_genus(self, x: int) -> Phylum:
        """Reversibly tame, tameable or wild: a game of tame genus with an untame option.

        Reversibly tame: every untame option has options (tame) with both of x's values
        ``g`` and ``γ0``, and the tame options alone have those mexes. Tameable (Hoey):
        where that fails, the untame option is tameable or reverts through tameable
        options with x's values, and the mexes over the tame and tameable options are
        x's values (or x is ``0^1`` with no such option).
        """
        gp, gm = self._gp[x], self._gm[x]
        opts = self._options[x]
        phyla = [self._phylum[o] for o in opts]
        reversible = tameable = True
        for o, p in zip(opts, phyla, strict=True):
            if p.is_tame:
                continue
            found_m = found_p = False
            able_m = able_p = p is Phylum.TAMEABLE
            for r in self._options[o]:
                rp = self._phylum[r]
                if rp.is_tame:
                    found_m |= self._gm[r] == gm
                    found_p |= self._gp[r] == gp
                elif rp is Phylum.TAMEABLE:
                    able_m |= self._gm[r] == gm
                    able_p |= self._gp[r] == gp
            if not (found_m and found_p):
                reversible = False
                tameable = tameable and able_m and able_p
            if not (reversible or tameable):
                return Phylum.WILD
        tame_opts = [o for o, p in zip(opts, phyla, strict=True) if p.is_tame]
        if reversible and (
            mex(self._gp[o] for o in tame_opts) == gp and mex(self._gm[o] for o in tame_opts) == gm
        ):
            return Phylum.REVERSIBLY_TAME
        if tameable:
            seen = [
                o for o, p in zip(opts, phyla, strict=True) if p.is_tame or p is Phylum.TAMEABLE
            ]
            if (mex(self._gp[o] for o in seen) == gp and mex(self._gm[o] for o in seen) == gm) or (
                not seen and gp == 0
            ):
                return Phylum.TAMEABLE
        return Phylum.WILD

    # -- printing ------------------------------------------------------------------
    def text(self, x: int) -> str:
        """A compact printed form in the style of Winning Ways and CGSuite.

        A nim heap is its size (``*[3]``); otherwise the options are written one after
        another inside ``*[…]``, each a nim-heap digit or a parenthesised form, and a
        game whose only option is ``A`` is written ``A#``. A sum of two nim heaps
        ``*a + *b`` with ``a, b >= 2`` is written ``a[b]``.

        Examples
        --------
        >>> u = MisereUniverse()
        >>> u.text(0), u.text(u.nim_heap(4)), u.text(u.make([u.make([2]), 0]))
        ('*[0]', '*[4]', '*[2#0]')
        """
        return "*[" + self._inner(x) + "]"

    def _heap_size(self, x: int) -> int | None:
        return self._gp[x] if self._phylum[x] is Phylum.NIM_HEAP else None

    def _inner(self, x: int) -> str:
        n = self._heap_size(x)
        if n is not None:
            return str(n) if n < 10 else f"({n})"
        pair = self._heap_pair(x)
        if pair is not None:
            return f"{pair[0]}[{pair[1]}]"
        opts = sorted(self._options[x], key=lambda o: (-self._birthday[o], -o))
        if len(opts) == 1:
            return self._atom(opts[0]) + "#"
        return "".join(self._atom(o) for o in opts)

    def _atom(self, x: int) -> str:
        s = self._inner(x)
        if self._heap_size(x) is not None or self._heap_pair(x) is not None:
            return s
        if len(self._options[x]) == 1:
            return s
        return "(" + s + ")"

    def _heap_pair(self, x: int) -> tuple[int, int] | None:
        gp = self._gp[x]
        if self._phylum[x] is Phylum.NIM_HEAP or gp > 64:
            return None
        b = self._birthday[x]
        for a in range(2, b - 1):
            c = b - a
            if c < a:
                break
            if a ^ c == gp and c >= 2 and self.add(self.nim_heap(a), self.nim_heap(c)) == x:
                return (c, a)
        return None


def _ext(seq: Sequence[int], k: int) -> int:
    """The k-th term of a genus superscript that alternates after its stored prefix."""
    if k < len(seq):
        return seq[k]
    n = len(seq)
    return seq[n - 2 + ((k - n) & 1)]
