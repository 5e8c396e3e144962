/* core/run.h: what core/sim.c (the machine and its topology) and core/run.c (the run loop)
 * share, and nothing else includes: the two event functions sim.c registers when it builds a
 * machine (a unit's run event, the watchdog's check), which run.c defines. */
#ifndef XPUSIM_RUN_H
#define XPUSIM_RUN_H
#include "event.h"
#include "sim.h"

/* A unit's run event (ctx: the sim_unit): one burst of the ISA's unit_run. */
void sim_run_unit_event(ev_event *e, void *ctx);
/* The watchdog's check every `watchdog` cycles (ctx: the sim_machine). */
void sim_run_watchdog_event(ev_event *e, void *ctx);
/* Free what the run loop keeps for batches of event-coupled units (sim_destroy). */
void sim_run_free(sim_machine *m);
#endif
