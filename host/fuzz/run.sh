#!/usr/bin/env bash
# make fuzz: runs each libFuzzer target for SECS seconds (default 60 in all), or RUNS
# executions each when RUNS is given, on a seed corpus made of generated inputs, and
# reports executions and findings.
set -u
HB=${1:-build/host} SECS=${2:-60} RUNS=${3:-}
targets="gmon elf stacks tasks"
per=$(( SECS / 4 > 1 ? SECS / 4 : 1 ))
if [ -n "$RUNS" ]; then limit="-runs=$RUNS"; else limit="-max_total_time=$per"; fi
corp=$HB/fuzz-corpus
mkdir -p "$corp/gmon" "$corp/elf" "$corp/stacks" "$corp/tasks" "$HB/fuzz-findings"
G=$HB/gen-gmon
if [ -x "$G" ] && [ -z "$(ls -A "$corp/gmon")" ]; then
	"$G" asm 20 1 > "$corp/f.s" && gcc -nostdlib -static -Wl,-e,_start "$corp/f.s" -o "$corp/elf/x.elf" &&
		arm-none-eabi-gcc -nostdlib -mthumb -mcpu=cortex-m3 -Wl,-e,_start "$corp/f.s" -o "$corp/elf/a.elf"
	for s in 1 2 3; do
		"$G" gmon "$corp/elf/x.elf" "$corp/g$s" -s $s -a 8 -n 30 -k 64
		{ printf '\001'; cat "$corp/g$s"; } > "$corp/gmon/x$s"
		"$G" gmon "$corp/elf/a.elf" "$corp/g$s" -s $s -a 8 -n 30 -k 64 -f bsd44
		{ printf '\040'; cat "$corp/g$s"; } > "$corp/gmon/b$s"
		rm -f "$corp/g$s"
	done
	# an ELF with DWARF, for the line lookups
	printf 'static int s(int x) { return x * 3; }\nint f(int x) { return s(x) + 1; }\nint _start(void) { return f(2); }\n' > "$corp/d.c"
	arm-none-eabi-gcc -g -Os -nostdlib -mthumb -mcpu=cortex-m3 "$corp/d.c" -o "$corp/elf/dwarf.elf"
fi
# gmon.stacks seeds: trees of both widths and byte orders, a chain (host/tests/gen-stacks.py)
if [ -z "$(ls -A "$corp/stacks")" ]; then
	gs=$(dirname "$0")/../tests/gen-stacks.py
	a=1000,1040,1080,10c0,1100,1140
	for s in 1 2 3; do
		python3 "$gs" "$corp/stacks/t$s" $a --tree 40 --seed $s > /dev/null
		python3 "$gs" "$corp/stacks/b$s" $a --tree 30 --seed $s --width 4 --big --overhead 3 > /dev/null
	done
	python3 "$gs" "$corp/stacks/chain" $a --chain 50 --every --width 4 > /dev/null
fi
# gmon.tasks seeds: both widths and byte orders, the fixed tree's ids, "(other tasks)"
if [ -z "$(ls -A "$corp/tasks")" ]; then
	gt=$(dirname "$0")/../tests/gen-tasks.py
	python3 "$gt" "$corp/tasks/t3" 40 --tasks 3 --unregistered 2 > /dev/null
	python3 "$gt" "$corp/tasks/b4" 40 --tasks 4 --width 4 --big --names main,a,b,c > /dev/null
	python3 "$gt" "$corp/tasks/one" 0 --tasks 1 > /dev/null
fi
status=0
# Findings of this run only: the directory keeps those of earlier runs.
stamp=$(mktemp "$HB/fuzz-findings/.run.XXXXXX") || exit 1
trap 'rm -f "$stamp"' EXIT
for t in $targets; do
	log=$HB/fuzz-$t.log
	if [ -n "$RUNS" ]; then echo "fuzz-$t: $RUNS executions"; else echo "fuzz-$t: $per s"; fi
	maxlen=4096
	[ $t = elf ] && maxlen=16384
	"$HB/fuzz-$t" $limit -print_final_stats=1 -max_len=$maxlen \
		-artifact_prefix="$HB/fuzz-findings/$t-" "$corp/$t" > "$log" 2>&1
	rc=$?
	execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
	[ -n "$execs" ] || execs=$(grep -oE '#[0-9]+' "$log" | tail -1 | tr -d '#')
	found=$(find "$HB/fuzz-findings" -maxdepth 1 -type f -name "$t-*" ! -name "$t-slow-unit-*" -newer "$stamp" | wc -l)
	old=$(find "$HB/fuzz-findings" -maxdepth 1 -type f -name "$t-*" ! -newer "$stamp" | wc -l)
	echo "fuzz-$t: ${execs:-?} executions, exit $rc, findings: $found (earlier runs: $old, in $HB/fuzz-findings)"
	# libFuzzer's slow units (over 10 s) are timed again alone: on a busy machine a unit is
	# slow because the fuzzer waited for a core, and the run says which it was.
	for u in $(find "$HB/fuzz-findings" -maxdepth 1 -type f -name "$t-slow-unit-*" -newer "$stamp"); do
		t0=$(date +%s%N)
		"$HB/fuzz-$t" "$u" > /dev/null 2>&1
		ms=$(( ($(date +%s%N) - t0) / 1000000 ))
		if [ $ms -ge 1000 ]; then
			echo "fuzz-$t: slow unit $u: $ms ms again alone: a finding"; status=1
		else
			echo "fuzz-$t: slow unit $u: $ms ms alone (the machine was busy, not the reader)"
		fi
	done
	[ $rc -eq 0 ] || { status=1; grep -m3 'ERROR\|SUMMARY' "$log"; }
done
exit $status
