"""Photo loading: formats, EXIF turns, reduced decode, and every way a photo can be bad."""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.load import PhotoError, load_photo, oriented_points, read_header


def _image(width: int = 80, height: int = 40) -> np.ndarray:
    image = np.full((height, width, 3), 255, np.uint8)
    image[: height // 4, : width // 4] = (0, 0, 255)  # red block marks the top-left corner
    return image


def _encode(image: np.ndarray, ext: str = ".jpg") -> bytes:
    ok, buf = cv2.imencode(ext, image)
    assert ok
    return bytes(buf.tobytes())


def _with_exif(jpeg: bytes, orientation: int) -> bytes:
    entry = struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff = b"MM\x00\x2a\x00\x00\x00\x08" + struct.pack(">H", 1) + entry + b"\x00" * 4
    exif = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif + jpeg[2:]


def test_jpeg_loads_upright_with_its_hash() -> None:
    photo = load_photo(_encode(_image()))
    assert photo.image.shape == (40, 80, 3)
    assert photo.scale == 1.0
    assert photo.original_size == (80, 40)
    assert len(photo.sha256) == 64


@pytest.mark.parametrize("orientation", range(1, 9))
def test_exif_orientation_matches_opencv_own_turn(orientation: int) -> None:
    data = _with_exif(_encode(_image()), orientation)
    reference = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    photo = load_photo(data)
    assert photo.image.shape == reference.shape
    assert np.array_equal(photo.image, reference)
    turned = orientation >= 5
    assert photo.original_size == ((40, 80) if turned else (80, 40))


@pytest.mark.parametrize("orientation", range(1, 9))
def test_a_point_measured_before_the_exif_turn_goes_where_the_turn_puts_its_pixel(
    orientation: int,
) -> None:
    stored = np.zeros((40, 80, 3), np.uint8)
    stored[7, 61] = 255  # one pixel: column 61, row 7 of the photo as stored
    photo = load_photo(_with_exif(_encode(stored), orientation))
    assert photo.orientation == orientation
    bright = photo.image.astype(int).sum(axis=2)
    row, column = np.unravel_index(int(bright.argmax()), bright.shape)
    centre = np.array([[61.5, 7.5]], np.float32)  # the pixel's centre
    x, y = oriented_points(centre, orientation, (80, 40))[0]
    assert (x - 0.5, y - 0.5) == (column, row)


def test_exif_six_turns_the_photo_clockwise() -> None:
    photo = load_photo(_with_exif(_encode(_image()), 6))
    # The red top-left block ends up top-right after a clockwise quarter turn.
    assert photo.image.shape == (80, 40, 3)
    assert photo.image[2, 37, 2] > 200 and photo.image[2, 37, 0] < 60


def test_big_jpeg_decodes_reduced_and_reports_scale(tmp_path: Path) -> None:
    path = tmp_path / "big.jpg"
    path.write_bytes(_encode(_image(4032, 3024)))
    photo = load_photo(path)
    assert photo.image.shape == (1512, 2016, 3)  # reduced-by-2 decode, no resize
    assert photo.scale == 2.0
    assert photo.original_size == (4032, 3024)


def test_big_png_is_shrunk_to_working_size() -> None:
    photo = load_photo(_encode(_image(3000, 1000), ".png"))
    assert max(photo.image.shape[:2]) == 2048
    assert photo.scale == pytest.approx(3000 / 2048)


@pytest.mark.parametrize("ext", [".png", ".webp"])
def test_png_and_webp_load(ext: str) -> None:
    photo = load_photo(_encode(_image(), ext))
    assert photo.image.shape == (40, 80, 3)


def test_header_dimensions_of_each_format() -> None:
    for ext in (".jpg", ".png", ".webp"):
        header = read_header(_encode(_image(123, 45), ext))
        assert (header.width, header.height) == (123, 45), ext


def _png_bomb(width: int, height: int) -> bytes:
    # Only the header is real: the guard must refuse before decoding anything.
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + b"\x00" * 4


def _jpeg_bomb(width: int, height: int) -> bytes:
    jpeg = _encode(_image(16, 16))
    sof = jpeg.index(b"\xff\xc0")
    return jpeg[: sof + 5] + struct.pack(">HH", height, width) + jpeg[sof + 9 :]


@pytest.mark.parametrize(
    ("data", "status"),
    [
        (b"", 415),  # empty upload
        (b"hello, this is a text file\n", 415),  # not an image
        (b"\x00\x00\x00\x18ftypheic" + b"\x00" * 32, 415),  # iPhone HEIC
        (_png_bomb(60_000, 60_000), 413),  # 3.6 GP decompression bomb
        (_jpeg_bomb(65_000, 65_000), 413),
        (_encode(_image(), ".jpg")[:300], 422),  # truncated JPEG
        (_encode(_image(), ".png")[:60], 422),  # truncated PNG
        (b"\xff\xd8\xff\xe0" + b"\x00" * 40, 422),  # JPEG signature, garbage after
    ],
)
def test_bad_photos_get_a_clear_error_and_status(data: bytes, status: int) -> None:
    with pytest.raises(PhotoError) as caught:
        load_photo(data)
    assert caught.value.status == status
    assert caught.value.message


def test_byte_cap() -> None:
    with pytest.raises(PhotoError) as caught:
        load_photo(_encode(_image()), max_bytes=100)
    assert caught.value.status == 413


def test_missing_file_is_a_photo_error(tmp_path: Path) -> None:
    with pytest.raises(PhotoError, match="cannot read"):
        load_photo(tmp_path / "nope.jpg")
