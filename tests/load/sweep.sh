#!/usr/bin/env bash
# The load sweep of docs/benchmarks.md ("Open loop"): the release server pinned to one
# core, the open-loop generator to another, a fresh SQLite file a run.
#   tests/load/sweep.sh                  # every row
#   tests/load/sweep.sh 1000             # one row: 1,000 solo players every 300 ms
#   SECONDS_EACH=60 tests/load/sweep.sh  # longer runs
# Needs: cargo build --release -p tracklayer && cargo build --release -p server --example loadgen
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${CARGO_TARGET_DIR:-target}
bin=$target/release/tracklayer
gen=$target/release/examples/loadgen
secs=${SECONDS_EACH:-30}
# On a machine that runs other work, PRIO="nice -n -15" (as root) gives the two the cores first.
PRIO=${PRIO:-}
port=18400
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cores=$(nproc)
server_core=0
gen_core=$((cores > 1 ? 1 : 0))

run() { # label, then loadgen arguments
  local label=$1
  shift
  rm -f "$dir"/db.sqlite*
  $PRIO taskset -c "$server_core" "$bin" serve --addr "127.0.0.1:$port" --db "$dir/db.sqlite" \
    --rate-games 0 --rate-players 0 --rate-joins 0 --max-streams 0 >"$dir/server.log" 2>&1 &
  local pid=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break; sleep 0.1; done
  local cpu0
  cpu0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  local out
  out=$($PRIO taskset -c "$gen_core" "$gen" --addr "127.0.0.1:$port" --seconds "$secs" "$@")
  local cpu1 rss
  cpu1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  rss=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")
  echo "[$label] $out; server CPU $(((cpu1 - cpu0) * 10)) ms, $rss MB; load average $(cut -d' ' -f1 /proc/loadavg)"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
}

rows=${1:-all}
for players in 500 650 800 1000; do
  if [ "$rows" = all ] || [ "$rows" = "$players" ]; then
    run "SQLite, $players solo players every 300 ms" --players "$players" --every 300
  fi
done
if [ "$rows" = all ] || [ "$rows" = streams ]; then
  run "5,000 players at tables of 4, one stream each, an action every 5 s" \
    --players 5000 --table 4 --streams --pool 64 --every 5000
  run "10,000 players at tables of 4, one stream each, an action every 5 s" \
    --players 10000 --table 4 --streams --pool 64 --every 5000
fi
