"""Dependencies send nothing and keep no identifiers: onnxruntime's telemetry is off unless
the user opts in (ORT_DISABLE_TELEMETRY=0)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUN_A_MODEL = """
import vision.classify, onnxruntime
from vision.registry import require
onnxruntime.InferenceSession(str(require("sideways_look")), providers=["CPUExecutionProvider"])
"""


def _cache_after_a_model(home: Path, **env: str) -> list[Path]:
    environ = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    environ.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), **env)
    subprocess.run([sys.executable, "-c", RUN_A_MODEL], cwd=ROOT, env=environ, check=True)
    return sorted(p.relative_to(home) for p in home.rglob("*") if p.is_file())


def test_onnxruntime_writes_nothing_to_the_users_cache(tmp_path: Path) -> None:
    assert _cache_after_a_model(tmp_path) == []


def test_the_opt_in_is_onnxruntimes_own_variable(tmp_path: Path) -> None:
    # The variable is onnxruntime's: 0 turns its telemetry back on (a device id appears).
    files = _cache_after_a_model(tmp_path, ORT_DISABLE_TELEMETRY="0")
    if not files:
        pytest.skip("this onnxruntime build records no telemetry at all")
    assert any("onnxruntime" in str(f) for f in files)
