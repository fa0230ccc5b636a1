"""The layout search's priors, fitted on the scene engine's own layouts of given render seeds.

    python benchmarks/recognize.py render --out .cache/review_fit_5510 --n 200 \
        --sources kde gnome --size 1024 --seed 5510
    python benchmarks/priors.py fit --data .cache/review_fit_5510 [more sets] \
        --cache .cache/tiles_review_fit_5510 [one per set] --seed 5510 [one per set] \
        [--out vision/weights/layout_priors.json]

Each photo's tiles as the models read them (kept in `--cache` by `benchmarks/recognize.py
eval --mode models --cache`; one set may be given again with another detector's cache, so
that the priors see that detector's slips too) are laid out once, as the search's
first hypothesis is, and each detection is matched to the engine's labelled tiles (its centre
on a labelled face, `vision.match.match_faces`). Per attribute of `vision.priors`, a logistic
model is fitted by maximum likelihood: of the win (matched to a tile of the hand or its
flowers; a duplicate or false detection is not), face down and crosswise (over the matched
detections, against the labels). The command prints each model's weights and its log loss
on the fitting set against the base rate's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.recognize import kept_read
from vision.layout import layout
from vision.match import match_faces
from vision.priors import (
    FEATURES,
    Attribute,
    LayoutPriors,
    detection_features,
    feature_matrix,
    fit_prior,
    log_probs,
)
from vision.registry import shipped

Json = dict[str, Any]


def labelled_detections(data: Path, cache: Path, n: int | None = None) -> dict[Attribute, Any]:
    """Per attribute, (inputs, labels) over the detections of every cached photo."""
    xs: dict[Attribute, list[np.ndarray]] = {a: [] for a in Attribute}
    ys: dict[Attribute, list[np.ndarray]] = {a: [] for a in Attribute}
    for path in sorted(data.glob("*.json"))[:n]:
        kept = cache / f"{path.stem}.npz"
        if not kept.exists():
            raise SystemExit(f"{kept} missing: run benchmarks/recognize.py eval --cache first")
        tiles, _ = kept_read(kept)
        if len(tiles) == 0:
            continue
        anns = json.loads(path.read_text())["annotations"]
        named = detection_features(tiles, layout(tiles))
        quads = np.array([a["corners"] for a in anns], np.float32).reshape(-1, 4, 2)
        pairs = dict(match_faces(tiles.centers, tiles.confidence, quads))
        matched = np.array([t in pairs for t in range(len(tiles))], bool)
        truth = [anns[pairs[t]] if t in pairs else {} for t in range(len(tiles))]
        of_win = np.array([a.get("role", "loose") != "loose" for a in truth], bool)
        down = np.array([bool(a.get("face_down")) for a in truth], bool)
        crosswise = np.array([bool(a.get("sideways")) for a in truth], bool)
        for attribute, label, over in (
            (Attribute.OF_THE_WIN, of_win, np.ones(len(tiles), bool)),
            (Attribute.FACE_DOWN, down, matched),
            (Attribute.CROSSWISE, crosswise, matched),
        ):
            xs[attribute].append(feature_matrix(named, attribute)[over])
            ys[attribute].append(label[over])
    return {a: (np.concatenate(xs[a]), np.concatenate(ys[a])) for a in Attribute}


def fit(args: argparse.Namespace) -> Json:
    if len(args.data) != len(args.cache) or len(args.data) != len(args.seed):
        raise SystemExit("give one --cache and one --seed per --data")
    pairs = zip(args.data, args.cache, strict=True)
    each = [labelled_detections(Path(d), Path(c), args.n) for d, c in pairs]
    sets = {
        a: (np.concatenate([s[a][0] for s in each]), np.concatenate([s[a][1] for s in each]))
        for a in Attribute
    }
    models = {}
    report: Json = {}
    for attribute, (x, y) in sets.items():
        model = fit_prior(x, y, args.l2)
        models[attribute] = model
        yes, no = log_probs(model.log_odds(x))
        rate = float(y.mean())
        report[attribute.value] = {
            "detections": len(y),
            "share": round(rate, 4),
            "log_loss": round(float(-np.where(y, yes, no).mean()), 4),
            "base_rate_log_loss": round(-(rate * np.log(rate) + (1 - rate) * np.log(1 - rate)), 4),
            "weights": dict(
                zip(FEATURES[attribute], np.round(model.weights, 3).tolist(), strict=True)
            ),
        }
    fitted_on = {
        "data": [
            f"benchmarks/recognize.py render --sources kde gnome --size 1024 --seed {seed}"
            for seed in args.seed
        ],
        "tiles": [Path(c).name for c in args.cache],
        "photos": sum(len(sorted(Path(d).glob("*.json"))[: args.n]) for d in args.data),
        "l2": args.l2,
    }
    priors = LayoutPriors(models, fitted_on)
    Path(args.out).write_text(json.dumps(priors.to_json(), indent=1) + "\n")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fit", help="fit the priors on one set of renders")
    f.add_argument("--data", nargs="+", required=True, help="one or more sets of renders")
    f.add_argument("--cache", nargs="+", required=True, help="the models' tiles, one per set")
    f.add_argument("--seed", type=int, nargs="+", required=True, help="each set's render seed")
    f.add_argument("--n", type=int, help="the first N photos only")
    f.add_argument("--out", default=str(shipped("layout_priors").path))
    f.add_argument("--l2", type=float, default=1.0)
    args = parser.parse_args()
    print(json.dumps(fit(args), indent=1))


if __name__ == "__main__":
    main()
