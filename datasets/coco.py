"""COCO JSON, the master label file of a synthetic set: one record per image with its Hand JSON,
one annotation per visible tile with the engine's extra keys (face corners, sideways, ...).

Category ids are `scoring.tiles.CLASSES` order plus one (COCO reserves 0).

Example:
    >>> coco = build_coco([("000000.jpg", 640, 480, None, [])])
    >>> coco["categories"][0]
    {'id': 1, 'name': '1m', 'supercategory': 'tile'}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from scoring.tiles import CLASSES

EXTRA_KEYS = (
    "corners",
    "sideways",
    "face_down",
    "role",
    "meld_id",
    "source",
    "design",
    "visibility",
    "face_visibility",
    "hidden_code",
    "oblique",
    # a recognizer's pre-labels (`mjlens label`): the detection's score for COCO's
    # evaluation, and the classifier's top readings
    "score",
    "top_k",
    "detector_score",
)
# The fixed, versioned class list every label file names: the 42 faces and the back, in
# `scoring.tiles.CLASSES` order. A change of that order or membership is a new version.
CLASS_LIST = "mjlens-tiles-1"
CATEGORY_ID = {code: i + 1 for i, code in enumerate(CLASSES)}

# (file name, width, height, Hand JSON or None, annotations[, extra image fields])
ImageRecord = tuple[Any, ...]


def numbers(value: Any, n: int) -> list[float]:
    """`n` numbers from a label file's list (a bbox, a corner); bools are not numbers."""
    if (
        not isinstance(value, list)
        or len(value) != n
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"expected {n} numbers, got {value!r}")
    return [float(v) for v in value]


def categories() -> list[dict[str, Any]]:
    return [{"id": CATEGORY_ID[c], "name": c, "supercategory": "tile"} for c in CLASSES]


def annotation_to_coco(ann: Mapping[str, Any], image_id: int, ann_id: int) -> dict[str, Any]:
    """One scene annotation -> one COCO annotation (bbox kept as [x, y, w, h] pixels)."""
    x, y, w, h = (float(v) for v in ann["bbox"])
    out: dict[str, Any] = {
        "id": ann_id,
        "image_id": image_id,
        "category_id": CATEGORY_ID[ann["code"]],
        "bbox": [x, y, w, h],
        "area": w * h,
        "iscrowd": 0,
    }
    out.update({k: ann[k] for k in EXTRA_KEYS if k in ann})
    return out


def build_coco(records: Iterable[ImageRecord], info: Mapping[str, Any] | None = None) -> dict:
    """The whole COCO dict; image ids are 1-based in record order."""
    images: list[dict[str, Any]] = []
    annotations: list[dict[str, Any]] = []
    for image_id, record in enumerate(records, start=1):
        name, width, height, hand, anns = record[:5]
        image = {
            "id": image_id,
            "file_name": name,
            "width": width,
            "height": height,
            "hand": dict(hand) if hand is not None else None,
        }
        if len(record) > 5:
            image.update(record[5])  # e.g. how the scene was drawn
        images.append(image)
        for ann in anns:
            annotations.append(annotation_to_coco(ann, image_id, len(annotations) + 1))
    return {
        "info": dict(info or {}),
        "images": images,
        "annotations": annotations,
        "categories": categories(),
    }


def save_coco(coco: Mapping[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(coco, separators=(",", ":")), encoding="utf-8")


def load_coco(path: str | Path) -> dict[str, Any]:
    """Read a COCO file and check the fields the rest of the project relies on."""
    coco = json.loads(Path(path).read_text(encoding="utf-8"))
    for key in ("images", "annotations", "categories"):
        if key not in coco:
            raise ValueError(f"{path}: not a COCO file (no '{key}')")
    names = [c["name"] for c in sorted(coco["categories"], key=lambda c: c["id"])]
    if names != list(CLASSES):
        raise ValueError(f"{path}: categories differ from scoring.tiles.CLASSES")
    return coco


def iter_images(coco: Mapping[str, Any]) -> Iterator[tuple[dict, list[dict]]]:
    """Each image record with its annotations turned back into scene form (code, bbox, ...)."""
    by_image: dict[int, list[dict]] = {img["id"]: [] for img in coco["images"]}
    for ann in coco["annotations"]:
        scene_ann = {"code": CLASSES[ann["category_id"] - 1], "bbox": list(ann["bbox"])}
        scene_ann.update({k: ann[k] for k in EXTRA_KEYS if k in ann})
        by_image[ann["image_id"]].append(scene_ann)
    for img in coco["images"]:
        yield img, by_image[img["id"]]
