#!/bin/sh
# Regenerates a validation table against MariaDB: for each configuration of
# the set, `innosim measure --private-server` starts a throwaway MariaDB with
# the configuration's variables, loads the stream, and simulates the same
# load with the mariadb-10.11 profile and the server's own variables; the
# table gets Innodb_pages_written and Innodb_buffer_pool_reads, simulated and
# measured.
#
#   tools/flush-validation.sh [BUILD_DIR] [CONFIG_FILTER]
#
# The set is FLUSH_VALIDATION_SET:
#   flush (default)  the flushing table of docs/validation.md: pools smaller
#                    than the table and tables in memory, one load each
#                    (about 10 minutes on two cores; the 2M-row loads
#                    dominate);
#   ordered          the ordered loads in small pools of docs/validation-ordered-loads.md
#                    (issue 30's grid: time-ordered keys, 64 and 128 MB
#                    pools, 10- to 10,000-row transactions, the statistics
#                    recalculation ON and OFF), three loads each, the
#                    medians of each side (about 15 minutes), with the
#                    pages written and read of the rollback segment
#                    headers and the undo log pages apart.
# BUILD_DIR defaults to build; CONFIG_FILTER (a grep pattern over the
# configuration lines) runs only some, and then the table is printed but the
# document is left alone. Each run's JSON is kept in $FLUSH_VALIDATION_DIR
# (default: a temporary directory, named at the end); with
# FLUSH_VALIDATION_REUSE=1 a load whose JSON is already there is not run
# again (to finish an interrupted run with the same build).
set -eu

build=${1:-build}
filter=${2:-}
set_name=${FLUSH_VALIDATION_SET:-flush}
innosim="$build/innosim"
case "$set_name" in
  flush) doc=docs/validation.md; loads=1 ;;
  ordered) doc=docs/validation-ordered-loads.md; loads=3 ;;
  *) echo "flush-validation: FLUSH_VALIDATION_SET='$set_name': use flush or ordered" >&2; exit 2 ;;
esac
[ -x "$innosim" ] || { echo "flush-validation: $innosim not found: build first (cmake --build $build)" >&2; exit 2; }
[ -f "$doc" ] || { echo "flush-validation: run from the repository root ($doc not found)" >&2; exit 2; }
out=${FLUSH_VALIDATION_DIR:-$(mktemp -d /tmp/innosim-flush-validation-XXXXXX)}
mkdir -p "$out"

# label|measure arguments (seed 1; the server's other InnoDB
# settings are the private server's: seed 000's, tools/private_server.h).
if [ "$set_name" = flush ]; then
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
else
configs="autoinc BIGINT, 1M rows, 64M, 1,000-row trx, recalc ON|--stream autoinc --rows 1M --batch 1000 --set innodb_buffer_pool_size=64M --set innodb_stats_auto_recalc=ON
autoinc BIGINT, 1M rows, 64M, 1,000-row trx, recalc OFF|--stream autoinc --rows 1M --batch 1000 --set innodb_buffer_pool_size=64M --set innodb_stats_auto_recalc=OFF
autoinc BIGINT, 2M rows, 128M, 10,000-row trx, recalc OFF|--stream autoinc --rows 2M --batch 10000 --set innodb_buffer_pool_size=128M --set innodb_stats_auto_recalc=OFF
autoinc BIGINT, 1M rows, 128M, 10-row trx, recalc ON|--stream autoinc --rows 1M --batch 10 --set innodb_buffer_pool_size=128M --set innodb_stats_auto_recalc=ON
uuidv7-counter, seed004 table, 1M rows, 128M, 10,000-row trx, recalc OFF|--stream uuidv7-counter --rows 1M --batch 10000 --table seed004 --set innodb_buffer_pool_size=128M --set innodb_stats_auto_recalc=OFF
uuidv7-counter, seed004 table, 2M rows, 128M, 10,000-row trx, recalc ON|--stream uuidv7-counter --rows 2M --batch 10000 --table seed004 --set innodb_buffer_pool_size=128M --set innodb_stats_auto_recalc=ON
uuidv7-counter, seed004 table, 1M rows, 64M, 10,000-row trx, recalc OFF|--stream uuidv7-counter --rows 1M --batch 10000 --table seed004 --set innodb_buffer_pool_size=64M --set innodb_stats_auto_recalc=OFF
uuidv7-counter, 1M rows, 64M, 1,000-row trx, recalc ON|--stream uuidv7-counter --rows 1M --batch 1000 --set innodb_buffer_pool_size=64M --set innodb_stats_auto_recalc=ON
uuidv7-counter, 1M rows, 128M, 10-row trx, recalc OFF|--stream uuidv7-counter --rows 1M --batch 10 --set innodb_buffer_pool_size=128M --set innodb_stats_auto_recalc=OFF
uuidv7-random, 1M rows, 64M, 1,000-row trx, recalc ON|--stream uuidv7-random --rows 1M --batch 1000 --set innodb_buffer_pool_size=64M --set innodb_stats_auto_recalc=ON
uuidv7-random, 1M rows, 128M, 10,000-row trx, recalc OFF|--stream uuidv7-random --rows 1M --batch 10000 --set innodb_buffer_pool_size=128M --set innodb_stats_auto_recalc=OFF"
fi

rows="$out/rows.md"
: > "$rows"
printf '%s\n' "$configs" > "$out/configs"
while IFS='|' read -r label args; do
  if [ -n "$filter" ] && ! echo "$label" | grep -q -- "$filter"; then continue; fi
  name=$(echo "$label" | tr -c 'A-Za-z0-9\n' '_')
  files=""
  i=1
  while [ "$i" -le "$loads" ]; do
    json="$out/$name.$i.json"
    files="$files $json"
    echo "flush-validation: $label (load $i of $loads)" >&2
    # Exit 1 means a structural counter or sanity check is off; the flushing
    # figures are still reported (the JSON says which).
    status=0
    if [ -n "${FLUSH_VALIDATION_REUSE:-}" ] && [ -s "$json" ]; then
      echo "flush-validation: reusing $json" >&2
    else
      # shellcheck disable=SC2086
      "$innosim" measure --private-server $args --json > "$json" || status=$?
    fi
    if [ "$status" -gt 1 ]; then
      echo "flush-validation: '$label' failed (exit $status); see $json" >&2
      exit "$status"
    fi
    i=$((i + 1))
  done
  # shellcheck disable=SC2086
  python3 - "$set_name" "$label" $files >> "$rows" <<'EOF'
import json, statistics, sys
set_name, label, runs = sys.argv[1], sys.argv[2], [json.load(open(f)) for f in sys.argv[3:]]
def cell(name):
    sim = statistics.median(j["comparison"][name]["simulated"] for j in runs)
    meas = statistics.median(j["comparison"][name]["measured"] for j in runs)
    rel = "{:+.1f}%".format(100.0 * (sim - meas) / meas) if meas else "-"
    text = "{:,.0f} / {:,.0f} ({})".format(sim, meas, rel)
    if len(runs) > 1:
        text += " [server: " + ", ".join("{:,}".format(j["comparison"][name]["measured"]) for j in runs) + "]"
    return text
def typed(name):
    # The medians of a page type's counter, simulated / measured.
    sim = statistics.median(j["comparison"][name]["simulated"] for j in runs)
    meas = statistics.median(j["comparison"][name]["measured"] for j in runs)
    return "{:,.0f} / {:,.0f}".format(sim, meas)
rate = statistics.median(j["measured"]["rows"] / j["measured"]["elapsed_s"] if j["measured"]["elapsed_s"] else 0 for j in runs)
cells = [label, cell("Innodb_pages_written"), cell("Innodb_buffer_pool_reads")]
if set_name == "ordered":
    # Where the pages written and read go: the rollback segment headers
    # (buffer_page_*_system_page) and the undo log pages.
    cells.append("headers {}, undo {}".format(typed("buffer_page_written_system_page"),
                                               typed("buffer_page_written_undo_log")))
    cells.append("headers {}, undo {}".format(typed("buffer_page_read_system_page"),
                                               typed("buffer_page_read_undo_log")))
cells += ["{:,.0f}".format(rate), "yes" if all(j["valid"] for j in runs) else "NO"]
print("| " + " | ".join(cells) + " |")
EOF
done < "$out/configs"

what=$([ "$loads" -gt 1 ] && echo "median of $loads loads, " || true)
if [ "$set_name" = ordered ]; then
  header="| configuration | \`Innodb_pages_written\` sim / measured (${what}rel. error) | \`Innodb_buffer_pool_reads\` sim / measured | of the pages written: headers, undo log pages, sim / measured | of the reads: headers, undo log pages | rows/s achieved | sanity checks |"
  rule='|---|---|---|---|---|---|---|'
else
  header="| configuration | \`Innodb_pages_written\` sim / measured (${what}rel. error) | \`Innodb_buffer_pool_reads\` sim / measured | rows/s achieved | sanity checks |"
  rule='|---|---|---|---|---|'
fi
table=$(printf '%s\n%s\n' "$header" "$rule"; cat "$rows")
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
