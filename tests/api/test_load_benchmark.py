"""benchmarks/load.py still runs: a 2-second, 4-client smoke run against the replay app."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_load_benchmark_smoke() -> None:
    command = [sys.executable, "benchmarks/load.py", "--seconds", "2", "--clients", "4"]
    command += ["--app", "tests.api.fakes:create_replay_app", "--ready-wait", "30"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "score + recognize" in done.stdout and "errors: 0" in done.stdout
    assert done.stdout.count("server memory at") == 4
