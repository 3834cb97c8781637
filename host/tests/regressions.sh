#!/usr/bin/env bash
# What trying tgprof on real third-party programs found, beyond gprof parity
# (compare-synthetic.sh) and hostile inputs (robustness.sh): callgrind files with C++
# names demangled as valgrind writes them, --svg to a path that cannot be written, the
# ELF fuzzer's temporary files; what the RISC-V boards found: line rows at address 0 left
# by --gc-sections; and a line program whose opcode_base makes opcode 1 a special one.
set -u
. "$(dirname "$0")/lib.sh" regressions
SRC=$PWD
cd "$W" || exit 1

# ---- callgrind: C++ names demangled, as valgrind writes them ---------------------------
if command -v g++ > /dev/null; then
	g++ -pg -O0 -g "$SRC/host/tests/progs/shapes.cc" -o cxx.elf && ./cxx.elf 2000 > /dev/null ||
		{ nok "building and running the C++ program"; exit 1; }
	# every function name of the callgrind file is one gprof prints (demangled) in its flat
	# profile, and there is a C++ one among them
	gprof -b -p -z cxx.elf gmon.out | sed -n 's/^ *[0-9.]\+ \+[0-9.]\+ \+[0-9.]\+ \+\([0-9]\+ \+[0-9.]\+ \+[0-9.]\+ \+\)\?//p' |
		sort -u > gprof.names
	"$T" -b --callgrind=cg.out cxx.elf gmon.out > /dev/null 2> err.txt
	sed -n 's/^c\?fn=//p' cg.out | sort -u > cg.names
	if sanitizer_clean err.txt && [ -s cg.names ] && ! grep -q '^_Z' cg.names &&
		grep -qx 'geo::Disc::area(int) const' cg.names && [ -z "$(comm -23 cg.names gprof.names)" ]; then
		ok "callgrind: C++ names demangled ($(wc -l < cg.names) names, all as gprof prints them)"
	else
		nok "callgrind names: $(comm -23 cg.names gprof.names | head -3 | tr '\n' ' ')"
	fi
	"$T" -b --no-demangle --callgrind=cg.out cxx.elf gmon.out > /dev/null 2> err.txt
	if grep -qx 'fn=_ZNK3geo4Disc4areaEi' cg.out; then
		ok "callgrind with --no-demangle: names as in the symbol table"
	else
		nok "callgrind with --no-demangle: $(grep -m3 '^fn=' cg.out | tr '\n' ' ')"
	fi
else
	skip "callgrind C++ names" "g++ is not installed"
fi

# ---- --svg: a path that cannot be written is not a missing graphviz --------------------
"$G" asm 60 3 > f.s && gcc -nostdlib -static -Wl,-e,_start f.s -o x.elf &&
	"$G" gmon x.elf g.gmon -s 5 -a 40 -n 300 -k 8 || { nok "building the synthetic inputs"; exit 1; }
mkdir adir
for out in "$W/no/such/dir/cg.svg" adir; do
	"$T" -b --svg="$out" x.elf g.gmon > /dev/null 2> err.txt
	rc=$?
	if [ $rc = 1 ] && grep -q "error: $out: cannot write the SVG file: " err.txt && ! grep -qi graphviz err.txt; then
		ok "--svg=$(basename "$out") that cannot be written: says so, exit 1"
	else
		nok "--svg=$out: exit $rc: $(head -c 300 err.txt)"
	fi
done
# without dot on the PATH: graphviz is blamed, and no empty SVG file is left
mkdir nodot
PATH=$W/nodot "$T" -b --svg=cg.svg x.elf g.gmon > /dev/null 2> err.txt
rc=$?
if [ $rc = 1 ] && grep -q "error: cg.svg: graphviz's dot could not be run; is graphviz installed?" err.txt && [ ! -e cg.svg ]; then
	ok "--svg without graphviz's dot: says so, leaves no file"
else
	nok "--svg without dot: exit $rc, $(ls cg.svg 2> /dev/null) $(head -c 300 err.txt)"
fi
# fork failing (no process left): an error, and no empty SVG file left either
printf '#include <errno.h>\nint fork(void) { errno = EAGAIN; return -1; }\n' > nofork.c
if gcc -shared -fPIC nofork.c -o nofork.so; then
	LD_PRELOAD=$W/nofork.so ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0 \
		"$T" -b --svg=nf.svg x.elf g.gmon > /dev/null 2> err.txt
	rc=$?
	if [ $rc = 1 ] && grep -q "error: running dot: " err.txt && sanitizer_clean err.txt && [ ! -e nf.svg ]; then
		ok "--svg when fork fails: says so, leaves no file"
	else
		nok "--svg when fork fails: exit $rc, $(ls nf.svg 2> /dev/null) $(head -c 300 err.txt)"
	fi
else
	nok "building a fork that fails"
fi

# ---- the ELF fuzzer leaves no temporary file (in $TMPDIR or /tmp) ----------------------
if command -v clang > /dev/null && echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' > t.c &&
	clang -fsanitize=fuzzer t.c -o t.fuzz 2> /dev/null; then
	# without the sanitizers (built by make fuzz): only the file handling is checked here
	clang -std=gnu11 -O1 -fsanitize=fuzzer -I"$SRC/host/src" "$SRC/host/fuzz/fuzz-elf.c" \
		$(ls "$SRC"/host/src/*.c | grep -v '/main\.c$') -lelf -lm -ldl -o fuzz-elf ||
		{ nok "building the ELF fuzzer"; exit 1; }
	mkdir corpus tmp && cp x.elf corpus/
	TMPDIR=$W/tmp ./fuzz-elf -runs=200 -seed=1 corpus > fuzz.log 2>&1 &
	pid=$!
	wait $pid
	rc=$?
	left=$(ls -A tmp; ls /tmp/tgprof-fuzz-elf.$pid 2> /dev/null)
	if [ $rc = 0 ] && grep -q 'Done 200 runs' fuzz.log && [ -z "$left" ]; then
		ok "ELF fuzzer: 200 runs, no temporary file left"
	else
		nok "ELF fuzzer: exit $rc, left: $left $(tail -c 200 fuzz.log)"
		rm -f "/tmp/tgprof-fuzz-elf.$pid"
	fi
else
	skip "ELF fuzzer temporary files" "clang with libFuzzer is not installed"
fi
# ---- line rows at address 0: code dropped by --gc-sections ------------------
# The unit of gc-dropped.c, whose functions the linker drops, keeps its line table.  Where
# the assembler cannot resolve the address advances itself (RISC-V: linker relaxation;
# GCC's own line tables, -gno-as-loc-support: an address per row), every row of a dropped
# function, its sequence's end too, sits at the address 0 its relocations resolve to; with
# DWARF 4's .debug_ranges (or RISC-V's relocated lengths) the unit has no range left, so
# it is asked about every address.  BFD never answers from an empty sequence; tgprof took
# the last row at or before an address, and named gc-dropped.c for all the code after it.
# gc_case NAME GPROF OBJDUMP ELF GMON: ELF has such rows (else the case proves nothing),
# and tgprof prints what GPROF prints with the options that show source files.
gc_case() {
	local name=$1 gp=$2 od=$3 elf=$4 gm=$5 o bad='' first=''
	if ! "$od" --dwarf=decodedline "$elf" | grep -Eq '^gc-dropped\.c +[0-9]+ +0( |$)'; then
		nok "$name: no line rows at address 0 in $elf (the toolchain changed?)"
		return
	fi
	for o in "-b -z" "-l -b" "-l -b -z" "-C -z" "-A -z -b"; do
		# shellcheck disable=SC2086
		"$gp" $o "$elf" "$gm" > ref.out 2> /dev/null
		# shellcheck disable=SC2086
		"$T" $o "$elf" "$gm" > our.out 2> err.txt
		if ! sanitizer_clean err.txt || ! cmp -s ref.out our.out; then
			bad="$bad [$o]"
			[ -n "$first" ] || first=$(diff ref.out our.out | head -4 | tr '\n' ' ')
		fi
	done
	if [ -z "$bad" ]; then
		ok "$name: line rows at address 0 ignored, as $gp ignores them"
	else
		nok "$name: differs from $gp with$bad: $first"
	fi
}
GC=("$SRC/host/tests/progs/gc-dropped.c" "$SRC/host/tests/progs/gc-kept.c")
mkdir gc && cd gc || exit 1
if gcc -pg -g -gdwarf-4 -O2 -gno-as-loc-support -ffunction-sections -Wl,--gc-sections \
	"${GC[@]}" -o gc.elf && ./gc.elf; then
	gc_case "--gc-sections, GCC's line tables (x86-64)" gprof objdump gc.elf gmon.out
else
	nok "building and running the --gc-sections program"
fi
if command -v riscv64-unknown-elf-gcc > /dev/null; then
	if riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32 -g -O2 -ffunction-sections \
		-nostdlib -Wl,--gc-sections -Wl,-e,main "${GC[@]}" -o rv.elf &&
		"$G" gmon rv.elf rv.gmon -s 12 -a 20 -n 500 -k 2; then
		gc_case "--gc-sections, RISC-V" riscv64-unknown-elf-gprof riscv64-unknown-elf-objdump rv.elf rv.gmon
	else
		nok "building the RISC-V --gc-sections program"
	fi
else
	skip "--gc-sections, RISC-V" "riscv64-unknown-elf-gcc is not installed"
fi
cd "$W" || exit 1

# ---- BFD's trie of unit ranges: a unit boundary at a leaf's edge -----------------------
# The assembler gives a Thumb function the range [start | 1, end | 1): one byte into the
# next unit.  BFD keeps the ranges it learns in a trie whose leaves each keep their own
# order (host/src/addrtrie.c): where the next unit starts a leaf, the function's range
# comes after that unit's there, so BFD asks the next unit first about its first address
# and gets its line.  tgprof kept one order for all addresses, asked the assembler's unit
# (which has the function there but no row) and had no line at that address (newlib's
# memcpy-armv7m.S before memmove.c in the TFTP firmware, __swbuf_r on mps2-an386).  Here:
# 40 one-function C units around an assembler unit that ends at 0x8100, the unit after it
# read from .debug_info after the assembler's.
if command -v arm-none-eabi-gcc > /dev/null && command -v arm-none-eabi-gprof > /dev/null; then
	mkdir trie && cd trie || exit 1
	A=(-mcpu=cortex-m3 -mthumb)
	printf '\t.syntax unified\n\t.thumb\n\t.text\n\t.global _start\n\t.thumb_func\n_start:\n\tb _start\n' > start.S
	printf '\t.syntax unified\n\t.thumb\n\t.text\n\t.global asmfn\n\t.type asmfn, %%function\n\t.thumb_func\nasmfn:\n\tadds r0, r0, #1\n\tadds r0, r0, #2\n\tadds r0, r0, #3\n\tbx lr\n\t.size asmfn, .-asmfn\n' > a.S
	printf 'SECTIONS {\n . = 0x8000;\n .text : {\n  start.o(.text*) u0*.o(.text*) u1*.o(.text*)\n  . = 0xf8;\n  a.o(.text*) u2*.o(.text*) u3*.o(.text*)\n }\n}\n' > t.ld
	built=1
	for i in $(seq -w 0 39); do
		echo "int f$i(int x) { return x * 1$i + 1; }" > "u$i.c"
		arm-none-eabi-gcc "${A[@]}" -O2 -g -c "u$i.c" -o "u$i.o" || built=0
	done
	arm-none-eabi-gcc "${A[@]}" -g -c a.S -o a.o && arm-none-eabi-gcc "${A[@]}" -c start.S -o start.o &&
		arm-none-eabi-gcc "${A[@]}" -nostdlib -T t.ld -Wl,-e,_start start.o u0*.o u1*.o a.o u2*.o u3*.o -o t.elf &&
		"$G" gmon t.elf t.gmon -s 5 -a 20 -n 300 -k 2 || built=0
	if [ $built = 0 ]; then
		nok "building the Thumb program with a unit boundary at 0x8100"
	elif ! arm-none-eabi-nm t.elf | grep -q '^00008100 T f20$'; then
		nok "the Thumb program: f20 is not at 0x8100 (the toolchain changed?)"
	else
		bad=''
		for o in "-l -b -z" "-l -b"; do
			# shellcheck disable=SC2086
			arm-none-eabi-gprof $o t.elf t.gmon > ref.out 2> /dev/null
			# shellcheck disable=SC2086
			"$T" $o t.elf t.gmon > our.out 2> err.txt
			sanitizer_clean err.txt && cmp -s ref.out our.out || bad="$bad [$o]"
		done
		if [ -z "$bad" ]; then
			ok "Thumb assembler unit ending at a trie leaf's edge: lines as arm-none-eabi-gprof's"
		else
			nok "Thumb unit boundary at 0x8100: differs from arm-none-eabi-gprof with$bad: $(diff ref.out our.out | head -4 | tr '\n' ' ')"
		fi
	fi
	cd "$W" || exit 1
else
	skip "Thumb unit boundary" "arm-none-eabi-gcc or its gprof is not installed"
fi
# ---- gprof's -R (file ordering) and -d (debugging output) ------------------------------
# compare-native.sh compares -R with maps nm makes; here the map's corners, against gprof
# run with MALLOC_PERTURB_=255 (gprof reads a flag of its map's entries that it never
# initialized: glibc then gives it zeros, the flag tgprof keeps).
mkdir rmap && cd rmap || exit 1
if gcc -pg -O1 "$SRC/host/tests/progs/shapes.c" "$SRC/host/tests/progs/shapes2.c" -o prog &&
	./prog 3000 > /dev/null; then
	printf 'a.o:0 T x1\na.o:0 T x3\nb.o:0 T x2\n' > m1        # files with no text symbol
	printf 'b.o:0 T x1\na.o:0 T x2\nb.o:0 T main\nc.o:0 T zz\n' > m2   # runs of one file
	printf 's.o:0 T leaf\n\n  No symbols in q.o\ns.o:0 T ping\nt.o:1 W pong\nu.o:0 T main' > m3
	printf 's.o:0 T a_step\ns.o:0 T b_step\nt.o:0 T c_step\ns.o:0 T leaf\r\n' > m4
	bad=''
	for m in m1 m2 m3 m4; do
		for o in "" "-b -p -q" "-b -z -p" "-a"; do
			# shellcheck disable=SC2086
			MALLOC_PERTURB_=255 gprof $o -R $m prog gmon.out > ref.out 2> /dev/null; echo $? >> ref.out
			# shellcheck disable=SC2086
			"$T" $o -R $m prog gmon.out > our.out 2> err.txt; echo $? >> our.out
			sanitizer_clean err.txt && cmp -s ref.out our.out || bad="$bad [$m $o]"
		done
	done
	if [ -z "$bad" ]; then
		ok "-R with maps of files without text, runs of one file, blank and 'No symbols' lines: as gprof"
	else
		nok "-R differs from gprof with$bad"
	fi
	printf 's.o:0 T leaf\nnocolon\n' > bad.map
	"$T" -R bad.map prog gmon.out > our.out 2> err.txt
	rc=$?
	if [ $rc = 1 ] && [ ! -s our.out ] && grep -q "error: bad.map: offset 20: unable to parse the mapping file" err.txt; then
		ok "-R with a line without a colon: an error with the offset, exit 1 (as gprof)"
	else
		nok "-R bad map: exit $rc: $(head -c 300 err.txt)"
	fi
	"$T" -r -R m1 prog gmon.out > our.out 2> err.txt
	rc=$?
	gprof -r -R m1 prog gmon.out > /dev/null 2>&1
	if [ $rc = $? ] && [ ! -s our.out ] && grep -q "only one of --function-ordering" err.txt; then
		ok "-r with -R: refused, as gprof refuses it"
	else
		nok "-r -R: exit $rc: $(head -c 300 err.txt)"
	fi
	"$T" -b prog gmon.out > plain.out 2> /dev/null
	bad=''
	for o in -d -d5 --debug --debug=3; do
		"$T" -b $o prog gmon.out > our.out 2> err.txt || bad="$bad [$o: exit $?]"
		sanitizer_clean err.txt && cmp -s plain.out our.out || bad="$bad [$o]"
	done
	if [ -z "$bad" ]; then
		ok "-d, -dNUM, --debug, --debug=NUM accepted (no debugging output), the report as without"
	else
		nok "-d:$bad $(head -c 200 err.txt)"
	fi
else
	nok "building and running shapes for -R"
fi
cd "$W" || exit 1

# ---- gprof -s's gmon.sum: its header's spare bytes are not the target's counters --------
# gprof leaves them uninitialized (there: the histogram's high address and bin count, or
# a heap pointer); tgprof took them for the target's counters and reported samples outside
# the range, calls in no arc and an overhead.
if gcc -pg -O1 "$SRC/host/tests/progs/cycles.c" -o cyc.elf && ./cyc.elf 200 > /dev/null &&
	mv gmon.out c1.out && ./cyc.elf 300 > /dev/null && mv gmon.out c2.out &&
	gprof -s cyc.elf c1.out c2.out && mv gmon.sum gsum.out; then
	"$T" -b cyc.elf gsum.out > our.out 2> err.txt
	if sanitizer_clean err.txt && [ ! -s err.txt ] && gprof -b cyc.elf gsum.out | cmp -s - our.out; then
		ok "gprof -s's gmon.sum: no counters' warnings, no overhead line (its spare bytes are garbage)"
	else
		nok "gprof -s's gmon.sum: $(head -c 300 err.txt)"
	fi
else
	nok "building cycles.c and summing two profiles with gprof -s"
fi
# ---- old BSD profiles with the low address above the high one --------------------------
# gprof takes a file without the GNU magic for a BSD one, and refuses a range whose low
# address is above its high one ("does not appear to be in gmon.out format", exit 1): any
# ELF file given as the profile.  tgprof read the range as reversed and went on.
gprof -b cyc.elf cyc.elf > /dev/null 2>&1
grc=$?
"$T" -b cyc.elf cyc.elf > our.out 2> err.txt
rc=$?
if [ $grc = 1 ] && [ $rc = 1 ] && [ ! -s our.out ] &&
	grep -q "error: cyc.elf: offset 0: histogram range 0x[0-9a-f]*\.\.0x[0-9a-f]* is reversed: does not appear to be in gmon.out format" err.txt; then
	ok "an ELF file as an old BSD profile (range reversed): an error naming it, exit 1, as gprof"
else
	nok "ELF as gmon.out: exit $rc (gprof $grc): $(head -c 300 err.txt)"
fi

# The same words (samples, overhead, arcs) unmarked and with the check byte: the target's
# counters are believed when marked, or when no more than half the samples are outside.
"$G" gmon x.elf c.gmon -s 5 -a 40 -n 300 -k 8
# counters FILE SAMPLES OVERHEAD ARCS MARK: the header's words set (little-endian x86-64)
counters() {
	python3 -c 'import struct, sys
p, s, o, a, m = sys.argv[1], *map(int, sys.argv[2:])
x = s ^ o ^ a
c = 0xa5 ^ (x & 255) ^ (x >> 8 & 255) ^ (x >> 16 & 255) ^ (x >> 24 & 255)
d = bytearray(open(p, "rb").read())
d[8:20] = struct.pack("<3I", s, o, a | (c << 24 if m else 0))
open(p, "wb").write(d)' "$@"
}
stderr_of() { "$T" -b --clones=fold x.elf c.gmon 2>&1 > /dev/null; }
counters c.gmon 5000 100 7 1 && marked=$(stderr_of)
counters c.gmon 5000 100 7 0 && unmarked=$(stderr_of)
counters c.gmon 500 100 7 0 && near=$(stderr_of)
counters c.gmon 100 100 7 1 && short=$(stderr_of)
if [[ $marked == *": 4600 of 5000 samples fell outside"*": 7 calls are in no call arc"*"(100 of 5000)"* ]] &&
	[ -z "$unmarked" ] && [[ $near == *": 100 of 500 samples fell outside"* ]] && [ -z "$short" ]; then
	ok "the target's counters: marked believed, unmarked with most samples outside ignored, unmarked consistent believed, marked but inconsistent ignored"
else
	nok "counters: marked '$marked' unmarked '$unmarked' near '$near' short '$short'"
fi
# ---- no uninitialised read: the DWARF reader past the last unit (under memcheck; the
# sanitizers' build cannot see one) -----------------------------------------------------
if command -v valgrind > /dev/null && command -v gcc > /dev/null; then
	cat > mc.c <<'EOC'
static int leaf(int x) { return x * 3 + 1; }
int main(void) { int s = 0; for (int i = 0; i < 100000; i++) s += leaf(i); return s & 1; }
EOC
	if gcc -g -O0 -pg mc.c -o mc && ./mc; then
		valgrind -q --error-exitcode=9 "$B/tgprof" -b -l mc gmon.out > /dev/null 2> mc.err
		st=$?
		if [ $st = 0 ] && [ ! -s mc.err ]; then
			ok "tgprof -b -l under memcheck: no uninitialised read, no invalid access"
		else
			nok "tgprof -b -l under memcheck (exit $st): $(head -c 600 mc.err)"
		fi
	else
		nok "memcheck: the -pg program did not build or run"
	fi
else
	skip "tgprof under memcheck" "valgrind or gcc is not installed"
fi
# ---- damaged DWARF said, not passed over: an abstract-origin link to its own entry ------
# (gprof stops on such a file; tgprof warns, naming the file and the entry's offset)
if command -v gcc > /dev/null && command -v readelf > /dev/null; then
	cat > inl.c <<'EOC'
static inline int sq(int x) { return x * x + 1; }
static inline int cube(int x) { return sq(x) * x; }
int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += cube(i) ^ sq(s); return s; }
int main(void) { int s = 0; for (int i = 0; i < 3000; i++) s += work(i & 255); return s & 1; }
EOC
	if gcc -g -O2 -pg inl.c -o inl && ./inl && cp inl inl-loop &&
		python3 - inl-loop <<'EOP'
import re, subprocess, sys
path = sys.argv[1]
secs = subprocess.run(["readelf", "-SW", path], stdout=subprocess.PIPE, text=True).stdout
m = re.search(r"\]\s+\.debug_info\s+\S+\s+\S+\s+([0-9a-f]+)", secs)
info = subprocess.run(["readelf", "--debug-dump=info", path], stdout=subprocess.PIPE, text=True).stdout
base, cu, die, done = int(m.group(1), 16), None, None, 0
data = bytearray(open(path, "rb").read())
for line in info.splitlines():
    c = re.match(r"\s*Compilation Unit @ offset ([0-9a-fx]+):", line)
    d = re.match(r"\s*<\d+><([0-9a-f]+)>: Abbrev Number: \d+ \((\w+)\)", line)
    a = re.match(r"\s*<([0-9a-f]+)>\s+DW_AT_abstract_origin\s*: <0x[0-9a-f]+>", line)
    if c:
        cu = int(c.group(1), 16)
    elif d:
        die = (int(d.group(1), 16), d.group(2))
    elif a and die and die[1] == "DW_TAG_inlined_subroutine":
        at = base + int(a.group(1), 16)    # a ref4 (GCC's form): the entry's own offset
        data[at:at + 4] = (die[0] - cu).to_bytes(4, "little")
        done += 1
open(path, "wb").write(data)
sys.exit(0 if done else 1)
EOP
	then
		"$T" -b -l inl-loop gmon.out > loop.out 2> loop.err
		st=$?
		if [ $st = 0 ] && grep -q "inl-loop: .debug_info offset 0x[0-9a-f]*: a chain of more than 16" loop.err &&
			sanitizer_clean loop.err; then
			ok "an abstract-origin loop in DWARF: a warning naming the file and the entry"
		else
			nok "an abstract-origin loop (exit $st): $(head -c 400 loop.err)"
		fi
	else
		nok "damaged DWARF: the program did not build, run or patch"
	fi
else
	skip "damaged DWARF" "gcc or readelf is not installed"
fi
# ---- a line program whose opcode_base is 1: every opcode from 1 up is a special one ------
# (tgprof's decode once took opcode 1 for DW_LNS_copy first: f1's line would read 9, as the
# row before, not 4)
cat > ob.s <<'EOS'
	.text
	.globl _start
	.type _start, @function
_start:
	.rept 64
	nop
	.endr
	.size _start, . - _start
	.globl f1
	.type f1, @function
f1:	.rept 64
	nop
	.endr
	ret
	.size f1, . - f1
.Ltext_end:

	.section .debug_abbrev,"",@progbits
	.uleb128 1, 0x11
	.byte 0
	.uleb128 0x10, 0x17, 0x11, 0x01, 0x12, 0x07, 0x03, 0x08
	.byte 0, 0, 0

	.section .debug_info,"",@progbits
	.long .Linfo_end - .Linfo_start
.Linfo_start:
	.short 4
	.long 0
	.byte 8
	.uleb128 1
	.long 0
	.quad _start
	.quad .Ltext_end - _start
	.asciz "f.c"
.Linfo_end:

	.section .debug_line,"",@progbits
	.long .Lline_end - .Lline_start
.Lline_start:
	.short 4
	.long .Lhdr_end - .Lhdr_start
.Lhdr_start:
	.byte 1, 1, 1, -5, 14
	.byte 1			# opcode_base 1: no standard opcodes (1 is a special one)
	.byte 0
	.asciz "f.c"
	.uleb128 0, 0, 0
	.byte 0
.Lhdr_end:
	.byte 0, 9, 2
	.quad _start
	.byte 14		# special: line 1 + 8 = 9, address + 0
	.byte 0, 9, 2
	.quad f1
	.byte 1			# special: line 9 - 5 = 4, address + 0 (copy would keep 9)
	.byte 0, 9, 2
	.quad .Ltext_end
	.byte 0, 1, 1
.Lline_end:
EOS
if gcc -nostdlib -static -Wl,-e,_start ob.s -o ob.elf && "$G" gmon ob.elf ob.gmon -s 5 -a 4 -n 100 -k 2; then
	gprof -b -l ob.elf ob.gmon > ob.want 2> /dev/null
	"$T" -b -l ob.elf ob.gmon > ob.got 2> ob.err
	if sanitizer_clean ob.err && grep -q 'f1 (f.c:4 @' ob.want && cmp -s ob.want ob.got; then
		ok "a line program with opcode_base 1: its opcode 1 a special one, output as gprof's"
	else
		nok "opcode_base 1: $(diff ob.want ob.got | head -5 | tr '\n' ' ')"
	fi
else
	nok "opcode_base 1: the program did not assemble or the profile was not made"
fi
echo "1..$n"
