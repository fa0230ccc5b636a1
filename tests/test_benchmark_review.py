"""The review benchmark's reliability bins and their diagram."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.review import expected_calibration_error, platt, reliability, reliability_png


def test_reliability_bins_hold_each_photo_once_with_its_mean_and_share_right() -> None:
    p = np.array([0.05, 0.05, 0.95, 0.97, 0.6])
    right = np.array([False, True, True, True, False])
    bins = reliability(p, right)
    assert sum(b["photos"] for b in bins) == 5
    low = next(b for b in bins if b["bin"] == "0.00-0.10")
    assert low["photos"] == 2 and low["right"] == 0.5 and low["mean_p"] == 0.05


def test_the_diagram_draws_a_dot_where_a_bin_lies(tmp_path: Path) -> None:
    path = tmp_path / "reliability.png"
    reliability_png([{"bin": "0.90-0.95", "photos": 10, "mean_p": 0.9, "right": 0.5}], 0.915, path)
    image = cv2.imread(str(path))
    assert image is not None and image.shape == (516, 516, 3)
    # the dot's centre: 48 px of margin, 420 px a unit of probability
    x, y = 48 + int(0.9 * 420), 48 + int(0.5 * 420)
    assert tuple(image[y, x]) == (200, 120, 0)
    assert tuple(image[48 + int(0.15 * 420), 48 + int(0.15 * 420)]) == (255, 255, 255)


def test_the_threshold_keeps_the_unflagged_reads_right_with_a_set_and_without_each() -> None:
    from benchmarks.review import choose_threshold

    # Without a set the reads at 0.5 and up are right; with one, a wrong read lies at 0.8.
    p = np.array([0.3, 0.5, 0.6, 0.9, 0.7, 0.8, 0.9, 0.95])
    right = np.array([False, True, True, True, True, False, True, True])
    taught = np.array([False, False, False, False, True, True, True, True])
    none, every = np.zeros(8, bool), np.ones(8, bool)
    assert choose_threshold(p, right, none, every, 0.99) == 0.9
    assert choose_threshold(p, right, none, every, 0.99, taught) == 0.9
    assert choose_threshold(p[:4], right[:4], none[:4], every[:4], 0.99) == 0.5
    # Pooled, 0.5 keeps 6 of 7 right (86 %): with a looser target both ways, each is held.
    assert choose_threshold(p, right, none, every, 0.85) == 0.5
    assert choose_threshold(p, right, none, every, 0.85, taught) == 0.9


def test_platt_scaling_recovers_the_map_the_outcomes_were_drawn_with() -> None:
    rng = np.random.default_rng(5)
    p = rng.uniform(0.02, 0.98, 20000)
    truth = 1.0 / (1.0 + np.exp(-(1.0 + 0.8 * np.log(p / (1 - p)))))
    right = rng.random(len(p)) < truth
    a, b = platt(p, right)
    assert a == pytest.approx(1.0, abs=0.1) and b == pytest.approx(0.8, abs=0.1)
    mapped = 1.0 / (1.0 + np.exp(-(a + b * np.log(p / (1 - p)))))
    assert expected_calibration_error(mapped, right) < expected_calibration_error(p, right) / 3


def test_fit_no_set_refits_the_base_model_on_readings_with_no_set_and_keeps_the_set_model(
    tmp_path: Path,
) -> None:
    import argparse
    import json

    from benchmarks.review import fit_without_set
    from vision.calibration import FEATURES, ReviewModel
    from vision.registry import shipped

    rng = np.random.default_rng(3)
    rows = []
    for k in range(400):
        right = bool(k % 3)
        features = rng.normal(0.0, 1.0, len(FEATURES))
        features[0] = np.log(0.97 if right else 0.6) + rng.normal(0.0, 0.05)  # log confidence
        rows.append(
            {
                "photo": f"{k}",
                "taught": False,
                "right": right,
                "complete": True,
                "checks": [],
                "features": features.tolist(),
            }
        )
    # Readings with a set, all wrong at high confidence: fitted on, they would pull the
    # model's weight on the confidence down.
    rows += [dict(r, taught=True, right=False, features=[0.0] * len(FEATURES)) for r in rows[:200]]
    kept = tmp_path / "rows.json"
    kept.write_text(json.dumps(rows))
    out = tmp_path / "review.json"
    args = argparse.Namespace(
        sets=["unused"],
        tiles="tiles",
        rows=str(kept),
        n=None,
        model=None,
        out=str(out),
        l2=1.0,
        target=0.99,
    )
    figures = fit_without_set(args)

    shipped_json = json.loads(shipped("review").path.read_text())
    written = json.loads(out.read_text())
    assert written["with_set"] == shipped_json["with_set"]
    assert written["recalibration"]["no_set"] == [0.0, 1.0]
    assert written["fitted_on"]["photos"] == 400 and figures["photos"] == 400
    model = ReviewModel.from_json(written)
    p = np.array([model.p_right(np.array(r["features"])) for r in rows[:400]])
    right = np.array([r["right"] for r in rows[:400]])
    assert p[right].min() > p[~right].max()  # the confidence parts them, and the fit found it
    assert figures["out_of_fold"]["unflagged_right"] >= 0.99
