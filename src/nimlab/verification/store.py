"""The results store: every verification run, its chunks and counterexamples, in SQLite.

The default path is ``$NIMLAB_STORE``, else ``$XDG_DATA_HOME/nimlab/results.sqlite``
(``~/.local/share/nimlab/results.sqlite``). The database runs in WAL mode with a busy
timeout, so several runs (and readers such as ``nimlab runs``) can share it. A chunk's
counts and its ``done`` status are written in one transaction, and ``(run, chunk)`` is a
primary key: a run killed at any moment resumes without losing or double-counting a chunk.
"""

from __future__ import annotations

import functools
import json
import os
import socket
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from nimlab.core.errors import StoreError

if TYPE_CHECKING:
    from nimlab.verification.spec import VerificationResult

__all__ = [
    "BUSY_TIMEOUT",
    "RunRecord",
    "Store",
    "default_store_path",
    "lock_timeout",
    "runs",
]

#: Default number of seconds a run waits for another process's lock on the store before it
#: stops with a clear error (``--lock-timeout SECONDS`` or ``$NIMLAB_LOCK_TIMEOUT`` change it).
BUSY_TIMEOUT = 5.0
#: The longest wait one may ask for (a day): SQLite counts it in milliseconds.
MAX_LOCK_TIMEOUT = 86_400.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    spec_key TEXT NOT NULL,
    what TEXT NOT NULL,
    target TEXT NOT NULL,
    game TEXT NOT NULL,
    params TEXT NOT NULL,
    kind TEXT NOT NULL,
    bound INTEGER NOT NULL,
    space TEXT NOT NULL,
    n_chunks INTEGER NOT NULL,
    status TEXT NOT NULL,
    positions INTEGER NOT NULL DEFAULT 0,
    started REAL NOT NULL,
    finished REAL,
    seconds REAL,
    host TEXT,
    pid INTEGER,
    spec BLOB
);
CREATE INDEX IF NOT EXISTS runs_spec ON runs(spec_key);
CREATE TABLE IF NOT EXISTS chunks (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    idx INTEGER NOT NULL,
    status TEXT NOT NULL,
    positions INTEGER NOT NULL,
    seconds REAL NOT NULL,
    method TEXT,
    failed INTEGER NOT NULL DEFAULT 0,
    finished REAL NOT NULL,
    PRIMARY KEY (run_id, idx)
);
CREATE TABLE IF NOT EXISTS counterexamples (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    chunk_idx INTEGER NOT NULL,
    position TEXT NOT NULL,
    claimed TEXT,
    detail TEXT,
    option TEXT,
    PRIMARY KEY (run_id, chunk_idx)
);
"""


def default_store_path() -> Path:
    """``$NIMLAB_STORE``, else ``$XDG_DATA_HOME/nimlab/results.sqlite``."""
    env = os.environ.get("NIMLAB_STORE")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "nimlab" / "results.sqlite"


def lock_timeout(value: object = None) -> float:
    """Seconds to wait for a lock on the store: *value*, else ``$NIMLAB_LOCK_TIMEOUT``,
    else :data:`BUSY_TIMEOUT`; a clear error for anything but a number of seconds.

    Examples
    --------
    >>> lock_timeout(2.5), lock_timeout(0)
    (2.5, 0.0)
    >>> lock_timeout("soon")
    Traceback (most recent call last):
    ...
    nimlab.core.errors.InvalidArgumentError: lock timeout must be a number of seconds between 0 and 86400, got 'soon'
    """
    from nimlab.core.errors import InvalidArgumentError, InvalidParameterError

    if value is None:
        text = os.environ.get("NIMLAB_LOCK_TIMEOUT", "").strip()
        if not text:
            return BUSY_TIMEOUT
        try:
            seconds = float(text)
        except ValueError:
            seconds = float("nan")
        if not 0 <= seconds <= MAX_LOCK_TIMEOUT:
            raise InvalidParameterError(
                "environment variable NIMLAB_LOCK_TIMEOUT must be a number of seconds "
                f"between 0 and {MAX_LOCK_TIMEOUT:g}, got {text[:40]!r} (unset it or write "
                "for example NIMLAB_LOCK_TIMEOUT=30)"
            )
        return seconds
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not ok or not 0 <= float(value) <= MAX_LOCK_TIMEOUT:  # type: ignore[arg-type]
        raise InvalidArgumentError(
            f"lock timeout must be a number of seconds between 0 and {MAX_LOCK_TIMEOUT:g}, "
            f"got {value!r:.40}"
        )
    return float(value)  # type: ignore[arg-type]


def _lock_holders(path: Path) -> str:
    """Who holds the store at *path*, as far as one can tell: the runs it records as
    running (with their process ids), else the processes holding file locks on it."""
    holders: list[str] = []
    host = socket.gethostname()
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.05)
        try:
            rows = con.execute(
                "SELECT id, what, target, host, pid FROM runs WHERE status = 'running'"
                " ORDER BY id DESC LIMIT 5"
            ).fetchall()
        finally:
            con.close()
    except sqlite3.Error:
        rows = []
    for rid, what, target, rhost, pid in rows:
        if pid == os.getpid() and rhost == host:
            continue
        if rhost == host and not _alive(pid):
            continue
        where = "" if rhost == host else f" on {rhost}"
        holders.append(f"run {rid} of {what} {target} (pid {pid}{where})")
    if not holders:
        holders = [f"process {pid} ({name})" for pid, name in _file_lockers(path)]
    return ", ".join(holders[:3])


def _file_lockers(path: Path) -> list[tuple[int, str]]:
    """Processes other than this one with a POSIX lock on the store or its WAL files
    (read from ``/proc/locks`` on Linux; empty elsewhere)."""
    inodes = set()
    for suffix in ("", "-wal", "-shm"):
        try:
            st = os.stat(f"{path}{suffix}")
        except OSError:
            continue
        inodes.add(f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}")
    out: list[tuple[int, str]] = []
    try:
        with open("/proc/locks") as f:
            lines = f.read().splitlines()
    except OSError:
        return out
    for line in lines:
        parts = line.split()
        if len(parts) < 6 or parts[5] not in inodes or not parts[4].isdigit():
            continue
        pid = int(parts[4])
        if pid == os.getpid() or any(p == pid for p, _ in out):
            continue
        try:
            with open(f"/proc/{pid}/comm") as f:
                name = f.read().strip()
        except OSError:
            name = "?"
        out.append((pid, name))
    return out


def _tuplify(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_tuplify(v) for v in x)
    return x


def _checked_path(path: str | os.PathLike[str] | None) -> Path:
    """The store's path, refused with a clear error before SQLite sees it.

    The default store's folder is created; a folder the user named must exist.
    """
    if path is None:
        p = default_store_path()
        if p.parent.is_file():
            raise StoreError(f"cannot create the results store {p}: {p.parent} is a file")
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create the folder of the results store {p}: {exc.strerror}; "
                "set $NIMLAB_STORE or pass --store PATH"
            ) from None
    else:
        text = os.fspath(path)
        if not str(text).strip():
            raise StoreError("the results store path is empty: give --store PATH or --no-store")
        try:
            p = Path(text).expanduser()
        except RuntimeError:  # ~nosuchuser
            raise StoreError(f"the results store {text[:80]}: no such user's home folder") from None
    if p.is_dir():
        raise StoreError(
            f"the results store {p} is a directory: give a file such as {p}/results.sqlite"
        )
    if p.exists() and not p.is_file():
        raise StoreError(f"the results store {p} is not a regular file (a device or a pipe)")
    for parent in p.parents:
        if parent.exists():
            if not parent.is_dir():
                raise StoreError(f"cannot create the results store {p}: {parent} is not a folder")
            break
    if not p.parent.is_dir():
        raise StoreError(
            f"cannot create the results store {p}: the folder {p.parent} does not exist"
        )
    return p


def _check_writable(p: Path) -> None:
    """Refuse a store this process cannot write (a read-only file, folder or disk) before
    any work: SQLite would open it read-only and fail only at the first write."""
    if p.exists():
        if not os.access(p, os.W_OK):
            raise StoreError(
                f"results store {p}: it is read-only (no write permission, an immutable file "
                "or a read-only disk); give a writable --store PATH or --no-store"
            )
        missing = [s for s in ("-wal", "-shm") if not os.path.exists(f"{p}{s}")]
    else:
        missing = [""]
    if missing and not os.access(p.parent, os.W_OK):
        raise StoreError(
            f"results store {p}: its folder {p.parent} is read-only (SQLite keeps its journal "
            "beside the store); give a writable --store PATH or --no-store"
        )


def _store_error(path: Path, exc: sqlite3.Error, timeout: float) -> StoreError:
    """One clear line for an SQLite failure on the store at *path*, chosen by SQLite's
    result code (never by the message's text)."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = -1 if not isinstance(code, int) else code & 0xFF
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        who = _lock_holders(path)
        why = (
            f"it is locked by {who or 'another process'}: waited {timeout:g} s; "
            "wait for it to finish, or wait longer with --lock-timeout SECONDS "
            "(lock_timeout=, $NIMLAB_LOCK_TIMEOUT)"
        )
    elif primary in (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT):
        why = "it is not a nimlab results store (not an SQLite database, or damaged)"
    elif primary == sqlite3.SQLITE_READONLY:
        why = "it is read-only; give a writable --store PATH or --no-store"
    elif primary == sqlite3.SQLITE_CANTOPEN:
        why = "the file cannot be opened (check the path and its permissions)"
    elif primary == sqlite3.SQLITE_IOERR:
        why = "a disk I/O error (is it a regular file on a writable disk?)"
    else:
        why = str(exc)
    return StoreError(f"results store {path}: {why}")


def _columns(conn: sqlite3.Connection) -> dict[str, set[str]]:
    tables = [str(r[0]) for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    return {t: {str(r[1]) for r in conn.execute(f"PRAGMA table_info('{t}')")} for t in tables}


@functools.cache
def _schema_columns() -> dict[str, set[str]]:
    """Each table of :data:`_SCHEMA` and its columns."""
    mem = sqlite3.connect(":memory:")
    try:
        mem.executescript(_SCHEMA)
        return {t: c for t, c in _columns(mem).items() if not t.startswith("sqlite_")}
    finally:
        mem.close()


def _check_schema(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a database whose tables lack columns that nimlab reads and writes."""
    found = {t: c for t, c in _columns(conn).items() if not t.startswith("sqlite_")}
    ours = _schema_columns()
    if found and not set(found) & set(ours):
        raise StoreError(
            f"results store {path}: it is an SQLite database of another program (tables "
            f"{', '.join(sorted(found)[:3])}), not a nimlab results store: give another "
            "--store PATH"
        )
    for table, cols in ours.items():
        if table not in found:
            continue
        missing = cols - found[table]
        if missing:
            raise StoreError(
                f"results store {path}: its table {table!r} has another schema (no column "
                f"{sorted(missing)[0]!r}); it was not made by this version of nimlab: give "
                "another --store PATH"
            )


#: Rows that break an invariant of the store, each a query counting them and what it means.
_INVARIANTS = (
    (
        "SELECT COUNT(*) FROM runs WHERE typeof(id) != 'integer' OR typeof(spec_key) != 'text'"
        " OR typeof(what) != 'text' OR typeof(target) != 'text' OR typeof(game) != 'text'"
        " OR typeof(kind) != 'text' OR typeof(status) != 'text'"
        " OR typeof(bound) != 'integer' OR typeof(n_chunks) != 'integer'"
        " OR typeof(positions) != 'integer' OR positions < 0 OR n_chunks < 1"
        " OR typeof(started) NOT IN ('real', 'integer')"
        " OR (spec IS NOT NULL AND typeof(spec) != 'blob')",
        "rows of the table 'runs' with values of the wrong type or out of range",
    ),
    (
        "SELECT COUNT(*) FROM chunks WHERE typeof(run_id) != 'integer'"
        " OR typeof(idx) != 'integer' OR typeof(positions) != 'integer'"
        " OR typeof(failed) != 'integer' OR typeof(status) != 'text'"
        " OR typeof(seconds) NOT IN ('real', 'integer') OR idx < 0 OR positions < 0"
        " OR failed NOT IN (0, 1) OR status != 'done'",
        "rows of the table 'chunks' with values of the wrong type or out of range",
    ),
    (
        "SELECT COUNT(*) FROM chunks c LEFT JOIN runs r ON r.id = c.run_id"
        " WHERE r.id IS NULL OR c.idx >= r.n_chunks",
        "chunks of no run, or beyond their run's number of chunks",
    ),
    (
        "SELECT COUNT(*) FROM chunks c WHERE c.failed = 1 AND NOT EXISTS (SELECT 1 FROM"
        " counterexamples x WHERE x.run_id = c.run_id AND x.chunk_idx = c.idx)",
        "failed chunks without their counterexample",
    ),
    (
        "SELECT COUNT(*) FROM counterexamples WHERE typeof(run_id) != 'integer'"
        " OR typeof(chunk_idx) != 'integer' OR typeof(position) != 'text'",
        "rows of the table 'counterexamples' with values of the wrong type",
    ),
    (
        "SELECT COUNT(*) FROM runs r WHERE r.status = 'verified' AND (SELECT COUNT(*) FROM"
        " chunks c WHERE c.run_id = r.id) != r.n_chunks",
        "runs recorded as verified without all their chunks",
    ),
)


def _check_integrity(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a damaged store in one line: a table dropped, rows of the wrong type or
    breaking an invariant, pages SQLite finds damaged (``PRAGMA quick_check``)."""
    found = {t for t in _columns(conn) if not t.startswith("sqlite_")}
    ours = set(_schema_columns())
    if not found & ours:
        return  # a new (empty) store
    missing = sorted(ours - found)
    if missing:
        raise StoreError(
            f"results store {path}: it is damaged (its table {missing[0]!r} is missing); "
            "nothing in it can be trusted: give another --store PATH (or move it away)"
        )
    row = conn.execute("PRAGMA quick_check(1)").fetchone()
    if row is None or row[0] != "ok":
        raise StoreError(
            f"results store {path}: it is damaged (SQLite's check says: "
            f"{str(row[0] if row else 'nothing')[:120]}); give another --store PATH"
        )
    for query, what in _INVARIANTS:
        (bad,) = conn.execute(query).fetchone()
        if bad:
            raise StoreError(
                f"results store {path}: it is damaged ({bad:,} {what}); nothing in it can "
                "be trusted: give another --store PATH (or move it away)"
            )


_S = TypeVar("_S", bound="Store")
_R = TypeVar("_R")
_A = ParamSpec("_A")


def _guarded(
    f: Callable[Concatenate[_S, _A], _R],
) -> Callable[Concatenate[_S, _A], _R]:
    """Run a read of the store with SQLite errors turned into :class:`StoreError`."""

    def wrapper(self: _S, /, *args: _A.args, **kwargs: _A.kwargs) -> _R:
        with self._errors():
            return f(self, *args, **kwargs)

    functools.update_wrapper(wrapper, f)
    return wrapper


@dataclass(frozen=True)
class RunRecord:
    """One row of the ``runs`` table (*method*: the methods of its chunks, comma-separated)."""

    id: int
    what: str
    target: str
    game: str
    params: dict[str, Any]
    kind: str
    bound: int
    space: str
    n_chunks: int
    status: str
    positions: int
    started: float
    finished: float | None
    seconds: float | None
    chunks_done: int
    method: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "id": self.id,
            "what": self.what,
            "target": self.target,
            "game": self.game,
            "params": self.params,
            "kind": self.kind,
            "bound": self.bound,
            "space": self.space,
            "n_chunks": self.n_chunks,
            "chunks_done": self.chunks_done,
            "status": self.status,
            "positions_checked": self.positions,
            "started": self.started,
            "finished": self.finished,
            "seconds": self.seconds,
            "method": self.method,
        }


class Store:
    """A handle on the SQLite results store (one connection, in the main process).

    Examples
    --------
    >>> import tempfile, os
    >>> s = Store(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
    >>> s.runs()
    []
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        timeout: float | None = None,
        write: bool = True,
    ) -> None:
        timeout = lock_timeout(timeout)
        self.path = _checked_path(path)
        self.timeout = timeout
        target, uri = str(self.path), False
        if write:
            _check_writable(self.path)
        elif self.path.exists() and not os.access(self.path.parent, os.W_OK):
            # a reader in a read-only folder: SQLite could not create its -shm file there
            from urllib.parse import quote

            target, uri = f"file:{quote(str(self.path))}?immutable=1", True
        try:
            self.conn = sqlite3.connect(
                target, timeout=timeout, isolation_level=None, check_same_thread=False, uri=uri
            )
        except sqlite3.Error as exc:
            raise _store_error(self.path, exc, timeout) from None
        try:
            self.conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            # the schema and integrity first: a file refused is never changed (no WAL)
            _check_schema(self.conn, self.path)
            _check_integrity(self.conn, self.path)
            if not uri:
                self.conn.execute("PRAGMA journal_mode = WAL")
                self.conn.execute("PRAGMA synchronous = NORMAL")
            if not uri and set(_schema_columns()) - set(_columns(self.conn)):  # a new store
                self._create()
        except BaseException as exc:
            self.conn.close()
            if isinstance(exc, sqlite3.Error):
                raise _store_error(self.path, exc, timeout) from None
            raise

    def _create(self) -> None:
        with self._tx():
            for stmt in _SCHEMA.split(";"):
                if stmt.strip():
                    self.conn.execute(stmt)

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._errors():
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Turn an SQLite error into one clear :class:`StoreError`."""
        try:
            yield
        except sqlite3.Error as exc:
            raise _store_error(self.path, exc, self.timeout) from None

    # -- runs -----------------------------------------------------------------------
    def create_run(
        self,
        *,
        spec_key: str,
        what: str,
        target: str,
        game: str,
        params: dict[str, Any],
        kind: str,
        bound: int,
        space: str,
        n_chunks: int,
        spec: bytes | None,
    ) -> int:
        """Insert a new run in status ``running``; return its id."""
        with self._tx() as c:
            cur = c.execute(
                "INSERT INTO runs (spec_key, what, target, game, params, kind, bound, space,"
                " n_chunks, status, started, host, pid, spec)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)",
                (
                    spec_key,
                    what,
                    target,
                    game,
                    json.dumps(params, default=str, sort_keys=True),
                    kind,
                    bound,
                    space,
                    n_chunks,
                    time.time(),
                    socket.gethostname(),
                    os.getpid(),
                    spec,
                ),
            )
            rid = cur.lastrowid
        assert rid is not None
        return int(rid)

    @_guarded
    def find_resumable(self, spec_key: str) -> int | None:
        """The latest unfinished run with this spec, or None."""
        row = self.conn.execute(
            "SELECT id FROM runs WHERE spec_key = ? AND status NOT IN ('verified', 'FAILED', 'error')"
            " ORDER BY id DESC LIMIT 1",
            (spec_key,),
        ).fetchone()
        return None if row is None else int(row[0])

    @_guarded
    def find_resumable_like(self, base_key: str) -> int | None:
        """The latest unfinished run that checks the same thing as *base_key* (a spec key
        without its code fingerprint), whatever code it was checked with, or None."""
        row = self.conn.execute(
            "SELECT id FROM runs WHERE (spec_key = ? OR substr(spec_key, 1, ?) = ?)"
            " AND status NOT IN ('verified', 'FAILED', 'error') ORDER BY id DESC LIMIT 1",
            (base_key, len(base_key) + 1, base_key + ":"),
        ).fetchone()
        return None if row is None else int(row[0])

    @_guarded
    def run_spec(self, run_id: int) -> tuple[str, bytes | None] | None:
        """``(spec_key, pickled spec)`` of a run, or None if there is no such run."""
        row = self.conn.execute(
            "SELECT spec_key, spec FROM runs WHERE id = ?", (run_id,)
        ).fetchone()
        return None if row is None else (row[0], row[1])

    def mark_running(self, run_id: int) -> None:
        """Mark a resumed run as running in this process."""
        with self._tx() as c:
            c.execute(
                "UPDATE runs SET status = 'running', pid = ?, host = ? WHERE id = ?",
                (os.getpid(), socket.gethostname(), run_id),
            )

    def record_result(self, result: VerificationResult) -> None:
        """Record a finished run's result (its status, positions and time) under its
        ``run_id`` (a result kept in no store, ``run_id`` None, records nothing)."""
        if result.run_id is not None:
            self.finish_run(result.run_id, result.result, result.positions_checked, result.seconds)

    def finish_run(self, run_id: int, status: str, positions: int, seconds: float) -> None:
        """Record the final status of a run (one that ended without a result too:
        ``interrupted``, ``error``)."""
        with self._tx() as c:
            c.execute(
                "UPDATE runs SET status = ?, positions = ?, finished = ?, seconds = ? WHERE id = ?",
                (status, positions, time.time(), seconds, run_id),
            )

    # -- chunks ---------------------------------------------------------------------
    def record_chunk(
        self,
        run_id: int,
        idx: int,
        positions: int,
        seconds: float,
        method: str,
        failure: dict[str, Any] | None,
    ) -> bool:
        """Commit one chunk's result atomically; False if it was already recorded."""
        with self._tx() as c:
            cur = c.execute(
                "INSERT OR IGNORE INTO chunks (run_id, idx, status, positions, seconds, method,"
                " failed, finished) VALUES (?, ?, 'done', ?, ?, ?, ?, ?)",
                (run_id, idx, positions, seconds, method, int(failure is not None), time.time()),
            )
            if cur.rowcount == 0:
                return False
            if failure is not None:
                c.execute(
                    "INSERT OR REPLACE INTO counterexamples (run_id, chunk_idx, position,"
                    " claimed, detail, option) VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        run_id,
                        idx,
                        json.dumps(failure["position"], default=str),
                        json.dumps(failure["claimed"], default=str),
                        failure["detail"],
                        json.dumps(failure.get("option"), default=str),
                    ),
                )
            c.execute("UPDATE runs SET positions = positions + ? WHERE id = ?", (positions, run_id))
        return True

    @_guarded
    def done_chunks(self, run_id: int) -> dict[int, tuple[int, float, dict[str, Any] | None]]:
        """Recorded chunks of a run: index -> (positions, seconds, failure or None)."""
        out: dict[int, tuple[int, float, dict[str, Any] | None]] = {}
        fails = {
            int(r[0]): {
                "position": _tuplify(json.loads(r[1])),
                "claimed": json.loads(r[2]) if r[2] is not None else None,
                "detail": r[3],
                "option": _tuplify(json.loads(r[4])) if r[4] is not None else None,
            }
            for r in self.conn.execute(
                "SELECT chunk_idx, position, claimed, detail, option FROM counterexamples"
                " WHERE run_id = ?",
                (run_id,),
            )
        }
        for idx, pos, secs in self.conn.execute(
            "SELECT idx, positions, seconds FROM chunks WHERE run_id = ? AND status = 'done'",
            (run_id,),
        ):
            out[int(idx)] = (int(pos), float(secs), fails.get(int(idx)))
        return out

    # -- listing --------------------------------------------------------------------
    @_guarded
    def runs(self, limit: int = 100) -> list[RunRecord]:
        """The latest runs, newest first (a ``running`` run whose process is gone on this
        host is shown as ``interrupted``)."""
        rows = self.conn.execute(
            "SELECT r.id, r.what, r.target, r.game, r.params, r.kind, r.bound, r.space,"
            " r.n_chunks, r.status, r.positions, r.started, r.finished, r.seconds, r.host,"
            " r.pid, (SELECT COUNT(*) FROM chunks c WHERE c.run_id = r.id),"
            " (SELECT GROUP_CONCAT(DISTINCT c.method) FROM chunks c WHERE c.run_id = r.id)"
            " FROM runs r ORDER BY r.id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        out = []
        host = socket.gethostname()
        for r in rows:
            status = r[9]
            if status == "running" and r[14] == host and not _alive(r[15]):
                status = "interrupted"
            out.append(
                RunRecord(
                    id=r[0],
                    what=r[1],
                    target=r[2],
                    game=r[3],
                    params=json.loads(r[4]),
                    kind=r[5],
                    bound=r[6],
                    space=r[7],
                    n_chunks=r[8],
                    status=status,
                    positions=r[10],
                    started=r[11],
                    finished=r[12],
                    seconds=r[13],
                    chunks_done=r[16],
                    method=r[17] or "",
                )
            )
        return out


def _alive(pid: int | None) -> bool:
    if not pid:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def runs(
    store: str | os.PathLike[str] | None = None,
    limit: int = 100,
    *,
    lock_timeout: float | None = None,
) -> list[RunRecord]:
    """Past verification runs in the results store, newest first.

    *lock_timeout* is how many seconds to wait for another process's lock on the store
    (default ``$NIMLAB_LOCK_TIMEOUT``, else 5).

    Examples
    --------
    >>> import tempfile, os
    >>> runs(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
    []
    """
    from nimlab.core.errors import InvalidArgumentError
    from nimlab.core.params import as_index

    n = as_index(limit)
    if n is None or not 1 <= n <= 2**62:
        raise InvalidArgumentError(f"limit must be an integer >= 1, got {limit!r:.40}")
    st = Store(store, timeout=lock_timeout, write=False)
    try:
        return st.runs(n)
    finally:
        st.close()
