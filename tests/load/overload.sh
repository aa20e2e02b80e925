#!/usr/bin/env bash
# The overload rows of docs/benchmarks.md ("Past capacity"): the release server with its default
# admission control, the open-loop generator past what one core answers.
#   tests/load/overload.sh sqlite                 # 1,000, 2,000, 4,000 and 8,000 players
#   tests/load/overload.sh sqlite 4000 --back-off # one row; the players wait as Retry-After asks
#   tests/load/overload.sh postgres URL           # two processes on an empty database: 500, 1,000
# SQLite: the server pinned to core 0 and the generator to core 1, a fresh file a row.
# PostgreSQL: both processes, the database and the generator share the machine's cores, every
# request to the next process in turn. Each row reports what the generator saw, the server's
# CPU, and its refusals by reason (from its metrics address).
# Needs: cargo build --release -p tracklayer && cargo build --release -p server --example loadgen
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${CARGO_TARGET_DIR:-target}
bin=$target/release/tracklayer
gen=$target/release/examples/loadgen
secs=${SECONDS_EACH:-20}
dir=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT
limits=(--rate-games 0 --rate-players 0 --rate-joins 0 --max-streams 0)

# serve PIN PORT DB: a server, waited for; its pid in $pids.
serve() {
  $1 "$bin" serve --addr "127.0.0.1:$2" --db "$3" "${limits[@]}" \
    --metrics-addr "127.0.0.1:$(($2 + 1000))" >"$dir/$2.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$2/api/health" >/dev/null && return; sleep 0.1; done
  echo "the server on $2 did not start" >&2
  exit 1
}

refusals() { # port
  curl -s "127.0.0.1:$(($1 + 1000))/metrics" | awk '/^tracklayer_refused_total/ {printf " %s", $0}'
}

stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}

pin_server="" pin_gen=""
if [ "$(nproc)" -gt 1 ]; then pin_server="taskset -c 0" pin_gen="taskset -c 1"; fi

case "${1:-sqlite}" in
  sqlite)
    shift || true
    rows=("${1:-1000 2000 4000 8000}")
    shift || true
    for players in ${rows[*]}; do
      rm -f "$dir"/db.sqlite*
      serve "$pin_server" 18450 "$dir/db.sqlite"
      cpu0=$(awk '{print $14 + $15}' "/proc/${pids[0]}/stat")
      out=$($pin_gen "$gen" --addr 127.0.0.1:18450 --players "$players" --every 300 --seconds "$secs" "$@")
      cpu1=$(awk '{print $14 + $15}' "/proc/${pids[0]}/stat")
      echo "[SQLite, $players players] $out; server CPU $(((cpu1 - cpu0) * 10)) ms;$(refusals 18450)"
      stop_all
    done
    ;;
  postgres)
    url=${2:?a PostgreSQL URL of an empty database}
    shift 2
    for players in ${ROWS:-500 1000}; do
      serve "" 18451 "$url"
      serve "" 18452 "$url"
      out=$("$gen" --addr 127.0.0.1:18451 --addr 127.0.0.1:18452 --round-robin \
        --players "$players" --every 300 --seconds "$secs" "$@")
      echo "[PostgreSQL, two processes, $players players] $out;$(refusals 18451);$(refusals 18452)"
      stop_all
    done
    ;;
  *)
    echo "usage: $0 sqlite [PLAYERS] [loadgen arguments] | postgres URL [loadgen arguments]" >&2
    exit 2
    ;;
esac
