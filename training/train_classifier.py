"""Train the tile classifier from scratch on augmented synthetic faces; export ONNX.

    python -m training.train_classifier --minutes 35 --out runs/classifier \
        --camerash ../shared/data/camerash-crops

Faces come from `datasets.faces` sources (all but the held-out one) plus
`datasets.faces.flower_art`, each posed and degraded by `training.tile_augment`. Training
runs for a wall-clock budget with a cosine learning rate over that budget, checkpoints every
few minutes, and ends with temperature scaling on a held-out synthetic split and the ONNX
export. The real crops are only ever evaluated, never trained on.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import onnx
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, IterableDataset
from tqdm import tqdm

from datasets.faces.camerash import read_camerash
from datasets.faces.flower_art import flower_face
from scoring.tiles import BACK, CLASSES, FLOWERS, PLAYING
from training.classifier_net import Calibrated, Ensemble, TileClassifier, both_ways
from training.crop_pack import load_crops
from training.embedding_output import add_embedding
from training.random_conv import random_convolution
from training.scene_crops import scene_crops
from training.schedule import warmup_cosine
from training.tile_augment import augment, photometric
from vision.classify import INPUT_H, INPUT_W
from vision.registry import shipped

OPSET = 17
CLASS_INDEX = {code: i for i, code in enumerate(CLASSES)}
Pool = dict[str, list[np.ndarray]]


def back_face(rng: np.random.Generator) -> np.ndarray:
    """A tile back: one saturated or dark colour, sometimes a faint pattern."""
    colour = np.array(
        [(40, 140, 60), (30, 90, 170), (220, 190, 60), (230, 120, 40), (180, 40, 40), (30, 30, 30)][
            rng.integers(6)
        ],
        np.float32,
    ) + rng.normal(0, 20, 3)
    face = np.empty((160, 120, 3), np.float32)
    face[:] = colour
    if rng.random() < 0.4:
        yy, xx = np.mgrid[0:160, 0:120]
        period = rng.uniform(6, 20)
        face += (rng.uniform(5, 25) * np.sin((xx + yy * rng.uniform(-1, 1)) / period))[..., None]
    return np.clip(face, 0, 255).astype(np.uint8)


def build_pool(sources: list[str], per_code: int, seed: int, fixed_per_code: int = 3) -> Pool:
    """Clean faces per code from the named `datasets.faces` sources: `per_code` procedural
    designs, `fixed_per_code` draws of each fixed-art source (its variants, and its weight
    among the procedural designs)."""
    rng = np.random.default_rng(seed)
    pool: Pool = {code: [] for code in CLASSES}
    # Procedural faces first: a run that renews designs as it goes swaps only these slots.
    for name in sorted(sources, key=lambda name: name != "procedural"):
        from datasets.faces import get_source  # only when a source is asked for

        source = get_source(name)
        # Random designs (procedural) are sampled many times; fixed art a few (variants).
        n = per_code if name == "procedural" else fixed_per_code
        for code in tqdm(sorted(source.codes), desc=f"faces {name}", leave=False):
            for _ in range(n):
                face = source.face(code, rng)
                pool[code].append(cv2.resize(face, (120, 160), interpolation=cv2.INTER_AREA))
    return pool


def draw_face(code: str, pool: Pool, rng: np.random.Generator, flower_share: float) -> np.ndarray:
    if code in FLOWERS and (not pool[code] or rng.random() < flower_share):
        return flower_face(code, rng)
    if code == BACK and (not pool[code] or rng.random() < 0.5):
        return back_face(rng)
    faces = pool[code]
    return faces[rng.integers(len(faces))]


def to_tensor(crops: list[np.ndarray]) -> torch.Tensor:
    """RGB uint8 HxWx3 crops -> float NCHW in [0, 1] (the ONNX input)."""
    batch = np.stack(crops).astype(np.float32) / 255.0
    return torch.from_numpy(batch).permute(0, 3, 1, 2).contiguous()


class AugmentedFaces(IterableDataset[tuple[torch.Tensor, torch.Tensor]]):
    """Endless class-balanced batches of augmented crops."""

    def __init__(
        self,
        pool: Pool,
        batch: int,
        seed: int,
        flower_share: float,
        scenes: tuple[np.ndarray, np.ndarray] | None = None,
        scene_share: float = 0.0,
        oversample: dict[str, float] | None = None,
        fresh_share: float = 0.0,
        fresh_slots: int = 0,
        warp_share: float = 0.0,
        restyle_share: float = 0.0,
    ) -> None:
        self.pool, self.batch, self.seed, self.flower_share = pool, batch, seed, flower_share
        self.fresh_share, self.fresh_slots = fresh_share, fresh_slots
        self.warp_share, self.restyle_share = warp_share, restyle_share
        self.codes = [c for c in CLASSES if self.pool[c] or c in FLOWERS or c == BACK]
        weights = np.array([(oversample or {}).get(c, 1.0) for c in self.codes])
        self.weights = weights / weights.sum()
        self.scenes, self.scene_share = scenes, scene_share if scenes is not None else 0.0

    def __iter__(self) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
        info = torch.utils.data.get_worker_info()
        cv2.setNumThreads(1)  # the worker shares two cores with training: no thread pools
        rng = np.random.default_rng(self.seed + (info.id if info else 0) * 7919)
        while True:
            n_scene = int(rng.binomial(self.batch, self.scene_share))
            picks = rng.choice(len(self.codes), size=self.batch - n_scene, p=self.weights)
            codes = [self.codes[i] for i in picks]
            if self.fresh_share and self.fresh_slots:
                self._refresh(codes, rng)
            crops = [
                augment(
                    draw_face(c, self.pool, rng, self.flower_share),
                    rng,
                    self.warp_share,
                    restyle_share=self.restyle_share,
                )
                for c in codes
            ]
            labels = [CLASS_INDEX[c] for c in codes]
            if n_scene and self.scenes is not None:
                for i in rng.integers(len(self.scenes[1]), size=n_scene):
                    crop = self.scenes[0][i]
                    if rng.random() < 0.5:
                        crop = crop[::-1, ::-1]  # the detector's corners may be half a turn round
                    crops.append(photometric(np.ascontiguousarray(crop), rng))
                    labels.append(int(self.scenes[1][i]))
            yield to_tensor(crops), torch.tensor(labels)

    def _refresh(self, codes: list[str], rng: np.random.Generator) -> None:
        """Put new procedural designs in the pool: one for about every 1 / fresh_share
        faces drawn, each in a random one of the code's first `fresh_slots` (procedural)
        places.

        A pool of a hundred-odd designs per face, kept for a whole run, is far fewer sets
        than exist; this way new ones keep coming (each worker turns over its own copy),
        for a few milliseconds a face.
        """
        from datasets.faces import get_source

        source = get_source("procedural")
        for code in codes:
            slots = min(self.fresh_slots, len(self.pool[code]))
            if slots and code in source.codes and rng.random() < self.fresh_share:
                face = source.face(code, rng)
                self.pool[code][int(rng.integers(slots))] = cv2.resize(
                    face, (120, 160), interpolation=cv2.INTER_AREA
                )


def fixed_set(
    pool: Pool, n_per_class: int, seed: int, flower_share: float
) -> tuple[torch.Tensor, torch.Tensor]:
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    for code in CLASSES:
        if not pool[code] and code not in FLOWERS and code != BACK:
            continue
        for _ in range(n_per_class):
            crops.append(augment(draw_face(code, pool, rng, flower_share), rng))
            labels.append(CLASS_INDEX[code])
    return to_tensor(crops), torch.tensor(labels)


def load_camerash(root: str | None) -> tuple[torch.Tensor, torch.Tensor] | None:
    if not root or not Path(root).is_dir():
        return None
    crops, labels = [], []
    for path, code in read_camerash(root):
        image = cv2.imread(str(path))
        rgb = cv2.cvtColor(
            cv2.resize(image, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2RGB
        )
        crops.append(rgb)
        labels.append(CLASS_INDEX[code])
    return to_tensor(crops), torch.tensor(labels)


def _in_batches(
    answer: Callable[[torch.Tensor], torch.Tensor], x: torch.Tensor, device: str = "cpu"
) -> torch.Tensor:
    """`answer` over `x` 256 crops at a time (bounded memory) on `device`, concatenated."""
    return torch.cat([answer(x[i : i + 256].to(device)).cpu() for i in range(0, len(x), 256)])


def _device_of(net: torch.nn.Module) -> str:
    return str(next(net.parameters()).device)


@torch.no_grad()
def logits_of(net: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
    net.eval()
    # As the exported graph answers: the crop and its half turn, logits averaged.
    out = _in_batches(lambda batch: both_ways(net, batch), x, _device_of(net))
    net.train()
    return out


def group_report(pred: torch.Tensor, labels: torch.Tensor) -> dict[str, float]:
    """Top-1 overall, on the 34 playing tiles, on flowers, and flowers named as some flower."""
    flower_ids = torch.tensor([CLASS_INDEX[c] for c in FLOWERS])
    playing_ids = torch.tensor([CLASS_INDEX[c] for c in PLAYING])
    is_flower = torch.isin(labels, flower_ids)
    is_playing = torch.isin(labels, playing_ids)
    right = pred == labels
    return {
        "top1": right.float().mean().item(),
        "top1_34": right[is_playing].float().mean().item() if is_playing.any() else math.nan,
        "top1_flowers": right[is_flower].float().mean().item() if is_flower.any() else math.nan,
        "flower_as_flower": torch.isin(pred[is_flower], flower_ids).float().mean().item()
        if is_flower.any()
        else math.nan,
    }


def expected_calibration_error(probs: torch.Tensor, labels: torch.Tensor, bins: int = 15) -> float:
    confidence, pred = probs.max(dim=1)
    right = (pred == labels).float()
    edges = torch.linspace(0, 1, bins + 1)
    ece = 0.0
    for lo, hi in itertools.pairwise(edges):
        inside = (confidence > lo) & (confidence <= hi)
        if inside.any():
            ece += inside.float().mean().item() * abs(
                right[inside].mean().item() - confidence[inside].mean().item()
            )
    return ece


def fit_temperature(logits: torch.Tensor, labels: torch.Tensor) -> float:
    """One scalar T minimizing the NLL of logits / T (Guo et al. 2017)."""
    log_t = torch.zeros(1, requires_grad=True)
    optimizer = torch.optim.LBFGS([log_t], lr=0.1, max_iter=200)

    def closure() -> torch.Tensor:
        optimizer.zero_grad()
        loss = F.cross_entropy(logits / log_t.exp(), labels)
        loss.backward()
        return loss

    optimizer.step(closure)
    return float(log_t.exp().item())


def calibrate(
    nets: list[TileClassifier], x: torch.Tensor, labels: torch.Tensor
) -> tuple[torch.nn.Module, list[float], list[float]]:
    """The graph that ships for trained nets, with its temperatures and each net's ECE before
    calibration: one net over its own temperature; several each over its own, their
    probabilities averaged, the mean over one more (fitted on the mean's log)."""
    members, temperatures, ece_before = [], [], []
    for net in nets:
        logits = logits_of(net, x)
        temperatures.append(fit_temperature(logits, labels))
        ece_before.append(expected_calibration_error(logits.softmax(1), labels))
        members.append(Calibrated(net, temperatures[-1]))
    if len(members) == 1:
        return members[0], temperatures, ece_before
    # In eval mode: in training mode the pass would move the nets' batch-norm statistics.
    joined = Ensemble(members).eval()
    with torch.no_grad():
        mean_log_probs = _in_batches(joined.mean_log_probs, x)
    temperatures.append(fit_temperature(mean_log_probs, labels))
    return Ensemble(members, temperatures[-1]), temperatures, ece_before


@torch.no_grad()
def probs_of(model: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
    """What the exported graph answers for crops `x`: probabilities."""
    model.eval()
    return _in_batches(model, x)


def export_onnx(
    model: torch.nn.Module,
    path: Path,
    shape: tuple[int, ...] = (1, 3, INPUT_H, INPUT_W),
    output: str = "probs",
) -> None:
    """A graph from a batch of `crops` of `shape` (any batch size) to one `output` per crop:
    the classifier's, and the sideways look's (`training.fit_sideways`)."""
    model = model.eval()
    dummy = torch.zeros(*shape)
    torch.onnx.export(
        model,
        (dummy,),
        str(path),
        input_names=["crops"],
        output_names=[output],
        dynamic_axes={"crops": {0: "n"}, output: {0: "n"}},
        opset_version=OPSET,
        dynamo=False,
    )
    if output == "probs":  # a classifier: its embedding too, for taught tile sets
        onnx.save(add_embedding(onnx.load(str(path))), str(path))


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=35.0, help="wall-clock training budget")
    p.add_argument("--out", default="runs/classifier", help="checkpoints, log, metrics")
    p.add_argument(
        "--export", default=str(shipped("classifier").path), help="ONNX file written at the end"
    )
    p.add_argument("--sources", nargs="*", default=["procedural", "unicode", "fluffystuff"])
    p.add_argument("--holdout", default="kde", help="source kept out of training, for evaluation")
    p.add_argument("--camerash", default=None, help="real crops folder (evaluation only)")
    p.add_argument("--per-code", type=int, default=120, help="procedural designs per code")
    p.add_argument(
        "--fresh-share",
        type=float,
        default=0.0,
        help="share of drawn faces for which a new procedural design replaces one in the pool",
    )
    p.add_argument(
        "--fixed-per-code",
        type=int,
        default=3,
        help="faces per code drawn from each fixed-art source into the pool (its weight)",
    )
    p.add_argument(
        "--warp-share",
        type=float,
        default=0.0,
        help="share of faces whose art is squashed and bent first (tile_augment.art_warp)",
    )
    p.add_argument(
        "--restyle-share",
        type=float,
        default=0.0,
        help="share of faces whose ink is printed in another style (tile_augment.ink_restyle)",
    )
    p.add_argument(
        "--randconv-share",
        type=float,
        default=0.0,
        help="share of each batch passed through a random convolution (training.random_conv)",
    )
    p.add_argument("--flower-share", type=float, default=0.35, help="flower faces from flower_art")
    p.add_argument(
        "--scenes", nargs="*", default=[], help="mjlens synth folders to crop faces from"
    )
    p.add_argument("--scene-share", type=float, default=0.3, help="share of scene crops per batch")
    p.add_argument(
        "--detected-crops",
        nargs="*",
        default=[],
        help=".npz files of training.detected_crops, mixed into the scene crops",
    )
    p.add_argument(
        "--oversample",
        nargs="*",
        default=[],
        metavar="CODE=W",
        help="draw these codes W times as often (the faces most often confused)",
    )
    add_run_args(p, batch=96, lr=3e-3)
    p.add_argument("--resume", default=None, help="checkpoint to start from")
    p.add_argument("--export-only", action="store_true", help="skip training: calibrate + export")
    p.add_argument(
        "--ensemble",
        nargs="*",
        default=[],
        help="with --export-only: checkpoints whose calibrated readings are averaged with it",
    )
    return p.parse_args(argv)


def add_run_args(p: argparse.ArgumentParser, *, batch: int, lr: float) -> None:
    """The options of a run of `fit` that the classifier and the flower reader share: batch,
    learning rate, net width, seed, threads, device, data workers, evaluation period."""
    p.add_argument("--batch", type=int, default=batch)
    p.add_argument("--lr", type=float, default=lr)
    p.add_argument("--width", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--device", default="cpu", help="where the net trains: cpu, cuda")
    p.add_argument("--workers", type=int, default=1, help="processes drawing augmented batches")
    p.add_argument("--eval-every", type=float, default=5.0, help="minutes between evaluations")


def evaluate(
    net: torch.nn.Module, sets: dict[str, tuple[torch.Tensor, torch.Tensor]]
) -> dict[str, dict[str, float]]:
    return {name: group_report(logits_of(net, x).argmax(1), y) for name, (x, y) in sets.items()}


def _load(path: str, width: int) -> TileClassifier:
    net = TileClassifier(width=width)
    net.load_state_dict(torch.load(path, map_location="cpu")["model"])
    return net


def train(
    args: argparse.Namespace,
    net: TileClassifier,
    pool: Pool,
    sets: dict[str, tuple[torch.Tensor, torch.Tensor]],
    log: Path,
    out: Path,
) -> None:
    scenes = scene_crops(args.scenes, 1, args.seed) if args.scenes else None
    for path in args.detected_crops:  # cut along the detector's corners: its real errors
        crops, labels = load_crops(path)
        scenes = (
            (crops, labels)
            if scenes is None
            else (np.concatenate([scenes[0], crops]), np.concatenate([scenes[1], labels]))
        )
    if scenes is not None:
        with open(log, "a") as f:
            f.write(json.dumps({"scene_crops": len(scenes[1])}) + "\n")
    oversample = {code: float(w) for code, w in (o.split("=") for o in args.oversample)}
    data = AugmentedFaces(
        pool,
        args.batch,
        args.seed,
        args.flower_share,
        scenes,
        args.scene_share,
        oversample,
        args.fresh_share,
        args.per_code if "procedural" in args.sources else 0,
        args.warp_share,
        args.restyle_share,
    )
    loader = DataLoader(
        data,
        batch_size=None,
        num_workers=args.workers,
        prefetch_factor=4,
        persistent_workers=True,
        pin_memory=args.device != "cpu",
    )
    fit(net, loader, args, lambda trained: evaluate(trained, sets), log, out, "classifier")


def fit(
    net: torch.nn.Module,
    loader: Iterable[tuple[torch.Tensor, torch.Tensor]],
    args: argparse.Namespace,
    report: Callable[[torch.nn.Module], dict[str, Any]],
    log: Path,
    out: Path,
    desc: str,
) -> None:
    """Train `net` on `loader`'s (crops, labels) batches for `args.minutes` of wall clock on
    `args.device` (AdamW, `warmup_cosine` from `args.lr`, a share `args.randconv_share` of
    each batch through a random convolution, label smoothing 0.05): a log line every 50
    steps, `report(net)` every `args.eval_every` minutes, `out/last.pt` every 3 minutes and
    at the end, back on the CPU."""
    net.to(args.device)
    optimizer = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=5e-4)
    budget = args.minutes * 60
    start = last_ckpt = last_eval = time.time()
    step, seen = 0, 0
    styles = torch.Generator().manual_seed(args.seed)
    bar = tqdm(total=int(budget), unit="s", desc=desc)
    for x, y in loader:
        elapsed = time.time() - start
        if elapsed > budget:
            break
        lr = warmup_cosine(args.lr, elapsed / budget)
        for group in optimizer.param_groups:
            group["lr"] = lr
        x, y = x.to(args.device, non_blocking=True), y.to(args.device, non_blocking=True)
        x = random_convolution(x, args.randconv_share, styles)
        loss = F.cross_entropy(net(x), y, label_smoothing=0.05)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        step, seen = step + 1, seen + len(y)
        bar.update(int(elapsed) - bar.n)
        if step % 50 == 0:
            line = {
                "step": step,
                "seen": seen,
                "min": round(elapsed / 60, 2),
                "lr": round(lr, 5),
                "loss": round(loss.item(), 4),
                "img_s": round(seen / elapsed, 1),
            }
            with open(log, "a") as f:
                f.write(json.dumps(line) + "\n")
        if time.time() - last_ckpt > 180:
            save_checkpoint(net, step, args.width, out)
            last_ckpt = time.time()
        if time.time() - last_eval > args.eval_every * 60:
            lines = {"step": step, "min": round(elapsed / 60, 2), **report(net)}
            with open(log, "a") as f:
                f.write(json.dumps(lines) + "\n")
            last_eval = time.time()
    bar.close()
    net.cpu()  # calibration and export run on the CPU, as the graph will
    save_checkpoint(net, step, args.width, out)


def save_checkpoint(net: torch.nn.Module, step: int, width: int, out: Path) -> None:
    torch.save({"model": net.state_dict(), "step": step, "width": width}, out / "last.pt")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # No OpenCV thread pool may exist when the data worker forks: a forked pool deadlocks.
    cv2.setNumThreads(1)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = out / "log.jsonl"
    t0 = time.time()
    pool = build_pool(args.sources, args.per_code, args.seed, args.fixed_per_code)
    counts = {c: len(v) for c, v in pool.items()}
    with open(log, "a") as f:
        f.write(
            json.dumps({"args": vars(args), "pool": counts, "pool_s": round(time.time() - t0, 1)})
            + "\n"
        )
    sets: dict[str, tuple[torch.Tensor, torch.Tensor]] = {}
    try:
        holdout = build_pool([args.holdout], 0, args.seed + 1) if args.holdout else None
    except Exception as exc:  # the held-out art may be missing on this machine
        print(f"no held-out source {args.holdout!r}: {exc}")
        holdout = None
    if holdout is not None:
        sets["holdout"] = fixed_set(holdout, 20, args.seed + 2, flower_share=0.0)
    real = load_camerash(args.camerash)
    if real is not None:
        sets["camerash"] = real
    if args.ensemble and not args.export_only:
        raise SystemExit("--ensemble joins trained runs: use it with --export-only")
    net = _load(args.resume, args.width) if args.resume else TileClassifier(width=args.width)
    print(f"params: {sum(p.numel() for p in net.parameters()) / 1e6:.2f} M")
    if not args.export_only:
        train(args, net, pool, sets, log, out)
    # Temperature on a synthetic split of the training sources (fresh augmentations), for
    # each member when runs are joined; their mean is then measured as it ships.
    calib_x, calib_y = fixed_set(pool, 40, args.seed + 3, args.flower_share)
    nets = [net, *(_load(path, args.width) for path in args.ensemble)]
    shipped, temperatures, ece_before = calibrate(nets, calib_x, calib_y)
    probs = probs_of(shipped, calib_x)
    final = {
        "temperature": temperatures[0] if len(nets) == 1 else temperatures,
        "ece_before": ece_before[0] if len(nets) == 1 else ece_before,
        "ece_after": expected_calibration_error(probs, calib_y),
        "calibration_top1": (probs.argmax(1) == calib_y).float().mean().item(),
        "train_minutes": round((time.time() - t0) / 60, 1),
        **{name: group_report(probs_of(shipped, x).argmax(1), y) for name, (x, y) in sets.items()},
    }
    with open(log, "a") as f:
        f.write(json.dumps({"final": final}) + "\n")
    (out / "metrics.json").write_text(json.dumps(final, indent=2))
    export_onnx(shipped, Path(args.export))
    print(json.dumps(final, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
