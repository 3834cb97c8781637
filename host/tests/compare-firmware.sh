#!/usr/bin/env bash
# tgprof against GNU gprof on the firmware profiles the rest of the project produces
# (QEMU tests: calls, TFTP gets and abuse; make demo, make bench: gmon.out files with the
# target's counters, 32- or 64-bit), each board's with the gprof of its toolchain
# (the board's CROSS_COMPILE: arm-none-eabi-gprof, riscv64-unknown-elf-gprof).  Runs on
# whatever pairs exist; run after the QEMU tests (make test runs them first) or make demo.
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
# skip WHAT WHY: a check that cannot be made here (TAP's skip: not counted as passed)
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

# board_gprof BOARD: the GNU gprof of the board's toolchain, from the CROSS_COMPILE of
# boards/BOARD/board.mk or of the board.mk it includes (a variant board such as
# riscv64-virt or vexpress-a9-thumb); the last assignment counts, as in make.
board_gprof() {
	local mk=boards/$1/board.mk depth=${2:-0} line cc='' v
	[ -f "$mk" ] && [ "$depth" -lt 4 ] || return
	while IFS= read -r line; do
		case $line in
		'include boards/'*/board.mk)
			v=${line#include boards/}
			v=$(board_gprof "${v%/board.mk}" $((depth + 1)))
			[ -z "$v" ] || cc=${v%gprof} ;;
		CROSS_COMPILE*=*)
			v=${line#*=}
			read -r cc _ <<< "${v%%#*}" ;;
		esac
	done < "$mk"
	[ -z "$cc" ] || echo "${cc}gprof"
}

# add BOARD ELF GMON...: one comparison of ELF with the GMON files (summed) that exist, by
# the board's gprof, on private copies made right away: other runs may delete the QEMU
# tests' directories (tests/qemu/tftplib.py removes those of finished runs) or rebuild
# the firmware.  A board whose gprof is not installed is reported as skipped, once.
pairs=() names=() gprofs=() skipped=()
k=0
add() {
	local board=$1 elf=$2 g gp; shift 2
	[ -f "$elf" ] || return
	local gm=()
	for g in "$@"; do [ -f "$g" ] && gm+=("$g"); done
	[ ${#gm[@]} -gt 0 ] || return
	gp=$(board_gprof "$board")
	if [ -z "$gp" ] || ! command -v "$gp" > /dev/null; then
		case " ${skipped[*]} " in *" $board "*) ;; *) skipped+=("$board") ;; esac
		return
	fi
	k=$((k + 1))
	local d=$W/in$k
	mkdir -p "$d" && cp "$elf" "$d/" || return
	local copies=("$d/$(basename "$elf")") shown=("${elf#"$B"/}")
	for g in "${gm[@]}"; do
		cp "$g" "$d/" 2> /dev/null || continue
		copies+=("$d/$(basename "$g")") shown+=("${g#"$B"/}")
	done
	[ ${#copies[@]} -gt 1 ] || return
	pairs+=("${copies[*]}") names+=("${shown[*]}") gprofs+=("$gp")
}
# make demo and make bench, on any board (build/demo/BOARD/, build/bench/BOARD/)
for g in "$B"/demo/*/gmon.out "$B"/bench/*/gmon.out; do
	[ -f "$g" ] || continue
	d=$(dirname "$g")
	board=$(basename "$d")
	add "$board" "$B/$board/fw/$(basename "$(dirname "$d")").elf" "$g"
done
# Every board's calls test (build/test-out/BOARD/calls/): every file of the reference
# board's, the first run's phase-1 files of the others (what differs per board is the
# code and the toolchain, not the file kinds; all of them would take minutes per board).
for o in "$B"/test-out/*/calls; do
	board=$(basename "$(dirname "$o")")
	if [ "$board" = mps2-an385 ]; then
		files=("$o"/*/*/gmon.out "$o"/*/phase1/firmware-gmon.out)
	else
		files=("$o"/run1/phase1/gmon.out "$o"/run1/phase1/firmware-gmon.out)
	fi
	for g in "${files[@]}"; do
		add "$board" "$B/$board/fw/calls.elf" "$g"
	done
done
# The TFTP tests (tests/qemu/tftplib.py) run in build/test-out/BOARD/tftp/NAME.PID/, each
# with the copy of tftp.elf its firmware ran.
for d in "$B"/test-out/mps2-an385/tftp/gets.*/; do
	d=${d%/}
	add mps2-an385 "$d/tftp.elf" "$d/get1.gmon"
	add mps2-an385 "$d/tftp.elf" "$d/get1.gmon" "$d/get2.gmon"
done
for d in "$B"/test-out/mps2-an385/tftp/abuse.*/; do
	d=${d%/}
	# (of the 16 gets under attack, alike but for their counts, the first of each rate)
	for g in "$d"/*.gmon; do
		case $g in */attack-*-0.gmon) ;; */attack-*) continue ;; esac
		add mps2-an385 "$d/tftp.elf" "$g"
	done
done

for board in "${skipped[@]}"; do
	gp=$(board_gprof "$board")
	skip "$board's profiles" "${gp:-a gprof (boards/$board/board.mk names no CROSS_COMPILE)} is not installed"
done
if [ ${#pairs[@]} -eq 0 ]; then
	skip "firmware profiles" "none yet (make demo, or the QEMU tests, make them)"
	echo "1..$n"
	exit 0
fi
cd "$W" || exit 1
k=0
for p in "${pairs[@]}"; do
	name=${names[k]} gp=${gprofs[k]}
	k=$((k + 1))
	# shellcheck disable=SC2086
	set -- $p
	d=$(dirname "$1")
	for o in "" "-b" "-b -z" "-T" "-i" "-b -a" "-b -pmain" "-b -Qmain" "-l -b" "-l -b -z" "-C -z" "-r" "-c -b" "-A -b" "-A -z -b"; do
		# shellcheck disable=SC2086
		(cd "$d" && "$gp" $o "$@" > "$W/ref.out" 2> /dev/null; echo $? > "$W/ref.rc")
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
