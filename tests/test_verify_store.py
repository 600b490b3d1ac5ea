"""The results store: records, resume after SIGKILL, concurrent runs."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import nimlab
from nimlab.verification import Store, runs, verify

NIMLAB = [sys.executable, "-m", "nimlab"]


def _env(store: Path, sleep: float | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["NIMLAB_STORE"] = str(store)
    env.pop("NIMLAB_VERIFY_CHUNK_SLEEP", None)
    if sleep is not None:
        env["NIMLAB_VERIFY_CHUNK_SLEEP"] = str(sleep)
    return env


def _chunks_done(store: Path) -> int:
    if not store.exists():
        return 0
    try:
        con = sqlite3.connect(str(store), timeout=5)
        try:
            return int(con.execute("SELECT COUNT(*) FROM chunks").fetchone()[0])
        finally:
            con.close()
    except sqlite3.OperationalError:
        return 0


def test_runs_are_recorded(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    r = verify("nim", "a ^ b ^ c", bound=6, workers=1, store=db, chunk_size=36)
    bad = verify("nim", "a ^ b ^ c ^ 1", bound=6, workers=1, store=db, chunk_size=36)
    rs = runs(db)
    assert [x.id for x in rs] == [bad.run_id, r.run_id]
    assert rs[1].status == "verified" and rs[1].positions == 216 == r.positions_checked
    assert rs[1].chunks_done == rs[1].n_chunks == 6
    assert rs[0].status == "FAILED" and rs[0].positions == 1
    con = sqlite3.connect(str(db))
    row = con.execute("SELECT position, detail FROM counterexamples").fetchone()
    assert json.loads(row[0]) == [0, 0, 0] and "missing" in row[1]
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_resume_finished_run_starts_afresh_and_resume_by_id(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    r1 = verify("nim", "a ^ b", bound=9, heaps=2, workers=1, store=db, chunk_size=9)
    r2 = verify("nim", "a ^ b", bound=9, heaps=2, workers=1, store=db, resume=True, chunk_size=9)
    assert r2.run_id != r1.run_id and r2.chunks_resumed == 0
    assert r2.positions_checked == r1.positions_checked == 81
    # a half-finished run: delete some chunks by hand and resume it by id
    st = Store(db)
    st.conn.execute("DELETE FROM chunks WHERE run_id = ? AND idx >= 4", (r2.run_id,))
    st.conn.execute("UPDATE runs SET status = 'running' WHERE id = ?", (r2.run_id,))
    st.close()
    r3 = verify(
        "nim", "a ^ b", bound=9, heaps=2, workers=1, store=db, resume=r2.run_id, chunk_size=9
    )
    assert r3.run_id == r2.run_id and r3.chunks_resumed == 4 and r3.positions_checked == 81


def test_sigkill_midway_resumes_to_identical_totals(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    args = [
        *NIMLAB, "verify", "--game", "nim", "--formula", "a ^ b ^ c", "--bound", "12",
        "--chunk-size", "100", "--workers", "2", "--json",
    ]  # fmt: skip
    # 12 chunks of 144 positions; each chunk sleeps 0.4 s, so the run takes ~2.5 s
    proc = subprocess.Popen(
        args,
        env=_env(db, 0.4),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.time() + 60
    while _chunks_done(db) < 3 and time.time() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the run and its worker processes, at once
    proc.wait()
    done_before = _chunks_done(db)
    assert 3 <= done_before < 12
    rs = runs(db)
    assert rs[0].status == "interrupted"
    out = subprocess.run([*args, "--resume"], env=_env(db), capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["result"] == "verified"
    assert data["positions_checked"] == 12**3
    assert data["chunks_resumed"] == done_before
    assert data["run_id"] == rs[0].id
    con = sqlite3.connect(str(db))
    n, total = con.execute(
        "SELECT COUNT(*), SUM(positions) FROM chunks WHERE run_id = ?", (data["run_id"],)
    ).fetchone()
    assert (n, total) == (12, 12**3)
    fresh = verify("nim", "a ^ b ^ c", bound=12, workers=1, chunk_size=100)
    assert fresh.positions_checked == data["positions_checked"]


def test_two_runs_at_once_share_the_store(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    base = [*NIMLAB, "verify", "--game", "nim", "--bound", "10", "--chunk-size", "50",
            "--workers", "1", "--json"]  # fmt: skip
    procs = [
        subprocess.Popen(
            [*base, "--formula", f], env=_env(db, 0.02), stdout=subprocess.PIPE, text=True
        )
        for f in ("a ^ b ^ c", "c ^ b ^ a")
    ]
    outs = [json.loads(p.communicate(timeout=120)[0]) for p in procs]
    assert all(o["positions_checked"] == 1000 and o["result"] == "verified" for o in outs)
    rs = runs(db)
    assert sorted(r.positions for r in rs) == [1000, 1000]
    assert all(r.chunks_done == r.n_chunks == 10 for r in rs)


def test_runs_cli_lists_runs(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    verify("nim", "a ^ b", bound=5, heaps=2, workers=1, store=db)
    out = subprocess.run([*NIMLAB, "runs", "--json"], env=_env(db), capture_output=True, text=True)
    assert out.returncode == 0
    data = json.loads(out.stdout)
    assert data[0]["target"] == "a ^ b" and data[0]["positions_checked"] == 25
    assert nimlab.runs(db)[0].status == "verified"


def test_plain_progress_lines_when_not_a_terminal(tmp_path: Path) -> None:
    env = _env(tmp_path / "r.sqlite", 0.05)
    env["NIMLAB_PROGRESS_INTERVAL"] = "0"
    out = subprocess.run(
        [*NIMLAB, "verify", "--game", "nim", "--formula", "a ^ b ^ c", "--bound", "6",
         "--chunk-size", "36", "--workers", "1"],
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert out.returncode == 0
    lines = [ln for ln in out.stderr.splitlines() if "chunks" in ln]
    assert len(lines) == 6
    assert lines[-1].startswith("a ^ b ^ c: 6/6 chunks, 216 positions") and "ETA" in lines[-1]
