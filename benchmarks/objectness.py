"""Tell tiles from things that are no tile: collect detections, fit the model, measure it.

    python -m api.cli synth --n 400 --out .cache/clutter_fit_9401 --seed 9401 --size 1280 \
        --sources procedural --kinds no_tiles
    python -m api.cli synth --n 300 --out .cache/tiles_fit_9402 --seed 9402 --size 1024 \
        --sources procedural,fluffystuff,unicode \
        --kinds declared_win:0.4,rows:0.2,pile:0.2,scattered:0.2
    python benchmarks/objectness.py collect --data .cache/clutter_fit_9401 \
        --out .cache/objectness_9401.npz
    python benchmarks/objectness.py collect --data .cache/tiles_fit_9402 \
        --out .cache/objectness_9402.npz
    python benchmarks/objectness.py fit --features .cache/objectness_9401.npz \
        .cache/objectness_9402.npz [--out vision/weights/objectness.json]
    # with the tileness network's log-odds among the look's features: the files of
    # `training.tileness_data` and its folds' held-back log-odds (`training.train_tileness`)
    python benchmarks/objectness.py fit --features .cache/tn_9601.npz .cache/tn_9602.npz \
        --tileness runs/tn_fold0/held.npz runs/tn_fold1/held.npz runs/tn_fold2/held.npz

`collect` reads each photo as recognition does, with the shipped detector and classifier
(their tiles kept in a cache beside the folder), and keeps per detection its features
(`vision.objectness.look_features`) and whether it is a tile: its centre on a labelled face (one
detection per face, `vision.match`), or on no labelled tile's box at all. A detection on a
labelled box but not chosen for its face (a second peak on one tile) is left out of the fit:
it is neither. `fit` fits the two logistic models on those detections and sets the threshold
where `--keep` of the true tiles pass, from out-of-fold probabilities (folds by photo),
reporting what that leaves of the things that are no tile; `eval` measures a model on the
detections of other photos. Only detections at recognition's confidence are fitted on. With
`--tileness`, each detection's tileness log-odds are those of the network's fold that held
its photo back (out of fold, as the look's are for the photo model): the network fitted on
all photos would vouch for their tiles more surely than it can for another photo's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.recognize import models_read
from training.tileness_data import NEITHER, NOT_TILE, TILE, labels
from vision.detect import DEFAULT_THRESHOLD
from vision.objectness import (
    OWN,
    TILENESS_CAP,
    Linear,
    Objectness,
    fit_linear,
    load,
    look_features,
    photo_features,
    shipped_objectness,
)
from vision.pipeline import Recognizer

Json = dict[str, Any]


def collect(args: argparse.Namespace) -> Json:
    recognizer = Recognizer(detector_path=args.detector, classifier_path=args.classifier)
    # Each pair of models' tiles are kept apart: the cache refuses another pair's.
    suffix = "".join(f"_{Path(m).parent.name}" for m in (args.detector, args.classifier) if m)
    rows: list[np.ndarray] = []
    kinds: list[np.ndarray] = []
    photo_ids: list[np.ndarray] = []
    confidences: list[np.ndarray] = []
    tileness: list[np.ndarray] = []
    photo = 0
    for data in args.data:
        data = Path(data)
        coco = json.loads((data / "annotations.coco.json").read_text(encoding="utf-8"))
        anns: dict[int, list[Json]] = {}
        for ann in coco["annotations"]:
            anns.setdefault(ann["image_id"], []).append(ann)
        cache = data.parent / f"tiles_read_{data.name}{suffix}"
        images = coco["images"][: args.limit] if args.limit else coco["images"]
        if args.tile_free:
            images = [image for image in images if image["id"] not in anns]
        for k, image in enumerate(images):
            tiles, _ = models_read(recognizer, data / image["file_name"], cache)
            photo += 1
            if not len(tiles):
                continue
            rows.append(look_features(tiles))
            tileness.append(tiles.tileness)
            confidences.append(tiles.confidence)
            kinds.append(labels(tiles.centers, tiles.confidence, anns.get(image["id"], [])))
            photo_ids.append(np.full(len(tiles), photo, np.int32))
            if k % 50 == 0:
                print(f"{data.name}: {k}/{len(images)} photos", file=sys.stderr, flush=True)
    x, y = np.vstack(rows), np.concatenate(kinds)
    np.savez_compressed(
        args.out,
        x=x,
        y=y,
        photo=np.concatenate(photo_ids),
        confidence=np.concatenate(confidences),
        tileness=np.concatenate(tileness),
    )
    return {
        "detections": len(y),
        "tiles": int((y == TILE).sum()),
        "not_tiles": int((y == NOT_TILE).sum()),
        "neither": int((y == NEITHER).sum()),
    }


def _load(
    paths: list[str],
    tileness: bool = False,
    held: list[str] | None = None,
    confidence: float = DEFAULT_THRESHOLD,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Look features (with the tileness log-odds where asked: the folds' `held` where given,
    else the file's own), whether each is a tile, and its photo (unique across the files);
    detections at `confidence` or more that are a tile or none, and under recognition's
    confidence a second peak on a tile too, as no tile: were the detector asked for fainter
    peaks than its NMS was chosen for, such peaks would reach the layout."""
    out_of_fold = _out_of_fold(paths, held) if held else None
    xs, ys, photos = [], [], []
    start = 0
    for n, path in enumerate(paths):
        with np.load(path) as z:
            labelled = z["y"] != NEITHER
            faint = z["confidence"] < DEFAULT_THRESHOLD
            use = (labelled | faint) & (z["confidence"] >= confidence)
            x = z["x"][use]
            if out_of_fold is not None:
                logits = np.zeros(len(labelled))
                logits[labelled] = out_of_fold[start : start + int(labelled.sum())]
                start += int(labelled.sum())
                second = use & ~labelled
                if second.any():  # no fold was trained on second peaks: the shipped network
                    logits[second] = _shipped_tileness(z["crops"][second])
                logits = logits[use]
            else:
                logits = z["tileness"][use] if tileness else None
            if logits is not None:
                x = np.hstack([x, np.clip(logits, -TILENESS_CAP, TILENESS_CAP)[:, None]])
            xs.append(x)
            ys.append(z["y"][use] == TILE)
            photos.append(z["photo"][use].astype(np.int64) * len(paths) + n)
    return np.vstack(xs), np.concatenate(ys), np.concatenate(photos)


def _shipped_tileness(crops: np.ndarray) -> np.ndarray:
    from vision.tileness import shipped_tileness

    network = shipped_tileness()
    if network is None:
        raise SystemExit("--min-confidence under recognition's: the tileness network is missing")
    return np.asarray(network.crop_logits(crops))


def _out_of_fold(paths: list[str], held: list[str]) -> np.ndarray:
    """Per labelled detection of `paths` (in order, as `training.train_tileness` reads
    them): the tileness log-odds of the fold that held its photo back."""
    total = 0
    for path in paths:
        with np.load(path) as z:
            total += int((z["y"] != NEITHER).sum())
    logits = np.full(total, np.nan)
    for path in held:
        with np.load(path) as z:
            logits[z["rows"]] = z["logits"]
    if np.isnan(logits).any():
        raise SystemExit("--tileness: the folds hold back no photo of some detections")
    return logits


def _photo_features(
    own: np.ndarray, look: np.ndarray, photos: np.ndarray, company: bool
) -> np.ndarray:
    out = np.zeros((len(look), own.shape[1] + 4 + company))
    for photo in np.unique(photos):
        rows = np.flatnonzero(photos == photo)
        out[rows] = photo_features(own[rows], look[rows], company)
    return out


def stacked(
    x: np.ndarray, is_tile: np.ndarray, photos: np.ndarray, args: argparse.Namespace
) -> tuple[Linear, Linear]:
    """The look model on every detection, and the photo model on the look's out-of-fold
    log-odds (so that it learns how far to trust looks it was not fitted on)."""
    weight = np.where(is_tile, 0.5 / is_tile.mean(), 0.5 / (~is_tile).mean())
    own = OWN + bool(args.tileness)
    embedding = x[:, :-own]
    _, _, directions = np.linalg.svd(embedding - embedding.mean(axis=0), full_matrices=False)
    basis = directions[: args.directions]
    folds = _folds(photos)
    look = np.zeros(len(is_tile))
    for fold in range(FOLDS):
        held = folds == fold
        model = fit_linear(x[~held], is_tile[~held], args.l2, weight[~held], basis)
        look[held] = model.logit(x[held])
    second = _photo_features(x[:, -own:], look, photos, args.company)
    return fit_linear(x, is_tile, args.l2, weight, basis), fit_linear(second, is_tile, 1.0, weight)


FOLDS = 5


def _folds(photos: np.ndarray) -> np.ndarray:
    """A fold per photo, drawn once: a photo's detections stay together."""
    draw = np.random.default_rng(0).integers(0, FOLDS, size=int(photos.max()) + 1)
    return np.asarray(draw[photos])


def fit_command(args: argparse.Namespace) -> Json:
    if args.out and args.min_confidence != DEFAULT_THRESHOLD:
        raise SystemExit("--out: recognition judges detections at its own confidence only")
    x, is_tile, photos = _load(args.features, held=args.tileness, confidence=args.min_confidence)
    folds = _folds(photos)
    p = np.zeros(len(is_tile))
    for fold in range(FOLDS):  # the whole stack out of fold, for the threshold
        held = folds == fold
        look, photo = stacked(x[~held], is_tile[~held], photos[~held], args)
        model = Objectness(look, photo, 0.5, bool(args.tileness), args.company)
        p[held] = _p_tile(model, x[held], photos[held])
    threshold = float(np.quantile(p[is_tile], 1 - args.keep))
    report = {
        "detections": len(is_tile),
        "tiles": int(is_tile.sum()),
        "not_tiles": int((~is_tile).sum()),
        "threshold": threshold,
        "out_of_fold": {
            "tiles_kept": float((p[is_tile] >= threshold).mean()),
            "not_tiles_kept": float((p[~is_tile] >= threshold).mean()),
        },
    }
    own = OWN + bool(args.tileness)
    faint = x[:, -own] < np.log(DEFAULT_THRESHOLD / (1 - DEFAULT_THRESHOLD))
    if faint.any():  # how the detections under recognition's confidence fare
        report["out_of_fold"] |= {
            "faint_tiles": int((faint & is_tile).sum()),
            "faint_tiles_kept": int((faint & is_tile & (p >= threshold)).sum()),
            "faint_not_tiles": int((faint & ~is_tile).sum()),
            "faint_not_tiles_kept": int((faint & ~is_tile & (p >= threshold)).sum()),
            "sure_tiles_kept": float((p[is_tile & ~faint] >= threshold).mean()),
            "sure_not_tiles_kept": int((~faint & ~is_tile & (p >= threshold)).sum()),
        }
    if args.out:
        fitted_on = {
            "features": [Path(f).name for f in args.features],
            "tileness": [str(Path(f).parent.name) for f in args.tileness or []],
            "l2": args.l2,
            "directions": args.directions,
            "keep": args.keep,
            "company": args.company,
            **report,
        }
        fitted = stacked(x, is_tile, photos, args)
        model = Objectness(*fitted, threshold, bool(args.tileness), args.company)
        Path(args.out).write_text(json.dumps(model.to_json(fitted_on)) + "\n", encoding="utf-8")
    return report


def _p_tile(model: Objectness, x: np.ndarray, photos: np.ndarray) -> np.ndarray:
    p = np.zeros(len(x))
    for photo in np.unique(photos):
        rows = np.flatnonzero(photos == photo)
        p[rows] = model.p_tile_of(x[rows, -model.own :], model.look.logit(x[rows]))
    return p


def evaluate(args: argparse.Namespace) -> Json:
    """The shipped (or `--model`) model on collected detections of other photos."""
    model = load(Path(args.model)) if args.model else shipped_objectness()
    if model is None:
        raise SystemExit("no objectness model: fit one (python benchmarks/objectness.py fit)")
    x, is_tile, photos = _load(args.features, tileness=model.tileness)
    kept = _p_tile(model, x, photos) >= model.threshold
    return {
        "tiles": int(is_tile.sum()),
        "not_tiles": int((~is_tile).sum()),
        "tiles_kept": float(kept[is_tile].mean()) if is_tile.any() else None,
        "not_tiles_kept": float(kept[~is_tile].mean()) if (~is_tile).any() else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="read photos and keep each detection's features")
    c.add_argument("--data", nargs="+", required=True, help="synthetic COCO folders")
    c.add_argument("--out", required=True, help="the .npz of features and labels")
    c.add_argument("--limit", type=int, default=0, help="photos per folder (0: all)")
    c.add_argument("--tile-free", action="store_true", help="only the photos with no tiles")
    c.add_argument("--detector", help="detector ONNX (default: the shipped one)")
    c.add_argument("--classifier", help="classifier ONNX (default: the shipped one)")
    f = sub.add_parser("fit", help="fit the model and its threshold")
    f.add_argument("--features", nargs="+", required=True)
    f.add_argument("--out", help="write the model here (vision/weights/objectness.json)")
    f.add_argument("--l2", type=float, default=10.0, help="the look model's penalty")
    f.add_argument("--directions", type=int, default=32, help="embedding directions used")
    f.add_argument("--keep", type=float, default=0.998, help="share of true tiles kept")
    f.add_argument(
        "--min-confidence",
        type=float,
        default=DEFAULT_THRESHOLD,
        help="judge detections down to this confidence (out-of-fold figures only: "
        "recognition detects at its own)",
    )
    f.add_argument(
        "--tileness", nargs="+", help="the tileness folds' held.npz: fit with its log-odds"
    )
    f.add_argument(
        "--company",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="fit with each face-down detection's company: the photo's sure face-up ones",
    )
    e = sub.add_parser("eval", help="the model on collected detections of other photos")
    e.add_argument("--features", nargs="+", required=True)
    e.add_argument("--model", help="a model file (default: the shipped one)")
    args = parser.parse_args()
    commands = {"collect": collect, "fit": fit_command, "eval": evaluate}
    report = commands[args.command](args)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
