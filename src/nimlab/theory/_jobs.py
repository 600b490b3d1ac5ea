"""``reproduce`` as one parallel job: every result in one pool of worker processes.

Each result is checked in one of N worker processes, so all cores check results side by
side instead of one result after the other with its own set-up and pool each time; each
check also asks for N workers (threads for compiled and vectorised checks), so that a
large result left alone at the end still uses every core. The largest results start first (by the
positions their checks cover; results with a check of their own by their recorded
counts), a refuted result starts once its corrected statement has been checked (its
disagreement counts are measured against it), and each finding is reported as it
arrives. On a terminal a display shows every running result with its time so far and
the chunks of its current check (sent by the workers, at most twice a second each).

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


def _one(i: int, truth: bool) -> Any:
    """Reproduce result *i* of the job (in a worker)."""
    ts, bounds, check, run = _JOB["ts"], _JOB["bounds"], _JOB["check"], _JOB["run"]
    news = _JOB.get("news")
    if news is not None:  # the parent's display shows this result's chunks
        from nimlab.verification.progress import listen

        listen(_Reporter(news, i))
    return _JOB["one"](ts[i], bounds[i], truth_verified=truth, check=check, **run)


class _Reporter:
    """Sends a worker's chunk counts to the parent, at most every half second."""

    def __init__(self, news: Any, i: int) -> None:
        import time

        self.news, self.i, self.clock, self.last = news, i, time.monotonic, 0.0

    def __call__(self, label: str, done: int, total: int) -> None:
        now = self.clock()
        if now - self.last >= 0.5 or done >= total:
            self.last = now
            self.news.put((self.i, label, done, total))


def run_parallel(
    ts: list[Any],
    bounds: list[int],
    check: Any,
    on_result: Callable[[Any], None] | None,
    jobs: int,
    run: dict[str, Any],
    one: Callable[..., Any],
    cost: Callable[[Any, int], float],
) -> dict[int, Any]:
    """Reproduce the results *ts* at *bounds* on *jobs* worker processes with
    ``one(t, bound, truth_verified=..., check=..., **run)``, the costliest first by
    ``cost(t, bound)``; their findings by index."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    # each result on every worker too: compiled and vectorised checks run on threads, so
    # a large result left alone at the end still uses every core
    own = dict(run, workers=jobs, progress=False)
    order = sorted(range(len(ts)), key=lambda i: -cost(ts[i], bounds[i]))
    index = {t.id: i for i, t in enumerate(ts)}
    out: dict[int, Any] = {}
    show = _Running(bool(run.get("progress")))
    ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)
    news = ctx.SimpleQueue() if show.bar is not None else None  # chunk counts, from workers
    _JOB.update(ts=ts, bounds=bounds, check=check, run=own, one=one, news=news)
    ex = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init)
    futs: dict[Future[Any], int] = {}
    try:
        while order or futs:
            for i in _ready(order, ts, index, out, jobs - len(futs)):
                futs[ex.submit(_one, i, _truth(ts[i], bounds[i], index, out))] = i
                show.start(i, ts[i].id)
            done, _ = wait(list(futs), timeout=0.5, return_when=FIRST_COMPLETED)
            while news is not None and not news.empty():
                show.chunks(*news.get())
            for f in done:
                i = futs.pop(f)
                out[i] = f.result()  # a lost store or cluster is raised here
                show.stop(i)
                if on_result is not None:
                    on_result(out[i])
    except BaseException:
        # Ctrl-C or an error: nothing more starts; the workers end with this process
        ex.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        show.close()
        _JOB.clear()
    ex.shutdown(wait=True)
    return out


def _ready(
    order: list[int], ts: list[Any], index: dict[str, int], out: dict[int, Any], room: int
) -> list[int]:
    """Up to *room* results of *order* (removed from it) whose corrected statement, if
    it is part of the job, has its finding already."""
    picked: list[int] = []
    for i in list(order):
        if len(picked) >= room:
            break
        fix = ts[i].status.replaced_by
        if fix is not None and fix in index and index[fix] not in out:
            continue
        order.remove(i)
        picked.append(i)
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

    def start(self, i: int, label: str) -> None:
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
