"""Take-and-break games in the notation of CGSuite (``game.heap.TakeAndBreak``).

A code ``d0.d1d2d3…`` has one *digit* ``d_j`` per number ``j`` of tokens a move removes
from one heap; the rest of the heap is split into ``i`` nonempty heaps when bit ``i`` of
``d_j`` is set (bit 0: nothing is left, the move takes a whole heap of ``j``; bit 1: one
heap; bit 2: two heaps; bit 3: three heaps, …). Beyond octal and hexadecimal codes,
CGSuite's notation has:

- digits ``0-9``, ``A-Z`` (``a-z``) for 0 to 35, so ``0.3F`` (take one token leaving one
  heap, or take two leaving zero to three heaps) and ``0.G`` (take one, leave four heaps);
- braces listing the numbers of heaps: ``0.{2,3}`` (= ``0.C``), ``0.{2+}`` (two or more
  heaps), ``*`` for ``{0+}`` (any number of heaps, none included);
- modifiers after a digit, a brace or a number in braces: ``!`` the heaps are pairwise
  unequal, ``?`` they are not all equal, ``=`` they are all equal (Grundy's game is
  ``4!.0``; ``{2+}=.0`` splits a heap into two or more equal heaps);
- a repeating tail in brackets: ``0.[3]`` is ``0.333…`` (Nim), ``0.7[03]`` is
  ``0.70303…``;
- digits before the point for moves that take no token (``d0``) or add tokens
  (``d_{-1}`` before it: ``80.0`` adds a token and splits the heap into three). A game must
  end, so a move that takes no token must split the heap into two or more, and one that
  adds ``k`` tokens into ``k + 2`` or more heaps.

A code that only uses digits 0-f, ``!`` on digits that split into at most two heaps, no
repeating tail and no digit before ``d0`` is an octal or hexadecimal code: its sequence
runs on the compiled rare-value engine and its periods are proved by the Guy–Smith
theorem (:meth:`TakeBreakCode.octal_code`). Every other code is played and searched from
its moves (each heap's options enumerated from the code).

References
----------
A. N. Siegel, CGSuite, class ``game.heap.TakeAndBreak`` (its documentation and the tests
``TBCodeTest``, ``GameHeapTest`` give the examples of tests/test_tbcode.py). Winning Ways,
ch. 4.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from nimlab.catalog.registry import register
from nimlab.core.errors import InvalidParameterError, WorkTooLargeError
from nimlab.core.kernels import OctalKernel, OneHeapKernel
from nimlab.core.params import Param
from nimlab.core.ruleset import SplitHeapRuleset

__all__ = ["Clause", "TBCode", "TakeBreakCode", "parse_tb_code"]

#: Most options of one heap (a code such as ``0.*`` has as many as partitions of the heap).
MAX_HEAP_OPTIONS = 1_000_000
#: Most characters of a code.
MAX_CODE_LENGTH = 400

_ITEM = re.compile(r"\*|[0-9A-Za-z]|\{[^{}\[\]]*\}")
_CLAUSE = re.compile(r"^(\d{1,4})([!?=]?)(\+?)([!?=]?)$")


@dataclass(frozen=True)
class Clause:
    """A number of heaps a move may leave: ``low`` to ``high`` (None: no bound), and a
    modifier (``""``; ``"!"`` pairwise unequal; ``"?"`` not all equal; ``"="`` all equal)."""

    low: int
    high: int | None
    mod: str = ""

    def parts(self, r: int) -> Iterator[tuple[int, ...]]:
        """The ways to leave *r* tokens as this clause's numbers of nonempty heaps (sorted)."""
        top = r if self.high is None else min(self.high, r)
        if self.low == 0 and r == 0:
            yield ()
        for k in range(max(self.low, 1), top + 1):
            if self.mod == "=" and k >= 2:
                if r % k == 0:
                    yield (r // k,) * k
                continue
            step = 1 if self.mod == "!" and k >= 2 else 0
            for p in _partitions(r, k, 1, step):
                if self.mod == "?" and k >= 2 and p[0] == p[-1]:
                    continue
                yield p


def _partitions(r: int, k: int, lo: int, step: int) -> Iterator[tuple[int, ...]]:
    """Nondecreasing (increasing when *step* is 1) *k* parts >= *lo* summing to *r*."""
    if k == 1:
        if r >= lo:
            yield (r,)
        return
    for a in range(lo, r // k + 1):
        for rest in _partitions(r - a, k - 1, a + step, step):
            yield (a, *rest)


Digit = tuple[Clause, ...]


@dataclass(frozen=True)
class TBCode:
    """A parsed take-and-break code: ``digits[i]`` is the digit of the take ``i - before``
    (``before`` digits take a negative number of tokens, that is add tokens), and
    ``cycle`` the digits repeated after the last one (empty: zeros)."""

    digits: tuple[Digit, ...]
    before: int
    cycle: tuple[Digit, ...]

    def rule(self, take: int) -> Digit:
        """The clauses of the take *take* (negative: tokens added)."""
        i = take + self.before
        if i < 0:
            return ()
        if i < len(self.digits):
            return self.digits[i]
        if not self.cycle:
            return ()
        return self.cycle[(i - len(self.digits)) % len(self.cycle)]

    def heap_options(self, h: int) -> Iterator[tuple[int, ...]]:
        """The distinct options of a heap of *h* (sorted heaps; ``()`` leaves nothing)."""
        seen: set[tuple[int, ...]] = set()
        for take in range(-self.before, h + 1):
            for clause in self.rule(take):
                for p in clause.parts(h - take):
                    if p not in seen:
                        seen.add(p)
                        if len(seen) > MAX_HEAP_OPTIONS:
                            raise WorkTooLargeError(
                                f"a heap of {h} has more than {MAX_HEAP_OPTIONS:,} options "
                                "in this take-and-break code: play smaller heaps"
                            )
                        yield p


def _digit_value(ch: str, mod: str) -> Digit:
    d = int(ch, 36)
    return tuple(Clause(i, i, mod) for i in range(d.bit_length()) if d >> i & 1)


def _braces(text: str, mod: str, code: str) -> Digit:
    out = []
    for part in text[1:-1].split(","):
        m = _CLAUSE.match(part.strip())
        if m is None or (m.group(2) and m.group(4)):
            raise _bad(
                code, f"{part.strip()!r} in braces is not a number of heaps like 2, 3! or 2+"
            )
        k = int(m.group(1))
        own = m.group(2) or m.group(4)
        if own and mod and own != mod:
            raise _bad(code, f"{part.strip()!r} has the modifier {own} inside braces marked {mod}")
        out.append(Clause(k, None if m.group(3) else k, own or mod))
    return tuple(out)


def _bad(code: str, why: str) -> InvalidParameterError:
    return InvalidParameterError(
        f"take-and-break code {code!r} is not valid: {why}. Write digits 0-9, A-Z (bit i: leave "
        "i heaps), {2,3} or {2+} or * for numbers of heaps, ! ? = after a digit (heaps "
        "unequal, not all equal, equal), a repeating tail in [ ], for example 0.77, 4!.0, "
        "0.{2+}, 0.[3]"
    )


def _items(text: str, code: str) -> list[Digit]:
    out: list[Digit] = []
    i = 0
    while i < len(text):
        m = _ITEM.match(text, i)
        if m is None:
            raise _bad(code, f"unexpected {text[i]!r}")
        i = m.end()
        mod = text[i] if i < len(text) and text[i] in "!?=" else ""
        i += len(mod)
        tok = m.group(0)
        if tok == "*":
            out.append((Clause(0, None, mod),))
        elif tok.startswith("{"):
            out.append(_braces(tok, mod, code))
        else:
            out.append(_digit_value(tok, mod))
    return out


def parse_tb_code(code: str) -> TBCode:
    """Read a take-and-break code of CGSuite's notation.

    Examples
    --------
    >>> c = parse_tb_code("0.7[03]")
    >>> sorted(c.heap_options(7))
    [(), (1, 5), (2,), (2, 4), (3, 3), (4,), (6,)]
    >>> sorted(parse_tb_code("4!.0").heap_options(8))  # Grundy's game
    [(1, 7), (2, 6), (3, 5)]
    >>> parse_tb_code("0.3[")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: take-and-break code '0.3[' is not valid: unexpected '['. Write digits 0-9, A-Z (bit i: leave i heaps), {2,3} or {2+} or * for numbers of heaps, ! ? = after a digit (heaps unequal, not all equal, equal), a repeating tail in [ ], for example 0.77, 4!.0, 0.{2+}, 0.[3]
    """
    if not isinstance(code, str) or len(code) > MAX_CODE_LENGTH:
        raise InvalidParameterError(
            f"a take-and-break code is text of at most {MAX_CODE_LENGTH} characters, got "
            f"{code!r:.60}"
        )
    return _parse(code)


@functools.lru_cache(maxsize=256)
def _parse(code: str) -> TBCode:
    """:func:`parse_tb_code` (cached: the result is immutable)."""
    text = code.strip()
    head, dot, tail = text.partition(".")
    if not dot:
        raise _bad(code, "it has no point (write 0.77, not 77)")
    cycle_text = ""
    m = re.fullmatch(r"(.*?)\[(.+)\]", tail)
    if m is not None:
        tail, cycle_text = m.group(1), m.group(2)
    pre = _items(head, code) or [()]
    post = _items(tail, code)
    cycle = tuple(_items(cycle_text, code))
    if all(not d for d in cycle):
        cycle = ()
    tb = TBCode(tuple(pre + post), len(pre) - 1, cycle)
    _check_finite(tb, code)
    return tb


def _check_finite(tb: TBCode, code: str) -> None:
    """A move must make every heap smaller: taking ``j <= 0`` tokens, it leaves at least
    ``2 - j`` heaps."""
    for take in range(-tb.before, 1):
        for c in tb.rule(take):
            need = 2 - take
            if take == 0 and c.low == 0 and c.high == 0:
                continue  # "take nothing and leave nothing" moves no heap
            if c.low < need:
                what = "takes no token" if take == 0 else f"adds {-take} token(s)"
                raise _bad(
                    code,
                    f"a move that {what} must leave at least {need} heaps, or the game never ends",
                )


def _octal_digit(d: Digit, first: bool) -> str | None:
    """The octal/hexadecimal digit (with ``!``) of *d*, or None if it has none."""
    value = 0
    two: set[str] = set()  # the modifiers of the two-heap splits
    for c in d:
        if c.high is None or c.high > 3:
            return None
        for k in range(c.low, c.high + 1):
            if (k >= 2 and c.mod == "=") or (k == 3 and c.mod):
                return None
            if k == 2:
                two.add(c.mod)
            if not (first and k == 0):  # taking nothing and leaving nothing is no move
                value |= 1 << k
    unequal = bool(two) and "" not in two  # ! and ? are the same for two heaps
    return format(value, "x") + ("!" if unequal else "")


def octal_of(tb: TBCode) -> str | None:
    """The octal or hexadecimal code of *tb* in the catalog's notation, or None.

    Examples
    --------
    >>> octal_of(parse_tb_code("0.{1,2}")), octal_of(parse_tb_code("04!.0"))
    ('0.6', '4!.0')
    >>> octal_of(parse_tb_code("0.[3]")) is None  # an infinite code: Nim
    True
    """
    if tb.cycle or any(tb.digits[: tb.before]):
        return None
    digits = [_octal_digit(d, i == 0) for i, d in enumerate(tb.digits[tb.before :])]
    if any(d is None for d in digits):
        return None
    text = [d for d in digits if d is not None]
    while len(text) > 1 and text[-1] == "0":
        text.pop()
    return text[0] + "." + ("".join(text[1:]) or "0")


def _read(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise InvalidParameterError(
            f"parameter {name} must be a take-and-break code written as text like '0.{{2+}}', "
            f"got {value!r:.60}"
        )
    parse_tb_code(value)
    return value.strip()


@register
@dataclass(frozen=True)
class TakeBreakCode(SplitHeapRuleset):
    """The take-and-break game of a code in CGSuite's notation.

    Examples
    --------
    >>> from nimlab import game, grundy
    >>> g = game("tbcode", code="0.{2+}")  # take one token, split the rest in two or more
    >>> sorted(g.heap_options(5))
    [(1, 1, 1, 1), (1, 1, 2), (1, 3), (2, 2)]
    >>> [grundy(game("tbcode", code="4!.0"), n) for n in range(10)]  # Grundy's game
    [0, 0, 0, 1, 0, 2, 1, 0, 2, 1]
    """

    code: str = "0.77"

    name = "tbcode"
    aliases = ("cgsuite-code",)
    params = (
        Param(
            "code",
            "the take-and-break code in CGSuite's notation, for example 0.77 (Kayles), 4!.0 "
            "(Grundy's game), 0.{2+}, {2+}=.0, 0.[3] (Nim)",
            parse=lambda name, text: text.strip(),
            convert=_read,
        ),
    )
    summary = (
        "take-and-break game of a code in CGSuite's notation (hexadecimal digits, {2+}, "
        "! ? = modifiers, [repeating] tails)"
    )
    min_heaps = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", _read("code", self.code))

    @property
    def parsed(self) -> TBCode:
        """The parsed code."""
        return parse_tb_code(self.code)

    def octal_code(self) -> str | None:
        """The octal/hexadecimal code of the same game, if it has one (then the compiled
        engine and the Guy–Smith theorem apply)."""
        return octal_of(self.parsed)

    def heap_options(self, h: int) -> Iterator[tuple[int, ...]]:
        """The heaps a heap of *h* may become (sorted; ``()`` when nothing is left)."""
        return self.parsed.heap_options(h)

    def sequence_kernel(self) -> OneHeapKernel | None:
        """The octal engine when the code is an octal or hexadecimal code."""
        octal = self.octal_code()
        return OctalKernel(octal) if octal is not None else None

    def periodicity_proof(
        self, values: Sequence[int], preperiod: int, period: int, saltus: int
    ) -> tuple[bool, str, int] | None:
        """The Guy–Smith theorem of the equivalent octal code, if any."""
        from nimlab.catalog.octal import Octal

        octal = self.octal_code()
        if octal is None:
            return None
        return Octal(octal).periodicity_proof(values, preperiod, period, saltus)

    def spec(self) -> str:
        """The command-line spelling, such as ``tbcode:0.{2+}``."""
        return "tbcode:" + self.code
