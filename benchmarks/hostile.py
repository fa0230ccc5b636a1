"""Hostile clients against `mjlens serve`: slow uploads held open while real photos are read,
then the bad-input corpus over the wire.

    python benchmarks/hostile.py                                 # the shipped models
    python benchmarks/hostile.py --app tests.api.fakes:create_replay_app

1. Slow clients, all from 127.0.0.1 like the real one: `--slow` uploads of a photo's size
   that send their form one byte every `--trickle-s` seconds (every third sends its head and
   then nothing at all), and `--heads` connections that send their request head that way.
   Each one that is cut off connects again at once, so that many stay open throughout.
   Meanwhile a real client sends `--photos` 12 MP photos one after another; each must be
   read (200) within `--deadline` seconds, and /readyz must say ready while they are.
2. The bad-input corpus of tests/api/test_bad_inputs.py, sent over HTTP to a fresh server
   with the corpus's caps, plus requests that only a real socket can send (a bad request
   line, headers over 16 KiB, a bad Content-Length, a stalled upload, a head that never
   ends): each must answer its 4xx as application/problem+json.

Prints the figures of both; exit status 1 when a photo was late or failed, /readyz said
ready while photos failed, or any request got a 5xx or the wrong status.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import statistics
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.serving import (
    REAL_APP,
    free_port,
    phone_photos,
    start_server,
    stop_server,
    wait_ready,
)

REPLAY_APP = "tests.api.fakes:create_replay_app"
BOUNDARY = "hostile"
PROBLEM = "application/problem+json"


@dataclass
class Slow:
    """What the slow clients saw: how many are open now, and how each one ended."""

    open_uploads: int = 0
    open_heads: int = 0
    most_open: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def opened(self, head_only: bool) -> None:
        with self.lock:
            if head_only:
                self.open_heads += 1
            else:
                self.open_uploads += 1
                self.most_open = max(self.most_open, self.open_uploads)

    def closed(self, head_only: bool, ending: str) -> None:
        with self.lock:
            if head_only:
                self.open_heads -= 1
            else:
                self.open_uploads -= 1
            self.endings[f"{'head' if head_only else 'upload'} {ending}"] += 1


def form_prefix() -> bytes:
    return (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; '
        f'filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n'
    ).encode()


def upload_head(port: int, photo_bytes: int) -> bytes:
    length = len(form_prefix()) + photo_bytes + len(f"\r\n--{BOUNDARY}--\r\n")
    return (
        f"POST /v1/recognize HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()


def answer_status(data: bytes) -> str:
    """'408' from 'HTTP/1.1 408 Request Timeout...', or what the bytes were."""
    if not data:
        return "closed"
    parts = data.split(b" ", 2)
    return parts[1].decode(errors="replace") if len(parts) > 1 else "garbage"


def slow_client(
    port: int,
    trickle: bytes,
    upfront: bytes,
    every_s: float,
    stop: threading.Event,
    slow: Slow,
    head_only: bool,
) -> None:
    """Send `upfront` at once and then `trickle` a byte every `every_s` seconds (nothing, if
    `trickle` is empty) until the server answers or closes; then again."""
    while not stop.is_set():
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            stop.wait(0.2)
            continue
        slow.opened(head_only)
        ending = "stopped"
        try:
            sock.sendall(upfront)
            sock.settimeout(every_s)
            sent = 0
            while not stop.is_set():
                try:
                    data = sock.recv(4096)
                    ending = answer_status(data)
                    break
                except TimeoutError:
                    pass
                if sent < len(trickle):
                    sock.sendall(trickle[sent : sent + 1])
                    sent += 1
        except OSError:
            ending = "reset"
        finally:
            sock.close()
            slow.closed(head_only, ending)


def start_slow_clients(
    port: int, photo_bytes: int, uploads: int, heads: int, every_s: float, stop: threading.Event
) -> tuple[Slow, list[threading.Thread]]:
    slow = Slow()
    head = upload_head(port, photo_bytes)
    body = form_prefix() + b"\xff\xd8\xff\xe0" + b"\x00" * 4096
    request_head = head.replace(b"\r\n\r\n", b"\r\n")  # a head that never ends
    threads = []
    for i in range(uploads):
        trickle = b"" if i % 3 == 2 else body  # every third stalls after its head
        args = (port, trickle, head, every_s, stop, slow, False)
        threads.append(threading.Thread(target=slow_client, args=args, daemon=True))
    for _ in range(heads):
        args = (port, request_head, b"", every_s, stop, slow, True)
        threads.append(threading.Thread(target=slow_client, args=args, daemon=True))
    for thread in threads:
        thread.start()
    return slow, threads


def slow_phase(args: argparse.Namespace) -> bool:
    photos = phone_photos(4, args.megapixels)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(args.app, port)
    stop = threading.Event()
    try:
        if not wait_ready(base, args.ready_wait):
            raise SystemExit("hostile: the models did not load (/readyz 503)")
        slow, _ = start_slow_clients(
            port, len(photos[0]), args.slow, args.heads, args.trickle_s, stop
        )
        time.sleep(args.settle)
        print(
            f"slow clients: {slow.open_uploads} uploads (1 byte every {args.trickle_s:g} s, "
            f"a third stalled after their head) and {slow.open_heads} request heads open "
            f"after {args.settle:g} s",
            flush=True,
        )
        seconds: list[float] = []
        failures: list[str] = []
        ready: Counter[int] = Counter()
        open_during: list[int] = []
        with httpx.Client(base_url=base, timeout=60) as client:
            for i in range(args.photos):
                ready[client.get("/readyz").status_code] += 1
                open_during.append(slow.open_uploads)
                started = time.perf_counter()
                try:
                    files = {"photo": ("photo.jpg", photos[i % len(photos)], "image/jpeg")}
                    response = client.post("/v1/recognize", files=files)
                    status = str(response.status_code)
                except httpx.HTTPError as exc:
                    status = type(exc).__name__
                took = time.perf_counter() - started
                seconds.append(took)
                if status != "200" or took > args.deadline:
                    failures.append(f"photo {i + 1}: {status} in {took:.1f} s")
    finally:
        stop.set()
        stop_server(server)
    within = args.photos - len(failures)
    print(
        f"real photos ({args.megapixels:g} MP, {len(photos[0]) / 1e6:.1f}-"
        f"{max(map(len, photos)) / 1e6:.1f} MB): {within} of {args.photos} read (200) within "
        f"{args.deadline:g} s; median {statistics.median(seconds):.2f} s, slowest "
        f"{max(seconds):.2f} s; slow uploads open meanwhile: {min(open_during)}-"
        f"{max(open_during)} (most at once {slow.most_open})"
    )
    print(f"/readyz before each photo: {dict(ready)}")
    print(f"slow clients' endings: {dict(sorted(slow.endings.items()))}")
    for failure in failures:
        print(f"  FAILED {failure}")
    readiness_lied = bool(failures) and ready.get(200, 0) > 0
    return not failures and not readiness_lied


def raw_exchange(port: int, data: bytes, wait_s: float) -> bytes:
    """Send `data` on a fresh connection and read what comes back until it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait_s) as sock:
        with contextlib.suppress(OSError):  # the server may answer and close mid-send
            sock.sendall(data)
        answer = b""
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                break
            except OSError:
                break
            if not chunk:
                break
            answer += chunk
        return answer


def socket_cases(port: int, header_timeout_s: float) -> list[tuple[str, bytes, int, float]]:
    """(name, bytes sent, expected status, seconds to wait) for requests only a socket sends."""
    big_header = b"X-Padding: " + b"a" * 100_000 + b"\r\n"
    score = f"POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
    wait = header_timeout_s + 5
    return [
        ("bad request line", b"HELLO THERE\r\n\r\n", 400, 5),
        ("not HTTP at all", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 64, 400, 5),
        ("headers over 16 KiB", b"GET / HTTP/1.1\r\nHost: x\r\n" + big_header + b"\r\n", 431, 5),
        ("bad content-length", score + b"Content-Length: lots\r\n\r\n", 400, 5),
        (
            "declared length over the cap",
            score + b"Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{",
            413,
            5,
        ),
        (
            "two content-lengths",
            score + b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
            400,
            5,
        ),
        ("head that never ends", b"GET /healthz HTTP/1.1\r\nHost: x\r\n", 408, wait),
        (
            "stalled upload",
            score + b"Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{",
            408,
            wait + 15,
        ),
    ]


def corpus_phase(args: argparse.Namespace) -> bool:
    from tests.api.conftest import TEST_LIMITS
    from tests.api.test_bad_inputs import CORPUS

    caps = {
        "MJLENS_PHOTO_BYTES": str(TEST_LIMITS.photo_bytes),
        "MJLENS_JSON_BYTES": str(TEST_LIMITS.json_bytes),
        "MJLENS_QUEUE_WAIT_S": str(TEST_LIMITS.queue_wait_s),
        # Short pacing, so the stalled cases end in seconds.
        "MJLENS_BODY_IDLE_S": "3",
        "MJLENS_BODY_GRACE_S": "3",
        "MJLENS_HEADER_TIMEOUT_S": "3",
    }
    port = free_port()
    server = start_server(args.corpus_app, port, env=caps)
    statuses: Counter[str] = Counter()
    wrong: list[str] = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            for case in CORPUS:
                if "content-length" in case.kwargs.get("headers", {}):
                    continue  # a length that lies: httpx will not send it (a socket case does)
                response = client.request(case.method, case.url, **case.kwargs)
                statuses[f"{response.status_code // 100}xx"] += 1
                if response.status_code != case.expected or not _is_problem(response):
                    wrong.append(f"{case.name}: {response.status_code}, expected {case.expected}")
        for name, data, expected, wait_s in socket_cases(port, 3.0):
            answer = raw_exchange(port, data, wait_s)
            status = answer_status(answer)
            statuses[f"{status[0]}xx" if status[:1].isdigit() else status] += 1
            problem = PROBLEM.encode() in answer.split(b"\r\n\r\n")[0]
            if status != str(expected) or not problem:
                wrong.append(f"{name}: {status} (problem+json: {problem}), expected {expected}")
    finally:
        stop_server(server)
    sent = sum(statuses.values())
    print(
        f"bad-input corpus over HTTP: {sent} requests ({sent - len(socket_cases(port, 3.0))} "
        f"of tests/api/test_bad_inputs.py, {len(socket_cases(port, 3.0))} on raw sockets): "
        f"{dict(sorted(statuses.items()))}, wrong: {len(wrong)}"
    )
    for line in wrong:
        print(f"  WRONG {line}")
    return not wrong and not any(key.startswith("5") for key in statuses)


def _is_problem(response: httpx.Response) -> bool:
    if response.headers.get("content-type") != PROBLEM:
        return False
    try:
        body: Any = response.json()
    except json.JSONDecodeError:
        return False
    return isinstance(body, dict) and body.get("status") == response.status_code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", default=REAL_APP, help=f"app factory (default {REAL_APP})")
    parser.add_argument("--corpus-app", default=REPLAY_APP, help="app factory for the corpus")
    parser.add_argument("--slow", type=int, default=30, help="slow uploads held open")
    parser.add_argument("--heads", type=int, default=10, help="request heads sent slowly")
    parser.add_argument("--trickle-s", type=float, default=2.0)
    parser.add_argument("--settle", type=float, default=5.0, help="seconds before photos")
    parser.add_argument("--photos", type=int, default=12)
    parser.add_argument("--megapixels", type=float, default=12.0)
    parser.add_argument("--deadline", type=float, default=10.0, help="seconds per photo")
    parser.add_argument("--ready-wait", type=float, default=120.0)
    parser.add_argument("--skip-corpus", action="store_true")
    args = parser.parse_args()
    ok = slow_phase(args)
    if not args.skip_corpus:
        ok = corpus_phase(args) and ok
    print("hostile: " + ("all held" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
