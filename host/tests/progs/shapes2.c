/* A second file with a static function of the same name as in shapes.c. */
static volatile double acc2;
static void work(int n) { for (int i = 0; i < n; i++) acc2 += i * 0.25; }
void leaf(int n);
int other(int n) { work(150); if (n % 3 == 0) leaf(10); return n & 3; }
