# Two commands on a fresh machine: `make serve` (the main job) and `make test` (what CI runs).
PY ?= python3
STAMP := .cache/installed.stamp

.PHONY: install serve test lint typecheck pytest art browser bench eval

$(STAMP): pyproject.toml
	$(PY) -m pip install -q -e '.[api,train,dev]'
	mkdir -p .cache && touch $(STAMP)

install: $(STAMP)

# Third-party tile art for the synthetic photo engine, fetched from Debian and npm at build time.
art:
	@if [ -x scripts/fetch_art.sh ]; then scripts/fetch_art.sh; fi

# Debian's Chromium and ChromeDriver for the real-browser test (no-op when present).
browser:
	scripts/install_browser.sh

serve: install
	mjlens serve

lint: install
	ruff check .
	ruff format --check .

typecheck: install
	mypy scoring vision

pytest: install art browser
	$(PY) -m pytest -q

test: lint typecheck pytest

bench: install
	$(PY) benchmarks/scoring.py
	$(PY) benchmarks/waits.py
	$(PY) benchmarks/synth.py --n 60

# The vision figures of the model cards: needs a held-out synthetic set (see vision/weights/detector.md)
# and the real crops, which are validation only and never enter the repo.
CAMERASH ?= ../shared/data/camerash-crops
VAL ?= runs/val_kde
BIG ?= runs/val_kde_big
eval: install
	$(PY) -m benchmarks.vision --camerash $(CAMERASH) --synthetic $(VAL) --out docs/vision/eval.json
	$(PY) benchmarks/camerash_rows.py --camerash $(CAMERASH) --photos 60 --out docs/vision/camerash_rows.json
	$(PY) benchmarks/closeups.py $(BIG)
