"""Photo-to-hand benchmark on held-out-source synthetic declared wins.

Two modes:
  sim     ground-truth boxes and corners from the scene labels, classifier outputs simulated
          (calibrated by construction, `vision.simulate`): measures layout + decoding alone.
  classifier  ground-truth boxes and corners, probabilities from the shipped ONNX classifier.
  models  end to end with the shipped ONNX detector and classifier on the rendered JPEGs.

For each photo: is the hand exactly right, is the score exactly right (total and fans), was
the photo flagged for review. Reports the share exactly right, the share of wrong photos that
were flagged, and the flag rate.

    python benchmarks/recognize.py render --out .cache/bench_kde --n 500 --sources kde
    python benchmarks/recognize.py eval --data .cache/bench_kde --mode sim
    python benchmarks/recognize.py eval --data .cache/bench_kde --mode models
    python benchmarks/recognize.py render --out .cache/bench_real --n 300 \
        --camerash ../shared/data/camerash-crops   # real faces (validation only)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import fields
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.score import score as score_hand
from scoring.tiles import BACK, FLOWERS
from vision.load import Photo, load_photo, read_header
from vision.looks import describe
from vision.pipeline import FAINT_CONFIDENCE, Recognition, Recognizer, interpret
from vision.recognition import hand_json
from vision.simulate import tiles_from_annotations
from vision.tileset import TileSet
from vision.types import Tiles
from vision.unseen import FaintReader

Json = dict[str, Any]
CONTEXT_FIELDS = (
    "seat_wind",
    "prevalent_wind",
    "self_drawn",
    "last_tile",
    "last_of_wall",
    "kong_replacement",
    "robbing_kong",
)


def render(
    out: Path,
    n: int,
    sources: list[str],
    size: int,
    seed: int,
    camerash: str | None = None,
    kind: str = "declared_win",
) -> None:
    from datasets.scene import render_scene

    if camerash:  # real faces, evaluation only: they replace the named sources
        from datasets.faces.camerash import register

        sources = [register(camerash)]

    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    for i in range(n):
        scene = render_scene(rng, tuple(sources), kind, size)
        cv2.imwrite(str(out / f"{i:05d}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        label = {"hand": scene.hand, "annotations": scene.annotations, "kind": scene.meta["kind"]}
        (out / f"{i:05d}.json").write_text(json.dumps(label))
        if (i + 1) % 50 == 0:
            print(f"{i + 1}/{n} rendered, {time.perf_counter() - start:.0f} s", flush=True)


def context_of(hand: Json) -> Json:
    """What the person taking the photo tells the app: winds, flags, hidden kongs, flowers."""
    context: Json = {k: hand[k] for k in CONTEXT_FIELDS if k in hand}
    kongs = [m["tiles"][0] for m in hand["melds"] if m["type"] == "kong" and m.get("concealed")]
    if kongs:
        context["concealed_kongs"] = kongs
    if not isinstance(hand.get("flowers", []), list):
        context["flowers"] = hand["flowers"]  # a bare count: no flower tiles in the photo
    return context


def canonical(hand: Json | None, *, claims: bool = True, context: bool = True) -> str:
    """Order-free form of a Hand JSON (a win, or a hand waiting to win with no winning
    tile): melds and tiles sorted, default fields dropped; without `claims` the melds' claimed
    tiles, without `context` the win's context flags."""
    if hand is None:
        return "null"
    melds = []
    for meld in hand.get("melds", []):
        m = {k: v for k, v in meld.items() if not (k == "concealed" and v is False)}
        m.pop("tile_indices", None)
        if not claims:
            m.pop("claimed_tile", None)
        m["tiles"] = sorted(m["tiles"])
        melds.append(json.dumps(m, sort_keys=True))
    flowers = hand.get("flowers", [])
    out = {
        "melds": sorted(melds),
        "concealed": sorted(hand["concealed"]),
        "winning_tile": hand.get("winning_tile"),
        "flowers": sorted(flowers) if isinstance(flowers, list) else flowers,
        **({k: hand.get(k, False) for k in CONTEXT_FIELDS} if context else {}),
    }
    return json.dumps(out, sort_keys=True)


def score_key(scored: Json | None) -> str:
    if scored is None:
        return "null"
    fans = sorted((f["id"], f.get("count", 1)) for f in scored.get("fans", []))
    return json.dumps([scored.get("valid"), scored.get("total"), fans])


def true_score(hand: Json, ruleset: str) -> Json:
    result: Json = score_hand(hand, ruleset).to_json()
    return result


def evaluate(args: argparse.Namespace) -> Json:
    files = sorted(Path(args.data).glob("*.json"))[: args.n]
    if not files:
        raise SystemExit(f"no labelled photos in {args.data}: run the render step first")
    recognizer = classifier = None
    if args.mode == "models":
        recognizer = Recognizer(
            args.detector,
            args.classifier,
            not args.no_flower_reader,
            args.flower_reader,
            not args.no_index_reader,
            args.index_reader,
        )
    if args.mode == "classifier":
        from vision.classify import Classifier

        classifier = Classifier(
            args.classifier,
            flowers=not args.no_flower_reader,
            flower_model=args.flower_reader,
            index=not args.no_index_reader,
            index_model=args.index_reader,
        )
    rng = np.random.default_rng(args.seed)
    rows = []
    for path in files:
        label = json.loads(path.read_text())
        hand, context = label["hand"], context_of(label["hand"])
        result: Recognition
        if classifier is not None:  # true boxes and corners, the shipped classifier
            photo = load_photo(path.with_suffix(".jpg"))
            tiles = tiles_from_annotations(label["annotations"], rng, canonical=args.canonical)
            tiles = classifier.classify(photo, tiles)
            result = interpret(tiles, context, args.ruleset, image_size=photo.original_size)
        elif recognizer is None:
            # Every labelled tile, cut-off ones included: the scene labels only visible tiles.
            tiles = tiles_from_annotations(
                label["annotations"],
                rng,
                (args.sharp_lo, args.sharp_hi),
                jitter=args.jitter,
                sideways_known=not args.no_sideways,
                canonical=args.canonical,
            )
            header = read_header(path.with_suffix(".jpg").read_bytes())
            size = (header.width, header.height)
            result = interpret(tiles, context, args.ruleset, image_size=size)
        else:
            jpg = path.with_suffix(".jpg")
            if args.cache:
                tiles, size = models_read(recognizer, jpg, Path(args.cache))
            else:
                photo, tiles = recognizer.read_tiles(jpg)
                size = photo.original_size
            faint = None if args.no_faint else faint_of(recognizer, jpg, tiles)
            result = interpret(tiles, context, args.ruleset, image_size=size, faint=faint)
        in_hand = sum(a.get("role") != "loose" for a in label["annotations"])
        row = _row(path.stem, hand, result, args.ruleset, in_hand)
        row["design"] = _design(label["annotations"])
        truth = [BACK if a.get("face_down") else a["code"] for a in label["annotations"]]
        if recognizer is None:  # tiles are the labels, in order: count them one by one
            row["tiles_right_read"] = sum(map(str.__eq__, result.tiles.codes, truth))
            row["tiles_right_decoded"] = sum(map(str.__eq__, result.decoded.codes, truth))
        else:  # each labelled tile: found (a detection's centre on its face) and named right
            row.update(_found_and_named(result, label["annotations"], truth))
            row["tiles_in_photo"] = len(truth)
        rows.append(row)
    summary = _summary(rows, args)
    if args.report:
        Path(args.report).write_text(json.dumps({"summary": summary, "photos": rows}, indent=1))
    return summary


_TILE_FIELDS = tuple(f.name for f in fields(Tiles))


def kept_read(kept: Path) -> tuple[Tiles, tuple[int, int]]:
    """The tiles and photo size `models_read` kept in one `.npz` of its cache."""
    with np.load(kept) as z:
        tiles = Tiles(**{name: z[name] for name in _TILE_FIELDS if name in z.files})
        return tiles, (int(z["size"][0]), int(z["size"][1]))


def faint_of(
    recognizer: Recognizer, jpg: Path, tiles: Tiles, tileset: TileSet | None = None
) -> FaintReader:
    """What `interpret` asks for as `faint`, as recognition gives it: the photo's faint
    tiles on none of `tiles` (the photo loaded and detected only when first asked, and once
    for its readings one after another: with and without a set)."""
    reader: list[FaintReader] = []

    def faint(keep: Callable[[Tiles], np.ndarray] | None = None) -> Tiles:
        if not reader:
            photo, faintly = _faint_peaks(recognizer, jpg)
            reader.append(recognizer.faint_reader(photo, tiles, tileset, faintly))
        return reader[0](keep)

    return faint


@lru_cache(maxsize=1)
def _faint_peaks(recognizer: Recognizer, jpg: Path) -> tuple[Photo, Tiles]:
    """The photo decoded, and the peaks the detector's passes find only faintly on it."""
    photo = load_photo(jpg)
    return photo, recognizer.detector.detect_with_faint(photo, FAINT_CONFIDENCE)[1]


def add_no_faint(parser: argparse.ArgumentParser) -> None:
    """The switch that reads without `faint_of`'s tiles, for the comparison."""
    parser.add_argument(
        "--no-faint",
        action="store_true",
        help="hands read as 13 waiting not retried with the detector's faint tiles",
    )


def models_read(recognizer: Recognizer, jpg: Path, cache: Path) -> tuple[Tiles, tuple[int, int]]:
    """The models' tiles of one photo, kept in `cache` so that layout and decoding changes are
    measured again in seconds. The cache is one pair of models': it records their digests and
    refuses another pair."""
    cache.mkdir(parents=True, exist_ok=True)
    models = json.dumps({k: v.get("sha256") for k, v in recognizer.models.items()}, sort_keys=True)
    stamp = cache / "models.json"
    if not stamp.exists():
        stamp.write_text(models)
    elif stamp.read_text() != models:
        raise SystemExit(f"{cache} holds another pair of models' tiles: use another --cache")
    kept = cache / f"{jpg.stem}.npz"
    if kept.exists():
        kept_tiles, size = kept_read(kept)
        if kept_tiles.looks.shape[1] == 0:  # kept without the looks of its faces: add them
            photo = load_photo(jpg)
            kept_tiles.looks = describe(photo.image, kept_tiles.corners / np.float32(photo.scale))
        return kept_tiles, size
    photo, tiles = recognizer.read_tiles(jpg)
    np.savez(
        kept, size=np.array(photo.original_size), **{f: getattr(tiles, f) for f in _TILE_FIELDS}
    )
    return tiles, photo.original_size


def _without_unlabelled_claims(got: Json | None, truth: Json) -> Json | None:
    """Drop `claimed_tile` from the read chows the label leaves it out of (the generator
    sometimes omits it), matching chows by their tiles."""
    if got is None:
        return None
    bare = [sorted(m["tiles"]) for m in truth["melds"] if m["type"] == "chow"]
    bare = [
        t
        for t, m in zip(bare, [m for m in truth["melds"] if m["type"] == "chow"], strict=True)
        if "claimed_tile" not in m
    ]
    melds = []
    for meld in got["melds"]:
        if meld["type"] == "chow" and sorted(meld["tiles"]) in bare:
            bare.remove(sorted(meld["tiles"]))
            meld = {k: v for k, v in meld.items() if k != "claimed_tile"}
        melds.append(meld)
    return {**got, "melds": melds}


def _row(name: str, hand: Json, result: Recognition, ruleset: str, n_labels: int) -> Json:
    got = _without_unlabelled_claims(hand_json(result.decoded.hand), hand)
    hand_right = canonical(got) == canonical(hand)
    score_right = got is not None and score_key(result.score) == score_key(
        true_score(hand, ruleset)
    )
    # MCR scores each flower alike: a hand right but for which flowers is scored right.
    right_but_flowers = got is not None and canonical(_flower_count(got)) == canonical(
        _flower_count(hand)
    )
    wanted = sum(len(m["tiles"]) for m in hand["melds"]) + len(hand["concealed"]) + 1
    flowers = hand.get("flowers", [])
    wanted += len(flowers) if isinstance(flowers, list) else 0
    return {
        "photo": name,
        "complete": n_labels == wanted,
        "hand_right": hand_right,
        "score_right": score_right,
        "right_but_flowers": right_but_flowers,
        "review": result.review,
        "reasons": result.review_reasons,
        "score_review": result.score_review,
        "confidence": result.decoded.confidence,
        "plausibility": result.decoded.plausibility,
        "ambiguous": result.layout.ambiguity is not None,
        "changes": len(result.decoded.changes),
        "tiles_seen": len(result.tiles),
        "tiles_labelled": n_labels,
        "ms": sum(result.timings_ms.values()),
        "decode_ms": result.timings_ms.get("decode", 0.0),
        "got": canonical(got) if not hand_right else None,
        "want": canonical(hand) if not hand_right else None,
        "warnings": result.warnings,
    }


def _design(anns: list[Json]) -> str | None:
    """The set's design as the scene engine labelled it ("kde/classic"); None for photos
    rendered before labels named it."""
    designs = {a["design"] for a in anns if "design" in a}
    return designs.pop() if len(designs) == 1 else None


def _by_design(rows: list[Json]) -> Json | None:
    """The complete photos' figures per design: a held-out source's themes differ far more
    from each other than any change moves them (held-out KDE: a plain set against one that
    draws its dragons as lizards)."""
    designs = sorted({r["design"] for r in rows if r.get("design")})
    if len(designs) < 2:
        return None
    return {
        design: _complete_figures([r for r in rows if r.get("design") == design and r["complete"]])
        for design in designs
    }


def _complete_figures(complete: list[Json]) -> Json:
    """Hands right, flagged and the rest over photos that show the whole win."""
    wrong = [r for r in complete if not (r["hand_right"] and r["score_right"])]
    return {
        "complete_photos": len(complete),
        "right": (len(complete) - len(wrong)) / max(len(complete), 1),
        "wrong_flagged": _share([r["review"] for r in wrong], empty=1.0),
        "flag_rate": _share([r["review"] for r in complete]),
        "right_but_flowers": _share([r["right_but_flowers"] for r in complete]),
        "score_right": _share([r["score_right"] for r in complete]),
    }


def _share(flags: list[bool], empty: float = 0.0) -> float:
    return sum(flags) / len(flags) if flags else empty


def _flower_count(hand: Json) -> Json:
    """The hand with its flowers as a count: which flowers they are set aside."""
    flowers = hand.get("flowers", [])
    return {**hand, "flowers": len(flowers) if isinstance(flowers, list) else flowers}


def _summary(rows: list[Json], args: argparse.Namespace) -> Json:
    n = len(rows)
    right = [r for r in rows if r["hand_right"] and r["score_right"]]
    wrong = [r for r in rows if not (r["hand_right"] and r["score_right"])]
    flagged = [r for r in rows if r["review"]]
    complete = [r for r in rows if r["complete"]]
    figures = _complete_figures(complete)
    reasons = Counter(reason.split(" (")[0] for r in rows for reason in r["reasons"])
    return {
        "mode": args.mode,
        "photos": n,
        "sharpness": [args.sharp_lo, args.sharp_hi] if args.mode == "sim" else None,
        "jitter": args.jitter if args.mode == "sim" else None,
        "sideways_flags": not args.no_sideways if args.mode == "sim" else None,
        "canonical_corners": args.canonical if args.mode == "sim" else None,
        "hand_exactly_right": sum(r["hand_right"] for r in rows) / n,
        "hand_and_score_right": len(right) / n,
        "score_right": sum(r["score_right"] for r in rows) / n,
        "wrong": len(wrong),
        "wrong_flagged": (sum(r["review"] for r in wrong) / len(wrong)) if wrong else 1.0,
        "flag_rate": len(flagged) / n,
        "right_but_flagged": sum(r["review"] for r in right) / max(len(right), 1),
        "unflagged_wrong_and_accepted": (n - len(right)) - sum(r["review"] for r in wrong),
        "review_reasons": dict(reasons.most_common()),
        "complete_photos": figures.pop("complete_photos"),
        **{f"complete_{k}": v for k, v in figures.items()},
        # The same for the score alone: score_review leaves out doubts only over which flower.
        "complete_score_wrong_flagged": _share(
            [r["score_review"] for r in complete if not r["score_right"]], empty=1.0
        ),
        "complete_score_flag_rate": _share([r["score_review"] for r in complete]),
        "complete_by_design": _by_design(rows),
        "tile_accuracy_read": _tile_share(rows, "tiles_right_read"),
        "tile_accuracy_decoded": _tile_share(rows, "tiles_right_decoded"),
        # models: of all labelled tiles in the photos, found and named right
        "labelled_right_read": _tile_share(rows, "labelled_right_read", "tiles_in_photo"),
        "labelled_right_decoded": _tile_share(rows, "labelled_right_decoded", "tiles_in_photo"),
        "labelled_by_kind": _by_kind(rows),
        "flowers_for_same_number": sum(r.get("flowers_for_same_number", 0) for r in rows),
        # which faces are misread as which, over all photos: where the classifier's work is
        "misnamed_most": dict(
            Counter(m for r in rows for m in r.get("misnamed", [])).most_common(25)
        ),
        "median_ms": statistics.median(r["ms"] for r in rows),
        "p95_decode_ms": float(np.percentile([r["decode_ms"] for r in rows], 95)),
    }


def _found_and_named(result: Recognition, anns: list[Json], truth: list[str]) -> Json:
    """Labelled tiles found and named right, as read and after the rules: what a person
    counting the photo's tiles one by one against the `tiles` list would count. Also, per
    kind of tile (face-down / flower / suit, and its role), how many were missed and how many
    misnamed after the rules, and how many flowers were named as the flower or season of the
    same number (1h for 5h)."""
    from vision.match import match_faces

    found: dict[int, int] = {}
    if anns and len(result.tiles):
        quads = np.array([a["corners"] for a in anns], np.float32).reshape(-1, 4, 2)
        tiles = result.tiles
        found = {j: i for i, j in match_faces(tiles.face_centres, tiles.confidence, quads)}
    by_kind: dict[str, list[int]] = {}  # kind -> [tiles, missed, misnamed]
    twins = 0
    misnamed: list[str] = []  # "TRUE->NAMED" after the rules
    for j, ann in enumerate(anns):
        sort = "face-down" if ann.get("face_down") else "flower" if truth[j] in FLOWERS else "suit"
        tally = by_kind.setdefault(f"{sort}/{ann.get('role')}", [0, 0, 0])
        tally[0] += 1
        if j not in found:
            tally[1] += 1
            continue
        named = result.decoded.codes[found[j]]
        if named != truth[j]:
            tally[2] += 1
            misnamed.append(f"{truth[j]}->{named}")
            if sort == "flower" and named in FLOWERS:
                twins += int(named[0]) % 4 == int(truth[j][0]) % 4
    return {
        "labelled_right_read": sum(result.tiles.codes[i] == truth[j] for j, i in found.items()),
        "labelled_right_decoded": sum(
            result.decoded.codes[i] == truth[j] for j, i in found.items()
        ),
        "by_kind": by_kind,
        "flowers_for_same_number": twins,
        "misnamed": misnamed,
    }


def _by_kind(rows: list[Json]) -> Json | None:
    """Per kind of labelled tile, over all photos: tiles, share missed, share misnamed."""
    if not rows or "by_kind" not in rows[0]:
        return None
    total: dict[str, list[int]] = {}
    for r in rows:
        for kind, counts in r["by_kind"].items():
            total[kind] = [a + b for a, b in zip(total.get(kind, [0, 0, 0]), counts, strict=True)]
    return {
        kind: {"tiles": n, "missed": missed / n, "misnamed": misnamed / n}
        for kind, (n, missed, misnamed) in sorted(total.items())
    }


def _tile_share(rows: list[Json], key: str, of: str = "tiles_seen") -> float | None:
    """Tiles counted under `key` over the tiles counted under `of`, all photos together."""
    if not rows or key not in rows[0]:
        return None
    return sum(r[key] for r in rows) / max(sum(r[of] for r in rows), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="step", required=True)
    r = sub.add_parser("render", help="render labelled declared wins to a folder")
    r.add_argument("--out", required=True)
    r.add_argument("--n", type=int, default=500)
    r.add_argument("--sources", nargs="+", default=["kde"])
    r.add_argument("--size", type=int, default=1024)
    r.add_argument("--seed", type=int, default=2026)
    r.add_argument(
        "--camerash", help="lay out the real camerash faces from this folder (evaluation only)"
    )
    r.add_argument(
        "--kind",
        choices=("declared_win", "cluttered_win"),
        default="declared_win",
        help="a win on a plain table, or among keyboards, cards, chips and phones",
    )
    e = sub.add_parser("eval", help="recognize the rendered photos and compare with the labels")
    e.add_argument("--data", required=True)
    e.add_argument("--mode", choices=("sim", "classifier", "models"), default="sim")
    e.add_argument("--n", type=int, default=100000)
    e.add_argument("--ruleset", default="mcr")
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--sharp-lo", type=float, default=3.5, help="sim: lowest logit sharpness")
    e.add_argument("--sharp-hi", type=float, default=6.5, help="sim: highest logit sharpness")
    e.add_argument("--jitter", type=float, default=0.0, help="sim: corner noise, face widths")
    e.add_argument("--no-sideways", action="store_true", help="sim: no sideways flags")
    add_no_faint(e)
    e.add_argument(
        "--canonical", action="store_true", help="sim: corners in the detector's canonical order"
    )
    e.add_argument("--report", help="write every photo's outcome to this JSON file")
    e.add_argument(
        "--cache", help="models: keep each photo's detected and classified tiles in this folder"
    )
    e.add_argument("--detector", help="models: detector ONNX (default: the shipped one)")
    e.add_argument("--classifier", help="classifier ONNX (default: the shipped one)")
    e.add_argument("--flower-reader", help="flower reader ONNX (default: the shipped one)")
    e.add_argument(
        "--no-flower-reader", action="store_true", help="the classifier alone names the flowers"
    )
    e.add_argument("--index-reader", help="index reader ONNX (default: the shipped one)")
    e.add_argument(
        "--no-index-reader", action="store_true", help="the corner index is not read apart"
    )
    args = parser.parse_args()
    if args.step == "render":
        render(Path(args.out), args.n, args.sources, args.size, args.seed, args.camerash, args.kind)
        return
    print(json.dumps(evaluate(args), indent=1))


if __name__ == "__main__":
    main()
