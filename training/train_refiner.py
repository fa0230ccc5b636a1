"""Train the corner refiner (`vision.refine`) on labelled renders of the training sources.

    python benchmarks/recognize.py render --out .cache/bench_train --n 400 \\
        --sources procedural fluffystuff unicode --seed 78    # bench_train2: seed 79
    python benchmarks/recognize.py render --out .cache/bench_train3 --n 500 \\
        --sources procedural fluffystuff unicode --seed 80
    python -m training.train_refiner --data .cache/bench_train .cache/bench_train2 \\
        .cache/bench_train3 --minutes 30 --out runs/refiner --export vision/weights/refiner.onnx

Each labelled tile the shipped detector finds (its centre on the labelled face) gives its
detected quad and its true one, turned to the quad's order; each step draws half its
examples from those quads, nudged a little, and half from the true quads thrown off as a
detector throws them (scale, shift, turn and each corner on its own, now and then far), so
that the network learns to correct both the detector's habits and the second round's small
steps. Photos are used at full and at half size (faces 20-70 px). A twentieth of the photos
is kept out to report the corner error before and after. Needs torch (the train extra).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from training.schedule import cosine
from vision.geometry import canonical_order
from vision.refine import FACE, FACE_W, PATCH, patches, targets
from vision.registry import shipped

Array = npt.NDArray[np.float32]


@dataclass
class Examples:
    images: list[npt.NDArray[np.uint8]]  # working images, then the same at half size
    photo: npt.NDArray[np.int_]  # (n,) image index of each tile
    detected: Array  # (n, 4, 2) the detector's quad, or the true one where none was found
    truth: Array  # (n, 4, 2) in the detected quad's corner order
    found: npt.NDArray[np.bool_]  # (n,) whether the detector found the tile


def closest_turn(quad: Array, truth: Array) -> Array:
    """`truth`'s corners rolled to the order of `quad` (the roll with the nearest corners)."""
    rolls = [np.roll(truth, k, axis=0) for k in range(4)]
    return rolls[int(np.argmin([np.abs(r - quad).sum() for r in rolls]))]


def collect(folders: list[Path]) -> Examples:
    from vision.detect import Detector
    from vision.load import load_photo
    from vision.match import match_faces

    detector = Detector(refine=False)  # the detector's own corners: what the refiner corrects
    labels = sorted(p for folder in folders for p in folder.glob("*.json"))
    if not labels:
        raise SystemExit(f"no labelled photos in {', '.join(map(str, folders))}")
    images: list[npt.NDArray[np.uint8]] = []
    photo: list[int] = []
    detected: list[Array] = []
    truth: list[Array] = []
    found: list[bool] = []
    start = time.perf_counter()
    for k, label_path in enumerate(labels):
        annotations = json.loads(label_path.read_text())["annotations"]
        loaded = load_photo(label_path.with_suffix(".jpg"))
        quads = np.array([a["corners"] for a in annotations], np.float32).reshape(-1, 4, 2)
        quads = canonical_order(quads / np.float32(loaded.scale))
        tiles = detector.detect_image(loaded.image)
        matched = dict((j, i) for i, j in match_faces(tiles.centers, tiles.confidence, quads))
        for j, ann in enumerate(annotations):
            if ann.get("visibility", 1.0) < 0.5:
                continue
            i = matched.get(j)
            quad = tiles.corners[i] if i is not None else quads[j]
            photo.append(len(images))
            detected.append(quad)
            truth.append(closest_turn(quad, quads[j]))
            found.append(i is not None)
        images.append(loaded.image)
        if (k + 1) % 100 == 0:
            print(
                f"{k + 1}/{len(labels)} photos, {len(photo)} tiles, "
                f"{time.perf_counter() - start:.0f} s",
                file=sys.stderr,
            )
    return Examples(
        images, np.array(photo), np.array(detected), np.array(truth), np.array(found, bool)
    )


def face_widths(quads: Array) -> Array:
    """(n,) the shorter of each quad's mean side lengths, pixels."""
    top = np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)
    side = np.linalg.norm(quads[:, 3] - quads[:, 0], axis=1)
    return np.asarray(np.minimum(top, side), np.float32)


def throw_off(truth: Array, rng: np.random.Generator, far: float = 0.1) -> Array:
    """True quads moved as a detector misplaces them: scale, shift and turn about the centre,
    then each corner alone; a `far` share of them three times as far."""
    n = len(truth)
    fw = face_widths(truth)[:, None, None]
    reach = np.where(rng.random(n) < far, 3.0, 1.0)[:, None, None]
    centre = truth.mean(axis=1, keepdims=True)
    scale = np.exp(rng.normal(0, 0.05, (n, 1, 1)) * reach)
    angle = np.deg2rad(rng.normal(0, 2.5, n)) * reach[:, 0, 0]
    c, s = np.cos(angle), np.sin(angle)
    turn = np.stack([np.stack([c, -s], 1), np.stack([s, c], 1)], 1)  # (n, 2, 2)
    moved = np.einsum("nij,nkj->nki", turn, (truth - centre) * scale) + centre
    moved += rng.normal(0, 0.04, (n, 1, 2)) * fw * reach
    moved += rng.normal(0, 0.035, (n, 4, 2)) * fw * reach
    return np.asarray(moved, np.float32)


def batch(ex: Examples, idx: npt.NDArray[np.int_], rng: np.random.Generator) -> tuple[Array, Array]:
    """Crops and targets for the tiles `idx`: half from the detector's quads (nudged), half
    from thrown-off true quads; each tile from its photo at full or half size."""
    truth = ex.truth[idx]
    own = (rng.random(len(idx)) < 0.5) & ex.found[idx]
    detected = ex.detected[idx]
    nudged = detected + 0.3 * (throw_off(detected, rng, 0.0) - detected)
    quads = np.where(own[:, None, None], nudged, throw_off(truth, rng)).astype(np.float32)
    half = rng.random(len(idx)) < 0.4
    crops = np.empty((len(idx), 3, PATCH[1], PATCH[0]), np.float32)
    n_full = len(ex.images) // 2
    for k, (p, h) in enumerate(zip(ex.photo[idx], half, strict=True)):
        image = ex.images[p + n_full] if h else ex.images[p]
        scale = np.float32(0.5 if h else 1.0)
        crops[k] = patches(image, quads[k : k + 1] * scale)[0]
    # lighting: gain, offset and colour cast per crop
    crops = crops * rng.uniform(0.7, 1.3, (len(idx), 1, 1, 1)) + rng.uniform(
        -0.1, 0.1, (len(idx), 3, 1, 1)
    )
    return np.clip(crops, 0, 1).astype(np.float32), targets(quads, truth)


def build_net() -> Any:
    """An encoder to an eighth of the crop's size and back to a quarter, one heatmap a
    corner, each corner the heatmap's centre of mass (soft-argmax, Nibali et al. 2018:
    precise below a heatmap cell, and the same everywhere in the crop). A first run with a
    dense head on strided convolutions instead had cut the real-face wins' median worst-
    corner error only from 0.130 to 0.115 face widths after 15 minutes; this one to 0.034
    after 8."""
    import torch
    from torch import nn

    def block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride, dilation, dilation=dilation, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    face = torch.from_numpy(FACE.reshape(1, 8))

    class Heatmaps(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.down = nn.Sequential(block(3, 16, 2), block(16, 32), block(32, 48, 2))
            self.deep = nn.Sequential(
                block(48, 64, 2), block(64, 64, dilation=2), block(64, 64, dilation=2)
            )
            self.up = nn.Sequential(block(112, 48), nn.Conv2d(48, 4, 1))
            h, w = PATCH[1] // 4, PATCH[0] // 4
            self.register_buffer("xs", (torch.arange(w, dtype=torch.float32) + 0.5) * 4)
            self.register_buffer("ys", (torch.arange(h, dtype=torch.float32) + 0.5) * 4)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            skip = self.down(x)
            deep = nn.functional.interpolate(self.deep(skip), scale_factor=2.0, mode="nearest")
            maps = self.up(torch.cat([skip, deep], dim=1))  # (n, 4, h, w)
            n, _, h, w = maps.shape
            weights = torch.softmax(maps.reshape(n, 4, h * w), dim=2).reshape(n, 4, h, w)
            x_mean = (weights.sum(dim=2) * self.xs).sum(dim=2)  # (n, 4)
            y_mean = (weights.sum(dim=3) * self.ys).sum(dim=2)
            points = torch.stack([x_mean, y_mean], dim=2).reshape(n, 8)
            return (points - face) / FACE_W

    return Heatmaps()


def max_corner_error(offsets: Array, target: Array) -> Array:
    """(n,) the worst corner's distance from the truth, face widths."""
    d = (offsets - target).reshape(-1, 4, 2)
    return np.asarray(np.linalg.norm(d, axis=2).max(axis=1), np.float32)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", nargs="+", type=Path, required=True)
    p.add_argument("--minutes", type=float, default=30.0)
    p.add_argument("--out", type=Path, default=Path("runs/refiner"))
    p.add_argument("--export", type=Path, default=shipped("refiner").path)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--batch", type=int, default=128)
    args = p.parse_args(argv)

    import torch

    from training.train_classifier import export_onnx

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    ex = collect(args.data)
    ex.images += [
        np.asarray(cv2.resize(im, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), np.uint8)
        for im in ex.images
    ]
    photos = len(ex.images) // 2
    held_photos = np.arange(photos)[rng.random(photos) < 0.05]
    held = np.isin(ex.photo, held_photos)
    train_idx, held_idx = np.nonzero(~held)[0], np.nonzero(held & ex.found)[0]
    print(f"{len(train_idx)} training tiles, {len(held_idx)} held-out found tiles", file=sys.stderr)

    net = build_net()
    params = sum(p.numel() for p in net.parameters())
    optimiser = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    start, budget, step = time.perf_counter(), args.minutes * 60, 0
    while (elapsed := time.perf_counter() - start) < budget:
        for group in optimiser.param_groups:
            group["lr"] = cosine(2e-3, elapsed / budget)
        x, y = batch(ex, rng.choice(train_idx, args.batch), rng)
        loss = torch.nn.functional.smooth_l1_loss(
            net(torch.from_numpy(x)), torch.from_numpy(y), beta=0.02
        )
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        step += 1
        if step % 200 == 0:
            line = f"step {step}, loss {float(loss):.4f}, {elapsed:.0f} s"
            print(line, file=sys.stderr)
            with open(args.out / "log.txt", "a") as log:
                print(line, file=log)
            torch.save(net.state_dict(), args.out / "last.pt")
    net.eval()
    torch.save(net.state_dict(), args.out / "last.pt")

    # Held-out photos' detected quads: the worst corner's error before and after one round.
    quads, truth = ex.detected[held_idx], ex.truth[held_idx]
    crops = np.concatenate(
        [patches(ex.images[p], quads[k : k + 1]) for k, p in enumerate(ex.photo[held_idx])]
    )
    goal = targets(quads, truth)
    with torch.no_grad():
        answer = net(torch.from_numpy(crops)).numpy()
    before = max_corner_error(np.zeros_like(goal), goal)
    after = max_corner_error(answer, goal)
    metrics = {
        "parameters": int(params),
        "steps": step,
        "minutes": round((time.perf_counter() - start) / 60, 1),
        "training_tiles": len(train_idx),
        "held_out_tiles": len(held_idx),
        "held_out_max_corner_error_median": [float(np.median(before)), float(np.median(after))],
        "held_out_max_corner_error_p90": [
            float(np.percentile(before, 90)),
            float(np.percentile(after, 90)),
        ],
    }
    (args.out / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    print(json.dumps(metrics, indent=1))
    export_onnx(net, args.export, (1, 3, PATCH[1], PATCH[0]), "offsets")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
