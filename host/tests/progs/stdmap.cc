#include <map>
#include <string>
int main(int argc, char **argv) { std::map<std::string, int> m; for (int i = 0; i < (argc > 1 ? 400000 : 200000); i++) m[std::to_string(i % 5000)] += i;
	return m.size() == 5000 ? 0 : 1; }
