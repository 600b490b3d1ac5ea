"""A bad input run in a process of its own, forked from a process that has nimlab imported.

Used by :mod:`test_bad_inputs` for its isolated cases (those that once filled memory or
hung): each runs in a new process under a memory cap and a time limit, as a subprocess
did, but forked by multiprocessing's fork server, whose process imported nimlab's command
line once (a new interpreter and its imports cost about 0.5 s of CPU a case, 25 cases).
The fork server is single-threaded (never the pytest worker itself, which has threads).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import traceback
from typing import Any

_CONTEXT: Any = None


def context() -> Any:
    """The fork-server context, its server preloading nimlab's command line."""
    global _CONTEXT
    if _CONTEXT is None:
        _CONTEXT = multiprocessing.get_context("forkserver")
        _CONTEXT.set_forkserver_preload(["isolated_case", "bad_inputs", "isolated_warm"])
    return _CONTEXT


def start(proc: Any) -> None:
    """Start *proc* (of :func:`context`) without the main module: multiprocessing would
    run pytest's again in every child (0.3 s) to find functions of ``__main__`` there."""
    from multiprocessing import spawn

    real = spawn.get_preparation_data

    def without_main(name: str) -> dict[str, Any]:
        data: dict[str, Any] = real(name)
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
        return data

    spawn.get_preparation_data = without_main
    try:
        proc.start()
    finally:
        spawn.get_preparation_data = real


def child(
    kind: str, payload: Any, cwd: str, env: dict[str, str], memory_cap: int, err_path: str
) -> None:
    """Run one case in this (forked) process and leave with its exit status.

    *kind* ``"cli"``: ``nimlab.cli.main(payload)``, as ``nimlab ARGS`` would. ``"api"``:
    *payload* is ``(call, tmp)``, an expression evaluated with ``nimlab``, ``probe`` and
    ``tmp`` in scope; a NimlabError is written as its class name and message, status 3.
    Standard error goes to *err_path*, standard input and output to the null device.
    """
    import resource

    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    resource.setrlimit(resource.RLIMIT_AS, (memory_cap, memory_cap))
    sys.stdout.flush()
    sys.stderr.flush()
    null = os.open(os.devnull, os.O_RDWR)
    err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.dup2(err, 2)
    code = 1
    try:
        code = _run(kind, payload)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # as the interpreter would: its traceback, status 1
        traceback.print_exc()
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _run(kind: str, payload: Any) -> int:
    import nimlab

    if kind == "cli":
        from nimlab.cli import main

        return int(main(list(payload)) or 0)
    import bad_inputs as probe

    call, tmp = payload
    try:
        eval(call, {"nimlab": nimlab, "probe": probe, "tmp": tmp})
    except nimlab.NimlabError as exc:
        print(type(exc).__name__, exc, file=sys.stderr)
        return 3
    return 0
