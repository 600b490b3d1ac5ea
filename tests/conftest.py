"""Test-wide settings: compiled users' games are cached in a temporary directory."""

from __future__ import annotations

import atexit
import copy
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

# the disk cache of compiled kernels (nimlab.engine._diskcache) never writes to the home
# directory of the machine running the tests; subprocesses inherit the variable. By
# default it is the checkout's own .nimlab-test-cache/ (git ignores it), kept between runs
# as a user's cache is, so that a second run of the quick subset loads the kernels the
# first one compiled; NIMLAB_TEST_CACHE=fresh gives a temporary one, removed at the end.
if "NIMLAB_CACHE_DIR" not in os.environ:
    if os.environ.get("NIMLAB_TEST_CACHE") == "fresh":
        _dir = tempfile.mkdtemp(prefix="nimlab-test-cache-")
        atexit.register(shutil.rmtree, _dir, ignore_errors=True)
    else:
        _dir = os.path.join(os.path.dirname(os.path.dirname(__file__)), ".nimlab-test-cache")
        os.makedirs(_dir, exist_ok=True)
    os.environ["NIMLAB_CACHE_DIR"] = _dir


# The Ctrl-C tests send SIGINT to the processes they start, which must stop as a user's
# would. A shell that starts the suite in the background (``.ci/run &`` in a script,
# ``nohup``) makes its processes ignore SIGINT, and an ignored signal stays ignored across
# exec: every nimlab process of the tests would then run to its end. Python's own handler
# here is reset to the default at exec, so the processes the tests start get SIGINT as in
# a terminal.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config):  # type: ignore[no-untyped-def]
    """``pytest -n N`` schedules with xdist's ``worksteal`` instead of its default ``load``
    (unless ``--dist`` is given). ``load`` hands the tests out in small batches in
    collection order, so at the end one worker can run a long test alone while the other
    waits (about 18 s of the suite's 275 s, simulated from a CI run's per-test times), and
    both workers run neighbouring tests at once, which compile the same kernels at the
    same time. ``worksteal`` gives each worker half of the collection and lets an idle
    worker take the not yet started half of the other's queue: about 1 s idle. Set here
    rather than in ``addopts``, where ``--dist`` is an error when xdist is not loaded
    (``-p no:xdist``, as mutmut runs the tests)."""
    if getattr(config.option, "dist", None) != "load":
        return  # no xdist, or no -n, or --dist given
    given = [*map(str, config.invocation_params.args), os.environ.get("PYTEST_ADDOPTS", "")]
    given += config.getini("addopts")
    if not any(a.startswith("--dist") or a == "-d" or " --dist" in a for a in given):
        config.option.dist = "worksteal"


def _slow_ids() -> set[str]:
    """The node ids (or function ids without parameters) listed in tests/slow_tests.txt."""
    from pathlib import Path

    path = Path(__file__).with_name("slow_tests.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    return {ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")}


SLOW_IDS = _slow_ids()
STALE_SLOW_IDS = __import__("pytest").StashKey[list[str]]()


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    """Mark the tests listed in tests/slow_tests.txt as `slow` (the quick subset skips them)."""
    import pytest

    matched: set[str] = set()
    files: set[str] = set()
    for item in items:
        nodeid = item.nodeid
        files.add(nodeid.split("::", 1)[0])
        for key in (nodeid, nodeid.split("[", 1)[0]):
            if key in SLOW_IDS:
                matched.add(key)
                item.add_marker(pytest.mark.slow)
    # ids of collected files that name no test any more (checked by test_suite_timeouts)
    config.stash[STALE_SLOW_IDS] = sorted(
        i for i in SLOW_IDS - matched if i.split("::", 1)[0] in files
    )


# NIMLAB_TEST_CPU=FILE appends "cpu-seconds wall-seconds nodeid" for every test to FILE
# (each xdist worker appends its own lines): CPU time measures a test's cost even on a
# loaded machine, where wall times are inflated, to choose what tests/slow_tests.txt lists.
_CPU_FILE = os.environ.get("NIMLAB_TEST_CPU")
if _CPU_FILE:
    import resource
    import time

    import pytest

    def _cpu() -> float:
        """CPU seconds of this process and of its children that ended (the CLI runs)."""
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + kids.ru_utime + kids.ru_stime

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):  # type: ignore[no-untyped-def]
        cpu, wall = _cpu(), time.perf_counter()
        yield
        cpu, wall = _cpu() - cpu, time.perf_counter() - wall
        with open(_CPU_FILE, "a", encoding="utf-8") as f:
            f.write(f"{cpu:.3f} {wall:.3f} {item.nodeid}\n")


# The game registry as the collection leaves it (the catalog loaded, and the games the test
# modules define when imported). Each test module starts and ends with it, so that a game
# one module registers (a doctest's doc-dawson, a test's own) never reaches another module
# (tests/test_planner.py checks that the catalog's games are all it knows).
_REGISTRY: dict[str, Any] = {}
_REGISTRY_STATE = ("_CLASSES", "_NAMES", "_FAMILIES", "_LOADED_FILES", "_plugins_loaded")


def pytest_collection_finish(session):  # type: ignore[no-untyped-def]
    from nimlab.catalog import registry

    registry._load()  # loaded before, never undone by a restore
    _REGISTRY.update({k: copy.copy(getattr(registry, k)) for k in _REGISTRY_STATE})


@pytest.fixture(autouse=True, scope="module")
def _registry_of_the_collection() -> Iterator[None]:
    """Every test module starts and ends with the registry of the collection."""
    _restore_registry()
    yield
    _restore_registry()


def _restore_registry() -> None:
    from nimlab.catalog import registry

    for k, saved in _REGISTRY.items():
        live = getattr(registry, k)
        if isinstance(live, dict):
            live.clear()
            live.update(saved)
        else:
            setattr(registry, k, saved)
