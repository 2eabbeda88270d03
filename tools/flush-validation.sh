#!/bin/sh
# Regenerates the flushing table of docs/validation.md (between the
# flush-validation markers): for each configuration below, `innosim measure
# --private-server` starts a throwaway MariaDB with the configuration's
# variables, loads the stream, and simulates the same load with the
# mariadb-10.11 profile and the server's own variables; the table gets
# Innodb_pages_written and Innodb_buffer_pool_reads, simulated and measured.
#
#   tools/flush-validation.sh [BUILD_DIR] [CONFIG_FILTER]
#
# BUILD_DIR defaults to build; CONFIG_FILTER (a grep pattern over the
# configuration lines) runs only some, and then the table is printed but
# docs/validation.md is left alone. Takes about 10 minutes on two cores (the
# 2M-row loads dominate). Each run's JSON is kept in $FLUSH_VALIDATION_DIR
# (default: a temporary directory, named at the end); with
# FLUSH_VALIDATION_REUSE=1 a configuration whose JSON is already there is
# not loaded again (to finish an interrupted run with the same build).
set -eu

build=${1:-build}
filter=${2:-}
innosim="$build/innosim"
doc=docs/validation.md
[ -x "$innosim" ] || { echo "flush-validation: $innosim not found: build first (cmake --build $build)" >&2; exit 2; }
[ -f "$doc" ] || { echo "flush-validation: run from the repository root ($doc not found)" >&2; exit 2; }
out=${FLUSH_VALIDATION_DIR:-$(mktemp -d /tmp/innosim-flush-validation-XXXXXX)}
mkdir -p "$out"

# label|measure arguments (seed 1; the server's other InnoDB
# settings are the private server's: seed 000's, tools/private_server.h).
configs='seed004 table, 100k rows, 16M pool, neighbours 1|--stream uuidv4 --rows 100k --batch 10000 --table seed004 --set innodb_buffer_pool_size=16M --set innodb_flush_neighbors=1
seed004 table, 1M rows, 128M pool, neighbours 1|--stream uuidv4 --rows 1M --batch 10000 --table seed004 --set innodb_buffer_pool_size=128M --set innodb_flush_neighbors=1
seed004 table, 1M rows, 128M pool, neighbours 0|--stream uuidv4 --rows 1M --batch 10000 --table seed004 --set innodb_buffer_pool_size=128M --set innodb_flush_neighbors=0
seed004 table, 2M rows, 128M pool, neighbours 1|--stream uuidv4 --rows 2M --batch 10000 --table seed004 --set innodb_buffer_pool_size=128M --set innodb_flush_neighbors=1
seed004 table, 2M rows, 128M pool, neighbours 0|--stream uuidv4 --rows 2M --batch 10000 --table seed004 --set innodb_buffer_pool_size=128M --set innodb_flush_neighbors=0
seed000 table, 1M rows, 1G pool (in memory), 16k pages|--stream uuidv4 --rows 1M --set innodb_buffer_pool_size=1G
seed000 table, 1M rows, 1G pool (in memory), 4k pages|--stream uuidv4 --rows 1M --set innodb_buffer_pool_size=1G --page-size 4k
uuidv4, one row per transaction, 200k rows, 128M pool|--stream uuidv4 --rows 200k --batch 1
autoinc, 1M rows, 1G pool, 16k pages|--stream autoinc --rows 1M --set innodb_buffer_pool_size=1G
uuidv7-counter, 1M rows, 1G pool, 16k pages|--stream uuidv7-counter --rows 1M --set innodb_buffer_pool_size=1G
autoinc, 1M rows, 1G pool, 4k pages|--stream autoinc --rows 1M --set innodb_buffer_pool_size=1G --page-size 4k
uuidv7-counter, 1M rows, 1G pool, 4k pages|--stream uuidv7-counter --rows 1M --set innodb_buffer_pool_size=1G --page-size 4k'

rows="$out/rows.md"
: > "$rows"
printf '%s\n' "$configs" > "$out/configs"
while IFS='|' read -r label args; do
  if [ -n "$filter" ] && ! echo "$label" | grep -q -- "$filter"; then continue; fi
  name=$(echo "$label" | tr -c 'A-Za-z0-9\n' '_')
  echo "flush-validation: $label" >&2
  # Exit 1 means a structural counter or sanity check is off; the flushing
  # figures are still reported (the JSON says which).
  status=0
  if [ -n "${FLUSH_VALIDATION_REUSE:-}" ] && [ -s "$out/$name.json" ]; then
    echo "flush-validation: reusing $out/$name.json" >&2
  else
    # shellcheck disable=SC2086
    "$innosim" measure --private-server $args --json > "$out/$name.json" || status=$?
  fi
  if [ "$status" -gt 1 ]; then
    echo "flush-validation: '$label' failed (exit $status); see $out/$name.json" >&2
    exit "$status"
  fi
  python3 - "$out/$name.json" "$label" "$args" >> "$rows" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
c = j["comparison"]
def cell(name):
    r = c[name]
    e = r["relative_error"]  # None when the server's count is 0
    return "{:,} / {:,} ({})".format(r["simulated"], r["measured"], "{:+.1f}%".format(100.0 * e) if e is not None else "-")
m = j["measured"]
rate = m["rows"] / m["elapsed_s"] if m["elapsed_s"] else 0
print("| {} | {} | {} | {:,.0f} | {} |".format(
    sys.argv[2], cell("Innodb_pages_written"), cell("Innodb_buffer_pool_reads"), rate,
    "yes" if j["valid"] else "NO"))
EOF
done < "$out/configs"

table=$(printf '%s\n%s\n' \
  '| configuration | `Innodb_pages_written` sim / measured | `Innodb_buffer_pool_reads` sim / measured | rows/s achieved | sanity checks |' \
  '|---|---|---|---|---|'; cat "$rows")
echo "$table"
if [ -n "$filter" ]; then
  echo "flush-validation: filtered run; $doc left as it is. JSON in $out" >&2
  exit 0
fi
tmp="$doc.tmp.$$"
python3 - "$doc" "$tmp" <<EOF
import sys
doc, tmp = sys.argv[1], sys.argv[2]
text = open(doc).read()
begin, end = "<!-- flush-validation:begin -->", "<!-- flush-validation:end -->"
if begin not in text or end not in text:
    sys.exit("flush-validation: markers missing in " + doc)
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open(tmp, "w").write(head + begin + "\n" + """$table""" + "\n" + end + tail)
EOF
mv "$tmp" "$doc"
echo "flush-validation: $doc updated; JSON in $out" >&2
