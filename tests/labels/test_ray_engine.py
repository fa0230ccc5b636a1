"""`mjlens label --engine ray`: the same batch on Ray Data in local mode (Ray on this machine),
the same labels as the local engine, a bad photo counted. Runs where the `ray` extra is
installed (pip install -e '.[ray]')."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import main
from tests.api.test_real_models import HAVE_MODELS

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install -e '.[ray]'")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not HAVE_MODELS, reason="no shipped models"),
]


def test_ray_labels_as_the_local_engine_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = tmp_path / "photos"
    (photos / "b").mkdir(parents=True)
    sample = (Path(__file__).parents[2] / "api" / "static" / "sample.jpg").read_bytes()
    (photos / "a.jpg").write_bytes(sample)
    (photos / "b" / "c.jpg").write_bytes(sample)
    (photos / "b" / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n cut short")
    try:
        code = main(
            ["label", str(photos), "--out", str(tmp_path / "ray"), "--engine", "ray",
             "--workers", "2", "--json"]
        )  # fmt: skip
    finally:
        ray.shutdown()
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and (report["labelled"], report["failed"]) == (2, 1)
    assert report["failures"][0]["photo"] == "b/broken.png"
    assert main(["label", str(photos), "--out", str(tmp_path / "local"), "--json"]) == 0
    capsys.readouterr()

    def read(folder: str) -> object:
        coco = json.loads((tmp_path / folder / "annotations.coco.json").read_text())
        return coco["images"], coco["annotations"]

    assert read("ray") == read("local")
