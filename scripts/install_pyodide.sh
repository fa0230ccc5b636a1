#!/usr/bin/env bash
# Fetches the Pyodide runtime (CPython built to WebAssembly, MPL-2.0) that the phone page
# scores hands with when the server cannot be reached: the npm package `pyodide`, pinned,
# unpacked into .cache/pyodide (or $MJLENS_PYODIDE_DIR), which the server serves under
# /offline/pyodide/ (api/offline_scorer.py). Never committed, never fetched at run time.
# Idempotent. Without npm it says so and exits 0: the page then says offline scoring is not
# available, and scoring online is unchanged.
set -euo pipefail

PYODIDE_VERSION="0.27.7"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="${MJLENS_PYODIDE_DIR:-$ROOT/.cache/pyodide}"
FILES="pyodide.js pyodide.asm.js pyodide.asm.wasm python_stdlib.zip pyodide-lock.json package.json"

if [ -f "$DIR/version" ] && [ "$(cat "$DIR/version")" = "$PYODIDE_VERSION" ]; then
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "install_pyodide: npm not found, Pyodide not fetched (apt-get install npm)" >&2
    exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! tarball="$(cd "$work" && npm pack --silent "pyodide@$PYODIDE_VERSION")"; then
    echo "install_pyodide: npm could not fetch pyodide@$PYODIDE_VERSION; offline scoring stays unavailable" >&2
    exit 0
fi
members=""
for f in $FILES; do members="$members package/$f"; done
# shellcheck disable=SC2086  # one word per file
tar -xzf "$work/$tarball" -C "$work" $members
mkdir -p "$DIR"
for f in $FILES; do mv "$work/package/$f" "$DIR/$f"; done
echo "$PYODIDE_VERSION" > "$DIR/version"
echo "install_pyodide: Pyodide $PYODIDE_VERSION in $DIR ($(du -sh "$DIR" | cut -f1))"
