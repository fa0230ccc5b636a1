"""How far the detected face corners lie from the true ones, with and without the refiner.

    python benchmarks/corners.py --data .cache/bench_real   # labelled renders (recognize.py)

For each labelled tile at least three-quarters visible that the detector finds (its centre
on the labelled face), the worst of its four corners' distances from the truth, in face
widths, the quad taken either way round (the detector cannot tell a face from itself turned
half round). The peer is the detector's own corners, measured in the same run on the same
tiles; the refiner starts from exactly those (`vision.refine`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.detect import Detector, restore_collapsed
from vision.geometry import canonical_order
from vision.load import load_photo
from vision.match import match_faces
from vision.refine import Refiner


def worst_corner(quads: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """(n,) worst corner distance / face width, the quad either way round."""
    width = np.minimum(
        np.linalg.norm(truth[:, 1] - truth[:, 0], axis=1),
        np.linalg.norm(truth[:, 3] - truth[:, 0], axis=1),
    )
    ways = [np.linalg.norm(np.roll(quads, k, axis=1) - truth, axis=2).max(axis=1) for k in (0, 2)]
    return np.asarray(np.minimum(*ways) / width)


def summary(errors: np.ndarray) -> dict[str, float]:
    return {
        "median": round(float(np.median(errors)), 4),
        "p90": round(float(np.percentile(errors, 90)), 4),
        "over_0.2": round(float((errors > 0.2).mean()), 4),
        "over_0.35": round(float((errors > 0.35).mean()), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--n", type=int, default=None, help="first N photos")
    parser.add_argument("--refiner", default=None, help="refiner ONNX (default: the shipped one)")
    args = parser.parse_args()
    detector = Detector(refine=False)
    refiner = Refiner(args.refiner)
    labels = sorted(args.data.glob("*.json"))[: args.n]
    before, after, sideways = [], [], []
    refine_s = 0.0
    for label in labels:
        annotations = json.loads(label.read_text())["annotations"]
        photo = load_photo(label.with_suffix(".jpg"))
        truth = np.array([a["corners"] for a in annotations], np.float32).reshape(-1, 4, 2)
        truth = canonical_order(truth / np.float32(photo.scale))
        tiles = detector.detect_image(photo.image)
        corners = restore_collapsed(tiles.corners, tiles.xyxy)  # as detect_image hands them on
        clock = time.perf_counter()
        refined = refiner.refine(photo.image, corners)
        refine_s += time.perf_counter() - clock
        for i, j in match_faces(tiles.face_centres, tiles.confidence, truth):
            if annotations[j].get("face_visibility", 1.0) < 0.75:
                continue
            before.append(worst_corner(corners[i : i + 1], truth[j : j + 1])[0])
            after.append(worst_corner(refined[i : i + 1], truth[j : j + 1])[0])
            sideways.append(bool(annotations[j].get("sideways")))
    b, a, s = np.array(before), np.array(after), np.array(sideways)
    report = {
        "photos": len(labels),
        "tiles": len(b),
        "detector": summary(b),
        "refined": summary(a),
        "detector_sideways": summary(b[s]),
        "refined_sideways": summary(a[s]),
        "median_ratio_refined_to_detector": round(float(np.median(a) / np.median(b)), 3),
        "refine_ms_per_photo": round(1000 * refine_s / max(1, len(labels)), 1),
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
