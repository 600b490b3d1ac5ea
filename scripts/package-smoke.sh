#!/usr/bin/env bash
# Build the sdist and the wheel (the wheel from the sdist, so a file missing from the sdist
# fails here), check their metadata, install the wheel into a fresh virtual environment
# outside the checkout and run a smoke test there.
#
#   bash scripts/package-smoke.sh        (uses .venv/bin/python for build and twine)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$PY" -m build --outdir "$tmp/dist" . >"$tmp/build.log" 2>&1 || {
    cat "$tmp/build.log"; exit 1; }
"$PY" -m twine check --strict "$tmp"/dist/*

# every file of the package in the checkout must be in the installed wheel
(cd src && find nimlab -type f ! -name '*.pyc' ! -path '*/__pycache__/*') >"$tmp/files.txt"

python3 -m venv "$tmp/venv"
whl=$(ls "$tmp"/dist/*.whl)
"$tmp/venv/bin/pip" install -q "$whl[web]"
cd "$tmp"   # away from the checkout: only the installed wheel can be imported
"$tmp/venv/bin/nimlab" --version
"$tmp/venv/bin/nimlab" reproduce --help >/dev/null
"$tmp/venv/bin/nimlab" serve --help >/dev/null
test "$("$tmp/venv/bin/nimlab" grundy nim 3 4 5)" = 2
"$tmp/venv/bin/python" - <<'PYEOF'
import pathlib, sys
import nimlab

here = pathlib.Path(nimlab.__file__).resolve()
assert pathlib.Path(sys.prefix).resolve() in here.parents, f"nimlab imported from {here}"
root = here.parent.parent
missing = [f for f in pathlib.Path("files.txt").read_text().split() if not (root / f).exists()]
assert not missing, f"files missing from the wheel: {missing}"
from nimlab.web.app import create_app

create_app()  # the playground's templates and static files load from the wheel
assert nimlab.grundy("wythoff", (3, 5)) == 0
assert nimlab.check_theorem("S19-T1").ok
print(f"nimlab {nimlab.__version__}: wheel installed and working in {sys.prefix}")
PYEOF

# Compiled once, ready in every process: warm once, then each command in a NEW process
# loads its kernels from the disk cache. numba's compile events are counted (loading from
# the cache is none): there must be none; the wall time of a plain run is printed.
export NIMLAB_CACHE_DIR="$tmp/nimlab-cache"
"$tmp/venv/bin/nimlab" warm
"$tmp/venv/bin/python" - "$tmp/venv/bin/nimlab" <<'PYEOF'
import subprocess, sys, time

COUNTED = """
import sys
from nimlab.engine._compilewatch import CompileWatch
from nimlab.cli import main
with CompileWatch() as w:
    code = main(sys.argv[1:])
print("@@compiles", len(w.compiles), [n for n, _ in w.compiles], file=sys.stderr)
sys.exit(code)
"""
for args in (
    ["tour"],
    ["grundy", "wythoff", "300", "500"],
    ["table", "single-delete", "--heaps", "4", "--size", "64"],
    ["sequence", "subtraction", "-p", "S=1,3,4", "-n", "14"],
):
    t0 = time.perf_counter()
    subprocess.run([sys.argv[1], *args], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    r = subprocess.run([sys.executable, "-c", COUNTED, *args], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    line = [x for x in r.stderr.splitlines() if x.startswith("@@compiles")][-1]
    print(f"after nimlab warm, a new process: nimlab {' '.join(args)}: {wall:.2f} s, {line[2:]}")
    assert line.split()[1] == "0", line
PYEOF
