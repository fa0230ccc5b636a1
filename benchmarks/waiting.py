"""Photos of hands waiting to win (13 tiles): are the tiles and the waits read exactly right?

Each photo is rendered twice from one seed (`render_scene`'s declared win): as the win, and as
the hand waiting to win, the winning tile not come yet (`datasets.scene.layout.
without_winning_tile`): the same hand, layout and table; the camera's framing, and so what
the generator draws after it, may differ. The waiting photos measure what a photo of 13
tiles answers; the wins check that reading 14 tiles lost nothing.

    python benchmarks/waiting.py render --out .cache/waiting_9700 --n 120 --sources kde gnome \
        --size 1024 --seed 9700
    python benchmarks/waiting.py eval --data .cache/waiting_9700 [--cache .cache/tiles_waiting_9700]

Per version, over the photos that show every tile of the hand ("complete"): right (hand
tiles, melds and flowers, and for the waiting hands every wait with its copies unseen and
points both ways), flag rate, wrong ones flagged, photos read as the other kind of hand, and
decoding time (median and worst, ms: the stage with its retries, and one decoding alone).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.recognize import add_no_faint, canonical, context_of, faint_of, models_read
from scoring import score
from vision.decode import decode
from vision.pipeline import Recognition, Recognizer, interpret
from vision.recognition import hand_json
from vision.shape import _all_sets, is_winning, waits_of

Json = dict[str, Any]
VERSIONS = ("waiting", "win")


def render_pair(seed: int, index: int, sources: tuple[str, ...], size: int) -> dict[str, Any]:
    """The photo `index` of a seeded set, as the win and as the hand waiting to win."""
    from datasets.scene import render_scene

    out = {"win": render_scene(np.random.default_rng([seed, index]), sources, size=size)}
    waiting = render_scene(np.random.default_rng([seed, index]), sources, "waiting_hand", size)
    out["waiting"] = waiting
    return out


def render(out: Path, n: int, sources: list[str], size: int, seed: int) -> None:
    for version in VERSIONS:
        (out / version).mkdir(parents=True, exist_ok=True)
    for i in range(n):
        for version, scene in render_pair(seed, i, tuple(sources), size).items():
            stem = out / version / f"{i:05d}"
            cv2.imwrite(f"{stem}.jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            label = {"hand": scene.hand, "annotations": scene.annotations}
            Path(f"{stem}.json").write_text(json.dumps(label))
        if (i + 1) % 20 == 0:
            print(f"{i + 1}/{n} rendered", flush=True)


def hand_key(hand: Json | None) -> str:
    """Order-free form of a Hand JSON, claims and win context aside (the generator does not
    always name a meld's claimed tile)."""
    return canonical(hand, claims=False, context=False)


def waits_key(waits: list[Json] | None) -> str:
    """Each wait's tile, copies unseen and points on a discard and self-drawn."""
    if waits is None:
        return "null"
    return json.dumps(
        [(w["tile"], w["unseen"], w["discard"]["total"], w["self_drawn"]["total"]) for w in waits]
    )


def decode_alone_ms(result: Recognition, context: Json) -> float:
    """One decoding of the hand as finally laid out, the shape caches emptied first: the
    search as a fresh process runs it (the stage's `decode` time adds the retries)."""
    for cached in (is_winning, waits_of, _all_sets):
        cached.cache_clear()
    start = time.perf_counter()
    decode(result.tiles, result.layout, context)
    return (time.perf_counter() - start) * 1000


def row(name: str, label: Json, result: Recognition, ruleset: str, context: Json) -> Json:
    truth = label["hand"]
    waiting = truth.get("winning_tile") is None
    hand_right = hand_key(hand_json(result.decoded.hand)) == hand_key(truth)
    right = hand_right
    if waiting:
        want = score(truth, ruleset).to_json().get("waits")
        right = hand_right and waits_key(result.waits) == waits_key(want)
    flowers = truth.get("flowers", [])
    wanted = sum(len(m["tiles"]) for m in truth["melds"]) + len(truth["concealed"])
    wanted += (0 if waiting else 1) + (len(flowers) if isinstance(flowers, list) else 0)
    shown = sum(a.get("role") != "loose" for a in label["annotations"])
    return {
        "photo": name,
        "complete": shown == wanted,
        "right": right,
        "hand_right": hand_right,
        "read_waiting": result.decoded.hand is not None and result.decoded.waiting,
        "read_win": result.decoded.hand is not None and not result.decoded.waiting,
        "review": result.review,
        "reasons": result.review_reasons,
        "confidence": result.decoded.confidence,
        "readings": result.decoded.readings_tried,
        "decode_ms": result.timings_ms.get("decode", 0.0),
        "decode_alone_ms": decode_alone_ms(result, context),
        "warnings": result.warnings,
        "got": None if right else hand_key(hand_json(result.decoded.hand)),
        "want": None if right else hand_key(truth),
    }


def figures(rows: list[Json], waiting: bool) -> Json:
    complete = [r for r in rows if r["complete"]]
    wrong = [r for r in complete if not r["right"]]
    ms = [r["decode_ms"] for r in rows] or [0.0]
    alone = [r["decode_alone_ms"] for r in rows] or [0.0]
    other = "read_win" if waiting else "read_waiting"
    return {
        "photos": len(rows),
        "complete": len(complete),
        "right": _share([r["right"] for r in complete]),
        "flag_rate": _share([r["review"] for r in complete]),
        "wrong_flagged": f"{sum(r['review'] for r in wrong)} of {len(wrong)}",
        "right_unflagged": sum(r["right"] and not r["review"] for r in complete),
        f"complete_{other}": sum(r[other] for r in complete),
        "complete_no_hand": sum(not (r["read_win"] or r["read_waiting"]) for r in complete),
        "decode_ms_median": round(statistics.median(ms), 1),
        "decode_ms_max": round(max(ms), 1),
        "decode_alone_ms_median": round(statistics.median(alone), 1),
        "decode_alone_ms_max": round(max(alone), 1),
        "readings_max": max((r["readings"] for r in rows), default=0),
        "reasons": Counter(x.split(" (")[0] for r in complete for x in r["reasons"]).most_common(8),
    }


def _share(flags: list[bool]) -> float:
    return round(100 * sum(flags) / len(flags), 2) if flags else 0.0


def evaluate(args: argparse.Namespace) -> Json:
    if args.no_faint and not args.cache:
        raise SystemExit("eval: --no-faint reads the kept tiles: give --cache too")
    recognizer = Recognizer(detector_path=args.detector)
    summary: Json = {}
    photos: Json = {}
    for version in VERSIONS:
        files = sorted((Path(args.data) / version).glob("*.json"))[: args.n]
        rows = []
        for path in files:
            label = json.loads(path.read_text())
            context = context_of({"melds": [], **label["hand"]})
            jpg = path.with_suffix(".jpg")
            if args.cache:
                tiles, size = models_read(recognizer, jpg, Path(args.cache) / version)
                faint = None if args.no_faint else faint_of(recognizer, jpg, tiles)
                result = interpret(tiles, context, args.ruleset, image_size=size, faint=faint)
            else:
                result = recognizer.recognize(jpg, context, args.ruleset)
            rows.append(row(path.stem, label, result, args.ruleset, context))
        summary[version] = figures(rows, version == "waiting")
        photos[version] = rows
    if args.report:
        Path(args.report).write_text(json.dumps({"summary": summary, "photos": photos}, indent=1))
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("render", help="render the photos, each as a win and as a waiting hand")
    r.add_argument("--out", required=True)
    r.add_argument("--n", type=int, default=120)
    r.add_argument("--sources", nargs="+", default=["kde", "gnome"])
    r.add_argument("--size", type=int, default=1024)
    r.add_argument("--seed", type=int, default=9700)
    e = sub.add_parser("eval", help="read them with the shipped models")
    e.add_argument("--data", required=True)
    e.add_argument("--n", type=int, default=None)
    e.add_argument("--ruleset", default="mcr")
    e.add_argument("--detector", help="detector ONNX (default: the shipped one)")
    e.add_argument("--cache", help="keep each photo's detected and classified tiles here")
    e.add_argument("--report", help="write every photo's row here (JSON)")
    add_no_faint(e)
    args = parser.parse_args()
    if args.command == "render":
        render(Path(args.out), args.n, args.sources, args.size, args.seed)
    else:
        print(json.dumps(evaluate(args), indent=1))


if __name__ == "__main__":
    main()
