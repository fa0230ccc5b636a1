"""The sideways flag's logistic model: its fit, its threshold and the shipped file."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from training.fit_sideways import best_threshold, fit
from vision.registry import shipped
from vision.sideways import LOOK_TERMS, TERMS, SidewaysModels, shipped_models

MODEL_PATH = shipped("sideways").path
LOOK_PATH = shipped("sideways_look").path


def test_the_fit_recovers_a_known_logistic_model_on_raw_terms() -> None:
    rng = np.random.default_rng(0)
    terms = rng.normal([0.0, 5.0], [1.0, 0.1], (20_000, 2))  # unlike scales: folded back
    true_w, true_b = np.array([2.0, -10.0]), 49.0
    truth = rng.random(len(terms)) < 1 / (1 + np.exp(-(terms @ true_w + true_b)))
    weights, bias = fit(terms, truth.astype(np.float64), l2=0.0)
    np.testing.assert_allclose(weights, true_w, rtol=0.15)
    assert bias == pytest.approx(true_b, rel=0.15)


def test_the_threshold_is_the_cut_with_fewest_wrong_flags() -> None:
    probability = np.array([0.1, 0.3, 0.45, 0.5, 0.7, 0.9])
    truth = np.array([False, False, False, True, True, True])
    assert best_threshold(probability, truth) == pytest.approx(0.45)


def test_the_shipped_model_names_the_terms_the_code_computes() -> None:
    spec = json.loads(MODEL_PATH.read_text())
    assert tuple(spec["terms"]) == TERMS and len(spec["weights"]) == len(TERMS)
    assert tuple(spec["look"]["terms"]) == LOOK_TERMS
    assert len(spec["look"]["weights"]) == len(LOOK_TERMS)
    models = shipped_models()
    assert models.look is not None and 0 < models.look.threshold < 1
    assert 0 < models.geometry.threshold < 1
    # Fitted on the training sources only, and on the look graph that ships beside it.
    fitted = spec["fitted_on"]
    assert all("bench_train" in folder for folder in fitted["data"] + fitted["combine"])
    assert not set(fitted["data"]) & set(fitted["combine"])
    digest = hashlib.sha256(LOOK_PATH.read_bytes()).hexdigest()[:16]
    assert spec["look"]["graph"] == LOOK_PATH.name and spec["look"]["graph_sha256"] == digest


def test_a_model_for_other_terms_is_refused(tmp_path: Path) -> None:
    spec = json.loads(MODEL_PATH.read_text())
    spec["look"]["terms"] = spec["look"]["terms"][::-1]
    path = tmp_path / "sideways.json"
    path.write_text(json.dumps(spec))
    with pytest.raises(ValueError, match="terms"):
        SidewaysModels.load(path)
