#!/usr/bin/env bash
# Label Studio from PyPI into a throwaway virtual environment under .cache/ (never the
# project's own environment: it pins its own Django, pydantic and friends).
# Prints the environment's python. Re-running is a no-op once it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${LABELSTUDIO_VENV:-.cache/labelstudio-venv}"
VERSION="${LABELSTUDIO_VERSION:-1.23.2}"
if [ ! -x "$VENV/bin/label-studio" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --upgrade pip >&2
    "$VENV/bin/pip" install -q "label-studio==$VERSION" >&2
fi
echo "$VENV/bin/python"
