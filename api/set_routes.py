"""Taught tile sets over HTTP: list them, teach one (enrollment photos or corrected tiles),
remove one, and the `set` field that reads a photo with one (docs/api.md).

A name is checked as a slug before any file is touched. Teaching and reading with a set run
the models, so they run on the recognizer's workers behind the same admission as a photo.
A set file that cannot be read is the server's state, not the request's fault: 409, and
removing the set is the way out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from api.inference import RecognizerHost
from api.limits import Limits
from api.problems import (
    CANNOT_TEACH,
    INVALID_FIELD,
    SET_DAMAGED,
    TOO_LARGE,
    UNKNOWN_SET,
    PlainJSONResponse,
    Problem,
)
from api.schemas import (
    CORRECTIONS_FORM_SCHEMA,
    ENROLL_FORM_SCHEMA,
    REPORT_SCHEMA,
    SET_SCHEMA,
    SETS_SCHEMA,
    problem_responses,
)
from api.tilesets import SetNotFound, SetStore
from api.uploads import decode_json, read_upload_form, sniff_image
from vision.tileset import TileSetError, check_name

SETS = "/v1/sets"
PHOTO_FIELD = "photo"
NAME_FIELD = "name"
LABELS_FIELD = "labels"
SET_FIELD = "set"
LEARN_FIELD = "learn"
ORIGIN_CHARS = 64  # a client's file name becomes a look's origin: kept short and printable

StoreFactory = Callable[[], SetStore]
Json = dict[str, Any]


def store_factory(home: Path | None) -> StoreFactory:
    """Sets under `home`, or under $MJLENS_HOME as it is at each request."""
    return lambda: SetStore(home)


def set_name(raw: str, pointer: str | None) -> str:
    """`raw` if it is a set name, else a 422 problem (pointer to the form field, if any)."""
    try:
        return check_name(raw)
    except TileSetError as exc:
        raise Problem(INVALID_FIELD, str(exc), pointer=pointer) from None


def set_problem(
    exc: TileSetError | OSError, name: str, pointer: str | None = None, *, stored: bool = True
) -> Problem:
    """404 for a set that is not there; else 409, with the way out where the stored file is
    what cannot be read (`stored`)."""
    if isinstance(exc, SetNotFound):
        return Problem(
            UNKNOWN_SET, f"no tile set named {name!r} (GET {SETS} lists them)", pointer=pointer
        )
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    hint = f" (DELETE {SETS}/{name} removes it)" if stored else ""
    return Problem(
        SET_DAMAGED, f"tile set {name!r} cannot be used: {reason}{hint}", pointer=pointer
    )


def _only_fields(fields: Mapping[str, str], known: Sequence[str]) -> None:
    for name in fields:
        if name not in known:
            allowed = ", ".join((PHOTO_FIELD, *known))
            raise Problem(
                INVALID_FIELD,
                f"unknown field {name!r}; the fields are {allowed}",
                pointer=f"/{name}",
            )


def _origin(filename: str, k: int) -> str:
    """What a look records it was taught from: the file's base name, or `photo N`."""
    base = filename.replace("\\", "/").rsplit("/", 1)[-1]
    clean = "".join(ch for ch in base if ch.isprintable() and ch != "#")[:ORIGIN_CHARS]
    return clean.strip() or f"photo {k + 1}"


# ---- the `set` field of /v1/recognize --------------------------------------------------------


def requested_set(fields: dict[str, str], stores: StoreFactory) -> str | None:
    """Takes the `set` field out of `fields`: None when absent or empty, else the name of an
    existing set (422 for a bad name, 404 for an unknown one, both pointing at /set)."""
    raw = fields.pop(SET_FIELD, "").strip()
    if not raw:
        return None
    name = set_name(raw, f"/{SET_FIELD}")
    if not stores().exists(name):
        raise set_problem(SetNotFound(name), name, f"/{SET_FIELD}")
    return name


def requested_learning(fields: dict[str, str], name: str | None) -> bool:
    """Takes the `learn` field out of `fields`: whether the reading, where no review check
    flags it, teaches the set it is read with (422 pointing at /learn for a value that is no
    yes or no, or for learning with no set)."""
    from api.context import parse_flag

    raw = fields.pop(LEARN_FIELD, "")
    if not raw.strip() or not parse_flag(LEARN_FIELD, raw):
        return False
    if name is None:
        message = "learn teaches the set the photo is read with: give its name in the field set"
        raise Problem(INVALID_FIELD, message, pointer=f"/{LEARN_FIELD}")
    return True


def read_with_set(
    store: SetStore,
    name: str,
    data: bytes,
    context: Mapping[str, Any],
    ruleset: str,
    learn: bool = False,
) -> Callable[[Any], Any]:
    """The worker's job: the photo's Recognition, read with the set (embedded again first
    if another classifier taught it); where `learn`, a reading no review check flags then
    teaches the set its hand's faces (`api.teach.learn`), and the answer says how many looks
    it added under `learned`."""

    def job(recognizer: Any) -> Any:
        from api.teach import learn as learn_from
        from api.teach import open_set

        try:
            tileset = open_set(store, name, recognizer.classifier)
            result = recognizer.recognize(data, dict(context) or None, ruleset, tileset=tileset)
            if learn:
                result.learned, _ = learn_from(store, name, recognizer, result, "upload")
            return result
        except (TileSetError, OSError) as exc:
            raise set_problem(exc, name, f"/{SET_FIELD}") from None

    return job


# ---- labels of a correction ----------------------------------------------------------------


def parse_labels(raw: str | None, limits: Limits) -> list[Any]:
    """The `labels` field (a JSON list of {code, bbox or corners}) as labels, or a 422 problem
    pointing at the field or the item that is wrong."""
    from api.teach import MAX_LABELS, TeachError, labels_from_json

    pointer = f"/{LABELS_FIELD}"
    if raw is None or not raw.strip():
        raise Problem(
            INVALID_FIELD,
            f"the form has no field '{LABELS_FIELD}': a JSON list of the corrected tiles, "
            '[{"code": "5p", "bbox": [x, y, w, h]}, ...]',
            pointer=pointer,
        )
    try:
        items = decode_json(raw.encode("utf-8", "surrogatepass"), limits)
    except Problem as problem:
        raise Problem(INVALID_FIELD, f"labels: {problem.detail}", pointer=pointer) from None
    if isinstance(items, list) and not items:
        raise Problem(INVALID_FIELD, "labels: the list is empty", pointer=pointer)
    if isinstance(items, list) and len(items) > MAX_LABELS:
        raise Problem(TOO_LARGE, f"labels: at most {MAX_LABELS} a photo", pointer=pointer)
    try:
        return labels_from_json(items)
    except TeachError as exc:
        raise Problem(INVALID_FIELD, str(exc), pointer=_bad_item(items)) from None


def _bad_item(items: Any) -> str:
    """The pointer to the first label `labels_from_json` refuses (the list itself if none)."""
    from api.teach import TeachError, labels_from_json

    if isinstance(items, list):
        for k, item in enumerate(items):
            try:
                labels_from_json([item])
            except TeachError:
                return f"/{LABELS_FIELD}/{k}"
    return f"/{LABELS_FIELD}"


# ---- teaching jobs ---------------------------------------------------------------------------


def _teaching(name: str, teach: Callable[[], Any]) -> Json:
    """Run a teaching call on the worker: its Report JSON, or the problem that says why not."""
    from api.teach import TeachError

    try:
        report: Json = teach().to_json()
    except TeachError as exc:
        raise Problem(CANNOT_TEACH, str(exc), pointer=f"/{PHOTO_FIELD}") from None
    except TileSetError as exc:  # the stored set cannot be read, or no more sets fit
        raise set_problem(exc, name, stored=False) from None
    return report


def enroll_job(
    store: SetStore, name: str, photos: list[tuple[str, bytes]]
) -> Callable[[Any], Json]:
    def job(recognizer: Any) -> Json:
        from api.teach import enroll

        return _teaching(name, lambda: enroll(store, name, recognizer, photos))

    return job


def correction_job(
    store: SetStore, name: str, origin: str, photo: bytes, labels: list[Any]
) -> Callable[[Any], Json]:
    def job(recognizer: Any) -> Json:
        from api.teach import LabelledPhoto, add_labels

        taught = [LabelledPhoto(origin, photo, labels)]
        return _teaching(name, lambda: add_labels(store, name, recognizer, taught))

    return job


def describe_all(store: SetStore) -> list[Json]:
    """Every set as `describe()` says it; a set that cannot be read, with its error."""
    out: list[Json] = []
    for name in store.names():
        try:
            out.append(store.load(name).describe())
        except (TileSetError, OSError) as exc:  # one damaged file does not hide the others
            out.append({"name": name, "error": set_problem(exc, name).detail})
    return out


# ---- routes ----------------------------------------------------------------------------------


def install_set_routes(
    app: FastAPI, host: RecognizerHost, limits: Limits, stores: StoreFactory
) -> None:
    _read_routes(app, stores)
    _teach_routes(app, host, limits, stores)

    @app.delete(
        SETS + "/{name}", tags=["sets"], status_code=204, responses=problem_responses(404, 422)
    )
    async def remove_set(name: str) -> Response:
        """Forget a taught set (also the way out for one whose file is damaged)."""
        checked, store = set_name(name, None), stores()
        try:
            if not store.exists(checked):
                raise SetNotFound(checked)
            await run_in_threadpool(store.remove, checked)
        except SetNotFound as exc:
            raise set_problem(exc, checked) from None
        return Response(status_code=204)


def _read_routes(app: FastAPI, stores: StoreFactory) -> None:
    @app.get(
        SETS,
        tags=["sets"],
        responses={200: {"content": {"application/json": {"schema": SETS_SCHEMA}}}},
    )
    async def list_sets() -> Json:
        """The taught sets: faces and looks each knows; a set whose file cannot be read is
        listed with its `error`."""
        return {"sets": await run_in_threadpool(describe_all, stores())}

    @app.get(
        SETS + "/{name}",
        tags=["sets"],
        responses={
            200: {"content": {"application/json": {"schema": SET_SCHEMA}}},
            **problem_responses(404, 409, 422),
        },
    )
    async def show_set(name: str) -> Json:
        """What one set knows."""
        checked, store = set_name(name, None), stores()
        try:
            tileset = await run_in_threadpool(store.load, checked)
        except (TileSetError, OSError) as exc:
            raise set_problem(exc, checked) from None
        described: Json = tileset.describe()
        return described


def _report_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    answer = {"content": {"application/json": {"schema": REPORT_SCHEMA}}}
    return {**{s: answer for s in statuses}, **problem_responses(400, 404, 409, 413, 415, 422, 503)}


def _teach_routes(app: FastAPI, host: RecognizerHost, limits: Limits, stores: StoreFactory) -> None:
    def form_body(schema: Json) -> Json:
        content = {"multipart/form-data": {"schema": schema}}
        return {"requestBody": {"required": True, "content": content}}

    @app.post(
        SETS,
        tags=["sets"],
        status_code=201,
        openapi_extra=form_body(ENROLL_FORM_SCHEMA),
        responses=_report_responses(201),
    )
    async def enroll_set(request: Request) -> Response:
        """Teach a set from enrollment photos: one face of each, rows top to bottom
        characters 1-9, circles 1-9, bamboos 1-9, E S W N C F P, then the flowers."""
        async with host.admission():
            form = await read_upload_form(
                request,
                limits,
                PHOTO_FIELD,
                max_files=limits.teach_photos,
                total_bytes=limits.teach_bytes + limits.form_overhead_bytes,
            )
            _only_fields(form.fields, (NAME_FIELD,))
            name = set_name(form.fields.get(NAME_FIELD, "").strip(), f"/{NAME_FIELD}")
            for _, data in form.files:
                sniff_image(data)
            photos = [(_origin(f, k), data) for k, (f, data) in enumerate(form.files)]
            report, _ = await host.run(enroll_job(stores(), name, photos))
        return PlainJSONResponse(report, status_code=201, headers={"Location": f"{SETS}/{name}"})

    @app.post(
        SETS + "/{name}/corrections",
        tags=["sets"],
        openapi_extra=form_body(CORRECTIONS_FORM_SCHEMA),
        responses=_report_responses(200, 201),
    )
    async def correct_set(name: str, request: Request) -> Response:
        """Teach a set the tiles a person corrected in a photo (the set is made if new):
        200, or 201 when it made the set."""
        checked = set_name(name, None)
        async with host.admission():
            form = await read_upload_form(
                request,
                limits,
                PHOTO_FIELD,
                total_bytes=limits.form_bytes + limits.labels_bytes,
                field_caps={LABELS_FIELD: limits.labels_bytes},
            )
            _only_fields(form.fields, (LABELS_FIELD,))
            labels = parse_labels(form.fields.get(LABELS_FIELD), limits)
            filename, photo = form.files[0]
            sniff_image(photo)
            store = stores()
            existed = store.exists(checked)
            job = correction_job(store, checked, _origin(filename, 0), photo, labels)
            report, _ = await host.run(job)
        return PlainJSONResponse(report, status_code=200 if existed else 201)
