"""The clutter benchmark reads only tile-free tables and counts what comes back as tiles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import clutter


def test_it_renders_tile_free_tables_once_and_reuses_them(tmp_path: Path) -> None:
    data = tmp_path / "clutter"
    clutter.render(data, 2, seed=5)
    coco = json.loads((data / "annotations.coco.json").read_text(encoding="utf-8"))
    assert len(coco["images"]) == 2 and coco["annotations"] == []
    stamp = (data / "annotations.coco.json").stat().st_mtime_ns
    clutter.render(data, 2, seed=5)  # already there: not drawn again
    assert (data / "annotations.coco.json").stat().st_mtime_ns == stamp
    assert [p.name for p in clutter.photos(data, 2)] == [
        Path(img["file_name"]).name for img in coco["images"]
    ]


def test_a_folder_with_labelled_tiles_is_refused(tmp_path: Path) -> None:
    (tmp_path / "annotations.coco.json").write_text(
        json.dumps(
            {"images": [{"id": 1, "file_name": "images/a.jpg"}], "annotations": [{"id": 1}]}
        ),
        encoding="utf-8",
    )
    with pytest.raises(SystemExit, match="labelled tiles"):
        clutter.photos(tmp_path, 1)
