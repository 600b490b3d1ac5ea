"""Helpers the position spaces share (:mod:`nimlab.verification.spaces`,
:mod:`nimlab.verification._totalspaces`): filtering by a game's rules, box membership,
caches that are not pickled."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import fields
from typing import Any

from nimlab.core.errors import InvalidPositionError
from nimlab.core.ruleset import Ruleset


def _accepted(
    game: Ruleset[Any] | None, positions: Iterable[tuple[int, ...]]
) -> Iterator[tuple[int, ...]]:
    """*positions* without the tuples *game* refuses (``validate``); all when game is None."""
    for t in positions:
        if game is not None:
            try:
                game.validate(t)
            except InvalidPositionError:
                continue
        yield t


def _in_box(position: Any, n_heaps: int, low: int, bound: int) -> bool:
    """Whether *position* is a tuple of *n_heaps* heaps in ``[low, bound)``."""
    return (
        type(position) is tuple
        and len(position) == n_heaps
        and (not position or (min(position) >= low and max(position) < bound))
    )


class _CachesNotPickled:
    """For frozen dataclasses whose private fields (``_name``) are dict caches: a pickled
    copy (sent to a worker process) carries the other fields only and starts with empty
    caches."""

    def __getstate__(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name[0] != "_"}  # type: ignore[arg-type]

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)
        for f in fields(self):  # type: ignore[arg-type]
            if f.name[0] == "_":
                object.__setattr__(self, f.name, {})
