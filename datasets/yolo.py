"""YOLO export of a COCO master file: `labels/<stem>.txt` beside `images/`, plus `data.yaml`.

Each line is `class cx cy w h`, normalised to the image, class = index in
`scoring.tiles.CLASSES`. With `corners=True` the line continues with the face's four corners as
keypoints `x y v` (YOLO pose format), TL TR BR BL as the face reads upright.

Example:
    >>> yolo_line({"code": "5p", "bbox": [10, 20, 30, 40]}, 100, 100)
    '13 0.250000 0.400000 0.300000 0.400000'
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from datasets.coco import iter_images
from scoring.tiles import CLASSES

CLASS_INDEX = {code: i for i, code in enumerate(CLASSES)}


def yolo_line(ann: Mapping[str, Any], width: int, height: int, corners: bool = False) -> str:
    x, y, w, h = (float(v) for v in ann["bbox"])
    fields = [(x + w / 2) / width, (y + h / 2) / height, w / width, h / height]
    line = f"{CLASS_INDEX[ann['code']]} " + " ".join(f"{v:.6f}" for v in fields)
    if corners:
        points = []
        for px, py in ann["corners"]:
            inside = 0 <= px < width and 0 <= py < height
            # v = 2 visible, 0 outside the frame (the pose format's convention)
            points.append(
                f"{min(max(px / width, 0), 1):.6f} {min(max(py / height, 0), 1):.6f} "
                f"{2 if inside else 0}"
            )
        line += " " + " ".join(points)
    return line


def parse_yolo_line(line: str, width: int, height: int) -> dict[str, Any]:
    """The inverse of `yolo_line` for the box part: {"code", "bbox"} in pixels."""
    parts = line.split()
    cls = int(parts[0])
    cx, cy, w, h = (float(v) for v in parts[1:5])
    return {
        "code": CLASSES[cls],
        "bbox": [(cx - w / 2) * width, (cy - h / 2) * height, w * width, h * height],
    }


def export_yolo(coco: Mapping[str, Any], root: str | Path, corners: bool = False) -> Path:
    """Write labels/*.txt for every image of `coco` under `root` and `root/data.yaml`.

    Images are expected at `root/<file_name>` (the synth layout: images/000000.jpg).
    """
    root = Path(root)
    for img, anns in iter_images(coco):
        label = root / "labels" / Path(img["file_name"]).with_suffix(".txt").name
        label.parent.mkdir(parents=True, exist_ok=True)
        lines = [yolo_line(a, img["width"], img["height"], corners) for a in anns]
        label.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return write_data_yaml(root, corners)


def write_data_yaml(root: Path, corners: bool = False) -> Path:
    """`root/data.yaml`: the images under `root/images`, the class list's 43 names."""
    yaml = root / "data.yaml"
    names = "\n".join(f"  {i}: '{code}'" for i, code in enumerate(CLASSES))
    kpt = "kpt_shape: [4, 3]\n" if corners else ""
    yaml.write_text(
        f"path: {root.resolve()}\ntrain: images\nval: images\nnc: {len(CLASSES)}\n"
        f"{kpt}names:\n{names}\n",
        encoding="utf-8",
    )
    return yaml
