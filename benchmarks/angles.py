"""How the detector does by the angle a tile lies at: box recall and corner error per tile,
and whole hands per photo, grouped by the face's angle to the canonical order's cut.

The canonical corner order turns a face half round where its up points into the lower-right
half-plane; the cut between the halves is the face's up along the up-right (or down-left)
diagonal. A detector that regresses corners in that order averages both halves near the cut
(`vision.corner_code`).

    python benchmarks/angles.py tiles runs/val_kde [--detector runs/det_g/detector.onnx]
    python benchmarks/angles.py hands .cache/bench_real runs/real.json

`tiles` runs the detector on a `mjlens synth` folder; `hands` reads the per-photo report of
`benchmarks/recognize.py eval --report` beside the photos it was made from.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.vision import _faces, _truth, match, photo_of, read_synth
from vision.detect import Detector
from vision.geometry import canonical_order, face_ups

BUCKETS = ((0, 15, "within 15 of the cut"), (15, 30, "15-30"), (30, 60, "30-60"))
BUCKETS += ((60, 91, "60-90 (far from it)"),)
HAND_ROLES = ("concealed", "meld", "winning", "flower")


def degrees_from_cut(corners: np.ndarray) -> np.ndarray:
    """(n, 4, 2) face quads -> (n,) angle in 0-90 degrees between each face's up and the cut
    line (image direction (1, -1), either way)."""
    up = face_ups(np.asarray(corners, np.float64))
    angle = np.degrees(np.arctan2(up[:, 1], up[:, 0])) % 180
    off = np.abs(angle - 135)
    return np.minimum(off, 180 - off)


def bucket_of(degrees: float) -> str:
    return next(name for lo, hi, name in BUCKETS if lo <= degrees < hi)


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance between two quads, either half-turn, over the face's short
    side."""
    want = canonical_order(truth[None])[0]
    err = min(
        float(np.linalg.norm(found - want, axis=1).max()),
        float(np.linalg.norm(np.roll(found, 2, axis=0) - want, axis=1).max()),
    )
    short = min(np.linalg.norm(truth[1] - truth[0]), np.linalg.norm(truth[3] - truth[0]))
    return err / max(float(short), 1.0)


def tiles_report(root: Path, detector: Detector) -> dict[str, Any]:
    tally: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0])  # tiles, found, err, bad
    for path, anns in read_synth(root):
        visible = [a for a in anns if a.get("visibility", 1.0) >= 0.75]
        if not visible:
            continue
        image = cv2.imread(str(path))
        tiles = detector.detect(photo_of(image))
        boxes, _ = _truth(visible)
        faces = _faces(visible)
        pairs = dict((j, i) for i, j in match(tiles.xyxy, boxes))
        for j, off in enumerate(degrees_from_cut(faces)):
            row = tally[bucket_of(float(off))]
            row[0] += 1
            if j in pairs:
                err = corner_error(tiles.corners[pairs[j]], faces[j])
                row[1] += 1
                row[2] += err
                row[3] += err > 0.25
    return {
        name: {
            "tiles": int(n),
            "box_recall": round(found / n, 4),
            "mean_corner_error": round(err / max(found, 1), 3),
            "corners_off_by_a_quarter": round(bad / max(found, 1), 4),
        }
        for name, (n, found, err, bad) in sorted(tally.items())
    }


def hands_report(root: Path, report: Path) -> dict[str, Any]:
    rows = json.loads(report.read_text(encoding="utf-8"))["photos"]
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for row in rows:
        if not row["complete"]:
            continue
        anns = json.loads((root / f"{row['photo']}.json").read_text(encoding="utf-8"))
        hand = [a for a in anns["annotations"] if a["role"] in HAND_ROLES]
        if not hand:
            continue
        off = float(np.median(degrees_from_cut(np.array([a["corners"] for a in hand]))))
        kinds = [v for k, v in row["by_kind"].items() if "loose" not in k]
        t = tally[bucket_of(off)]
        t[0] += 1
        t[1] += int(row["hand_right"])
        t[2] += sum(sum(v) for v in kinds)
        t[3] += sum(v[1] for v in kinds)
        t[4] += sum(v[2] for k, v in row["by_kind"].items() if "loose" not in k)
    return {
        name: {
            "photos": n,
            "hands_right": round(right / n, 4),
            "hand_tiles_missed": round(missed / max(tiles, 1), 4),
            "hand_tiles_misnamed": round(misnamed / max(tiles, 1), 4),
        }
        for name, (n, right, tiles, missed, misnamed) in sorted(tally.items())
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="what", required=True)
    t = sub.add_parser("tiles", help="detector box recall and corner error per tile angle")
    t.add_argument("data", type=Path)
    t.add_argument("--detector", type=Path, default=None)
    h = sub.add_parser("hands", help="hands right per photo angle, from a recognize report")
    h.add_argument("data", type=Path)
    h.add_argument("report", type=Path)
    args = p.parse_args(argv)
    if args.what == "tiles":
        result = tiles_report(args.data, Detector(args.detector))
    else:
        result = hands_report(args.data, args.report)
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
