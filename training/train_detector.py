"""Train the tile detector from scratch on `mjlens synth` photos; export ONNX.

    python -m api.cli synth --n 2500 --out runs/det_train --size 640 --seed 11 \
        --sources procedural,fluffystuff --kinds declared_win,declared_win,rows,scattered,pile
    python -m training.train_detector --data runs/det_train --minutes 60 --out runs/detector

Each step takes random 384x384 crops of rescaled (0.4-2.8x), flipped and quarter-turned
scenes; the loss is a focal loss on the centre heatmaps plus a size-normalized L1 on box and
corner regressions. Training runs for a wall-clock budget (cosine learning rate over it), writes a
checkpoint every few minutes and exports the last weights to ONNX at the end.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch
from torch.utils.data import DataLoader, IterableDataset
from tqdm import tqdm

from training.detector_net import TileDetector
from training.detector_targets import canonical_corners, draw_targets
from training.schedule import warmup_cosine
from vision import corner_code
from vision.registry import shipped

OPSET = 17
Record = tuple[Path, np.ndarray, np.ndarray, np.ndarray]  # image, xyxy, corners, face_down


def read_set(root: str | Path) -> list[Record]:
    """A `mjlens synth` folder -> (image path, boxes xyxy, canonical corners, face_down)."""
    root = Path(root)
    coco = json.loads((root / "annotations.coco.json").read_text(encoding="utf-8"))
    by_image: dict[int, list[dict[str, Any]]] = {img["id"]: [] for img in coco["images"]}
    for ann in coco["annotations"]:
        by_image[ann["image_id"]].append(ann)
    records = []
    for img in coco["images"]:
        anns = by_image[img["id"]]
        boxes = np.array(
            [
                [
                    a["bbox"][0],
                    a["bbox"][1],
                    a["bbox"][0] + a["bbox"][2],
                    a["bbox"][1] + a["bbox"][3],
                ]
                for a in anns
            ],
            np.float32,
        ).reshape(-1, 4)
        corners = np.array([canonical_corners(a["corners"]) for a in anns], np.float32).reshape(
            -1, 4, 2
        )
        down = np.array([bool(a.get("face_down")) for a in anns], bool)
        records.append((root / img["file_name"], boxes, corners, down))
    return records


# Rescale range of a training scene, log-uniform, relative to a 640 px long side. Close-ups
# (a hand shot from a hand's width away) give faces well over 50 px at the detector's first
# pass, and large tiles were the ones most often missed by a 0.45-1.3 range (run C: 0.4-2x;
# run D: 0.4-2.8x, as close-ups of three or four tiles came out as their dots).
SCALE_RANGE = (0.4, 2.8)


def _turn(
    image: np.ndarray, pts: np.ndarray, degrees: float, fill: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The image turned by `degrees` about its centre on a canvas that holds all of it, and
    the points with it; what falls outside the photo is one flat colour (no unlabelled tiles
    reflected in)."""
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    nw, nh = int(np.ceil(w * cos + h * sin)), int(np.ceil(w * sin + h * cos))
    matrix[:, 2] += (nw / 2 - w / 2, nh / 2 - h / 2)
    turned = cv2.warpAffine(
        np.ascontiguousarray(image),
        matrix,
        (nw, nh),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=tuple(int(v) for v in fill),
    )
    out = pts @ matrix[:, :2].T.astype(np.float32) + matrix[:, 2].astype(np.float32)
    return turned, out.astype(np.float32)


def _box_corners(xyxy: np.ndarray) -> np.ndarray:
    """(n, 4) boxes -> (n, 4, 2) their corners TL, TR, BR, BL, to travel with the tiles'."""
    return np.stack([xyxy[:, [0, 1]], xyxy[:, [2, 1]], xyxy[:, [2, 3]], xyxy[:, [0, 3]]], axis=1)


def body_boxes(faces: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(n, 4, 2) face quads, (n, 4) the tiles' xyxy boxes -> (n, 4, 2) the four corners of
    each tile's body as a shift of its face: turning a photo turns a box's corners off the
    body, so the body is taken as the face swept by the thickness the box shows beyond it."""
    lo, hi = faces.min(axis=1), faces.max(axis=1)
    shift = np.maximum(boxes[:, 2:] - hi, 0) - np.maximum(lo - boxes[:, :2], 0)
    return np.concatenate([faces, faces + shift[:, None, :]], axis=1)


# Share of training scenes turned by a random angle in (-45, 45) degrees on top of the
# quarter turns: the scene engine mostly frames hands square to the picture, and tiles
# lying diagonally were the detector's worst (see `vision.corner_code`).
ROTATE_SHARE = 0.0


def augment_scene(
    record: Record, size: int, rng: np.random.Generator, rotate_share: float = ROTATE_SHARE
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One training crop (RGB uint8 size x size) with its boxes, corners, face_down."""
    path, boxes, corners, down = record
    image = cv2.imread(str(path))
    if image is None:
        raise FileNotFoundError(path)
    h, w = image.shape[:2]
    # Box corner points travel with the tile corners through every transform.
    box_pts = _box_corners(boxes)
    pts = np.concatenate([corners, box_pts], axis=1).reshape(-1, 2)
    mirrored = rng.random() < 0.5
    if mirrored:
        image = image[:, ::-1]
        pts[:, 0] = w - pts[:, 0]
    for _ in range(int(rng.integers(4)) if rng.random() < 0.5 else 0):
        image = np.rot90(image, k=-1)
        pts = np.stack([h - pts[:, 1], pts[:, 0]], axis=1)
        h, w = w, h
    scale = np.exp(rng.uniform(*np.log(SCALE_RANGE))) * 640 / max(h, w)
    fill = rng.integers(0, 256, 3)
    turned_scene = bool(len(boxes)) and rng.random() < rotate_share
    if turned_scene:
        tiles = pts.reshape(-1, 8, 2)
        xyxy = np.concatenate([tiles[:, 4:].min(axis=1), tiles[:, 4:].max(axis=1)], axis=1)
        body = body_boxes(tiles[:, :4], xyxy).reshape(-1, 2)
        image, turned = _turn(
            image,
            np.concatenate([tiles[:, :4].reshape(-1, 2), body]),
            float(rng.uniform(-45, 45)),
            fill,
        )
        n = len(tiles)
        faces, body = turned[: 4 * n].reshape(n, 4, 2), turned[4 * n :].reshape(n, 8, 2)
        box_pts = _box_corners(np.concatenate([body.min(axis=1), body.max(axis=1)], axis=1))
        pts = np.concatenate([faces, box_pts], axis=1).reshape(-1, 2)
        h, w = image.shape[:2]
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    image = cv2.resize(
        np.ascontiguousarray(image),
        (nw, nh),
        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
    )
    pts = pts * np.array([nw / w, nh / h], np.float32)
    ox = int(rng.integers(min(0, nw - size), max(0, nw - size) + 1))
    oy = int(rng.integers(min(0, nh - size), max(0, nh - size) + 1))
    if turned_scene:  # the turned photo's corners are flat colour: crop about a tile instead
        centre = pts.reshape(-1, 8, 2)[int(rng.integers(len(boxes))), :4].mean(axis=0)
        at = centre - rng.uniform(0.15, 0.85, 2) * size
        ox = int(np.clip(at[0], min(0, nw - size), max(0, nw - size)))
        oy = int(np.clip(at[1], min(0, nh - size), max(0, nh - size)))
    canvas = np.empty((size, size, 3), np.uint8)
    canvas[:] = fill
    sx0, sy0 = max(ox, 0), max(oy, 0)
    sx1, sy1 = min(ox + size, nw), min(oy + size, nh)
    canvas[sy0 - oy : sy1 - oy, sx0 - ox : sx1 - ox] = image[sy0:sy1, sx0:sx1]
    pts = pts - np.array([ox, oy], np.float32)
    pts = pts.reshape(-1, 8, 2)
    quads, box_quads = pts[:, :4], pts[:, 4:]
    if len(quads):
        # A mirror swaps left and right: TL, TR, BR, BL -> TR, TL, BL, BR restores the order.
        if mirrored:
            quads = quads[:, [1, 0, 3, 2]]
        quads = np.array([canonical_corners(q) for q in quads], np.float32).reshape(-1, 4, 2)
    new_boxes = np.concatenate([box_quads.min(axis=1), box_quads.max(axis=1)], axis=1)
    centre = quads.mean(axis=1) if len(quads) else np.zeros((0, 2), np.float32)
    keep = (centre[:, 0] >= 0) & (centre[:, 0] < size) & (centre[:, 1] >= 0) & (centre[:, 1] < size)
    canvas = _photometric(canvas, rng)
    return cv2.cvtColor(canvas, cv2.COLOR_BGR2RGB), new_boxes[keep], quads[keep], down[keep]


def _photometric(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    img = image.astype(np.float32)
    img = img * rng.uniform(0.85, 1.15, 3) * rng.uniform(0.7, 1.2) + rng.normal(0, 12)
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.2))
    return np.clip(img, 0, 255).astype(np.uint8)


class SceneCrops(IterableDataset[tuple[torch.Tensor, ...]]):
    def __init__(
        self,
        records: list[Record],
        batch: int,
        size: int,
        seed: int,
        code: str = corner_code.CANONICAL,
        rotate_share: float = ROTATE_SHARE,
    ) -> None:
        self.records, self.batch, self.size, self.seed = records, batch, size, seed
        self.code, self.rotate_share = code, rotate_share

    def __iter__(self) -> Iterator[tuple[torch.Tensor, ...]]:
        info = torch.utils.data.get_worker_info()
        cv2.setNumThreads(1)  # the worker shares two cores with training: no thread pools
        rng = np.random.default_rng(self.seed + (info.id if info else 0) * 7919)
        while True:
            images, heats, regs, weights = [], [], [], []
            for i in rng.integers(len(self.records), size=self.batch):
                image, boxes, quads, down = augment_scene(
                    self.records[i], self.size, rng, self.rotate_share
                )
                heat, reg, weight = draw_targets(
                    boxes, quads, down, self.size, self.size, self.code
                )
                images.append(image)
                heats.append(heat)
                regs.append(reg)
                weights.append(weight)
            x = torch.from_numpy(np.stack(images)).permute(0, 3, 1, 2).float() / 255.0
            yield (
                x,
                torch.from_numpy(np.stack(heats)),
                torch.from_numpy(np.stack(regs)),
                torch.from_numpy(np.stack(weights)),
            )


def focal_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, normalized by the number of tiles."""
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred**2 * (1 - target) ** 4 * neg
    return -(pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def regression_loss(pred: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    mask = (weight > 0).float()
    l1 = (pred - target).abs().sum(dim=1) * weight
    return l1.sum() / mask.sum().clamp(min=1) / 12


def export_onnx(net: TileDetector, path: Path, code: str = corner_code.CANONICAL) -> None:
    """The graph, with `corner_code` in its metadata: how `vision.detect` reads its corners."""
    import onnx

    net.eval()
    torch.onnx.export(
        net,
        (torch.zeros(1, 3, 384, 512),),
        str(path),
        input_names=["image"],
        output_names=["heat", "reg"],
        dynamic_axes={
            "image": {2: "h", 3: "w"},
            "heat": {2: "fh", 3: "fw"},
            "reg": {2: "fh", 3: "fw"},
        },
        opset_version=OPSET,
        dynamo=False,
    )
    graph = onnx.load(str(path))
    onnx.helper.set_model_props(graph, {"corner_code": code})
    onnx.save(graph, str(path))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", nargs="+", required=True, help="mjlens synth folder(s)")
    p.add_argument("--minutes", type=float, default=60.0, help="wall-clock training budget")
    p.add_argument("--out", default="runs/detector", help="checkpoints and log")
    p.add_argument("--export", default=str(shipped("detector").path))
    p.add_argument("--batch", type=int, default=12)
    p.add_argument("--size", type=int, default=384, help="training crop side")
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--resume", default=None)
    p.add_argument("--export-only", action="store_true")
    p.add_argument(
        "--corner-code",
        choices=corner_code.CODES,
        default=corner_code.CANONICAL,
        help="how the regression head spells the corners (vision.corner_code)",
    )
    p.add_argument(
        "--rotate-share",
        type=float,
        default=ROTATE_SHARE,
        help="share of scenes turned by a random angle within 45 degrees",
    )
    return p.parse_args(argv)


def train(args: argparse.Namespace, net: TileDetector, records: list[Record], out: Path) -> None:
    log = out / "log.jsonl"
    loader = DataLoader(
        SceneCrops(records, args.batch, args.size, args.seed, args.corner_code, args.rotate_share),
        batch_size=None,
        num_workers=1,
        prefetch_factor=4,
        persistent_workers=True,
    )
    optimizer = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = args.minutes * 60
    start = last_ckpt = time.time()
    step = 0
    bar = tqdm(total=int(budget), unit="s", desc="detector")
    net.train()
    for x, heat, reg, weight in loader:
        elapsed = time.time() - start
        if elapsed > budget:
            break
        frac = elapsed / budget
        lr = warmup_cosine(args.lr, frac)
        for group in optimizer.param_groups:
            group["lr"] = lr
        pred_heat, pred_reg = net(x)
        l_heat = focal_loss(pred_heat, heat)
        l_reg = regression_loss(pred_reg, reg, weight)
        loss = l_heat + 2.0 * l_reg
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
        optimizer.step()
        step += 1
        bar.update(int(elapsed) - bar.n)
        if step % 20 == 0:
            line = {
                "step": step,
                "min": round(elapsed / 60, 2),
                "lr": round(lr, 5),
                "heat": round(l_heat.item(), 4),
                "reg": round(l_reg.item(), 4),
                "s_step": round(elapsed / step, 2),
            }
            with open(log, "a") as f:
                f.write(json.dumps(line) + "\n")
        if time.time() - last_ckpt > 180:
            torch.save(
                {"model": net.state_dict(), "step": step, "corner_code": args.corner_code},
                out / "last.pt",
            )
            last_ckpt = time.time()
    bar.close()
    torch.save(
        {"model": net.state_dict(), "step": step, "corner_code": args.corner_code},
        out / "last.pt",
    )


def respell_corners(net: TileDetector, code: str) -> None:
    """A canonical-order head turned into a start for `code` = diagonals: each diagonal's
    midpoint is linear in the old corners (their mean); its doubled half-vector is not, and
    starts as the plain half-vector, to be learnt."""
    if code != corner_code.DIAGONALS:
        raise ValueError(f"no way from canonical corners to {code!r}")
    with torch.no_grad():
        w, b = net.reg.weight.clone(), net.reg.bias.clone()
        corner = [slice(4 + 2 * k, 6 + 2 * k) for k in range(4)]  # x, y of c0..c3
        for i, (a, c) in enumerate(((0, 2), (1, 3))):
            mid, half = slice(4 + 4 * i, 6 + 4 * i), slice(6 + 4 * i, 8 + 4 * i)
            net.reg.weight[mid] = (w[corner[a]] + w[corner[c]]) / 2
            net.reg.bias[mid] = (b[corner[a]] + b[corner[c]]) / 2
            net.reg.weight[half] = (w[corner[a]] - w[corner[c]]) / 2
            net.reg.bias[half] = (b[corner[a]] - b[corner[c]]) / 2


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    net = TileDetector()
    if args.resume:
        checkpoint = torch.load(args.resume)
        net.load_state_dict(checkpoint["model"])
        if checkpoint.get("corner_code", corner_code.CANONICAL) != args.corner_code:
            respell_corners(net, args.corner_code)
    print(f"params: {sum(p.numel() for p in net.parameters()) / 1e6:.2f} M")
    t0 = time.time()
    if not args.export_only:
        records = [r for root in args.data for r in read_set(root)]
        with open(out / "log.jsonl", "a") as f:
            f.write(json.dumps({"args": vars(args), "images": len(records)}) + "\n")
        train(args, net, records, out)
    export_onnx(net, Path(args.export), args.corner_code)
    print(f"exported {args.export} after {(time.time() - t0) / 60:.1f} min")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
