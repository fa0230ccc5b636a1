"""Label Studio's ML backend protocol, answered by `mjlens serve` under /labelstudio/, so a
labeling team points a Label Studio project at `http://HOST:8000/labelstudio` (Settings >
Model) and gets each photo's tiles as pre-annotations.

    GET  /labelstudio/health    {"status": "UP", ...} once the models are loaded
    POST /labelstudio/setup     {"model_version": ...}: the project's config is one we answer
    POST /labelstudio/predict   {"results": [{"result": [...], "score", "model_version"}]}

A task's image is its `data` field that the config's <Image> names: a `data:` URI, or a path
or URL on the Label Studio server named by LABEL_STUDIO_URL, fetched with its API key
(LABEL_STUDIO_API_KEY, else the token the server sent with /setup). No other host is ever
fetched: the server never becomes a way to reach addresses a client names.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from api.problems import BAD_PHOTO, INVALID_FIELD, Problem
from api.uploads import capped_stream, decode_json
from datasets import labelstudio
from labels.record import model_version, photo_labels
from scoring.tiles import CLASSES

PREFIX = "/labelstudio"
FETCH_TIMEOUT_S = 15.0
# Label Studio sends one task when a person opens it, and every selected task at once for
# "Retrieve predictions"; each takes a recognition, and it waits ML_TIMEOUT_PREDICT (100 s).
TASKS_PER_REQUEST = 1000
log = logging.getLogger("mjlens.api")
router = APIRouter(prefix=PREFIX, tags=["labelstudio"])
_CODE_BY_LOWER = {code.lower(): code for code in CLASSES}


class TaskError(ValueError):
    """A task whose photo cannot be had or read; the message says which and why."""


@dataclass(frozen=True)
class Config:
    """What a project's labeling config names: the image field and the box tool."""

    image_field: str = labelstudio.IMAGE
    image: str = labelstudio.IMAGE
    tool: str = labelstudio.TOOL
    labels: frozenset[str] = frozenset(CLASSES)  # its labels that are tile codes

    @classmethod
    def parse(cls, xml: Any) -> Config:
        """The first <Image> and the <RectangleLabels> on it; our config when none is sent.
        Raises Problem (422) for a config with no box tool on an image."""
        if not isinstance(xml, str) or not xml.strip():
            return cls()
        try:
            root = ET.fromstring(xml)
        except ET.ParseError as exc:
            raise Problem(INVALID_FIELD, f"the labeling config is not XML: {exc}") from None
        images = {e.get("name"): (e.get("value") or "").lstrip("$") for e in root.iter("Image")}
        for tool in root.iter("RectangleLabels"):
            target = tool.get("toName")
            if target in images and tool.get("name"):
                values = {str(e.get("value")) for e in tool.iter("Label")}
                codes = frozenset(
                    _CODE_BY_LOWER[v.lower()] for v in values if v.lower() in _CODE_BY_LOWER
                )
                return cls(
                    images[target] or labelstudio.IMAGE, str(target), str(tool.get("name")), codes
                )
        raise Problem(
            INVALID_FIELD,
            "the labeling config has no <RectangleLabels> on an <Image>: "
            "use the config `mjlens label` writes (OUT/labelstudio/config.xml)",
        )


def _host(request: Request) -> Any:
    return request.app.state.host


async def _body(request: Request) -> dict[str, Any]:
    limits = request.app.state.limits
    # A task may carry its photo inline as a data: URI (base64: 4/3 of the photo's bytes).
    cap = 2 * limits.photo_bytes
    body = bytearray()
    async for chunk in capped_stream(request, cap, "the request body"):
        body.extend(chunk)
    data = decode_json(bytes(body), limits) if body.strip() else {}
    if not isinstance(data, dict):
        raise Problem(INVALID_FIELD, "the body must be a JSON object", pointer="")
    return data


@router.get("/")
@router.get("/health")
async def health(request: Request) -> dict[str, Any]:
    """UP once the models are loaded (Label Studio checks this when a model is connected)."""
    host = _host(request)
    if not host.ready:
        raise host.not_ready_problem()
    return {"status": "UP", "model_class": "mjlens"}


@router.post("/setup")
async def setup(request: Request) -> dict[str, Any]:
    """Label Studio connecting a project: its config must have a box tool on an image."""
    data = await _body(request)
    Config.parse(data.get("schema"))
    token = data.get("access_token")
    if isinstance(token, str) and token:
        request.app.state.labelstudio_token = token
    host = _host(request)
    if not host.ready:
        raise host.not_ready_problem()
    version, _ = await host.run(lambda recognizer: _version(recognizer))
    return {"model_version": version}


@router.post("/predict")
async def predict(request: Request) -> Response:
    """Pre-annotations for the tasks: one prediction per task, in their order. A task whose
    photo cannot be read gets an empty one (and is logged); when none can, 422."""
    from api.problems import PlainJSONResponse

    data = await _body(request)
    tasks = data.get("tasks")
    if not isinstance(tasks, list) or not tasks:
        raise Problem(INVALID_FIELD, "tasks must be a non-empty list", pointer="/tasks")
    if len(tasks) > TASKS_PER_REQUEST:
        raise Problem(INVALID_FIELD, f"at most {TASKS_PER_REQUEST} tasks a request")
    config = Config.parse(data.get("label_config"))
    host = _host(request)
    if not host.ready:
        raise host.not_ready_problem()
    token = getattr(request.app.state, "labelstudio_token", None)
    cap = request.app.state.limits.photo_bytes
    results: list[dict[str, Any] | None] = []
    errors = []
    for k, item in enumerate(tasks):
        try:
            photo = await run_in_threadpool(_photo_of_task, item, config, token, k, cap)
            results.append(await _predicted(host, photo, config))
        except TaskError as exc:
            errors.append(str(exc))
            log.warning("labelstudio predict: %s", exc)
            results.append(None)
    if len(errors) == len(tasks):
        raise Problem(BAD_PHOTO, errors[0], pointer="/tasks/0/data")
    version = next(str(r["model_version"]) for r in results if r is not None)
    answered = [r or labelstudio.prediction([], version, 0.0) for r in results]
    return PlainJSONResponse({"results": answered, "model_version": version})


async def _predicted(host: Any, photo: bytes, config: Config) -> dict[str, Any]:
    from vision.load import PhotoError

    try:
        recognition, _ = await host.run(lambda recognizer: recognizer.recognize(photo))
    except Problem as exc:
        if exc.kind.status in (413, 415, 422):
            raise TaskError(exc.detail) from None
        raise
    except PhotoError as exc:
        raise TaskError(exc.message) from None
    width, height = _size(recognition, photo)
    labels = photo_labels("", width, height, recognition.to_json())
    regions = [
        labelstudio.region(
            t.code, t.box, width, height, t.score, tool=config.tool, image=config.image
        )
        for t in labels.tiles
        if t.code in config.labels
    ]
    return labelstudio.prediction(regions, labels.model_version, round(labels.confidence, 4))


def _size(recognition: Any, photo: bytes) -> tuple[int, int]:
    loaded = getattr(recognition, "photo", None)
    if loaded is not None:
        width, height = loaded.original_size
        return int(width), int(height)
    from vision.load import load_photo

    width, height = load_photo(photo).original_size
    return int(width), int(height)


def _version(recognizer: Any) -> str:
    return model_version(getattr(recognizer, "models", None) or {})


def _photo_of_task(task: Any, config: Config, token: str | None, k: int, cap: int) -> bytes:
    """The photo's bytes, from a data: URI or from the Label Studio server."""
    if not isinstance(task, dict) or not isinstance(task.get("data"), dict):
        raise TaskError(f"task {k} has no data")
    ref = task["data"].get(config.image_field)
    if not isinstance(ref, str) or not ref:
        raise TaskError(f"task {task.get('id', k)}: no image in data.{config.image_field}")
    if ref.startswith("data:"):
        return _data_uri(ref)
    return _fetch(ref, token, cap)


def _data_uri(ref: str) -> bytes:
    head, _, payload = ref.partition(",")
    if not head.endswith(";base64"):
        raise TaskError("a data: URI image must be base64")
    try:
        return base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        raise TaskError("the data: URI is not valid base64") from None


def _fetch(ref: str, token: str | None, cap: int) -> bytes:
    server = os.environ.get("LABEL_STUDIO_URL", "").strip()
    if not server:
        raise TaskError(
            f"image {ref[:80]!r} is on a Label Studio server: start mjlens serve with "
            "LABEL_STUDIO_URL (and LABEL_STUDIO_API_KEY) set to reach it"
        )
    url = urljoin(server.rstrip("/") + "/", ref)
    if _origin(url) != _origin(server):
        raise TaskError(f"image {ref[:80]!r} is not on LABEL_STUDIO_URL ({server}): not fetched")
    key = os.environ.get("LABEL_STUDIO_API_KEY", "").strip() or token
    headers = {"Authorization": f"Token {key}"} if key else {}
    try:
        with urllib.request.urlopen(
            urllib.request.Request(url, headers=headers), timeout=FETCH_TIMEOUT_S
        ) as response:
            data: bytes = response.read(cap + 1)
    except urllib.error.HTTPError as exc:
        raise TaskError(f"Label Studio answered {exc.code} for {ref[:80]!r}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise TaskError(f"cannot reach Label Studio for {ref[:80]!r}: {exc}") from None
    if len(data) > cap:
        raise TaskError(f"image {ref[:80]!r} is over {cap // (1024 * 1024)} MiB")
    return data


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme.lower(), parts.netloc.lower()
