#!/usr/bin/env bash
# Builds the server's image (Dockerfile), runs it and checks what it serves: /healthz and
# /readyz answer, POST /v1/recognize reads the tiles of api/static/sample.jpg, the server runs
# as no root, the image's HEALTHCHECK passes and the page's offline scorer is served. Prints
# the image's size and the seconds from `run` to /readyz answering 200. Exits non-zero on the
# first check that fails; the container is removed either way.
#
#   scripts/docker_smoke.sh                 # podman where installed, else docker
#   ENGINE=docker scripts/docker_smoke.sh
#
# BASE_IMAGE (default python:3.11-slim-bookworm) is passed to the Dockerfile. Where the
# default cannot be pulled (no Docker Hub), a Debian bookworm base with Python 3.11 is made
# from Debian's packages with mmdebstrap and imported as localhost/mjlens-base:bookworm.
# CA_BUNDLE: a PEM bundle the build trusts while pip and npm download (a TLS-intercepting
# proxy's CA); by default the system bundle when a local CA is installed beside Debian's.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ENGINE="${ENGINE:-$(command -v podman >/dev/null 2>&1 && echo podman || echo docker)}"
DEFAULT_BASE="python:3.11-slim-bookworm"
BASE_IMAGE="${BASE_IMAGE:-$DEFAULT_BASE}"
DEBIAN_BASE="localhost/mjlens-base:bookworm"
TAG="${MJLENS_IMAGE:-localhost/mjlens:smoke}"
PORT="${PORT:-18000}"
NAME="mjlens-smoke-$$"
URL="http://127.0.0.1:$PORT"

say() { echo "docker_smoke: $*"; }
fail() { echo "docker_smoke: FAIL: $*" >&2; exit 1; }

# Limits below any host's hard limits: podman's defaults (over a million open files) cannot
# be set where the engine lacks CAP_SYS_RESOURCE, and the server needs far fewer.
OPTS=(--ulimit nofile=16384:16384 --ulimit nproc=32768:32768)
# crun refuses hybrid cgroups (v1 controllers beside a v2 tree); runc runs there.
if [ "$ENGINE" = podman ] && [ -d /sys/fs/cgroup/unified ] && command -v runc >/dev/null 2>&1; then
    OPTS+=(--runtime runc)
fi
# podman's own image format drops HEALTHCHECK; the docker format keeps it.
BUILD_OPTS=()
[ "$ENGINE" = podman ] && BUILD_OPTS+=(--format docker)

if [ -z "${CA_BUNDLE:-}" ] && compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
fi
if [ -n "${CA_BUNDLE:-}" ]; then
    BUILD_OPTS+=(--secret "id=ca,src=$CA_BUNDLE")
    [ "$ENGINE" = docker ] && export DOCKER_BUILDKIT=1
fi

debian_base() {
    if "$ENGINE" image inspect "$DEBIAN_BASE" >/dev/null 2>&1; then
        return
    fi
    command -v mmdebstrap >/dev/null 2>&1 || fail "$DEFAULT_BASE cannot be pulled and mmdebstrap is missing (apt-get install mmdebstrap)"
    local tarball
    tarball="$(mktemp --suffix=.tar)"
    say "making $DEBIAN_BASE from Debian's packages (mmdebstrap)"
    nice -n 10 mmdebstrap --quiet --variant=minbase \
        --include=python3,python3-venv,python-is-python3,ca-certificates \
        bookworm "$tarball" \
        "deb http://deb.debian.org/debian bookworm main" \
        "deb http://deb.debian.org/debian bookworm-updates main" \
        "deb http://deb.debian.org/debian-security bookworm-security main"
    "$ENGINE" import --change "ENV LANG=C.UTF-8" --change 'CMD ["python3"]' \
        "$tarball" "$DEBIAN_BASE" >/dev/null
    rm -f "$tarball"
}

if ! "$ENGINE" image inspect "$BASE_IMAGE" >/dev/null 2>&1 \
    && ! "$ENGINE" pull "$BASE_IMAGE" >/dev/null 2>&1; then
    [ "$BASE_IMAGE" = "$DEFAULT_BASE" ] || fail "cannot pull $BASE_IMAGE"
    say "$BASE_IMAGE cannot be pulled here; building on a Debian base instead"
    debian_base
    BASE_IMAGE="$DEBIAN_BASE"
fi

say "building $TAG on $BASE_IMAGE with $ENGINE"
start=$(date +%s)
nice -n 10 "$ENGINE" build "${BUILD_OPTS[@]}" "${OPTS[@]}" --build-arg "BASE_IMAGE=$BASE_IMAGE" \
    -t "$TAG" "$ROOT"
say "built in $(($(date +%s) - start)) s"

cleanup() { "$ENGINE" rm -f "$NAME" >/dev/null 2>&1 || true; }
trap cleanup EXIT

t0=$(date +%s.%N)
"$ENGINE" run -d --name "$NAME" "${OPTS[@]}" -p "127.0.0.1:$PORT:8000" "$TAG" >/dev/null
ready=""
for _ in $(seq 1 240); do
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/readyz")" = 200 ]; then
        ready=$(python3 -c "import time; print(f'{time.time() - $t0:.1f}')")
        break
    fi
    if [ "$("$ENGINE" inspect -f '{{.State.Running}}' "$NAME")" != true ]; then
        "$ENGINE" logs "$NAME" 2>&1 | tail -20
        fail "the container stopped"
    fi
    sleep 0.5
done
[ -n "$ready" ] || { "$ENGINE" logs "$NAME" | tail -20; fail "/readyz not 200 within 120 s"; }
say "ok /readyz 200, ${ready} s after run"

[ "$(curl -s -o /dev/null -w '%{http_code}' "$URL/healthz")" = 200 ] || fail "/healthz not 200"
say "ok /healthz 200"

answer="$(curl -s -w '\n%{http_code}' -F "photo=@$ROOT/api/static/sample.jpg" "$URL/v1/recognize")"
[ "$(tail -n1 <<<"$answer")" = 200 ] || fail "/v1/recognize: $(tail -c 400 <<<"$answer")"
tiles="$(head -n -1 <<<"$answer" | python3 -c '
import json, sys
codes = [tile["code"] for tile in json.load(sys.stdin)["tiles"]]
print(len(codes), " ".join(codes))')"
[ "${tiles%% *}" -ge 14 ] || fail "/v1/recognize read ${tiles%% *} tiles from sample.jpg"
say "ok /v1/recognize read $tiles"

uid="$("$ENGINE" exec "$NAME" sh -c 'awk "/^Uid:/ {print \$2}" /proc/1/status')"
[ "$uid" != 0 ] || fail "the server (pid 1) runs as root"
say "ok the server runs as uid $uid"

if [ "$ENGINE" = podman ]; then
    # podman runs health checks from systemd timers; without systemd, run the check itself.
    "$ENGINE" healthcheck run "$NAME" >/dev/null || fail "HEALTHCHECK failed"
    say "ok HEALTHCHECK (podman healthcheck run)"
else
    health=""
    for _ in $(seq 1 60); do
        health="$("$ENGINE" inspect -f '{{.State.Health.Status}}' "$NAME")"
        [ "$health" = starting ] || break
        sleep 2
    done
    [ "$health" = healthy ] || fail "HEALTHCHECK: $health"
    say "ok HEALTHCHECK: healthy"
fi

for path in /offline/pyodide/pyodide.asm.wasm /offline/scoring.zip; do
    code="$(curl -s -o /dev/null -w '%{http_code}' "$URL$path")"
    [ "$code" = 200 ] || fail "$path answered $code: the offline scorer is not served"
done
say "ok the offline scorer is served (/offline/pyodide/, /offline/scoring.zip)"

size="$("$ENGINE" image inspect -f '{{.Size}}' "$TAG")"
say "image $TAG: $((size / 1000000)) MB; ready ${ready} s after run; all checks passed"
