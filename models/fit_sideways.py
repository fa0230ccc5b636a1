"""Fit the sideways flag's logistic model (`vision.sideways`) on the detector's own tiles.

    python benchmarks/recognize.py render --out .cache/bench_train --n 400 \
        --sources procedural fluffystuff unicode --seed 78
    python -m models.fit_sideways --data .cache/bench_train --out models/sideways.json

The photos must be labelled (each NNNNN.jpg beside its NNNNN.json with the scene's
annotations, as `benchmarks/recognize.py render` writes them) and rendered from the training
sources: the held-out designs and the real faces stay for measuring. Each labelled face-up
tile the detector finds (its centre on the labelled face) is one example; its cues are
computed from the detector's corners and boxes exactly as the pipeline computes them.
Needs numpy only (Newton's method on an L2-penalised log-likelihood): about two minutes,
most of it the detector.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.sideways import MODEL_PATH, TERMS, cues, terms_of

Array = npt.NDArray[np.float64]


def examples(folders: list[Path], detector_path: Path | None) -> tuple[Array, Array, Array]:
    """Terms, truth (sideways) and the flags of the model in place, one row per labelled
    face-up tile that the detector found and that has neighbours to compare with."""
    from benchmarks.vision import match_faces
    from vision.detect import Detector
    from vision.load import load_photo

    detector = Detector(detector_path)
    rows: list[Array] = []
    truth: list[bool] = []
    shipped: list[bool] = []
    labels = sorted(p for folder in folders for p in folder.glob("*.json"))
    if not labels:
        raise SystemExit(f"no labelled photos in {', '.join(map(str, folders))}")
    for k, label_path in enumerate(labels):
        annotations = json.loads(label_path.read_text())["annotations"]
        tiles = detector.detect(load_photo(label_path.with_suffix(".jpg")))
        values, known = cues(tiles.corners, tiles.xyxy)
        quads = np.array([a["corners"] for a in annotations], np.float32).reshape(-1, 4, 2)
        for i, j in match_faces(tiles.centers, tiles.confidence, quads):
            if known[i] and not annotations[j].get("face_down") and not tiles.face_down[i]:
                rows.append(values[i])
                truth.append(bool(annotations[j].get("sideways")))
                shipped.append(bool(tiles.sideways[i]))
        if (k + 1) % 50 == 0:
            print(f"{k + 1}/{len(labels)} photos, {len(rows)} tiles", file=sys.stderr)
    return terms_of(np.array(rows)), np.array(truth), np.array(shipped)


def fit(terms: Array, truth: Array, l2: float = 0.01, steps: int = 50) -> tuple[Array, float]:
    """Weights and bias on the raw terms (standardised while fitting, then folded back)."""
    mean, scale = terms.mean(axis=0), terms.std(axis=0) + 1e-6
    design = np.column_stack([np.ones(len(terms)), (terms - mean) / scale])
    penalty = l2 * np.diag(np.r_[0.0, np.ones(terms.shape[1])])  # the bias goes free
    w = np.zeros(design.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-design @ w))
        gradient = design.T @ (p - truth) + penalty @ w
        hessian = (design * (p * (1 - p))[:, None]).T @ design + penalty
        w -= np.linalg.solve(hessian, gradient)
    weights = w[1:] / scale
    return weights, float(w[0] - weights @ mean)


def best_threshold(probability: Array, truth: Array) -> float:
    """The cut with the fewest false plus missed flags (ties: the lowest)."""
    cuts = np.round(np.arange(0.2, 0.81, 0.05), 2)
    errors = [int(((probability > c) != truth).sum()) for c in cuts]
    return float(cuts[int(np.argmin(errors))])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, nargs="+", required=True, help="labelled photo folders")
    p.add_argument("--detector", type=Path, help="detector ONNX (default: the shipped one)")
    p.add_argument("--l2", type=float, default=0.01)
    p.add_argument("--out", type=Path, default=MODEL_PATH)
    args = p.parse_args(argv)

    terms, truth, shipped = examples(args.data, args.detector)
    weights, bias = fit(terms, truth.astype(np.float64), args.l2)
    probability = 1.0 / (1.0 + np.exp(-(terms @ weights + bias)))
    threshold = best_threshold(probability, truth)
    flags = probability > threshold

    def errors(f: Array) -> dict[str, int]:
        return {"false": int((f & ~truth).sum()), "missed": int((~f & truth).sum())}

    spec: dict[str, Any] = {
        "terms": list(TERMS),
        "weights": [round(float(w), 6) for w in weights],
        "bias": round(bias, 6),
        "threshold": threshold,
        "fitted_on": {
            "folders": [str(f) for f in args.data],
            "tiles": len(truth),
            "sideways": int(truth.sum()),
            "errors": errors(flags),
            "errors_before": errors(shipped),
        },
    }
    args.out.write_text(json.dumps(spec, indent=1) + "\n")
    print(json.dumps(spec["fitted_on"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
