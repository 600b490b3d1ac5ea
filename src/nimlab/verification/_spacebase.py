"""Helpers the position spaces share (:mod:`nimlab.verification.spaces`,
:mod:`nimlab.verification._totalspaces`): filtering by a game's rules, box membership,
caches that are not pickled."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
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


class _SuccessorChunks(_CachesNotPickled):
    """Spaces whose chunk ``i`` is walked from its first position by the space's
    ``successor``: the chunk table is built once per process (``_build``, cached in the
    ``_chunks`` field), ``start(i)`` reads a row of it."""

    _chunks: dict[str, Any]

    def _build(self) -> list[tuple[int, ...]]:
        """The chunk table, one row per chunk, its last entry the chunk's size."""
        raise NotImplementedError

    def _table(self) -> list[tuple[int, ...]]:
        got: list[tuple[int, ...]] | None = self._chunks.get("c")
        if got is None:
            got = self._chunks["c"] = self._build()
        return got

    @property
    def n_chunks(self) -> int:
        return len(self._table())

    def start(self, i: int) -> tuple[tuple[int, ...], int]:
        """The first position of chunk *i* and its number of positions."""
        raise NotImplementedError

    def successor(self, h: tuple[int, ...]) -> tuple[int, ...]:
        """The position after *h*."""
        raise NotImplementedError

    def chunk(self, i: int) -> Iterator[tuple[int, ...]]:
        h, cnt = self.start(i)
        for _ in range(cnt):
            yield h
            h = self.successor(h)


def _top_chunks(
    n: int, tops: range, low: int, last_first: int, count: Callable[[int, int], int], target: int
) -> list[tuple[int, ...]]:
    """Chunks ``(top, first0, first1, count)`` of the positions of *n* heaps ordered by
    largest heap ``top``, then by first heap ``low .. top - last_first``: *count(a, top)*
    positions have first heap *a*; a chunk holds about *target* positions of one top (one
    heap: tops merged into chunks of *target*)."""
    out: list[tuple[int, ...]] = []
    for top in tops:
        if n == 1:
            out.append((top, top, top + 1, 1))
            continue
        a, cnt, a0 = low, 0, low
        while a <= top - last_first:
            cnt += count(a, top)
            a += 1
            if cnt >= target or a > top - last_first:
                out.append((top, a0, a, cnt))
                a0, cnt = a, 0
    if n == 1:
        step = max(1, target)
        parts = (out[i : i + step] for i in range(0, len(out), step))
        out = [(p[0][0], p[0][1], p[-1][2], len(p)) for p in parts]
    return out
