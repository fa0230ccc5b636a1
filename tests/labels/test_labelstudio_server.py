"""The labeling round trip against a real Label Studio server (PyPI `label-studio`, installed
into .cache/labelstudio-venv by `make labelstudio-test`, never by the test suite: the install
takes minutes). Pre-labels written by `mjlens label` with the shipped models go into a
project made from our config, come back through its JSON export and `mjlens import-labels`
unchanged, and `mjlens serve` answers as the project's ML backend."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from api.cli import main
from tests.api.test_real_models import HAVE_MODELS

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(os.environ.get("LABELSTUDIO_VENV", ROOT / ".cache" / "labelstudio-venv"))
# Kept between runs: Label Studio's first start sets up its database (minutes on 2 cores).
DATA = ROOT / ".cache" / "labelstudio-data"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (VENV / "bin" / "label-studio").exists(),
        reason="Label Studio is not installed: `make labelstudio-test` installs it into "
        ".cache/labelstudio-venv and runs this test",
    ),
    pytest.mark.skipif(not HAVE_MODELS, reason="no shipped models"),
]


def test_pre_labels_come_back_unchanged_through_label_studio(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = tmp_path / "photos"
    (photos / "table 2").mkdir(parents=True)
    sample = (ROOT / "api" / "static" / "sample.jpg").read_bytes()
    (photos / "win.jpg").write_bytes(sample)
    (photos / "table 2" / "win#2.jpg").write_bytes(sample)
    assert main(["label", str(photos), "--out", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "labelstudio_roundtrip.py"),
            "--photos",
            str(photos),
            "--labels",
            str(tmp_path / "out"),
            "--venv",
            str(VENV),
            "--data",
            str(DATA),
            "--serve",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "round trip passed: 2 photos" in run.stdout
    assert "ML backend: Label Studio got" in run.stdout
