#!/usr/bin/env bash
# GCC's clones (host/tests/progs/clones.c, built here with gcc -O2 -pg): spin.part.0,
# sum_a.isra.0, scaled.constprop.0 and checked.cold.  GNU gprof charges their samples and
# calls to the symbol before them; tgprof's gprof-compatible output stays byte for byte
# gprof's, with one warning on standard error saying how much fell into clones; with
# --clones=own, and in its own files (JSON, callgrind) by default, each clone is a
# function of its own with its exact calls.
set -u
. "$(dirname "$0")/lib.sh" clones
cd "$W" || exit 1
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }

N=4000      # iterations, a multiple of 8: spin.part.0 is called 5N/8 times, sum_a 2N
gcc -O2 -pg "$OLDPWD/host/tests/progs/clones.c" -o clones && ./clones $N ||
	{ nok "building and running clones.c"; echo "1..$n"; exit 1; }
for c in spin.part.0 sum_a.isra.0 scaled.constprop.0 checked.cold; do
	if nm clones | grep -q " t $c\$"; then
		ok "gcc -O2 -pg made the clone $c"
	else
		skip "the clone $c" "this gcc made no $c (nm: $(nm clones | grep -o ' t [a-z_]*\.[a-z_.0-9]*' | tr '\n' ' '))"
	fi
done

# gprof's output, byte for byte, and exit status, in the usual option sets
for opts in "" "-b" "-b -p" "-b -q" "-b -z" "-b -p -q -i" "-b -T" "-b -Qspin"; do
	# shellcheck disable=SC2086
	gprof $opts clones gmon.out > ref.out 2> /dev/null; grc=$?
	# shellcheck disable=SC2086
	"$T" $opts clones gmon.out > our.out 2> our.err; rc=$?
	check "'$opts': gprof's output byte for byte, exit $rc as gprof's" \
		sh -c "cmp -s ref.out our.out && [ $rc = $grc ]"
	check "'$opts': one warning on the clones, naming how many and --clones=own" \
		sh -c "[ \"\$(grep -c 'fell into [0-9]* GCC clones (.*--clones=own' our.err)\" = 1 ] &&
		       [ \"\$(grep -vc 'fell into\|profiler overhead' our.err)\" = 0 ]"
done
"$T" -b clones gmon.out --json=p.json --callgrind=cg.out > our.out 2> our.err
check "with --json and --callgrind too: still one warning" \
	[ "$(grep -c 'GCC clones' our.err)" = 1 ]
check "the warning counts the calls into spin.part.0 (5N/8) and sum_a.isra.0 (2N)" \
	grep -q "and $((5 * N / 8 + 2 * N + N)) calls" our.err
"$T" -b --clones=fold clones gmon.out > fold.out 2> fold.err
gprof -b clones gmon.out > ref.out
check "--clones=fold: gprof's output, no warning" sh -c 'cmp -s ref.out fold.out && [ ! -s fold.err ]'

# --clones=own: the clones are functions, with their exact calls, and their neighbours
# have none of theirs
"$T" -b --clones=own clones gmon.out > own.out 2> own.err
calls() { awk -v f="$2" '$NF == f && NF == 7 { print $4 }' "$1"; }
check "--clones=own: spin.part.0 called $((5 * N / 8)) times (flat profile)" \
	[ "$(calls own.out spin.part.0)" = $((5 * N / 8)) ]
check "--clones=own: sum_a.isra.0 called $((2 * N)) times" [ "$(calls own.out sum_a.isra.0)" = $((2 * N)) ]
check "--clones=own: scaled.constprop.0 called $N times" [ "$(calls own.out scaled.constprop.0)" = $N ]
prev=$(nm -n clones | awk '$3 == "spin.part.0" { print p } { if ($2 ~ /^[Tt]$/) p = $3 }')
check "--clones=own: $prev (before spin.part.0) is not called in spin.part.0's place" \
	sh -c "[ -z \"\$(awk -v f='$prev' '\$NF == f && NF == 7' own.out)\" ]"
check "--clones=own: main calls spin.part.0 $((5 * N / 8)) times (call graph)" \
	grep -qE "^ +[0-9.]+ +[0-9.]+ +$((5 * N / 8))/$((5 * N / 8)) +main \[" own.out
check "--clones=own: no warning" [ ! -s own.err ]
gprof -b clones gmon.out > ref.out
check "--clones=own differs from gprof (the clones are shown)" sh -c '! cmp -s ref.out own.out'

# tgprof's own files charge each clone to itself by default
check "JSON (default): spin.part.0 with $((5 * N / 8)) calls, sum_a.isra.0 with $((2 * N)), checked.cold listed" \
	python3 -c '
import json, sys
n = int(sys.argv[1])
f = {x["name"]: x for x in json.load(open("p.json"))["functions"]}
sys.exit(not (f["spin.part.0"]["calls"] == 5 * n // 8 and f["sum_a.isra.0"]["calls"] == 2 * n
              and "checked.cold" in f))' $N
check "callgrind (default): spin.part.0 a function of its own, called $((5 * N / 8)) times" \
	sh -c "grep -q '^fn=.*spin.part.0' cg.out && grep -A1 'cfn=.*spin.part.0' cg.out | grep -q '^calls=$((5 * N / 8)) '"
"$T" -b --clones=fold --json=f.json clones gmon.out > /dev/null 2>&1
check "JSON with --clones=fold: no clone of .part or .isra" \
	sh -c '! grep -q "\"spin.part.0\"\|\"sum_a.isra.0\"" f.json'
check "no sanitizer report" sanitizer_clean our.err
echo "1..$n"
