"""Test-wide settings: compiled users' games are cached in a temporary directory."""

from __future__ import annotations

import os
import tempfile

# the disk cache of compiled user games (nimlab.engine._diskcache) never writes to the
# home directory of the machine running the tests
os.environ.setdefault("NIMLAB_CACHE_DIR", tempfile.mkdtemp(prefix="nimlab-test-cache-"))
