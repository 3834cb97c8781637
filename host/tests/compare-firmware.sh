#!/usr/bin/env bash
# tgprof against arm-none-eabi-gprof on the firmware profiles the rest of the project
# produces (QEMU tests: calls, TFTP gets and abuse; make demo, make bench: 32-bit
# little-endian gmon.out files with the target's loss counters).  Runs on whatever pairs exist; run after the QEMU tests
# (make test runs them first) or make demo.
set -u
B=${BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac   # absolute, BUILD may be either
T=$B/host/tgprof-san
[ -x "$T" ] || { echo "not ok 1 - $T missing"; exit 1; }
# A private directory per run: several sessions may run the tests in one tree at once.
mkdir -p "$B/host/tests" || exit 1
W=$(mktemp -d "$B/host/tests/firmware.XXXXXX") || exit 1
[ -n "${KEEP:-}" ] || trap 'rm -rf "$W"' EXIT
export ASAN_OPTIONS=detect_leaks=1
# LeakSanitizer cannot run everywhere (under ptrace, some containers): then without it.
"$T" --version > /dev/null 2>&1 || export ASAN_OPTIONS=detect_leaks=0
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }

# add ELF GMON...: one comparison of ELF with the GMON files (summed) that exist, on
# private copies made right away: other runs may delete the QEMU tests' directories
# (tests/qemu/tftplib.py removes those of finished runs) or rebuild the firmware.
pairs=() names=()
k=0
add() {
	local elf=$1 g; shift
	[ -f "$elf" ] || return
	local gm=()
	for g in "$@"; do [ -f "$g" ] && gm+=("$g"); done
	[ ${#gm[@]} -gt 0 ] || return
	k=$((k + 1))
	local d=$W/in$k
	mkdir -p "$d" && cp "$elf" "$d/" || return
	local copies=("$d/$(basename "$elf")") shown=("${elf#"$B"/}")
	for g in "${gm[@]}"; do
		cp "$g" "$d/" 2> /dev/null || continue
		copies+=("$d/$(basename "$g")") shown+=("${g#"$B"/}")
	done
	[ ${#copies[@]} -gt 1 ] || return
	pairs+=("${copies[*]}") names+=("${shown[*]}")
}
fw=$B/mps2-an385/fw
add $fw/demo.elf $B/demo/mps2-an385/gmon.out
add $fw/bench.elf $B/bench/mps2-an385/gmon.out
# Every ARM board's calls test (build/test-out/BOARD/calls/; arm-none-eabi-gprof reads them).
for o in $B/test-out/*/calls; do
	board=$(basename "$(dirname "$o")")
	grep -qs 'arm-none-eabi-' "boards/$board/board.mk" || continue
	for g in "$o"/*/*/gmon.out "$o"/*/phase1/firmware-gmon.out; do
		add "$B/$board/fw/calls.elf" "$g"
	done
done
# The TFTP tests (tests/qemu/tftplib.py) run in build/test-out/BOARD/tftp/NAME.PID/, each
# with the copy of tftp.elf its firmware ran.
for d in $B/test-out/mps2-an385/tftp/gets.*/; do
	d=${d%/}
	add "$d/tftp.elf" "$d/get1.gmon"
	add "$d/tftp.elf" "$d/get1.gmon" "$d/get2.gmon"
done
for d in $B/test-out/mps2-an385/tftp/abuse.*/; do
	d=${d%/}
	# (of the 16 gets under attack, alike but for their counts, the first of each rate)
	for g in "$d"/*.gmon; do
		case $g in */attack-*-0.gmon) ;; */attack-*) continue ;; esac
		add "$d/tftp.elf" "$g"
	done
done

if [ ${#pairs[@]} -eq 0 ]; then
	echo "ok 1 - firmware profiles # SKIP none yet (make demo, or the QEMU tests, make them)"
	echo "1..1"
	exit 0
fi
cd "$W" || exit 1
k=0
for p in "${pairs[@]}"; do
	name=${names[k]}
	k=$((k + 1))
	# shellcheck disable=SC2086
	set -- $p
	d=$(dirname "$1")
	for o in "" "-b" "-b -z" "-T" "-i" "-b -a" "-b -pmain" "-b -Qmain" "-l -b" "-l -b -z" "-C -z" "-r" "-c -b" "-A -b" "-A -z -b"; do
		# shellcheck disable=SC2086
		(cd "$d" && arm-none-eabi-gprof $o "$@" > "$W/ref.out" 2> /dev/null; echo $? > "$W/ref.rc")
		# shellcheck disable=SC2086
		(cd "$d" && "$T" $o "$@" > "$W/our.out" 2> "$W/our.err"; echo $? > "$W/our.rc")
		if grep -q 'AddressSanitizer\|runtime error:\|LeakSanitizer' our.err; then
			nok "$name [$o]: sanitizer report"
		elif cmp -s ref.out our.out && cmp -s ref.rc our.rc; then
			ok "$name [$o]"
		else
			nok "$name [$o]: differs"; diff ref.out our.out | head -10 | sed 's/^/# /'
		fi
	done
done
echo "1..$n"
