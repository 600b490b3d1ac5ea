"""Compile probe for the test suite (measurement only): every numba compilation of every
process, with its CPU seconds and the test that caused it.

Run the suite with this folder first on ``PYTHONPATH`` (subprocesses inherit it, so the
CLI runs of the tests are counted too) and ``NIMLAB_COMPILE_LOG=FILE``; with an empty
cache (``NIMLAB_CACHE_DIR`` a new folder, and a fresh clone: numba's own cache of
nimlab's modules is in their ``__pycache__``), e.g.::

    PYTHONPATH=benchmarks/compile_probe:src NIMLAB_CACHE_DIR=$(mktemp -d) \\
        NIMLAB_COMPILE_LOG=/tmp/compiles.txt NIMLAB_TEST_CPU=/tmp/cpu.txt pytest -n 2

Each line of FILE: ``cpu wall pid test function signature depth`` (depth 0: a top-level
compilation, which includes the functions it compiles on the way; nested ones are written
only from 0.3 s, to show where a long one goes). The sum of CPU at depth 0 is the
suite's compile CPU::

    awk '$NF == 0 {s += $1} END {print s}' /tmp/compiles.txt
"""

import os
import sys

_LOG = os.environ.get("NIMLAB_COMPILE_LOG")


def _register(event):
    import threading
    import time

    local = threading.local()

    class _Listener(event.Listener):
        def on_start(self, ev):
            if not hasattr(local, "stack"):
                local.stack = []
            local.stack.append((time.thread_time(), time.perf_counter()))

        def on_end(self, ev):
            c0, w0 = local.stack.pop()
            depth = len(local.stack)
            cpu = time.thread_time() - c0
            if depth and cpu < 0.3:
                return
            disp = ev.data.get("dispatcher")
            fn = getattr(disp, "py_func", None)
            name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', disp)}"
            sig = str(ev.data.get("args")).replace(" ", "")[:300]
            test = os.environ.get("PYTEST_CURRENT_TEST", "-").split(" ")[0]
            wall = time.perf_counter() - w0
            with open(_LOG, "a", encoding="utf-8") as f:
                f.write(f"{cpu:.3f} {wall:.3f} {os.getpid()} {test} {name} {sig} {depth}\n")

    event.register("numba:compile", _Listener())


if _LOG:
    import importlib.abc
    import importlib.machinery

    class _Finder(importlib.abc.MetaPathFinder):
        """Registers the listener as soon as numba's event module is imported (a process
        that never imports numba is not slowed down)."""

        def find_spec(self, fullname, path, target=None):
            if fullname != "numba.core.event":
                return None
            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
            if spec is None or spec.loader is None:
                return None
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                _register(module)

            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, _Finder())
