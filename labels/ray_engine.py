"""The same batch on Ray Data: `map_batches` over the photos' paths with a callable class, so
each Ray worker loads the onnxruntime sessions once and reads many photos with them.

Without an address Ray starts on this machine with `workers` CPUs; with one (`ray://...` or
`auto` inside a cluster) the photos' folder must be at the same path on every node (a shared
or mounted file system), as the workers open the photos themselves. Needs the `ray` extra.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labels.batch import Engine, Labeler, LabelerSettings, Outcome, Photo
from labels.record import PhotoLabels

BATCH = 4  # photos a call: small, so that a slow photo holds few others back


class RayUnavailable(RuntimeError):
    """Ray is not installed, or could not start or reach its cluster."""


class RayLabeler:
    """One Ray worker's labeler: its models loaded in `__init__`, once per worker."""

    def __init__(self, settings: LabelerSettings, root: str) -> None:
        self.labeler = Labeler(settings)
        self.root = Path(root)

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[str]]:
        rows = []
        for rel, size, mtime in zip(batch["rel"], batch["size"], batch["mtime_ns"], strict=True):
            outcome = self.labeler(self.root, Photo(str(rel), int(size), int(mtime)))
            labels = outcome.labels.to_json() if outcome.labels is not None else None
            # One JSON string a row: Ray's Arrow blocks need no schema for the labels.
            rows.append(json.dumps({"rel": str(rel), "labels": labels, "error": outcome.error}))
        return {"outcome": rows}


def ray_engine(settings: LabelerSettings, workers: int = 2, address: str | None = None) -> Engine:
    """An engine for `labels.batch.run_batch` that reads the photos on `workers` Ray actors."""

    def engine(root: Path, photos: list[Photo]) -> Iterator[Outcome]:
        if not photos:
            return
        ray = _start(workers, address)
        by_rel = {p.rel: p for p in photos}
        items = [{"rel": p.rel, "size": p.size, "mtime_ns": p.mtime_ns} for p in photos]
        dataset = ray.data.from_items(items, override_num_blocks=max(1, len(items) // BATCH))
        read = dataset.map_batches(
            RayLabeler,
            fn_constructor_kwargs={"settings": settings, "root": str(root.resolve())},
            batch_size=BATCH,
            compute=ray.data.ActorPoolStrategy(size=workers),
            num_cpus=1,
            batch_format="numpy",
        )
        for row in read.iter_rows():
            data = json.loads(row["outcome"])
            photo = by_rel[data["rel"]]
            labels = PhotoLabels.from_json(data["labels"]) if data["labels"] else None
            yield Outcome(photo, labels, data["error"])

    return engine


def _start(workers: int, address: str | None) -> Any:
    try:
        import ray
        import ray.data  # Ray Data is the `ray[data]` part
    except ImportError as exc:
        raise RayUnavailable(
            "--engine ray needs Ray: pip install 'mjlens[ray]' (or pip install 'ray[data]')"
        ) from exc
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        except Exception as exc:  # Ray raises many kinds (ConnectionError, RuntimeError, ...)
            raise RayUnavailable(f"Ray could not start: {exc}") from exc
        ray.data.DataContext.get_current().enable_progress_bars = False
    return ray
