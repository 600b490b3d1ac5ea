"""Octal games (take-and-break games) given by their code, as in the literature.

A code ``d0.d1d2d3…`` has one octal digit ``d_k`` per number ``k`` of stones a move
takes from one heap. The bits of ``d_k`` say what the heap may become: bit 1, nothing
(the move takes the whole heap, of exactly ``k`` stones); bit 2, one nonempty heap;
bit 4, two nonempty heaps; and, in hexadecimal codes (digits ``8``–``f``), bit 8, three
nonempty heaps. ``d0`` only has bits 4 and 8 (split a heap without taking). A ``!``
after a digit asks the two heaps of a split to be unequal, so Grundy's game (split a
heap into two unequal heaps) is ``4!.0``. Kayles is ``0.77``, Dawson's Kayles ``0.07``.

Positions are tuples of heaps; a move acts on one heap, so the game is the disjunctive
sum of its heaps and the Grundy value of a position is the XOR of the heaps' values.

References
----------
E. R. Berlekamp, J. H. Conway, R. K. Guy, *Winning Ways*, ch. 4 (octal games, Kayles,
Dawson's Kayles, Grundy's game). A. N. Siegel, *Combinatorial Game Theory*, §IV.2.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from nimlab.catalog.registry import register
from nimlab.core.errors import InvalidParameterError
from nimlab.core.kernels import OctalKernel, OneHeapKernel
from nimlab.core.params import Param
from nimlab.core.ruleset import SplitHeapRuleset

__all__ = ["Octal", "parse_octal_code"]

_CODE = re.compile(r"^([0-9a-fA-F]!?)?\.((?:[0-9a-fA-F]!?)*)$")


@functools.lru_cache(maxsize=256)
def _digits(code: str) -> tuple[tuple[int, bool], ...]:
    """:func:`parse_octal_code`, read once per code (a search asks for the digits at every
    heap it expands: the parse was 15 % of a misère search of 0.07)."""
    return parse_octal_code(code)


def parse_octal_code(code: str) -> tuple[tuple[int, bool], ...]:
    """Read an octal code into ``((d0, unequal0), (d1, unequal1), …)``.

    Trailing zero digits are dropped.

    Examples
    --------
    >>> parse_octal_code("0.77")
    ((0, False), (7, False), (7, False))
    >>> parse_octal_code("4!.0")
    ((4, True),)
    >>> parse_octal_code("0.f")  # hexadecimal: bit 8 leaves three heaps
    ((0, False), (15, False))
    >>> parse_octal_code("0.x")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: octal code '0.x' is not valid: write digits 0-7 (hexadecimal 0-f for three heaps) after a point, each optionally followed by ! (unequal split), for example 0.77 (Kayles), 0.07 (Dawson's Kayles) or 4!.0 (Grundy's game)
    """
    text = code.strip() if isinstance(code, str) else code
    m = _CODE.match(text) if isinstance(text, str) else None
    if m is None:
        raise InvalidParameterError(
            f"octal code {code!r} is not valid: write digits 0-7 (hexadecimal 0-f for three "
            "heaps) after a point, each "
            "optionally followed by ! (unequal split), for example 0.77 (Kayles), 0.07 "
            "(Dawson's Kayles) or 4!.0 (Grundy's game)"
        )
    if not m.group(2):
        raise InvalidParameterError(
            f"octal code {code!r} has no digit after the point: write at least one, for "
            "example 0.77 (Kayles) or 4!.0 (Grundy's game)"
        )
    head = m.group(1) or "0"
    digits = [(int(head[0], 16), head.endswith("!"))]
    for dm in re.finditer(r"([0-9a-fA-F])(!?)", m.group(2)):
        digits.append((int(dm.group(1), 16), dm.group(2) == "!"))
    if digits[0][0] & 3:
        raise InvalidParameterError(
            f"octal code {code!r}: the digit before the point must be 0, 4, 8 or c (4: split a "
            "heap into two without taking, 8: into three); taking no stone and leaving one "
            "heap is no move"
        )
    while len(digits) > 1 and digits[-1][0] == 0:
        digits.pop()
    return tuple(digits)


def _format_code(digits: Sequence[tuple[int, bool]]) -> str:
    def one(d: tuple[int, bool]) -> str:
        return format(d[0], "x") + ("!" if d[1] and d[0] & 4 else "")

    return one(digits[0]) + "." + ("".join(one(d) for d in digits[1:]) or "0")


def _read_code(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise InvalidParameterError(
            f"parameter {name} must be an octal code written as text like '0.77', got {value!r}"
        )
    return _format_code(parse_octal_code(value))


def _parse_code(name: str, text: str) -> str:
    return text.strip()


@register
@dataclass(frozen=True)
class Octal(SplitHeapRuleset):
    """The octal game with code ``code`` (a take-and-break game).

    Examples
    --------
    >>> from nimlab import game, grundy
    >>> kayles = game("octal", code="0.77")
    >>> [grundy(kayles, n) for n in range(12)]
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    >>> sorted(game("octal", code="4!.0").moves((6,)))  # Grundy's game
    [(1, 5), (2, 4)]
    >>> grundy(kayles, (3, 4, 5))  # a sum of heaps: 3 XOR 1 XOR 4
    6
    """

    code: str = "0.77"

    name = "octal"
    aliases = ("octal-game", "take-and-break")
    params = (
        Param(
            "code",
            "the octal code, for example 0.77 (Kayles), 0.07 (Dawson's Kayles), 4!.0 "
            "(Grundy's game)",
            parse=_parse_code,
            convert=_read_code,
        ),
    )
    summary = (
        "take-and-break game of an octal code: remove k stones from one heap, leave 0, 1 or 2 heaps"
    )
    min_heaps = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", _read_code("code", self.code))

    @property
    def digits(self) -> tuple[tuple[int, bool], ...]:
        """The code as ``((d0, unequal0), (d1, unequal1), …)``."""
        return _digits(self.code)

    def heap_options(self, n: int) -> Iterator[tuple[int, ...]]:
        """The heaps a heap of *n* may become: ``()``, ``(a,)``, ``(a, b)`` or ``(a, b, c)``."""
        for k, (d, unequal) in enumerate(self.digits):
            if k > n:
                break
            r = n - k
            if d & 1 and r == 0 and k > 0:
                yield ()
            if d & 2 and r > 0 and k > 0:
                yield (r,)
            if d & 4 and r >= 2:
                for a in range(1, r // 2 + 1):
                    if unequal and 2 * a == r:
                        continue
                    yield (a, r - a)
            if d & 8 and r >= 3:
                for a in range(1, r // 3 + 1):
                    for b in range(a, (r - a) // 2 + 1):
                        yield (a, b, r - a - b)

    def sequence_kernel(self) -> OneHeapKernel:
        """The octal recurrence (rare-value method)."""
        return OctalKernel(str(self.code))

    def periodicity_proof(
        self, values: Sequence[int], preperiod: int, period: int, saltus: int
    ) -> tuple[bool, str, int]:
        """The Guy–Smith theorem: ``G(n+p) = G(n)`` for ``n0 <= n < 2 n0 + p + t`` proves
        the period (``t`` the last digit's index), for codes without ``!`` or three-heap splits.

        Examples
        --------
        >>> Octal("0.77").periodicity_proof([0] * 200, 71, 12, 0)[:2]
        (True, 'Guy–Smith: G(n+12) = G(n) for 71 <= n < 156 (t = 2)')
        """
        n = len(values)
        digits = self.digits
        t = len(digits) - 1
        if any(u and d & 4 for d, u in digits):
            return False, "codes with ! (unequal splits) are outside the Guy–Smith theorem", n
        if any(d & 8 for d, _ in digits):
            return (
                False,
                "hexadecimal codes (three-heap splits) are outside the Guy–Smith theorem",
                n,
            )
        m0 = max(preperiod, 1)
        need = 2 * m0 + 2 * period + t
        if saltus == 0 and n >= need:
            return (
                True,
                f"Guy–Smith: G(n+{period}) = G(n) for {m0} <= n < {2 * m0 + period + t} (t = {t})",
                need,
            )
        return False, f"the Guy–Smith theorem needs {need} terms", need

    def spec(self) -> str:
        """The command-line spelling, such as ``octal:0.77``."""
        return "octal:" + self.code

    def explain_notes(self, position: tuple[int, ...], move: tuple[int, ...] | None) -> list[str]:
        """Each heap's Grundy value (read from the proved period, which residue), their
        XOR, and which heap the move breaks into which heaps.

        Examples
        --------
        >>> notes = Octal("0.77").explain_notes((9, 100), None)  # Kayles
        >>> print(notes[0])  # doctest: +ELLIPSIS
        the heaps are independent games: G(position) = G(9) ⊕ G(100) = 4 ⊕ 1 = 5 ...
        >>> print(notes[1])  # doctest: +ELLIPSIS
        the Grundy sequence of octal(code=0.77) is periodic: G(n + 12) = G(n) for n >= 71 (Guy–Smith: ...)
        >>> print(notes[3])
        heap 100: 100 ≡ 76 (mod 12, from 71), so G(100) = G(76) = 1
        """
        if not isinstance(position, tuple) or not position or max(position) > _EXPLAIN_MAX:
            return []
        heaps = [h for h in position if h > 0]
        table = _octal_values(self.code, max(position + (move or ())))
        values = [table.values[h] for h in heaps]
        total = 0
        for v in values:
            total ^= v
        terms = " ⊕ ".join(f"G({h})" for h in heaps) or "0"
        sums = " ⊕ ".join(map(str, values)) + f" = {total}" if len(values) > 1 else str(total)
        out = [
            f"the heaps are independent games: G(position) = {terms} = {sums} (a heap's "
            "value is the mex of the values of what a move leaves of it)"
        ]
        per = table.period
        if per is not None:
            pre, p = per
            out.append(
                f"the Grundy sequence of {self.label()} is periodic: G(n + {p}) = G(n) for "
                f"n >= {pre} ({table.proof})"
            )
            for h in sorted(set(heaps)):
                if h >= pre + p:  # a heap in the periodic part, beyond its first period
                    base = pre + (h - pre) % p
                    out.append(
                        f"heap {h}: {h} ≡ {base} (mod {p}, from {pre}), "
                        f"so G({h}) = G({base}) = {table.values[h]}"
                    )
                else:
                    out.append(
                        f"heap {h} comes before the repetition (n < {pre + p}): "
                        f"G({h}) = {table.values[h]} by the mex rule"
                    )
        if move is not None:
            before, after = list(heaps), [h for h in move if h > 0]
            for h in list(after):
                if h in before:
                    before.remove(h)
                    after.remove(h)
            if len(before) == 1:
                (h,) = before
                left = " + ".join(map(str, after)) or "nothing"
                gv = 0
                for x in after:
                    gv ^= table.values[x]
                out.append(
                    f"the move plays on heap {h} (G = {table.values[h]}) and leaves {left} "
                    f"(G = {gv}), so the XOR becomes {total ^ table.values[h] ^ gv}"
                )
        return out


#: Largest heap an explanation computes the octal sequence up to (pure Python mex).
_EXPLAIN_MAX = 3000


@dataclass(frozen=True)
class _OctalTable:
    values: tuple[int, ...]
    period: tuple[int, int] | None  # (preperiod, period) proved by Guy–Smith
    proof: str


@functools.lru_cache(maxsize=32)
def _octal_values(code: str, n: int) -> _OctalTable:
    """``G(0..max(n, 400))`` of the octal game *code* by the mex rule, and its period when
    the Guy–Smith theorem proves one from these values."""
    g = Octal(code)
    size = max(n, 400)
    values: list[int] = []
    for h in range(size + 1):
        seen = set()
        for opt in g.heap_options(h):
            v = 0
            for x in opt:
                v ^= values[x]
            seen.add(v)
        m = 0
        while m in seen:
            m += 1
        values.append(m)
    found = None
    proof = ""
    for p in range(1, size // 3):
        pre = size - p
        while pre > 0 and values[pre - 1] == values[pre - 1 + p]:
            pre -= 1
        if pre + p < size:
            ok, why, _ = g.periodicity_proof(values, pre, p, 0)
            if ok:
                found, proof = (pre, p), why
                break
    return _OctalTable(tuple(values), found, proof)
