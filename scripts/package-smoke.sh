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

python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install -q "$tmp"/dist/*.whl
cd "$tmp"   # away from the checkout: only the installed wheel can be imported
"$tmp/venv/bin/nimlab" --version
"$tmp/venv/bin/nimlab" reproduce --help >/dev/null
test "$("$tmp/venv/bin/nimlab" grundy nim 3 4 5)" = 2
"$tmp/venv/bin/python" - <<'PYEOF'
import pathlib, sys
import nimlab

here = pathlib.Path(nimlab.__file__).resolve()
assert pathlib.Path(sys.prefix).resolve() in here.parents, f"nimlab imported from {here}"
assert (here.parent / "py.typed").exists(), "py.typed is missing from the wheel"
assert nimlab.grundy("wythoff", (3, 5)) == 0
assert nimlab.check_theorem("S19-T1").ok
print(f"nimlab {nimlab.__version__}: wheel installed and working in {sys.prefix}")
PYEOF
