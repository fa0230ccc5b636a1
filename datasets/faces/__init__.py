"""Tile face art from several independent sources behind one interface.

    from datasets.faces import SOURCES, get_source
    src = get_source("procedural")
    face = src.face("5p", np.random.default_rng(0))   # RGB uint8 (160, 120, 3), upright face

Third-party sources read art fetched by scripts/fetch_art.sh into .cache/art/; when it is
absent, `get_source` raises `ArtMissing` saying so, and `available_sources()` leaves it out.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from datasets.faces.base import FACE_HEIGHT, FACE_WIDTH, ArtMissing, FaceSource
from datasets.faces.paths import art_dir

SOURCES: tuple[str, ...] = ("procedural", "unicode", "fluffystuff", "pixel", "kde", "gnome")


def _procedural() -> FaceSource:
    from datasets.faces.procedural import ProceduralSource

    return ProceduralSource()


def _unicode() -> FaceSource:
    from datasets.faces.unicode import UnicodeSource

    return UnicodeSource()


def _fluffystuff() -> FaceSource:
    from datasets.faces.fluffystuff import FluffyStuffSource

    return FluffyStuffSource()


def _pixel() -> FaceSource:
    from datasets.faces.pixel import PixelSource

    return PixelSource()


def _kde() -> FaceSource:
    from datasets.faces.kde import KdeSource

    return KdeSource()


def _drawn_flowers() -> FaceSource:
    from datasets.faces.drawn_flowers import DrawnFlowersSource

    return DrawnFlowersSource()


def _gnome() -> FaceSource:
    from datasets.faces.gnome import GnomeSource

    return GnomeSource()


_FACTORIES: dict[str, Callable[[], FaceSource]] = {
    "procedural": _procedural,
    "unicode": _unicode,
    "fluffystuff": _fluffystuff,
    "pixel": _pixel,
    "kde": _kde,
    "gnome": _gnome,
    # Not in SOURCES: only a command that names it draws it (datasets/faces/drawn_flowers.py).
    "drawnflowers": _drawn_flowers,
}
_CACHE: dict[tuple[str, Path], FaceSource] = {}


def register_source(name: str, factory: Callable[[], FaceSource]) -> None:
    """Add an evaluation-only source (not in SOURCES, so no default list ever picks it)."""
    _FACTORIES[name] = factory
    for key in [key for key in _CACHE if key[0] == name]:
        del _CACHE[key]


def get_source(name: str) -> FaceSource:
    """The face source called `name` (one of SOURCES, or one registered for evaluation);
    raises ArtMissing if its art is absent."""
    if name not in _FACTORIES:
        raise KeyError(f"unknown face source {name!r}; known: {', '.join(SOURCES)}")
    key = (name, art_dir())  # MJLENS_ART_DIR may point elsewhere later in the process
    if key not in _CACHE:
        _CACHE[key] = _FACTORIES[name]()
    return _CACHE[key]


def available_sources() -> tuple[str, ...]:
    """The sources whose art is on disk now."""
    found = []
    for name in SOURCES:
        try:
            get_source(name)
        except ArtMissing:
            continue
        found.append(name)
    return tuple(found)


__all__ = [
    "FACE_HEIGHT",
    "FACE_WIDTH",
    "SOURCES",
    "ArtMissing",
    "FaceSource",
    "available_sources",
    "get_source",
]
