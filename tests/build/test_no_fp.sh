#!/usr/bin/env bash
# The package never touches FP registers, even when the application is built hard-float
# (Cortex-M4F): mcount runs at the entry of instrumented functions, whose FP argument
# registers (s0-s15) the HAL's stub does not save. The package library is built with
# hard-float CFLAGS and disassembled: no VFP instruction anywhere.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
board=${BOARD:-mps2-an385}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }

hard="-mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16"
make -s -C "$root" BOARD="$board" BUILD="$tmp/build" CFLAGS="$hard" \
  "$tmp/build/$board/lib/libprofile.a" > "$tmp/make.log" 2>&1
rc=$?
check "the library builds with CFLAGS=\"$hard\"" '[ $rc -eq 0 ] || { tail -20 $tmp/make.log; false; }'
lib=$tmp/build/$board/lib/libprofile.a
arm-none-eabi-objdump -d "$lib" > "$tmp/dis" 2>&1
check "it is hard-float code (the application's ABI)" \
  'arm-none-eabi-readelf -A "$lib" | grep -q "Tag_ABI_VFP_args: VFP registers"'
check "__profile_mcount is in it" 'grep -q "<__profile_mcount>:" $tmp/dis'
vfp=$(grep -cE '^\s+[0-9a-f]+:\s+([0-9a-f]{4} ?){1,2}\s+v[a-z0-9]+(\.[a-z0-9.]+)?\s' "$tmp/dis")
check "no VFP instruction in the package ($vfp found)" \
  '[ "$vfp" = 0 ] || grep -E "\sv[a-z0-9]+(\.[a-z0-9.]+)?\s" $tmp/dis | head -5'
# The guard, not just today's code: package flags refuse FP code in the package.
printf 'float twice(float x) { return 2 * x; }\n' > "$tmp/fp.c"
$(cat "$tmp/build/$board/obj/flags") -c "$tmp/fp.c" -o "$tmp/fp.o" > "$tmp/fp.log" 2>&1
rc=$?
check "the package's compile line refuses FP code (-mgeneral-regs-only)" \
  '[ $rc -ne 0 ] && grep -q "general-regs-only" $tmp/fp.log'
echo "1..$n"
exit $fail
