#!/usr/bin/env bash
# The outputs gprof does not have: DOT and SVG call graphs, callgrind, JSON, --time-unit,
# and --help/--version.  Checked against the gprof-format numbers of the same run.
set -u
. "$(dirname "$0")/lib.sh" outputs
cd "$W" || exit 1
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }

P=$OLDPWD/host/tests/progs
gcc -pg -O1 -g "$P/shapes.c" "$P/shapes2.c" -o prog && ./prog 8000 > /dev/null || { nok "building shapes"; exit 1; }

"$T" -b --dot=g.dot --svg=g.svg --callgrind=cg.out --json=p.json prog gmon.out > plain.out 2> err.txt
check "extra outputs: exit 0, no sanitizer report" [ $? = 0 -a ! -s err.txt ]
gprof -b prog gmon.out > ref.out
check "stdout unchanged by the extra outputs" cmp -s ref.out plain.out
check "DOT is accepted by graphviz" dot -Tplain g.dot -o g.plain
# The run is short (a few samples): the default threshold may prune any node, so the structure
# is checked with no threshold.
"$T" -b --dot=all.dot --graph-threshold=0 prog gmon.out > /dev/null 2>> err.txt
check "DOT has cycle nodes" grep -q 'cycle 1 as a whole' all.dot
check "DOT labels estimated edge times as estimates" grep -q 's est\.' all.dot
# Call counts without any sample: no threshold can apply, the whole call graph is drawn.
"$G" gmon prog nohist.out -H -a 40 -c &&
	"$T" -b -q --dot=nohist.dot --json=nohist.json prog nohist.out > /dev/null 2>> err.txt
arcs=$(python3 -c 'import json; print(len(json.load(open("nohist.json"))["arcs"]))')
check "DOT of a profile without samples: all $arcs arcs drawn, no nan" \
	sh -c '[ "$(grep -c -- "->" nohist.dot)" = "$0" ] && [ "$0" -gt 20 ] && ! grep -qi nan nohist.dot' "$arcs"
# A generated profile of the same program with plenty of samples and a call graph
# without cycles (-c), so that totals spread out: DOT against gprof's call graph.
D="python3 $OLDPWD/host/tests/dotcheck.py"
"$G" gmon prog gen.gmon -s 3 -n 20000 -a 60 -c && gprof -b -q prog gen.gmon > gen.cg
read -r t1 n1 t2 n2 < <($D thresholds gen.cg)
"$T" -b -q --dot=t1.dot --graph-threshold="$t1" prog gen.gmon > /dev/null 2>> err.txt
"$T" -b -q --dot=t2.dot --graph-threshold="$t2" prog gen.gmon > /dev/null 2>> err.txt
check "--graph-threshold=$t1 keeps the $n1 entries gprof gives more %time" [ "$($D count t1.dot)" = "$n1" ]
check "--graph-threshold=$t2 keeps the $n2 entries gprof gives more %time" [ "$($D count t2.dot)" = "$n2" ]
"$T" -b -q --dot=gen.dot --graph-threshold=0 prog gen.gmon > /dev/null 2>> err.txt
check "DOT: the reddest node is gprof's hottest entry, hue by its %time" $D hottest gen.dot gen.cg
check "DOT edge labels are the call graph's call counts (generated profile)" $D edges gen.dot gen.cg 30
# (-z: a run without samples leaves out main, which nothing calls)
gprof -b -q -z prog gmon.out > run.cg
check "DOT edge labels are the call graph's call counts (the run, with cycles)" $D edges all.dot run.cg 10
# Pictures a person can read.  A made profile of a recursive-descent parser
# (progs/parse.c): the cycle expr -> term -> factor -> expr has 98% of the time, all in
# factor's callee digit; expr, the member main and batch (60%) call, has 0.0% of its own,
# and so has term.  The way in stays drawn, whatever the threshold; eval, a small caller
# of the cycle (0.1%), stays out.
gcc -pg -O1 -g "$P/parse.c" -o parse || nok "building parse"
$D gmon parse entry.gmon "digit=980 batch=10 main=10" "main>batch=1 main>expr=400 \
batch>expr=600 main>eval=1 eval>expr=1 expr>term=1200 term>factor=1500 factor>expr=200 \
factor>digit=9999999 term>digit=1 main>digit=1"
"$T" -b -q --dot=entry.dot parse entry.gmon > /dev/null 2>> err.txt
check "DOT: a cycle entered by a member of 0% keeps its callers' edges and the way in" \
	$D has entry.dot main batch expr term factor digit 'main>expr' 'batch>expr' 'expr>term' \
	'term>factor' 'factor>expr' 'factor>digit' '!eval'
check "DOT: '1 call', never '1 calls'" sh -c 'grep -q "^1 call\"" entry.dot && ! grep -q "\<1 calls" entry.dot'
# main -> digit: 9.8 s x 1 / 10000001 calls
check "DOT: times in s, ms, µs or ns, no exponent (an edge of 980 ns)" sh -c \
	'grep -q "^980 ns est\.\"" entry.dot && grep -q "^100 ms self$" entry.dot &&
	 grep -q "^9.8 s self$" entry.dot && ! grep -Eq "[0-9][eE][-+]?[0-9]" entry.dot'
# The roll-overs %.3g alone gets wrong (999.7 ms is "1e+03 ms"), and µs: digit's 100 s
# among 10^9 calls, 0.1 µs a call: main's 9,997,000 are 999.7 ms, term's 9,997 are
# 999.7 µs, batch's 15 are 1.5 µs.
$D gmon parse times.gmon "digit=10000" "main>digit=9997000 term>digit=9997 batch>digit=15 \
factor>digit=989992988"
"$T" -b -q --dot=times.dot --graph-threshold=0 parse times.gmon > /dev/null 2>> err.txt
sed -n '/ -> n[0-9]* \[label="/ { N; s/\n/ /; p }' times.dot > times.edges	# count and time
times_ok() {
	grep -q 'label="9,997,000 1 s est\."' times.edges && grep -q 'label="9,997 1 ms est\."' times.edges &&
		grep -q 'label="15 1\.5 µs est\."' times.edges && ! grep -Eq '[0-9][eE][-+]?[0-9]' times.dot
}
check "DOT: 999.7 ms is '1 s', 999.7 µs is '1 ms', 1.5 µs is '1.5 µs', no exponent" times_ok
# C++ names of hundreds of characters (std::map of std::string): short in the box, whole
# in the tooltip, and a picture of a reasonable width.
if command -v g++ > /dev/null; then
	mkdir -p cxx	# its own gmon.out
	g++ -pg -O2 -g "$P/maps.cc" -o maps && (cd cxx && ../maps 20 > /dev/null) &&
		mv cxx/gmon.out maps.gmon || nok "building and running maps.cc"
	"$T" -b -q --graph-threshold=0 --dot=maps.dot --svg=maps.svg maps maps.gmon > /dev/null 2>> err.txt
	check "DOT: the lines of C++ names of hundreds of characters fit in 64 columns" \
		sh -c "$D names maps.dot 64 > maps.names"
	check "DOT: template arguments elided in the box, the full name in the tooltip" \
		awk -F '\t' 'index($1, "add(std::map<...>&, unsigned int)|") == 1 && length($2) > 300 &&
		index($2, "add(std::map<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, std::vector<std::pair<") == 1 { f = 1 }
		END { exit !f }' maps.names
	w=$(dot -Tplain maps.dot | awk 'NR == 1 { print int($3) }')
	check "DOT of the C++ program drawn at most 40 inches wide ($w)" [ "${w:-999}" -le 40 ]
	check "SVG: the full name as the tooltip" grep -q 'xlink:title="add(std::map&lt;std::__cxx11::basic_string&lt;char' maps.svg
else
	skip "C++ names in DOT" "g++ is not installed"
fi
check "no sanitizer report" sh -c '! grep -q "Sanitizer\|runtime error" err.txt'
check "SVG written through dot" grep -q '<svg' g.svg
check "JSON parses" python3 -c 'import json,sys; json.load(open("p.json"))'
# JSON numbers agree with the flat profile: calls of 'leaf' and the cycles
calls_ref=$(awk '$NF == "leaf" { print $4 }' ref.out | head -1)
calls_json=$(python3 -c 'import json; d=json.load(open("p.json")); print([f["calls"] for f in d["functions"] if f["name"]=="leaf"][0])')
check "JSON calls of leaf = flat profile ($calls_ref)" [ "$calls_ref" = "$calls_json" ]
check "JSON lists two cycles" python3 -c 'import json,sys; d=json.load(open("p.json")); sys.exit(len(d["cycles"]) != 2)'
check "callgrind header" grep -q '^events: Samples' cg.out
cg_calls=$(awk '/^cfn=leaf$/ { getline; split($1, a, "="); s += a[2] } END { print s }' cg.out)
leaf_total=$(python3 -c 'import json; d=json.load(open("p.json")); print(sum(a["count"] for a in d["arcs"] if a["callee"]=="leaf"))')
check "callgrind calls to leaf are exact ($leaf_total)" [ "$cg_calls" = "$leaf_total" ]
# callgrind: the self costs add up to the summary, and to the samples of the flat profile
# (bins of 8 bytes: many are shared between functions, in fractions)
"$G" gmon prog k8.gmon -s 5 -n 3000 -a 40 -k 8
for g in gen.gmon k8.gmon; do
	"$T" -b --callgrind=$g.cg prog $g > /dev/null 2>> err.txt
	sum=$(awk '/^fn=/ { getline; s += $2 } END { print s }' $g.cg)
	total=$(gprof -b -p prog $g | awk 'NR > 5 && NF { c = $2 } END { printf "%d", c * 100 + 0.5 }')
	check "callgrind $g: self costs add up to the summary and the samples ($sum = $total)" \
		sh -c '[ "$0" = "$1" ] && grep -q "^summary: $0\$" "$2"' "$sum" "$total" $g.cg
done
# --time-unit=ms: seconds x 1000 in the flat profile
"$T" -b -p --time-unit=ms prog gmon.out > ms.out
s=$(sed -n 6p ref.out | awk '{ print $3 }') m=$(sed -n 6p ms.out | awk '{ print $3 }')
check "--time-unit=ms: $s s ~ $m ms (within the rounding of seconds)" awk "BEGIN { exit !($m >= $s * 1000 - 5 && $m <= $s * 1000 + 5) }"
check "--time-unit=ms header" grep -q 'Each sample counts as 10 ms.' ms.out
# --time-unit=us, on the generated profile (times of seconds)
gprof -b -p prog gen.gmon > ref-gen.out
"$T" -b -p --time-unit=us prog gen.gmon > us.out
s=$(sed -n 6p ref-gen.out | awk '{ print $3 }') u=$(sed -n 6p us.out | awk '{ print $3 }')
check "--time-unit=us: $s s ~ $u us (within the rounding of seconds)" awk "BEGIN { exit !($u >= $s * 1e6 - 5000 && $u <= $s * 1e6 + 5000 && $u > 1e6) }"
check "--time-unit=us header" grep -q 'Each sample counts as 10000 us.' us.out
check "--time-unit=us: same functions in the same order" cmp -s <(awk 'NR > 5 { print $NF }' ref-gen.out) <(awk 'NR > 5 { print $NF }' us.out)
# @FILE: arguments from a file, as gprof (libiberty's expandargv)
printf -- '-b "-p"\n @more\n' > args && printf -- "-z prog 'gmon.out'" > more
gprof @args > ref.out 2>&1; "$T" @args > our.out 2> our.err
check "@FILE arguments as gprof reads them" cmp -s ref.out our.out
check "@FILE: no sanitizer report" sh -c '! grep -q "Sanitizer\\|runtime error" our.err'
# expandargv's one bound: the 2000th word starting with '@' is an error, exit 1 (a file
# that names itself twice would otherwise be read 2^32 times).  The boundary as gprof's:
# @lim and 1998 @empty pass, @lim and 1999 do not.
: > empty
for k in 1998 1999; do
	yes @empty | head -n $k > lim
	gprof @lim -b prog gmon.out > /dev/null 2> ref.err; r=$?
	timeout 20 "$T" @lim -b prog gmon.out > /dev/null 2> our.err; o=$?
	check "@FILE: @lim and $k @-files: exit $r as gprof's, 'too many' alike" sh -c \
		'[ $0 = $1 ] && [ "$(grep -c "too many @-files encountered" ref.err)" = "$(grep -c "too many @-files encountered" our.err)" ]' $r $o
done
printf '@fan @fan' > fan && printf '@self\n' > self && mkdir -p adir
for f in fan self; do
	timeout 20 "$T" @$f prog gmon.out > /dev/null 2> our.err
	check "@FILE: @$f (names itself): exit 1, 'too many @-files encountered'" \
		sh -c '[ $0 = 1 ] && grep -q "error: too many @-files encountered: @.* in $1" our.err' $? $f
done
"$T" @adir prog gmon.out > /dev/null 2> our.err
check "@FILE: a directory: exit 1, '@-file refers to a directory'" \
	sh -c '[ $0 = 1 ] && grep -q "error: @-file refers to a directory: adir" our.err' $?
# Linear in the file: 400 000 words (one copy per word of the rest of the file was
# 4 s and 1.6 GB)
{ yes -- -b | head -n 400000; echo prog gmon.out; } > big
gprof -b prog gmon.out > ref-b.out
timeout 10 "$T" @big > big.out 2> our.err
check "@FILE: 400 000 words read in time (exit $?)" sh -c '[ $0 = 0 ] && cmp -s big.out ref-b.out' $?
# -A -y: annotated sources written to FILE-ann files, as gprof writes them
mkdir -p yref yours
(cd yref && gprof -A -y ../prog ../gmon.out > out.txt 2>&1)
(cd yours && "$T" -A -y ../prog ../gmon.out > out.txt 2>&1)
check "-A -y writes the same .c-ann files as gprof" diff -r yref yours
check "-A -y wrote files" test -s yours/shapes.c-ann
"$T" --help > help.out
check "--help" grep -q -- '--callgrind' help.out
# gprof's options are listed as gprof's, the additions after "Beyond gprof"
sed -n '/^gprof options:/,/^Beyond gprof:/p' help.out > help-gprof.out
missing=""
for x in -A -J -x -y -I -t -m -e -E -f -F -s -l -C -S; do
	grep -q -- "^  $x[ ,\[]\|/ $x " help-gprof.out || missing="$missing $x"
done
check "--help lists -A -J -x -y -I -t -m -e -E -f -F... among gprof's options (missing:$missing)" [ -z "$missing" ]
check "--help: the additions after gprof's options" sh -c \
	'! grep -q -- "--dot\|--callgrind\|--time-unit" help-gprof.out && sed -n "/^Beyond gprof:/,\$p" help.out | grep -q -- --dot'
"$T" --version > version.out
check "--version" grep -q '^tgprof [0-9].*gprof 2\.40' version.out
for v in abc 1x "" nan -1 101; do
	"$T" -b --dot=bad.dot --graph-threshold="$v" prog gmon.out > /dev/null 2> err.txt
	check "--graph-threshold='$v': an error" sh -c '[ $0 = 1 ] && grep -q "error: --graph-threshold=" err.txt && [ ! -e bad.dot ]' $?
done
"$T" -b --dot=ok.dot --graph-threshold=2.5 prog gmon.out > /dev/null 2> err.txt
check "--graph-threshold=2.5 is fine" grep -q '2.50% of the total' ok.dot
# SVG: the DOT source goes to a temporary file in $TMPDIR
mkdir -p tmpd
TMPDIR=$PWD/tmpd "$T" -b --svg=t.svg prog gmon.out > /dev/null 2> err.txt
check "SVG with TMPDIR: written, temporary file removed" sh -c 'grep -q "<svg" t.svg && [ -z "$(ls tmpd)" ]'
TMPDIR=$PWD/no-such-dir "$T" -b --svg=t2.svg prog gmon.out > /dev/null 2> err.txt
check "SVG with a TMPDIR that does not exist: error naming it, no SVG file left" \
	sh -c '[ $0 = 1 ] && grep -q "no-such-dir" err.txt && [ ! -e t2.svg ]' $?
"$T" --bogus > /dev/null 2>&1
check "unknown option: exit 1" [ $? = 1 ]
"$T" -b --svg=/nonexistent-dir/x.svg prog gmon.out > /dev/null 2> err.txt
check "SVG to a bad path: error" [ $? = 1 ]
# ---- gmon.stacks: folded stacks, flame graph, speedscope (the sanitizer build) ---------
# Generated trees over shapes' functions (host/tests/gen-stacks.py), with a gmon.out whose
# counters match the tree's header; the outputs' sums and names checked.
GS="python3 $OLDPWD/host/tests/gen-stacks.py"
addrs=$(nm prog | awk '$2 ~ /^[Tt]$/ { sub(/^0+/, "", $1); print $1 }' | paste -sd,)
read -r S O < <($GS st.stacks "$addrs" --tree 300 --seed 7 --overhead 5000)
"$G" gmon prog st.out -s 9 -a 40 -n 300 -l "$S,$O,0"
"$T" -b -q --stacks=st.stacks --folded=st.folded --flame-graph=st.svg --speedscope=st.json \
	prog st.out > st.q 2> err.txt
rc=$?
check "stacks outputs: exit 0, no sanitizer report (qsort of no children)" \
	sh -c "[ $rc = 0 ] && ! grep -q 'runtime error\|AddressSanitizer' err.txt"
check "folded: every sample of the tree once" \
	sh -c "[ \"\$(awk '{ s += \$NF } END { print s }' st.folded)\" = $((S - O)) ]"
check "flame graph and speedscope are well-formed" python3 -c '
import json, sys, xml.dom.minidom
xml.dom.minidom.parse("st.svg")
p = json.load(open("st.json"))["profiles"][0]
sys.exit(sum(p["weights"]) != p["endValue"] or len(p["samples"]) != len(p["weights"]))'
# Without gmon.stacks: an error before any output (it printed the whole report first).
for o in --folded=x.folded --flame-graph=x.svg --speedscope=x.json; do
	"$T" -b "$o" prog gmon.out > none.out 2> err.txt
	rc=$?
	check "$o without gmon.stacks: exit 1 before any output" \
		sh -c "[ $rc = 1 ] && [ ! -s none.out ] && grep -q 'need gmon.stacks' err.txt"
done
# C++ names, demangled as the call graph prints them (unless --no-demangle); in the flame
# graph a long name's templates elided in its label, whole in its tooltip.
if g++ -pg -O0 -g "$P/maps.cc" -o cxx.elf && ./cxx.elf > /dev/null 2>&1; then
	caddrs=$(nm cxx.elf | awk '$2 ~ /^[TtWw]$/ && $3 ~ /^_Z/ { sub(/^0+/, "", $1); print $1 }' | head -40 | paste -sd,)
	read -r S O < <($GS cx.stacks "$caddrs" --tree 200 --seed 3 --overhead 5000)
	"$G" gmon cxx.elf cx.out -s 9 -a 40 -n 300 -l "$S,$O,0"
	"$T" -b -q --stacks=cx.stacks --folded=cx.folded --flame-graph=cx.svg --speedscope=cx.json \
		cxx.elf cx.out > cx.q 2> err.txt
	"$T" -b -p -z cxx.elf cx.out > cx.flat 2> /dev/null
	check "C++ folded stacks demangled (no _Z name), as the flat profile prints them" \
		sh -c "! grep -q '_Z' cx.folded cx.json && grep -q '::' cx.folded && [ -z \"\$(tr ';' '\n' < cx.folded | sed 's/ [0-9]*$//' | grep -v '^\[' | sort -u | while read -r f; do grep -qF -- \"\$f\" cx.flat || echo x; done)\" ]"
	check "flame graph: a long C++ name elided in the label (<...>), whole in the tooltip" \
		python3 -c '
import re, sys
s = open("cx.svg").read()
hits = [(t, l) for t, l in re.findall(r"<title>([^<]*) \(\d+ samples[^<]*</title>.*?data-l=\"([^\"]*)\"", s) if len(t) > 40 and "&lt;" in t]
sys.exit(not hits or not all("&lt;...&gt;" in l and len(l) < len(t) for t, l in hits))'
	"$T" -b --no-demangle --stacks=cx.stacks --folded=raw.folded cxx.elf cx.out > /dev/null 2>> err.txt
	check "--no-demangle: the stacks' names as in the symbol table" grep -q '_Z' raw.folded
else
	nok "building and running maps.cc"
fi
check "stacks outputs: no sanitizer report" sh -c "! grep -q 'runtime error\|AddressSanitizer' err.txt"
# The measured call graph with inlined frames: a_step called by main has 28 samples of its
# own and 10 in leaf and work inlined into it (their from_pc is a_step's: doc/profiling.md),
# which the histogram gives to a_step (38); it also really calls leaf (3 samples).  Each
# sample once per arc on its path: main 10 + 38 + 3 = 100%, the caller line of a_step
# 0.38 0.03 as its own entry, leaf's arc only the real call.
$D gmon prog inl.out "main=10 a_step=38 leaf=3" "main>a_step=600 a_step>leaf=5"
python3 - "$(nm prog | awk '$3 == "main" || $3 == "a_step" || $3 == "leaf" || $3 == "work" { printf "%s=0x%s ", $3, $1 }')" <<'PY'
import struct, sys
f = {k: int(v, 16) for k, v in (w.split("=") for w in sys.argv[1].split())}
N = 0xFFFFFFFF
nodes = [(N, 0, 0, 1, 0), (0, f["main"], 0x10, 1, 10), (1, f["a_step"], f["main"] + 4, 600, 28),
         (2, f["leaf"], f["main"] + 4, 38400, 6), (2, f["work"], f["main"] + 4, 38400, 4),
         (2, f["leaf"], f["a_step"] + 4, 5, 3)]
hdr = b"gmst" + struct.pack("<II", 1, 0x01020304) + bytes([8, 0, 0, 0])
hdr += struct.pack("<10I", 100, len(nodes), 51, 0, 0, 0, 0, 0, 0, 0)
open("inl.stacks", "wb").write(hdr + b"".join(struct.pack("<IQQII", *n) for n in nodes))
g = bytearray(open("inl.out", "rb").read())      # the target's counters: 51 samples, checked
g[8:20] = struct.pack("<III", 51, 0, (0xA5 ^ 51) << 24)
open("inl.out", "wb").write(g)
PY
"$T" -b -q --stacks=inl.stacks prog inl.out > inl.q 2> err.txt
check "measured call graph: inlined frames' samples counted once (main 100%, a_step 0.38 0.03)" \
	sh -c 'sanitizer_clean() { ! grep -q "runtime error\|AddressSanitizer" "$1"; }
	grep -Eq "^\[[0-9]+\] +100\.0 +0\.10 +0\.41 +main" inl.q &&
	grep -Eq "^ +0\.38 +0\.03 +600/600 +a_step" inl.q &&
	grep -Eq "^\[[0-9]+\] +80\.4 +0\.38 +0\.03 +600 +a_step" inl.q &&
	grep -Eq "^ +0\.03 +0\.00 +5/5 +leaf" inl.q && sanitizer_clean err.txt'
# gmon.stacks' prof_rate is gmon.out's (doc/format.md): another one, or 0, is said with the
# file and the offset; the report stays the same (its times are the histogram's)
for rate in 0 77; do
	python3 -c 'import struct, sys; b = bytearray(open("inl.stacks", "rb").read())
b[16:20] = struct.pack("<I", int(sys.argv[1])); open("r.stacks", "wb").write(b)' $rate
	"$T" -b -q --stacks=r.stacks prog inl.out > r.q 2> err.txt
	check "gmon.stacks of profiling rate $rate (gmon.out's 100): a warning at offset 16, the same report" \
		sh -c '[ $0 = 0 ] && grep -q "warning: r.stacks: offset 16: profiling rate $1, but inl.out.s histogram has 100 per second" err.txt &&
		       sed "s/(r\.stacks)/(inl.stacks)/" r.q | cmp -s - inl.q' $? $rate
done
"$T" -b -q --stacks=inl.stacks prog inl.out > /dev/null 2> err.txt
check "gmon.stacks of gmon.out's rate: no warning" sh -c '! grep -q "offset 16" err.txt'
# --diff with a profile of rate 0 (gprof's times are inf and nan): said, its times "-"
# and JSON null, calls compared; --fail-slower cannot be checked: a failure (exit 2)
$D gmon prog r0.out "main=10 a_step=38 leaf=3" "main>a_step=601 a_step>leaf=5"
python3 -c 'import struct; b = bytearray(open("r0.out", "rb").read())
assert b[20] == 0; b[41:45] = struct.pack("<I", 0); open("r0.out", "wb").write(b)'
"$T" --diff prog inl.out r0.out > d.out 2> err.txt
check "--diff, new profile of rate 0: exit 0, said, times '-', calls compared, no nan" sh -c \
	'[ $0 = 0 ] && grep -q "new: prog, r0.out: profiling rate 0: its times are not numbers, only calls are compared" d.out &&
	 grep -Eq "^ +0\.38 +- +0\.41 +- +600 +601 +\+1  a_step$" d.out && ! grep -qi nan d.out' $?
"$T" --diff --fail-slower=5 --json=d.json prog r0.out inl.out > /dev/null 2> err.txt
check "--diff --fail-slower, old profile of rate 0: exit 2, 'not checked', JSON times null" sh -c \
	'[ $0 = 2 ] && grep -q "fail-slower=5: not checked: the old profile.s profiling rate is 0" err.txt &&
	 python3 -c "import json, sys; d = json.load(open(\"d.json\")); sys.exit(not (d[\"sampled_seconds\"][0] is None and d[\"sampled_seconds\"][1] > 0 and all(f[\"self_seconds\"][0] is None for f in d[\"functions\"])))"' $?
echo "1..$n"
