// C++: names gprof demangles (namespaces, templates, overloads, virtuals, operators).
#include <cstdio>
#include <cstdlib>
#include <vector>
namespace geo {
struct Shape {
	virtual double area(int k) const = 0;
	virtual ~Shape() {}
};
struct Square : Shape {
	double s;
	explicit Square(double x) : s(x) {}
	double area(int k) const override { double r = 0; for (int i = 0; i < k; i++) r += s * s * i; return r; }
};
struct Disc : Shape {
	double r;
	explicit Disc(double x) : r(x) {}
	double area(int k) const override { double a = 0; for (int i = 0; i < k; i++) a += 3.14 * r * r; return a; }
};
template <typename T> T twice(T x) { volatile T y = x; for (int i = 0; i < 500; i++) y = y + x; return y; }
int scale(int x) { return twice<int>(x); }
double scale(double x) { return twice<double>(x); }
struct Vec { double x, y; };
Vec operator+(Vec a, Vec b) { return Vec{a.x + b.x, a.y + b.y}; }
}
int main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 20000;
	std::vector<geo::Shape *> v{new geo::Square(2.0), new geo::Disc(1.5)};
	double s = 0;
	geo::Vec acc{0, 0};
	for (int i = 0; i < rounds; i++) {
		s += v[i & 1]->area(60);
		s += geo::scale(i) + geo::scale(0.5 * i);
		acc = acc + geo::Vec{1, 2};
	}
	for (auto *p : v)
		delete p;
	std::printf("%f %f\n", s, acc.x);
	return 0;
}
