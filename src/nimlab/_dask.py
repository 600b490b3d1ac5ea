"""The one Dask client of long work: a local cluster or a scheduler's address.

Shared by the verifier's Dask backend (:mod:`nimlab.verification.backends`) and the
engine's chunked solves (:mod:`nimlab.engine.chunked`), outside the layers like
:mod:`nimlab._progress`. Dask is imported only inside :func:`dask_client`; the address
check, the error of a lost cluster and the list of a user's own files to ship to the
workers import nothing heavy.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from nimlab.core.errors import ClusterError, InvalidParameterError, NimlabError

__all__ = [
    "SchedulerLost",
    "check_connected",
    "check_scheduler",
    "cluster_lost",
    "dask_client",
    "held_client",
    "local_cluster",
    "module_files",
    "quiet",
    "worker_addresses",
]


def cluster_lost(
    scheduler: str | None, exc: BaseException, then: str, doing: str = "running its tasks"
) -> NimlabError:
    """One clear error for a Dask failure that is not nimlab's (a lost scheduler, a worker
    that died: *doing* says what it was doing); *then* says what the user does next.

    Examples
    --------
    >>> print(cluster_lost(None, OSError("gone"), "run the command again"))
    lost the local Dask cluster (OSError: gone); run the command again
    >>> print(cluster_lost("tcp://10.0.0.1:8786", SchedulerLost("closed"), "run it again"))
    lost the Dask scheduler at tcp://10.0.0.1:8786 while running its tasks (its connection closed: the scheduler stopped, or the network to it failed); run it again
    """
    where = f"the Dask scheduler at {scheduler}" if scheduler else "the local Dask cluster"
    if _scheduler_gone(exc):  # the client's futures were cancelled, its connection closed
        return ClusterError(
            f"lost {where} while {doing} (its connection closed: the scheduler stopped, or "
            f"the network to it failed); {then}"
        )
    if type(exc).__name__ == "KilledWorker":  # the scheduler gave up a task: its workers died
        tries = getattr(exc, "allowed_failures", None)
        last = getattr(getattr(exc, "last_worker", None), "address", None)
        who = f" ({last})" if last else ""
        said = (
            f", and the scheduler gives a task no more tries "
            f"(distributed.scheduler.allowed-failures = {tries})"
            if isinstance(tries, int)
            else ""
        )
        return ClusterError(f"a Dask worker{who} of {where} died while {doing}{said}; {then}")
    return ClusterError(
        f"lost {where} ({type(exc).__name__}: {str(exc)[:120] or 'no detail'}); {then}"
    )


class SchedulerLost(ConnectionError):
    """The client's connection to its scheduler is gone (:func:`check_connected`)."""


#: Dask's errors of a client whose scheduler is gone (its connection closed, or the client
#: closed after it could not reconnect).
_GONE = ("CommClosedError", "StreamClosedError", "ClosedClientError", "SchedulerLost")


def _scheduler_gone(exc: BaseException) -> bool:
    """Whether *exc* says the client lost its scheduler (not a failed task or worker)."""
    if type(exc).__name__ in _GONE:
        return True
    # the futures of a client that lost its scheduler are cancelled with this reason code
    # (distributed's FutureCancelledError.reason: a field, not the error's text)
    return getattr(exc, "reason", None) == "scheduler-connection-lost"


def check_connected(client: Any) -> None:
    """Raise :class:`SchedulerLost` when *client* is no longer connected to its scheduler.

    A task submitted while the client tries to reconnect (after its scheduler died) is
    never run nor cancelled: a run that waited for it would wait for ever. The futures the
    client held when the connection closed are cancelled at once, and the client's status
    leaves ``running`` before that, so a run that checks it after each submission ends
    (on a cancelled future, or here) instead.

    Examples
    --------
    >>> import types
    >>> check_connected(types.SimpleNamespace(status="running"))
    >>> check_connected(types.SimpleNamespace(status="connecting"))
    Traceback (most recent call last):
    ...
    nimlab._dask.SchedulerLost: the Dask client is connecting, no longer running
    """
    status = getattr(client, "status", "running")  # a fake client of a test: running
    if status not in ("running", "newly-created"):
        raise SchedulerLost(f"the Dask client is {status}, no longer running")


@functools.cache
def _install_roots() -> frozenset[Any]:
    """The folders of installed packages and of the standard library (resolved once:
    about 7 ms a run)."""
    import sysconfig
    from pathlib import Path

    return frozenset(
        Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib", "stdlib")
    )


def module_files(objs: Iterable[Any]) -> list[str]:
    """Source files of the user's own modules that define *objs* (a game's class, a claim's
    function), which Dask workers cannot import unless they receive them.

    A module qualifies when it is not part of nimlab or an installed package and its name
    is its file's stem (so a worker imports it after ``Client.upload_file``).

    Examples
    --------
    >>> from nimlab import game
    >>> module_files([type(game("nim"))])
    []
    """
    from pathlib import Path

    roots = _install_roots()
    out: list[str] = []
    for obj in objs:
        name = getattr(obj, "__module__", None) or ""
        mod = sys.modules.get(name)
        path = getattr(mod, "__file__", None)
        if not path or name.split(".")[0] in ("nimlab", "__main__") or "." in name:
            continue
        file = Path(path).resolve()
        if file.stem != name or any(r in file.parents for r in roots):
            continue
        if str(file) not in out:
            out.append(str(file))
    return out


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """Dask's own logs and asyncio's "exception never retrieved" tracebacks stay silent
    while nimlab runs on Dask: a lost scheduler or a Ctrl-C is said in one line by nimlab."""
    import logging

    with contextlib.suppress(ImportError):  # its loggers exist once it is imported
        importlib.import_module("distributed")

    roots = ("distributed", "asyncio", "tornado")
    names = [*roots, *(n for n in logging.root.manager.loggerDict if n.split(".")[0] in roots)]
    loggers = [logging.getLogger(n) for n in dict.fromkeys(names)]
    old = [(lg, lg.disabled) for lg in loggers]
    for lg in loggers:
        lg.disabled = True  # a disabled logger drops every record, whatever its level
    try:
        yield
    finally:
        for lg, was in old:
            lg.disabled = was


def distributed_module() -> Any:
    """The ``distributed`` package, or an InvalidParameterError saying how to install it."""
    try:
        return importlib.import_module("distributed")
    except ImportError as exc:  # pragma: no cover - the [dask] extra is installed in tests
        raise InvalidParameterError("Dask is not installed: pip install 'nimlab[dask]'") from exc


@contextlib.contextmanager
def dask_client(scheduler: str | None, workers: int, files: Iterable[str] = ()) -> Iterator[Any]:
    """A Dask client: of this session's client of *scheduler* when there is one (no
    start-up; not closed here), of a new connection to *scheduler*, else of a local
    cluster of *workers* single-threaded processes (closed on the way out). *files*: the
    user's own modules, uploaded to every worker."""
    dist = distributed_module()
    cluster = None
    own = True  # a client made here is closed here
    held = held_client(dist, scheduler) if scheduler else None
    if held is not None:
        client, own = held, False
    elif scheduler:
        try:
            client = dist.Client(scheduler, timeout="20s")
        except (OSError, TimeoutError) as exc:
            raise ClusterError(
                f"cannot reach the Dask scheduler at {scheduler!r} ({exc}); start one with "
                "`dask scheduler` and workers with `dask worker ADDRESS`"
            ) from None
    else:
        import signal
        import threading

        # the workers ignore Ctrl-C (they inherit SIG_IGN): this process stops them, and
        # no worker prints its own KeyboardInterrupt traceback
        main = threading.current_thread() is threading.main_thread()
        old_int = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            cluster = local_cluster(dist.LocalCluster, workers)
        finally:
            if main:
                signal.signal(signal.SIGINT, old_int)
        client = dist.Client(cluster)
    try:
        for path in files:
            client.upload_file(path)  # the user's own game or claim reaches every worker
        yield client
    finally:
        if own:
            client.close()
        if cluster is not None:
            cluster.close()


def local_cluster(make: Any, workers: int) -> Any:
    """A local Dask cluster of *workers* single-threaded worker processes, its workers'
    stack sampling off (the dashboard's profile: every 10 ms it takes Python's lock in
    the worker, about a quarter of a short check's CPU)."""
    import logging

    import dask

    with dask.config.set({"distributed.worker.profile.enabled": False}):
        return make(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            # the scheduler's HTTP server (health checks) on a free loopback port: its
            # default, 8787, warns on stderr when another cluster holds it
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            silence_logs=logging.CRITICAL,
        )


def held_client(dist: Any, scheduler: str) -> Any:
    """This session's Dask client (``distributed.default_client()``, the last one made)
    when it is connected to *scheduler*, else None: a run reuses it instead of making
    and closing its own (a second or so of start-up for a short run)."""
    find = getattr(dist, "default_client", None)
    if find is None:
        return None
    try:
        client = find()
        address = client.scheduler.address
    except (ValueError, AttributeError):
        return None
    if getattr(client, "status", "") != "running":
        return None
    return client if address == scheduler.strip() else None


_SCHEDULER = re.compile(
    r"^(?:(tcp|tls|inproc|ucx|ws|wss)://)?([\w.\-]+|\[[0-9a-fA-F:]+\])(?::(\d{1,5}))?/?$"
)


def check_scheduler(address: str) -> str:
    """A Dask scheduler address (``tcp://host:8786``, ``host:8786``), or a ClusterError.

    Examples
    --------
    >>> check_scheduler("tcp://127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    >>> check_scheduler("zzz://127.0.0.1:1")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.ClusterError: cannot read the Dask scheduler address 'zzz://127.0.0.1:1': write it as tcp://HOST:PORT (for example tcp://10.0.0.1:8786)
    """
    m = _SCHEDULER.match(address.strip()) if isinstance(address, str) else None
    if m is not None and m.group(1) in ("inproc", "ucx"):
        raise ClusterError(
            f"the Dask scheduler address {address[:60]!r} uses {m.group(1)}://, which nimlab "
            "does not support: write it as tcp://HOST:PORT (for example tcp://10.0.0.1:8786)"
        )
    if m is not None and m.group(3) is None:
        raise ClusterError(
            f"the Dask scheduler address {address[:60]!r} has no port: write it as "
            "tcp://HOST:PORT (the scheduler's default port is 8786)"
        )
    if m is None or (m.group(3) is not None and not 0 < int(m.group(3)) < 65536):
        raise ClusterError(
            f"cannot read the Dask scheduler address {str(address)[:60]!r}: write it as "
            "tcp://HOST:PORT (for example tcp://10.0.0.1:8786)"
        )
    return address.strip()


#: The worker slots last asked of each scheduler: ``address -> (its id, workers, slots)``.
_WORKERS: dict[str, tuple[Any, int, list[str]]] = {}


def worker_addresses(client: Any) -> list[str]:
    """One address per thread of the cluster's workers (a worker of 4 threads four times:
    a task pinned to each runs at once; none when the scheduler does not say): those last
    asked of its scheduler while the client's own view of it (refreshed every 2 s by
    distributed) names the same scheduler and as many workers, else asked (a round trip:
    1-4 ms of a 0.2 s run). A worker since replaced costs no result: tasks pinned to it
    run on another (``allow_other_workers``).

    Examples
    --------
    >>> import types
    >>> info = {"workers": {"tcp://10.0.0.2:1": {"nthreads": 2}, "tcp://10.0.0.1:1": {}}}
    >>> worker_addresses(types.SimpleNamespace(scheduler_info=lambda: info))
    ['tcp://10.0.0.1:1', 'tcp://10.0.0.2:1', 'tcp://10.0.0.2:1']
    """
    address = getattr(getattr(client, "scheduler", None), "address", None)
    seen = getattr(client, "_scheduler_identity", None)
    seen = seen if isinstance(seen, Mapping) else {}
    hit = _WORKERS.get(address) if isinstance(address, str) else None
    if hit and hit[2] and seen.get("id") == hit[0] and seen.get("n_workers") == hit[1]:
        return list(hit[2])
    try:
        info = client.scheduler_info()
        workers = info.get("workers", {})
        slots = [w for w in sorted(workers) for _ in range(_threads(workers[w]))]
    except Exception:  # an older or a fake client
        return []
    if isinstance(address, str) and isinstance(info, Mapping):
        _WORKERS.clear()  # one scheduler at a time
        _WORKERS[address] = (info.get("id"), len(workers), slots)
    return slots


def _threads(worker: Any) -> int:
    """The threads of a worker of the scheduler's list (1 when it does not say)."""
    n = worker.get("nthreads", 1) if isinstance(worker, Mapping) else 1
    return max(1, min(int(n), 1024)) if isinstance(n, int) else 1
