#!/usr/bin/env bash
# Bring your own board: the architecture-only install tree (make BOARD=none ARCH=armv7m
# CPUFLAGS=... install) has the package and the mcount stub and no board code; a firmware in
# a folder of its own with its own startup file, linker script, C library glue and profile
# timer (a CMSIS-style vendor header) builds against it, runs in QEMU (plain
# qemu-system-arm, no runner of ours), and gdb with the installed gprof.gdb extracts a
# gmon.out in which arm-none-eabi-gprof finds the known call counts exactly.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'kill $qemu 2>/dev/null; rm -rf "$tmp"' EXIT
qemu=
n=0 fail=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }

make -s -C "$root" BOARD=none ARCH=armv7m CPUFLAGS='-mcpu=cortex-m3 -mthumb -mfloat-abi=soft' \
  install PREFIX="$tmp/prefix" > "$tmp/install.log" 2>&1
rc=$?
dir=$tmp/prefix/none-armv7m
check "make BOARD=none ARCH=armv7m install succeeds" '[ $rc -eq 0 ] || { tail -20 "$tmp/install.log"; false; }'
arm-none-eabi-nm -A "$dir/lib/libprofile.a" 2>/dev/null | sed -n 's/^[^:]*:\([^:]*\)\.o:.*/\1/p' | sort -u > "$tmp/objs"
make -s -C "$root" BOARD=none ARCH=armv7m CPUFLAGS='-mcpu=cortex-m3 -mthumb -mfloat-abi=soft' config-srcs > "$tmp/srcs"
# (every object from the package's target/ sources or the arch HAL's own folder)
grep -E '^(target|hal/armv7m)/' "$tmp/srcs" | xargs -n1 basename | sort -u > "$tmp/allowed"
check "the library is the package and the stub alone: no startup, vector table, syscalls or board" \
  '! grep -qvE "^(target|hal/armv7m)/" "$tmp/srcs" && [ -z "$(comm -23 "$tmp/objs" "$tmp/allowed")" ] && grep -qx mcount.S "$tmp/objs" || { cat "$tmp/srcs" "$tmp/objs"; false; }'
check "the tree has no linker script (only the fragment profile_text.ld a script INCLUDEs) and no runner" \
  '[ "$(cd "$dir/lib" && ls *.ld 2>/dev/null)" = profile_text.ld ] && [ ! -e "$dir/bin/run-qemu" ]'

mkdir "$tmp/fw"
cp "$here"/*.c "$here"/*.h "$here"/acme.ld "$here"/Makefile "$tmp/fw/"
(cd "$tmp/fw" && make -s PROFILE_DIR="$dir") > "$tmp/build.log" 2>&1
check "the firmware builds against the tree with its own startup, linker script and timer" \
  '[ -f "$tmp/fw/app.elf" ] || { cat "$tmp/build.log"; false; }'

# (the tree's <cyg/profile/hal.h> declares the board's hooks: a timer that got one wrong fails
# to build, rather than being called with the wrong arguments)
mkdir "$tmp/fw-wrong"
cp "$tmp"/fw/*.c "$tmp"/fw/*.h "$tmp/fw/acme.ld" "$tmp/fw/Makefile" "$tmp/fw-wrong/"
sed -i 's/^int hal_enable_profile_timer(int interval_us)$/int hal_enable_profile_timer(unsigned interval_us)/' \
  "$tmp/fw-wrong/profile_timer.c"
(cd "$tmp/fw-wrong" && make -s PROFILE_DIR="$dir") > "$tmp/wrong.log" 2>&1
check "a profile timer with another signature than the installed <cyg/profile/hal.h>'s does not build" \
  '! cmp -s "$tmp/fw/profile_timer.c" "$tmp/fw-wrong/profile_timer.c" && [ ! -f "$tmp/fw-wrong/app.elf" ] &&
   grep -q "conflicting types for .hal_enable_profile_timer" "$tmp/wrong.log" || { cat "$tmp/wrong.log"; false; }'

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
qemu-system-arm -M mps2-an385 -nographic -monitor none -serial null \
  -semihosting-config enable=on,target=native -icount shift=5,sleep=off \
  -gdb "tcp::$port" -S -kernel "$tmp/fw/app.elf" > "$tmp/qemu.log" 2>&1 &
qemu=$!
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
(cd "$tmp/fw" && timeout 120 gdb-multiarch -nx -batch -x "$dir/share/gprof.gdb" app.elf \
   -ex "target remote 127.0.0.1:$port" -ex "break app_done" -ex continue -ex gprof_dump -ex kill) \
   > "$tmp/gdb.log" 2>&1
check "gdb and the installed gprof.gdb write gmon.out" '[ -s "$tmp/fw/gmon.out" ] || { cat "$tmp/gdb.log"; false; }'
arm-none-eabi-gprof -b -q "$tmp/fw/app.elf" "$tmp/fw/gmon.out" > "$tmp/graph.txt" 2>&1
arm-none-eabi-gprof -b -p "$tmp/fw/app.elf" "$tmp/fw/gmon.out" > "$tmp/flat.txt" 2>&1
graph() { grep -qE "^ +[0-9.]+ +[0-9.]+ +$1 +$2 \[" "$tmp/graph.txt"; }
check "call counts exact: main -> worker 400, worker -> leaf 1200, main -> leaf 400" \
  'graph 400/400 worker && graph 1200/1600 leaf && graph 400/1600 leaf || { cat "$tmp/graph.txt"; false; }'
check "recursion exact: depth 1+50" 'grep -qE "^\[[0-9]+\].* 1\+50 +depth" "$tmp/graph.txt" || { cat "$tmp/graph.txt"; false; }'
check "the firmware's own timer interrupt feeds samples, none outside the range" \
  'grep -qE "gprof: samples [1-9][0-9]*, outside the range 0" "$tmp/gdb.log" || { cat "$tmp/gdb.log"; false; }'
# (a linker script of one's own that INCLUDEs profile_text.ld: the package's code is overhead)
check "the package's own code is profiler overhead there too, not in the flat profile" \
  'grep -qE "gprof: profiler overhead: [0-9.]+% of samples \([1-9][0-9]* of" "$tmp/gdb.log" &&
   ! grep -qE " (__profile_mcount|__profile_hit|__gnu_mcount_nc)\$" "$tmp/flat.txt" ||
   { cat "$tmp/gdb.log" "$tmp/flat.txt"; false; }'
echo "1..$n"
exit $fail
