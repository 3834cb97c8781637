#!/usr/bin/env bash
# tgprof against GNU gprof 2.40, byte for byte, on real programs built here with gcc -pg
# and run to produce gmon.out.  One TAP line per program variant and option set.
# The tool under test is the ASan/UBSan build (build/host/tgprof-san).
set -u
. "$(dirname "$0")/lib.sh" native
export ASAN_OPTIONS=$ASAN_OPTIONS:abort_on_error=0
P=$PWD/host/tests/progs

# verdict NAME DIR: the rest of a comparison of the two runs in DIR (ref.* gprof's,
# our.* tgprof's): no sanitizer report, the same output, the same exit status.
verdict() {
	local name=$1 dir=$2
	if ! sanitizer_clean "$dir/our.err"; then
		nok "$name: sanitizer report"; sed 's/^/# /' "$dir/our.err" | head -20
	elif ! cmp -s "$dir/ref.out" "$dir/our.out"; then
		nok "$name: output differs"; diff "$dir/ref.out" "$dir/our.out" | head -20 | sed 's/^/# /'
	elif ! cmp -s "$dir/ref.rc" "$dir/our.rc"; then
		nok "$name: exit status $(cat "$dir/our.rc"), gprof $(cat "$dir/ref.rc")"
	else
		ok "$name"
	fi
}

# check NAME DIR ARGS...: run both tools in DIR with ARGS, compare stdout and status,
# and the gmon.sum files -s writes (but for the header's spare bytes, which gprof leaves
# uninitialized).  gprof's -R reads a flag of its map's entries it never initialized (from
# malloc): MALLOC_PERTURB_=255 has glibc fill new blocks with zeros, so that gprof reads
# what tgprof decides.
check() {
	local name=$1 dir=$2; shift 2
	rm -f "$dir/gmon.sum" "$dir/ref.sum"
	(cd "$dir" && MALLOC_PERTURB_=255 gprof "$@" > ref.out 2> ref.err; echo $? > ref.rc; [ ! -f gmon.sum ] || mv gmon.sum ref.sum)
	(cd "$dir" && "$T" "$@" > our.out 2> our.err; echo $? > our.rc)
	if [ -f "$dir/ref.sum" ] && ! { cmp -s <(head -c 8 "$dir/ref.sum") <(head -c 8 "$dir/gmon.sum") &&
		cmp -s <(tail -c +21 "$dir/ref.sum") <(tail -c +21 "$dir/gmon.sum"); }; then
		nok "$name: gmon.sum differs"
	else
		verdict "$name" "$dir"
	fi
}

# make_map DIR CC CFLAGS SOURCES...: DIR/prog.map, the map of functions to object files
# for -R (--file-ordering), as gprof's manual makes it: nm -A of each source's object.
make_map() {
	local d=$1 cc=$2 cflags=$3 s objs=(); shift 3
	mkdir -p "$d/obj"
	for s in "$@"; do
		# shellcheck disable=SC2086
		$cc -pg $cflags -c "$s" -o "$d/obj/$(basename "${s%.*}").o" 2>> "$d/cc.err" || return 1
		objs+=("obj/$(basename "${s%.*}").o")
	done
	(cd "$d" && nm --extern-only --defined-only -v --print-file-name "${objs[@]}" > prog.map)
}

# build NAME CFLAGS SIZE SOURCES...; then run it twice (gmon.1, gmon.2) with different sizes.
build() {
	local name=$1 cflags=$2 size=$3; shift 3
	local d=$W/$name
	mkdir -p "$d"
	local srcs=()
	for s in "$@"; do srcs+=("$P/$s"); done
	local cc=gcc
	case $1 in *.cc) cc=g++;; esac
	if ! $cc -pg $cflags "${srcs[@]}" -o "$d/prog" 2> "$d/cc.err" || ! make_map "$d" $cc "$cflags" "${srcs[@]}"; then
		nok "$name: gcc -pg failed"; sed 's/^/# /' "$d/cc.err"; return 1
	fi
	(cd "$d" && ./prog > /dev/null && mv gmon.out gmon.1 && ./prog $size > /dev/null && mv gmon.out gmon.2 && cp gmon.1 gmon.out) ||
		{ nok "$name: running the program failed"; return 1; }
}

common=("" "-b" "-z" "-b -z" "-T" "-T -b" "-a" "-a -z" "-p" "-q" "-P" "-Q" "-i"
	"-b -pmain" "-b -Pmain" "-b -qmain" "-b -Qmain" "-b -w 120" "-b -w 40" "-b -L"
	"-b -nmain" "-b -Nmain" "-D -b" "-b -p -q" "-C" "-C -z" "-l -b" "-l -b -z" "-l -T"
	"-b --inline-file-names" "-b -S prog.nm" "-T -i -q" "-T -i -q -b" "-i -p -q -b" "-i -C -q" "-b -w 1" "-r" "-r -p" "-c -b" "-c -r" "-A" "-A -b -z" "-A -l -b" "-A -x -b" "-A -m 100 -t 3 -b" "-A -Jmain -b"
	"-s" "-s -b -p" "-s -q -b" "-s -A")
# gprof's file ordering, with the map make_map writes (each run of a file's functions
# stands for the file, named after it); with -r it is an error.
maps=("-R prog.map" "-b -p -q -R prog.map" "-a --file-ordering=prog.map" "-b -z -p -R prog.map" "-r -R prog.map")

# check_ann NAME DIR ARGS...: -y, as check, and the files both write (FILE-ann, named
# after each source file annotated, in the current directory): the same names and contents.
check_ann() {
	local name=$1 dir=$2; shift 2
	rm -rf "$dir/ref.ann" "$dir/our.ann"
	mkdir "$dir/ref.ann" "$dir/our.ann"
	(cd "$dir/ref.ann" && gprof "$@" > ../ref.out 2> ../ref.err; echo $? > ../ref.rc)
	(cd "$dir/our.ann" && "$T" "$@" > ../our.out 2> ../our.err; echo $? > ../our.rc)
	if ! diff -r "$dir/ref.ann" "$dir/our.ann" > "$dir/ann.diff"; then
		nok "$name: annotated files differ"; head -20 "$dir/ann.diff" | sed 's/^/# /'
	else
		verdict "$name" "$dir"
	fi
}

run_set() {
	local name=$1; shift
	local d=$W/$name
	nm "$d/prog" > "$d/prog.nm"
	local m=()
	[ ! -f "$d/prog.map" ] || m=("${maps[@]}")
	for o in "${common[@]}" "${m[@]}" "$@"; do
		# shellcheck disable=SC2086
		check "$name [$o]" "$d" $o prog gmon.out
	done
	check "$name [two files summed]" "$d" -b prog gmon.1 gmon.2
	check "$name [two files, -i]" "$d" -i prog gmon.1 gmon.2
}

if build cycles-O0 "-O0 -g" 1000 cycles.c; then
	run_set cycles-O0 "-b -pfact" "-b -qeven" "-b -Qodd" "-b -Pspin" "-b -pcycles.c" "-b -Pcycles.c:spin" \
		"-b -pcycles.c:9" "-b -l -p6" "-b -l -Qcycles.c:11" "-b -k fact/" "-b -p:fact" "-b -pnothere.c:3" \
		"-b -Qcycles.c:helper" "-b -k main/fact" "-b -q main/fact" "-b -Nfact" "-b -nfact" "-b -Nspin"
fi
# Basic-block counts (gmon.out tag 2, written by the long-gone gcc -a), generated for this
# program: gprof uses them with -l (and -s, which implies it) in -C and -A, and -s sums them.
if [ -d "$W/cycles-O0" ] && "$G" gmon "$W/cycles-O0/prog" "$W/cycles-O0/bb.gmon" -s 4 -b 40 -a 20; then
	for o in "-A" "-A -l" "-A -l -x" "-A -l -z" "-A -l -m 2000" "-A -l -x -t 3" "-l -C" "-l -C -z" \
		"-C" "-s -A -x" "-s" "-i"; do
		# shellcheck disable=SC2086
		check "cycles-O0 basic blocks [$o]" "$W/cycles-O0" $o prog bb.gmon
	done
else
	nok "cycles-O0 basic blocks: gen-gmon"
fi
# static: glibc's own symbols (ifunc resolvers, which gprof leaves out; mcount and
# friends, which it excludes by default) are in the symbol table
if build static "-O1 -static" 1000 cycles.c; then
	run_set static "-b -pmcount" "-b -z -qmcount" "-b -z -Q"
fi
if build cycles-O2 "-O2" 1000 cycles.c; then
	run_set cycles-O2 "-b -pfact" "-b -Qodd"
fi
if build shapes "-O1 -g" 5000 shapes.c shapes2.c; then
	run_set shapes "-b -pshapes2.c" "-b -qshapes2.c:work" "-b -Qleaf" "-b -Nleaf" "-b -nping" "-b -Pshapes.c"
fi
# A profile of another (larger) program: arcs from and to addresses past etext, which is
# not a function (the callee becomes the function before it, as in gprof)
if [ -f "$W/shapes/gmon.out" ] && [ -f "$W/cycles-O0/prog" ]; then
	cp "$W/shapes/gmon.out" "$W/cycles-O0/shapes.gmon"
	for o in "-b" "-b -z" "-l -b" "-r"; do
		# shellcheck disable=SC2086
		check "cycles-O0 with shapes' profile [$o]" "$W/cycles-O0" $o prog shapes.gmon
	done
fi
if build clones "-O2 -g" 100000 clones.c; then
	run_set clones "-b -pchecksum" "-b -Qscale"
fi
# Many compilation units and functions with DWARF (statics among them), generated.
d=$W/many
mkdir -p "$d/src"
for f in $(seq 0 19); do
	awk -v f=$f 'BEGIN {
		for (i = 0; i < 200; i++)
			printf "%sint f%d_%d(int x) { return x * %d + %d; }\n", (i % 3 ? "" : "static "), f, i, i, f
		printf "int use%d(int x) { int s = 0;\n", f
		for (i = 0; i < 200; i += 3) printf "  for (int k = 0; k < %d; k++) s += f%d_%d(x + k);\n", 50 + i, f, i
		print "  return s; }" }' > "$d/src/u$f.c"
done
{ for f in $(seq 0 19); do echo "int use$f(int);"; done
  echo "int main(void) { int s = 0; for (int r = 0; r < 400; r++) {"
  for f in $(seq 0 19); do echo " s += use$f(r);"; done
  echo "} return s & 1; }"; } > "$d/src/main.c"
if gcc -pg -O0 -g "$d"/src/*.c -o "$d/prog" 2> "$d/cc.err" && make_map "$d" gcc "-O0 -g" "$d"/src/*.c &&
	(cd "$d" && { ./prog; ./prog; true; } && cp gmon.out gmon.1 && cp gmon.out gmon.2); then
	run_set many "-b -pu3.c" "-b -Pu7.c:f7_3"
else
	nok "many: building or running"; sed 's/^/# /' "$d/cc.err" | head
fi

# File names made of the line table's directory and file entries (tgprof reads them as
# BFD does): sources named relative to the compilation directory, in a subdirectory, with
# a function from a header in an include directory; the entries as DWARF 4 and DWARF 5
# lay them out (5 numbers them from 0, its entry 0 the compilation directory).
d=$W/relpaths
mkdir -p "$d/sub" "$d/inc"
cp "$P/cycles.c" "$d/sub/"
echo 'static inline int hinl(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * x; return s; }' > "$d/inc/h.h"
printf '#include "h.h"\nint use(int x) { return hinl(x); }\n' > "$d/sub/use.c"
for v in 4 5; do
	if (cd "$d" && gcc -pg -O0 -gdwarf-$v -Iinc sub/cycles.c sub/use.c -o prog$v 2> cc.err &&
		./prog$v > /dev/null && mv gmon.out gmon$v.out); then
		for o in "-b -L" "-l -b -L" "-A" "-l -C" "-b --inline-file-names -L"; do
			# shellcheck disable=SC2086
			check "relpaths DWARF $v [$o]" "$d" $o prog$v gmon$v.out
		done
	else
		nok "relpaths DWARF $v: building or running"; sed 's/^/# /' "$d/cc.err" | head
	fi
done

# A real program of some size: tgprof itself, built with -pg, analysing a generated
# profile of 20000 functions (its own sorting, hashing and printing get the samples).
d=$W/self
mkdir -p "$d"
if gcc -pg -O2 -g -std=gnu11 "$PWD"/host/src/*.c -lelf -lm -ldl -o "$d/prog" 2> "$d/cc.err" &&
	"$G" asm 20000 5 > "$d/f.s" && gcc -nostdlib -static -Wl,-e,_start "$d/f.s" -o "$d/f.elf" &&
	"$G" gmon "$d/f.elf" "$d/in.gmon" -s 3 -a 60000 -n 100000 &&
	(cd "$d" && ./prog -b f.elf in.gmon > /dev/null && mv gmon.out gmon.1 &&
	 ./prog -b -z f.elf in.gmon > /dev/null && mv gmon.out gmon.2 && cp gmon.1 gmon.out); then
	run_set self "-b -pmsort_rec" "-b -qcg_assemble" "-b -Qmsort_rec"
else
	nok "self: building or running tgprof with -pg"; sed 's/^/# /' "$d/cc.err" | head
fi

if command -v g++ > /dev/null; then
	if build cxx "-O0 -g" 5000 shapes.cc; then
		run_set cxx "--no-demangle -b" "-b -p_ZN3geo5scaleEi" "-b -Qmain"
	fi
	# Standard containers: out-of-line members of std::map, std::vector,
	# std::unordered_map and std::string, each in its own section, their code from the
	# library's headers.  A DWARF 5 line sequence that never sets its file is in file 1
	# (one such header) for libdw, in the unit's own file for BFD 2.40: gprof names those
	# lines FILE.cc:HEADER-LINE, in -l, -C, -A (-y), --inline-file-names and the index.
	# stdmap.cc is the four-line program that once showed the header-member file names wrong.  (-gdwarf-5: the rule is DWARF 5's,
	# and a compiler may default to DWARF 4.)
	if build cxx-map "-O2 -gdwarf-5" 1 stdmap.cc; then
		run_set cxx-map "-b -pstdmap.cc" "-b -Qstdmap.cc" "-l -b --inline-file-names" "-A -l -x -b"
		check_ann "cxx-map [-A -y]" "$W/cxx-map" -A -y ../prog ../gmon.out
		check_ann "cxx-map [-A -y -l]" "$W/cxx-map" -A -y -l ../prog ../gmon.out
		# The comparisons above exercise the rule only if some line is a header's under
		# the unit's own file name: stdmap.cc:N, N past the file's last line.
		lines=$(wc -l < "$P/stdmap.cc")
		(cd "$W/cxx-map" && "$T" -b -l prog gmon.out > rule.out 2> rule.err)
		if sanitizer_clean "$W/cxx-map/rule.err" && grep -o 'stdmap\.cc:[0-9]\+' "$W/cxx-map/rule.out" |
			awk -F: -v n="$lines" '$2 > n { f = 1 } END { exit !f }'; then
			ok "cxx-map: DWARF 5 rows before a file is set are stdmap.cc's, with a header's line (> $lines)"
		else
			nok "cxx-map: no stdmap.cc:N with N > $lines in -b -l: $(grep -o 'stdmap\.cc:[0-9]\+' "$W/cxx-map/rule.out" | sort -u | tr '\n' ' ')"
		fi
	fi
	if build cxx-containers-O0 "-O0 -gdwarf-5" 100000 containers.cc; then
		run_set cxx-containers-O0 "-b -pcontainers.cc" "-l -b --inline-file-names" "-b -Pcontainers.cc"
		check_ann "cxx-containers-O0 [-A -y]" "$W/cxx-containers-O0" -A -y ../prog ../gmon.out
	fi
	# (-Os: at -O1 and -O2 gprof 2.40 itself aborts on this program with -l and -s,
	# "somebody miscounted": its two passes over the addresses disagree on the number
	# of lines, with DWARF 4 too.)
	if build cxx-containers-Os "-Os -gdwarf-5" 100000 containers.cc; then
		run_set cxx-containers-Os "-b -pcontainers.cc"
		check_ann "cxx-containers-Os [-A -y]" "$W/cxx-containers-Os" -A -y ../prog ../gmon.out
	fi
	# A larger C++ program, generated (gen-cxx.sh): 10 units of 40 functions in anonymous
	# namespaces (ten of each name), a class template instantiated three times and
	# std::vector, std::map and std::string members emitted in every unit, virtual
	# members: about 900 functions at -O0.  Two runs of different lengths, summed too
	# (-s writes gmon.sum from both).
	d=$W/cxx-large
	if host/tests/gen-cxx.sh "$d/src" 10 40 && g++ -pg -O0 -g "$d"/src/*.cc -o "$d/prog" 2> "$d/cc.err" &&
		(cd "$d" && ./prog 20000 && mv gmon.out gmon.1 && ./prog 30000 && mv gmon.out gmon.2 &&
		 cp gmon.1 gmon.out); then
		run_set cxx-large "-b -pu3.cc" "-b -Qu5.cc" "-b -q_ZN5unit33runEi" "--no-demangle -b" \
			"-l -b --inline-file-names" "-A -l -x -b"
		check "cxx-large [-s, two runs]" "$d" -s -b prog gmon.1 gmon.2
		check "cxx-large [-l -b, two runs]" "$d" -l -b prog gmon.1 gmon.2
		check "cxx-large [-A, two runs]" "$d" -A prog gmon.1 gmon.2
		check_ann "cxx-large [-A -y]" "$d" -A -y ../prog ../gmon.out
	else
		nok "cxx-large: generating, building or running"; sed 's/^/# /' "$d/cc.err" | head
	fi
else
	skip "C++ demangling" "g++ is not installed"
fi
echo "1..$n"
