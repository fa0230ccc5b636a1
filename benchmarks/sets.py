"""Taught tile sets: one enrollment photo of a design, then declared wins of the same set,
read with and without the set in one run; camerash crops taught with a few crops per face.

    # one folder per design: an enrollment photo and N declared wins of one physical set
    python benchmarks/sets.py render --out .cache/sets_heldout --n 330 --seed 7100 \
        --designs kde/classic kde/default kde/traditional gnome/smooth gnome/postmodern
    # the joint reading's weights: the first 40 wins of each design, sets taught four ways
    python benchmarks/sets.py render --out .cache/sets_fit_7200 --n 100 --seed 7200 \
        --designs kde/classic kde/default kde/traditional gnome/smooth gnome/postmodern
    python benchmarks/sets.py fit --data .cache/sets_fit_7200 --n 40 --teach-wins 0 1 2 4
    # with and without the set, side by side, per design
    python benchmarks/sets.py eval --data .cache/sets_heldout --report sets.json
    # camerash: 1 and 3 crops per face taught (chosen by seed), top-1 on the rest
    python benchmarks/sets.py camerash --camerash ../shared/data/camerash-crops

The "peer" of this benchmark is the same models with no set taught, in the same run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache, partial
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.recognize import (
    _complete_figures,
    _found_and_named,
    _row,
    add_no_faint,
    context_of,
    faint_of,
    models_read,
)
from scoring.tiles import BACK, CLASSES, FLOWERS
from vision.calibration import judged_with_set
from vision.enroll import EnrollmentError
from vision.load import Photo, load_photo
from vision.pipeline import Recognizer, interpret
from vision.recut import recut
from vision.teaching import Label, enrollment_looks, label_looks, reading_looks
from vision.tileset import (
    BACK_TERMS,
    DISTINCT,
    FLOWER_TEMPERATURE,
    GAP,
    TERMS,
    WEIGHTS,
    TileSet,
    joint_reading,
    tempered,
)
from vision.types import FLOWER_SLICE, FloatArray, Tiles

if TYPE_CHECKING:
    from datasets.scene import Scene

Json = dict[str, Any]
# A rendered enrollment photo is kept where every face shows this much of itself; else the
# next draw is taken, up to RETAKES times (`enrollment_photo`).
FACE_IN_SIGHT = 0.9
RETAKES = 20


def face_seed_for(design: str, start: int) -> int:
    """The first face seed from `start` whose set is drawn in `design` ("kde/classic"; a bare
    source name takes any seed)."""
    from datasets.scene.art import FaceSet

    source = design.split("/")[0]
    for seed in range(start, start + 2000):
        if "/" not in design or FaceSet(source, seed, (230, 230, 230)).design == design:
            return seed
    raise SystemExit(f"no face seed draws {design}")


def render(out: Path, designs: list[str], n: int, seed: int, size: int) -> None:
    from datasets.scene import render_scene

    for k, design in enumerate(designs):
        folder = out / f"{k:02d}_{design.replace('/', '_')}"
        folder.mkdir(parents=True, exist_ok=True)
        face_seed = face_seed_for(design, seed + 97 * k)
        source = (design.split("/")[0],)
        rng = np.random.default_rng([seed, k, 0])
        scene = enrollment_photo(rng, source, size, face_seed)
        cv2.imwrite(str(folder / "enroll.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        (folder / "enroll.json").write_text(json.dumps({"annotations": scene.annotations}))
        rng = np.random.default_rng([seed, k, 1])
        for i in range(n):
            scene = render_scene(rng, source, "declared_win", size, face_seed=face_seed)
            cv2.imwrite(str(folder / f"{i:05d}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            label = {"hand": scene.hand, "annotations": scene.annotations}
            (folder / f"{i:05d}.json").write_text(json.dumps(label))
        meta = {"design": scene.meta["design"], "face_seed": face_seed, "photos": n}
        (folder / "design.json").write_text(json.dumps(meta))
        print(f"{folder.name}: {scene.meta['design']}, face seed {face_seed}, {n} wins", flush=True)


def enrollment_photo(
    rng: np.random.Generator, source: tuple[str, ...], size: int, face_seed: int
) -> Scene:
    """A rendered enrollment photo as a user keeps one: every face of the set in sight (each
    labelled, FACE_IN_SIGHT of its face showing). The engine may lay a finger or a pen over a
    tile; a person sees that and takes the photo again, so the next draw is taken (the reading
    refuses such a photo, naming the face: `enrollments` counts refusals of photos as drawn)."""
    from datasets.scene import render_scene

    for _ in range(RETAKES):
        scene = render_scene(rng, source, "enrollment", size, face_seed=face_seed)
        if in_sight(scene.annotations, face_seed, source[0]):
            break
    return scene


def in_sight(annotations: list[Json], face_seed: int, source: str) -> bool:
    """Whether an enrollment photo's labels show every face of its set, each FACE_IN_SIGHT
    of it in sight."""
    from datasets.scene.art import FaceSet

    seen = [a.get("face_visibility", 1.0) for a in annotations]
    faces = len(FaceSet(source, face_seed, (230, 230, 230)).codes)
    return len(seen) == faces and min(seen, default=0.0) >= FACE_IN_SIGHT


def teach(recognizer: Recognizer, folder: Path, wins: int = 0) -> tuple[TileSet | None, str]:
    """The set taught from the folder's enrollment photo, or (`wins` > 0) from the labelled
    tiles of its first `wins` declared wins, boxes a little off as a person draws them; or
    None and why it was refused."""
    digest = recognizer.classifier_digest
    if wins:
        tileset, _ = _labelled_wins(recognizer, TileSet("bench"), folder, wins, False, seed=0)
        return tileset, f"{len(tileset)} looks of {len(tileset.faces)} faces from {wins} wins"
    photo, tiles = recognizer.read_tiles(folder / "enroll.jpg")
    try:
        faint = partial(recognizer.faint_tiles, photo)
        looks, _ = enrollment_looks(photo, tiles, "enroll.jpg", recognizer.classifier, faint)
    except EnrollmentError as exc:
        return None, str(exc)
    warned = len(looks.warnings)
    return looks.added_to(TileSet("bench"), digest), f"{len(looks)} looks, {warned} warnings"


def taught_back(
    recognizer: Recognizer, tileset: TileSet, folder: Path, wins: int
) -> tuple[TileSet, int]:
    """`tileset` with the face-down tiles of the folder's first `wins` wins taught as its
    back, labelled as a person labels them ('back', boxes a little off): a set's enrollment
    shows faces only. Returns the set and how many backs it was shown."""
    return _labelled_wins(recognizer, tileset, folder, wins, True, seed=1)


def _labelled_wins(
    recognizer: Recognizer, tileset: TileSet, folder: Path, wins: int, face_down: bool, seed: int
) -> tuple[TileSet, int]:
    """`tileset` with the well-seen labelled tiles of the folder's first `wins` wins added,
    face up under their codes or (`face_down`) face down as the back, each box drawn as a
    person draws it (`seed`); and how many labels it was taught."""
    rng = np.random.default_rng(seed)
    taught = 0
    for path in _photos(folder, wins):
        anns = json.loads(path.read_text())["annotations"]
        labels = [
            Label(BACK if face_down else a["code"], _drawn_box(a["bbox"], rng))
            for a in anns
            if bool(a.get("face_down")) == face_down and a.get("visibility", 1.0) >= 0.8
        ]
        if not labels:
            continue
        photo, tiles = recognizer.read_tiles(path.with_suffix(".jpg"))
        looks = label_looks(photo, tiles, labels, path.name, recognizer.classifier)
        tileset = looks.added_to(tileset, recognizer.classifier_digest)
        taught += len(labels)
    return tileset, taught


def _drawn_box(bbox: list[float], rng: np.random.Generator) -> tuple[float, float, float, float]:
    """A labelled box as a person draws it: each edge off by up to 5 % of the side."""
    x, y, w, h = bbox
    dx0, dx1 = rng.uniform(-0.05, 0.05, 2) * w
    dy0, dy1 = rng.uniform(-0.05, 0.05, 2) * h
    return (x + dx0, y + dy0, w - dx0 + dx1, h - dy0 + dy1)


def taught_photos(folder: Path, n: int, wins: int) -> list[Path]:
    """The photos read: all but those a set was taught from."""
    return _photos(folder, n + wins)[wins:]


def _matched(tiles: Tiles, anns: list[Json]) -> tuple[list[int], list[int]]:
    """Detections matched to labelled tiles, and the labelled tiles' class indices."""
    from vision.match import match_faces

    if not anns or not len(tiles):
        return [], []
    quads = np.array([a["corners"] for a in anns], np.float32).reshape(-1, 4, 2)
    pairs = match_faces(tiles.face_centres, tiles.confidence, quads)
    truth = [BACK if a.get("face_down") else a["code"] for a in anns]
    return [i for i, _ in pairs], [CLASSES.index(truth[j]) for _, j in pairs]


def ece(probs: FloatArray, truth: list[int], bins: int = 15) -> float:
    """Expected calibration error of the top-1 confidence, equal-width bins."""
    if not len(truth):
        return 0.0
    conf = probs.max(axis=1)
    right = probs.argmax(axis=1) == np.asarray(truth)
    edges = np.linspace(0, 1, bins + 1)
    total = 0.0
    for lo, hi in pairwise(edges):
        inside = (conf > lo) & (conf <= hi)
        if inside.any():
            total += inside.mean() * abs(conf[inside].mean() - right[inside].mean())
    return float(total)


def folders_of(data: list[str]) -> list[Path]:
    folders = [
        f
        for d in map(Path, data)
        for f in ([d] if (d / "enroll.jpg").exists() else sorted(d.glob("*")))
        if (f / "enroll.jpg").exists()
    ]
    if not folders:
        raise SystemExit(f"no design folders under {data}: run the render step first")
    return folders


def _photos(folder: Path, n: int) -> list[Path]:
    return sorted(folder.glob("[0-9]*.json"))[:n]


def fit(args: argparse.Namespace) -> Json:
    """Maximum-likelihood weights (`vision.tileset.WEIGHTS`) of `joint_reading` over the
    matched tiles of every design folder, each read with a set of its own design taught in
    each of the ways asked (the enrollment photo, or the first N wins' labelled tiles)."""
    recognizer = Recognizer()
    features, truth = [], []
    for folder, wins in itertools.product(folders_of(args.data), args.teach_wins):
        tileset, why = teach(recognizer, folder, wins)
        if tileset is None:
            print(f"{folder.name}: enrollment refused: {why}")
            continue
        for path in taught_photos(folder, args.n, wins):
            anns = json.loads(path.read_text())["annotations"]
            tiles, _ = models_read(recognizer, path.with_suffix(".jpg"), folder / args.tiles)
            rows, classes = _matched(tiles, anns)
            if not rows:
                continue
            features.append(tileset_features(tileset, tiles[np.array(rows)]))
            truth += classes
        print(f"{folder.name}: {len(truth)} tiles so far", flush=True)
    held = [(args.back_only, BACK_TERMS), (args.gap_only, (GAP,)), (args.distinct_only, DISTINCT)]
    free = [t for asked, terms in held if asked for t in (*terms, *(TERMS + t for t in terms))]
    if free:  # those terms and what they gain with coverage; every other held as shipped
        weights = newton_fit(np.concatenate(features), truth, WEIGHTS, free)
    else:
        weights = newton_fit(np.concatenate(features), truth)
    return {"tiles": len(truth), "weights": list(weights)}


def read_with(
    recognizer: Recognizer,
    photo: Photo | None,
    tiles: Tiles,
    tileset: TileSet,
    weights: Sequence[float] = WEIGHTS,
    **split: float,
) -> Tiles:
    """`tiles` read with `tileset` as `Recognizer.read_with_set` reads them (the faces it
    finds unlike all its looks cut again from `photo`; none where None), at other `weights`
    or flowers' `split` (`vision.tileset.joint_reading`'s arguments) where given."""
    features = tileset_features(tileset, tiles)
    if photo is not None:
        refiner = recognizer.detector.refiner
        tiles, features = recut(photo, tiles, tileset, recognizer.classifier, refiner, features)
    return replace(tiles, probs=joint_reading(features, weights, **split))


def tileset_features(tileset: TileSet, tiles: Tiles) -> FloatArray:
    """The joint reading's features of a photo's tiles."""
    return tileset.features(tiles.probs, tiles.embeddings, tiles.looks)


def newton_fit(
    features: np.ndarray,
    truth: list[int],
    start: tuple[float, ...] | None = None,
    free: list[int] | None = None,
    steps: int = 50,
) -> tuple[float, ...]:
    """Softmax regression over classes with weights shared by all classes on `features`
    (n, classes, k): convex, so Newton's method with step halving finds it. With `free`,
    only those weights move from `start`."""
    feats = features.astype(np.float64)
    y = np.asarray(truth)
    if start is None:
        theta = np.zeros(feats.shape[2])
        theta[0] = 1.0
    else:
        theta = np.asarray(start, np.float64).copy()
    moving = list(range(feats.shape[2])) if free is None else free

    def loss(t: np.ndarray) -> float:
        z = feats @ t
        z -= z.max(axis=1, keepdims=True)
        return float(-(z[np.arange(len(y)), y] - np.log(np.exp(z).sum(axis=1))).mean())

    for _ in range(steps):
        z = feats @ theta
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        part = feats[:, :, moving]
        mean = np.einsum("nc,nck->nk", p, part)
        grad = (part[np.arange(len(y)), y] - mean).mean(axis=0)
        centred = part - mean[:, None, :]
        hess = -np.einsum("nc,nck,ncl->kl", p, centred, centred) / len(y)
        step = np.zeros_like(theta)
        step[moving] = np.linalg.solve(hess - 1e-9 * np.eye(len(moving)), grad)
        now, scale = loss(theta), 1.0
        while loss(theta - scale * step) > now and scale > 1e-4:
            scale /= 2
        theta = theta - scale * step
        if np.abs(scale * step).max() < 1e-6:
            break
    print(f"fitted weights {theta.round(3).tolist()}, mean loss {loss(theta):.4f}")
    return tuple(float(v) for v in theta)


def evaluate(args: argparse.Namespace) -> Json:
    recognizer = Recognizer()
    photo_of = lru_cache(maxsize=1)(load_photo)  # cut again, then taught from: decoded once
    weights = tuple(args.weights) if args.weights else WEIGHTS
    out: Json = {}
    all_rows: dict[str, list[Json]] = {"without": [], "with": []}
    for folder in folders_of(args.data):
        design = json.loads((folder / "design.json").read_text())["design"]
        start = time.perf_counter()
        tileset: TileSet | None = TileSet("bench")
        why = "nothing taught"
        if not args.untaught:
            tileset, why = teach(recognizer, folder, args.teach_wins)
        learned = 0
        if tileset is not None and args.teach_back:
            tileset, backs = taught_back(recognizer, tileset, folder, args.teach_back)
            why += f"; {backs} backs from {args.teach_back} wins"
        rows: dict[str, list[Json]] = {"without": [], "with": []}
        calib: dict[str, list[Any]] = {"without": [], "with": [], "truth": []}
        for path in taught_photos(folder, args.n, max(args.teach_wins, args.teach_back)):
            label = json.loads(path.read_text())
            hand, anns, jpg = label["hand"], label["annotations"], path.with_suffix(".jpg")
            tiles, size = models_read(recognizer, jpg, folder / args.tiles)
            readings = {"without": tiles}
            if tileset is not None and len(tileset) == 0:
                readings["with"] = tiles  # nothing taught yet: the classifier's reading
            elif tileset is not None:
                photo = None if args.no_recut else photo_of(jpg)
                readings["with"] = read_with(recognizer, photo, tiles, tileset, weights)
            matched, truth = _matched(tiles, anns)
            calib["truth"] += truth
            in_hand = sum(a.get("role") != "loose" for a in anns)
            for key, read in readings.items():
                taught_set = tileset if key == "with" else None
                faint = None if args.no_faint else faint_of(recognizer, jpg, read, taught_set)
                context = context_of(hand)
                judged = taught_set is not None and judged_with_set(taught_set.coverage)
                result = interpret(
                    read, context, "mcr", image_size=size, faint=faint, taught=judged
                )
                if key == "with" and args.learn and tileset is not None:
                    # A reading left unflagged teaches the set its hand's faces.
                    looks = reading_looks(photo_of(jpg), result, jpg.name, recognizer.classifier)
                    if len(looks):
                        tileset = looks.added_to(tileset, recognizer.classifier_digest)
                        learned += 1
                row = _row(path.stem, hand, result, "mcr", in_hand)
                truth_codes = [BACK if a.get("face_down") else a["code"] for a in anns]
                row.update(_found_and_named(result, anns, truth_codes))
                row["tiles_in_photo"] = len(truth_codes)
                rows[key].append(row)
                calib[key].append(read.probs[matched])
        out[design] = {"enrollment": why, "seconds": round(time.perf_counter() - start)}
        if args.learn and tileset is not None:
            out[design]["learned"] = {"readings": learned, "faces": len(tileset.faces)}
        if args.rows:
            out[design]["rows"] = {
                key: [{k: v for k, v in r.items() if k != "by_kind"} for r in rs]
                for key, rs in rows.items()
            }
        for key in ("without", "with"):
            if not rows[key]:
                continue
            out[design][key] = _figures(rows[key], calib[key], calib["truth"])
            all_rows[key] += rows[key]
        print(json.dumps({design: {k: v for k, v in out[design].items() if k != "rows"}}))
    out["all"] = {key: _figures(r, [], []) for key, r in all_rows.items() if r}
    if args.report:
        Path(args.report).write_text(json.dumps(out, indent=1))
    return out


def _figures(rows: list[Json], probs: list[FloatArray], truth: list[int]) -> Json:
    complete = [r for r in rows if r["complete"]]
    tiles = sum(r["tiles_in_photo"] for r in rows)
    hand = [0, 0]  # the hand's labelled tiles (all but the table's loose ones), right
    for r in rows:
        for kind, (n, missed, misnamed) in r["by_kind"].items():
            if not kind.endswith("/loose"):
                hand[0] += n
                hand[1] += n - missed - misnamed
    figures = {
        "photos": len(rows),
        "hand_tile_accuracy": round(hand[1] / max(hand[0], 1), 4),
        "tile_accuracy": round(sum(r["labelled_right_decoded"] for r in rows) / tiles, 4),
        "tile_accuracy_read": round(sum(r["labelled_right_read"] for r in rows) / tiles, 4),
        **{k: round(v, 4) for k, v in _complete_figures(complete).items()},
        "score_flag_rate": round(
            sum(r["score_review"] for r in complete) / max(len(complete), 1), 4
        ),
        "score_wrong_flagged": round(
            sum(r["score_review"] for r in complete if not r["score_right"])
            / max(sum(not r["score_right"] for r in complete), 1),
            4,
        ),
        "unflagged_right": round(
            sum(r["hand_right"] and r["score_right"] for r in complete if not r["review"])
            / max(sum(not r["review"] for r in complete), 1),
            4,
        ),
    }
    if probs:
        figures["ece"] = round(ece(np.concatenate(probs), truth), 4)
    return figures


def camerash(args: argparse.Namespace) -> Json:
    """Top-1 on the camerash crops not taught, with k crops per face taught (by seed)."""
    from datasets.faces.camerash import read_camerash
    from vision.classify import Classifier
    from vision.looks import crop_looks

    items = read_camerash(args.camerash)
    files = [path.name for path, _ in items]
    crops = [cv2.imread(str(path)) for path, _ in items]
    truth = np.array([CLASSES.index(code) for _, code in items])
    classifier = Classifier()
    probs, embeddings = classifier.read_crops(crops)
    looks = crop_looks(crops)
    small = [cv2.resize(c, (64, 80), interpolation=cv2.INTER_AREA) for c in crops]
    out: Json = {"crops": len(files), "without_set": float((probs.argmax(1) == truth).mean())}
    for k in args.k:
        accs = []
        for seed in args.seeds:
            rng = np.random.default_rng(seed)
            taught_idx: list[int] = []
            for c in sorted(set(truth.tolist())):
                members = np.nonzero(truth == c)[0]
                taught_idx += rng.choice(
                    members, size=min(k, len(members) - 1), replace=False
                ).tolist()
            rest = np.setdiff1d(np.arange(len(files)), taught_idx)
            tileset = TileSet("camerash").with_looks(
                [CLASSES[truth[i]] for i in taught_idx],
                embeddings[taught_idx],
                np.stack([small[i] for i in taught_idx]),
                [files[i] for i in taught_idx],
                "bench",
                probs[taught_idx, truth[taught_idx]],
            )
            read = tileset.read(probs[rest], embeddings[rest], looks[rest])
            accs.append(float((read.argmax(1) == truth[rest]).mean()))
            wrong = [
                f"{files[i]}:{CLASSES[truth[i]]}->{CLASSES[read[j].argmax()]}"
                for j, i in enumerate(rest)
                if read[j].argmax() != truth[i]
            ]
            out.setdefault(f"wrong_k{k}", {})[str(seed)] = wrong
        out[f"taught_{k}_per_face"] = {"top1_by_seed": accs, "mean": float(np.mean(accs))}
    return out


def fit_flowers(args: argparse.Namespace) -> Json:
    """How the joint reading splits a flower tile's mass among the eight, fitted by maximum
    likelihood on the flower tiles of the first `--n` wins of each design folder read with a
    set taught in each way of `--teach-wins`: the temperature
    (`vision.tileset.FLOWER_TEMPERATURE`) on those read with the enrollment's set (0), where
    every flower is taught; the lift of an untaught flower (`UNTAUGHT_FLOWER`), at the
    shipped temperature, on those read with a set taught from that many labelled wins. With
    the log loss, the flowers named right and the calibration error of the split (which of
    the eight, given a flower) before and after, per design."""
    recognizer = Recognizer()
    rows: dict[int, list[tuple[FloatArray, np.ndarray, int, str]]] = {}
    for folder, wins in itertools.product(folders_of(args.data), args.teach_wins):
        tileset, why = teach(recognizer, folder, wins)
        if tileset is None:
            print(f"{folder.name}: enrollment refused ({why})", file=sys.stderr)
            continue
        untaught = np.array([code not in tileset.faces for code in FLOWERS])
        for path in taught_photos(folder, args.n, wins):
            anns = json.loads(path.read_text())["annotations"]
            if not any(a["code"] in FLOWERS and not a.get("face_down") for a in anns):
                continue
            jpg = path.with_suffix(".jpg")
            tiles, _ = models_read(recognizer, jpg, folder / args.tiles)
            # The split as the weights leave it: neither sharpened nor lifted.
            tiles = read_with(
                recognizer,
                load_photo(jpg),
                tiles,
                tileset,
                flower_temperature=1.0,
                untaught_flower=0.0,
            )
            probs = tiles.probs
            for i, label in zip(*_matched(tiles, anns), strict=True):
                if CLASSES[label] in FLOWERS:
                    flowers = probs[i, FLOWER_SLICE].astype(np.float64)
                    split = flowers / max(flowers.sum(), 1e-30)
                    truth = FLOWERS.index(CLASSES[label])
                    rows.setdefault(wins, []).append((split, untaught, truth, folder.name))
        print(f"{folder.name}, taught from {wins or 'the enrollment'}: done", file=sys.stderr)
    if not rows:
        raise SystemExit("fit-flowers: no flower tile matched in the wins read")
    out: Json = {}
    if whole := rows.get(0):
        p, _, want = _stacked(whole)
        best = best_temperature(p, want)
        out["temperature"] = round(best, 3)
        out["enrollment"] = _split_figures(whole, [(1.0, 0.0), (best, 0.0)])
    partial = [row for wins, taught in rows.items() if wins for row in taught]
    if partial:
        p, lift, want = _stacked(partial)
        best_lift = best_untaught_lift(p, lift, want, FLOWER_TEMPERATURE)
        out["untaught_flower"] = round(best_lift, 2)
        at = [(FLOWER_TEMPERATURE, 0.0), (FLOWER_TEMPERATURE, best_lift)]
        out["partial"] = {
            str(wins): _split_figures(taught, at) for wins, taught in rows.items() if wins
        }
    return out


def _stacked(
    rows: list[tuple[FloatArray, np.ndarray, int, str]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The splits (n, 8), which flowers were untaught (n, 8, as 0 or 1) and the truth (n)."""
    split = np.array([r[0] for r in rows])
    untaught = np.array([r[1] for r in rows], np.float64)
    return split, untaught, np.array([r[2] for r in rows])


def _split_figures(
    rows: list[tuple[FloatArray, np.ndarray, int, str]], at: list[tuple[float, float]]
) -> Json:
    """Flower tiles, then log loss, named right and ECE at each (temperature, lift) of `at`,
    over all and per design."""

    def figures(keep: np.ndarray) -> Json:
        out: Json = {"flower_tiles": int(keep.sum())}
        measures = (("log_loss", _split_loss), ("named_right", _split_right), ("ece", _split_ece))
        for key, measure in measures:
            out[key] = [
                round(measure(p[keep], want[keep], t, lift * untaught[keep]), 4) for t, lift in at
            ]
        return out

    p, untaught, want = _stacked(rows)
    designs = np.array([r[3] for r in rows])
    result = figures(np.ones(len(rows), bool))
    result["per_design"] = {d: figures(designs == d) for d in sorted(set(designs.tolist()))}
    return result


def best_temperature(p: FloatArray, truth: np.ndarray) -> float:
    """The temperature (0.1-3, a grid 1 % apart) at which the rows of `p`, tempered
    (`vision.tileset.tempered`), give the classes `truth` the most likelihood."""
    grid = np.exp(np.linspace(np.log(0.1), np.log(3.0), 341))
    return float(min(grid, key=lambda T: _split_loss(p, truth, T)))


def best_untaught_lift(
    p: FloatArray, untaught: FloatArray, truth: np.ndarray, temperature: float
) -> float:
    """The lift in nats (-2 to 8, a grid 0.05 apart) of the flowers marked in `untaught`
    (n, 8) at which the rows of `p`, tempered at `temperature`, give `truth` the most
    likelihood."""
    grid = np.linspace(-2.0, 8.0, 201)
    return float(min(grid, key=lambda h: _split_loss(p, truth, temperature, h * untaught)))


def _split_loss(
    p: FloatArray, truth: np.ndarray, temperature: float, lift: FloatArray | float = 0.0
) -> float:
    q = tempered(p, temperature, lift)[np.arange(len(truth)), truth]
    return float(-np.log(np.maximum(q, 1e-12)).mean())


def _split_right(
    p: FloatArray, truth: np.ndarray, temperature: float, lift: FloatArray | float = 0.0
) -> float:
    return float((tempered(p, temperature, lift).argmax(axis=1) == truth).mean())


def _split_ece(
    p: FloatArray, truth: np.ndarray, temperature: float, lift: FloatArray | float = 0.0
) -> float:
    return ece(tempered(p, temperature, lift).astype(np.float32), list(truth), bins=10)


def enrollments(args: argparse.Namespace) -> Json:
    """Fresh enrollment photos of every source (a new set each): how many are accepted (by
    their sure tiles, or once faint faces fill the rows' gaps, as teaching does), how many of
    those taught a face under another code (mislabelled) or left faces out, and why the
    others were refused."""
    from datasets.scene import render_scene
    from vision.enroll import read_filled

    recognizer = Recognizer()
    counts: Counter[str] = Counter()
    refusals: Counter[str] = Counter()
    for source in args.sources:
        for i in range(args.n):
            rng = np.random.default_rng([args.seed, i, zlib.crc32(source.encode())])
            face_seed = int(rng.integers(2**30))
            scene = render_scene(rng, (source,), "enrollment", args.size, face_seed=face_seed)
            jpeg = bytes(cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1])
            photo, sure = recognizer.read_tiles(jpeg)
            try:
                enrollment, tiles = read_filled(sure, partial(recognizer.faint_tiles, photo))
            except EnrollmentError as exc:
                counts[f"{source} refused"] += 1
                if in_sight(scene.annotations, face_seed, source):
                    counts[f"{source} refused with every face in sight"] += 1
                refusals[str(exc).split(":")[0]] += 1
                continue
            labels = enrollment.labels
            how = "accepted with faint faces" if len(tiles) > len(sure) else "accepted"
            rows, truth = _matched(tiles, scene.annotations)
            named = [(labels[k], CLASSES[t]) for k, t in zip(rows, truth, strict=True)]
            # A face taught under another code poisons the set; one left out (with a
            # warning) is only not taught.
            mislabelled = any(label is not None and label != code for label, code in named)
            taught = sum(label == code for label, code in named)
            outcome = "mislabelled" if mislabelled else "right"
            counts[f"{source} {how}, {outcome}"] += 1
            if not mislabelled and taught < len(scene.annotations):
                counts[f"{source} {how}, right but faces left out"] += 1
    return {"photos": dict(sorted(counts.items())), "refused_for": dict(refusals.most_common())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="step", required=True)
    r = sub.add_parser("render", help="per design: an enrollment photo and N wins of one set")
    r.add_argument("--out", required=True)
    r.add_argument("--designs", nargs="+", required=True)
    r.add_argument("--n", type=int, default=330)
    r.add_argument("--seed", type=int, required=True)
    r.add_argument("--size", type=int, default=1024)
    f = sub.add_parser("fit", help="fit the joint reading's weights")
    f.add_argument("--data", nargs="+", required=True)
    f.add_argument("--n", type=int, default=100000)
    f.add_argument(
        "--back-only", action="store_true", help="fit the back's weights, the rest as shipped"
    )
    f.add_argument(
        "--gap-only",
        action="store_true",
        help="fit the weight of how far the classifier misread a face's looks (G), the rest "
        "as shipped",
    )
    f.add_argument(
        "--distinct-only",
        action="store_true",
        help="fit what a likeness gains where no other face of the set is alike (B', D'), "
        "the rest as shipped",
    )
    e = sub.add_parser("eval", help="with and without the set, per design")
    e.add_argument("--data", nargs="+", required=True)
    e.add_argument("--n", type=int, default=100000)
    e.add_argument("--report")
    e.add_argument("--rows", action="store_true", help="every photo's outcome in the report")
    teach_help = "teach from the labelled tiles of the first N wins (0: the enrollment photo)"
    f.add_argument("--teach-wins", type=int, nargs="+", default=[0], metavar="N", help=teach_help)
    e.add_argument("--teach-wins", type=int, default=0, metavar="N", help=teach_help)
    e.add_argument(
        "--teach-back",
        type=int,
        default=0,
        metavar="N",
        help="also teach the set's back from the face-down tiles of the first N wins",
    )
    e.add_argument("--weights", nargs="+", type=float, help="instead of the shipped ones")
    e.add_argument(
        "--learn",
        action="store_true",
        help="each reading with the set that no review check flags teaches the set its hand "
        "(the wins read in order)",
    )
    e.add_argument("--untaught", action="store_true", help="start from a set taught nothing")
    e.add_argument(
        "--no-recut", action="store_true", help="read with the set without cutting faces again"
    )
    add_no_faint(e)
    for step in (f, e):
        step.add_argument(
            "--tiles",
            default="tiles",
            help="each design folder's cache of the models' tiles (one per set of models)",
        )
    c = sub.add_parser("camerash", help="camerash crops, k per face taught")
    c.add_argument("--camerash", required=True)
    c.add_argument("--k", nargs="+", type=int, default=[1, 3])
    c.add_argument("--seeds", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    fl = sub.add_parser("fit-flowers", help="fit how the flowers' share is split")
    fl.add_argument("--data", nargs="+", required=True)
    fl.add_argument(
        "--teach-wins",
        type=int,
        nargs="+",
        default=[0],
        metavar="N",
        help="0: the temperature, on sets taught from the enrollment photo; N > 0: the lift of "
        "an untaught flower, on sets taught from the labelled tiles of the first N wins",
    )
    fl.add_argument("--n", type=int, default=100000, help="the first N wins of each design")
    fl.add_argument("--tiles", default="tiles", help="each design folder's cache of tiles")
    n = sub.add_parser("enrollments", help="fresh enrollment photos: accepted and right")
    every = ["kde", "gnome", "procedural", "unicode", "fluffystuff", "pixel"]
    n.add_argument("--sources", nargs="+", default=every)
    n.add_argument("--n", type=int, default=10, help="photos per source")
    n.add_argument("--seed", type=int, required=True)
    n.add_argument("--size", type=int, default=1280)
    args = parser.parse_args()
    if args.step == "enrollments":
        print(json.dumps(enrollments(args), indent=1))
    elif args.step == "fit-flowers":
        print(json.dumps(fit_flowers(args), indent=1))
    elif args.step == "render":
        render(Path(args.out), args.designs, args.n, args.seed, args.size)
    elif args.step == "fit":
        print(json.dumps(fit(args), indent=1))
    elif args.step == "eval":
        print(json.dumps(evaluate(args), indent=1))
    else:
        print(json.dumps(camerash(args), indent=1))


if __name__ == "__main__":
    main()
