"""People's corrections back into a training set: corrected COCO files or Label Studio JSON
exports in, one COCO set in the layout the trainers read (`mjlens synth`'s):

    DIR/annotations.coco.json      boxes, codes, corners, face_down, sideways
    DIR/images/REL                 a copy of each photo, REL its path in the labelled folder

Everything is read and checked before anything is written: an import that fails writes
nothing. A photo named in several files takes the labels of the last file.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from datasets import labelstudio
from datasets.coco import CLASS_LIST, build_coco, numbers
from labels.paths import UnsafePath, inside
from scoring.tiles import BACK, CLASSES

COCO_FILE = "annotations.coco.json"
IMAGES = "images"
_CODE_BY_LOWER = {code.lower(): code for code in CLASSES}
# Label Studio prefixes an uploaded file's name with 8 hex digits and a dash.
_UPLOAD_PREFIX_LENGTH = 9

Box = tuple[float, float, float, float]


class LabelFileError(ValueError):
    """A label file that cannot be imported; the message names the file and the fault."""


@dataclass(frozen=True)
class TileBox:
    """One labelled tile: its code, box [x, y, w, h] and face corners (TL TR BR BL)."""

    code: str
    box: Box
    corners: list[list[float]]
    face_down: bool = False
    sideways: bool = False

    def to_annotation(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "bbox": [round(v, 3) for v in self.box],
            "corners": [[round(x, 3), round(y, 3)] for x, y in self.corners],
            "face_down": self.face_down,
            "sideways": self.sideways,
        }


@dataclass(frozen=True)
class LabelledPhoto:
    """A photo and its tiles as a person left them."""

    rel: str  # its path in the set, with '/'
    source: Path  # where the photo is now
    width: int
    height: int
    tiles: list[TileBox]


def box_corners(box: Box) -> list[list[float]]:
    """An upright box's corners TL TR BR BL: the face's, where a label gives no corners."""
    x, y, w, h = box
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def read_label_file(path: Path, images: Path | None = None) -> list[LabelledPhoto]:
    """The photos of one COCO file or Label Studio JSON export. `images`: the folder the
    photos' paths are relative to (default: a COCO file's `info.images_root`, else its own
    folder; for Label Studio, the current folder, else the export's own)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LabelFileError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LabelFileError(f"{path}: not a JSON file ({exc})") from None
    try:
        if isinstance(data, dict) and {"images", "annotations", "categories"} <= set(data):
            return _from_coco(data, path, images)
        if isinstance(data, list):
            return _from_labelstudio(data, [images] if images else [Path.cwd(), path.parent])
    except (UnsafePath, labelstudio.LabelStudioError) as exc:
        raise LabelFileError(f"{path}: {exc}") from None
    raise LabelFileError(f"{path}: neither a COCO file nor a Label Studio JSON export")


def _from_coco(coco: Mapping[str, Any], path: Path, images: Path | None) -> list[LabelledPhoto]:
    if images is None:
        recorded = (coco.get("info") or {}).get("images_root")
        images = Path(recorded) if recorded and Path(recorded).is_dir() else path.parent
    try:
        names = {c["id"]: _code(str(c["name"])) for c in coco["categories"]}
        files = {im["id"]: im for im in coco["images"]}
    except (KeyError, TypeError):
        raise LabelFileError(f"{path}: categories need id and name, images id") from None
    except ValueError as exc:
        raise LabelFileError(f"{path}: {exc}") from None
    tiles: dict[Any, list[TileBox]] = {k: [] for k in files}
    for k, ann in enumerate(coco["annotations"]):
        if not isinstance(ann, dict) or ann.get("image_id") not in files:
            raise LabelFileError(f"{path}: annotations[{k}] names no listed image")
        if ann.get("category_id") not in names:
            raise LabelFileError(f"{path}: annotations[{k}] names no listed category")
        try:
            box = _box(ann.get("bbox"))
            corners = _corners(ann.get("corners")) or box_corners(box)
        except ValueError as exc:
            raise LabelFileError(f"{path}: annotations[{k}]: {exc}") from None
        code = names[ann["category_id"]]
        tiles[ann["image_id"]].append(
            TileBox(
                code,
                box,
                corners,
                bool(ann.get("face_down")) or code == BACK,
                bool(ann.get("sideways")),
            )
        )
    out = []
    for image_id, image in files.items():
        try:
            rel = str(image["file_name"])
            size = int(image["width"]), int(image["height"])
        except (KeyError, TypeError, ValueError):
            raise LabelFileError(f"{path}: images need file_name, width and height") from None
        source = inside(images, rel)
        out.append(LabelledPhoto(_posix(rel), source, *size, tiles[image_id]))
    return out


def _code(name: str) -> str:
    code = _CODE_BY_LOWER.get(name.lower())
    if code is None:
        raise ValueError(f"category {name!r} is not a tile code ({' '.join(CLASSES)})")
    return code


def _from_labelstudio(export: list[Any], roots: list[Path]) -> list[LabelledPhoto]:
    """The export's photos, each found under the first of `roots` that has it."""
    out = []
    for task in labelstudio.read_export(export):
        rel = _photo_of(task)
        found = [inside(root, rel) for root in roots]
        source = next((f for f in found if f.is_file()), found[0])
        width, height = task.width, task.height
        if width is None or height is None:
            width, height = _size_of(source)
        tiles = [TileBox(code, box, box_corners(box), code == BACK) for code, box in task.boxes]
        out.append(LabelledPhoto(rel, source, width, height, tiles))
    return out


def _photo_of(task: labelstudio.ExportedTask) -> str:
    """The photo's path: `data.photo` as `mjlens label` writes it, else the image URL's
    local-files path, else an uploaded file's own name."""
    photo = task.data.get("photo")
    if isinstance(photo, str) and photo:
        return _posix(photo)
    url = urlparse(task.image)
    local = parse_qs(url.query).get("d")
    if local:
        return _posix(local[0])
    name = unquote(Path(url.path).name)
    if url.path.startswith("/data/upload/") and len(name) > _UPLOAD_PREFIX_LENGTH:
        name = name[_UPLOAD_PREFIX_LENGTH:]
    if not name:
        raise labelstudio.LabelStudioError(f"a task names no photo ({task.image!r})")
    return name


def _size_of(photo: Path) -> tuple[int, int]:
    from vision.load import PhotoError, load_photo

    try:
        return load_photo(photo).original_size
    except (PhotoError, OSError) as exc:
        raise LabelFileError(f"{photo}: {getattr(exc, 'message', exc)}") from None


def _posix(rel: str) -> str:
    return rel.replace("\\", "/")


def _box(value: Any) -> Box:
    x, y, w, h = numbers(value, 4)
    if w <= 0 or h <= 0:
        raise ValueError("bbox has no area")
    return (x, y, w, h)


def _corners(value: Any) -> list[list[float]] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 4:
        raise ValueError("corners must be four [x, y] points")
    return [numbers(point, 2) for point in value]


@dataclass(frozen=True)
class ImportSummary:
    photos: int
    tiles: int
    files: int
    coco: Path

    def to_json(self) -> dict[str, Any]:
        return {
            "photos": self.photos,
            "tiles": self.tiles,
            "files": self.files,
            "coco": str(self.coco),
        }


def import_labels(files: Sequence[Path], out: Path, images: Path | None = None) -> ImportSummary:
    """Read every file, check every photo is there, then write the set under `out`."""
    photos: dict[str, LabelledPhoto] = {}
    for path in files:
        for photo in read_label_file(path, images):
            photos[photo.rel] = photo  # the last file's labels of a photo stand
    for photo in photos.values():
        if not photo.source.is_file():
            raise LabelFileError(f"photo {photo.rel!r} not found at {photo.source} (give --images)")
    ordered = sorted(photos.values(), key=lambda p: p.rel)
    records = []
    for photo in ordered:
        target = inside(out / IMAGES, photo.rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or not target.samefile(photo.source):
            shutil.copyfile(photo.source, target)
        anns = [t.to_annotation() for t in photo.tiles]
        records.append((f"{IMAGES}/{photo.rel}", photo.width, photo.height, None, anns))
    coco = build_coco(records, {"description": "mjlens labels", "class_list": CLASS_LIST})
    path = out / COCO_FILE
    path.write_text(json.dumps(coco, ensure_ascii=False), encoding="utf-8")
    return ImportSummary(len(ordered), len(coco["annotations"]), len(files), path)


__all__ = [
    "ImportSummary",
    "LabelFileError",
    "LabelledPhoto",
    "TileBox",
    "import_labels",
    "read_label_file",
]
