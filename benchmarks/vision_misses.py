"""Where the detector misses, and what its corners cost the classifier, on a synthetic set.

    python benchmarks/vision_misses.py runs/val_kde

Per labelled tile: missed by face (no detection's centre on its face) and by box (no box at
IoU >= 0.5), broken down by role, face-down, sideways, visibility and face size at the
photo's scale; then the classifier's top-1 on the face-up tiles through their true corners
and through the matched detection's corners.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.vision import _faces, _truth, photo_of, read_synth
from scoring.tiles import CLASSES
from vision.classify import Classifier, rectify, widen
from vision.detect import Detector
from vision.match import match, match_faces


def keys_of(ann: dict, quad: np.ndarray) -> list[str]:
    short = min(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0]))
    visibility = min(int(ann.get("visibility", 1.0) * 4), 3)
    return [
        "all",
        f"role {ann.get('role')}",
        "face-down" if ann.get("face_down") else "face-up",
        "sideways" if ann.get("sideways") else "upright",
        f"visibility < {(visibility + 1) / 4:.2f}" if visibility < 3 else "visibility >= 0.75",
        f"face short side {min(int(short // 10) * 10, 50)}+ px",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="a mjlens synth folder")
    parser.add_argument("--detector", default=None)
    parser.add_argument("--classifier", default=None)
    args = parser.parse_args()
    detector, classifier = Detector(args.detector), Classifier(args.classifier)
    total, face_miss, box_miss = Counter[str](), Counter[str](), Counter[str]()
    through_true, through_detected, truth = [], [], []
    for path, anns in read_synth(args.data):
        image = cv2.imread(str(path))
        tiles = detector.detect(photo_of(image))
        faces = _faces(anns)
        boxed = {j for _, j in match(tiles.xyxy, _truth(anns)[0])}
        on_face = dict(
            (j, i) for i, j in match_faces(tiles.corners.mean(axis=1), tiles.confidence, faces)
        )
        read = widen(tiles.corners)  # as the pipeline reads the detected faces
        for j, ann in enumerate(anns):
            for key in keys_of(ann, faces[j]):
                total[key] += 1
                face_miss[key] += j not in on_face
                box_miss[key] += j not in boxed
            if j in on_face and not ann.get("face_down"):
                through_true.append(rectify(image, faces[j]))
                through_detected.append(rectify(image, read[on_face[j]]))
                truth.append(CLASSES[ann["category_id"] - 1])
    for key in sorted(total):
        print(
            f"{key:28s} n={total[key]:5d}  missed by face {face_miss[key] / total[key]:6.1%}"
            f"  by box {box_miss[key] / total[key]:6.1%}"
        )
    for name, crops in (("true corners", through_true), ("detected corners", through_detected)):
        pred = classifier.classify_crops(crops).argmax(axis=1)
        right = np.mean([CLASSES[p] == t for p, t in zip(pred, truth, strict=True)])
        print(f"classifier top-1 through {name}: {right:.1%} of {len(truth)} face-up tiles found")


if __name__ == "__main__":
    main()
