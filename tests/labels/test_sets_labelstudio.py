"""`mjlens sets add NAME --labelstudio FILE`: a set taught from a Label Studio export, as
from a COCO file (real models, a rendered win with its true boxes as the labels)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import main
from datasets import labelstudio
from tests.api.test_real_models import HAVE_MODELS
from tests.api.test_sets_cli import _render

pytestmark = pytest.mark.skipif(not HAVE_MODELS, reason="no shipped models")


def test_a_label_studio_export_teaches_a_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MJLENS_HOME", str(tmp_path / "home"))
    photos = tmp_path / "photos"
    photos.mkdir()
    win = _render(photos / "win.jpg", "declared_win", 12)
    height, width = win["size"][:2]
    regions = [
        labelstudio.region(a["code"], tuple(a["bbox"]), width, height)
        for a in win["annotations"]
        if not a.get("face_down")
    ]
    export = [
        {"id": 1, "data": {"image": "/data/upload/1/0a1b2c3d-win.jpg"},
         "annotations": [{"result": regions}]},
        {"id": 2, "data": {"image": "/data/upload/1/ffffffff-other.jpg"}, "annotations": []},
    ]  # fmt: skip
    (tmp_path / "export.json").write_text(json.dumps(export))
    code = main(
        ["sets", "--json", "add", "table", "--labelstudio", str(tmp_path / "export.json"),
         "--images", str(photos)]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    report = json.loads(out)
    assert report["looks_added"] == len(regions)
    assert report["labels_matched_to_a_tile"] >= len(regions) - 2


def test_an_export_whose_photo_is_missing_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MJLENS_HOME", str(tmp_path / "home"))
    region = labelstudio.region("1m", (1, 1, 5, 5), 100, 100)
    export = [{"data": {"image": "/data/upload/1/0a1b2c3d-gone.jpg"},
               "annotations": [{"result": [region]}]}]  # fmt: skip
    (tmp_path / "export.json").write_text(json.dumps(export))
    code = main(
        ["sets", "add", "table", "--labelstudio", str(tmp_path / "export.json"),
         "--images", str(tmp_path)]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "photo 'gone.jpg' not found" in err and len(err.splitlines()) == 1
