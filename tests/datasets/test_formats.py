"""COCO master file and YOLO export: what goes in comes back out."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.coco import CATEGORY_ID, build_coco, iter_images, load_coco, save_coco
from datasets.scene import render_scene
from datasets.yolo import export_yolo, parse_yolo_line, yolo_line
from scoring.tiles import CLASSES


@pytest.fixture(scope="module")
def scenes():
    kinds = ("declared_win", "scattered")
    return [
        render_scene(np.random.default_rng(i), ("procedural",), kinds[i], 320) for i in range(2)
    ]


def _records(scenes):
    return [
        (f"images/{i:06d}.jpg", s.image.shape[1], s.image.shape[0], s.hand, s.annotations)
        for i, s in enumerate(scenes)
    ]


def test_categories_follow_the_classifier_order() -> None:
    coco = build_coco([])
    assert [c["name"] for c in coco["categories"]] == list(CLASSES)
    assert [c["id"] for c in coco["categories"]] == list(range(1, 44))
    assert CATEGORY_ID["back"] == 43


def test_coco_round_trip_keeps_every_label_and_the_hand(scenes, tmp_path) -> None:
    path = tmp_path / "annotations.coco.json"
    save_coco(build_coco(_records(scenes)), path)
    back = list(iter_images(load_coco(path)))
    assert len(back) == len(scenes)
    for (img, anns), scene in zip(back, scenes, strict=True):
        assert img["hand"] == scene.hand
        assert (img["width"], img["height"]) == scene.image.shape[1::-1]
        assert anns == [dict(a) for a in scene.annotations]


def test_load_coco_refuses_other_category_orders(tmp_path) -> None:
    coco = build_coco([])
    first, second = coco["categories"][:2]
    first["name"], second["name"] = second["name"], first["name"]
    save_coco(coco, tmp_path / "x.json")
    with pytest.raises(ValueError, match="categories"):
        load_coco(tmp_path / "x.json")


def test_yolo_round_trip(scenes, tmp_path) -> None:
    coco = build_coco(_records(scenes))
    yaml = export_yolo(coco, tmp_path, corners=True)
    assert "nc: 43" in yaml.read_text() and "kpt_shape: [4, 3]" in yaml.read_text()
    for img, anns in iter_images(coco):
        lines = (tmp_path / "labels" / f"{img['file_name'][7:-4]}.txt").read_text().splitlines()
        assert len(lines) == len(anns)
        for line, ann in zip(lines, anns, strict=True):
            assert len(line.split()) == 5 + 12
            got = parse_yolo_line(line, img["width"], img["height"])
            assert got["code"] == ann["code"]
            assert np.allclose(got["bbox"], ann["bbox"], atol=1e-3)


def test_yolo_line_normalises_to_the_image() -> None:
    line = yolo_line({"code": "1m", "bbox": [0, 0, 50, 100]}, 100, 200)
    assert line == "0 0.250000 0.250000 0.500000 0.500000"
