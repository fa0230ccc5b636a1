"""Slow, stalled and malformed clients against `mjlens serve` itself (HTTP layer and all).

The server runs the replaying recognizer with short pacing limits from the environment
(bodies: grace 1 s, at least 1 KiB/s, no gap over 1.5 s; heads within 1 s; 3 bodies from
one address, 4 in all; 2 photos in line), so each case ends in seconds. Nothing here times
the server: a case asserts what was answered, never how fast.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from api.bodies import BodySlots
from api.limits import Limits
from api.problems import Problem
from tests.api.fakes import SAMPLE_PHOTO, ReplayRecognizer
from tests.api.test_routes import _post_photo, _ready_app

ROOT = Path(__file__).resolve().parents[2]
PROBLEM = b"application/problem+json"
SAMPLE = SAMPLE_PHOTO.read_bytes()
PACING = {
    "MJLENS_BODY_GRACE_S": "1",
    "MJLENS_BODY_IDLE_S": "1.5",
    "MJLENS_BODY_MIN_RATE": "1024",
    "MJLENS_HEADER_TIMEOUT_S": "1",
    "MJLENS_CLIENT_BODIES": "3",
    "MJLENS_BODIES": "4",
    "MJLENS_ADMITTED": "2",  # fewer than the trickles: uploads in flight are not counted
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    port = _free_port()
    command = [sys.executable, "-m", "api.cli", "serve", "--port", str(port)]
    command += ["--log-level", "error", "--app", "tests.api.fakes:create_replay_app"]
    server = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **PACING})
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert server.poll() is None, "mjlens serve exited"
            assert time.monotonic() < deadline, "mjlens serve was not ready in 60 s"
            time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        server.wait(10)


def _form_head(port: int, length: int) -> bytes:
    return (
        f"POST /v1/recognize HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {length}\r\n\r\n"
    ).encode()


PREFIX = b'--b\r\nContent-Disposition: form-data; name="photo"; filename="p.jpg"\r\n\r\n'


def _answer(sock: socket.socket, trickle: bytes = b"", every_s: float = 0.3) -> bytes:
    """What the server sends until it closes, while `trickle` goes a byte at a time."""
    sock.settimeout(every_s)
    answer, sent = b"", 0
    deadline = time.monotonic() + 30  # a bound on the test, not an expectation
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            if sent < len(trickle):
                with contextlib.suppress(OSError):  # cut off: the answer follows
                    sock.sendall(trickle[sent : sent + 1])
                sent += 1
            continue
        except ConnectionResetError:
            break
        if not chunk:
            break
        answer += chunk
    return answer


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def _is_problem(answer: bytes) -> bool:
    head, _, body = answer.partition(b"\r\n\r\n")
    return PROBLEM in head.lower() and body.startswith(b"{")


def test_a_stalled_upload_is_cut_off_with_408(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(_form_head(port, 100_000) + PREFIX + SAMPLE[:200])
        answer = _answer(sock)  # nothing more is sent
    assert _status(answer) == 408 and _is_problem(answer), answer[:300]
    assert b"cut off" in answer and b"connection: close" in answer.lower()


def test_a_trickled_upload_is_cut_off_with_408(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(_form_head(port, 100_000))
        answer = _answer(sock, trickle=PREFIX + SAMPLE)
    assert _status(answer) == 408 and _is_problem(answer), answer[:300]
    assert b"slower than 1024 bytes a second" in answer


def test_a_stalled_json_body_is_cut_off_with_408(port: int) -> None:
    head = f"POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    head += "Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{"
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(head.encode())
        answer = _answer(sock)
    assert _status(answer) == 408 and _is_problem(answer), answer[:300]


def test_trickling_clients_do_not_starve_real_photos(port: int) -> None:
    """More trickling uploads from the same address than there are places: each real photo
    takes the place of the oldest trickle, and /readyz says ready all along."""
    trickles = []
    try:
        for _ in range(8):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(_form_head(port, 100_000) + PREFIX[:1])
            trickles.append(sock)
        time.sleep(1.2)  # past the age at which a body that has sent a byte lags
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            for _ in range(3):
                assert client.get("/readyz").status_code == 200
                response = client.post("/v1/recognize", files={"photo": ("s.jpg", SAMPLE)})
                assert response.status_code == 200, response.text
    finally:
        for sock in trickles:
            sock.close()


def test_a_request_head_sent_slowly_gets_408(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHo")
        answer = _answer(sock, trickle=b"st: x\r\nX-Slow: yes\r\n" * 20)
    assert _status(answer) == 408 and _is_problem(answer), answer[:300]


def test_a_connection_that_sends_nothing_is_closed(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        assert _answer(sock) == b""  # closed by the server, nothing said


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"HELLO THERE\r\n\r\n", 400),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64, 400),
        (b"POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Length: lots\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 100_000 + b"\r\n\r\n", 431),
        (b"GET /?q=" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 431),
    ],
    ids=["bad request line", "TLS hello", "bad content-length", "headers over 16 KiB", "long URL"],
)
def test_malformed_http_is_a_problem(port: int, request_bytes: bytes, status: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        with contextlib.suppress(OSError):  # the server may answer before reading it all
            sock.sendall(request_bytes)
        answer = _answer(sock)
    assert _status(answer) == status and _is_problem(answer), answer[:300]
    assert b"bytearray" not in answer and b"b'" not in answer  # no Python in the detail


def test_head_answers_like_get_without_a_body(port: int) -> None:
    with httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
        for path in ("/", "/healthz", "/readyz", "/static/app.js", "/v1/fans"):
            get, head = client.get(path), client.head(path)
            assert head.status_code == get.status_code == 200, path
            assert (
                head.content == b"" and head.headers["content-type"] == get.headers["content-type"]
            )
            assert head.headers["content-length"] == str(len(get.content)), path


def test_an_oversized_declared_upload_is_refused_and_the_connection_closed(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(_form_head(port, 10**9) + PREFIX)
        answer = _answer(sock)
    assert _status(answer) == 413 and _is_problem(answer)
    assert b"connection: close" in answer.lower()


# ---- the places for bodies, without a server -------------------------------------------------

LIMITS = Limits(bodies=3, client_bodies=2, body_min_rate=1024)


def _slots() -> BodySlots:
    return BodySlots(LIMITS)


def test_a_newcomer_displaces_the_oldest_lagging_body_of_its_client() -> None:
    async def scenario() -> None:
        slots = _slots()
        first, second = slots.take("a"), slots.take("a")
        third = slots.take("a")  # both lag (nothing received): the oldest goes
        assert first.cut is not None and first.evicted.done()
        assert second.cut is None and third.cut is None and len(slots) == 2

    asyncio.run(scenario())


def test_bodies_that_keep_pace_make_a_newcomer_wait() -> None:
    async def scenario() -> None:
        slots = _slots()
        for body in (slots.take("a"), slots.take("b"), slots.take("c")):
            body.received = 10 * 1024 * 1024  # fast
        with pytest.raises(Problem) as refused:
            slots.take("d")
        assert refused.value.status == 503 and "Retry-After" in refused.value.headers
        assert slots.saturated()

    asyncio.run(scenario())


def test_a_finished_body_frees_its_place() -> None:
    async def scenario() -> None:
        slots = _slots()
        body = slots.take("a")
        slots.release(body)
        assert len(slots) == 0 and not slots.saturated()

    asyncio.run(scenario())


def test_readyz_is_503_while_the_line_of_photos_is_full() -> None:
    recognizer = ReplayRecognizer(delay_s=1.0)
    limits = Limits(photo_bytes=512 * 1024, workers=1, admitted=1, queue_wait_s=5)

    async def scenario() -> tuple[int, int, int]:
        async with _ready_app(recognizer, limits) as client:
            photo = asyncio.create_task(_post_photo(client))
            while recognizer.calls == 0:
                await asyncio.sleep(0.02)
            during = await client.get("/readyz")
            assert during.headers["content-type"] == PROBLEM.decode()
            assert during.json()["type"] == "/problems/busy" and during.headers["retry-after"]
            done = await photo
            after = await client.get("/readyz")
            return during.status_code, done.status_code, after.status_code

    assert asyncio.run(scenario()) == (503, 200, 200)
