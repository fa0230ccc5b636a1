"""The labeling round trip against a real Label Studio server.

    python scripts/labelstudio_roundtrip.py --photos DIR --labels OUT [--serve]

OUT is what `mjlens label DIR --out OUT` wrote. The script starts Label Studio (from the
throwaway environment scripts/install_labelstudio.sh makes), creates a project with
OUT/labelstudio/config.xml, lets it serve DIR as local files, imports OUT/labelstudio/
tasks.json with its predictions, accepts every pre-annotation as an annotation (what a
person who finds nothing to correct does), exports the project as JSON and runs
`mjlens import-labels` on the export. It passes when the boxes and codes that come back are
those of OUT/annotations.coco.json, photo for photo, and each photo Label Studio serves is
the photo's own bytes. With --serve it also connects `mjlens serve` as the project's ML
backend and asks it, through Label Studio, to pre-annotate the first task: the boxes must be
those of the task's own predictions.

Exit 0 when it passes; 1 with what differs; 2 when Label Studio cannot be started.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "mjlens0roundtrip0token0000000000000000000"
USER = "labeler@mjlens.invalid"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LabelStudio:
    """A Label Studio server in a temporary data folder, driven through its REST API."""

    def __init__(
        self, venv: Path, photos: Path, data: Path, log: Path, url: str | None = None
    ) -> None:
        self.log = log.open("w")
        self.process: subprocess.Popen[bytes] | None = None
        if url:  # a server already running, started with the settings below
            self.url = url.rstrip("/")
            return
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "LABEL_STUDIO_LOCAL_FILES_SERVING_ENABLED": "true",
            # The folder's parent: Label Studio refuses a storage at the root itself, and
            # `mjlens label` names each photo DIRNAME/PATH under it.
            "LABEL_STUDIO_LOCAL_FILES_DOCUMENT_ROOT": str(photos.resolve().parent),
            "LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN": "true",
            # mjlens serve runs on this machine: a local address Label Studio refuses by default
            "ML_BLOCK_LOCAL_IP": "false",
            "SSRF_PROTECTION_ENABLED": "false",
            "LABEL_STUDIO_DISABLE_SIGNUP_WITHOUT_LINK": "true",
            "COLLECT_ANALYTICS": "false",
            "DJANGO_DB": "sqlite",
        }
        self.process = subprocess.Popen(
            [
                str(venv / "bin" / "label-studio"),
                "start",
                "--no-browser",
                "--port",
                str(self.port),
                "--host",
                self.url,
                "--data-dir",
                str(data),
                "--username",
                USER,
                "--password",
                "roundtrip-password",
                "--user-token",
                TOKEN,
            ],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"Label Studio exited with {self.process.returncode}")
            try:
                if self.call("GET", "/api/projects")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(2)
        raise RuntimeError(f"Label Studio did not answer in {seconds:.0f} s")

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", f"Token {TOKEN}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=300) as response:
                raw = response.read()
                status = response.status
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode(errors="replace")
        kind = response.headers.get("Content-Type", "")
        return status, json.loads(raw) if "json" in kind else raw

    def must(self, method: str, path: str, body: Any = None) -> Any:
        status, answer = self.call(method, path, body)
        if status >= 300:
            raise RuntimeError(f"{method} {path}: {status} {str(answer)[:300]}")
        return answer

    def stop(self) -> None:
        if self.process is None:
            self.log.close()
            return
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def boxes_of(coco_path: Path) -> dict[str, list[tuple[str, tuple[float, ...]]]]:
    """Per photo (its path in the folder), the sorted (code, box rounded to 0.01 px)."""
    coco = json.loads(coco_path.read_text(encoding="utf-8"))
    names = {c["id"]: c["name"] for c in coco["categories"]}
    files = {i["id"]: i["file_name"].removeprefix("images/") for i in coco["images"]}
    out: dict[str, list[tuple[str, tuple[float, ...]]]] = {f: [] for f in files.values()}
    for a in coco["annotations"]:
        box = tuple(round(v, 2) for v in a["bbox"])
        out[files[a["image_id"]]].append((names[a["category_id"]], box))
    return {k: sorted(v) for k, v in out.items()}


def tasks_of(studio: LabelStudio, project: int) -> list[dict[str, Any]]:
    tasks: list[dict[str, Any]] = []
    page = 1
    while True:
        status, answer = studio.call(
            "GET", f"/api/tasks?project={project}&page={page}&page_size=100&fields=all"
        )
        if status == 404 or not isinstance(answer, dict) or not answer.get("tasks"):
            return tasks
        tasks += answer["tasks"]
        page += 1


def roundtrip(args: argparse.Namespace) -> int:
    photos, labels = Path(args.photos).resolve(), Path(args.labels).resolve()
    work = Path(tempfile.mkdtemp(prefix="mjlens-labelstudio-"))
    data = Path(args.data) if args.data else work / "data"
    studio = LabelStudio(Path(args.venv), photos, data, work / "label-studio.log", args.url)
    server = None
    try:
        started = time.monotonic()
        try:
            studio.wait(args.start_timeout)
        except RuntimeError as exc:
            print(f"labelstudio: {exc}; log: {work / 'label-studio.log'}", file=sys.stderr)
            return 2
        print(f"Label Studio up in {time.monotonic() - started:.0f} s at {studio.url}")
        config = (labels / "labelstudio" / "config.xml").read_text(encoding="utf-8")
        project = studio.must(
            "POST", "/api/projects", {"title": "mjlens round trip", "label_config": config}
        )["id"]
        studio.must(
            "POST",
            "/api/storages/localfiles",
            {"project": project, "path": str(photos), "title": "photos", "use_blob_urls": True},
        )
        tasks = json.loads((labels / "labelstudio" / "tasks.json").read_text(encoding="utf-8"))
        imported = studio.must("POST", f"/api/projects/{project}/import", tasks)
        print(f"imported {imported.get('task_count', len(tasks))} tasks with predictions")
        stored = tasks_of(studio, project)
        if len(stored) != len(tasks):
            print(f"FAIL: {len(stored)} tasks in the project, {len(tasks)} imported")
            return 1
        bad_photos = []
        for task in stored:
            image = task["data"]["image"]
            served = studio.call("GET", image)[1]
            if served != (photos / task["data"]["photo"]).read_bytes():
                bad_photos.append(task["data"]["photo"])
            predictions = task.get("predictions") or []
            if not predictions:
                print(f"FAIL: task {task['id']} has no prediction")
                return 1
            studio.must(
                "POST",
                f"/api/tasks/{task['id']}/annotations",
                {"result": predictions[0]["result"], "was_cancelled": False},
            )
        if bad_photos:
            print(f"FAIL: Label Studio served other bytes for {bad_photos[:5]}")
            return 1
        if args.serve and not check_ml_backend(studio, project, stored[0], work):
            return 1
        export = studio.must("GET", f"/api/projects/{project}/export?exportType=JSON")
        (work / "export.json").write_text(json.dumps(export), encoding="utf-8")
        train = work / "train"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "api.cli",
                "import-labels",
                str(work / "export.json"),
                "--out",
                str(train),
                "--images",
                str(photos),
            ],
            check=True,
            cwd=ROOT,
        )
        want, got = (
            boxes_of(labels / "annotations.coco.json"),
            boxes_of(train / "annotations.coco.json"),
        )
        differ = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
        n_boxes = sum(len(v) for v in want.values())
        if differ:
            print(f"FAIL: {len(differ)} of {len(want)} photos came back changed: {differ[:5]}")
            return 1
        print(
            f"round trip passed: {len(want)} photos, {n_boxes} boxes back unchanged through "
            f"Label Studio {label_studio_version(Path(args.venv))} and mjlens import-labels"
        )
        return 0
    finally:
        if server is not None:
            server.terminate()
        studio.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def check_ml_backend(studio: LabelStudio, project: int, task: dict[str, Any], work: Path) -> bool:
    """Connect `mjlens serve` as the project's ML backend; ask for the task's prediction."""
    port = free_port()
    env = {**os.environ, "LABEL_STUDIO_URL": studio.url, "LABEL_STUDIO_API_KEY": TOKEN}
    log = (work / "mjlens-serve.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--log-level", "warning"],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        backend = f"http://127.0.0.1:{port}/labelstudio"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(backend + "/health", timeout=2) as r:
                    if json.loads(r.read()).get("status") == "UP":
                        break
            except (OSError, ValueError):
                time.sleep(1)
        else:
            print("FAIL: mjlens serve did not come up")
            return False
        ml = studio.must("POST", "/api/ml", {"project": project, "url": backend, "title": "mjlens"})
        answer = studio.must(
            "POST",
            f"/api/dm/actions?id=retrieve_tasks_predictions&project={project}",
            {"selectedItems": {"all": False, "included": [task["id"]]}},
        )
        fresh = studio.must("GET", f"/api/tasks/{task['id']}")
        mine = [
            p
            for p in fresh.get("predictions", [])
            if p.get("model_version") == ml.get("model_version")
        ] or [p for p in fresh.get("predictions", []) if p.get("ml_backend") == ml["id"]]
        if not mine:
            print(f"FAIL: no prediction from the ML backend on task {task['id']}: {answer}")
            return False
        want = sorted(
            (r["value"]["rectanglelabels"][0], round(r["value"]["x"], 3), round(r["value"]["y"], 3))
            for r in task["predictions"][0]["result"]
        )
        got = sorted(
            (r["value"]["rectanglelabels"][0], round(r["value"]["x"], 3), round(r["value"]["y"], 3))
            for r in mine[-1]["result"]
        )
        if want != got:
            print("FAIL: the ML backend's boxes differ from the task's predictions")
            return False
        print(
            f"ML backend: Label Studio got {len(got)} boxes for task {task['id']} from mjlens serve"
        )
        return True
    finally:
        server.terminate()
        server.wait(30)
        log.close()


def label_studio_version(venv: Path) -> str:
    out = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import label_studio; print(label_studio.__version__)",
        ],
        capture_output=True,
        text=True,
    )
    return out.stdout.strip() or "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", required=True, help="the folder that was labelled")
    parser.add_argument("--labels", required=True, help="mjlens label's --out folder")
    parser.add_argument("--venv", default=str(ROOT / ".cache" / "labelstudio-venv"))
    parser.add_argument("--serve", action="store_true", help="also test the ML backend")
    parser.add_argument("--start-timeout", type=float, default=300)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument(
        "--url", help="a Label Studio already running with the settings this script gives one"
    )
    parser.add_argument(
        "--data", help="Label Studio's data folder (default: a new one; its first start is slow)"
    )
    return roundtrip(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
