"""The vision benchmark's matching: box IoU pairs and face-centre pairs, one to one."""

from pathlib import Path

import cv2
import numpy as np

from benchmarks.vision import PEER_TABLE, match, match_faces, pad_for_peer


def test_match_pairs_boxes_one_to_one() -> None:
    truth = np.array([[0, 0, 10, 10], [20, 0, 30, 10]], np.float32)
    pred = np.array([[21, 0, 31, 10], [1, 0, 11, 10], [0, 0, 10, 10]], np.float32)
    assert sorted(match(pred, truth)) == [(0, 1), (2, 0)]


def test_match_faces_takes_the_most_confident_detection_on_each_face() -> None:
    faces = np.array([[[0, 0], [10, 0], [10, 14], [0, 14]], [[20, 0], [30, 0], [30, 14], [20, 14]]])
    centres = np.array([[5, 7], [4, 6], [50, 50], [25, 3]], np.float32)
    confidence = np.array([0.5, 0.9, 0.99, 0.4], np.float32)
    assert sorted(match_faces(centres, confidence, faces.astype(np.float32))) == [(1, 0), (3, 1)]


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
