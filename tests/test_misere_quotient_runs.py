"""Long misère-quotient runs: checkpoints, resuming after Ctrl-C, progress, budgets."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from nimlab.cli import main
from nimlab.core.errors import InvalidParameterError
from nimlab.misere import QuotientNotFoundError, QuotientTooLargeError, misere_quotient
from nimlab.misere import quotient as quotient_module


def _same(a, b) -> bool:  # type: ignore[no-untyped-def]
    return (a.order, a.presentation(), a.p_portion, a.pretending) == (
        b.order,
        b.presentation(),
        b.p_portion,
        b.pretending,
    )


def test_checkpoint_resumes_and_truncates(tmp_path: Path) -> None:
    ck = tmp_path / "q.json"
    q18 = misere_quotient("0.07", max_heap=18, checkpoint=ck)
    assert json.loads(ck.read_text())["max_heap"] == 18
    assert _same(q18, misere_quotient("0.07", max_heap=18))
    resumed = misere_quotient("0.07", max_heap=22, checkpoint=ck)
    assert _same(resumed, misere_quotient("0.07", max_heap=22))
    assert json.loads(ck.read_text())["max_heap"] == 22
    # a smaller bound is the checkpoint's quotient restricted to fewer heaps
    assert _same(misere_quotient("0.07", max_heap=12, checkpoint=ck), misere_quotient("0.07", 12))


def test_interrupted_run_resumes_from_the_last_heap_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ck = tmp_path / "q.json"
    real = quotient_module._heap_option_words

    def interrupt_at_15(game, h):  # type: ignore[no-untyped-def]
        if h == 15:
            raise KeyboardInterrupt
        return real(game, h)

    monkeypatch.setattr(quotient_module, "_heap_option_words", interrupt_at_15)
    with pytest.raises(KeyboardInterrupt):
        misere_quotient("0.77", max_heap=30, checkpoint=ck, progress=True)
    monkeypatch.setattr(quotient_module, "_heap_option_words", real)
    assert json.loads(ck.read_text())["max_heap"] == 14
    assert _same(misere_quotient("0.77", 30, checkpoint=ck), misere_quotient("0.77", 30))


def test_bad_checkpoints_are_refused(tmp_path: Path) -> None:
    ck = tmp_path / "q.json"
    misere_quotient("0.77", max_heap=12, checkpoint=ck)
    data = json.loads(ck.read_text())
    with pytest.raises(InvalidParameterError, match="not of"):
        misere_quotient("0.07", max_heap=12, checkpoint=ck)
    # a P-bit flipped: the proof of the stored quotient fails before it is used
    data["is_p"][0] = True
    ck.write_text(json.dumps(data))
    with pytest.raises(InvalidParameterError, match="proof fails"):
        misere_quotient("0.77", max_heap=12, checkpoint=ck)
    data["mul"] = [[0, 1]]
    ck.write_text(json.dumps(data))
    with pytest.raises(InvalidParameterError, match="damaged"):
        misere_quotient("0.77", max_heap=12, checkpoint=ck)
    ck.write_text("{not json")
    with pytest.raises(InvalidParameterError, match="JSON"):
        misere_quotient("0.77", max_heap=12, checkpoint=ck)


def test_progress_bar_shows_counts_and_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # the bar draws on terminals
    monkeypatch.delenv("NIMLAB_PROGRESS_DELAY", raising=False)
    bar = quotient_module.Progress("octal(code=0.07): misère quotient", 30, "heaps", start=2)
    report = quotient_module._reporter(bar)
    report(3, 6, 0)  # within the first second: nothing shown
    assert bar.bar is None
    bar.start -= 5.0
    report(10, 24, 2)
    try:
        task = bar.bar.tasks[0]
        assert (task.completed, task.total) == (10, 30)
        rate = task.fields["rate"]  # 8 heaps since the start count, in a bit over 5 s
        assert len(rate.split(".")[1]) == 2 and 1.0 < float(rate) <= 1.6, rate
        assert task.fields["detail"] == "order 24, recalibration 2"
    finally:
        bar.close()


def test_budgets() -> None:
    with pytest.raises(QuotientTooLargeError, match="max_order"):
        misere_quotient("0.07", max_heap=26, max_order=100)
    with pytest.raises(QuotientTooLargeError, match="max_pairs"):
        misere_quotient("0.07", max_heap=26, max_pairs=500)
    with pytest.raises(QuotientNotFoundError, match="max_rounds"):
        misere_quotient("0.07", max_heap=26, max_rounds=0)
    for bad in ({"max_order": 0}, {"max_pairs": -1}, {"max_rounds": -1}, {"max_work": 0}):
        with pytest.raises(InvalidParameterError):
            misere_quotient("0.77", max_heap=5, **bad)


LONG_CODE = "0." + "7" * 40  # heaps of up to 40 stones taken, left in up to two heaps


def test_the_work_budget_bounds_the_whole_computation() -> None:
    # each proof of a game whose heaps have very many options stays within max_pairs, but
    # the whole run (one proof per candidate, per heap) ran for hours: the work budget
    # counts every step, all heaps together, and stops it as the work is done
    t0 = time.process_time()
    with pytest.raises(QuotientTooLargeError, match=r"at heap \d+ .*budget of 5,000,000 steps"):
        misere_quotient(LONG_CODE, max_heap=200, max_work=5_000_000)
    assert time.process_time() - t0 < 20
    # the same quotient with any budget that suffices; the CLI's default is the API's
    small = misere_quotient("0.77", max_heap=30)
    assert misere_quotient("0.77", max_heap=30, max_work=50_000_000).order == small.order
    from nimlab.cli.misere_cmd import misere_quotient_cmd

    default = next(p.default for p in misere_quotient_cmd.params if p.name == "max_work")
    assert default == quotient_module.DEFAULT_MAX_WORK


def test_progress_shows_the_steps_against_the_work_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # the bar draws on terminals
    work = quotient_module._Work(1000)
    bar = quotient_module.Progress("octal(code=0.77): misère quotient", 30, "heaps")
    report = quotient_module._reporter(bar, work)
    bar.start -= 5.0
    work.spent = 250
    report(10, 24, 0)
    try:
        assert bar.bar.tasks[0].fields["detail"] == "order 24, heap done, 250 of 1,000 steps"
        work.spent = 600
        assert work.tick is not None
        work.tick()  # while a heap is proved: the same heap, the steps spent so far
        assert bar.bar.tasks[0].fields["detail"].endswith("600 of 1,000 steps")
    finally:
        bar.close()


def test_cli_checkpoint_and_budgets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ck = tmp_path / "q.json"
    args = ["misere-quotient", "0.07", "--max-heap", "16", "--checkpoint", str(ck)]
    assert main([*args, "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main([*args, "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["presentation"] == first["presentation"]
    ck.write_text("[]")
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: checkpoint") and err.count("\n") == 1
    assert main(["misere-quotient", "0.07", "--max-heap", "26", "--max-rounds", "0"]) == 2
    assert "max_rounds" in capsys.readouterr().err
