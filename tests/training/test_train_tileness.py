"""The tileness network's data, its folds, its export, and the objectness model fitted on the
folds' held-back log-odds, end to end on a few rendered photos."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from datasets import synth
from training import tileness_data, train_tileness
from vision.objectness import load
from vision.tileness import CROP_H, CROP_W

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def detections(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tn")
    synth.generate(
        6,
        str(folder / "photos"),
        3,
        ("procedural",),
        ("cluttered_win", "no_tiles"),
        640,
        1,
        0,
        None,
    )
    data = tileness_data.collect([folder / "photos"], 0.1)
    out = folder / "tn.npz"
    np.savez_compressed(out, **data)
    return out


def test_each_detection_keeps_its_crop_its_look_and_whether_it_is_a_tile(
    detections: Path,
) -> None:
    with np.load(detections) as z:
        n = len(z["y"])
        assert z["crops"].shape == (n, CROP_H, CROP_W, 3) and z["x"].shape[0] == n
        assert set(np.unique(z["y"]).tolist()) <= {-1, 0, 1}
        assert (z["y"] == 1).any() and (z["y"] == 0).any()  # tiles, and look-alikes
        assert (z["confidence"] >= 0.1).all()


def test_folds_write_their_held_back_log_odds_and_the_objectness_fit_takes_them(
    detections: Path, tmp_path: Path
) -> None:
    held = []
    for fold in (0, 1):
        out = tmp_path / f"fold{fold}"
        args = [str(detections), "--minutes", "0.03", "--folds", "2", "--fold", str(fold)]
        assert train_tileness.main([*args, "--threads", "1", "--out", str(out)]) == 0
        held.append(out / "held.npz")
        assert (out / "last.pt").is_file() and "held_back" in json.loads(
            (out / "report.json").read_text()
        )
    with np.load(detections) as z:
        labelled = int((z["y"] != -1).sum())
    rows = np.concatenate([np.load(h)["rows"] for h in held])
    assert sorted(rows.tolist()) == list(range(labelled))  # every detection held back once

    shipped = tmp_path / "tileness.onnx"
    args = [str(detections), "--minutes", "0.03", "--threads", "1", "--out", str(tmp_path / "all")]
    assert train_tileness.main([*args, "--export", str(shipped)]) == 0
    session = ort.InferenceSession(str(shipped), providers=["CPUExecutionProvider"])
    crops = np.zeros((3, 3, CROP_H, CROP_W), np.float32)
    assert session.run(None, {"crops": crops})[0].shape == (3, 1)

    model = tmp_path / "objectness.json"
    fit = [sys.executable, "benchmarks/objectness.py", "fit", "--features", str(detections)]
    fit += ["--tileness", *map(str, held), "--out", str(model)]
    done = subprocess.run(fit, cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert load(model).tileness
