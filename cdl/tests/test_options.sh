#!/usr/bin/env bash
# Every option of CYGPKG_PROFILE_GPROF has its effect on the firmware. The probe firmware
# (cdl/tests/probe.c, and probe_pg.c compiled with -pg) is built in several configurations
# (make CYG...=VALUE: each in its own build directory) and run in QEMU; it prints what
# profile_on() allocated and the gmon.out image.
#
#   CYGPKG_PROFILE_CALLGRAPH=0          no mcount support in the library; -pg code does not
#                                       link; no arcs in gmon.out; gprof --no-graph reads it
#   CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE
#                                       pct * (range / 100) / 12 + 50 arc records (at most
#                                       65535) of 12 bytes, plus the one slot that always
#                                       stays free (no hash heads: the table is the records)
#   CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS
#                                       8 bytes per overflow entry (buckets past 254)
#   CYGNUM_PROFILE_HIST_BIN_BYTES       2: 16-bit bins, 2 bytes a bucket
#   CYGNUM_PROFILE_MAX_RANGES           profile_on_ranges takes that many ranges, not one more
# and the histogram is ceil(range / 16) 8-bit bins (bucket size 16); a set (arcs, overflow
# entries and bins) is padded to 8 bytes.
#
#   CYGPKG_PROFILE_TFTP                 with lwIP (CYGPKG_NET_LWIP=1) profile_on starts the
#                                       daemon, so lwIP is linked and profile_on allocates a
#                                       spare set for snapshots; with it off, no lwIP symbol
#                                       is linked and the image is smaller
# CYGNUM_PROFILE_TFTP_PORT is checked on the network by test_tftp_port.py.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Our own make runs: not the values of a `make test CYG...=...` that runs this script
# (make passes them on in MAKEFLAGS and in the environment).
unset MAKEFLAGS MFLAGS MAKELEVEL CONFIG $(compgen -v | grep '^CYG')
NM=arm-none-eabi-nm
GPROF=arm-none-eabi-gprof
BOARD=${BOARD:-mps2-an385}
RUN=boards/$BOARD/run-qemu
n=0 fail=0
ok()  { n=$((n+1)); echo "ok $n - $1"; }
nok() { n=$((n+1)); echo "not ok $n - $1"; fail=1; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; sed 's/^/#   /' "$tmp/out" 2>/dev/null | tail -20; fi; }

mk() { make --no-print-directory -s -j"$(nproc)" BOARD="$BOARD" "$@" > "$tmp/out" 2>&1; }
tb_of() { make --no-print-directory -s BOARD="$BOARD" "$@" config-dir; }

# run_probe TAG ELF: boots the probe; its report in $tmp/TAG.txt, gmon.out in $tmp/TAG.gmon
run_probe() {
  "$RUN" --timeout 60 "$2" > "$tmp/$1.txt" 2>&1 || { cp "$tmp/$1.txt" "$tmp/out"; return 1; }
  sed -n 's/^gmon //p' "$tmp/$1.txt" | tr -d '\n\r' | xxd -r -p > "$tmp/$1.gmon"
  grep -q '^end' "$tmp/$1.txt"
}
field() { sed -n "s/^$2 //p" "$tmp/$1.txt" | tr -d '\r'; }

# Arc records in a gmon.out (32-bit little-endian target): tag 0 histogram, tag 1 arcs.
arcs_in() {
  python3 - "$1" <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
assert d[:4] == b"gmon", "not a gmon.out"
p, arcs = 20, 0
while p < len(d):
    tag = d[p]; p += 1
    if tag == 0:
        low, high, nbins = struct.unpack_from("<III", d, p); p += 32 + 2 * nbins
    elif tag == 1:
        arcs += 1; p += 12
    else:
        sys.exit("bad tag %d at %d" % (tag, p - 1))
print(arcs)
EOF
}

# expect_bytes TAG CALLGRAPH PCT SETS: the bytes profile_on allocated, by the formulas
# (SETS 2: a spare set for snapshots, which tftp needs; OVF in the environment: overflow
# entries, default 32).
expect_bytes() {
  local range=$(field "$1" range) cg=$2 pct=$3 sets=$4 ovf=${OVF:-32} bin=${BIN:-1}
  local nbins=$(( (range + 15) / 16 * bin )) cap=0 recs=0
  if [ "$cg" = 1 ]; then
    cap=$(( pct * (range / 100) / 12 + 50 )); [ $cap -gt 65535 ] && cap=65535
    recs=$(( (cap + 1) * 12 ))
  fi
  echo "$(( (recs + ovf * 8 + nbins + 7) / 8 * 8 * sets )) $cap"
}

# probe_config TAG CALLGRAPH PCT SETS MAKE-ARGS...: build and run the probe, check sizes.
probe_config() {
  local tag=$1 cg=$2 pct=$3 sets=$4; shift 4
  local tb; tb=$(tb_of "$@")
  if ! mk "$@" "$tb/fw/cdlprobe.elf"; then nok "$tag: the probe builds"; sed 's/^/#   /' "$tmp/out" | tail; return; fi
  if ! run_probe "$tag" "$tb/fw/cdlprobe.elf"; then nok "$tag: the probe runs"; sed 's/^/#   /' "$tmp/out" | tail; return; fi
  read -r want_bytes want_cap <<< "$(expect_bytes "$tag" "$cg" "$pct" "$sets")"
  local got_bytes=$(field "$tag" bytes_allocated) got_cap=$(field "$tag" arcs_capacity)
  cp "$tmp/$tag.txt" "$tmp/out"
  check "$tag: profile_on allocates $want_bytes bytes (range $(field "$tag" range): bins, ${OVF:-32} overflow entries, $( [ "$cg" = 1 ] && echo "$want_cap arc records of 12 bytes and a free one" || echo "no call graph")$( [ "$sets" = 2 ] && echo ", twice for snapshots"))" \
    [ "$got_bytes" = "$want_bytes" ]
  check "$tag: $want_cap arc records" [ "$got_cap" = "$want_cap" ]
  check "$tag: ranges too large for 32 bits refused on the target; a 1 GiB bucket over 256 bytes taken" \
    grep -qx "huge refused 7 of 7" "$tmp/$tag.txt"
  eval "tb_$tag=\$tb"
}

# ---- the default configuration, and the call graph on -----------------------------------------
tb_default=$(tb_of)
probe_config default 1 5 1
mk "$tb_default/fw/cdlprobe-pg.elf"
check "call graph on: -pg code links (mcount is there)" [ -f "$tb_default/fw/cdlprobe-pg.elf" ]
if run_probe default-pg "$tb_default/fw/cdlprobe-pg.elf"; then
  check "call graph on: the -pg probe records its 4 arcs, and gmon.out holds them" \
    eval '[ "$(field default-pg arcs)" = 4 ] && [ "$(arcs_in $tmp/default-pg.gmon)" = 4 ]'
  $GPROF -b -q "$tb_default/fw/cdlprobe-pg.elf" "$tmp/default-pg.gmon" > "$tmp/out" 2>&1
  check "call graph on: gprof's call graph counts probe_leaf 200 times, probe_mid 100" \
    eval 'grep -qE "^\[[0-9]+\].* 200 +probe_leaf" $tmp/out && grep -qE "^\[[0-9]+\].* 100 +probe_mid" $tmp/out'
else
  nok "call graph on: the -pg probe runs"
fi
$NM "$tb_default/lib/libprofile.a" > "$tmp/nm-default" 2>&1
check "call graph on: the library defines __profile_mcount" grep -qE ' T __profile_mcount$' "$tmp/nm-default"

# ---- CYGPKG_PROFILE_CALLGRAPH=0 ------------------------------------------------------------
probe_config nocg 0 5 1 CYGPKG_PROFILE_CALLGRAPH=0
tb=${tb_nocg:-}
if [ -n "$tb" ]; then
  $NM "$tb/lib/libprofile.a" > "$tmp/nm-nocg" 2>&1
  cp "$tmp/nm-nocg" "$tmp/out"
  check "call graph off: the library does not define __profile_mcount (the core has no mcount support)" \
    eval '! grep -qE " [TtWw] __profile_mcount$" $tmp/nm-nocg && grep -qE " T profile_on$" $tmp/nm-nocg'
  $NM "$tb/fw/cdlprobe.elf" > "$tmp/out" 2>&1
  check "call graph off: no mcount code linked into firmware built without -pg" \
    eval '! grep -qE "__profile_mcount|__gnu_mcount_nc|profile_arc_add" $tmp/out'
  mk CYGPKG_PROFILE_CALLGRAPH=0 "$tb/fw/cdlprobe-pg.elf"
  check "call graph off: -pg code does not link (no mcount support), naming __profile_mcount" \
    eval '[ ! -f $tb/fw/cdlprobe-pg.elf ] && grep -q "undefined reference to .__profile_mcount" $tmp/out'
  check "call graph off: gmon.out has no arcs" [ "$(arcs_in "$tmp/nocg.gmon")" = 0 ]
  $GPROF -b --no-graph "$tb/fw/cdlprobe.elf" "$tmp/nocg.gmon" > "$tmp/out" 2>&1
  check "call graph off: gprof --no-graph reads it, the busy loop on top of the flat profile" \
    eval 'grep -A3 "^ time" $tmp/out | grep -q probe_work'
fi

# ---- CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE (its ends, a value in hex, one from a file) -----------
probe_config pct1 1 1 1 CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=1
probe_config pct100 1 100 1 CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=100
probe_config pct50 1 50 1 CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=50
probe_config pcthex 1 32 1 CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE=0x20
printf '# the probe with more arc records\nCYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE = 30\n' > "$tmp/probe.cfg"
probe_config cfgfile 1 30 1 CONFIG="$tmp/probe.cfg"
check "the configurations built apart: six build directories besides the default" \
  eval '[ "$(printf "%s\n" "${tb_nocg:-}" "${tb_pct1:-}" "${tb_pct100:-}" "${tb_pct50:-}" "${tb_pcthex:-}" "${tb_cfgfile:-}" "$tb_default" | sort -u | grep -c .)" = 7 ]'

# ---- CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS: 8 bytes an entry (its ends); with snapshots, twice ---
# (what the entries do: tests/qemu/test_hot_bucket.py, and the unit tests built with 0 and 256)
OVF=0 probe_config ovf0 1 5 1 CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS=0
OVF=256 probe_config ovf256 1 5 1 CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS=256
OVF=64 probe_config ovf64tftp 1 5 2 CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS=64 CYGPKG_NET_LWIP=1
# ---- CYGNUM_PROFILE_HIST_BIN_BYTES: 2 bytes a bin (its other values: test_configure.sh) -------
BIN=2 probe_config bin2 1 5 1 CYGNUM_PROFILE_HIST_BIN_BYTES=2

# ---- CYGNUM_PROFILE_MAX_RANGES: profile_on_ranges takes that many ranges, not one more ---------
check "default: profile_on_ranges takes 4 ranges, refuses 5 (-EINVAL)" \
  grep -qx "ranges 4: 0, 5: -22" "$tmp/default.txt"
probe_config ranges1 1 5 1 CYGNUM_PROFILE_MAX_RANGES=1
check "CYGNUM_PROFILE_MAX_RANGES=1: one range, not two" grep -qx "ranges 1: 0, 2: -22" "$tmp/ranges1.txt"
probe_config ranges16 1 5 1 CYGNUM_PROFILE_MAX_RANGES=16
check "CYGNUM_PROFILE_MAX_RANGES=16: 16 ranges, not 17" grep -qx "ranges 16: 0, 17: -22" "$tmp/ranges16.txt"

# ---- CYGPKG_PROFILE_TFTP: on by default with lwIP, and only then is lwIP linked ---------------
lwip_syms='profile_tftp_start|udp_new|udp_new_ip_type|udp_bind|udp_sendto|netif_add|etharp_output|lwip_init'
$NM "$tb_default/fw/cdlprobe.elf" > "$tmp/out" 2>&1
check "no TCP/IP stack: no tftp daemon and no lwIP in the firmware" eval '! grep -qwE "$lwip_syms" $tmp/out'
probe_config tftp 1 5 2 CYGPKG_NET_LWIP=1
if [ -n "${tb_tftp:-}" ]; then
  $NM "$tb_tftp/fw/cdlprobe.elf" > "$tmp/out" 2>&1
  check "tftp on (CYGPKG_NET_LWIP=1): profile_on links the daemon and lwIP" \
    eval 'grep -qw profile_tftp_start $tmp/out && grep -qwE "udp_new|udp_new_ip_type" $tmp/out && grep -qw udp_sendto $tmp/out'
  cp "$tmp/tftp.txt" "$tmp/out"
  check "tftp on: profile_on says the daemon waits for the network" grep -q "TFTP daemon not started: the network is not up" "$tmp/out"
fi
probe_config notftp 1 5 1 CYGPKG_NET_LWIP=1 CYGPKG_PROFILE_TFTP=0
if [ -n "${tb_notftp:-}" ] && [ -n "${tb_tftp:-}" ]; then
  $NM "$tb_notftp/fw/cdlprobe.elf" > "$tmp/out" 2>&1
  check "tftp off (CYGPKG_NET_LWIP=1 CYGPKG_PROFILE_TFTP=0): no daemon and no lwIP linked" eval '! grep -qwE "$lwip_syms" $tmp/out'
  on=$(arm-none-eabi-size -A "$tb_tftp/fw/cdlprobe.elf" | awk '$1==".text"{print $2}')
  off=$(arm-none-eabi-size -A "$tb_notftp/fw/cdlprobe.elf" | awk '$1==".text"{print $2}')
  echo "text: tftp on $on bytes, off $off bytes" > "$tmp/out"
  check "tftp off: the image is smaller (.text $off bytes against $on)" eval '[ -n "$on" ] && [ -n "$off" ] && [ "$off" -lt "$on" ]'
fi
# CYGNUM_PROFILE_TFTP_PORT: cdl/tests/test_tftp_port.py (the daemon answers on that port).

# ---- the CDL's compile lists are what the build compiles ---------------------------------------
# In every configuration above: the files whose objects in libprofile.a hold code are exactly
# the files the active, enabled CDL nodes compile (lwIP's own sources aside: Debian's tree).
compile_lists_agree() {
  local tag=$1 tb=$2; shift 2
  [ -f "$tb/lib/libprofile.a" ] || { nok "$tag: no library to compare with the CDL"; return; }
  make --no-print-directory -s BOARD="$BOARD" "$@" config-compile | awk '{ print $2 }' | sort > "$tmp/cdl-files"
  make --no-print-directory -s BOARD="$BOARD" "$@" config-srcs | xargs -n1 basename | sort > "$tmp/make-files"
  $NM --defined-only -A "$tb/lib/libprofile.a" 2>/dev/null | sed -n 's/^[^:]*:\([^:]*\)\.o:.*/\1/p' |
    sort -u | comm -12 - "$tmp/make-files" > "$tmp/code-files"
  { echo "CDL:"; cat "$tmp/cdl-files"; echo "objects with code:"; cat "$tmp/code-files"; } > "$tmp/out"
  check "$tag: the package library's code comes from exactly the files the CDL compiles" \
    cmp -s "$tmp/cdl-files" "$tmp/code-files"
}
compile_lists_agree default "$tb_default"
compile_lists_agree nocg "${tb_nocg:-}" CYGPKG_PROFILE_CALLGRAPH=0
compile_lists_agree tftp "${tb_tftp:-}" CYGPKG_NET_LWIP=1
compile_lists_agree notftp "${tb_notftp:-}" CYGPKG_NET_LWIP=1 CYGPKG_PROFILE_TFTP=0

# ---- the HAL's mcount (CYGFUN_HAL_ARMV7M_PROFILE_MCOUNT=0): no call graph at all -----------------
probe_config nomcount 0 5 1 CYGFUN_HAL_ARMV7M_PROFILE_MCOUNT=0
if [ -n "${tb_nomcount:-}" ]; then
  $NM "$tb_nomcount/lib/libprofile.a" > "$tmp/out" 2>&1
  check "mcount off: neither __gnu_mcount_nc nor __profile_mcount in the library" \
    eval '! grep -qE " [TtWw] (__gnu_mcount_nc|__profile_mcount)$" $tmp/out'
  compile_lists_agree nomcount "$tb_nomcount" CYGFUN_HAL_ARMV7M_PROFILE_MCOUNT=0
  mk CYGFUN_HAL_ARMV7M_PROFILE_MCOUNT=0 "$tb_nomcount/fw/cdlprobe-pg.elf"
  check "mcount off: -pg code does not link, naming __gnu_mcount_nc" \
    eval '[ ! -f $tb_nomcount/fw/cdlprobe-pg.elf ] && grep -q "undefined reference to .__gnu_mcount_nc" $tmp/out'
fi

# ---- CYGPKG_PROFILE_GPROF_CFLAGS_REMOVE: flags the package is built without ---------------------
rm_args=('CYGPKG_PROFILE_GPROF_CFLAGS_REMOVE=-pg -fdata-sections' 'CYGPKG_PROFILE_GPROF_CFLAGS_ADD=-DPROBE_ADDED=1 -pg')
tb_rm=$(tb_of "${rm_args[@]}")
mk "${rm_args[@]}" CFLAGS=-pg "$tb_rm/lib/libprofile.a"
check "CFLAGS_REMOVE=\"-pg -fdata-sections\": the library builds (with CFLAGS=-pg)" [ -f "$tb_rm/lib/libprofile.a" ]
cp "$tb_rm/obj/flags" "$tmp/out" 2>/dev/null
check "CFLAGS_REMOVE: the package is compiled without -fdata-sections and without -pg" \
  eval '! grep -qE -- "(^| )(-fdata-sections|-pg)( |$)" $tb_rm/obj/flags'
check "the default configuration keeps -fdata-sections" grep -q -- ' -fdata-sections ' "$tb_default/obj/flags"
check "CFLAGS_ADD: the package is compiled with -DPROBE_ADDED=1 (and its -pg is removed)" \
  grep -q -- ' -DPROBE_ADDED=1 ' "$tb_rm/obj/flags"

echo "1..$n"
exit $fail
