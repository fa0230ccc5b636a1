"""Find every tile in a photo: the ONNX detector, peak decoding, NMS, second looks at other scales.

The network (vision/weights/detector.onnx, card detector.md beside it) answers per stride-4
cell a face-up and a face-down centre heatmap, the distances to the tile's box edges and the
four face corners. Corners come in a canonical order (the face's "up" points into the
upper-left half-plane), so a face may read half a turn round; the classifier reads both. A
coarse look first tells close-ups (large faces), which are run again smaller; other photos get
a second pass over the region where the first pass found tiles, scaled so faces are the size
the network reads best.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision import corner_code
from vision.classify import open_model
from vision.geometry import face_sides
from vision.load import Photo
from vision.nms import nms
from vision.refine import Refiner, shipped
from vision.sideways import sideways_flags
from vision.tileness import shipped_tileness
from vision.types import FloatArray, Tiles

STRIDE = 4
DEFAULT_THRESHOLD = 0.3  # a peak's confidence that recognition takes for a tile
REG_UNIT = 32.0  # the network's regressions are in units of this many input pixels
FIRST_SIDE = 640  # long side of the first pass
# First-pass faces whose short side (network px) is under this get a second pass scaled so
# they are TARGET_TILE: the network finds faces best near that size, whether the first pass
# saw them smaller or larger. Chosen among 24, 32, 40, 64 and 80 on held-out tables
# (`runs/val_heldout5`, 640 px: box recall 97.80 -> 98.13 %, precision 97.56 -> 98.21 % from
# 24 to 64 or 80) and on renders of held-out wins (seed 7200, 1024 px: hand tiles found 99.65
# -> 99.84 %); 80 reaches LARGE_TILE, so every photo but a close-up gets the second pass.
SMALL_TILE = 80.0
# A detection this much smaller than the photo's confident ones is a speck of texture (a dot
# on a tile, a fleck of wood grain), not a tile: the tiles of one photo differ in size by
# perspective, far less than this. Sizes are the boxes' (square root of the area), not the
# faces' short sides: where the network is unsure of a face's turn (a tile near 45 degrees)
# the corner regressions average toward the centre and the quad shrinks while the box does
# not; measured by the quad, such tiles were dropped as specks (diagonal-spelling run G:
# 2.3 points of box recall on held-out KDE photos). On runs/tune_proc 0.3-0.5 find the same
# tiles; 0.5 drops the far end of a steep standing row (tests/vision/test_detect.py).
SPECK_RATIO = 0.4
CONFIDENT = 0.5
# Where the network is unsure which way a face is turned, its corner regressions average the
# answers it weighs and a diagonal shrinks toward the face's centre (about 3 % of the faces
# found in photos of the training sources, runs/tune_proc, with the diagonal-spelling run
# G; their diagonals' directions were off by 16 degrees at the median, others' by 4). The
# classifier then reads a sliver of the face. A diagonal shorter than COLLAPSED times what
# its box implies is given that length, along its own direction: a face turned a little
# reads better than a sliver. What a box implies: the photo's median of box size (square
# root of its area) to a face's longer diagonal, or BOX_PER_DIAGONAL (the median on
# runs/tune_proc, 0.94; 10th-90th percentiles 0.82-1.16) for a photo of one or two faces.
# At 0.6 near tiles of real-face photos, whose boxes hold a tall body, were "restored" and
# turned: 7 real-face wins lost, 3 gained; at 0.45 as many real-face wins right as without
# it, and 0.8 points more held-out KDE wins (run G; vision/weights/detector.md).
COLLAPSED = 0.45
BOX_PER_DIAGONAL = 0.94
TARGET_TILE = 40.0  # face short side wanted in the second pass
# Faces this large at the first pass (a close-up of a few tiles) lie past the sizes the
# network was trained on: there it finds a tile's dots and characters rather than the tile.
# A coarse look at a quarter of the pixels sees such tiles at a familiar size; when its
# confident faces are this large (in first-pass pixels), the photo is looked at again,
# scaled so faces are TARGET_LARGE.
COARSE_SIDE = 320
LARGE_TILE = 80.0
TARGET_LARGE = 48.0
MAX_SECOND_SIDE = 1280
PAD_VALUE = 114
# Peaks under the threshold are kept (`Detector.detect_with_faint`) within this many box
# sizes of a sure tile: what the reading looks for among them lies beside the hand (a
# winning tile set apart, the flowers' row; on the held-out renders the hand's flowers the
# sure tiles lacked lay within 2.5 face lengths of the win), and each kept one costs the
# refiner, the sideways look and the tileness network a face.
FAINT_REACH = 3.0

Image = npt.NDArray[np.uint8]


def _peaks(heat: FloatArray, threshold: float) -> tuple[npt.NDArray[np.intp], ...]:
    """(channel, y, x) of cells that are a 3x3 local maximum above `threshold`."""
    _, h, w = heat.shape
    padded = np.pad(heat, ((0, 0), (1, 1), (1, 1)), constant_values=-1.0)
    local = np.max(
        np.stack([padded[:, dy : dy + h, dx : dx + w] for dy in range(3) for dx in range(3)]),
        axis=0,
    )
    return np.nonzero((heat >= local) & (heat > threshold))


def decode_heads(
    heat: FloatArray,
    reg: FloatArray,
    threshold: float,
    iou: float = 0.5,
    code: str = corner_code.CANONICAL,
) -> Tiles:
    """Network outputs for one image -> tiles in network input pixels; `code` is how the
    graph spells corners (`vision.corner_code`)."""
    channel, ys, xs = _peaks(heat, threshold)
    if len(xs) == 0:
        return Tiles.empty()
    px = (xs.astype(np.float32) + 0.5) * STRIDE
    py = (ys.astype(np.float32) + 0.5) * STRIDE
    r = reg[:, ys, xs].T * REG_UNIT  # (n, 12)
    xyxy = np.stack([px - r[:, 0], py - r[:, 1], px + r[:, 2], py + r[:, 3]], axis=1)
    relative = corner_code.decode(r[:, 4:]) if code == corner_code.DIAGONALS else r[:, 4:]
    corners = relative.reshape(-1, 4, 2) + np.stack([px, py], axis=1)[:, None, :]
    score = heat[channel, ys, xs]
    keep = nms(xyxy.astype(np.float32), score.astype(np.float32), iou)
    keep = _one_peak_per_face(corners.astype(np.float32), keep)
    tiles = Tiles(
        xyxy[keep], corners[keep], score[keep], np.zeros(len(keep), bool), channel[keep] == 1
    )
    return tiles


def _one_peak_per_face(corners: FloatArray, order: npt.NDArray[np.int_]) -> npt.NDArray[np.int_]:
    """Drop a peak whose face centre lies inside a better peak's face: faces cannot overlap,
    but a large or steeply seen face can raise two peaks."""
    kept: list[int] = []
    for i in order:
        centre = corners[i].mean(axis=0)
        inside = any(
            cv2.pointPolygonTest(
                corners[k].reshape(-1, 1, 2), (float(centre[0]), float(centre[1])), False
            )
            > 0
            for k in kept
        )
        if not inside:
            kept.append(int(i))
    return np.array(kept, dtype=np.int_)


def restore_collapsed(corners: FloatArray, xyxy: FloatArray) -> FloatArray:
    """(n, 4, 2) corners whose diagonals shrunk far below what their boxes imply (COLLAPSED)
    lengthened about their midpoints to that length; other corners unchanged."""
    if len(corners) == 0:
        return corners
    size = _box_sizes(xyxy)
    diagonals = np.stack([corners[:, 0] - corners[:, 2], corners[:, 1] - corners[:, 3]], axis=1)
    lengths = np.linalg.norm(diagonals, axis=2)  # (n, 2)
    # Collapse is rare: the median over the photo's faces is theirs (a row of standing tiles
    # seen low has boxes tall with the body and faces foreshortened: a ratio far from 0.94).
    ratio = BOX_PER_DIAGONAL
    if len(corners) >= 3:
        ratio = float(np.median(size / np.maximum(lengths.max(axis=1), 1e-6)))
    expected = size / ratio
    short = lengths < COLLAPSED * expected[:, None]
    if not short.any():
        return corners
    out = corners.copy()
    for k, (a, b) in enumerate(((0, 2), (1, 3))):
        rows = np.nonzero(short[:, k])[0]
        mid = (corners[rows, a] + corners[rows, b]) / 2
        unit = diagonals[rows, k] / np.maximum(lengths[rows, k], 1e-6)[:, None]
        out[rows, a] = mid + unit * (expected[rows, None] / 2)
        out[rows, b] = mid - unit * (expected[rows, None] / 2)
    return out


def drop_specks(tiles: Tiles, threshold: float = 0.0) -> Tiles:
    """Tiles without the detections far smaller than the photo's confident ones (or, where
    none is, than those at `threshold`: fainter peaks do not set the size)."""
    if len(tiles) < 2:
        return tiles
    size = _box_sizes(tiles.xyxy)
    confident = size[tiles.confidence >= CONFIDENT]
    found = size[tiles.confidence >= threshold]
    reference = float(np.median(confident if len(confident) else found if len(found) else size))
    return tiles[np.nonzero(size >= SPECK_RATIO * reference)[0]]


def _beside(tiles: Tiles, sure: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Per detection: its centre within FAINT_REACH of a `sure` one's, in the sure ones'
    median box size (none where there is no sure one)."""
    if not sure.any():
        return np.zeros(len(tiles), bool)
    centres = (tiles.xyxy[:, :2] + tiles.xyxy[:, 2:]) / 2
    size = float(np.median(_box_sizes(tiles.xyxy[sure])))
    gaps = np.linalg.norm(centres[:, None] - centres[sure][None], axis=2).min(axis=1)
    return np.asarray(gaps <= FAINT_REACH * size, bool)


def _box_sizes(xyxy: FloatArray) -> FloatArray:
    """(n,) square root of each box's area."""
    wh = np.maximum(xyxy[:, 2:] - xyxy[:, :2], 0)
    sizes: FloatArray = np.sqrt(wh[:, 0] * wh[:, 1]).astype(np.float32)
    return sizes


def _face_short_sides(corners: FloatArray) -> FloatArray:
    short: FloatArray = face_sides(corners).min(axis=1)
    return short


class Detector:
    """The ONNX tile detector, loaded once.

    Example:
        >>> tiles = Detector().detect(load_photo("table.jpg"))  # doctest: +SKIP
        >>> tiles.xyxy  # original photo pixels
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        threshold: float = DEFAULT_THRESHOLD,
        threads: int | None = None,
        second_pass: bool = True,
        refine: bool = True,
        refiner_path: str | Path | None = None,
        tileness: bool = True,
    ) -> None:
        path, self.session = open_model(model_path, "detector", threads)
        self.model_path = path
        self.threshold = threshold
        self.second_pass = second_pass
        # The refiner sets the corners on the faces' edges (vision/refine.py); without its
        # model file the detector's own corners stand.
        self.refiner = (Refiner(refiner_path) if refiner_path else shipped()) if refine else None
        # How likely each detection is a tile and no look-alike, from its pixels: an input of
        # the objectness model (vision/tileness.py); without its file, not judged.
        self.tileness = shipped_tileness() if tileness else None
        self.input_name = self.session.get_inputs()[0].name
        meta = self.session.get_modelmeta().custom_metadata_map
        self.corner_code = meta.get("corner_code", corner_code.CANONICAL)
        if self.corner_code not in corner_code.CODES:
            raise ValueError(f"{path}: unknown corner_code {self.corner_code!r}")

    def detect(self, photo: Photo, threshold: float | None = None) -> Tiles:
        """Tiles with boxes and corners in the ORIGINAL photo's pixels; `threshold`: the
        detector's confidence a tile needs, if not the one it was made with."""
        return self._in_photo(photo, self.detect_image(photo.image, threshold))

    def detect_with_faint(self, photo: Photo, faint: float) -> tuple[Tiles, Tiles]:
        """`detect`'s tiles, and the peaks of the same passes from `faint` up to the
        detector's threshold: the tiles it found only faintly, at no second run of the
        network (the passes' scales and regions are chosen by the sure tiles alone, so
        those are `detect`'s own)."""
        sure, faintly = self._detect_image(photo.image, self.threshold, faint)
        return self._in_photo(photo, sure), self._in_photo(photo, faintly)

    def _in_photo(self, photo: Photo, tiles: Tiles) -> Tiles:
        """Tiles of the working image in the original photo's pixels, judged by tileness."""
        scale = np.float32(photo.scale)
        found = Tiles(
            tiles.xyxy * scale,
            tiles.corners * scale,
            tiles.confidence,
            tiles.sideways,
            tiles.face_down,
        )
        if self.tileness is None or not len(found):
            return found
        return replace(found, tileness=self.tileness.logits(photo, found))

    def detect_image(self, image: Image, threshold: float | None = None) -> Tiles:
        """Tiles in the pixels of `image` (BGR), with a second look where tiles are large or
        small at the first pass."""
        cut = self.threshold if threshold is None else threshold
        return self._detect_image(image, cut, cut)[0]

    def _detect_image(self, image: Image, threshold: float, floor: float) -> tuple[Tiles, Tiles]:
        """The tiles found at `threshold`, and the peaks from `floor` up to it."""
        h, w = image.shape[:2]
        scale = min(1.0, FIRST_SIDE / max(h, w))
        floor = min(floor, threshold)
        if self.second_pass:
            tiles = self._looks(image, scale, threshold, floor)
        else:
            tiles = self._run(image, scale, threshold, floor)
        sure = tiles.confidence >= threshold
        found = self._finished(image, tiles[np.flatnonzero(sure)])
        faint = self._finished(image, tiles[np.flatnonzero(~sure & _beside(tiles, sure))])
        return found, faint

    def _finished(self, image: Image, tiles: Tiles) -> Tiles:
        """Collapsed faces restored, corners refined, crosswise tiles flagged."""
        # Restored last: the looks' choice of scale and the one-peak test go by the
        # network's own quads (a restored standing tile's would cover its neighbour).
        corners = restore_collapsed(tiles.corners, tiles.xyxy)
        if self.refiner is not None:
            corners = self.refiner.refine(image, corners)
        return Tiles(
            tiles.xyxy,
            corners,
            tiles.confidence,
            sideways_flags(corners, tiles.xyxy, image),
            tiles.face_down,
        )

    def _looks(self, image: Image, scale: float, threshold: float, floor: float) -> Tiles:
        """The coarse look, then the pass its faces call for: the photo run smaller for a
        close-up; else the first pass (the coarse look itself when the photo is that small)
        and, where faces come out small, a closer pass. Peaks from `floor` are kept; the
        passes are chosen by those at `threshold`."""
        h, w = image.shape[:2]
        coarse_scale = min(scale, COARSE_SIDE / max(h, w))
        coarse = self._run(image, coarse_scale, threshold, floor)
        confident = coarse.corners[coarse.confidence >= CONFIDENT]
        if len(confident):
            large = float(np.median(_face_short_sides(confident))) * scale  # first-pass px
            if large > LARGE_TILE:
                return self._run(image, scale * TARGET_LARGE / large, threshold, floor)
        tiles = coarse if coarse_scale == scale else self._run(image, scale, threshold, floor)
        sure = tiles[np.flatnonzero(tiles.confidence >= threshold)]
        if len(sure):
            short = float(np.median(_face_short_sides(sure.corners))) * scale
            if short < SMALL_TILE:
                tiles = self._closer(image, sure, short / scale, threshold, floor)
        return tiles

    def _closer(
        self, image: Image, tiles: Tiles, short: float, threshold: float, floor: float
    ) -> Tiles:
        """Run again on the region holding the tiles, scaled so faces are ~TARGET_TILE px."""
        h, w = image.shape[:2]
        margin = 2.0 * short
        x0 = int(max(0, tiles.xyxy[:, 0].min() - margin))
        y0 = int(max(0, tiles.xyxy[:, 1].min() - margin))
        x1 = int(min(w, tiles.xyxy[:, 2].max() + margin))
        y1 = int(min(h, tiles.xyxy[:, 3].max() + margin))
        region = image[y0:y1, x0:x1]
        scale = min(TARGET_TILE / max(short, 1.0), MAX_SECOND_SIDE / max(x1 - x0, y1 - y0), 2.0)
        closer = self._run(region, scale, threshold, floor)
        offset = np.array([x0, y0], np.float32)
        return Tiles(
            closer.xyxy + np.tile(offset, 2),
            closer.corners + offset,
            closer.confidence,
            closer.sideways,
            closer.face_down,
        )

    def _run(self, image: Image, scale: float, threshold: float, floor: float) -> Tiles:
        """One network pass at `scale`; its peaks from `floor` (specks judged against those
        at `threshold`), in `image` pixels."""
        h, w = image.shape[:2]
        nh, nw = max(32, round(h * scale)), max(32, round(w * scale))
        interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        resized = cv2.resize(image, (nw, nh), interpolation=interpolation)
        ph, pw = -(-nh // 32) * 32, -(-nw // 32) * 32
        canvas = np.full((ph, pw, 3), PAD_VALUE, np.uint8)
        canvas[:nh, :nw] = resized
        rgb = cv2.cvtColor(canvas, cv2.COLOR_BGR2RGB).astype(np.float32) / 255.0
        batch = np.ascontiguousarray(rgb.transpose(2, 0, 1)[None])
        heat, reg = self.session.run(None, {self.input_name: batch})
        peaks = decode_heads(heat[0], reg[0], floor, code=self.corner_code)
        tiles = drop_specks(peaks, threshold)
        sx, sy = w / nw, h / nh
        factor = np.array([sx, sy], np.float32)
        return Tiles(
            tiles.xyxy * np.tile(factor, 2),
            tiles.corners * factor,
            tiles.confidence,
            tiles.sideways,
            tiles.face_down,
        )
