#!/usr/bin/env bash
# Leak check of cardscan's C-interop layer (issue 8): runs `cardscan ocr`, `read` and `scan` on good
# and bad images under LeakSanitizer (default) or valgrind, and fails on a leak or memory error.
#
#   scripts/leak-check.sh                      # LeakSanitizer: builds with --sanitize=address into .build-asan
#   SKIP_BUILD=1 scripts/leak-check.sh         # reuse the sanitizer build
#   TOOL=valgrind SCRATCH=.build scripts/leak-check.sh   # valgrind memcheck on a plain debug build
#
# Logs go to $OUT (default $SCRATCH/leak-check/). See docs/leak-check.md for the results and why
# LeakSanitizer is the default (valgrind 3.19 crashes in libdispatch's exit path of Swift's async main).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
TOOL="${TOOL:-lsan}"
if [[ "$TOOL" == lsan ]]; then SCRATCH="${SCRATCH:-.build-asan}"; else SCRATCH="${SCRATCH:-.build}"; fi
OUT="${OUT:-$SCRATCH/leak-check}"
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    if [[ "$TOOL" == lsan ]]; then
        swift build --sanitize=address --scratch-path "$SCRATCH" --product cardscan
    else
        swift build --scratch-path "$SCRATCH" --product cardscan
    fi
fi
BIN="$SCRATCH/debug/cardscan"
[[ -x "$BIN" ]] || { echo "no binary at $BIN" >&2; exit 2; }
if [[ "$TOOL" == valgrind ]]; then
    command -v valgrind >/dev/null || { echo "valgrind is not installed (sudo apt-get install valgrind)" >&2; exit 2; }
fi
mkdir -p "$OUT"

# Bad inputs made on the fly (the decoders' error paths: libjpeg longjmp, libpng longjmp, …).
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
head -c 60000 Fixtures/synthetic/broodhunter_wurm_photo.jpg > "$TMP/truncated.jpg"
head -c 40000 Fixtures/synthetic/counterspell_flat.png > "$TMP/corrupt.png"
mkdir -p "$TMP/folder"
cp "$TMP/truncated.jpg" "$TMP/corrupt.png" Fixtures/hostile/cmyk.jpg Fixtures/hostile/gray16.png "$TMP/folder/"
cp Fixtures/synthetic/broodhunter_wurm_flat.png "$TMP/folder/good card.png"
: > "$TMP/folder/empty.jpg"
echo "not an image" > "$TMP/folder/notes.jpg"
export CARDSCAN_HOME="$TMP/home"

cases=(
    "ocr-flat|ocr Fixtures/synthetic/broodhunter_wurm_flat.png"
    "read-photo|read Fixtures/synthetic/broodhunter_wurm_photo.jpg"
    "read-exif6|read Fixtures/synthetic/sheoldred_the_apocalypse_exif6.jpg"
    "ocr-cmyk|ocr Fixtures/hostile/cmyk.jpg"
    "ocr-truncated|ocr $TMP/truncated.jpg"
    "read-corrupt-png|read $TMP/corrupt.png"
    "scan-folder|scan $TMP/folder --jobs 2"
)

failed=0
for entry in "${cases[@]}"; do
    name="${entry%%|*}"
    args="${entry#*|}"
    log="$OUT/$name.log"
    echo "== cardscan $args"
    if [[ "$TOOL" == lsan ]]; then
        # shellcheck disable=SC2086
        ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:log_path=$OUT/$name.asan" "$BIN" $args >"$log" 2>&1 || true
        reports=$(cat "$OUT/$name.asan".* 2>/dev/null || true)
        rm -f "$OUT/$name.asan".*
        if [[ -z "$reports" ]]; then
            echo "   LeakSanitizer: no leaks, no memory errors (output: $log)"
        else
            echo "$reports" > "$OUT/$name.report"
            echo "$reports" | grep -E "SUMMARY|ERROR" | sed 's/^/   /'
            echo "!! see $OUT/$name.report"
            failed=1
        fi
    else
        # shellcheck disable=SC2086
        OMP_THREAD_LIMIT=1 valgrind --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
            --num-callers=40 --log-file="$log" "$BIN" $args >/dev/null 2>&1 || true
        if grep -q "the 'impossible' happened" "$log"; then
            echo "!! valgrind itself crashed (see $log); use the default LeakSanitizer run"
            failed=1
            continue
        fi
        sed -n '/LEAK SUMMARY/,/suppressed:/p' "$log" | sed 's/^==[0-9]*== /   /'
        grep -q "All heap blocks were freed" "$log" && echo "   all heap blocks were freed"
        # Definitely-lost records whose allocation stack passes through cardscan's modules.
        ours=$(awk '/definitely lost in loss record/{rec=1; buf=""} rec{buf=buf $0 "\n"} rec && /^==[0-9]+== $/{ if (buf ~ /CardScanOCR|CardReader|CardScanCLI|CardMatcher|CardCatalog/) printf "%s", buf; rec=0 }' "$log")
        if [[ -n "$ours" ]]; then
            echo "!! definitely lost from cardscan code (full log: $log):"
            echo "$ours"
            failed=1
        fi
    fi
done
exit $failed
