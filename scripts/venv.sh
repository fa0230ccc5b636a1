#!/usr/bin/env bash
# Make the project's own virtual environment: scripts/venv.sh PYTHON DIR (make does, as .venv/).
# Every package mjlens needs goes there, never into PYTHON's own site-packages: a system
# Python that refuses pip installs (PEP 668, "externally-managed-environment") is fine.
# pip inside the venv reads the machine's pip configuration like any pip (find-links,
# constraints, index), so a CPU torch wheel kept on disk is installed from there.
set -euo pipefail
PY="${1:-python3}"
DIR="${2:-.venv}"

fail() {
    echo "mjlens: cannot make $DIR: $*" >&2
    exit 1
}

command -v "$PY" >/dev/null 2>&1 \
    || fail "no '$PY' on PATH; install Python 3.11 or newer (Debian/Ubuntu: apt-get install python3 python3-venv) or name one: make PY=/path/to/python3"

"$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || fail "$("$PY" -V 2>&1) is older than mjlens needs (3.11); name a newer one: make PY=python3.11"

# Debian and Ubuntu split venv's pip bootstrap (ensurepip) into a package of its own.
if ! "$PY" -c 'import ensurepip, venv' >/dev/null 2>&1; then
    version="$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
    fail "$PY has no venv/ensurepip; on Debian/Ubuntu run: apt-get install python3-venv (or python${version}-venv)"
fi

if [ -x "$DIR/bin/python" ] && "$DIR/bin/python" -m pip --version >/dev/null 2>&1; then
    exit 0
fi
rm -rf "$DIR"
"$PY" -m venv "$DIR" || fail "'$PY -m venv $DIR' failed (see above); on Debian/Ubuntu: apt-get install python3-venv"
echo "mjlens: made $DIR with $("$DIR/bin/python" -V) from $(command -v "$PY")"
