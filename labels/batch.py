"""Pre-labelling a folder of photos: find them, skip those already done, read the rest on
one or more worker processes (or on Ray, `labels.ray_engine`), keep each result as it comes.

Each photo's labels are appended to `OUT/labels.jsonl` as soon as it is read, so a run that
is stopped loses at most the photos being read at that moment; the next run skips every
photo whose path, size and modification time match a kept line. A photo that cannot be read
(not an image, cut short, too large) is reported and counted, never stops the batch, and is
tried again by the next run.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labels.record import PhotoLabels, photo_labels

YOLO_DIR = "yolo"  # labels.writers.YOLO_DIR: its images/ links to the photos
PHOTO_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".webp"})
RECORDS = "labels.jsonl"


@dataclass(frozen=True)
class Photo:
    """A photo to label: its path relative to the folder (with '/'), size and mtime."""

    rel: str
    size: int
    mtime_ns: int

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.rel, self.size, self.mtime_ns)


@dataclass(frozen=True)
class Outcome:
    """What reading one photo gave: its labels, or why it could not be read."""

    photo: Photo
    labels: PhotoLabels | None = None
    error: str | None = None


def find_photos(root: Path, skip: Path | None = None) -> list[Photo]:
    """Every JPEG, PNG and WebP under `root`, sorted by path; nothing under `skip` (the
    output folder, when it lies inside `root`: its links to the photos are not photos), nor
    under its `yolo/` when it is `root` itself. Linked folders are not followed (a link to
    a parent would never end)."""
    skipped = set()
    if skip is not None:
        skipped = {skip.resolve(), (skip / YOLO_DIR).resolve()}
    found = []
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if (here / d).resolve() not in skipped)
        for name in files:
            path = here / name
            if path.suffix.lower() not in PHOTO_SUFFIXES:
                continue
            try:
                stat = path.stat()
            except OSError:
                continue  # a dangling link: nothing to read
            if not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            found.append(Photo(rel, stat.st_size, stat.st_mtime_ns))
    return sorted(found, key=lambda p: p.rel)


class Records:
    """`OUT/labels.jsonl`: the labels of each photo done, one JSON line each."""

    def __init__(self, out: Path) -> None:
        self.path = out / RECORDS
        self.done: dict[str, tuple[tuple[str, int, int], PhotoLabels]] = {}
        if self.path.is_file():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                self._keep_line(line)

    def _keep_line(self, line: str) -> None:
        try:
            data = json.loads(line)
            key = (str(data["photo"]), int(data["size"]), int(data["mtime_ns"]))
            self.done[key[0]] = (key, PhotoLabels.from_json(data["labels"]))
        except (ValueError, KeyError, TypeError, IndexError):
            pass  # a line cut short by a stopped run: that photo is read again

    def is_done(self, photo: Photo) -> bool:
        kept = self.done.get(photo.rel)
        return kept is not None and kept[0] == photo.key

    def add(self, photo: Photo, labels: PhotoLabels) -> None:
        self.done[photo.rel] = (photo.key, labels)
        line = json.dumps(
            {
                "photo": photo.rel,
                "size": photo.size,
                "mtime_ns": photo.mtime_ns,
                "labels": labels.to_json(),
            },
            ensure_ascii=False,
        )
        with self.path.open("a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()

    def labels_of(self, photos: Iterable[Photo]) -> list[PhotoLabels]:
        return [self.done[p.rel][1] for p in photos if self.is_done(p)]

    def compact(self, photos: Iterable[Photo]) -> None:
        """Keep only the lines of `photos`, in path order (a photo read twice, or gone from
        the folder, leaves no stale line)."""
        lines = [
            json.dumps(
                {
                    "photo": p.rel,
                    "size": p.size,
                    "mtime_ns": p.mtime_ns,
                    "labels": self.done[p.rel][1].to_json(),
                },
                ensure_ascii=False,
            )
            for p in sorted(photos, key=lambda p: p.rel)
            if self.is_done(p)
        ]
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        partial.replace(self.path)


@dataclass(frozen=True)
class LabelerSettings:
    """What each worker loads once: the model files and the taught set (None: shipped
    models, no set). Picklable, so it travels to worker processes and Ray actors."""

    detector: str | None = None
    classifier: str | None = None
    tileset: Any = None  # vision.tileset.TileSet


class Labeler:
    """The recognizer of one worker, loaded once, labelling one photo a call."""

    def __init__(self, settings: LabelerSettings, recognizer: Any = None) -> None:
        if recognizer is None:
            from vision.pipeline import Recognizer

            recognizer = Recognizer(settings.detector, settings.classifier)
        self.recognizer = recognizer
        self.tileset = settings.tileset

    def __call__(self, root: Path, photo: Photo) -> Outcome:
        from vision.load import PhotoError

        try:
            result = self.recognizer.recognize(root / photo.rel, None, "mcr", self.tileset)
        except PhotoError as exc:
            return Outcome(photo, error=exc.message)
        except OSError as exc:
            return Outcome(photo, error=exc.strerror or str(exc))
        except Exception as exc:  # one photo that trips the reader must not end a night's batch
            return Outcome(photo, error=f"could not be read ({type(exc).__name__}: {exc})")
        width, height = result.photo.original_size
        return Outcome(photo, photo_labels(photo.rel, width, height, result.to_json()))


@dataclass
class Summary:
    """What a run did, as the command prints it and writes to `OUT/summary.json`."""

    photos: int = 0
    labelled: int = 0
    skipped: int = 0  # done by an earlier run
    failures: list[dict[str, str]] = field(default_factory=list)
    tiles: int = 0
    flagged_for_review: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "photos": self.photos,
            "labelled": self.labelled,
            "skipped_as_done": self.skipped,
            "failed": len(self.failures),
            "tiles": self.tiles,
            "flagged_for_review": self.flagged_for_review,
            "failures": self.failures,
        }


Engine = Callable[[Path, list[Photo]], Iterator[Outcome]]
Progress = Callable[[int, int, int], None]  # done, to do, failed


def run_batch(
    root: Path,
    out: Path,
    engine: Engine,
    progress: Progress | None = None,
) -> tuple[Summary, list[PhotoLabels]]:
    """Label every photo under `root` not yet done in `out`; the labels of all of them (done
    before and now), in path order."""
    out.mkdir(parents=True, exist_ok=True)
    photos = find_photos(root, skip=out)
    records = Records(out)
    todo = [p for p in photos if not records.is_done(p)]
    summary = Summary(photos=len(photos), skipped=len(photos) - len(todo))
    if progress:
        progress(0, len(todo), 0)
    for k, outcome in enumerate(engine(root, todo), start=1):
        if outcome.labels is not None:
            records.add(outcome.photo, outcome.labels)
            summary.labelled += 1
        else:
            summary.failures.append({"photo": outcome.photo.rel, "error": str(outcome.error)})
        if progress:
            progress(k, len(todo), len(summary.failures))
    records.compact(photos)
    labels = records.labels_of(photos)
    summary.tiles = sum(len(p.tiles) for p in labels)
    summary.flagged_for_review = sum(p.review for p in labels)
    summary.failures.sort(key=lambda f: f["photo"])
    return summary, labels


# Worker processes: each loads its labeler once (the models take a second or two).
_worker: Labeler | None = None


def _start_worker(settings: LabelerSettings) -> None:
    global _worker
    _worker = Labeler(settings)


def _label_in_worker(job: tuple[Path, Photo]) -> Outcome:
    assert _worker is not None
    return _worker(*job)


def local_engine(
    settings: LabelerSettings, workers: int = 1, labeler: Labeler | None = None
) -> Engine:
    """Photos read in this process (`workers` 1) or on that many processes, each with its own
    models. `labeler`: one already loaded, for one worker."""

    def engine(root: Path, photos: list[Photo]) -> Iterator[Outcome]:
        if not photos:
            return
        if workers <= 1:
            one = labeler or Labeler(settings)
            for photo in photos:
                yield one(root, photo)
            return
        # spawn, not fork: onnxruntime's threads do not survive a fork of a process that ran it
        context = multiprocessing.get_context("spawn")
        with context.Pool(min(workers, len(photos)), _start_worker, (settings,)) as pool:
            yield from pool.imap_unordered(_label_in_worker, [(root, p) for p in photos])

    return engine
