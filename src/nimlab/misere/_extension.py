"""The quick test that a new heap is a conservative extension (Mex Interpolation).

Let ``Q`` be the verified, reduced quotient of the sums of heaps ``< n`` and ``T`` the
classes of the options of heap ``n``. Plambeck and Siegel's *Mex Interpolation
Principle* (Misère quotients for impartial games, 2008; the first test of Siegel's
MisereSolver): heap ``n`` is equivalent to an element ``x`` of ``Q`` when

- ``x`` is a P-class exactly when no class of ``T`` is one;
- every class ``t`` of ``T`` is *mex-compatible* with ``x``: no ``z`` of ``Q`` has both
  ``x·z`` and ``t·z`` in the P-portion (the *meximal set* of ``x``);
- ``T`` contains the option classes ``T_X`` of some non-empty sum ``X`` of class ``x``.

(A sum ``G + Y`` then plays as ``X + Y``: the moves of ``X`` are among those of ``G``,
and the extra ones never reach a P-position where ``X + Y`` is one.) The sets ``T_X``
that matter are the least ones: for each ``x`` an antichain of the option-class sets of
the sums of class ``x``, found once per quotient by exploring (class, option classes)
pairs from the empty sum and dropping a pair whose set contains one already seen for
its class (every sum reached from it has a superset of options). With these, deciding
a new heap costs its options plus a few set comparisons per element: the same at heap
120 as at heap 30, where the quotient is stable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["Interpolation"]


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Interpolation:
    """Meximal sets and least option-class sets of one quotient (its heaps ``< n``).

    *mul* is the quotient's table, *is_p* its P-portion, *letters* one
    ``(class of the heap, option classes as a bit mask)`` per heap with options;
    *spend* counts the steps of work.
    """

    def __init__(
        self,
        mul: Sequence[Sequence[int]],
        is_p: Sequence[bool],
        letters: Sequence[tuple[int, int]],
        spend: Callable[[int], None],
    ) -> None:
        self.mul = mul
        self.is_p = is_p
        self.spend = spend
        self.meximal: dict[int, int] = {}
        self.least = self._least_option_sets(_useful(letters))

    def _least_option_sets(self, letters: list[tuple[int, int]]) -> list[list[int]]:
        """For each class, the antichain of least option-class sets of non-empty sums."""
        mul = self.mul
        size = len(mul)
        least: list[list[int]] = [[] for _ in range(size)]
        # (class of a sum, its option classes); the empty sum is not recorded
        stack = [(0, 0)]
        images: dict[int, list[int]] = {}
        gens = [g for g, _ in letters]
        opts = [_bits(gmask) for _, gmask in letters]
        nl = len(gens)
        # per class: the class after each letter, and the classes its options add
        steps: list[list[tuple[int, int]] | None] = [None] * size
        while stack:
            x, tmask = stack.pop()
            xs = steps[x]
            if xs is None:
                row = mul[x]
                xs = steps[x] = [(row[g], _mask(row, o)) for g, o in zip(gens, opts, strict=True)]
            imgs = images.get(tmask)
            if imgs is None:
                tb = _bits(tmask)
                self.spend(nl * (1 + len(tb)))
                imgs = [0] * nl
                for t in tb:
                    trow = mul[t]
                    for k, g in enumerate(gens):
                        imgs[k] |= 1 << trow[g]
                images[tmask] = imgs
            self.spend(nl)
            for (y, add), img0 in zip(xs, imgs, strict=True):
                img = img0 | add
                chain = least[y]
                for old in chain:
                    if old & img == old:
                        break
                else:
                    chain[:] = [old for old in chain if old & img != img]
                    chain.append(img)
                    stack.append((y, img))
        return least

    def _meximal(self, x: int) -> int:
        """The classes ``y`` with no ``z`` taking both ``x·z`` and ``y·z`` to P (bit mask)."""
        got = self.meximal.get(x)
        if got is None:
            mul, is_p = self.mul, self.is_p
            size = len(mul)
            self.spend(size * size)
            zs = [z for z in range(size) if is_p[mul[x][z]]]
            got = 0
            for y in range(size):
                if y != x and not any(is_p[mul[y][z]] for z in zs):
                    got |= 1 << y
            self.meximal[x] = got
        return got

    def possible(self, options: int) -> list[int]:
        """The elements a heap whose option classes are *options* (bit mask) can equal:
        of its outcome, and mex-compatible with all its options (both necessary: a
        P-position ``x·z`` of a sum with that heap has no option ``t·z`` in P)."""
        want_p = not any(self.is_p[t] for t in _bits(options))
        return [
            x
            for x in range(len(self.mul))
            if self.is_p[x] == want_p and options & ~self._meximal(x) == 0
        ]

    def element(self, options: int) -> int | None:
        """The class a heap whose option classes are *options* (bit mask) is equal to, or
        None when this test does not decide (then the heap may still be conservative)."""
        want_p = not any(self.is_p[t] for t in _bits(options))
        for x, chain in enumerate(self.least):
            if self.is_p[x] != want_p or not any(old & options == old for old in chain):
                continue
            if options & ~self._meximal(x) == 0:
                return x
        return None


def _mask(row: Sequence[int], classes: list[int]) -> int:
    """The bit mask of the products ``row[t]`` of the *classes* ``t``."""
    m = 0
    for t in classes:
        m |= 1 << row[t]
    return m


def _useful(letters: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The letters whose option sets are least among the heaps of their class (a heap of
    the same class with a superset of options only leads to supersets of sets seen)."""
    by_class: dict[int, list[int]] = {}
    for g, gmask in letters:
        chain = by_class.setdefault(g, [])
        if any(old & gmask == old for old in chain):
            continue
        chain[:] = [old for old in chain if old & gmask != gmask]
        chain.append(gmask)
    return [(g, m) for g, chain in sorted(by_class.items()) for m in sorted(chain)]
