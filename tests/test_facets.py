"""A game owns its facets: central code asks the game's hooks, never its name."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pytest

import nimlab
from nimlab.core import views
from nimlab.core.kernels import LinesKernel, TableKernel
from nimlab.core.ruleset import HeapRuleset
from nimlab.core.strategy import Construction
from nimlab.core.views import BinaryFigure
from nimlab.engine.tables import has_kernel


@dataclass(frozen=True)
class TakeOneOrTwoFromBoth(HeapRuleset):
    """A user's own two-heap game: Nim plus taking 1 or 2 from both heaps."""

    name = "my-game"
    n_heaps = 2

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        x, y = position
        for v in range(x):
            yield (v, y)
        for v in range(y):
            yield (x, v)
        for t in (1, 2):
            if t <= min(x, y):
                yield (x - t, y - t)


@dataclass(frozen=True)
class WithKernel(TakeOneOrTwoFromBoth):
    """The same game, describing its moves to the compiled engine."""

    def table_kernel(self, shape: tuple[int, ...], kind: str) -> TableKernel | None:
        if len(shape) != 2:
            return None
        return LinesKernel((True, True), (0, 0), ((1, 1), (2, 2)))


def test_user_game_kernel_hook_agrees_with_search() -> None:
    plain, fast = TakeOneOrTwoFromBoth(), WithKernel()
    assert not has_kernel(plain, 2)
    assert has_kernel(fast, 2)
    for kind in ("grundy", "outcome", "misere"):
        a = nimlab.table(plain, (12, 14), kind=kind)
        b = nimlab.table(fast, (12, 14), kind=kind, engine="kernel")
        assert np.array_equal(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)), kind


def test_catalog_kernels_come_from_the_hook() -> None:
    g = nimlab.game("ryuo", p=3)
    spec = g.table_kernel((4, 4), "grundy")
    assert isinstance(spec, LinesKernel)
    assert (1, 1) in spec.offsets
    assert nimlab.game("welter").table_kernel((4, 4), "grundy") is None


def test_no_game_name_comparison_outside_the_catalog() -> None:
    import re
    from pathlib import Path

    root = Path(nimlab.__file__).parent
    pattern = re.compile(r"""(\bname|\.name)\s*(==|!=|in)\s*[("]""")
    found = [
        f"{path.relative_to(root)}:{i}"
        for path in sorted(root.rglob("*.py"))
        if path.relative_to(root).parts[0] != "catalog"
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == []


@dataclass(frozen=True)
class MyNimK(TakeOneOrTwoFromBoth):
    """A user's game declaring the facets of Nim: its binary criterion and Nim_1 play."""

    def binary_figure(self, position: tuple[int, ...]) -> BinaryFigure | None:
        return nimlab.game("nim").binary_figure(position)

    def nimk_equivalent(self, position: tuple[int, ...]) -> int:
        return 1


def test_user_game_gets_view_and_explanation_facets() -> None:
    view = nimlab.render.binary_view(MyNimK(), (3, 5))
    assert view.theorem == "S19-T1"
    e = nimlab.explain(MyNimK(), (3, 5))
    assert e.table is not None and e.table.modulus == 2
    plain = nimlab.explain(TakeOneOrTwoFromBoth(), (3, 5))
    assert plain.table is None


@dataclass(frozen=True)
class WithOwnFigure(TakeOneOrTwoFromBoth):
    """A user's game drawing its own binary view: heaps, their difference mod 3."""

    def binary_figure(self, position: tuple[int, ...]) -> BinaryFigure | None:
        x, y = position
        width = views.width(position)
        d = abs(x - y) % 3
        rows = (
            *views.heap_rows(position, width),
            views.BinaryRow("|x-y| mod 3", views.bits(d, width), str(d), "result"),
        )
        return BinaryFigure((views.BinaryBlock("", rows),), f"difference mod 3 is {d}", None, None)


def test_user_game_draws_its_own_binary_view() -> None:
    view = nimlab.render.binary_view(WithOwnFigure(), (6, 2))
    assert view.rows() == [("n1", "110"), ("n2", "010"), ("|x-y| mod 3", "001")]
    assert view.conclusion == "difference mod 3 is 1" and view.theorem is None
    assert "|x-y| mod 3" in view.render_text() and "<table" in view._repr_html_()
    assert view.to_dict()["blocks"][0]["rows"][2]["role"] == "result"
    # without the hook: the plain nim-sum, labelled as not being the game's criterion
    plain = nimlab.render.binary_view(TakeOneOrTwoFromBoth(), (6, 2))
    assert plain.rows()[-1] == ("⊕", "100")
    assert "not this game's criterion" in plain.conclusion


def _difference_figure(h: tuple[int, ...], k: int) -> BinaryFigure:
    """The heaps and their difference mod k: the view a user's move function asks for."""
    x, y = h
    width = views.width(h)
    d = abs(x - y) % k
    rows = (
        *views.heap_rows(h, width),
        views.BinaryRow(f"|x-y| mod {k}", views.bits(d, width), str(d), "result"),
    )
    return BinaryFigure((views.BinaryBlock("", rows),), f"difference mod {k} is {d}")


@nimlab.heap_game("facet-fn", heaps=2, params={"k": 3}, binary_figure=_difference_figure)
def _facet_fn(h, k):  # type: ignore[no-untyped-def]
    x, y = h
    for v in range(x):
        yield (v, y)
    for v in range(y):
        yield (x, v)


def test_a_move_function_draws_its_own_binary_view(capsys: pytest.CaptureFixture[str]) -> None:
    # heap_game(binary_figure=...) gives a user's function game the facet a catalog game's
    # hook gives, with the game's parameters, through every interface
    view = nimlab.render.binary_view(_facet_fn, (6, 2))
    assert view.rows() == [("n1", "110"), ("n2", "010"), ("|x-y| mod 3", "001")]
    assert view.conclusion == "difference mod 3 is 1" and view.theorem is None
    k5 = nimlab.render.binary_view(nimlab.game("facet-fn", k=5), (6, 2))
    assert k5.rows()[-1] == ("|x-y| mod 5", "100")
    from nimlab.cli import main

    assert main(["binary", "facet-fn", "-p", "k=5", "6", "2"]) == 0
    out = capsys.readouterr().out
    assert "|x-y| mod 5" in out and "difference mod 5 is 4" in out


def test_a_broken_binary_figure_function_is_a_clear_error() -> None:
    def raises(h):  # type: ignore[no-untyped-def]
        raise ZeroDivisionError("oops")

    def not_a_figure(h):  # type: ignore[no-untyped-def]
        return "110"

    for name, fig, message in (
        ("facet-raises", raises, "raised ZeroDivisionError: oops at the position 6 2"),
        ("facet-str", not_a_figure, "gave str at the position 6 2"),
    ):
        g = nimlab.heap_game(name, heaps=2, binary_figure=fig)(lambda h: iter(()))
        with pytest.raises(nimlab.GameDefinitionError, match=message):
            nimlab.render.binary_view(g, (6, 2))
    with pytest.raises(nimlab.InvalidParameterError, match="binary_figure must be a function"):
        nimlab.heap_game("facet-bad", binary_figure=3)  # type: ignore[arg-type]
    # None from the function: the plain nim-sum, labelled as not the game's criterion
    plain = nimlab.heap_game("facet-none", heaps=2, binary_figure=lambda h: None)(
        lambda h: iter(())
    )
    assert "not this game's criterion" in nimlab.render.binary_view(plain, (6, 2)).conclusion


def test_no_family_drawing_code_in_render() -> None:
    """render/ draws what the game's binary_figure hook returns; it names no criterion."""
    import ast
    from pathlib import Path

    tree = ast.parse((Path(nimlab.__file__).parent / "render" / "binary.py").read_text("utf-8"))
    for node in ast.walk(tree):  # docstrings may show examples; the code may not name a family
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            body[0] = ast.Pass()
    text = ast.unparse(tree).lower()
    assert "binary_figure" in text
    for word in ("s19-t", "sh-t", "v2(", "tail(", "welter", "nimhoff", "emperor", "moore"):
        assert word not in text, word


@dataclass(frozen=True)
class Halving(HeapRuleset):
    """A user's one-heap game with its own construction and periodicity theorem."""

    name = "halving"
    n_heaps = 1

    def moves(self, position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        (n,) = position
        for t in (1, 2):
            if t <= n:
                yield (n - t,)

    def strategy(self, position: tuple[int, ...], misere: bool = False) -> Construction | None:
        if misere:
            return None
        (n,) = position
        moves = [] if n % 3 == 0 else [(n - n % 3,)]
        return Construction.listed("take n mod 3", None, moves)

    def periodicity_proof(
        self, values: Sequence[int], preperiod: int, period: int, saltus: int
    ) -> tuple[bool, str, int]:
        return True, "subtraction {1,2}: period 3", 6

    def estimate_moves(self, position: tuple[int, ...]) -> int:
        return 2


def test_user_game_strategy_and_periodicity_hooks() -> None:
    g = Halving()
    assert nimlab.winning_moves(g, (3 * 10**40 + 1,)) == [(3 * 10**40,)]
    assert nimlab.winning_move(g, (7,)) == (6,)
    per = nimlab.periodicity_of(g, 30)
    assert (per.period, per.proved, per.reason) == (3, True, "subtraction {1,2}: period 3")
