"""Long legitimate work: budgets checked first, a progress bar on a terminal (issue 11)."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nimlab
from nimlab.engine.sequences import octal_sequence

_KAYLES = nimlab.game("octal", code="0.77")


@pytest.mark.parametrize("code", ["0.77", "4!.0", "0.07", "0.137", "4.7", "0.6", "0.F", "0.4"])
def test_octal_in_chunks_gives_the_same_values(code: str) -> None:
    n = 120 if "F" in code else 3000  # three-heap splits: the direct method, cubic
    whole = octal_sequence(code, n)
    for chunk in (1, 7, 500):
        assert np.array_equal(octal_sequence(code, n, chunk=chunk), whole), chunk
    assert np.array_equal(octal_sequence(code, n, direct=True), whole)


def test_periodicity_has_the_budget_of_sequence() -> None:
    with pytest.raises(nimlab.WorkTooLargeError, match="budget of 100 terms"):
        nimlab.periodicity_of(_KAYLES, 200, max_terms=100)
    with pytest.raises(nimlab.WorkTooLargeError, match="budget of 100,000 terms"):
        nimlab.periodicity_of(_KAYLES, 1_000_000)
    # the proof of Kayles' period needs 167 terms: a budget below it leaves it unproved
    per = nimlab.periodicity_of(_KAYLES, 150, max_terms=160)
    assert not per.proved and "more than the budget of 160" in per.reason
    assert nimlab.periodicity_of(_KAYLES, 150, max_terms=400).proved


def test_one_octal_heap_is_read_from_its_sequence() -> None:
    kayles = nimlab.game("octal", code="0.77")
    seq = nimlab.sequence(kayles, 3001)
    t0 = time.monotonic()
    assert nimlab.grundy(kayles, 3000) == int(seq[3000])
    assert nimlab.grundy(kayles, (3000, 2999)) == int(seq[3000]) ^ int(seq[2999])
    assert nimlab.outcome(kayles, (2999, 2999)) == nimlab.Outcome.P
    assert time.monotonic() - t0 < 20
    with pytest.raises(nimlab.WorkTooLargeError, match=r"nimlab sequence \.\.\. -n 1000001"):
        nimlab.grundy(kayles, 1_000_000)


def _in_a_terminal(
    args: list[str],
    marker: bytes | re.Pattern[bytes] | None = None,
    env: dict[str, str] | None = None,
    python: bool = False,
) -> tuple[int, str]:
    """Run the CLI (with *python*: Python with *args*) with stderr (and stdout) on a
    pseudo-terminal; return its status and everything it printed. With *marker* (bytes or
    a pattern), press Ctrl-C once it was printed."""
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="160", TERM="xterm", **(env or {}))
    proc = subprocess.Popen(
        [sys.executable, *args] if python else [sys.executable, "-m", "nimlab", *args],
        stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env, close_fds=True,
    )  # fmt: skip
    os.close(slave)
    out = b""
    t0 = time.monotonic()
    sent = False
    try:
        while time.monotonic() - t0 < 120:
            seen = (
                (marker.search(out) if isinstance(marker, re.Pattern) else marker in out)
                if marker is not None
                else False
            )
            if seen and not sent:
                proc.send_signal(signal.SIGINT)
                sent = True
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
        rc = proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return rc, out.decode(errors="replace")


@pytest.mark.timeout(180)
def test_a_long_octal_sequence_shows_its_progress() -> None:
    # the bar appears at once (no one-second delay): a run that is quick on a fast
    # machine still shows it
    rc, out = _in_a_terminal(
        ["sequence", "octal", "-p", "code=0.77", "-n", "40000"],
        env={"NIMLAB_PROGRESS_DELAY": "0"},
    )
    assert rc == 0, out[-2000:]
    assert "Grundy values" in out and "terms" in out and "/s" in out, out[-2000:]
    assert "Traceback" not in out


@pytest.mark.timeout(180)
def test_a_misere_quotient_shows_its_progress() -> None:
    rc, out = _in_a_terminal(
        ["misere-quotient", "0.77", "--max-heap", "48"], env={"NIMLAB_PROGRESS_DELAY": "0"}
    )
    assert rc == 0, out[-2000:]
    assert "misère quotient" in out and "heaps ·" in out and "/s" in out, out[-2000:]
    assert "order 40" in out, out[-2000:]  # the detail: the current order
    assert "Traceback" not in out


@pytest.mark.timeout(180)
def test_a_long_table_shows_its_progress_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    csv_path = tmp_path / "F.csv"
    args = ["table", "wythoff", "--size", "12000", "--csv", str(csv_path)]
    rc, out = _in_a_terminal([*args, "--max-cells", "200000000"], "cells ·".encode())
    assert "Traceback" not in out, out[-3000:]
    assert rc == 130, out[-2000:]
    assert "cells" in out and "/s" in out, out[-2000:]  # the bar showed counts and a rate
    assert "interrupted" in out[-300:] or "aborted" in out[-300:], out[-500:]
    assert not csv_path.exists()  # stopped before the export


def test_a_huge_table_is_refused_before_any_work(tmp_path: Path) -> None:
    t0 = time.monotonic()
    res = subprocess.run(
        [sys.executable, "-m", "nimlab", "table", "wythoff", "--size", "20000", "--csv",
         str(tmp_path / "F.csv")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert res.returncode == 2, res.stderr
    assert "400,000,000 cells" in res.stderr and "--max-cells N" in res.stderr
    assert time.monotonic() - t0 < 30
    assert not (tmp_path / "F.csv").exists()
    with pytest.raises(nimlab.WorkTooLargeError, match="max_cells=N"):
        nimlab.table_view("wythoff", 20000)


@pytest.mark.parametrize(
    ("game", "shape", "kind"),
    [
        ("wythoff", (40, 33), "grundy"),
        ("wythoff", (20, 20), "outcome"),
        ("nim", (9, 8, 7), "grundy"),
        ("nim", (9, 8, 7), "misere"),
        ("moore:2", (7, 8, 9), "grundy"),
        ("moore:1", (7, 8, 9), "misere"),
        ("lim", (6, 7, 8), "grundy"),
        ("delete", (30, 20), "grundy"),
        ("subtraction:1,3,4", (300,), "grundy"),
        ("circular:2", (8, 8, 8), "grundy"),
        ("nimhoff:2", (16, 16), "grundy"),
        ("ryuo:3", (20, 20), "grundy"),
    ],
)
def test_tables_watched_for_progress_are_the_same(
    game: str, shape: tuple[int, ...], kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from nimlab.catalog.registry import parse_game_spec

    name, _, arg = game.partition(":")
    g = nimlab.game(name, k=arg) if name in ("circular", "nimhoff") else parse_game_spec(game)
    plain = nimlab.table(g, shape, kind=kind)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # the bar is on: sentinel cells
    watched = nimlab.table(g, shape, kind=kind, progress=True)
    assert np.array_equal(np.ma.getdata(plain), np.ma.getdata(watched))
    assert np.array_equal(np.ma.getmaskarray(plain), np.ma.getmaskarray(watched))


def test_exports_stream_the_same_text(tmp_path: Path) -> None:
    import json

    for tv in (
        nimlab.table_view("welter", 9),
        nimlab.table_view("nim", 5, heaps=3),
        nimlab.table_view("nim", 5, heaps=3, slice_z=2, kind="outcome"),
        nimlab.table_view(nimlab.game("subtraction", S="1,2"), 12),
    ):
        tv.write_csv(tmp_path / "t.csv")
        assert (tmp_path / "t.csv").read_text() == tv.to_csv()
        tv.write_json(tmp_path / "t.json")
        assert json.loads((tmp_path / "t.json").read_text()) == json.loads(tv.to_json())


def test_long_sequences_print_in_blocks(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from nimlab.cli import main

    g = nimlab.game("subtraction", S="1,3,4")
    want = nimlab.sequence(g, 150_000).tolist()
    assert main(["sequence", "subtraction", "-p", "S=1,3,4", "-n", "150000"]) == 0
    assert capsys.readouterr().out.split() == [str(v) for v in want]
    assert main(["sequence", "subtraction", "-p", "S=1,3,4", "-n", "150000", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sequence"] == want and data["n"] == 150_000


@pytest.mark.timeout(180)
def test_a_long_search_shows_its_moves_against_the_budget_and_stops_on_ctrl_c() -> None:
    # Moore's Nim_4 on five heaps: each position has about 10^5 options; the bar counts
    # the moves generated against the search's budget, and Ctrl-C stops the search
    args = ["grundy", "moore", "-p", "k=4", "12", "12", "12", "12", "12", "--method", "search"]
    rc, out = _in_a_terminal(args, "moves ·".encode(), env={"NIMLAB_PROGRESS_DELAY": "0"})
    assert "Traceback" not in out, out[-3000:]
    assert "search (moves of the budget)" in out and "/5000000" in out, out[-2000:]
    assert rc == 130, out[-2000:]


_TABLE_FROM_PYTHON = """
import threading
import nimlab
try:
    nimlab.table("wythoff", 12000, progress=True)
    print("finished")
except KeyboardInterrupt:
    left = [t.name for t in threading.enumerate() if t.name == "nimlab-kernel"]
    print("interrupted; kernel threads left:", left)
"""


@pytest.mark.timeout(180)
def test_ctrl_c_on_a_table_started_from_python_stops_its_kernel_thread() -> None:
    # the kernel runs in a worker thread while the bar is drawn: Ctrl-C must stop it (its
    # stop flag), not leave it computing in the background
    rc, out = _in_a_terminal(
        ["-c", _TABLE_FROM_PYTHON],
        re.compile(rb"m +[1-9][0-9]*/144000000"),  # some cells done
        env={"NIMLAB_PROGRESS_DELAY": "0"},
        python=True,
    )
    assert rc == 0, out[-2000:]
    assert "interrupted; kernel threads left: []" in out, out[-2000:]


@pytest.mark.timeout(240)
def test_the_first_compiled_answer_says_that_it_compiles() -> None:
    # a four-heap Single-delete Grundy value has no closed form: the compiled engine is
    # compiled once per process (seconds), which a spinner says on a terminal
    rc, out = _in_a_terminal(
        ["grundy", "single-delete", "8", "12", "14", "47"], env={"NIMLAB_PROGRESS_DELAY": "0"}
    )
    assert rc == 0, out[-2000:]
    assert "single-delete: compiling the engine for 4 heaps (once per process)" in out, out[:500]
    assert out.rstrip().endswith("0"), out[-300:]


_TABLE_NO_BAR = """
import threading
import nimlab
print("started", flush=True)
try:
    nimlab.table("wythoff", 15000)
    print("finished")
except KeyboardInterrupt:
    left = [t.name for t in threading.enumerate() if t.name == "nimlab-kernel"]
    print("interrupted; kernel threads left:", left)
"""


@pytest.mark.timeout(180)
def test_ctrl_c_stops_a_large_table_without_a_bar() -> None:
    # no terminal, no bar: a large kernel still runs in a worker thread, so that Ctrl-C
    # stops it instead of waiting for the whole table
    proc = subprocess.Popen(
        [sys.executable, "-c", _TABLE_NO_BAR], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    try:
        assert proc.stdout.readline().strip() == "started"
        time.sleep(3)  # into the kernel (about 10 s of work on a quiet machine)
        proc.send_signal(signal.SIGINT)
        t0 = time.monotonic()
        out, _ = proc.communicate(timeout=120)
    finally:  # a failure never leaves the table running for the rest of the suite
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "interrupted; kernel threads left: []" in out, out
    assert time.monotonic() - t0 < 30


@pytest.mark.timeout(180)
def test_a_claim_table_shows_its_progress_and_stops_on_ctrl_c() -> None:
    # CN(6,4) to heap 12: the closed form is evaluated at 2,985,984 positions in Python
    # before the compiled check; the bar counts them, and Ctrl-C stops the run at once
    args = ["verify", "S19-T9", "--bound", "12", "--no-store", "--workers", "1"]
    rc, out = _in_a_terminal(args, b"claim table", env={"NIMLAB_PROGRESS_DELAY": "0"})
    assert "Traceback" not in out, out[-3000:]
    assert "S19-T9#0: claim table" in out and "positions ·" in out, out[-2000:]
    assert "/2985984" in out.replace(",", ""), out[-2000:]
    assert rc == 130, out[-2000:]


def test_reproduce_shows_the_chunks_of_each_running_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each worker of ``reproduce`` sends its result's chunk counts to the display."""
    from types import SimpleNamespace

    from nimlab.theory import _jobs
    from nimlab.verification.progress import RunProgress

    seen: list[tuple[int, str, int, int]] = []

    class Show:
        def __init__(self, enabled: bool) -> None:
            self.bar = object() if enabled else None

        def start(self, i: int, label: str) -> None: ...

        def chunks(self, i: int, label: str, done: int, total: int) -> None:
            seen.append((i, label, done, total))

        def stop(self, i: int) -> None: ...

        def close(self) -> None: ...

    def one(t: Any, bound: int, **run: Any) -> str:
        p = RunProgress(f"{t.id}#0", 3, enabled=False)
        for _ in range(3):
            p.advance(1, 10)
        return str(t.id)

    monkeypatch.setattr(_jobs, "_Running", Show)
    ts = [SimpleNamespace(id=x, status=SimpleNamespace(replaced_by=None)) for x in "AB"]
    how = {"one": one, "cost": lambda t, b: 1.0, "parts": lambda t, b: []}
    out = _jobs.run_parallel(ts, [1, 1], None, None, 2, {"progress": True}, how)
    assert sorted(out.values()) == ["A", "B"]
    assert (0, "A#0", 1, 3) in seen and (0, "A#0", 3, 3) in seen and (1, "B#0", 3, 3) in seen
