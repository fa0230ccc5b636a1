"""Name each detected tile: rectify its face from the corners, run the ONNX classifier.

The classifier sees an 80x64 RGB crop and answers calibrated probabilities over
`scoring.tiles.CLASSES` (42 faces + back); the flower reader (`vision.flowers`) has a
second say on which flower a flower is, the index reader (`vision.indices`) on which suit
or honour tile a face the classifier is unsure of is, from the numeral or letter in its
corner. The classifier was
trained to read a face upside down as well, so corners that come half a turn round still
give the right tile.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import onnxruntime as ort

from scoring.tiles import CLASSES
from vision import indices
from vision.flowers import READER_H, READER_W, FlowerReader, candidates, join
from vision.geometry import face_sides
from vision.load import Photo
from vision.looks import describe
from vision.registry import require
from vision.sessions import digest, open_session
from vision.sideways import sideways_flags
from vision.types import FloatArray, Tiles

if os.environ.get("ORT_DISABLE_TELEMETRY") != "0":
    ort.disable_telemetry_events()  # Windows builds' event tracing (see vision/__init__.py)

INPUT_H, INPUT_W = 80, 64
AREA_SHRINK = 1.25  # faces more than this many times the crop are area-shrunk before the warp
# The detector's face quads are read this much larger about their centres: where a quad
# falls short of the face, a row of dots or the numeral is cut off (6p read as 4p), while
# the classifier was trained on crops 0.92-1.2 times the face. Chosen on half the photos of
# `.cache/bench_real` (1.1 and 1.15 alike) and a fifth of `.cache/bench_kde4` (1.1 best);
# on all of them (`python benchmarks/detected_faces.py --data ...`) see vision/weights/detector.md.
FACE_MARGIN = 1.1
# A face read under this sure is read again through a tighter and a looser quad and the
# three readings averaged: a misplaced quad cuts a face's numeral or a row of its dots one
# way and not the other. With classifier run L: held-out photos' tile accuracy 73.5 -> 73.8 %
# (KDE), 86.4 -> 86.6 % (GNOME), real-face hands right 65.9 -> 66.7 % (`benchmarks/
# recognize.py`); three looks at every face gained no more (67.1 %) at three times the cost.
# With the shipped L+N pair: hands right, held-out KDE 31.6 -> 33.5 %, real faces 68.2 ->
# 69.0 %.
SURE_FIRST_LOOK = 0.9
SECOND_LOOK_MARGINS = (1.0, 1.2)
# A face-up face read under QUARTER_LOOK_UNSURE whose quad is at least QUARTER_LOOK_WIDER
# times as wide as tall (a face is 3 wide to 4 tall: such corners are a quarter off) is read
# again a quarter turn round, and taken so when that reading is QUARTER_LOOK_SURE and gains
# QUARTER_LOOK_GAIN over the first: a claimed tile the detector took as upright reads
# unsure through upright corners, and then its chow passes as concealed tiles. Without the
# width gate, or with it at 0.9, upright faces rightly cornered were turned (real faces).
QUARTER_LOOK_UNSURE = 0.7
QUARTER_LOOK_WIDER = 1.0
QUARTER_LOOK_SURE = 0.99
QUARTER_LOOK_GAIN = 0.3
# The index reader reads only the faces the classifier reads under this: it costs about as
# much a face as the classifier, and a sure face's reading is seldom its to move. Against
# every face read: two thirds of the reads saved; held-out tile accuracy 82.61 % against
# 82.57 % (runs/val_kde), 84.85 % alike (runs/val_heldout2); of 120 rendered wins
# (.cache/review_eval_5520) the same 63 read right, 81 scored right, 77 flagged. At 0.99
# the same accuracy for 60 % saved.
INDEX_SURE = 0.95
_BATCH = 64  # crops per session call: bounded memory, few calls for a whole hand
EMBEDDING_OUTPUT = "embedding"  # the features before the last layer (training/embedding_output.py)


def open_model(
    model_path: str | Path | None, name: str, threads: int | None = None
) -> tuple[Path, ort.InferenceSession]:
    """The ONNX file `model_path` (else the shipped model `name`, `vision.registry`) and one
    CPU session on it; a missing file is a ModelMissingError that names the model."""
    path = require(name, model_path)
    return path, open_session(path, threads)


def run_in_batches(session: ort.InferenceSession, batch: FloatArray, outputs: int) -> FloatArray:
    """One model's answers for a stacked input, at most _BATCH rows a call (bounded memory,
    few calls for a whole hand): (n, outputs) float32."""
    name = session.get_inputs()[0].name
    out = [
        session.run(None, {name: batch[i : i + _BATCH]})[0] for i in range(0, len(batch), _BATCH)
    ]
    return np.concatenate(out).astype(np.float32) if out else np.zeros((0, outputs), np.float32)


def face_rect(
    size: tuple[int, int] = (INPUT_W, INPUT_H), margin: tuple[float, float] = (0.0, 0.0)
) -> FloatArray:
    """Where `rectify` puts a face's corners (TL, TR, BR, BL) in a crop `size` (w, h) that
    keeps `margin` (x, y) pixels of the photo round the face."""
    (w, h), (mx, my) = size, margin
    return np.array([[mx, my], [w - mx, my], [w - mx, h - my], [mx, h - my]], np.float32)


def rectify(
    image: npt.NDArray[np.uint8],
    corners: FloatArray,
    size: tuple[int, int] = (INPUT_W, INPUT_H),
    margin: tuple[float, float] = (0.0, 0.0),
) -> npt.NDArray[np.uint8]:
    """The face inside `corners` (TL, TR, BR, BL, image pixels) warped upright into a crop
    `size` (w, h), by default the classifier's 80x64 with the face edge to edge; `margin`
    keeps that many crop pixels of the photo round the face (`face_rect`).

    A face much larger than the crop is first shrunk by area averaging: the warp samples
    single pixels, and from a large face it would keep a random subset of the thin strokes
    (aliasing) where the network was trained on faces near its own size."""
    quad = corners.astype(np.float32)
    dst = face_rect(size, margin)
    inner_w, inner_h = dst[2] - dst[0]
    width = max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[3]))
    height = max(np.linalg.norm(quad[3] - quad[0]), np.linalg.norm(quad[2] - quad[1]))
    shrink = float(min(width / inner_w, height / inner_h))
    if shrink > AREA_SHRINK:
        h, w = image.shape[:2]
        pad = 2 + max(margin[0] / inner_w * width, margin[1] / inner_h * height)
        x0, y0 = np.clip(np.floor(quad.min(axis=0) - pad), 0, (w, h)).astype(int)
        x1, y1 = np.clip(np.ceil(quad.max(axis=0) + pad), 0, (w, h)).astype(int)
        if x1 - x0 >= 2 and y1 - y0 >= 2:
            nw, nh = max(1, round((x1 - x0) / shrink)), max(1, round((y1 - y0) / shrink))
            region = image[y0:y1, x0:x1]
            image = np.asarray(cv2.resize(region, (nw, nh), interpolation=cv2.INTER_AREA), np.uint8)
            quad = (quad - (x0, y0)) * np.array([nw / (x1 - x0), nh / (y1 - y0)], np.float32)
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    crop = cv2.warpPerspective(
        image, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return np.asarray(crop, dtype=np.uint8)


def face_crops(photo: Photo, corners: FloatArray) -> npt.NDArray[np.uint8]:
    """(n, 80, 64, 3) the faces inside `corners` (original pixels) as the classifier reads
    them: rectified through the quad widened by FACE_MARGIN."""
    quads = widen(corners / np.float32(photo.scale), FACE_MARGIN)
    crops = [rectify(photo.image, q) for q in quads]
    return np.stack(crops) if crops else np.zeros((0, INPUT_H, INPUT_W, 3), np.uint8)


def long_sides(corners: FloatArray) -> FloatArray:
    """(n,) the longest edge of each of (n, 4, 2) quads, in their pixels."""
    edges = np.linalg.norm(corners - np.roll(corners, 1, axis=1), axis=2)
    return np.asarray(edges.max(axis=1), dtype=np.float32)


def widen(corners: FloatArray, factor: float = FACE_MARGIN) -> FloatArray:
    """(n, 4, 2) quads scaled by `factor` about their centres: what the classifier reads of
    each detected face."""
    centres = corners.mean(axis=1, keepdims=True)
    return np.asarray(centres + factor * (corners - centres), dtype=np.float32)


def network_input(
    crop: npt.NDArray[np.uint8], size: tuple[int, int] = (INPUT_W, INPUT_H)
) -> FloatArray:
    """A BGR (or grey, or BGRA) crop as a network input of `size` (w, h): RGB, CHW, in
    [0, 1]."""
    image: npt.NDArray[Any] = np.asarray(crop)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[:2] != (size[1], size[0]):
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB).astype(np.float32) / np.float32(255.0)
    return np.ascontiguousarray(rgb.transpose(2, 0, 1), dtype=np.float32)


class Classifier:
    """The ONNX tile classifier, loaded once.

    Example:
        >>> probs = Classifier().classify_crops([cv2.imread("tile.jpg")])  # doctest: +SKIP
        >>> probs.shape
        (1, 43)
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        threads: int | None = None,
        flowers: bool = True,
        flower_model: str | Path | None = None,
        index: bool = True,
        index_model: str | Path | None = None,
    ) -> None:
        """`flowers`: let the flower reader (`vision.flowers`; `flower_model`, else the
        shipped file where it exists) name the faces read as flowers. `index`: let the index
        reader (`vision.indices`; `index_model`, else the shipped file where it exists) weigh
        in with the corner index of every face."""
        self.model_path, self.session = open_model(model_path, "classifier", threads)
        outputs = {o.name: o for o in self.session.get_outputs()}
        shape = outputs[EMBEDDING_OUTPUT].shape if EMBEDDING_OUTPUT in outputs else [0, 0]
        self._embedding_size = shape[1] if isinstance(shape[1], int) else self._probe_size()
        self.flower_reader: FlowerReader | None = None
        if flowers:
            self.flower_reader = (
                FlowerReader(flower_model, threads)
                if flower_model is not None
                else FlowerReader.shipped(threads)
            )
        self.index_reader: indices.IndexReader | None = None
        if index:
            self.index_reader = (
                indices.IndexReader(index_model, threads)
                if index_model is not None
                else indices.IndexReader.shipped(threads)
            )

    @property
    def digest(self) -> str:
        """The model file's SHA-256 (16 hex digits): a taught set's looks name the
        classifier that embedded them."""
        return digest(self.model_path)[:16]

    def _probe_size(self) -> int:
        """The embedding's width where the graph leaves it symbolic: one blank crop's."""
        name = self.session.get_inputs()[0].name
        blank = np.zeros((1, 3, INPUT_H, INPUT_W), np.float32)
        return int(self.session.run([EMBEDDING_OUTPUT], {name: blank})[0].shape[1])

    def classify_crops(self, crops: Sequence[npt.NDArray[np.uint8]]) -> FloatArray:
        """(n, 43) float32 probabilities for BGR crops of any size (each resized to 80x64,
        and the flowers' to the flower reader's size)."""
        probs = self._probs(crops)
        sides = np.array([max(np.asarray(c).shape[:2]) for c in crops], np.float32)
        probs = self._reread_flowers(probs, sides, lambda i: crops[i])
        return self._read_indices(probs, lambda i: crops[i])

    def read_crops(self, crops: Sequence[npt.NDArray[np.uint8]]) -> tuple[FloatArray, FloatArray]:
        """`classify_crops`' probabilities and the classifier's embedding of each crop:
        ((n, 43), (n, embedding_size))."""
        probs, embeddings = self._probs_and_embeddings(crops)
        sides = np.array([max(np.asarray(c).shape[:2]) for c in crops], np.float32)
        probs = self._reread_flowers(probs, sides, lambda i: crops[i])
        return self._read_indices(probs, lambda i: crops[i]), embeddings

    @property
    def embedding_size(self) -> int:
        """Features per face of the classifier's `embedding` output; 0 for a graph without
        one (a taught set cannot be used with it)."""
        return self._embedding_size

    def _probs(self, crops: Sequence[npt.NDArray[np.uint8]]) -> FloatArray:
        """The classifier's own (n, 43) reading of BGR crops."""
        return self._probs_and_embeddings(crops)[0]

    def _probs_and_embeddings(
        self, crops: Sequence[npt.NDArray[np.uint8]]
    ) -> tuple[FloatArray, FloatArray]:
        """The classifier's own (n, 43) reading of BGR crops and its (n, d) embeddings."""
        d = self._embedding_size
        if not crops:
            return np.zeros((0, len(CLASSES)), np.float32), np.zeros((0, d), np.float32)
        batch = np.stack([network_input(crop) for crop in crops])
        if d == 0:
            return run_in_batches(self.session, batch, len(CLASSES)), np.zeros(
                (len(batch), 0), np.float32
            )
        name = self.session.get_inputs()[0].name
        probs, embeddings = [], []
        for i in range(0, len(batch), _BATCH):
            p, e = self.session.run(["probs", EMBEDDING_OUTPUT], {name: batch[i : i + _BATCH]})
            probs.append(p)
            embeddings.append(e)
        return (
            np.concatenate(probs).astype(np.float32),
            np.concatenate(embeddings).astype(np.float32),
        )

    def _reread_flowers(
        self,
        probs: FloatArray,
        sides: FloatArray,
        crop_of: Callable[[int], npt.NDArray[np.uint8]],
    ) -> FloatArray:
        """`probs` with the flower reader's say on the rows it takes for flowers whose face's
        long side is `sides` pixels (`vision.flowers.candidates`, `join`); `crop_of(i)` is
        row i's face as a BGR crop, cut only for those rows."""
        if self.flower_reader is None or len(probs) == 0:
            return probs
        rows = candidates(probs, sides)
        if len(rows) == 0:
            return probs
        out = probs.copy()
        out[rows] = join(probs[rows], self.flower_reader.read([crop_of(int(i)) for i in rows]))
        return out

    def _read_indices(
        self, probs: FloatArray, crop_of: Callable[[int], npt.NDArray[np.uint8]]
    ) -> FloatArray:
        """`probs` joined with the index reader's reading of the faces read under INDEX_SURE,
        those faces taken as one set's (`vision.indices.join_photo`); `crop_of(i)` is row
        i's face as a BGR crop."""
        if self.index_reader is None or len(probs) == 0:
            return probs
        rows = np.nonzero(probs.max(axis=1) < INDEX_SURE)[0]
        if len(rows) == 0:
            return probs
        reading = self.index_reader.read([crop_of(int(i)) for i in rows])
        out = probs.copy()
        out[rows] = indices.join_photo(probs[rows], reading)
        return out

    def classify(self, photo: Photo, tiles: Tiles) -> Tiles:
        """`tiles` with `probs` filled from face crops rectified out of the working image.

        Each face is read through its quad widened by FACE_MARGIN; one read under
        SURE_FIRST_LOOK is read again through SECOND_LOOK_MARGINS and the looks averaged.
        A face read as a flower, large enough, is looked at by the flower reader too
        (`vision.flowers`), through the same quad at the reader's size; each face read
        under INDEX_SURE by the index reader (`vision.indices`), likewise.
        A tile the detector calls face-down keeps the classifier's answer too: the
        classifier's own `back` probability is the second opinion that layout can use.
        """
        if len(tiles) == 0:
            return Tiles.empty()
        corners = tiles.corners / np.float32(photo.scale)  # original -> working pixels
        probs, embeddings = self._read_embedded(photo, corners, FACE_MARGIN)
        unsure = np.nonzero(probs.max(axis=1) < SURE_FIRST_LOOK)[0]
        if len(unsure):
            again = self._read(photo, corners[unsure], SECOND_LOOK_MARGINS)
            looks = [probs[unsure], *np.split(again, len(SECOND_LOOK_MARGINS))]
            probs[unsure] = np.mean(looks, axis=0)
        corners, probs, turned = self._quarter_look(photo, tiles, corners, probs)
        if turned.any():
            embeddings[turned] = self._read_embedded(photo, corners[turned], FACE_MARGIN)[1]
            tiles = replace(
                tiles,
                corners=corners * np.float32(photo.scale),
                sideways=sideways_flags(corners, tiles.xyxy / np.float32(photo.scale), photo.image),
            )
        quads = widen(corners, FACE_MARGIN)
        probs = self._reread_flowers(
            probs,
            long_sides(corners),
            lambda i: rectify(photo.image, quads[i], (READER_W, READER_H)),
        )
        probs = self._read_indices(
            probs, lambda i: rectify(photo.image, quads[i], (indices.READER_W, indices.READER_H))
        )
        return replace(
            tiles, probs=probs, looks=describe(photo.image, corners), embeddings=embeddings
        )

    def _quarter_look(
        self, photo: Photo, tiles: Tiles, corners: FloatArray, probs: FloatArray
    ) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]]:
        """Corners and readings with the unsure face-up faces read a quarter turn round where
        that reading is sure and the quad is as wide as tall or wider as its corners run: the
        detector set those corners a quarter off (a claimed tile taken as upright, or an
        upright face whose corners start at the wrong one). Returns (corners, probs, turned)."""
        turned = np.zeros(len(corners), dtype=bool)
        sides = face_sides(corners)
        wide = sides[:, 0] >= QUARTER_LOOK_WIDER * sides[:, 1]
        unsure = probs.max(axis=1) < QUARTER_LOOK_UNSURE
        rows = np.nonzero(unsure & wide & ~np.asarray(tiles.face_down, dtype=bool))[0]
        if len(rows) == 0:
            return corners, probs, turned
        quarter = np.roll(corners[rows], 1, axis=1)
        again = self._read(photo, quarter, (FACE_MARGIN,))
        best, before = again.max(axis=1), probs[rows].max(axis=1)
        take = (best >= QUARTER_LOOK_SURE) & (best >= before + QUARTER_LOOK_GAIN)
        if not take.any():
            return corners, probs, turned
        corners, probs = corners.copy(), probs.copy()
        chosen = rows[take]
        corners[chosen], probs[chosen] = quarter[take], again[take]
        turned[chosen] = True
        return corners, probs, turned

    def _read_embedded(
        self, photo: Photo, corners: FloatArray, margin: float
    ) -> tuple[FloatArray, FloatArray]:
        """Readings and embeddings of the faces through their quads widened by `margin`."""
        return self._probs_and_embeddings([rectify(photo.image, q) for q in widen(corners, margin)])

    def _read(self, photo: Photo, corners: FloatArray, margins: Sequence[float]) -> FloatArray:
        """Readings of the faces through their quads widened by each margin in turn, in one
        batch: (len(margins) * n, 43)."""
        quads = [q for m in margins for q in widen(corners, m)]
        return self._probs([rectify(photo.image, q) for q in quads])
