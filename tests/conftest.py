"""Test-wide settings: compiled users' games are cached in a temporary directory."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

# the disk cache of compiled user games (nimlab.engine._diskcache) never writes to the
# home directory of the machine running the tests; subprocesses inherit the variable
if "NIMLAB_CACHE_DIR" not in os.environ:
    _dir = tempfile.mkdtemp(prefix="nimlab-test-cache-")
    os.environ["NIMLAB_CACHE_DIR"] = _dir
    atexit.register(shutil.rmtree, _dir, ignore_errors=True)
