"""Which flower: the classifier alone, the flower reader alone, and the two joined.

    python benchmarks/flowers.py --data .cache/bench_train [--reader runs/x/flower_reader.onnx]

Every face-up flower tile of the labelled photos of `benchmarks/recognize.py render`, cut
through its labelled corners as the pipeline cuts a detected one (widened by FACE_MARGIN):
the share named exactly right among the eight by the classifier's own split of its flower
mass, by the reader, by `vision.flowers.join` at several reader weights, and as shipped
(joined only on faces of READER_MIN_SIDE px or more that the classifier gives some flower);
and the share the classifier takes for some flower at all (which the reader does not
change).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.tiles import FLOWERS
from vision.classify import FACE_MARGIN, Classifier, long_sides, rectify, widen
from vision.flowers import (
    FLOWER_IDS,
    READER_H,
    READER_MIN_SIDE,
    READER_W,
    FlowerReader,
    candidates,
    join,
)
from vision.load import load_photo

WEIGHTS = (0.25, 0.5, 0.75)


def flower_faces(
    data: Path, limit: int
) -> tuple[list[np.ndarray], list[np.ndarray], list[int], list[float]]:
    """The flower faces of the first `limit` photos: classifier crops, reader crops, labels,
    the faces' long sides in working pixels."""
    small, large, labels, sides = [], [], [], []
    for path in sorted(data.glob("*.json"))[:limit]:
        marks = [
            a
            for a in json.loads(path.read_text())["annotations"]
            if a["code"] in FLOWERS and not a["face_down"] and a["face_visibility"] > 0.9
        ]
        if not marks:
            continue
        photo = load_photo(path.with_suffix(".jpg"))
        corners = np.array([a["corners"] for a in marks], np.float32) / np.float32(photo.scale)
        sides.extend(long_sides(corners).tolist())
        for quad, mark in zip(widen(corners, FACE_MARGIN), marks, strict=True):
            small.append(rectify(photo.image, quad))
            large.append(rectify(photo.image, quad, (READER_W, READER_H)))
            labels.append(FLOWERS.index(mark["code"]))
    return small, large, labels, sides


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--n", type=int, default=100000, help="photos")
    parser.add_argument("--classifier", default=None)
    parser.add_argument("--reader", default=None, help="flower reader ONNX (default: shipped)")
    args = parser.parse_args()
    classifier = Classifier(args.classifier, flowers=False)
    reader = FlowerReader(args.reader)
    small, large, labels, sides = flower_faces(args.data, args.n)
    if not labels:
        raise SystemExit(f"no face-up flower tiles in {args.data}")
    truth = np.array(labels)
    probs = classifier.classify_crops(small)
    looks = reader.read(large)
    rows = {
        "flower_tiles": len(truth),
        "as_a_flower": float(np.isin(probs.argmax(1), FLOWER_IDS).mean()),
        "classifier": float((probs[:, FLOWER_IDS].argmax(1) == truth).mean()),
        "reader": float((looks.argmax(1) == truth).mean()),
    }
    for weight in WEIGHTS:
        joined = join(probs, looks, weight)
        rows[f"joined_{weight}"] = float((joined[:, FLOWER_IDS].argmax(1) == truth).mean())
    # as shipped: joined only where the classifier sees a flower on a face large enough
    shipped = probs.copy()
    asked = candidates(probs, np.array(sides, np.float32))
    shipped[asked] = join(probs[asked], looks[asked])
    rows["shipped"] = float((shipped[:, FLOWER_IDS].argmax(1) == truth).mean())
    rows["faces_under_min_side"] = float(np.mean(np.array(sides) < READER_MIN_SIDE))
    print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
