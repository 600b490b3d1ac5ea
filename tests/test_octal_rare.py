"""The rare-value octal engine (engine/octal_rare.py) against the direct method and
published data (tests/data/octal_published.txt: OEIS sequences and periods, T. Czajka's
table of solved octal games)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from nimlab.core.errors import InvalidParameterError, StoreError
from nimlab.engine.octal_rare import choose_mask, choose_sparse, octal_run

DATA = Path(__file__).parent / "data" / "octal_published.txt"


def _records(kind: str) -> list[list[str]]:
    rows = []
    for line in DATA.read_text().splitlines():
        fields = line.split("#", 1)[0].split()
        if fields and fields[0] == kind:
            rows.append(fields[1:])
    return rows


def _code(text: str) -> str:
    return text if not text.startswith(".") else "0" + text


@pytest.mark.parametrize("code", ["0.6", "0.77", "4.7", "0.137", "4!.0", "0.376", "0.354"])
def test_rare_values_equal_the_direct_method(code: str) -> None:
    n = 10_000
    direct = octal_run(code, n, direct=True, periodic=False).values
    rare = octal_run(code, n, periodic=False)
    assert rare.mask != 0  # the rare-value method ran
    np.testing.assert_array_equal(rare.values, direct)
    # a period extended by the Guy-Smith theorem gives the same values
    np.testing.assert_array_equal(octal_run(code, n).values, direct)


@pytest.mark.parametrize(("code", "anum", "terms"), [r for r in _records("oeis")])
def test_oeis_values(code: str, anum: str, terms: str) -> None:
    want = [int(t) for t in terms.split(",")]
    got = octal_run(_code(code), len(want) + 1).values[1:].tolist()
    assert got == want, anum


@pytest.mark.parametrize(("code", "anum", "terms"), [r for r in _records("oeis0")])
def test_oeis_values_from_heap_0(code: str, anum: str, terms: str) -> None:
    # Officers A046695, Kayles A002186, Dawson's chess A002187
    want = [int(t) for t in terms.split(",")]
    assert octal_run(_code(code), len(want)).values.tolist() == want, anum
    assert octal_run(_code(code), len(want), direct=True).values.tolist() == want, anum


@pytest.mark.parametrize(
    ("code", "anum", "period", "last"),
    [r for r in _records("oeis-period") if int(r[3]) < 100_000],
)
def test_oeis_periods_are_proved(code: str, anum: str, period: str, last: str) -> None:
    n0, p = int(last) + 1, int(period)
    run = octal_run(_code(code), 2 * n0 + 2 * p + 8)
    assert run.period == (n0, p), anum


@pytest.mark.parametrize(
    ("code", "prefix", "period", "largest", "mask", "rare", "last_rare"),
    [r for r in _records("solved") if int(r[1]) < 400_000],
)
def test_czajka_solved_games(
    code: str, prefix: str, period: str, largest: str, mask: str, rare: str, last_rare: str
) -> None:
    run = octal_run(_code(code), 2 * int(prefix) + 2 * int(period) + 8)
    assert run.period == (int(prefix), int(period))
    assert int(run.values.max()) == int(largest)
    # his count of rare heaps includes the heap 0 (value 0 is rare under every mask)
    if run.mask and not run.domain:
        assert run.rare + 1 == int(rare)
        par = np.bitwise_count(run.values & run.mask) & 1
        assert int(np.flatnonzero(par == 0)[-1]) == int(last_rare)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("code", "n", "largest_at", "largest", "mask", "rare", "last_rare"), _records("unsolved")
)
def test_czajka_unsolved_games_rare_heaps(
    code: str, n: str, largest_at: str, largest: str, mask: str, rare: str, last_rare: str
) -> None:
    # the rare heaps (his count includes the heap 0) end long before his N; the largest
    # value at his N is checked by benchmarks/bench_engine_octal.py --long
    run = octal_run(_code(code), 2 * int(last_rare) + 2, periodic=False)
    assert (run.mask, run.domain) == (int(mask, 16), False)
    assert run.rare + 1 == int(rare)
    par = np.bitwise_count(run.values & run.mask) & 1
    assert int(np.flatnonzero(par == 0)[-1]) == int(last_rare)


def test_checkpoint_resumes(tmp_path: Path) -> None:
    path = tmp_path / "officers.npz"
    first = octal_run("0.6", 5000, checkpoint=path)
    assert first.resumed == 0 and path.exists()
    second = octal_run("0.6", 9000, checkpoint=path)
    assert second.resumed == 5000
    np.testing.assert_array_equal(second.values, octal_run("0.6", 9000).values)
    with pytest.raises(StoreError, match=r"belongs to the octal game '0\.6'"):
        octal_run("0.77", 100, checkpoint=path)


def test_mask_keeps_rare_heaps_rare() -> None:
    # Dawson's chess 0.137 (values 0..9, period 34): no mask makes fewer heaps rare than
    # the one the run keeps; its period, proved early, gives the rest
    run = octal_run("0.137", 4000, periodic=False)
    heaps = np.arange(1, 4000)
    best = min(
        int(((np.bitwise_count(run.values[1:] & m) ^ (dom * ((heaps + 1) & 1))) & 1 == 0).sum())
        for m in range(1, 16)
        for dom in (0, 1)
    )
    assert run.rare <= 1.01 * best
    # the classes of the domain form (Flammenkamp's position-dependent sparse space) make
    # fewer heaps rare here than any mask of the range form
    assert run.domain
    assert choose_sparse(run.values, (run.mask, 1), tpar=1) == (run.mask, 1)
    assert choose_mask(run.values) != 0
    long = octal_run("0.137", 1 << 20)
    assert long.period is not None and long.period[1] == 34 and long.computed <= 4096
    # Dawson's chess is Dawson's Kayles 0.07 shifted by one heap (OEIS A002187)
    np.testing.assert_array_equal(long.values, octal_run("0.07", (1 << 20) + 1).values[1:])


@pytest.mark.parametrize(
    ("code", "parts"),
    [("0.6", 1024), ("0.6", 4), ("4!.0", 1024), ("0.137", 1024), ("0.354", 1024), ("0.77", 1024)],
)
def test_blocks_of_64_heaps_equal_the_direct_method(
    code: str, parts: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # blocks of 64 heaps from the first heap after the direct method (0.6 still finds rare
    # heaps there: a block ends at a rare heap; 0.137 uses the domain form, 4!.0 unequal
    # splits); with 4 witness parts marked per block, the search per heap finds the rest
    import nimlab.engine.octal_rare as octal_rare

    monkeypatch.setattr(octal_rare, "BLOCK_AFTER", 0)
    monkeypatch.setattr(octal_rare, "BLOCK_MIN_RARE", 0)
    monkeypatch.setattr(octal_rare, "BLOCK_PARTS", parts)
    n = 12_000
    direct = octal_run(code, n, direct=True, periodic=False).values
    run = octal_run(code, n, periodic=False)
    np.testing.assert_array_equal(run.values, direct)
    if code == "0.77":
        # two takes split (1 and 2): the parts are compared for both takes side by side,
        # so a witness of the second take is not found after every split of the first
        # (1,718 splits a heap at 2^16 that way; under 400 now)
        assert octal_run(code, 1 << 16, periodic=False).witness_steps < 1000 * (1 << 16)


@pytest.mark.parametrize("code", ["0.6", "0.77", "4!.0"])
def test_parallel_blocks_equal_the_direct_method(
    code: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # blocks from heap 4096 on (0.6 still finds rare heaps there: a block's speculation
    # fails and the heaps after the rare one are computed again)
    import nimlab.engine.octal_rare as octal_rare

    monkeypatch.setattr(octal_rare, "PARALLEL_FROM", 4096)
    n = 8192
    direct = octal_run(code, n, direct=True, periodic=False).values
    run = octal_run(code, n, periodic=False, threads=2)
    np.testing.assert_array_equal(run.values, direct)
    assert run.rare == octal_run(code, n, periodic=False).rare
    with pytest.raises(InvalidParameterError, match="threads"):
        octal_run(code, 10, threads=0)
