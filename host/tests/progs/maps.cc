// C++ with the standard library's templates: std::map keyed by std::string, vectors of
// pairs, so that the demangled names run to hundreds of characters.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

typedef std::map<std::string, std::vector<std::pair<std::string, int> > > index_t;

static std::string word(unsigned k)
{
	std::string w;
	for (unsigned i = 0; i < 6; i++)
		w += (char)('a' + (k >> (3 * i)) % 7);
	return w;
}
__attribute__((noinline)) void add(index_t &ix, unsigned k)
{
	std::vector<std::pair<std::string, int> > &v = ix[word(k % 997)];
	if (v.size() < 8)
		v.push_back(std::make_pair(word(k), (int)k));
}
__attribute__((noinline)) long count(const index_t &ix)
{
	long n = 0;
	for (index_t::const_iterator i = ix.begin(); i != ix.end(); ++i)
		for (size_t j = 0; j < i->second.size(); j++)
			n += i->second[j].second + (long)i->second[j].first.size();
	return n;
}
int main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
	long s = 0;
	for (int r = 0; r < rounds; r++) {
		index_t ix;
		for (unsigned k = 0; k < 3000; k++)
			add(ix, k * 2654435761u + (unsigned)r);
		s += count(ix);
	}
	std::printf("%ld\n", s);
	return 0;
}
