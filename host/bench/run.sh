#!/usr/bin/env bash
# make bench: GNU gprof 2.40 and tgprof side by side on generated large inputs (an ELF
# with N functions, a gmon.out with a histogram and a random call graph of M arcs, which
# makes large cycles).  Prints seconds for each tool, the ratio, and whether the outputs
# are identical.  Times are CPU time (user + system): the machine may be shared.  Sizes are picked to show gprof's quadratic parts in about a minute;
# BENCH_SIZES="functions:arcs[:tgprof-only] ..." overrides them; the last default size
# runs tgprof alone (gprof 2.40 needs 5 to 7 minutes for it) unless BENCH_FULL=1, which
# runs gprof on every size and compares the outputs there too.  Then a C and a C++
# program as users build them, in CPU time (BENCH_PROGRAMS=0 leaves them out).
set -u
SRC=$(cd "$(dirname "$0")/../src" && pwd)
B=${BUILD:-build}/host
case $B in /*) ;; *) B=$PWD/$B ;; esac   # absolute, BUILD may be either
T=$B/tgprof
G=$B/gen-gmon
for x in "$T" "$G"; do [ -x "$x" ] || { echo "bench: $x missing" >&2; exit 1; }; done
W=$B/bench
mkdir -p "$W" && cd "$W" || exit 1
sizes=${BENCH_SIZES:-"10000:20000 50000:100 50000:50000 50000:100000 50000:200000:tgprof-only"}

# input NF NA: f$NF.elf, NF functions (made once), and g$NF-$NA.out, a profile of it with
# NA arcs.
input() {
	local nf=$1 na=$2
	if [ ! -f f$nf.elf ]; then
		"$G" asm "$nf" 1 > f$nf.s && gcc -nostdlib -static -Wl,-e,_start f$nf.s -o f$nf.elf || return 1
	fi
	"$G" gmon f$nf.elf g$nf-$na.out -s 1 -a "$na" -n $((nf * 4))
}
# cpu OUT RUNS CMD...: the CPU seconds (user + system) of RUNS runs of CMD, its output
# to OUT (bash's times: the children's line).
cpu() {
	local out=$1 runs=$2
	shift 2
	( for _ in $(seq "$runs"); do "$@" > "$out" 2> /dev/null; done; times ) |
		awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}
# both LABEL RUNS PREC ARGS...: gprof and tgprof on ARGS, RUNS times each, and a row of the
# table: the CPU seconds (user + system) of a run (PREC decimals; the ratio PREC - 2), and
# whether the outputs are identical (if not, status 1).
both() {
	local label=$1 runs=$2 p=$3 g o same=identical
	shift 3
	g=$(awk "BEGIN { print $(cpu ref.out "$runs" gprof "$@") / $runs }")
	o=$(awk "BEGIN { print $(cpu our.out "$runs" "$T" "$@") / $runs }")
	cmp -s ref.out our.out || { same=DIFFERENT; status=1; }
	printf "%-26s %10.${p}f %10.${p}f %7.$((p - 2))fx  %s (%s lines)\n" "$label" "$g" "$o" \
		"$(awk "BEGIN { print $g / ($o > 0 ? $o : 1e-4) }")" "$same" "$(wc -l < ref.out)"
}
printf '%-26s %10s %10s %8s  %s\n' "input [CPU s a run]" "gprof" "tgprof" "ratio" "output"
[ "${BENCH_FULL:-0}" = 1 ] && echo "(BENCH_FULL=1: gprof on every size; the largest takes minutes)"
status=0
for sz in $sizes; do
	IFS=: read -r nf na only <<< "$sz"
	elf=f$nf.elf
	input "$nf" "$na" || exit 1
	if [ -n "$only" ] && [ "${BENCH_FULL:-0}" != 1 ]; then
		printf '%-26s %10s %10.2f %8s  %s\n' "$nf functions, $na arcs" "(skipped)" \
			"$(cpu our.out 1 "$T" -b $elf g$nf-$na.out)" "-" "tgprof only ($(wc -l < our.out) lines)"
		continue
	fi
	both "$nf functions, $na arcs" 1 2 -b $elf g$nf-$na.out
done
# Line by line (-l) on a program with DWARF: 100 units of 100 functions, built with
# -ffunction-sections and --gc-sections as firmware is (BENCH_DWARF=0 leaves it out).
if [ "${BENCH_DWARF:-1}" != 0 ]; then
	d=dwarf
	if [ ! -x $d/prog ]; then
		mkdir -p $d/src
		for f in $(seq 0 99); do
			awk -v f=$f 'BEGIN {
				for (i = 0; i < 100; i++)
					printf "%s__attribute__((noinline)) int f%d_%d(int x) { return x * %d + %d; }\n", (i % 3 ? "" : "static "), f, i, i, f
				printf "int use%d(int x) { int s = 0;\n", f
				for (i = 0; i < 100; i++) printf "  s += f%d_%d(x);\n", f, i
				print "  return s; }" }' > $d/src/u$f.c
		done
		{ for f in $(seq 0 99); do echo "int use$f(int);"; done
		  echo "int main(void) { int s = 0;"
		  for f in $(seq 0 99); do echo " s += use$f(1);"; done
		  echo " return s & 1; }"; } > $d/src/main.c
		gcc -g -O2 -pg -ffunction-sections -Wl,--gc-sections $d/src/*.c -o $d/prog || exit 1
	fi
	(cd $d && ./prog)
	for o in "-b" "-b -l"; do
		# shellcheck disable=SC2086
		both "DWARF, 10k functions, $o" 1 2 $o $d/prog $d/gmon.out
	done
fi
# median A B C
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
# programs LABEL RUNS ARGS...: gprof and tgprof on ARGS, in CPU time (user + system) per
# run: three rounds of RUNS runs each, the tools alternating, the median round; -s's
# gmon.sum compared too.
programs() {
	local label=$1 runs=$2 g=() o=() same=identical
	shift 2
	for _ in 1 2 3; do
		rm -f gmon.sum; g+=("$(cpu ref.out "$runs" gprof "$@")"); [ ! -f gmon.sum ] || mv gmon.sum ref.sum
		rm -f gmon.sum; o+=("$(cpu our.out "$runs" "$T" "$@")")
	done
	local gm om
	gm=$(awk "BEGIN { print $(median "${g[@]}") / $runs }") om=$(awk "BEGIN { print $(median "${o[@]}") / $runs }")
	cmp -s ref.out our.out || { same=DIFFERENT; status=1; }
	if [ -f ref.sum ] && ! cmp -s <(tail -c +21 ref.sum) <(tail -c +21 gmon.sum); then
		same=DIFFERENT; status=1
	fi
	rm -f ref.sum gmon.sum
	printf "%-34s %8.4f %8.4f %6.1fx  %s (%s lines)\n" "$label" "$gm" "$om" \
		"$(awk "BEGIN { print $gm / ($om > 0 ? $om : 1e-4) }")" "$same" "$(wc -l < ref.out)"
}
# gprof_stops LABEL RUNS ARGS...: as programs, where gprof 2.40 stops with "somebody
# miscounted" (exit 1): both times, and tgprof's exit status and lines.
gprof_stops() {
	local label=$1 runs=$2 g=() o=() same st
	shift 2
	for _ in 1 2 3; do
		g+=("$(cpu ref.out "$runs" gprof "$@")")
		o+=("$(cpu our.out "$runs" "$T" "$@")")
	done
	local gm om
	gm=$(awk "BEGIN { print $(median "${g[@]}") / $runs }") om=$(awk "BEGIN { print $(median "${o[@]}") / $runs }")
	gprof "$@" > /dev/null 2> ref.err; st=$?
	if [ $st = 1 ] && grep -q 'somebody miscounted' ref.err && "$T" "$@" > our.out 2> /dev/null; then
		same="gprof stops (miscounted), tgprof prints"
	else
		same="UNEXPECTED (gprof exit $st)"; status=1
	fi
	rm -f gmon.sum
	printf "%-34s %8.4f %8.4f %6.1fx  %s (%s lines)\n" "$label" "$gm" "$om" \
		"$(awk "BEGIN { print $gm / ($om > 0 ? $om : 1e-4) }")" "$same" "$(wc -l < our.out)"
}
# Programs as users build them, in CPU time: a C program (tgprof itself, the real one
# below) and a C++ one, generated (host/tests/gen-cxx.sh: 10 units of 40 functions in
# anonymous namespaces, class templates, standard containers; about 900 functions at
# -O0), each with two runs' profiles.  gprof's time there is mostly reading the ELF's
# symbols and DWARF; tgprof reads each once, and only what the report needs.
if [ "${BENCH_PROGRAMS:-1}" != 0 ]; then
	p=cxx
	if [ ! -f $p/gmon.2 ]; then
		mkdir -p $p && "$SRC"/../tests/gen-cxx.sh $p/src 10 40 &&
			g++ -pg -O0 -g $p/src/*.cc -o $p/prog &&
			(cd $p && ./prog 20000 && mv gmon.out gmon.1 && ./prog 30000 && mv gmon.out gmon.2) ||
			exit 1
	fi
	{ [ -f f10000.elf ] && [ -f g10000-20000.out ]; } || input 10000 20000 || exit 1
	(cd $p && gcc -std=gnu11 -O2 -g -pg "$SRC"/*.c -lelf -lm -ldl -o tgprof-pg &&
	 ./tgprof-pg -b ../f10000.elf ../g10000-20000.out > /dev/null && mv gmon.out c.1 &&
	 ./tgprof-pg -b -l prog gmon.1 > /dev/null && mv gmon.out c.2) || exit 1
	printf '\n%-34s %8s %8s %7s  %s\n' "program, options [CPU s a run]" "gprof" "tgprof" "ratio" "output"
	cd $p || exit 1
	for o in "-b" "" "-A" "-b -l" "-l -C"; do
		# shellcheck disable=SC2086
		programs "C, tgprof, ${o:-(none)}" 5 $o tgprof-pg c.1 c.2
	done
	for o in "-b" "" "-A" "-b -l" "-l -C"; do
		# shellcheck disable=SC2086
		programs "C++, 900 fns, ${o:-(none)}" 3 $o prog gmon.1 gmon.2
	done
	programs "C++, 900 fns, -s (gmon.sum)" 3 -s -b prog gmon.1 gmon.2
	cd .. || exit 1
	echo
fi
# Programs built from Debian's sources, as users build theirs (BENCH_PACKAGES=1: the
# network, for apt-get source through tools/setup's private deb-src lines; building takes
# a minute or two): bzip2 and lz4 with gcc -pg -O2 -g, each run twice (compressing, then
# decompressing, 24 MB of text), and leveldb's db_bench (C++: namespaces, templates,
# the standard library) with g++ -pg -O2 -g, run twice with different benchmarks.
if [ "${BENCH_PACKAGES:-0}" = 1 ]; then
	k=pkg
	mkdir -p $k && cd $k || exit 1
	for p in bzip2 lz4 leveldb; do
		[ -d $p-src ] || "$SRC"/../../tools/setup source $p "$PWD/$p-src" > /dev/null ||
			{ echo "bench: fetching $p's Debian source package failed" >&2; exit 1; }
	done
	[ -f in.txt ] || seq 1 1500000 | awk '{ print $1, $1 * 7 % 1000, "of the words in a line" }' > in.txt
	if [ ! -f bzip2/gmon.2 ]; then
		mkdir -p bzip2 && (cd bzip2 && b=../bzip2-src &&
			gcc -pg -O2 -g -D_FILE_OFFSET_BITS=64 $b/blocksort.c $b/huffman.c $b/crctable.c \
				$b/randtable.c $b/compress.c $b/decompress.c $b/bzlib.c $b/bzip2.c -o prog &&
			./prog -c ../in.txt > in.bz2 && mv gmon.out gmon.1 &&
			./prog -dc in.bz2 > /dev/null && mv gmon.out gmon.2) || exit 1
	fi
	if [ ! -f lz4/gmon.2 ]; then
		mkdir -p lz4 && (cd lz4 && l=../lz4-src &&
			gcc -pg -O2 -g -I$l/lib $l/lib/*.c $l/programs/*.c -o prog -lpthread &&
			./prog -qf ../in.txt in.lz4 && mv gmon.out gmon.1 &&
			./prog -qdc in.lz4 > /dev/null && mv gmon.out gmon.2) || exit 1
	fi
	# db_bench as leveldb's CMakeLists.txt builds it, less its test and Windows sources
	# (util/testutil.cc is db_bench's; its header includes googletest's).
	if [ ! -f leveldb/gmon.2 ]; then
		mkdir -p leveldb && (cd leveldb && l=../leveldb-src &&
			g++ -pg -O2 -g -std=c++11 -DLEVELDB_PLATFORM_POSIX -I$l -I$l/include \
				$(ls $l/db/*.cc $l/table/*.cc $l/util/*.cc | grep -v -e _test -e windows -e leveldbutil) \
				$l/helpers/memenv/memenv.cc $l/benchmarks/db_bench.cc -o prog -lpthread &&
			rm -rf db && ./prog --db="$PWD/db" --num=100000 \
				--benchmarks=fillseq,fillrandom,overwrite,readrandom,readseq,readreverse,compact,readrandom \
				> run.1 2>&1 && mv gmon.out gmon.1 && rm -rf db &&
			./prog --db="$PWD/db" --num=100000 \
				--benchmarks=fillbatch,seekrandom,readhot,readmissing,deleterandom,fill100K,crc32c \
				> run.2 2>&1 && mv gmon.out gmon.2 && rm -rf db) || exit 1
	fi
	printf '%-34s %8s %8s %7s  %s\n' "program, options [CPU s a run]" "gprof" "tgprof" "ratio" "output"
	# (20 runs a round where a run takes milliseconds: the CPU times are in ms)
	for p in bzip2 lz4; do
		cd $p || exit 1
		for o in "-b" "" "-p" "-q" "-A" "-C"; do
			# shellcheck disable=SC2086
			programs "$p (Debian), ${o:-(none)}" 20 $o prog gmon.1 gmon.2
		done
		for o in "-b -l" "-l -C"; do
			# shellcheck disable=SC2086
			programs "$p (Debian), $o" 5 $o prog gmon.1 gmon.2
		done
		programs "$p (Debian), -s (gmon.sum)" 5 -s -b prog gmon.1 gmon.2
		cd .. || exit 1
	done
	cd leveldb || exit 1
	for o in "-b" "" "-p" "-q" "-A" "-C"; do
		# shellcheck disable=SC2086
		programs "leveldb db_bench (Debian), ${o:-(none)}" 5 $o prog gmon.1 gmon.2
	done
	# Line granularity: gprof 2.40 stops on this program ("somebody miscounted", doc/
	# host-analyzer.md's known differences); its CPU time until then, tgprof's whole run.
	for o in "-b -l" "-l -C" "-s -b"; do
		# shellcheck disable=SC2086
		gprof_stops "leveldb db_bench (Debian), $o" 3 $o prog gmon.1 gmon.2
	done
	cd .. || exit 1
	cd .. || exit 1
	echo
fi
# A real program: tgprof itself, built with -pg (-O2 -g, as a user would), profiled while
# it reads the 50000-function input above (made here if BENCH_SIZES left it out); then
# both tools read that profile (each run RUNS times: one run takes milliseconds). And
# where tgprof's own time goes on it: callgrind's view, below.
if [ "${BENCH_REAL:-1}" != 0 ]; then
	r=real
	mkdir -p $r
	gcc -std=gnu11 -O2 -g -pg "$SRC"/*.c -lelf -lm -ldl -o $r/tgprof-pg || exit 1
	if [ ! -f f50000.elf ] || [ ! -f g50000-50000.out ]; then
		input 50000 50000 || exit 1
	fi
	(cd $r && ./tgprof-pg -b ../f50000.elf ../g50000-50000.out > /dev/null && mv gmon.out work.gmon) || exit 1
	nfun=$(nm --defined-only $r/tgprof-pg | grep -c ' [tT] ')
	runs=${RUNS:-20}
	for o in "-b" "-b -l"; do
		# shellcheck disable=SC2086
		both "real: tgprof, $nfun fns, $o" "$runs" 3 $o $r/tgprof-pg $r/work.gmon
	done
	# Where the time goes, in instructions (valgrind's callgrind: tgprof, libelf and libc
	# alike; a -pg build would see tgprof's own code only), with -l, the slow case.
	if command -v valgrind > /dev/null && command -v callgrind_annotate > /dev/null; then
		valgrind --tool=callgrind --callgrind-out-file=$r/cg.out "$T" -b -l $r/tgprof-pg \
			$r/work.gmon > /dev/null 2> $r/cg.err
		echo "where tgprof -b -l's instructions go on that profile (callgrind):"
		callgrind_annotate --threshold=100 $r/cg.out 2> /dev/null | awk '
			/PROGRAM TOTALS/ { total = $1; gsub(",", "", total); total += 0 }
			/^ *[0-9,]+ \( *[0-9.]+%\) +[^ ]+ \[/ {
				n = $1; gsub(",", "", n); n += 0; obj = $NF; gsub(/[][]/, "", obj); sub(/.*\//, "", obj)
				by[obj] += n
				if (shown++ < 6) { f = $0; sub(/^ *[0-9,]+ /, "", f); sub(/ \[.*/, "", f); sub(/[^ ]*\//, "", f); top = top sprintf("    %s\n", f) }
			}
			END {
				printf "  %.0f M instructions:", total / 1e6
				for (o in by) if (by[o] * 100 >= total) printf " %s %.0f%%", o, by[o] * 100 / total
				printf "\n  the heaviest functions (self):\n%s", top
			}'
	fi
fi
exit $status
