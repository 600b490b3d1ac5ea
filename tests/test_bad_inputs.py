"""Bad input never escapes: the probe of issue 11, run from the table in bad_inputs.py.

Every command-line case must print exactly one line on stderr, starting with ``error:``
and containing the expected fragment, and exit with status 2 (no traceback, no hang, no
out-of-memory: each case has a time limit, and the cases that once filled memory run in a
process of its own with a memory cap). Every API case must raise the named NimlabError subclass.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import bad_inputs as probe
import isolated_case
import pytest

import nimlab
from nimlab.cli import main

MEMORY_CAP = 2_500_000_000  # bytes of address space for an isolated case


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("bad-inputs")
    probe.prepare_files(str(d))
    return d


@pytest.fixture(autouse=True)
def _own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the default store of a case is a fresh file, never the user's own
    monkeypatch.setenv("NIMLAB_STORE", str(tmp_path / "default.sqlite"))


def _expand(argv: tuple[str, ...], tmp: Path) -> list[str]:
    return [a.replace("{tmp}", str(tmp)).replace("{big}", probe.BIG) for a in argv]


@contextlib.contextmanager
def _time_limit(seconds: float, what: str) -> Iterator[None]:
    def on_alarm(signum: int, frame: Any) -> None:
        raise TimeoutError(f"{what} ran longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _run_isolated(kind: str, payload: Any, cwd: Path, timeout: float) -> tuple[int, str]:
    """Exit status and standard error of one case run in a process of its own (forked from
    a warm one: :mod:`isolated_case`) under the memory cap, killed after *timeout* s."""
    env = dict(os.environ)
    env.pop("NIMLAB_DEBUG", None)
    err = cwd / "isolated-stderr.txt"
    args = (kind, payload, str(cwd), env, MEMORY_CAP, str(err))
    proc = isolated_case.context().Process(target=isolated_case.child, args=args)
    t0 = time.monotonic()
    isolated_case.start(proc)
    proc.join(timeout)
    if proc.is_alive():
        proc.kill()
        proc.join()
        pytest.fail(f"still running after {time.monotonic() - t0:.0f} s (a hang)")
    return proc.exitcode, err.read_text(errors="replace")


def _check_line(code: int, err: str, case: probe.Cli) -> None:
    assert "Traceback" not in err, err
    if case.code == 0:  # a large but legitimate input: it must simply work
        assert code == 0, err
        return
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines, f"exit {code} with nothing on stderr"
    assert len(lines) == 1, f"more than one line on stderr:\n{err}"
    assert lines[0].startswith("error: "), lines[0]
    assert case.fragment in lines[0], lines[0]
    assert code == case.code, f"exit status {code}: {lines[0]}"


@pytest.mark.parametrize("case", probe.CLI_CASES, ids=lambda c: c.id)
def test_cli(
    case: probe.Cli,
    files: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = _expand(case.argv, files)
    for name, value in case.env:
        monkeypatch.setenv(name, value)
    if case.isolate:
        code, err = _run_isolated("cli", argv, tmp_path, case.timeout)
    else:
        with _time_limit(case.timeout, case.id):
            code = main(argv)
        err = capsys.readouterr().err
    _check_line(code, err, case)


@pytest.mark.parametrize("case", probe.API_CASES, ids=lambda c: c.id)
def test_api(case: probe.Api, files: Path, tmp_path: Path) -> None:
    error = getattr(nimlab, case.error)
    assert issubclass(error, nimlab.NimlabError)
    if case.isolate:
        rc, err = _run_isolated("api", (case.call, str(files)), tmp_path, case.timeout)
        assert rc == 3, f"exit {rc}: {err[-2000:]}"
        assert err.startswith(case.error + " "), err
        assert case.fragment in err, err
        return
    scope = {"nimlab": nimlab, "tmp": str(files), "probe": probe}
    with _time_limit(case.timeout, case.id), pytest.raises(error) as info:
        eval(case.call, scope)
    assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
    assert case.fragment in str(info.value), str(info.value)
    assert "\n" not in str(info.value)
