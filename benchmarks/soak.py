"""Soak test: `mjlens serve` under mixed traffic with 12 MP photos, its memory over time.

    nice -n 10 python benchmarks/soak.py                 # 30 minutes, the shipped models
    python benchmarks/soak.py --minutes 2 --app tests.api.fakes:create_replay_app

Photo clients send 12 MP phone-sized JPEGs (`benchmarks.serving.phone_photos`) to
/v1/recognize with a context; score clients send generated hands to /v1/score; one client
cycles through the page, HEAD, the fan table, /readyz and a set of bad requests (broken and
deeply nested JSON, huge numbers, a cut photo, a photo bomb, wrong media types) that must
answer 4xx. Every `--every` seconds it prints the server's resident memory (VmRSS, and its
peak VmHWM) with the requests so far; at the end, RSS at the end against RSS after the first
minute (the target is at most 1.2 times). Exit status 1 on any 5xx other than a 503 shed
under load, any transport error, or a ratio over the target.
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.serving import (
    REAL_APP,
    free_port,
    memory_kib,
    phone_photos,
    start_server,
    stop_server,
    wait_ready,
)

TARGET = 1.2
WINDS = ("E", "S", "W", "N")


@dataclass
class Tally:
    counts: Counter[str] = field(default_factory=Counter)
    photo_seconds: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, outcome: str, seconds: float = 0.0) -> None:
        with self.lock:
            self.counts[f"{kind} {outcome}"] += 1
            if kind == "photo" and outcome == "200":
                self.photo_seconds.append(seconds)

    def errors(self) -> int:
        return sum(n for key, n in self.counts.items() if key.endswith("error"))


def outcome(response: httpx.Response, expected: set[int]) -> str:
    if response.status_code in expected:
        return str(response.status_code)
    if response.status_code == 503 and response.headers.get("retry-after"):
        return "503 shed"
    return "error"


def photo_client(
    base: str, photos: list[bytes], stop: threading.Event, seed: int, tally: Tally
) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=120) as client:
        while not stop.is_set():
            data = {"seat_wind": rng.choice(WINDS), "self_drawn": rng.choice(("true", "false"))}
            files = {"photo": ("photo.jpg", rng.choice(photos), "image/jpeg")}
            started = time.perf_counter()
            try:
                response = client.post("/v1/recognize", files=files, data=data)
                result = outcome(response, {200})
            except httpx.HTTPError:
                result = "error"
            tally.add("photo", result, time.perf_counter() - started)
            if result == "503 shed":
                stop.wait(float(response.headers["retry-after"]))


def score_client(
    base: str, hands: list[dict[str, Any]], stop: threading.Event, seed: int, tally: Tally
) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=60) as client:
        while not stop.is_set():
            try:
                response = client.post("/v1/score", json=rng.choice(hands))
                result = outcome(response, {200})
            except httpx.HTTPError:
                result = "error"
            tally.add("score", result)
            stop.wait(0.05)


def bad_requests(photo: bytes) -> list[tuple[str, Callable[[httpx.Client], httpx.Response]]]:
    """Requests that must answer 4xx, each made afresh (nothing cached between rounds)."""
    json_type = {"content-type": "application/json"}
    bomb = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\xea`\x00\x00\xea`\x08\x02\x00\x00\x00"
    return [
        ("broken json", lambda c: c.post("/v1/score", content=b'{"melds": [', headers=json_type)),
        (
            "deep json",
            lambda c: c.post("/v1/score", content=b"[" * 50_000 + b"]" * 50_000, headers=json_type),
        ),
        (
            "huge number",
            lambda c: c.post(
                "/v1/score", content=b'{"flowers": ' + b"9" * 6000 + b"}", headers=json_type
            ),
        ),
        (
            "cut photo",
            lambda c: c.post("/v1/recognize", files={"photo": ("p.jpg", photo[: len(photo) // 3])}),
        ),
        ("photo bomb", lambda c: c.post("/v1/recognize", files={"photo": ("p.png", bomb)})),
        ("text as photo", lambda c: c.post("/v1/recognize", files={"photo": ("p.jpg", b"hello")})),
        ("form to score", lambda c: c.post("/v1/score", data={"hand": "x"})),
        ("unknown route", lambda c: c.get("/v1/nothing")),
    ]


def misc_client(base: str, photo: bytes, stop: threading.Event, tally: Tally) -> None:
    good: list[tuple[str, Callable[[httpx.Client], httpx.Response]]] = [
        ("page", lambda c: c.get("/")),
        ("head", lambda c: c.head("/")),
        ("fans", lambda c: c.get("/v1/fans")),
        ("readyz", lambda c: c.get("/readyz")),
        ("openapi", lambda c: c.get("/openapi.json")),
    ]
    client_error = set(range(400, 500))
    rounds = [(request, {200}) for _, request in good]
    rounds += [(request, client_error) for _, request in bad_requests(photo)]
    with httpx.Client(base_url=base, timeout=60) as client:
        while not stop.is_set():
            for request, expected in rounds:
                try:
                    result = outcome(request(client), expected)
                    result = "4xx" if result.startswith("4") else result
                except httpx.HTTPError:
                    result = "error"
                tally.add("other", result)
                if stop.wait(0.2):
                    return


def line(elapsed: float, kib: dict[str, int], tally: Tally) -> str:
    with tally.lock:
        counts = dict(tally.counts)
        recent = tally.photo_seconds[-20:]
    median = sorted(recent)[len(recent) // 2] if recent else float("nan")
    done = ", ".join(f"{key} {n}" for key, n in sorted(counts.items()))
    return (
        f"{elapsed / 60:5.1f} min  RSS {kib['VmRSS'] / 1024:6.1f} MiB  "
        f"peak {kib['VmHWM'] / 1024:6.1f} MiB  photo median {median:5.2f} s  | {done}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--every", type=float, default=60.0, help="seconds between RSS lines")
    parser.add_argument("--photo-clients", type=int, default=2)
    parser.add_argument("--score-clients", type=int, default=2)
    parser.add_argument("--megapixels", type=float, default=12.0)
    parser.add_argument("--app", default=REAL_APP, help=f"app factory (default {REAL_APP})")
    parser.add_argument("--ready-wait", type=float, default=120.0)
    args = parser.parse_args()

    from scoring.generate import generate_hands

    hands = list(generate_hands(seed=2, n=500))
    photos = phone_photos(6, args.megapixels)
    sizes = ", ".join(f"{len(p) / 1e6:.1f}" for p in photos)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(args.app, port)
    try:
        if not wait_ready(base, args.ready_wait):
            raise SystemExit("soak: the models did not load (/readyz 503): nothing to soak")
        print(
            f"soak: {args.minutes:g} min on {base} ({args.app}), {args.photo_clients} photo "
            f"clients ({args.megapixels:g} MP JPEGs of {sizes} MB), {args.score_clients} "
            f"score clients, 1 client of pages and bad requests",
            flush=True,
        )
        tally = Tally()
        stop = threading.Event()
        threads = [
            threading.Thread(target=photo_client, args=(base, photos, stop, i, tally))
            for i in range(args.photo_clients)
        ]
        threads += [
            threading.Thread(target=score_client, args=(base, hands, stop, 100 + i, tally))
            for i in range(args.score_clients)
        ]
        threads.append(threading.Thread(target=misc_client, args=(base, photos[0], stop, tally)))
        started = time.monotonic()
        for thread in threads:
            thread.start()
        samples: list[tuple[float, dict[str, int]]] = []
        marks = [min(60.0, args.minutes * 60 / 2)]
        marks += [t for t in _every(args.every, args.minutes * 60) if t > marks[0]]
        for mark in marks:
            stop.wait(max(0.0, started + mark - time.monotonic()))
            kib = memory_kib(server.pid)
            samples.append((mark, kib))
            print(line(mark, kib, tally), flush=True)
        stop.set()
        for thread in threads:
            thread.join()
    finally:
        stop_server(server)
    first, last = samples[0][1]["VmRSS"], samples[-1][1]["VmRSS"]
    ratio = last / first
    verdict = "within" if ratio <= TARGET else "OVER"
    print(
        f"RSS after {samples[0][0] / 60:g} min {first / 1024:.1f} MiB, after "
        f"{samples[-1][0] / 60:g} min {last / 1024:.1f} MiB: {ratio:.2f}x ({verdict} the "
        f"{TARGET}x target); peak {samples[-1][1]['VmHWM'] / 1024:.1f} MiB; "
        f"errors {tally.errors()}",
        flush=True,
    )
    return 1 if tally.errors() or ratio > TARGET else 0


def _every(step: float, total: float) -> list[float]:
    marks, t = [], step
    while t < total:
        marks.append(t)
        t += step
    return [*marks, total]


if __name__ == "__main__":
    sys.exit(main())
