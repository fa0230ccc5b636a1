"""Photo loading: bytes in, a working-size BGR image out, safely.

Reads the header dimensions before decoding (a decompression bomb is refused before any
pixel is allocated), decodes big JPEGs at a reduced scale (a 12 MP photo decodes at half or
quarter size, which is also the detector's working resolution), and applies the EXIF
orientation itself so every caller sees the photo the way the phone showed it.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.types import FloatArray

MAX_PIXELS = 50_000_000  # a 50 MP photo; phones shoot 12-48 MP
MAX_BYTES = 40 * 1024 * 1024
WORKING_SIDE = 2048  # long side of the working image
# A reduced decode may land a little under WORKING_SIDE: 4032 px / 2 = 2016 px is good enough
# and skips a full-size decode plus a resize.
_REDUCE_SLACK = 0.9

_REDUCED_FLAGS = {
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}

ImageArray = npt.NDArray[np.uint8]


class PhotoError(Exception):
    """A photo that cannot be used; `status` is the HTTP status the API answers with.

    413: too large (bytes or pixels), 415: not an image or an unsupported format,
    422: an image that is truncated or corrupt.
    """

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Photo:
    """A decoded photo at working size.

    Attributes:
        image: BGR uint8 (h, w, 3), upright (EXIF orientation applied), long side <= ~2048.
        scale: original pixels per working pixel (multiply working coordinates by it).
        original_size: (width, height) of the full photo after EXIF orientation.
        sha256: hex digest of the bytes as received.
        orientation: the EXIF orientation 1-8 applied (1: the pixels as stored).
    """

    image: ImageArray
    scale: float
    original_size: tuple[int, int]
    sha256: str
    orientation: int = 1


@dataclass(frozen=True)
class _Header:
    format: str  # "jpeg" | "png" | "webp"
    width: int
    height: int
    orientation: int  # EXIF orientation 1-8 (1 = as stored)


def load_photo(
    data: bytes | str | Path, *, max_pixels: int = MAX_PIXELS, max_bytes: int = MAX_BYTES
) -> Photo:
    """Decode a JPEG, PNG or WebP photo into a working-size upright BGR image.

    Example:
        >>> photo = load_photo("table.jpg")  # doctest: +SKIP
        >>> photo.image.shape, photo.scale
        ((1512, 2016, 3), 2.0)

    Raises:
        PhotoError: not an image (415), too large (413), truncated or corrupt (422).
    """
    raw = _read(data, max_bytes)
    header = read_header(raw)
    if header.width * header.height > max_pixels:
        raise PhotoError(
            f"photo is {header.width}x{header.height} pixels, over the limit of "
            f"{max_pixels / 1e6:.0f} MP",
            413,
        )
    _check_complete(raw, header.format)
    factor = _reduction(header) if header.format == "jpeg" else 1
    flags = _REDUCED_FLAGS.get(factor, cv2.IMREAD_COLOR) | cv2.IMREAD_IGNORE_ORIENTATION
    image = cv2.imdecode(np.frombuffer(raw, dtype=np.uint8), flags)
    if image is None or image.size == 0:
        raise PhotoError(f"the {header.format.upper()} data is corrupt and cannot be decoded", 422)
    image = _orient(_to_bgr(np.asarray(image, dtype=np.uint8)), header.orientation)
    image = _shrink(image, WORKING_SIDE)
    turned = header.orientation in (5, 6, 7, 8)
    original = (header.height, header.width) if turned else (header.width, header.height)
    return Photo(
        image=image,
        scale=original[0] / image.shape[1],
        original_size=original,
        sha256=hashlib.sha256(raw).hexdigest(),
        orientation=header.orientation,
    )


def _read(data: bytes | str | Path, max_bytes: int) -> bytes:
    if isinstance(data, str | Path):
        path = Path(data)
        try:
            size = path.stat().st_size
            if size > max_bytes:
                raise PhotoError(_too_many_bytes(size, max_bytes), 413)
            data = path.read_bytes()
        except OSError as exc:
            raise PhotoError(f"cannot read {path}: {exc.strerror or exc}", 400) from exc
    if not isinstance(data, bytes | bytearray | memoryview):
        raise PhotoError(f"expected image bytes or a path, got {type(data).__name__}", 415)
    raw = bytes(data)
    if len(raw) > max_bytes:
        raise PhotoError(_too_many_bytes(len(raw), max_bytes), 413)
    if not raw:
        raise PhotoError("the photo is empty (0 bytes)", 415)
    return raw


def _too_many_bytes(size: int, limit: int) -> str:
    return f"photo is {size / 2**20:.1f} MiB, over the limit of {limit / 2**20:.0f} MiB"


def read_header(raw: bytes) -> _Header:
    """Format, stored dimensions and EXIF orientation, from the header alone."""
    if raw[:3] == b"\xff\xd8\xff":
        return _jpeg_header(raw)
    if raw[:8] == b"\x89PNG\r\n\x1a\n":
        if len(raw) < 24 or raw[12:16] != b"IHDR":
            raise PhotoError("the PNG data is truncated before its header", 422)
        width, height = struct.unpack(">II", raw[16:24])
        return _Header("png", width, height, 1)
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP":
        return _webp_header(raw)
    if raw[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1", b"ftyphevc", b"ftypavif"):
        raise PhotoError("HEIC/AVIF photos are not supported: share the photo as JPEG", 415)
    raise PhotoError("not a JPEG, PNG or WebP image", 415)


def _jpeg_header(raw: bytes) -> _Header:
    orientation = 1
    pos = 2
    while pos + 4 <= len(raw):
        if raw[pos] != 0xFF:
            raise PhotoError("the JPEG data is corrupt (bad marker)", 422)
        marker = raw[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            pos += 2
            continue
        (length,) = struct.unpack(">H", raw[pos + 2 : pos + 4])
        segment = raw[pos + 4 : pos + 2 + length]
        if marker == 0xE1 and segment[:6] == b"Exif\x00\x00":
            orientation = _exif_orientation(segment[6:])
        # SOF0-SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) are not frames.
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if len(segment) < 5:
                break
            height, width = struct.unpack(">HH", segment[1:5])
            if width == 0 or height == 0:
                raise PhotoError("the JPEG header gives a zero size", 422)
            return _Header("jpeg", width, height, orientation)
        if marker == 0xDA:  # scan data before any frame header
            break
        pos += 2 + length
    raise PhotoError("the JPEG data is truncated or corrupt (no frame header)", 422)


def _exif_orientation(tiff: bytes) -> int:
    """The Orientation tag (0x0112) of IFD0, or 1 when absent or unreadable."""
    if len(tiff) < 8 or tiff[:2] not in (b"II", b"MM"):
        return 1
    endian = "<" if tiff[:2] == b"II" else ">"
    (ifd,) = struct.unpack(endian + "I", tiff[4:8])
    if ifd + 2 > len(tiff):
        return 1
    (count,) = struct.unpack(endian + "H", tiff[ifd : ifd + 2])
    for i in range(count):
        entry = ifd + 2 + 12 * i
        if entry + 12 > len(tiff):
            break
        tag, kind = struct.unpack(endian + "HH", tiff[entry : entry + 4])
        if tag == 0x0112 and kind == 3:  # SHORT
            (value,) = struct.unpack(endian + "H", tiff[entry + 8 : entry + 10])
            return value if 1 <= value <= 8 else 1
    return 1


def _webp_header(raw: bytes) -> _Header:
    chunk = raw[12:16]
    body = raw[20:]
    if chunk == b"VP8X" and len(body) >= 10:
        width = 1 + int.from_bytes(body[4:7], "little")
        height = 1 + int.from_bytes(body[7:10], "little")
    elif chunk == b"VP8 " and len(body) >= 10 and body[3:6] == b"\x9d\x01\x2a":
        width, height = (v & 0x3FFF for v in struct.unpack("<HH", body[6:10]))
    elif chunk == b"VP8L" and len(body) >= 5 and body[0] == 0x2F:
        bits = int.from_bytes(body[1:5], "little")
        width, height = (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    else:
        raise PhotoError("the WebP data is truncated or corrupt", 422)
    return _Header("webp", width, height, 1)


def _check_complete(raw: bytes, fmt: str) -> None:
    """Refuse truncated files: decoders fill a cut-off photo with grey and call it fine."""
    complete = {
        "jpeg": lambda: raw.rfind(b"\xff\xd9") > raw.find(b"\xff\xda") > 0,
        "png": lambda: b"IEND" in raw[-64:],
        "webp": lambda: len(raw) >= 8 + int.from_bytes(raw[4:8], "little"),
    }[fmt]()
    if not complete:
        raise PhotoError(f"the {fmt.upper()} data is truncated (the file ends too early)", 422)


def _reduction(header: _Header) -> int:
    long_side = max(header.width, header.height)
    for factor in (8, 4, 2):
        if long_side / factor >= WORKING_SIDE * _REDUCE_SLACK:
            return factor
    return 1


def _to_bgr(image: ImageArray) -> ImageArray:
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR).astype(np.uint8)
    return image[:, :, :3].astype(np.uint8, copy=False)


def _orient(image: ImageArray, orientation: int) -> ImageArray:
    """Apply EXIF orientation 1-8 (TIFF 6.0 semantics) to the stored pixels."""
    if orientation in (2, 4, 5, 7):
        image = np.asarray(
            cv2.flip(image, 1), dtype=np.uint8
        )  # mirrored variants: flip, then turn as the plain ones
    turn = {3: cv2.ROTATE_180, 4: cv2.ROTATE_180, 5: cv2.ROTATE_90_COUNTERCLOCKWISE}
    turn |= {
        6: cv2.ROTATE_90_CLOCKWISE,
        7: cv2.ROTATE_90_CLOCKWISE,
        8: cv2.ROTATE_90_COUNTERCLOCKWISE,
    }
    if orientation in turn:
        image = np.asarray(cv2.rotate(image, turn[orientation]), dtype=np.uint8)
    return np.ascontiguousarray(image)


def oriented_points(points: FloatArray, orientation: int, stored: tuple[int, int]) -> FloatArray:
    """Points (..., 2) measured on the photo as stored, `stored` (width, height) pixels, where
    `_orient` puts them: a labelling tool may measure boxes before the EXIF turn."""
    width, height = stored
    x, y = points[..., 0], points[..., 1]
    if orientation in (2, 4, 5, 7):
        x = width - x
    if orientation in (3, 4):
        x, y = width - x, height - y
    elif orientation in (5, 8):  # turned a quarter counter-clockwise
        x, y = y, width - x
    elif orientation in (6, 7):  # a quarter clockwise
        x, y = height - y, x
    return np.stack([x, y], axis=-1).astype(np.float32)


def _shrink(image: ImageArray, long_side: int) -> ImageArray:
    height, width = image.shape[:2]
    factor = long_side / max(height, width)
    if factor >= 1:
        return image
    size = (max(1, round(width * factor)), max(1, round(height * factor)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA).astype(np.uint8)
