"""FluffyStuff's riichi tile art (CC0): 34 faces as SVG, light ("Regular") and dark ("Black").

The SVGs are read from a checkout of the art (../shared/data/fluffystuff-tiles, override with
MJLENS_FLUFFYSTUFF_DIR) or, without one, from the copy scripts/fetch_art.sh recovers from the
npm package; they are rasterized once into .cache/art/raster/fluffystuff.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from PIL import Image

from datasets.faces.base import FACE_WIDTH, ArtMissing, place_on_face
from datasets.faces.paths import FETCH_HINT, art_dir, raster_dir
from datasets.faces.raster_source import RasterSource
from datasets.faces.rasterize import rsvg_convert, save_png

DEFAULT_ROOT = Path("/work/shared/data/fluffystuff-tiles")
VARIANTS = ("Regular", "Black")
LICENSE = "CC0-1.0"

_HONOURS = {"Ton": "E", "Nan": "S", "Shaa": "W", "Pei": "N", "Chun": "C", "Hatsu": "F", "Haku": "P"}
_SUITS = {"Man": "m", "Pin": "p", "Sou": "s"}


def code_of(stem: str) -> str | None:
    """The tile code of an art file name: Man5-Dora (red five) is still 5m; Front/Back: None."""
    if stem in _HONOURS:
        return _HONOURS[stem]
    for prefix, suit in _SUITS.items():
        if stem.startswith(prefix):
            return f"{stem[len(prefix)]}{suit}"
    return None


def default_root() -> Path:
    """MJLENS_FLUFFYSTUFF_DIR, else the shared checkout, else the SVGs fetch_art.sh recovered
    from the npm package (same art, see fluffystuff_npm.py)."""
    if "MJLENS_FLUFFYSTUFF_DIR" in os.environ:
        return Path(os.environ["MJLENS_FLUFFYSTUFF_DIR"])
    if DEFAULT_ROOT.is_dir():
        return DEFAULT_ROOT
    return art_dir() / "fluffystuff-svg"


def _variant_dirs(root: Path) -> list[tuple[str, Path]]:
    """Variant folders under root; root itself if it holds the SVGs directly (e.g. .../Black)."""
    if (root / "Man1.svg").is_file():
        return [(root.name, root)]
    return [(v, root / v) for v in VARIANTS if (root / v / "Man1.svg").is_file()]


def rasterize_all(root: Path | None = None, force: bool = False) -> int:
    """Cache every face of every variant as a face-only PNG (symbol on the variant's front)."""
    root = root or default_root()
    variants = _variant_dirs(root)
    if not variants:
        raise ArtMissing(f"no FluffyStuff SVGs under {root} (set MJLENS_FLUFFYSTUFF_DIR)")
    count = 0
    for variant, folder in variants:
        out_dir = raster_dir() / "fluffystuff" / variant
        front_png = out_dir / "_front.png"
        if force or not front_png.is_file():
            rsvg_convert(folder / "Front.svg", front_png, FACE_WIDTH * 2)
        front = Image.open(front_png).convert("RGBA")
        r, g, b, _ = np.asarray(front)[front.height // 2, front.width // 2]
        background = (int(r), int(g), int(b))
        for svg in sorted(folder.glob("*.svg")):
            code = code_of(svg.stem)
            if code is None:
                continue
            out = out_dir / f"{svg.stem}.png"
            if force or not out.is_file():
                sym = out_dir / f"_{svg.stem}.sym.png"
                rsvg_convert(svg, sym, FACE_WIDTH * 2)
                face = place_on_face(Image.open(sym), background, margin=0.07)
                save_png(Image.fromarray(face), out)
                sym.unlink()
            count += 1
    return count


def _cached_files(variants: list[str]) -> dict[str, list[Path]]:
    files: dict[str, list[Path]] = {}
    for variant in variants:
        for png in sorted((raster_dir() / "fluffystuff" / variant).glob("*.png")):
            code = None if png.stem.startswith("_") else code_of(png.stem)
            if code:
                # the light set is what tables look like; the dark one is a rarer variant
                files.setdefault(code, []).extend([png] * (3 if variant == "Regular" else 1))
    return files


def _half_cached(root: Path) -> bool:
    """Whether some SVG face of some variant has no cached PNG yet (every variant in full,
    or the light-to-dark weighting silently shifts)."""
    return any(
        code_of(svg.stem) is not None
        and not (raster_dir() / "fluffystuff" / variant / f"{svg.stem}.png").is_file()
        for variant, folder in _variant_dirs(root)
        for svg in folder.glob("*.svg")
    )


class FluffyStuffSource(RasterSource):
    def __init__(self, root: Path | None = None) -> None:
        root = root or default_root()
        svg_variants = [v for v, _ in _variant_dirs(root)]
        files = _cached_files(svg_variants or list(VARIANTS))
        if _half_cached(root) and svg_variants:
            rasterize_all(root)  # first use without fetch_art.sh: cache now (a few seconds)
            files = _cached_files(svg_variants)
        if not files:
            raise ArtMissing(f"FluffyStuff art not found under {root} nor rasterized: {FETCH_HINT}")
        super().__init__("fluffystuff", LICENSE, files)
