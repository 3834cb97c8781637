/* respfile.c: @FILE arguments, expanded as libiberty's expandargv. */
#ifndef TGPROF_RESPFILE_H
#define TGPROF_RESPFILE_H

char **args_expand(int *argc, char **argv);

#endif
