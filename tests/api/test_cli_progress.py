"""The command line's batches show progress on stderr only, and every error names its fix."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from api.cli import main
from api.progress import Progress, wanted

SAMPLE = Path(__file__).resolve().parents[2] / "api" / "static" / "sample.jpg"


def test_progress_writes_lines_to_a_log_and_ends_with_the_total() -> None:
    log = io.StringIO()  # not a terminal: whole lines, no carriage returns
    with Progress(3, "recognize", "photo", enabled=True, stream=log) as bar:
        for _ in range(3):
            bar.update()
    lines = log.getvalue().splitlines()
    assert lines[0].startswith("recognize  0/3 photos")
    assert lines[-1].startswith("recognize  3/3 photos") and "100%" in lines[-1]
    assert "\r" not in log.getvalue()


def test_progress_counts_failures() -> None:
    log = io.StringIO()
    with Progress(2, "classify", "crop", enabled=True, stream=log) as bar:
        bar.update(failed=True)
        bar.update()
    assert "(1 failed)" in log.getvalue().splitlines()[-1]


def test_progress_not_enabled_writes_nothing() -> None:
    log = io.StringIO()
    with Progress(5, "synth", "image", enabled=False, stream=log) as bar:
        bar.update(5)
        bar.clear()
    assert log.getvalue() == ""


def test_progress_is_wanted_only_when_asked_or_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert not wanted(False, io.StringIO())
    assert wanted(True, io.StringIO())
    assert wanted(False, Terminal())


def test_recognize_batch_keeps_json_on_stdout_and_the_bar_on_stderr(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = str(tmp_path / "gone.jpg")
    code = main(["recognize", str(SAMPLE), missing, "--json", "--progress"])
    out, err = capsys.readouterr()
    assert code == 1  # one photo could not be read; the other still was
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["photo"] for r in records] == [str(SAMPLE), missing]
    assert "tiles" in records[0] and "error" in records[1]
    assert "recognize  2/2 photos" in err and "(1 failed)" in err


def test_recognize_batch_shows_no_bar_when_stderr_is_a_pipe(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(["recognize", str(tmp_path / "a.jpg"), str(tmp_path / "b.jpg"), "--json"])
    err = capsys.readouterr().err
    assert code == 1
    assert "photos [" not in err
    assert err.count("mjlens: error:") == 2


def test_a_missing_model_file_names_the_file_and_how_to_restore_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import api.fixes
    import vision.registry

    (tmp_path / "pyproject.toml").touch()  # a checkout whose weights folder is empty
    monkeypatch.setattr(api.fixes, "REPO_ROOT", tmp_path)
    monkeypatch.setattr(vision.registry, "WEIGHTS_DIR", tmp_path / "vision" / "weights")
    assert main(["recognize", str(SAMPLE)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "detector.onnx" in err and "classifier.onnx" in err
    assert f"`git -C {tmp_path} checkout HEAD -- vision/weights/detector.onnx " in err
    assert "`mjlens train detector`" in err


def test_a_missing_model_file_outside_a_checkout_asks_for_a_reinstall(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import api.fixes
    import vision.registry

    monkeypatch.setattr(api.fixes, "REPO_ROOT", tmp_path / "site-packages")
    monkeypatch.setattr(vision.registry, "WEIGHTS_DIR", tmp_path / "weights")
    assert main(["classify", str(SAMPLE)]) == 2
    err = capsys.readouterr().err.strip()
    assert "missing: classifier.onnx: " in err and "a reinstall of mjlens" in err


def test_a_model_path_that_is_not_there_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classify", str(SAMPLE), "--model", "/no/such/model.onnx"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "mjlens: error: classifier model not found at /no/such/model.onnx: give --model the"
        " path of an .onnx model, or leave it out for the shipped one"
    )


def test_serve_without_the_api_extra_says_the_pip_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn fails as if absent
    assert main(["serve"]) == 2
    err = capsys.readouterr().err.strip()
    assert "needs uvicorn (the api extra)" in err
    assert f"{sys.executable} -m pip install" in err and "[api]" in err
    assert "Traceback" not in err


def test_train_without_torch_says_the_pip_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real(name, *a)
    )
    assert main(["train", "classifier"]) == 2
    err = capsys.readouterr().err.strip()
    assert "needs torch (the train extra)" in err and "[train]" in err


def test_synth_without_tile_art_says_to_run_make_art(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # `make serve` installs no tile art: a first `mjlens synth` must say what to run.
    pytest.importorskip("PIL")
    monkeypatch.setenv("MJLENS_ART_DIR", str(tmp_path / "art"))
    code = main(["synth", "--n", "1", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err.startswith("mjlens: error: no tile art on disk for face source(s) procedural")
    assert "run `make art` in " in err
    assert not (tmp_path / "out").exists()


def test_synth_names_an_unknown_face_source(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("PIL")
    code = main(["synth", "--n", "1", "--out", str(tmp_path), "--sources", "marble"])
    assert code == 2
    assert "unknown face source(s) marble: one of procedural" in capsys.readouterr().err


def test_synth_without_pillow_names_the_extra_and_make_art(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # An install with the api extra alone (`make serve`) has no pillow: the renderer would
    # otherwise draw every face as a text card.
    monkeypatch.setitem(sys.modules, "PIL", None)
    for name in [
        m for m in sys.modules if m == "datasets.faces" or m.startswith("datasets.faces.")
    ]:
        monkeypatch.delitem(sys.modules, name)  # imported afresh, as in a new process
    code = main(["synth", "--n", "1", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert "mjlens synth needs pillow (the train extra)" in err
    assert "make art" in err
    assert not (tmp_path / "out").exists()


def test_an_unknown_set_says_how_to_list_or_teach_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("MJLENS_HOME", str(tmp_path))
    assert main(["classify", str(SAMPLE), "--set", "club"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mjlens: error: no tile set named 'club': `mjlens sets list`")
    assert "`mjlens sets enroll NAME PHOTO`" in err
