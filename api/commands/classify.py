"""`mjlens classify CROP...`: name the tile in each single-tile image.

mjlens classify tile1.jpg tile2.png          # one line per file: path, code, probability
mjlens classify tile.jpg --json --top 3      # one JSON object per file, with alternatives
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from api.cli import CliError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("crops", nargs="+", metavar="CROP", help="image file of one tile")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--top", type=int, default=3, help="alternatives listed with --json")
    parser.add_argument("--model", default=None, help="classifier ONNX (default: shipped)")
    parser.add_argument(
        "--set", metavar="NAME", help="read with this taught tile set (mjlens sets enroll/add)"
    )


def run(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np

    from api.teach import asked_set
    from scoring.tiles import CLASSES
    from vision.classify import Classifier
    from vision.looks import crop_looks

    if args.top < 1:
        raise CliError("--top must be at least 1")
    from vision.tileset import TileSetError

    try:
        classifier = Classifier(args.model)
        tileset = asked_set(args.set, classifier)
    except (FileNotFoundError, TileSetError) as exc:
        raise CliError(str(exc)) from exc
    failed = 0
    for name in args.crops:
        path = Path(name)
        image = cv2.imread(str(path)) if path.is_file() else None
        if image is None:
            reason = "no such file" if not path.exists() else "not an image"
            print(f"mjlens: error: {name}: {reason}", file=sys.stderr)
            failed += 1
            continue
        if tileset is None:
            probs = classifier.classify_crops([image])[0]
        else:
            crop = np.asarray(image, np.uint8)
            read, embeddings = classifier.read_crops([crop])
            probs = tileset.read(read, embeddings, crop_looks([crop]))[0]
        order = np.argsort(-probs)
        best = int(order[0])
        if args.json:
            alternatives = [
                {"code": CLASSES[i], "probability": round(float(probs[i]), 4)}
                for i in order[: args.top]
            ]
            record = {
                "file": name,
                "code": CLASSES[best],
                "probability": round(float(probs[best]), 4),
                "alternatives": alternatives,
            }
            print(json.dumps(record, ensure_ascii=False))
        else:
            print(f"{name}\t{CLASSES[best]}\t{probs[best]:.3f}")
    return 2 if failed else 0
