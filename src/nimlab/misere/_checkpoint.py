"""Long misère-quotient runs: the progress report and the checkpoint file (data: the
quotient of the heaps done, proved again when it is read; internal to
:mod:`nimlab.misere.quotient`)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nimlab._progress import Progress
from nimlab.core.errors import InvalidParameterError
from nimlab.core.ruleset import Ruleset
from nimlab.misere._automaton import _Automaton
from nimlab.misere._work import Word, _heap_option_words, _Quotient, _Work

_CHECKPOINT_FORMAT = "nimlab misère quotient checkpoint 1"


def _reporter(bar: Progress, work: _Work | None = None) -> Callable[[int, int, int], None]:
    """Report heaps done, the current order, the recalibration under way and the steps
    spent of the work budget on *bar*."""

    last = [bar.done, 1, 0]

    def report(heap: int, order: int, rounds: int) -> None:
        last[:] = [heap, order, rounds]
        state = f"recalibration {rounds}" if rounds else "heap done"
        steps = "" if work is None else f", {work.spent:,} of {work.budget:,} steps"
        bar.update(heap, f"order {order:,}, {state}{steps}")

    if work is not None:  # redrawn with the steps spent while a heap is being proved
        work.tick = lambda: report(last[0], last[1], last[2])

    return report


def _save_checkpoint(game: Ruleset[Any], path: Path, q: _Quotient) -> None:
    data = {
        "format": _CHECKPOINT_FORMAT,
        "game": game.label(),
        "max_heap": len(q.phi) - 1,
        "mul": q.mul,
        "is_p": q.is_p,
        "phi": q.phi,
    }
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, separators=(",", ":")))
    os.replace(tmp, path)


#: Largest checkpoint file read (a larger one is refused before it is read).
MAX_CHECKPOINT_BYTES = 500_000_000


def _checkpoint_path(checkpoint: object) -> Path:
    """The checkpoint's path: a regular file (or none yet) in an existing folder, no larger
    than :data:`MAX_CHECKPOINT_BYTES`; a device, a pipe or a folder is refused before it is
    read or replaced."""
    from nimlab.core.paths import output_path

    text = str(checkpoint)
    if not text.strip():
        raise InvalidParameterError("the checkpoint file name is empty")
    path = output_path(text, "checkpoint")
    if path.exists() and path.stat().st_size > MAX_CHECKPOINT_BYTES:
        raise InvalidParameterError(
            f"checkpoint {path}: {path.stat().st_size:,} bytes, more than a checkpoint's "
            f"{MAX_CHECKPOINT_BYTES:,}; give another file"
        )
    return path


def _load_checkpoint(game: Ruleset[Any], path: Path, max_heap: int, max_pairs: int) -> _Quotient:
    """The quotient stored in *path*, restricted to heaps ``<= max_heap`` and proved again."""

    def bad(why: str) -> InvalidParameterError:
        return InvalidParameterError(f"checkpoint {path}: {why}")

    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise bad(f"cannot be read as JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != _CHECKPOINT_FORMAT:
        raise bad("is not a nimlab misère-quotient checkpoint")
    if data.get("game") != game.label():
        raise bad(f"holds a quotient of {data.get('game')}, not of {game.label()}")
    mul: Any = data.get("mul")
    is_p: Any = data.get("is_p")
    phi: Any = data.get("phi")
    size = len(mul) if isinstance(mul, list) else 0
    if not (
        size
        and all(
            isinstance(r, list)
            and len(r) == size
            and all(type(v) is int and 0 <= v < size for v in r)
            for r in mul
        )
        and isinstance(is_p, list)
        and len(is_p) == size
        and all(type(v) is bool for v in is_p)
        and isinstance(phi, list)
        and phi
        and all(type(v) is int and 0 <= v < size for v in phi)
    ):
        raise bad("is damaged (tables of the wrong shape)")
    n = min(len(phi) - 1, max_heap)
    heap_opts: list[list[Word]] = [[]]
    for h in range(1, n + 1):
        words = _heap_option_words(game, h)
        heap_opts.append(list(dict.fromkeys(tuple(v for v in w if heap_opts[v]) for w in words)))
    letters = [h for h in range(1, n + 1) if heap_opts[h]]
    lidx = {h: i for i, h in enumerate(letters)}
    lopts = [[tuple(lidx[v] for v in w) for w in heap_opts[h]] for h in letters]
    delta = [[row[phi[h]] for h in letters] for row in mul]
    auto = _Automaton(delta, list(is_p), letters, lopts)
    if auto.verify(max_pairs) is not None:
        raise bad("does not hold a quotient of this game (its proof fails); delete it")
    auto, _ = auto.minimize()
    phi2 = [0] * (n + 1)
    for h in letters:
        phi2[h] = auto.delta[0][lidx[h]]
    return _Quotient(mul=auto.monoid(), is_p=auto.is_p, phi=phi2, heap_opts=heap_opts, gens=[])
