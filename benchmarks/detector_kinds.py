"""Detector box recall and precision by scene kind, for detectors side by side on one set.

    python -m benchmarks.detector_kinds runs/val_heldout2 [--detector shipped FILE ...]

Reads a `mjlens synth` folder, runs each detector alone (no classifier) and matches its boxes
to the labelled boxes one to one at IoU >= 0.5 (a box takes the best unmatched label). The
scene kinds (declared wins, standing rows, piles, scatters) fail in different ways, which one
figure over the whole set hides.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from vision.detect import Detector
from vision.load import Photo

IOU = 0.5


def iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of one box `a` against boxes `b`, all x1, y1, x2, y2."""
    x1, y1 = np.maximum(a[0], b[:, 0]), np.maximum(a[1], b[:, 1])
    x2, y2 = np.minimum(a[2], b[:, 2]), np.minimum(a[3], b[:, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]) - inter
    return np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0)


def matched(truth: list[np.ndarray], found: np.ndarray) -> int:
    free = np.ones(len(found), bool)
    hits = 0
    for box in truth:
        if not free.any():
            break
        overlap = np.where(free, iou(box, found), 0.0)
        best = int(np.argmax(overlap))
        if overlap[best] >= IOU:
            free[best] = False
            hits += 1
    return hits


def measure(data: Path, detector: Detector) -> dict[str, dict[str, float]]:
    coco = json.loads((data / "annotations.coco.json").read_text(encoding="utf-8"))
    labels: dict[int, list[np.ndarray]] = defaultdict(list)
    for a in coco["annotations"]:
        x, y, w, h = a["bbox"]
        labels[a["image_id"]].append(np.array([x, y, x + w, y + h], np.float64))
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # labelled, matched, found
    for image in coco["images"]:
        pixels = cv2.imread(str(data / image["file_name"]))
        h, w = pixels.shape[:2]
        tiles = detector.detect(Photo(image=pixels, scale=1.0, original_size=(w, h), sha256=""))
        scene = image.get("scene")
        kind = str(scene.get("kind") if isinstance(scene, dict) else scene)
        row = counts[kind]
        row[0] += len(labels[image["id"]])
        row[1] += matched(labels[image["id"]], np.asarray(tiles.xyxy, np.float64))
        row[2] += len(tiles.xyxy)
    return {
        kind: {"tiles": n, "recall": hit / max(n, 1), "precision": hit / max(found, 1)}
        for kind, (n, hit, found) in sorted(counts.items())
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="a mjlens synth folder")
    parser.add_argument("--detector", nargs="+", default=["shipped"], help="'shipped' or ONNX")
    args = parser.parse_args()
    for name in args.detector:
        detector = Detector(None if name == "shipped" else name)
        for kind, row in measure(args.data, detector).items():
            print(
                f"{name:32s} {kind:14s} recall {row['recall']:6.1%}  "
                f"precision {row['precision']:6.1%}  tiles {row['tiles']:.0f}"
            )


if __name__ == "__main__":
    main()
