"""The catalog games and parameters that ``nimlab warm`` compiles ahead of time.

The compiled kernels of a game are kept on disk per game and number of heaps (see
:mod:`nimlab.engine._diskcache`); the parameters are run-time arguments of the kernels,
so warming a game with the parameters below serves every other value of them (another
subtraction set, another ``k``). ``nimlab warm`` compiles those of the games below, for
the numbers of heaps a user asks for most; any other is compiled on its first use and
kept on disk from then on.
"""

from __future__ import annotations

from typing import Any

__all__ = ["WARM_GAMES", "WARM_HEAPS"]

#: (game name, parameters) compiled by ``nimlab warm``.
WARM_GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("nim", {}),
    ("welter", {}),
    ("wythoff", {}),
    ("lim", {}),
    ("delete-nim", {}),
    ("single-delete", {}),
    ("abo-delete", {}),
    ("subtraction", {"S": (1, 3, 4)}),
    ("allbut", {}),
    ("moore", {"k": 2}),
    ("circular", {"k": 2}),
    ("nimhoff", {"k": 1}),
    ("ryuo", {"p": 3}),
    ("restricted-ryuo", {"p": 3, "q": 2}),
    ("octal", {"code": "0.77"}),
)

#: The numbers of heaps compiled for a game that takes any number of them.
WARM_HEAPS: tuple[int, ...] = (2, 3, 4)
