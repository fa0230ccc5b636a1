"""Train the tileness network: tile or look-alike, from a detection's face and surroundings.

    python -m training.tileness_data .cache/tn_fit_9601 --threshold 0.1 --out .cache/tn_9601.npz
    python -m training.train_tileness .cache/tn_9601.npz .cache/tn_9602.npz --minutes 6 \
        --folds 3 --fold 0 --out runs/tn_fold0          # likewise folds 1 and 2
    python -m training.train_tileness .cache/tn_9601.npz .cache/tn_9602.npz --minutes 8 \
        --fold -1 --out runs/tileness --export vision/weights/tileness.onnx

The photos are drawn into `--folds` folds by seed; `--fold K` holds fold K back and writes
its detections' log-odds (`held.npz`: their rows among the files' labelled detections), on
which the objectness model is fitted (`benchmarks/objectness.py fit --tileness`); with
`--fold -1` nothing is held back (the shipped network). Checkpoints each minute (`last.pt` in
`--out`); a run resumes its folder's checkpoint.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from training.schedule import cosine
from vision.detect import DEFAULT_THRESHOLD
from vision.tileness import CROP_H, CROP_W, network_batch

TILE, NOT_TILE = 1, 0
Array = npt.NDArray[np.float32]


def load(paths: list[Path]) -> tuple[npt.NDArray[np.uint8], Array, Array, npt.NDArray[np.int64]]:
    """Crops, whether each is a tile, the detector's confidence, and a photo id unique over
    the files; detections that are neither are left out."""
    crops, ys, confs, photos = [], [], [], []
    for n, path in enumerate(paths):
        with np.load(path) as z:
            use = z["y"] != -1
            crops.append(z["crops"][use])
            ys.append((z["y"][use] == TILE).astype(np.float32))
            confs.append(z["confidence"][use])
            photos.append(z["photo"][use].astype(np.int64) * len(paths) + n)
    return np.concatenate(crops), np.concatenate(ys), np.concatenate(confs), np.concatenate(photos)


def network() -> Any:
    """Four strided 3x3 convolutions with batch norm, a 3x3 one, average pool, one logit:
    about 0.1 M parameters."""
    from torch import nn

    def block(cin: int, cout: int, stride: int = 2) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    return nn.Sequential(
        block(3, 16), block(16, 32), block(32, 64), block(64, 64, 1), block(64, 96),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(96, 1),
    )  # fmt: skip


def augment(x: Array, rng: np.random.Generator) -> Array:
    """Mirror, half turn, colour (channel order, gains), brightness, contrast and noise: a
    look-alike is told by its shape, not by the colours the training tables happen to have."""
    n = len(x)
    flip = rng.random(n) < 0.5
    x[flip] = x[flip, :, :, ::-1]
    turn = rng.random(n) < 0.5
    x[turn] = x[turn, :, ::-1, ::-1]
    for i in np.flatnonzero(rng.random(n) < 0.3):
        x[i] = x[i, rng.permutation(3)]
    x = x * rng.uniform(0.8, 1.2, (n, 3, 1, 1)).astype(np.float32)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    contrast, brightness = rng.uniform(0.6, 1.4, (n, 1, 1, 1)), rng.uniform(0.7, 1.3, (n, 1, 1, 1))
    x = (x - mean) * contrast + mean * brightness
    x = x + rng.normal(0, rng.uniform(0, 0.04), x.shape)
    return np.clip(x, 0, 1).astype(np.float32)


def train(
    crops: npt.NDArray[np.uint8], y: Array, minutes: float, seed: int, out: Path, threads: int
) -> tuple[Any, dict[str, Any]]:
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rng = np.random.default_rng(seed)
    net = network()
    optimiser = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    checkpoint = out / "last.pt"
    spent = 0.0
    if checkpoint.exists():
        state = torch.load(checkpoint, weights_only=True)
        net.load_state_dict(state["net"])
        optimiser.load_state_dict(state["optimiser"])
        spent = state["seconds"]
        print(f"resumed at {spent:.0f} s", file=sys.stderr)
    # The two kinds weigh alike: look-alikes are one detection in five.
    weight = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean())).astype(np.float32)
    loss_fn = nn.BCEWithLogitsLoss(reduction="none")
    budget, start, saved, step = minutes * 60, time.perf_counter() - spent, time.perf_counter(), 0
    net.train()
    while (elapsed := time.perf_counter() - start) < budget:
        for group in optimiser.param_groups:
            group["lr"] = cosine(2e-3, elapsed / budget)
        idx = rng.integers(0, len(crops), 128)
        batch = torch.from_numpy(augment(network_batch(crops[idx]), rng))
        losses = loss_fn(net(batch)[:, 0], torch.from_numpy(y[idx]))
        loss = (losses * torch.from_numpy(weight[idx])).mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        step += 1
        if step % 200 == 0:
            message = f"step {step}, loss {float(loss):.4f}, {elapsed:.0f}/{budget:.0f} s"
            print(message, file=sys.stderr, flush=True)
        if time.perf_counter() - saved > 60:
            _save(checkpoint, net, optimiser, float(elapsed))
            saved = time.perf_counter()
    _save(checkpoint, net, optimiser, float(budget))
    return net.eval(), {"steps": step, "minutes": minutes}


def _save(checkpoint: Path, net: Any, optimiser: Any, seconds: float) -> None:
    import torch

    state = {"net": net.state_dict(), "optimiser": optimiser.state_dict(), "seconds": seconds}
    torch.save(state, checkpoint)


def logits_of(net: Any, crops: npt.NDArray[np.uint8]) -> Array:
    import torch

    out = []
    with torch.no_grad():
        for i in range(0, len(crops), 512):
            out.append(net(torch.from_numpy(network_batch(crops[i : i + 512])))[:, 0].numpy())
    return np.concatenate(out) if out else np.zeros(0, np.float32)


def export(net: Any, path: Path, trained_on: dict[str, Any]) -> None:
    import onnx

    from training.train_classifier import export_onnx

    export_onnx(net, path, (1, 3, CROP_H, CROP_W), "logits")
    model = onnx.load(str(path))
    entry = model.metadata_props.add()
    entry.key, entry.value = "trained_on", json.dumps(trained_on)
    onnx.save(model, str(path))


def _counts(y: Array) -> dict[str, int]:
    return {"tiles": int((y == TILE).sum()), "not_tiles": int((y == NOT_TILE).sum())}


def _separation(logits: Array, y: Array) -> dict[str, float]:
    """Of the look-alikes, the share the network ranks above the tiles' lowest 0.1, 0.5 and
    2 %: how many would pass a cut that keeps that many tiles, on this network alone."""
    tiles, others = logits[y == TILE], logits[y == NOT_TILE]
    if not len(tiles) or not len(others):
        return {}
    return {
        f"not_tiles_above_tiles_{q}": float((others >= np.quantile(tiles, q / 100)).mean())
        for q in (0.1, 0.5, 2)
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("data", nargs="+", type=Path, help=".npz files of training.tileness_data")
    p.add_argument("--minutes", type=float, default=20.0, help="wall-clock training budget")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2, help="torch's threads")
    p.add_argument("--folds", type=int, default=3, help="photos drawn into this many folds")
    p.add_argument("--fold", type=int, default=-1, help="the fold held back (-1: none)")
    p.add_argument("--out", type=Path, default=Path("runs/tileness"), help="checkpoint folder")
    p.add_argument("--export", type=Path, help="the ONNX file written")
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    crops, y, confidence, photos = load(args.data)
    folds = np.random.default_rng(args.seed).integers(0, args.folds, int(photos.max()) + 1)
    held = folds[photos] == args.fold
    net, run = train(crops[~held], y[~held], args.minutes, args.seed, args.out, args.threads)
    report = {**run, "data": [path.name for path in args.data], "trained_on": _counts(y[~held])}
    if held.any():
        logits = logits_of(net, crops[held])
        np.savez(args.out / "held.npz", rows=np.flatnonzero(held), logits=logits)
        sure = confidence[held] >= DEFAULT_THRESHOLD
        report["held_back"] = {**_counts(y[held]), **_separation(logits[sure], y[held][sure])}
    (args.out / "report.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=1))
    if args.export:
        export(net, args.export, {"data": report["data"], "trained_on": report["trained_on"]})
    return 0
    tiles = (y[held] == 1) & (confidence[held] >= DEFAULT_THRESHOLD)
    threshold = float(np.quantile(logits[tiles], 1 - args.keep))
    kept = logits >= threshold
    report = {
        **run,
        "data": [path.name for path in args.data],
        "train": {"tiles": int(y[~held].sum()), "not_tiles": int((y[~held] == 0).sum())},
        "held_back": {"tiles": int(tiles.sum()), "not_tiles": int((y[held] == 0).sum())},
        "threshold": threshold,
        "tiles_kept": float(kept[tiles].mean()),
        "not_tiles_kept": float(kept[y[held] == 0].mean()),
        "not_tiles_kept_sure": float(
            kept[(y[held] == 0) & (confidence[held] >= DEFAULT_THRESHOLD)].mean()
        ),
    }
    (args.out / "report.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=1))
    if args.export:
        export(
            net,
            args.export,
            threshold,
            {k: report[k] for k in ("data", "threshold", "tiles_kept", "not_tiles_kept")},
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
