"""`mjlens classify CROP...`: name the tile in each single-tile image.

mjlens classify tile1.jpg tile2.png          # one line per file: path, code, probability
mjlens classify tile.jpg --json --top 3      # one JSON object per file, with alternatives
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from api.cli import CliError
from api.fixes import given_model, missing_models, unknown_set
from api.progress import Progress, add_progress_flag, wanted


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("crops", nargs="+", metavar="CROP", help="image file of one tile")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--top", type=int, default=3, help="alternatives listed with --json")
    parser.add_argument("--model", default=None, help="classifier ONNX (default: shipped)")
    parser.add_argument(
        "--set", metavar="NAME", help="read with this taught tile set (mjlens sets enroll/add)"
    )
    add_progress_flag(parser)


def run(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np

    from api.teach import asked_set
    from api.tilesets import SetNotFound
    from vision.classify import Classifier
    from vision.looks import crop_looks

    if args.top < 1:
        raise CliError("--top must be at least 1")
    from vision.registry import ModelMissingError
    from vision.tileset import TileSetError

    given_model("--model", "classifier", args.model)
    try:
        classifier = Classifier(args.model)
        tileset = asked_set(args.set, classifier)
    except ModelMissingError as exc:
        raise CliError(missing_models(("classifier",))) from exc
    except SetNotFound as exc:
        raise CliError(unknown_set(str(exc))) from exc
    except (FileNotFoundError, TileSetError) as exc:
        raise CliError(str(exc)) from exc
    failed = 0
    # One crop takes milliseconds: a bar only where there are enough to wait for.
    shown = wanted(args.progress) and len(args.crops) > 1
    with Progress(len(args.crops), "classify", "crop", shown) as bar:
        for name in args.crops:
            path = Path(name)
            image = cv2.imread(str(path)) if path.is_file() else None
            bar.clear()
            if image is None:
                reason = "no such file" if not path.exists() else "not an image"
                print(f"mjlens: error: {name}: {reason}", file=sys.stderr)
                failed += 1
                bar.update(failed=True)
                continue
            if tileset is None:
                probs = classifier.classify_crops([image])[0]
            else:
                crop = np.asarray(image, np.uint8)
                read, embeddings = classifier.read_crops([crop])
                probs = tileset.read(read, embeddings, crop_looks([crop]))[0]
            print(_line(name, probs, args.json, args.top), flush=bar.enabled)
            bar.update()
    return 2 if failed else 0


def _line(name: str, probs: Any, as_json: bool, top: int) -> str:
    """One crop's reading: a JSON object with alternatives, or `path<TAB>code<TAB>p`."""
    import numpy as np

    from scoring.tiles import CLASSES

    order = np.argsort(-probs)
    best = int(order[0])
    if not as_json:
        return f"{name}\t{CLASSES[best]}\t{probs[best]:.3f}"
    alternatives = [
        {"code": CLASSES[i], "probability": round(float(probs[i]), 4)} for i in order[:top]
    ]
    record = {
        "file": name,
        "code": CLASSES[best],
        "probability": round(float(probs[best]), 4),
        "alternatives": alternatives,
    }
    return json.dumps(record, ensure_ascii=False)
