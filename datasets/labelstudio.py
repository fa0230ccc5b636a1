"""Label Studio's JSON: the labeling config for tile boxes, tasks with pre-annotations, and
the boxes read back from an export.

A box is a `rectanglelabels` region: x, y, width and height in percent of the photo's
original size, its label a tile code of the fixed class list (`datasets.coco.CLASS_LIST`).
Written and read here rather than with the Label Studio SDK: the SDK brings an HTTP client,
pandas-like converters and a pinned pydantic for a format of a few keys, and the round trip
against a real Label Studio server (`scripts/labelstudio_roundtrip.py`) is what checks it.

Example:
    >>> box = region("5p", (10.0, 20.0, 30.0, 40.0), 100, 200, score=0.9)
    >>> box["value"]
    {'x': 10.0, 'y': 10.0, 'width': 30.0, 'height': 20.0, 'rotation': 0, 'rectanglelabels': ['5p']}
    >>> read_region(box)
    ('5p', (10.0, 20.0, 30.0, 40.0))
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import quoteattr

from datasets.coco import CLASS_LIST
from scoring.tiles import CLASSES

# The names the config gives the image and the box tool; tasks and exports use them.
IMAGE = "image"
TOOL = "tile"
_CODE_BY_LOWER = {code.lower(): code for code in CLASSES}

Box = tuple[float, float, float, float]  # x, y, w, h in the photo's pixels
Json = dict[str, Any]


class LabelStudioError(ValueError):
    """An export that cannot be read; the message names the task or region."""


def config_xml() -> str:
    """The labeling config: the photo and one box tool whose labels are the class list."""
    labels = "\n".join(f"    <Label value={quoteattr(code)}/>" for code in CLASSES)
    return (
        f"<!-- mjlens tile boxes, class list {CLASS_LIST} -->\n"
        "<View>\n"
        f'  <Image name="{IMAGE}" value="${IMAGE}" zoom="true" zoomControl="true"/>\n'
        f'  <RectangleLabels name="{TOOL}" toName="{IMAGE}" showInline="true">\n'
        f"{labels}\n"
        "  </RectangleLabels>\n"
        "</View>\n"
    )


def region(
    code: str,
    box: Box,
    width: int,
    height: int,
    score: float | None = None,
    region_id: str | None = None,
    tool: str = TOOL,
    image: str = IMAGE,
) -> dict[str, Any]:
    """One box as a Label Studio result item (percent coordinates, no rotation); `tool` and
    `image` name the config's box tool and image (a project's own config may rename them)."""
    x, y, w, h = box
    item: dict[str, Any] = {
        "id": region_id or _region_id(code, box),
        "type": "rectanglelabels",
        "from_name": tool,
        "to_name": image,
        "original_width": width,
        "original_height": height,
        "image_rotation": 0,
        "value": {
            "x": 100.0 * x / width,
            "y": 100.0 * y / height,
            "width": 100.0 * w / width,
            "height": 100.0 * h / height,
            "rotation": 0,
            "rectanglelabels": [code],
        },
    }
    if score is not None:
        item["score"] = score
    return item


def _region_id(code: str, box: Box) -> str:
    # Stable across runs (the same photo labelled twice gives the same task), 10 characters
    # as Label Studio's own ids.
    text = f"{code}:{box[0]:.2f}:{box[1]:.2f}:{box[2]:.2f}:{box[3]:.2f}"
    return hashlib.sha1(text.encode()).hexdigest()[:10]


def prediction(
    regions: Sequence[Mapping[str, Any]], model_version: str, score: float
) -> dict[str, Any]:
    """A task's pre-annotation: its regions, the model that made them and one score."""
    return {"model_version": model_version, "score": score, "result": list(regions)}


def task(image_url: str, data: Mapping[str, Any], predictions: Sequence[Mapping[str, Any]]) -> Json:
    """An importable task: the image's URL under `data.image`, other data kept beside it."""
    return {"data": {IMAGE: image_url, **data}, "predictions": list(predictions)}


@dataclass(frozen=True)
class ExportedTask:
    """One task of an export: its data, the photo's size and the labelled boxes."""

    data: dict[str, Any]
    width: int | None
    height: int | None
    boxes: list[tuple[str, Box]]

    @property
    def image(self) -> str:
        return str(self.data.get(IMAGE, ""))


def read_region(item: Mapping[str, Any]) -> tuple[str, Box]:
    """A `rectanglelabels` result item as (tile code, box in pixels). Raises
    LabelStudioError for a region with no size, no tile code or a rotation."""
    value = item.get("value")
    if not isinstance(value, dict):
        raise LabelStudioError("a region has no value")
    if not _positive(item.get("original_width")) or not _positive(item.get("original_height")):
        raise LabelStudioError("a region has no original_width and original_height")
    width, height = float(item["original_width"]), float(item["original_height"])
    names = value.get("rectanglelabels")
    if not isinstance(names, list) or len(names) != 1 or not isinstance(names[0], str):
        raise LabelStudioError("a box needs exactly one label")
    code = _CODE_BY_LOWER.get(names[0].lower())
    if code is None:
        raise LabelStudioError(f"label {names[0]!r} is not a tile code ({' '.join(CLASSES)})")
    if abs(_number(value.get("rotation", 0))) > 1e-6:
        raise LabelStudioError("a rotated box cannot be kept as a COCO box: draw it unrotated")
    x, y, w, h = (_number(value.get(k)) for k in ("x", "y", "width", "height"))
    if w <= 0 or h <= 0:
        raise LabelStudioError("a box has no area")
    return code, (x * width / 100, y * height / 100, w * width / 100, h * height / 100)


def read_export(export: Any) -> list[ExportedTask]:
    """The boxes of a Label Studio JSON export (a list of tasks): per task, its latest
    annotation that was not cancelled; a task without one is left out. Raises
    LabelStudioError naming the first task that cannot be read."""
    if not isinstance(export, list):
        raise LabelStudioError("a Label Studio JSON export is a list of tasks")
    out = []
    for k, item in enumerate(export):
        if not isinstance(item, dict) or not isinstance(item.get("data"), dict):
            raise LabelStudioError(f"task {k}: no data")
        annotation = _latest_annotation(item.get("annotations"))
        if annotation is None:
            continue
        boxes, width, height = [], None, None
        for j, result in enumerate(annotation.get("result") or []):
            if not isinstance(result, dict) or result.get("type") != "rectanglelabels":
                continue  # other tools' results (a text note, a choice) hold no box
            try:
                boxes.append(read_region(result))
            except LabelStudioError as exc:
                raise LabelStudioError(f"task {item.get('id', k)}, region {j}: {exc}") from None
            width, height = int(result["original_width"]), int(result["original_height"])
        out.append(ExportedTask(dict(item["data"]), width, height, boxes))
    return out


def _latest_annotation(annotations: Any) -> dict[str, Any] | None:
    if not isinstance(annotations, list):
        return None
    kept = [a for a in annotations if isinstance(a, dict) and not a.get("was_cancelled")]
    if not kept:
        return None
    # Label Studio writes ISO times, which sort as text; the list order breaks ties.
    return max(enumerate(kept), key=lambda pair: (str(pair[1].get("updated_at", "")), pair[0]))[1]


def _positive(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


def _number(value: Any) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise LabelStudioError(f"expected a number, got {value!r}")
    return float(value)
