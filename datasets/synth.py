"""Batch generation of a synthetic set (images + COCO master file) and its contact sheet.

Image i is drawn from a generator seeded by (seed, i) alone, so any slice of a set, made by any
number of workers in any order, is the same picture for picture.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.coco import build_coco, iter_images, load_coco, save_coco
from datasets.scene import KINDS, render_scene

DEFAULT_KINDS = ("declared_win",)
# When several kinds are asked for, declared wins stay the bulk: they are what users photograph.
KIND_WEIGHTS = {
    "declared_win": 0.6,
    "waiting_hand": 0.1,
    "rows": 0.15,
    "scattered": 0.15,
    "pile": 0.1,
    "enrollment": 0.1,
    "no_tiles": 0.1,
    "cluttered_win": 0.1,
}
JPEG_QUALITY = 92
# How each image was drawn, kept in its COCO record: lets training filter or weigh by it.
SCENE_KEYS = (
    "kind",
    "source",
    "design",
    "set_seed",
    "table",
    "finger",
    "hand_visible",
    "tilt",
    "azimuth",
    "roll",
    "fill",
    "hfov",
)


def image_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of image `index` in the set made with `seed`."""
    return np.random.default_rng(np.random.SeedSequence([seed, index]))


def parse_kind(entry: str) -> tuple[str, float]:
    """ "rows" -> ("rows", its default weight); "rows:0.3" -> ("rows", 0.3). Raises ValueError."""
    name, _, weight = entry.partition(":")
    if name not in KINDS:
        raise ValueError(f"unknown kind {name!r}; expected some of {', '.join(KINDS)}")
    try:
        share = float(weight) if weight else KIND_WEIGHTS[name]
    except ValueError:
        raise ValueError(f"kind weight {weight!r} is not a number") from None
    if not share > 0:
        raise ValueError(f"kind weight for {name} must be positive")
    return name, share


def pick_kind(rng: np.random.Generator, kinds: Sequence[str]) -> str:
    """One kind per image, drawn by weight (entries may carry one: "declared_win:0.7")."""
    parsed = [parse_kind(k) for k in kinds]
    weights = np.array([w for _, w in parsed])
    return parsed[int(rng.choice(len(parsed), p=weights / weights.sum()))][0]


def _worker_init() -> None:
    cv2.setNumThreads(1)  # the processes are the parallelism; OpenCV's own threads only fight


def _render_one(job: tuple[int, int, str, tuple[str, ...], tuple[str, ...], int]) -> tuple:
    """(index, file name, width, height, hand, annotations), or (index, None, error) on failure:
    one bad image (a face source's bug, say) must not sink a long run."""
    index = job[0]
    try:
        return _render(job)
    except Exception as exc:
        return index, None, f"{type(exc).__name__}: {exc}"


def _render(job: tuple[int, int, str, tuple[str, ...], tuple[str, ...], int]) -> tuple:
    index, seed, out, sources, kinds, size = job
    rng = image_rng(seed, index)
    kind = pick_kind(rng, kinds)
    scene = render_scene(rng, sources, kind, size)
    name = f"images/{index:06d}.jpg"
    cv2.imwrite(str(Path(out) / name), scene.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    h, w = scene.image.shape[:2]
    drawn = {k: scene.meta[k] for k in SCENE_KEYS}
    drawn = {k: round(v, 2) if isinstance(v, float) else v for k, v in drawn.items()}
    return index, name, w, h, scene.hand, scene.annotations, {"scene": drawn}


def generate(
    n: int,
    out: str | Path,
    seed: int = 0,
    sources: Sequence[str] = ("procedural",),
    kinds: Sequence[str] = DEFAULT_KINDS,
    size: int = 1280,
    workers: int = 1,
    start: int = 0,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Render images start..start+n-1 into `out/images/` and write `out/annotations.coco.json`."""
    for kind in kinds:
        parse_kind(kind)  # fail before any work
    out = Path(out)
    (out / "images").mkdir(parents=True, exist_ok=True)
    jobs = [
        (i, seed, str(out), tuple(sources), tuple(kinds), size) for i in range(start, start + n)
    ]
    results = []
    if workers > 1:
        # spawn, not fork: a forked child would inherit OpenCV's and torch's thread pools
        with multiprocessing.get_context("spawn").Pool(workers, _worker_init) as pool:
            for result in pool.imap_unordered(_render_one, jobs, chunksize=4):
                results.append(result)
                if progress:
                    progress(1)
    else:
        for job in jobs:
            results.append(_render_one(job))
            if progress:
                progress(1)
    results.sort(key=lambda r: r[0])
    failed = [(r[0], r[2]) for r in results if r[1] is None]
    if failed and len(failed) == len(results):
        raise RuntimeError(f"every image failed; image {failed[0][0]}: {failed[0][1]}")
    results = [r for r in results if r[1] is not None]
    info = {
        "description": "mjlens synthetic photos",
        "seed": seed,
        "sources": list(sources),
        "kinds": list(kinds),
        "size": size,
        "start": start,
        "failed": [{"index": i, "error": e} for i, e in failed],  # reproducible by index
    }
    coco = build_coco([r[1:] for r in results], info)
    save_coco(coco, out / "annotations.coco.json")
    return coco


def draw_labels(image: np.ndarray, annotations: Sequence[dict[str, Any]]) -> np.ndarray:
    """The image with each tile's box, code and face quad (TL corner dotted) drawn over it."""
    out = image.copy()
    scale = max(image.shape[:2]) / 1280
    thick = max(1, round(2 * scale))
    colours = {
        "concealed": (0, 220, 0),
        "meld": (0, 160, 255),
        "winning": (255, 0, 255),
        "flower": (255, 200, 0),
        "loose": (0, 255, 255),
    }
    for ann in annotations:
        x, y, w, h = (round(v) for v in ann["bbox"])
        colour = colours.get(ann.get("role", "loose"), (255, 255, 255))
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, thick)
        quad = np.round(np.array(ann["corners"])).astype(np.int32)
        cv2.polylines(out, [quad], True, (0, 0, 255), thick, cv2.LINE_AA)
        cv2.circle(out, tuple(int(v) for v in quad[0]), thick * 3, (0, 0, 255), -1)
        label = ann["code"] + ("*" if ann.get("sideways") else "")
        if ann.get("face_down"):
            label += f"({ann.get('hidden_code', '?')})"
        for colour, width in (((0, 0, 0), thick + 2), ((255, 255, 255), thick)):  # outlined
            cv2.putText(
                out,
                label,
                (x, max(y - 4, 12)),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.6 * scale * 1.6,
                colour,
                width,
                cv2.LINE_AA,
            )
    return out


def contact_sheet(
    root: str | Path, count: int = 12, columns: int = 4, thumb: int = 400, labels: bool = True
) -> np.ndarray:
    """A grid of the set's first `count` images with their labels overlaid."""
    root = Path(root)
    coco = load_coco(root / "annotations.coco.json")
    tiles = []
    for img, anns in list(iter_images(coco))[:count]:
        image = cv2.imread(str(root / img["file_name"]))
        if image is None:
            raise FileNotFoundError(root / img["file_name"])
        if labels:
            image = draw_labels(image, anns)
        hand = img.get("hand")
        box_h = thumb * 3 // 4
        scale = min(thumb / image.shape[1], box_h / image.shape[0])  # whole photo, centred
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        cell = np.full((box_h + 18, thumb, 3), 255, np.uint8)
        sh, sw = small.shape[:2]
        top, left = (box_h - sh) // 2, (thumb - sw) // 2
        cell[top : top + sh, left : left + sw] = small
        caption = _hand_caption(hand) if hand else f"{len(anns)} tiles"
        cv2.putText(
            cell,
            caption[:60],
            (4, cell.shape[0] - 5),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.4,
            (0, 0, 0),
            1,
            cv2.LINE_AA,
        )
        tiles.append(cell)
    if not tiles:
        raise ValueError(f"{root}: no images in annotations.coco.json")
    while len(tiles) % columns:
        tiles.append(np.full_like(tiles[0], 255))
    rows = [np.hstack(tiles[i : i + columns]) for i in range(0, len(tiles), columns)]
    return np.vstack(rows)


def crop_sheet(root: str | Path, count: int = 48, columns: int = 12, cell: int = 72) -> np.ndarray:
    """The first `count` readable labelled faces, rectified along their corners as the classifier
    sees them (face-up, not oblique, mostly visible), each captioned with its code."""
    root = Path(root)
    coco = load_coco(root / "annotations.coco.json")
    h = cell * 4 // 3
    target = np.float32([[0, 0], [cell, 0], [cell, h], [0, h]])
    crops = []
    for img, anns in iter_images(coco):
        image = cv2.imread(str(root / img["file_name"]))
        if image is None:
            raise FileNotFoundError(root / img["file_name"])
        for ann in anns:
            if ann["face_down"] or ann.get("oblique") or ann.get("visibility", 1) < 0.9:
                continue
            quad = np.float32(ann["corners"]) - 0.5  # COCO pixel convention -> OpenCV's
            crop = cv2.warpPerspective(image, cv2.getPerspectiveTransform(quad, target), (cell, h))
            framed = np.full((h + 14, cell, 3), 255, np.uint8)
            framed[:h] = crop
            cv2.putText(
                framed,
                ann["code"],
                (3, h + 11),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.35,
                (0, 0, 0),
                1,
                cv2.LINE_AA,
            )
            crops.append(framed)
            if len(crops) == count:
                break
        if len(crops) == count:
            break
    if not crops:
        raise ValueError(f"{root}: no readable faces")
    while len(crops) % columns:
        crops.append(np.full_like(crops[0], 255))
    return np.vstack([np.hstack(crops[i : i + columns]) for i in range(0, len(crops), columns)])


def save_palette_png(image: np.ndarray, path: str | Path, colors: int = 256) -> None:
    """Write a BGR image as a palette PNG: a quarter of the bytes, fine for a contact sheet."""
    from PIL import Image

    rgb = Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
    rgb.quantize(colors=max(2, min(colors, 256)), method=Image.Quantize.MEDIANCUT).save(
        path, optimize=True
    )


def _hand_caption(hand: dict[str, Any]) -> str:
    melds = " ".join("[" + "".join(m["tiles"]) + "]" for m in hand.get("melds", []))
    return f"{melds} {''.join(hand['concealed'])} +{hand['winning_tile']}"


# Sources that draw their faces from the set's seed (shapes, fonts, inks): every seed is a
# design of its own. The others draw fixed art, one design per theme.
SEEDED_SOURCES = frozenset({"procedural", "unicode"})


def designs(coco: dict[str, Any]) -> int:
    """How many distinct tile-set designs the photos show (photos without tiles show none)."""
    seen = set()
    shown = {a["image_id"] for a in coco["annotations"]}
    for img in coco["images"]:
        scene = img.get("scene", {})
        if img["id"] not in shown or "source" not in scene:
            continue
        seeded = scene["source"] in SEEDED_SOURCES
        seen.add((scene.get("design"), scene.get("set_seed") if seeded else None))
    return len(seen)


def describe(coco: dict[str, Any]) -> str:
    kinds = json.dumps(coco.get("info", {}).get("kinds"))
    return (
        f"{len(coco['images'])} images, {len(coco['annotations'])} tiles, "
        f"{designs(coco)} set designs, kinds {kinds}"
    )
