"""Safe arithmetic expressions over heap variables, for user conjectures.

An expression such as ``a ^ b ^ ((a & b) & 1)`` or ``v2(a) == v2(b)`` is parsed with
:mod:`ast` and checked against a whitelist of node types, operators and names before it
is compiled: no attribute access, no subscripts, no calls except to ``min``, ``max``,
``v2``, ``tail``, ``isqrt``, ``msum`` and ``nimmul``, no names except heap variables and integer game
parameters. Anything else is refused with :class:`~nimlab.core.errors.InvalidParameterError`.

Heaps are ``a, b, c, d, …`` in position order; ``x, y, z`` name the first three heaps
too. Values are Python ints of any size. When the expression provably stays within
64-bit integers on a box of heaps, :meth:`Expression.numpy_function` gives an equivalent
function over numpy arrays (the vectorised path of :mod:`nimlab.verification`).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from nimlab.core.errors import InvalidParameterError
from nimlab.formulas import delete as delete_formulas

__all__ = [
    "FUNCTIONS",
    "Expression",
    "heap_names",
    "isqrt",
    "msum",
    "parse_expression",
    "scalar_source",
    "tail",
    "v2",
]

_BINOPS: dict[type[ast.operator], str] = {
    ast.BitXor: "^",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.LShift: "<<",
    ast.RShift: ">>",
}
_CMPOPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_LETTERS = "abcdefghijklmnopqrstuvw"
_LIMIT = 1 << 62
# An expression nests at most this deep (its syntax tree), so that checking and compiling
# it never exhausts Python's recursion limit.
MAX_DEPTH = 100
# ``x << n`` with n beyond this many bits, or a shift whose result has more bits, is refused
# when it is evaluated (a number of 2**40 bits would fill the memory).
MAX_SHIFT_BITS = 100_000


def _shl(x: int, n: int) -> int:
    """``x << n`` with the size of the result bounded (the ``<<`` of expressions)."""
    if n > MAX_SHIFT_BITS or (n > 0 and x and x.bit_length() + n > MAX_SHIFT_BITS):
        raise InvalidParameterError(
            f"the expression shifts {x.bit_length()}-bit numbers left by {n} bits, beyond the "
            f"{MAX_SHIFT_BITS:,} bits nimlab computes with"
        )
    return x << n


class _SafeShift(ast.NodeTransformer):
    """Rewrite ``x << n`` as ``_shl(x, n)`` (bounded) for evaluation over Python ints."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.LShift):
            return ast.Call(
                func=ast.Name(id="_shl", ctx=ast.Load()), args=[node.left, node.right], keywords=[]
            )
        return node


def v2(n: int) -> int:
    """2-adic valuation: the number of trailing zero bits of a positive integer.

    The expression-language name of :func:`nimlab.formulas.delete.v2`.

    Examples
    --------
    >>> v2(12), v2(1), v2(2**100)
    (2, 0, 100)
    """
    return int(delete_formulas.v2(n))


def tail(n: int) -> int:
    """Number of trailing 1 bits of a non-negative integer (S19 Theorem 11).

    The expression-language name of :func:`nimlab.formulas.delete.tail`.

    Examples
    --------
    >>> tail(3), tail(10), tail(21)
    (2, 0, 1)
    """
    return int(delete_formulas.tail(n))


def nimmul(a: int, b: int) -> int:
    """Nim product of two non-negative integers (:func:`nimlab.formulas.nimmul.nimmul`).

    Examples
    --------
    >>> nimmul(2, 2), nimmul(2, 3), nimmul(4, 4)
    (3, 1, 6)
    """
    from nimlab.formulas.nimmul import nimmul as impl

    return int(impl(a, b))


def msum(m: int, *heaps: int) -> int:
    """Moore's sum ``n1 ⊕_m n2 ⊕_m ...``: the binary digits of the heaps added column by
    column modulo *m*, the column sums read as the digits of a number in base *m* (0 iff
    every column sum is divisible by m: Moore's Nim_k P-positions for m = k + 1; m = 2 is
    the XOR).

    Examples
    --------
    >>> msum(3, 1, 1, 1), msum(3, 1, 1), msum(2, 5, 3) == 5 ^ 3
    (0, 2, True)
    """
    if m < 2:
        raise InvalidParameterError(f"msum takes a modulus >= 2 first, got {m}")
    if any(h < 0 for h in heaps):
        raise InvalidParameterError("msum is defined for heaps >= 0")
    out, place, col = 0, 1, 0
    top = max(heaps, default=0).bit_length()
    while col < top:
        out += (sum((h >> col) & 1 for h in heaps) % m) * place
        place *= m
        col += 1
    return out


def isqrt(n: int) -> int:
    """Integer square root: the largest integer whose square is at most *n* (n >= 0); with it
    ``(n + isqrt(5*n*n)) // 2`` is ``floor(n * golden ratio)``, Wythoff's pairs.

    Examples
    --------
    >>> isqrt(24), isqrt(25), isqrt(5 * 7 * 7)
    (4, 5, 15)
    """
    if n < 0:
        raise InvalidParameterError(f"isqrt is undefined at {n}: isqrt takes an integer >= 0")
    import math

    return math.isqrt(n)


FUNCTIONS: dict[str, Callable[..., int]] = {
    "min": min,
    "max": max,
    "v2": v2,
    "tail": tail,
    "nimmul": nimmul,
    "isqrt": isqrt,
    "msum": msum,
}
_ARITY = {
    "v2": (1, 1),
    "tail": (1, 1),
    "isqrt": (1, 1),
    "msum": (2, 99),
    "nimmul": (2, 2),
    "min": (1, 99),
    "max": (1, 99),
}


def heap_names(n_heaps: int) -> dict[str, int]:
    """Variable name -> heap index for a position of *n_heaps* heaps.

    Examples
    --------
    >>> heap_names(2)
    {'a': 0, 'b': 1, 'x': 0, 'y': 1}
    """
    out = {_LETTERS[i]: i for i in range(min(n_heaps, len(_LETTERS)))}
    for i, n in enumerate("xyz"[: min(n_heaps, 3)]):
        out[n] = i
    return out


def _err(src: str, what: str) -> InvalidParameterError:
    return InvalidParameterError(
        f"cannot use expression {src!r}: {what}. Allowed: heap variables a, b, c, ... "
        "(x, y, z = first three heaps), integers, ^ & | + - * // % << >>, comparisons, "
        "and/or/not, X if COND else Y, min, max, v2, tail, isqrt, msum, nimmul"
    )


@dataclass(frozen=True)
class Expression:
    """A parsed and checked expression (picklable: it keeps only its source text).

    Attributes
    ----------
    source : str
        The text as given.
    n_heaps : int
        Number of heaps of the positions it is evaluated on.
    constants : mapping
        Integer game parameters usable by name (``p`` of Ryuo Nim).
    """

    source: str
    n_heaps: int
    constants: tuple[tuple[str, int], ...] = ()
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __getstate__(self) -> dict[str, Any]:
        return {"source": self.source, "n_heaps": self.n_heaps, "constants": self.constants}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)
        object.__setattr__(self, "_cache", {})

    def _tree(self) -> ast.expr:
        tree = self._cache.get("tree")
        if tree is None:
            tree = self._cache["tree"] = _check(
                self.source, heap_names(self.n_heaps), dict(self.constants)
            )
        return tree

    def uses(self) -> set[str]:
        """Function names the expression calls."""
        return {
            n.func.id
            for n in ast.walk(self._tree())
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }

    def function(self) -> Callable[[tuple[int, ...]], Any]:
        """``f(heaps) -> value`` over Python ints.

        Examples
        --------
        >>> e = parse_expression("x ^ y ^ ((x & y) & 1)", 2)
        >>> e.function()((1, 1))
        1
        """
        fn = self._cache.get("py")
        if fn is None:
            fn = self._cache["py"] = _compile(self._tree(), self.n_heaps, dict(self.constants))
        return fn

    def numpy_function(self, bound: int) -> Callable[..., Any] | None:
        """``f(*heap_arrays) -> array`` over int64 numpy arrays, or None.

        None when some value could leave 64-bit range for heaps below *bound*, when a
        division or shift could be undefined, or when a function has no numpy form.
        """
        key = f"np{bound}"
        if key in self._cache:
            return self._cache[key]  # type: ignore[no-any-return]
        fn = None
        tree = self._tree()
        consts = dict(self.constants)
        if "nimmul" not in self.uses() and _interval(tree, bound, consts) is not None:
            fn = _compile_numpy(tree, self.n_heaps, consts)
        self._cache[key] = fn
        return fn


_SCALAR_HELPERS = """
@njit(cache=True)
def v2(x):
    k = 0
    while (x >> k) & 1 == 0:
        k += 1
    return k


@njit(cache=True)
def tail(x):
    k = 0
    while (x >> k) & 1 == 1:
        k += 1
    return k


@njit(cache=True)
def msum(m, *hs):
    top = 0
    for x in hs:
        top = max(top, x)
    out = 0
    place = 1
    col = 0
    while (top >> col) > 0:
        s = 0
        for x in hs:
            s += (x >> col) & 1
        out += (s % m) * place
        place *= m
        col += 1
    return out


@njit(cache=True)
def isqrt(x):
    r = np.int64(np.sqrt(np.float64(x)))
    while r * r > x:
        r -= 1
    while (r + 1) * (r + 1) <= x:
        r += 1
    return r
"""


def scalar_source(expr: Expression, low: int, bound: int) -> str | None:
    """Source of a numba function ``claim(h, table, radix)`` computing *expr* at the heaps
    ``h`` (a tuple of int64 in ``[low, bound)``), with the helpers it calls, or None when
    some value could leave 64-bit range there (then the compiled code would not agree
    with Python's integers) or the expression calls ``nimmul``.

    Examples
    --------
    >>> text = scalar_source(parse_expression("a ^ b if a < b else 0", 2), 0, 8)
    >>> text.splitlines()[-1]
    '    return np.int64(a ^ b if a < b else 0)'
    >>> scalar_source(parse_expression("v2(a)", 1), 0, 8) is None  # v2(0) is undefined
    True
    """
    tree = expr._tree()
    consts = dict(expr.constants)
    if "nimmul" in expr.uses() or _interval(tree, bound, consts, low, scalar=True) is None:
        return None
    names = heap_names(expr.n_heaps)
    used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in names})
    body = [f"    {v} = h[{names[v]}]" for v in used]
    body += [
        f"    {k} = {v}"
        for k, v in consts.items()
        if any(isinstance(n, ast.Name) and n.id == k for n in ast.walk(tree))
    ]
    body.append(f"    return np.int64({ast.unparse(tree)})")
    return "\n".join(
        [
            "import numpy as np",
            _SCALAR_HELPERS,
            "",
            "@njit(cache=True)",
            "def claim(h, table, radix):",
            *body,
            "",
        ]
    )


def parse_expression(
    source: str, n_heaps: int, constants: Mapping[str, int] | None = None
) -> Expression:
    """Parse and check *source* for positions of *n_heaps* heaps.

    Parameters
    ----------
    source : str
        The expression.
    n_heaps : int
        Number of heaps (variables ``a..`` beyond it are unknown).
    constants : mapping, optional
        Integer names usable in the expression (game parameters).

    Examples
    --------
    >>> parse_expression("((a+b+c)-(a^b^c))//2", 3).function()((3, 5, 5))
    5
    >>> parse_expression("__import__('os')", 2)
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidParameterError: cannot use expression "__import__('os')": unknown function '__import__'. Allowed: heap variables a, b, c, ... (x, y, z = first three heaps), integers, ^ & | + - * // % << >>, comparisons, and/or/not, X if COND else Y, min, max, v2, tail, isqrt, msum, nimmul
    """
    consts = tuple(sorted((k, int(v)) for k, v in (constants or {}).items()))
    e = Expression(source, n_heaps, consts)
    e._tree()
    return e


def _check_depth(src: str, tree: ast.expr) -> None:
    """Refuse a tree deeper than :data:`MAX_DEPTH` (counted without recursion)."""
    todo: list[tuple[ast.AST, int]] = [(tree, 1)]
    while todo:
        node, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise _err(
                src[:40] + ("..." if len(src) > 40 else ""),
                f"it is nested more than {MAX_DEPTH} levels deep (a chain of operators counts "
                "one level each); split it with parentheses or simplify it",
            )
        todo.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


def _check(src: str, names: Mapping[str, int], consts: Mapping[str, int]) -> ast.expr:
    if not isinstance(src, str) or not src.strip():
        raise _err(str(src), "the expression is empty")
    if len(src) > 2000:
        raise _err(src[:40] + "...", "the expression is longer than 2000 characters")
    try:
        tree = ast.parse(src.strip(), mode="eval")
    except SyntaxError as exc:
        raise _err(src, f"syntax error ({exc.msg})") from None
    except (RecursionError, MemoryError):
        raise _err(src, f"it is nested more than {MAX_DEPTH} levels deep") from None
    _check_depth(src, tree.body)

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.BinOp):
            if type(node.op) not in _BINOPS:
                raise _err(src, f"operator {type(node.op).__name__} is not allowed")
            visit(node.left)
            visit(node.right)
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, (ast.USub, ast.UAdd, ast.Not)):
                raise _err(src, f"operator {type(node.op).__name__} is not allowed")
            visit(node.operand)
        elif isinstance(node, ast.BoolOp):
            for v in node.values:
                visit(v)
        elif isinstance(node, ast.Compare):
            if not all(isinstance(o, _CMPOPS) for o in node.ops):
                raise _err(src, "only the comparisons == != < <= > >= are allowed")
            visit(node.left)
            for c in node.comparators:
                visit(c)
        elif isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name):
                raise _err(src, "only calls of min, max, v2, tail, isqrt, msum, nimmul are allowed")
            fname = node.func.id
            if fname not in FUNCTIONS:
                raise _err(src, f"unknown function {fname!r}")
            if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
                raise _err(src, f"{fname} takes plain arguments only")
            lo, hi = _ARITY[fname]
            if not lo <= len(node.args) <= hi or (fname in ("min", "max") and len(node.args) < 2):
                raise _err(src, f"wrong number of arguments for {fname}")
            for a in node.args:
                visit(a)
        elif isinstance(node, ast.Name):
            if node.id in FUNCTIONS:
                raise _err(src, f"{node.id} is a function: call it as {node.id}(...)")
            if node.id not in names and node.id not in consts:
                known = ", ".join(sorted(set(names) | set(consts)))
                raise _err(src, f"unknown name {node.id!r} (known here: {known})")
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, int):
                raise _err(src, f"constant {node.value!r} is not an integer")
        elif isinstance(node, ast.IfExp):  # X if COND else Y
            visit(node.test)
            visit(node.body)
            visit(node.orelse)
        else:
            raise _err(src, f"{type(node).__name__} is not allowed")

    visit(tree.body)
    return tree.body


def _lambda_source(
    tree: ast.expr, n_heaps: int, consts: Mapping[str, int]
) -> tuple[ast.Expression, list[str]]:
    names = heap_names(n_heaps)
    used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in names})
    args = ast.arguments(
        posonlyargs=[],
        args=[ast.arg(arg=n) for n in used],
        kwonlyargs=[],
        kw_defaults=[],
        defaults=[],
    )
    lam = ast.Lambda(args=args, body=tree)
    return ast.fix_missing_locations(ast.Expression(body=lam)), used


def _compile(
    tree: ast.expr, n_heaps: int, consts: Mapping[str, int]
) -> Callable[[tuple[int, ...]], Any]:
    import copy

    names = heap_names(n_heaps)
    safe = _SafeShift().visit(copy.deepcopy(tree))
    expr, used = _lambda_source(safe, n_heaps, consts)
    env: dict[str, Any] = {"__builtins__": {}, **FUNCTIONS, **consts, "_shl": _shl}
    # The tree holds only whitelisted nodes (checked by _check): evaluating it is safe.
    lam = eval(compile(expr, "<formula>", "eval"), env)
    idx = [names[n] for n in used]
    if idx == list(range(len(idx))):
        k = len(idx)
        return lambda heaps: lam(*heaps[:k])
    return lambda heaps: lam(*(heaps[i] for i in idx))


class _ToNumpy(ast.NodeTransformer):
    """Rewrite bool operators, chained comparisons and calls into numpy-safe forms."""

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        vals = [self.visit(v) for v in node.values]
        op: ast.operator = ast.BitAnd() if isinstance(node.op, ast.And) else ast.BitOr()
        out = _call("_bool", vals[0])
        for v in vals[1:]:
            out = ast.BinOp(left=out, op=op, right=_call("_bool", v))
        return out

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        operand = self.visit(node.operand)
        if isinstance(node.op, ast.Not):
            return _call("_not", operand)
        return ast.UnaryOp(op=node.op, operand=operand)

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        left = self.visit(node.left)
        comps = [self.visit(c) for c in node.comparators]
        parts: list[ast.expr] = []
        for op, right in zip(node.ops, comps, strict=True):
            parts.append(ast.Compare(left=left, ops=[op], comparators=[right]))
            left = right
        out = parts[0]
        for p in parts[1:]:
            out = ast.BinOp(left=out, op=ast.BitAnd(), right=p)
        return _call("_int", out)

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        args = [
            _call("_bool", self.visit(node.test)),
            self.visit(node.body),
            self.visit(node.orelse),
        ]
        return ast.Call(func=ast.Name(id="_where", ctx=ast.Load()), args=args, keywords=[])

    def visit_Call(self, node: ast.Call) -> ast.AST:
        assert isinstance(node.func, ast.Name)
        args = [self.visit(a) for a in node.args]
        return ast.Call(
            func=ast.Name(id="_np_" + node.func.id, ctx=ast.Load()), args=args, keywords=[]
        )


def _call(name: str, arg: ast.expr) -> ast.expr:
    return ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=[arg], keywords=[])


def _compile_numpy(tree: ast.expr, n_heaps: int, consts: Mapping[str, int]) -> Callable[..., Any]:
    import copy

    import numpy as np

    names = heap_names(n_heaps)
    new = _ToNumpy().visit(copy.deepcopy(tree))
    expr, used = _lambda_source(new, n_heaps, consts)

    def np_v2(v: Any) -> Any:
        v = np.asarray(v, dtype=np.int64)
        if np.any(v <= 0):
            raise InvalidParameterError("v2 is undefined at 0: v2 takes a positive integer")
        return np.bitwise_count((v & -v) - 1).astype(np.int64)

    def np_tail(v: Any) -> Any:
        v = np.asarray(v, dtype=np.int64) + 1
        return np.bitwise_count((v & -v) - 1).astype(np.int64)

    def np_isqrt(v: Any) -> Any:
        v = np.asarray(v, dtype=np.int64)
        if np.any(v < 0):
            raise InvalidParameterError("isqrt is undefined below 0: isqrt takes an integer >= 0")
        r = np.sqrt(v.astype(np.float64)).astype(np.int64)
        r -= r * r > v
        r += (r + 1) * (r + 1) <= v
        return r

    def np_msum(m: Any, *vs: Any) -> Any:
        arrays = [np.asarray(v, dtype=np.int64) for v in vs]
        if any(np.any(v < 0) for v in arrays):
            raise InvalidParameterError("msum is defined for heaps >= 0")
        top = max((int(v.max()) for v in arrays if v.size), default=0).bit_length()
        out = np.zeros(np.broadcast_shapes(*(v.shape for v in arrays)), dtype=np.int64)
        place = 1
        for col in range(top):
            out += (sum((v >> col) & 1 for v in arrays) % int(m)) * place
            place *= int(m)
        return out

    def np_min(*vs: Any) -> Any:
        out = vs[0]
        for v in vs[1:]:
            out = np.minimum(out, v)
        return out

    def np_max(*vs: Any) -> Any:
        out = vs[0]
        for v in vs[1:]:
            out = np.maximum(out, v)
        return out

    env: dict[str, Any] = {
        "__builtins__": {},
        "_bool": lambda v: np.asarray(v) != 0,
        "_not": lambda v: (np.asarray(v) == 0).astype(np.int64),
        "_int": lambda v: np.asarray(v).astype(np.int64),
        "_where": lambda c, x, y: np.where(c, x, y),
        "_np_v2": np_v2,
        "_np_tail": np_tail,
        "_np_isqrt": np_isqrt,
        "_np_msum": np_msum,
        "_np_min": np_min,
        "_np_max": np_max,
        **consts,
    }
    lam = eval(compile(expr, "<formula>", "eval"), env)
    idx = [names[n] for n in used]

    def fn(*heaps: Any) -> Any:
        out = lam(*(heaps[i] for i in idx))
        shape = np.broadcast_shapes(*(np.shape(h) for h in heaps))  # heaps may broadcast
        return np.broadcast_to(np.asarray(out, dtype=np.int64), shape)

    return fn


def _msum_interval(rr: list[tuple[int, int]]) -> tuple[int, int] | None:
    """Bounds of ``msum(m, ...)`` for a constant modulus m >= 2 and heaps >= 0, or None."""
    (m, m_hi), heaps = rr[0], rr[1:]
    if m != m_hi or m < 2 or any(lo < 0 for lo, _ in heaps):
        return None
    top = max((hi for _, hi in heaps), default=0).bit_length()
    hi = m**top - 1
    return None if hi >= _LIMIT else (0, hi)


def _interval(
    node: ast.expr, bound: int, consts: Mapping[str, int], low: int = 0, scalar: bool = False
) -> tuple[int, int] | None:
    """Bounds of the value of *node* for heaps in [low, bound), or None if unsafe for int64
    (*scalar*: also when ``v2`` could see a number < 1 or ``>>`` shift by 64 bits or more,
    which compiled scalar code cannot report as Python does)."""
    return _Bounds(bound, consts, low, scalar).of(node)


@dataclass(frozen=True)
class _Bounds:
    """Interval arithmetic over an expression's tree (see :func:`_interval`)."""

    bound: int
    consts: Mapping[str, int]
    low: int
    scalar: bool

    def of(self, n: ast.expr) -> tuple[int, int] | None:
        go = self.of
        if isinstance(n, ast.IfExp):
            t, x, y = go(n.test), go(n.body), go(n.orelse)
            if t is None or x is None or y is None:
                return None
            return (min(x[0], y[0]), max(x[1], y[1]))
        if isinstance(n, ast.Constant):
            v = n.value
            assert isinstance(v, int)
            return (v, v)
        if isinstance(n, ast.Name):
            if n.id in self.consts:
                return (self.consts[n.id], self.consts[n.id])
            return (self.low, max(self.bound - 1, self.low))
        if isinstance(n, ast.UnaryOp):
            r = go(n.operand)
            if r is None:
                return None
            if isinstance(n.op, ast.USub):
                return (-r[1], -r[0])
            if isinstance(n.op, ast.Not):
                return (0, 1)
            return r
        if isinstance(n, (ast.BoolOp, ast.Compare)):
            subs = n.values if isinstance(n, ast.BoolOp) else [n.left, *n.comparators]
            return (0, 1) if all(go(s) is not None for s in subs) else None
        if isinstance(n, ast.Call):
            assert isinstance(n.func, ast.Name)
            rs = [go(a) for a in n.args]
            if any(r is None for r in rs):
                return None
            return self._call(n.func.id, [r for r in rs if r is not None])
        if isinstance(n, ast.BinOp):
            left, right = go(n.left), go(n.right)
            if left is None or right is None:
                return None
            r = self._binop(n.op, left, right)
            if r is None or abs(r[0]) >= _LIMIT or abs(r[1]) >= _LIMIT:
                return None
            return r
        return None

    def _call(self, func: str, rr: list[tuple[int, int]]) -> tuple[int, int] | None:
        if func == "v2" and self.scalar and rr[0][0] < 1:
            return None
        if func in ("v2", "tail"):
            return (0, 64)
        if func == "isqrt":
            # a negative argument raises in Python and numpy (not in compiled code)
            if (self.scalar and rr[0][0] < 0) or rr[0][1] >= 1 << 52:
                return None
            return (0, math.isqrt(max(rr[0][1], 0)))
        if func == "msum":
            return _msum_interval(rr)
        if func == "min":
            return (min(r[0] for r in rr), min(r[1] for r in rr))
        if func == "max":
            return (max(r[0] for r in rr), max(r[1] for r in rr))
        return None

    def _binop(
        self, op: ast.operator, left: tuple[int, int], right: tuple[int, int]
    ) -> tuple[int, int] | None:
        (a, b), (c, d) = left, right
        if isinstance(op, ast.Add):
            return (a + c, b + d)
        if isinstance(op, ast.Sub):
            return (a - d, b - c)
        if isinstance(op, ast.Mult):
            ps = [a * c, a * d, b * c, b * d]
            return (min(ps), max(ps))
        if isinstance(op, (ast.FloorDiv, ast.Mod)):
            if c <= 0 <= d or c < 0:
                return None
            if isinstance(op, ast.Mod):
                return (0, d - 1)
            return (min(a // c, a // d), max(b // c, b // d))
        if isinstance(op, ast.LShift):
            if c < 0 or d > 62:
                return None
            ps = [a << c, a << d, b << c, b << d]
            return (min(ps), max(ps))
        if isinstance(op, ast.RShift):
            if c < 0 or (self.scalar and d > 63):
                return None
            return (min(a, a >> d), max(b, b >> c)) if a < 0 else (a >> d, b >> c)
        # bitwise
        m = max(abs(a), abs(b), abs(c), abs(d)).bit_length()
        return (0, (1 << m) - 1) if min(a, c) >= 0 else (-(1 << m), (1 << m) - 1)
