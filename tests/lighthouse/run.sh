#!/usr/bin/env bash
# Lighthouse's default mobile run (simulated slow 4G, 4x CPU slowdown), performance only, on
# four pages of the release binary: the start page, a Railroad Ink game, a Metro game and a
# challenge's leaderboard. Prints each page's median performance score and largest contentful
# paint over RUNS runs.
#
#   npm install --global lighthouse@12        # once (or into any folder, then LIGHTHOUSE=that
#   tests/lighthouse/run.sh                   #  folder's node_modules/.bin/lighthouse)
#
# Environment: TRACKLAYER_BIN (default $CARGO_TARGET_DIR/release/tracklayer, else
# target/release/tracklayer), LIGHTHOUSE (default `lighthouse` on the PATH), CHROME_PATH
# (default /usr/bin/chromium), PORT (default 18090), RUNS (default 3), OUT (a folder for the
# JSON reports; default a temporary one, removed).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=${TRACKLAYER_BIN:-${CARGO_TARGET_DIR:-$repo/target}/release/tracklayer}
lighthouse=${LIGHTHOUSE:-lighthouse}
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
port=${PORT:-18090}
runs=${RUNS:-3}
base="http://127.0.0.1:$port"

work=$(mktemp -d)
out=${OUT:-$work/reports}
mkdir -p "$out"
TRACKLAYER_LOG=warn TRACKLAYER_CHALLENGE_BUDGET=4 TRACKLAYER_RATE_GAMES=0 \
  "$bin" serve --addr "127.0.0.1:$port" --db "$work/lighthouse.sqlite" >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do
  curl -sf "$base/" >/dev/null && break
  sleep 0.2
done

post() { curl -sf -X POST -H 'content-type: application/json' -d "$2" "$base$1"; }
ink=$(post /api/ink/games '{"mode":"solo"}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).id')
metro=$(post /api/metro/games \
  '{"players":[{"kind":"human","name":"Ada"},{"kind":"computer","level":"greedy","name":"Gus"}]}' |
  node -pe 'JSON.parse(require("fs").readFileSync(0)).id')
daily=$(curl -sf "$base/api/challenges/current" |
  node -pe 'JSON.parse(require("fs").readFileSync(0)).challenges.find((c) => c.kind === "daily").id')

pages=("start /" "ink-game /ink/$ink" "metro-game /metro/$metro" "leaderboard /challenges/$daily")
printf '%-12s %-44s %6s %8s  %s\n' page path score lcp_ms "runs (score/lcp)"
for entry in "${pages[@]}"; do
  name=${entry%% *}
  path=${entry#* }
  for i in $(seq "$runs"); do
    "$lighthouse" "$base$path" --quiet --only-categories=performance --output=json \
      --output-path="$out/$name-$i.json" \
      --chrome-flags="--headless --no-sandbox --disable-gpu" >/dev/null 2>&1
  done
  node - "$out" "$name" "$path" "$runs" <<'EOF'
const fs = require('fs');
const [dir, name, path, runs] = process.argv.slice(2);
const got = [];
for (let i = 1; i <= Number(runs); i++) {
  const r = JSON.parse(fs.readFileSync(`${dir}/${name}-${i}.json`, 'utf8'));
  got.push({ score: r.categories.performance.score, lcp: r.audits['largest-contentful-paint'].numericValue });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const each = got.map((g) => `${g.score.toFixed(2)}/${Math.round(g.lcp)}`).join(' ');
console.log(`${name.padEnd(12)} ${path.padEnd(44)} ${median(got.map((g) => g.score)).toFixed(2).padStart(6)} ${String(Math.round(median(got.map((g) => g.lcp)))).padStart(8)}  ${each}`);
EOF
done
