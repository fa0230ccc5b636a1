"""Fit the sideways flag (`vision.sideways`) on the detector's own tiles: the look network,
the geometry's logistic model, and the logistic model with the look.

    python benchmarks/recognize.py render --out .cache/bench_train --n 400 \\
        --sources procedural fluffystuff unicode --seed 78    # bench_train2: seed 79
    python benchmarks/recognize.py render --out .cache/bench_train3 --n 500 \\
        --sources procedural fluffystuff unicode --seed 80
    python -m training.fit_sideways --data .cache/bench_train .cache/bench_train2 \\
        --combine .cache/bench_train3

The photos must be labelled (each NNNNN.jpg beside its NNNNN.json with the scene's
annotations, as `benchmarks/recognize.py render` writes them) and rendered from the training
sources: the held-out designs and the real faces stay for measuring. Each labelled face-up
tile the detector finds (its centre on the labelled face) and that has neighbours is one
example; its cues and look are computed exactly as the pipeline computes them.

The look network and the geometry's model learn from `--data`; the model with the look is
fitted on `--combine`, photos the network never saw, so that its logit weighs what it is
worth on new photos. The network needs torch (the train extra): about 12 minutes on two
cores; the logistic models are numpy (Newton's method on an L2-penalised likelihood).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from training.schedule import cosine
from vision.registry import shipped
from vision.sideways import (
    LOOK_SIZE,
    LOOK_TERMS,
    TERMS,
    cues,
    look_crops,
    terms_of,
)

Array = npt.NDArray[np.float64]


def examples(folders: list[Path]) -> tuple[Array, Array, npt.NDArray[np.bool_]]:
    """Terms, look crops and truth (sideways), one row per labelled face-up tile that the
    shipped detector found and that has neighbours to compare with."""
    from vision.detect import Detector
    from vision.load import load_photo
    from vision.match import match_faces

    detector = Detector()
    terms: list[Array] = []
    crops: list[Array] = []
    truth: list[bool] = []
    labels = sorted(p for folder in folders for p in folder.glob("*.json"))
    if not labels:
        raise SystemExit(f"no labelled photos in {', '.join(map(str, folders))}")
    for k, label_path in enumerate(labels):
        annotations = json.loads(label_path.read_text())["annotations"]
        photo = load_photo(label_path.with_suffix(".jpg"))
        tiles = detector.detect_image(photo.image)  # working pixels, as the pipeline reads
        found = cues(tiles.corners, tiles.xyxy)
        looks = look_crops(photo.image, tiles.corners, found)
        row_of = {int(i): r for r, i in enumerate(np.nonzero(found.known)[0])}
        quads = np.array([a["corners"] for a in annotations], np.float32).reshape(-1, 4, 2)
        for i, j in match_faces(tiles.centers, tiles.confidence, quads / np.float32(photo.scale)):
            if found.known[i] and not annotations[j].get("face_down") and not tiles.face_down[i]:
                terms.append(terms_of(found.values[i : i + 1])[0])
                crops.append(looks[row_of[i]])
                truth.append(bool(annotations[j].get("sideways")))
        if (k + 1) % 100 == 0:
            print(f"{k + 1}/{len(labels)} photos, {len(truth)} tiles", file=sys.stderr)
    return np.array(terms), np.array(crops), np.array(truth)


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


def best_threshold(probability: Array, truth: npt.NDArray[np.bool_]) -> float:
    """The cut with the fewest false plus missed flags (ties: the lowest)."""
    cuts = np.round(np.arange(0.2, 0.81, 0.05), 2)
    errors = [int(((probability > c) != truth).sum()) for c in cuts]
    return float(cuts[int(np.argmin(errors))])


def train_look(crops: Array, truth: npt.NDArray[np.bool_], minutes: float, seed: int) -> Any:
    """The look network: four strided convolutions, 0.05 M parameters, trained with mirror,
    half-turn, brightness and shift augmentation (what the row's direction leaves open)."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)

    def block(cin: int, cout: int) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, 2, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
        )

    net = nn.Sequential(
        block(1, 16), block(16, 32), block(32, 48), block(48, 64),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 1),
    )  # fmt: skip
    optimiser = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    y = truth.astype(np.float32)
    # Sideways tiles are one in ten: weigh them up by the square root of the odds.
    loss_fn = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(((1 - y.mean()) / y.mean()) ** 0.5))
    start, budget, step = time.perf_counter(), minutes * 60, 0
    while (elapsed := time.perf_counter() - start) < budget:
        for group in optimiser.param_groups:
            group["lr"] = cosine(2e-3, elapsed / budget)
        idx = rng.integers(0, len(crops), 128)
        x = crops[idx, 0]
        if rng.random() < 0.5:
            x = x[:, ::-1]
        if rng.random() < 0.5:
            x = x[:, :, ::-1]
        x = x * rng.uniform(0.6, 1.4, (len(idx), 1, 1)) + rng.uniform(-0.2, 0.2, (len(idx), 1, 1))
        x = np.roll(x, tuple(rng.integers(-3, 4, 2)), axis=(1, 2))
        batch = torch.from_numpy(np.ascontiguousarray(x[:, None], dtype=np.float32))
        loss = loss_fn(net(batch)[:, 0], torch.from_numpy(y[idx]))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        step += 1
        if step % 1000 == 0:
            print(f"look step {step}, loss {float(loss):.4f}, {elapsed:.0f} s", file=sys.stderr)
    return net.eval()


def export_look(net: Any, path: Path) -> None:
    from training.train_classifier import export_onnx

    export_onnx(net, path, (1, 1, LOOK_SIZE, LOOK_SIZE), "logits")


def _errors(flags: npt.NDArray[np.bool_], truth: npt.NDArray[np.bool_]) -> dict[str, int]:
    return {"false": int((flags & ~truth).sum()), "missed": int((~flags & truth).sum())}


def _logistic(terms: Array, truth: npt.NDArray[np.bool_], l2: float) -> dict[str, Any]:
    weights, bias = fit(terms, truth.astype(np.float64), l2)
    probability = 1.0 / (1.0 + np.exp(-(terms @ weights + bias)))
    threshold = best_threshold(probability, truth)
    return {
        "weights": [round(float(w), 6) for w in weights],
        "bias": round(bias, 6),
        "threshold": threshold,
        "errors": _errors(probability > threshold, truth),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, nargs="+", required=True, help="labelled photo folders")
    p.add_argument("--combine", type=Path, nargs="+", required=True, help="photos for the mix")
    p.add_argument("--look-minutes", type=float, default=12.0)
    p.add_argument("--l2", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=shipped("sideways").path)
    args = p.parse_args(argv)

    terms, crops, truth = examples(args.data)
    net = train_look(crops, truth, args.look_minutes, args.seed)
    look_path = args.out.with_name(shipped("sideways_look").file)
    export_look(net, look_path)

    import onnxruntime as ort

    session = ort.InferenceSession(str(look_path), providers=["CPUExecutionProvider"])
    held_terms, held_crops, held_truth = examples(args.combine)
    logits = session.run(None, {"crops": held_crops.astype(np.float32)})[0].reshape(-1)
    logits = np.clip(logits.astype(np.float64), -9.0, 9.0)
    spec: dict[str, Any] = {"terms": list(TERMS), **_logistic(terms, truth, args.l2)}
    spec["look"] = {
        "terms": list(LOOK_TERMS),
        **_logistic(np.column_stack([held_terms, logits]), held_truth, args.l2),
        "graph": look_path.name,
        "graph_sha256": hashlib.sha256(look_path.read_bytes()).hexdigest()[:16],
    }
    spec["fitted_on"] = {
        "data": [str(f) for f in args.data],
        "combine": [str(f) for f in args.combine],
        "tiles": len(truth),
        "sideways": int(truth.sum()),
        "combine_tiles": len(held_truth),
        "combine_sideways": int(held_truth.sum()),
        "look_minutes": args.look_minutes,
        "seed": args.seed,
    }
    args.out.write_text(json.dumps(spec, indent=1) + "\n")
    print(json.dumps({"geometry": spec["errors"], "look": spec["look"]["errors"]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
