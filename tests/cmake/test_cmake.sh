#!/usr/bin/env bash
# The install tree's CMake package and pkg-config file, used as an application outside the
# project would (tests/cmake/app, copied to a folder of its own): built with Debian's cmake
# through the tree's toolchain file for a Cortex-M board (mps2-an385) and a RISC-V board
# (riscv32-virt); on mps2-an385 also with a toolchain of its own, so that the board's flags
# come from GprofRtos::profile alone; and once with plain compiler calls and the flags of
# gprof-rtos.pc. Every build runs under the tree's bin/run-qemu (-icount), writes gmon.out
# at exit (gprof_rtos_instrument(app AUTOSTART), or the .pc's autostart), and GNU gprof
# counts its calls exactly, none of the library built without -pg. In the stack-profiling
# configuration all three descriptions (profile.mk, CMake, pkg-config) give
# -finstrument-functions with -pg.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
check() { n=$((n+1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }

cp -r "$here/app" "$tmp/app"

# install_tree BOARD [CDL values...]: the board's tree under $tmp/prefix (or $tmp/prefix-cfg,
# for a configuration of its own)
install_tree() {
  local board=$1 prefix=$tmp/prefix; shift
  [ $# -eq 0 ] || prefix=$tmp/prefix-cfg
  make -s -C "$root" BOARD="$board" "$@" install PREFIX="$prefix" > "$tmp/install-$board.log" 2>&1
  local rc=$?
  check "$board${1:+ $*}: make install succeeds" '[ $rc -eq 0 ] || { tail -20 "$tmp/install-$board.log"; false; }'
}

# The call graph in build dir $1's gprof output: the calls of function $2 ("1+20": recursion),
# or, given $3, the calls from $2 to $3 ("300/300").
called() {
  awk -v f="$2" -v t="${3:-}" '
    /^---/ { prim = ""; next }
    /^\[/  { prim = $(NF-1); if (t == "" && prim == f) print $(NF-2); next }
    t != "" && prim == f && $(NF-1) == t { print $(NF-2) }' "$1/gprof.txt"
}

# runs BUILD-DIR TREE GPROF LABEL: runs the app in BUILD-DIR, checks its profile
runs() {
  local d=$1 tree=$2 gprof=$3 label=$4
  (cd "$d" && "$tree/bin/run-qemu" --timeout 120 app > run.log 2>&1)
  local rc=$?
  check "$label: the app runs under bin/run-qemu and writes gmon.out at exit" \
    '[ $rc -eq 0 ] && grep -q "profile: wrote gmon.out" "$d/run.log" && [ -s "$d/gmon.out" ] || { cat "$d/run.log"; false; }'
  (cd "$d" && "$gprof" -b app gmon.out > gprof.txt 2>&1)
  local got
  got="main $(called "$d" main) step $(called "$d" step) scale $(called "$d" scale) depth $(called "$d" depth)"
  got="$got main>step $(called "$d" main step) step>scale $(called "$d" step scale) main>checksum $(called "$d" main checksum)"
  check "$label: $gprof counts main 1, step 300, scale 600 (from step), depth 1+20; checksum (no -pg) none" \
    '[ "$got" = "main 1 step 300 scale 600 depth 1+20 main>step 300/300 step>scale 600/600 main>checksum " ] || { echo "# got: $got"; sed "s/^/#   /" "$d/gprof.txt" | head -40; false; }'
  check "$label: the profile timer sampled step" \
    'awk '\''$NF=="step" && NF==7 && $3>0 {f=1} END {exit !f}'\'' "$d/gprof.txt" || { head -12 "$d/gprof.txt"; false; }'
}

# cmake_build LABEL BOARD [cmake options...]: configures and builds the app in $tmp/LABEL
cmake_build() {
  local label=$1 board=$2; shift 2
  local d=$tmp/$label
  { cmake -S "$tmp/app" -B "$d" "$@" && cmake --build "$d"; } > "$tmp/$label.log" 2>&1
  local rc=$?
  check "$label: cmake configures and builds the app against the $board tree" \
    '[ $rc -eq 0 ] && [ -f "$d/app" ] || { tail -30 "$tmp/$label.log"; false; }'
}

for board in mps2-an385 riscv32-virt; do
  install_tree "$board"
  tree=$tmp/prefix/$board
  gprof=$(make -s -f - all <<<"include $tree/lib/profile.mk
all: ; @echo \$(PROFILE_GPROF)")
  check "$board: the tree has the CMake package, its toolchain file and gprof-rtos.pc" \
    '[ -f "$tree/lib/cmake/GprofRtos/GprofRtosConfig.cmake" ] && [ -f "$tree/lib/cmake/GprofRtos/toolchain.cmake" ] && [ -f "$tree/lib/pkgconfig/gprof-rtos.pc" ]'
  cmake_build "cmake-$board" "$board" -DCMAKE_TOOLCHAIN_FILE="$tree/lib/cmake/GprofRtos/toolchain.cmake"
  runs "$tmp/cmake-$board" "$tree" "$gprof" "cmake-$board"
done

# A toolchain of one's own (a vendor SDK's): the compiler alone, no flags; the package found
# by its prefix.
tree=$tmp/prefix/mps2-an385
cmake_build own-toolchain-mps2-an385 mps2-an385 -DCMAKE_SYSTEM_NAME=Generic -DCMAKE_C_COMPILER=arm-none-eabi-gcc \
  -DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY -DCMAKE_PREFIX_PATH="$tree"
runs "$tmp/own-toolchain-mps2-an385" "$tree" arm-none-eabi-gprof own-toolchain-mps2-an385

# pkg-config: the compiler, -O, the flags of instrumented code and autostart are variables.
tree=$tmp/prefix/riscv32-virt
pc() { PKG_CONFIG_PATH="$tree/lib/pkgconfig" pkg-config "$@" gprof-rtos; }
d=$tmp/pkg-config-riscv32-virt
mkdir "$d"
(
  set -e
  cd "$d"
  cc=$(pc --variable=cc)
  for f in main work; do
    $cc $(pc --variable=opt) $(pc --cflags) $(pc --variable=pg_cflags) -I"$tmp/app" -c "$tmp/app/$f.c" -o $f.o
  done
  $cc $(pc --variable=opt) $(pc --cflags) -I"$tmp/app" -c "$tmp/app/plain.c" -o plain.o
  $cc $(pc --variable=autostart) main.o work.o plain.o $(pc --libs) -o app
) > "$d/build.log" 2>&1
rc=$?
check "pkg-config-riscv32-virt: the app builds with gprof-rtos.pc's flags" '[ $rc -eq 0 ] || { cat "$d/build.log"; false; }'
runs "$d" "$tree" "$(pc --variable=gprof)" pkg-config-riscv32-virt

# The stack-profiling configuration: -finstrument-functions with -pg, in every description.
install_tree mps2-an385 CYGPKG_PROFILE_STACKS=1
tree=$tmp/prefix-cfg/mps2-an385
pg_mk=$(make -s -f - all <<<"include $tree/lib/profile.mk
all: ; @echo \$(PROFILE_PG_CFLAGS)")
printf '%s\n' "include($tree/lib/cmake/GprofRtos/GprofRtosBoard.cmake)" \
  'string(JOIN " " f ${GPROF_RTOS_PG_FLAGS})' 'message("${f}")' > "$tmp/pg_flags.cmake"
pg_cmake=$(cmake -P "$tmp/pg_flags.cmake" 2>&1)
pg_pc=$(pc --variable=pg_cflags)
check "CYGPKG_PROFILE_STACKS=1: profile.mk, the CMake package and gprof-rtos.pc give -pg -finstrument-functions" \
  '[ "$pg_mk|$pg_cmake|$pg_pc" = "-pg -finstrument-functions|-pg -finstrument-functions|-pg -finstrument-functions" ] || { echo "# got: $pg_mk|$pg_cmake|$pg_pc"; false; }'
echo "1..$n"
exit $fail
