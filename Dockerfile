# The mjlens server alone: the HTTP API and the phone page with the bundled models.
#   docker build -t mjlens .
#   docker run --rm -p 8000:8000 -v mjlens-sets:/data mjlens
# Only the api extra is installed (no torch, no training or test tools); the models are the
# package's own data (vision/weights/), so nothing is downloaded when it runs.

FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# A C compiler for the scorer's optional compiled core (setup.py); the install falls back to
# pure Python without one. It stays in this stage: the image below has no compiler.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# .dockerignore lets in only what the server is built from: pyproject.toml, setup.py,
# README.md and the packages scoring, vision, api, datasets and labels.
COPY . .
RUN python -m venv /opt/venv \
    && /opt/venv/bin/pip install ".[api]" \
    && /opt/venv/bin/mjlens score "[567m,2][999s,3][SSSS]123pCC" --flowers 2 > /dev/null

FROM python:3.11-slim-bookworm
# ORT_DISABLE_TELEMETRY: onnxruntime's usage telemetry (and its device id in the cache) off.
# MJLENS_HOME: taught tile sets, on a volume so that they outlive the container.
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    ORT_DISABLE_TELEMETRY=1 \
    MJLENS_HOME=/data
RUN groupadd --system --gid 10001 mjlens \
    && useradd --system --uid 10001 --gid mjlens --home-dir /data --create-home \
        --shell /usr/sbin/nologin mjlens
COPY --from=build /opt/venv /opt/venv
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8000
# /healthz answers while the process serves; /readyz waits for the models as well.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]
CMD ["mjlens", "serve", "--host", "0.0.0.0", "--port", "8000"]
