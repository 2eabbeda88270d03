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

excerpt() {  # NAME ROW, then explain's arguments: the block of insert ROW
  local name=$1 row=$2; shift 2
  "$innosim" explain "$@" --from "$row" --to "$row" | sed -n '/^row /,/^$/p' > "$name.txt"
}
excerpt explain-split-to-the-right 41 --keys "$(seq -s, 10 10 4000)" --page-size 4096
excerpt explain-split-at-the-middle 53 --stream uuidv7-random --rows 400 --page-size 4096
excerpt explain-root-raise 28 --keys "$(seq -s, 10 10 300)" --page-size 4096
"$innosim" explain --scenario ../../experiments/scenarios/large-rows-gap.toml --from 9 --to 9 \
  | sed -n '/^row /,/^$/p' > explain-large-rows-gap.txt
for s in uuidv4 uuidv7-random uuidv7-counter autoinc; do
  "$innosim" explain --stream "$s" --rows 3000 --page-size 4096 | sed -n '/^summary:/,$p' > "explain-summary-$s.txt"
done
# Seed 000's rows-per-ms sweep against its published DATA_LENGTH (10M rows a
# run: about 20 s on two cores).
"$innosim" experiment ../../experiments/seed000.toml --svg "$tmp/sweep.svg" > /dev/null
rsvg-convert "$tmp/sweep.svg" -o sweep-seed000.png
echo "make-figures.sh: figures written to $(pwd)"
