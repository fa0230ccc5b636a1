"""The caps that keep one process's memory and CPU bounded whatever clients send.

Defaults suit a phone photo (2-8 MB JPEG) on a small server; `Limits.from_env` lets an
operator change them with MJLENS_* environment variables without touching code.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields

MIB = 1024 * 1024


def _default_workers() -> int:
    # Each ONNX session already runs on up to 4 threads (vision.sessions.session_options):
    # more recognitions at once than cores / 4 only makes them contend.
    cores = os.cpu_count() or 1
    return max(1, cores // min(4, cores))


@dataclass(frozen=True)
class Limits:
    photo_bytes: int = 20 * MIB  # the photo file part
    form_overhead_bytes: int = 64 * 1024  # boundaries, part headers and context fields
    field_bytes: int = 1024  # one context field (a wind, a flag, a count)
    form_fields: int = 16  # context fields per request
    json_bytes: int = 64 * 1024  # a Hand JSON body; a real one is under 1 KB
    json_depth: int = 32  # nesting in a Hand JSON body; a real one has depth 3
    # Teaching a tile set: one enrollment photo holds every face, so a few photos a request
    # are plenty. All of them together are held to one photo's cap, so the memory uploads
    # can hold stays admitted * form_bytes.
    teach_photos: int = 8
    teach_bytes: int = 20 * MIB
    labels_bytes: int = 64 * 1024  # the labels JSON of a correction; 14 tiles take ~2 KB
    # Recognition runs on this many worker threads; more requests wait in line.
    workers: int = field(default_factory=_default_workers)
    # Photos received in full and waiting for a worker or being read, at once: bounds the
    # memory that received photos can take (admitted * photo_bytes). A request still
    # uploading is not counted here; bodies in flight have caps of their own below.
    admitted: int = 24
    # Request bodies in flight at once, in all and from one client address. A body parser
    # spools a photo past 1 MiB to disk, so these bound sockets and tasks more than memory.
    # When either is full, a new body takes the place of the oldest one under `body_min_rate`
    # (a trickle); only bodies that all keep pace make a newcomer wait (503).
    bodies: int = 64
    client_bodies: int = 32
    # How a body must keep coming: no gap longer than `body_idle_s`, and from
    # `body_grace_s` on at least `body_min_rate` bytes a second on average since it began
    # (a phone on a weak 3G link sends ~30 KB/s); all of it within `body_total_s`. A body
    # that falls behind is cut off with 408.
    body_idle_s: float = 15.0
    body_grace_s: float = 10.0
    body_min_rate: int = 1024
    body_total_s: float = 300.0
    # The request line and headers must arrive within this (mjlens serve's HTTP layer),
    # and the headers come to at most this many bytes.
    header_timeout_s: float = 10.0
    header_bytes: int = 16 * 1024
    queue_wait_s: float = 20.0  # how long an admitted request may wait for a worker
    retry_after_s: int = 5  # the Retry-After hint on 503
    model_retry_s: float = 30.0  # how often to retry loading models that failed to load

    @property
    def form_bytes(self) -> int:
        return self.photo_bytes + self.form_overhead_bytes

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Limits:
        """Limits with any MJLENS_<FIELD> variable (e.g. MJLENS_PHOTO_BYTES) applied."""
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for spec in fields(cls):
            raw = env.get(f"MJLENS_{spec.name.upper()}")
            if raw is None:
                continue
            kind = float if spec.type in ("float", float) else int
            try:
                values[spec.name] = kind(raw)
            except ValueError as exc:
                raise ValueError(f"MJLENS_{spec.name.upper()}={raw!r} is not a number") from exc
        return cls(**values)  # type: ignore[arg-type]
