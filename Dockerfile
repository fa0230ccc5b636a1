# The mjlens server alone: the HTTP API, the phone page with the bundled models and the page's
# offline scorer (the Pyodide runtime).
#   docker build -t mjlens .
#   docker run --rm -p 8000:8000 -v mjlens-sets:/data mjlens
# Only the api extra is installed (no torch, no training or test tools); the models are the
# package's own data (vision/weights/), so nothing is downloaded when it runs.
# scripts/docker_smoke.sh builds it, runs it and checks what it serves (docs/api.md).
#
# BASE_IMAGE: any Debian bookworm image with Python 3.11, python (the command) and venv; both
# stages use it. Where Docker Hub cannot be reached, scripts/docker_smoke.sh makes one from
# Debian's packages (mmdebstrap) and passes it here.
# A TLS-intercepting proxy's CA, if the build's network has one, comes in as the build secret
# `ca` (a PEM bundle, e.g. --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt): pip and npm
# trust it while they download, and no layer keeps it.
ARG BASE_IMAGE=python:3.11-slim-bookworm

FROM ${BASE_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# A C compiler for the scorer's optional compiled core (setup.py); the install falls back to
# pure Python without one. It stays in this stage: the image below has no compiler. Debian's
# own Python keeps its headers in python3-dev, which python:*-slim images already carry.
# hadolint ignore=DL3008
RUN headers="$(python -c 'import os, sysconfig; print("" if os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else "python3-dev")')" \
    && apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev $headers \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# .dockerignore lets in only what the server is built from: pyproject.toml, setup.py,
# README.md, the packages scoring, vision, api, datasets and labels, and the Pyodide script.
COPY . .
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export PIP_CERT=/run/secrets/ca; fi \
    && python -m venv /opt/venv \
    && /opt/venv/bin/pip install ".[api]" \
    && /opt/venv/bin/mjlens score "[567m,2][999s,3][SSSS]123pCC" --flowers 2 > /dev/null

# The page's offline scorer: the Pyodide runtime from the npm registry, fetched here at build
# time by the script a checkout uses (never at run time). The build fails without it.
FROM ${BASE_IMAGE} AS pyodide
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends npm \
    && rm -rf /var/lib/apt/lists/*
COPY scripts/install_pyodide.sh /usr/local/bin/install_pyodide.sh
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export NPM_CONFIG_CAFILE=/run/secrets/ca; fi \
    && MJLENS_PYODIDE_DIR=/opt/pyodide install_pyodide.sh \
    && test -s /opt/pyodide/pyodide.asm.wasm

FROM ${BASE_IMAGE}
# ORT_DISABLE_TELEMETRY: onnxruntime's usage telemetry (and its device id in the cache) off.
# MJLENS_HOME: taught tile sets, on a volume so that they outlive the container.
# MJLENS_CACHE: the models' optimized graphs and digests (vision/sessions.py), on the same
#   volume: a restarted container opens its models as fast as a running one.
# MJLENS_PYODIDE_DIR: the runtime that /offline/pyodide/ serves (api/offline_scorer.py).
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ORT_DISABLE_TELEMETRY=1 \
    MJLENS_HOME=/data \
    MJLENS_CACHE=/data/cache \
    MJLENS_PYODIDE_DIR=/opt/pyodide
RUN groupadd --system --gid 10001 mjlens \
    && useradd --system --uid 10001 --gid mjlens --home-dir /data --create-home \
        --shell /usr/sbin/nologin mjlens
COPY --from=build /opt/venv /opt/venv
COPY --from=pyodide /opt/pyodide /opt/pyodide
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8000
# /healthz answers while the process serves; /readyz waits for the models as well.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]
CMD ["mjlens", "serve", "--host", "0.0.0.0", "--port", "8000"]
