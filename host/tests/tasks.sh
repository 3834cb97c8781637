#!/usr/bin/env bash
# Per-task time: gmon.tasks (host/tests/gen-tasks.py, per doc/format.md) beside gmon.out
# and gmon.stacks (gen-stacks.py).  The per-task table against the files' numbers
# (computed here again from the bytes), tasks named in the stacks' outputs, --task, the
# gprof-compatible output unchanged by gmon.tasks, and the errors before any output.
set -u
. "$(dirname "$0")/lib.sh" tasks
cd "$W" || exit 1
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
GS="python3 $OLDPWD/host/tests/gen-stacks.py"
GT="python3 $OLDPWD/host/tests/gen-tasks.py"
P=$OLDPWD/host/tests/progs
gcc -pg -O1 -g "$P/shapes.c" "$P/shapes2.c" -o prog && ./prog 2000 > /dev/null ||
	{ nok "building shapes"; echo "1..$n"; exit 1; }
addrs=$(nm prog | awk '$2 ~ /^[Tt]$/ { sub(/^0+/, "", $1); print $1 }' | paste -sd,)
read -r S O < <($GS gmon.stacks "$addrs" --tree 400 --seed 11 --overhead 5000)
"$G" gmon prog gmon.out -s 9 -a 40 -n 300 -l "$S,$O,0"
# every context id of the tree a task but the 4th, which stays "[thread 0x...]"; two
# switches found no slot
$GT gmon.tasks "$S" --stacks gmon.stacks --unknown 3 --unregistered 2 --seed 5 > tasks.txt
# expect.py: each task's samples, and calls and tree samples from gmon.stacks' bytes
cat > expect.py <<'PY'
import struct, sys
b = open("gmon.stacks", "rb").read()
e = "<" if b[8:12] == b"\x04\x03\x02\x01" else ">"
a = b[12]; n = struct.unpack(e + "I", b[20:24])[0]; size = 12 + 2 * a
ids = {}
for line in open("tasks.txt"):
    i, name, s = line.split(" ", 1)[0], line.split(" ", 1)[1].rsplit(" ", 1)[0], line.split()[-1]
    ids[int(i, 16)] = [name, int(s), 0, 0]        # name, samples, calls, tree samples
root = []
for k in range(n):
    p = 56 + k * size
    parent, = struct.unpack(e + "I", b[p:p + 4])
    sp = int.from_bytes(b[p + 4:p + 4 + a], "little" if e == "<" else "big")
    fr = int.from_bytes(b[p + 4 + a:p + 4 + 2 * a], "little" if e == "<" else "big")
    calls, samples = struct.unpack(e + "II", b[p + 4 + 2 * a:p + 12 + 2 * a])
    r = k if parent == 0xFFFFFFFF else root[parent]
    root.append(r)
    t = ids.get(fr) if r == k and sp == 0 else None
    if r != k:
        rp = 56 + r * size
        rsp = int.from_bytes(b[rp + 4:rp + 4 + a], "little" if e == "<" else "big")
        rfr = int.from_bytes(b[rp + 4 + a:rp + 4 + 2 * a], "little" if e == "<" else "big")
        t = ids.get(rfr) if rsp == 0 else None
    if t:
        t[3] += samples
        if r != k:
            t[2] += calls
for i, (name, s, c, ts) in ids.items():
    print(name, s, c, ts)
PY
python3 expect.py > expect.txt
gprof -b prog gmon.out > ref.out

# gmon.stacks beside makes the call graph measured; gmon.tasks changes nothing in it
mkdir -p notasks && cp prog gmon.out gmon.stacks notasks/
(cd notasks && "$T" -b prog gmon.out) > stacks.out 2> /dev/null
"$T" -b prog gmon.out > our.out 2> err.txt
check "gmon.tasks beside gmon.out, no --tasks: the report is the same without it" cmp -s stacks.out our.out
check "... and the unregistered switches warned about on stderr" \
	grep -q 'gmon.tasks: 2 task switches found no free slot in the target.s task table' err.txt
"$T" --tasks prog gmon.out > table.out 2> err.txt
check "--tasks: exit 0, no sanitizer report" sh -c "[ $? = 0 ] && ! grep -q 'runtime error\|Sanitizer' err.txt"
check "--tasks alone: the table alone (no flat profile)" sh -c '! grep -q "Flat profile" table.out'
check "the table's header line names the first column \"task\"" \
	grep -qE '^task +samples +% CPU +seconds +calls made$' table.out
# the rows: name, samples, % CPU, seconds, calls
check "every task's row: its samples, share of $S samples and calls made (from gmon.stacks)" python3 -c '
import sys
rows = {}
for l in open("table.out"):
    f = l.split()
    if len(f) >= 5 and f[-4].isdigit() and f[-1].isdigit():
        rows[" ".join(f[:-4])] = f[-4:]      # samples, % CPU, seconds, calls made
want = [l.rsplit(" ", 3) for l in open("expect.txt").read().splitlines()]
total = int(sys.argv[1])
bad = [w for w in want if w[0] not in rows or int(rows[w[0]][0]) != int(w[1])
       or abs(float(rows[w[0]][1]) - 100.0 * int(w[1]) / total) > 0.006
       or rows[w[0]][3] != w[2]]
sys.exit(bad != [] or len(rows) != len(want))' "$S"
check "the table's samples add up to the header's $S" \
	sh -c "[ \"\$(awk '/^task /{on=1; next} on && NF >= 5 && \$(NF-3) ~ /^[0-9]+\$/ { s += \$(NF-3) } /^\$/{on=0} END { print s }' table.out)\" = $S ]"
check "the \"(other tasks)\" row and its note" \
	sh -c 'grep -q "^(other tasks) " table.out && grep -q "2 task switches that found no free slot" table.out'
"$T" -b -p --tasks prog gmon.out > both.out 2> /dev/null
check "--tasks -p: the table, then a form feed, then gprof's flat profile" \
	sh -c 'grep -q "^task " both.out && [ "$(sed -n "/\f/,\$p" both.out | tail -n +2)" = "$(gprof -b -p prog gmon.out)" ]'

# the stacks' outputs: contexts named by their tasks
"$T" -b -q --folded=t.folded --flame-graph=t.svg --speedscope=t.json --json=p.json prog gmon.out > /dev/null 2> err.txt
unknown=$(sed -n 4p tasks.txt | cut -d' ' -f1)   # (gen-tasks left the 4th id out: line 4 is the 5th)
check "folded: every task with samples in the tree starts its stacks with its name" python3 -c '
import sys
firsts = {l.rsplit(" ", 1)[0].split(";")[0] for l in open("t.folded")}
want = [l.rsplit(" ", 3) for l in open("expect.txt").read().splitlines()]
sys.exit(not all(w[0] in firsts for w in want if int(w[3]) and w[0] != "main"))'
check "folded: only the id gmon.tasks lacks stays [thread 0x...]" \
	sh -c '[ "$(grep -o "^\[thread 0x[0-9a-f]*\]" t.folded | sort -u | wc -l)" -le 1 ]'
check "flame graph and speedscope carry the task names" python3 -c '
import json, sys
names = [l.rsplit(" ", 3)[0] for l in open("expect.txt").read().splitlines()]
t = [l.rsplit(" ", 3)[0] for l in open("expect.txt").read().splitlines() if int(l.rsplit(" ", 3)[3]) and l.rsplit(" ", 3)[0] not in ("main",)]
frames = {f["name"] for f in json.load(open("t.json"))["shared"]["frames"]}
svg = open("t.svg").read()
sys.exit(not t or not all(n in frames and "<title>%s (" % n in svg for n in t))'
check "JSON: the tasks with their ids, samples and calls" python3 -c '
import json, sys
d = json.load(open("p.json"))
got = {t["name"]: (t["samples"], t["calls"]) for t in d["tasks"]}
want = {w[0]: (int(w[1]), int(w[2])) for w in (l.rsplit(" ", 3) for l in open("expect.txt").read().splitlines())}
sys.exit(got != want or d["task_switches_unregistered"] != 2)'

# Names in no encoding (task names as the target wrote them, symbols as the ELF has them):
# every JSON, SVG and DOT file still parses, a byte of no UTF-8 character as U+FFFD, a
# real UTF-8 name kept.  Bad bytes: a cut-short character, 0xff, a surrogate, an overlong
# '/', a control byte in a symbol.
ntasks=$(wc -l < tasks.txt)
bad=$(printf 'main,t\342che,\377x,\355\240\200s,\300\257o,caf\303\251')
for k in $(seq 7 "$ntasks"); do bad="$bad,t$k"; done
PYTHONIOENCODING=utf-8:surrogateescape $GT bad.tasks "$S" --stacks gmon.stacks --names "$bad" --seed 5 > /dev/null
objcopy --redefine-sym leaf="$(printf 'le\377af')" --redefine-sym work="$(printf 'wo\001rk\342')" prog badprog
"$T" -b -q --tasks-file=bad.tasks --stacks=gmon.stacks --json=bad.json --speedscope=bad-ss.json \
	--flame-graph=bad.svg --dot=bad.dot badprog gmon.out > /dev/null 2> err.txt
check "names of no UTF-8 (tasks, symbols): JSON, speedscope, flame graph and DOT parse" python3 -c '
import json, sys, xml.dom.minidom
d = json.load(open("bad.json", encoding="utf-8"))
s = json.load(open("bad-ss.json", encoding="utf-8"))
xml.dom.minidom.parse("bad.svg")
dot = open("bad.dot", "rb").read().decode("utf-8")
names = {t["name"] for t in d["tasks"]}
funcs = {f["name"] for f in d["functions"]}
frames = {f["name"] for f in s["shared"]["frames"]}
want = {"t\ufffdche", "\ufffdx", "\ufffd\ufffd\ufffds", "\ufffd\ufffdo", "caf\u00e9"}
sys.exit(not (want <= names and "le\ufffdaf" in funcs and "le\ufffdaf" in dot
              and "caf\u00e9" in frames and "le\ufffdaf" in frames))'
check "names of no UTF-8: a control byte in the flame graph as U+FFFD" grep -q 'wo&#xFFFD;rk&#xFFFD;' bad.svg

# --task NAME: its row, its measured flat profile, its stacks alone
read -r name tsamples tcalls ttree < <(awk 'NR == 2' expect.txt | awk '{ print $(NF-3), $(NF-2), $(NF-1), $NF }')
"$T" -b --task="$name" --folded=one.folded --speedscope=one.json prog gmon.out > one.out 2> err.txt
check "--task=$name: exit 0" [ $? = 0 ]
check "--task=$name: its row alone in the table" \
	sh -c "[ \"\$(awk '/^task /{on=1; next} /^\$/{on=0} on' one.out | wc -l)\" = 1 ] && grep -q '^$name ' one.out"
check "--task=$name: its flat profile's samples are its $ttree samples in the tree, its calls its $tcalls" \
	sh -c "awk '/^% task/{on=1; next} on && NF >= 4 { s += \$2; c += \$3 } /^\$/{ if (on) exit } END { exit !(s == $ttree && c == $tcalls) }' one.out &&
	       grep -q '^$ttree of the task.s $tsamples samples' one.out"
check "--task=$name: its folded stacks alone, all its tree's samples" \
	sh -c "[ \"\$(awk '{ s += \$NF } END { print s + 0 }' one.folded)\" = $ttree ] && ! grep -v '^$name;' one.folded | grep -q ."
"$T" -b --task=no-such-task prog gmon.out > none.out 2> err.txt
check "--task of no task: exit 1 before any output, the tasks listed" \
	sh -c "[ $? = 1 ] && [ ! -s none.out ] && grep -q 'no task of that name' err.txt && grep -q '^  $name\$' err.txt"

# the explicit option, other widths and byte orders: the same table
$GT be.tasks "$S" --stacks gmon.stacks --unknown 3 --unregistered 2 --seed 5 --width 4 --big > /dev/null
mkdir -p other && cp prog gmon.out other/ && cp gmon.stacks other/s.stacks
(cd other && "$T" --tasks --stacks=s.stacks --tasks-file=../be.tasks prog gmon.out) > be.out 2> err.txt
check "--tasks-file, 4-byte ids, big-endian: the same rows" \
	sh -c "[ \"\$(grep -A100 '^task ' be.out)\" = \"\$(grep -A100 '^task ' table.out)\" ]"

# errors before any output
mkdir -p lone && cp prog gmon.out lone/
for o in --tasks --task=main; do
	(cd lone && "$T" -b "$o" prog gmon.out) > lone.out 2> err.txt
	check "$o without gmon.tasks: exit 1 before any output" \
		sh -c "[ $? = 1 ] && [ ! -s lone.out ] && grep -q 'need gmon.tasks' err.txt"
done
(cd lone && "$T" -b prog gmon.out) > lone.out 2> /dev/null
check "without gmon.tasks: gprof's output" cmp -s ref.out lone.out
cp gmon.tasks lone/
(cd lone && "$T" -b prog gmon.out) > lone.out 2> /dev/null
check "gmon.tasks beside, no gmon.stacks, no --tasks: gprof's output byte for byte" cmp -s ref.out lone.out
(cd lone && "$T" -b --task=main prog gmon.out) > lone.out 2> err.txt
check "--task without gmon.stacks: exit 1 before any output, saying where a task's profile is" \
	sh -c "[ $? = 1 ] && [ ! -s lone.out ] && grep -q 'measured in gmon.stacks' err.txt"
(cd lone && "$T" --tasks prog gmon.out) > lone.out 2> err.txt
check "--tasks without gmon.stacks: the table, calls made '-'" \
	sh -c "[ $? = 0 ] && grep -qE '^main +[0-9]+ +[0-9.]+ +[0-9.]+ +-\$' lone.out"
# another snapshot's gmon.tasks: named, an error naming both files; beside, ignored
$GT old.tasks $((S + 7)) --stacks gmon.stacks > /dev/null
"$T" -b --tasks-file=old.tasks prog gmon.out > old.out 2> err.txt
check "--tasks-file of another snapshot: an error naming both files (offset 24), exit 1" \
	sh -c "[ $? = 1 ] && [ ! -s old.out ] && grep -q 'old.tasks: offset 24: $((S + 7)) samples, but gmon.out holds $S' err.txt"
cp old.tasks lone/gmon.tasks
(cd lone && "$T" -b prog gmon.out) > lone.out 2> err.txt
check "another snapshot's gmon.tasks beside: a warning, gprof's output" \
	sh -c "cmp -s ref.out lone.out && grep -q 'not the same snapshot, ignored' err.txt"
(cd lone && "$T" -b --tasks prog gmon.out) > lone.out 2> err.txt
check "... and --tasks then: exit 1, it was not this profile's" \
	sh -c "[ $? = 1 ] && grep -q 'found beside was not this profile' err.txt"
# a gmon.tasks of another profiling rate than gmon.out's: said, with the file and offset
$GT r50.tasks "$S" --stacks gmon.stacks --rate 50 > /dev/null
"$T" -b --tasks --tasks-file=r50.tasks prog gmon.out > r50.out 2> err.txt
check "--tasks-file of rate 50 (gmon.out's 100): a warning at offset 16, the table at 50" \
	sh -c "[ $? = 0 ] && grep -q 'warning: r50.tasks: offset 16: profiling rate 50, but gmon.out.s histogram has 100' err.txt &&
	       grep -q '$S samples, 50 per second' r50.out"
"$T" -b --tasks prog gmon.out > /dev/null 2> err.txt
check "gmon.tasks of gmon.out's rate: no warning" sh -c "! grep -q 'offset 16' err.txt"
check "no sanitizer report" sh -c "! grep -q 'runtime error\|Sanitizer' err.txt"
echo "1..$n"
