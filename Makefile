# Two commands on a fresh machine: `make serve` (the main job) and `make test` (what CI runs).
# Both work in the project's own virtual environment, .venv/, that scripts/venv.sh makes from
# PY: nothing is installed into PY itself, so a system Python that refuses pip installs
# (PEP 668, "externally-managed-environment") is all a machine needs. Every command below
# runs .venv/bin's tools, and PATH puts .venv/bin first for the scripts they start.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PYTHON := $(BIN)/python
export PATH := $(abspath $(BIN)):$(PATH)
export VIRTUAL_ENV := $(abspath $(VENV))
# More pip options where needed, e.g. PIP_ARGS='--find-links DIR' for a folder of wheels.
PIP_ARGS ?=
SERVE_ARGS ?=

API_STAMP := $(VENV)/.installed-api
ALL_STAMP := $(VENV)/.installed-all

.PHONY: venv install serve test lint typecheck pytest art browser pyodide page-font bench eval labelstudio-test

$(PYTHON):
	scripts/venv.sh $(PY) $(VENV)

venv: $(PYTHON)

# The server needs the api extra alone: no torch, no test tools.
$(API_STAMP): pyproject.toml | $(PYTHON)
	$(PYTHON) -m pip install -q $(PIP_ARGS) -e '.[api]'
	touch $@

# Tests, training, the synthetic engine and the benchmarks: every extra. torch is pinned to a
# CPU build in pyproject.toml; pip in the venv reads the machine's pip configuration
# (find-links, constraints) as any pip does, so a wheel kept on disk installs from there.
$(ALL_STAMP): pyproject.toml | $(PYTHON)
	$(PYTHON) -m pip install -q $(PIP_ARGS) -e '.[api,train,dev]'
	touch $@ $(API_STAMP)

install: $(ALL_STAMP)

serve: $(API_STAMP)
	$(BIN)/mjlens serve $(SERVE_ARGS)

# Third-party tile art for the synthetic photo engine, fetched from Debian, npm and PyPI.
# The engine's face sources (pillow, numpy) rasterize it, hence the full install first.
art: $(ALL_STAMP)
	scripts/fetch_art.sh

# Debian's Chromium and ChromeDriver for the real-browser test (no-op when present).
browser:
	scripts/install_browser.sh

# The Pyodide runtime the phone page scores with offline, from npm into .cache/pyodide
# (not committed; `make browser` fetches it too). Without it the page scores online only.
pyodide:
	scripts/install_pyodide.sh

# The phone page's Chinese font (api/static/fonts/page-cjk.woff, committed): cut again from
# Noto Sans CJK SC whenever the page or a fan table gains a Chinese character.
page-font: art
	$(PYTHON) scripts/make_page_font.py

lint: $(ALL_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(ALL_STAMP)
	$(BIN)/mypy scoring vision

pytest: $(ALL_STAMP) art browser
	$(PYTHON) -m pytest -q

test: lint typecheck pytest

bench: $(ALL_STAMP)
	$(PYTHON) benchmarks/scoring.py
	$(PYTHON) benchmarks/waits.py
	$(PYTHON) benchmarks/synth.py --n 60

# The vision figures of the model cards: needs a held-out synthetic set (see vision/weights/detector.md)
# and the real crops, which are validation only and never enter the repo.
CAMERASH ?= ../shared/data/camerash-crops
VAL ?= runs/val_kde
BIG ?= runs/val_kde_big
eval: $(ALL_STAMP)
	$(PYTHON) -m benchmarks.vision --camerash $(CAMERASH) --synthetic $(VAL) --out docs/vision/eval.json
	$(PYTHON) benchmarks/camerash_rows.py --camerash $(CAMERASH) --photos 60 --out docs/vision/camerash_rows.json
	$(PYTHON) benchmarks/closeups.py $(BIG)

# The labeling round trip against a real Label Studio from PyPI, installed into a throwaway
# environment under .cache/ (not part of `make test`: the install alone takes minutes).
labelstudio-test: install
	scripts/install_labelstudio.sh
	$(PYTHON) -m pytest -q tests/labels/test_labelstudio_server.py
