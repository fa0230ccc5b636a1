#!/usr/bin/env bash
# Train a classifier run on a lent GPU machine from what training/device_pack.py put in .gpu/
# (carry .gpu). The checkpoint, log and ONNX come back under $OUT/run; calibrate, join and
# evaluate here, on the CPU, as vision/weights/classifier.md says.
#   MINUTES=7 SEED=23 LR=1.2e-3 FLOWER_SHARE=0.4 FRESH_SHARE=0.3 bash scripts/device_classifier.sh
# SOURCES, FIXED_PER_CODE and WARP_SHARE default to this recipe: the pixel source, fixed art
# weighted 10, a third of it redrawn by art_warp.
# DEVICE=cpu WORKERS=1 MINUTES=0.2 runs the same on this machine (a check of the pack).
set -uo pipefail
export MJLENS_ART_DIR="$PWD/.gpu/art" MJLENS_FLUFFYSTUFF_DIR="$PWD/.gpu/art/fluffystuff-svg"
export PYTHONUNBUFFERED=1
OUT="${OUT:-runs/device}"
mkdir -p "$OUT/run"
nproc
if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv,noheader
fi
python3 -m training.train_classifier --device "${DEVICE:-cuda}" --workers "${WORKERS:-14}" \
    --threads 2 --minutes "${MINUTES:-7}" --resume .gpu/resume.pt --lr "${LR:-1.2e-3}" \
    --batch 256 --sources ${SOURCES:-procedural unicode fluffystuff pixel} --holdout "" \
    --fixed-per-code "${FIXED_PER_CODE:-10}" --warp-share "${WARP_SHARE:-0.3}" \
    --detected-crops .gpu/crops.npz --scene-share 0.4 --flower-share "${FLOWER_SHARE:-0.4}" \
    --oversample 1s=2.5 5p=1.5 --per-code 140 --fresh-share "${FRESH_SHARE:-0}" --out "$OUT/run" \
    --export "$OUT/run/classifier.onnx" --eval-every 1000 --seed "${SEED:-23}" \
    > "$OUT/run/train.log" 2>&1
status=$?
# the log without its progress bars
tr '\r' '\n' < "$OUT/run/train.log" | grep -v "^faces \|^classifier:\|^ *$" | tail -n 20
tail -n 3 "$OUT/run/log.jsonl" 2>/dev/null | cut -c1-400
exit $status
