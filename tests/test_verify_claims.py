"""Claims compiled inside the walk: expressions (with a conditional) as numba scalars,
order-free conjectures over sorted positions, claims from FILE.py:NAME on the command
line, and the one note when a check leaves the compiled path."""

from __future__ import annotations

import dataclasses
import itertools
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")

import numpy as np

import nimlab
import nimlab.verification._claims as claims
import nimlab.verification.runner as runner
from nimlab.catalog.nim import Nim
from nimlab.cli import main
from nimlab.verification.expr import parse_expression, scalar_source
from nimlab.verification.spaces import BoxSpace, SortedBoxSpace

EXPRESSIONS = [
    "a ^ b ^ c",
    "a ^ b if a < b else c % 3",
    "(a + b) // 2 if v2(a) == v2(b) else tail(c)",
    "min(a, b, c) if a == b or b == c else max(a, c) - 1",
    "(a << 3) >> 2 if not a & 1 else a * b - c",
]


@pytest.mark.parametrize("src", EXPRESSIONS)
def test_scalar_expression_agrees_with_python_and_numpy(src: str) -> None:
    e = parse_expression(src, 3)
    assert scalar_source(e, 1, 9) is not None
    claim = claims._expr_claim(e, 1, 9, 3)
    assert claim is not None
    dummy = np.zeros(1, dtype=np.int64)
    np_fn = e.numpy_function(9)
    for t in itertools.product(range(1, 9), repeat=3):
        want = int(e.function()(t))
        got = int(claim(tuple(np.int64(x) for x in t), dummy, dummy))
        assert got == want, (src, t)
        if np_fn is not None:
            assert int(np_fn(*(np.array([x]) for x in t))[0]) == want


def test_conditional_values_and_refusals() -> None:
    e = parse_expression("a if a > b else b - a", 2)
    assert [e.function()(t) for t in ((5, 2), (2, 5))] == [5, 3]
    assert scalar_source(parse_expression("v2(a)", 1), 0, 8) is None  # v2(0) undefined
    assert scalar_source(parse_expression("v2(a)", 1), 1, 8) is not None
    assert scalar_source(parse_expression("a >> b", 2), 0, 100) is None  # shift by >= 64
    assert scalar_source(parse_expression("nimmul(a, b)", 2), 0, 8) is None


@pytest.mark.slow
@dataclasses.dataclass(frozen=True)
class MyNim(Nim):
    """A user's game (defined outside nimlab): Nim's rules and compiled moves."""

    name = "my-nim-test"


def test_order_free_conjectures_run_on_sorted_positions() -> None:
    r = nimlab.verify(MyNim(), "a ^ b ^ c", bound=12, heaps=3, workers=1)
    assert r.ok and r.positions_checked == 364  # C(14, 3) multisets, not 12^3 tuples
    assert "one per multiset" in r.space and r.method == "compiled"
    asym = runner.conjecture_spec(MyNim(), p_set="a ^ b ^ c == 0 and a <= b", bound=8, heaps=3)
    assert isinstance(asym.space, BoxSpace)  # not a claim about multisets: every order
    mine = runner.conjecture_spec(MyNim(), "a ^ b ^ c", bound=8, heaps=3)
    assert isinstance(mine.space, SortedBoxSpace)
    catalog = runner.conjecture_spec("nim", "a ^ b ^ c", bound=8, heaps=3)
    assert isinstance(catalog.space, BoxSpace)  # the catalog's conjectures keep their box


@pytest.mark.slow
def test_a_wrong_conjecture_fails_alike_compiled_and_in_python() -> None:
    kw: dict[str, Any] = {"p_set": "v2(a) == v2(b)", "bound": 12, "heaps": 3, "workers": 1}
    fast = nimlab.verify("single-delete", **kw)
    slow = nimlab.verify("single-delete", compiled=False, **kw)
    assert not fast.ok and not slow.ok and fast.method == "compiled"
    assert fast.counterexample.position == slow.counterexample.position
    assert fast.positions_checked == slow.positions_checked
    pos = fast.counterexample.position
    assert fast.counterexample.actual == (str(nimlab.outcome("single-delete", pos)) == "P")


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.slow
def test_claims_from_a_file_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "my_claims.py"
    f.write_text(
        "def is_p(a, b, c):\n    return (a ^ b ^ c) == 0\n\n\n"
        "def g(a, b, c):\n    return a ^ b ^ c ^ (a & b & c & 1)\n"
    )
    base = ("verify", "--game", "nim", "--heaps", "3", "--bound", "10", "--workers", "1")
    code, out, _ = _cli(capsys, *base, "--p-set", f"{f}:is_p", "--json")
    assert code == 0 and json.loads(out)["result"] == "verified"
    code, out, _ = _cli(capsys, *base, "--claim", f"{f}:g", "--json")
    data = json.loads(out)
    assert code == 1 and data["counterexample"]["position"] == [1, 1, 1]
    code, _, err = _cli(capsys, *base, "--claim", f"{f}:nope")
    assert code == 2 and "defines no function 'nope'" in err and len(err.splitlines()) == 1
    code, _, err = _cli(capsys, *base, "--claim", "a ^ b")
    assert code == 2 and "FILE.py:NAME" in err


def _not_compiled(*h: int) -> bool:
    return len(set(h)) >= 0 and (h[0] ^ h[1] ^ h[2]) == 0  # a set: numba cannot type it


@pytest.mark.slow
def test_a_claim_that_does_not_compile_is_said_once(monkeypatch: Any) -> None:
    monkeypatch.setattr(claims, "TABULATE_SECONDS", 1.0)
    with pytest.warns(RuntimeWarning, match="does not compile with numba") as seen:
        r = nimlab.verify("nim", p_set=_not_compiled, bound=10, heaps=3, workers=1)
    assert r.ok and r.method == "compiled" and len(seen) == 1
    assert "to stay fast" in str(seen[0].message)


def test_the_python_path_is_said_once(monkeypatch: Any) -> None:
    monkeypatch.setattr(runner, "PY_SECONDS_PER_POSITION", 1.0)
    spec = runner.conjecture_spec("nim", "a ^ b ^ c", bound=6, heaps=3, compiled=False)
    with pytest.warns(RuntimeWarning, match="runs in Python"):
        assert runner.run_spec(spec, workers=1).ok
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert runner.run_spec(spec, workers=1).ok  # said once per spec and process
