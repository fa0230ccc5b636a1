"""The server's image (Dockerfile) is built from what .dockerignore lets in, with the api extra
alone: the app and the recognizer must import from those packages, without the train extra."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIRST_PARTY = {"scoring", "vision", "datasets", "labels", "api", "training", "benchmarks", "tests"}
TRAIN_EXTRA = ("torch", "PIL", "tqdm", "onnx", "fontTools")

# Imports what `mjlens serve` imports before it answers a photo, with the train extra's
# packages made unimportable, and prints the top-level packages that were loaded.
PROBE = f"""
import json, sys
for name in {TRAIN_EXTRA!r}:
    sys.modules[name] = None
import api.app, api.commands.serve, vision.pipeline
app = api.app.create_app()
print(json.dumps(sorted({{m.split(".")[0] for m in sys.modules}})))
"""


def _let_in() -> set[str]:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return {line[1:].rstrip("/") for line in lines if line.startswith("!")}


def test_the_image_holds_every_package_the_server_imports() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    loaded = set(json.loads(result.stdout.strip().splitlines()[-1]))
    needed = loaded & FIRST_PARTY
    assert needed <= _let_in(), f"add to .dockerignore: {sorted(needed - _let_in())}"


def test_the_image_installs_the_api_extra_and_runs_as_no_root() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert '".[api]"' in dockerfile
    user = [line.split()[1] for line in dockerfile.splitlines() if line.startswith("USER ")]
    assert user and not user[-1].startswith(("0", "root"))
    assert "/healthz" in dockerfile and "ORT_DISABLE_TELEMETRY=1" in dockerfile
