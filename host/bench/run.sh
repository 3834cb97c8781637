#!/usr/bin/env bash
# make bench: GNU gprof 2.40 and tgprof side by side on generated large inputs (an ELF
# with N functions, a gmon.out with a histogram and a random call graph of M arcs, which
# makes large cycles).  Prints seconds for each tool, the ratio, and whether the outputs
# are identical.  Sizes are picked to show gprof's quadratic parts in about a minute;
# BENCH_SIZES="functions:arcs[:tgprof-only] ..." overrides them; the last default size
# runs tgprof alone (gprof 2.40 needs about 7 minutes for it).
set -u
B=${BUILD:-build}/host
T=$PWD/$B/tgprof
G=$PWD/$B/gen-gmon
for x in "$T" "$G"; do [ -x "$x" ] || { echo "bench: $x missing" >&2; exit 1; }; done
W=$PWD/$B/bench
mkdir -p "$W" && cd "$W" || exit 1
sizes=${BENCH_SIZES:-"10000:20000 50000:100 50000:50000 50000:100000 50000:200000:tgprof-only"}

now() { date +%s.%N; }
printf '%-26s %10s %10s %8s  %s\n' "input" "gprof [s]" "tgprof [s]" "ratio" "output"
status=0
for sz in $sizes; do
	IFS=: read -r nf na only <<< "$sz"
	elf=f$nf.elf
	if [ ! -f $elf ]; then
		"$G" asm "$nf" 1 > f$nf.s && gcc -nostdlib -static -Wl,-e,_start f$nf.s -o $elf || exit 1
	fi
	"$G" gmon $elf g$nf-$na.out -s 1 -a "$na" -n $((nf * 4)) || exit 1
	if [ -n "$only" ]; then
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
exit $status
