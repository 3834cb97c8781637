/* respfile.c: @FILE arguments, expanded as libiberty's expandargv. */
#ifndef TGPROF_RESPFILE_H
#define TGPROF_RESPFILE_H

/* *argc, *argv with every @FILE expanded; -1 (reported) on too many @-files or an
 * @-file that is a directory, where gprof exits 1. */
int args_expand_files(int *argc, char ***argv);

#endif
