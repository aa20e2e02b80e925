#!/usr/bin/env bash
# The PostgreSQL row of docs/benchmarks.md ("Open loop"): two release server processes on one
# PostgreSQL database behind nginx with deploy/nginx/tracklayer.conf (round robin), the
# open-loop generator against nginx.
#   tests/load/postgres-nginx.sh postgres://USER:PASSWORD@127.0.0.1:5432/DATABASE [PLAYERS]
# The database should be empty (a fresh one). Needs nginx (/usr/sbin/nginx), and
# cargo build --release -p tracklayer && cargo build --release -p server --example loadgen
set -euo pipefail
cd "$(dirname "$0")/../.."
url=${1:?a PostgreSQL URL}
players=${2:-500}
target=${CARGO_TARGET_DIR:-target}
bin=$target/release/tracklayer
gen=$target/release/examples/loadgen
secs=${SECONDS_EACH:-30}
dir=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
for port in 18411 18412; do
  "$bin" serve --addr "127.0.0.1:$port" --db "$url" --trust-proxy --rate-games 0 \
    --rate-players 0 --rate-joins 0 --max-streams 0 >"$dir/$port.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break; sleep 0.1; done
done
# The sample site with this run's ports, in a minimal nginx.conf of its own.
sed -e 's/server 127.0.0.1:8081;/server 127.0.0.1:18411;/' -e 's/server 127.0.0.1:8082;/server 127.0.0.1:18412;/' \
  -e 's/listen 80;/listen 127.0.0.1:18410;/' -e '/listen \[::\]:80;/d' \
  deploy/nginx/tracklayer.conf >"$dir/site.conf"
cat >"$dir/nginx.conf" <<CONF
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log;
events { worker_connections 20000; }
http {
  access_log off;
  client_body_temp_path $dir;
  proxy_temp_path $dir;
  include $dir/site.conf;
}
CONF
/usr/sbin/nginx -c "$dir/nginx.conf" -p "$dir"
for _ in $(seq 100); do curl -sf "http://127.0.0.1:18410/api/health" >/dev/null && break; sleep 0.1; done
"$gen" --addr 127.0.0.1:18410 --players "$players" --every 300 --seconds "$secs" "${@:3}"
echo "load average $(cut -d' ' -f1 /proc/loadavg)"
