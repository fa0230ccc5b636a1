"""Tiles apart from the hand: true and false detections by detector confidence.

The search leaves out a tile found apart from the hand under `STRAY_MIN_CONFIDENCE`
(`vision.moves`). This runs the shipped models with that floor off, matches every reported
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

import vision.moves as moves
import vision.pipeline as pipeline
from benchmarks.vision import _truth as truth
from benchmarks.vision import read_synth
from vision.nms import box_iou

FLOORS = (0.3, 0.35, 0.4, 0.45, 0.5)


def labelled_photos(root: Path) -> list[tuple[Path, np.ndarray]]:
    """(photo, labelled boxes xyxy) from a COCO folder or a folder of photo + JSON pairs."""
    if (root / "annotations.coco.json").is_file():
        return [(path, truth(anns)[0]) for path, anns in read_synth(root)]
    photos = []
    for label in sorted(root.glob("*.json")):
        anns = json.loads(label.read_text(encoding="utf-8"))["annotations"]
        boxes = [[x, y, x + w, y + h] for x, y, w, h in (a["bbox"] for a in anns)]
        photos.append((label.with_suffix(".jpg"), np.array(boxes, np.float32).reshape(-1, 4)))
    return photos


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--limit", type=int, default=None, help="first N photos")
    args = parser.parse_args()
    photos = labelled_photos(args.data)[: args.limit]
    moves.STRAY_MIN_CONFIDENCE = 0.0  # every detection, with the role the layout gave it
    recognizer = pipeline.Recognizer()
    labelled = 0
    found: list[tuple[bool, float, bool]] = []  # (apart from the hand, confidence, true tile)
    for path, labels in photos:
        tiles = recognizer.recognize(path).to_json()["tiles"]
        labelled += len(labels)
        for tile in tiles:
            box = np.array(tile["box"], np.float32)
            true = len(labels) > 0 and float(box_iou(box, labels).max()) >= 0.5
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
