#!/usr/bin/env bash
# Regenerates every figure of docs/how-page-splits-work.md,
# docs/ibd-reader.md and docs/validation.md from the simulator (no server
# needed):
#
#   docs/figures/make-figures.sh [build/innosim]
#
# Page maps are drawn as SVG by `innosim run --page-map` and turned into PNG
# with rsvg-convert (Debian's librsvg2-bin); the explain excerpts are text.
# The same command gives the same files (the runs are deterministic).
set -euo pipefail
cd "$(dirname "$0")"
innosim=${1:-../../build/innosim}
[ -x "$innosim" ] || { echo "make-figures.sh: $innosim not found: build first (README) or name the binary" >&2; exit 2; }
command -v rsvg-convert >/dev/null || { echo "make-figures.sh: rsvg-convert not found: apt-get install librsvg2-bin" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

map() {  # NAME, then run's arguments
  local name=$1; shift
  "$innosim" run "$@" --no-flush --page-map "$tmp/$name.svg" > /dev/null
  rsvg-convert "$tmp/$name.svg" -o "$name.png"
}
map page-map-uuidv4-file --stream uuidv4 --rows 200k
map page-map-uuidv4-key --stream uuidv4 --rows 200k --order key
map page-map-autoinc-key --stream autoinc --rows 200k --order key
map page-map-uuidv7-counter-key --stream uuidv7-counter --rows 200k --order key
map page-map-uuidv7-random-50-key --stream uuidv7-random --rows 200k --rows-per-ms 50 --order key
map page-map-uuidv7-random-1000-key --stream uuidv7-random --rows 200k --rows-per-ms 1000 --order key
# Pages written: needs the flush model (map() runs without it).
"$innosim" run --stream uuidv4 --rows 200k --set innodb_buffer_pool_size=8M --page-map "$tmp/w.svg" --order key \
  --shade writes > /dev/null
rsvg-convert "$tmp/w.svg" -o page-map-uuidv4-writes-8M.png

excerpt() {  # NAME FROM TO, then explain's arguments: the blocks of inserts FROM..TO, structure only
  local name=$1 from=$2 to=$3; shift 3
  "$innosim" explain "$@" --no-flush --from "$from" --to "$to" | sed -n '/^row /,/^$/p' > "$name.txt"
}
excerpt explain-split-to-the-right 41 41 --keys "$(seq -s, 10 10 4000)" --page-size 4096
excerpt explain-split-at-the-middle 53 53 --stream uuidv7-random --rows 400 --page-size 4096
excerpt explain-root-raise 28 28 --keys "$(seq -s, 10 10 300)" --page-size 4096
excerpt explain-large-rows-gap 9 9 --scenario ../../experiments/scenarios/large-rows-gap.toml
excerpt explain-gh-ost-copy 9 10 --scenario ../../experiments/scenarios/gh-ost-copy.toml
for s in uuidv4 uuidv7-random uuidv7-counter autoinc; do
  "$innosim" explain --stream "$s" --rows 3000 --page-size 4096 --no-flush | sed -n '/^summary:/,$p' > "explain-summary-$s.txt"
done
# The browser explainer at one step, with the flush model writing during
# the load (a 5 MB pool with a 1% dirty-page limit, 50 rows a second): a
# screenshot by Debian's headless chromium, when installed.
if command -v chromium >/dev/null; then
  "$innosim" explain --stream uuidv4 --rows 400 --page-size 4096 --rows-per-sec 50 \
    --set innodb_buffer_pool_size=5M --set innodb_max_dirty_pages_pct=1 --set innodb_max_dirty_pages_pct_lwm=0.5 \
    --html "$tmp/explain.html" > /dev/null
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --user-data-dir="$tmp/chromium" --hide-scrollbars --window-size=1400,720 --screenshot="$(pwd)/explain-browser.png" \
    "file://$tmp/explain.html#step=330" 2> /dev/null
else
  echo "make-figures.sh: chromium not found: explain-browser.png left as it was (apt-get install chromium)" >&2
fi
# Seed 000's rows-per-ms sweep against its published DATA_LENGTH (10M rows a
# run: about 20 s on two cores).
"$innosim" experiment ../../experiments/seed000.toml --svg "$tmp/sweep.svg" > /dev/null
rsvg-convert "$tmp/sweep.svg" -o sweep-seed000.png
echo "make-figures.sh: figures written to $(pwd)"
