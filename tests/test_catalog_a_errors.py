"""Bad input to the catalog part A games gives the documented errors."""

from __future__ import annotations

import pytest

from nimlab import game, grundy
from nimlab.core.errors import InvalidParameterError, InvalidPositionError


def test_welter_equal_heaps_are_named() -> None:
    with pytest.raises(InvalidPositionError, match="heaps 2 and 3 are both 4"):
        grundy("welter", (1, 4, 4))
    with pytest.raises(InvalidPositionError, match="0 counts as a heap"):
        game("welter").validate((0, 0))


def test_nimhoff_k0_is_refused_with_the_reason() -> None:
    with pytest.raises(InvalidParameterError, match="fails for k = 0"):
        game("nimhoff", k=0)
    with pytest.raises(InvalidParameterError, match="fails for k = 0"):
        game("nimhoff", k="0")
    with pytest.raises(InvalidParameterError, match="k >= 1"):
        game("nimhoff", k=-2)
    with pytest.raises(InvalidParameterError, match="must be an integer"):
        game("nimhoff", k="two")


def test_circular_k_larger_than_n() -> None:
    g = game("circular", k=4)
    with pytest.raises(InvalidPositionError, match="k=4 consecutive heaps need at least 4"):
        grundy(g, (1, 2, 3))
    with pytest.raises(InvalidParameterError, match="k must be an integer >= 1"):
        game("circular", k=0)
    with pytest.raises(InvalidParameterError, match="needs parameter k"):
        game("circular")


def test_moore_bad_k() -> None:
    with pytest.raises(InvalidParameterError, match="k must be an integer >= 1"):
        game("moore", k=0)
    with pytest.raises(InvalidParameterError, match="integer"):
        game("moore", k=True)


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ([(0, 1)], "coordinate 0, but coordinates start at 1"),
        ([(2, -3)], "coordinate -3, but coordinates start at 1"),
        ([(1, "a")], "coordinates are integers >= 1"),
        ([(1, 2, 3)], "each head is a pair"),
        ([3], "each head is a pair"),
        ([(1, 1), (1, 1)], "listed twice"),
        ("1,1", "a position is a set of heads"),
    ],
)
def test_turtles_bad_positions(position: object, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        grundy("turning-turtles", position)


def test_turtles_bad_cli_tokens() -> None:
    g = game("turning-turtles")
    with pytest.raises(InvalidPositionError, match="write heads as a,b pairs"):
        g.parse_position(["3"])
    with pytest.raises(InvalidPositionError, match="coordinates start at 1"):
        g.parse_position(["0,2"])


def test_lim_needs_three_heaps() -> None:
    with pytest.raises(InvalidPositionError, match="exactly 3 heaps, got 2"):
        grundy("lim", (3, 4))
    with pytest.raises(InvalidPositionError, match="integers >= 0"):
        grundy("lim", (3, -4, 1))
