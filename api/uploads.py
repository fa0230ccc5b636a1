"""Reading request bodies within their caps: JSON hands and the multipart photo form.

Bodies are counted while they stream in, so an oversized upload is refused after `cap`
bytes, whatever its Content-Length says (chunked uploads carry none). Nothing here decodes
pixels: the photo's bytes go to the recognizer, whose loader checks the header first.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import ClientDisconnect

from api.limits import MIB, Limits
from api.problems import BAD_JSON, BAD_MULTIPART, BAD_REQUEST, TOO_LARGE, UNSUPPORTED_MEDIA, Problem

JSON_TYPES = ("application/json",)
IMAGE_FORMATS = "JPEG, PNG or WebP"


def _size(n: int) -> str:
    return f"{n / MIB:.1f} MiB" if n >= MIB else f"{n / 1024:.0f} KiB"


def _media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


def _check_declared_length(request: Request, cap: int, what: str) -> None:
    declared = request.headers.get("content-length")
    if declared is None:
        return
    try:
        length = int(declared)
    except ValueError:
        raise Problem(BAD_REQUEST, "Content-Length is not a number") from None
    if length > cap:
        raise Problem(TOO_LARGE, f"{what} is {_size(length)}, over the limit of {_size(cap)}")


async def capped_stream(request: Request, cap: int, what: str) -> AsyncGenerator[bytes, None]:
    """The request body, chunk by chunk; raises 413 as soon as more than `cap` bytes came."""
    _check_declared_length(request, cap, what)
    seen = 0
    try:
        async for chunk in request.stream():
            seen += len(chunk)
            if seen > cap:
                raise Problem(TOO_LARGE, f"{what} is over the limit of {_size(cap)}")
            yield chunk
    except ClientDisconnect:
        # Nobody is left to answer; a problem (not the catch-all) keeps the log quiet.
        raise Problem(BAD_REQUEST, f"the client went away after {_size(seen)}") from None


async def read_json(request: Request, limits: Limits) -> Any:
    """The body parsed as JSON, or a 400/413/415 problem that says why not."""
    media = _media_type(request)
    if media and media not in JSON_TYPES and not media.endswith("+json"):
        raise Problem(
            UNSUPPORTED_MEDIA, f"send Hand JSON as application/json, not {media or 'nothing'}"
        )
    body = bytearray()
    async for chunk in capped_stream(request, limits.json_bytes, "the JSON body"):
        body.extend(chunk)
    if not body.strip():
        raise Problem(BAD_JSON, "the body is empty: send a Hand JSON object")
    return decode_json(bytes(body), limits)


def decode_json(body: bytes, limits: Limits) -> Any:
    """`body` parsed as strict JSON (no NaN, at most `json_depth` deep), or a 400 problem."""
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Problem(BAD_JSON, f"the body is not UTF-8 (byte {exc.start})") from None
    try:
        value = json.loads(
            text, parse_constant=_reject_constant, parse_int=_small_int, parse_float=_finite
        )
    except json.JSONDecodeError as exc:
        raise Problem(
            BAD_JSON, f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise Problem(BAD_JSON, _too_deep(limits)) from None
    except ValueError as exc:  # raised by the hooks below, in words for the client
        raise Problem(BAD_JSON, f"invalid JSON: {exc}") from None
    if _depth(value, limits.json_depth) > limits.json_depth:
        raise Problem(BAD_JSON, _too_deep(limits))
    return value


# A Hand JSON holds small counts only: longer numbers are refused before Python converts
# them (a 5,000-digit integer would otherwise fail on the interpreter's own digit limit).
MAX_DIGITS = 18


def _too_deep(limits: Limits) -> str:
    return f"the JSON is nested too deeply (more than {limits.json_depth} levels)"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _small_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number is too long ({len(text)} characters)")
    return int(text)


def _finite(text: str) -> float:
    if len(text) > 2 * MAX_DIGITS + 8:
        raise ValueError(f"a number is too long ({len(text)} characters)")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text} is out of range")
    return value


def _depth(value: Any, limit: int, level: int = 1) -> int:
    # Iterates no deeper than `limit` + 1, so a deep document cannot exhaust the stack later.
    if level > limit:
        return level
    children = (
        value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    )
    return max((_depth(child, limit, level + 1) for child in children), default=level)


@dataclass
class PhotoForm:
    """The multipart form of /v1/recognize: the photo bytes and the raw context fields."""

    photo: bytes
    filename: str
    fields: dict[str, str] = field(default_factory=dict)


@dataclass
class UploadForm:
    """A multipart form with one or more files in one file field, and its text fields."""

    files: list[tuple[str, bytes]]  # (filename, bytes), in the order sent
    fields: dict[str, str] = field(default_factory=dict)


async def read_photo_form(request: Request, limits: Limits, photo_field: str) -> PhotoForm:
    """Parse the multipart form within the caps; the photo part must be a file."""
    form = await read_upload_form(request, limits, photo_field)
    filename, photo = form.files[0]
    return PhotoForm(photo=photo, filename=filename, fields=form.fields)


async def read_upload_form(
    request: Request,
    limits: Limits,
    file_field: str,
    *,
    max_files: int = 1,
    total_bytes: int | None = None,
    field_caps: Mapping[str, int] | None = None,
) -> UploadForm:
    """Parse a multipart form of 1-`max_files` files in `file_field` (each within
    `photo_bytes`, all within `total_bytes`) and text fields within `field_bytes`, or the
    larger cap `field_caps` gives a field by name."""
    media = _media_type(request)
    if media != "multipart/form-data":
        raise Problem(
            UNSUPPORTED_MEDIA,
            f"send multipart/form-data with the photo in a file field '{file_field}', "
            f"not {media or 'a body without Content-Type'}",
        )
    caps = dict(field_caps or {})
    parser = MultiPartParser(
        request.headers,
        capped_stream(request, total_bytes or limits.form_bytes, "the upload"),
        max_files=max_files,
        max_fields=limits.form_fields,
        max_part_size=max([limits.field_bytes, *caps.values()]),
    )
    try:
        form = await parser.parse()
    except MultiPartException as exc:
        raise _multipart_problem(exc.message, limits, file_field, max_files) from None
    try:
        return await _collect(form.multi_items(), limits, file_field, caps)
    finally:
        await form.close()


def _multipart_problem(message: str, limits: Limits, photo_field: str, max_files: int) -> Problem:
    if "maximum size" in message:
        return Problem(
            TOO_LARGE,
            f"a form field is over {_size(limits.field_bytes)} (the photo goes in a file part "
            f"named '{photo_field}', with a filename)",
        )
    if message.startswith("Too many files"):
        if max_files == 1:
            return Problem(BAD_MULTIPART, f"send one file only, the photo in '{photo_field}'")
        return Problem(BAD_MULTIPART, f"send at most {max_files} photos in '{photo_field}'")
    if message.startswith("Too many fields"):
        return Problem(BAD_MULTIPART, f"more than {limits.form_fields} form fields")
    return Problem(BAD_MULTIPART, f"malformed multipart form: {message}")


async def _collect(
    items: list[tuple[str, str | UploadFile]],
    limits: Limits,
    photo_field: str,
    caps: Mapping[str, int],
) -> UploadForm:
    files: list[tuple[str, bytes]] = []
    values: dict[str, str] = {}
    for name, value in items:
        if isinstance(value, str):
            if name in values:
                raise Problem(BAD_MULTIPART, f"the field '{name}' is given twice")
            cap = caps.get(name, limits.field_bytes)
            if len(value.encode("utf-8", "surrogatepass")) > cap:
                raise Problem(TOO_LARGE, f"the field '{name}' is over {_size(cap)}")
            values[name] = value
            continue
        if name != photo_field:
            raise Problem(
                BAD_MULTIPART, f"unexpected file field '{name}': send the photo as '{photo_field}'"
            )
        # Within the form cap already; read() copies out of the spooled temporary file.
        photo = await value.read(limits.photo_bytes + 1)
        if len(photo) > limits.photo_bytes:
            raise Problem(TOO_LARGE, f"the photo is over the limit of {_size(limits.photo_bytes)}")
        files.append((value.filename or "", photo))
    if not files:
        hint = " (it came as a text field: attach a file)" if photo_field in values else ""
        raise Problem(BAD_MULTIPART, f"the form has no file field '{photo_field}'{hint}")
    return UploadForm(files=files, fields=values)


def sniff_image(data: bytes) -> None:
    """Refuse, before queueing for the recognizer, bytes that are plainly not a photo.

    Only the magic numbers: the recognizer's loader does the full header and size checks.
    """
    if not data:
        raise Problem(UNSUPPORTED_MEDIA, "the photo is empty (0 bytes)")
    if data[:3] == b"\xff\xd8\xff" or data[:8] == b"\x89PNG\r\n\x1a\n":
        return
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return
    if data[4:8] == b"ftyp":
        raise Problem(
            UNSUPPORTED_MEDIA, f"HEIC/AVIF photos are not supported: share it as {IMAGE_FORMATS}"
        )
    raise Problem(UNSUPPORTED_MEDIA, f"the photo is not a {IMAGE_FORMATS} image")
