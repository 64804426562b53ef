#!/usr/bin/env bash
# Renders report.html (and report.svg) of the published set in headless
# Chromium and fails on any console message. The check proves itself first:
# a page with a deliberate script error must be caught, or the test fails.
#
#   html_chromium.sh BOOTBENCH PUBLISHED_DIR
# Exit 77 (meson: skipped) only when no Chromium is installed.
set -euo pipefail
bootbench=$1
published=$2

browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
  echo "SKIP: no chromium on this machine (apt-get install chromium / dnf install chromium); report.html was not rendered"
  exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Loads a page; its DOM goes to $2, Chromium's log (with CONSOLE lines) to $3.
render() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$tmp/profile-$RANDOM" \
    --enable-logging=stderr --v=0 --dump-dom "file://$1" >"$2" 2>"$3" || {
    echo "FAIL: $browser could not load $1"; cat "$3"; exit 1; }
}

printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body><script>undefinedFunction();</script></body></html>\n' >"$tmp/broken.html"
render "$tmp/broken.html" "$tmp/broken.dom" "$tmp/broken.log"
if ! grep -q 'CONSOLE.*undefinedFunction' "$tmp/broken.log"; then
  echo "FAIL: the console check does not work: a deliberate script error was not seen in $browser's log"
  cat "$tmp/broken.log"
  exit 1
fi
echo "ok: a deliberate script error is detected"

"$bootbench" report "$published" --baseline bluefin-dx --exclude margine-cachyos-1 \
  --out-prefix "$tmp/report" >/dev/null

status=0
for page in report.html report.svg; do
  render "$tmp/$page" "$tmp/$page.dom" "$tmp/$page.log"
  if grep 'CONSOLE' "$tmp/$page.log"; then
    echo "FAIL: $page logs console messages (above)"
    status=1
  elif ! grep -q '1.79x faster' "$tmp/$page.dom"; then
    echo "FAIL: $page rendered without the comparison"
    head -c 2000 "$tmp/$page.dom"
    status=1
  else
    echo "ok: $page renders with no console message"
  fi
done
grep -q '<svg' "$tmp/report.html.dom" || { echo "FAIL: report.html has no inline svg"; status=1; }

# Layout: no chart text overlaps other text or a dot or leaves the chart, and
# report.html is never wider than the window, at two widths, for the
# published set and for a chart made to be hard (tests/report/layout_runs.py).
here=$(cd "$(dirname "$0")" && pwd)
layout() { # PAGE WIDTH: prints the problems layout_check.js found, as JSON
  local page=$1 width=$2 out="$tmp/layout-$RANDOM.html"
  if [[ $page == *.svg ]]; then
    { echo '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">'; cat "$page"; } >"$out"
  else
    sed 's#</body>##; s#</html>##' "$page" >"$out"
  fi
  { echo '<script>'; cat "$here/layout_check.js"; echo '</script></body></html>'; } >>"$out"
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$tmp/profile-$RANDOM" --window-size="$width,900" --dump-dom "file://$out" 2>/dev/null |
    grep -o '<body[^>]*data-layout="[^"]*"' | head -n 1 | sed 's/.*data-layout="//; s/"$//; s/&quot;/"/g'
}

printf '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50" viewBox="0 0 200 50"><text x="10" y="20">overlapping</text><text x="20" y="22">text</text><circle cx="190" cy="20" r="4"/><text x="150" y="60">below</text></svg>\n' >"$tmp/bad.svg"
found=$(layout "$tmp/bad.svg" 1280)
if [[ $found != *overlap* || $found != *"outside the chart"* ]]; then
  echo "FAIL: the layout check does not work: a chart with overlapping text and text outside gave: $found"
  exit 1
fi
echo "ok: the layout check catches overlapping text and text outside the chart"

python3 "$here/layout_runs.py" "$tmp/hard"
"$bootbench" report "$tmp/hard" --baseline stock --out-prefix "$tmp/hard-report" >/dev/null
for page in "$tmp/report.svg" "$tmp/report.html" "$tmp/hard-report.svg" "$tmp/hard-report.html"; do
  for width in 1280 700; do
    found=$(layout "$page" "$width")
    if [ "$found" != "[]" ]; then
      echo "FAIL: $(basename "$page") at $width px: $found"
      status=1
    else
      echo "ok: $(basename "$page") at $width px: no overlap, nothing outside"
    fi
  done
done
exit $status
