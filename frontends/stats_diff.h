/* frontends/stats_diff.h: `xpusim stats diff` (stats_diff.c). */
#ifndef XPUSIM_STATS_DIFF_H
#define XPUSIM_STATS_DIFF_H
#include <stdio.h>

/* Compare two JSON statistics files; the differences go to out, errors to stderr.
 * 0 identical, 1 differences, 2 trouble (unreadable, not statistics, other ISA). */
int stats_diff_files(const char *a, const char *b, FILE *out);

#endif
