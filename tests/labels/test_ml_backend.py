"""The Label Studio ML backend under /labelstudio/: health, setup and predict as Label Studio
calls them, the photo inline or fetched from the Label Studio server named by
LABEL_STUDIO_URL (with its key), no other host ever fetched, bad requests as problems."""

from __future__ import annotations

import base64
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from datasets import labelstudio
from tests.api.conftest import TEST_LIMITS
from tests.api.fakes import SAMPLE_PHOTO, SAMPLE_TRUTH, ReplayRecognizer

PHOTO = SAMPLE_PHOTO.read_bytes()
DATA_URI = "data:image/jpeg;base64," + base64.b64encode(PHOTO).decode()
LIMITS = type(TEST_LIMITS)(photo_bytes=1024 * 1024, queue_wait_s=5.0)


@pytest.fixture(scope="module")
def ls_client() -> Iterator[TestClient]:
    app = create_app(recognizer_factory=ReplayRecognizer, limits=LIMITS)
    with TestClient(app) as test_client:
        assert app.state.host.wait_ready(10), app.state.host.error
        yield test_client


def _predict(client: TestClient, *images: str, config: str | None = None) -> Any:
    tasks = [{"id": k + 1, "data": {"image": image}} for k, image in enumerate(images)]
    body = {"tasks": tasks, "label_config": config or labelstudio.config_xml(), "project": "1.1"}
    return client.post("/labelstudio/predict", json=body)


def test_health_and_setup_answer_as_label_studio_expects(ls_client: TestClient) -> None:
    health = ls_client.get("/labelstudio/health")
    assert health.status_code == 200 and health.json()["status"] == "UP"
    setup = ls_client.post(
        "/labelstudio/setup",
        json={"project": "1.1", "schema": labelstudio.config_xml(), "access_token": "t"},
    )
    assert setup.status_code == 200 and setup.json()["model_version"].startswith("mjlens")


def test_predict_returns_the_tiles_as_boxes_in_percent(ls_client: TestClient) -> None:
    answer = _predict(ls_client, DATA_URI)
    assert answer.status_code == 200, answer.text
    (prediction,) = answer.json()["results"]
    regions = prediction["result"]
    assert sorted(r["value"]["rectanglelabels"][0] for r in regions) == sorted(
        t["code"] for t in SAMPLE_TRUTH["tiles"]
    )
    first = regions[0]
    assert first["from_name"] == "tile" and first["to_name"] == "image"
    x = SAMPLE_TRUTH["tiles"][0]["bbox"][0]
    assert first["value"]["x"] == pytest.approx(100 * x / first["original_width"], abs=0.05)
    assert 0 < prediction["score"] <= 1 and prediction["model_version"].startswith("mjlens")


def test_a_project_config_with_its_own_names_is_answered_in_them(ls_client: TestClient) -> None:
    config = (
        '<View><Image name="photo" value="$img"/>'
        '<RectangleLabels name="box" toName="photo"><Label value="5P"/><Label value="E"/>'
        "</RectangleLabels></View>"
    )
    tasks = [{"id": 1, "data": {"img": DATA_URI}}]
    answer = ls_client.post("/labelstudio/predict", json={"tasks": tasks, "label_config": config})
    regions = answer.json()["results"][0]["result"]
    assert regions and {r["from_name"] for r in regions} == {"box"}
    assert {r["value"]["rectanglelabels"][0] for r in regions} <= {"5p", "E"}


class _LabelStudio(http.server.BaseHTTPRequestHandler):
    """A Label Studio server's upload folder, behind its token."""

    seen: ClassVar[list[str | None]] = []

    def do_GET(self) -> None:
        self.seen.append(self.headers.get("Authorization"))
        if self.path != "/data/upload/1/abcd1234-win.jpg":
            self.send_error(404)
            return
        if self.headers.get("Authorization") != "Token secret":
            self.send_error(401)
            return
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.end_headers()
        self.wfile.write(PHOTO)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def label_studio(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _LabelStudio)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}"
    monkeypatch.setenv("LABEL_STUDIO_URL", url)
    monkeypatch.setenv("LABEL_STUDIO_API_KEY", "secret")
    _LabelStudio.seen.clear()
    yield url
    server.shutdown()


def test_a_photo_on_label_studio_is_fetched_with_its_key(
    ls_client: TestClient, label_studio: str
) -> None:
    answer = _predict(ls_client, "/data/upload/1/abcd1234-win.jpg")
    assert answer.status_code == 200, answer.text
    assert len(answer.json()["results"][0]["result"]) == len(SAMPLE_TRUTH["tiles"])
    assert _LabelStudio.seen == ["Token secret"]
    assert _predict(ls_client, f"{label_studio}/data/upload/1/abcd1234-win.jpg").status_code == 200


@pytest.mark.parametrize(
    "image",
    [
        "http://169.254.169.254/latest/meta-data/",
        "//example.invalid/x.jpg",
        "file:///etc/passwd",
    ],
)
def test_no_host_but_label_studio_is_ever_fetched(
    ls_client: TestClient, label_studio: str, image: str
) -> None:
    answer = _predict(ls_client, image)
    assert answer.status_code == 422
    assert "not on LABEL_STUDIO_URL" in answer.json()["detail"]
    assert _LabelStudio.seen == []


def test_one_bad_task_of_several_gets_an_empty_prediction(ls_client: TestClient) -> None:
    answer = _predict(ls_client, DATA_URI, "data:image/jpeg;base64,bm90IGEgcGhvdG8=")
    assert answer.status_code == 200
    first, second = answer.json()["results"]
    assert first["result"] and second["result"] == []


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"tasks": []}, 422, "non-empty list"),
        ({"tasks": [{"data": {"image": "/data/upload/1/x.jpg"}}]}, 422, "LABEL_STUDIO_URL"),
        ({"tasks": [{"data": {"image": "data:image/jpeg;base64,%%%"}}]}, 422, "not valid base64"),
        ({"tasks": [{"data": {"image": "data:image/jpeg;base64,bm90"}}]}, 415, "not a JPEG"),
        ({"tasks": [{"data": {}}]}, 422, "no image in data.image"),
        ({"tasks": [{"data": {"image": DATA_URI}}], "label_config": "<View>"}, 422, "not XML"),
        (
            {"tasks": [{"data": {"image": DATA_URI}}], "label_config": "<View/>"},
            422,
            "no <RectangleLabels>",
        ),
    ],
)
def test_bad_requests_are_problems_that_say_why(
    ls_client: TestClient, monkeypatch: pytest.MonkeyPatch, body: Any, status: int, words: str
) -> None:
    monkeypatch.delenv("LABEL_STUDIO_URL", raising=False)
    answer = ls_client.post("/labelstudio/predict", json=body)
    assert answer.status_code in (status, 422), answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert words in answer.json()["detail"]


def test_not_json_is_a_400(ls_client: TestClient) -> None:
    answer = ls_client.post(
        "/labelstudio/predict", content=b"{", headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 400
    assert answer.headers["content-type"].startswith("application/problem+json")


def test_health_before_the_models_load_is_a_503(tmp_path: Path) -> None:
    from tests.api.fakes import missing_models

    app = create_app(recognizer_factory=missing_models, limits=LIMITS)
    with TestClient(app) as client:
        app.state.host.wait_ready(5)
        assert client.get("/labelstudio/health").status_code == 503
