#!/usr/bin/env bash
# tgprof against GNU gprof 2.40 on generated inputs: ELF files with many kinds of symbols
# (statics, weak, aliases, clone-like names, ARM mapping symbols and Thumb bits) for
# x86-64, 32-bit little-endian ARM (compared with arm-none-eabi-gprof), big-endian ARM and
# (with clang and lld) 64-bit big-endian PowerPC,
# and gmon.out files in GNU, 4.4BSD and old BSD formats from gen-gmon.  Also -s (gmon.sum).
set -u
. "$(dirname "$0")/lib.sh" synthetic
cd "$W" || exit 1

# same NAME GPROF ARGS...: both tools on ARGS; stdout and exit status must match.
same() {
	local name=$1 gp=$2; shift 2
	"$gp" "$@" > ref.out 2> ref.err; local rr=$?
	"$T" "$@" > our.out 2> our.err; local rc=$?
	if ! sanitizer_clean our.err; then
		nok "$name: sanitizer report"; head -20 our.err | sed 's/^/# /'
	elif ! cmp -s ref.out our.out; then
		nok "$name: output differs"; diff ref.out our.out | head -10 | sed 's/^/# /'
	elif [ $rr != $rc ]; then
		nok "$name: exit status $rc, gprof $rr"
	else
		ok "$name"
	fi
}

"$G" asm 400 7 > f.s || exit 1
gcc -nostdlib -static -Wl,-e,_start f.s -o x86.elf &&
	arm-none-eabi-gcc -nostdlib -mcpu=cortex-m3 -mthumb -Wl,-e,_start f.s -o arm.elf &&
	arm-none-eabi-gcc -nostdlib -mbig-endian -Wl,-e,_start f.s -o armbe.elf ||
	{ nok "building the synthetic ELF files"; exit 1; }
# 64-bit big-endian (PowerPC 64), if clang and lld are there: the host's gprof reads it
# (BFD's generic elf64-big).
elfs=(x86.elf arm.elf armbe.elf)
if command -v clang > /dev/null && command -v ld.lld > /dev/null; then
	clang --target=powerpc64-linux-gnu -c f.s -o ppc64.o && ld.lld -e _start ppc64.o -o ppc64.elf &&
		elfs+=(ppc64.elf) || nok "building the PowerPC 64 ELF file"
else
	skip "64-bit big-endian" "clang and ld.lld are not installed"
fi

for elf in "${elfs[@]}"; do
	gp=arm-none-eabi-gprof
	case $elf in x86.elf|ppc64.elf) gp=gprof;; esac
	for gen in "-s 1" "-s 2 -a 3000" "-s 3 -2" "-s 4 -k 4" "-s 5 -k 1 -c" "-s 6 -f bsd44" \
		"-s 7 -f oldbsd" "-s 8 -a 0" "-s 9 -n 0" "-s 10 -r 1000" "-s 11 -a 20 -n 50" \
		"-s 12 -B 777" "-s 13 -B 3" "-s 14 -B 65537" "-s 15 -d cycles,c" "-s 16 -x 7" "-s 25 -X 20" \
		"-s 17 -b 60" "-s 18 -b 60 -H -a 0" "-s 26 -O 5" "-s 27 -O 9 -2" "-s 28 -O 3 -k 4 -a 100" \
		"-s 31 -f bsd44 -a 0" "-s 32 -f oldbsd -a 0" "-s 33 -f bsd44 -r 0"; do
		# gprof reads a big-endian basic-block record's count byte-swapped (below)
		case $elf$gen in armbe.elf*"-b 60"*|ppc64.elf*"-b 60"*) continue;; esac
		# shellcheck disable=SC2086
		"$G" gmon $elf g.out $gen || { nok "gen-gmon $gen"; continue; }
		opts=("-b" "" "-z -b" "-T" "-i" "-r")
		# arcs into code after the last function, under a label that is not one: the
		# callee is the function before (gprof's cg_tally), also with -l
		case $gen in *-X*) opts+=("-l -b" "-b -q -z");; esac
		case $gen in "-s 1"|"-s 2 -a 3000") opts+=("-a -b" "-b -pf00010" "-b -Qf00020" "-b -D" "-b -w 100");; esac
		# buckets past 65535 as the target writes them: also line by line
		case $gen in *-O*) opts+=("-l -b" "-b -p" "-b -z");; esac
		# a BSD file is a histogram and a call graph, even without arcs (-q: all
		# <spontaneous>); a 4.4BSD rate of 0 is gprof's "wrong": 100 Hz
		case $gen in *bsd*) opts+=("-b -q" "-b -p");; esac
		# basic-block records (tag 2): counted by -i, ignored but with -l
		case $gen in *"-b 60"*) opts+=("-C" "-C -z" "-l -b" "-l -b -z" "-A" "-s");; esac
		for o in "${opts[@]}"; do
			# shellcheck disable=SC2086
			same "$elf gen[$gen] [$o]" $gp $o $elf g.out
		done
	done
	# several files summed, and the gmon.sum they make
	"$G" gmon $elf s1 -s 21 && "$G" gmon $elf s2 -s 22 -2 && "$G" gmon $elf s3 -s 23 -2
	same "$elf two files summed" $gp -b $elf s1 s1
	same "$elf overlapping histograms are an error" $gp -b $elf s1 s2
	same "$elf disjoint histograms summed" $gp -b $elf s2 s3
	# 4.4BSD files of two rates (or 0, read as 100, then 100): gprof stops
	"$G" gmon $elf b1 -s 21 -f bsd44 -r 1000 && "$G" gmon $elf b2 -s 22 -f bsd44 -r 100 &&
		"$G" gmon $elf b0 -s 23 -f bsd44 -r 0
	same "$elf 4.4BSD files of two rates are an error" $gp -b $elf b1 b2
	same "$elf 4.4BSD files of rate 0 and 100 are an error" $gp -b $elf b0 b2
	same "$elf 4.4BSD files of rate 100 and 0 are an error" $gp -b $elf b2 b0
	# the target's files with buckets past 65535 (each as several records of its range),
	# one alone, and summed with itself
	"$G" gmon $elf o1 -s 29 -O 7 && "$G" gmon $elf o2 -s 29 -O 7 -2
	same "$elf buckets past 65535 in several records" $gp -b $elf o1
	same "$elf buckets past 65535, two files summed" $gp -b $elf o1 o1
	same "$elf buckets past 65535, two ranges" $gp -b $elf o2
	# histograms that cannot be summed: gprof's exit status, and its message (with the
	# file and offset added)
	"$G" gmon $elf s4 -s 21 -k 4 && "$G" gmon $elf s5 -s 21 -d cycles,c && "$G" gmon $elf s6 -s 21 -d seconds,x
	same "$elf different scales are an error" $gp -b $elf s1 s4
	grep -q "error: s4: offset 20: different scales in histogram records" our.err ||
		nok "$elf different scales: message $(head -c 200 our.err)"
	same "$elf different dimensions are an error" $gp -b $elf s1 s5
	grep -q "error: s5: offset 20: dimension unit changed between histogram records (from 'seconds' to 'cycles')" our.err ||
		nok "$elf different dimensions: message $(head -c 200 our.err)"
	same "$elf different dimension abbreviations are an error" $gp -b $elf s1 s6
	grep -q "error: s6: offset 20: dimension abbreviation changed between histogram records" our.err ||
		nok "$elf different abbreviations: message $(head -c 200 our.err)"
	# arcs with an address outside every function: left out as gprof does, with a warning
	"$G" gmon $elf x1 -s 24 -a 100 -x 9
	same "$elf arcs matching no symbol" $gp -b $elf x1
	grep -q "warning: 9 call arcs have an address that matches no symbol" our.err ||
		nok "$elf arcs matching no symbol: no warning: $(head -c 200 our.err)"
	rm -f gmon.sum && $gp -s $elf s2 s3 > /dev/null && mv gmon.sum ref.sum
	"$T" -s $elf s2 s3 > /dev/null 2> our.err
	if sanitizer_clean our.err && [ -f gmon.sum ] && cmp -s <(head -c 8 ref.sum) <(head -c 8 gmon.sum) &&
		cmp -s <(tail -c +21 ref.sum) <(tail -c +21 gmon.sum); then
		ok "$elf -s writes the same gmon.sum as gprof (but for gprof's uninitialized spare bytes)"
	else
		nok "$elf -s gmon.sum differs"
	fi
done

# Histogram records matched by range: one that repeats an earlier range adds into it, one
# that overlaps an earlier one is an error (exit 1), in files of up to 12 records that
# have both; then many disjoint records in a shuffled order, identical to gprof, and in
# time (each record compared with every earlier one: 200 000 took over 20 s).
H="python3 $OLDPWD/host/tests/gen-hrecs.py"
base=$(nm x86.elf | awk '$3 == "_start" { print "0x" $1 }')
bad=0 errs=0
for s in $(seq 1 40); do
	$H h.out "$base" $((s % 12 + 1)) random $s
	"$T" -b x86.elf h.out > our.out 2> our.err; rc=$?
	gprof -b x86.elf h.out > ref.out 2> /dev/null; rr=$?
	[ $rr = 1 ] && errs=$((errs + 1))
	if [ $rc != $rr ] || ! cmp -s ref.out our.out || ! sanitizer_clean our.err; then
		bad=$((bad + 1)); echo "# records seed $s: exit $rc, gprof $rr"
	fi
	[ $rc = 1 ] && ! grep -q "h.out: offset [0-9]*: histogram 0x.* overlaps an earlier one" our.err &&
		{ bad=$((bad + 1)); echo "# records seed $s: $(head -c 200 our.err)"; }
done
if [ $bad = 0 ] && [ $errs -gt 5 ] && [ $errs -lt 35 ]; then
	ok "histogram records by range: 40 files as gprof reads them ($errs overlap)"
else
	nok "histogram records by range: $bad files differ from gprof ($errs overlap)"
fi
$H h.out "$base" 20000 disjoint 1
same "20 000 disjoint one-bin records, shuffled" gprof -b x86.elf h.out
$H h.out "$base" 200000 disjoint 2
timeout 10 "$T" -b x86.elf h.out > /dev/null 2> our.err
check_rc=$?
if [ $check_rc = 0 ] && sanitizer_clean our.err; then
	ok "200 000 disjoint one-bin records read in time"
else
	nok "200 000 disjoint one-bin records: exit $check_rc (124: over 10 s)"
fi

# -k and -q/-Q FROM/TO: gprof keeps one table entry per FROM address, the
# spec given last; a FROM without /TO has no arcs, so alone it deletes nothing (output as
# without it), but after a FROM/TO of the same FROM it undoes that one.
for pair in x86.elf:gprof arm.elf:arm-none-eabi-gprof; do
	elf=${pair%%:*} gp=${pair##*:}
	"$G" gmon $elf k.out -s 61 -a 300
	# a caller with two callees (no cycles), from gprof's call graph
	read -r p c1 c2 < <($gp -b -q $elf k.out | awk '
		/^\[/ { p = $0 ~ /cycle/ ? "" : $(NF - 1); n = 0; next }
		/^---/ { p = ""; next }
		p != "" && $0 !~ /cycle/ { c[++n] = $(NF - 1); if (n == 2) { print p, c[1], c[2]; exit } }')
	if [ -z "${c2:-}" ]; then nok "$elf -k: no caller with two callees in the profile"; continue; fi
	$gp -b $elf k.out > base.out
	$gp -b -k "$p/$c1" $elf k.out > k1.out
	if cmp -s base.out k1.out; then nok "$elf -k $p/$c1 changes nothing in gprof (a bad test)"; fi
	"$T" -b -k "$p" $elf k.out > our.out 2> our.err
	if cmp -s base.out our.out && sanitizer_clean our.err; then
		ok "$elf -k $p (no /TO): output as without it"
	else
		nok "$elf -k $p (no /TO) changes the output"; diff base.out our.out | head -5 | sed 's/^/# /'
	fi
	for o in "-k $p" "-k $p/$c1" "-k $p -k $p/$c1" "-k $p/$c1 -k $p" "-k $p/$c1 -k $p/$c2" \
		"-k $p/$c2 -k $p/$c1" "-k $p/$c1 -k /$c2" "-k /$c1 -k $p/$c1" "-k $p/" \
		"-q$p/$c1 -q$p/$c2" "-Q$p/$c1 -Q$p/$c2" "-Q$p/$c1 -k $p" "-k $p/$c1 -Q$p"; do
		# shellcheck disable=SC2086
		same "$elf [$o]" $gp -b $o $elf k.out
	done
done

# A histogram whose lowpc is above its highpc: gprof reads it (the range
# wraps around, every function gets a sliver of time) and exits 0; tgprof gives the same
# output, and a warning naming the file and the offset.
for pair in x86.elf:gprof:Q arm.elf:arm-none-eabi-gprof:I; do
	IFS=: read -r elf gp fmt <<< "$pair"
	"$G" gmon $elf g.out -s 62 -a 100
	python3 -c '
import struct, sys
d = bytearray(open("g.out", "rb").read())
f = "<" + sys.argv[1] * 2
lo, hi = struct.unpack_from(f, d, 21)
struct.pack_into(f, d, 21, hi, lo)
open("rev.out", "wb").write(d)' $fmt
	for o in "-b" "" "-T" "-l -b" "-r"; do
		# shellcheck disable=SC2086
		same "$elf reversed histogram range [$o]" $gp $o $elf rev.out
	done
	if grep -q "warning: rev.out: offset 20: histogram range 0x[0-9a-f]*\.\.0x[0-9a-f]* is reversed" our.err; then
		ok "$elf reversed histogram range: a warning at offset 20"
	else
		nok "$elf reversed histogram range: no warning: $(head -c 200 our.err)"
	fi
done

# Big-endian basic-block records: gprof 2.40 converts the block count from the file's byte
# order twice (bb_read_rec), so it fails on them; tgprof reads them.  Checked against
# gprof on the little-endian build of the same code (same addresses, same generated
# profile).
arm-none-eabi-gcc -nostdlib -Wl,-e,_start f.s -o armle.elf
for o in "-l -C" "-l -C -z" "-i" "-b" "-l -b"; do
	"$G" gmon armle.elf bb.out -s 19 -b 60
	# shellcheck disable=SC2086
	arm-none-eabi-gprof $o armle.elf bb.out > ref.out 2> /dev/null
	"$G" gmon armbe.elf bb.out -s 19 -b 60
	# shellcheck disable=SC2086
	"$T" $o armbe.elf bb.out > our.out 2> our.err
	if sanitizer_clean our.err && [ -s ref.out ] && cmp -s ref.out our.out; then
		ok "big-endian basic-block records [$o]: as gprof on the little-endian twin"
	else
		nok "big-endian basic-block records [$o]"; diff ref.out our.out | head -5 | sed 's/^/# /'
	fi
done

# Symbols without a type (assembler without .type): for ELF gprof counts only STT_FUNC
# symbols as functions, so every arc's callee backs up past the first symbol and the
# call graph is empty.  Same code, so x86.elf's profile fits.
sed '/\.type/d' f.s > notype.s && gcc -nostdlib -static -Wl,-e,_start notype.s -o notype.elf &&
	"$G" gmon x86.elf nt.out -s 26 -a 300
for o in "-b" "-b -z" "-b -q -z" "-l -b" "-r"; do
	# shellcheck disable=SC2086
	same "symbols without a type [$o]" gprof $o notype.elf nt.out
done

# Profiles without a histogram, without arcs, without both (gprof's errors and its
# execution-count output), and -C/-Z.
"$G" gmon x86.elf nh.out -s 51 -H && "$G" gmon x86.elf na.out -s 52 -a 0 && "$G" gmon x86.elf nn.out -s 53 -a 0 -H
for f in nh.out na.out nn.out; do
	for o in "" "-p" "-q" "-b -z" "-p -q" "-C" "-b -Cf00010" "-b -Z"; do
		# shellcheck disable=SC2086
		same "$f [$o]" gprof $o x86.elf $f
	done
done

# Sums past 16 bits: gprof's gmon.sum truncates bins, ours adds records instead.
# (Bins of 2048 bytes: up to about 40000 samples each, three times that summed.)
"$G" gmon x86.elf b1 -s 31 -n 400000 -k 2048 && cp b1 b2 && cp b1 b3
gprof -b -p x86.elf b1 b2 b3 > ref.out
rm -f gmon.sum && gprof -s x86.elf b1 b2 b3 > /dev/null && gprof -b -p x86.elf gmon.sum > our.out
if cmp -s ref.out our.out; then
	nok "the inputs do not make bin sums over 65535 (gprof's own gmon.sum keeps them)"
fi
rm -f gmon.sum && "$T" -s x86.elf b1 b2 b3 > /dev/null 2> our.err
gprof -b -p x86.elf gmon.sum > our.out
if sanitizer_clean our.err && cmp -s ref.out our.out; then
	ok "-s keeps bin sums over 65535 (gprof reads our gmon.sum to the same numbers)"
else
	nok "-s bin sums over 65535"; diff ref.out our.out | head -5 | sed 's/^/# /'
fi
# ... and tgprof reads it to the same numbers, without calling the split bins saturated
if [ "$(od -An -tx1 -v gmon.sum | grep -c 'ff ff')" -gt 0 ] &&
	"$T" -b -p --clones=fold x86.elf gmon.sum > our.out 2> our.err && cmp -s ref.out our.out && [ ! -s our.err ]; then
	ok "tgprof reads its gmon.sum with bins over 65535: same numbers, nothing on stderr"
else
	nok "tgprof reading its gmon.sum with bins over 65535"; diff ref.out our.out | head -5 | sed 's/^/# /'
	sed 's/^/# /' our.err | head -5
fi

# The target's counters in the header's spare bytes (u32 samples taken, profiler
# overhead, arcs not recorded; the file's byte order): standard output stays gprof's; one
# line on stderr gives the overhead's share, for all the files read; samples outside the
# range (samples - overhead - the bins' sum) and arcs not recorded are warned about, per
# file; -s writes the sums into gmon.sum.  gen-gmon -n puts all its samples into bins.
# overhead_line N M: the line for N overhead samples of M.
overhead_line() {
	printf 'tgprof: profiler overhead: %s%% of samples (%s of %s), not charged to any function' \
		"$(awk -v n="$1" -v m="$2" 'BEGIN { printf "%.1f", 100 * n / m }')" "$1" "$2"
}
# stderr_is NAME EXPECTED: our.err holds exactly EXPECTED (nothing if it is empty)
# our_err: standard error but for the warning about samples and calls in GCC clones (the
# generated ELF files' clone-like names draw it; host/tests/clones.sh checks it)
our_err() { grep -v ' GCC clones\? (' our.err; }
stderr_is() {
	if [ "$(our_err)" = "$2" ]; then
		ok "$1"
	else
		nok "$1: standard error differs"; diff <(printf '%s\n' "$2") <(our_err) | head -6 | sed 's/^/# /'
	fi
}
# header_words FILE BIG: the three u32 at offset 8
header_words() {
	python3 -c 'import struct, sys; d = open(sys.argv[1], "rb").read()
print(*struct.unpack_from((">" if sys.argv[2] == "1" else "<") + "3I", d, 8))' "$@"
}
[ "$(overhead_line 925 1925)" = \
	"tgprof: profiler overhead: 48.1% of samples (925 of 1925), not charged to any function" ] ||
	nok "overhead_line (the test's own helper) is wrong: $(overhead_line 925 1925)"
for elf in "${elfs[@]}"; do
	gp=arm-none-eabi-gprof big=0
	case $elf in x86.elf|ppc64.elf) gp=gprof;; esac
	case $elf in armbe.elf|ppc64.elf) big=1;; esac
	"$G" gmon $elf o1 -s 41 -n 1000 -l 1925,925,0
	same "$elf profiler-overhead counters do not change the output" $gp -b $elf o1
	stderr_is "$elf profiler overhead: the line, nothing else" "$(overhead_line 925 1925)"
	clone_lines=$(grep -c ' GCC clones\? (.*--clones=own' our.err)
	"$T" -b --clones=fold $elf o1 > /dev/null 2> fold.err
	if [ "$clone_lines" = 1 ] && ! grep -q 'GCC clone' fold.err; then
		ok "$elf samples and calls in clone-like names gprof folds: one warning naming --clones=own; none with --clones=fold"
	else
		nok "$elf the clones' warning: $clone_lines lines; with --clones=fold: $(head -c 300 fold.err)"
	fi
	rm -f o1.json && "$T" -b --json=o1.json $elf o1 > /dev/null 2> our.err
	if python3 -c 'import json, sys; f = json.load(open("o1.json"))["files"][0]
sys.exit((f["samples_total"], f["samples_overhead"], f["arcs_dropped"]) != (1925, 925, 0))'; then
		ok "$elf JSON: the file's counters (samples_total, samples_overhead, arcs_dropped)"
	else
		nok "$elf JSON: the file's counters: $(head -c 300 our.err)"
	fi
	"$G" gmon $elf o2 -s 46 -n 3000 -l 3075,75,0
	same "$elf two files with counters: output as gprof's" $gp -b $elf o1 o2
	stderr_is "$elf two files: one line, with the sums" "$(overhead_line 1000 5000)"
	"$G" gmon $elf z1 -s 47 -n 500
	same "$elf a file with counters and one without" $gp -b $elf z1 o1
	stderr_is "$elf a file with counters and one without: one line, the first's counters" \
		"$(overhead_line 925 1925)"
	"$T" -b $elf z1 z1 > /dev/null 2> our.err
	stderr_is "$elf no counters (zero words, as glibc writes): nothing on stderr" ""
	"$G" gmon $elf z2 -s 48 -n 500 -l 0,7,0
	"$T" -b $elf z2 > /dev/null 2> our.err
	stderr_is "$elf samples word 0: no overhead line" ""
	"$G" gmon $elf l1 -s 49 -n 1000 -l 1300,200,3
	same "$elf loss counters do not change the output" $gp -b $elf l1
	stderr_is "$elf samples outside the range and calls in no arc: a warning each, worded as what they are, and the line" \
		"tgprof: warning: l1: 100 of 1300 samples fell outside the histogram range (or in a full bin): they are in no function
tgprof: warning: l1: 3 calls are in no call arc: their caller lay outside the profiled range (an interrupt entry, or a tail call from one; code outside the range, such as a ROM or the C library calling back), or the target's arc table was full (gdb's gprof_dump counts the two apart)
$(overhead_line 200 1300)"
	rm -f gmon.sum && "$T" -s $elf o1 o2 l1 > /dev/null 2> our.err
	words=$(header_words gmon.sum $big 2> /dev/null)
	# 2516582403: 3 arcs under the check byte 0x96 (0xa5 ^ the bytes of 6300 ^ 1200 ^ 3)
	if sanitizer_clean our.err && [ "$words" = "6300 1200 2516582403" ]; then
		ok "$elf -s: gmon.sum's header holds the summed counters, marked"
	else
		nok "$elf -s: gmon.sum's header words: '$words', not '6300 1200 2516582403'"
	fi
	"$T" -b $elf gmon.sum > /dev/null 2> our.err
	stderr_is "$elf gmon.sum read back: the summed line, the warnings" \
		"tgprof: warning: gmon.sum: 100 of 6300 samples fell outside the histogram range (or in a full bin): they are in no function
tgprof: warning: gmon.sum: 3 calls are in no call arc: their caller lay outside the profiled range (an interrupt entry, or a tail call from one; code outside the range, such as a ROM or the C library calling back), or the target's arc table was full (gdb's gprof_dump counts the two apart)
$(overhead_line 1200 6300)"
done
# Calls from a Cortex-M interrupt entry: the target records them as arcs from the
# exception-return value in lr (0xFFFFFFF8, 0xFFFFFFFC...), where no code is.  gprof
# leaves them out (the handler is <spontaneous>); tgprof too, and says how many calls came
# from interrupt entries, not that arcs match no symbol.  On another machine they are
# arcs that match no symbol.
for elf in arm.elf x86.elf; do
	gp=arm-none-eabi-gprof; [ $elf = x86.elf ] && gp=gprof
	"$G" gmon $elf e1 -s 51 -n 500
	callee=$(nm $elf | awk '$3 == "f00007" { print $1 }')
	python3 -c 'import struct, sys
f, wide, callee = sys.argv[1], sys.argv[2] == "x86.elf", int(sys.argv[3], 16)
a = "<Q" if wide else "<I"
arc = lambda frm, n: bytes([1]) + struct.pack(a, frm) + struct.pack(a, callee + 8) + struct.pack("<I", n)
open(f, "ab").write(arc(0xFFFFFFF8, 400) + arc(0xFFFFFFFC, 23))' e1 $elf "$callee"
	same "$elf arcs from an exception-return value: gprof's output" $gp -b $elf e1
	if [ $elf = arm.elf ]; then
		stderr_is "$elf arcs from an exception-return value: calls from interrupt entries, 423" \
			"tgprof: 423 calls from interrupt entries (arcs from an exception-return value): counted, from no function (gprof shows such a handler as <spontaneous>)"
	else
		stderr_is "$elf arcs from 0xFFFFFFF8 on x86-64: arcs that match no symbol" \
			"tgprof: warning: 2 call arcs have an address that matches no symbol (ignored)"
	fi
done
# a glibc gmon.out (gcc -pg): its spare bytes are zero, nothing on stderr
if gcc -pg -O1 "$OLDPWD/host/tests/progs/cycles.c" -o native.elf && ./native.elf 20 > /dev/null &&
	[ "$(header_words gmon.out 0)" = "0 0 0" ]; then
	same "glibc's gmon.out" gprof -b native.elf gmon.out
	stderr_is "glibc's gmon.out: nothing on stderr" ""
else
	nok "a glibc gmon.out with zero spare bytes (cycles.c, gcc -pg)"
fi
"$G" gmon x86.elf sat.out -s 42 -S
"$T" -b x86.elf sat.out > /dev/null 2> our.err
if grep -q "saturated" our.err; then ok "saturated bins warned about"; else nok "saturated bins not warned about"; fi
"$G" gmon x86.elf r0.out -s 43 -r 0
# gprof reads past the end of its unit-prefix table here and prints whatever byte it
# finds ('<' on x86-64, nothing for arm-none-eabi-gprof); line 5 is left out.
gprof -b -p x86.elf r0.out | sed 5d > ref.out
"$T" -b -p x86.elf r0.out 2> our.err | sed 5d > our.out
if cmp -s ref.out our.out && sanitizer_clean our.err; then
	ok "prof_rate 0 gives gprof's output (inf), but for the unit prefix"
else
	nok "prof_rate 0 output differs"; diff ref.out our.out | head -5 | sed 's/^/# /'
fi
if grep -q "profiling rate is 0" our.err; then ok "prof_rate 0 warned about"; else nok "prof_rate 0 not warned about"; fi
"$G" gmon x86.elf r1.out -s 44 -r 1000
"$G" gmon x86.elf r2.out -s 45
"$T" -b x86.elf r2.out r1.out > /dev/null 2> our.err
if grep -q "profiling rate 1000 differs" our.err; then ok "different rates warned about"; else nok "different rates not warned about"; fi
echo "1..$n"
