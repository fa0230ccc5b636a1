"""Rasterize the SVG sources once into .cache/art/raster/<source>/<variant>/<code>.png.

Run as `python -m datasets.faces.rasterize` (scripts/fetch_art.sh does). Each source module
describes its own SVG jobs; this module only runs rsvg-convert and keeps the cache.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

from datasets.faces.base import ArtMissing


def rsvg_convert(svg: Path | bytes, out: Path, width: int) -> None:
    """Render an SVG file (or SVG bytes) to a PNG `width` pixels wide with rsvg-convert."""
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise ArtMissing("rsvg-convert not found: scripts/fetch_art.sh installs librsvg2-bin")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(f".{os.getpid()}.tmp.png")
    if isinstance(svg, bytes):
        with tempfile.NamedTemporaryFile(suffix=".svg") as f:
            f.write(svg)
            f.flush()
            subprocess.run([exe, "-w", str(width), f.name, "-o", str(tmp)], check=True)
    else:
        subprocess.run([exe, "-w", str(width), str(svg), "-o", str(tmp)], check=True)
    tmp.replace(out)  # atomic: a half-written PNG never looks cached


def save_png(image: Image.Image, out: Path) -> None:
    """Write a cached face so that a reader never finds it half-written (another process may
    be filling the same cache: fetch_art.sh beside a first render)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(f".{os.getpid()}.tmp.png")
    image.save(tmp)
    tmp.replace(out)


def main() -> int:
    import importlib

    status = 0
    for name in ("fluffystuff", "kde", "gnome"):
        try:
            n = importlib.import_module(f"datasets.faces.{name}").rasterize_all()
            print(f"rasterize: {name}: {n} faces cached")
        except ArtMissing as e:
            print(f"rasterize: {name}: skipped: {e}", file=sys.stderr)
        except subprocess.CalledProcessError as e:
            print(f"rasterize: {name}: rsvg-convert failed: {e}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
