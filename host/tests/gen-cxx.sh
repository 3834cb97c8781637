#!/usr/bin/env bash
# gen-cxx.sh DIR UNITS FUNCS: a C++ program of UNITS source files in DIR (u0.cc ... and
# main.cc), each with FUNCS functions in an anonymous namespace, a class template
# instantiated three times, a class hierarchy with virtual members and a std::map, so
# that its symbols are what C++ gives gprof: mangled names, templates, statics of
# anonymous namespaces, inline members emitted per unit.  `prog N` runs N rounds.
set -eu
d=$1 units=$2 funcs=$3
mkdir -p "$d"
for u in $(seq 0 $((units - 1))); do
	awk -v u="$u" -v nf="$funcs" 'BEGIN {
		print "#include <map>\n#include <string>\n#include <vector>"
		printf "namespace {\n"
		for (i = 0; i < nf; i++)
			printf "__attribute__((noinline)) int f%d(int x) { return x * %d + %d; }\n", i, i + 1, u
		printf "}\n"
		printf "namespace unit%d {\n", u
		print "template <int N> struct Acc {"
		print "  std::vector<int> v;"
		print "  __attribute__((noinline)) void add(int x) { v.push_back(x * N); }"
		print "  __attribute__((noinline)) long sum() const { long s = 0; for (int x : v) s += x; return s; }"
		print "};"
		print "struct Shape { virtual ~Shape() {} virtual int area(int) const = 0; };"
		print "struct Square : Shape { int area(int x) const override { return x * x; } };"
		print "struct Tri : Shape { int area(int x) const override { return x * x / 2; } };"
		printf "long run(int rounds) {\n  Acc<1> a; Acc<2> b; Acc<%d> c; long s = 0;\n", u + 3
		print "  std::map<std::string, int> m; Square sq; Tri tr;"
		print "  for (int r = 0; r < rounds; r++) {"
		for (i = 0; i < nf; i += 2)
			printf "    s += f%d(r);\n", i
		print "    a.add(r); b.add(r); c.add(r);"
		print "    const Shape *sh = r % 3 ? static_cast<const Shape *>(&sq) : &tr;"
		print "    s += sh->area(r & 15);"
		print "    m[std::to_string(r % 50)] += r;"
		print "  }"
		print "  for (int r = 0; r < rounds; r += 10) {"
		for (i = 1; i < nf; i += 2)
			printf "    s += f%d(r);\n", i
		print "  }"
		print "  return s + a.sum() + b.sum() + c.sum() + (long)m.size();"
		print "}"
		print "}"
	}' > "$d/u$u.cc"
done
{
	echo "#include <cstdlib>"
	for u in $(seq 0 $((units - 1))); do echo "namespace unit$u { long run(int); }"; done
	echo "int main(int argc, char **argv) {"
	echo "  int rounds = argc > 1 ? atoi(argv[1]) : 200; long s = 0;"
	for u in $(seq 0 $((units - 1))); do echo "  s += unit$u::run(rounds);"; done
	echo "  return (int)(s & 1); }"
} > "$d/main.cc"
