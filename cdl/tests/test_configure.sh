#!/usr/bin/env bash
# The configurator (cdl/configure) and its place in the build: defaults, user values from
# the command line and from files, bad values and conflicts reported with the option's
# name, interfaces, the headers it writes, and make's side (build directory per
# configuration, reconfiguring when the values change). TAP output.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
# Our own make runs: not the values of a `make test CYG...=...` that runs this script
# (make passes them on in MAKEFLAGS and in the environment).
unset MAKEFLAGS MFLAGS MAKELEVEL CONFIG $(compgen -v | grep '^CYG')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
ok()  { n=$((n+1)); echo "ok $n - $1"; }
nok() { n=$((n+1)); echo "not ok $n - $1"; fail=1; }
# check DESC CMD...: passes when CMD succeeds; on failure shows the last command's output.
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; sed 's/^/#   /' "$tmp/out" 2>/dev/null | head -20; fi; }

CONF=cdl/configure
PKG=cdl/profile_gprof.cdl
HAL=hal/armv7m/hal_armv7m.cdl
BRD=boards/mps2-an385/hal_arm_mps2_an385.cdl
BOARD_CDL="$PKG $HAL $BRD"

# run ARGS...: configure with the board's CDL; output in $tmp/out, status in $rc.
run() { $CONF "$@" > "$tmp/out" 2>&1; rc=$?; }
has() { grep -qF -- "$1" "$tmp/out"; }
hasnt() { ! grep -qF -- "$1" "$tmp/out"; }
val() { $CONF $BOARD_CDL "$@" 2>/dev/null; }

# ---- defaults --------------------------------------------------------------------------
run $BOARD_CDL --values
check "defaults: configure succeeds for mps2-an385" [ $rc -eq 0 ]
check "defaults: call graph on, arc percentage 5, autostart bucket 16" \
  eval 'has CYGPKG_PROFILE_CALLGRAPH=1 && has CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=5 && has CYGNUM_PROFILE_AUTOSTART_BUCKET=16'
check "defaults: no hash shift option any more (the arc table has no hash heads)" hasnt HASH_SHIFT
check "defaults: the board implements the timer, the HAL implements mcount" \
  eval 'has CYGINT_PROFILE_HAL_TIMER=1 && has CYGINT_PROFILE_HAL_MCOUNT=1'
check "defaults: no TCP/IP stack, so no tftp" eval 'hasnt CYGPKG_PROFILE_TFTP && hasnt CYGNUM_PROFILE_TFTP_PORT'
check "defaults: -pg is removed from the package's flags" has "CYGPKG_PROFILE_GPROF_CFLAGS_REMOVE=-pg"

out=$tmp/def
run --prefix "$out" $BOARD_CDL
h=$out/include/pkgconf
check "headers: system.h, profile_gprof.h and the HAL/board headers are written" \
  eval '[ $rc -eq 0 ] && [ -f $h/system.h ] && [ -f $h/profile_gprof.h ] && [ -f $h/hal_armv7m.h ] && [ -f $h/hal_arm_mps2_an385.h ]'
check "headers: system.h defines the packages, eCos style" \
  eval 'grep -qx "#define CYGPKG_PROFILE_GPROF current" $h/system.h && grep -qx "#define CYGPKG_HAL_ARMV7M current" $h/system.h && grep -qx "#define CYGBLD_HAL_PLATFORM_H <pkgconf/hal_arm_mps2_an385.h>" $h/system.h'
check "headers: profile_gprof.h has the options and their NAME_VALUE forms" \
  eval 'grep -qx "#define CYGPKG_PROFILE_CALLGRAPH 1" $h/profile_gprof.h && grep -qx "#define CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE 5" $h/profile_gprof.h && grep -qx "#define CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE_5" $h/profile_gprof.h && grep -qx "#define CYGINT_PROFILE_HAL_TIMER 1" $h/profile_gprof.h'
check "headers: no_define options and inactive options are not defined" \
  eval '! grep -q "CFLAGS_REMOVE\|TFTP" $h/profile_gprof.h'
cat > "$tmp/opts.c" <<'EOF'
#include <pkgconf/system.h>
#ifndef CYGPKG_PROFILE_GPROF
#error no package
#endif
#include <cyg/profile/opts.h>
int pct = CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE, callgraph = PROFILE_CALLGRAPH, tftp = PROFILE_TFTP;
EOF
check "headers: the package's opts.h compiles against them" \
  eval 'cc -fsyntax-only -I$out/include -Itarget/include $tmp/opts.c > $tmp/out 2>&1'

# write only what changes, so that make rebuilds only what depends on it
touch -d '2001-01-01' $h/*.h
run --prefix "$out" $BOARD_CDL
check "headers: an unchanged configuration rewrites nothing" \
  eval '[ -z "$(find $h -name "*.h" -newermt 2001-01-02)" ]'
run --prefix "$out" $BOARD_CDL CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=12
check "headers: a changed value rewrites profile_gprof.h only" \
  eval '[ "$(find $h -name "*.h" -newermt 2001-01-02 | xargs -n1 basename | sort | tr "\n" " ")" = "profile_gprof.h system.h " ] && grep -qx "#define CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE 12" $h/profile_gprof.h'
# (system.h records the user values in its comment, so it changes too)

# ---- user values -----------------------------------------------------------------------
check "command line: CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=10" [ "$(val --get CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=10)" = 10 ]
check "command line: hex values are numbers: ARC_PERCENTAGE=0x10" [ "$(val --get CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=0x10)" = 0x10 ]
check "command line: CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=100" [ "$(val --get CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=100)" = 100 ]
check "command line: CYGPKG_PROFILE_CALLGRAPH=0 disables the call graph and its options" \
  eval '[ "$(val --values CYGPKG_PROFILE_CALLGRAPH=0 | grep -c CALLGRAPH)" = 0 ]'
cat > "$tmp/my.cfg" <<'EOF'
# my profiling configuration
CYGNUM_PROFILE_AUTOSTART_BUCKET = 32
  CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=20
EOF
check "config file: NAME = VALUE lines and comments" \
  eval '[ "$(val -c $tmp/my.cfg --get CYGNUM_PROFILE_AUTOSTART_BUCKET)" = 32 ] && [ "$(val -c $tmp/my.cfg --get CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE)" = 20 ]'
check "config file: the command line wins" [ "$(val -c $tmp/my.cfg --get CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=9)" = 9 ]
cat > "$tmp/ecos.ecc" <<'EOF'
# eCos save file
cdl_savefile_version 1;
cdl_savefile_command cdl_savefile_version {};
cdl_configuration eCos {
    description "" ;
    hardware    mps2 ;
    template    default ;
    package -hardware CYGPKG_HAL_ARMV7M current ;
    package CYGPKG_PROFILE_GPROF current ;
    package CYGPKG_NET_LWIP current ;
    package CYGPKG_KERNEL current ;
};
cdl_option CYGVAR_KERNEL_COUNTERS_CLOCK {
    user_value 1
};
cdl_component CYGPKG_PROFILE_CALLGRAPH {
    # Flavor: bool
    user_value 1
};
cdl_option CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE {
    # Flavor: data
    user_value 7
    # value_source user
    # Default value: 5
};
cdl_option CYGNUM_PROFILE_TFTP_PORT {
    user_value 6969
};
cdl_option CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT {
    # Flavor: data
    user_value 10
    # value_source user
    # Default value: 8
};
EOF
check "config file: an eCos save file (ecos.ecc): user values and added packages" \
  eval '[ "$(val -c $tmp/ecos.ecc --get CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE)" = 7 ] && [ "$(val -c $tmp/ecos.ecc --get CYGNUM_PROFILE_TFTP_PORT)" = 6969 ]'
run $BOARD_CDL -c "$tmp/ecos.ecc" --values
check "config file: an eCos save file's packages and options this project lacks are warnings" \
  eval '[ $rc -eq 0 ] && has "warning: CYGPKG_KERNEL ($tmp/ecos.ecc: package): not in this configuration; ignored" && has "warning: CYGVAR_KERNEL_COUNTERS_CLOCK ($tmp/ecos.ecc): not in this configuration; ignored"'
check "config file: an eCos save file that sets the removed CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT: a warning naming it, as for any option this project lacks" \
  has "warning: CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT ($tmp/ecos.ecc): not in this configuration; ignored"

# ---- bad values: rejected, naming the option ---------------------------------------------
bad() {  # bad DESC EXPECTED-TEXT ARGS...
  local d=$1 want=$2; shift 2
  run $BOARD_CDL --prefix "$tmp/bad" "$@"
  check "bad value rejected: $d" eval '[ $rc -eq 1 ] && has "$want" && [ ! -e $tmp/bad ]'
}
bad "AUTOSTART_BUCKET=65537 (out of range)" "CYGNUM_PROFILE_AUTOSTART_BUCKET (command line): bad value: 65537 is out of range (legal values: 1 to 65536)" CYGNUM_PROFILE_AUTOSTART_BUCKET=65537
bad "AUTOSTART_BUCKET=0 (out of range)" "CYGNUM_PROFILE_AUTOSTART_BUCKET (command line): bad value: 0 is out of range" CYGNUM_PROFILE_AUTOSTART_BUCKET=0
bad "ARC_PERCENTAGE=0x65 (hex, out of range)" "CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE (command line): bad value: 0x65 is out of range (legal values: 1 to 100)" CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=0x65
bad "ARC_PERCENTAGE=abc (not a number)" 'CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE (command line): bad value: "abc" is not a number' CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=abc
bad "ARC_PERCENTAGE=8.5 (not an integer)" 'CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE (command line): bad value: "8.5" is not an integer' CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=8.5
bad "ARC_PERCENTAGE= (empty)" 'CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE (command line): bad value: "" is not a number' CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=
bad "ARC_PERCENTAGE=0" "CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE (command line): bad value: 0 is out of range (legal values: 1 to 100)" CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=0
bad "ARC_PERCENTAGE=101" "CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE (command line): bad value: 101 is out of range" CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=101
bad "HIST_BIN_BYTES=3" "CYGNUM_PROFILE_HIST_BIN_BYTES (command line): bad value: 3 is out of range (legal values: 1 to 2)" CYGNUM_PROFILE_HIST_BIN_BYTES=3
bad "ARC_PERCENTAGE=5%" 'CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE (command line): bad value: "5%" is not a number' CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=5%
bad "TFTP_PORT=65536" "CYGNUM_PROFILE_TFTP_PORT (command line): bad value: 65536 is out of range (legal values: 1 to 65535)" CYGPKG_NET_LWIP=1 CYGNUM_PROFILE_TFTP_PORT=65536
bad "TFTP_PORT=0" "CYGNUM_PROFILE_TFTP_PORT (command line): bad value: 0 is out of range" CYGPKG_NET_LWIP=1 CYGNUM_PROFILE_TFTP_PORT=0
bad "TFTP_PORT=tftp" 'CYGNUM_PROFILE_TFTP_PORT (command line): bad value: "tftp" is not a number' CYGPKG_NET_LWIP=1 CYGNUM_PROFILE_TFTP_PORT=tftp
bad "CALLGRAPH=yes (bool takes 1 or 0)" 'CYGPKG_PROFILE_CALLGRAPH (command line): bad value "yes": a bool component takes 1 (enabled) or 0 (disabled)' CYGPKG_PROFILE_CALLGRAPH=yes
bad "an unknown option" "CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAG (command line): no such option in this configuration" CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAG=8
# CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT is gone (the arc table has no hash heads): a
# configuration that still sets it is refused, naming it, as any unknown option is.
bad "the removed CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT (command line)" "CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT (command line): no such option in this configuration" CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT=8
printf '# an old configuration\nCYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT = 10\n' > "$tmp/old.cfg"
bad "the removed CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT (config file, naming file and line)" "CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT ($tmp/old.cfg:2): no such option in this configuration" -c "$tmp/old.cfg"
bad "an interface cannot be set" "CYGINT_PROFILE_HAL_MCOUNT (command line): an interface cannot be set" CYGINT_PROFILE_HAL_MCOUNT=1
bad "the profiling package cannot be removed" "CYGPKG_PROFILE_GPROF (command line): this package is part of every configuration" CYGPKG_PROFILE_GPROF=0
bad "CFLAGS_REMOVE must keep -pg" "unresolved conflict: CYGPKG_PROFILE_GPROF_CFLAGS_REMOVE requires is_substr(CYGPKG_PROFILE_GPROF_CFLAGS_REMOVE, \" -pg \")" "CYGPKG_PROFILE_GPROF_CFLAGS_REMOVE=-p -pgx"
printf 'CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE = 400\n' > "$tmp/bad.cfg"
bad "in a config file, naming file and line" "CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE ($tmp/bad.cfg:1): bad value: 400 is out of range" -c "$tmp/bad.cfg"
printf 'CYGNUM_PROFILE_TFTP_PORT = 6969\nCYGPKG_PROFILE_TFTP = 1\n' > "$tmp/net.cfg"
bad "tftp asked for in a config file without a TCP/IP stack" "unresolved conflict: CYGPKG_PROFILE_TFTP = 1 ($tmp/net.cfg:2) cannot take effect" -c "$tmp/net.cfg"
run $BOARD_CDL CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=100 CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=1
check "the legal range's ends are legal (1 and 100)" eval '[ $rc -eq 0 ] && [ "$(val --get CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=1)" = 1 ] && [ "$(val --get CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=100)" = 100 ]'
run $BOARD_CDL CYGNUM_PROFILE_AUTOSTART_BUCKET=65536 CYGNUM_PROFILE_AUTOSTART_BUCKET=1
check "the legal range's ends are legal (1 and 65536)" eval '[ $rc -eq 0 ] && [ "$(val --get CYGNUM_PROFILE_AUTOSTART_BUCKET CYGNUM_PROFILE_AUTOSTART_BUCKET=65536)" = 65536 ]'

# ---- interfaces and conflicts --------------------------------------------------------------
run --prefix "$tmp/nt" $PKG cdl/tests/board_no_timer.cdl
check "a board without a profile timer: non-zero exit" [ $rc -eq 1 ]
check "a board without a profile timer: eCos-style unresolved conflict naming the interface" \
  has "unresolved conflict: CYGPKG_PROFILE_GPROF requires CYGINT_PROFILE_HAL_TIMER (CYGINT_PROFILE_HAL_TIMER = 0: nothing in this configuration implements it)"
check "a board without a profile timer: no header written" [ ! -e "$tmp/nt" ]
run $BOARD_CDL CYGFUN_HAL_MPS2_AN385_PROFILE_TIMER=0
check "mps2-an385 with its timer disabled: conflict on CYGINT_PROFILE_HAL_TIMER naming the implementer" \
  eval '[ $rc -eq 1 ] && has "unresolved conflict: CYGPKG_PROFILE_GPROF requires CYGINT_PROFILE_HAL_TIMER (CYGINT_PROFILE_HAL_TIMER = 0: its implementers CYGFUN_HAL_MPS2_AN385_PROFILE_TIMER are inactive or disabled)"'
run $BOARD_CDL cdl/tests/timer_only.cdl
check "two profile timers: conflict (at most one implementation)" \
  eval '[ $rc -eq 1 ] && has "unresolved conflict: CYGINT_PROFILE_HAL_TIMER requires CYGINT_PROFILE_HAL_TIMER <= 1 (CYGINT_PROFILE_HAL_TIMER = 2)"'
run --prefix "$tmp/nm" $PKG cdl/tests/timer_only.cdl --values
check "no mcount in the HAL: configures, CYGINT_PROFILE_HAL_MCOUNT is 0" eval '[ $rc -eq 0 ] && has CYGINT_PROFILE_HAL_MCOUNT=0 && has CYGINT_PROFILE_HAL_TIMER=1'
check "no mcount in the HAL: the call graph is inactive, its options with it" eval 'hasnt CALLGRAPH'
run --prefix "$tmp/nm" $PKG cdl/tests/timer_only.cdl
check "no mcount in the HAL: profile_gprof.h defines no call graph (opts.h: PROFILE_CALLGRAPH 0)" \
  eval '[ $rc -eq 0 ] && ! grep -q CALLGRAPH $tmp/nm/include/pkgconf/profile_gprof.h && grep -qx "#define CYGINT_PROFILE_HAL_TIMER 1" $tmp/nm/include/pkgconf/profile_gprof.h'
run $PKG cdl/tests/timer_only.cdl CYGPKG_PROFILE_CALLGRAPH=1
check "no mcount in the HAL, CYGPKG_PROFILE_CALLGRAPH=1 asked for: conflict naming the option and the interface" \
  eval '[ $rc -eq 1 ] && has "unresolved conflict: CYGPKG_PROFILE_CALLGRAPH = 1 (command line) cannot take effect: CYGPKG_PROFILE_CALLGRAPH is inactive, because its active_if CYGINT_PROFILE_HAL_MCOUNT (CYGINT_PROFILE_HAL_MCOUNT = 0: nothing in this configuration implements it) is not satisfied"'
run $BOARD_CDL CYGFUN_HAL_ARMV7M_PROFILE_MCOUNT=0 --values
check "mps2-an385 with mcount disabled: flat profile only" eval '[ $rc -eq 0 ] && hasnt CALLGRAPH'
run $BOARD_CDL CYGPKG_PROFILE_CALLGRAPH=0 CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=10
check "a value for an option of a disabled component: a warning, not an error" \
  eval '[ $rc -eq 0 ] && has "warning: CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE = 10 (command line) has no effect: it is part of CYGPKG_PROFILE_CALLGRAPH, which is disabled"'

# ---- tftp follows the TCP/IP stack ----------------------------------------------------------
check "tftp: on by default when the configuration has lwIP (CYGPKG_NET_LWIP=1), port 69" \
  eval '[ "$(val --get CYGPKG_PROFILE_TFTP CYGPKG_NET_LWIP=1)" = 1 ] && [ "$(val --get CYGNUM_PROFILE_TFTP_PORT CYGPKG_NET_LWIP=1)" = 69 ]'
check "--get: a package left out prints nothing (exit 2); added, it is current" \
  eval '[ -z "$(val --get CYGPKG_NET_LWIP)" ] && ! val --get CYGPKG_NET_LWIP && [ "$(val --get CYGPKG_NET_LWIP CYGPKG_NET_LWIP=1)" = current ] && [ "$(val -c $tmp/ecos.ecc --get CYGPKG_NET_LWIP)" = current ]'
check "tftp: can be disabled with lwIP present" [ "$(val --get CYGPKG_PROFILE_TFTP CYGPKG_NET_LWIP=1 CYGPKG_PROFILE_TFTP=0)" = 0 ]
run --prefix "$tmp/net" $BOARD_CDL CYGPKG_NET_LWIP=1 CYGNUM_PROFILE_TFTP_PORT=6969
check "tftp: headers define CYGPKG_PROFILE_TFTP and the port; system.h has CYGPKG_NET_LWIP" \
  eval '[ $rc -eq 0 ] && grep -qx "#define CYGPKG_PROFILE_TFTP 1" $tmp/net/include/pkgconf/profile_gprof.h && grep -qx "#define CYGNUM_PROFILE_TFTP_PORT 6969" $tmp/net/include/pkgconf/profile_gprof.h && grep -qx "#define CYGPKG_NET_LWIP current" $tmp/net/include/pkgconf/system.h'
run --prefix "$tmp/net" $BOARD_CDL
check "tftp: without lwIP again, its header is removed and tftp is gone" \
  eval '[ $rc -eq 0 ] && [ ! -e $tmp/net/include/pkgconf/net_lwip.h ] && ! grep -q TFTP $tmp/net/include/pkgconf/profile_gprof.h'
run $BOARD_CDL CYGPKG_PROFILE_TFTP=1
check "tftp: CYGPKG_PROFILE_TFTP=1 without a TCP/IP stack is a conflict naming the option" \
  eval '[ $rc -eq 1 ] && has "unresolved conflict: CYGPKG_PROFILE_TFTP = 1 (command line) cannot take effect" && has "CYGPKG_NET_LWIP = not in this configuration"'

# ---- CDL expressions -------------------------------------------------------------------------
ex() { $CONF cdl/tests/expr.cdl --get "$1" 2>&1; }
check "expressions: references and arithmetic" [ "$(ex CYGNUM_TEST_B)" = 13 ]
check "expressions: C precedence of * / % + -" [ "$(ex CYGNUM_TEST_PREC)" = 5 ]
check "expressions: C precedence of << & ^ |" [ "$(ex CYGNUM_TEST_SHIFT)" = 18 ]
check "expressions: ?:" [ "$(ex CYGNUM_TEST_COND)" = 10 ]
check "expressions: implies, xor, eqv, !" [ "$(ex CYGNUM_TEST_LOGIC)" = 1 ]
check "expressions: is_substr (word boundaries) and is_xsubstr" [ "$(ex CYGNUM_TEST_SUBSTR)" = 5 ]
check "expressions: string concatenation (.)" [ "$(ex CYGDAT_TEST_CAT)" = v6x ]
check "expressions: names not loaded are 0; is_loaded, is_active" [ "$(ex CYGNUM_TEST_MISSING)" = 2 ]
check "expressions: octal, hex and decimal literals" [ "$(ex CYGNUM_TEST_OCTAL)" = 34 ]
check "expressions: options below a disabled option are inactive and 0" [ "$(ex CYGNUM_TEST_ENABLED)" = 0 ]
check "booldata: default data, 0 disables, a value enables with that data" \
  eval '[ "$(ex CYGDAT_TEST_BOOLDATA)" = fast ] && [ "$($CONF cdl/tests/expr.cdl CYGDAT_TEST_BOOLDATA=0 --get CYGDAT_TEST_BOOLDATA)" = 0 ] && [ "$($CONF cdl/tests/expr.cdl CYGDAT_TEST_BOOLDATA=slow --get CYGDAT_TEST_BOOLDATA)" = slow ]'
check "legal_values: a list with a range" \
  eval '$CONF cdl/tests/expr.cdl CYGNUM_TEST_LEGAL=6 >/dev/null 2>&1 && ! $CONF cdl/tests/expr.cdl CYGNUM_TEST_LEGAL=4 >$tmp/out 2>&1 && has "CYGNUM_TEST_LEGAL (command line): bad value: \"4\" is not a legal value (legal values: 1 3 5 to 7)"'
check "a calculated option cannot be set" \
  eval '! $CONF cdl/tests/expr.cdl CYGNUM_TEST_PREC=1 >$tmp/out 2>&1 && has "CYGNUM_TEST_PREC (command line): the value is calculated"'
printf 'cdl_package CYGPKG_BROKEN {\n    display "x"\n    legal_vals 1 to 2\n}\n' > "$tmp/broken.cdl"
run "$tmp/broken.cdl"
check "a broken CDL script: exit 2, naming the file and the package" eval '[ $rc -eq 2 ] && has "broken.cdl: CYGPKG_BROKEN: invalid command name \"legal_vals\""'

# ---- make: make config, build directories, reconfiguring ----------------------------------
mk() { make --no-print-directory -s "$@" > "$tmp/out" 2>&1; rc=$?; }
# (lwIP's sources from the calling build's tree, BUILD as make test has it: never build/
# when another build directory was asked for)
lwip=${BUILD:-build}/lwip; case $lwip in /*) ;; *) lwip=$root/$lwip ;; esac
MKB=(BUILD="$tmp/build" LWIP_DIR="$lwip")
mk "${MKB[@]}" config
check "make config: lists every option with value, default and legal values" \
  eval '[ $rc -eq 0 ] && has "CYGPKG_PROFILE_CALLGRAPH = 1   [default 1]" && hasnt HASH_SHIFT && has "CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE = 5   [default 5; legal: 1 to 100]" && has "CYGPKG_PROFILE_TFTP = 1   [default 1]   INACTIVE" && has "CYGNUM_PROFILE_TFTP_PORT = 69   [default 69; legal: 1 to 65535]   INACTIVE" && has "CYGINT_PROFILE_HAL_TIMER = 1 (interface; implemented by: CYGFUN_HAL_MPS2_AN385_PROFILE_TIMER)"'
check "make config: with display texts and descriptions" \
  eval 'has "\"Amount of memory to allocate for callgraph arcs\"" && has "| How much memory profile_on() allocates for arc records"'
mk "${MKB[@]}" CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=11 config
check "make config: shows user values" has "CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE = 11 (user value)   [default 5; legal: 1 to 100]"
mk "${MKB[@]}" cygnum_profile_callgraph_arc_percentage=11 config
check "make cyg...=VALUE (a typo in the case): stops, naming the variable" \
  eval '[ $rc != 0 ] && grep -q "cygnum_profile_callgraph_arc_percentage: configuration options are spelt in capitals" $tmp/out'
mk "${MKB[@]}" CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT=10 config
check "make CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT=10 (the removed option): make fails, naming it" \
  eval '[ $rc -ne 0 ] && has "CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT (command line): no such option in this configuration"'
tb_default=$(make --no-print-directory -s "${MKB[@]}" config-dir)
tb_11=$(make --no-print-directory -s "${MKB[@]}" CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=11 config-dir)
tb_11b=$(make --no-print-directory -s "${MKB[@]}" CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=11 config-dir)
tb_cfg=$(make --no-print-directory -s "${MKB[@]}" CONFIG="$tmp/my.cfg" config-dir)
check "build directory: the default configuration in BUILD/BOARD" [ "$tb_default" = "$tmp/build/mps2-an385" ]
check "build directory: another configuration in a directory of its own, the same each time" \
  eval '[ "$tb_11" != "$tb_default" ] && [ "$tb_11" = "$tb_11b" ] && [ "$tb_cfg" != "$tb_default" ] && [ "$tb_cfg" != "$tb_11" ]'
hdr=include/pkgconf/profile_gprof.h
mk "${MKB[@]}" CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=11 "$tb_11/$hdr"
check "make CYG...=VALUE: the configured header has the value" grep -qx "#define CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE 11" "$tb_11/$hdr"
mk "${MKB[@]}" CONFIG="$tmp/my.cfg" "$tb_cfg/$hdr"
check "make CONFIG=file: the configured header has the file's values" \
  eval 'grep -qx "#define CYGNUM_PROFILE_AUTOSTART_BUCKET 32" $tb_cfg/$hdr && grep -qx "#define CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE 20" $tb_cfg/$hdr'
tb_999=$(make --no-print-directory -s "${MKB[@]}" CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=999 config-dir)
mk "${MKB[@]}" CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=999 "$tb_999/$hdr"
check "make CYG...=bad: make fails, naming the option" \
  eval '[ $rc -ne 0 ] && has "CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE (command line): bad value: 999 is out of range (legal values: 1 to 100)"'
mk "${MKB[@]}" CONFIG="$tmp/no-such.cfg" config
check "make CONFIG=missing-file: make fails, naming the file" eval '[ $rc -ne 0 ] && has "CONFIG=$tmp/no-such.cfg: no such file"'
# The same build directory with a different configurator command line (as a fragment that
# appends values to PKGCONF_CMD does): the headers follow, and only when it changes.
mk "${MKB[@]}" "$tb_default/$hdr"
touch -d '2001-01-01' "$tb_default/$hdr"
mk "${MKB[@]}" "$tb_default/$hdr"
check "reconfigure: nothing is rewritten when nothing changed" [ -z "$(find "$tb_default/$hdr" -newermt 2001-01-02)" ]
mk "${MKB[@]}" "CDL_USER_VALUES=CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=9" "$tb_default/$hdr"
check "reconfigure: a changed command line rewrites the header" grep -qx "#define CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE 9" "$tb_default/$hdr"
mk "${MKB[@]}" "$tb_default/$hdr"
check "reconfigure: and back" grep -qx "#define CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE 5" "$tb_default/$hdr"
rm -f "$tb_default/include/pkgconf/system.h"
mk "${MKB[@]}" "$tb_default/include/pkgconf/system.h"
check "reconfigure: a deleted header is written again" [ -f "$tb_default/include/pkgconf/system.h" ]

echo "1..$n"
exit $fail
