#!/usr/bin/env bash
# `make install` gives a tree that an application in a folder the project has never seen
# builds against with the tree's profile.mk alone; the result boots, profiles, and gdb plus
# the installed gprof.gdb extract a gmon.out that arm-none-eabi-gprof reads, counting the
# 25 calls of busy() exactly.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
board=${BOARD:-mps2-an385}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }

make -s -C "$root" BOARD="$board" install PREFIX="$tmp/prefix" > "$tmp/install.log" 2>&1
rc=$?
check "make install PREFIX=... succeeds" '[ $rc -eq 0 ] || { cat "$tmp/install.log"; false; }'
dir="$tmp/prefix/$board"
check "install tree has headers, pkgconf, library, linker script, profile.mk, runner, gdb script" \
  '[ -f $dir/include/cyg/profile/profile.h ] && [ -f $dir/include/pkgconf/system.h ] && [ -f $dir/lib/libprofile.a ] && ls $dir/lib/*.ld >/dev/null && [ -f $dir/lib/profile.mk ] && [ -x $dir/bin/run-qemu ] && [ -f $dir/share/gprof.gdb ]'

mkdir "$tmp/app"
cp "$here/app.c" "$tmp/app/"
cp "$here/Makefile.app" "$tmp/app/Makefile"
(cd "$tmp/app" && make -s PROFILE_DIR="$dir") > "$tmp/app.log" 2>&1
check "an outside application builds with -pg from the install tree" '[ -f $tmp/app/app.elf ] || { cat $tmp/app.log; false; }'

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$dir/bin/run-qemu" --gdb "$port" --halt "$tmp/app/app.elf" > "$tmp/qemu.log" 2>&1 &
qemu=$!
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
(cd "$tmp/app" && gdb-multiarch -nx -batch -x "$dir/share/gprof.gdb" app.elf \
   -ex "target remote 127.0.0.1:$port" -ex "break app_done" -ex continue -ex gprof_dump -ex kill) \
   > "$tmp/gdb.log" 2>&1
kill $qemu 2>/dev/null; wait $qemu 2>/dev/null
check "the installed gprof.gdb writes gmon.out" '[ -s $tmp/app/gmon.out ] || { cat $tmp/gdb.log; false; }'
arm-none-eabi-gprof -b -p "$tmp/app/app.elf" "$tmp/app/gmon.out" > "$tmp/flat.txt" 2>&1
check "arm-none-eabi-gprof counts busy() 25 times" 'awk '\''$NF=="busy" && $4==25 {f=1} END {exit !f}'\'' $tmp/flat.txt || { cat $tmp/flat.txt; false; }'
echo "1..$n"
exit $fail
