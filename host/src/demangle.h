/* demangle.c: C++ names demangled as gprof's (through the system's demangler). */
#ifndef TGPROF_DEMANGLE_H
#define TGPROF_DEMANGLE_H

char *demangle(const char *name);

#endif
