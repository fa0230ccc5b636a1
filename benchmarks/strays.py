"""Tiles apart from the hand: true and false detections by detector confidence.

The pipeline leaves out a tile found apart from the hand under `STRAY_MIN_CONFIDENCE`
(`vision.pipeline`). This runs the shipped models with that floor off, matches every reported
tile to the labels (box IoU >= 0.5) and prints, for each candidate floor, how many true and
false tiles it would leave out and the photos' tile errors (missed + false) that remain.

    python benchmarks/strays.py runs/tune_proc            # a `mjlens synth` folder
    python benchmarks/strays.py .cache/bench_real         # a benchmarks/recognize.py folder
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision.pipeline as pipeline

FLOORS = (0.3, 0.35, 0.4, 0.45, 0.5)


def labelled_photos(root: Path) -> list[tuple[Path, np.ndarray]]:
    """(photo, labelled boxes xyxy) from a COCO folder or a folder of photo + JSON pairs."""
    coco = root / "annotations.coco.json"
    photos = []
    if coco.is_file():
        data = json.loads(coco.read_text(encoding="utf-8"))
        boxes: dict[int, list[list[float]]] = {}
        for ann in data["annotations"]:
            boxes.setdefault(ann["image_id"], []).append(ann["bbox"])
        photos = [(root / im["file_name"], boxes.get(im["id"], [])) for im in data["images"]]
    else:
        for label in sorted(root.glob("*.json")):
            anns = json.loads(label.read_text(encoding="utf-8"))["annotations"]
            photos.append((label.with_suffix(".jpg"), [a["bbox"] for a in anns]))
    return [
        (path, np.array([[x, y, x + w, y + h] for x, y, w, h in b], np.float32).reshape(-1, 4))
        for path, b in photos
    ]


def best_iou(box: np.ndarray, labels: np.ndarray) -> float:
    if not len(labels):
        return 0.0
    lo = np.maximum(labels[:, :2], box[:2])
    hi = np.minimum(labels[:, 2:], box[2:])
    inter = np.prod(np.clip(hi - lo, 0, None), axis=1)
    areas = np.prod(labels[:, 2:] - labels[:, :2], axis=1) + np.prod(box[2:] - box[:2])
    return float((inter / (areas - inter)).max())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--limit", type=int, default=None, help="first N photos")
    args = parser.parse_args()
    photos = labelled_photos(args.data)[: args.limit]
    pipeline.STRAY_MIN_CONFIDENCE = 0.0  # every detection, with the role the layout gave it
    recognizer = pipeline.Recognizer()
    labelled = 0
    found: list[tuple[bool, float, bool]] = []  # (apart from the hand, confidence, true tile)
    for path, labels in photos:
        tiles = recognizer.recognize(path).to_json()["tiles"]
        labelled += len(labels)
        for tile in tiles:
            true = best_iou(np.array(tile["box"], np.float32), labels) >= 0.5
            found.append((tile["role"] == "stray", tile["detector_confidence"], true))
    right = sum(t for _, _, t in found)
    print(f"{len(photos)} photos, {labelled} labelled tiles, {len(found)} found, {right} true")
    print("floor  left out: true false  precision  recall  errors (missed + false)")
    for floor in FLOORS:
        out = [t for apart, conf, t in found if apart and conf < floor]
        kept_right = right - sum(out)
        kept = len(found) - len(out)
        errors = (labelled - kept_right) + (kept - kept_right)
        print(
            f"{floor:5.2f}  {sum(out):14d} {len(out) - sum(out):5d}  "
            f"{kept_right / max(kept, 1):9.4f}  {kept_right / max(labelled, 1):6.4f}  {errors:6d}"
        )


if __name__ == "__main__":
    main()
