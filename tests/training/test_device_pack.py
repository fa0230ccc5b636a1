"""What a lent GPU machine trains from: crops packed small, fonts cut to the drawn characters."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from datasets.faces.flower_art import FLOWER_CHARS
from datasets.faces.fonts import FontFace, cjk_fonts, has_glyph
from training.crop_pack import load_crops, save_pack
from training.device_pack import cut_font, drawn_characters


def test_crop_pack_round_trip(tmp_path: Path) -> None:
    yy, xx = np.mgrid[0:80, 0:64]
    channels = [[(xx * 3 + k) % 256, (yy * 2) % 256, np.full_like(xx, 40 * k)] for k in range(5)]
    crops = np.stack([np.dstack(c) for c in channels]).astype(np.uint8)
    labels = np.array([0, 7, 12, 41, 42])
    save_pack(tmp_path / "pack.npz", crops, labels)
    back, back_labels = load_crops(tmp_path / "pack.npz")
    assert back.shape == crops.shape and back.dtype == np.uint8
    assert np.array_equal(back_labels, labels)
    # JPEG keeps each crop (channel order included), within its compression error
    assert np.abs(back.astype(int) - crops).mean() < 6


def test_plain_crop_files_still_load(tmp_path: Path) -> None:
    crops = np.zeros((2, 80, 64, 3), np.uint8)
    np.savez(tmp_path / "plain.npz", crops=crops, labels=np.array([3, 4]))
    back, labels = load_crops(tmp_path / "plain.npz")
    assert np.array_equal(back, crops) and labels.tolist() == [3, 4]


def _ink_centre(font: ImageFont.FreeTypeFont, char: str) -> np.ndarray:
    image = Image.new("L", (80, 80))
    ImageDraw.Draw(image).text((10, 10), char, font=font, fill=255)
    return np.argwhere(np.asarray(image) > 128).mean(axis=0)


def test_cut_font_keeps_every_flower_character_and_drops_the_rest(tmp_path: Path) -> None:
    chars = drawn_characters()
    assert set(FLOWER_CHARS) <= chars
    face = min(cjk_fonts()[0], key=lambda f: f.path.stat().st_size)
    cut = FontFace(tmp_path / face.path.name, face.index, face.label)
    cut_font(face.path, cut.path, chars)
    assert cut.path.stat().st_size < face.path.stat().st_size / 4
    for char in FLOWER_CHARS:
        assert has_glyph(cut, char)
        before = ImageFont.truetype(str(face.path), 48, index=face.index)
        after = ImageFont.truetype(str(cut.path), 48, index=face.index)
        assert np.abs(_ink_centre(before, char) - _ink_centre(after, char)).max() < 1.0
    assert has_glyph(face, "鬱") and not has_glyph(cut, "鬱")  # drawn by no face source
