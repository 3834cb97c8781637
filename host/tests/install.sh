#!/usr/bin/env bash
# make install-host PREFIX=dir: bin/tgprof works (its version, and a profile read as gprof
# reads it) and share/man/man1/tgprof.1 is a man page that man finds and renders.
set -u
B=${BUILD:-build}/host
case $B in /*) ;; *) B=$PWD/$B ;; esac   # absolute, BUILD may be either
# A private directory per run: several sessions may run the tests in one tree at once.
mkdir -p "$B/tests" || exit 1
W=$(mktemp -d "$B/tests/install.XXXXXX") || exit 1
[ -n "${KEEP:-}" ] || trap 'rm -rf "$W"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
nok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }

P=$W/prefix
make -s install-host PREFIX="$P" ${BUILD:+BUILD="$BUILD"} > "$W/make.log" 2>&1
check "make install-host PREFIX=...: exit 0" [ $? = 0 ]
sed 's/^/# /' "$W/make.log" | head -5
check "bin/tgprof installed, executable" [ -x "$P/bin/tgprof" ]
"$P/bin/tgprof" --version > "$W/version" 2>&1
check "bin/tgprof --version: $(head -1 "$W/version")" grep -q '^tgprof [0-9].*gprof 2\.40' "$W/version"
# and it analyses a profile as gprof does
gcc -pg -O1 "$PWD/host/tests/progs/cycles.c" -o "$W/prog" && (cd "$W" && ./prog 50 > /dev/null) &&
	gprof -b "$W/prog" "$W/gmon.out" > "$W/ref.out" 2> /dev/null
"$P/bin/tgprof" -b "$W/prog" "$W/gmon.out" > "$W/our.out" 2> /dev/null
check "bin/tgprof -b prog gmon.out: gprof's output" cmp -s "$W/ref.out" "$W/our.out"
check "share/gprof-rtos/gprof.gdb installed" [ -f "$P/share/gprof-rtos/gprof.gdb" ]
# --gdb finds it there (a port nobody listens on: gdb itself fails, after the script is found)
TGPROF_GDB=true "$P/bin/tgprof" --gdb=127.0.0.1:1 "$W/prog" > /dev/null 2> "$W/gdb.err"
check "bin/tgprof --gdb finds the installed gprof.gdb" sh -c \
	'! grep -q "gprof.gdb not found" "$0" && grep -q "gdb did not write gmon.out" "$0"' "$W/gdb.err"
M=$P/share/man/man1/tgprof.1
check "share/man/man1/tgprof.1 installed" [ -f "$M" ]
MANWIDTH=80 man -P cat -l "$M" > "$W/man.txt" 2> "$W/man.err"
check "man -l renders it: NAME, OPTIONS, DIAGNOSTICS" sh -c \
	'grep -q "^NAME" "$0" && grep -q "^OPTIONS" "$0" && grep -q "^DIAGNOSTICS" "$0" && grep -q "tgprof *- gprof" "$0"' "$W/man.txt"
man --warnings -P cat -l "$M" > /dev/null 2> "$W/man.err"
check "man --warnings: none" [ ! -s "$W/man.err" ]
sed 's/^/# /' "$W/man.err" | head -5
check "man finds it under PREFIX/share/man" sh -c '[ "$(MANPATH="$0/share/man" man -w tgprof)" = "$1" ]' "$P" "$M"
echo "1..$n"
