#!/usr/bin/env bash
# Hostile and broken inputs: truncated and mutated gmon.out and ELF files, missing and
# empty files.  Every run must end with exit status 0 (the input happened to be valid)
# or 1 with an error that names the file, and never with a crash or a sanitizer report.
set -u
. "$(dirname "$0")/lib.sh" robustness
cd "$W" || exit 1

# run_case LABEL FILE-NAMED-IN-ERRORS ARGS...: returns 0 if the run was acceptable.
bad=""
run_case() {
	local label=$1 named=$2; shift 2
	"$T" "$@" > out.txt 2> err.txt
	local rc=$?
	last_rc=$rc
	if ! sanitizer_clean err.txt || [ $rc -ge 2 ]; then
		bad="$label: exit $rc: $(head -c 300 err.txt)"; return 1
	fi
	if [ $rc -eq 1 ] && ! grep -q "error: .*$named" err.txt; then
		bad="$label: error does not name $named: $(head -c 200 err.txt)"; return 1
	fi
	return 0
}

# mutate IN PREFIX COUNT: PREFIX.1 .. PREFIX.COUNT, each with a few bytes changed
# (deterministic; one python run for all).
mutate() {
	python3 -c '
import sys, random
data = open(sys.argv[1], "rb").read()
for seed in range(1, int(sys.argv[3]) + 1):
    d = bytearray(data)
    r = random.Random(seed)
    for _ in range(r.randint(1, 4)):
        i = r.randrange(len(d))
        d[i] = r.choice([0, 0xff, 0x7f, 0x80, r.randrange(256)])
    open("%s.%d" % (sys.argv[2], seed), "wb").write(bytes(d))' "$@"
}

"$G" asm 60 3 > f.s && gcc -nostdlib -static -Wl,-e,_start f.s -o x.elf &&
	arm-none-eabi-gcc -nostdlib -mthumb -mcpu=cortex-m3 -Wl,-e,_start f.s -o a.elf || exit 1
gcc -pg -g -O1 "$OLDPWD/host/tests/progs/cycles.c" -o g.elf && ./g.elf 20 > /dev/null &&
	mv gmon.out goodg.gmon || exit 1
"$G" gmon x.elf good.gmon -s 5 -a 40 -n 300 -k 8
"$G" gmon a.elf good32.gmon -s 6 -a 40 -n 300 -k 8 -l 10,1,1
"$G" gmon x.elf bsd.gmon -s 7 -a 20 -n 100 -k 8 -f bsd44

for g in good.gmon:x.elf good32.gmon:a.elf bsd.gmon:x.elf; do
	f=${g%%:*} elf=${g##*:}
	size=$(stat -c %s "$f")
	bad="" fails=0
	for ((len = 0; len < size; len += (len < 64 ? 1 : 17))); do
		head -c $len "$f" > cut.gmon
		run_case "$f cut at $len" cut.gmon -b "$elf" cut.gmon || fails=$((fails + 1))
	done
	if [ $fails -eq 0 ]; then ok "$f truncated at every length: clean errors"; else nok "$f truncated: $fails bad runs; $bad"; fi
	bad="" fails=0
	mutate "$f" mut 30
	for seed in $(seq 1 30); do
		run_case "$f mutation $seed" mut.$seed -b "$elf" mut.$seed || fails=$((fails + 1))
	done
	if [ $fails -eq 0 ]; then ok "$f with 30 mutations: no crash"; else nok "$f mutated: $fails bad runs; $bad"; fi
done

# Debugging entries read by tgprof's own reader (dwinfo.c): a unit whose abbreviation table
# has no attribute at all (the ELF fuzzer's finding: arithmetic on the null array of them,
# which clang's UBSan in make fuzz reports and gcc's here does not), and units whose
# entries lie, each read without a crash and without a sanitizer report.
dwarf_unit() {  # ABBREVS INFO: f.s with a .debug_abbrev and a .debug_info of these bytes
	cat f.s
	printf '\t.section .debug_abbrev,"",@progbits\n\t.byte %s\n' "$1"
	printf '\t.section .debug_info,"",@progbits\n\t.byte %s\n' "$2"
}
fails=0
# (a DWARF 4 unit of 9 bytes: length 5... then its entries; abbreviation 1 a compile unit
# with children, 2 a subprogram; neither has an attribute)
for u in "1,0x11,1,0,0,2,0x2e,0,0,0,0:12,0,0,0,4,0,0,0,0,0,8,1,2,2,0,0" \
	 "1,0x11,1,0,0,0:9,0,0,0,4,0,0,0,0,0,8,1,0" \
	 "1,0x11,1,0x55,0x17,0x11,0x01,0x12,0x07,0,0,0:30,0,0,0,5,0,1,8,0,0,0,0,1,0xff,0xff,0xff,0x7f,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0" \
	 "1,0x11,1,0x1b,0x1f,0,0,0:12,0,0,0,4,0,0,0,0,0,8,1,0xf0,0xff,0xff,0x0f"; do
	dwarf_unit "${u%%:*}" "${u#*:}" > dw.s && gcc -nostdlib -static -Wl,-e,_start dw.s -o dw.elf ||
		{ fails=$((fails + 1)); bad="assembling $u"; continue; }
	for o in -b "-b -l"; do
		# shellcheck disable=SC2086
		run_case "unit $u [$o]" dw.elf $o dw.elf good.gmon || fails=$((fails + 1))
	done
done
if [ $fails -eq 0 ]; then ok "debugging entries without attributes, or lying: no crash"; else nok "debugging entries: $fails bad runs; $bad"; fi

# A histogram whose range is most of the address space, in one bin: its scale (bytes a bin)
# is past long's range, which gprof's granularity line converts to long (libFuzzer's
# finding: undefined behaviour, which the sanitizer build here checks for too); printed as
# x86-64's conversion gives it, as gprof prints it.
python3 -c '
import struct, sys
hist = bytes([0]) + struct.pack("<QQII", 0, 0xfffffffffffffffe, 1, 100) + b"seconds".ljust(15, b"\0") + b"s" + struct.pack("<H", 1)
arc = bytes([1]) + struct.pack("<QQI", 0x1000, 0x1010, 3)
open(sys.argv[1], "wb").write(b"gmon" + struct.pack("<I", 1) + bytes(12) + hist + arc)' wide.gmon
bad=""
if run_case "one bin over the address space" wide.gmon -b x.elf wide.gmon &&
	[ "$(grep -o 'covers [0-9-]* byte' out.txt)" = "$(gprof -b x.elf wide.gmon 2> /dev/null | grep -o 'covers [0-9-]* byte')" ]; then
	ok "a histogram scale past long's range: no undefined conversion, granularity as gprof's"
else
	nok "a histogram scale past long's range: $bad $(grep granularity out.txt)"
fi

# Errors name the file and the byte offset.
head -c 30 good.gmon > short.gmon
"$T" -b x.elf short.gmon > /dev/null 2> err.txt
if grep -q "short.gmon: offset 29: unexpected end of file" err.txt; then ok "truncated record: file and offset named"; else nok "truncated record message: $(cat err.txt)"; fi
printf 'gmon\001\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\011' > tag.gmon
"$T" -b x.elf tag.gmon > /dev/null 2> err.txt
if grep -q "tag.gmon: offset 20: bad record tag 9" err.txt; then ok "bad tag: file and offset named"; else nok "bad tag message: $(cat err.txt)"; fi
printf 'gmon\002\000\000\000' > ver.gmon
"$T" -b x.elf ver.gmon > /dev/null 2> err.txt
if grep -q "ver.gmon: offset 4: unsupported gmon version 2" err.txt; then ok "bad version named"; else nok "bad version message: $(cat err.txt)"; fi

# Too short for any header (GNU magic missing, so read as BSD): one error, with the offset
for len in 0 8 23; do
	head -c $len /dev/zero > tiny.gmon
	"$T" -b x.elf tiny.gmon > /dev/null 2> err.txt
	rc=$?
	if [ $rc = 1 ] && [ "$(wc -l < err.txt)" = 1 ] && grep -q "error: tiny.gmon: offset $len: file too short to be a gmon file" err.txt; then
		ok "a $len-byte profile: one error naming the offset"
	else
		nok "a $len-byte profile: exit $rc: $(head -c 300 err.txt)"
	fi
done

# ELF files: truncated, mutated, not ELF at all, missing.
for pair in x.elf:good.gmon a.elf:good32.gmon g.elf:goodg.gmon; do
	elf=${pair%%:*} gm=${pair##*:}
	size=$(stat -c %s $elf)
	bad="" fails=0
	for ((len = 0; len < size; len += size / 41 + 1)); do
		head -c $len $elf > cut.elf
		run_case "$elf cut at $len" cut.elf -b cut.elf $gm || fails=$((fails + 1))
		# a truncated ELF file always fails (its section headers are at the end), and
		# the error names the offset of what is missing
		if [ $last_rc != 1 ] || ! grep -q "error: cut.elf: offset [0-9]" err.txt; then
			fails=$((fails + 1)) bad="$elf cut at $len: exit $last_rc, $(head -c 200 err.txt)"
		fi
	done
	if [ $fails -eq 0 ]; then ok "$elf truncated: clean errors naming the offset"; else nok "$elf truncated: $fails bad runs; $bad"; fi
	bad="" fails=0
	mutate $elf mutelf 30
	for seed in $(seq 1 30); do
		run_case "$elf mutation $seed" mutelf.$seed -b mutelf.$seed $gm || fails=$((fails + 1))
		run_case "$elf mutation $seed, -l -c -r -A" mutelf.$seed -l -c -r -A mutelf.$seed $gm ||
			fails=$((fails + 1))
	done
	if [ $fails -eq 0 ]; then ok "$elf with 30 mutations: no crash"; else nok "$elf mutated: $fails bad runs; $bad"; fi
done
# Sections whose contents lie past the end of the file (section header patched): the
# symbol and string tables are errors naming their offset; .text is only read for -c,
# and gprof goes on without -c then, as tgprof does (with a warning naming the offset).
# patch_elf ELF OUT WHAT [SECTION] VALUE: WHAT is class/data VALUE (the ident byte),
# shstrndx VALUE, or a field of SECTION's header: offset/size/entsize SECTION VALUE.
# Prints the offset of the field changed, and for a section's field then the section's
# offset (its sh_offset before the change).
patch_elf() {
	python3 -c '
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
what, args = sys.argv[3], sys.argv[4:]
is64, E = d[4] == 2, "<" if d[5] == 1 else ">"
A = E + ("Q" if is64 else "I")
if what in ("class", "data"):
    at = 4 if what == "class" else 5
    d[at] = int(args[0])
    out = at
elif what == "shstrndx":
    at = 0x3e if is64 else 0x32
    struct.pack_into(E + "H", d, at, int(args[0]))
    out = at
else:
    field = {"offset": (24, 16), "size": (32, 20), "entsize": (56, 36)}[what][0 if is64 else 1]
    shoff, = struct.unpack_from(A, d, 0x28 if is64 else 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from(E + "HHH", d, 0x3a if is64 else 0x2e)
    str_at = shoff + shstrndx * shentsize + (24 if is64 else 16)
    stroff, = struct.unpack_from(A, d, str_at)
    for i in range(shnum):
        sh = shoff + i * shentsize
        name = d[stroff + struct.unpack_from(E + "I", d, sh)[0]:].split(b"\0")[0].decode()
        if name == args[0]:
            at = sh + field
            out = "%d %d" % (at, struct.unpack_from(A, d, sh + (24 if is64 else 16))[0])
            struct.pack_into(A, d, at, int(args[1]))
print(out)
open(sys.argv[2], "wb").write(d)' "$@"
}
# patch_sec ELF SECTION FIELD(offset|size) OUT: FIELD set to 1 MiB; prints the section's
# original offset.
patch_sec() { local r; r=$(patch_elf "$1" "$4" "$3" "$2" $((1 << 20))) && echo "${r#* }"; }
for c in .symtab:size .symtab:offset .strtab:size .strtab:offset; do
	sec=${c%%:*} field=${c##*:}
	off=$(patch_sec x.elf $sec $field past.elf)
	[ $field = offset ] && off=1048576
	"$T" -b past.elf good.gmon > /dev/null 2> err.txt
	rc=$?
	if [ $rc = 1 ] && grep -q "error: past.elf: offset $off: .* runs past the end of the file" err.txt; then
		ok "$sec $field past the end of the file: error at offset $off"
	else
		nok "$sec $field past the end: exit $rc: $(head -c 200 err.txt)"
	fi
done
for field in size offset; do
	off=$(patch_sec x.elf .text $field past.elf)
	[ $field = offset ] && off=1048576
	gprof -b past.elf good.gmon > ref.out 2> /dev/null
	# (--clones=fold: the generated names f00002.part.3... would draw the clones' warning)
	"$T" -b --clones=fold past.elf good.gmon > out.txt 2> err.txt
	rc=$?
	if [ $rc = 0 ] && cmp -s ref.out out.txt && [ ! -s err.txt ]; then
		ok ".text $field past the end of the file: gprof's output, silently"
	else
		nok ".text $field past the end: exit $rc, $(cmp ref.out out.txt) $(head -c 200 err.txt)"
	fi
	gprof -b -c past.elf good.gmon > ref.out 2> /dev/null
	"$T" -b -c past.elf good.gmon > out.txt 2> err.txt
	rc=$?
	if [ $rc = 0 ] && cmp -s ref.out out.txt && grep -q "warning: past.elf: offset $off: .text .* runs past the end of the file" err.txt; then
		ok ".text $field past the end of the file, -c: gprof's output, a warning at offset $off"
	else
		nok ".text $field past the end, -c: exit $rc, $(cmp ref.out out.txt) $(head -c 200 err.txt)"
	fi
	# -l walks every address of .text: one the file does not hold is refused (a 6 KiB file
	# claiming 80 MiB of .text took 30 s under the fuzzer), naming its offset
	"$T" -b -l past.elf good.gmon > out.txt 2> err.txt
	rc=$?
	if [ $rc = 1 ] && grep -q "error: past.elf: offset $off: .text .* runs past the end of the file: not walked line by line" err.txt; then
		ok ".text $field past the end of the file, -l: an error at offset $off, no walk"
	else
		nok ".text $field past the end, -l: exit $rc, $(head -c 200 err.txt)"
	fi
done
# Fields BFD rejects or ignores: gprof's exit status, and an error that names
# the file and the offset of the bad field.
# elf_case LABEL GPROF ELF GMON PATCH... -- MESSAGE-REGEX (with @ for the offset)
elf_case() {
	local label=$1 gp=$2 elf=$3 gm=$4; shift 4
	local args=() off re
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	re=$2
	off=$(patch_elf "$elf" bad.elf "${args[@]}") || { nok "$label: patching"; return; }
	off=${off%% *}
	$gp -b bad.elf "$gm" > /dev/null 2>&1
	local rr=$?
	"$T" -b bad.elf "$gm" > /dev/null 2> err.txt
	local rc=$?
	if [ $rc = $rr ] && [ "$(wc -l < err.txt)" = 1 ] && grep -q "error: bad.elf: offset ${re//@/$off}" err.txt; then
		ok "$label: exit $rc as gprof, error at offset $off"
	else
		nok "$label: exit $rc (gprof $rr): $(head -c 300 err.txt)"
	fi
}
elf_case "x86-64 .symtab sh_entsize 0" gprof x.elf good.gmon entsize .symtab 0 -- "@: symbol table entry size (sh_entsize) 0, not 24"
elf_case "x86-64 .symtab sh_entsize 30" gprof x.elf good.gmon entsize .symtab 30 -- "@: symbol table entry size (sh_entsize) 30, not 24"
elf_case "ARM .symtab sh_entsize 0" arm-none-eabi-gprof a.elf good32.gmon entsize .symtab 0 -- "@: symbol table entry size (sh_entsize) 0, not 16"
elf_case "x86-64 .dynsym sh_entsize 0" gprof g.elf goodg.gmon entsize .dynsym 0 -- "@: dynamic symbol table entry size (sh_entsize) 0, not 24"
elf_case "x86-64 e_shstrndx past the sections" gprof x.elf good.gmon shstrndx 200 -- "@: section name table index 200 is past the section headers: can't find .text section"
elf_case "x86-64 e_shstrndx not a string table" gprof x.elf good.gmon shstrndx 1 -- "@: section name table index 1 is not a string table"
elf_case "ARM e_shstrndx past the sections" arm-none-eabi-gprof a.elf good32.gmon shstrndx 200 -- "@: section name table index 200 is past"
elf_case "64-bit ELF marked 32-bit" gprof x.elf good.gmon class 1 -- "@: EI_CLASS says 32-bit, but the header is a 64-bit one (e_shentsize 64 at offset 58)"
elf_case "32-bit ELF marked 64-bit" arm-none-eabi-gprof a.elf good32.gmon class 2 -- "@: EI_CLASS says 64-bit, but the header is a 32-bit one (e_shentsize 40 at offset 46)"
elf_case "EI_CLASS 3" gprof x.elf good.gmon class 3 -- "@: bad ELF class 3"
elf_case "EI_DATA 7" gprof x.elf good.gmon data 7 -- "@: bad ELF byte order 7"
# Writing standard output fails (a full disk): gprof 2.40 says nothing and exits 0;
# tgprof says so and exits 1 (a documented difference).
if [ -w /dev/full ]; then
	"$T" -b x.elf good.gmon > /dev/full 2> err.txt
	rc=$?
	if [ $rc = 1 ] && grep -q "error: write error on standard output" err.txt; then
		ok "standard output on /dev/full: exit 1 and an error"
	else
		nok "standard output on /dev/full: exit $rc: $(head -c 200 err.txt)"
	fi
fi
printf '\177EL' > elf3
"$T" -b elf3 good.gmon > /dev/null 2> err.txt
if [ $? = 1 ] && grep -q "elf3: offset 0: file too short for an ELF header" err.txt; then
	ok "3 bytes of ELF magic: too short, offset 0"
else
	nok "3 bytes of ELF magic: $(head -c 200 err.txt)"
fi
# Found by the fuzzer: every function after .text, and -l (the table ends up empty).
printf '\t.text\n\t.fill 16,1,0\n\t.section .text2,"ax"\n\t.globl f\n\t.type f, %%function\nf:\n\t.fill 8,1,0\n\t.size f, 8\n' > after.s
gcc -nostdlib -static -Wl,-e,f after.s -o after.elf &&
	run_case "functions after .text, -l" after.elf -l -b after.elf good.gmon && ok "all functions after .text, with -l" ||
	nok "functions after .text: $bad"
: > empty
run_case "empty ELF" empty -b empty good.gmon && [ $? = 0 ] && grep -q "empty" err.txt && ok "empty ELF file rejected" || nok "empty ELF: $bad"
run_case "missing gmon" nothere -b x.elf nothere && grep -q "nothere: No such file" err.txt && ok "missing gmon.out named" || nok "missing gmon.out: $bad"
run_case "directory" . -b x.elf . && ok "a directory as gmon.out" || nok "directory: $bad"
run_case "empty gmon" empty -b x.elf empty && ok "empty gmon.out" || nok "empty gmon.out: $bad"
# ---- gmon.tasks: truncated, mutated and broken field by field --------------------------
# The reader (host/src/tasks.c) refuses each with the file and the offset, exit 1.
GT="python3 $OLDPWD/host/tests/gen-tasks.py"
$GT good.tasks 1000 --tasks 5 --unregistered 1 > /dev/null
$GT good4.tasks 1000 --tasks 5 --width 4 --big > /dev/null
for f in good.tasks good4.tasks; do
	size=$(stat -c %s "$f")
	bad="" fails=0
	for ((len = 0; len < size; len++)); do
		head -c $len "$f" > cut.tasks
		run_case "$f cut at $len" cut.tasks -b --tasks --tasks-file=cut.tasks x.elf good.gmon &&
			[ "$last_rc" = 1 ] || fails=$((fails + 1))
	done
	if [ $fails -eq 0 ]; then ok "$f truncated at every length: an error naming it"; else nok "$f truncated: $fails bad runs; $bad"; fi
	bad="" fails=0
	mutate "$f" mut 60
	for seed in $(seq 1 60); do
		run_case "$f mutation $seed" mut.$seed -b --tasks --tasks-file=mut.$seed x.elf good.gmon ||
			fails=$((fails + 1))
	done
	if [ $fails -eq 0 ]; then ok "$f mutated 60 ways: clean errors or valid"; else nok "$f mutations: $fails bad runs; $bad"; fi
done
# tasks_case LABEL MESSAGE PYTHON: good.tasks changed by PYTHON (on d, a bytearray: 180
# bytes, records of 8-byte ids at 32, 52, 76, 100, 124 and 148, each 16 bytes and its name
# padded to 4: main, task1..task4, "(other tasks)"), refused with MESSAGE
tasks_case() {
	python3 -c "import struct; d = bytearray(open('good.tasks', 'rb').read()); $3
open('bad.tasks', 'wb').write(d)"
	"$T" -b --tasks --tasks-file=bad.tasks x.elf good.gmon > out.txt 2> err.txt
	local rc=$?
	if [ $rc = 1 ] && sanitizer_clean err.txt && [ ! -s out.txt ] && grep -qF "error: bad.tasks: $2" err.txt; then
		ok "gmon.tasks $1: refused (\"$2\")"
	else
		nok "gmon.tasks $1: exit $rc: $(head -c 300 err.txt)"
	fi
}
tasks_case "bad magic" "offset 0: not a gmon.tasks file" "d[0:4] = b'gmst'"
tasks_case "version 2" "offset 4: version 2" "d[4] = 2"
tasks_case "bad byte-order mark" "offset 8: bad byte-order mark" "d[8:12] = b'\\1\\2\\2\\1'"
tasks_case "address width 3" "offset 12: address width 3" "d[12] = 3"
tasks_case "more records than the file holds" "offset 20: 1000000 task records need 16000032 bytes at least" "d[20:24] = struct.pack('<I', 1000000)"
tasks_case "a record cut short" "offset 180: task record 6 cut short (4 of 16 bytes)" "d[20:24] = struct.pack('<I', 7); d += bytes(4)"
tasks_case "bytes after the records" "offset 148: the 5 task records end here, the file has 180 bytes" "d[20:24] = struct.pack('<I', 5); d[24:28] = struct.pack('<I', 1000 - struct.unpack('<I', d[156:160])[0])"
tasks_case "a name longer than 255" "offset 44: task 0's name length 300" "d[44:48] = struct.pack('<I', 300)"
tasks_case "a name past the end" "offset 164: task 5's name (40 bytes, 40 padded) runs past" "d[160:164] = struct.pack('<I', 40)"
tasks_case "samples that do not add up" "offset 24: 1001 samples, but the task records hold 1000" "d[24:28] = struct.pack('<I', 1001)"
tasks_case "an id twice" "offset 52: task id 0x0 again (its first record is at offset 32)" "d[52:60] = bytes(8)"
# a million tasks (16 MB): read, checked and printed in linear time (but for sorting)
python3 -c "import struct
n = 1000000
recs = b''.join(struct.pack('<IIII', i, 1, 4, 0x6b736174) for i in range(n))
open('many.tasks', 'wb').write(b'gmtk' + struct.pack('<II', 1, 0x01020304) + bytes([4, 0, 0, 0]) + struct.pack('<4I', 100, n, n, 0) + recs)"
( ulimit -v 800000; timeout 15 "$B/tgprof" -b --tasks --tasks-file=many.tasks x.elf good.gmon > many.out 2> err.txt )
rc=$?
if [ $rc = 0 ] && [ "$(grep -c '^task ' many.out)" = 1000001 ]; then
	ok "a million tasks: the table in under 15 s and 800 MB"
else
	nok "a million tasks: exit $rc: $(head -c 200 err.txt)"
fi
# ---- deep gmon.stacks: time and memory linear in the file ------------------------------
# A crafted chain of 60 000 frames (1.2 MB) made --folded build a prefix string per level
# (3 GiB); with a sample on every frame, 30 000 took 50 s for --folded and --flame-graph
# (every sample walked up to the root).  The optimised build, under 400 MB of address space
# and 15 s; the outputs whose size is the file's (flame graph, one deep stack) written,
# the ones that write every stack's whole path (folded, speedscope with a sample on every
# frame: quadratic by their formats) to /dev/null.  Then the sanitizer build on 20 000.
GS="python3 $OLDPWD/host/tests/gen-stacks.py"
TP=$B/tgprof
addrs=$(nm x.elf | awk '$2 ~ /^[Tt]$/ { sub(/^0+/, "", $1); print $1 }' | head -8 | paste -sd,)
deep_case() {
	local label=$1 stacks=$2 gmon=$3; shift 3
	# (ASan reserves terabytes of address space: no ulimit for the sanitizer build)
	( [ "$1" = "$T" ] || ulimit -v 400000; timeout 15 "$@" --stacks="$stacks" x.elf "$gmon" > /dev/null 2> deep.err )
	local rc=$?
	if [ $rc = 0 ] && sanitizer_clean deep.err; then
		ok "deep gmon.stacks: $label"
	else
		nok "deep gmon.stacks: $label: exit $rc $(head -c 200 deep.err)"
	fi
}
for spec in "60000 leaf:--chain 60000" "60000 every:--chain 60000 --every" "20000 every:--chain 20000 --every"; do
	name=${spec%%:*} args=${spec#*:}
	# shellcheck disable=SC2086
	read -r S O < <($GS "d$name.stacks" "$addrs" $args --width 8 --overhead 70000)
	"$G" gmon x.elf "d$name.gmon" -s 3 -a 40 -n 300 -l "$S,$O,0"
done
for o in "--folded=deep.folded" "--flame-graph=deep.svg" "--speedscope=deep.json" "-q"; do
	deep_case "60 000 frames, samples at the bottom [$o]" "d60000 leaf.stacks" "d60000 leaf.gmon" "$TP" -b "$o"
done
for o in "--folded=/dev/null" "--flame-graph=deep.svg" "--speedscope=/dev/null" "-q"; do
	deep_case "60 000 frames, a sample on each [$o]" "d60000 every.stacks" "d60000 every.gmon" "$TP" -b "$o"
done
deep_case "20 000 frames, a sample on each, sanitizer build [all outputs]" "d20000 every.stacks" \
	"d20000 every.gmon" "$T" -b -q --folded=/dev/null --flame-graph=deep.svg --speedscope=/dev/null
echo "1..$n"
