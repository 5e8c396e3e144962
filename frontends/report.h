/* frontends/report.h: `xpusim report` (report.c). */
#ifndef XPUSIM_REPORT_H
#define XPUSIM_REPORT_H

/* Write the HTML report of a JSON statistics file (and a --profile file, or NULL) to
 * out_path (NULL: stdout). Exit status: 0 written, 1 trouble (reported on stderr). */
int report_write(const char *stats_path, const char *profile_path, const char *out_path);

#endif
