"""``reproduce`` as one parallel job: every result in one pool of worker processes.

Each result is checked in one of N worker processes, so all cores check results side by
side instead of one result after the other with its own set-up and pool each time. The
largest results (each at least ``SPLIT_SHARE`` of the job's cost: S18-T8 at the default
bounds, about 13 % of the CPU time of the whole run) are checked as one unit per
instance, so that no single result holds one core to the end. Units start longest first
(by the seconds recorded for each result at its default bound, else by the positions
their checks cover), each on one worker (one thread: nothing is split or merged, no core
is shared by two threads) while other units wait to start; the last ones ask for N
workers (threads for compiled and vectorised checks), so that a large unit left alone at
the end still uses every core. A refuted result starts once its corrected statement has
been checked (its disagreement counts are measured against it), and each finding is
reported as it arrives. On a terminal a display shows every running unit with its time
so far and the chunks of its current check (sent by the workers, at most twice a second
each).

Only the parent process writes what the user sees; the workers write the results store
(when one is given by its path: each check opens it, as several runs share one store)
and return their findings.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["parallel_jobs", "run_parallel"]

# what the forked workers run: (results, bounds, check, run options), set before forking
_JOB: dict[str, Any] = {}


def parallel_jobs(run: dict[str, Any], n_results: int) -> int:
    """How many results run side by side: the workers asked for (default: every core),
    or 1 (one after the other, each on every worker) on a Dask cluster, with a store
    given as an open object (not shared across processes) or for a single result.

    Examples
    --------
    >>> parallel_jobs({"workers": 2}, 5), parallel_jobs({"workers": 2, "dask_local": True}, 5)
    (2, 1)
    """
    from nimlab.verification.store import Store

    if run.get("scheduler") or run.get("dask_local") or isinstance(run.get("store"), Store):
        return 1
    workers = run.get("workers")
    n = workers if isinstance(workers, int) and workers > 0 else (os.cpu_count() or 1)
    return max(1, min(n, n_results))


def _init() -> None:
    import signal

    from nimlab.verification.runner import _watch_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's
    _watch_parent()


def _one(u: int, i: int, truth: bool, k: int | None, workers: int) -> Any:
    """Reproduce result *i* of the job, or check its instance *k* only (in a worker),
    on *workers* workers; *u*: the unit's number in the display."""
    ts, bounds, check, run = _JOB["ts"], _JOB["bounds"], _JOB["check"], _JOB["run"]
    news = _JOB.get("news")
    if news is not None:  # the parent's display shows this unit's chunks
        from nimlab.verification.progress import listen

        listen(_Reporter(news, u))
    own = dict(run, workers=workers)
    if k is None:
        return _JOB["one"](ts[i], bounds[i], truth_verified=truth, check=check, **own)
    from nimlab.core.errors import ClusterError, NimlabError, StoreError

    try:
        return _JOB["part"](ts[i], bounds[i], k, **own)
    except (StoreError, ClusterError):
        raise  # the store or the cluster failed: stop the whole run
    except NimlabError as exc:
        return exc  # the result's finding says so, as for a whole result


class _Reporter:
    """Sends a worker's chunk counts to the parent, at most every half second."""

    def __init__(self, news: Any, u: int) -> None:
        import time

        self.news, self.u, self.clock, self.last = news, u, time.monotonic, 0.0

    def __call__(self, label: str, done: int, total: int) -> None:
        now = self.clock()
        if now - self.last >= 0.5 or done >= total:
            self.last = now
            self.news.put((self.u, label, done, total))


#: A result whose cost is at least this share of the whole job's is checked as parts
#: (one per instance) side by side, when it has several instances (S18-T8 only, at the
#: default bounds: the next largest results are 8 % each).
SPLIT_SHARE = 0.1


def _units(
    ts: list[Any], bounds: list[int], check: Any, how: dict[str, Any]
) -> list[tuple[int, int | None, float]]:
    """The job's units ``(result, instance or None for the whole result, cost)``, the
    longest first: the largest results as one unit per instance (checked side by side
    on one worker each instead of one after the other on every worker; ``check`` None
    only: a replaced check sees whole results)."""
    costs = [float(how["cost"](t, b)) for t, b in zip(ts, bounds, strict=True)]
    total = sum(costs)
    units: list[tuple[int, int | None, float]] = []
    for i, (t, b) in enumerate(zip(ts, bounds, strict=True)):
        parts = how["parts"](t, b) if check is None and costs[i] >= SPLIT_SHARE * total else []
        if len(parts) > 1:  # the result's cost shared out as its instances' sizes
            scale = costs[i] / sum(parts) if sum(parts) > 0 else 0.0
            units += [(i, k, c * scale) for k, c in enumerate(parts)]
        else:
            units.append((i, None, costs[i]))
    units.sort(key=lambda u: -u[2])
    return units


def run_parallel(
    ts: list[Any],
    bounds: list[int],
    check: Any,
    on_result: Callable[[Any], None] | None,
    jobs: int,
    run: dict[str, Any],
    how: dict[str, Any],
) -> dict[int, Any]:
    """Reproduce the results *ts* at *bounds* on *jobs* worker processes; their
    findings by index. *how*: ``one(t, bound, truth_verified=..., check=..., **run)``
    reproduces a result, ``cost(t, bound)`` estimates its cost, ``parts(t, bound)`` the
    costs of its instances when they may be checked apart, ``part(t, bound, k, **run)``
    checks instance *k*, ``merge(t, bound, results, seconds)`` makes the result's check
    of its instances' results.

    Units (results, or instances of the largest results) start costliest first, each on
    one worker while others wait to start; the last ones on every worker (compiled and
    vectorised checks run on threads), so that a large unit left alone at the end still
    uses every core."""
    import multiprocessing
    import time
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    units = _units(ts, bounds, check, how)
    order = list(range(len(units)))
    left = {i: sum(1 for u in units if u[0] == i) for i in range(len(ts))}
    parts: dict[int, dict[int, Any]] = {}
    began: dict[int, float] = {}
    index = {t.id: i for i, t in enumerate(ts)}
    out: dict[int, Any] = {}
    show = _Running(bool(run.get("progress")))
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)
    news = ctx.SimpleQueue() if show.bar is not None else None  # chunk counts, from workers
    own = dict(run, progress=False)
    _JOB.update(ts=ts, bounds=bounds, check=check, run=own, news=news, **how)
    ex = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init)
    futs: dict[Future[Any], int] = {}

    def finish(i: int, found: Any) -> None:
        out[i] = found
        if on_result is not None:
            on_result(found)

    try:
        while order or futs:
            for u in _ready(order, units, ts, index, out, jobs - len(futs)):
                i, k, _ = units[u]
                began.setdefault(i, time.perf_counter())
                truth = _truth(ts[i], bounds[i], index, out)
                workers = jobs if not order else 1  # every worker once nothing waits
                futs[ex.submit(_one, u, i, truth, k, workers)] = u
                show.start(u, ts[i].id if k is None else f"{ts[i].id} #{k}")
            done, _ = wait(list(futs), timeout=0.5, return_when=FIRST_COMPLETED)
            while news is not None and not news.empty():
                show.chunks(*news.get())
            for f in done:
                u = futs.pop(f)
                i, k, _ = units[u]
                got = f.result()  # a lost store or cluster is raised here
                show.stop(u)
                if k is None:
                    finish(i, got)
                    continue
                parts.setdefault(i, {})[k] = got
                left[i] -= 1
                if not left[i]:
                    finish(i, _whole(ts[i], bounds[i], parts.pop(i), began[i], run, how))
    except BaseException:
        # Ctrl-C or an error: nothing more starts; the workers end with this process
        ex.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        show.close()
        _JOB.clear()
    ex.shutdown(wait=True)
    return out


def _whole(
    t: Any, bound: int, parts: dict[int, Any], began: float, run: dict[str, Any], how: Any
) -> Any:
    """The finding of result *t* from the results of its instances, *parts* (an error
    of one: the result's error, as if it were checked whole)."""
    import time

    got = [parts[k] for k in sorted(parts)]
    err = next((x for x in got if isinstance(x, BaseException)), None)
    merged = None if err is not None else how["merge"](t, bound, got, time.perf_counter() - began)

    def check(*_: Any, **__: Any) -> Any:
        if err is not None:
            raise err
        return merged

    return how["one"](t, bound, truth_verified=False, check=check, **dict(run, progress=False))


def _ready(
    order: list[int],
    units: list[tuple[int, int | None, float]],
    ts: list[Any],
    index: dict[str, int],
    out: dict[int, Any],
    room: int,
) -> list[int]:
    """Up to *room* units of *order* (removed from it) whose result's corrected
    statement, if it is part of the job, has its finding already."""
    picked: list[int] = []
    for u in list(order):
        if len(picked) >= room:
            break
        fix = ts[units[u][0]].status.replaced_by
        if fix is not None and fix in index and index[fix] not in out:
            continue
        order.remove(u)
        picked.append(u)
    return picked


def _truth(t: Any, bound: int, index: dict[str, int], out: dict[int, Any]) -> bool:
    """Whether *t*'s corrected statement verified at *bound* or beyond in this job."""
    fix = t.status.replaced_by
    got = out.get(index[fix]) if fix is not None and fix in index else None
    return bool(got is not None and got.result is not None and got.bound >= bound and got.result.ok)


class _Running:
    """On a terminal: one line per running result with its time so far (rich)."""

    def __init__(self, enabled: bool) -> None:
        self.bar: Any = None
        self.tasks: dict[int, Any] = {}
        self.names: dict[int, str] = {}
        if enabled and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

            self.bar = Progress(
                SpinnerColumn(),
                TextColumn("[bold]{task.description}"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.bar.start()

    def start(self, i: int, label: str) -> None:  # i: a unit of the job
        if self.bar is not None:
            self.names[i] = label
            self.tasks[i] = self.bar.add_task(label, total=None)

    def chunks(self, i: int, label: str, done: int, total: int) -> None:
        """Result *i* has *done* of its run *label*'s *total* chunks checked."""
        if self.bar is not None and i in self.tasks:
            self.bar.update(
                self.tasks[i], description=f"{self.names[i]} · {label}: {done}/{total} chunks"
            )

    def stop(self, i: int) -> None:
        if self.bar is not None and i in self.tasks:
            self.bar.remove_task(self.tasks.pop(i))

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
