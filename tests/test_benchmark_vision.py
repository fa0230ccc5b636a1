"""The vision benchmark's helpers: crops padded for the peer, themes' faces; accuracy alone."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import benchmarks.vision as bench
from benchmarks.vision import PEER_TABLE, pad_for_peer


def test_pad_for_peer_centres_each_crop_on_a_table_three_times_its_size(tmp_path: Path) -> None:
    """The peer, a photo detector, found no tile on any bare camerash crop."""
    crop = np.full((40, 30, 3), 200, np.uint8)
    cv2.imwrite(str(tmp_path / "a.png"), crop)
    padded = pad_for_peer([(tmp_path / "a.png", "1m")], tmp_path / "out")
    ((target, source),) = padded.items()
    assert source == str(tmp_path / "a.png")
    image = cv2.imread(target)
    assert image.shape == (120, 120, 3)
    assert np.abs(image[60, 60].astype(int) - 200).max() < 8  # the crop, JPEG-rounded
    assert np.abs(image[5, 5].astype(int) - PEER_TABLE).max() < 8


def test_themes_count_only_faces_named_by_code(tmp_path) -> None:
    from benchmarks.themes import theme_faces

    for name in ("1m.png", "P.png", "_strip.png", "notes.png"):
        (tmp_path / name).write_bytes(b"")
    assert [p.name for p in theme_faces(tmp_path)] == ["1m.png", "P.png"]


def test_speed_photos_0_measures_accuracy_and_times_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_timing(*args: object, **kwargs: object) -> None:
        raise AssertionError("nothing is timed with --speed-photos 0")

    monkeypatch.setattr(bench, "Detector", lambda path: "detector")
    monkeypatch.setattr(bench, "Classifier", lambda *a, **k: "classifier")
    monkeypatch.setattr(bench.speed, "make_photos", no_timing)
    monkeypatch.setattr(bench.speed, "measure", no_timing)
    monkeypatch.setattr(bench, "synthetic_eval", lambda *a: {"ours": {"photos": 0}})
    (tmp_path / "annotations.coco.json").write_text('{"images": [], "annotations": []}')
    out = tmp_path / "r.json"
    argv = ["--synthetic", str(tmp_path), "--speed-photos", "0", "--out", str(out)]
    assert bench.main(argv) == 0
    assert json.loads(out.read_text()) == {"synthetic": {"ours": {"photos": 0}}}


def test_camerash_draws_a_confusion_matrix_only_where_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run measuring a candidate classifier redrew the docs' figure by default."""
    asked: list[object] = []
    monkeypatch.setattr(bench, "Detector", lambda path: "detector")
    monkeypatch.setattr(bench, "Classifier", lambda *a, **k: "classifier")
    monkeypatch.setattr(bench, "camerash_eval", lambda c, root, png, peer: asked.append(png) or {})
    argv = ["--camerash", str(tmp_path), "--speed-photos", "0"]
    assert bench.main(argv) == 0
    assert bench.main([*argv, "--confusion", str(tmp_path / "c.png")]) == 0
    assert asked == [None, tmp_path / "c.png"]
