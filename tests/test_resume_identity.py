"""Resume refuses a run checked with other code (issue 23): the game's move function, its
file or the claim changed since the run was interrupted. A fresh run of the changed game
refutes the claim, so the resumed run must never say "verified"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import nimlab
from nimlab.verification import Store, verify

NIM_FILE = """import nimlab

@nimlab.heap_game("resume-probe", heaps=2)
def moves(h):
    for i in range(2):
        for v in range(h[i]):
            yield nimlab.replace(h, i, v)
"""
# the edit of the research loop: a move more (from any position to 0 0), so a ^ b is false
EDITED_FILE = NIM_FILE + "    if h[0] > 1 and h[1] > 1:\n        yield (0, 0)\n"


def _interrupt(db: Path, run_id: int) -> None:
    """Make *run_id* look interrupted midway: half of its chunks undone."""
    st = Store(db)
    st.conn.execute("DELETE FROM chunks WHERE run_id = ? AND idx >= 4", (run_id,))
    st.conn.execute("UPDATE runs SET status = 'interrupted' WHERE id = ?", (run_id,))
    st.close()


def _define(text: str, tmp_path: Path) -> nimlab.Ruleset:  # type: ignore[type-arg]
    ns: dict[str, object] = {}
    path = tmp_path / "resume_game.py"
    path.write_text(text)
    exec(compile(text, str(path), "exec"), ns)
    return ns["moves"]  # type: ignore[return-value]


def test_changed_move_function_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    g = _define(NIM_FILE, tmp_path)
    r1 = verify(g, "a ^ b", bound=8, heaps=2, workers=1, store=db, chunk_size=8)
    assert r1.ok
    _interrupt(db, r1.run_id)
    g2 = _define(EDITED_FILE, tmp_path)
    fresh = verify(g2, "a ^ b", bound=8, heaps=2, workers=1, store=None, chunk_size=8)
    assert not fresh.ok  # the changed game refutes the claim
    for resume in (True, r1.run_id):
        with pytest.raises(nimlab.InvalidParameterError, match="checked with other code"):
            verify(g2, "a ^ b", bound=8, heaps=2, workers=1, store=db, resume=resume, chunk_size=8)
    # the same code resumes as before
    g3 = _define(NIM_FILE, tmp_path)
    r3 = verify(g3, "a ^ b", bound=8, heaps=2, workers=1, store=db, resume=True, chunk_size=8)
    assert r3.run_id == r1.run_id and r3.chunks_resumed == 4 and r3.ok


def test_changed_claim_function_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"

    def claim(a: int, b: int) -> int:
        return a ^ b

    r1 = verify("nim", claim, bound=8, heaps=2, workers=1, store=db, chunk_size=8)
    assert r1.ok
    _interrupt(db, r1.run_id)

    def claim(a: int, b: int) -> int:  # type: ignore[no-redef]  # the claim edited
        return a ^ b if a < 7 else 0

    with pytest.raises(nimlab.InvalidParameterError, match="checked with other code"):
        verify("nim", claim, bound=8, heaps=2, workers=1, store=db, resume=True, chunk_size=8)


def _cli(args: list[str], db: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NIMLAB_STORE=str(db))
    env.pop("NIMLAB_VERIFY_CHUNK_SLEEP", None)
    return subprocess.run(
        [sys.executable, "-m", "nimlab", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
@pytest.mark.parametrize("extra", [[], ["--dask-local", "--workers", "1"]], ids=["pool", "dask"])
def test_cli_edit_game_file_then_resume(tmp_path: Path, extra: list[str]) -> None:
    db = tmp_path / "r.sqlite"
    game = tmp_path / "g.py"
    game.write_text(NIM_FILE)
    args = ["verify", "--game", f"{game}:resume-probe", "--formula", "a ^ b", "--heaps", "2"]
    args += ["--bound", "8", "--chunk-size", "8", *extra]
    first = _cli([*args, "--workers", "1"] if not extra else args, db)
    assert first.returncode == 0, first.stderr
    con = Store(db)
    (run_id,) = con.conn.execute("SELECT MAX(id) FROM runs").fetchone()
    con.close()
    _interrupt(db, int(run_id))
    game.write_text(EDITED_FILE)
    out = _cli([*args, "--resume"] + (["--workers", "1"] if not extra else []), db)
    lines = [x for x in out.stderr.splitlines() if x.strip()]
    assert out.returncode == 2, out.stderr
    assert len(lines) == 1 and "checked with other code" in lines[0], out.stderr
    assert "verified" not in out.stdout
