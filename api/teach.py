"""Teaching and using taught tile sets, as the command line and the HTTP API both do it.

Photos are read (detected, classified, embedded) before a set is touched, and every photo of
one request is checked before any look is stored: a request that fails teaches nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

from api.tilesets import SetStore
from datasets.coco import numbers
from scoring.tiles import CLASSES
from vision.classify import Classifier
from vision.enroll import EnrollmentError
from vision.pipeline import Recognizer
from vision.recognition import Recognition
from vision.teaching import (
    Label,
    Looks,
    enrollment_looks,
    label_looks,
    reading_looks,
    reembedded,
)
from vision.tileset import TileSet, TileSetError

# What one request may teach: photos, and labels per photo.
MAX_PHOTOS = 50
MAX_LABELS = 400


_CODE_BY_LOWER = {code.lower(): code for code in CLASSES}


class TeachError(ValueError):
    """A request that cannot teach the set; the message says why (which photo, which row)."""


@dataclass(frozen=True)
class LabelledPhoto:
    """A photo with a person's labels: where it came from, its bytes or path, the labels,
    and the size (width, height) the boxes were measured on where the labelling file says."""

    origin: str
    data: bytes | Path
    labels: Sequence[Label]
    measured_on: tuple[int, int] | None = None


@dataclass
class Report:
    """What a teaching request did, as `mjlens sets` prints it and the API returns it."""

    set: str
    looks_added: int = 0
    photos: int = 0
    matched: int = 0
    as_drawn: int = 0
    warnings: list[str] = field(default_factory=list)
    faces: int = 0
    looks: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "set": self.set,
            "looks_added": self.looks_added,
            "photos": self.photos,
            "labels_matched_to_a_tile": self.matched,
            "labels_read_inside_their_box": self.as_drawn,
            "warnings": self.warnings,
            "faces": self.faces,
            "looks": self.looks,
        }


def open_set(store: SetStore, name: str, classifier: Classifier) -> TileSet:
    """The set called `name`, its looks read by `classifier` (a set taught under another
    classifier, or written before how the classifier read its looks was kept, is read again
    from its crops, and kept so)."""
    tileset = store.load(name)
    digest = classifier.digest
    if not tileset.read_by(digest):
        tileset = store.update(name, lambda t: reembedded(t, classifier, digest))
    return tileset


def asked_set(name: str | None, classifier: Classifier) -> TileSet | None:
    """The set `--set NAME` asks for, under $MJLENS_HOME (`open_set`); None without one."""
    return None if name is None else open_set(SetStore(), name, classifier)


def _store_looks(
    store: SetStore, name: str, recognizer: Recognizer, looks: Sequence[Looks]
) -> TileSet:
    digest = recognizer.classifier_digest
    classifier = recognizer.classifier

    def change(tileset: TileSet) -> TileSet:
        tileset = reembedded(tileset, classifier, digest)
        for batch in looks:
            tileset = batch.added_to(tileset, digest)
        return tileset

    return store.update(name, change)


def _report(name: str, looks: Sequence[Looks], after: TileSet) -> Report:
    return Report(
        name,
        looks_added=sum(len(b) for b in looks),
        photos=len(looks),
        matched=sum(b.matched for b in looks),
        as_drawn=sum(b.as_drawn for b in looks),
        warnings=[w for b in looks for w in b.warnings],
        faces=len(after.faces),
        looks=len(after),
    )


def enroll(
    store: SetStore,
    name: str,
    recognizer: Recognizer,
    photos: Sequence[tuple[str, bytes | Path]],
) -> Report:
    """Teach `name` from enrollment photos (origin, data); TeachError names the photo and
    row that does not fit, and nothing is taught then."""
    store.path(name)  # a bad name fails before any photo is read
    if not photos:
        raise TeachError("no enrollment photo given")
    if len(photos) > MAX_PHOTOS:
        raise TeachError(f"at most {MAX_PHOTOS} photos at once")
    batches = []
    for origin, data in photos:
        photo, tiles = recognizer.read_tiles(data)
        try:
            # Asked for only where the photo's sure tiles do not fit the order.
            faint = partial(recognizer.faint_tiles, photo)
            looks, _ = enrollment_looks(photo, tiles, origin, recognizer.classifier, faint)
        except EnrollmentError as exc:
            raise TeachError(f"{origin}: {exc}") from exc
        batches.append(looks)
    return _report(name, batches, _store_looks(store, name, recognizer, batches))


def learn(
    store: SetStore, name: str, recognizer: Recognizer, result: Recognition, origin: str
) -> tuple[int, TileSet | None]:
    """Teach `name` the faces of a reading no review check flagged (`vision.teaching.
    reading_looks`), as `mjlens recognize --learn` and `/v1/recognize` with `learn` do: a
    referee's night of wins teaches the table's set as it is read. Returns the looks added
    and the set after (None where nothing was added: a flagged reading, or no hand)."""
    if result.photo is None:
        return 0, None
    looks = reading_looks(result.photo, result, origin, recognizer.classifier)
    if not len(looks):
        return 0, None
    return len(looks), _store_looks(store, name, recognizer, [looks])


def add_labels(
    store: SetStore,
    name: str,
    recognizer: Recognizer,
    photos: Sequence[LabelledPhoto],
) -> Report:
    """Teach `name` from photos with labelled tiles: each label's face is cut where a
    detection matches its box, else inside the box as drawn. Boxes measured on the photo
    before its EXIF turn, or on a copy of another size, are moved into its frame where they
    fit its tiles better so (`vision.teaching.in_photo_frame`), with a warning."""
    store.path(name)
    if not photos:
        raise TeachError("no labelled photo given")
    if len(photos) > MAX_PHOTOS:
        raise TeachError(f"at most {MAX_PHOTOS} photos at once")
    batches = []
    for item in photos:
        if not item.labels:
            raise TeachError(f"{item.origin}: no labelled tile")
        if len(item.labels) > MAX_LABELS:
            raise TeachError(f"{item.origin}: at most {MAX_LABELS} labels a photo")
        photo, tiles = recognizer.read_tiles(item.data)
        batches.append(
            label_looks(
                photo, tiles, item.labels, item.origin, recognizer.classifier, item.measured_on
            )
        )
    return _report(name, batches, _store_looks(store, name, recognizer, batches))


def labels_from_json(items: Any, where: str = "labels") -> list[Label]:
    """`[{"code": "1s", "bbox": [x, y, w, h]} | {"code": ..., "corners": [[x, y] x 4]}]` as
    labels; TeachError naming the bad item."""
    if not isinstance(items, list):
        raise TeachError(f"{where}: a list of {{code, bbox or corners}} objects")
    labels = []
    for k, item in enumerate(items):
        at = f"{where}[{k}]"
        if not isinstance(item, dict):
            raise TeachError(f"{at}: an object with code and bbox or corners")
        code = item.get("code")
        if code not in CLASSES:
            raise TeachError(f"{at}: unknown tile code {code!r} (codes as in DESIGN.md)")
        try:
            bbox = item.get("bbox")
            corners = item.get("corners")
            labels.append(
                Label(
                    str(code),
                    tuple(_numbers(bbox, 4)) if bbox is not None else None,  # type: ignore[arg-type]
                    tuple(tuple(_numbers(p, 2)) for p in corners)  # type: ignore[misc]
                    if corners is not None
                    else None,
                )
            )
        except (TypeError, ValueError) as exc:
            raise TeachError(f"{at}: {exc}") from exc
    return labels


def _numbers(value: Any, n: int) -> list[float]:
    """A label's numbers, within a range no photo's pixels leave."""
    values = numbers(value, n)
    if not all(abs(v) < 1e6 for v in values):
        raise ValueError(f"coordinates out of range: {value!r}")
    return values


def _measured_on(image: Any) -> tuple[int, int] | None:
    """An image entry's width and height, where it gives both; ValueError where they are
    not positive whole numbers of pixels."""
    if not isinstance(image, dict):
        return None
    width, height = image.get("width"), image.get("height")
    if width is None or height is None:
        return None
    size = numbers([width, height], 2)
    if not all(0 < v < 1e6 and v == int(v) for v in size):
        raise ValueError(f"{[width, height]!r} is no photo's size in pixels")
    return int(size[0]), int(size[1])


def _photo_of(path: Path, file_name: str, images: Path | None) -> Path | None:
    """Where a COCO file's `file_name` is: under `images` where given; else beside the
    file, or in the images/ folder beside it or beside its own folder, where labelling
    tools export the photos (CVAT: annotations/instances_default.json and images/). In each
    folder the name as written, then its last part: a tool may write the path the photo
    had on the labelling server."""
    folders = [images] if images is not None else [path.parent]
    if images is None:
        folders += [path.parent / "images", path.parent.parent / "images"]
    for folder in folders:
        for name in (file_name, PurePosixPath(file_name.replace("\\", "/")).name):
            photo = (folder / name).resolve()
            if photo.is_file():
                return photo
    return None


def read_coco(path: Path, folder: Path | None = None) -> list[LabelledPhoto]:
    """A COCO file's photos and their labels: `images[].file_name` relative to `folder`,
    else to the file's folder (`_photo_of`), `annotations[].bbox` [x, y, w, h] in the photo's
    pixels (`images[].width` and `height`, where given, the size they were measured on),
    `categories[].name` a tile code. Every photo and label is checked first; TeachError
    names the first fault."""
    try:
        coco = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise TeachError(f"{path}: no such file") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TeachError(f"{path}: not a COCO JSON file ({exc})") from exc
    if not isinstance(coco, dict) or not all(
        isinstance(coco.get(k), list) for k in ("images", "annotations", "categories")
    ):
        raise TeachError(f"{path}: a COCO file needs images, annotations and categories lists")
    try:
        names = {c["id"]: str(c["name"]) for c in coco["categories"]}
        images = {im["id"]: str(im["file_name"]) for im in coco["images"]}
        sizes = {im["id"]: _measured_on(im) for im in coco["images"]}
    except (KeyError, TypeError) as exc:
        raise TeachError(f"{path}: categories need id and name, images id and file_name") from exc
    except ValueError as exc:
        raise TeachError(f"{path}: images[].width and height: {exc}") from exc
    # Tile codes as DESIGN.md writes them, whatever the labelling tool did to their case.
    names = {k: _CODE_BY_LOWER.get(n.lower(), n) for k, n in names.items()}
    unknown = sorted({n for n in names.values() if n not in CLASSES})
    by_image: dict[Any, list[Label]] = {i: [] for i in images}
    for k, ann in enumerate(coco["annotations"]):
        if not isinstance(ann, dict) or ann.get("image_id") not in images:
            raise TeachError(f"{path}: annotations[{k}] names no listed image")
        name = names.get(ann.get("category_id"))
        if name is None:
            raise TeachError(f"{path}: annotations[{k}] names no listed category")
        if name in unknown:
            raise TeachError(
                f"{path}: category {name!r} is not a tile code (codes: {' '.join(CLASSES)})"
            )
        try:
            bbox = _numbers(ann.get("bbox"), 4)
            by_image[ann["image_id"]].append(Label(name, (bbox[0], bbox[1], bbox[2], bbox[3])))
        except ValueError as exc:
            raise TeachError(f"{path}: annotations[{k}].bbox: {exc}") from exc
    out = []
    for image_id, file_name in images.items():
        labels = by_image[image_id]
        if not labels:
            continue
        photo = _photo_of(path, file_name, folder)
        if photo is None:
            where = f"in {folder}" if folder is not None else "beside it (give --images)"
            raise TeachError(f"{path}: image {file_name!r} not found {where}")
        out.append(LabelledPhoto(file_name, photo, labels, sizes[image_id]))
    if not out:
        raise TeachError(f"{path}: no labelled tile in it")
    return out


__all__ = [
    "MAX_LABELS",
    "MAX_PHOTOS",
    "LabelledPhoto",
    "Report",
    "TeachError",
    "TileSetError",
    "add_labels",
    "asked_set",
    "enroll",
    "labels_from_json",
    "open_set",
    "read_coco",
]
