#!/usr/bin/env bash
# Train a classifier run on a lent GPU machine from what models/device_pack.py put in .gpu/
# (carry .gpu). The checkpoint, log and ONNX come back under $OUT/run; calibrate, join and
# evaluate here, on the CPU, as models/classifier.md says.
#   MINUTES=7 SEED=23 LR=1.2e-3 FLOWER_SHARE=0.4 bash scripts/device_classifier.sh
set -euo pipefail
export MJLENS_ART_DIR="$PWD/.gpu/art" MJLENS_FLUFFYSTUFF_DIR="$PWD/.gpu/art/fluffystuff-svg"
export PYTHONUNBUFFERED=1
OUT="${OUT:-runs/device}"
mkdir -p "$OUT/run"
nproc
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv,noheader
python3 -c "import torch, cv2, onnxruntime; print(torch.__version__, torch.cuda.is_available())"
python3 -m models.train_classifier --device cuda --workers "${WORKERS:-14}" --threads 2 \
    --minutes "${MINUTES:-7}" --resume .gpu/resume.pt --lr "${LR:-1.2e-3}" --batch 256 \
    --sources procedural unicode fluffystuff --holdout "" --detected-crops .gpu/crops.npz \
    --scene-share 0.4 --flower-share "${FLOWER_SHARE:-0.4}" --oversample 1s=2.5 5p=1.5 --per-code 140 \
    --out "$OUT/run" --export "$OUT/run/classifier.onnx" --eval-every 1000 \
    --seed "${SEED:-23}" 2>&1 | tr '\r' '\n' | grep -v "^faces \|^classifier:" || true
tail -n 4 "$OUT/run/log.jsonl" | cut -c1-400
