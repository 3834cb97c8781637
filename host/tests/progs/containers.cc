// C++: standard containers (std::vector, std::unordered_map, std::string, std::map) whose
// out-of-line members come from the library's headers: gprof names their source lines
// the way BFD reads DWARF 5 line tables.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace words {
std::string make_word(unsigned x)
{
	std::string w;
	do {
		w.push_back(static_cast<char>('a' + x % 26));
		x /= 26;
	} while (x);
	return w;
}

std::vector<std::string> make_text(unsigned n, unsigned vocabulary)
{
	std::vector<std::string> text;
	unsigned x = 12345;
	for (unsigned i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		text.push_back(make_word((x >> 8) % vocabulary));
	}
	return text;
}

std::unordered_map<std::string, unsigned> count(const std::vector<std::string> &text)
{
	std::unordered_map<std::string, unsigned> c;
	for (const auto &w : text)
		++c[w];
	return c;
}

std::map<unsigned, std::vector<std::string>> by_count(const std::unordered_map<std::string, unsigned> &c)
{
	std::map<unsigned, std::vector<std::string>> m;
	for (const auto &kv : c)
		m[kv.second].push_back(kv.first);
	for (auto &kv : m)
		std::sort(kv.second.begin(), kv.second.end());
	return m;
}
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 200000;
	std::vector<std::string> text = words::make_text(n, 3000);
	unsigned long total = 0;
	for (int round = 0; round < 4; round++) {
		auto c = words::count(text);
		auto m = words::by_count(c);
		total += m.size() + c.size();
		std::reverse(text.begin(), text.end());
	}
	std::printf("%lu\n", total);
	return 0;
}
