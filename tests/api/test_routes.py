"""Happy paths of every route, and the inference plumbing (readiness, concurrency, caps)."""

from __future__ import annotations

import asyncio
import hashlib
import time

import httpx
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.limits import Limits
from tests.api.conftest import TEST_LIMITS
from tests.api.fakes import SAMPLE_PHOTO, SAMPLE_TRUTH, BrokenRecognizer, ReplayRecognizer

PROBLEM = "application/problem+json"
SAMPLE = SAMPLE_PHOTO.read_bytes()
HAND = {
    "melds": [
        {"type": "chow", "tiles": ["4s", "5s", "6s"], "claimed_from": "left"},
        {"type": "pung", "tiles": ["E", "E", "E"], "claimed_from": "right"},
    ],
    "concealed": ["1m", "2m", "3m", "7p", "8p", "9p", "5p"],
    "winning_tile": "5p",
    "flowers": ["1h"],
}


def test_healthz(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}


def test_readyz_once_models_load(client: TestClient) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["status"] == "ready"


def test_readyz_503_problem_without_models(no_models_client: TestClient) -> None:
    response = no_models_client.get("/readyz")
    assert response.status_code == 503
    assert response.headers["content-type"] == PROBLEM
    assert int(response.headers["retry-after"]) >= 1
    assert "detector.onnx not found" in response.json()["detail"]
    assert no_models_client.get("/healthz").status_code == 200  # alive all the same


def test_recognize_503_without_models(no_models_client: TestClient) -> None:
    response = no_models_client.post("/v1/recognize", files={"photo": ("s.jpg", SAMPLE)})
    assert response.status_code == 503
    assert response.json()["type"] == "/problems/models-not-ready"


def test_fans_table(client: TestClient) -> None:
    fans = client.get("/v1/fans").json()["fans"]
    assert [f["id"] for f in fans] == list(range(1, 82))
    big_four_winds = fans[0]
    assert big_four_winds["name_en"] == "Big Four Winds" and big_four_winds["name_zh"] == "大四喜"
    assert big_four_winds["points"] == 88 and isinstance(big_four_winds["excludes"], list)
    assert all(f["description"] for f in fans)


def test_score_a_hand(client: TestClient) -> None:
    body = client.post("/v1/score", json=HAND).json()
    assert body["valid"] and body["ruleset"] == "mcr"
    assert body["total"] == sum(f["points"] * f.get("count", 1) for f in body["fans"])
    assert {f["name_en"] for f in body["fans"]} >= {"Mixed Straight", "Flower Tiles"}


def test_score_other_ruleset(client: TestClient) -> None:
    response = client.post("/v1/score", params={"ruleset": "sichuan"}, json=HAND)
    assert response.status_code == 200 and response.json()["ruleset"] == "sichuan"


def test_not_a_win_is_200_with_valid_false(client: TestClient) -> None:
    hand = {**HAND, "concealed": ["1m", "2m", "4m", "7p", "8p", "9p", "5p"]}
    body = client.post("/v1/score", json=hand).json()
    assert body["valid"] is False and "winning" in body["error"]
    # 124m 789p 55p beside two melds: letting 1m or 4m go leaves a wait on 3m
    assert [(d["tile"], [w["tile"] for w in d["waits"]]) for d in body["discards"]] == [
        ("1m", ["3m"]),
        ("4m", ["3m"]),
    ]


def test_score_13_tiles_answers_waits(client: TestClient) -> None:
    hand = {k: v for k, v in HAND.items() if k != "winning_tile"}
    body = client.post("/v1/score", json=hand).json()
    assert body["valid"] is False and "waiting on" in body["error"]
    assert [w["tile"] for w in body["waits"]] == ["5p"]
    (wait,) = body["waits"]
    assert wait["unseen"] == 3 and wait["discard"]["valid"] and wait["self_drawn"]["valid"]
    assert wait["self_drawn"]["total"] > wait["discard"]["total"]
    assert client.post("/v1/score", json={**hand, "winning_tile": None}).json() == body
    other = client.post("/v1/score", params={"ruleset": "shanghai"}, json=hand).json()
    assert other["ruleset"] == "shanghai" and other["waits"][0]["discard"]["ruleset"] == "shanghai"
    refused = client.post("/v1/score", params={"ruleset": "beijing"}, json=hand).json()
    assert refused["waits"] == [] and "Beijing uses no flowers" in refused["error"]


def test_score_13_tiles_with_a_flag_of_one_win_is_422(client: TestClient) -> None:
    hand = {k: v for k, v in HAND.items() if k != "winning_tile"}
    response = client.post("/v1/score", json={**hand, "self_drawn": True})
    assert response.status_code == 422 and response.headers["content-type"] == PROBLEM
    assert response.json()["pointer"] == "/self_drawn"


def test_recognize_sample(client: TestClient) -> None:
    response = client.post(
        "/v1/recognize",
        files={"photo": ("sample.jpg", SAMPLE, "image/jpeg")},
        data={"seat_wind": "S", "self_drawn": "false", "ruleset": "mcr"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["sha256"] == hashlib.sha256(SAMPLE).hexdigest()
    assert len(body["tiles"]) == len(SAMPLE_TRUTH["tiles"])
    assert body["hand"]["seat_wind"] == "S" and body["hand"]["self_drawn"] is False
    assert body["score"]["valid"] is True
    assert {"api_queue", "api_total"} <= set(body["timings_ms"])
    assert set(body["models"]) == {"detector", "classifier", "sideways"}


def test_page_and_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'capture="environment"' in page.text
    for name in (
        "words.js",
        "tiles.js",
        "render.js",
        "sets.js",
        "app.js",
        "docs.js",
        "style.css",
        "sample.jpg",
    ):
        assert client.get(f"/static/{name}").status_code == 200
    assert len(SAMPLE) < 250 * 1024
    # Nothing from elsewhere: every src/href in the page is relative, and the browser is told
    # to refuse anything else (the browser test fails on any CSP violation it logs).
    assert "http://" not in page.text and "https://" not in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"


def test_openapi_documents_the_routes(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/v1/recognize", "/v1/score", "/v1/fans", "/healthz", "/readyz"} <= set(paths)
    body = paths["/v1/recognize"]["post"]["requestBody"]["content"]
    assert "photo" in body["multipart/form-data"]["schema"]["properties"]
    docs = client.get("/docs")  # the offline reader: FastAPI's Swagger UI needs a CDN
    assert docs.status_code == 200 and "static/docs.js" in docs.text
    assert "http://" not in docs.text and "https://" not in docs.text


def test_problem_types_are_described(client: TestClient) -> None:
    problem = client.get("/nowhere").json()
    assert client.get(problem["type"]).json()["status"] == 404


def test_unhandled_error_is_a_logged_500_problem() -> None:
    app = create_app(recognizer_factory=BrokenRecognizer, limits=TEST_LIMITS)
    with TestClient(app, raise_server_exceptions=False) as client:
        assert app.state.host.wait_ready(5)
        response = client.post("/v1/recognize", files={"photo": ("s.jpg", SAMPLE)})
    assert response.status_code == 500
    assert response.headers["content-type"] == PROBLEM
    assert response.json()["incident"] in response.json()["detail"]


# ---- concurrency: the event loop stays free and excess work waits, then gets 503 -------------


async def _post_photo(client: httpx.AsyncClient) -> httpx.Response:
    return await client.post("/v1/recognize", files={"photo": ("s.jpg", SAMPLE)})


def _ready_app(recognizer: ReplayRecognizer, limits: Limits) -> httpx.AsyncClient:
    app = create_app(recognizer_factory=lambda: recognizer, limits=limits)
    app.state.host.start_loading()
    assert app.state.host.wait_ready(5)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")


def test_recognition_runs_off_the_event_loop() -> None:
    recognizer = ReplayRecognizer(delay_s=1.5)

    async def scenario() -> float:
        async with _ready_app(recognizer, TEST_LIMITS) as client:
            slow = asyncio.create_task(_post_photo(client))
            await asyncio.sleep(0.15)
            started = time.perf_counter()
            assert (await client.get("/healthz")).status_code == 200
            took = time.perf_counter() - started
            assert (await slow).status_code == 200
            return took

    assert asyncio.run(scenario()) < 0.75  # blocked, it would wait ~1.4 s


def test_excess_requests_wait_then_get_503_with_retry_after() -> None:
    recognizer = ReplayRecognizer(delay_s=0.5)
    limits = Limits(photo_bytes=512 * 1024, workers=1, queue_wait_s=0.2, retry_after_s=3)

    async def scenario() -> list[httpx.Response]:
        async with _ready_app(recognizer, limits) as client:
            return list(await asyncio.gather(*(_post_photo(client) for _ in range(3))))

    responses = asyncio.run(scenario())
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200, 503, 503]
    busy = [r for r in responses if r.status_code == 503]
    assert all(r.headers["retry-after"] == "3" for r in busy)
    assert all(r.json()["type"] == "/problems/busy" for r in busy)
    assert recognizer.most_running == 1


def test_admission_cap_answers_503_at_once() -> None:
    recognizer = ReplayRecognizer(delay_s=0.4)
    limits = Limits(photo_bytes=512 * 1024, workers=1, admitted=1, queue_wait_s=5)

    async def scenario() -> list[int]:
        async with _ready_app(recognizer, limits) as client:
            first = asyncio.create_task(_post_photo(client))
            await asyncio.sleep(0.1)
            second = await _post_photo(client)
            return [(await first).status_code, second.status_code]

    assert asyncio.run(scenario()) == [200, 503]


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_oversized_upload_is_refused_while_streaming(chunked: bool) -> None:
    """The body is counted as it arrives: the server stops reading soon after the cap."""
    sent = 0
    cap = TEST_LIMITS.form_bytes

    async def stream():  # type: ignore[no-untyped-def]
        nonlocal sent
        head = b"--b\r\nContent-Disposition: form-data; name=photo; filename=a.jpg\r\n\r\n"
        yield head
        for _ in range(400):
            sent += 64 * 1024
            yield b"\xff" * (64 * 1024)

    async def scenario() -> httpx.Response:
        app = create_app(recognizer_factory=ReplayRecognizer, limits=TEST_LIMITS)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            headers = {"content-type": "multipart/form-data; boundary=b"}
            if chunked:
                return await client.post("/v1/recognize", content=stream(), headers=headers)
            return await client.post("/v1/recognize", content=b"x" * cap * 4, headers=headers)

    response = asyncio.run(scenario())
    assert response.status_code == 413
    assert response.headers["content-type"] == PROBLEM
    if chunked:
        assert sent <= cap + 2 * 64 * 1024  # stopped at the cap, not after 25 MiB


def test_client_gone_mid_upload_is_a_400_not_the_catch_all() -> None:
    app = create_app(recognizer_factory=ReplayRecognizer, limits=TEST_LIMITS)
    head = b"--b\r\nContent-Disposition: form-data; name=photo; filename=a.jpg\r\n\r\n\xff\xd8"
    messages = [{"type": "http.request", "body": head, "more_body": True}]
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/v1/recognize",
        "headers": [(b"content-type", b"multipart/form-data; boundary=b")],
        "query_string": b"",
        "http_version": "1.1",
        "scheme": "http",
        "server": ("test", 80),
        "client": ("client", 1),
        "root_path": "",
    }
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    assert sent[0]["status"] == 400
