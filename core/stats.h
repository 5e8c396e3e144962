/* core/stats.h: statistics reports (text and JSON) and the host-speed line.
 * The counters themselves live where they are counted (sim_thread, sim_unit and the
 * ISA-named sim_counter arrays); this module only reads them, so reporting costs nothing
 * while simulating. */
#ifndef XPUSIM_STATS_H
#define XPUSIM_STATS_H
#include <stdio.h>
#include "sim.h"

/* The JSON statistics' schema version (the "schema" member; docs/stats-schema.md). */
#define STATS_SCHEMA_VERSION 3

uint64_t stats_thread_cycles(const sim_machine *m, const sim_thread *t);
uint64_t stats_unit_cycles(const sim_machine *m, const sim_unit *u);
void stats_write_text(const sim_machine *m, FILE *f);
void stats_write_json(const sim_machine *m, FILE *f);
/* "host: 0.012 s, 123.4 MIPS, 456.7 Mcycles/s" */
void stats_write_speed(const sim_machine *m, FILE *f);

#endif
