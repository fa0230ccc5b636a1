"""Faces a taught set finds unlike every look it holds, cut again along their neighbours'
shape.

A set shown every face knows how each face of its table prints, so a crop like none of them
was mostly cut through a poor quad: the detector's corners twisted across the face, or
reaching into a neighbour. Such a face is cut again along the shapes of the face-up tiles
nearest it, each placed on the detection's centre, and along its own quad; each as it lies
and turned a quarter (a claimed tile lies crosswise to its meld), all set on the face's
edges by the corner refiner. The cut whose crop the set finds likest is kept where the set
finds it likelier than the first and like one of its faces. Only the set can choose between
cuts: the classifier alone is sure of crops cut through two faces as often as of the right
one.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.classify import Classifier
from vision.load import Photo
from vision.refine import Refiner
from vision.sideways import sideways_flags
from vision.tileset import TileSet, joint_reading
from vision.types import BACK_INDEX, WHITE_INDEX, FloatArray, Tiles

# A face is cut again where the set's best likeness (`TileSet.fit`, nats) falls under this:
# chosen among 5.5-9.5 on the matched tiles of renders of the held-out designs (seed 7200;
# 7.0 cuts about one face-up tile in 30 again).
RECUT_BELOW = 7.0
# A cut is kept only where the set finds it likelier than the first and at least this like
# one of its faces: a cut it still finds unlike all of them is no better known than the
# first. (Among 0, 4, 5, 6 and 7 on the same tiles: misread alike up to 5, with the fewest
# faces changed at 5.)
KEEP_ABOVE = 5.0
NEIGHBOURS = 2  # the nearest well-fitting faces whose shapes are tried
BLANK = [WHITE_INDEX, BACK_INDEX]
# Sets shown fewer faces than this share of the 42 are not used to choose: a face they were
# never shown fits them badly however it is cut.
MIN_COVERAGE = 0.8


def _quarter_turned(quads: FloatArray) -> FloatArray:
    """(n, 4, 2) each quad turned a quarter about its centre."""
    centres = quads.mean(axis=1, keepdims=True)
    d = quads - centres
    return np.asarray(centres + np.stack([-d[..., 1], d[..., 0]], axis=-1), np.float32)


def _cuts(tiles: Tiles, low: np.ndarray, good: np.ndarray) -> tuple[FloatArray, np.ndarray]:
    """Quads to try for each face in `low` (original pixels), and the face each is for: its
    neighbours' shapes on its centre and its own quad, each as it lies and a quarter turned."""
    centres = tiles.centers
    quads, owners = [], []
    for i in low:
        near = good[np.argsort(np.linalg.norm(centres[good] - centres[i], axis=1))[:NEIGHBOURS]]
        shapes = tiles.corners[near] - tiles.corners[near].mean(axis=1, keepdims=True)
        tried = np.concatenate([shapes + centres[i], tiles.corners[i : i + 1]])
        quads += [*tried, *_quarter_turned(tried)]
        owners += [i] * (2 * len(tried))
    return np.asarray(quads, np.float32), np.asarray(owners)


def recut(
    photo: Photo,
    tiles: Tiles,
    tileset: TileSet,
    classifier: Classifier,
    refiner: Refiner | None,
    features: FloatArray,
) -> tuple[Tiles, FloatArray]:
    """`tiles` (classified) with the face-up faces that fit `tileset` worst cut again where
    a cut fits it better (module docstring), and the joint reading's features of the tiles
    returned, from `features` (`TileSet.features` of `tiles`): a face cut again takes its
    cut's."""
    if tileset.coverage < MIN_COVERAGE or len(tiles) < 2:
        return tiles, features
    fit = tileset.fit(features)
    # A blank face (a white dragon of a blank design, a back) has no print to fit: that it
    # fits badly says nothing of its cut, and a cut reaching into a neighbour's print fits
    # better.
    named = joint_reading(features).argmax(axis=1)
    face_up = ~tiles.face_down & ~np.isin(named, BLANK)
    low = np.nonzero((fit < RECUT_BELOW) & face_up)[0]
    good = np.nonzero((fit >= RECUT_BELOW) & face_up)[0]
    if not len(low) or not len(good):
        return tiles, features
    quads, owners = _cuts(tiles, low, good)
    scale = np.float32(photo.scale)
    if refiner is not None:
        quads = refiner.refine(photo.image, quads / scale) * scale
    flags = np.zeros(len(quads), bool)
    cuts = Tiles(tiles.xyxy[owners], quads, tiles.confidence[owners], flags, flags)
    cut = classifier.classify(photo, cuts)
    cut_features = tileset.features(cut.probs, cut.embeddings, cut.looks)
    cut_fit = tileset.fit(cut_features)
    features = features.copy()
    out = replace(
        tiles,
        corners=tiles.corners.copy(),
        probs=tiles.probs.copy(),
        looks=tiles.looks.copy(),
        embeddings=tiles.embeddings.copy(),
    )
    changed = False
    for i in low:
        mine = np.nonzero(owners == i)[0]
        best = mine[np.argmax(cut_fit[mine])]
        if cut_fit[best] > max(fit[i], KEEP_ABOVE):
            out.corners[i], out.probs[i] = cut.corners[best], cut.probs[best]
            out.looks[i], out.embeddings[i] = cut.looks[best], cut.embeddings[best]
            features[i] = cut_features[best]
            changed = True
    if changed:
        out.sideways = sideways_flags(out.corners / scale, out.xyxy / scale, photo.image)
    return out, features
