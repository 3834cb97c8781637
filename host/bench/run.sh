#!/usr/bin/env bash
# make bench: GNU gprof 2.40 and tgprof side by side on generated large inputs (an ELF
# with N functions, a gmon.out with a histogram and a random call graph of M arcs, which
# makes large cycles).  Prints seconds for each tool, the ratio, and whether the outputs
# are identical.  Sizes are picked to show gprof's quadratic parts in about a minute;
# BENCH_SIZES="functions:arcs[:tgprof-only] ..." overrides them; the last default size
# runs tgprof alone (gprof 2.40 needs 5 to 7 minutes for it) unless BENCH_FULL=1, which
# runs gprof on every size and compares the outputs there too.
set -u
B=${BUILD:-build}/host
case $B in /*) ;; *) B=$PWD/$B ;; esac   # absolute, BUILD may be either
T=$B/tgprof
G=$B/gen-gmon
for x in "$T" "$G"; do [ -x "$x" ] || { echo "bench: $x missing" >&2; exit 1; }; done
W=$B/bench
mkdir -p "$W" && cd "$W" || exit 1
sizes=${BENCH_SIZES:-"10000:20000 50000:100 50000:50000 50000:100000 50000:200000:tgprof-only"}

now() { date +%s.%N; }
printf '%-26s %10s %10s %8s  %s\n' "input" "gprof [s]" "tgprof [s]" "ratio" "output"
[ "${BENCH_FULL:-0}" = 1 ] && echo "(BENCH_FULL=1: gprof on every size; the largest takes minutes)"
status=0
for sz in $sizes; do
	IFS=: read -r nf na only <<< "$sz"
	elf=f$nf.elf
	if [ ! -f $elf ]; then
		"$G" asm "$nf" 1 > f$nf.s && gcc -nostdlib -static -Wl,-e,_start f$nf.s -o $elf || exit 1
	fi
	"$G" gmon $elf g$nf-$na.out -s 1 -a "$na" -n $((nf * 4)) || exit 1
	if [ -n "$only" ] && [ "${BENCH_FULL:-0}" != 1 ]; then
		t1=$(now); "$T" -b $elf g$nf-$na.out > our.out; t2=$(now)
		printf '%-26s %10s %10.2f %8s  %s\n' "$nf functions, $na arcs" "(skipped)" \
			"$(awk "BEGIN { print $t2 - $t1 }")" "-" "tgprof only ($(wc -l < our.out) lines)"
		continue
	fi
	t0=$(now); gprof -b $elf g$nf-$na.out > ref.out; t1=$(now)
	"$T" -b $elf g$nf-$na.out > our.out; t2=$(now)
	g=$(awk "BEGIN { print $t1 - $t0 }") o=$(awk "BEGIN { print $t2 - $t1 }")
	same=identical
	cmp -s ref.out our.out || { same=DIFFERENT; status=1; }
	printf '%-26s %10.2f %10.2f %7.0fx  %s (%s lines)\n' "$nf functions, $na arcs" "$g" "$o" \
		"$(awk "BEGIN { print $g / $o }")" "$same" "$(wc -l < ref.out)"
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
		{ t0=$(now); gprof $o $d/prog $d/gmon.out > ref.out; t1=$(now)
		  "$T" $o $d/prog $d/gmon.out > our.out; t2=$(now); }
		g=$(awk "BEGIN { print $t1 - $t0 }") o2=$(awk "BEGIN { print $t2 - $t1 }")
		same=identical
		cmp -s ref.out our.out || { same=DIFFERENT; status=1; }
		printf '%-26s %10.2f %10.2f %7.0fx  %s (%s lines)\n' "DWARF, 10k functions, $o" "$g" "$o2" \
			"$(awk "BEGIN { print $g / $o2 }")" "$same" "$(wc -l < ref.out)"
	done
fi
exit $status
