"""The labeling benchmark's mAP (pycocotools): labels that are the truth score 1, labels
that miss half the tiles or name every tile wrong score less; a face-down tile's truth is
the back."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pycocotools", reason="pycocotools is in the dev extra")

from benchmarks.label import coco_map, truth_as_evaluated
from datasets.coco import categories
from scoring.tiles import CLASSES


def _truth() -> dict[str, Any]:
    images = [{"id": k, "file_name": f"images/{k:06d}.jpg", "width": 640, "height": 480}
              for k in (1, 2)]  # fmt: skip
    anns = []
    for image in (1, 2):
        for i in range(6):
            box = [20.0 + 90 * i, 50.0 * image, 60.0, 80.0]
            ann = {"id": len(anns) + 1, "image_id": image, "category_id": 1 + i, "bbox": box}
            anns.append({**ann, "area": 4800.0, "iscrowd": 0, "face_down": i == 5})
    return {"images": images, "annotations": anns, "categories": categories()}


def _labels(truth: dict[str, Any], keep: int = 6, shift: int = 0) -> dict[str, Any]:
    names = list(CLASSES)
    evaluated = truth_as_evaluated(truth, names)
    anns = [
        {**a, "category_id": (a["category_id"] - 1 + shift) % 43 + 1, "score": 0.9}
        for a in evaluated["annotations"]
        if (a["id"] - 1) % 6 < keep
    ]
    images = [{**i, "file_name": i["file_name"].removeprefix("images/")} for i in truth["images"]]
    return {"images": images, "annotations": anns, "categories": categories()}


def test_labels_that_are_the_truth_score_one() -> None:
    truth = truth_as_evaluated(_truth(), list(CLASSES))
    assert truth["annotations"][5]["category_id"] == CLASSES.index("back") + 1
    assert coco_map(truth, _labels(_truth()), by_class=True)["map_50"] == pytest.approx(1.0)


def test_missing_tiles_and_wrong_codes_score_less() -> None:
    truth = truth_as_evaluated(_truth(), list(CLASSES))
    half = coco_map(truth, _labels(_truth(), keep=3), by_class=False)["map_50"]
    assert 0.3 < half < 0.7
    wrong = _labels(_truth(), shift=1)
    assert coco_map(truth, wrong, by_class=True)["map_50"] == pytest.approx(0.0)
    assert coco_map(truth, wrong, by_class=False)["map_50"] == pytest.approx(1.0)
