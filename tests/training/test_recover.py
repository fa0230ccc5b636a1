"""Training nets rebuilt from the shipped graphs answer what the graphs answer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")

from training.recover import _random_photos, classifier_members, detector  # noqa: E402
from vision.registry import WEIGHTS_DIR  # noqa: E402

MODELS = WEIGHTS_DIR


def _with_outputs(path: Path, op: str) -> tuple[ort.InferenceSession, list[str]]:
    """A session on the graph that also answers every `op` node's output."""
    model = onnx.load(str(path))
    names = [n.output[0] for n in model.graph.node if n.op_type == op]
    for name in names:
        model.graph.output.append(onnx.helper.make_tensor_value_info(name, 1, None))
    return ort.InferenceSession(model.SerializeToString()), names


@pytest.mark.parametrize(
    ("graph_name", "num_classes", "size"),
    [("classifier.onnx", 43, (80, 64)), ("flower_reader.onnx", 8, (128, 96))],
)
def test_the_pairs_runs_give_the_graphs_logits_both_ways(
    graph_name: str, num_classes: int, size: tuple[int, int]
) -> None:
    """The classifier's pair and the flower reader's pair: each run's logits on the crop and
    on its half turn, as the graph computes them."""
    members = classifier_members(MODELS / graph_name, num_classes=num_classes)
    assert len(members) == 2
    session, gemms = _with_outputs(MODELS / graph_name, "Gemm")
    x = np.random.default_rng(0).random((4, 3, *size), dtype=np.float32)
    graph = session.run(gemms, {"crops": x})
    t = torch.from_numpy(x)
    with torch.no_grad():
        ours = [v for net in members for v in (net.eval()(t), net(torch.flip(t, dims=(2, 3))))]
    assert len(graph) == len(ours)
    for g, o in zip(graph, ours, strict=True):
        assert g.shape == (4, num_classes)
        np.testing.assert_allclose(g, o.numpy(), atol=1e-3)


def test_the_detector_gives_the_graphs_heatmaps_and_regressions() -> None:
    net = detector(MODELS / "detector.onnx").eval()
    session = ort.InferenceSession(str(MODELS / "detector.onnx"))
    x = np.random.default_rng(1).random((1, 3, 128, 160), dtype=np.float32)
    heat, reg = session.run(None, {"image": x})
    with torch.no_grad():
        our_heat, our_reg = net(torch.from_numpy(x))
    np.testing.assert_allclose(heat, our_heat.numpy(), atol=1e-4)
    np.testing.assert_allclose(reg, our_reg.numpy(), atol=1e-3)


def test_measured_statistics_keep_training_mode_near_the_graph() -> None:
    """With the norms' statistics measured on the inputs, batch statistics agree with them:
    a run resuming from the rebuilt weights starts where the graph is."""
    batches = _random_photos(2, 80, 64, seed=3)
    measured = classifier_members(MODELS / "classifier.onnx", lambda: batches)[0]
    unmeasured = classifier_members(MODELS / "classifier.onnx")[0]
    x = batches[0]
    with torch.no_grad():  # eval first: a training-mode pass moves the running statistics
        want = measured.eval()(x)
        torch.testing.assert_close(unmeasured.eval()(x), want, atol=1e-3, rtol=1e-3)
        near = (measured.train()(x) - want).abs().max().item()
        far = (unmeasured.train()(x) - want).abs().max().item()
    assert near < 0.5 * far
