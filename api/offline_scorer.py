"""The page's offline scorer, served: the Pyodide runtime (CPython built to WebAssembly,
MPL-2.0) and a zip of the `scoring` package with api/score_request.py, which the page's
worker (static/score-worker.js) runs when the server cannot be reached, so a hand is scored
offline by the same Python as `/v1/score`.

The runtime is not in the repository: scripts/install_pyodide.sh fetches it from npm at
install time into .cache/pyodide (or MJLENS_PYODIDE_DIR). Without it these routes answer 404
and the page says offline scoring is not available; online scoring does not use them.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import zipfile
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response

from api.problems import NOT_FOUND, Problem

ROOT = Path(__file__).resolve().parents[1]
# What loadPyodide() fetches from its indexURL; nothing else there is served.
RUNTIME = {
    "pyodide.js": "text/javascript",
    "pyodide.asm.js": "text/javascript",
    "pyodide.asm.wasm": "application/wasm",
    "python_stdlib.zip": "application/zip",
    "pyodide-lock.json": "application/json",
}
NOT_INSTALLED = "the offline scorer's runtime is not installed here: run scripts/install_pyodide.sh"


def pyodide_dir() -> Path:
    return Path(os.environ.get("MJLENS_PYODIDE_DIR") or ROOT / ".cache" / "pyodide")


@functools.cache
def scoring_zip() -> bytes:
    """`scoring/` (its Python sources, never the compiled core) and `score_request.py`, with
    fixed timestamps: the same sources give the same bytes, hence the same ETag."""
    import scoring

    package = Path(scoring.__file__).resolve().parent
    files = [
        (f"scoring/{path.relative_to(package).as_posix()}", path)
        for path in sorted(package.rglob("*.py"))
        if "_compiled" not in path.parts
    ]
    files.append(("score_request.py", Path(__file__).with_name("score_request.py")))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in files:
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, path.read_bytes())
    return buffer.getvalue()


def install_offline_routes(app: FastAPI) -> None:
    @app.get("/offline/scoring.zip", include_in_schema=False)
    async def scoring_archive() -> Response:
        body = scoring_zip()
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        return Response(body, media_type="application/zip", headers=headers)

    @app.get("/offline/pyodide/{name}", include_in_schema=False)
    async def runtime_file(name: str) -> Response:
        path = pyodide_dir() / name
        if name not in RUNTIME or not path.is_file():
            raise Problem(NOT_FOUND, NOT_INSTALLED if name in RUNTIME else f"no file {name!r}")
        # Versioned by the install: a day in the HTTP cache, kept longer by the page's worker.
        headers = {"Cache-Control": "public, max-age=86400"}
        return FileResponse(path, media_type=RUNTIME[name], headers=headers)
