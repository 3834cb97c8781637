#!/usr/bin/env bash
# `make demo-stacks` (demo/run-demo-stacks) on the reference board: it runs to the end with
# its four progress lines; GNU gprof splits work's time 1000/2000 and 1000/2000 between
# light and heavy; tgprof, from gmon.stacks, puts more than 95% of work's samples under
# heavy; the folded stacks and a well-formed flame graph are written; speedscope loads the
# speedscope export in headless Chromium and draws it. A private directory.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
B=${BUILD:-build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-demo-stacks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }

elf=$B/mps2-an385/fw/demo-stacks-mode.elf
cp "$elf" "$tmp/demo-stacks.elf"    # a private copy: other runs may rebuild it
GPROF=arm-none-eabi-gprof TGPROF=$B/host/tgprof demo/run-demo-stacks boards/mps2-an385/run-qemu \
  "$tmp/demo-stacks.elf" "$tmp/demo" > "$tmp/out" 2>&1
rc=$?
out=$tmp/out
check "make demo-stacks: runs to the end" '[ $rc = 0 ] || { tail -20 $out; false; }'
check "make demo-stacks: four progress lines" '[ "$(grep -c "^\[demo-stacks [1-4]/4\]" $out)" = 4 ]'
check "GNU gprof: work's callers 1000/2000 each" \
  '[ "$(grep -cE "1000/2000 +(light|heavy) \[" $out)" = 4 ]'
share=$(sed -n 's/.*work.s samples: \([0-9]*\) under light, \([0-9]*\) under heavy.*/\1 \2/p' "$out")
check "tgprof, measured: more than 95% of work's samples under heavy ($share)" \
  'set -- $share; [ $# = 2 ] && [ $(( 100 * $2 )) -gt $(( 95 * ($1 + $2) )) ]'
check "the folded stacks: main;light;work and main;heavy;work" \
  'grep -qE "^main;light;work [0-9]+$" $tmp/demo/stacks.folded && grep -qE "^main;heavy;work [0-9]+$" $tmp/demo/stacks.folded'
check "the flame graph is well-formed SVG" \
  'python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" $tmp/demo/flame.svg'

# speedscope (npm, pinned; tools/setup speedscope) loads tgprof's export in headless
# Chromium: its toolbar names the profile, and the flame chart's first rows are drawn.
site=$tmp/site
cp -r "$B/npm/node_modules/speedscope/dist/release" "$site"
"$B/host/tgprof" -b -q --speedscope="$site/profile.json" "$tmp/demo-stacks.elf" "$tmp/demo/gmon.out" \
  > /dev/null 2>&1
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
(cd "$site" && exec python3 -m http.server "$port" --bind 127.0.0.1 > /dev/null 2>&1) &
srv=$!
for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
url="http://127.0.0.1:$port/index.html#profileURL=http://127.0.0.1:$port/profile.json"
browse() { timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1200,700 --virtual-time-budget=8000 --user-data-dir="$tmp/chromium" "$@" "$url"; }
browse --dump-dom > "$tmp/dom.html" 2> /dev/null
browse --screenshot="$tmp/speedscope.png" > /dev/null 2>&1
kill $srv 2> /dev/null
check "speedscope loads tgprof's export (its toolbar names the profile)" \
  'grep -q "gmon.stacks" $tmp/dom.html'
check "speedscope draws its stacks: the flame chart's rows are coloured ($(python3 tests/qemu/png_check.py $tmp/speedscope.png 140 205 2>&1))" \
  'python3 tests/qemu/png_check.py $tmp/speedscope.png 140 205 | awk "{ exit !(\$4 > 0.5) }"'
[ -n "${KEEP_SCREENSHOT:-}" ] && cp "$tmp/speedscope.png" "$KEEP_SCREENSHOT"
echo "1..$n"
exit $fail
