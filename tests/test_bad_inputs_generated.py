"""Generated bad inputs (issue 23): hypothesis draws malformed options of users' move
functions and malformed option values; a seeded sample of the hostile probe
(``benchmarks/probe_bad_inputs.py``) runs too. Nothing may escape as anything but one
NimlabError (Python) or one ``error:`` line with exit status 2 (command line)."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nimlab
from nimlab.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

ints = st.integers(min_value=0, max_value=6)
bad_items = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
    st.booleans(),
    st.none(),
    st.integers(max_value=-1),
    st.floats(min_value=0, max_value=5).map(np.float64),
    st.just(1 + 0j),
)
#: An option a broken move function yields from a position of 2 heaps.
bad_options = st.one_of(
    st.tuples(ints),  # one heap too few
    st.tuples(ints, ints, ints),  # one heap too many
    st.tuples(bad_items, ints),
    st.tuples(ints, bad_items),
    bad_items,
    st.dictionaries(st.text(max_size=2), ints, max_size=2),
    st.text(max_size=4),
)


def _valid(o: Any) -> bool:
    return (
        isinstance(o, tuple)
        and len(o) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in o)
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(option=bad_options)
def test_malformed_option_is_one_game_definition_error(option: Any) -> None:
    def moves(h: Any) -> Any:
        if h[0] > 0:
            yield option

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = nimlab.heap_game("fuzz-options", heaps=2)(moves)
        with pytest.raises(nimlab.GameDefinitionError) as info:
            nimlab.grundy(g, (2, 1), method="search")
    assert "\n" not in str(info.value)
    assert _valid(option) is False


@settings(max_examples=60, deadline=None)
@given(
    option=st.sampled_from(["--limit", "--lock-timeout"]),
    value=st.one_of(
        st.text(max_size=12),
        st.integers().map(str),
        st.integers(min_value=10**17, max_value=10**400).map(str),
        st.floats().map(repr),
    ),
)
def test_option_values_never_escape(
    option: str, value: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    import contextlib
    import io

    store = tmp_path_factory.mktemp("opt") / "s.sqlite"
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["runs", "--store", str(store), option, value])
    lines = [x for x in err.getvalue().splitlines() if x.strip()]
    assert code in (0, 2), err.getvalue()
    if code == 2:
        assert len(lines) == 1 and lines[0].startswith("error: "), err.getvalue()


def test_probe_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seeded sample of the hostile probe: no escape of any kind."""
    import probe_bad_inputs as probe

    monkeypatch.setenv("NIMLAB_STORE", str(tmp_path / "default.sqlite"))
    probe.prepare(str(tmp_path))
    import random

    rng = random.Random(23)
    cli = [
        c for c in probe.cli_cases() if not c.id.startswith(("store-", "user-spins", "user-grows"))
    ]
    api = [c for c in probe.api_cases() if "spins" not in c.call]
    bad = []
    for case in rng.sample(cli, 25):
        v = probe.run_cli(case, str(tmp_path))
        if v.kind != "ok":
            bad.append((case.id, case.argv, v.kind, v.detail))
    for case in rng.sample(api, 10):
        v = probe.run_api(case, str(tmp_path))
        if v.kind != "ok":
            bad.append((case.id, case.call, v.kind, v.detail))
    assert not bad, bad
