"""Draws the page's app icons (api/static/icons/): an SVG of a tile, five circles on it, on
the table's green, and PNGs of it at 192 and 512 px for launchers that take no SVG.

Run when the design changes: `python scripts/make_icons.py` (needs rsvg-convert, which
scripts/fetch_art.sh installs). The icon fills the square, so it is also maskable: the tile
lies inside the central 80 % a launcher may keep.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "api" / "static" / "icons"
FELT, TILE, EDGE, BLUE, RED = "#0f5c3a", "#fffef7", "#c9c2a6", "#1d4ed8", "#c0281f"


def circle(x: int, y: int, r: int, colour: str) -> str:
    return (
        f'<circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="{colour}" stroke-width="{r // 3}"/>'
        f'<circle cx="{x}" cy="{y}" r="{r // 3}" fill="{colour}"/>'
    )


def icon_svg() -> str:
    dots = [(206, 196, BLUE), (306, 196, BLUE), (256, 256, RED), (206, 316, BLUE), (306, 316, BLUE)]
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
        f'<rect width="512" height="512" fill="{FELT}"/>'
        f'<rect x="146" y="104" width="220" height="312" rx="26" fill="{EDGE}"/>'
        f'<rect x="146" y="96" width="220" height="300" rx="26" fill="{TILE}"/>'
        + "".join(circle(x, y, 36, c) for x, y, c in dots)
        + "</svg>\n"
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    svg = OUT / "icon.svg"
    svg.write_text(icon_svg())
    rsvg = shutil.which("rsvg-convert")
    if rsvg is None:
        raise SystemExit(
            "rsvg-convert not found: run scripts/fetch_art.sh (it installs librsvg2-bin)"
        )
    for size in (192, 512):
        png = OUT / f"icon-{size}.png"
        subprocess.run(
            [rsvg, "-w", str(size), "-h", str(size), "-o", str(png), str(svg)], check=True
        )
        print(f"{png}: {png.stat().st_size} bytes")


if __name__ == "__main__":
    main()
