#!/usr/bin/env bash
# The package is never compiled with -pg, even when the user's CFLAGS contain it.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
board=${BOARD:-mps2-an385}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }
nm=arm-none-eabi-nm

make -s -C "$root" BOARD="$board" BUILD="$tmp/build" CFLAGS="-pg -O2" \
  "$tmp/build/$board/lib/libprofile.a" > "$tmp/make.log" 2>&1
rc=$?
check "the library builds with CFLAGS=-pg" '[ $rc -eq 0 ] || { cat $tmp/make.log; false; }'
refs=$(cd "$tmp/build/$board/obj" && find . -name '*.o' ! -name 'mcount.S.o' -exec $nm -u {} + | grep -c __gnu_mcount_nc)
check "no package object calls __gnu_mcount_nc" '[ "$refs" = 0 ]'

printf 'int f(void) { return 1; }\n' > "$tmp/leak.c"
arm-none-eabi-gcc -mcpu=cortex-m3 -mthumb -pg -c "$tmp/leak.c" -o "$tmp/leak.o"
"$root/tools/check-no-pg" $nm __gnu_mcount_nc "$tmp/leak.o" 2> "$tmp/err"
rc=$?
check "the build's check rejects an object compiled with -pg" '[ $rc -ne 0 ] && grep -q "compiled with -pg" $tmp/err'
echo "1..$n"
exit $fail
