"""A labelled folder's pre-labels written in the formats labeling tools and trainers open:

    OUT/annotations.coco.json        the master: COCO with each box's `score`, corners, role...
    OUT/yolo/data.yaml               YOLO: the class list, images/ and labels/ beside it
    OUT/yolo/labels/REL.txt          one per photo (REL: the photo's path in the folder)
    OUT/yolo/images/REL              a link to the photo (YOLO finds labels by the image path)
    OUT/labelstudio/tasks.json       Label Studio tasks with the boxes as `predictions`
    OUT/labelstudio/config.xml       the labeling config those tasks match

Every file is a function of the photos' labels alone (sorted by path), so labelling a folder
again writes the same bytes.
"""

from __future__ import annotations

import enum
import json
import os
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from datasets import labelstudio
from datasets.coco import CLASS_LIST, build_coco
from datasets.yolo import write_data_yaml, yolo_line
from labels.paths import inside
from labels.record import PhotoLabels

COCO_FILE = "annotations.coco.json"
YOLO_DIR = "yolo"
LABELSTUDIO_DIR = "labelstudio"
# Label Studio serves files of a folder it was told of under this path (its "local files"
# storage, with LABEL_STUDIO_LOCAL_FILES_DOCUMENT_ROOT set to the labelled folder).
LOCAL_FILES = "/data/local-files/?d="


class Format(enum.Enum):
    COCO = "coco"
    YOLO = "yolo"
    LABELSTUDIO = "labelstudio"


def parse_formats(text: str) -> list[Format]:
    """'coco,yolo' -> [Format.COCO, Format.YOLO]; ValueError names an unknown one."""
    out: list[Format] = []
    for name in (n.strip().lower() for n in text.split(",")):
        if not name:
            continue
        try:
            chosen = Format(name)
        except ValueError:
            known = ", ".join(f.value for f in Format)
            raise ValueError(f"unknown format {name!r} (formats: {known})") from None
        if chosen not in out:
            out.append(chosen)
    if not out:
        raise ValueError("no format given")
    return out


def write_all(
    labels: Sequence[PhotoLabels],
    photos_root: Path,
    out: Path,
    formats: Sequence[Format],
    image_url: str = LOCAL_FILES,
) -> list[Path]:
    """Write each asked format under `out`; returns the files written."""
    ordered = sorted(labels, key=lambda p: p.photo)
    written = []
    if Format.COCO in formats:
        written.append(write_coco(ordered, photos_root, out / COCO_FILE))
    if Format.YOLO in formats:
        written.append(write_yolo(ordered, photos_root, out / YOLO_DIR))
    if Format.LABELSTUDIO in formats:
        written += write_labelstudio(ordered, out / LABELSTUDIO_DIR, image_url)
    return written


def coco_of(labels: Sequence[PhotoLabels], photos_root: Path) -> dict[str, Any]:
    """The COCO master: `file_name` relative to `info.images_root`, the folder labelled."""
    records = []
    for photo in labels:
        anns = [
            {
                "code": t.code,
                "bbox": list(t.box),
                "corners": t.corners,
                "sideways": t.sideways,
                "face_down": t.face_down,
                "role": t.role,
                "meld_id": t.meld_id,
                "score": t.score,
                "top_k": [{"code": r.code, "p": r.p} for r in t.top_k],
                "detector_score": t.detector_score,
            }
            for t in photo.tiles
        ]
        extra = {
            "score": photo.score,
            "review": photo.review,
            "review_reasons": photo.review_reasons,
            "melds": photo.melds,
            "model_version": photo.model_version,
            "sha256": photo.sha256,
        }
        records.append((photo.photo, photo.width, photo.height, photo.hand, anns, extra))
    info = {
        "description": "mjlens pre-labels",
        "class_list": CLASS_LIST,
        "images_root": str(photos_root.resolve()),
    }
    return build_coco(records, info)


def write_coco(labels: Sequence[PhotoLabels], photos_root: Path, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_text(path, json.dumps(coco_of(labels, photos_root), ensure_ascii=False))
    return path


def write_yolo(labels: Sequence[PhotoLabels], photos_root: Path, root: Path) -> Path:
    """YOLO labels and `data.yaml`; `root/images/REL` links to each photo (a copy where the
    file system has no links)."""
    for photo in labels:
        label = inside(root / "labels", Path(photo.photo).with_suffix(".txt").as_posix())
        label.parent.mkdir(parents=True, exist_ok=True)
        lines = [
            yolo_line({"code": t.code, "bbox": t.box}, photo.width, photo.height)
            for t in photo.tiles
        ]
        _write_text(label, "".join(line + "\n" for line in lines))
        _link(inside(photos_root, photo.photo), inside(root / "images", photo.photo))
    root.mkdir(parents=True, exist_ok=True)
    return write_data_yaml(root)


def _link(source: Path, link: Path) -> None:
    target = source.resolve()
    if link.is_symlink() and Path(os.readlink(link)) == target:
        return
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.is_symlink() or link.exists():
        link.unlink()
    try:
        link.symlink_to(target)
    except OSError:
        shutil.copyfile(target, link)


def tasks_of(labels: Sequence[PhotoLabels], image_url: str = LOCAL_FILES) -> list[dict[str, Any]]:
    """Label Studio tasks: `data.image` is `image_url` + the photo's path (URL-quoted),
    `data.photo` the path itself, which `mjlens import-labels` finds the photo by."""
    tasks = []
    for photo in labels:
        regions = [
            labelstudio.region(t.code, t.box, photo.width, photo.height, t.score)
            for t in photo.tiles
        ]
        predicted = labelstudio.prediction(regions, photo.model_version, round(photo.confidence, 4))
        url = image_url + quote(photo.photo)
        data = {"photo": photo.photo, "review": photo.review}
        tasks.append(labelstudio.task(url, data, [predicted]))
    return tasks


def write_labelstudio(
    labels: Sequence[PhotoLabels], root: Path, image_url: str = LOCAL_FILES
) -> list[Path]:
    root.mkdir(parents=True, exist_ok=True)
    tasks, config = root / "tasks.json", root / "config.xml"
    _write_text(tasks, json.dumps(tasks_of(labels, image_url), ensure_ascii=False, indent=1))
    _write_text(config, labelstudio.config_xml())
    return [tasks, config]


def _write_text(path: Path, text: str) -> None:
    """Write through a temporary file: an interrupted run never leaves half a file."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)
