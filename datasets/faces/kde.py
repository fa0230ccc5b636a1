"""KDE's KMahjongg tilesets (GPL-2.0-or-later): faces cut out of the SVG by element id.

Themes `traditional` (Americanized riichi), `default` (Japanese style) and `classic` (Chinese)
come from Debian's kdegames-mahjongg-data-kf5. Each face element is rendered alone with
rsvg-convert, cropped to its ink and centred on the theme's face colour.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

from datasets.faces.base import FACE_WIDTH, ArtMissing, ink_bbox, place_on_face
from datasets.faces.paths import FETCH_HINT, art_dir, raster_dir
from datasets.faces.raster_source import RasterSource
from datasets.faces.rasterize import save_png

THEMES = ("traditional", "default", "classic")
LICENSE = "GPL-2.0-or-later (KDE kmahjongglib tilesets)"

# Element ids per code, checked by eye on the contact sheet: WIND_1..4 are N, S, E, W;
# DRAGON_1 is the white dragon, 2 green, 3 red; FLOWER_n and SEASON_n follow 梅蘭菊竹 / 春夏秋冬.
ELEMENT_OF: dict[str, str] = {
    **{f"{n}p": f"ROD_{n}" for n in range(1, 10)},
    **{f"{n}s": f"BAMBOO_{n}" for n in range(1, 10)},
    **{f"{n}m": f"CHARACTER_{n}" for n in range(1, 10)},
    "N": "WIND_1",
    "S": "WIND_2",
    "E": "WIND_3",
    "W": "WIND_4",
    "P": "DRAGON_1",
    "F": "DRAGON_2",
    "C": "DRAGON_3",
    **{f"{n}h": f"FLOWER_{n}" for n in range(1, 5)},
    **{f"{n + 4}h": f"SEASON_{n}" for n in range(1, 5)},
}
# Per-theme exceptions, read off the art: classic labels its first two flowers Orchid, Plum.
THEME_OVERRIDES: dict[str, dict[str, str]] = {"classic": {"1h": "FLOWER_2", "2h": "FLOWER_1"}}
_SCALE_STEPS = (1, 4, 16)  # re-render larger when an element's extents dwarf its ink


def tileset_dir() -> Path:
    return art_dir() / "kde" / "usr" / "share" / "kmahjongglib" / "tilesets"


def _render_element(svgz: Path, element: str, width: int, out: Path) -> None:
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise ArtMissing("rsvg-convert not found: scripts/fetch_art.sh installs librsvg2-bin")
    subprocess.run(
        [exe, f"--export-id={element}", "-w", str(width), str(svgz), "-o", str(out)],
        check=True,
        capture_output=True,
    )


def _element_ink(svgz: Path, element: str) -> Image.Image:
    """The element's visible pixels, at least ~FACE_WIDTH*2 wide (extents can be misleading)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "element.png"
        crop = None
        for step in _SCALE_STEPS:
            _render_element(svgz, element, 300 * step, out)
            image = Image.open(out).convert("RGBA")
            box = ink_bbox(image)
            if box is None:
                raise ValueError(f"{svgz.name}#{element} renders empty")
            crop = image.crop(box)
            if max(crop.width, crop.height * 0.75) >= FACE_WIDTH * 1.5:
                break
        assert crop is not None
        return _strip_cell(crop)


def _strip_cell(crop: Image.Image) -> Image.Image:
    """Drop the outlined cell some themes draw behind each face: keep only the art inside.

    A cell shows as an opaque border all round the crop; the art is what differs from the
    cell's fill colour inside it. A blank face (the Japanese white dragon) comes back empty.
    """
    rgba = np.asarray(crop.convert("RGBA")).astype(np.int32)
    alpha = rgba[:, :, 3] > 40
    edges = (alpha[0].mean(), alpha[-1].mean(), alpha[:, 0].mean(), alpha[:, -1].mean())
    if min(edges) < 0.8:
        return crop  # no cell: the crop is already the art
    h, w = alpha.shape
    inset = max(3, int(0.04 * min(h, w)))
    inner = rgba[inset : h - inset, inset : w - inset]
    art = inner[:, :, 3] > 40
    corners = inner[[0, 0, -1, -1], [0, -1, 0, -1]]
    if (corners[:, 3] > 200).all():  # a filled cell: the art is what differs from its fill
        fill = np.median(corners[:, :3], axis=0)
        art &= np.abs(inner[:, :, :3] - fill).sum(axis=2) > 40
    ys, xs = np.nonzero(art)
    if len(xs) == 0:
        return Image.new("RGBA", (w, h), (0, 0, 0, 0))
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    out = inner[y0:y1, x0:x1].astype(np.uint8).copy()
    out[:, :, 3] = np.where(art[y0:y1, x0:x1], out[:, :, 3], 0).astype(np.uint8)
    return Image.fromarray(out, "RGBA")


def _face_colour(svgz: Path) -> tuple[int, int, int]:
    """The plain face colour of the theme's tile (centre of TILE_1)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "tile.png"
        _render_element(svgz, "TILE_1", 200, out)
        image = Image.open(out).convert("RGB")
        r, g, b = np.asarray(image)[image.height // 2, image.width // 2]
        return int(r), int(g), int(b)


def rasterize_all(force: bool = False) -> int:
    if not tileset_dir().is_dir():
        raise ArtMissing(f"KDE tilesets not found under {tileset_dir()}: {FETCH_HINT}")
    count = 0
    for theme in THEMES:
        svgz = tileset_dir() / f"{theme}.svgz"
        out_dir = raster_dir() / "kde" / theme
        if not svgz.is_file():
            continue
        background = _face_colour(svgz)
        for code, element in {**ELEMENT_OF, **THEME_OVERRIDES.get(theme, {})}.items():
            out = out_dir / f"{code}.png"
            if force or not out.is_file():
                face = place_on_face(_element_ink(svgz, element), background, margin=0.1)
                save_png(Image.fromarray(face), out)
            count += 1
    return count


def _fetched_themes() -> list[str]:
    return [t for t in THEMES if (tileset_dir() / f"{t}.svgz").is_file()]


def _cached_files() -> dict[str, list[Path]]:
    files: dict[str, list[Path]] = {}
    for theme in THEMES:
        for code in ELEMENT_OF:
            png = raster_dir() / "kde" / theme / f"{code}.png"
            if png.is_file():
                files.setdefault(code, []).append(png)
    return files


class KdeSource(RasterSource):
    def __init__(self) -> None:
        files = _cached_files()
        cached = sum(len(paths) for paths in files.values())
        # Every fetched theme in full, not only every code: a theme still being cached by
        # another process would otherwise drop out of the held-out set without a word.
        if cached < len(ELEMENT_OF) * len(_fetched_themes()):
            rasterize_all()  # first use without fetch_art.sh, or a cache half-filled: cache now
            files = _cached_files()
        if not files:
            raise ArtMissing(f"KDE tilesets not fetched nor rasterized: {FETCH_HINT}")
        super().__init__("kde", LICENSE, files)
