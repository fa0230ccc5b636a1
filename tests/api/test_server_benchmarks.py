"""benchmarks/soak.py and benchmarks/hostile.py still run: short runs against the replay app."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REPLAY = "tests.api.fakes:create_replay_app"


def _run(*args: str) -> str:
    command = [sys.executable, *args, "--app", REPLAY]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.slow
def test_soak_smoke() -> None:
    out = _run("benchmarks/soak.py", "--minutes", "0.2", "--every", "4", "--megapixels", "2")
    assert out.count(" min  RSS ") >= 2 and "errors 0" in out and "target" in out


@pytest.mark.slow
def test_hostile_smoke() -> None:
    out = _run(
        "benchmarks/hostile.py",
        *("--slow", "6", "--heads", "2", "--photos", "2", "--settle", "2", "--megapixels", "2"),
    )
    assert "2 of 2 read (200)" in out and "wrong: 0" in out and "hostile: all held" in out
