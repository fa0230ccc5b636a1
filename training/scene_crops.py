"""Face crops rectified out of `mjlens synth` photos, for classifier training.

The engine's photos have what single-face augmentation only imitates: real perspective, tile
bodies and neighbours, shadows, glare and table light. Each labelled tile is cut out along
its face corners jittered as a detector would leave them, in the classifier's input size.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from scoring.tiles import CLASSES
from training.tile_augment import jitter_quad
from vision.classify import rectify

CLASS_INDEX = {code: i for i, code in enumerate(CLASSES)}


def scene_crops(
    roots: list[str], per_tile: int, seed: int, limit: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(n, INPUT_H, INPUT_W, 3) RGB uint8 crops and their class indices."""
    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    labels: list[int] = []
    for root in roots:
        coco = json.loads((Path(root) / "annotations.coco.json").read_text(encoding="utf-8"))
        files = {img["id"]: Path(root) / img["file_name"] for img in coco["images"]}
        by_image: dict[int, list[dict]] = {}
        for ann in coco["annotations"]:
            by_image.setdefault(ann["image_id"], []).append(ann)
        for image_id, anns in by_image.items():
            image = cv2.imread(str(files[image_id]))
            if image is None:
                continue
            rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
            for ann in anns:
                if ann.get("visibility", 1.0) < 0.8:
                    continue  # half-hidden faces teach guessing, not reading
                quad = np.asarray(ann["corners"], np.float32)
                for _ in range(per_tile):
                    crops.append(rectify(rgb, jitter_quad(quad, rng, full_tile=False)))
                    labels.append(CLASS_INDEX[CLASSES[ann["category_id"] - 1]])
            if limit is not None and len(crops) >= limit:
                break
    return np.stack(crops), np.array(labels, np.int64)
