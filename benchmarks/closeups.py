"""Close-ups: a few hand tiles cut out of large synthetic photos, as a phone held near them sees.

    python -m api.cli synth --n 40 --out runs/val_kde_big --seed 98 --size 2048 \
        --sources kde --kinds declared_win
    python benchmarks/closeups.py runs/val_kde_big --tiles 3 5 9 [--no-coarse]

From each photo, N upright hand tiles side by side (skipping the two leftmost) with a 12 %
margin, at the photo's own resolution (sharp, no upscaling). Reports detection recall by face
(a detection's centre on the tile's face, one to one), the share of detections lying on some
labelled face, and the classifier's top-1 on the found tiles. `--no-coarse` switches off the
detector's second looks (coarse and closer), the detector as it was before the coarse look.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.vision import _faces, photo_of, read_synth
from scoring.tiles import CLASSES
from vision.classify import Classifier
from vision.detect import Detector
from vision.match import match_faces

HAND = ("concealed", "meld")
MARGIN = 0.12


def close_up(
    image: np.ndarray, anns: list[dict], n: int
) -> tuple[np.ndarray, list[dict], np.ndarray] | None:
    """The crop around N neighbouring upright hand tiles, those tiles, and the crop's offset."""
    upright = [a for a in anns if a.get("role") in HAND and not a.get("face_down")]
    if len(upright) < n + 2:
        return None
    order = np.argsort(_faces(upright).mean(axis=1)[:, 0])
    chosen = [upright[i] for i in order[2 : 2 + n]]
    points = _faces(chosen).reshape(-1, 2)
    (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
    margin = MARGIN * max(x1 - x0, y1 - y0)
    h, w = image.shape[:2]
    left, top = int(max(0, x0 - margin)), int(max(0, y0 - margin))
    right, bottom = int(min(w, x1 + margin)), int(min(h, y1 + margin))
    return image[top:bottom, left:right], chosen, np.array([left, top], np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="a mjlens synth folder of large photos")
    parser.add_argument("--tiles", type=int, nargs="+", default=[3, 5, 9])
    parser.add_argument("--no-coarse", action="store_true")
    args = parser.parse_args()
    detector = Detector(second_pass=not args.no_coarse)
    classifier = Classifier()
    for n in args.tiles:
        found = total = on_tile = detections = named = 0
        for path, anns in read_synth(args.data):
            image = cv2.imread(str(path))
            cut = close_up(image, anns, n)
            if cut is None:
                continue
            crop, chosen, offset = cut
            photo = photo_of(crop)
            tiles = classifier.classify(photo, detector.detect(photo))
            centres = tiles.corners.mean(axis=1)
            pairs = match_faces(centres, tiles.confidence, _faces(chosen) - offset)
            found += len(pairs)
            named += sum(tiles.codes[i] == CLASSES[chosen[j]["category_id"] - 1] for i, j in pairs)
            total += n
            every_face = _faces(anns) - offset
            on_tile += sum(
                any(
                    cv2.pointPolygonTest(f.reshape(-1, 1, 2), (float(c[0]), float(c[1])), False)
                    >= 0
                    for f in every_face
                )
                for c in centres
            )
            detections += len(tiles)
        print(
            f"{n} tiles ({total // max(n, 1)} photos): recall {found / max(total, 1):.3f}, "
            f"detections on a tile {on_tile / max(detections, 1):.3f}, "
            f"found tiles named right {named / max(found, 1):.3f}"
        )


if __name__ == "__main__":
    main()
