"""Pre-labelling benchmark: photos a second for `mjlens label` on each engine, and the COCO
mAP of its pre-labels against a synthetic set's truth, computed by pycocotools.

    mjlens synth --n 200 --out runs/label_4949 --seed 4949 --sources kde,gnome
    python benchmarks/label.py runs/label_4949 --out runs/label_bench

Each engine labels the same photos (`DIR/images`) into a fresh folder, one after the other
in this one run: local with 1 worker, local with 2, Ray (this machine, 2 workers; skipped
when Ray is not installed). The time counts the whole command as a user runs it (starting
the workers and loading their models, writing every format). The labels of each engine must
be the same; mAP is of the first engine's COCO master (`score` is each box's detection
score times its code's probability) against `DIR/annotations.coco.json`: per class (43:
the faces and the back; a face-down tile's truth is the back) and with every class as one
(the boxes alone).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ENGINES = (("local", 1), ("local", 2), ("ray", 2))


def label(photos: Path, out: Path, engine: str, workers: int) -> float:
    """Seconds for one `mjlens label` of every photo into a fresh `out`."""
    shutil.rmtree(out, ignore_errors=True)
    command = [
        sys.executable, "-m", "api.cli", "label", str(photos), "--out", str(out),
        "--format", "coco,yolo,labelstudio", "--workers", str(workers), "--engine", engine,
    ]  # fmt: skip
    started = time.perf_counter()
    subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def truth_as_evaluated(truth: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The truth with a face-down tile's category the back's (what the pre-labels name)."""
    back = names.index("back") + 1
    anns = [
        {**a, "category_id": back if a.get("face_down") else a["category_id"]}
        for a in truth["annotations"]
    ]
    return {**truth, "annotations": anns}


def coco_map(truth: dict[str, Any], labels: dict[str, Any], by_class: bool) -> dict[str, float]:
    """mAP@0.5 and mAP@[.5:.95] of `labels` against `truth` (images matched by file name)."""
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    ids = {Path(i["file_name"]).name: i["id"] for i in truth["images"]}
    their = {i["id"]: ids[Path(i["file_name"]).name] for i in labels["images"]}
    detections = [
        {
            "image_id": their[a["image_id"]],
            "category_id": a["category_id"] if by_class else 1,
            "bbox": a["bbox"],
            "score": a["score"],
        }
        for a in labels["annotations"]
    ]
    gt = (
        truth
        if by_class
        else {
            **truth,
            "annotations": [{**a, "category_id": 1} for a in truth["annotations"]],
            "categories": [{"id": 1, "name": "tile"}],
        }
    )
    with contextlib.redirect_stdout(io.StringIO()):
        ground = COCO()
        ground.dataset = json.loads(json.dumps(gt))
        ground.createIndex()
        found = ground.loadRes(detections) if detections else COCO()
        evaluation = COCOeval(ground, found, "bbox")
        evaluation.params.imgIds = sorted(their.values())
        evaluation.evaluate()
        evaluation.accumulate()
        evaluation.summarize()
    return {
        "map_50": round(float(evaluation.stats[1]), 4),
        "map_50_95": round(float(evaluation.stats[0]), 4),
    }


def same_labels(a: Path, b: Path) -> bool:
    """The same boxes, codes, scores and tile fields, photo for photo (the photos' review
    reasons are left out: they follow the review code of the moment, not the engine)."""

    def read(path: Path) -> Any:
        coco = json.loads((path / "annotations.coco.json").read_text())
        return [i["file_name"] for i in coco["images"]], coco["annotations"]

    return bool(read(a) == read(b))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", help="a `mjlens synth` folder: images/ and its COCO truth")
    parser.add_argument("--out", default="runs/label_bench", help="where each engine writes")
    parser.add_argument("--engines", default="local:1,local:2,ray:2")
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    data, out = Path(args.data), Path(args.out)
    photos = data / "images"
    n = sum(1 for p in photos.iterdir() if p.suffix.lower() in (".jpg", ".png", ".webp"))
    report: dict[str, Any] = {"photos": n, "engines": []}
    first: Path | None = None
    for spec in args.engines.split(","):
        engine, workers = spec.split(":")
        if engine == "ray":
            try:
                import ray  # noqa: F401
            except ImportError:
                print("ray: not installed (pip install -e '.[ray]'), skipped")
                continue
        folder = out / f"{engine}_{workers}"
        seconds = label(photos, folder, engine, int(workers))
        row = {
            "engine": engine,
            "workers": int(workers),
            "seconds": round(seconds, 1),
            "photos_per_s": round(n / seconds, 3),
        }
        if first is None:
            first = folder
        else:
            row["same_labels_as_first"] = same_labels(first, folder)
        report["engines"].append(row)
        print(json.dumps(row), flush=True)
    if first is not None:
        truth = json.loads((data / "annotations.coco.json").read_text())
        names = [c["name"] for c in sorted(truth["categories"], key=lambda c: c["id"])]
        truth = truth_as_evaluated(truth, names)
        labels = json.loads((first / "annotations.coco.json").read_text())
        report["per_class"] = coco_map(truth, labels, by_class=True)
        report["boxes_alone"] = coco_map(truth, labels, by_class=False)
        print(json.dumps({"per_class": report["per_class"], "boxes_alone": report["boxes_alone"]}))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
