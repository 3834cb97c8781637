/* gen-gmon: synthetic inputs for tests and benchmarks.
 *   gen-gmon asm N SEED > file.s     assembly with N functions (globals, statics, weak,
 *                                    aliases, clone-like names), for any GNU assembler
 *   gen-gmon gmon ELF OUT [opts]     a gmon.out for ELF's functions:
 *       -s SEED  -a ARCS  -n SAMPLES  -k BYTES_PER_BIN  -r RATE  -f gnu|bsd44|oldbsd
 *       -l SAMPLES,OVERHEAD,ARCS (the target's counters in the header's spare bytes:
 *             samples taken, profiler-overhead samples, arcs not recorded)
 *       -2 (two disjoint histogram records)  -S (saturate one bin)  -c (a chain, no cycles)
 *       -H (no histogram record)  -B NBINS (any number of bins: fractional bin sizes)
 *       -d DIM[,ABBREV] (the histogram's dimension, default "seconds",s)
 *       -x N (N more arcs with an address outside every function, alternately caller
 *             and callee)  -b N (a basic-block record, tag 2, of N blocks)
 *       -X N (N more arcs between functions and addresses past the last one, where
 *             only symbols that are not functions may be, such as _end)
 *       -O N (N bins with counts past 65535, written as the target does: each such bin
 *             as one-bin records of the same range whose counts add up to it, between
 *             records of the bins around it)
 * Deterministic for a given seed; fields are written with the ELF's width and order. */
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int gen_asm(int n, unsigned seed)
{
	rng += seed * 0x9E3779B97F4A7C15ull;
	printf("\t.text\n\t.globl _start\n\t.type _start, %%function\n_start:\n\t.fill 16,1,0\n"
	       "\t.size _start, 16\n");
	for (int i = 0; i < n; i++) {
		int kind = (int)(rnd() % 100);
		int size = 8 + 2 * (int)(rnd() % 60);
		char name[64];
		snprintf(name, sizeof name, "f%05d", i);
		if (kind < 3)
			snprintf(name, sizeof name, "f%05d.constprop.0", i);
		else if (kind < 5)
			snprintf(name, sizeof name, "f%05d.part.%d", i, kind);
		else if (kind < 6)
			snprintf(name, sizeof name, "_f%05d", i);
		else if (kind < 7)
			snprintf(name, sizeof name, "__f%05d", i);
		if (kind < 25)
			;                                   /* static */
		else if (kind < 30)
			printf("\t.weak %s\n", name);
		else
			printf("\t.globl %s\n", name);
		printf("\t.type %s, %%function\n%s:\n", name, name);
		if (kind >= 90 && kind < 93)            /* aliases at one address */
			printf("\t.globl a%05d\n\t.type a%05d, %%function\na%05d:\n", i, i, i);
		if (kind >= 93 && kind < 95)
			printf("\t.type s%05d, %%function\ns%05d:\n", i, i);
		if (kind >= 95 && kind < 97)
			printf("\t.globl _g%05d\n_g%05d:\n", i, i); /* a global label, not a function */
		printf("\t.fill %d,1,0\n\t.size %s, %d\n", size, name, size);
		if (kind == 99)
			printf("\t.p2align 6\n");
	}
	/* code after the last function under a label that is not a function (like etext) */
	printf("\t.globl text_tail\ntext_tail:\n\t.fill 256,1,0\n");
	return 0;
}

struct fn {
	uint64_t addr, size;
};

static int cmp_fn(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int big, is64;
static FILE *out;

static void put(uint64_t v, int n)
{
	unsigned char b[8];
	for (int i = 0; i < n; i++)
		b[big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
	fwrite(b, 1, n, out);
}

static void vma(uint64_t v) { put(v, is64 ? 8 : 4); }

/* One GNU histogram record: tag, range, bins, rate, dimension, then the bins (each < 2^16). */
static void hist_record(uint64_t lo, uint64_t hi, uint32_t n, unsigned rate, const char dim[16],
			const uint32_t *bins)
{
	put(0, 1);
	vma(lo);
	vma(hi);
	put(n, 4);
	put(rate, 4);
	fwrite(dim, 1, 16, out);
	for (uint32_t i = 0; i < n; i++)
		put(bins[i], 2);
}

static int gen_gmon(int argc, char **argv)
{
	const char *elf = argv[0], *outp = argv[1];
	unsigned seed = 1, rate = 100, per_bin = 2;
	long arcs = 1000, samples = 10000;
	const char *fmt = "gnu";
	unsigned loss[3] = {0, 0, 0};
	int two = 0, sat = 0, chain = 0, nohist = 0, c;
	long force_bins = 0, stray = 0, nbb = 0, past = 0, over = 0;
	char dimension[16] = "seconds", abbrev = 's';
	optind = 2;
	while ((c = getopt(argc, argv, "s:a:n:k:r:f:l:2ScHB:d:x:b:X:O:")) != -1) {
		switch (c) {
		case 's': seed = (unsigned)atoi(optarg); break;
		case 'a': arcs = atol(optarg); break;
		case 'n': samples = atol(optarg); break;
		case 'k': per_bin = (unsigned)atoi(optarg); break;
		case 'r': rate = (unsigned)atoi(optarg); break;
		case 'f': fmt = optarg; break;
		case 'l': sscanf(optarg, "%u,%u,%u", &loss[0], &loss[1], &loss[2]); break;
		case '2': two = 1; break;
		case 'S': sat = 1; break;
		case 'c': chain = 1; break;
		case 'H': nohist = 1; break;
		case 'B': force_bins = atol(optarg); break;
		case 'd': {
			const char *comma = strchr(optarg, ',');
			size_t n = comma ? (size_t)(comma - optarg) : strlen(optarg);
			memset(dimension, 0, sizeof dimension);
			memcpy(dimension, optarg, n < 15 ? n : 15);
			abbrev = comma ? comma[1] : optarg[0];
			break;
		}
		case 'x': stray = atol(optarg); break;
		case 'b': nbb = atol(optarg); break;
		case 'X': past = atol(optarg); break;
		case 'O': over = atol(optarg); break;
		default: return 2;
		}
	}
	rng += seed * 0x9E3779B97F4A7C15ull;
	elf_version(EV_CURRENT);
	int fd = open(elf, O_RDONLY);
	Elf *e = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	if (!e || !gelf_getehdr(e, &eh)) {
		fprintf(stderr, "gen-gmon: %s: not an ELF file\n", elf);
		return 1;
	}
	is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	big = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	struct fn *fns = NULL;
	size_t nf = 0, cap = 0;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 1; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			gelf_getsym(d, (int)i, &s);
			if (GELF_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF || !s.st_size)
				continue;
			if (nf == cap)
				fns = realloc(fns, (cap = cap ? 2 * cap : 1024) * sizeof *fns);
			fns[nf++] = (struct fn){s.st_value & (eh.e_machine == EM_ARM ? ~1ull : ~0ull),
						s.st_size};
		}
	}
	if (!nf) {
		fprintf(stderr, "gen-gmon: %s: no functions\n", elf);
		return 1;
	}
	qsort(fns, nf, sizeof *fns, cmp_fn);
	uint64_t lo = fns[0].addr & ~(uint64_t)(2 * per_bin - 1);
	uint64_t hi = fns[nf - 1].addr + fns[nf - 1].size;
	hi = (hi + 2 * per_bin - 1) & ~(uint64_t)(2 * per_bin - 1);
	uint32_t nbins = (uint32_t)((hi - lo) / per_bin);
	if (force_bins > 0)
		nbins = (uint32_t)force_bins;
	uint32_t *bins = calloc(nbins, sizeof *bins);
	for (long i = 0; i < samples; i++) {
		/* a skewed choice: a few hot functions */
		size_t f = (size_t)(rnd() % nf);
		if (rnd() % 4 == 0)
			f = (size_t)(rnd() % (nf < 8 ? nf : 8)) * (nf / 8 + 1) % nf;
		uint64_t a = fns[f].addr + rnd() % fns[f].size;
		uint32_t b = force_bins ? (uint32_t)((a - lo) * nbins / (hi - lo))
					: (uint32_t)((a - lo) / per_bin);
		if (b < nbins && bins[b] < 0xffff)
			bins[b]++;
	}
	if (sat)
		bins[nbins / 2] = 0xffff;
	/* counts past 65535 (GNU format, bins of whole units): exactly 65535 and twice that
	 * among them, the first bin and the last, the rest spread out */
	static const uint32_t big[] = {65535, 200000, 65536, 131070, 131071, 70000, 4000000};
	for (long i = 0; i < over && !force_bins && nbins > 1; i++) {
		uint32_t b = i == 0 ? 0 : i == 1 ? nbins - 1 : (uint32_t)((uint64_t)nbins * i / (over + 1));
		bins[b] = big[i % (long)(sizeof big / sizeof big[0])] + (uint32_t)(i / 7);
	}
	out = fopen(outp, "wb");
	if (!out) {
		perror(outp);
		return 1;
	}
	if (!strcmp(fmt, "gnu")) {
		fwrite("gmon", 1, 4, out);
		put(1, 4);
		put(loss[0], 4);
		put(loss[1], 4);
		put(loss[2], 4);
		uint32_t half = two ? nbins / 2 : nbins;
		char dim[16];
		memcpy(dim, dimension, 15);
		dim[15] = abbrev;
		for (int h = 0; h < (nohist ? 0 : two ? 2 : 1); h++) {
			uint32_t first = h ? half : 0, count = h ? nbins - half : half;
			if (force_bins) {
				hist_record(h ? lo + (hi - lo) / 2 : lo,
					    h || !two ? hi : lo + (hi - lo) / 2, count, rate, dim,
					    bins + first);
				continue;
			}
			/* split at every bin past 65535, as the target writes it */
			uint32_t start = first;
			for (uint32_t b = first; b <= first + count; b++) {
				if (b < first + count && bins[b] <= 0xffff)
					continue;
				if (b > start)
					hist_record(lo + (uint64_t)start * per_bin, lo + (uint64_t)b * per_bin,
						    b - start, rate, dim, bins + start);
				if (b == first + count)
					break;
				for (uint32_t left = bins[b]; left; ) {
					uint32_t piece = left > 0xffff ? 0xffff : left;
					hist_record(lo + (uint64_t)b * per_bin, lo + (uint64_t)(b + 1) * per_bin,
						    1, rate, dim, &piece);
					left -= piece;
				}
				start = b + 1;
			}
		}
	} else {
		int b44 = !strcmp(fmt, "bsd44");
		uint64_t hdr = b44 ? (is64 ? 40 : 32) : (is64 ? 20 : 12);
		vma(lo);
		vma(hi);
		put(hdr + 2ull * nbins, 4);
		if (b44) {
			put(0x00051879, 4);
			put(rate, 4);
			put(0, 4); put(0, 4); put(0, 4);
		}
		for (uint32_t i = 0; i < nbins; i++)
			put(bins[i], 2);
	}
	for (long i = 0; i < arcs; i++) {
		size_t p = (size_t)(rnd() % nf), q = (size_t)(rnd() % nf);
		if (chain && q <= p)
			q = p + 1 < nf ? p + 1 + (size_t)(rnd() % (nf - p - 1 ? nf - p - 1 : 1)) : p;
		uint64_t from = fns[p].addr + (fns[p].size > 1 ? 1 + rnd() % (fns[p].size - 1) : 0);
		uint64_t self = fns[q].addr + (fns[q].size > 4 ? 4 : 0);
		uint64_t count = 1 + rnd() % 1000;
		if (!strcmp(fmt, "gnu")) {
			put(1, 1);
			vma(from);
			vma(self);
			put(count, 4);
		} else {
			vma(from);
			vma(self);
			put(count, is64 ? 8 : 4);
		}
	}
	/* arcs from or to an address below every function */
	for (long i = 0; i < stray; i++) {
		uint64_t real = fns[(size_t)(rnd() % nf)].addr + 4, none = fns[0].addr / 2;
		if (!strcmp(fmt, "gnu"))
			put(1, 1);
		vma(i % 2 ? real : none);
		vma(i % 2 ? none : real);
		put(1 + rnd() % 100, !strcmp(fmt, "gnu") ? 4 : is64 ? 8 : 4);
	}
	/* arcs from and to addresses past the last function */
	for (long i = 0; i < past; i++) {
		uint64_t real = fns[(size_t)(rnd() % nf)].addr + 4;
		uint64_t after = fns[nf - 1].addr + fns[nf - 1].size + 2 * (uint64_t)(rnd() % 64);
		if (!strcmp(fmt, "gnu"))
			put(1, 1);
		vma(i % 2 ? real : after);
		vma(i % 2 ? after : real);
		put(1 + rnd() % 100, !strcmp(fmt, "gnu") ? 4 : is64 ? 8 : 4);
	}
	if (nbb > 0 && !strcmp(fmt, "gnu")) {
		put(2, 1);
		put((uint64_t)nbb, 4);
		for (long i = 0; i < nbb; i++) {
			const struct fn *f = &fns[(size_t)(rnd() % nf)];
			vma(f->addr + (i % 3 ? rnd() % f->size : 0));
			vma(rnd() % 5000);
		}
	}
	fclose(out);
	free(bins);
	free(fns);
	elf_end(e);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "asm"))
		return gen_asm(atoi(argv[2]), (unsigned)atoi(argv[3]));
	if (argc >= 4 && !strcmp(argv[1], "gmon"))
		return gen_gmon(argc - 2, argv + 2);
	fprintf(stderr, "usage: gen-gmon asm N SEED > file.s | gen-gmon gmon ELF OUT [opts]\n");
	return 2;
}
