"""Photo in, scored hand out: load, detect, classify, layout, decode, score, and a review flag.

`Recognizer` holds the ONNX sessions (loaded once); `interpret` is the half after the
models, usable on its own with tiles from anywhere (tests feed it synthetic tiles). The
stages live in their own modules: `vision.search` (layout and decoding as one search),
`vision.review` (the checks), `vision.recognition` (the result and its JSON),
`vision.context` (the win's context, checked).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from scoring import score as score_hand
from scoring.hand import Hand, Waiting
from vision.calibration import judged_with_set, reading_features, shipped_review_model
from vision.context import ContextError, check_context
from vision.faint_flowers import with_faint_flowers
from vision.load import Photo, load_photo
from vision.moves import STRAY_MIN_CONFIDENCE
from vision.notes import Note, NoteCode
from vision.objectness import Objectness, shipped_objectness
from vision.priors import LayoutPriors, shipped_priors
from vision.recognition import Recognition
from vision.recut import recut
from vision.registry import model_card, require
from vision.review import (
    MELD_WITHOUT_CROSSWISE_TILE,
    TOO_MANY_COPIES,
    WHICH_FLOWER,
    doubts_score,
    review_notes,
)
from vision.search import THIRTEEN_AFTER_ALL
from vision.search import read as search_read
from vision.tileset import TileSet, TileSetError, joint_reading
from vision.types import Tiles, concatenate
from vision.unseen import FaintReader, apart, with_faint_tile

# Names callers import from here.
__all__ = [
    "MELD_WITHOUT_CROSSWISE_TILE",
    "STRAY_MIN_CONFIDENCE",
    "THIRTEEN_AFTER_ALL",
    "TOO_MANY_COPIES",
    "WHICH_FLOWER",
    "ContextError",
    "Recognition",
    "Recognizer",
    "check_context",
    "doubts_score",
    "interpret",
]

Json = dict[str, Any]


# The detector's confidence a tile of an enrollment photo's rows needs where its sure tiles
# (0.3) miss a face. Chosen on rendered enrollment photos (seed 8400, 60): 5 of the 7
# refused were accepted with their faint faces, every face labelled right; on fresh ones
# (seed 8600), 1 of 12 (`python benchmarks/sets.py enrollments --n 10 --seed 8600`).
FAINT_CONFIDENCE = 0.1


class Recognizer:
    """The detector and classifier, loaded once, and the whole photo-to-score pipeline.

    Example:
        >>> result = Recognizer().recognize(open("win.jpg", "rb").read(), {"seat_wind": "S"})
        ... # doctest: +SKIP
        >>> result.to_json()["hand"]["winning_tile"]
        '7p'
    """

    def __init__(
        self,
        detector_path: str | Path | None = None,
        classifier_path: str | Path | None = None,
        flowers: bool = True,
        flower_path: str | Path | None = None,
        index: bool = True,
        index_path: str | Path | None = None,
        objectness: Objectness | bool = True,
    ) -> None:
        """`flowers`, `flower_path`: whether the flower reader names the flowers, and which
        file; `index`, `index_path`: the same for the index reader
        (`vision.classify.Classifier`); `objectness`: as `interpret` takes it."""
        self.objectness = objectness
        _priors()  # the search without its priors fails here, not on every photo
        detector_file = require("detector", detector_path)
        classifier_file = require("classifier", classifier_path)
        sideways_file = require("sideways")
        require("sideways_look")
        from vision.classify import Classifier
        from vision.detect import Detector  # type: ignore[import-not-found,unused-ignore]

        self.detector = Detector(detector_file)
        self.classifier = Classifier(
            classifier_file,
            flowers=flowers,
            flower_model=flower_path,
            index=index,
            index_model=index_path,
        )
        self.models = {
            "detector": model_card(detector_file),
            "classifier": model_card(classifier_file),
            "sideways": model_card(sideways_file),
        }
        if self.detector.refiner is not None:
            self.models["refiner"] = model_card(self.detector.refiner.model_path)
        if self.classifier.flower_reader is not None:
            self.models["flower_reader"] = model_card(self.classifier.flower_reader.model_path)
        if self.classifier.index_reader is not None:
            self.models["index_reader"] = model_card(self.classifier.index_reader.model_path)
        if self.detector.tileness is not None:
            self.models["tileness"] = model_card(self.detector.tileness.path)

    @property
    def classifier_digest(self) -> str:
        """What a taught set records as the classifier that embedded its looks."""
        return self.classifier.digest

    def recognize(
        self,
        data: bytes | str | Path,
        context: Mapping[str, Any] | None = None,
        ruleset: str = "mcr",
        tileset: TileSet | None = None,
    ) -> Recognition:
        """Read a photo of a declared win, with a taught `tileset` when given (embedded by
        this classifier: `vision.teaching.reembedded`). Raises PhotoError (bad photo),
        ContextError, TileSetError (a set this classifier cannot use)."""
        checked = check_context(context)
        photo, tiles, timings, faintly = self._read_timed(data, tileset)
        result = interpret(
            tiles,
            checked,
            ruleset,
            timings=timings,
            image_size=photo.original_size,
            objectness=self.objectness,
            faint=self.faint_reader(photo, tiles, tileset, faintly),
            taught=tileset is not None and judged_with_set(tileset.coverage),
        )
        result.models, result.sha256, result.photo = self.models, photo.sha256, photo
        result.tileset = tileset.name if tileset is not None else None
        return result

    def read_tiles(
        self, data: bytes | str | Path, tileset: TileSet | None = None
    ) -> tuple[Photo, Tiles]:
        """The models' half of `recognize`: the photo loaded, its tiles detected and named
        (with `tileset`'s looks where given). Raises PhotoError (bad photo)."""
        photo, tiles, _, _ = self._read_timed(data, tileset)
        return photo, tiles

    def _read_timed(
        self, data: bytes | str | Path, tileset: TileSet | None
    ) -> tuple[Photo, Tiles, dict[str, float], Tiles]:
        """`read_tiles`, the milliseconds each stage took, and the tiles the detector's
        passes found only faintly (from FAINT_CONFIDENCE), not yet read."""
        if tileset is not None and len(tileset) and tileset.model != self.classifier_digest:
            raise TileSetError(f"set {tileset.name!r} was embedded by another classifier")
        watch = Stopwatch()
        photo = load_photo(data)
        watch.lap("load")
        tiles, faintly = self.detector.detect_with_faint(photo, FAINT_CONFIDENCE)
        watch.lap("detect")
        tiles = self.classifier.classify(photo, tiles)
        if tileset is not None:
            tiles = self.read_with_set(photo, tiles, tileset)
        watch.lap("classify")
        return photo, tiles, watch.laps, faintly

    def faint_tiles(self, photo: Photo) -> Tiles:
        """The photo's tiles found at FAINT_CONFIDENCE, classified: what an enrollment photo
        whose sure tiles miss a face may fill its rows' gaps with."""
        return self.classifier.classify(photo, self.detector.detect(photo, FAINT_CONFIDENCE))

    def faint_reader(
        self,
        photo: Photo,
        tiles: Tiles,
        tileset: TileSet | None = None,
        faintly: Tiles | None = None,
    ) -> FaintReader:
        """What `interpret` asks for as `faint`: the tiles the detector's passes found only
        faintly (from FAINT_CONFIDENCE; `faintly` where the passes that found `tiles` kept
        them, else the photo is detected again when first asked) on none of `tiles`, each
        classified (with `tileset`'s looks) once, when first asked for."""
        found: list[Tiles] = []  # the faint tiles apart, unread
        read: dict[int, Tiles] = {}  # each one read, by its index among them

        def faint(keep: Callable[[Tiles], npt.NDArray[np.bool_]] | None = None) -> Tiles:
            if not found:
                near = faintly
                if near is None:
                    near = self.detector.detect_with_faint(photo, FAINT_CONFIDENCE)[1]
                found.append(near[np.flatnonzero(apart(near, tiles))])
            wanted = np.arange(len(found[0])) if keep is None else np.flatnonzero(keep(found[0]))
            unread = [int(k) for k in wanted if int(k) not in read]
            if unread:
                named = self.classifier.classify(photo, found[0][np.array(unread)])
                if tileset is not None:
                    named = self.read_with_set(photo, named, tileset)
                read.update({k: named[np.array([j])] for j, k in enumerate(unread)})
            out = Tiles.empty()
            for k in wanted:
                out = concatenate(out, read[int(k)])
            return out

        return faint

    def read_with_set(self, photo: Photo, tiles: Tiles, tileset: TileSet) -> Tiles:
        """Classified `tiles` read with a taught set: the faces it finds unlike all its
        looks cut again (`vision.recut`), then the set's looks joined with the classifier's
        reading (`vision.tileset`)."""
        if len(tileset) == 0 or len(tiles) == 0:
            return tiles  # `TileSet.read`: nothing taught, the classifier's reading stands
        features = tileset.features(tiles.probs, tiles.embeddings, tiles.looks)
        refiner = self.detector.refiner
        tiles, features = recut(photo, tiles, tileset, self.classifier, refiner, features)
        return replace(tiles, probs=joint_reading(features))


def interpret(
    tiles: Tiles,
    context: Mapping[str, Any] | None = None,
    ruleset: str = "mcr",
    *,
    timings: dict[str, float] | None = None,
    image_size: tuple[int, int] | None = None,
    objectness: Objectness | bool = True,
    faint: FaintReader | None = None,
    taught: bool = False,
) -> Recognition:
    """Layout, decoding, scoring and the review flag for tiles already detected and classified.

    Detections the objectness model takes for no tile are dropped first (`vision.objectness`;
    tiles without the classifier's embeddings pass): `objectness` True uses the shipped
    model, False none (to measure without it), or the model given.

    The tiles become a hand by one search (`vision.search.read`) over the layout, the
    detector's slips and the hand's readings.

    `faint` gives the photo's tiles the detector found only faintly, asked for where the
    tiles read as 13 waiting to win (`vision.unseen`: the win's tile may be one of them) and
    where a hand is read (`vision.faint_flowers`: a pale flower beside it may be one).

    `taught`: the tiles were read with a taught set shown most faces, whose readings P(right)
    judges by a model of their own (`vision.calibration.ReviewModel.for_reading`,
    `judged_with_set`).

    `image_size` (width, height of the original photo) lets it warn about tiles cut off at
    the photo's edge: part of the hand may be outside the picture. The recognition's
    `timings_ms` are `timings` (the models' stages, when given) and this half's.
    """
    watch = Stopwatch(dict(timings or {}))
    checked = check_context(context)
    no_tile = shipped_objectness() if objectness is True else objectness or None
    if no_tile is not None:
        tiles = no_tile.keep(tiles)
    # Layout and decoding are one search: its time is the decoding's.
    watch.lap("layout")
    searched = search_read(tiles, checked, _priors())
    if faint is not None and searched.decoded.waiting:
        # 13 tiles read: the win's tile may be one the detector found only faintly. Not
        # judged by the objectness model, whose fit never saw a detection so faint: a faint
        # tile is taken only where it completes a win the tiles allow, and flagged.
        completed = with_faint_tile(
            searched.tiles, searched.found, faint(), lambda t: search_read(t, checked, _priors())
        )
        searched = completed or searched
    if faint is not None and "flowers" not in checked:
        # A pale flower beside the win found only faintly: no hand needs it, so nothing
        # else would look for it (`vision.faint_flowers`). Flowers the player gives stand.
        searched = with_faint_flowers(searched, faint, lambda t: search_read(t, checked, _priors()))
    tiles, found, decoded = searched.tiles, searched.found, searched.decoded
    watch.lap("decode")
    notes = [*found.notes, *(n for n in decoded.notes if n not in found.notes)]
    if image_size is not None and (cut := _touching_edge(tiles, image_size)):
        # Not a review reason on its own: tight framing is common and usually harmless.
        message = "a tile touches the photo's edge: part of the hand may be cut off"
        notes.append(Note(NoteCode.TILE_AT_EDGE, message, cut))
    scored = _score(decoded.hand, ruleset)
    watch.lap("score")
    doubts = review_notes(found, decoded, scored, tiles)
    model = shipped_review_model()
    if model is None:  # no calibrated model: any check that fired flags the reading
        return Recognition(tiles, found, decoded, scored, notes, bool(doubts), doubts, watch.laps)
    judge = model.for_reading(taught)
    modelled = judge.model_p(reading_features(tiles, found, decoded, doubts, notes))
    p_right = model.recalibration(taught)(modelled)
    review = model.flags(p_right, doubts, taught)
    # The decoder's own doubt (another reading, which flower) or a hard check says why;
    # otherwise the probability alone flagged the reading: say so. (The model's probability
    # is held at the decoder's confidence where that doubt is what it weighs.)
    own_doubt = bool(doubts) and modelled >= decoded.confidence * (1 - 1e-9)
    hard = any(note.code in judge.hard_checks for note in doubts)
    if review and not (own_doubt or hard):
        message = (
            f"the reading is right with probability {p_right:.2f}, under the review "
            f"threshold {model.threshold_for(taught):.2f}"
        )
        doubts = [Note(NoteCode.UNLIKELY_RIGHT, message), *doubts]
    return Recognition(
        tiles, found, decoded, scored, notes, review, doubts, watch.laps, p_right=p_right
    )


def _priors() -> LayoutPriors:
    """The search's shipped priors; ModelMissingError naming the command that fits them."""
    priors = shipped_priors()
    if priors is None:
        require("layout_priors")  # raises, saying how to fit them
        raise AssertionError("unreachable")
    return priors


def _score(hand: Hand | Waiting | None, ruleset: str) -> Json | None:
    if hand is None:
        return None
    result: Json = score_hand(hand, ruleset).to_json()
    return result


def _touching_edge(
    tiles: Tiles, image_size: tuple[int, int], margin: float = 2.0
) -> tuple[int, ...]:
    """The tiles whose box touches the photo's edge."""
    width, height = image_size
    box = tiles.xyxy
    inside = (box[:, 0] > margin) & (box[:, 1] > margin)
    inside &= (box[:, 2] < width - margin) & (box[:, 3] < height - margin)
    return tuple(int(t) for t in np.flatnonzero(~inside))


class Stopwatch:
    """Milliseconds per stage, each lap from the one before (`Recognition.timings_ms`)."""

    def __init__(self, laps: dict[str, float] | None = None) -> None:
        self.laps = laps if laps is not None else {}
        self._since = time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.laps[stage] = (now - self._since) * 1000
        self._since = now
