"""Load test of the HTTP API: N concurrent clients on loopback against `mjlens serve`.

    python benchmarks/load.py                    # 16 clients, 120 s, /v1/score + /v1/recognize
    python benchmarks/load.py --seconds 20 --app tests.api.fakes:create_replay_app

Clients mix /v1/score (generated legal hands) with /v1/recognize (the bundled sample photo)
when the server's models are loaded (/readyz 200). Prints requests, p50/p99 latency, errors,
and the server's resident memory (VmRSS, and its peak VmHWM) at start, middle and end, to
show memory stays flat. Exit status 1 when any request failed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.serving import (
    SAMPLE,
    free_port,
    memory_kib,
    start_server,
    stop_server,
    wait_ready,
)


@dataclass
class Results:
    latencies: dict[str, list[float]] = field(
        default_factory=lambda: {"score": [], "recognize": []}
    )
    errors: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float, error: str | None) -> None:
        with self.lock:
            if error:
                self.errors[f"{kind}: {error}"] += 1
            else:
                self.latencies[kind].append(seconds)


def client_loop(
    base: str,
    hands: list[dict[str, object]],
    photo: bytes | None,
    share: float,
    deadline: float,
    seed: int,
    results: Results,
) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=60) as client:
        while time.monotonic() < deadline:
            kind = "recognize" if photo is not None and rng.random() < share else "score"
            started = time.perf_counter()
            try:
                if kind == "score":
                    response = client.post("/v1/score", json=rng.choice(hands))
                else:
                    files = {"photo": ("sample.jpg", photo, "image/jpeg")}
                    response = client.post("/v1/recognize", files=files, data={"seat_wind": "E"})
                error = None if response.status_code == 200 else f"HTTP {response.status_code}"
                if error is None and kind == "score" and not response.json().get("valid"):
                    error = "a legal hand scored invalid"
            except httpx.HTTPError as exc:
                error = type(exc).__name__
            results.add(kind, time.perf_counter() - started, error)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument(
        "--recognize-share",
        type=float,
        default=0.25,
        help="fraction of requests that are photos, when models are loaded",
    )
    parser.add_argument(
        "--app",
        default="api.app:create_app",
        help="uvicorn app factory (default api.app:create_app)",
    )
    parser.add_argument(
        "--ready-wait",
        type=float,
        default=60.0,
        help="seconds to wait for the models before running score-only",
    )
    args = parser.parse_args()

    from scoring.generate import generate_hands

    hands = list(generate_hands(seed=1, n=500))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(args.app, port)
    try:
        ready = wait_ready(base, args.ready_wait)
        photo = SAMPLE.read_bytes() if ready else None
        mode = "score + recognize" if ready else "score only (models not loaded: /readyz 503)"
        print(f"load: {args.clients} clients for {args.seconds:.0f} s on {base}, {mode}")
        results = Results()
        memory = [("start", memory_kib(server.pid))]
        started = time.monotonic()
        deadline = started + args.seconds
        threads = [
            threading.Thread(
                target=client_loop,
                args=(base, hands, photo, args.recognize_share, deadline, i, results),
            )
            for i in range(args.clients)
        ]
        for thread in threads:
            thread.start()
        # "warm" comes after the first requests allocated what a process keeps (imports,
        # thread pools, the recognizer's buffers): stable memory is warm ~ middle ~ end.
        time.sleep(args.seconds * 0.1)
        memory.append(("warm", memory_kib(server.pid)))
        time.sleep(args.seconds * 0.4)
        memory.append(("middle", memory_kib(server.pid)))
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        memory.append(("end", memory_kib(server.pid)))
    finally:
        stop_server(server)
    return report(results, memory, elapsed)


def report(results: Results, memory: list[tuple[str, dict[str, int]]], elapsed: float) -> int:
    everything = [s for values in results.latencies.values() for s in values]
    errors = sum(results.errors.values())
    print(
        f"requests: {len(everything) + errors} in {elapsed:.1f} s "
        f"({(len(everything) + errors) / elapsed:.1f}/s), errors: {errors}"
    )
    for kind, values in (("all", everything), *results.latencies.items()):
        if values:
            print(
                f"  {kind:<10} n={len(values):<6} p50={percentile(values, 0.5) * 1000:7.1f} ms  "
                f"p99={percentile(values, 0.99) * 1000:7.1f} ms  "
                f"mean={statistics.fmean(values) * 1000:7.1f} ms"
            )
    for error, count in results.errors.most_common():
        print(f"  error {error}: {count}")
    for when, kib in memory:
        print(
            f"server memory at {when:<6}: RSS {kib['VmRSS'] / 1024:6.1f} MiB, "
            f"peak (VmHWM) {kib['VmHWM'] / 1024:6.1f} MiB"
        )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
