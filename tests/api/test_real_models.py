"""The real recognizer behind the API, when vision/weights/*.onnx exist: the bundled sample, and a
tile set taught from a rendered enrollment photo."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from datasets.scene import render_scene
from tests.api.fakes import SAMPLE_PHOTO, SAMPLE_TRUTH
from vision.registry import optional

HAVE_MODELS = all(optional(name) for name in ("detector", "classifier"))

pytestmark = pytest.mark.skipif(
    not HAVE_MODELS, reason="no vision/weights/detector.onnx, classifier.onnx"
)


def _iou(a: list[float], b: list[float]) -> float:
    x1, y1 = max(a[0], b[0]), max(a[1], b[1])
    x2, y2 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x2 - x1) * max(0.0, y2 - y1)
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / area if area > 0 else 0.0


def _truth_boxes() -> list[tuple[str, list[float]]]:
    out = []
    for tile in SAMPLE_TRUTH["tiles"]:
        x, y, w, h = tile["bbox"]
        out.append((tile["code"], [x, y, x + w, y + h]))
    return out


def test_real_recognizer_reads_the_sample() -> None:
    photo = SAMPLE_PHOTO.read_bytes()
    hand: dict[str, Any] = SAMPLE_TRUTH["hand"]
    context = {
        "seat_wind": hand["seat_wind"],
        "prevalent_wind": hand["prevalent_wind"],
        "self_drawn": "true" if hand["self_drawn"] else "false",
    }
    app = create_app()
    with TestClient(app) as client:
        assert app.state.host.wait_ready(180), app.state.host.error
        assert client.get("/readyz").status_code == 200
        response = client.post("/v1/recognize", files={"photo": ("s.jpg", photo)}, data=context)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["sha256"] == hashlib.sha256(photo).hexdigest()
    assert {"detect", "classify", "api_total"} <= set(body["timings_ms"])
    assert all("sha256" in card for card in body["models"].values())
    boxes = [t["box"] for t in body["tiles"]]
    found = sum(any(_iou(box, truth) > 0.5 for box in boxes) for _, truth in _truth_boxes())
    right = sum(
        any(_iou(t["box"], truth) > 0.5 and t["code"] == code for t in body["tiles"])
        for code, truth in _truth_boxes()
    )
    print(f"sample: {found}/{len(boxes)} boxes found, {right} read right; hand {body['hand']}")
    assert found >= 0.8 * len(SAMPLE_TRUTH["tiles"])
    if body["hand"] is not None:
        assert body["score"] is not None


def _rendered(kind: str, seed: int, face_seed: int) -> bytes:
    scene = render_scene(
        np.random.default_rng(seed), ("procedural",), kind, 1024, face_seed=face_seed
    )
    ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return encoded.tobytes()


def test_real_recognizer_enrolls_a_set_and_reads_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One rendered enrollment photo teaches a set; a declared win of the same physical set
    (the same face seed) is then read with it."""
    monkeypatch.setenv("MJLENS_HOME", str(tmp_path))
    enrollment = _rendered("enrollment", seed=1, face_seed=11)
    win = _rendered("declared_win", seed=5, face_seed=11)
    app = create_app()
    with TestClient(app) as client:
        assert app.state.host.wait_ready(180), app.state.host.error
        taught = client.post(
            "/v1/sets",
            data={"name": "rendered"},
            files={"photo": ("enroll.jpg", enrollment, "image/jpeg")},
        )
        assert taught.status_code == 201, taught.text
        listed = client.get("/v1/sets").json()["sets"]
        read = client.post(
            "/v1/recognize", files={"photo": ("win.jpg", win)}, data={"set": "rendered"}
        )
        plain = client.post("/v1/recognize", files={"photo": ("win.jpg", win)})
    report = taught.json()
    assert report["set"] == "rendered" and report["faces"] >= 34, report
    assert (tmp_path / "sets" / "rendered.mjset").is_file()
    assert [s["name"] for s in listed] == ["rendered"]
    assert read.status_code == 200, read.text
    assert read.json()["set"] == "rendered" and plain.json()["set"] is None
    assert len(read.json()["tiles"]) == len(plain.json()["tiles"])
