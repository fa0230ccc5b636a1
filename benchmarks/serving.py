"""What the server benchmarks share: `mjlens serve` started on a free port, its memory from
/proc, and phone-sized photos made from the bundled sample.

The server runs exactly as a user starts it (`python -m api.cli serve`), HTTP layer and all;
`app` picks the app factory (the replaying stand-in for runs without models).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import cv2
import httpx
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "api" / "static" / "sample.jpg"
REAL_APP = "api.app:create_app"


def memory_kib(pid: int) -> dict[str, int]:
    """VmRSS (now) and VmHWM (peak so far) of a process, in KiB, from /proc."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0])
    return values


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(
    app: str, port: int, env: Mapping[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """`mjlens serve --app APP` on 127.0.0.1:`port`, once /healthz answers."""
    command = [sys.executable, "-m", "api.cli", "serve", "--port", str(port)]
    command += ["--log-level", "error", "--app", app]
    process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **(env or {})})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.2)
        if process.poll() is not None:
            break
    process.kill()
    raise SystemExit(f"the server did not start (exit {process.poll()})")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def wait_ready(base: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if httpx.get(base + "/readyz", timeout=5).status_code == 200:
            return True
        time.sleep(0.5)
    return False


def phone_photos(n: int, megapixels: float = 12.0, seed: int = 0) -> list[bytes]:
    """`n` distinct JPEGs of `megapixels` (4:3, alternately landscape and portrait): the
    sample scaled up, with sensor-like noise and a JPEG quality of 85-95, about the size
    a phone writes (2-4 MB at 12 MP)."""
    base = cv2.imread(str(SAMPLE))
    rng = np.random.default_rng(seed)
    long_side = round((megapixels * 1e6 * 4 / 3) ** 0.5)
    short_side = long_side * 3 // 4
    photos = []
    for i in range(n):
        size = (long_side, short_side) if i % 2 == 0 else (short_side, long_side)
        big = cv2.resize(base, size, interpolation=cv2.INTER_CUBIC)
        noise = rng.integers(0, 24, big.shape, dtype=np.uint8)
        big = cv2.subtract(cv2.add(big, noise), np.full_like(big, 12))
        quality = 85 + (i * 3) % 11
        ok, encoded = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        photos.append(encoded.tobytes())
    return photos
