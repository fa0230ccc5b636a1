"""Do copies of one face look alike, and two faces unlike? The evidence `vision.looks` gives.

    python benchmarks/alike.py --data .cache/bench_train --cache .cache/tiles_train --fit
    python benchmarks/alike.py --data .cache/bench_kde4 --cache .cache/tiles_kde

On a recognize benchmark folder (NNNNN.jpg beside NNNNN.json), the shipped models read each
photo (kept in `--cache` as `benchmarks/recognize.py eval --cache` keeps them); every pair of
face-up tiles matched to labelled faces is a pair of copies or of two faces. Reports how
alike each kind looks, and what matters to decoding: of the pairs the classifier reads as one
face, how the true copies and the misread pairs look. `--fit` fits the straight-line log
likelihood ratio that `vision.looks.log_likeness_ratio` uses (a logistic regression of
copies against two faces on likeness, less the prior log odds), and the one that
`vision.looks.log_same_group_ratio` uses: of the pairs of flower tiles (both read as flowers),
one group (two flowers, or two seasons) against one of each.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.recognize import models_read
from scoring.tiles import CLASSES, FLOWERS, SEASONS
from vision.looks import alike
from vision.match import match_faces
from vision.pipeline import Recognizer

FLOWER_SET = set(FLOWERS)


def pairs(data: Path, cache: Path, n: int | None) -> dict[str, list[float]]:
    """Likeness of every pair of matched face-up tiles, by kind: copies / two faces, and of
    those the classifier reads as one face, `read alike: copies` / `read alike: two faces`."""
    recognizer = Recognizer()
    kinds: dict[str, list[float]] = {
        "copies": [],
        "two faces": [],
        "read alike: copies": [],
        "read alike: two faces": [],
        "flowers: one group": [],
        "flowers: a flower and a season": [],
    }
    labels = sorted(data.glob("*.json"))[:n]
    if not labels:
        raise SystemExit(f"no NNNNN.json labels in {data}")
    for label in labels:
        anns = json.loads(label.read_text(encoding="utf-8"))["annotations"]
        tiles, _ = models_read(recognizer, label.with_suffix(".jpg"), cache)
        quads = np.array([a["corners"] for a in anns], np.float32).reshape(-1, 4, 2)
        matched = [
            (i, anns[j]["code"])
            for i, j in match_faces(tiles.centers, tiles.confidence, quads)
            if not anns[j]["face_down"] and not tiles.face_down[i]
        ]
        if len(matched) < 2:
            continue
        index = [i for i, _ in matched]
        likeness = alike(tiles.looks[index])
        read = np.argmax(tiles.probs[index], axis=1)
        for a in range(len(matched)):
            for b in range(a + 1, len(matched)):
                copies = matched[a][1] == matched[b][1]
                kinds["copies" if copies else "two faces"].append(float(likeness[a, b]))
                if read[a] == read[b]:
                    kind = "read alike: copies" if copies else "read alike: two faces"
                    kinds[kind].append(float(likeness[a, b]))
                if {matched[a][1], matched[b][1], CLASSES[read[a]], CLASSES[read[b]]} <= FLOWER_SET:
                    one_group = (matched[a][1] in SEASONS) == (matched[b][1] in SEASONS)
                    kind = "flowers: one group" if one_group else "flowers: a flower and a season"
                    kinds[kind].append(float(likeness[a, b]))
    return kinds


def fit(copies: list[float], two: list[float]) -> tuple[float, float]:
    """Log likelihood ratio A + B * likeness: logistic regression by Newton's method, then
    the prior log odds of a copy taken off the intercept."""
    x = np.array([*copies, *two])
    y = np.array([1.0] * len(copies) + [0.0] * len(two))
    design = np.stack([np.ones_like(x), x], axis=1)
    w = np.zeros(2)
    for _ in range(50):
        p = 1 / (1 + np.exp(-design @ w))
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + 1e-6 * np.eye(2)
        w += np.linalg.solve(hessian, design.T @ (y - p))
    prior = np.log(len(copies) / len(two))
    return float(w[0] - prior), float(w[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="folder of NNNNN.jpg + NNNNN.json")
    parser.add_argument("--cache", required=True, help="the models' tiles, kept per photo")
    parser.add_argument("--n", type=int, default=None, help="first N photos")
    parser.add_argument("--fit", action="store_true", help="fit the log likelihood ratio")
    args = parser.parse_args()
    kinds = pairs(Path(args.data), Path(args.cache), args.n)
    report: dict[str, object] = {}
    for kind, values in kinds.items():
        q = np.quantile(values, [0.01, 0.05, 0.25, 0.5, 0.75]) if values else []
        report[kind] = {"pairs": len(values), "quantiles 1/5/25/50/75 %": np.round(q, 3).tolist()}
    copies = kinds["read alike: copies"]
    if copies and kinds["read alike: two faces"]:
        line = float(np.quantile(copies, 0.05))
        report["read alike: two faces under the copies' 5 % quantile"] = round(
            float(np.mean(np.array(kinds["read alike: two faces"]) < line)), 3
        )
    if args.fit:
        a, b = fit(kinds["copies"], kinds["two faces"])
        report["fit"] = {"LOG_RATIO_A": round(a, 2), "LOG_RATIO_B": round(b, 2)}
        a, b = fit(kinds["flowers: one group"], kinds["flowers: a flower and a season"])
        report["fit flower groups"] = {"GROUP_RATIO_A": round(a, 2), "GROUP_RATIO_B": round(b, 2)}
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
