"""`mjlens label` on folders: recursive, a malformed photo counted and the rest labelled, a
stopped run resumed to the same files, a changed photo read again, an empty folder, the
output folder inside the photos' folder, and bad arguments as one line."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.cli import main
from labels.batch import (
    Labeler,
    LabelerSettings,
    Outcome,
    Photo,
    find_photos,
    local_engine,
    run_batch,
)
from tests.labels.fakes import FakeRecognizer, write_photo

OUTPUTS = (
    "annotations.coco.json",
    "yolo/data.yaml",
    "labelstudio/tasks.json",
    "labelstudio/config.xml",
)


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> FakeRecognizer:
    """The command's recognizer: one fake, counting the photos it reads."""
    recognizer = FakeRecognizer()
    monkeypatch.setattr("vision.pipeline.Recognizer", lambda *args, **kw: recognizer)
    return recognizer


def _folder(root: Path) -> Path:
    write_photo(root / "a.jpg", 1)
    write_photo(root / "night" / "b.png", 2)
    write_photo(root / "night" / "late" / "c.webp", 3)
    write_photo(root / "d.JPG", 4)
    (root / "notes.txt").write_text("not a photo")
    return root


def _label(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    code = main(["label", *args, "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else None, err


def _snapshot(out: Path) -> dict[str, bytes]:
    """The outputs' bytes; data.yaml names its own folder, which is left out."""
    files = [out / name for name in OUTPUTS] + sorted((out / "yolo" / "labels").rglob("*.txt"))
    return {
        str(p.relative_to(out)): p.read_bytes().replace(str(out).encode(), b"OUT") for p in files
    }


def test_a_folder_is_labelled_recursively_in_every_format(
    tmp_path: Path, fake: FakeRecognizer, capsys: pytest.CaptureFixture[str]
) -> None:
    photos, out = _folder(tmp_path / "photos"), tmp_path / "out"
    code, report, _ = _label(capsys, str(photos), "--out", str(out))
    assert code == 0
    assert (report["photos"], report["labelled"], report["failed"], report["tiles"]) == (4, 4, 0, 8)
    coco = json.loads((out / "annotations.coco.json").read_text())
    assert [i["file_name"] for i in coco["images"]] == [
        "a.jpg",
        "d.JPG",
        "night/b.png",
        "night/late/c.webp",
    ]
    assert all(i["review"] for i in coco["images"])
    assert (out / "yolo" / "labels" / "night" / "late" / "c.txt").is_file()
    assert (out / "yolo" / "images" / "night" / "b.png").read_bytes() == (
        photos / "night" / "b.png"
    ).read_bytes()
    assert len(json.loads((out / "labelstudio" / "tasks.json").read_text())) == 4
    assert json.loads((out / "summary.json").read_text())["labelled"] == 4


def test_a_malformed_photo_is_counted_and_the_batch_goes_on(
    tmp_path: Path, fake: FakeRecognizer, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = _folder(tmp_path / "photos")
    (photos / "night" / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    (photos / "empty.png").write_bytes(b"")
    code, report, err = _label(capsys, str(photos), "--out", str(tmp_path / "out"))
    assert code == 0
    assert (report["labelled"], report["failed"]) == (4, 2)
    assert sorted(f["photo"] for f in report["failures"]) == ["empty.png", "night/broken.jpg"]
    assert "skipped night/broken.jpg:" in err and "Traceback" not in err
    coco = json.loads((tmp_path / "out" / "annotations.coco.json").read_text())
    assert len(coco["images"]) == 4
    # The next run tries the bad photos again, and only them.
    fake.read.clear()
    code, report, _ = _label(capsys, str(photos), "--out", str(tmp_path / "out"))
    assert (report["skipped_as_done"], report["failed"], fake.read) == (4, 2, [])


def test_a_stopped_run_resumes_and_ends_with_the_same_files(
    tmp_path: Path, fake: FakeRecognizer, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = _folder(tmp_path / "photos")
    whole = tmp_path / "whole"
    assert _label(capsys, str(photos), "--out", str(whole))[0] == 0

    stopped = tmp_path / "stopped"
    labeler = Labeler(LabelerSettings(), FakeRecognizer())

    def stops_after_two(root: Path, todo: list[Photo]) -> Iterator[Outcome]:
        for k, photo in enumerate(todo):
            if k == 2:
                raise KeyboardInterrupt
            yield labeler(root, photo)

    with pytest.raises(KeyboardInterrupt):
        run_batch(photos, stopped, stops_after_two)
    # A line cut short as the process died: that photo is read again.
    with (stopped / "labels.jsonl").open("a") as f:
        f.write('{"photo": "night/b.png", "size": 1')
    fake.read.clear()
    code, report, _ = _label(capsys, str(photos), "--out", str(stopped))
    assert code == 0 and report["skipped_as_done"] == 2 and report["labelled"] == 2
    assert sorted(fake.read) == ["b.png", "c.webp"]
    assert _snapshot(stopped) == _snapshot(whole)
    # Labelling again changes nothing and reads nothing.
    fake.read.clear()
    before = _snapshot(stopped)
    assert _label(capsys, str(photos), "--out", str(stopped))[1]["labelled"] == 0
    assert fake.read == [] and _snapshot(stopped) == before


def test_a_changed_photo_is_read_again_and_a_removed_one_dropped(
    tmp_path: Path, fake: FakeRecognizer, capsys: pytest.CaptureFixture[str]
) -> None:
    photos, out = _folder(tmp_path / "photos"), tmp_path / "out"
    _label(capsys, str(photos), "--out", str(out))
    write_photo(photos / "a.jpg", 9, (320, 200))
    os.utime(photos / "a.jpg", ns=(1, 1))
    (photos / "d.JPG").unlink()
    fake.read.clear()
    _, report, _ = _label(capsys, str(photos), "--out", str(out))
    assert fake.read == ["a.jpg"] and report["photos"] == 3
    coco = json.loads((out / "annotations.coco.json").read_text())
    assert (coco["images"][0]["file_name"], coco["images"][0]["width"]) == ("a.jpg", 320)
    assert "d.JPG" not in (out / "labels.jsonl").read_text()


def test_an_output_folder_inside_the_photos_is_not_labelled(
    tmp_path: Path, fake: FakeRecognizer, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = _folder(tmp_path / "photos")
    out = photos / "labels"
    _label(capsys, str(photos), "--out", str(out))
    _, report, _ = _label(capsys, str(photos), "--out", str(out))
    assert report["photos"] == 4  # not the YOLO links to them under labels/yolo/images
    assert [p.rel for p in find_photos(photos, skip=out)] == [
        "a.jpg",
        "d.JPG",
        "night/b.png",
        "night/late/c.webp",
    ]


def test_the_photos_folder_itself_as_output_labels_only_the_photos(
    tmp_path: Path, fake: FakeRecognizer, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = _folder(tmp_path / "photos")
    _label(capsys, str(photos), "--out", str(photos))
    _, report, _ = _label(capsys, str(photos), "--out", str(photos))
    assert (report["photos"], report["skipped_as_done"]) == (4, 4)


def test_a_folder_of_no_photos_gives_empty_files(
    tmp_path: Path, fake: FakeRecognizer, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "photos").mkdir()
    (tmp_path / "photos" / "readme.txt").write_text("no photos here")
    code, report, _ = _label(capsys, str(tmp_path / "photos"), "--out", str(tmp_path / "out"))
    assert code == 0 and report["photos"] == 0 and report["labelled"] == 0
    coco = json.loads((tmp_path / "out" / "annotations.coco.json").read_text())
    assert coco["images"] == [] and coco["annotations"] == [] and len(coco["categories"]) == 43
    assert json.loads((tmp_path / "out" / "labelstudio" / "tasks.json").read_text()) == []


def test_two_workers_label_the_same_as_one(tmp_path: Path) -> None:
    """Worker processes load their own models: the real ones, on two small photos."""
    from tests.api.test_real_models import HAVE_MODELS

    if not HAVE_MODELS:
        pytest.skip("no shipped models")
    photos = tmp_path / "photos"
    sample = Path(__file__).parents[2] / "api" / "static" / "sample.jpg"
    for name in ("x.jpg", "y.jpg"):
        (photos / name).parent.mkdir(parents=True, exist_ok=True)
        (photos / name).write_bytes(sample.read_bytes())
    one, _ = run_batch(photos, tmp_path / "one", local_engine(LabelerSettings(), 1))
    two, labels = run_batch(photos, tmp_path / "two", local_engine(LabelerSettings(), 2))
    assert one.labelled == two.labelled == 2 and one.tiles == two.tiles > 10
    assert labels[0].tiles == labels[1].tiles


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing-folder", "--out", "o"], "missing-folder: no such folder"),
        ([".", "--out", "o", "--format", "coco,cvat"], "unknown format 'cvat'"),
        ([".", "--out", "o", "--workers", "0"], "--workers must be at least 1"),
        ([".", "--out", "o", "--set", "nobody"], "no tile set named 'nobody'"),
        (
            [".", "--out", "o", "--workers", "2", "--detector", "no.onnx"],
            "detector model not found",
        ),
        ([".", "--out", "o", "--engine", "ray", "--classifier", "no.onnx"], "classifier model not"),
    ],
)
def test_bad_arguments_are_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MJLENS_HOME", str(tmp_path / "home"))
    code = main(["label", *args])
    err = capsys.readouterr().err
    assert code != 0 and message in err and len(err.strip().splitlines()) == 1


def test_import_labels_bad_input_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "x.json").write_text(
        '{"images": [{"id": 1, "file_name": "../up.jpg", '
        '"width": 9, "height": 9}], "annotations": [], '
        '"categories": [{"id": 1, "name": "1m"}]}'
    )
    for args, message in (
        ([str(tmp_path / "none.json")], "no such file"),
        ([str(tmp_path / "x.json")], "not a path inside"),
    ):
        code = main(["import-labels", *args, "--out", str(tmp_path / "train")])
        err = capsys.readouterr().err
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "train").exists()
