"""Where fetched third-party art lives: .cache/art/ (git-ignored), filled by fetch_art.sh."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
FETCH_HINT = "run scripts/fetch_art.sh (or `make art`) to fetch it"


def art_dir() -> Path:
    """The art cache; MJLENS_ART_DIR overrides it (as it does for fetch_art.sh)."""
    return Path(os.environ.get("MJLENS_ART_DIR", REPO_ROOT / ".cache" / "art"))


def raster_dir() -> Path:
    """Rasterized SVG faces, one PNG per face, written once by `datasets.faces.rasterize`."""
    return art_dir() / "raster"
