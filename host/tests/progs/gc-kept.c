/* The code gc-dropped.c's unit is linked with: a static function and a loop to sample. */
extern int dropped_calls;
static volatile int sink;
static int __attribute__((noinline)) step(int i) { sink += i * 3; return sink & 7; }
int __attribute__((noinline)) work(int n)
{
	int t = 0;
	for (int i = 0; i < n; i++)
		t += step(i);
	return t;
}
int main(void)
{
	for (int r = 0; r < 2000; r++)
		sink += work(20000);
	return dropped_calls;
}
