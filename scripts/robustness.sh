#!/usr/bin/env bash
# Robustness check: the labelled photo_single photos of ../shared/photos turned, tilted, shrunk,
# darkened, blurred and recompressed, run through the benchmark (release build). The held-out
# photos the project is judged on are of the same kinds as the shared ones, not the same photos:
# what reads only as photographed is tuned to them. Copies go to out/robustness/ (gitignored; the
# photos are not ours to commit), the report to out/robustness/bench.md and bench.json.
#
#   scripts/robustness.sh                 # every variant
#   scripts/robustness.sh r90 a30 half    # some of them
#   scripts/robustness.sh --copies-only   # make the copies, no benchmark (for scripts/compare-scans.py)
#   scripts/robustness.sh --copies-only notitle   # make one variant's copies again, keep the others
#   scripts/robustness.sh --tune title.minimumQuality=0.25 up half   # a reader tuning parameter
#                                         # (repeatable; cardscan-bench --list-tuning lists them)
#   scripts/robustness.sh --kind photo_multi --copies-only   # the several-card photos instead, in
#                                         # out/robustness-photo_multi (every label row of a photo
#                                         # kept; default variants up r90 a30 half dark q40; no
#                                         # evidence variants: they paint one card)
#
# Variants (all start from the photo upright as a viewer shows it, EXIF applied then removed, JPEG
# quality 95, so `up` is the baseline; EXIF capture days are gone too):
#   up            the upright copy
#   r90 r180 r270 turned by a quarter, a half, three quarters
#   a30 a45 a135 a250  tilted by that many degrees, the canvas grown, corners filled from the edges
#   pitch30       as taken with the camera tilted back 30° (the card's far edge shorter), and
#   yaw30         turned 30° to the side: perspective of a real camera (scripts/camera_turn.py)
#   half          half the width and height
#   dark          brightness at 55%
#   blur          Gaussian blur, sigma 1.5 px
#   q40           recompressed at JPEG quality 40
#   notitle       the title bar painted over in its own colour      (evidence taken away: where the
#   nobottom      the card's bottom 8% painted over like the table   card lies is in
#   textonly      everything but the text box painted over           Fixtures/robustness/card-corners.csv,
#   glare         a sleeve's glare washing out most of the title      scripts/evidence_variants.py)
#   cuttop        the photo cut through the card's title (the card running into its edge)
# Needs ImageMagick's `convert` (Debian imagemagick; installed if missing, with root or sudo), and
# for the evidence variants Pillow (PyPI; installed if missing).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/setup.sh
if ! command -v convert >/dev/null || ! convert -version 2>/dev/null | grep -q ImageMagick; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends imagemagick >&2
fi
CONVERT=$(command -v convert-im6.q16 || command -v convert)

photos=../shared/photos
kind=photo_single
copies_only=false
tune=()
while [ $# -gt 0 ]; do
  case "$1" in
    --copies-only) copies_only=true; shift ;;
    --kind) [ $# -ge 2 ] || { echo "robustness: --kind needs a kind of labels.csv (photo_single, photo_multi, …)" >&2; exit 2; }
            kind=$2; shift 2 ;;
    --tune) [ $# -ge 2 ] || { echo "robustness: --tune needs name=value" >&2; exit 2; }; tune+=(--tune "$2"); shift 2 ;;
    *) break ;;
  esac
done
variants=("$@")
out=out/robustness
[ "$kind" = photo_single ] || out=out/robustness-$kind
grep -q ",$kind," "$photos/labels.csv" || { echo "robustness: no label of kind '$kind' in $photos/labels.csv" >&2; exit 2; }
if [ ${#variants[@]} -eq 0 ]; then
  variants=(up r90 r180 r270 a30 a45 a135 a250 pitch30 yaw30 half dark blur q40 notitle nobottom textonly glare cuttop)
  [ "$kind" = photo_single ] || variants=(up r90 a30 half dark q40)
fi

variant_args() { # name -> convert arguments applied to the upright copy
  case "$1" in
    up) ;;
    r90|r180|r270) echo "-rotate ${1#r}" ;;
    a*) echo "-virtual-pixel Edge +distort SRT ${1#a} +repage" ;;
    pitch30) echo "-virtual-pixel Edge -distort Perspective @turn:x:30" ;; # points per photo size, below
    yaw30) echo "-virtual-pixel Edge -distort Perspective @turn:y:30" ;;
    half) echo "-resize 50%" ;;
    dark) echo "-modulate 55" ;;
    blur) echo "-blur 0x1.5" ;;
    q40) echo "-quality 40" ;;
    notitle|nobottom|textonly|glare|cuttop) echo "@evidence" ;; # scripts/evidence_variants.py, below
    *) return 1 ;;
  esac
}
# Every variant checked before any copy is made (a typo must not yield unaltered copies).
for v in "${variants[@]}"; do
  variant_args "$v" >/dev/null || { echo "robustness: unknown variant '$v' (see the list at the top of $0)" >&2; exit 2; }
  [ "$kind" = photo_single ] || [ "$(variant_args "$v")" != "@evidence" ] \
    || { echo "robustness: variant '$v' paints one card's regions: photo_single only" >&2; exit 2; }
done

# Only the variants asked for are made again: the copies of the others stay (an A/B after a change
# to one variant's making needs its copies new and the rest as they were).
mkdir -p "$out"
for v in "${variants[@]}"; do rm -rf "${out:?}/$v"; done
rm -rf "$out/upright" "$out/quads"; mkdir -p "$out/upright"
header="file,name,set,collector_number,kind,notes"
echo "$header" > "$out/labels-run.csv"
# One upright copy per labelled photo of the kind; its label rows for each variant (a single-card
# photo's first row; every row of a several-card photo: one a card).
grep ",$kind," "$photos/labels.csv" | awk -F, -v all="$([ "$kind" = photo_single ] && echo 0 || echo 1)" 'all || !seen[$1]++' \
  | while IFS= read -r row; do
  file=${row%%,*}
  copy="$(echo "$file" | tr '/' '_')"; copy="${copy%.*}.jpg"
  [ -f "$out/upright/$copy" ] || "$CONVERT" "$photos/$file" -auto-orient -strip -quality 95 "$out/upright/$copy"
  for v in "${variants[@]}"; do
    echo "$v/$copy,${row#*,}" >> "$out/labels-run.csv"
  done
done
# labels.csv: these variants' rows, and those of the other variants whose copies are still there.
{
  echo "$header"
  if [ -f "$out/labels.csv" ]; then
    tail -n +2 "$out/labels.csv" | while IFS= read -r row; do
      v=${row%%/*}
      [[ " ${variants[*]} " == *" $v "* ]] || [ ! -d "$out/$v" ] || echo "$row"
    done
  fi
  tail -n +2 "$out/labels-run.csv"
} > "$out/labels.new" && mv "$out/labels.new" "$out/labels.csv"
evidence=false
for v in "${variants[@]}"; do [ "$(variant_args "$v")" = "@evidence" ] && evidence=true; done
if $evidence; then
  python3 -c 'import PIL' 2>/dev/null || pip install -q Pillow >&2
  # Where the card is in each upright copy, its top known: Fixtures/robustness/card-corners.csv
  # (scripts/card-corners.py: the reader's quads of the named cards, checked by eye), so the painted
  # regions do not move with the reader. A photo it does not hold yet gets the quad the release
  # `cardscan read` finds, with a warning (check it, and add it to the file).
  mkdir -p "$out/quads"
  python3 scripts/card-corners.py quads Fixtures/robustness/card-corners.csv "$out/quads"
  for copy in "$out"/upright/*.jpg; do
    quad="$out/quads/$(basename "$copy").json"
    [ -s "$quad" ] && continue
    echo "robustness: $copy: not in Fixtures/robustness/card-corners.csv; the reader's quad is used (its top may be wrong)" >&2
    [ -n "${cardscan:-}" ] || { swift build -c release --product cardscan >&2; cardscan="$(swift build -c release --show-bin-path)/cardscan"; }
    "$cardscan" read "$copy" --json 2>/dev/null | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["quad"]))' \
      > "$quad" || rm -f "$quad"
  done
fi
for v in "${variants[@]}"; do
  mkdir -p "$out/$v"
  args=$(variant_args "$v")
  if [ "$args" = "@evidence" ]; then
    for copy in "$out"/upright/*.jpg; do
      quad="$out/quads/$(basename "$copy").json"
      [ -s "$quad" ] || { echo "robustness: no card found in $copy; no $v copy" >&2; continue; }
      python3 scripts/evidence_variants.py "$v" "$copy" "$(cat "$quad")" "$out/$v/$(basename "$copy")"
    done
    continue
  fi
  quality=$([ "$v" = q40 ] && echo 40 || echo 95)
  # One convert per core (a tilt of an 8 MP photo takes seconds). `@turn:AXIS:DEGREES` becomes the
  # perspective points for the photo's size.
  printf '%s\n' "$out"/upright/*.jpg | xargs -P "$(nproc)" -I{} sh -c '
    a=$2
    case "$a" in *@turn:*)
      t=${a##*@turn:}
      a="${a%%@turn:*}$(python3 scripts/camera_turn.py $(identify -format "%w %h" "$1") ${t%%:*} ${t##*:})" ;;
    esac
    "$0" "$1" $a -quality "$3" "$4/$(basename "$1")"' "$CONVERT" {} "$args" "$quality" "$out/$v"
done
rm -rf "$out/upright" "$out/quads"
$copies_only && { echo "robustness: copies in $out (labels in $out/labels.csv)" >&2; exit 0; }

swift build -c release --scratch-path .build-bench --product cardscan-bench
bench="$(swift build -c release --scratch-path .build-bench --show-bin-path)/cardscan-bench"
# The benchmark reads the variants made in this run (labels-run.csv), not the ones kept.
"$bench" "$out" --labels "$out/labels-run.csv" --no-references --no-openmp --no-catalog ${tune[@]+"${tune[@]}"} --json "$out/bench.json" | tee "$out/bench.md"
