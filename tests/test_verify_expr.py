"""The expression language: safe parsing, exact Python ints, numpy equivalence."""

from __future__ import annotations

import random

import numpy as np
import pytest

from nimlab.core.errors import InvalidParameterError
from nimlab.formulas.delete import tail as tail_ref
from nimlab.formulas.delete import v2 as v2_ref
from nimlab.formulas.nimmul import nimmul as nimmul_ref
from nimlab.verification.expr import parse_expression


@pytest.mark.parametrize(
    "src",
    [
        "__import__('os')",
        "__import__('os').system('true')",
        "a.real",
        "a.__class__",
        "().__class__.__bases__",
        "open('/etc/passwd')",
        "eval('1')",
        "foo(a)",
        "a[0]",
        "lambda: 1",
        "(lambda x: x)(1)",
        "a ** 2",
        "a / 2",
        "~a",
        "'text'",
        "1.5",
        "[a, b]",
        "{a: b}",
        "q",
        "min",
        "min(a)",
        "v2(a, b)",
        "min(*[a, b])",
        "max(a, key=b)",
        "a; b",
        "import os",
        "",
        "a ==",
        "a := 3",
        "f'{a}'",
    ],
)
def test_refused(src: str) -> None:
    with pytest.raises(InvalidParameterError, match="cannot use expression"):
        parse_expression(src, 3)


def test_values_and_names() -> None:
    f = parse_expression("x ^ y ^ z", 3).function()
    assert f((3, 4, 5)) == 2
    g = parse_expression("min(a, b, c) + max(a, b) - (a << 2) + (c >> 1) % 3", 3).function()
    a, b, c = 7, 9, 13
    assert g((a, b, c)) == min(a, b, c) + max(a, b) - (a << 2) + (c >> 1) % 3
    assert parse_expression("a == b and not c", 3).function()((2, 2, 0)) is True
    assert parse_expression("1 < a <= 3", 1).function()((3,)) is True
    big = 2**200 + 5
    assert parse_expression("a * b + (a ^ b)", 2).function()((big, big)) == big * big
    assert parse_expression("p * ((a // p) ^ (b // p))", 2, {"p": 3}).function()((7, 4)) == 3 * (
        2 ^ 1
    )
    with pytest.raises(InvalidParameterError, match="unknown name 'd'"):
        parse_expression("a + d", 3)


def test_functions_match_reference() -> None:
    rng = random.Random(3)
    for _ in range(200):
        a, b = rng.randrange(1, 5000), rng.randrange(0, 300)
        assert parse_expression("v2(a)", 1).function()((a,)) == v2_ref(a)
        assert parse_expression("tail(a)", 1).function()((b,)) == tail_ref(b)
        assert parse_expression("nimmul(a, b)", 2).function()((a, b)) == nimmul_ref(a, b)


def test_numpy_path_matches_python() -> None:
    rng = np.random.default_rng(5)
    a = rng.integers(0, 1000, 500)
    b = rng.integers(0, 1000, 500)
    exprs = [
        "a ^ b ^ ((a & b) & 1)",
        "3*((a//3)^(b//3)) + (a+b)%3",
        "min(a, b) * 2 - max(a, b) + (a | b)",
        "a == b or (a < 3 and not b)",
        "v2(a + 1) + tail(b)",
        "(a << 3) >> 2",
        "-a + b",
    ]
    for src in exprs:
        e = parse_expression(src, 2)
        fn = e.numpy_function(1000)
        assert fn is not None, src
        got = fn(a, b)
        py = e.function()
        want = [int(py((int(x), int(y)))) for x, y in zip(a, b, strict=True)]
        assert got.tolist() == want, src


def test_numpy_path_refused_when_unsafe() -> None:
    assert parse_expression("a << b", 2).numpy_function(100) is None  # could overflow
    assert parse_expression("a // b", 2).numpy_function(10) is None  # division by zero
    assert parse_expression("a * b * a * b", 2).numpy_function(2**20) is None
    assert parse_expression("nimmul(a, b)", 2).numpy_function(10) is None
