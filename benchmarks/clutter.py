"""False tiles on tables with no tiles: keyboards, keypads, dominoes, cards, chips, phones.

    python -m benchmarks.clutter --n 300 --seed 9301 --data .cache/clutter_9301 \
        [--peer-python /tmp/peer/bin/python] [--out clutter.json]

Renders `--n` photos of the scene engine's `no_tiles` kind (a seed training never used) into
`--data` unless they are there, reads each with the shipped pipeline as `mjlens recognize`
does, and counts what comes back as a tile: per photo, the tiles of the recognition JSON and
the detections behind them; and the same without the objectness model (`vision.objectness`),
from the same detections. Each table carries 4-13 things, about half of them look-alikes
(`datasets/scene/lookalikes.py`: keyboards are two in eleven of those). The peer
`mahjong-detector` reads the same photos in the same run when `--peer-python` is given.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from benchmarks.vision import run_peer

SIZE = 1280  # long side of the rendered photos: tiles-free tables at phone-photo detail


def render(data: Path, n: int, seed: int) -> None:
    from datasets import synth

    if (data / "annotations.coco.json").is_file():
        coco = json.loads((data / "annotations.coco.json").read_text(encoding="utf-8"))
        if len(coco["images"]) >= n:
            return
    synth.generate(n, str(data), seed, ("procedural",), ("no_tiles",), SIZE, 1, 0, None)


def photos(data: Path, n: int) -> list[Path]:
    coco = json.loads((data / "annotations.coco.json").read_text(encoding="utf-8"))
    if any(a for a in coco["annotations"]):
        raise SystemExit(f"{data}: has labelled tiles; this benchmark reads tile-free tables")
    return [data / img["file_name"] for img in coco["images"][:n]]


def measure(
    paths: list[Path],
    detector: Path | None = None,
    classifier: Path | None = None,
    objectness_model: Path | None = None,
) -> dict[str, Any]:
    """Each photo's tiles read once, then interpreted with the objectness model
    (`vision.objectness`, the shipped one unless `objectness_model`, as recognition runs) and
    without it, side by side."""
    from vision.objectness import Objectness, load
    from vision.pipeline import Recognizer, interpret

    recognizer = Recognizer(detector_path=detector, classifier_path=classifier)
    model: Objectness | bool = load(objectness_model) if objectness_model else True
    found: dict[str, list[int]] = {"ours": [], "without_objectness": []}
    detections = []
    for path in paths:
        photo, tiles = recognizer.read_tiles(path)
        detections.append(len(tiles))
        for name, objectness in (("ours", model), ("without_objectness", False)):
            result = interpret(
                tiles,
                image_size=photo.original_size,
                objectness=objectness,
            )
            found[name].append(len(result.to_json()["tiles"]))
    return {name: _figures(tiles, detections, paths) for name, tiles in found.items()}


def _figures(tiles: list[int], detections: list[int], paths: list[Path]) -> dict[str, Any]:
    worst = sorted(((n, p.name) for n, p in zip(tiles, paths, strict=True) if n), reverse=True)
    return {
        "photos": len(paths),
        "false_tiles_per_photo": sum(tiles) / len(paths),
        "photos_with_a_false_tile": sum(1 for t in tiles if t) / len(paths),
        "detections_per_photo": sum(detections) / len(paths),
        "median_false_tiles": statistics.median(tiles),
        "worst": worst[:10],
    }


def peer(python: str, paths: list[Path]) -> dict[str, Any] | None:
    found = run_peer(python, [str(p) for p in paths])
    if found is None:
        return None
    counts = [len(item["tiles"]) for item in found]
    return {
        "photos": len(counts),
        "false_tiles_per_photo": sum(counts) / max(len(counts), 1),
        "photos_with_a_false_tile": sum(1 for c in counts if c) / max(len(counts), 1),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=300, help="photos (default 300)")
    p.add_argument("--seed", type=int, default=9301, help="render seed (default 9301)")
    p.add_argument("--data", type=Path, default=Path(".cache/clutter_9301"))
    p.add_argument("--detector", type=Path, help="detector ONNX (default: the shipped one)")
    p.add_argument("--classifier", type=Path, help="classifier ONNX (default: the shipped one)")
    p.add_argument("--objectness", type=Path, help="objectness model (default: the shipped one)")
    p.add_argument("--peer-python", help="python of a venv with mahjong-detector installed")
    p.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = p.parse_args(argv)
    render(args.data, args.n, args.seed)
    paths = photos(args.data, args.n)
    report: dict[str, Any] = measure(paths, args.detector, args.classifier, args.objectness)
    if args.peer_python:
        report["peer"] = peer(args.peer_python, paths)
    ours = report["ours"]
    for name in ("ours", "without_objectness"):
        mine = report[name]
        print(
            f"{name}: {mine['false_tiles_per_photo']:.3f} false tiles per photo, "
            f"{100 * mine['photos_with_a_false_tile']:.1f} % of {mine['photos']} photos with "
            f"any ({mine['detections_per_photo']:.3f} detections per photo)"
        )
    if report.get("peer"):
        theirs = report["peer"]
        ratio = ours["false_tiles_per_photo"] / max(theirs["false_tiles_per_photo"], 1e-9)
        print(
            f"peer: {theirs['false_tiles_per_photo']:.3f} false tiles per photo, "
            f"{100 * theirs['photos_with_a_false_tile']:.1f} % with any; ours / peer = {ratio:.2f}"
        )
    for count, name in ours["worst"]:
        print(f"  {name}: {count}")
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
