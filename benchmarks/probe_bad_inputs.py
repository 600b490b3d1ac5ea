"""The hostile probe of issue 23: thousands of generated bad inputs, none may escape.

Generates command lines (in-process, through ``nimlab.cli.main``) and Python calls from
the classes of the issue: users' broken move functions and game files, bad positions,
option values and parameters, environment variables, special files, damaged stores. Each
case is judged:

- ``uncaught``: an internal error (exit 1) or a Python exception that is not a NimlabError;
- ``hang``: still running after the case's time limit (SIGALRM);
- ``memory``: an out-of-memory stop;
- ``status``: an exit status other than 0 or 2 (130 only for Ctrl-C), or an error that is
  not exactly one line starting with ``error:``;
- ``silent``: an answer (exit 0, a return value) where the input is surely wrong.

Run ``python benchmarks/probe_bad_inputs.py`` (about 10-30 minutes on 2 cores) or
``--sample N`` for a quick random sample; ``--json FILE`` writes every failing case.
``tests/test_bad_inputs.py`` runs a small seeded sample of it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

BIG = str(10**1000)


@dataclass(frozen=True)
class Case:
    """One probe case: a command line (``argv``) or a Python expression (``call``)."""

    id: str
    argv: tuple[str, ...] = ()
    call: str = ""
    must_fail: bool = True
    env: tuple[tuple[str, str], ...] = ()
    timeout: float = 30.0


@dataclass
class Verdict:
    case: Case
    kind: str  # ok, uncaught, hang, memory, status, silent
    detail: str = ""
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


# -- generated cases ------------------------------------------------------------------

USER_GAMES = (
    ("half", "3 2"),
    ("npfloat", "3"),
    ("boolheap", "3"),
    ("notuple", "3"),
    ("twocycle", "3"),
    ("longcycle", "3"),
    ("grows", "3"),
    ("sysexit5", "3"),
    ("osexit7", "3"),
    ("kbint", "3"),
    ("strs", "3"),
    ("negative", "3 4"),
    ("wronglen", "3 4"),
    ("raises", "3 4"),
    ("none", "3"),
    ("loop", "3"),
    ("spins", "3"),
)
USER_COMMANDS = (
    ("grundy", "{pos}"),
    ("outcome", "{pos}"),
    ("outcome", "{pos} --misere"),
    ("moves", "{pos}"),
    ("moves", "{pos} --winning"),
    ("tree", "{pos}"),
    ("tree", "{pos} --dag"),
    ("last-mover", "{pos}"),
    ("binary", "{pos}"),
    ("moves", "{pos} --winning --misere"),
    ("sequence", "-n 6"),
    ("periodicity", "-n 12"),
    ("genus", "{pos}"),
    ("table", "--size 5"),
)
GAMES = (
    ("nim", ()),
    ("wythoff", ()),
    ("welter", ()),
    ("subtraction", ("-p", "S=1,2")),
    ("moore", ("-p", "k=2")),
    ("octal", ("-p", "code=0.77")),
    ("nimhoff", ("-p", "k=2")),
    ("circular", ("-p", "k=3")),
    ("single-delete", ()),
    ("emperor", ("-p", "k=2")),
)
BAD_TOKENS = (
    "-1",
    "x",
    "1.5",
    "1e3",
    "nan",
    "inf",
    "0x10",
    "9" * 5000,
    "--",
    "1,,2",
    ",",
    "3;4",
    "\x00",
    "１",  # a full-width digit
    "-0.0",
    "True",
)
POSITION_COMMANDS = ("grundy", "outcome", "moves", "tree", "binary", "last-mover", "play")
NUMERIC_OPTIONS = (
    ("grundy nim 3 4", "--max-moves"),
    ("grundy nim 3 4", "--max-positions"),
    ("table nim", "--size"),
    ("table nim --size 4", "--max-cells"),
    ("sequence nim", "-n"),
    ("sequence nim -n 5", "--max-terms"),
    ("periodicity nim", "-n"),
    ("tree nim 2 2", "--depth"),
    ("tree nim 2 2", "--max-nodes"),
    ("genus octal -p code=0.77", "--max-heap"),
    ("genus octal -p code=0.77 3", "--max-heap"),
    ("misere-quotient 0.77", "--max-heap"),
    ("misere-quotient 0.77 --max-heap 10", "--max-work"),
    ("misere-quotient 0.77 --max-heap 10", "--memory-budget"),
    ("verify S19-T1 --no-store", "--bound"),
    ("verify S19-T1 --bound 4 --no-store", "--workers"),
    ("verify S19-T1 --bound 4 --no-store", "--chunk-size"),
    ("verify S19-T1 --bound 4 --no-store", "--max-positions"),
    ("runs", "--limit"),
    ("runs", "--lock-timeout"),
    ("multiplayer nim --size 2", "--players"),
    ("last-mover nim 2 2", "--players"),
)
BAD_NUMBERS = ("-1", "abc", "1.5", "nan", "inf", "-inf", BIG, "10" * 30, "", "1_000", "0x10", " ")
PARAMS = (
    ("subtraction", "S=1 2"),
    ("subtraction", "S="),
    ("subtraction", "S=a,b"),
    ("subtraction", "S=1..x"),
    ("subtraction", "S=-1"),
    ("subtraction", "S=0"),
    ("subtraction", "S=1,,2"),
    ("allbut", "S=1 2"),
    ("moore", "k=2 -p K=3"),
    ("moore", "name=x"),
    ("moore", "k="),
    ("moore", "=3"),
    ("moore", "k"),
    ("moore", "k=abc"),
    ("moore", "k=-1"),
    ("moore", "k=0"),
    ("moore", "k=1.5"),
    ("octal", "code="),
    ("octal", "code=0.x"),
    ("octal", "code=" + "7" * 5000),
    ("nimhoff", "k=0"),
    ("nimhoff", "k=" + "9" * 5000),
    ("circular", "k=0"),
    ("emperor", "k=-2"),
)
ENV_VARS = (
    "NIMLAB_LOCK_TIMEOUT",
    "NIMLAB_PROGRESS_INTERVAL",
    "NIMLAB_PROGRESS_DELAY",
    "NIMLAB_VERIFY_CHUNK_SLEEP",
    "NIMLAB_USER_CODE_TIMEOUT",
)
ENV_VALUES = ("abc", "-1", "nan", "inf", "1e999", "9" * 50, "1,5")
SPECIAL_FILES = ("/dev/zero", "/dev/urandom", "/dev/null", "{tmp}/adir", "{tmp}/fifo", "")
STORES = (
    "{tmp}/adir",
    "{tmp}/text.sqlite",
    "{tmp}/trunc.sqlite",
    "{tmp}/other.sqlite",
    "{tmp}/full.sqlite",
    "{tmp}/afile/x.sqlite",
    "/dev/null",
    "{tmp}/damaged-dropped-chunks.sqlite",
    "{tmp}/damaged-dropped-runs.sqlite",
    "{tmp}/damaged-garbage-rows.sqlite",
    "{tmp}/damaged-wrong-types.sqlite",
    "{tmp}/damaged-negative.sqlite",
    "{tmp}/damaged-verified-missing-chunks.sqlite",
    "{tmp}/damaged-orphan-chunk.sqlite",
    "{tmp}/damaged-truncated.sqlite",
    "~nosuchuser/x.sqlite",
)
STORE_COMMANDS = (
    "verify --game nim --formula a^b --heaps 2 --bound 4 --chunk-size 4 --workers 1",
    "verify --game nim --formula a^b --heaps 2 --bound 4 --chunk-size 4 --workers 1 --resume",
    "runs",
    "runs --all",
    "reproduce --only S19-T1",
)
OTHER = (
    "verify S19-T1 --scheduler 127.0.0.1",
    "verify S19-T1 --scheduler inproc://",
    "verify S19-T1 --scheduler ucx://",
    "verify S19-T1 --scheduler tls://",
    "verify S19-T1 --scheduler tcp://",
    "verify S19-T1 --scheduler ::::",
    "runs --all --group-by a//0",
    "runs --all --group-by __import__('os')",
    "table nim --size 4 --csv {tmp}/afile/",
    "table nim --size 4 --csv {tmp}/adir",
    "table nim --size 4 --json-file /dev/full",
    "nimmul " + BIG + " x",
    "nimmul -1 2",
    "theorem nope",
    "verify nope --bound 4",
    "grundy",
    "frobnicate",
)


def cli_cases() -> list[Case]:
    out: list[Case] = []
    for name, pos in USER_GAMES:
        for cmd, args in USER_COMMANDS:
            one_heap = " " not in pos
            if cmd in ("sequence", "periodicity") and not one_heap:
                continue
            text = f"{cmd} {{tmp}}/{name}.py:probe-{name} " + args.format(pos=pos)
            env = (("NIMLAB_USER_CODE_TIMEOUT", "1"),) if name in ("spins",) else ()
            # moves lists the options of one position: a cycle elsewhere is no error there
            # listing the options of one position (or drawing its heaps) needs no solving:
            # a cycle or growth further on is no error there
            listing = cmd == "moves" and "--winning" not in args
            must = not (listing and name in ("twocycle", "longcycle", "loop", "grows", "negative"))
            must = must and cmd != "binary"  # draws the heaps: runs no move function
            out.append(
                Case(f"user-{name}-{cmd}-{len(out)}", tuple(text.split()), must_fail=must, env=env)
            )
    for game, params in GAMES:
        for cmd in POSITION_COMMANDS:
            for tok in BAD_TOKENS:
                argv = (
                    (cmd, game, *params, "3", tok)
                    if tok not in ("--",)
                    else (cmd, game, *params, tok)
                )
                # "--" ends the options: the empty position is valid in some games
                out.append(Case(f"pos-{game}-{cmd}-{len(out)}", argv, must_fail=tok != "--"))
    for base, opt in NUMERIC_OPTIONS:
        for value in BAD_NUMBERS:
            argv = (*base.split(), opt, value)
            # -1 for --depth etc. must fail; empty text must fail; '1_000' is Python's int syntax
            must = value not in ("1_000",) and not (opt == "--lock-timeout" and value == "1.5")
            out.append(Case(f"opt-{opt}-{len(out)}", argv, must_fail=must, timeout=60))
    for game, param in PARAMS:
        for cmd in ("grundy", "table", "sequence"):
            argv = (cmd, game)
            for part in param.split(" -p "):
                argv += ("-p", part)
            argv += (
                ("5",) if cmd == "grundy" else (("--size", "4") if cmd == "table" else ("-n", "5"))
            )
            out.append(Case(f"param-{game}-{cmd}-{len(out)}", argv))
    for var in ENV_VARS:
        for value in ENV_VALUES:
            for cmd in ("grundy nim 3 4", "runs", "sequence nim -n 4"):
                out.append(Case(f"env-{var}-{len(out)}", tuple(cmd.split()), env=((var, value),)))
    for path in SPECIAL_FILES:
        out.append(
            Case(
                f"file-checkpoint-{len(out)}",
                ("misere-quotient", "0.77", "--max-heap", "10", "--checkpoint", path),
                must_fail=path not in ("/dev/null",),
            )
        )
        for opt in ("--csv", "--json-file", "--latex", "--markdown"):
            # writing to a device (/dev/null, /dev/stdout) is a choice, not an error
            out.append(
                Case(
                    f"file-out-{len(out)}",
                    ("table", "nim", "--size", "4", opt, path),
                    must_fail=not path.startswith("/dev/"),
                )
            )
        out.append(Case(f"file-game-{len(out)}", ("grundy", f"{path}:g", "3")))
    for store in STORES:
        for cmd in STORE_COMMANDS:
            out.append(Case(f"store-{len(out)}", (*cmd.split(), "--store", store), timeout=120))
    for text in OTHER:
        out.append(Case(f"other-{len(out)}", tuple(text.split())))
    rng = random.Random(23)
    pool = [*BAD_TOKENS, *BAD_NUMBERS, "-p", "--size", "--misere", "-n", "3", "4", "nim", "x"]
    commands = ("grundy", "outcome", "moves", "table", "tree", "sequence", "genus", "binary")
    while len(out) < 2600:
        cmd = rng.choice(commands)
        game = rng.choice(GAMES)
        argv = (cmd, game[0], *game[1], *rng.sample(pool, rng.randint(1, 4)))
        out.append(Case(f"random-{len(out)}", argv, must_fail=False))
    return out


API_GAMES = ("None", "5", "1.5", "object()", "'nope'", "''", "b'nim'", "[]", "nimlab")
API_POSITIONS = (
    "None",
    "1.5",
    "'x'",
    "object()",
    "{}",
    "(1.5,)",
    "('a',)",
    "(-1,)",
    "(True,)",
    "b'3'",
    "float('nan')",
    "probe.Liar((1, 2))",
    "(10**1000, 1)",
    "((1, 2), 3)",
    "[None]",
)
API_FUNCS = (
    "nimlab.grundy({g}, {p})",
    "nimlab.outcome({g}, {p})",
    "nimlab.outcome({g}, {p}, misere=True)",
    "nimlab.moves({g}, {p})",
    "nimlab.winning_moves({g}, {p})",
    "nimlab.winning_move({g}, {p})",
    "nimlab.answer({g}, {p})",
    "nimlab.explain({g}, {p})",
    "nimlab.game_tree({g}, {p})",
    "nimlab.binary_view({g}, {p})",
    "nimlab.genus({g}, {p})",
    "nimlab.last_mover({g}, {p})",
)


def api_cases() -> list[Case]:
    out: list[Case] = []
    for f in API_FUNCS:
        for p in API_POSITIONS:
            out.append(
                Case(
                    f"api-pos-{len(out)}",
                    call=f.format(g="'nim'", p=p),
                    must_fail=p != "(10**1000, 1)",
                )
            )
        for g in API_GAMES:
            out.append(Case(f"api-game-{len(out)}", call=f.format(g=g, p="(1, 2)")))
    for name, pos in USER_GAMES:
        for f in API_FUNCS[:8]:
            p = "(" + ", ".join(pos.split()) + ",)"
            listing = ("twocycle", "longcycle", "loop", "grows", "negative")
            must = not (f.startswith("nimlab.moves") and name in listing)
            out.append(
                Case(
                    f"api-user-{name}-{len(out)}",
                    call=f.format(g=f"nimlab.game(tmp + '/{name}.py:probe-{name}')", p=p),
                    must_fail=must,
                    env=(("NIMLAB_USER_CODE_TIMEOUT", "1"),),
                )
            )
    misuse = (
        "nimlab.heap_game(None)",
        "nimlab.heap_game('probe-api')(5)",
        "nimlab.heap_game('probe-api', heaps=0)",
        "nimlab.heap_game('probe-api', heaps='2')",
        "nimlab.heap_game('probe-api', min_heap=5)",
        "nimlab.heap_game('probe-api', params={'k': 1.5})",
        "nimlab.heap_game('nim')(lambda h: iter(()))",
        "nimlab.game('nim') + 5",
        "5 + nimlab.game('nim')",
        "nimlab.Solver(None)",
        "nimlab.Solver('nim')",
        "nimlab.Solver(nimlab.game('nim'), -1)",
        "nimlab.replace(None, 0, 3)",
        "nimlab.replace((1, 2), 9, 3)",
        "nimlab.replace((1, 2), 'a', 3)",
        "nimlab.status_of('nope')",
        "nimlab.status_of(None)",
        "nimlab.theorem('nope')",
        "nimlab.explain('nim', (3, 4), move=(5, 4))",
        "nimlab.explain('nim', (3, 4), move=(3, 4))",
        "nimlab.explain('nim', (3, 4), (3, 3))",
        "nimlab.sequence('nim', -1)",
        "nimlab.sequence('nim', 'x')",
        "nimlab.sequence('nim', 10**100)",
        "nimlab.table('nim', 10**100)",
        "nimlab.table_view('nim', 0)",
        "nimlab.runs(tmp + '/damaged-dropped-chunks.sqlite')",
        "nimlab.runs(tmp + '/damaged-wrong-types.sqlite')",
        "nimlab.runs(tmp + '/damaged-truncated.sqlite')",
        "nimlab.runs(limit=10**100)",
        "nimlab.verify('nim', 'a ^ b', bound=4, heaps=2, workers=1, store=tmp + '/damaged-garbage-rows.sqlite')",
        "nimlab.verify('nim', 'a ^ b', bound=4, heaps=2, workers=1, store=tmp + '/damaged-negative.sqlite', resume=True)",
        "nimlab.grundy(probe.closed_game(-3), (1, 2))",
        "nimlab.grundy(probe.closed_game('zero'), (1, 2))",
        "nimlab.outcome(probe.closed_game(None, 1), (1, 2))",
    )
    for call in misuse:
        out.append(Case(f"api-misuse-{len(out)}", call=call))
    rng = random.Random(23)
    values = [*API_POSITIONS, "3", "(3, 4)", "-5", "'3 4'", "[3, 4]", "range(3)", "{'a': 1}"]
    funcs = [f for f in API_FUNCS]
    while len(out) < 560:
        f = rng.choice(funcs)
        g = rng.choice(["'nim'", "'wythoff'", "'welter'", "nimlab.game('subtraction', S='1,2')"])
        out.append(
            Case(
                f"api-random-{len(out)}", call=f.format(g=g, p=rng.choice(values)), must_fail=False
            )
        )
    return out


# -- running ----------------------------------------------------------------------------


class _Timeout(BaseException):
    pass


@contextlib.contextmanager
def _limit(seconds: float) -> Iterator[None]:
    def on_alarm(signum: int, frame: Any) -> None:
        raise _Timeout

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@contextlib.contextmanager
def _env(pairs: tuple[tuple[str, str], ...]) -> Iterator[None]:
    old = {k: os.environ.get(k) for k, _ in pairs}
    os.environ.update(dict(pairs))
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def run_cli(case: Case, tmp: str) -> Verdict:
    from nimlab.cli import main

    argv = [a.replace("{tmp}", tmp) for a in case.argv]
    out, err = io.StringIO(), io.StringIO()
    t0 = time.monotonic()
    try:
        with (
            _env(case.env),
            _limit(case.timeout),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            code = main(argv)
    except _Timeout:
        return Verdict(case, "hang", f"still running after {case.timeout} s", time.monotonic() - t0)
    except BaseException as exc:
        return Verdict(
            case, "uncaught", f"{type(exc).__name__}: {exc}"[:300], time.monotonic() - t0
        )
    dt = time.monotonic() - t0
    text = err.getvalue()
    lines = [x for x in text.splitlines() if x.strip()]
    if code == 1 or "internal error" in text or "Traceback" in text:
        return Verdict(case, "uncaught", (lines or [""])[-1][:300], dt)
    if "out of memory" in text:
        return Verdict(case, "memory", lines[-1][:300], dt)
    if code == 0:
        if case.must_fail:
            return Verdict(case, "silent", out.getvalue()[:200], dt)
        return Verdict(case, "ok", "", dt)
    if code != 2 or len(lines) != 1 or not lines[0].startswith("error: "):
        return Verdict(case, "status", f"exit {code}: {text[:300]}", dt)
    return Verdict(case, "ok", lines[0][:200], dt)


def run_api(case: Case, tmp: str) -> Verdict:
    import bad_inputs as probe

    import nimlab

    scope = {"nimlab": nimlab, "tmp": tmp, "probe": probe}
    t0 = time.monotonic()
    try:
        with _env(case.env), _limit(case.timeout):
            value = eval(case.call, scope)
            if hasattr(value, "__next__"):
                value = list(value)
    except _Timeout:
        return Verdict(case, "hang", f"still running after {case.timeout} s", time.monotonic() - t0)
    except MemoryError:
        return Verdict(case, "memory", "MemoryError", time.monotonic() - t0)
    except nimlab.NimlabError as exc:
        return Verdict(case, "ok", f"{type(exc).__name__}: {exc}"[:200], time.monotonic() - t0)
    except BaseException as exc:
        return Verdict(
            case, "uncaught", f"{type(exc).__name__}: {exc}"[:300], time.monotonic() - t0
        )
    dt = time.monotonic() - t0
    if case.must_fail:
        return Verdict(case, "silent", repr(value)[:200], dt)
    return Verdict(case, "ok", "", dt)


def prepare(tmp: str) -> None:
    import bad_inputs as probe

    probe.prepare_files(tmp)
    with contextlib.suppress(OSError):
        os.mkfifo(os.path.join(tmp, "fifo"))


def run(sample: int | None = None, seed: int = 0, json_path: str | None = None) -> Counter[str]:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (4_000_000_000, 4_000_000_000))
    cli, api = cli_cases(), api_cases()
    if sample is not None:
        rng = random.Random(seed)
        cli = rng.sample(cli, min(sample, len(cli)))
        api = rng.sample(api, min(max(1, sample // 5), len(api)))
    tally: Counter[str] = Counter()
    bad: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["NIMLAB_STORE"] = os.path.join(tmp, "default.sqlite")
        prepare(tmp)
        t0 = time.monotonic()
        for kind, cases, runner in (("cli", cli, run_cli), ("api", api, run_api)):
            for case in cases:
                v = runner(case, tmp)
                tally[f"{kind} {v.kind}"] += 1
                if v.kind != "ok":
                    bad.append(
                        {
                            "id": case.id,
                            "argv": case.argv,
                            "call": case.call,
                            "kind": v.kind,
                            "detail": v.detail,
                        }
                    )
                    print(
                        f"{v.kind:9} {case.id}: {' '.join(case.argv)[:100] or case.call[:100]} -> {v.detail[:160]}",
                        flush=True,
                    )
        seconds = time.monotonic() - t0
    print(
        f"{len(cli)} CLI cases, {len(api)} API calls in {seconds:.0f} s: {dict(sorted(tally.items()))}"
    )
    if json_path:
        Path(json_path).write_text(json.dumps(bad, indent=1))
    return tally


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=None, help="run a random sample of N CLI cases")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="write the failing cases to this file")
    args = ap.parse_args()
    run(args.sample, args.seed, args.json)


if __name__ == "__main__":
    main()
