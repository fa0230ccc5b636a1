"""The win's flowers found only faintly (`vision.faint_flowers`): fit the model, and see what
it would take and doubt.

    python benchmarks/faint_flowers.py collect --data .cache/sets_fresh_9998 --out F1.json
    python benchmarks/faint_flowers.py collect --data .cache/sets_fresh_9999 --out F2.json
    python benchmarks/faint_flowers.py fit --rows F1.json F2.json

`collect` reads each declared win of `benchmarks/sets.py render` folders as a user would,
with no set and with the set its design's enrollment photo teaches, and keeps every faint
face the model judges (on no tile, read mostly as a flower): its inputs and whether it is
one of the win's flowers the reading lacks. `fit` fits the logistic model by Newton's
method (L2 1.0) and prints its constants for `vision/faint_flowers.py`, with the faces each
half of the photos would take and doubt under a model fitted on the other half.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.recognize import context_of
from benchmarks.sets import folders_of, models_read, read_with, taught_photos, teach
from scoring.tiles import FLOWERS
from vision import faint_flowers as model
from vision.calibration import judged_with_set
from vision.load import load_photo
from vision.match import match_faces
from vision.pipeline import FAINT_CONFIDENCE, Recognizer, interpret
from vision.recognition import Recognition
from vision.roles import Role
from vision.types import Tiles

Json = dict[str, Any]
L2 = 1.0


def collect(args: argparse.Namespace) -> None:
    recognizer = Recognizer()
    rows: list[Json] = []
    for folder in folders_of(args.data):
        taught = teach(recognizer, folder, 0)[0]
        for path in taught_photos(folder, args.n, 0):
            label = json.loads(path.read_text())
            anns, jpg = label["annotations"], path.with_suffix(".jpg")
            tiles, size = models_read(recognizer, jpg, folder / args.tiles)
            photo = load_photo(jpg)
            _, faintly = recognizer.detector.detect_with_faint(photo, FAINT_CONFIDENCE)
            for tileset in (None, taught) if taught is not None else (None,):
                read = read_with(recognizer, photo, tiles, tileset) if tileset else tiles
                judged = tileset is not None and judged_with_set(tileset.coverage)
                result = interpret(read, context_of(label["hand"]), image_size=size, taught=judged)
                faint = recognizer.faint_reader(photo, result.tiles, tileset, faintly)()
                rows += _faces(faint, result, tileset is not None, anns, f"{folder}/{path.stem}")
        print(f"{folder}: {len(rows)} faces", flush=True)
    Path(args.out).write_text(json.dumps(rows))


def _faces(
    faint: Tiles, result: Recognition, taught: bool, anns: list[Json], name: str
) -> list[Json]:
    """The judged faint faces (of `faint`) of one reading, each with its inputs and truth."""
    if result.decoded.hand is None or not len(faint):
        return []
    chosen = np.flatnonzero(model.judged(faint))
    if not len(chosen):
        return []
    faint = faint[chosen]
    win = [t for g in result.layout.groups if g.role != Role.STRAY for t in g.tiles]
    x = model.features(result.tiles, win, list(result.layout.flowers), faint)
    quads = np.array([a["corners"] for a in anns], np.float32)
    seen = {j for _, j in match_faces(result.tiles.face_centres, result.tiles.confidence, quads)}
    matched = dict(match_faces(faint.face_centres, faint.confidence, quads))
    out = []
    for k in range(len(faint)):
        j = matched.get(k)
        lost = j is not None and j not in seen and _a_flower_of_the_win(anns[j])
        out.append({"photo": name, "set": taught, "x": x[k].tolist(), "flower": lost})
    return out


def _a_flower_of_the_win(ann: Json) -> bool:
    return ann["code"] in FLOWERS and ann.get("role") == "flower" and not ann.get("face_down")


def newton(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Mean, scale, weights and bias of an L2-penalised logistic fit on standardized x."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = L2 * np.diag([*np.ones(z.shape[1] - 1), 0.0])
    for _ in range(100):
        p = 1 / (1 + np.exp(-np.clip(z @ w, -40, 40)))
        grad = z.T @ (p - y) + penalty @ w
        hess = (z * (p * (1 - p))[:, None]).T @ z + penalty
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return mean, scale, w[:-1], float(w[-1])


def fit(args: argparse.Namespace) -> None:
    rows = [r for path in args.rows for r in json.loads(Path(path).read_text())]
    x = np.array([r["x"] for r in rows], np.float64)
    y = np.array([r["flower"] for r in rows], np.float64)
    photos = sorted({r["photo"] for r in rows})
    half = {p: k % 2 for k, p in enumerate(photos)}
    fold = np.array([half[r["photo"]] for r in rows])
    print(f"{len(rows)} faces judged, {int(y.sum())} of them flowers the reading lacked")
    for test in (0, 1):
        mean, scale, w, b = newton(x[fold != test], y[fold != test])
        z = ((x[fold == test] - mean) / scale) @ w + b
        p, truth = 1 / (1 + np.exp(-z)), y[fold == test] == 1
        for name, low, high in (("take", model.TAKE, 1.1), ("doubt", model.DOUBT, model.TAKE)):
            chosen = (p >= low) & (p < high)
            print(
                f"half {test}: {name} {int(chosen.sum())} faces, "
                f"{int((chosen & truth).sum())} of them lost flowers (of {int(truth.sum())})"
            )
    mean, scale, w, b = newton(x, y)
    print("MEAN =", tuple(round(float(v), 4) for v in mean))
    print("SCALE =", tuple(round(float(v), 4) for v in scale))
    print("WEIGHTS =", tuple(round(float(v), 4) for v in w))
    print("BIAS =", round(b, 4))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--data", type=Path, nargs="+", required=True)
    c.add_argument("--n", type=int, default=150)
    c.add_argument("--tiles", default="tiles_cp")
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("--rows", nargs="+", required=True)
    args = parser.parse_args()
    {"collect": collect, "fit": fit}[args.command](args)


if __name__ == "__main__":
    main()
