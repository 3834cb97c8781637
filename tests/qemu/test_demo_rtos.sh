#!/usr/bin/env bash
# `make demo-rtos` (demo/run-demo-rtos) on the reference board: it runs to the end with its
# three progress lines; it prints the per-task table, its header naming the task column
# "task", a row for each of the kernel's tasks; it writes a well-formed flame graph whose
# task frames carry the tasks' names (a tgprof that reads gmon.tasks; else a skip). A
# private directory.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
B=${BUILD:-build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-demo-rtos.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }

cp "$B/mps2-an385/fw/rtos-mode.elf" "$tmp/rtos.elf"    # a private copy: other runs may rebuild it
TGPROF=$B/host/tgprof demo/run-demo-rtos boards/mps2-an385/run-qemu "$tmp/rtos.elf" "$tmp/demo" \
  > "$tmp/out" 2>&1
rc=$?
out=$tmp/out
check "make demo-rtos: runs to the end" '[ $rc = 0 ] || { tail -20 $out; false; }'
check "make demo-rtos: three progress lines" '[ "$(grep -c "^\[demo-rtos [1-3]/3\]" $out)" = 3 ]'
check "the per-task table's header names the task column \"task\"" \
  'grep -qE "^    task +samples +share +id$" $out'
check "a row for every task: main, sender, receiver, worker, idle" \
  'for t in main sender receiver worker idle; do grep -qE "^    $t +[0-9]+ +[0-9.]+%  0x" $out || exit 1; done'
check "the flame graph is well-formed SVG" \
  'python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" $tmp/demo/rtos-flame.svg'
n=$((n+1))
if "$B/host/tgprof" --help 2>&1 | grep -q -- "--tasks"; then
  if grep -q "<title>sender (" "$tmp/demo/rtos-flame.svg" && grep -q "<title>receiver (" "$tmp/demo/rtos-flame.svg"; then
    echo "ok $n - the flame graph's task frames carry the tasks' names"
  else
    echo "not ok $n - the flame graph's task frames carry the tasks' names"; fail=1
  fi
else
  echo "ok $n - the flame graph's task frames carry the tasks' names # SKIP this tgprof does not read gmon.tasks"
fi
echo "1..$n"
exit $fail
