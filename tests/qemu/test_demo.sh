#!/usr/bin/env bash
# The README's main job works: `make demo` (demo/run-demo) and `make demo-tftp`
# (tests/qemu/run-demo-tftp) run to the end, print their progress lines, and GNU gprof
# shows the demo's known call structure (demo/demo.c: 2000 frames, 64 CRC bytes a frame,
# a median every 8th frame). Each run in a private directory.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
B=${BUILD:-build}
board=${BOARD:-mps2-an385}
TB=${PROFILE_TB:-$B/$board}
# The board's CROSS_COMPILE, following the include of a variant board's base.
board_var() {
  local f=boards/$2/board.mk v base
  v=$(sed -n "s/^$1 *:*= *//p" "$f")
  base=$(sed -n 's|^include boards/\([^/]*\)/board.mk$|\1|p' "$f")
  if [ -z "$v" ] && [ -n "$base" ]; then board_var "$1" "$base"; else echo "$v"; fi
}
cross=$(board_var CROSS_COMPILE "$board")
export GPROF=${GPROF:-${cross:-arm-none-eabi-}gprof}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }

cp "$TB/fw/demo.elf" "$tmp/demo.elf"    # a private copy: other runs may rebuild it
demo/run-demo "boards/$board/run-qemu" "$tmp/demo.elf" "$tmp/demo" > "$tmp/demo.out" 2>&1
rc=$?
out=$tmp/demo.out
check "make demo: runs to the end" '[ $rc = 0 ] || { tail -20 $out; false; }'
check "make demo: four progress lines" '[ "$(grep -c "^\[demo [1-4]/4\]" $out)" = 4 ]'
check "make demo: the loss counters are shown" 'grep -q "gprof: samples [1-9][0-9]*, outside the range 0" $out'
check "make demo: flat profile, crc8 called 128000 times on top" \
  'grep -A1 "^ time" $out | grep -qE "[0-9.]+ +[0-9.]+ +[0-9.]+ +128000 .* crc8$"'
check "make demo: call graph, main -> crc_packet 2000/2000, median -> insertion_sort 250/250" \
  'grep -qE "2000/2000 +crc_packet" $out && grep -qE "250/250 +insertion_sort" $out'
check "make demo: the profiler's own share is shown, and no package function is in the flat profile" \
  'grep -qE "gprof: profiler overhead: [0-9.]+% of samples \([1-9][0-9]* of [1-9][0-9]*\), not charged to any function" $out &&
   ! grep -qE "[0-9] +(__profile_mcount|__profile_hit|__gnu_mcount_nc|_mcount|profile_[a-z_]+)$" $out ||
   { grep -A12 "^ time" $out; false; }'

if [ ! -f "boards/$board/net.mk" ]; then   # no network interface: no demo-tftp
  echo "1..$n"
  exit $fail
fi
cp "$B/$board/net/tftp.elf" "$tmp/tftp.elf"
tests/qemu/run-demo-tftp "boards/$board/run-qemu" "$tmp/tftp.elf" "$tmp/demo-tftp" > "$tmp/tftp.out" 2>&1
rc=$?
out=$tmp/tftp.out
check "make demo-tftp: runs to the end" '[ $rc = 0 ] || { tail -20 $out; false; }'
check "make demo-tftp: four progress lines" '[ "$(grep -c "^\[demo-tftp [1-4]/4\]" $out)" = 4 ]'
check "make demo-tftp: the daemon sent gmon.out and reset the counters" \
  'grep -qE "console: profile: tftp: sent gmon.out \([0-9]+ bytes; profiler overhead [0-9]+\.[0-9]% of [1-9][0-9]* samples, not charged to any function\); counters reset" $out'
check "make demo-tftp: gprof reads it: flat profile and call graph" \
  'grep -q "^Flat profile:" $out && grep -q "Call graph" $out && ! grep -qi "gprof:.*error\|not in executable" $out'
echo "1..$n"
exit $fail
