/* C++ names demangled as gprof does it (bfd_demangle with DMGL_PARAMS | DMGL_ANSI):
 * "_Z..." names, the "_GLOBAL_[._$][DI]_" constructor/destructor names, leading dots
 * and "@suffix" kept around the result.  The demangler is libstdc++'s __cxa_demangle
 * (the same libiberty code), loaded at run time so the tool needs no C++ toolchain. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "demangle.h"
#include "error.h"

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static cxa_demangle_fn load(void)
{
	static int tried;
	static cxa_demangle_fn fn;
	if (!tried) {
		tried = 1;
		void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
		if (h)
			fn = (cxa_demangle_fn)(uintptr_t)dlsym(h, "__cxa_demangle");
	}
	return fn;
}

/* (libstdc++ is loaded only once a name looks mangled: a C program never needs it.) */
static char *v3(const char *name)
{
	cxa_demangle_fn fn;
	if (name[0] == '_' && name[1] == 'Z') {
		if (!(fn = load()))
			return NULL;
		int st = 0;
		char *r = fn(name, NULL, NULL, &st);
		if (st != 0) {
			free(r);
			return NULL;
		}
		return r;
	}
	if (!strncmp(name, "_GLOBAL_", 8) && (name[8] == '.' || name[8] == '_' || name[8] == '$') &&
	    (name[9] == 'D' || name[9] == 'I') && name[10] == '_' && load()) {
		const char *rest = name + 11;
		char *d = v3(rest);
		const char *what = name[9] == 'I' ? "global constructors keyed to "
						  : "global destructors keyed to ";
		size_t n = strlen(what) + strlen(d ? d : rest) + 1;
		char *r = xmalloc(n);
		snprintf(r, n, "%s%s", what, d ? d : rest);
		free(d);
		return r;
	}
	return NULL;
}

/* A malloc'ed demangled name, or NULL when NAME is not a mangled name. */
char *demangle(const char *name)
{
	const char *pre = name;
	while (*name == '.' || *name == '$')
		name++;
	size_t pre_len = (size_t)(name - pre);
	const char *suf = strchr(name, '@');
	char *core = suf ? strndup(name, (size_t)(suf - name)) : NULL;
	char *res = v3(core ? core : name);
	free(core);
	if (!res || (!pre_len && !suf))
		return res;
	size_t n = pre_len + strlen(res) + (suf ? strlen(suf) : 0) + 1;
	char *full = xmalloc(n);
	snprintf(full, n, "%.*s%s%s", (int)pre_len, pre, res, suf ? suf : "");
	free(res);
	return full;
}
