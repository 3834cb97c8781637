#!/usr/bin/env bash
# A user with their own lwIP tree points the build at it with one variable, LWIP_DIR: a copy
# of Debian's tree, marked with a symbol of its own, is what the package library is built
# from (and setup fetches nothing into it). A tree of another lwIP version stops the build
# of the TFTP daemon with an error naming the version found and the one tested.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
board=${BOARD:-mps2-an385}
B=${BUILD:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }
unset MAKEFLAGS MFLAGS MAKELEVEL CONFIG $(compgen -v | grep '^CYG')

mkdir -p "$tmp/mylwip"
cp -r "$B/lwip/src" "$tmp/mylwip/"
printf '\nint my_own_lwip_tree_marker;\n' >> "$tmp/mylwip/src/core/init.c"
make -s -C "$root" BOARD="$board" BUILD="$tmp/build" LWIP_DIR="$tmp/mylwip" CYGPKG_NET_LWIP=1 -j"$(nproc)" \
  "$(make -s -C "$root" BOARD="$board" BUILD="$tmp/build" CYGPKG_NET_LWIP=1 config-dir)/lib/libprofile.a" \
  > "$tmp/make.log" 2>&1
rc=$?
check "the TFTP configuration builds against LWIP_DIR=<a tree of one's own>" '[ $rc = 0 ] || { tail -20 $tmp/make.log; false; }'
lib=$(ls "$tmp"/build/*/lib/libprofile.a 2>/dev/null | head -1)
check "the library holds that tree's code (its marker symbol)" \
  '[ -n "$lib" ] && arm-none-eabi-nm "$lib" | grep -q " my_own_lwip_tree_marker$"'
check "setup fetched no lwIP of its own into the build" '[ ! -e "$tmp/build/lwip" ]'

sed -i 's/^#define LWIP_VERSION_REVISION .*/#define LWIP_VERSION_REVISION   4/' "$tmp/mylwip/src/include/lwip/init.h"
cfg=$(make -s -C "$root" BOARD="$board" BUILD="$tmp/build" CYGPKG_NET_LWIP=1 config-dir)
make -s -C "$root" BOARD="$board" BUILD="$tmp/build" LWIP_DIR="$tmp/mylwip" CYGPKG_NET_LWIP=1 \
  "$cfg/obj/target/src/tftp.c.o" > "$tmp/version.log" 2>&1
rc=$?
check "lwIP 2.1.4: the daemon does not build, and the error names 2.1.4 and the tested 2.1.3" \
  '[ $rc != 0 ] && grep -q "lwIP version found: 2.1.4" $tmp/version.log &&
   grep -q "tested with lwIP 2.1.3 only" $tmp/version.log || { cat $tmp/version.log; false; }'
echo "1..$n"
exit $fail
