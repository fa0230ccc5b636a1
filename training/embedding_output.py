"""Give a classifier ONNX graph a second output, `embedding`: the face's features before the
last layer, which a taught tile set compares (`vision.tileset`).

The shipped classifier joins two trained runs; each reads the crop and the crop turned half
round and pools 256 features per reading. The embedding is, for each run, the mean of its two
readings' pooled features, the runs side by side: (n, 512). Averaging over the half turn
makes it the same for a face read upside down, as the probabilities are. No weight changes:
`probs` is bit for bit what it was.

    python -m training.embedding_output vision/weights/classifier.onnx \
        --out vision/weights/classifier.onnx
"""

from __future__ import annotations

import argparse
import re

import onnx
from onnx import TensorProto, helper

OUTPUT = "embedding"
# The pooled features of run K (a graph of one run names none), read as is or turned half
# round ("_1").
_POOLED = re.compile(r"^(?:/members\.(\d+))?/net/head/head\.1(_1)?/Flatten_output_0$")


def pooled_features(model: onnx.ModelProto) -> dict[int, list[str]]:
    """Run index -> the names of its pooled-feature tensors (both readings)."""
    runs: dict[int, list[str]] = {}
    for node in model.graph.node:
        for name in node.output:
            match = _POOLED.match(name)
            if match:
                runs.setdefault(int(match.group(1) or 0), []).append(name)
    return runs


def add_embedding(model: onnx.ModelProto) -> onnx.ModelProto:
    """`model` with the `embedding` output added (unchanged when it has one already)."""
    if any(o.name == OUTPUT for o in model.graph.output):
        return model
    runs = pooled_features(model)
    if not runs or any(len(names) != 2 for names in runs.values()):
        raise ValueError(f"expected two pooled readings per run, found {runs}")
    graph = model.graph
    half = helper.make_tensor("embedding_half", TensorProto.FLOAT, [], [0.5])
    graph.initializer.append(half)
    means = []
    for k, (first, turned) in sorted(runs.items()):
        total, mean = f"embedding_sum_{k}", f"embedding_mean_{k}"
        graph.node.append(helper.make_node("Add", [first, turned], [total]))
        graph.node.append(helper.make_node("Mul", [total, "embedding_half"], [mean]))
        means.append(mean)
    graph.node.append(helper.make_node("Concat", means, [OUTPUT], axis=1))
    graph.output.append(helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT, ["n", None]))
    onnx.checker.check_model(model)
    return model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    model = add_embedding(onnx.load(args.model))
    onnx.save(model, args.out)
    print(f"{args.out}: outputs {[o.name for o in model.graph.output]}")


if __name__ == "__main__":
    main()
