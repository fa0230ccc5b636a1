"""Measure the shipped detector and classifier, and the peer `mahjong-detector`, in one run.

    python -m benchmarks.vision --synthetic runs/val_kde \
        --camerash ../shared/data/camerash-crops --peer-python /tmp/peer/bin/python \
        --confusion docs/vision/confusion.png --out runs/vision_eval.json

- synthetic photos rendered from the face source held out of training: detection precision
  and recall at IoU 0.5, tile accuracy (found and named right; a face-down tile is right as
  `back`), photos fully right (every tile found and named, nothing extra); and the same by
  face: a tile is found when a detection's centre lies on its labelled face (what reading
  the tile needs, whatever the box does with the tile's body);
- camerash-crops (real single-tile photos, validation only): top-1 per suit and overall,
  flowers named as some flower, a confusion-matrix image;
- photo to score on 12 MP JPEGs made from the synthetic wins, against the peer's detection
  alone, read by read side by side (`benchmarks.speed`, its in-process figure);
- the peer, run by its own Python (a throwaway venv: its weights are AGPL) on the same images.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks import speed
from datasets.faces.camerash import read_camerash
from scoring.tiles import BACK, CLASSES, FACES, FLOWERS, PLAYING
from vision.classify import Classifier
from vision.detect import Detector
from vision.load import Photo
from vision.match import match, match_faces
from vision.objectness import shipped_objectness
from vision.types import Tiles

SUIT_GROUPS = {
    "characters": [c for c in FACES if c.endswith("m")],
    "dots": [c for c in FACES if c.endswith("p")],
    "bamboo": [c for c in FACES if c.endswith("s")],
    "winds": ["E", "S", "W", "N"],
    "dragons": ["C", "F", "P"],
    "flowers": list(FLOWERS),
}
PEER_NAMES = {"chun": "C", "haku": "P", "hatsu": "F", "tou": "E", "nan": "S", "sha": "W", "pe": "N"}

PEER_SCRIPT = r"""
import json, sys, time
from PIL import Image
from mahjong_detector import CLASS_NAMES
from mahjong_detector.preprocess import preprocess_image
from mahjong_detector.predict import predict
paths = json.loads(sys.argv[1])
out = []
for k, path in enumerate([paths[0]] + paths):  # the first call (session load) is not timed
    t = time.perf_counter()
    img = Image.open(path)
    img.load()
    pre, pad = preprocess_image(img)
    dets = predict(pre, pad)
    seconds = time.perf_counter() - t
    if k:
        out.append({"path": path, "seconds": seconds, "tiles": [
            [d.x1, d.y1, d.x2, d.y2, CLASS_NAMES[d.class_id], d.confidence] for d in dets]})
print(json.dumps(out))
"""


PEER_TABLE = (40, 110, 40)  # BGR green felt around a crop the peer reads


def read_synth(root: Path) -> list[tuple[Path, list[dict[str, Any]]]]:
    coco = json.loads((root / "annotations.coco.json").read_text(encoding="utf-8"))
    by_image: dict[int, list[dict[str, Any]]] = {img["id"]: [] for img in coco["images"]}
    for ann in coco["annotations"]:
        by_image[ann["image_id"]].append(ann)
    return [(root / img["file_name"], by_image[img["id"]]) for img in coco["images"]]


def _faces(anns: list[dict[str, Any]]) -> np.ndarray:
    return np.array([a["corners"] for a in anns], np.float32).reshape(-1, 4, 2)


def _truth(anns: list[dict[str, Any]]) -> tuple[np.ndarray, list[str]]:
    boxes = np.array(
        [
            [a["bbox"][0], a["bbox"][1], a["bbox"][0] + a["bbox"][2], a["bbox"][1] + a["bbox"][3]]
            for a in anns
        ],
        np.float32,
    ).reshape(-1, 4)
    return boxes, [CLASSES[a["category_id"] - 1] for a in anns]


def codes_of(tiles: Tiles) -> list[str]:
    return [BACK if down else code for code, down in zip(tiles.codes, tiles.face_down, strict=True)]


class Tally:
    """Counts for detection precision/recall, tile accuracy and whole photos."""

    def __init__(self) -> None:
        self.truth = self.pred = self.found = self.named = self.photos = self.perfect = 0
        self.face_found = self.face_named = 0

    def add(
        self,
        pred_boxes: np.ndarray,
        pred_codes: Sequence[str],
        truth_boxes: np.ndarray,
        truth_codes: Sequence[str],
        pred_centres: np.ndarray,
        pred_confidence: np.ndarray,
        truth_faces: np.ndarray,
    ) -> None:
        pairs = match(pred_boxes, truth_boxes)
        named = sum(pred_codes[i] == truth_codes[j] for i, j in pairs)
        faces = match_faces(pred_centres, pred_confidence, truth_faces)
        self.face_found += len(faces)
        self.face_named += sum(pred_codes[i] == truth_codes[j] for i, j in faces)
        self.truth += len(truth_codes)
        self.pred += len(pred_codes)
        self.found += len(pairs)
        self.named += named
        self.photos += 1
        self.perfect += int(named == len(truth_codes) == len(pred_codes))

    def report(self) -> dict[str, float]:
        return {
            "photos": self.photos,
            "tiles": self.truth,
            "precision": self.found / max(self.pred, 1),
            "recall": self.found / max(self.truth, 1),
            "tile_accuracy": self.named / max(self.truth, 1),
            "photos_fully_right": self.perfect / max(self.photos, 1),
            "face_recall": self.face_found / max(self.truth, 1),
            "face_tile_accuracy": self.face_named / max(self.truth, 1),
        }


def photo_of(image: np.ndarray) -> Photo:
    h, w = image.shape[:2]
    return Photo(image=image, scale=1.0, original_size=(w, h), sha256="")


def synthetic_eval(
    detector: Detector, classifier: Classifier, root: Path, peer: dict[str, Any] | None
) -> dict[str, Any]:
    ours, theirs, ours_same, without = Tally(), Tally(), Tally(), Tally()
    objectness = shipped_objectness()
    for path, anns in read_synth(root):
        image = cv2.imread(str(path))
        if image is None:
            raise FileNotFoundError(path)
        photo = photo_of(image)
        tiles = classifier.classify(photo, detector.detect(photo))
        truth_boxes, truth_codes = _truth(anns)
        faces = _faces(anns)
        args = (tiles.corners.mean(axis=1), tiles.confidence, faces)
        without.add(tiles.xyxy, codes_of(tiles), truth_boxes, truth_codes, *args)
        if objectness is not None:  # as recognition drops them (vision.pipeline.interpret)
            tiles = objectness.keep(tiles)
        ours_args = (tiles.corners.mean(axis=1), tiles.confidence, faces)
        ours.add(tiles.xyxy, codes_of(tiles), truth_boxes, truth_codes, *ours_args)
        if peer is not None and str(path) in peer:
            found = peer[str(path)]["tiles"]
            boxes = np.array([t[:4] for t in found], np.float32).reshape(-1, 4)
            ours_same.add(tiles.xyxy, codes_of(tiles), truth_boxes, truth_codes, *ours_args)
            # The peer gives boxes only: its box centre stands for the face centre.
            centres = (boxes[:, :2] + boxes[:, 2:]) / 2
            confidence = np.array([t[5] for t in found], np.float32)
            peer_codes = [PEER_NAMES.get(t[4], t[4]) for t in found]
            theirs.add(boxes, peer_codes, truth_boxes, truth_codes, centres, confidence, faces)
    result: dict[str, Any] = {"ours": ours.report(), "without_objectness": without.report()}
    if peer is not None:
        result["peer"] = theirs.report()
        result["ours_on_peer_images"] = ours_same.report()
    return result


def group_accuracy(pred: Sequence[str], truth: Sequence[str]) -> dict[str, float]:
    right = np.array([p == t for p, t in zip(pred, truth, strict=True)])
    truth_arr = np.array(truth)
    out = {"top1": float(right.mean()), "n": len(truth)}
    playing = np.isin(truth_arr, PLAYING)
    out["top1_34"] = float(right[playing].mean())
    for name, codes in SUIT_GROUPS.items():
        inside = np.isin(truth_arr, codes)
        out[f"top1_{name}"] = float(right[inside].mean())
    flower = np.isin(truth_arr, FLOWERS)
    out["flower_as_flower"] = float(np.isin(np.array(pred)[flower], FLOWERS).mean())
    return out


def confusion_png(pred: Sequence[str], truth: Sequence[str], path: Path) -> None:
    """A row per true face, a column per predicted class, counts shaded; saved as PNG."""
    index = {c: i for i, c in enumerate(CLASSES)}
    matrix = np.zeros((len(FACES), len(CLASSES)), np.int32)
    for p, t in zip(pred, truth, strict=True):
        matrix[index[t], index[p]] += 1
    cell, margin = 16, 34
    h, w = margin + cell * matrix.shape[0], margin + cell * matrix.shape[1]
    image = np.full((h + 4, w + 4, 3), 255, np.uint8)
    rows = np.maximum(matrix.sum(axis=1, keepdims=True), 1)
    for i in range(matrix.shape[0]):
        for j in range(matrix.shape[1]):
            share = matrix[i, j] / rows[i, 0]
            if matrix[i, j]:
                colour = (
                    (255 * (1 - share), 255 * (1 - share), 255)
                    if i != j
                    else (255 * (1 - share), 255, 255 * (1 - share))
                )
                x, y = margin + j * cell, margin + i * cell
                cv2.rectangle(image, (x, y), (x + cell - 1, y + cell - 1), colour, -1)
                cv2.putText(
                    image,
                    str(matrix[i, j]),
                    (x + 1, y + 11),
                    cv2.FONT_HERSHEY_PLAIN,
                    0.6,
                    (0, 0, 0),
                    1,
                )
    font = cv2.FONT_HERSHEY_PLAIN
    for i, code in enumerate(FACES):
        cv2.putText(image, code, (2, margin + i * cell + 12), font, 0.8, (0, 0, 0), 1)
    for j, code in enumerate(CLASSES):
        label = "bk" if code == BACK else code
        cv2.putText(image, label, (margin + j * cell, 14 + (j % 2) * 12), font, 0.7, (0, 0, 0), 1)
    for k in range(0, matrix.shape[0] + 1):
        cv2.line(image, (margin, margin + k * cell), (w, margin + k * cell), (220, 220, 220), 1)
    for k in range(0, matrix.shape[1] + 1):
        cv2.line(image, (margin + k * cell, margin), (margin + k * cell, h), (220, 220, 220), 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image)


def camerash_eval(
    classifier: Classifier, root: Path, png: Path | None, peer: dict[str, Any] | None
) -> dict[str, Any]:
    items = read_camerash(root)
    crops = []
    for path, _ in items:
        image = cv2.imread(str(path))
        if image is None:
            raise FileNotFoundError(path)
        crops.append(image)
    probs = classifier.classify_crops(crops)
    pred = [CLASSES[i] for i in probs.argmax(axis=1)]
    truth = [code for _, code in items]
    result: dict[str, Any] = {"ours": group_accuracy(pred, truth)}
    if png is not None:
        confusion_png(pred, truth, png)
        result["confusion_png"] = str(png)
    if peer is not None and any(str(p) in peer for p, _ in items):
        # The peer reads whole photos; its best-scoring tile names the crop (none = wrong).
        named = []
        for path, _ in items:
            found = peer.get(str(path), {}).get("tiles", [])
            best = max(found, key=lambda t: t[5]) if found else None
            named.append(PEER_NAMES.get(best[4], best[4]) if best else "none")
        playing = [i for i, t in enumerate(truth) if t in PLAYING]
        result["peer"] = {
            "top1": float(np.mean([named[i] == truth[i] for i in range(len(truth))])),
            "top1_34": float(np.mean([named[i] == truth[i] for i in playing])),
        }
    return result


def pad_for_peer(items: list[tuple[Path, str]], folder: Path) -> dict[str, str]:
    """Each crop in the middle of a plain table three times its size, as the peer (a photo
    detector) needs: on the bare crops it finds no tile at all. Padded path -> crop path."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for k, (path, _) in enumerate(items):
        crop = cv2.imread(str(path))
        if crop is None:
            raise FileNotFoundError(path)
        h, w = crop.shape[:2]
        side = 3 * max(h, w)
        canvas = np.full((side, side, 3), PEER_TABLE, np.uint8)
        y, x = (side - h) // 2, (side - w) // 2
        canvas[y : y + h, x : x + w] = crop
        target = folder / f"{k:04d}.jpg"
        cv2.imwrite(str(target), canvas)
        out[str(target)] = str(path)
    return out


def run_peer(python: str, paths: list[str]) -> list[dict[str, Any]] | None:
    """The peer on `paths`, in its own interpreter; None (with a note) if it cannot run."""
    try:
        done = subprocess.run(
            [python, "-c", PEER_SCRIPT, json.dumps(paths)],
            capture_output=True,
            text=True,
            timeout=1800,
            check=True,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"peer not measured: {exc}", file=sys.stderr)
        return None
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--synthetic", type=Path, help="mjlens synth folder of the held-out source")
    p.add_argument("--camerash", type=Path, help="camerash-crops folder (validation only)")
    p.add_argument("--confusion", type=Path, help="draw the camerash confusion matrix here (PNG)")
    p.add_argument("--peer-python", help="python of a venv with mahjong-detector installed")
    p.add_argument("--peer-photos", type=int, default=40, help="synthetic photos the peer reads")
    p.add_argument("--peer-camerash", action="store_true", help="the peer reads the crops too")
    p.add_argument("--detector", default=None, help="detector ONNX (default: shipped)")
    p.add_argument("--classifier", default=None, help="classifier ONNX (default: shipped)")
    p.add_argument("--flower-reader", default=None, help="flower reader ONNX (default: shipped)")
    p.add_argument(
        "--no-flower-reader", action="store_true", help="the classifier alone names the flowers"
    )
    p.add_argument("--repeats", type=int, default=5, help="reads of each 12 MP photo")
    p.add_argument("--speed-photos", type=int, default=3, help="12 MP photos timed (0: none)")
    p.add_argument("--out", type=Path, help="write the results as JSON here too")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    detector = Detector(args.detector)
    classifier = Classifier(
        args.classifier, flowers=not args.no_flower_reader, flower_model=args.flower_reader
    )
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        peer_paths: list[str] = []
        if args.synthetic:
            peer_paths += [str(p) for p, _ in read_synth(args.synthetic)][: args.peer_photos]
        padded: dict[str, str] = {}
        if args.camerash and args.peer_camerash:
            padded = pad_for_peer(read_camerash(args.camerash), Path(tmp) / "padded")
            peer_paths += list(padded)
        runs = run_peer(args.peer_python, peer_paths) if args.peer_python and peer_paths else None
        for run in runs or []:
            run["path"] = padded.get(run["path"], run["path"])  # back to the crop's own path
        peer = {r["path"]: r for r in runs} if runs else None
        if args.synthetic and args.speed_photos > 0:  # 0: accuracy only
            photos = speed.make_photos(args.synthetic, args.speed_photos, Path(tmp) / "12mp")
            results["latency_12mp"] = speed.measure(
                photos,
                args.peer_python,
                1,
                args.repeats,
                0,
                detector_path=args.detector,
                classifier_path=args.classifier,
                flowers=not args.no_flower_reader,
                flower_path=args.flower_reader,
            )
    if args.synthetic:
        results["synthetic"] = synthetic_eval(detector, classifier, args.synthetic, peer)
    if args.camerash:
        results["camerash"] = camerash_eval(classifier, args.camerash, args.confusion, peer)
    text = json.dumps(results, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
