"""Detections of synthetic photos as the tileness network learns them: each detection's context
crop, its objectness look features (`vision.objectness.look_features`) and whether it is a
tile.

    python -m training.tileness_data .cache/tn_fit_9601 --threshold 0.1 --out tn.npz

Each photo is read as recognition reads it (shipped detector, corner refiner, classifier),
down to the detector confidence `--threshold`.
A detection is a tile when it is chosen for a labelled face (`vision.match`), no tile when its
centre lies on no labelled tile's box; a second peak on one tile is neither and is kept out.
The crop is what `vision.tileness` reads: the face with a ring of its surroundings, so that a
tile's thick body and a key's thin outline both show.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from vision.load import load_photo
from vision.match import match_faces
from vision.objectness import look_features
from vision.pipeline import Recognizer
from vision.tileness import context_crops

Json = dict[str, Any]
TILE, NOT_TILE, NEITHER = 1, 0, -1


def labels(centres: np.ndarray, confidence: np.ndarray, anns: list[Json]) -> np.ndarray:
    """Per detection: TILE (chosen for a labelled face, one per face), NOT_TILE (its centre
    on no labelled tile's box) or NEITHER (a second peak on one tile)."""
    out = np.full(len(centres), NOT_TILE, np.int8)
    if not anns or not len(centres):
        return out
    quads = np.array([a["corners"] for a in anns], np.float32).reshape(-1, 4, 2)
    boxes = np.array([a["bbox"] for a in anns], np.float32)
    x, y = centres[:, 0:1], centres[:, 1:2]
    on_box = (x >= boxes[:, 0]) & (x <= boxes[:, 0] + boxes[:, 2])
    on_box &= (y >= boxes[:, 1]) & (y <= boxes[:, 1] + boxes[:, 3])
    out[on_box.any(axis=1)] = NEITHER
    for i, _ in match_faces(centres, confidence, quads):
        out[i] = TILE
    return out


def collect(folders: list[Path], threshold: float | None) -> dict[str, np.ndarray]:
    recognizer = Recognizer()
    crops, kinds, photos, confidence, looks = [], [], [], [], []
    photo_id = 0
    for folder in folders:
        coco = json.loads((folder / "annotations.coco.json").read_text(encoding="utf-8"))
        anns: dict[int, list[Json]] = {}
        for ann in coco["annotations"]:
            anns.setdefault(ann["image_id"], []).append(ann)
        for k, image in enumerate(coco["images"]):
            photo = load_photo(folder / image["file_name"])
            found = recognizer.detector.detect(photo, threshold)
            tiles = recognizer.classifier.classify(photo, found)
            photo_id += 1
            if not len(tiles):
                continue
            crops.append(context_crops(photo, tiles.corners))
            kinds.append(labels(tiles.centers, tiles.confidence, anns.get(image["id"], [])))
            photos.append(np.full(len(tiles), photo_id, np.int32))
            confidence.append(tiles.confidence.astype(np.float32))
            looks.append(look_features(tiles).astype(np.float32))
            if k % 50 == 0:
                print(f"{folder.name}: {k}/{len(coco['images'])}", file=sys.stderr, flush=True)
    return {
        "crops": np.concatenate(crops),
        "y": np.concatenate(kinds),
        "photo": np.concatenate(photos),
        "confidence": np.concatenate(confidence),
        "x": np.concatenate(looks),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="+", type=Path, help="synthetic COCO folders")
    parser.add_argument("--out", type=Path, required=True, help="the .npz written")
    parser.add_argument(
        "--threshold", type=float, help="the detector's confidence (default: recognition's)"
    )
    args = parser.parse_args()
    data = collect(args.folders, args.threshold)
    np.savez_compressed(args.out, **data)
    y = data["y"]
    print(json.dumps({"tiles": int((y == TILE).sum()), "not_tiles": int((y == NOT_TILE).sum())}))


if __name__ == "__main__":
    main()
