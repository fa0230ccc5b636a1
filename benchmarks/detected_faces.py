"""How the detector's faces serve what comes after it: sideways flags and the tile reading.

    python benchmarks/detected_faces.py --data .cache/bench_real [--n 300]

On a recognize benchmark folder (`benchmarks/recognize.py render`: NNNNN.jpg beside
NNNNN.json with the scene's annotations), each labelled face is matched to the detection
centred on it (`benchmarks.vision.match_faces`), then counted: sideways flags wrong either
way, and the classifier's top-1 through the true corners, through the detector's corners,
and through the detector's corners widened as the pipeline reads them
(`vision.classify.widen`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.tiles import CLASSES
from vision.classify import Classifier, rectify, widen
from vision.detect import Detector
from vision.load import load_photo
from vision.match import match_faces


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="folder of NNNNN.jpg + NNNNN.json")
    parser.add_argument("--n", type=int, default=None, help="first N photos")
    parser.add_argument("--detector", default=None)
    parser.add_argument("--classifier", default=None)
    args = parser.parse_args()
    detector, classifier = Detector(args.detector), Classifier(args.classifier)
    labels = sorted(Path(args.data).glob("*.json"))[: args.n]
    if not labels:
        raise SystemExit(f"no NNNNN.json labels in {args.data}")
    found = sideways = false_sideways = missed_sideways = 0
    right = {"true corners": 0, "detected corners": 0, "detected corners widened": 0}
    read = 0
    for label in labels:
        anns = json.loads(label.read_text(encoding="utf-8"))["annotations"]
        photo = load_photo(label.with_suffix(".jpg"))
        tiles = detector.detect(photo)
        quads = np.array([a["corners"] for a in anns], np.float32).reshape(-1, 4, 2)
        pairs = match_faces(tiles.corners.mean(axis=1), tiles.confidence, quads)
        for i, j in pairs:
            found += 1
            sideways += bool(anns[j]["sideways"])
            false_sideways += bool(tiles.sideways[i]) and not anns[j]["sideways"]
            missed_sideways += bool(anns[j]["sideways"]) and not tiles.sideways[i]
        faces = [(i, j) for i, j in pairs if not anns[j]["face_down"]]
        if not faces:
            continue
        scale = np.float32(photo.scale)  # labels and detections in original pixels
        through = {
            "true corners": [quads[j] for _, j in faces],
            "detected corners": [tiles.corners[i] for i, _ in faces],
            "detected corners widened": list(widen(tiles.corners[[i for i, _ in faces]])),
        }
        truth = [anns[j]["code"] for _, j in faces]
        read += len(faces)
        for name, corners in through.items():
            crops = [rectify(photo.image, quad / scale) for quad in corners]
            codes = [CLASSES[k] for k in classifier.classify_crops(crops).argmax(axis=1)]
            right[name] += sum(c == t for c, t in zip(codes, truth, strict=True))
    print(f"{len(labels)} photos, {found} labelled tiles found, {sideways} of them sideways")
    print(f"sideways flags: {false_sideways} false, {missed_sideways} missed")
    for name, count in right.items():
        print(f"top-1 through {name}: {count / max(read, 1):.1%} of {read} face-up tiles")


if __name__ == "__main__":
    main()
