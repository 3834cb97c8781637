# The shared start of the host tests, sourced from the project's top folder:
#   . host/tests/lib.sh NAME
# sets B (the host build directory), T (tgprof built with sanitizers), G (gen-gmon), W (a
# private work directory under $B/tests, removed at exit unless KEEP is set), the sanitizer
# options, and the TAP helpers ok, nok (n counts) and sanitizer_clean FILE.
B=${BUILD:-build}/host
case $B in /*) ;; *) B=$PWD/$B ;; esac   # absolute, BUILD may be either
T=$B/tgprof-san
G=$B/gen-gmon
for x in "$T" "$G"; do [ -x "$x" ] || { echo "not ok 1 - $x missing"; exit 1; }; done
# A private directory per run: several sessions may run the tests in one tree at once.
mkdir -p "$B/tests" || exit 1
W=$(mktemp -d "$B/tests/$1.XXXXXX") || exit 1
[ -n "${KEEP:-}" ] || trap 'rm -rf "$W"' EXIT
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
# LeakSanitizer cannot run everywhere (under ptrace, some containers): then without it.
"$T" --version > /dev/null 2>&1 || export ASAN_OPTIONS=detect_leaks=0
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
# skip WHAT WHY: a check that cannot be made here (TAP's skip: not counted as passed)
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
sanitizer_clean() { ! grep -q 'ERROR: AddressSanitizer\|runtime error:\|LeakSanitizer' "$1"; }
