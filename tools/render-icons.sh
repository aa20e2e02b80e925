#!/usr/bin/env bash
# Draws the app's PNG icons (web/icons/) from their SVGs with headless Chromium: 192 and 512
# pixels from web/favicon.svg (transparent corners), 512 maskable and the 180 pixel Apple touch
# icon from web/icons/maskable.svg (drawn to the edges).
#
#   tools/render-icons.sh        # CHROMIUM=… for another browser (default /usr/bin/chromium)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
chromium=${CHROMIUM:-/usr/bin/chromium}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

render() { # svg size out
  cp "$1" "$work/src.svg"
  printf '<!doctype html><style>html,body{margin:0;background:transparent}img{display:block;width:%spx;height:%spx}</style><img src="src.svg">' \
    "$2" "$2" >"$work/icon.html"
  "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --no-first-run --hide-scrollbars \
    --default-background-color=00000000 --window-size="$2,$2" \
    --screenshot="$3" "file://$work/icon.html" 2>/dev/null
}

render "$repo/web/favicon.svg" 192 "$repo/web/icons/icon-192.png"
render "$repo/web/favicon.svg" 512 "$repo/web/icons/icon-512.png"
render "$repo/web/icons/maskable.svg" 512 "$repo/web/icons/maskable-512.png"
render "$repo/web/icons/maskable.svg" 180 "$repo/web/icons/apple-touch-icon.png"
echo "drawn: web/icons/{icon-192,icon-512,maskable-512,apple-touch-icon}.png"
