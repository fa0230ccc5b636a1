"""Taught tile sets over HTTP: each route's answers and failures, with the replaying stand-in.

The stand-in "finds" the standard enrollment layout in any photo (tests/api/fakes.py), in a
portrait photo with two rows swapped, so the real `api.teach` and `api.tilesets` run here;
what a set does to recognition is tested with the real models in test_real_models.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.limits import Limits
from tests.api.conftest import TEST_LIMITS
from tests.api.fakes import SAMPLE_PHOTO, ReplayRecognizer, missing_models
from vision.tileset import CROP_H, CROP_W, TileSet

PROBLEM = "application/problem+json"
SAMPLE = SAMPLE_PHOTO.read_bytes()


def _jpeg(width: int, height: int) -> bytes:
    """A small photo (a smooth gradient: a few KB as JPEG)."""
    ramp = np.linspace(0, 255, width * height, dtype=np.float32).reshape(height, width)
    image = np.stack([ramp, ramp[::-1], np.full_like(ramp, 90)], axis=2).astype(np.uint8)
    return cv2.imencode(".jpg", image)[1].tobytes()


ENROLL = _jpeg(640, 480)  # landscape: the stand-in reads the standard order in it
MISLAID = _jpeg(480, 640)  # portrait: rows 2 and 3 read the wrong way round
LABELS = [{"code": "5p", "bbox": [10, 20, 40, 52]}, {"code": "E", "bbox": [60, 20, 40, 52]}]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MJLENS_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture(scope="module")
def app_client() -> Iterator[tuple[TestClient, ReplayRecognizer]]:
    recognizer = ReplayRecognizer()
    app = create_app(recognizer_factory=lambda: recognizer, limits=TEST_LIMITS)
    with TestClient(app) as client:
        assert app.state.host.wait_ready(10), app.state.host.error
        yield client, recognizer


@pytest.fixture
def client(app_client: tuple[TestClient, ReplayRecognizer], home: Path) -> TestClient:
    return app_client[0]


def _enroll(client: TestClient, name: str = "demo", *photos: bytes, **data: str) -> Any:
    files = [
        ("photo", (f"enroll{k}.jpg", p, "image/jpeg")) for k, p in enumerate(photos or [ENROLL])
    ]
    return client.post("/v1/sets", data={"name": name, **data}, files=files)


def _correct(client: TestClient, name: str, labels: Any, photo: bytes = ENROLL) -> Any:
    text = labels if isinstance(labels, str) else json.dumps(labels)
    files = {"photo": ("table.jpg", photo, "image/jpeg")}
    return client.post(f"/v1/sets/{name}/corrections", data={"labels": text}, files=files)


def _recognize(client: TestClient, **data: str) -> Any:
    return client.post("/v1/recognize", files={"photo": ("s.jpg", SAMPLE)}, data=data)


def _problem(response: Any, status: int, pointer: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM
    problem: dict[str, Any] = response.json()
    assert problem["status"] == status and problem["detail"]
    assert "Traceback" not in problem["detail"]
    if pointer is not None:
        assert problem.get("pointer") == pointer, problem
    return problem


# ---- enrol, list, show, remove ---------------------------------------------------------------


def test_enroll_then_list_show_and_remove(client: TestClient, home: Path) -> None:
    response = _enroll(client, "kitchen-set")
    assert response.status_code == 201, response.text
    assert response.headers["location"] == "/v1/sets/kitchen-set"
    report = response.json()
    assert report["set"] == "kitchen-set" and report["photos"] == 1
    assert report["looks_added"] == report["looks"] == report["faces"] == 42
    assert (home / "sets" / "kitchen-set.mjset").is_file()

    listed = client.get("/v1/sets").json()["sets"]
    assert [s["name"] for s in listed] == ["kitchen-set"]
    assert listed[0]["faces"] == 42 and listed[0]["taught_from"] == ["enroll0.jpg"]
    shown = client.get("/v1/sets/kitchen-set").json()
    assert shown["looks"] == 42 and shown["untaught"] == ["back"]

    assert client.delete("/v1/sets/kitchen-set").status_code == 204
    assert client.get("/v1/sets").json() == {"sets": []}
    _problem(client.get("/v1/sets/kitchen-set"), 404)


def test_no_sets_is_an_empty_list(client: TestClient) -> None:
    assert client.get("/v1/sets").json() == {"sets": []}


def test_enroll_twice_adds_looks(client: TestClient) -> None:
    _enroll(client, "demo")
    report = _enroll(client, "demo", ENROLL, ENROLL).json()
    assert report["photos"] == 2 and report["looks_added"] == 84 and report["looks"] == 126


# The standard order swapped: the answer names the row, and nothing is taught.
def test_an_enrollment_that_does_not_fit_names_the_row(client: TestClient, home: Path) -> None:
    problem = _problem(_enroll(client, "demo", ENROLL, MISLAID), 422, "/photo")
    assert problem["type"] == "/problems/cannot-teach"
    assert "enroll1.jpg" in problem["detail"] and "row 2" in problem["detail"]
    assert not (home / "sets" / "demo.mjset").exists()


@pytest.mark.parametrize(
    "name",
    ["", "Demo", "../evil", "..", "a/b", "-x", "x-", "a b", "x" * 65, "naïve", "a\\b", "set.mjset"],
)
def test_enroll_refuses_a_name_that_is_not_a_slug(
    client: TestClient, home: Path, name: str
) -> None:
    _problem(_enroll(client, name), 422, "/name")
    assert not (home / "sets").exists() or not list((home / "sets").iterdir())
    assert not list(home.parent.glob("evil*"))


def test_enroll_needs_a_name(client: TestClient) -> None:
    response = client.post("/v1/sets", files={"photo": ("e.jpg", ENROLL, "image/jpeg")})
    _problem(response, 422, "/name")


def test_enroll_refuses_unknown_fields(client: TestClient) -> None:
    _problem(_enroll(client, "demo", ENROLL, seat_wind="E"), 422, "/seat_wind")


def test_enroll_without_a_photo(client: TestClient) -> None:
    _problem(client.post("/v1/sets", files={"name": (None, "demo")}), 400)


@pytest.mark.parametrize(
    ("photo", "status"),
    [(b"not a photo", 415), (ENROLL[: len(ENROLL) // 2], 422), (b"", 415)],
    ids=["text", "truncated jpeg", "empty"],
)
def test_enroll_refuses_a_bad_photo(client: TestClient, photo: bytes, status: int) -> None:
    _problem(_enroll(client, "demo", ENROLL, photo), status)
    assert client.get("/v1/sets").json() == {"sets": []}


def test_enroll_caps_photos_and_bytes(home: Path) -> None:
    assert len(ENROLL) < 50_000
    limits = Limits(photo_bytes=200_000, teach_photos=2, teach_bytes=300_000)
    app = create_app(recognizer_factory=ReplayRecognizer, limits=limits)
    with TestClient(app) as client:
        assert app.state.host.wait_ready(10)
        assert _enroll(client, "demo", ENROLL, ENROLL).status_code == 201
        _problem(_enroll(client, "demo", ENROLL, ENROLL, ENROLL), 400)
        big = b"\xff\xd8\xff" + bytes(200_001)
        _problem(_enroll(client, "demo", big), 413)
        _problem(_enroll(client, "demo", bytes(190_000), bytes(190_000)), 413)  # 380 KB in all


def test_enroll_without_models_is_503(home: Path) -> None:
    app = create_app(recognizer_factory=missing_models, limits=TEST_LIMITS)
    with TestClient(app) as client:
        app.state.host.wait_ready(5)
        _problem(_enroll(client, "demo"), 503)


# ---- corrections -----------------------------------------------------------------------------


def test_corrections_make_the_set_then_add_to_it(client: TestClient) -> None:
    first = _correct(client, "club", LABELS)
    assert first.status_code == 201, first.text
    assert first.json()["looks_added"] == 2 and first.json()["faces"] == 2
    again = _correct(
        client, "club", [{"code": "5p", "corners": [[1, 1], [41, 1], [41, 53], [1, 53]]}]
    )
    assert again.status_code == 200 and again.json()["looks"] == 3


@pytest.mark.parametrize(
    ("labels", "pointer"),
    [
        ("", "/labels"),  # none
        ("{", "/labels"),  # not JSON
        ("NaN", "/labels"),
        ("[" * 40 + "]" * 40, "/labels"),  # deeper than JSON may nest
        ({"code": "5p"}, "/labels"),  # not a list
        ([], "/labels"),
        ([LABELS[0], {"code": "5x", "bbox": [0, 0, 9, 9]}], "/labels/1"),
        ([{"code": "5p"}], "/labels/0"),  # neither a box nor corners
        ([{"code": "5p", "bbox": [0, 0, 9]}], "/labels/0"),
        ([{"code": "5p", "bbox": [0, 0, 0, 9]}], "/labels/0"),  # empty box
        ([{"code": "5p", "bbox": [0, 0, 9, 9], "corners": [[0, 0]] * 4}], "/labels/0"),
        ([{"code": "5p", "corners": [[0, 0]] * 3}], "/labels/0"),
        ([{"code": "5p", "bbox": [0, 0, 1e9, 9]}], "/labels/0"),
        ([{"code": "5p", "bbox": [0, 0, True, 9]}], "/labels/0"),
        (["5p"], "/labels/0"),
    ],
)
def test_corrections_refuse_bad_labels(client: TestClient, labels: Any, pointer: str) -> None:
    _problem(_correct(client, "club", labels), 422, pointer)
    assert client.get("/v1/sets").json() == {"sets": []}


def test_corrections_cap_the_labels(client: TestClient) -> None:
    many = [LABELS[0]] * 401
    _problem(_correct(client, "club", many), 413)
    huge = json.dumps([{**LABELS[0], "note": "x" * TEST_LIMITS.labels_bytes}])
    _problem(_correct(client, "club", huge), 413)


def test_corrections_refuse_a_bad_name_or_field(client: TestClient) -> None:
    _problem(_correct(client, "Club", LABELS), 422)
    files = {"photo": ("t.jpg", ENROLL, "image/jpeg")}
    data = {"labels": json.dumps(LABELS), "set": "club"}
    _problem(client.post("/v1/sets/club/corrections", data=data, files=files), 422, "/set")
    data = {"labels": json.dumps(LABELS), "seat_wind": "E" * 2048}  # other fields stay small
    _problem(client.post("/v1/sets/club/corrections", data=data, files=files), 413)


# ---- recognizing with a set ------------------------------------------------------------------


def test_recognize_with_a_set(
    app_client: tuple[TestClient, ReplayRecognizer], client: TestClient
) -> None:
    _enroll(client, "demo")
    recognizer = app_client[1]
    before = len(recognizer.sets_read)
    body = _recognize(client, set="demo", seat_wind="S").json()
    assert body["set"] == "demo" and body["hand"]["seat_wind"] == "S"
    assert recognizer.sets_read[before:] == ["demo"]
    assert _recognize(client, set="").json()["set"] is None
    assert _recognize(client).json()["set"] is None


def test_recognize_may_learn_only_with_a_set(client: TestClient) -> None:
    _enroll(client, "demo")
    body = _recognize(client, set="demo", learn="true").json()
    assert body["set"] == "demo" and body["learned"] == 0  # the replay keeps no photo
    assert "learned" not in _recognize(client, set="demo", learn="false").json()
    assert "learned" not in _recognize(client, set="demo").json()
    _problem(_recognize(client, learn="true"), 422, "/learn")
    _problem(_recognize(client, set="demo", learn="maybe"), 422, "/learn")


def test_recognize_with_an_unknown_or_bad_set(client: TestClient) -> None:
    assert _problem(_recognize(client, set="nope"), 404, "/set")["type"] == "/problems/unknown-set"
    _problem(_recognize(client, set="../sets/demo"), 422, "/set")
    _problem(_recognize(client, set="NOPE"), 422, "/set")


def test_a_set_taught_by_another_classifier_is_embedded_again(
    client: TestClient, home: Path
) -> None:
    crops = np.full((2, CROP_H, CROP_W, 3), 128, np.uint8)
    old = TileSet("old", ("1m", "2m"), np.ones((2, 5), np.float32), crops, ("a", "b"), "other")
    (home / "sets").mkdir()
    (home / "sets" / "old.mjset").write_bytes(old.to_bytes())
    assert _recognize(client, set="old").json()["set"] == "old"  # the stand-in checks the model
    assert TileSet.from_bytes((home / "sets" / "old.mjset").read_bytes()).model == "replay"


# ---- damaged set files -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [b"garbage", b"", b"PK\x03\x04" + bytes(40), TileSet("other").to_bytes()[:-10]],
    ids=["garbage", "empty", "zip header", "cut"],
)
def test_a_damaged_set_file_is_a_409_never_a_500(
    client: TestClient, home: Path, content: bytes
) -> None:
    _enroll(client, "good")
    (home / "sets" / "junk.mjset").write_bytes(content)
    listed = {s["name"]: s for s in client.get("/v1/sets").json()["sets"]}
    assert listed["good"]["faces"] == 42 and "error" in listed["junk"]
    assert _problem(client.get("/v1/sets/junk"), 409)["type"] == "/problems/set-damaged"
    _problem(_recognize(client, set="junk"), 409, "/set")
    _problem(_correct(client, "junk", LABELS), 409)
    _problem(_enroll(client, "junk"), 409)
    assert client.delete("/v1/sets/junk").status_code == 204  # the way out
    assert [s["name"] for s in client.get("/v1/sets").json()["sets"]] == ["good"]


def test_a_set_file_under_a_name_that_is_not_a_slug_is_listed_with_an_error(
    client: TestClient, home: Path
) -> None:
    (home / "sets").mkdir()
    (home / "sets" / "Bad Name.mjset").write_bytes(TileSet("x").to_bytes())
    assert "error" in client.get("/v1/sets").json()["sets"][0]


# ---- names in the path -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/v1/sets/..%2F..",
        "/v1/sets/..%2Fsets%2Fdemo",
        "/v1/sets/%2e%2e",
        "/v1/sets/..",
        "/v1/sets/demo.mjset",
        "/v1/sets/DEMO",
        "/v1/sets/%00",
        "/v1/sets/" + "x" * 65,
    ],
)
def test_path_tricks_touch_nothing(client: TestClient, home: Path, path: str) -> None:
    _enroll(client, "demo")
    outside = home / "keep.mjset"
    outside.write_bytes(b"keep")
    for method in ("GET", "DELETE"):
        response = client.request(method, path)
        assert 400 <= response.status_code < 500, response.text
        assert response.headers["content-type"] == PROBLEM
    corrections = _correct(client, path.removeprefix("/v1/sets/"), LABELS)
    assert 400 <= corrections.status_code < 500
    assert outside.read_bytes() == b"keep"
    assert [s["name"] for s in client.get("/v1/sets").json()["sets"]] == ["demo"]


def test_delete_an_unknown_set_is_404(client: TestClient) -> None:
    assert _problem(client.delete("/v1/sets/nope"), 404)["type"] == "/problems/unknown-set"


def test_openapi_documents_the_set_routes(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"get", "post"} <= set(paths["/v1/sets"])
    assert {"get", "delete"} <= set(paths["/v1/sets/{name}"])
    assert "post" in paths["/v1/sets/{name}/corrections"]
    form = paths["/v1/recognize"]["post"]["requestBody"]["content"]["multipart/form-data"]
    assert {"set", "learn"} <= set(form["schema"]["properties"])
    for slug in ("unknown-set", "set-damaged", "cannot-teach"):
        assert client.get(f"/problems/{slug}").status_code == 200
