"""Face crops cut along the DETECTOR's corners in training-source photos, for the classifier.

    python -m training.detected_crops runs/det_train --out runs/detected_crops.npz
    python -m training.detected_crops runs/fl_train_a --out runs/flower_crops.npz --flowers

With `--flowers`, only the flower and season faces, cut at the flower reader's size as the
pipeline cuts them for it (`vision.classify`, `vision.flowers`).

The detector's corners err in ways the classifier's jitter does not imitate: on held-out
photos about a tenth of its quads are off by a fifth of the face or more (turned loose
tiles, sideways melds), and the classifier that reads 95 % of real faces through the true
corners reads 89 % through the detected ones. Crops cut as the detector cuts them at run
time teach it those errors. Each detection is labelled by the face its centre falls on; the
photos must be the training sources' (never the held-out one).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from scoring.tiles import CLASSES, FLOWERS
from vision.classify import rectify, widen
from vision.detect import Detector
from vision.flowers import READER_H, READER_W
from vision.match import match_faces

CLASS_INDEX = {code: i for i, code in enumerate(CLASSES)}
MIN_VISIBILITY = 0.8  # as training.scene_crops: half-hidden faces teach guessing


def detected_crops(
    roots: list[str],
    detector: Detector,
    limit: int | None = None,
    size: tuple[int, int] | None = None,
    codes: frozenset[str] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(n, h, w, 3) RGB uint8 crops through detected corners, and class indices: crops of
    `size` (w, h; the classifier's by default), of the faces in `codes` (all by default)."""
    crops: list[np.ndarray] = []
    labels: list[int] = []
    for root in roots:
        coco = json.loads((Path(root) / "annotations.coco.json").read_text(encoding="utf-8"))
        by_image: dict[int, list[dict]] = {}
        for ann in coco["annotations"]:
            by_image.setdefault(ann["image_id"], []).append(ann)
        images = coco["images"][:limit] if limit else coco["images"]
        for img in tqdm(images, desc=f"detect {Path(root).name}", leave=False):
            image = cv2.imread(str(Path(root) / img["file_name"]))
            anns = by_image.get(img["id"], [])
            if image is None or not anns:
                continue
            tiles = detector.detect_image(image)
            faces = np.array([a["corners"] for a in anns], np.float32)
            rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
            read = widen(tiles.corners)  # as the pipeline reads them
            # each face labels the surest detection centred on it, as the benchmarks match
            for i, j in match_faces(tiles.corners.mean(axis=1), tiles.confidence, faces):
                ann = anns[j]
                code = CLASSES[ann["category_id"] - 1]
                if ann.get("face_down") or ann.get("visibility", 1.0) < MIN_VISIBILITY:
                    continue
                if codes is not None and code not in codes:
                    continue
                crops.append(rectify(rgb, read[i], size) if size else rectify(rgb, read[i]))
                labels.append(CLASS_INDEX[code])
    return np.stack(crops), np.array(labels, np.int64)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("roots", nargs="+", help="mjlens synth folders of TRAINING sources")
    p.add_argument("--out", required=True, help=".npz with crops and labels")
    p.add_argument("--detector", default=None, help="ONNX detector (default: the shipped one)")
    p.add_argument("--limit", type=int, default=None, help="photos per folder")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument(
        "--flowers", action="store_true", help="only flowers and seasons, at the reader's size"
    )
    args = p.parse_args(argv)
    cv2.setNumThreads(args.threads)
    size, codes = ((READER_W, READER_H), frozenset(FLOWERS)) if args.flowers else (None, None)
    crops, labels = detected_crops(
        args.roots, Detector(args.detector, threads=args.threads), args.limit, size, codes
    )
    np.savez_compressed(args.out, crops=crops, labels=labels)
    print(f"{len(labels)} crops -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
