"""Training checkpoints rebuilt from the shipped ONNX graphs.

A training run's checkpoints live in the git-ignored `runs/`, which a new machine does not
have; the shipped `vision/weights/*.onnx` are all that survive. The exporter folded every batch
norm into the convolution before it (W' = W * g / s, b' = beta + (b - m) * g / s), so
the graph holds W' and b' only. This module puts them back into the training nets: the
conv takes W', and its batch norm gets running statistics (m, s^2) measured on real inputs
with g = s and beta = m + b'. In eval mode that is exactly the graph's function whatever
the statistics; with statistics measured on training-like inputs, training mode (batch
statistics) starts close to it too, so a run can resume from the shipped weights.

    python -m training.recover classifier vision/weights/classifier.onnx --out runs/recovered
    python -m training.recover detector vision/weights/detector.onnx --out runs/recovered
    python -m training.recover flower_reader vision/weights/flower_reader.onnx \
        --out runs/recovered_fr

writes one `last.pt` per net (`member0/last.pt`, `member1/last.pt` for the classifier
pair and the reader pair; `detector/last.pt`) in the checkpoint format the training entry
points resume.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn

from training.classifier_net import TileClassifier
from training.detector_net import TileDetector


def conv_weights(model: onnx.ModelProto) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """(weight, bias) of each distinct Conv node's initializers, in graph order."""
    values = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    alias: dict[str, str] = {}  # the exporter names a weight used twice through Identity
    for node in model.graph.node:
        if node.op_type == "Constant":
            values[node.output[0]] = numpy_helper.to_array(node.attribute[0].t)
        elif node.op_type == "Identity":
            alias[node.output[0]] = alias.get(node.input[0], node.input[0])
    seen: set[str] = set()
    out: list[tuple[np.ndarray, np.ndarray | None]] = []
    for node in model.graph.node:
        weight = alias.get(node.input[1], node.input[1]) if node.op_type == "Conv" else ""
        if not weight or weight in seen:
            continue
        seen.add(weight)
        bias = values[alias.get(node.input[2], node.input[2])] if len(node.input) > 2 else None
        out.append((values[weight], bias))
    return out


def initializer(model: onnx.ModelProto, name: str) -> np.ndarray:
    for t in model.graph.initializer:
        if t.name == name:
            return numpy_helper.to_array(t)
    raise KeyError(f"the graph has no initializer {name}")


def convs_in_call_order(net: nn.Module, probe: torch.Tensor) -> list[nn.Conv2d]:
    """The net's Conv2d modules in the order a forward pass first calls them (the order the
    exporter traced them in)."""
    order: list[nn.Conv2d] = []
    hooks = [
        m.register_forward_hook(lambda mod, _i, _o: order.append(mod) if mod not in order else None)
        for m in net.modules()
        if isinstance(m, nn.Conv2d)
    ]
    with torch.no_grad():
        net.eval()(probe)
    for h in hooks:
        h.remove()
    return order


def batch_norm_after(net: nn.Module) -> dict[nn.Conv2d, nn.BatchNorm2d]:
    """Each bias-free conv's batch norm: the BatchNorm2d registered right after it."""
    mods = list(net.modules())
    pairs: dict[nn.Conv2d, nn.BatchNorm2d] = {}
    for a, b in itertools.pairwise(mods):
        if isinstance(a, nn.Conv2d) and a.bias is None and isinstance(b, nn.BatchNorm2d):
            pairs[a] = b
    return pairs


def load_folded(
    net: nn.Module,
    folded: list[tuple[np.ndarray, np.ndarray | None]],
    probe: torch.Tensor,
    calibration: Iterable[torch.Tensor] = (),
) -> None:
    """Put folded (W', b') into `net`, unfolding each batch norm with statistics measured on
    the `calibration` batches (none: mean 0, variance 1)."""
    convs = convs_in_call_order(net, probe)
    if len(convs) != len(folded):
        raise ValueError(f"the graph has {len(folded)} convolutions, the net {len(convs)}")
    norms = batch_norm_after(net)
    with torch.no_grad():
        for conv, (w, b) in zip(convs, folded, strict=True):
            if tuple(conv.weight.shape) != w.shape:
                raise ValueError(f"shape {w.shape} where the net has {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(np.array(w)))
            if conv in norms:
                bn = norms[conv]
                bn.running_mean.zero_()
                bn.running_var.fill_(1.0 - bn.eps)
                bn.weight.fill_(1.0)
                bias = np.zeros(w.shape[0], np.float32) if b is None else np.array(b)
                bn.bias.copy_(torch.from_numpy(bias))
            elif conv.bias is not None and b is not None:
                conv.bias.copy_(torch.from_numpy(np.array(b)))
    _measure_statistics(net, norms, calibration)


def _measure_statistics(
    net: nn.Module, norms: dict[nn.Conv2d, nn.BatchNorm2d], batches: Iterable[torch.Tensor]
) -> None:
    """Give each batch norm the mean and variance of its conv's output over `batches`, keeping
    the eval-mode function: gamma = s, beta = m + b'."""
    sums: dict[nn.Conv2d, list[torch.Tensor]] = {c: [] for c in norms}
    hooks = [
        c.register_forward_hook(
            lambda mod, _i, o: sums[mod].append(
                torch.stack([o.mean(dim=(0, 2, 3)), (o * o).mean(dim=(0, 2, 3))])
            )
        )
        for c in norms
    ]
    net.eval()
    with torch.no_grad():
        for x in batches:
            net(x)
    for h in hooks:
        h.remove()
    with torch.no_grad():
        for conv, bn in norms.items():
            if not sums[conv]:
                continue
            mean, square = torch.stack(sums[conv]).mean(dim=0)
            var = (square - mean * mean).clamp_min(1e-4)
            # the conv feeds this norm, whose statistics were the identity while measuring
            folded_bias = bn.bias.clone()
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.bias.copy_(mean + folded_bias)


def classifier_members(
    graph_path: Path,
    calibration: Callable[[], Iterable[torch.Tensor]] = lambda: (),
    num_classes: int = 43,
) -> list[TileClassifier]:
    """The trained runs inside a shipped classifier graph (one, or an Ensemble's members);
    the flower reader's graph is built alike with an eight-way head."""
    graph = onnx.load(str(graph_path))
    folded = conv_weights(graph)
    probe = torch.zeros(1, 3, 80, 64)
    per_net = len(convs_in_call_order(TileClassifier(num_classes=num_classes), probe))
    if len(folded) % per_net:
        raise ValueError(f"{len(folded)} convolutions is not a whole number of nets")
    nets = []
    for i in range(len(folded) // per_net):
        net = TileClassifier(num_classes=num_classes)
        load_folded(net, folded[i * per_net : (i + 1) * per_net], probe, calibration())
        prefix = f"members.{i}.net.head.3" if len(folded) > per_net else "net.head.3"
        with torch.no_grad():
            net.head[3].weight.copy_(torch.from_numpy(initializer(graph, prefix + ".weight")))
            net.head[3].bias.copy_(torch.from_numpy(initializer(graph, prefix + ".bias")))
        nets.append(net)
    return nets


def detector(
    graph_path: Path, calibration: Callable[[], Iterable[torch.Tensor]] = lambda: ()
) -> TileDetector:
    net = TileDetector()
    folded = conv_weights(onnx.load(str(graph_path)))
    load_folded(net, folded, torch.zeros(1, 3, 64, 64), calibration())
    return net


def _random_photos(n: int, h: int, w: int, seed: int) -> list[torch.Tensor]:
    """Smooth random images: enough to give the norms plausible statistics when no training
    data is at hand (the eval-mode function does not depend on them)."""
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        x = torch.rand(8, 3, h // 8, w // 8, generator=g)
        out.append(nn.functional.interpolate(x, size=(h, w), mode="bilinear"))
    return out


def _training_crops(seed: int) -> list[torch.Tensor]:
    """Augmented crops of the permissive training sources, as a classifier run sees them."""
    from training.train_classifier import build_pool, fixed_set

    pool = build_pool(["procedural", "unicode", "fluffystuff"], 6, seed)
    x, _ = fixed_set(pool, 8, seed, 0.4)
    return list(x.split(96))


def _flower_crops(seed: int) -> list[torch.Tensor]:
    """Augmented flower faces at the reader's size, as a reader run sees them."""
    from training.train_flower_reader import build_pool, fixed_set

    pool = build_pool(40, 8, seed)
    x, _ = fixed_set(pool, 48, seed, 0.5)
    return list(x.split(96))


def _photo_crops(folder: Path, seed: int) -> list[torch.Tensor]:
    """384 px crops of the synthetic photos in `folder`, as a detector run sees them."""
    import cv2

    rng = np.random.default_rng(seed)
    paths = sorted(folder.glob("**/*.jpg"))
    picks = rng.choice(len(paths), size=min(32, len(paths)), replace=False)
    crops = []
    for i in picks:
        image = cv2.cvtColor(cv2.imread(str(paths[i])), cv2.COLOR_BGR2RGB)
        h, w = image.shape[:2]
        y, x = rng.integers(max(1, h - 384)), rng.integers(max(1, w - 384))
        crop = np.zeros((384, 384, 3), np.uint8)
        part = image[y : y + 384, x : x + 384]
        crop[: part.shape[0], : part.shape[1]] = part
        crops.append(torch.from_numpy(crop).permute(2, 0, 1).float() / 255.0)
    return list(torch.stack(crops).split(8))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("kind", choices=["classifier", "detector", "flower_reader"])
    p.add_argument("graph", type=Path)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--photos", type=Path, help="detector: synthetic photos for the statistics")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.kind in ("classifier", "flower_reader"):  # the same net, its own head and crops
        reader = args.kind == "flower_reader"
        batches = _flower_crops(args.seed) if reader else _training_crops(args.seed)
        members = classifier_members(args.graph, lambda: batches, num_classes=8 if reader else 43)
        nets: list[tuple[str, nn.Module]] = [(f"member{i}", n) for i, n in enumerate(members)]
        extra = {"width": 32}
    else:
        photos = args.photos
        nets = [
            (
                "detector",
                detector(
                    args.graph,
                    lambda: (
                        _photo_crops(photos, args.seed)
                        if photos
                        else _random_photos(4, 384, 384, args.seed)
                    ),
                ),
            )
        ]
        extra = {}
    for name, net in nets:
        (args.out / name).mkdir(parents=True, exist_ok=True)
        torch.save({"model": net.state_dict(), "step": 0, **extra}, args.out / name / "last.pt")
        print(f"{args.out / name / 'last.pt'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
