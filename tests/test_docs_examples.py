"""Every example of the documentation site and of README.md runs: ``pycon`` blocks (and ``python`` blocks
written as ``>>>`` sessions) as doctests, one namespace per page, in order; and ``console``
blocks command by command, compared with the output the page shows (``...`` stands for any
text, as in doctests). A command shown without output must succeed (exit status 0). Commands
run in an empty directory (with a ``docs/images`` folder for the README's pictures); besides
``nimlab`` only ``cat FILE`` is understood.
Blocks in other languages (``bash``, ``text``) are not run."""

from __future__ import annotations

import doctest
import os
import re
import shlex
from pathlib import Path

import pytest

from nimlab.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
PAGES = ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in DOCS.rglob("*.md"))]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def blocks(text: str, lang: str) -> list[tuple[int, str]]:
    """The fenced blocks of language *lang*: (line number, body)."""
    return [
        (text.count("\n", 0, m.start()) + 1, m.group(2))
        for m in FENCE.finditer(text)
        if m.group(1) == lang
        or (lang == "pycon" and m.group(1) == "python" and m.group(2).startswith(">>>"))
    ]


def commands(body: str) -> list[tuple[str, str]]:
    """``$ command`` lines of a console block with the output shown under each."""
    out: list[tuple[str, str]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], ""))
        elif out:
            out[-1] = (out[-1][0], out[-1][1] + line + "\n")
    return out


def test_pages_have_examples() -> None:
    assert "docs/getting-started.md" in PAGES
    text = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    assert blocks(text, "pycon") and blocks(text, "console")
    # the harness sees a wrong expectation: a check that can fail
    checker = doctest.OutputChecker()
    assert not checker.check_output("3\n", "2\n", FLAGS)
    assert checker.check_output("a ... c\n", "a b c\n", FLAGS)


# A page runs all its examples in one test, and the first use of a compiled kernel
# (verification, tables) compiles it with numba: longer than the 60 s default on a loaded
# machine, so a page gets 300 s.
@pytest.mark.timeout(300)
@pytest.mark.parametrize("page", PAGES)
@pytest.mark.timeout(600)  # README's own-game examples compile numba kernels (slow when loaded)
def test_pycon_examples(page: str) -> None:
    text = (ROOT / page).read_text(encoding="utf-8")
    found = blocks(text, "pycon")
    if not found:
        pytest.skip("no Python examples on this page")
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    globs: dict[str, object] = {}
    report: list[str] = []
    for line, body in found:
        test = parser.get_doctest(body, globs, f"{page}:{line}", page, line)
        runner.run(test, out=report.append, clear_globs=False)
        globs = test.globs
    assert runner.failures == 0, "".join(report)


@pytest.mark.timeout(300)  # as above: every command of a page, kernels compiled on first use
@pytest.mark.parametrize("page", PAGES)
def test_console_examples(
    page: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (ROOT / page).read_text(encoding="utf-8")
    found = [
        (line, cmd, shown)
        for line, body in blocks(text, "console")
        for cmd, shown in commands(body)
    ]
    if not found:
        pytest.skip("no console examples on this page")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs" / "images").mkdir(parents=True)
    monkeypatch.setenv("NIMLAB_STORE", str(tmp_path / "results.sqlite"))
    # progress lines appear only when a run is slow (a loaded machine): not part of the pages
    monkeypatch.setenv("NIMLAB_PROGRESS_INTERVAL", "86400")
    os.environ.pop("COLUMNS", None)
    checker = doctest.OutputChecker()
    for line, cmd, shown in found:
        argv = shlex.split(cmd, comments=True)
        if argv[0] == "cat" and len(argv) == 2:
            code, got = 0, Path(argv[1]).read_text(encoding="utf-8")
        else:
            assert argv[0] == "nimlab", f"{page}:{line}: only nimlab and cat run here: {cmd}"
            code = main(argv[1:])
            out, err = capsys.readouterr()
            got = out + err
        if not shown:
            assert code == 0, f"{page}:{line}: $ {cmd}\nexit status {code}\n{got}"
            continue
        assert checker.check_output(shown, got, FLAGS), (
            f"{page}:{line}: $ {cmd}\n--- shown ---\n{shown}--- printed ---\n{got}"
        )
