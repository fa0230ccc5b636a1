"""A taught tile set: how each face of one physical set looks, and the reading that uses it.

Every table brings its own set, and on a design it never saw the classifier's mistakes are
systematic: every copy of a face is misread the same way. A set keeps, per face, the
classifier's embeddings of the crops it was taught from (`training/embedding_output.py`) and the
crops themselves, so a set outlives a retrained classifier: its looks are embedded again.

Reading with a set joins three views of a face in one softmax over the 43 classes:

    z_c = A log p_c + B s_c + D t_c   for a face the set was taught: s_c, the best cosine
        + G g_c                       likeness of this face's embedding to one of face c's
                                      looks; t_c, the best likeness of its print to one of
                                      face c's crops (`vision.looks`); g_c, how far the
                                      classifier misread face c's own looks (minus the log
                                      of its best probability of c on them); B and D grow
                                      by B' d_c and D' d_c, d_c how unlike every other
                                      face of the set face c's looks are
    z_c = A log p_c + C               for a face it was never shown (the classifier alone)
    z_c = (A + E) log p_c + F         for the back, which no set is shown: a face unlike
                                      every look taught is no back unless the classifier
                                      says so

Each weight is linear in the set's coverage (the share of the 42 faces it was shown): a set
shown every face is trusted more than one taught from a few labelled photos, whose untaught
faces must still win their tiles. The numbers are fitted once by maximum likelihood on the
tiles of rendered wins of designs no shipped weights were trained on (KDE and GNOME themes),
each design's set taught from one enrollment photo, and from the labelled tiles of one, two
and four of its wins (`python benchmarks/sets.py fit`; seeds and figures in
docs/tilesets.md): first A-D, with the back read as an untaught face; then the back's own
E and F, with A-D held (`fit --back-only`); then G, with the rest held (`fit --gap-only`);
then B' and D' (`fit --distinct-only`): a likeness says more where the set holds no other
face like that one, less among a set's near twins (flowers that differ by a small numeral).
A face the classifier misreads on every copy (a bird 1-bamboo it takes for East) is misread
on the looks it was taught from too: g_c gives back, for every copy, part of what the
classifier's systematic error takes from it. Fitted on the training sources' designs, where
the classifier is rarely wrong, the weights trust it too much for a set it never saw; fitted
on full sets alone, a partial set reads worse than no set. Which of the eight flowers a
flower tile is, is then sharpened by one fitted temperature (`FLOWER_TEMPERATURE`), the
flowers a partial set was not shown raised by one fitted constant (`UNTAUGHT_FLOWER`).
Nothing is fitted per set: a set only adds looks.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from scoring.tiles import BACK, CLASSES, FACES
from vision.classify import FACE_MARGIN
from vision.looks import alike_to, describe_crops
from vision.types import FLOWER_SLICE, FloatArray

FORMAT = 1  # the set file's layout; a newer one is refused by an older reader
CROP_H, CROP_W = 80, 64  # the classifier's input: what a look's crop is kept at
LOOKS_PER_FACE = 24  # the newest are kept: a face needs few looks, a file stays small
MAX_LOOKS = LOOKS_PER_FACE * len(CLASSES)
NAME = re.compile(r"^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$")
# Contrast (grey levels a pixel) below which a print is like nothing (`vision.looks.alike_to`):
# without it a blank white dragon and a tile's back are alike at random. Chosen among 0, 2,
# 5 and 10 on the fitting renders (found tiles right, KDE default 96.4 -> 97.7 %).
PRINT_FLOOR = 5.0
MIN_FACES_TO_CENTRE = 10  # `TileSet.centre`: a mean of fewer faces is mostly those faces
# The joint reading's weights (module docstring): fitted by `python benchmarks/sets.py fit`.
# A, B, C, D, F, E, G, B', D', then what each gains per unit of coverage (a set shown every
# face: 1).
WEIGHTS = (
    *(0.894, 4.948, 6.698, 8.247, 9.738, 1.276, 0.612, 3.441, -7.475),
    *(-0.424, 0.292, -1.390, -1.079, -3.960, 0.000, -0.391, -3.420, 12.094),
)
TERMS = 9  # weights per half of WEIGHTS: the terms of `joint_features`
LIKENESS, UNTAUGHT, PRINTED = 1, 2, 3  # the terms B, C and D weigh
BACK_TERMS = (4, 5)  # F and E
GAP = 6  # G
DISTINCT = (7, 8)  # B' and D'
_FLOOR = 1e-6  # probabilities are floored before their log: a hard zero never vetoes a look
# Which flower a flower is: the weights above are fitted over all 43 classes at once, where
# flowers are few, and split a flower tile's mass among the eight too evenly (KDE classic's
# flowers, every one named right, at 0.87 on average). The split is sharpened by this
# temperature, fitted by maximum likelihood on the flower tiles of held-out designs' wins read
# with their enrollment's set (`python benchmarks/sets.py fit-flowers`, docs/tilesets.md).
FLOWER_TEMPERATURE = 0.559
# Which flower, where the set was shown only some of the eight: one set draws its flowers
# alike, so a taught flower's looks are like its untaught siblings' tiles too, and the joint
# reading (fitted over all faces, where an unseen face is seldom so like a taught one) hands
# those tiles to the taught flower. In the split, an untaught flower is raised by this many
# nats, fitted by maximum likelihood at FLOWER_TEMPERATURE on the flower tiles of wins read
# with sets taught from one, two and four labelled wins (`python benchmarks/sets.py
# fit-flowers --teach-wins 1 2 4`, docs/tilesets.md). A set shown all eight, or none, is
# not moved by it.
UNTAUGHT_FLOWER = 4.45

UInt8Array = npt.NDArray[np.uint8]


class TileSetError(ValueError):
    """A set file that cannot be read, or a set that cannot be used as asked."""


def check_name(name: str) -> str:
    """`name` if it is a set name: 1-64 of a-z, 0-9, '-' and '_', starting and ending with a
    letter or digit (a file name on every system, no path in it)."""
    if not isinstance(name, str) or not NAME.match(name):
        raise TileSetError(
            f"bad set name {name!r}: use 1-64 lowercase letters, digits, '-' or '_', "
            "starting and ending with a letter or digit"
        )
    return name


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def normalized(embeddings: FloatArray) -> FloatArray:
    """Rows scaled to unit length (zero rows stay zero)."""
    norms = np.linalg.norm(embeddings, axis=1, keepdims=True)
    return np.asarray(embeddings / np.maximum(norms, 1e-12), dtype=np.float32)


@dataclass(frozen=True)
class TileSet:
    """One physical set's looks: `codes[i]` is what look i shows, `embeddings[i]` the
    classifier's features of `crops[i]` (80x64 BGR), `origins[i]` what it was taught from,
    `own[i]` the classifier's probability of `codes[i]` on it (NaN where not known: a set
    written before it was kept). `model` is the digest of the classifier that read them."""

    name: str
    codes: tuple[str, ...] = ()
    embeddings: FloatArray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    crops: UInt8Array = field(default_factory=lambda: np.zeros((0, CROP_H, CROP_W, 3), np.uint8))
    origins: tuple[str, ...] = ()
    model: str = ""
    created: str = field(default_factory=_now)
    updated: str = field(default_factory=_now)
    own: FloatArray = field(default_factory=lambda: np.zeros(0, np.float32))

    def __post_init__(self) -> None:
        check_name(self.name)
        n = len(self.codes)
        if not (len(self.embeddings) == len(self.crops) == len(self.origins) == n):
            raise TileSetError("a set's codes, embeddings, crops and origins differ in number")
        # Nothing given: how the classifier read the looks is not known.
        own = np.asarray(self.own if len(self.own) else np.full(n, np.nan), np.float32)
        if own.shape != (n,) or ((own < 0) | (own > 1)).any():
            raise TileSetError("a set's own readings must be one probability per look")
        object.__setattr__(self, "own", own)
        unknown = sorted(set(self.codes) - set(CLASSES))
        if unknown:
            raise TileSetError(f"unknown tile codes in set {self.name!r}: {unknown}")
        if self.crops.shape[1:] != (CROP_H, CROP_W, 3) or self.crops.dtype != np.uint8:
            raise TileSetError(f"set {self.name!r}: crops must be {CROP_H}x{CROP_W} BGR bytes")

    def __len__(self) -> int:
        return len(self.codes)

    @property
    def faces(self) -> list[str]:
        """The codes the set was shown, in class order."""
        return [c for c in CLASSES if c in self._taught_codes]

    def counts(self) -> dict[str, int]:
        """Looks per taught face, in class order."""
        return {c: self.codes.count(c) for c in self.faces}

    def with_looks(
        self,
        codes: list[str],
        embeddings: FloatArray,
        crops: UInt8Array,
        origins: list[str],
        model: str,
        own: FloatArray | None = None,
    ) -> TileSet:
        """This set with more looks (`own`: the classifier's probability of each one's
        code, unknown where not given); past LOOKS_PER_FACE of a face its oldest go. Looks
        read by another classifier are refused: `reembedded` first."""
        if self.model and model != self.model and len(self):
            raise TileSetError(
                f"set {self.name!r} was embedded by another classifier: embed it again first"
            )
        all_codes = [*self.codes, *codes]
        keep: list[int] = []
        for code in dict.fromkeys(all_codes):
            keep += [i for i, c in enumerate(all_codes) if c == code][-LOOKS_PER_FACE:]
        keep.sort()
        d = embeddings.shape[1] if len(codes) else self.embeddings.shape[1]
        old = self.embeddings if len(self) else np.zeros((0, d), np.float32)
        joined = np.concatenate([old, embeddings.astype(np.float32)])
        all_crops = np.concatenate([self.crops, crops.astype(np.uint8)])
        all_origins = [*self.origins, *origins]
        added = np.full(len(codes), np.nan, np.float32) if own is None else own
        all_own = np.concatenate([self.own, np.asarray(added, np.float32)])
        return TileSet(
            self.name,
            tuple(all_codes[i] for i in keep),
            joined[keep],
            all_crops[keep],
            tuple(all_origins[i] for i in keep),
            model,
            self.created,
            _now(),
            all_own[keep],
        )

    def renamed(self, name: str) -> TileSet:
        return TileSet(
            name,
            self.codes,
            self.embeddings,
            self.crops,
            self.origins,
            self.model,
            self.created,
            self.updated,
            self.own,
        )

    def read_by(self, digest: str) -> bool:
        """Whether the classifier of `digest` read every look, how it read them kept (an
        empty set is read by any)."""
        return len(self) == 0 or (self.model == digest and bool(np.isfinite(self.own).all()))

    def taught(self) -> npt.NDArray[np.bool_]:
        """(43,) the classes the set was shown."""
        return np.array([c in self._taught_codes for c in CLASSES])

    def likeness(self, embeddings: FloatArray) -> FloatArray:
        """(n, 43) for (n, d) embeddings: the best cosine likeness to each taught face's
        looks, the set's centre taken out (0 where untaught)."""
        if len(self) == 0 or len(embeddings) == 0:
            return np.zeros((len(embeddings), len(CLASSES)), np.float32)
        if embeddings.shape[1] != self.embeddings.shape[1]:
            raise TileSetError(
                f"set {self.name!r} holds {self.embeddings.shape[1]}-wide looks and the "
                f"classifier gives {embeddings.shape[1]}: embed the set again"
            )
        centre = self.centre
        cos = normalized(embeddings - centre) @ normalized(self.embeddings - centre).T
        return self._best_per_face(cos)

    def printed(self, looks: FloatArray) -> FloatArray:
        """(n, 43) for faces as `vision.looks.describe` keeps them: the best likeness of the
        print itself to each taught face's crops (0 where untaught). One set prints a face
        the same on every copy, so this tells faces apart that the embedding, trained to
        generalize over designs, holds close."""
        if len(self) == 0 or len(looks) == 0 or looks.ndim != 4:
            return np.zeros((len(looks), len(CLASSES)), np.float32)
        return self._best_per_face(alike_to(looks, self.printed_looks, PRINT_FLOOR))

    @cached_property
    def printed_looks(self) -> FloatArray:
        """The set's crops as `vision.looks.describe` keeps faces."""
        return describe_crops(self.crops, FACE_MARGIN)

    def _best_per_face(self, scores: FloatArray) -> FloatArray:
        """(n, 43): per taught face, the best of `scores` (n, looks) over its looks; 0 for
        the faces untaught."""
        out = np.zeros((len(scores), len(CLASSES)), np.float32)
        index = {c: i for i, c in enumerate(CLASSES)}
        codes = np.asarray(self.codes)
        for code in self.faces:
            out[:, index[code]] = scores[:, codes == code].max(axis=1)
        return out

    @cached_property
    def _taught_codes(self) -> frozenset[str]:
        return frozenset(self.codes)

    @cached_property
    def centre(self) -> FloatArray:
        """What all faces of this set share, taken out before faces are compared: the mean
        of its looks (one per face, so no face weighs more for being taught more often).
        Nearest-look reading gains from it (held-out KDE default 98.2 -> 98.8 % of faces),
        as in few-shot learning's centred, normalized features ("SimpleShot"). A set shown
        few faces has no such mean: nothing is taken out then."""
        if len(self.faces) < MIN_FACES_TO_CENTRE:
            return np.zeros(self.embeddings.shape[1], np.float32)
        per_face = [self.embeddings[np.asarray(self.codes) == c].mean(axis=0) for c in self.faces]
        return np.asarray(np.mean(per_face, axis=0), dtype=np.float32)

    @cached_property
    def misread(self) -> FloatArray:
        """(43,) per taught face, how far the classifier misread its looks: minus the log of
        its best probability of the face on one of them, at most minus the log of `_FLOOR`;
        0 for a face untaught or whose looks' readings are not known."""
        out = np.zeros(len(CLASSES), np.float32)
        codes = np.asarray(self.codes)
        for code in self.faces:
            own = self.own[codes == code]
            if np.isfinite(own).any():
                best = max(float(np.nanmax(own)), _FLOOR)
                out[CLASSES.index(code)] = -np.log(best)
        return out

    @cached_property
    def distinctness(self) -> FloatArray:
        """(43,) per taught face, 1 less its likeness to the likest other face of the set:
        the best likeness of one of its looks' embeddings to another face's, or of its mean
        print to another face's mean print, whichever is higher (a face's mean print: a set
        of many looks is not compared print by print). 0 for a face untaught, or the only
        one."""
        out = np.zeros(len(CLASSES), np.float32)
        faces = self.faces
        if len(faces) < 2:
            return out
        codes = np.asarray(self.codes)
        embedded = normalized(self.embeddings - self.centre)
        cos = embedded @ embedded.T
        prints = np.stack([self.printed_looks[codes == code].mean(axis=0) for code in faces])
        printed = alike_to(prints, prints, PRINT_FLOOR)
        for k, code in enumerate(faces):
            mine = codes == code
            others = np.arange(len(faces)) != k
            likest = max(float(cos[mine][:, ~mine].max()), float(printed[k, others].max()))
            out[CLASSES.index(code)] = 1.0 - likest
        return out

    def features(self, probs: FloatArray, embeddings: FloatArray, looks: FloatArray) -> FloatArray:
        """(n, 43, 18) what the joint reading weighs (`joint_features`)."""
        return joint_features(
            probs,
            self.likeness(embeddings),
            self.printed(looks),
            self.taught(),
            self.misread,
            self.distinctness,
        )

    @property
    def coverage(self) -> float:
        """The share of the 42 faces the set was shown."""
        return float(self.taught()[: len(FACES)].mean())

    def fit(self, features: FloatArray) -> FloatArray:
        """(n,) how like its likeliest taught face each face is, in the joint reading's nats,
        from its `features`: the best over taught faces of B s + D t at the set's coverage
        (0 for an empty set)."""
        if len(self) == 0 or len(features) == 0:
            return np.zeros(len(features), np.float32)
        cover = self.coverage
        b = WEIGHTS[LIKENESS] + cover * WEIGHTS[TERMS + LIKENESS]
        d = WEIGHTS[PRINTED] + cover * WEIGHTS[TERMS + PRINTED]
        terms = b * features[:, :, LIKENESS] + d * features[:, :, PRINTED]
        return np.asarray(terms[:, self.taught()].max(axis=1), np.float32)

    def read(self, probs: FloatArray, embeddings: FloatArray, looks: FloatArray) -> FloatArray:
        """(n, 43) probabilities joining the classifier's `probs` with the set's looks
        (module docstring); `probs` as it is for an empty set."""
        if len(self) == 0 or len(probs) == 0:
            return probs
        return joint_reading(self.features(probs, embeddings, looks))

    def to_bytes(self) -> bytes:
        """The set as one .npz file (no pickled objects in it)."""
        meta = {
            "format": FORMAT,
            "name": self.name,
            "model": self.model,
            "created": self.created,
            "updated": self.updated,
        }
        buffer = io.BytesIO()
        np.savez_compressed(
            buffer,
            meta=np.array(json.dumps(meta)),
            codes=np.array(self.codes, dtype="<U4"),
            embeddings=self.embeddings.astype(np.float32),
            crops=self.crops,
            origins=np.array(self.origins, dtype=str),
            own=self.own,
        )
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> TileSet:
        """A set read back from `to_bytes`; TileSetError for anything else."""
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                arrays = {k: z[k] for k in ("codes", "embeddings", "crops", "origins")}
                # A file written before the looks' readings were kept has none: not known.
                own = np.asarray(z["own"] if "own" in z.files else [], np.float32)
        except Exception as exc:  # zip, npz and JSON each fail their own way
            raise TileSetError(f"not a tile set file ({type(exc).__name__})") from exc
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise TileSetError(f"not a tile set file of format {FORMAT}")
        try:
            embeddings = np.asarray(arrays["embeddings"], np.float32)
            if embeddings.ndim != 2 or len(embeddings) > MAX_LOOKS:
                raise TileSetError("a tile set's embeddings must be one row per look")
            if not np.isfinite(embeddings).all():
                raise TileSetError("a tile set's embeddings hold NaN or infinity")
            return cls(
                str(meta["name"]),
                tuple(str(c) for c in arrays["codes"]),
                embeddings,
                np.asarray(arrays["crops"]),
                tuple(str(o) for o in arrays["origins"]),
                str(meta.get("model", "")),
                str(meta.get("created", "")),
                str(meta.get("updated", "")),
                own,
            )
        except TileSetError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise TileSetError(f"a damaged tile set file ({exc})") from exc

    def describe(self) -> dict[str, Any]:
        """What `mjlens sets list` and `GET /v1/sets` say of a set."""
        return {
            "name": self.name,
            "faces": len(self.faces),
            "looks": len(self),
            "counts": self.counts(),
            "untaught": [c for c in CLASSES if c not in self._taught_codes],
            "taught_from": sorted({o.split("#")[0] for o in self.origins}),
            "created": self.created,
            "updated": self.updated,
        }


def joint_features(
    probs: FloatArray,
    likeness: FloatArray,
    printed: FloatArray,
    taught: npt.NDArray[np.bool_],
    misread: FloatArray | None = None,
    distinct: FloatArray | None = None,
) -> FloatArray:
    """(n, 43, 18) per tile and class: log p, s where taught, 1 where an untaught face, t
    where taught, for the back its own 1 and log p, g where taught (`misread`, per class),
    and s d and t d (`distinct`, per class; g and d 0 when not given); then the same nine
    times the set's coverage (the share of the 42 faces it was shown), so that the weights
    move with how much of the set was taught (module docstring). The back is no face a set
    is shown, and a face unlike every taught look is no back: it weighs its own evidence."""
    log_p = np.log(np.maximum(probs, _FLOOR))
    mask = taught[None, :]
    back = np.zeros(len(CLASSES), bool)
    back[CLASSES.index(BACK)] = True
    coverage = float(taught[: len(FACES)].mean())  # `TileSet.coverage`
    none = np.zeros(len(CLASSES), np.float32)
    gap = np.where(taught, none if misread is None else misread, 0.0)[None, :]
    apart = np.where(taught, none if distinct is None else distinct, 0.0)[None, :]
    shown_likeness = np.where(mask, likeness, 0.0)
    shown_print = np.where(mask, printed, 0.0)
    nine = np.stack(
        [
            log_p,
            shown_likeness,
            np.broadcast_to(~mask & ~back, probs.shape).astype(np.float32),
            shown_print,
            np.broadcast_to(back, probs.shape).astype(np.float32),
            np.where(back, log_p, 0.0),
            np.broadcast_to(gap, probs.shape).astype(np.float32),
            shown_likeness * apart,
            shown_print * apart,
        ],
        axis=2,
    )
    return np.concatenate([nine, coverage * nine], axis=2).astype(np.float32)


def joint_reading(
    features: FloatArray,
    weights: Sequence[float] = WEIGHTS,
    flower_temperature: float = FLOWER_TEMPERATURE,
    untaught_flower: float = UNTAUGHT_FLOWER,
) -> FloatArray:
    """softmax over classes of `features` (`joint_features`) weighed by `weights`, the
    flowers' share split among the eight at `flower_temperature`, each flower the set was
    not shown raised by `untaught_flower` nats (`split_flowers`)."""
    z = features @ np.asarray(weights, np.float32)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    probs = np.asarray(e / e.sum(axis=1, keepdims=True))
    if len(features) == 0:
        return split_flowers(probs, flower_temperature)
    untaught = features[0, FLOWER_SLICE, UNTAUGHT] > 0  # the same for every tile
    return split_flowers(probs, flower_temperature, untaught_flower * untaught)


def split_flowers(
    probs: FloatArray, temperature: float, lift: npt.ArrayLike | None = None
) -> FloatArray:
    """`probs` (n, 43) with each row's flower mass kept and split among the eight flowers
    in proportion to their probabilities raised to 1 / `temperature`, each times e to the
    power of its `lift` (8 nats in FLOWERS order; none by default)."""
    out = np.asarray(probs, dtype=np.float32).copy()
    lifted = lift is not None and np.ptp(np.asarray(lift, np.float64)) > 0
    if (temperature == 1.0 and not lifted) or len(out) == 0:
        return out
    flowers = out[:, FLOWER_SLICE].astype(np.float64)
    split = tempered(flowers, temperature, lift if lifted else None)
    out[:, FLOWER_SLICE] = flowers.sum(axis=1, keepdims=True) * split
    return out


def tempered(
    probs: npt.NDArray[np.floating], temperature: float, lift: npt.ArrayLike | None = None
) -> npt.NDArray[np.float64]:
    """Each row of `probs` raised to 1 / `temperature`, times e to the power of `lift` (per
    column, or per row and column; where given), and scaled to sum to 1."""
    logs = np.log(np.maximum(probs, 1e-30)) / temperature
    if lift is not None:
        logs = logs + np.asarray(lift, np.float64)
    e = np.exp(logs - logs.max(axis=1, keepdims=True))
    return np.asarray(e / e.sum(axis=1, keepdims=True))
