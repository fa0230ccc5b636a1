"""The calibrated review flag: fit P(right) on one set of renders, measure it on another.

    python benchmarks/recognize.py render --out .cache/review_fit_5510 --n 200 \
        --sources kde gnome --size 1024 --seed 5510
    python benchmarks/recognize.py render --out .cache/review_eval_5520 --n 300 \
        --sources kde gnome --size 1024 --seed 5520
    python benchmarks/review.py fit --data .cache/review_fit_5510 [more sets] \
        --cache .cache/tiles_review_fit_5510 [one per set] --seed 5510 [one per set] \
        [--out vision/weights/review.json]
    python benchmarks/review.py eval --data .cache/review_eval_5520 \
        --cache .cache/tiles_review_eval_5520 [--report R.json] [--diagram R.png]
    # taught sets: each win of `benchmarks/sets.py render` read with no set and with its set
    python benchmarks/review.py fit --sets .cache/sets_fit_7200 [--data ... as above]
    python benchmarks/review.py eval --sets .cache/sets_eval_7300
    # P(right) recalibrated for readings with and without a set (the flag unchanged)
    python benchmarks/review.py recalibrate --sets .cache/sets_fresh_7500 [...] --rows R.json
    # a model of its own for readings with a set (its own weights and threshold)
    python benchmarks/review.py fit-set --sets .cache/sets_fresh_7500 [...] --rows R.json
    # the base model fitted again on readings with no set (the model with a set kept)
    python benchmarks/review.py fit-no-set --sets .cache/sets_fit_7200 [...] --rows R.json

Each photo is read with the shipped models (their tiles kept in `--cache`, as
`benchmarks/recognize.py eval --mode models --cache` keeps them) under the context a user
would give, and is "right" when its hand and its score are (`benchmarks/recognize.py`'s
test). `fit` fits the logistic model of `vision.calibration` on every photo of the set and
chooses the threshold on the same set, from out-of-fold probabilities (5 folds), as the
lowest at which the unflagged reads are at least `--target` right (with sets: those read with
a set and those read without, each). `eval` reports, over the
photos that show the whole hand, the reliability of the probabilities (per bin: photos, mean
probability, share right) and, side by side, the review checks' flag (any check fired) and
the calibrated flag: hands right, flag rate, unflagged reads right, wrong hands flagged.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import itertools

from benchmarks.recognize import _row, context_of, faint_of, kept_read, models_read
from benchmarks.sets import folders_of, taught_photos, teach
from vision.calibration import (
    FEATURES,
    GUESS_CHECKS,
    IDENTITY,
    Recalibration,
    ReviewModel,
    fit_logistic,
    judged_with_set,
    load_review_model,
    reading_features,
    shipped_review_model,
)
from vision.load import load_photo
from vision.notes import Note, NoteCode
from vision.pipeline import Recognizer, interpret
from vision.registry import shipped
from vision.types import Tiles

Json = dict[str, Any]
BINS = (0.0, 0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 1.0001)
# (name, hard checks, whether a check must fire for the probability to flag)
VARIANTS = (
    ("probability", frozenset(), False),
    ("probability_and_guesses", GUESS_CHECKS, False),
    ("checks_cleared_by_probability", frozenset(), True),
    ("checks_cleared_by_probability_but_guesses", GUESS_CHECKS, True),
)


def readings(
    data: Path,
    cache: Path,
    n: int | None = None,
    ruleset: str = "mcr",
) -> list[Json]:
    """Per photo (the first `n`, in order): its features (None where no hand was read),
    whether the reading is right, whether the photo shows the whole hand, and the review
    checks that fired."""
    recognizer = Recognizer()
    rows = []
    for path in sorted(data.glob("*.json"))[:n]:
        label = json.loads(path.read_text())
        jpg = path.with_suffix(".jpg")
        kept = cache / f"{jpg.stem}.npz"
        if kept.exists():  # read by `benchmarks/recognize.py eval --mode models --cache`
            tiles, size = kept_read(kept)
        else:
            tiles, size = models_read(recognizer, jpg, cache)
        faint = faint_of(recognizer, jpg, tiles)
        rows.append(_reading(path.stem, label, tiles, size, ruleset, False, faint))
    return rows


def set_readings(
    folder: Path, cache: str = "tiles", n: int | None = None, ruleset: str = "mcr", wins: int = 0
) -> list[Json]:
    """`readings` of one design folder of `benchmarks/sets.py render` (the first `n` wins),
    each photo twice: with no set, and with the set its enrollment photo teaches, as
    recognition reads with a set (where the enrollment is refused, without only). `wins` >
    0: the set is taught instead from the labelled tiles of the first `wins` wins, and the
    rest are read with it only, judged as recognition judges them (a set shown under
    `vision.calibration.WHOLE_SET` of the faces: as no set). The models' tiles are kept in
    the folder's `cache`, as `benchmarks/sets.py eval` keeps them."""
    recognizer = Recognizer()
    tileset, why = teach(recognizer, folder, wins)
    if tileset is None:
        print(f"{folder.name}: enrollment refused ({why}): read without a set only")
    rows = []
    for path in taught_photos(folder, n if n is not None else 10**9, wins):
        label = json.loads(path.read_text())
        jpg = path.with_suffix(".jpg")
        tiles, size = models_read(recognizer, jpg, folder / cache)
        if not wins or tileset is None:
            faint = faint_of(recognizer, jpg, tiles)
            rows.append(_reading(path.stem, label, tiles, size, ruleset, False, faint))
        if tileset is not None:
            taught = recognizer.read_with_set(load_photo(jpg), tiles, tileset)
            faint = faint_of(recognizer, jpg, taught, tileset)
            judged = judged_with_set(tileset.coverage)
            rows.append(_reading(path.stem, label, taught, size, ruleset, judged, faint))
            rows[-1]["teach_wins"] = wins
    return rows


def _reading(
    stem: str,
    label: Json,
    tiles: Tiles,
    size: tuple[int, int],
    ruleset: str,
    taught: bool,
    faint: Callable[[], Tiles] | None = None,
) -> Json:
    context = context_of(label["hand"])
    result = interpret(tiles, context, ruleset, image_size=size, faint=faint, taught=taught)
    in_hand = sum(a.get("role") != "loose" for a in label["annotations"])
    row = _row(stem, label["hand"], result, ruleset, in_hand)
    features = reading_features(
        result.tiles, result.layout, result.decoded, result.doubts, result.notes
    )
    return {
        "photo": stem,
        "taught": taught,
        "right": bool(row["hand_right"] and row["score_right"]),
        "complete": bool(row["complete"]),
        # The checks alone: not the note of a flag from the probability itself.
        "checks": [
            note.code.value for note in result.doubts if note.code is not NoteCode.UNLIKELY_RIGHT
        ],
        "features": None if features is None else features.tolist(),
        "hand_right": bool(row["hand_right"]),
        "score_right": bool(row["score_right"]),
    }


def _matrix(rows: list[Json]) -> tuple[np.ndarray, np.ndarray]:
    read = [r for r in rows if r["features"] is not None]
    return np.array([r["features"] for r in read]), np.array([r["right"] for r in read], bool)


def out_of_fold(
    rows: list[Json], folds: int = 5, l2: float = 1.0, capped: bool = True
) -> np.ndarray:
    """Each photo's probability from a model fitted on the other folds (0 where no hand)."""
    p = np.zeros(len(rows))
    read = [k for k, r in enumerate(rows) if r["features"] is not None]
    order = np.random.default_rng(0).permutation(len(read))
    for fold in range(folds):
        held = {read[k] for k in order[fold::folds]}
        train = [rows[k] for k in read if k not in held]
        x, y = _matrix(train)
        model = fit_logistic(x, y, l2, capped=capped)
        for k in held:
            p[k] = model.p_right(np.array(rows[k]["features"]))
    return p


def choose_threshold(
    p: np.ndarray,
    right: np.ndarray,
    hard: np.ndarray,
    checked: np.ndarray,
    target: float,
    taught: np.ndarray | None = None,
) -> float:
    """The lowest threshold at which the unflagged reads are at least `target` right (and at
    least one stays unflagged): those no hard check flags, at or above the threshold or,
    where a check is needed, with no check fired. With `taught` (each reading's), the
    target holds for the reads with a taught set and for those without, each."""
    groups = [np.ones(len(p), bool)] if taught is None else [taught, ~taught]
    for t in sorted(set(np.round(p, 6))):
        kept = ((p >= t) | ~checked) & ~hard
        if kept.any() and all(right[kept & g].mean() >= target for g in groups if (kept & g).any()):
            return float(t)
    return 1.0


def hard_flags(rows: list[Json], checks: frozenset[NoteCode]) -> np.ndarray:
    return np.array([any(NoteCode(c) in checks for c in r["checks"]) for r in rows], bool)


def kept_rows(args: argparse.Namespace) -> list[Json]:
    """`set_readings` of every design folder of `args.sets` (tiles in each folder's
    `args.tiles`), kept in `args.rows` where given: read once, fitted and measured again in
    seconds."""
    kept = Path(args.rows) if args.rows else None
    if kept is not None and kept.exists():
        rows: list[Json] = json.loads(kept.read_text())
        return rows
    rows = [
        row
        for folder in folders_of(args.sets)
        for wins in args.teach_wins
        for row in set_readings(folder, cache=args.tiles, n=args.n, wins=wins)
    ]
    if kept is not None:
        kept.write_text(json.dumps(rows))
    return rows


def fit(args: argparse.Namespace) -> Json:
    if not len(args.data) == len(args.cache) == len(args.seed):
        raise SystemExit("fit: give one --cache and one --seed for each --data set")
    if not args.data and not args.sets:
        raise SystemExit("fit: give --data sets of renders, --sets of designs, or both")
    rows = [
        row
        for data, cache in zip(args.data, args.cache, strict=True)
        for row in readings(Path(data), Path(cache), args.n)
    ]
    rows += kept_rows(args) if args.sets else []
    p = out_of_fold(rows, l2=args.l2)
    right = np.array([r["right"] for r in rows], bool)
    taught = np.array([r["taught"] for r in rows], bool)
    # Four ways to flag, chosen between on this set: the probability alone, or with the
    # checks of a layout guess kept whatever the probability; the checks, cleared where the
    # probability is high, or all but a layout guess so cleared. Of those whose unflagged
    # reads out of fold meet the target, the one flagging fewest photos wins (the first of
    # equals).
    fired = np.array([bool(r["checks"]) for r in rows], bool)
    everything = np.ones(len(rows), bool)
    variants = {}
    for name, checks, needs_check in VARIANTS:
        hard = hard_flags(rows, checks)
        checked = fired if needs_check else everything
        t = choose_threshold(p, right, hard, checked, args.target, taught)
        flagged = ((p < t) & checked) | hard
        variants[name] = (checks, needs_check, t, flagged)

    def rank(k: str) -> tuple[bool, float]:
        flagged = variants[k][3]
        unflagged_right = float(right[~flagged].mean()) if (~flagged).any() else 0.0
        return unflagged_right < args.target, float(flagged.mean())

    name = min(variants, key=rank)
    checks, needs_check, threshold, flagged = variants[name]
    x, y = _matrix(rows)
    fitted = fit_logistic(x, y, args.l2)
    model = ReviewModel(
        fitted.weights, fitted.bias, fitted.mean, fitted.scale, threshold, checks, needs_check
    )
    fitted_on = {
        "data": "; ".join(
            [
                *(
                    f"benchmarks/recognize.py render --sources kde gnome --size 1024 --seed {seed}"
                    for seed in args.seed
                ),
                *(f"benchmarks/sets.py render, {len(folders_of([d]))} designs" for d in args.sets),
            ]
        ),
        "photos": len(rows),
        "taught": int(taught.sum()),
        "right": int(right.sum()),
        "l2": args.l2,
        "threshold_target": args.target,
        "flag": name,
    }
    Path(args.out).write_text(json.dumps(model.to_json(fitted_on), indent=1) + "\n")
    return {
        "chosen": name,
        "photos": len(rows),
        "right": round(float(right.mean()), 4),
        "out_of_fold": {
            k: {"threshold": t, **flag_figures(f, right)} for k, (_, _, t, f) in variants.items()
        },
        "checks_flag": flag_figures(hard_flags(rows, frozenset(NoteCode)), right),
        "weights": dict(zip(FEATURES, np.round(model.weights, 3).tolist(), strict=True)),
    }


def _binned(p: np.ndarray) -> Iterator[tuple[float, float, np.ndarray]]:
    """Each probability bin (`BINS`) that holds a photo: its bounds and which photos."""
    for lo, hi in itertools.pairwise(BINS):
        inside = (p >= lo) & (p < hi)
        if inside.any():
            yield lo, hi, inside


def reliability(p: np.ndarray, right: np.ndarray) -> list[Json]:
    """Per probability bin: photos, their mean probability and the share read right."""
    return [
        {
            "bin": f"{lo:.2f}-{min(hi, 1.0):.2f}",
            "photos": int(inside.sum()),
            "mean_p": round(float(p[inside].mean()), 3),
            "right": round(float(right[inside].mean()), 3),
        }
        for lo, hi, inside in _binned(p)
    ]


def reliability_png(bins: list[Json], threshold: float, path: Path) -> None:
    """The reliability diagram of `reliability`'s bins: per bin a dot at (mean P(right),
    share read right), its area the photos in it, beside the diagonal a calibrated flag
    would lie on; the review threshold a vertical line."""
    size, margin = 420, 48
    image = np.full((size + 2 * margin, size + 2 * margin, 3), 255, np.uint8)

    def at(x: float, y: float) -> tuple[int, int]:
        return int(margin + x * size), int(margin + (1 - y) * size)

    grey, black, font = (200, 200, 200), (0, 0, 0), cv2.FONT_HERSHEY_SIMPLEX
    for k in range(11):
        cv2.line(image, at(k / 10, 0), at(k / 10, 1), grey, 1)
        cv2.line(image, at(0, k / 10), at(1, k / 10), grey, 1)
        cv2.putText(
            image, f"{k / 10:.1f}", (at(k / 10, 0)[0] - 10, size + margin + 18), font, 0.4, black, 1
        )
        cv2.putText(image, f"{k / 10:.1f}", (8, at(0, k / 10)[1] + 4), font, 0.4, black, 1)
    cv2.line(image, at(0, 0), at(1, 1), (150, 150, 150), 1, cv2.LINE_AA)
    cv2.line(image, at(threshold, 0), at(threshold, 1), (0, 0, 220), 1)
    most = max(b["photos"] for b in bins)
    for b in bins:
        radius = max(3, int(14 * (b["photos"] / most) ** 0.5))
        cv2.circle(image, at(b["mean_p"], b["right"]), radius, (200, 120, 0), -1, cv2.LINE_AA)
    cv2.putText(
        image, "P(right)", (margin + size // 2 - 30, size + margin + 40), font, 0.5, black, 1
    )
    cv2.putText(image, "read right", (4, margin - 16), font, 0.5, black, 1)
    cv2.putText(
        image,
        f"threshold {threshold:.3f}",
        (at(threshold, 1)[0] - 130, margin - 4),
        font,
        0.4,
        (0, 0, 220),
        1,
    )
    cv2.imwrite(str(path), image)


def flag_figures(flagged: np.ndarray, right: np.ndarray) -> Json:
    return {
        "flag_rate": round(float(flagged.mean()), 4),
        "unflagged_right": round(float(right[~flagged].mean()), 4) if (~flagged).any() else None,
        "unflagged": int((~flagged).sum()),
        "unflagged_wrong": int((~flagged & ~right).sum()),
        "wrong_flagged": f"{int((flagged & ~right).sum())} of {int((~right).sum())}",
        "right_flagged": f"{int((flagged & right).sum())} of {int(right.sum())}",
    }


def evaluate(args: argparse.Namespace) -> Json:
    model = load_review_model(Path(args.model)) if args.model else shipped_review_model()
    if model is None:
        raise SystemExit(f"no review model: fit one ({shipped('review').path} is missing)")
    if args.sets:
        rows = kept_rows(args)
    elif args.data and args.cache:
        rows = readings(Path(args.data), Path(args.cache), args.n)
    else:
        raise SystemExit("eval: give --data and --cache, or --sets")
    for row in rows:
        features = None if row["features"] is None else np.array(row["features"])
        row["p"] = model.p_right(features, row["taught"])
    out: Json = {"threshold": model.threshold_for(False)}
    if args.sets:
        out["threshold_with_set"] = model.threshold_for(True)
    complete = [r for r in rows if r["complete"]]
    parts = [("complete", complete), ("all", rows)]
    if args.sets:  # each photo was read twice: with no set, and with its set taught
        parts = [
            (f"{name}_{way}", [r for r in chosen if r["taught"] == (way == "with_set")])
            for way in ("without_set", "with_set")
            for name, chosen in parts
        ]
    for name, chosen in parts:
        if not chosen:
            continue
        p = np.array([r["p"] for r in chosen])
        right = np.array([r["right"] for r in chosen], bool)
        checks = np.array([bool(r["checks"]) for r in chosen], bool)
        out[name] = {
            "photos": len(chosen),
            "right": round(float(right.mean()), 4),
            "hand_right": round(float(np.mean([r["hand_right"] for r in chosen])), 4),
            "score_right": round(float(np.mean([r["score_right"] for r in chosen])), 4),
            "checks_flag": flag_figures(checks, right),
            "calibrated_flag": flag_figures(
                np.array([model.flags(r["p"], _notes(r), r["taught"]) for r in chosen], bool),
                right,
            ),
            "brier": round(float(np.mean((p - right) ** 2)), 4),
            "ece": round(expected_calibration_error(p, right), 4),
            "reliability": reliability(p, right),
        }
    if args.report:
        Path(args.report).write_text(json.dumps({"summary": out, "photos": rows}, indent=1))
    if args.diagram:
        # With sets, the complete wins read with their set: the readings a set makes surer.
        wanted = "complete_with_set" if args.sets else "complete"
        first, drawn = next((name, rows) for name, rows in parts if name == wanted)
        threshold = model.threshold_for(bool(drawn) and drawn[0]["taught"])
        reliability_png(out[first]["reliability"], threshold, Path(args.diagram))
        out["diagram"] = str(args.diagram)
    return out


def expected_calibration_error(p: np.ndarray, right: np.ndarray) -> float:
    """Over the reliability bins: the photos' share times the gap between their mean
    probability and the share read right."""
    gaps = [
        inside.mean() * abs(p[inside].mean() - right[inside].mean()) for *_, inside in _binned(p)
    ]
    return float(sum(gaps))


def recalibrate(args: argparse.Namespace) -> Json:
    """The review model (`--model`, else the shipped one) with its probability recalibrated
    for readings with no set and with a taught set, each by Platt scaling (a + b logit p,
    maximum likelihood) on the kept readings of `--sets` that read a hand; written to
    `--out`. The threshold maps alike, so the flag stays as it was."""
    path = Path(args.model) if args.model else shipped("review").path
    data = json.loads(path.read_text())
    model = ReviewModel.from_json(data)
    rows = [r for r in kept_rows(args) if r["features"] is not None]
    fitted: Json = {}
    for way, taught in (("no_set", False), ("taught", True)):
        chosen = [r for r in rows if r["taught"] == taught]
        p = np.array([model.model_p(np.array(r["features"])) for r in chosen])
        right = np.array([r["right"] for r in chosen], bool)
        a, b = platt(p, right)
        data.setdefault("recalibration", {})[way] = [round(a, 6), round(b, 6)]
        mapped = np.array([Recalibration(a, b)(q) for q in p])
        fitted[way] = {
            "photos": len(chosen),
            "right": round(float(right.mean()), 4),
            "mean_p_before": round(float(p.mean()), 4),
            "mean_p_after": round(float(mapped.mean()), 4),
            "a_b": [round(a, 4), round(b, 4)],
            "threshold": round(Recalibration(a, b)(model.threshold), 4),
        }
    data["recalibrated_on"] = {
        "sets": "benchmarks/sets.py render, seeds "
        + ", ".join(Path(d).name.rsplit("_", 1)[-1] for d in args.sets),
        "photos_with_a_hand": len(rows),
    }
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n")
    return fitted


def fit_with_set(args: argparse.Namespace) -> Json:
    """A model of its own for readings with a taught set, fitted by `fit`'s logistic
    regression on the kept readings of `--sets` read with their set, not capped at the
    decoder's confidence (which it weighs), its threshold the lowest at which those readings
    of complete wins, out of fold, are at least `--target` right unflagged (the base model's
    hard checks flag alike); written into the base model (`--model`, else the shipped one)
    as its `with_set`, to `--out`."""
    path = Path(args.model) if args.model else shipped("review").path
    data = json.loads(path.read_text())
    base = ReviewModel.from_json(data)
    rows = [r for r in kept_rows(args) if r["taught"]]
    model, figures = _fitted_alone(rows, args.l2, args.target, base.hard_checks, capped=False)
    data.setdefault("recalibration", {})["taught"] = [0.0, 1.0]  # the model of its own replaces it
    data["with_set"] = model.to_json(_fitted_on(args, rows, "with its enrollment's set"))
    Path(args.out).write_text(json.dumps(data, indent=1) + "\n")
    return {**figures, "base_model": _flagged_by(base, rows, taught=True)}


def fit_without_set(args: argparse.Namespace) -> Json:
    """The base model fitted again on the kept readings of `--sets` read with no set, as
    `fit_with_set` fits its model (its threshold likewise, the base model's hard checks
    kept), held under the decoder's confidence as before; its recalibration for readings
    with no set becomes the identity (it is fitted on them), and the model for readings with
    a set stays as it is. Written to `--out`."""
    path = Path(args.model) if args.model else shipped("review").path
    data = json.loads(path.read_text())
    base = ReviewModel.from_json(data)
    rows = [r for r in kept_rows(args) if not r["taught"]]
    model, figures = _fitted_alone(rows, args.l2, args.target, base.hard_checks, capped=True)
    fitted_on = {**_fitted_on(args, rows, "with no set"), "flag": "probability_and_hard_checks"}
    written = replace(model, no_set=IDENTITY, taught=base.taught).to_json(fitted_on)
    if "with_set" in data:  # kept as written, with the record of what it was fitted on
        written["with_set"] = data["with_set"]
    Path(args.out).write_text(json.dumps(written, indent=1) + "\n")
    return {**figures, "base_model": _flagged_by(base, rows, taught=False)}


def _fitted_on(args: argparse.Namespace, rows: list[Json], read: str) -> Json:
    """What a model fitted on the kept readings `rows` of `args.sets` records of its data."""
    seeds = ", ".join(Path(d).name.rsplit("_", 1)[-1] for d in args.sets)
    return {
        "data": f"benchmarks/sets.py render, seeds {seeds}; each win read {read}",
        "photos": len(rows),
        "right": int(sum(r["right"] for r in rows)),
        "l2": args.l2,
        "threshold_target": args.target,
    }


def _fitted_alone(
    rows: list[Json], l2: float, target: float, hard_checks: frozenset[NoteCode], capped: bool
) -> tuple[ReviewModel, Json]:
    """A logistic model fitted on `rows`, its threshold the lowest at which their complete
    wins, out of fold, are at least `target` right unflagged (`hard_checks` flag whatever
    the probability); and its out-of-fold figures. The threshold holds the target on the
    wins whose every hand tile shows (what the benchmarks measure); the others, never right,
    are fitted on all the same."""
    p = out_of_fold(rows, l2=l2, capped=capped)
    right = np.array([r["right"] for r in rows], bool)
    hard = hard_flags(rows, hard_checks)
    complete = np.array([r["complete"] for r in rows], bool)
    threshold = choose_threshold(
        p[complete], right[complete], hard[complete], np.ones(int(complete.sum()), bool), target
    )
    x, y = _matrix(rows)
    model = replace(
        fit_logistic(x, y, l2, capped=capped), threshold=threshold, hard_checks=hard_checks
    )
    flagged = hard | (p < threshold)
    return model, {
        "photos": len(rows),
        "complete": int(complete.sum()),
        "right": round(float(right[complete].mean()), 4),
        "threshold": threshold,
        "out_of_fold": flag_figures(flagged[complete], right[complete]),
        "weights": dict(zip(FEATURES, np.round(model.weights, 3).tolist(), strict=True)),
    }


def _flagged_by(model: ReviewModel, rows: list[Json], taught: bool) -> Json:
    """`model`'s flag on the complete wins of `rows` (each read with a set where `taught`)."""
    complete = [r for r in rows if r["complete"]]
    flagged = np.array(
        [model.flags(model.p_right(_features(r), taught), _notes(r), taught) for r in complete],
        bool,
    )
    return flag_figures(flagged, np.array([r["right"] for r in complete], bool))


def _features(row: Json) -> np.ndarray | None:
    return None if row["features"] is None else np.array(row["features"])


def platt(p: np.ndarray, right: np.ndarray) -> tuple[float, float]:
    """a, b maximizing the likelihood of `right` under sigmoid(a + b logit p) (Newton's
    method; the probabilities held within 1e-6 of 0 and 1)."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    x = np.stack([np.ones(len(q)), np.log(q / (1 - q))], axis=1)
    y = right.astype(np.float64)
    w = np.array([0.0, 1.0])
    for _ in range(100):
        s = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -40, 40)))
        hessian = (x * (s * (1 - s))[:, None]).T @ x + 1e-9 * np.eye(2)
        step = np.linalg.solve(hessian, x.T @ (s - y))
        w -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    return float(w[0]), float(w[1])


def _notes(row: Json) -> list[Note]:
    return [Note(NoteCode(code), code) for code in row["checks"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fit", help="fit the model and its threshold on one set of renders")
    f.add_argument("--data", nargs="*", default=[], help="one or more sets of renders")
    f.add_argument("--cache", nargs="*", default=[], help="the models' tiles, one per set")
    f.add_argument("--seed", type=int, nargs="*", default=[], help="each set's render seed")
    sets_help = "`benchmarks/sets.py render` folders: each win read with no set and with its set"
    f.add_argument("--sets", nargs="*", default=[], help=sets_help)
    f.add_argument("--n", type=int, help="the first N photos of each set only")
    f.add_argument("--out", default=str(shipped("review").path))
    f.add_argument("--l2", type=float, default=1.0)
    f.add_argument("--target", type=float, default=0.99, help="unflagged reads right, at least")
    e = sub.add_parser("eval", help="measure the model on a set rendered after fitting")
    e.add_argument("--data")
    e.add_argument("--cache")
    e.add_argument("--sets", nargs="*", default=[], help=sets_help)
    e.add_argument("--n", type=int, help="the first N photos only")
    e.add_argument("--model", help="review model JSON (default: the shipped one)")
    e.add_argument("--report", help="write every photo's probability here (JSON)")
    diagram_help = "draw the complete wins' reliability diagram here (PNG; --sets: with the set)"
    e.add_argument("--diagram", help=diagram_help)
    r = sub.add_parser(
        "recalibrate", help="P(right) recalibrated for readings with and without a set"
    )
    r.add_argument("--sets", nargs="+", required=True, help=sets_help)
    r.add_argument("--n", type=int, help="the first N photos of each design only")
    r.add_argument("--model", help="review model JSON (default: the shipped one)")
    r.add_argument("--out", default=str(shipped("review").path))
    # The two models fitted alone on one kind of reading: (command, help, default L2).
    alone = (
        ("fit-set", "a model of its own for readings with a taught set", 10.0),
        ("fit-no-set", "the base model fitted again on readings with no set", 1.0),
    )
    alone_parsers = []
    for name, help_text, l2 in alone:
        a = sub.add_parser(name, help=help_text)
        a.add_argument("--sets", nargs="+", required=True, help=sets_help)
        a.add_argument("--n", type=int, help="the first N photos of each design only")
        a.add_argument("--model", help="the base review model JSON (default: the shipped one)")
        a.add_argument("--out", default=str(shipped("review").path))
        a.add_argument("--l2", type=float, default=l2)
        a.add_argument("--target", type=float, default=0.99, help="unflagged reads right, at least")
        alone_parsers.append(a)
    for command in (f, e, r, *alone_parsers):
        command.add_argument("--tiles", default="tiles", help="--sets: each folder's tiles cache")
        command.add_argument("--rows", help="--sets: keep the readings in this JSON file")
        command.add_argument(
            "--teach-wins",
            type=int,
            nargs="+",
            default=[0],
            metavar="N",
            help="--sets: 0 reads each win with no set and with its enrollment's set; N > 0 "
            "with a set taught from the labelled tiles of the first N wins instead",
        )
    args = parser.parse_args()
    steps = {
        "fit": fit,
        "eval": evaluate,
        "recalibrate": recalibrate,
        "fit-set": fit_with_set,
        "fit-no-set": fit_without_set,
    }
    result = steps[args.command](args)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
