"""The detector's training inputs: scenes turned by any angle, corner spellings, export."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from training.detector_net import TileDetector  # noqa: E402
from training.detector_targets import canonical_corners  # noqa: E402
from training.train_detector import augment_scene, body_boxes, export_onnx, respell_corners  # noqa: E402
from vision import corner_code  # noqa: E402
from vision.detect import Detector  # noqa: E402


def _scene(tmp_path: Path) -> tuple[Path, np.ndarray, np.ndarray, np.ndarray]:
    """Three white faces, each with a grey body showing below it, on a dark table."""
    image = np.full((480, 640, 3), 30, np.uint8)
    boxes, quads = [], []
    for k, (x, y) in enumerate([(100, 100), (300, 180), (480, 300)]):
        cv2.rectangle(image, (x, y), (x + 60, y + 95), (120, 120, 120), -1)  # body
        cv2.rectangle(image, (x, y), (x + 60, y + 80), (255, 255, 255), -1)  # face
        cv2.circle(image, (x + 30, y + 20 + 10 * k), 6, (0, 0, 200), -1)
        boxes.append([x, y, x + 61, y + 96])
        quads.append(canonical_corners([[x, y], [x + 60, y], [x + 60, y + 80], [x, y + 80]]))
    path = tmp_path / "scene.jpg"
    cv2.imwrite(str(path), image)
    return path, np.array(boxes, np.float32), np.array(quads, np.float32), np.zeros(3, bool)


def test_body_boxes_sweep_the_face_by_the_thickness_its_box_shows() -> None:
    face = np.array([[[0, 0], [60, 0], [60, 80], [0, 80]]], np.float32)
    body = body_boxes(face, np.array([[0, 0, 60, 95]], np.float32))[0]
    assert body.min(axis=0).tolist() == [0, 0]
    assert body.max(axis=0).tolist() == [60, 95]


def test_a_turned_scene_keeps_each_face_on_its_pixels_and_inside_its_box(
    tmp_path: Path,
) -> None:
    record = _scene(tmp_path)
    rng = np.random.default_rng(4)
    for _ in range(6):
        image, boxes, quads, _down = augment_scene(record, 384, rng, rotate_share=1.0)
        assert len(quads)
        grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
        for box, quad in zip(boxes, quads, strict=True):
            inner = quad.mean(axis=0) + 0.6 * (quad - quad.mean(axis=0))
            for x, y in inner:
                if 0 <= x < 384 and 0 <= y < 384:
                    assert grey[int(y), int(x)] > 150  # the face's white, not table or body
            assert (quad >= box[:2] - 2).all() and (quad <= box[2:] + 2).all()


def test_a_canonical_head_respelt_gives_each_diagonals_midpoint() -> None:
    torch.manual_seed(0)
    net = TileDetector().eval()
    x = torch.rand(1, 3, 64, 64)
    with torch.no_grad():
        old = net(x)[1][0, 4:, 3, 3].numpy().reshape(4, 2)
        respell_corners(net, corner_code.DIAGONALS)
        new = net(x)[1][0, 4:, 3, 3].numpy()
    np.testing.assert_allclose(new[0:2], (old[0] + old[2]) / 2, atol=1e-5)
    np.testing.assert_allclose(new[4:6], (old[1] + old[3]) / 2, atol=1e-5)


def test_the_exported_graph_tells_the_detector_its_corner_spelling(tmp_path: Path) -> None:
    export_onnx(TileDetector(), tmp_path / "d.onnx", corner_code.DIAGONALS)
    assert Detector(tmp_path / "d.onnx").corner_code == corner_code.DIAGONALS
    export_onnx(TileDetector(), tmp_path / "c.onnx")
    assert Detector(tmp_path / "c.onnx").corner_code == corner_code.CANONICAL
