"""Detect + classify on rows of REAL tile faces: camerash crops laid side by side on a table.

The camerash photos are single tiles cropped to the tile, so the detector has nothing to
find in one of them. Laid edge to edge in rows of 14, at phone-photo scale, on a plain
table, and seen through a mild camera tilt and turn, they make hand-like photos whose tile
pixels are real (a design never trained on). Measures, by face (a detection whose centre lies
on a tile): recall, precision, tile accuracy and rows read fully right. Validation only: the
composites are made in memory from the folder given and never written into the project.

    python benchmarks/camerash_rows.py --camerash ../shared/data/camerash-crops --photos 60
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.vision import codes_of, photo_of
from datasets.faces.camerash import read_camerash
from vision.classify import Classifier
from vision.detect import Detector
from vision.match import match_faces

TABLES = [(40, 110, 40), (35, 80, 140), (60, 60, 60), (140, 160, 175), (30, 40, 110)]  # BGR


def compose(faces: list[np.ndarray], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One photo (BGR) of the faces in a row, and each face's quad (n, 4, 2) TL TR BR BL."""
    tile_w = int(rng.integers(44, 96))
    tile_h = round(tile_w * 4 / 3)
    gap = int(rng.integers(0, 4))
    row_w = len(faces) * (tile_w + gap)
    width = int(row_w * rng.uniform(1.15, 1.6))
    height = int(width * 3 / 4)
    table = np.array(TABLES[rng.integers(len(TABLES))], np.float32) + rng.normal(0, 12, 3)
    canvas = np.empty((height, width, 3), np.float32)
    canvas[:] = table
    canvas += rng.normal(0, 6, canvas.shape)
    x0 = (width - row_w) // 2 + int(rng.integers(-20, 21))
    y0 = (height - tile_h) // 2 + int(rng.integers(-20, 21))
    quads = []
    for k, face in enumerate(faces):
        x = x0 + k * (tile_w + gap)
        canvas[y0 : y0 + tile_h, x : x + tile_w] = cv2.resize(
            face, (tile_w, tile_h), interpolation=cv2.INTER_AREA
        )
        quads.append([[x, y0], [x + tile_w, y0], [x + tile_w, y0 + tile_h], [x, y0 + tile_h]])
    # A mild camera: the far edge shrinks (tilt), the whole picture turns a little.
    shrink = rng.uniform(0.0, 0.12) * width
    src = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    dst = np.float32([[shrink, 0], [width - shrink, 0], [width, height], [0, height]])
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), rng.uniform(-12, 12), 1.0)
    matrix = np.vstack([turn, [0, 0, 1]]) @ cv2.getPerspectiveTransform(src, dst)
    image = cv2.warpPerspective(
        np.clip(canvas, 0, 255).astype(np.uint8),
        matrix,
        (width, height),
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=tuple(float(v) for v in table),
    )
    pts = np.array(quads, np.float32).reshape(-1, 1, 2)
    return image, cv2.perspectiveTransform(pts, matrix).reshape(-1, 4, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--camerash", required=True, help="the camerash-crops folder")
    parser.add_argument("--photos", type=int, default=60)
    parser.add_argument("--per-row", type=int, default=14)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--detector", default=None, help="ONNX file (default: shipped)")
    parser.add_argument("--classifier", default=None, help="ONNX file (default: shipped)")
    parser.add_argument("--out", help="write the figures to this JSON file")
    args = parser.parse_args()
    items = read_camerash(args.camerash)
    if not items:
        raise SystemExit(f"no labelled photos in {args.camerash}")
    detector, classifier = Detector(args.detector), Classifier(args.classifier)
    rng = np.random.default_rng(args.seed)
    truth_n = pred_n = found = named = rows_right = 0
    for _ in range(args.photos):
        picks = rng.choice(len(items), size=args.per_row, replace=False)
        faces = [cv2.imread(str(items[i][0])) for i in picks]
        codes = [items[i][1] for i in picks]
        image, quads = compose(faces, rng)
        photo = photo_of(image)
        tiles = classifier.classify(photo, detector.detect(photo))
        pairs = match_faces(tiles.corners.mean(axis=1), tiles.confidence, quads)
        read = codes_of(tiles)
        right = sum(read[i] == codes[j] for i, j in pairs)
        truth_n += len(codes)
        pred_n += len(tiles)
        found += len(pairs)
        named += right
        rows_right += int(right == len(codes) == len(tiles))
    figures = {
        "photos": args.photos,
        "tiles": truth_n,
        "face_recall": found / truth_n,
        "precision": found / max(pred_n, 1),
        "tile_accuracy": named / truth_n,
        "rows_fully_right": rows_right / args.photos,
    }
    print(json.dumps(figures, indent=1))
    if args.out:
        Path(args.out).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
