"""Each format's round trip: what `mjlens label` writes reads back as the same boxes and
codes (COCO, YOLO, a Label Studio export of its tasks), and paths never leave their folder."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from datasets import labelstudio
from datasets.coco import CLASS_LIST, load_coco
from datasets.yolo import parse_yolo_line
from labels.imports import LabelFileError, import_labels, read_label_file
from labels.paths import UnsafePath, inside
from labels.record import PhotoLabels, photo_labels
from labels.writers import Format, parse_formats, tasks_of, write_all
from scoring.tiles import CLASSES
from tests.labels.fakes import FakeRecognizer, tiles_for, write_photo


def _labels(folder: Path) -> list[PhotoLabels]:
    fake = FakeRecognizer()
    out = []
    for rel, seed, size in (("a.jpg", 1, (200, 100)), ("sub/b.png", 2, (120, 160))):
        read = fake.recognize(write_photo(folder / rel, seed, size))
        out.append(photo_labels(rel, size[0], size[1], read.to_json()))
    return out


def _boxes(coco: dict) -> dict[str, list[tuple[str, list[float]]]]:
    names = {img["id"]: img["file_name"].removeprefix("images/") for img in coco["images"]}
    out: dict[str, list[tuple[str, list[float]]]] = {n: [] for n in names.values()}
    for ann in coco["annotations"]:
        box = [round(v, 2) for v in ann["bbox"]]
        out[names[ann["image_id"]]].append((CLASSES[ann["category_id"] - 1], box))
    return {k: sorted(v) for k, v in out.items()}


def test_a_recognition_becomes_labels_with_every_field() -> None:
    labels = photo_labels(
        "a.jpg",
        200,
        100,
        FakeRecognizer()
        .recognize(Path(__file__).parents[2] / "api" / "static" / "sample.jpg")
        .to_json(),
    )
    first, second = labels.tiles
    assert first.code == "5p" and first.top_k[0].code == "5p" and first.top_k[1].code == "6p"
    assert first.score == pytest.approx(0.95 * 0.9, abs=1e-4)
    assert first.meld_id is None and second.meld_id == 0 and second.sideways
    assert labels.review and labels.model_version.startswith("mjlens:classifier=cccccccc")
    assert PhotoLabels.from_json(json.loads(json.dumps(labels.to_json()))) == labels


def test_coco_master_round_trips_through_import(tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    labels = _labels(photos)
    write_all(labels, photos, tmp_path / "out", [Format.COCO])
    master = load_coco(tmp_path / "out" / "annotations.coco.json")
    assert master["info"]["class_list"] == CLASS_LIST
    assert [a["score"] for a in master["annotations"]] == [0.855, 0.72, 0.855, 0.72]
    assert master["annotations"][1]["meld_id"] == 0 and master["annotations"][1]["sideways"]
    summary = import_labels([tmp_path / "out" / "annotations.coco.json"], tmp_path / "train")
    assert summary.photos == 2 and summary.tiles == 4
    train = json.loads((tmp_path / "train" / "annotations.coco.json").read_text())
    assert _boxes(train) == _boxes(master)
    assert (tmp_path / "train" / "images" / "sub" / "b.png").read_bytes() == (
        photos / "sub" / "b.png"
    ).read_bytes()
    sideways = [a["sideways"] for a in train["annotations"]]
    assert sideways == [False, True, False, True]


def test_yolo_lines_give_back_the_boxes(tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    labels = _labels(photos)
    write_all(labels, photos, tmp_path / "out", [Format.YOLO])
    yolo = tmp_path / "out" / "yolo"
    assert "nc: 43" in (yolo / "data.yaml").read_text()
    for photo in labels:
        lines = (yolo / "labels" / Path(photo.photo).with_suffix(".txt")).read_text().splitlines()
        back = [parse_yolo_line(line, photo.width, photo.height) for line in lines]
        assert [b["code"] for b in back] == [t.code for t in photo.tiles]
        for b, t in zip(back, photo.tiles, strict=True):
            assert b["bbox"] == pytest.approx(list(t.box), abs=1e-3)
        assert (yolo / "images" / photo.photo).read_bytes() == (photos / photo.photo).read_bytes()


def test_labelstudio_tasks_exported_back_give_the_same_labels(tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    labels = _labels(photos)
    write_all(labels, photos, tmp_path / "out", [Format.COCO, Format.LABELSTUDIO])
    tasks = json.loads((tmp_path / "out" / "labelstudio" / "tasks.json").read_text())
    region = tasks[0]["predictions"][0]["result"][0]
    assert region["type"] == "rectanglelabels" and region["value"]["rectanglelabels"] == ["5p"]
    assert region["value"]["x"] == pytest.approx(10.0) and region["score"] == 0.855
    assert tasks[0]["data"]["image"] == "/data/local-files/?d=a.jpg"
    # What Label Studio exports once a person accepted each pre-annotation as it was.
    export = [
        {"id": k, "data": t["data"], "annotations": [{"result": t["predictions"][0]["result"]}]}
        for k, t in enumerate(tasks)
    ]
    (tmp_path / "export.json").write_text(json.dumps(export))
    import_labels([tmp_path / "export.json"], tmp_path / "train", images=photos)
    train = json.loads((tmp_path / "train" / "annotations.coco.json").read_text())
    master = json.loads((tmp_path / "out" / "annotations.coco.json").read_text())
    assert _boxes(train) == _boxes(master)


def test_the_config_names_the_class_list_and_the_tool_the_tasks_use() -> None:
    root = ET.fromstring(labelstudio.config_xml())
    tool = next(root.iter("RectangleLabels"))
    assert [e.get("value") for e in tool.iter("Label")] == list(CLASSES)
    assert tool.get("name") == labelstudio.TOOL and tool.get("toName") == labelstudio.IMAGE
    assert CLASS_LIST in labelstudio.config_xml()


def test_the_latest_kept_annotation_is_the_one_read(tmp_path: Path) -> None:
    box = labelstudio.region("1m", (10, 10, 20, 30), 100, 100)
    later = labelstudio.region("2m", (10, 10, 20, 30), 100, 100)
    export = [
        {
            "data": {"image": "/data/upload/3/0a1b2c3d-table.jpg"},
            "annotations": [
                {"result": [box], "updated_at": "2026-01-01T00:00:00Z"},
                {"result": [later], "updated_at": "2026-01-02T00:00:00Z"},
                {"result": [], "updated_at": "2026-01-03T00:00:00Z", "was_cancelled": True},
            ],
        },
        {"data": {"image": "/data/upload/3/x.jpg"}, "annotations": []},
    ]
    write_photo(tmp_path / "table.jpg", 3, (100, 100))
    (tmp_path / "export.json").write_text(json.dumps(export))
    photos = read_label_file(tmp_path / "export.json", tmp_path)
    assert [(p.rel, [t.code for t in p.tiles]) for p in photos] == [("table.jpg", ["2m"])]


@pytest.mark.parametrize(
    ("name", "field", "value", "message"),
    [
        ("coco", "file_name", "../outside.jpg", "not a path inside"),
        ("coco", "file_name", "/etc/hostname", "not a path inside"),
        ("labelstudio", "photo", "../../outside.jpg", "not a path inside"),
        ("labelstudio", "photo", "/etc/hostname", "not a path inside"),
        ("labelstudio", "image", "/data/local-files/?d=../outside.jpg", "not a path inside"),
    ],
)
def test_paths_that_leave_their_folder_are_refused_and_nothing_is_written(
    tmp_path: Path, name: str, field: str, value: str, message: str
) -> None:
    photos = tmp_path / "photos"
    write_photo(tmp_path / "outside.jpg", 4)
    write_photo(photos / "a.jpg", 5)
    box = {"code": "1m", "box": [1, 1, 5, 5]}
    if name == "coco":
        data: object = {
            "images": [{"id": 1, "file_name": value, "width": 160, "height": 120}],
            "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": box["box"]}],
            "categories": [{"id": 1, "name": "1m"}],
        }
    else:
        region = labelstudio.region("1m", (1, 1, 5, 5), 160, 120)
        task_data = {"image": "/data/local-files/?d=a.jpg", "photo": "a.jpg"}
        if field == "image":
            task_data = {"image": value}
        else:
            task_data[field] = value
        data = [{"data": task_data, "annotations": [{"result": [region]}]}]
    (tmp_path / "labels.json").write_text(json.dumps(data))
    with pytest.raises(LabelFileError, match=message):
        import_labels([tmp_path / "labels.json"], tmp_path / "train", images=photos)
    assert not (tmp_path / "train").exists()


@pytest.mark.parametrize("bad", ["", ".", "..", "a/../../b", "/abs", "C:\\x"])
def test_inside_refuses_whatever_is_not_a_plain_relative_path(tmp_path: Path, bad: str) -> None:
    with pytest.raises(UnsafePath):
        inside(tmp_path, bad)
    assert inside(tmp_path, "sub/a.jpg") == tmp_path / "sub" / "a.jpg"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not a JSON file"),
        ('{"a": 1}', "neither a COCO file nor a Label Studio"),
        (
            '[{"data": {"image": "x.jpg"}, "annotations": [{"result": [{"type": '
            '"rectanglelabels", "value": {"x": 1, "y": 1, "width": 2, "height": 2, '
            '"rectanglelabels": ["dragon"]}, "original_width": 10, "original_height": 10}]}]}]',
            "'dragon' is not a tile code",
        ),
    ],
)
def test_label_files_that_cannot_be_read_say_why(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "f.json").write_text(text)
    with pytest.raises(LabelFileError, match=message):
        read_label_file(tmp_path / "f.json", tmp_path)


def test_formats_are_parsed_by_name() -> None:
    assert parse_formats("coco, YOLO,coco") == [Format.COCO, Format.YOLO]
    with pytest.raises(ValueError, match="unknown format 'cvat'"):
        parse_formats("coco,cvat")


def test_tasks_quote_the_photo_path_in_the_url() -> None:
    labels = photo_labels("night 1/a#1.jpg", 100, 100, {"tiles": tiles_for(100, 100)})
    assert tasks_of([labels])[0]["data"]["image"] == "/data/local-files/?d=night%201/a%231.jpg"


def test_an_export_beside_its_photos_needs_no_images_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    photos = tmp_path / "photos"
    write_photo(photos / "night" / "a.jpg", 6, (100, 100))
    region = labelstudio.region("C", (10, 10, 20, 30), 100, 100)
    export = [
        {"data": {"image": "x", "photo": "night/a.jpg"}, "annotations": [{"result": [region]}]}
    ]
    (photos / "export.json").write_text(json.dumps(export))
    monkeypatch.chdir(tmp_path)
    summary = import_labels([photos / "export.json"], tmp_path / "train")
    assert summary.photos == 1 and (tmp_path / "train" / "images" / "night" / "a.jpg").is_file()
