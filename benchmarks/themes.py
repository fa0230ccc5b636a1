"""Classifier top-1 per held-out theme (KDE, GNOME), on augmented crops of each clean face.

    python benchmarks/themes.py            # reads .cache/art/raster/{kde,gnome}/THEME/*.png

The rasters are written by the KDE and GNOME face sources (scripts/fetch_art.sh, then first
use). Neither source is trained on, so each theme is an unseen design.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.tiles import CLASSES, FLOWERS
from training.tile_augment import augment
from vision.classify import Classifier

RASTERS = Path(__file__).resolve().parents[1] / ".cache" / "art" / "raster"


def theme_faces(theme: Path) -> list[Path]:
    """The theme's face rasters, named by code; not GNOME's cached theme strip (`_strip.png`),
    which was once counted as a face always misread."""
    return [png for png in sorted(theme.glob("*.png")) if png.stem in CLASSES]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crops", type=int, default=8, help="augmented crops per face")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--classifier", default=None)
    parser.add_argument("--flower-reader", default=None, help="default: the shipped one")
    parser.add_argument("--no-flower-reader", action="store_true")
    args = parser.parse_args()
    classifier = Classifier(
        args.classifier, flowers=not args.no_flower_reader, flower_model=args.flower_reader
    )
    rng = np.random.default_rng(args.seed)
    themes = [t for source in ("kde", "gnome") for t in sorted((RASTERS / source).glob("*"))]
    if not themes:
        raise SystemExit(f"no theme rasters under {RASTERS}: run scripts/fetch_art.sh first")
    for theme in themes:
        crops, truth = [], []
        for png in theme_faces(theme):
            face = cv2.cvtColor(cv2.imread(str(png)), cv2.COLOR_BGR2RGB)
            face = cv2.resize(face, (120, 160), interpolation=cv2.INTER_AREA)
            for _ in range(args.crops):
                # augment works in RGB; the classifier takes BGR crops, as cv2 reads photos
                crops.append(cv2.cvtColor(augment(face, rng), cv2.COLOR_RGB2BGR))
                truth.append(png.stem)
        pred = [CLASSES[i] for i in classifier.classify_crops(crops).argmax(axis=1)]
        right = np.array([p == t for p, t in zip(pred, truth, strict=True)])
        flower = np.array([t in FLOWERS for t in truth])
        as_flower = np.mean([p in FLOWERS for p, f in zip(pred, flower, strict=True) if f])
        worst = Counter(t for t, ok in zip(truth, right, strict=True) if not ok).most_common(5)
        print(
            f"{theme.parent.name}/{theme.name}: top-1 {right.mean():.1%}, 34 faces "
            f"{right[~flower].mean():.1%}, flowers as flowers {as_flower:.1%}, flowers named "
            f"{right[flower].mean():.1%}; worst {worst}"
        )


if __name__ == "__main__":
    main()
