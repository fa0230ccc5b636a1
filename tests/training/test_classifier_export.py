"""The shipped classifier graph: one run calibrated, or several runs' readings averaged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
ort = pytest.importorskip("onnxruntime")

from training.classifier_net import Calibrated, Ensemble, TileClassifier  # noqa: E402
from training.train_classifier import calibrate, export_onnx, probs_of  # noqa: E402


def _members() -> list[Calibrated]:
    torch.manual_seed(0)
    return [Calibrated(TileClassifier(), t) for t in (0.6, 0.7)]


def test_an_ensemble_answers_its_members_mean_probabilities() -> None:
    members = _members()
    x = torch.rand(5, 3, 80, 64)
    got = probs_of(Ensemble(members), x)
    want = (probs_of(members[0], x) + probs_of(members[1], x)) / 2
    torch.testing.assert_close(got, want)
    torch.testing.assert_close(got.sum(dim=1), torch.ones(5))


def test_an_ensembles_temperature_sharpens_the_mean_keeping_its_order() -> None:
    members = _members()
    x = torch.rand(5, 3, 80, 64)
    mean = probs_of(Ensemble(members), x)
    sharp = probs_of(Ensemble(members, temperature=0.5), x)
    assert torch.equal(sharp.argmax(dim=1), mean.argmax(dim=1))
    assert bool((sharp.max(dim=1).values > mean.max(dim=1).values).all())


def test_the_exported_ensemble_reads_as_in_torch(tmp_path: Path) -> None:
    model = Ensemble(_members(), temperature=0.8)
    path = tmp_path / "classifier.onnx"
    export_onnx(model, path)
    x = torch.rand(3, 3, 80, 64)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got, embedding = session.run(None, {"crops": x.numpy()})
    np.testing.assert_allclose(got, probs_of(model, x).numpy(), atol=1e-5)
    # The embedding a taught set compares: both runs' pooled features, the same for the crop
    # turned half round, as the probabilities are.
    (_, turned) = session.run(None, {"crops": x.flip(dims=(2, 3)).numpy()})
    assert embedding.shape == (3, 2 * 256)
    np.testing.assert_allclose(embedding, turned, atol=1e-5)


def test_joining_runs_leaves_their_weights_and_statistics_as_trained() -> None:
    """The first joined export fitted the mean's temperature with the nets in training mode:
    that pass moved their batch-norm statistics, and the shipped graph read differently from
    the runs it joined (held-out KDE crops 79.3 -> 79.0 %)."""
    torch.manual_seed(1)
    nets = [TileClassifier(), TileClassifier()]
    before = [{k: v.clone() for k, v in n.state_dict().items()} for n in nets]
    x, labels = torch.rand(12, 3, 80, 64), torch.randint(0, 43, (12,))
    shipped, temperatures, _ = calibrate(nets, x, labels)
    for net, state in zip(nets, before, strict=True):
        for key, value in net.state_dict().items():
            torch.testing.assert_close(value, state[key])
    assert len(temperatures) == 3
    members = [Calibrated(n, t) for n, t in zip(nets, temperatures, strict=False)]
    torch.testing.assert_close(
        probs_of(shipped, x), probs_of(Ensemble(members, temperatures[2]), x)
    )
